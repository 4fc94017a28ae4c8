/* recorded.c: recorded spaces (recorded.h): reading and writing the text format of
 * docs/tuning.md, "Recorded spaces", and looking up a configuration's recorded score. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "recorded.h"

#define FORMAT "gemmbench-space"
#define VERSION 1
#define MAX_FILE (64u << 20) /* bytes: some million configurations */

struct gb_recorded {
    gb_recorded_info_t info;
    /* rank + 1 -> score and the line it came from; open addressing, 0 marks a free slot */
    uint64_t *keys;
    double *scores;
    size_t *lines;
    size_t cap, n;
    double best;
};

/* ---- the table of scores ------------------------------------------------------------------ */

static size_t slot(const gb_recorded_t *rec, uint64_t r)
{
    size_t h = (size_t)((r + 1) * 0x9E3779B97F4A7C15ull >> 20) & (rec->cap - 1);
    while (rec->keys[h] && rec->keys[h] != r + 1)
        h = (h + 1) & (rec->cap - 1);
    return h;
}

static int table_grow(gb_recorded_t *rec)
{
    const size_t cap = rec->cap ? 2 * rec->cap : 1024;
    uint64_t *keys = calloc(cap, sizeof *keys);
    double *scores = malloc(cap * sizeof *scores);
    size_t *lines = malloc(cap * sizeof *lines);
    if (!keys || !scores || !lines) {
        free(keys);
        free(scores);
        free(lines);
        return GB_ENOMEM;
    }
    gb_recorded_t grown = *rec;
    grown.keys = keys;
    grown.scores = scores;
    grown.lines = lines;
    grown.cap = cap;
    for (size_t i = 0; i < rec->cap; i++) {
        if (!rec->keys[i])
            continue;
        const size_t h = slot(&grown, rec->keys[i] - 1);
        keys[h] = rec->keys[i];
        scores[h] = rec->scores[i];
        lines[h] = rec->lines[i];
    }
    free(rec->keys);
    free(rec->scores);
    free(rec->lines);
    *rec = grown;
    return GB_OK;
}

/* ---- reading ------------------------------------------------------------------------------- */

/* The next whitespace-separated word of *p (NUL-terminated in place), or NULL at the end. */
static char *word(char **p)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!*s)
        return NULL;
    char *e = s;
    while (*e && *e != ' ' && *e != '\t')
        e++;
    if (*e)
        *e++ = '\0';
    *p = e;
    return s;
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    const long v = strtol(s, &end, 10);
    if (errno || end == s || *end)
        return 0;
    *out = v;
    return 1;
}

/* The rest of a line after its key, trimmed, into dst (len bytes, cut to fit). */
static void rest_of(char *p, char *dst, size_t len)
{
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
        n--;
    snprintf(dst, len, "%.*s", (int)n, p);
}

/* What the header lists, before the space is opened. */
typedef struct header {
    int have_format, have_family, have_precision, have_size;
    size_t nparams;
    char names[GB_MAX_PARAMS][GB_NAME_MAX];
    long *values[GB_MAX_PARAMS];
    size_t nvalues[GB_MAX_PARAMS];
    size_t param_line[GB_MAX_PARAMS];
} header_t;

static void header_free(header_t *h)
{
    for (size_t i = 0; i < h->nparams; i++)
        free(h->values[i]);
}

#define BAD(...) gb__fail(msg, msglen, GB_EBADARG, __VA_ARGS__)

static const char *const type_names[] = {"cpu", "gpu", "accelerator", "other"};

/* A 'limits' line's words: type=T local_memory=BYTES work_group=N work_items=X,Y
 * compute_units=N, each once. */
