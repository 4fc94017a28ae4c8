/* args.c: error printing, strict number parsing, device selection and safe file output for the
 * subcommands. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt/util/util.h"
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
    case GB_ESTORE: return EXIT_RUNTIME;
    default: return EXIT_USAGE;
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

int cli_read_file(const char *file, size_t max, const char *over, char **text, size_t *len)
{
    FILE *f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
    if (!f)
        return cli_error(GB_EBADARG, "cannot read '%s'; check the path", file);
    *len = 0;
    const int rc = gb__read_stream(f, max, text, len);
    if (f != stdin)
        fclose(f);
    if (rc == GB_ENOMEM)
        return cli_error(rc, "out of memory reading '%s'", file);
    if (rc == GB_EOVERFLOW)
        return cli_error(GB_EBADARG, "'%s' is over %zu MiB; %s", file, max >> 20, over);
    if (rc != GB_OK)
        return cli_error(GB_EBADARG, "cannot read '%s'", file);
    return 0;
}

gb_precision_t cli_first_precision(unsigned mask)
{
    for (int p = 0; p < GB_PREC_COUNT; p++)
        if (mask & (1u << p))
            return (gb_precision_t)p;
    return GB_PREC_S;
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
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
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

int cli_registry_open(gb_registry_t **reg, const char *kpath)
{
    char msg[1024];
    const int rc = gb_registry_open(reg, kpath, msg, sizeof msg);
    return rc == GB_OK ? 0 : cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
}

static int is_many(const char *dv)
{
    return dv && (!strcmp(dv, "all") || strchr(dv, ','));
}

/* The devices of the list that -p and -t allow ('all'). */
static int pick_all(cli_device_t *d, const gb_device_selector_t *sel, char *msg, size_t msglen)
{
    gb_device_selector_t one = *sel;
    one.device = NULL;
    for (size_t i = 0; i < d->count; i++) {
        size_t at;
        /* A list of one: the platform and type tests of -p and -t, nothing else. */
        if (gb_device_select(d->list + i, 1, &one, &at, msg, msglen) != GB_OK)
            continue;
        if (d->npicks == CLI_MAX_DEVICES)
            return gb__fail(msg, msglen, GB_EBADARG,
                            "more than %d devices; list them with -d 0,1,..", CLI_MAX_DEVICES);
        d->picks[d->npicks++] = i;
    }
    return d->npicks ? GB_OK
                     : gb__fail(msg, msglen, GB_ENODEVICE, "no OpenCL device matches -p and -t");
}

/* Each device of a comma-separated -d list. */
static int pick_list(cli_device_t *d, const gb_device_selector_t *sel, char *msg, size_t msglen)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", sel->device);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        gb_device_selector_t one = *sel;
        one.device = t;
        if (d->npicks == CLI_MAX_DEVICES)
            return gb__fail(msg, msglen, GB_EBADARG, "more than %d devices in -d", CLI_MAX_DEVICES);
        int rc = gb_device_select(d->list, d->count, &one, &d->picks[d->npicks], msg, msglen);
        if (rc != GB_OK)
            return rc;
        d->npicks++;
    }
    return d->npicks ? GB_OK
                     : gb__fail(msg, msglen, GB_EBADARG, "-d '%s' names no device", sel->device);
}

static int open_devices(cli_device_t *d, const gb_device_selector_t *sel, int many)
{
    char msg[512];
    memset(d, 0, sizeof *d);
    if (!many && is_many(sel->device))
        return cli_error(GB_EBADARG,
                         "-d '%s': this command measures on one device; 'all' and lists are for "
                         "explore and tune",
                         sel->device);
    int rc = gb_device_list(&d->list, &d->count, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    if (is_many(sel->device))
        rc = !strcmp(sel->device, "all") ? pick_all(d, sel, msg, sizeof msg)
                                         : pick_list(d, sel, msg, sizeof msg);
    else if ((rc = gb_device_select(d->list, d->count, sel, &d->picks[0], msg, sizeof msg)) ==
             GB_OK)
        d->npicks = 1;
    if (rc != GB_OK) {
        gb_device_list_free(d->list, d->count);
        d->list = NULL;
        return cli_error(rc, "%s; run 'gemmbench devices' to list them", msg);
    }
    d->index = d->picks[0];
    return 0;
}

int cli_device_type(const char *arg, gb_device_type_t *out)
{
    if (gb_device_type_parse(arg, out) == GB_OK)
        return 0;
    return cli_error(GB_EBADARG,
                     "unknown device type '%s'; use all, cpu, gpu, acc or default, or the OpenCL "
                     "constant: CL_DEVICE_TYPE_GPU",
                     arg);
}

int cli_device_open(cli_device_t *d, const gb_device_selector_t *sel)
{
    return open_devices(d, sel, 0);
}

int cli_devices_open(cli_device_t *d, const gb_device_selector_t *sel)
{
    return open_devices(d, sel, 1);
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

void cli_outcome_text(const gb_validation_t *v, gb_outcome_t oc, char *buf, size_t len)
{
    if (oc == GB_OUTCOME_UNFAITHFUL)
        snprintf(buf, len, "FAIL: not faithful (within the bound: %.2g/%.3g)", v->max_ratio,
                 v->bound_ratio);
    else
        cli_verdict_text(v, 0, buf, len);
}

void cli_faithful_text(const gb_validation_t *v, gb_precision_t prec, char *buf, size_t len)
{
    if (!v->faithful[0])
        snprintf(buf, len, "-");
    else if (!strcmp(v->faithful, "faithful"))
        snprintf(buf, len, "faithful");
    else
        snprintf(buf, len, "not faithful: %.0fx %s", gb_faithful_ratio(v),
                 prec == GB_PREC_D ? "FP64" : "FP32");
}

/* path made absolute through its folder's real path (the file itself may not exist yet), into
 * buf; NULL when the folder cannot be resolved. */
static const char *canonical(const char *path, char *buf, size_t len)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, real))
        return NULL;
    /* A name that is itself a link is followed too: writing through it replaces its target. */
    char whole[PATH_MAX * 2 + 2];
    snprintf(whole, sizeof whole, "%s/%s", strcmp(real, "/") ? real : "", base);
    if (realpath(whole, buf))
        return buf;
    snprintf(buf, len, "%s", whole);
    return buf;
}

