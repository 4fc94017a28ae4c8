/* collect.c: the points a report takes, grouped into rows: every stored repetition of one
 * definition (the point's definition text without its rep line) becomes one row, with the mean
 * and standard deviation of the repetitions' GFLOP/s, their validation verdicts and energy. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

int gb_report_format_parse(const char *s, gb_report_format_t *out)
{
    static const char *names[] = {"text", "md", "csv", "json", "html"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) {
            *out = (gb_report_format_t)i;
            return GB_OK;
        }
    return GB_EBADARG;
}

const char *gb_report_format_ext(gb_report_format_t fmt)
{
    static const char *ext[] = {"txt", "md", "csv", "json", "html"};
    return (unsigned)fmt < 5 ? ext[fmt] : "txt";
}

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

int gb_report_open(gb_report_t **out, const gb_report_filter_t *f)
{
    *out = NULL;
    gb_report_t *r = calloc(1, sizeof *r);
    if (!r)
        return GB_ENOMEM;
    r->precision = f ? f->precision : -1;
    r->timing = f ? f->timing : -1;
    r->kernels = f ? dup_or_null(f->kernels) : NULL;
    r->device = f ? dup_or_null(f->device) : NULL;
    r->nslots = 1024;
    r->slots = malloc(r->nslots * sizeof *r->slots);
    if (!r->slots || (f && f->kernels && !r->kernels) || (f && f->device && !r->device)) {
        gb_report_close(r);
        return GB_ENOMEM;
    }
    for (size_t i = 0; i < r->nslots; i++)
        r->slots[i] = SIZE_MAX;
    *out = r;
    return GB_OK;
}

void gb_report_close(gb_report_t *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nrows; i++) {
        free(r->rows[i].key);
        free(r->rows[i].skey);
        free(r->rows[i].pkey);
        free(r->rows[i].settings);
        free(r->rows[i].params_json);
        free(r->rows[i].reps);
    }
    for (size_t i = 0; i < r->nlws; i++) {
        free(r->lws[i].cols);
        free(r->lws[i].sizes);
        free(r->lws[i].cell);
        free(r->lws[i].best);
    }
    for (size_t i = 0; i < r->nruns; i++) {
        free(r->runs[i].best);
        free(r->runs[i].cands);
    }
    free(r->runs);
    free(r->tuned);
    free(r->lws);
    free(r->rows);
    free(r->devs);
    free(r->slots);
    free(r->kernels);
    free(r->device);
    free(r);
}

/* ---- rows ------------------------------------------------------------------------------------- */

static int grow_slots(gb_report_t *r)
{
    size_t n = 2 * r->nslots;
    size_t *s = malloc(n * sizeof *s);
    if (!s)
        return GB_ENOMEM;
    for (size_t i = 0; i < n; i++)
        s[i] = SIZE_MAX;
    for (size_t i = 0; i < r->nrows; i++) {
        const char *k = r->rows[i].key;
        size_t h = (size_t)gb__fnv1a64(k, strlen(k), GB_FNV_BASIS) & (n - 1);
        while (s[h] != SIZE_MAX)
            h = (h + 1) & (n - 1);
        s[h] = i;
    }
    free(r->slots);
    r->slots = s;
    r->nslots = n;
    return GB_OK;
}

/* The row of this key, added (from pt) when new; *key is taken over either way. */
static int find_row(gb_report_t *r, char *key, const gb_point_t *pt, gb_report__row_t **out)
{
    size_t h = (size_t)gb__fnv1a64(key, strlen(key), GB_FNV_BASIS) & (r->nslots - 1);
    for (; r->slots[h] != SIZE_MAX; h = (h + 1) & (r->nslots - 1))
        if (!strcmp(r->rows[r->slots[h]].key, key)) {
            free(key);
            *out = &r->rows[r->slots[h]];
            return GB_OK;
        }
    size_t dev;
    if (gb__grow(&r->rows, &r->rowcap, r->nrows + 1, sizeof *r->rows) != GB_OK)
        goto oom;
    if (gb_report__device(r, &pt->device, &dev) != GB_OK)
        goto oom;
    gb_report__row_t *row = &r->rows[r->nrows];
    memset(row, 0, sizeof *row);
    row->key = key;
    row->settings = gb_report__settings(pt);
    row->skey = row->settings ? gb_report__series_key(pt, row->settings) : NULL;
    row->pkey = row->skey ? gb_report__plot_key(row->skey) : NULL;
    row->params_json = gb_report__params_json(&pt->params);
    if (!row->pkey || !row->params_json) {
        free(row->settings);
        free(row->skey);
        free(row->pkey);
        free(row->params_json);
        goto oom;
    }
    row->dev = dev;
    snprintf(row->kernel, sizeof row->kernel, "%s", pt->kernel);
    snprintf(row->family, sizeof row->family, "%s", pt->family);
    snprintf(row->preset, sizeof row->preset, "%s", pt->preset);
    row->precision = pt->problem.precision;
    gb_problem_layout_tag(&pt->problem, row->layout, sizeof row->layout);
    row->timing = pt->timing;
    row->m = pt->problem.m;
    row->n = pt->problem.n;
    row->k = pt->problem.k;
    row->has_lws = gb_params_get(&pt->params, "LX", &row->lws[0]) &&
                   gb_params_get(&pt->params, "LY", &row->lws[1]);
    gb_report__point_traffic(r, pt, row);
    r->slots[h] = r->nrows++;
    *out = row;
    if (2 * r->nrows > r->nslots)
        return grow_slots(r);
    return GB_OK;
oom:
    free(key);
    return GB_ENOMEM;
}

