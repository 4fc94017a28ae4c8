/* files.c: the runtime's files of the tuning database (gemmbench_tuning.h): the tuning file (the
 * user's entries, which the tool writes beside the results store and the library reads), the
 * choices file (what measurement chose per exact problem; a cache) and the capture file (the
 * shapes a program ran). Each is text, a line per record, tab-separated, behind a first line
 * that names the format and its version; writers take an exclusive lock (flock) and readers a
 * shared one, so processes may share them. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "rt/util/util.h"
#include "select.h"

/* Version 2 keys entries of every precision (h, b, c, z beside s and d); version 1 held s and d
 * alone, in the same fields, and is read as it was. */
#define TUNING_MAGIC "# gemmbench tuning file 2"
#define TUNING_MAGIC_1 "# gemmbench tuning file 1"
#define CHOICES_MAGIC "# gemmbench choices 1"
#define CAPTURE_MAGIC "# gemmbench capture 1: M N K, then the precision, layout and device"
#define MAX_FILE (64u << 20)
#define MAX_FIELDS 20

/* ---- fields ----------------------------------------------------------------------------------- */

/* Splits line at tabs into at most MAX_FIELDS fields (in place); the count, or 0 when there are
 * more. */
static size_t split(char *line, char *f[MAX_FIELDS])
{
    size_t n = 0;
    for (char *p = line;; p++) {
        if (n == MAX_FIELDS)
            return 0;
        f[n++] = p;
        p = strchr(p, '\t');
        if (!p)
            return n;
        *p = '\0';
    }
}

/* Whether s can be a field: no tab, no line break, no other control character. */
static int field_ok(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

static int text(const char *s, char *out, size_t len)
{
    return field_ok(s) && gb__copy(out, len, s);
}

static int whole(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+')
        return 0;
    const unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return 0;
    *out = v;
    return 1;
}

static int size3(char *const f[3], size_t *m, size_t *n, size_t *k)
{
    unsigned long long v[3];
    for (int i = 0; i < 3; i++)
        if (!whole(f[i], 1ull << 30, &v[i]) || !v[i])
            return 0;
    *m = (size_t)v[0];
    *n = (size_t)v[1];
    *k = (size_t)v[2];
    return 1;
}

static int number(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return *s && !*end && !errno;
}

/* "NAME=V NAME=V" (or "-" for none) into ps. */
static int params(const char *s, gb_params_t *ps)
{
    char buf[2048], *save = NULL;
    memset(ps, 0, sizeof *ps);
    if (!strcmp(s, "-"))
        return 1;
    if (!gb__copy(buf, sizeof buf, s))
        return 0;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const size_t before = ps->count; /* a name given twice sets, and does not count */
        if (gb_params_parse(ps, t, NULL, 0) != GB_OK || ps->count != before + 1)
            return 0;
    }
    return ps->count > 0;
}

/* A field of parameters: "NAME=V NAME=V", or "-" for none. */
static void params_text(const gb_params_t *ps, char *buf, size_t len)
{
    if (!gb_params_text(ps, buf, len)[0])
        gb__copy(buf, len, "-");
}

static void utc_now(char out[32])
{
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The whole file at path under a shared lock: GB_OK with *data (caller frees), GB_ENOPOINT
 * when it does not exist, GB_EBADARG with msg otherwise. */
static int read_locked(const char *path, char **data, size_t *len, char *msg, size_t msglen)
{
    *data = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? GB_ENOPOINT
                               : gb__fail(msg, msglen, GB_EBADARG, "cannot read '%s': %s", path,
                                          strerror(errno));
    flock(fileno(f), LOCK_SH);
    const int rc = gb__read_stream(f, MAX_FILE, data, len);
    fclose(f);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc == GB_ENOMEM ? GB_ENOMEM : GB_EBADARG,
                        "cannot read '%s': %s", path,
                        rc == GB_EOVERFLOW ? "larger than 64 MiB" : gb_strerror(rc));
    return GB_OK;
}

