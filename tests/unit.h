/* unit.h: the assertion macros and file helpers shared by the unit tests (tests/unit_*.c).
 *
 * CHECK(cond) prints file:line and the condition when it fails and counts passes and failures;
 * unit_finish() prints "N passed, M failed" and gives main's exit status (non-zero on any
 * failure). Each test is one executable, so the counters are per-file statics.
 */
#ifndef GB_UNIT_H
#define GB_UNIT_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemmbench.h"

static int unit_passed, unit_failed;

static inline int unit_check(int ok, const char *expr, const char *file, int line)
{
    if (ok) {
        unit_passed++;
    } else {
        unit_failed++;
        printf("%s:%d: CHECK failed: %s\n", file, line, expr);
    }
    return ok;
}

#define CHECK(cond) unit_check((cond) ? 1 : 0, #cond, __FILE__, __LINE__)

/* A return code against the expected one, naming both on failure. */
#define CHECK_RC(rc, want) unit_check_rc((rc), (want), #rc, __FILE__, __LINE__)
static inline int unit_check_rc(int rc, int want, const char *expr, const char *file, int line)
{
    if (rc == want)
        return unit_check(1, expr, file, line);
    unit_check(0, expr, file, line);
    printf("    got %s (%d), want %s (%d)\n", gb_errname(rc), rc, gb_errname(want), want);
    return 0;
}

/* |got - want| <= tol, printing both on failure. */
#define CHECK_NEAR(got, want, tol) unit_check_near((got), (want), (tol), #got, __FILE__, __LINE__)
static inline int unit_check_near(double got, double want, double tol, const char *expr,
                                  const char *file, int line)
{
    if (fabs(got - want) <= tol)
        return unit_check(1, expr, file, line);
    unit_check(0, expr, file, line);
    printf("    got %.17g, want %.17g (tolerance %.3g)\n", got, want, tol);
    return 0;
}

/* Does text (may be NULL) contain part? Prints text on failure. */
#define CHECK_HAS(text, part) unit_check_has((text), (part), __FILE__, __LINE__)
static inline int unit_check_has(const char *text, const char *part, const char *file, int line)
{
    int ok = text && strstr(text, part) != NULL;
    unit_check(ok, part, file, line);
    if (!ok)
        printf("    \"%s\" does not contain \"%s\"\n", text ? text : "(null)", part);
    return ok;
}

static inline int unit_finish(void)
{
    printf("%d passed, %d failed\n", unit_passed, unit_failed);
    return unit_failed != 0;
}

/* Writes text to dir/name; returns 0 on failure. */
static inline int unit_write_file(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    size_t len = strlen(text);
    int ok = fwrite(text, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* The whole file at path, NUL-terminated, its length in *len (caller frees); NULL on failure. */
static inline char *unit_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n) {
        buf[n] = '\0';
        *len = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Makes a fresh directory under /tmp into buf (>= 32 bytes); returns 0 on failure. */
static inline int unit_make_dir(char *buf, size_t len)
{
    snprintf(buf, len, "/tmp/gb_unit_XXXXXX");
    return mkdtemp(buf) != NULL;
}

/* Removes a directory made by unit_make_dir and the plain files the test wrote into it. */
static inline void unit_remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

#endif