static int limits_line(gb_recorded_info_t *info, char *p, const char *path, size_t ln, char *msg,
                       size_t msglen)
{
    enum { TYPE = 1, LOCAL = 2, GROUP = 4, ITEMS = 8, UNITS = 16, ALL = 31 };
    unsigned seen = 0;
    for (char *w; (w = word(&p)) != NULL;) {
        char *v = strchr(w, '=');
        long a = 0, b = 0;
        unsigned what = 0;
        if (v)
            *v++ = '\0';
        if (v && !strcmp(w, "type")) {
            for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
                if (!strcmp(v, type_names[i])) {
                    info->type_name = type_names[i];
                    what = TYPE;
                }
        } else if (v && !strcmp(w, "work_items")) {
            char *comma = strchr(v, ',');
            if (comma)
                *comma = '\0';
            if (comma && parse_long(v, &a) && parse_long(comma + 1, &b) && a > 0 && b > 0) {
                info->max_wi_sizes[0] = (size_t)a;
                info->max_wi_sizes[1] = (size_t)b;
                what = ITEMS;
            }
        } else if (v && parse_long(v, &a) && a > 0) {
            if (!strcmp(w, "local_memory")) {
                info->local_mem = (uint64_t)a;
                what = LOCAL;
            } else if (!strcmp(w, "work_group")) {
                info->max_wg_size = (size_t)a;
                what = GROUP;
            } else if (!strcmp(w, "compute_units") && a <= 1L << 30) {
                info->compute_units = (unsigned)a;
                what = UNITS;
            }
        }
        if (!what || (seen & what))
            break;
        seen |= what;
    }
    if (seen != ALL)
        return BAD("%s:%zu: give the limits as type=cpu|gpu|accelerator|other "
                   "local_memory=BYTES work_group=N work_items=X,Y compute_units=N, each once",
                   path, ln);
    info->has_limits = 1;
    return GB_OK;
}

/* One header line (key and the rest). GB_OK, 1 at "configurations", or an error. */
static int header_line(header_t *h, gb_recorded_info_t *info, char *line, const char *path,
                       size_t ln, char *msg, size_t msglen)
{
    char *p = line;
    const char *key = word(&p);
    if (!h->have_format) {
        long v;
        const char *ver = word(&p);
        if (strcmp(key, FORMAT) || !ver || !parse_long(ver, &v) || word(&p))
            return BAD("%s:%zu: not a recorded space: the first line must be '%s %d'", path, ln,
                       FORMAT, VERSION);
        if (v != VERSION)
            return BAD("%s:%zu: version %ld of the recorded-space format is not known (this "
                       "reads version %d)",
                       path, ln, v, VERSION);
        h->have_format = 1;
        return GB_OK;
    }
    if (!strcmp(key, "family")) {
        const char *name = word(&p);
        if (!name || word(&p) || strlen(name) >= GB_NAME_MAX)
            return BAD("%s:%zu: give one family name after 'family'", path, ln);
        snprintf(info->family, sizeof info->family, "%s", name);
        h->have_family = 1;
    } else if (!strcmp(key, "precision")) {
        const char *s = word(&p);
        if (!s || word(&p) || gb_precision_parse(s, &info->precision) != GB_OK)
            return BAD("%s:%zu: the precision is " GB_PREC_NAMES, path, ln);
        h->have_precision = 1;
    } else if (!strcmp(key, "size")) {
        long v[3];
        for (int i = 0; i < 3; i++) {
            const char *s = word(&p);
            if (!s || !parse_long(s, &v[i]) || v[i] < 1)
                return BAD("%s:%zu: give the size as three positive integers, M N K", path, ln);
        }
        if (word(&p))
            return BAD("%s:%zu: give the size as three positive integers, M N K", path, ln);
        info->m = (size_t)v[0];
        info->n = (size_t)v[1];
        info->k = (size_t)v[2];
        h->have_size = 1;
    } else if (!strcmp(key, "device")) {
        rest_of(p, info->device, sizeof info->device);
    } else if (!strcmp(key, "source")) {
        rest_of(p, info->source, sizeof info->source);
    } else if (!strcmp(key, "vendor")) {
        rest_of(p, info->vendor, sizeof info->vendor);
    } else if (!strcmp(key, "limits")) {
        return limits_line(info, p, path, ln, msg, msglen);
    } else if (!strcmp(key, "param")) {
        const char *name = word(&p);
        if (!name || strlen(name) >= GB_NAME_MAX)
            return BAD("%s:%zu: give a parameter name and its values after 'param'", path, ln);
        for (size_t i = 0; i < h->nparams; i++)
            if (!strcmp(h->names[i], name))
                return BAD("%s:%zu: parameter %s is listed twice (first on line %zu)", path, ln,
                           name, h->param_line[i]);
        if (h->nparams == GB_MAX_PARAMS)
            return BAD("%s:%zu: more than %d parameters", path, ln, GB_MAX_PARAMS);
        const size_t k = h->nparams;
        if (!(h->values[k] = malloc(GB_SPACE_MAX_VALUES * sizeof *h->values[k])))
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        h->nparams++;
        snprintf(h->names[k], sizeof h->names[k], "%s", name);
        h->param_line[k] = ln;
        for (const char *s; (s = word(&p)) != NULL;) {
            long v;
            if (!parse_long(s, &v))
                return BAD("%s:%zu: %s's value '%s' is not an integer", path, ln, name, s);
            for (size_t j = 0; j < h->nvalues[k]; j++)
                if (h->values[k][j] == v)
                    return BAD("%s:%zu: %s lists %ld twice", path, ln, name, v);
            if (h->nvalues[k] == GB_SPACE_MAX_VALUES)
                return BAD("%s:%zu: %s has more than %d values", path, ln, name,
                           GB_SPACE_MAX_VALUES);
            h->values[k][h->nvalues[k]++] = v;
        }
        if (!h->nvalues[k])
            return BAD("%s:%zu: parameter %s lists no values", path, ln, name);
    } else if (!strcmp(key, "configurations")) {
        if (word(&p))
            return BAD("%s:%zu: nothing follows 'configurations' on its line", path, ln);
        return 1;
    } else {
        return BAD("%s:%zu: unknown header key '%s' (family, precision, size, device, vendor, "
                   "source, limits, param, configurations)",
                   path, ln, key);
    }
    return GB_OK;
}