/* Opens path for appending under an exclusive lock, made with its folder, and writes magic as
 * its first line when it is new. NULL with msg on failure. */
static FILE *open_append(const char *path, const char *magic, char *msg, size_t msglen)
{
    if (gb__mkdir_parent(path) != 0) {
        gb__fail(msg, msglen, GB_EBADARG, "cannot make the folder of '%s': %s", path,
                 strerror(errno));
        return NULL;
    }
    FILE *f = fopen(path, "a+");
    if (!f) {
        gb__fail(msg, msglen, GB_EBADARG, "cannot write '%s': %s", path, strerror(errno));
        return NULL;
    }
    flock(fileno(f), LOCK_EX);
    if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0)
        fprintf(f, "%s\n", magic);
    return f;
}

static int close_append(FILE *f, const char *path, char *msg, size_t msglen)
{
    const int bad = fflush(f) != 0 || ferror(f);
    fclose(f); /* releases the lock */
    return bad ? gb__fail(msg, msglen, GB_EBADARG, "cannot write '%s': %s", path, strerror(errno))
               : GB_OK;
}

/* ---- the tuning file ---------------------------------------------------------------------------- */

const char *gb_tuned_file_of_store(const char *store_path, char *buf, size_t len)
{
    const int n = snprintf(buf, len, "%s.tuned", store_path);
    return n > 0 && (size_t)n < len ? buf : NULL;
}

const char *gb_tuned_file_default(char *buf, size_t len)
{
    const char *env = getenv("GEMMBENCH_TUNED");
    if (env && *env)
        return gb__copy(buf, len, env) ? buf : NULL;
    char store[1024];
    return gb__default_store_path(store, sizeof store) ? gb_tuned_file_of_store(store, buf, len)
                                                       : NULL;
}

/* A tuning file's line: device, platform, driver, vendor, type, family, precision, layout, m,
 * n, k, kernel, params, gflops, tuned_at; version is the file's. NULL, or what is wrong. */
static const char *entry_of(char *line, int version, gb_tuned_entry_t *e)
{
    char *f[MAX_FIELDS];
    memset(e, 0, sizeof *e);
    if (split(line, f) != 15)
        return "it has not the 15 tab-separated fields of an entry";
    if (!text(f[0], e->device, sizeof e->device) || !text(f[1], e->platform, sizeof e->platform) ||
        !text(f[2], e->driver, sizeof e->driver) || !text(f[3], e->vendor, sizeof e->vendor) ||
        !text(f[4], e->type, sizeof e->type) || !text(f[5], e->family, sizeof e->family))
        return "a device field is too long or holds a control character";
    if (gb_precision_parse(f[6], &e->precision) != GB_OK)
        return "the precision is not " GB_PREC_NAMES;
    if (version == 1 && e->precision != GB_PREC_S && e->precision != GB_PREC_D)
        return "the precision is not s or d, the only ones of a version 1 file";
    if (!text(f[7], e->layout, sizeof e->layout) || !gb_select__layout_ok(e->layout))
        return "the layout is not row-NN ... col-TT";
    if (!size3(&f[8], &e->m, &e->n, &e->k))
        return "M, N and K are not whole numbers from 1 to 2^30";
    gb_shape_class(e->m, e->n, e->k, e->shape_class, sizeof e->shape_class);
    if (!text(f[11], e->kernel, sizeof e->kernel) || !params(f[12], &e->params))
        return "the kernel or its parameters (NAME=V NAME=V, or -) are malformed";
    if (!number(f[13], &e->gflops) || !text(f[14], e->tuned_at, sizeof e->tuned_at))
        return "the GFLOP/s or the time is malformed";
    if (!strcmp(e->tuned_at, "-")) /* no time: what gb_tuned_file_write writes for "" */
        e->tuned_at[0] = '\0';
    return NULL;
}

/* The next line of data[*at..len) (its '\n' replaced by a NUL) into *line and *linelen; 0 at
 * the end. A line may hold NUL bytes, which *linelen counts. */
