/* plan.c: what an experiment sweeps: the keys and their value syntax (lists, ranges, work-group
 * pairs, parameter grids), shared by command-line flags and plan files (planfile.c). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

void gb_plan_init(gb_explore_plan_t *pl)
{
    memset(pl, 0, sizeof *pl);
    snprintf(pl->origin, sizeof pl->origin, "the command line");
    pl->repeat = 1;
    pl->shards = 1;
    gb_bench_options_init(&pl->bench);
    gb_problem_init(&pl->base, GB_PREC_S, 0, 0, 0);
}

static void list_free(gb_size_list_t *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void gb_plan_free(gb_explore_plan_t *pl)
{
    if (!pl)
        return;
    free(pl->kernels);
    list_free(&pl->orders);
    for (int d = 0; d < 3; d++)
        list_free(&pl->dim[d]);
    free(pl->lws);
    free(pl->shapes);
    list_free(&pl->lws_x);
    list_free(&pl->lws_y);
    list_free(&pl->lws_items);
    for (size_t i = 0; i < pl->nparams; i++)
        free(pl->params[i].values);
    memset(pl, 0, sizeof *pl);
}

/* ---- value syntax --------------------------------------------------------------------------- */

/* The items of text between separators sep, as strtok_r finds them (no empty one): *items an
 * array of *n pointers to them, which holds their text too (one free(*items) frees all). GB_OK,
 * or GB_ENOMEM with msg. */
static int split(const char *text, const char *sep, char ***items, size_t *n, char *msg,
                 size_t msglen)
{
    const size_t len = strlen(text), most = len / 2 + 1; /* items and separators alternate */
    char **p = malloc(most * sizeof *p + len + 1);
    if (!p)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    char *copy = memcpy(p + most, text, len + 1);
    *n = 0;
    for (char *save = NULL, *item = strtok_r(copy, sep, &save); item;
         item = strtok_r(NULL, sep, &save))
        p[(*n)++] = item;
    *items = p;
    return GB_OK;
}

/* Parses "V", "LO:HI", "LO:HI:STEP" or "LO:HI:xF" items separated by commas into a new array
 * of at most GB_PLAN_MAX_LIST values, each >= min. */
static int parse_list(const char *text, long min, long **out, size_t *count, const char *label,
                      char *msg, size_t msglen)
{
    const char *syntax = "write values like 64,128, a range 64:1024:64 or a doubling 16:1024:x2";
    size_t cap = 0, n = 0, nitems;
    long *v = NULL;
    char **items;
    int rc = split(text, ",", &items, &nitems, msg, msglen);
    if (rc != GB_OK)
        return rc;
    for (size_t it = 0; it < nitems; it++) {
        char *item = items[it];
        while (*item == ' ')
            item++;
        size_t ilen = strlen(item);
        while (ilen && item[ilen - 1] == ' ')
            item[--ilen] = '\0';
        char *parts[3] = {item, NULL, NULL};
        int np = 1;
        for (char *p = item; *p && np <= 3; p++)
            if (*p == ':') {
                *p = '\0';
                if (np == 3) {
                    np = 4;
                    break;
                }
                parts[np++] = p + 1;
            }
        long lo = 0, hi = 0, step = 1;
        int geometric = 0;
        if (np > 3 || !gb_plan__parse_long(parts[0], &lo) ||
            (np > 1 && !gb_plan__parse_long(parts[1], &hi))) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s: '%s' is not a list; %s", label, text,
                          syntax);
            goto done;
        }
        if (np == 1)
            hi = lo;
        if (np == 3) {
            geometric = parts[2][0] == 'x';
            if (!gb_plan__parse_long(parts[2] + geometric, &step) || step < 1 + geometric) {
                rc = gb__fail(msg, msglen, GB_EBADARG,
                              "%s: step '%s' in '%s' must be a positive "
                              "integer, or x and a factor of at least 2",
                              label, parts[2], text);
                goto done;
            }
        }
        if (lo < min || hi < lo || (geometric && lo < 1)) {
            rc = gb__fail(msg, msglen, GB_EBADARG,
                          "%s: '%s' must hold values of at least %ld, "
                          "ranges from low to high; %s",
                          label, text, min, syntax);
            goto done;
        }
        for (long x = lo; x <= hi;) {
            if (n == GB_PLAN_MAX_LIST) {
                rc = gb__fail(msg, msglen, GB_EBADARG, "%s: '%s' has more than %d values", label,
                              text, GB_PLAN_MAX_LIST);
                goto done;
            }
            if (gb__grow(&v, &cap, n + 1, sizeof *v) != GB_OK) {
                rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
                goto done;
            }
            v[n++] = x;
            if (geometric ? x > LONG_MAX / step : x > LONG_MAX - step)
                break;
            x = geometric ? x * step : x + step;
        }
    }
    if (n == 0)
        rc =
            gb__fail(msg, msglen, GB_EBADARG, "%s: '%s' is an empty list; %s", label, text, syntax);
