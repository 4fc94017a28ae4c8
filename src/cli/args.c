/* args.c: error printing, strict number parsing and device selection for the subcommands. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("gemmbench: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    switch (code) {
    case GB_EOPENCL:
    case GB_EBUILD:
    case GB_ENOMEM:
    case GB_EIO:
        return EXIT_RUNTIME;
    default:
        return EXIT_USAGE;
    }
}

int cli_parse_size(const char *what, const char *s, size_t *out)
{
    char *end;
    errno = 0;
    const char *p = s;
    while (*p == ' ')
        p++;
    if (*p == '-')
        return cli_error(GB_EBADARG, "%s must be a positive integer, got '%s'", what, s);
    unsigned long long v = strtoull(p, &end, 10);
    if (end == p || *end != '\0')
        return cli_error(GB_EBADARG, "%s must be a positive integer, got '%s'", what, s);
    if (errno == ERANGE || v > (1ull << 40))
        return cli_error(GB_EBADARG, "%s=%s is too large", what, s);
    if (v == 0)
        return cli_error(GB_EBADARG, "%s must be a positive integer, got 0", what);
    *out = (size_t)v;
    return 0;
}

int cli_parse_double(const char *what, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return cli_error(GB_EBADARG, "%s must be a finite number, got '%s'", what, s);
    *out = v;
    return 0;
}

int cli_parse_size_list(const char *what, const char *s, size_t *out, size_t cap, size_t *n)
{
    char buf[1024];
    if (strlen(s) >= sizeof buf)
        return cli_error(GB_EBADARG, "%s list is too long", what);
    snprintf(buf, sizeof buf, "%s", s);
    *n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == cap)
            return cli_error(GB_EBADARG, "%s lists more than %zu values", what, cap);
        int rc = cli_parse_size(what, tok, &out[*n]);
        if (rc)
            return rc;
        (*n)++;
    }
    if (*n == 0)
        return cli_error(GB_EBADARG, "%s must be a positive integer, got '%s'", what, s);
    return 0;
}

int cli_device_open(cli_device_t *d, const gb_device_selector_t *sel)
{
    char msg[512];
    memset(d, 0, sizeof *d);
    int rc = gb_device_list(&d->list, &d->count, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    rc = gb_device_select(d->list, d->count, sel, &d->index, msg, sizeof msg);
    if (rc != GB_OK) {
        gb_device_list_free(d->list, d->count);
        d->list = NULL;
        return cli_error(rc, "%s; run 'gemmbench devices' to list them", msg);
    }
    return 0;
}

void cli_device_close(cli_device_t *d)
{
    gb_device_list_free(d->list, d->count);
    d->list = NULL;
}

void cli_verdict_text(const gb_validation_t *v, int why_not, char *buf, size_t len)
{
    if (!v->done && why_not)
        snprintf(buf, len, "not validated (%s)", v->reason);
    else if (!v->done)
        snprintf(buf, len, "-");
    else if (!v->passed)
        snprintf(buf, len, "FAIL: %s", v->reason);
    else if (v->exact)
        snprintf(buf, len, "pass exact");
    else
        snprintf(buf, len, "pass %.2g/%.3g", v->max_ratio, v->bound_ratio);
}

int cli_out_open(cli_out_t *o, const char *path)
{
    o->f = stdout;
    o->path = path;
    o->tmp[0] = '\0';
    if (!path)
        return 0;
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp%ld", path, (long)getpid());
    if (!(o->f = fopen(o->tmp, "wb")))
        return cli_error(GB_EBADARG, "cannot write '%s'; check the path", path);
    return 0;
}

int cli_out_close(cli_out_t *o, int rc)
{
    if (!o->path)
        return rc;
    const int closed = fclose(o->f);
    o->f = NULL;
    if (rc == GB_OK && closed != 0)
        rc = GB_EIO;
    if (rc == GB_OK && rename(o->tmp, o->path) != 0) {
        remove(o->tmp);
        return cli_error(GB_EBADARG, "cannot write '%s'; check the path", o->path);
    }
    if (rc != GB_OK)
        remove(o->tmp);
    return rc;
}

int cli_no_operands(int argc, char **argv, const char *cmd)
{
    if (optind >= argc)
        return 0;
    return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench %s --help'",
                     argv[optind], cmd);
}