static int next_line(char *data, size_t len, size_t *at, char **line, size_t *linelen)
{
    if (*at >= len)
        return 0;
    *line = data + *at;
    char *nl = memchr(*line, '\n', len - *at);
    *linelen = nl ? (size_t)(nl - *line) : len - *at;
    (*line)[*linelen] = '\0'; /* the '\n', or the NUL gb__read_stream ends the data with */
    *at += *linelen + 1;
    return 1;
}

int gb_tuned_file_read(gb_tuned_t *t, const char *path, const gb_registry_t *reg,
                       const char *source, size_t *read, size_t *skipped, char *warn,
                       size_t warnlen, char *msg, size_t msglen)
{
    *read = *skipped = 0;
    if (warn && warnlen)
        warn[0] = '\0';
    char *data;
    size_t len;
    int rc = read_locked(path, &data, &len, msg, msglen);
    if (rc != GB_OK)
        return rc == GB_ENOPOINT ? GB_OK : rc;
    size_t at = 0, linelen = 0, lineno = 1;
    char *line = NULL;
    int version = 0;
    if (next_line(data, len, &at, &line, &linelen))
        version = linelen == strlen(TUNING_MAGIC) && !memcmp(line, TUNING_MAGIC, linelen)       ? 2
                  : linelen == strlen(TUNING_MAGIC_1) && !memcmp(line, TUNING_MAGIC_1, linelen) ? 1
                                                                                                : 0;
    if (!version) {
        /* Another format or version: none of it is read, and that is said once. */
        *skipped = 1;
        gb__fail(warn, warnlen, GB_EBADARG,
                 "%s: not a tuning file of this version (its first line is not '%s' or of "
                 "version 1); its "
                 "entries are skipped: write it again from its store with `gemmbench tuned sync`",
                 path, TUNING_MAGIC);
        free(data);
        return GB_OK;
    }
    /* The good lines first, then one merge: a file of many entries is read in linear time. */
    gb_tuned_entry_t *good = NULL;
    size_t ngood = 0, cap = 0;
    while (rc == GB_OK && next_line(data, len, &at, &line, &linelen)) {
        lineno++;
        if (line[0] == '#' || !linelen)
            continue;
        gb_tuned_entry_t e;
        const gb_family_t *fam;
        const gb_preset_t *pre;
        char why[512], kwhy[400];
        const char *bad =
            strlen(line) != linelen ? "it holds a NUL byte" : entry_of(line, version, &e);
        if (!bad && gb_tuned_entry_check(&e, why, sizeof why) != GB_OK)
            bad = why;
        else if (!bad && gb_tuned_entry_check_kernel(&e, reg, kwhy, sizeof kwhy) != GB_OK) {
            snprintf(why, sizeof why, "%s%s",
                     gb_registry_find(reg, e.kernel, &fam, &pre) != GB_OK
                         ? "it names a kernel this build does not have: "
                         : "",
                     kwhy);
            bad = why;
        }
        if (bad) {
            if (!(*skipped)++)
                gb__fail(warn, warnlen, GB_EBADARG, "%s:%zu: entry skipped: %s", path, lineno, bad);
            continue;
        }
        gb__copy(e.source, sizeof e.source, source);
        if ((rc = gb__grow(&good, &cap, ngood + 1, sizeof *good)) == GB_OK)
            good[ngood++] = e;
    }
    free(data);
    if (rc == GB_OK && (rc = gb_tuned_merge_all(t, good, ngood)) == GB_OK)
        *read = ngood;
    free(good);
    return rc == GB_OK ? GB_OK : gb__fail(msg, msglen, rc, "out of memory");
}