int gb_report_add(gb_report_t *r, const gb_point_t *pt)
{
    if (r->finished)
        return GB_EBADARG;
    r->offered++;
    if (!gb_report__selects(r, pt))
        return GB_OK;
    char *key = gb_report__row_key(pt);
    gb_report__row_t *row;
    if (!key || find_row(r, key, pt, &row) != GB_OK)
        return GB_ENOMEM;
    if (gb__grow(&row->reps, &row->cap, row->nreps + 1, sizeof *row->reps) != GB_OK)
        return GB_ENOMEM;
    gb_report__rep_t *rep = &row->reps[row->nreps++];
    rep->rep = pt->rep;
    rep->gflops = pt->result.gflops;
    const double main_ms = pt->result.time_ms[GB_PHASE_MAIN].median;
    rep->kgflops =
        main_ms > 0 ? gb_problem_flops(&pt->problem) / (main_ms * 1e6) : 0; /* 8 M N K complex */
    snprintf(rep->id, sizeof rep->id, "%s", pt->id);
    const gb_validation_t *v = &pt->result.validation;
    if (v->done) {
        row->nvalid++;
        if (!v->passed) {
            if (!row->nfail++)
                snprintf(row->fail_reason, sizeof row->fail_reason, "%s", v->reason);
        } else if (v->exact) {
            row->nexact++;
        } else if (v->max_ratio >= row->worst) {
            row->worst = v->max_ratio;
            row->bound = v->bound_ratio;
        }
    }
    /* Energy from the energy loop, where it was measured (points stored before schema version
     * 2 did not record it, and read back as unavailable without a reason). */
    const gb_result_t *res = &pt->result;
    if (res->energy_j > 0 && isfinite(res->energy_j) && res->gflops_per_watt > 0 &&
        isfinite(res->gflops_per_watt)) {
        row->nenergy++;
        row->energy_j += res->energy_j;
        row->gpw += res->gflops_per_watt;
    } else if (!r->energy_why[0]) {
        snprintf(r->energy_why, sizeof r->energy_why, "%s", res->energy_why);
    }
    r->selected++;
    return GB_OK;
}

/* ---- finishing -------------------------------------------------------------------------------- */

static int cmp_rep(const void *a, const void *b)
{
    const gb_report__rep_t *x = a, *y = b;
    return (x->rep > y->rep) - (x->rep < y->rep);
}

static int cmp_size(size_t a, size_t b)
{
    return (a > b) - (a < b);
}

static int cmp_row(const void *a, const void *b)
{
    const gb_report__row_t *x = a, *y = b;
    int c;
    if ((c = cmp_size(x->dev, y->dev)) || (c = strcmp(x->kernel, y->kernel)) ||
        (c = (int)x->precision - (int)y->precision) || (c = strcmp(x->layout, y->layout)) ||
        (c = (int)x->timing - (int)y->timing) || (c = gb_report__natcmp(x->skey, y->skey)) ||
        (c = strcmp(x->skey, y->skey)))
        return c;
    long ix = x->has_lws ? x->lws[0] * x->lws[1] : 0, iy = y->has_lws ? y->lws[0] * y->lws[1] : 0;
    if ((c = (ix > iy) - (ix < iy)) || (c = (x->lws[0] < y->lws[0]) - (x->lws[0] > y->lws[0])))
        return c;
    if ((c = cmp_size(x->m, y->m)) || (c = cmp_size(x->n, y->n)) || (c = cmp_size(x->k, y->k)))
        return c;
    return strcmp(x->key, y->key);
}

