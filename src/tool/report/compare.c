/* compare.c: two sets of stored points side by side (compare.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/measure/stats.h"
#include "rt/util/util.h"
#include "compare.h"

/* The points of one definition on one side: the key, what it is, and the pooled calls. */
typedef struct group {
    char *key;
    char what[512], device[128], kernel[2 * GB_NAME_MAX];
    double *s;
    size_t n, cap, points;
} group_t;

typedef struct side {
    group_t *g;
    size_t n, cap;
    int nomem;
} side_t;

/* The lines of a point's definition (gb_point_definition) that a comparison looks past: the
 * driver and the device's vendor, what the kernel's name already says (family, preset) or a
 * kernel edit would change (its source's hash), how many calls were made and when to stop, and
 * the repetition. */
static const char *const ignored[] = {
    "device_vendor=", "driver=",     "family=", "preset=",   "source_hash=",
    "warmup=",        "iterations=", "rep=",    "min_time=", "max_rel_ci="};

/* What identifies a definition across the two sides: the point's definition without the lines
 * above (NULL: out of memory). */
static char *key_of(const gb_point_t *pt)
{
    char *def = NULL;
    if (gb_point_definition(pt, &def) != GB_OK)
        return NULL;
    char *out = def;
    for (char *line = def; *line;) {
        char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line + 1) : strlen(line);
        int keep = 1;
        for (size_t i = 0; keep && i < sizeof ignored / sizeof ignored[0]; i++)
            keep = strncmp(line, ignored[i], strlen(ignored[i])) != 0;
        if (keep) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
    return def;
}

static int add_point(const gb_point_t *pt, void *user)
{
    side_t *sd = user;
    const int ph = gb_timing_phase(pt->timing);
    const double *x = pt->result.samples_ms[ph];
    const size_t nx = pt->result.time_ms[ph].n;
    char *key = key_of(pt);
    if (!key)
        return sd->nomem = 1;
    /* A definition's repetitions follow one another in most stores: they join the group before;
     * groups of one key apart are merged after the sort (read_side). */
    group_t *g = sd->n && !strcmp(sd->g[sd->n - 1].key, key) ? &sd->g[sd->n - 1] : NULL;
    if (g) {
        free(key);
    } else {
        if (sd->n == sd->cap) {
            const size_t cap = sd->cap ? 2 * sd->cap : 64;
            group_t *more = realloc(sd->g, cap * sizeof *more);
            if (!more) {
                free(key);
                return sd->nomem = 1;
            }
            sd->g = more;
            sd->cap = cap;
        }
        g = &sd->g[sd->n++];
        memset(g, 0, sizeof *g);
        g->key = key;
        char tag[16];
        const gb_problem_t *p = &pt->problem;
        snprintf(g->what, sizeof g->what, "%s %s %s %s %zux%zux%zu", pt->device.name, pt->kernel,
                 gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), p->m,
                 p->n, p->k);
        snprintf(g->device, sizeof g->device, "%s", pt->device.name);
        snprintf(g->kernel, sizeof g->kernel, "%s", pt->kernel);
    }
    if (g->n + nx > g->cap) {
        const size_t cap = 2 * (g->n + nx);
        double *more = realloc(g->s, cap * sizeof *more);
        if (!more)
            return sd->nomem = 1;
        g->s = more;
        g->cap = cap;
    }
    if (nx)
        memcpy(g->s + g->n, x, nx * sizeof *x);
    g->n += nx;
    g->points++;
    return 0;
}

static int by_key(const void *a, const void *b)
{
    return strcmp(((const group_t *)a)->key, ((const group_t *)b)->key);
}

static void side_free(side_t *sd)
{
    for (size_t i = 0; i < sd->n; i++) {
        free(sd->g[i].key);
        free(sd->g[i].s);
    }
    free(sd->g);
}

/* Moves b's calls to a (one definition); 0 when out of memory. */
static int merge(group_t *a, group_t *b)
{
    double *more = realloc(a->s, (a->n + b->n + 1) * sizeof *more);
    if (!more)
        return 0;
    memcpy(more + a->n, b->s, b->n * sizeof *more);
    a->s = more;
    a->n += b->n;
    a->cap = a->n;
    a->points += b->points;
    return 1;
}

const char *gb_cmp_verdict_name(gb_cmp_verdict_t v)
{
    return v == GB_CMP_FASTER ? "faster" : v == GB_CMP_SLOWER ? "slower" : "same";
}