int gb_tuned_file_write(const gb_tuned_t *t, const char *path, char *msg, size_t msglen)
{
    /* The process and a count: two writers of one process never share a temporary file. */
    static _Atomic unsigned long writes;
    char tmp[1100];
    if (snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", path, (long)getpid(),
                 (unsigned long)++writes) >= (int)sizeof tmp)
        return gb__fail(msg, msglen, GB_EBADARG, "the path '%s' is too long", path);
    if (gb__mkdir_parent(path) != 0)
        return gb__fail(msg, msglen, GB_EBADARG, "cannot make the folder of '%s': %s", path,
                        strerror(errno));
    FILE *f = fopen(tmp, "w");
    if (!f)
        return gb__fail(msg, msglen, GB_EBADARG, "cannot write '%s': %s", tmp, strerror(errno));
    fprintf(f,
            "%s\n# device\tplatform\tdriver\tvendor\ttype\tfamily\tprecision\tlayout\tm\tn\tk\t"
            "kernel\tparams\tgflops\ttuned_at\n",
            TUNING_MAGIC);
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < t->n; i++) {
        const gb_tuned_entry_t *e = &t->e[i];
        /* The library chooses by time: the other objectives' entries stay in the store. */
        if (!strcmp(e->source, "shipped") || strcmp(gb_tuned_objective(e), GB_OBJECTIVE_TIME))
            continue;
        char ps[2048];
        params_text(&e->params, ps, sizeof ps);
        const char *fields[] = {e->device, e->platform, e->driver, e->vendor,  e->type,
                                e->family, e->layout,   e->kernel, e->tuned_at};
        for (size_t j = 0; j < sizeof fields / sizeof fields[0]; j++)
            if (!field_ok(fields[j]))
                rc = gb__fail(msg, msglen, GB_EBADARG,
                              "the tuned entry for '%s' holds a control character; it cannot "
                              "be written to '%s'",
                              e->device, path);
        if (rc == GB_OK)
            fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%zu\t%zu\t%zu\t%s\t%s\t%.17g\t%s\n",
                    e->device, e->platform, e->driver, e->vendor, e->type, e->family,
                    gb_precision_name(e->precision), e->layout, e->m, e->n, e->k, e->kernel, ps,
                    e->gflops, e->tuned_at[0] ? e->tuned_at : "-");
    }
    const int bad = fflush(f) != 0 || ferror(f);
    fclose(f);
    if (rc == GB_OK && bad)
        rc = gb__fail(msg, msglen, GB_EBADARG, "cannot write '%s': %s", tmp, strerror(errno));
    if (rc == GB_OK && rename(tmp, path) != 0)
        rc = gb__fail(msg, msglen, GB_EBADARG, "cannot replace '%s': %s", path, strerror(errno));
    if (rc != GB_OK)
        unlink(tmp);
    return rc;
}

/* ---- the choices file --------------------------------------------------------------------------- */

const char *gb_chosen_file_default(char *buf, size_t len)
{
    return gb__user_path("GEMMBENCH_CHOICES", "XDG_CACHE_HOME", ".cache", "gemmbench/choices", buf,
                         len);
}

/* A choices line: device, platform, driver, precision, layout, m, n, k, portfolio, kernel,
 * params, gflops, measured, pending, chosen_at, measure_ms, build_ms, table_ratio. */
static int chosen_of(char *line, gb_chosen_t *c)
{
    char *f[MAX_FIELDS];
    unsigned long long measured, pending;
    memset(c, 0, sizeof *c);
    return split(line, f) == 18 && text(f[0], c->device, sizeof c->device) &&
           text(f[1], c->platform, sizeof c->platform) && text(f[2], c->driver, sizeof c->driver) &&
           gb_precision_parse(f[3], &c->precision) == GB_OK &&
           text(f[4], c->layout, sizeof c->layout) && gb_select__layout_ok(c->layout) &&
           size3(&f[5], &c->m, &c->n, &c->k) && text(f[8], c->portfolio, sizeof c->portfolio) &&
           text(f[9], c->kernel, sizeof c->kernel) && c->kernel[0] && params(f[10], &c->params) &&
           number(f[11], &c->gflops) && whole(f[12], GB_PORTFOLIO_MAX, &measured) &&
           whole(f[13], GB_PORTFOLIO_MAX, &pending) &&
           text(f[14], c->chosen_at, sizeof c->chosen_at) && number(f[15], &c->measure_ms) &&
           number(f[16], &c->build_ms) && number(f[17], &c->table_ratio) &&
           ((c->measured = (unsigned)measured), (c->pending = (unsigned)pending), 1);
}

