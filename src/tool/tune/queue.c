/* queue.c: a tuning's runs and the queue they are handed out from (tuners_int.h): the runs
 * (kernel x shape, or items of their own), their order, the next run for a kind of device, each
 * run's spec and the whole tuning's time; shared by this process's tuners (tuners.c) and the
 * exchange with the other MPI ranks (tuners_mpi.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/util/util.h"
#include "strategy.h"
#include "tuners_int.h"

size_t gb_tune_default_budget(uint64_t space, const char *strategy)
{
    if (gb_strategy_whole(strategy))
        return space < SIZE_MAX ? (size_t)space : SIZE_MAX;
    uint64_t b = space / 10;
    b = b < 20 ? 20 : b > 300 ? 300 : b;
    return (size_t)(b < space ? b : space);
}

void gb_tune_runs_free(gb_tune_runs_t *r)
{
    for (size_t i = 0; i < r->nkernels; i++)
        free(r->kernels[i]);
    free(r->kernels);
    free(r->shapes);
    free(r->prec);
    free(r->space);
    free(r->items);
    memset(r, 0, sizeof *r);
}

size_t gb_tune_runs_count(const gb_tune_runs_t *r)
{
    return r->items ? r->nitems : r->nkernels * r->nshapes;
}

int gb_tune_runs_add(gb_tune_runs_t *r, const gb_tune_item_t *it)
{
    if (gb__grow(&r->items, &r->capitems, r->nitems + 1, sizeof *r->items) != GB_OK)
        return GB_ENOMEM;
    r->items[r->nitems++] = *it;
    return GB_OK;
}

/* Run r's shape. */
static const size_t *run_shape(const gb_tune_runs_t *runs, size_t r)
{
    return runs->items ? &runs->items[r].m : runs->shapes[r % runs->nshapes];
}

/* ---- the queue of runs ---------------------------------------------------------------------- */

/* A run (its index: kernel-major, or the item's) and its shape's volume M N K: the order runs
 * are handed out in. */
typedef struct run_size {
    double volume;
    size_t run;
} run_size_t;

static int larger_first(const void *a, const void *b)
{
    const run_size_t *x = a, *y = b;
    return x->volume > y->volume   ? -1
           : x->volume < y->volume ? 1
                                   : (x->run > y->run) - (x->run < y->run);
}

/* The order runs are handed out in. Where tuners share them, the largest shapes go first, so
 * that the last runs, which leave a device idle while another finishes, are the short ones;
 * one tuner alone follows the plan. GB_OK or GB_ENOMEM. */
int gb_tuners__order(gb_tuners_t *tu, int shared)
{
    const gb_tune_runs_t *runs = tu->spec.runs;
    const size_t total = gb_tune_runs_count(runs);
    run_size_t *by = malloc((total ? total : 1) * sizeof *by);
    tu->order = malloc((total ? total : 1) * sizeof *tu->order);
    if (!by || !tu->order) {
        free(by);
        return GB_ENOMEM;
    }
    for (size_t i = 0; i < total; i++) {
        const size_t *sh = run_shape(runs, i);
        by[i] = (run_size_t){shared ? (double)sh[0] * (double)sh[1] * (double)sh[2] : 0, i};
    }
    qsort(by, total, sizeof *by, larger_first); /* equal volumes keep the plan's order */
    for (size_t i = 0; i < total; i++)
        tu->order[i] = by[i].run;
    free(by);
    return GB_OK;
}

int gb_tuners__ranks(const gb_tuners_t *tu)
{
    return tu->spec.mpi && tu->spec.mpi->started && tu->spec.mpi->size > 1;
}

int gb_tuners__stopped(const gb_tuners_t *tu)
{
    return tu->hooks && tu->hooks->run.stop && *tu->hooks->run.stop;
}

/* Whether run r is for the tuners of kind (an item names the kind it is for). */
static int for_kind(const gb_tuners_t *tu, size_t r, size_t kind)
{
    const gb_tune_runs_t *runs = tu->spec.runs;
    if (!runs->items || !runs->items[r].device[0])
        return 1;
    const gb_tune_item_t *it = &runs->items[r];
    const gb_fleet_kind_t *k = &tu->kinds.v[kind];
    return !strcmp(it->device, k->name) && !strcmp(it->driver, k->driver) &&
           !strcmp(it->platform, k->platform);
}

double gb_tuners__mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seconds since the tuning began. */
static double elapsed(const gb_tuners_t *tu)
{
    return gb_tuners__mono_s() - tu->t0;
}