done:
    free(items);
    if (rc != GB_OK) {
        free(v);
        v = NULL;
        n = 0;
    }
    *out = v;
    *count = n;
    return rc;
}

static int parse_sizes(const char *text, gb_size_list_t *out, const char *label, char *msg,
                       size_t msglen)
{
    long *v;
    size_t n;
    int rc = parse_list(text, 1, &v, &n, label, msg, msglen);
    if (rc != GB_OK)
        return rc;
    for (size_t i = 0; i < n; i++)
        if (v[i] > (1L << 30)) {
            const long big = v[i];
            free(v);
            return gb__fail(msg, msglen, GB_EBADARG, "%s: %ld is too large", label, big);
        }
    size_t *s = malloc(n * sizeof *s);
    if (!s) {
        free(v);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        s[i] = (size_t)v[i];
    free(v);
    list_free(out);
    out->v = s;
    out->n = n;
    return GB_OK;
}

/* One shape "MxNxK" (or "M N K" with blanks) at *text, advancing it. 1 when one was read. */
static int read_shape(const char **text, size_t s[3])
{
    const char *t = *text;
    for (int d = 0; d < 3; d++) {
        while (*t == ' ' || *t == '\t')
            t++;
        if (d && (*t == 'x' || *t == 'X'))
            t++;
        char *end;
        errno = 0;
        if (*t < '0' || *t > '9')
            return 0;
        unsigned long long v = strtoull(t, &end, 10);
        if (errno == ERANGE || v < 1 || v > (1ull << 30))
            return 0;
        s[d] = (size_t)v;
        t = end;
    }
    *text = t;
    return 1;
}

/* "MxNxK,MxNxK,..." replaces the explicit shapes. */
static int parse_shapes(gb_explore_plan_t *pl, const char *text, const char *label, char *msg,
                        size_t msglen)
{
    size_t n = 0, cap = 0;
    size_t(*v)[3] = NULL;
    const char *t = text;
    for (;;) {
        while (*t == ' ' || *t == ',')
            t++;
        if (!*t)
            break;
        size_t s[3];
        const char *at = t;
        if (!read_shape(&t, s) || (*t && *t != ',' && *t != ' ')) {
            free(v);
            return gb__fail(msg, msglen, GB_EBADARG,
                            "%s: '%.40s' is not a shape; give MxNxK with each from 1 to 2^30, "
                            "like 4096x4096x64",
                            label, at);
        }
        if (gb__grow(&v, &cap, n + 1, sizeof *v) != GB_OK) {
            free(v);
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        }
        memcpy(v[n++], s, sizeof s);
    }
    if (!n)
        return gb__fail(msg, msglen, GB_EBADARG, "%s: no shapes given; give MxNxK,MxNxK,...",
                        label);
    free(pl->shapes);
    pl->shapes = v;
    pl->nshapes = n;
    return GB_OK;
}

int gb_plan_read_shapes(const char *path, char **text, char *msg, size_t msglen)
{
    *text = NULL;
    size_t len;
    char *data;
    int rc = gb__read_file(path, 1u << 20, &data, &len);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "cannot read the shapes file '%s': %s", path,
                        rc == GB_EIO ? strerror(errno) : gb_strerror(rc));
    size_t cap = len * 2 + 16, used = 0, lineno = 0;
    char *out = malloc(cap);
    if (!out) {
        free(data);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    out[0] = '\0';
    /* Line by line, each counted (blank ones too): a NUL byte would end a line early, and with
     * it the file, without a word. */
    for (char *line = data, *next; line < data + len; line = next) {
        char *nl = memchr(line, '\n', (size_t)(data + len - line));
        next = nl ? nl + 1 : data + len;
        if (nl)
            *nl = '\0';
        lineno++;
        if (strlen(line) != (size_t)((nl ? nl : data + len) - line)) {
            gb__fail(msg, msglen, GB_EBADARG,
                     "%s: line %zu holds a NUL byte; a shapes file is text, M N K per line", path,
                     lineno);
            free(out);
            free(data);
            return GB_EBADARG;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        const char *t = line;
        while (*t == ' ' || *t == '\t' || *t == '\r')
            t++;
        if (!*t)
            continue;
        size_t s[3];
        if (!read_shape(&t, s) || strspn(t, " \t\r") != strlen(t)) {
            char shown[48];
            gb__printable(line, shown, sizeof shown); /* what it holds may be no text */
            gb__fail(msg, msglen, GB_EBADARG,
                     "%s: line %zu: '%s' is not a shape; give M N K or MxNxK, each from 1 to "
                     "2^30",
                     path, lineno, shown);
            free(out);
            free(data);
            return GB_EBADARG;
        }
        used += (size_t)snprintf(out + used, cap - used, "%s%zux%zux%zu", used ? "," : "", s[0],
                                 s[1], s[2]);
    }
    free(data);
    if (!used) {
        free(out);
        return gb__fail(msg, msglen, GB_EBADARG, "%s: no shapes in the file; give M N K per line",
                        path);
    }
    *text = out;
    return GB_OK;
}

static int mul_capped(size_t *n, size_t f)
{
    if (f && *n > GB_EXPLORE_MAX_POINTS / f)
        return 0;
    *n *= f;
    return *n <= GB_EXPLORE_MAX_POINTS;
}

int gb_plan_shapes(const gb_explore_plan_t *pl, size_t (**out)[3], size_t *count, char *msg,
                   size_t msglen)
{
    *out = NULL;
    *count = 0;
    const char *dims = "MNK";
    int any_dim = pl->dim[0].n || pl->dim[1].n || pl->dim[2].n;
    if (!any_dim && !pl->orders.n && !pl->nshapes)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "no sizes given: give -n (like 64:1024:64), -M, -N and -K, --shapes, "
                        "or a plan that has them");
    for (int d = 0; d < 3; d++)
        if (any_dim && !pl->dim[d].n && !pl->orders.n)
            return gb__fail(msg, msglen, GB_EBADARG,
                            "-%c is not given while -%c is: give -%c too, "
                            "or -n for the sizes not given",
                            dims[d],
                            pl->dim[0].n   ? 'M'
                            : pl->dim[1].n ? 'N'
                                           : 'K',
                            dims[d]);
    size_t norders = pl->orders.n ? pl->orders.n : (any_dim ? 1 : 0), n = norders;
    for (int d = 0; any_dim && d < 3; d++)
        if (!mul_capped(&n, pl->dim[d].n ? pl->dim[d].n : 1))
            return gb__fail(msg, msglen, GB_EBADARG,
                            "the plan has more than %u points (in sizes alone); narrow it",
                            GB_EXPLORE_MAX_POINTS);
    if (n + pl->nshapes > GB_EXPLORE_MAX_POINTS)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "the plan has more than %u points (in sizes alone); narrow it",
                        GB_EXPLORE_MAX_POINTS);
    size_t(*s)[3] = malloc((n + pl->nshapes) * sizeof *s);
    if (!s)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    size_t used = 0;
    for (size_t o = 0; o < norders; o++) {
        size_t order = pl->orders.n ? pl->orders.v[o] : 0;
        size_t nm = pl->dim[0].n ? pl->dim[0].n : 1, nn = pl->dim[1].n ? pl->dim[1].n : 1;
        size_t nk = pl->dim[2].n ? pl->dim[2].n : 1;
        for (size_t i = 0; i < nm; i++)
            for (size_t j = 0; j < nn; j++)
                for (size_t l = 0; l < nk; l++, used++) {
                    s[used][0] = pl->dim[0].n ? pl->dim[0].v[i] : order;
                    s[used][1] = pl->dim[1].n ? pl->dim[1].v[j] : order;
                    s[used][2] = pl->dim[2].n ? pl->dim[2].v[l] : order;
                }
    }
    if (pl->nshapes)
        memcpy(s + used, pl->shapes, pl->nshapes * sizeof *s);
    *out = s;
    *count = used + pl->nshapes;
    return GB_OK;
}

