/* util.c: messages, growth, copies and whole-file reads shared by every layer. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util.h"

int gb__fail(char *msg, size_t msglen, int code, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return code;
}

void gb__vnotify(void (*fn)(const char *msg, void *user), void *user, const char *fmt, va_list ap)
{
    if (!fn)
        return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fn(msg, user);
}

int gb__appendf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (!len)
        return 0;
    if (*used >= len)
        *used = len - 1;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n < 0) {
        buf[*used] = '\0';
        return 0;
    }
    const int fits = (size_t)n < len - *used;
    *used += fits ? (size_t)n : len - 1 - *used;
    return fits;
}

int gb__grow(void *buf, size_t *cap, size_t need, size_t elem)
{
    void **p = buf;
    if (need <= *cap && *p)
        return GB_OK;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return GB_ENOMEM;
        n *= 2;
    }
    if (elem && n > SIZE_MAX / elem)
        return GB_ENOMEM;
    void *grown = realloc(*p, n * elem);
    if (!grown)
        return GB_ENOMEM;
    *p = grown;
    *cap = n;
    return GB_OK;
}

int gb__append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (n > SIZE_MAX - *len - 1 || gb__grow(buf, cap, *len + n + 1, 1) != GB_OK)
        return GB_ENOMEM;
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
    return GB_OK;
}

char *gb__memdup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

char *gb__strdup(const char *s)
{
    return gb__memdup(s, strlen(s));
}

int gb__read_stream(FILE *f, size_t max, char **out, size_t *len)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;
    *out = NULL;
    *len = 0;
    for (;;) {
        /* One byte more than max is read, to tell a file of exactly max bytes from a longer one. */
        if (gb__grow(&buf, &cap, n + 4096 < max + 2 ? n + 4096 : max + 2, 1) != GB_OK) {
            free(buf);
            return GB_ENOMEM;
        }
        size_t want = cap - n - 1;
        size_t got = fread(buf + n, 1, want, f);
        n += got;
        if (n > max) {
            free(buf);
            return GB_EOVERFLOW;
        }
        if (got < want)
            break;
    }
    if (ferror(f)) {
        free(buf);
        return GB_EIO;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return GB_OK;
}

int gb__read_file(const char *path, size_t max, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return GB_EIO;
    int rc = gb__read_stream(f, max, out, len);
    fclose(f);
    return rc;
}

int gb__copy(char *dst, size_t len, const char *s)
{
    if (!len)
        return 0;
    const size_t n = strlen(s), take = n < len ? n : len - 1;
    memcpy(dst, s, take);
    dst[take] = '\0';
    return take == n;
}

double gb__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int gb__mkdir_p(const char *dir)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return -1;
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int gb__mkdir_parent(const char *path)
{
    char dir[1024];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return -1;
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    return gb__mkdir_p(dir);
}

const char *gb__default_store_path(char *buf, size_t len)
{
    const char *env = getenv("GEMMBENCH_STORE"), *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int n;
    if (env && env[0])
        n = snprintf(buf, len, "%s", env);
    else if (xdg && xdg[0] == '/')
        n = snprintf(buf, len, "%s/gemmbench/results.db", xdg);
    else if (home && home[0])
        n = snprintf(buf, len, "%s/.local/share/gemmbench/results.db", home);
    else
        return NULL;
    return n > 0 && (size_t)n < len ? buf : NULL;
}