/* Opens the space the header describes: the family from reg, narrowed to the listed values. */
static int open_space(const header_t *h, const gb_recorded_info_t *info, const char *path,
                      const gb_registry_t *reg, gb_space_t **sp, size_t *column, char *msg,
                      size_t msglen)
{
    const gb_family_t *f;
    const gb_preset_t *preset;
    if (gb_registry_find(reg, info->family, &f, &preset) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOKERNEL, "%s: no kernel family '%s' is loaded", path,
                        info->family);
    if (preset || strcmp(gb_family_name(f), info->family))
        return BAD("%s: '%s' is not a family's exact name", path, info->family);
    for (size_t k = 0; k < gb_family_param_count(f); k++) {
        const char *name = gb_family_param(f, k)->name;
        size_t i = 0;
        while (i < h->nparams && strcmp(h->names[i], name))
            i++;
        if (i == h->nparams)
            return BAD("%s: parameter %s of family '%s' is not listed (give it a 'param' line)",
                       path, name, info->family);
    }
    gb_space_values_t narrow[GB_MAX_PARAMS];
    for (size_t i = 0; i < h->nparams; i++) {
        narrow[i].name = h->names[i];
        narrow[i].values = h->values[i];
        narrow[i].n = h->nvalues[i];
    }
    /* The recording device as far as the space is concerned: its limits, and whatever the family
     * needs (it was measured there). */
    gb_device_info_t dev;
    char ext[1024] = "";
    memset(&dev, 0, sizeof dev);
    if (info->has_limits) {
        snprintf(dev.name, sizeof dev.name, "%s", info->device);
        snprintf(dev.vendor, sizeof dev.vendor, "%s", info->vendor);
        dev.type_name = info->type_name;
        dev.compute_units = info->compute_units;
        dev.local_mem = dev.local_mem_kernel = info->local_mem;
        dev.max_wg_size = info->max_wg_size;
        dev.max_wi_sizes[0] = info->max_wi_sizes[0];
        dev.max_wi_sizes[1] = info->max_wi_sizes[1];
        dev.max_wi_sizes[2] = 1;
        dev.fp64 = dev.image_support = dev.image2d_from_buffer = 1;
        size_t used = 0;
        for (size_t i = 0; gb_family_extension(f, i); i++)
            gb__appendf(ext, sizeof ext, &used, "%s%s", i ? " " : "", gb_family_extension(f, i));
        dev.extensions = ext;
    }
    char why[512];
    int rc = gb_space_open(sp, f, info->precision, info->has_limits ? &dev : NULL, narrow,
                           h->nparams, why, sizeof why);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc == GB_ENOMEM ? rc : GB_EBADARG, "%s: %s", path, why);
    for (size_t i = 0; i < h->nparams; i++) {
        size_t j = 0;
        while (strcmp(gb_space_param(*sp, j), h->names[i]))
            j++;
        column[i] = j;
    }
    return GB_OK;
}

