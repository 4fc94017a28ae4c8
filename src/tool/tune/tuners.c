/* tuners.c: a tuning's runs over the devices of this process (tuners.h): a tuner per device,
 * each on a thread of the fleet's, devices of one kind sharing the runs, all storing through
 * one connection, no run started once the whole tuning's time is spent; and the defaults of a
 * tuning's budget and build helpers. The exchange with
 * other MPI ranks is tuners_mpi.c's. docs/scale-out.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/util/util.h"
#include "tuners_int.h"

long gb_tune_builders_default(long cores, long pools, long lookahead)
{
    pools = pools > 0 ? pools : 1;
    const long spare = gb_fleet_spare_cores(cores, pools);
    const long cap = GB_TUNE_MAX_BUILDERS / pools > 0 ? GB_TUNE_MAX_BUILDERS / pools : 1;
    const long n = spare < cap ? spare : cap;
    return n < lookahead ? n : lookahead;
}

void gb_tune_helpers_default(long *threads, long *builders, const gb_device_info_t *const *devs,
                             size_t n, const gb_fleet_mpi_t *mpi, const char *strategy)
{
    /* A CPU device compiles on the cores that would build ahead, and PoCL compiles one program
     * at a time and most of it at the first launch: builders would only make a candidate wait
     * for another's build (bench/notes/tuner.md#prebuild-pocl). Elsewhere processes: NVIDIA's
     * OpenCL builds one program at a time per process, so threads queue where processes build side
     * by side; more than the lookahead would have nothing to build. Build processes share the
     * host's cores, and its driver, which opens one context at a time: one pool for each kind of
     * device listed (devices of one kind build the same programs), and under MPI one for each rank
     * of the host (each tunes on one device). The cores are those this process may run on: mpirun
     * binds each rank to one core unless told otherwise, and 15 build processes on one core took
     * minutes to build what 15 cores built in seconds (bench/notes/scale-out.md#tuning-start). */
    const long cores = gb_fleet_usable_cores(NULL);
    const long pools = mpi && mpi->size > 1 && mpi->local_size > 1
                           ? mpi->local_size
                           : (long)gb_fleet_kinds_among(devs, n);
    const long spare = gb_fleet_spare_cores(cores, pools);
    const int cpu = n && !strcmp(devs[0]->type_name, "cpu");
    if (*builders < 0)
        *builders = cpu || *threads >= 0
                        ? 0
                        : gb_tune_builders_default(cores, pools, (long)gb_tune_lookahead(strategy));
    if (*threads < 0)
        *threads = cpu || *builders ? 0 : spare < 16 ? spare : 16;
}

/* ---- the tuners ----------------------------------------------------------------------------- */