/* Whether the whole tuning's time is spent. */
static int time_spent(const gb_tuners_t *tu)
{
    const double limit = tu->spec.runs->time_s;
    return limit > 0 && elapsed(tu) >= limit;
}

int gb_tuners__next(gb_tuners_t *tu, size_t kind, size_t *r)
{
    const gb_tune_runs_t *runs = tu->spec.runs;
    pthread_mutex_lock(&tu->lock);
    const size_t total = gb_tune_runs_count(runs);
    while (tu->next[kind] < total && !for_kind(tu, tu->order[tu->next[kind]], kind))
        tu->next[kind]++;
    const size_t at = tu->next[kind];
    const int got = !tu->failed && !gb_tuners__stopped(tu) && at < total && !time_spent(tu);
    if (got) {
        *r = tu->order[at];
        tu->next[kind]++;
    }
    pthread_mutex_unlock(&tu->lock);
    return got;
}

size_t gb_tuners_unstarted(const gb_tuners_t *tu)
{
    const size_t total = gb_tune_runs_count(tu->spec.runs);
    size_t left = 0;
    for (size_t kind = 0; kind < tu->kinds.n; kind++)
        for (size_t at = tu->next[kind]; at < total; at++)
            left += for_kind(tu, tu->order[at], kind) ? 1 : 0;
    return left;
}

void gb_tuners__stop_all(gb_tuners_t *tu)
{
    pthread_mutex_lock(&tu->lock);
    tu->failed = 1; /* as on one device: a failure stops the tuning */
    pthread_mutex_unlock(&tu->lock);
}

void gb_tuners__spec_item(const gb_tuners_t *tu, const gb_tuner_t *w, const gb_tune_item_t *it,
                          double time_left, gb_tune_spec_t *spec)
{
    *spec = *tu->spec.base;
    spec->kernel = it->kernel;
    spec->precision = it->precision;
    spec->base = &it->base;
    spec->has_layout = 1;
    spec->m = it->m;
    spec->n = it->n;
    spec->k = it->k;
    spec->seeds = it->seeds;
    spec->nseeds = it->nseeds;
    if (time_left > 0)
        spec->time_s = time_left;
    spec->builder_argv = w->d->builder_argv;
    spec->pool = w->pool;
    spec->bench.validate = GB_VALIDATE_ON;
    if (!spec->budget && spec->time_s <= 0)
        spec->budget = gb_tune_default_budget(it->space, spec->strategy);
}

double gb_tuners__time_left(const gb_tuners_t *tu)
{
    const double limit = tu->spec.runs->time_s, left = limit - elapsed(tu);
    /* A run handed out just before the end still measures its seeds and presets. */
    return limit > 0 ? (left > 0.001 ? left : 0.001) : 0;
}

void gb_tuners__spec(const gb_tuners_t *tu, const gb_tuner_t *w, size_t r, gb_tune_spec_t *spec)
{
    const gb_tune_runs_t *runs = tu->spec.runs;
    if (runs->items) {
        gb_tuners__spec_item(tu, w, &runs->items[r], gb_tuners__time_left(tu), spec);
        return;
    }
    const size_t k = r / runs->nshapes, s = r % runs->nshapes;
    *spec = *tu->spec.base;
    spec->kernel = runs->kernels[k];
    spec->precision = runs->prec[k];
    spec->m = runs->shapes[s][0];
    spec->n = runs->shapes[s][1];
    spec->k = runs->shapes[s][2];
    spec->builder_argv = w->d->builder_argv;
    spec->pool = w->pool;
    spec->bench.validate = GB_VALIDATE_ON;
    if (!spec->budget && spec->time_s <= 0)
        spec->budget = gb_tune_default_budget(runs->space[k], spec->strategy);
}

int gb_tuners__one(gb_tuners_t *tu, size_t i, const gb_tune_spec_t *spec, gb_store_t *st,
                   gb_tune_outcome_t *out)
{
    const gb_tuners_hooks_t *h = tu->hooks;
    void *user = h->users[i];
    gb_tune_hooks_t hooks = h->run;
    hooks.user = user;
    char msg[2048];
    memset(out, 0, sizeof *out);
    if (h->starting)
        h->starting(spec, user);
    const int rc = gb_tune_run(out, spec, tu->spec.reg, tu->w[i].ctx, st, &hooks, msg, sizeof msg);
    return h->finished(spec, rc, msg, out, st, gb_context_device(tu->w[i].ctx), user);
}