/* One configuration line into rec. */
static int entry_line(gb_recorded_t *rec, const header_t *h, const gb_space_t *sp,
                      const size_t *column, char *line, const char *path, size_t ln, char *msg,
                      size_t msglen)
{
    char *p = line;
    gb_space_cand_t c;
    memset(&c, 0, sizeof c);
    for (size_t i = 0; i < h->nparams; i++) {
        const char *s = word(&p);
        long v;
        if (!s)
            return BAD("%s:%zu: expected %zu values and a score", path, ln, h->nparams);
        if (!parse_long(s, &v))
            return BAD("%s:%zu: %s's value '%s' is not an integer", path, ln, h->names[i], s);
        const size_t j = column[i], nv = gb_space_nvalues(sp, j);
        size_t at = 0;
        while (at < nv && gb_space_value(sp, j, at) != v)
            at++;
        if (at == nv)
            return BAD("%s:%zu: %s=%ld is not among the values its 'param' line lists", path, ln,
                       h->names[i], v);
        c.v[j] = (unsigned char)at;
    }
    const char *s = word(&p);
    if (!s)
        return BAD("%s:%zu: expected %zu values and a score", path, ln, h->nparams);
    char *end;
    const double score = strtod(s, &end);
    if (end == s || *end || !isfinite(score))
        return BAD("%s:%zu: the score '%s' is not a finite number", path, ln, s);
    if (word(&p))
        return BAD("%s:%zu: more than %zu values and a score", path, ln, h->nparams);
    char why[256];
    if (gb_space_check(sp, &c, why, sizeof why) != GB_OK)
        return BAD("%s:%zu: this configuration is not in the space: it %s", path, ln, why);
    const uint64_t r = gb_space_rank(sp, &c);
    if ((rec->n + 1) * 2 > rec->cap && table_grow(rec) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    const size_t at = slot(rec, r);
    if (rec->keys[at])
        return BAD("%s:%zu: the same configuration as line %zu", path, ln, rec->lines[at]);
    rec->keys[at] = r + 1;
    rec->scores[at] = score;
    rec->lines[at] = ln;
    rec->n++;
    if (score >= 0 && score > rec->best)
        rec->best = score;
    return GB_OK;
}

int gb_recorded_load(gb_recorded_t **out, gb_space_t **sp, const char *path,
                     const gb_registry_t *reg, char *msg, size_t msglen)
{
    *out = NULL;
    *sp = NULL;
    char *text = NULL;
    size_t len = 0;
    int rc = gb__read_file(path, MAX_FILE, &text, &len);
    if (rc == GB_EOVERFLOW)
        return gb__fail(msg, msglen, GB_EBADARG, "%s: larger than %u MiB", path, MAX_FILE >> 20);
    if (rc == GB_ENOMEM)
        return gb__fail(msg, msglen, rc, "out of memory reading %s", path);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "cannot read %s: %s", path, strerror(errno));
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        size_t at = 1;
        for (const char *q = text; q < nul; q++)
            at += *q == '\n';
        free(text);
        return gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: a NUL byte: not a text file", path, at);
    }
    header_t h;
    memset(&h, 0, sizeof h);
    size_t column[GB_MAX_PARAMS];
    gb_recorded_t *rec = calloc(1, sizeof *rec);
    if (!rec) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto fail;
    }
    rec->best = -1;
    int in_header = 1;
    size_t ln = 0;
    for (char *line = text, *next; line && line < text + len; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        ln++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\r' || isspace((unsigned char)line[n - 1])))
            line[--n] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        if (!in_header) {
            if ((rc = entry_line(rec, &h, *sp, column, p, path, ln, msg, msglen)) != GB_OK)
                goto fail;
            continue;
        }
        rc = header_line(&h, &rec->info, p, path, ln, msg, msglen);
        if (rc < 0)
            goto fail;
        if (rc == 1) {
            if (!h.have_family || !h.have_precision || !h.have_size || !h.nparams) {
                rc = BAD("%s:%zu: the header lacks its %s line", path, ln,
                         !h.have_family      ? "'family'"
                         : !h.have_precision ? "'precision'"
                         : !h.have_size      ? "'size'"
                                             : "'param'");
                goto fail;
            }
            if ((rc = open_space(&h, &rec->info, path, reg, sp, column, msg, msglen)) != GB_OK)
                goto fail;
            in_header = 0;
        }
    }
    if (in_header) {
        rc = BAD("%s: %s", path,
                 h.have_format ? "the header does not end with a "
                                 "'configurations' line"
                               : "empty: not a recorded space");
        goto fail;
    }
    header_free(&h);
    free(text);
    *out = rec;
    return GB_OK;