int gb_chosen_find(const char *path, const gb_device_info_t *dev, const gb_problem_t *p,
                   const char *portfolio, gb_chosen_t *out)
{
    char *data, tag[16];
    size_t len;
    if (read_locked(path, &data, &len, NULL, 0) != GB_OK)
        return GB_ENOPOINT;
    gb_tuned_layout_key(p, tag, sizeof tag); /* C keyed as T, as the choice was appended */
    int found = 0;
    char *save = NULL, *line = strtok_r(data, "\n", &save);
    if (line && !strcmp(line, CHOICES_MAGIC))
        while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
            gb_chosen_t c;
            if (line[0] == '#' || !chosen_of(line, &c))
                continue;
            if (!strcmp(c.device, dev->name) && !strcmp(c.platform, dev->platform_name) &&
                !strcmp(c.driver, dev->driver) && c.precision == p->precision &&
                !strcmp(c.layout, tag) && c.m == p->m && c.n == p->n && c.k == p->k &&
                !strcmp(c.portfolio, portfolio)) {
                *out = c; /* the last line of a key wins */
                found = 1;
            }
        }
    free(data);
    return found ? GB_OK : GB_ENOPOINT;
}

int gb_chosen_append(const char *path, const gb_chosen_t *c, char *msg, size_t msglen)
{
    const char *fields[] = {c->device, c->platform, c->driver, c->portfolio, c->kernel};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!field_ok(fields[i]))
            return gb__fail(msg, msglen, GB_EBADARG,
                            "a choice for '%s' holds a control character; not written", c->device);
    char ps[2048], when[32];
    params_text(&c->params, ps, sizeof ps);
    if (c->chosen_at[0])
        gb__copy(when, sizeof when, c->chosen_at);
    else
        utc_now(when);
    FILE *f = open_append(path, CHOICES_MAGIC, msg, msglen);
    if (!f)
        return GB_EBADARG;
    fprintf(f,
            "%s\t%s\t%s\t%s\t%s\t%zu\t%zu\t%zu\t%s\t%s\t%s\t%.6g\t%u\t%u\t%s\t%.1f\t%.1f\t%.3g\n",
            c->device, c->platform, c->driver, gb_precision_name(c->precision), c->layout, c->m,
            c->n, c->k, c->portfolio, c->kernel, ps, c->gflops, c->measured, c->pending, when,
            c->measure_ms, c->build_ms, c->table_ratio);
    return close_append(f, path, msg, msglen);
}

/* ---- the capture file --------------------------------------------------------------------------- */

int gb_capture_append(const char *path, const gb_device_info_t *dev, const gb_problem_t *p,
                      char *msg, size_t msglen)
{
    char tag[16], line[512];
    if (!field_ok(dev->name))
        return gb__fail(msg, msglen, GB_EBADARG, "the device's name holds a control character");
    snprintf(line, sizeof line, "%zu %zu %zu  # %s %s %s", p->m, p->n, p->k,
             gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), dev->name);
    FILE *f = open_append(path, CAPTURE_MAGIC, msg, msglen);
    if (!f)
        return GB_EBADARG;
    /* Already there? The file is read under the same lock that the append holds. */
    rewind(f);
    char *have = NULL;
    size_t cap = 0;
    int found = 0;
    ssize_t got;
    while (!found && (got = getline(&have, &cap, f)) > 0) {
        have[strcspn(have, "\n")] = '\0';
        found = !strcmp(have, line);
    }
    free(have);
    if (!found) {
        fseek(f, 0, SEEK_END);
        fprintf(f, "%s\n", line);
    }
    return close_append(f, path, msg, msglen);
}