/* Tuner i: its kind, label, store handle and context. */
static int open_tuner(gb_tuners_t *tu, size_t i, gb_store_t *st, char *msg, size_t msglen)
{
    gb_tuner_t *w = &tu->w[i];
    const gb_fleet_mpi_t *mpi = tu->spec.mpi;
    const int rank = mpi ? mpi->rank : 0;
    w->d = &tu->spec.devs[i];
    const gb_device_info_t *d = w->d->dev;
    tu->n = i + 1;
    if (gb_fleet_kinds_index(&tu->kinds, d->name, d->driver, d->platform_name, &w->kind) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    gb_fleet_label(w->label, sizeof w->label, mpi && mpi->started, rank, i, d->name);
    /* One store writer: every tuner stores through the command's one connection, each on a
     * handle of its own (its own error message). The store's lock is held by each call and
     * from BEGIN to COMMIT, so no tuner's statement lands inside another's transaction (a
     * winner's read-compare-write, gb_leaders_keep). A lock rather than a writer thread:
     * tune.c reads and writes the store at every candidate, and a queue would have to carry
     * the reads and their answers too. */
    int rc;
    if (i == 0 || rank > 0)
        w->st = st; /* a rank other than 0 tunes into a store in memory per run */
    else if ((rc = gb_store_share(st, &w->st)) != GB_OK)
        return gb__fail(msg, msglen, rc, "%s", gb_store_errmsg(st));
    char why[1024];
    if ((rc = gb_context_open(&w->ctx, d, why, sizeof why)) != GB_OK)
        return gb__fail(msg, msglen, rc, "%s%s%s", tu->spec.ndevs > 1 ? w->label : "",
                        tu->spec.ndevs > 1 ? ": " : "", why);
    return GB_OK;
}

/* One set of build processes per kind of device for all of its runs: started once, not at
 * every shape, and shared by the devices of that kind, which build the same programs (the disk
 * cache and NVIDIA's JIT cache serve each device's loads): the driver opens one context at a
 * time, and two H100s' 15 build processes each (two contexts apiece then) were all ready only
 * after 21 s, against 8 s for 15 (bench/notes/scale-out.md#tuning-start). They start after every
 * tuner's own context, which would wait behind theirs. Build threads build into their device's
 * own context, so each device keeps its own. */
static int open_pools(gb_tuners_t *tu, char *msg, size_t msglen)
{
    const gb_tune_spec_t *b = tu->spec.base;
    for (size_t i = 0; i < tu->n && (b->threads > 0 || b->builders > 0); i++) {
        gb_tuner_t *w = &tu->w[i];
        for (size_t j = 0; j < i && !b->threads && !w->pool; j++)
            if (tu->w[j].kind == w->kind) {
                w->pool = tu->w[j].pool;
                w->shares_pool = 1;
            }
        if (w->pool)
            continue;
        char why[1024];
        const int rc = gb_pool_open(&w->pool, w->ctx, b->threads, b->builders, w->d->builder_argv,
                                    why, sizeof why);
        if (rc != GB_OK)
            return gb__fail(msg, msglen, rc, "%s: %s", w->label, why);
    }
    return GB_OK;
}

int gb_tuners_open(gb_tuners_t **out, const gb_tuners_spec_t *spec, gb_store_t *st, char *msg,
                   size_t msglen)
{
    gb_tuners_t *tu = calloc(1, sizeof *tu);
    *out = tu;
    if (!tu)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    tu->spec = *spec;
    pthread_mutex_init(&tu->lock, NULL);
    /* A kind per device at most, and rank 0 may meet one more per other rank. */
    const gb_fleet_mpi_t *mpi = spec->mpi;
    const size_t ranks = gb_tuners__ranks(tu) && mpi->rank == 0 ? (size_t)mpi->size - 1 : 0;
    const size_t cap = spec->ndevs + ranks;
    if (gb_fleet_kinds_init(&tu->kinds, cap) != GB_OK ||
        !(tu->next = calloc(cap ? cap : 1, sizeof *tu->next)) ||
        !(tu->w = calloc(spec->ndevs ? spec->ndevs : 1, sizeof *tu->w)) ||
        gb_tuners__order(tu, spec->ndevs > 1 || gb_tuners__ranks(tu)) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    /* Rank 0 serves the other ranks on a handle of its own, made before any thread starts. */
    int rc;
    if (ranks && (rc = gb_store_share(st, &tu->serve_st)) != GB_OK)
        return gb__fail(msg, msglen, rc, "%s", gb_store_errmsg(st));
    for (size_t i = 0; i < spec->ndevs; i++)
        if ((rc = open_tuner(tu, i, st, msg, msglen)) != GB_OK)
            return rc;
    return open_pools(tu, msg, msglen);
}

void gb_tuners_close(gb_tuners_t *tu)
{
    if (!tu)
        return;
    for (size_t i = 0; i < tu->n; i++) {
        if (!tu->w[i].shares_pool)
            gb_pool_close(tu->w[i].pool);
        gb_context_close(tu->w[i].ctx);
        if (i && tu->w[i].st != tu->w[0].st)
            gb_store_close(tu->w[i].st);
    }
    free(tu->w);
    free(tu->order);
    free(tu->next);
    gb_fleet_kinds_free(&tu->kinds);
    gb_store_close(tu->serve_st);
    pthread_mutex_destroy(&tu->lock);
    free(tu);
}

size_t gb_tuners_count(const gb_tuners_t *tu)
{
    return tu->n;
}

size_t gb_tuners_kinds(const gb_tuners_t *tu)
{
    return tu->kinds.n;
}

const char *gb_tuners_label(const gb_tuners_t *tu, size_t i)
{
    return i < tu->n ? tu->w[i].label : "";
}

/* ---- running -------------------------------------------------------------------------------- */

/* Tuner i's loop: the runs of its kind until none is left or a failure stops them all. */
static void tuner_loop(size_t i, void *user)
{
    gb_tuners_t *tu = user;
    gb_tuner_t *w = &tu->w[i];
    size_t r;
    while (gb_tuners__next(tu, w->kind, &r)) {
        gb_tune_spec_t spec;
        gb_tune_outcome_t out;
        gb_tuners__spec(tu, w, r, &spec);
        if ((w->rc = gb_tuners__one(tu, i, &spec, w->st, &out)) != 0 && !gb_tuners__stopped(tu))
            gb_tuners__stop_all(tu);
    }
}

static int serve(void *user)
{
    return gb_tuners__serve(user);
}

static void short_handed(void *user)
{
    gb_tuners__stop_all(user);
}

int gb_tuners_run(gb_tuners_t *tu, const gb_tuners_hooks_t *hooks)
{
    tu->hooks = hooks;
    tu->t0 = gb_tuners__mono_s(); /* the whole tuning's time (runs->time_s) counts from here */
    if (tu->spec.mpi && tu->spec.mpi->rank > 0)
        return gb_tuners__remote(tu);
    const int serving = gb_tuners__ranks(tu);
    const gb_fleet_crew_t crew = {tu->n, tuner_loop, serving ? serve : NULL, short_handed, tu};
    int all_started;
    int rc = gb_fleet_run(&crew, &all_started);
    for (size_t i = 0; i < tu->n && !rc; i++)
        rc = tu->w[i].rc;
    if (!rc && !all_started)
        rc = hooks->fail(GB_ENOMEM, "could not start a thread for every device", hooks->user);
    return rc;
}