fail:
    header_free(&h);
    gb_recorded_close(rec);
    gb_space_close(*sp);
    *sp = NULL;
    free(text);
    return rc;
}

void gb_recorded_close(gb_recorded_t *rec)
{
    if (!rec)
        return;
    free(rec->keys);
    free(rec->scores);
    free(rec->lines);
    free(rec);
}

const gb_recorded_info_t *gb_recorded_info(const gb_recorded_t *rec)
{
    return &rec->info;
}

size_t gb_recorded_size(const gb_recorded_t *rec)
{
    return rec->n;
}

double gb_recorded_best(const gb_recorded_t *rec)
{
    return rec->best;
}

double gb_recorded_score(const gb_recorded_t *rec, const gb_space_t *sp, const gb_space_cand_t *c)
{
    const uint64_t r = gb_space_rank(sp, c);
    if (r == UINT64_MAX || !rec->cap)
        return -1;
    const size_t at = slot(rec, r);
    return rec->keys[at] ? rec->scores[at] : -1;
}

/* ---- writing ------------------------------------------------------------------------------- */

/* s on one line (line breaks and tabs become spaces). */
static int put_text(FILE *f, const char *key, const char *s)
{
    if (fprintf(f, "%s", key) < 0)
        return 0;
    if (*s && fputc(' ', f) == EOF)
        return 0;
    for (; *s; s++)
        if (fputc(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s, f) == EOF)
            return 0;
    return fputc('\n', f) != EOF;
}

void gb_recorded_set_device(gb_recorded_info_t *info, const gb_device_info_t *dev)
{
    snprintf(info->device, sizeof info->device, "%s", dev->name);
    snprintf(info->vendor, sizeof info->vendor, "%s", dev->vendor);
    info->has_limits = 1;
    info->type_name = dev->type_name; /* a string constant (device.c) */
    info->local_mem = dev->local_mem_kernel;
    info->max_wg_size = dev->max_wg_size;
    info->max_wi_sizes[0] = dev->max_wi_sizes[0];
    info->max_wi_sizes[1] = dev->max_wi_sizes[1];
    info->compute_units = dev->compute_units;
}

int gb_recorded_write_header(FILE *f, const gb_recorded_info_t *info, const gb_space_t *sp)
{
    int ok =
        fprintf(f, "%s %d\nfamily %s\nprecision %s\nsize %zu %zu %zu\n", FORMAT, VERSION,
                info->family, gb_precision_name(info->precision), info->m, info->n, info->k) >= 0;
    ok = ok && put_text(f, "device", info->device);
    if (info->has_limits)
        ok = ok && put_text(f, "vendor", info->vendor) &&
             fprintf(f,
                     "limits type=%s local_memory=%llu work_group=%zu work_items=%zu,%zu "
                     "compute_units=%u\n",
                     info->type_name, (unsigned long long)info->local_mem, info->max_wg_size,
                     info->max_wi_sizes[0], info->max_wi_sizes[1], info->compute_units) >= 0;
    ok = ok && put_text(f, "source", info->source);
    for (size_t i = 0; ok && i < gb_space_nparams(sp); i++) {
        ok = fprintf(f, "param %s", gb_space_param(sp, i)) >= 0;
        for (size_t j = 0; ok && j < gb_space_nvalues(sp, i); j++)
            ok = fprintf(f, " %ld", gb_space_value(sp, i, j)) >= 0;
        ok = ok && fputc('\n', f) != EOF;
    }
    ok = ok && fprintf(f, "configurations\n") >= 0;
    return ok && !ferror(f) ? GB_OK : GB_EIO;
}

int gb_recorded_write_entry(FILE *f, const gb_space_t *sp, const gb_space_cand_t *c, double score)
{
    int ok = 1;
    for (size_t i = 0; ok && i < gb_space_nparams(sp); i++)
        ok = fprintf(f, "%ld ", gb_space_value(sp, i, c->v[i])) >= 0;
    /* The shortest text that reads back as the same double: files stay small, and a simulation
     * over the file sees exactly the scores written. */
    char buf[40] = "-1";
    if (isfinite(score) && score >= 0)
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, score);
            if (strtod(buf, NULL) == score)
                break;
        }
    ok = ok && fprintf(f, "%s\n", buf) >= 0;
    return ok && !ferror(f) ? GB_OK : GB_EIO;
}