/* Does path name the store's file, or one of SQLite's files beside it (-wal, -shm, -journal)?
 * The same device and inode when both exist (hard and symbolic links, other spellings of the
 * name), else the same canonical name. */
static int is_store_file(const char *path, const char *store)
{
    static const char *const sfx[] = {"", "-wal", "-shm", "-journal"};
    char cp[PATH_MAX * 2 + 2], cs[PATH_MAX * 2 + 2], other[PATH_MAX * 2 + 16];
    struct stat a, b;
    const int exists = stat(path, &a) == 0;
    const char *p = canonical(path, cp, sizeof cp), *s = canonical(store, cs, sizeof cs);
    for (size_t i = 0; i < sizeof sfx / sizeof sfx[0]; i++) {
        snprintf(other, sizeof other, "%s%s", store, sfx[i]);
        if (exists && stat(other, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return 1;
        snprintf(other, sizeof other, "%s%s", s ? s : "", sfx[i]);
        if (p && s && !strcmp(p, other))
            return 1;
    }
    return 0;
}

/* Does the file at path begin with SQLite's 16-byte header string? */
static int is_sqlite_file(const char *path)
{
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    const int yes = fread(head, 1, sizeof head, f) == sizeof head &&
                    !memcmp(head, "SQLite format 3", sizeof head);
    fclose(f);
    return yes;
}

/* The refusal of an output that would replace the store or another SQLite database: 0 when
 * path may be written, else the exit code after a one-line error. */
static int out_refused(const char *path, const char *store)
{
    if (store && is_store_file(path, store))
        return cli_error(GB_EBADARG,
                         "--out '%s' is the results store %s (or one of its files); "
                         "writing there would replace the store: give another --out",
                         path, store);
    if (is_sqlite_file(path))
        return cli_error(GB_EBADARG,
                         "--out '%s' is an SQLite database (a results store?); "
                         "gemmbench does not replace one: give another --out",
                         path);
    return 0;
}

#define TMP_TAG ".gemmbench-tmp."

/* Removes PATH.gemmbench-tmp.PID files that a killed earlier write of path left behind: those
 * whose process no longer exists. */
static void remove_stale(const char *path)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char dir[PATH_MAX], prefix[NAME_MAX + 32], victim[PATH_MAX + NAME_MAX + 2];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    snprintf(prefix, sizeof prefix, "%s" TMP_TAG, base);
    DIR *d = opendir(dir);
    if (!d)
        return;
    const size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *num = e->d_name + plen;
        if (strncmp(e->d_name, prefix, plen) || !*num || num[strspn(num, "0123456789")])
            continue;
        const long pid = strtol(num, NULL, 10);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(victim, sizeof victim, "%s%s", slash ? dir : "", e->d_name);
        unlink(victim);
    }
    closedir(d);
}

int cli_out_open(cli_out_t *o, const char *path, const char *store)
{
    o->f = stdout;
    o->path = path;
    o->store = store;
    o->tmp[0] = '\0';
    if (!path)
        return 0;
    int rc = out_refused(path, store);
    if (rc)
        return rc;
    remove_stale(path);
    snprintf(o->tmp, sizeof o->tmp, "%s" TMP_TAG "%ld", path, (long)getpid());
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
    /* Checked again: the file may have appeared while the output was written. */
    int refused = rc == GB_OK ? out_refused(o->path, o->store) : 0;
    if (refused) {
        remove(o->tmp);
        return refused;
    }
    if (rc == GB_OK && rename(o->tmp, o->path) != 0) {
        remove(o->tmp);
        return cli_error(GB_EBADARG, "cannot write '%s'; check the path", o->path);
    }
    if (rc != GB_OK)
        remove(o->tmp);
    return rc;
}

int cli_bad_option(int c, const char *name, const char *cmd)
{
    if (c == ':')
        return cli_error(GB_EBADARG, "option '%s' needs a value", name);
    return cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench %s --help'", name, cmd);
}

int cli_no_operands(int argc, char **argv, const char *cmd)
{
    if (optind >= argc)
        return 0;
    return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench %s --help'",
                     argv[optind], cmd);
}