/* "J,I;J,I;..." */
static int parse_lws(gb_explore_plan_t *pl, const char *text, const char *label, char *msg,
                     size_t msglen)
{
    size_t cap = 0, n = 0, npairs;
    size_t(*v)[2] = NULL;
    char **pairs;
    int rc = split(text, ";", &pairs, &npairs, msg, msglen);
    if (rc != GB_OK)
        return rc;
    for (size_t i = 0; i < npairs; i++) {
        const char *pair = pairs[i];
        unsigned long long x, y;
        char tail;
        /* 0,0: the driver chooses (GEMMbench's -lws 0,0); one 0 alone means nothing. */
        if (sscanf(pair, " %llu , %llu %c", &x, &y, &tail) != 2 || (x == 0) != (y == 0) ||
            x > 65536 || y > 65536 || strchr(pair, '-')) {
            rc = gb__fail(msg, msglen, GB_EBADARG,
                          "%s: '%s' is not a list of work-group sizes; write "
                          "J,I pairs of positive integers separated by ';', like 16,4;32,2 (or "
                          "0,0: the driver chooses)",
                          label, text);
            goto done;
        }
        if (n == GB_PLAN_MAX_LIST) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s: more than %d work-group sizes", label,
                          GB_PLAN_MAX_LIST);
            goto done;
        }
        if (gb__grow(&v, &cap, n + 1, sizeof *v) != GB_OK) {
            rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
            goto done;
        }
        v[n][0] = (size_t)x;
        v[n][1] = (size_t)y;
        n++;
    }
    if (n == 0)
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s: no work-group size given; write J,I pairs like "
                      "16,4;32,2",
                      label);
