/* tune_devices.c: `gemmbench tune` over several devices (-d all: a tuner per device on its own
 * thread, devices of one kind sharing the runs, all storing through one connection) and over MPI
 * ranks (--mpi: rank 0 hands out the runs by the ranks' kinds and stores what comes back).
 * docs/scale-out.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tune/pool.h"
#include "tool/tune/tuned.h"
#include "tool/tune/winner.h"
#include "tune_cli.h"

/* A run (kernel-major index) and its shape's volume M N K: the order runs are handed out in. */
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
 * one tuner alone follows the plan. */
static int order_runs_for(tuners_t *tu, int shared)
{
    const size_t total = tu->runs->nkernels * tu->runs->nshapes;
    run_size_t *by = malloc((total ? total : 1) * sizeof *by);
    tu->order = malloc((total ? total : 1) * sizeof *tu->order);
    if (!by || !tu->order) {
        free(by);
        return cli_error(GB_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < total; i++) {
        const size_t *sh = tu->runs->shapes[i % tu->runs->nshapes];
        by[i] = (run_size_t){shared ? (double)sh[0] * (double)sh[1] * (double)sh[2] : 0, i};
    }
    qsort(by, total, sizeof *by, larger_first); /* equal volumes keep the plan's order */
    for (size_t i = 0; i < total; i++)
        tu->order[i] = by[i].run;
    free(by);
    return 0;
}

/* A tuner per device listed, each with its context and store handle; 0 or the exit code. */
int cli_tuners_open(tuners_t *tu, const cli_device_t *dev, gb_store_t *st)
{
    char msg[1024];
    /* A kind per device at most, and rank 0 may meet one more per other rank. */
    const size_t ranks = tu->mpi->rank == 0 && tu->mpi->size > 1 ? (size_t)tu->mpi->size - 1 : 0;
    const size_t cap = dev->npicks + ranks;
    if (cli_kinds_init(&tu->kinds, cap) != GB_OK ||
        !(tu->next = calloc(cap ? cap : 1, sizeof *tu->next)))
        return cli_error(GB_ENOMEM, "out of memory");
    int orc = order_runs_for(tu, dev->npicks > 1 || tu->mpi->size > 1);
    if (orc)
        return orc;
    /* Rank 0 serves the other ranks on a handle of its own, made before any thread starts. */
    if (ranks && (orc = gb_store_share(st, &tu->serve_st)) != GB_OK)
        return cli_error(orc, "%s", gb_store_errmsg(st));
    for (size_t i = 0; i < dev->npicks; i++) {
        tuner_t *w = &tu->w[i];
        const gb_device_info_t *d = &dev->list[dev->picks[i]];
        tu->n = i + 1;
        if (cli_kinds_index(&tu->kinds, d->name, d->driver, d->platform_name, &w->kind) != GB_OK)
            return cli_error(GB_ENOMEM, "out of memory");
        snprintf(w->label, sizeof w->label, "%zu: %s", i, d->name);
        if (tu->mpi->started)
            snprintf(w->label, sizeof w->label, "rank %d: %s", tu->mpi->rank, d->name);
        snprintf(w->devindex, sizeof w->devindex, "%zu", dev->picks[i]);
        char **a = w->wargv;
        int k = 0;
        a[k++] = (char *)"gemmbench";
        a[k++] = (char *)"__build-worker";
        a[k++] = (char *)"--device";
        a[k++] = w->devindex;
        a[k++] = (char *)"--device-name";
        a[k++] = (char *)d->name;
        if (cli_verbose)
            a[k++] = (char *)"--verbose";
        if (tu->o->kpath) {
            a[k++] = (char *)"--kernel-path";
            a[k++] = (char *)tu->o->kpath;
        }
        a[k] = NULL;
        w->v.argv = tu->argv;
        w->v.mpi = tu->mpi->started;
        if (dev->npicks > 1 || tu->mpi->size > 1) {
            w->v.label = w->label;
            w->v.lock = &tu->lock;
        }
        /* One store writer: every tuner stores through the command's one connection, each on a
         * handle of its own (its own error message). The store's lock is held by each call and
         * from BEGIN to COMMIT, so no tuner's statement lands inside another's transaction (a
         * winner's read-compare-write, gb_leaders_keep). A lock rather than a writer thread:
         * tune.c reads and writes the store at every candidate, and a queue would have to carry
         * the reads and their answers too. */
        int rc;
        if (i == 0 || tu->mpi->rank > 0)
            w->st = st; /* a rank other than 0 tunes into a store in memory per run */
        else if ((rc = gb_store_share(st, &w->st)) != GB_OK)
            return cli_error(rc, "%s", gb_store_errmsg(st));
        if ((rc = gb_context_open(&w->ctx, d, msg, sizeof msg)) != GB_OK)
            return cli_error(rc, "%s%s%s", dev->npicks > 1 ? w->label : "",
                             dev->npicks > 1 ? ": " : "", msg);
    }
    /* One set of build processes per kind of device for all of its runs: started once, not at
     * every shape, and shared by the devices of that kind, which build the same programs (the
     * disk cache and NVIDIA's JIT cache serve each device's loads): the driver opens one context
     * at a time, and two H100s' 15 build processes each (two contexts apiece then) were all
     * ready only after 21 s, against 8 s for 15 (bench/notes/scale-out.md#tuning-start). They start
     * after every tuner's own context, which would wait behind theirs. Build threads build into
     * their device's own context, so each device keeps its own. */
    const tune_opts_t *t = tu->t;
    for (size_t i = 0; i < tu->n && (t->threads > 0 || t->builders > 0); i++) {
        tuner_t *w = &tu->w[i];
        for (size_t j = 0; j < i && !t->threads && !w->pool; j++)
            if (tu->w[j].kind == w->kind) {
                w->pool = tu->w[j].pool;
                w->shares_pool = 1;
            }
        if (w->pool)
            continue;
        const int rc = gb_pool_open(&w->pool, w->ctx, (unsigned)t->threads, (unsigned)t->builders,
                                    w->wargv, msg, sizeof msg);
        if (rc != GB_OK)
            return cli_error(rc, "%s: %s", w->label, msg);
    }
    return 0;
}

void cli_tuners_close(tuners_t *tu)
{
    for (size_t i = 0; i < tu->n; i++) {
        if (!tu->w[i].shares_pool)
            gb_pool_close(tu->w[i].pool);
        gb_context_close(tu->w[i].ctx);
        if (i && tu->w[i].st != tu->w[0].st)
            gb_store_close(tu->w[i].st);
    }
    free(tu->order);
    tu->order = NULL;
    free(tu->next);
    tu->next = NULL;
    cli_kinds_free(&tu->kinds);
    gb_store_close(tu->serve_st);
    tu->serve_st = NULL;
}

/* The next run for kind: 1 with its kernel and shape, 0 when none is left or all stop. */
static int next_run(tuners_t *tu, size_t kind, size_t *k, size_t *s)
{
    pthread_mutex_lock(&tu->lock);
    const size_t total = tu->runs->nkernels * tu->runs->nshapes, at = tu->next[kind];
    const int got = !tu->failed && !cli_stop_signal && at < total;
    if (got) {
        const size_t r = tu->order[at];
        tu->next[kind]++;
        *k = r / tu->runs->nshapes;
        *s = r % tu->runs->nshapes;
    }
    pthread_mutex_unlock(&tu->lock);
    return got;
}

/* The tuning run of kernel k at shape s on tuner w. */
static void make_spec(const tuners_t *tu, const tuner_t *w, size_t k, size_t s,
                      gb_tune_spec_t *spec)
{
    const plan_runs_t *runs = tu->runs;
    const tune_opts_t *t = tu->t;
    *spec = (gb_tune_spec_t){.kernel = runs->kernels[k],
                             .precision = runs->prec[k],
                             .base = &tu->pl->base,
                             .has_layout = tu->pl->has_layout,
                             .m = runs->shapes[s][0],
                             .n = runs->shapes[s][1],
                             .k = runs->shapes[s][2],
                             .bench = tu->pl->bench,
                             .narrow = tu->nw->v,
                             .nnarrow = tu->nw->n,
                             .strategy = t->strategy,
                             .seed = t->seed,
                             .presets = !t->no_presets,
                             .budget = t->budget,
                             .time_s = t->time_s,
                             .threads = (unsigned)t->threads,
                             .builders = (unsigned)t->builders,
                             .builder_argv = w->wargv,
                             .pool = w->pool,
                             .candidate_timeout_s = t->timeout_s,
                             .confirm = t->confirm,
                             .confirm_reps = t->reps,
                             .command = tu->cmdline};
    spec->bench.validate = GB_VALIDATE_ON;
    if (!spec->budget && spec->time_s <= 0)
        spec->budget = cli_tune_default_budget(runs->space[k]);
}

static void stop_all(tuners_t *tu)
{
    pthread_mutex_lock(&tu->lock);
    tu->failed = 1; /* as on one device: a failure stops the tuning */
    pthread_mutex_unlock(&tu->lock);
}

static void *tuner_loop(tuner_t *w, tuners_t *tu)
{
    size_t k, s;
    while (next_run(tu, w->kind, &k, &s)) {
        gb_tune_spec_t spec;
        gb_tune_outcome_t out;
        make_spec(tu, w, k, s, &spec);
        if ((w->rc = cli_tune_one(&spec, tu->reg, w->ctx, w->st, &w->v, tu->t->record, &out)) !=
                0 &&
            !cli_stop_signal)
            stop_all(tu);
    }
    return NULL;
}

/* ---- --mpi: rank 0 hands out runs; a rank tunes each into a store in memory and sends back
 * its points and its winner, which rank 0 stores and keeps as its own tuners' ------------- */

/* Rank 0: one run's result from rank `from`: "index\0rc\0points\0winner\0runs" (JSON exports;
 * runs: the rank's record of the tuning run, with its evaluations). */
static int take_remote(tuners_t *tu, gb_store_t *st, const char *label, const char *buf, size_t len)
{
    size_t at = 0, added = 0, present = 0;
    gb_xp_mpi_field(buf, len, &at);
    const int rrc = atoi(gb_xp_mpi_field(buf, len, &at));
    const char *points = gb_xp_mpi_field(buf, len, &at), *winner = gb_xp_mpi_field(buf, len, &at);
    const char *record = gb_xp_mpi_field(buf, len, &at);
    char msg[1024], who[200];
    int rc = GB_OK;
    gb_tuned_t t;
    gb_tuned_init(&t);
    gb_tune_outcome_t out;
    memset(&out, 0, sizeof out);
    if (points[0])
        rc = gb_store_import_json(st, points, strlen(points), label, &added, &present);
    size_t nruns = 0;
    if (rc == GB_OK && record[0])
        rc = gb_store_tune_runs_add_json(st, record, &nruns);
    if (rc == GB_OK && winner[0])
        rc = gb_tuned_from_json(&t, winner, strlen(winner), label, "store", msg, sizeof msg);
    if (rc == GB_OK && t.n == 1) {
        out.have_winner = 1;
        out.winner = t.e[0];
        rc = gb_leaders_keep(st, &out, msg, sizeof msg);
    }
    pthread_mutex_lock(&tu->lock);
    snprintf(who, sizeof who, "[%s] ", label);
    if (rc != GB_OK)
        rc = cli_error(GB_EIO, "%s%s", who, rc == GB_ESTORE || !t.n ? gb_store_errmsg(st) : msg);
    else if (out.have_winner)
        printf("%s  tuning database: %s\n", who, out.kept_why);
    fflush(stdout);
    pthread_mutex_unlock(&tu->lock);
    gb_tuned_free(&t);
    if (rrc && !cli_stop_signal)
        rc = rc ? rc : rrc;
    return rc;
}

/* The store's points at one shape and precision, as a JSON export (caller frees; NULL when
 * there are none or on failure): a rank's cache for the run it is handed. */
typedef struct shape_cache {
    gb_store_t *mem;
    size_t m, n, k;
    gb_precision_t prec;
    size_t count;
} shape_cache_t;

static int cache_one(const gb_point_t *pt, void *user)
{
    shape_cache_t *c = user;
    const gb_problem_t *p = &pt->problem;
    if (p->m == c->m && p->n == c->n && p->k == c->k && p->precision == c->prec)
        c->count += gb_store_insert(c->mem, pt) == GB_OK;
    return 0;
}

static char *shape_points(gb_store_t *st, const gb_tune_spec_t *spec)
{
    char msg[256], *text = NULL;
    size_t len = 0, n = 0;
    shape_cache_t c = {NULL, spec->m, spec->n, spec->k, spec->precision, 0};
    if (gb_store_open(&c.mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        return NULL;
    FILE *f = NULL;
    if (gb_store_foreach(st, 1, cache_one, &c) == GB_OK && c.count &&
        (f = open_memstream(&text, &len)) != NULL) {
        gb_store_export_json(c.mem, f, &n);
        fclose(f);
    }
    gb_store_close(c.mem);
    return text;
}

/* What rank 0 knows of another rank: its label and its device's kind, from its HELLO. */
typedef struct rank_info {
    char label[160];
    size_t kind;
    int known; /* its HELLO is read */
} rank_info_t;

/* A rank's HELLO, "label\0name\0driver\0platform": its kind, a new one where no device of
 * this process nor any rank before had it. 0 or the exit code. */
static int hello_from(tuners_t *tu, int from, rank_info_t *r, const char *buf, size_t len)
{
    size_t at = 0;
    snprintf(r->label, sizeof r->label, "%s", gb_xp_mpi_field(buf, len, &at));
    const char *name = gb_xp_mpi_field(buf, len, &at), *driver = gb_xp_mpi_field(buf, len, &at);
    const char *platform = gb_xp_mpi_field(buf, len, &at);
    const size_t before = tu->kinds.n;
    if (!name[0] || cli_kinds_index(&tu->kinds, name, driver, platform, &r->kind) != GB_OK)
        return cli_error(
            GB_ENOMEM,
            "tune: rank %d's device did not reach rank 0 whole; run the same command again", from);
    r->known = 1;
    if (tu->kinds.n > before) {
        pthread_mutex_lock(&tu->lock);
        printf("[%s] a kind of its own (%s, %s): tunes every run\n", r->label, driver, platform);
        fflush(stdout);
        pthread_mutex_unlock(&tu->lock);
    }
    return 0;
}

/* Rank 0's main thread: serves the other ranks until each was told to stop (its own devices
 * tune on threads meanwhile). A rank takes the runs of its device's kind, shared with this
 * process's devices and the other ranks of that kind. After a stop request it waits 30 s for
 * the runs in flight. */
static int serve_ranks(tuners_t *tu)
{
    gb_store_t *st = tu->serve_st;
    int rc = 0;
    rank_info_t *ranks = calloc((size_t)tu->mpi->size, sizeof *ranks); /* by rank */
    if (!ranks)
        return cli_error(GB_ENOMEM, "out of memory");
    int live = tu->mpi->size - 1;
    gb_xp_wait_t wait = {&cli_stop_signal, 30.0, 0, 0};
    while (live > 0 && !wait.gave_up) {
        int from, tag;
        size_t len;
        char *buf = gb_xp_mpi_next(&wait, &from, &tag, &len);
        if (!buf)
            continue;
        rank_info_t *r = &ranks[from];
        if (tag == GB_XP_TAG_HELLO) {
            const int hrc = hello_from(tu, from, r, buf, len);
            if (hrc && !rc) {
                rc = hrc;
                stop_all(tu);
            }
        } else if (tag == GB_XP_TAG_ASK) {
            /* A rank sends its HELLO before its first ASK, and MPI keeps the order of two
             * messages from one rank to another (both match the probe of any tag), so its kind
             * is known here; a HELLO that did not read back stops it. */
            size_t k = 0, s = 0;
            const int work = r->known && next_run(tu, r->kind, &k, &s);
            gb_xp_mpi_answer(from, work, k * tu->runs->nshapes + s);
            live -= !work;
            if (work) {
                /* What the store already holds at that shape: the rank's cache, so that a
                 * candidate measured before is not measured again there either. */
                gb_tune_spec_t spec;
                make_spec(tu, &tu->w[0], k, s, &spec);
                char *cache = shape_points(st, &spec);
                const char *f[] = {cache ? cache : ""};
                gb_xp_mpi_send(f, 1, from, GB_XP_TAG_CHECK);
                free(cache);
            }
        } else if (tag == GB_XP_TAG_RESULT) {
            const int trc = take_remote(tu, st, r->label, buf, len);
            if (trc && !rc) {
                rc = trc;
                stop_all(tu);
            }
        }
        free(buf);
    }
    if (live > 0)
        fprintf(stderr,
                "gemmbench: tune: %d rank(s) stopped answering; what they sent is stored; "
                "run the same command again to go on\n",
                live);
    free(ranks);
    return rc;
}

/* A rank other than 0: each run asked of rank 0 is tuned into a store in memory (no file is
 * written here), whose points and winner go back to rank 0. */
static int tune_remote(tuners_t *tu)
{
    tuner_t *w = &tu->w[0];
    /* Its device's kind: rank 0 hands it the runs of that kind. */
    const gb_device_info_t *d = gb_context_device(w->ctx);
    const char *hello[] = {w->label, d->name, d->driver, d->platform_name};
    gb_xp_mpi_send(hello, 4, 0, GB_XP_TAG_HELLO);
    w->v.mpi = w->v.not_kept = 1;
    size_t r;
    int rc = 0;
    while (gb_xp_mpi_ask(&r)) {
        gb_store_t *mem = NULL;
        gb_tune_spec_t spec;
        gb_tune_outcome_t out;
        char msg[512], idx[32], code[16];
        if (gb_store_open(&mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
            return cli_error(GB_EIO, "%s: %s", w->label, msg);
        make_spec(tu, w, r / tu->runs->nshapes, r % tu->runs->nshapes, &spec);
        int tag;
        size_t clen, added = 0, present = 0;
        char *cache = gb_xp_mpi_recv(0, &tag, &clen);
        if (cache && cache[0] &&
            gb_store_import_json(mem, cache, strlen(cache), "rank 0", &added, &present) != GB_OK)
            fprintf(stderr,
                    "gemmbench: tune: %s: rank 0's points did not read back (%s); "
                    "measuring them again\n",
                    w->label, gb_store_errmsg(mem));
        free(cache);
        memset(&out, 0, sizeof out);
        rc = cli_tune_one(&spec, tu->reg, w->ctx, mem, &w->v, NULL, &out);
        char *points = NULL, *winner = NULL;
        size_t plen = 0, count = 0;
        FILE *f = open_memstream(&points, &plen);
        if (f) {
            gb_store_export_json(mem, f, &count);
            fclose(f);
        }
        gb_tuned_t t;
        gb_tuned_init(&t);
        if (out.have_winner && gb_tuned_add(&t, &out.winner) == GB_OK)
            winner = gb_tuned_to_json(&t);
        gb_tuned_free(&t);
        char *record = gb_store_tune_runs_to_json(mem);
        snprintf(idx, sizeof idx, "%zu", r);
        snprintf(code, sizeof code, "%d", rc);
        const char *fields[] = {idx, code, points ? points : "", winner ? winner : "",
                                record ? record : ""};
        gb_xp_mpi_send(fields, 5, 0, GB_XP_TAG_RESULT);
        free(points);
        free(winner);
        free(record);
        gb_store_close(mem);
    }
    return rc;
}

typedef struct tuner_arg {
    tuner_t *w;
    tuners_t *tu;
} tuner_arg_t;

static void *tuner_thread(void *p)
{
    tuner_arg_t *a = p;
    return tuner_loop(a->w, a->tu);
}

/* Every run on every kind of device: the first tuner on this thread, the others on their own. */
int cli_tuners_run(tuners_t *tu)
{
    if (tu->mpi && tu->mpi->rank > 0)
        return tune_remote(tu);
    const int serving = tu->mpi && tu->mpi->size > 1;
    pthread_t th[CLI_MAX_DEVICES];
    tuner_arg_t args[CLI_MAX_DEVICES];
    size_t nth = 0;
    for (size_t i = serving ? 0 : 1; i < tu->n; i++) {
        args[nth] = (tuner_arg_t){&tu->w[i], tu};
        if (pthread_create(&th[nth], NULL, tuner_thread, &args[nth]) != 0) {
            tu->failed = 1;
            break;
        }
        nth++;
    }
    int rc = 0;
    if (serving)
        rc = serve_ranks(tu);
    else
        tuner_loop(&tu->w[0], tu);
    for (size_t i = 0; i < nth; i++)
        pthread_join(th[i], NULL);
    for (size_t i = 0; i < tu->n && !rc; i++)
        rc = tu->w[i].rc;
    if (!rc && nth + (serving ? 0 : 1) < tu->n)
        rc = cli_error(GB_ENOMEM, "could not start a thread for every device");
    return rc;
}