static void row_stats(gb_report__row_t *row)
{
    qsort(row->reps, row->nreps, sizeof *row->reps, cmp_rep);
    double sum = 0;
    row->min = row->max = row->reps[0].gflops;
    for (size_t i = 0; i < row->nreps; i++) {
        double g = row->reps[i].gflops;
        sum += g;
        row->min = g < row->min ? g : row->min;
        row->max = g > row->max ? g : row->max;
    }
    row->mean = sum / (double)row->nreps;
    double ss = 0;
    for (size_t i = 0; i < row->nreps; i++)
        ss += (row->reps[i].gflops - row->mean) * (row->reps[i].gflops - row->mean);
    /* The sample standard deviation, as the paper's tables give; one rep has none. */
    row->std = row->nreps > 1 ? sqrt(ss / (double)(row->nreps - 1)) : (double)NAN;
    if (row->nenergy) {
        row->energy_j /= (double)row->nenergy;
        row->gpw /= (double)row->nenergy;
    }
    /* The main kernel's rate and the declared bytes it moved, over the reps that timed it. */
    size_t timed = 0;
    for (size_t i = 0; i < row->nreps; i++)
        if (row->reps[i].kgflops > 0) {
            row->kgflops += row->reps[i].kgflops;
            timed++;
        }
    row->kgflops = timed ? row->kgflops / (double)timed : 0;
    row->gbps = row->traffic == GB_TRAFFIC_DECLARED && row->intensity > 0
                    ? row->kgflops / row->intensity
                    : 0;
}

int gb_report_finish(gb_report_t *r, const char *source)
{
    if (r->finished)
        return GB_EBADARG;
    snprintf(r->source, sizeof r->source, "%s", source ? source : "");
    gb_report__finish_tuning(r);
    free(r->slots); /* rows move when sorted: the key index is of no more use */
    r->slots = NULL;
    r->all_square = 1;
    for (size_t i = 0; i < r->nrows; i++) {
        gb_report__row_t *row = &r->rows[i];
        row_stats(row);
        unsigned top = row->reps[row->nreps - 1].rep;
        r->max_rep = top > r->max_rep ? top : r->max_rep;
        r->timings |= 1u << row->timing;
        r->precisions |= 1u << row->precision;
        r->any_energy |= row->nenergy > 0;
        r->all_square &= row->m == row->n && row->n == row->k;
        r->mixed_layouts |= strcmp(row->layout, r->rows[0].layout) != 0;
        /* A row whose reps never timed the main kernel cannot be placed on the roofline. */
        if (row->traffic == GB_TRAFFIC_DECLARED && row->kgflops <= 0)
            row->traffic = GB_TRAFFIC_FAILED;
        r->traffic_rows[row->traffic]++;
    }
    if (r->nrows)
        r->rep_cols =
            r->max_rep + 1u > GB_REPORT_MAX_REP_COLS ? GB_REPORT_MAX_REP_COLS : r->max_rep + 1u;
    if (r->nrows)
        qsort(r->rows, r->nrows, sizeof *r->rows, cmp_row);
    gb_report__set_variants(r);
    r->finished = 1;
    return gb_report__build_lws(r);
}

typedef struct add_ctx {
    gb_report_t *r;
} add_ctx_t;

static int add_one(const gb_point_t *pt, void *user)
{
    return gb_report_add(((add_ctx_t *)user)->r, pt);
}

void gb_report_set_registry(gb_report_t *r, const gb_registry_t *reg)
{
    r->reg = reg;
}

int gb_report_read(gb_report_t **out, gb_store_t *st, const gb_report_filter_t *f,
                   const gb_registry_t *reg, char *msg, size_t msglen)
{
    gb_report_t *r;
    int rc = gb_report_open(&r, f);
    *out = NULL;
    if (rc != GB_OK) {
        snprintf(msg, msglen, "out of memory");
        return rc;
    }
    gb_report_set_registry(r, reg);
    add_ctx_t ctx = {r};
    rc = gb_store_foreach(st, 0, add_one, &ctx);
    if (rc == GB_OK)
        rc = gb_report__read_ceilings(r, st);
    if (rc == GB_OK)
        rc = gb_report__read_tuning(r, st);
    if (rc == GB_OK)
        rc = gb_report_finish(r, gb_store_path(st));
    if (rc != GB_OK) {
        snprintf(msg, msglen, "%s", rc == GB_ENOMEM ? "out of memory" : gb_store_errmsg(st));
        gb_report_close(r);
        return rc;
    }
    *out = r;
    return GB_OK;
}

size_t gb_report_offered(const gb_report_t *r)
{
    return r->offered;
}
size_t gb_report_selected(const gb_report_t *r)
{
    return r->selected;
}
size_t gb_report_rows(const gb_report_t *r)
{
    return r->nrows;
}
size_t gb_report_traffic_rows(const gb_report_t *r)
{
    return r->traffic_rows[GB_TRAFFIC_DECLARED];
}
size_t gb_report_lws_tables(const gb_report_t *r)
{
    return r->nlws;
}
size_t gb_report_tuned(const gb_report_t *r)
{
    return r->ntuned;
}
size_t gb_report_tune_runs(const gb_report_t *r)
{
    return r->nruns;
}
size_t gb_report_tuning_offered(const gb_report_t *r)
{
    return r->tuning_offered;
}