done:
    free(pairs);
    if (rc != GB_OK) {
        free(v);
        return rc;
    }
    free(pl->lws);
    pl->lws = v;
    pl->nlws = n;
    return GB_OK;
}

/* "NAME=LIST" */
static int parse_param(gb_explore_plan_t *pl, const char *text, const char *label, char *msg,
                       size_t msglen)
{
    const char *eq = strchr(text, '=');
    size_t nlen = eq ? (size_t)(eq - text) : 0;
    if (!eq || nlen == 0 || nlen >= GB_NAME_MAX || !eq[1])
        return gb__fail(msg, msglen, GB_EBADARG,
                        "%s: '%s' must be NAME=VALUES, like DJ=1,2,4 or "
                        "VW=1:16:x2",
                        label, text);
    char name[GB_NAME_MAX];
    memcpy(name, text, nlen);
    name[nlen] = '\0';
    long *v;
    size_t n;
    int rc = parse_list(eq + 1, LONG_MIN, &v, &n, label, msg, msglen);
    if (rc != GB_OK)
        return rc;
    size_t i = 0;
    while (i < pl->nparams && strcmp(pl->params[i].name, name))
        i++;
    if (i == GB_MAX_PARAMS) {
        free(v);
        return gb__fail(msg, msglen, GB_EBADARG, "%s: more than %d parameters", label,
                        GB_MAX_PARAMS);
    }
    if (i == pl->nparams)
        pl->nparams++;
    free(pl->params[i].values);
    snprintf(pl->params[i].name, sizeof pl->params[i].name, "%s", name);
    pl->params[i].values = v;
    pl->params[i].n = n;
    return GB_OK;
}