static double median(const double *x, size_t n)
{
    gb_stats_t st;
    gb__stats_compute(x, n, &st);
    return st.median;
}

/* P(U <= u) under the null for samples of nx and ny without ties: the coefficients of the
 * Gaussian binomial [nx + ny, nx]_q, prod_{i=1..nx} (1 - q^(ny+i)) / (1 - q^i), normalised. */
static double exact_cdf(size_t nx, size_t ny, double u)
{
    const size_t top = nx * ny;
    double *c = calloc(top + 1, sizeof *c);
    if (!c)
        return (double)NAN;
    c[0] = 1;
    for (size_t i = 1; i <= nx; i++) {
        for (size_t d = top; d >= ny + i && d <= top; d--) /* times (1 - q^(ny+i)) */
            c[d] -= c[d - ny - i];
        for (size_t d = i; d <= top; d++) /* divided by (1 - q^i) */
            c[d] += c[d - i];
    }
    double total = 0, below = 0;
    for (size_t d = 0; d <= top; d++) {
        total += c[d];
        if ((double)d <= u + 1e-9)
            below += c[d];
    }
    free(c);
    return below / total;
}

/* One call's time and its side, ordered by the time. */
typedef struct obs {
    double v;
    int fromx;
} obs_t;

static int by_value(const void *a, const void *b)
{
    const double x = ((const obs_t *)a)->v, y = ((const obs_t *)b)->v;
    return (x > y) - (x < y);
}

double gb_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, int *exact)
{
    const size_t n = nx + ny;
    if (exact)
        *exact = 0;
    if (!nx || !ny)
        return 1;
    obs_t *o = malloc(n * sizeof *o);
    if (!o)
        return (double)NAN;
    for (size_t i = 0; i < nx; i++)
        o[i] = (obs_t){x[i], 1};
    for (size_t j = 0; j < ny; j++)
        o[nx + j] = (obs_t){y[j], 0};
    qsort(o, n, sizeof *o, by_value);
    /* Ranks, ties given their average; the ties' sum of t^3 - t for the variance. */
    double rx = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && o[j].v == o[i].v)
            j++;
        const double rank = 0.5 * (double)(i + 1 + j), t = (double)(j - i);
        for (size_t k = i; k < j; k++)
            rx += o[k].fromx ? rank : 0;
        ties += t * t * t - t;
        i = j;
    }
    free(o);
    const double u = rx - (double)nx * ((double)nx + 1) / 2, mu = (double)nx * (double)ny / 2;
    if (ties == 0 && nx <= 50 && ny <= 50) {
        if (exact)
            *exact = 1;
        /* Symmetric: the smaller tail, doubled. */
        const double lo = exact_cdf(nx, ny, u < mu ? u : 2 * mu - u);
        return fmin(1, 2 * lo);
    }
    const double dn = (double)n;
    const double var = (double)nx * (double)ny / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
    if (var <= 0)
        return 1;
    const double z = fmax(0, fabs(u - mu) - 0.5) / sqrt(var);
    return erfc(z / sqrt(2));
}

static int read_side(gb_store_t *st, side_t *sd, char *msg, size_t msglen)
{
    memset(sd, 0, sizeof *sd);
    const int rc = gb_store_foreach(st, 1, add_point, sd);
    if (sd->nomem)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    if (rc != 0)
        return gb__fail(msg, msglen, rc, "%s", gb_store_errmsg(st));
    if (sd->n)
        qsort(sd->g, sd->n, sizeof *sd->g, by_key);
    size_t kept = 0;
    int nomem = 0;
    for (size_t i = 0; i < sd->n; i++) {
        if (kept && !strcmp(sd->g[kept - 1].key, sd->g[i].key)) {
            nomem |= !merge(&sd->g[kept - 1], &sd->g[i]);
            free(sd->g[i].key);
            free(sd->g[i].s);
        } else {
            sd->g[kept++] = sd->g[i];
        }
    }
    sd->n = kept;
    return nomem ? gb__fail(msg, msglen, GB_ENOMEM, "out of memory") : GB_OK;
}

/* Adds what to c's list of side s. */
static int only(gb_compare_t *c, int s, const char *what)
{
    char **more = realloc(c->only[s], (c->nonly[s] + 1) * sizeof *more);
    if (!more)
        return GB_ENOMEM;
    c->only[s] = more;
    if (!(more[c->nonly[s]] = gb__strdup(what)))
        return GB_ENOMEM;
    c->nonly[s]++;
    return GB_OK;
}