static int parse_size_value(const char *text, size_t *out, int allow_zero, const char *label,
                            char *msg, size_t msglen)
{
    long v;
    if (!gb_plan__parse_long(text, &v) || v < (allow_zero ? 0 : 1) || v > (1L << 30))
        return gb__fail(msg, msglen, GB_EBADARG, "%s must be an integer from %d to 2^30, got '%s'",
                        label, allow_zero ? 0 : 1, text);
    *out = (size_t)v;
    return GB_OK;
}

/* "kernels": a comma-separated list of at least one name. */
static int set_kernels(gb_explore_plan_t *pl, const char *value, const char *label, char *msg,
                       size_t msglen)
{
    size_t n = strlen(value);
    char *k = malloc(n + 1);
    if (!k)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    memcpy(k, value, n + 1);
    if (!strtok(k, ", ")) {
        free(k);
        return gb__fail(msg, msglen, GB_EBADARG,
                        "%s: no kernel given; name kernels or presets, "
                        "like SGEMM_NT_4x1,naive",
                        label);
    }
    memcpy(k, value, n + 1);
    free(pl->kernels);
    pl->kernels = k;
    return GB_OK;
}

/* "shard": I/N. */
static int set_shard(gb_explore_plan_t *pl, const char *value, const char *label, char *msg,
                     size_t msglen)
{
    char *end;
    const unsigned long i = strtoul(value, &end, 10);
    const unsigned long n = *end == '/' && end > value ? strtoul(end + 1, &end, 10) : 0;
    if (*end || value[0] == '-' || !strchr(value, '/') || n < 1 || n > 100000 || i >= n)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "%s: '%s' is not I/N with 0 <= I < N <= 100000; e.g. 0/4 for the "
                        "first of four shards",
                        label, value);
    pl->shard = (size_t)i;
    pl->shards = (size_t)n;
    return GB_OK;
}

/* The work-group size keys: pairs ("lws") and a grid ("lws_x", "lws_y") replace each other, so
 * that a flag overrides what a plan gave either way; 1 when key is none of them. */
static int set_lws(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                   char *msg, size_t msglen)
{
    if (!strcmp(key, "lws")) {
        int rc = parse_lws(pl, value, label, msg, msglen);
        if (rc == GB_OK) {
            list_free(&pl->lws_x);
            list_free(&pl->lws_y);
            list_free(&pl->lws_items);
        }
        return rc;
    }
    if (!strcmp(key, "lws_x") || !strcmp(key, "lws_y")) {
        int rc = parse_sizes(value, key[4] == 'x' ? &pl->lws_x : &pl->lws_y, label, msg, msglen);
        if (rc == GB_OK) {
            free(pl->lws);
            pl->lws = NULL;
            pl->nlws = 0;
        }
        return rc;
    }
    if (!strcmp(key, "lws_items"))
        return parse_sizes(value, &pl->lws_items, label, msg, msglen);
    return 1;
}

/* What is swept: kernels, precisions, shapes, work-group sizes, parameters, repetitions, the
 * shard; 1 when key is none of them. */
static int set_sweep(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                     char *msg, size_t msglen)
{
    if (!strcmp(key, "kernels"))
        return set_kernels(pl, value, label, msg, msglen);
    if (!strcmp(key, "n"))
        return parse_sizes(value, &pl->orders, label, msg, msglen);
    if (!strcmp(key, "M") || !strcmp(key, "N") || !strcmp(key, "K"))
        return parse_sizes(value,
                           &pl->dim[key[0] == 'M'   ? 0
                                    : key[0] == 'N' ? 1
                                                    : 2],
                           label, msg, msglen);
    if (!strcmp(key, "shapes"))
        return parse_shapes(pl, value, label, msg, msglen);
    if (!strcmp(key, "param"))
        return parse_param(pl, value, label, msg, msglen);
    if (!strcmp(key, "repeat")) {
        int r = 0;
        int rc = gb_plan__parse_int(value, 1, 1000, &r, label, msg, msglen);
        if (rc == GB_OK)
            pl->repeat = (unsigned)r;
        return rc;
    }
    if (!strcmp(key, "shard"))
        return set_shard(pl, value, label, msg, msglen);
    return set_lws(pl, key, value, label, msg, msglen);
}

/* "alpha", "beta": a number, or RE,IM for complex precisions (one number: imaginary part 0). */
static int set_scalar(gb_explore_plan_t *pl, int alpha, const char *value, const char *label,
                      char *msg, size_t msglen)
{
    double *re = alpha ? &pl->base.alpha : &pl->base.beta;
    double *im = alpha ? &pl->base.alpha_im : &pl->base.beta_im;
    const char *comma = strchr(value, ',');
    *im = 0.0;
    if (!comma)
        return gb_plan__parse_finite(value, re, label, msg, msglen);
    char part[64];
    if ((size_t)(comma - value) >= sizeof part)
        return gb__fail(msg, msglen, GB_EBADSCALAR, "%s: give a number or RE,IM, got '%s'", label,
                        value);
    snprintf(part, sizeof part, "%.*s", (int)(comma - value), value);
    int rc = gb_plan__parse_finite(part, re, label, msg, msglen);
    return rc == GB_OK ? gb_plan__parse_finite(comma + 1, im, label, msg, msglen) : rc;
}

/* The problem every point shares beyond its shape: layout, transpositions, scalars, leading
 * dimensions and offsets; 1 when key is none of them. */
static int set_base(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                    char *msg, size_t msglen)
{
    if (!strcmp(key, "layout")) {
        pl->has_layout = 1;
        if (gb_layout_parse(value, &pl->base.layout) != GB_OK)
            return gb__fail(msg, msglen, GB_EBADLAYOUT, "%s: unknown layout '%s'; use row or col",
                            label, value);
        return GB_OK;
    }
    if (!strcmp(key, "transA") || !strcmp(key, "transB")) {
        pl->has_layout = 1;
        const int a = key[5] == 'A';
        if (gb_op_parse(value, a ? &pl->base.trans_a : &pl->base.trans_b,
                        a ? &pl->base.conj_a : &pl->base.conj_b) != GB_OK)
            return gb__fail(msg, msglen, GB_EBADTRANS,
                            "%s: unknown transposition '%s'; use N, T or C (conjugate, complex "
                            "precisions)",
                            label, value);
        return GB_OK;
    }
    if (!strcmp(key, "alpha") || !strcmp(key, "beta"))
        return set_scalar(pl, key[0] == 'a', value, label, msg, msglen);
    static const char *const sizes[] = {"lda", "ldb", "ldc", "offa", "offb", "offc"};
    size_t *const fields[] = {&pl->base.lda,   &pl->base.ldb,   &pl->base.ldc,
                              &pl->base.off_a, &pl->base.off_b, &pl->base.off_c};
    for (int i = 0; i < 6; i++)
        if (!strcmp(key, sizes[i]))
            return parse_size_value(value, fields[i], i >= 3, label, msg, msglen);
    return 1;
}

int gb_plan_set(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                char *msg, size_t msglen)
{
    int rc = set_sweep(pl, key, value, label, msg, msglen);
    /* The measuring options (plan_bench.c). */
    if (rc == 1)
        rc = gb_plan__set_bench(pl, key, value, label, msg, msglen);
    /* The precisions and their sums (plan_precision.c). */
    if (rc == 1)
        rc = gb_plan__set_precision(pl, key, value, label, msg, msglen);
    if (rc == 1)
        rc = set_base(pl, key, value, label, msg, msglen);
    if (rc == 1)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "%s: unknown key '%s'; docs/explore.md lists the keys", label, key);
    return rc;
}