static int row(gb_compare_t *c, group_t *b, group_t *n)
{
    gb_cmp_row_t *more = realloc(c->rows, (c->nrows + 1) * sizeof *more);
    if (!more)
        return GB_ENOMEM;
    c->rows = more;
    gb_cmp_row_t *r = &c->rows[c->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->what, sizeof r->what, "%s", b->what);
    snprintf(r->device, sizeof r->device, "%s", b->device);
    snprintf(r->kernel, sizeof r->kernel, "%s", b->kernel);
    r->points[0] = b->points;
    r->points[1] = n->points;
    r->n[0] = b->n;
    r->n[1] = n->n;
    r->p = gb_mann_whitney(b->s, b->n, n->s, n->n, &r->exact);
    r->median_ms[0] = b->n ? median(b->s, b->n) : (double)NAN;
    r->median_ms[1] = n->n ? median(n->s, n->n) : (double)NAN;
    r->speedup = r->median_ms[0] / r->median_ms[1];
    r->verdict = !(r->p < GB_COMPARE_ALPHA) ? GB_CMP_SAME
                 : r->speedup > 1           ? GB_CMP_FASTER
                                            : GB_CMP_SLOWER;
    return GB_OK;
}

int gb_compare_stores(gb_store_t *base, gb_store_t *new_, gb_compare_t *out, char *msg,
                      size_t msglen)
{
    memset(out, 0, sizeof *out);
    side_t s[2];
    int rc = read_side(base, &s[0], msg, msglen);
    if (rc != GB_OK) {
        side_free(&s[0]);
        return rc;
    }
    if ((rc = read_side(new_, &s[1], msg, msglen)) != GB_OK) {
        side_free(&s[0]);
        side_free(&s[1]);
        return rc;
    }
    size_t i = 0, j = 0;
    while (rc == GB_OK && (i < s[0].n || j < s[1].n)) {
        const int d = i == s[0].n ? 1 : j == s[1].n ? -1 : strcmp(s[0].g[i].key, s[1].g[j].key);
        if (d < 0)
            rc = only(out, 0, s[0].g[i++].what);
        else if (d > 0)
            rc = only(out, 1, s[1].g[j++].what);
        else
            rc = row(out, &s[0].g[i++], &s[1].g[j++]);
    }
    if (rc == GB_OK && !out->nrows)
        rc = gb__fail(msg, msglen, GB_ENOPOINT,
                      "the two sides have no point definition in common (%zu and %zu "
                      "definitions); compare runs of the same kernels, shapes and devices",
                      s[0].n, s[1].n);
    else if (rc == GB_ENOMEM)
        gb__fail(msg, msglen, rc, "out of memory");
    side_free(&s[0]);
    side_free(&s[1]);
    if (rc != GB_OK)
        gb_compare_free(out);
    return rc;
}

void gb_compare_free(gb_compare_t *c)
{
    if (!c)
        return;
    free(c->rows);
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < c->nonly[s]; i++)
            free(c->only[s][i]);
        free(c->only[s]);
    }
    memset(c, 0, sizeof *c);
}

int gb_compare_summary(const gb_compare_t *c, gb_cmp_sum_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    gb_cmp_sum_t *v = c->nrows ? calloc(c->nrows, sizeof *v) : NULL;
    if (c->nrows && !v)
        return GB_ENOMEM;
    for (size_t i = 0; i < c->nrows; i++) {
        const gb_cmp_row_t *r = &c->rows[i];
        size_t k = 0;
        while (k < *n && (strcmp(v[k].device, r->device) || strcmp(v[k].kernel, r->kernel)))
            k++;
        if (k == *n) {
            snprintf(v[k].device, sizeof v[k].device, "%s", r->device);
            snprintf(v[k].kernel, sizeof v[k].kernel, "%s", r->kernel);
            (*n)++;
        }
        v[k].rows++;
        v[k].faster += r->verdict == GB_CMP_FASTER;
        v[k].slower += r->verdict == GB_CMP_SLOWER;
        v[k].same += r->verdict == GB_CMP_SAME;
        v[k].geomean += log(r->speedup); /* the sum of logs until the end */
    }
    for (size_t k = 0; k < *n; k++)
        v[k].geomean = exp(v[k].geomean / (double)v[k].rows);
    *out = v;
    return GB_OK;
}

int gb_compare_slower_over(const gb_cmp_row_t *r, double pct)
{
    return r->verdict == GB_CMP_SLOWER && r->median_ms[1] > r->median_ms[0] * (1 + pct / 100);
}
