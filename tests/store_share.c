/* store_share.c: one store connection shared by threads (gb_store_share), as the tuners of
 * `tune -d` share the command's: each thread on its own handle, at once, makes read-compare-
 * write transactions on one tuned entry (none lost: the count comes out whole), begins tuning
 * runs and adds an evaluation to each (the run's id is its own, not another thread's last
 * insert), inserts repetitions of one point definition (each gets a repetition index of its
 * own) and fails a read (its message names its own point). Then the first handle is closed
 * while the others go on. No device; CI runs it under ThreadSanitizer too. */
#include "unit.h"

#include <pthread.h>

#include "tool/store/tuning.h"

#define THREADS 4
#define ROUNDS 25

static gb_tuned_entry_t key;

typedef struct worker {
    gb_store_t *st;
    int index;
    int64_t runs[ROUNDS];
    unsigned reps[ROUNDS];
    int failed; /* calls that did not return what they should */
    char why[1024];
} worker_t;

static void make_key(gb_tuned_entry_t *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->device, sizeof e->device, "Shared Card");
    snprintf(e->platform, sizeof e->platform, "Platform");
    snprintf(e->driver, sizeof e->driver, "1.0");
    snprintf(e->vendor, sizeof e->vendor, "Vendor");
    snprintf(e->type, sizeof e->type, "gpu");
    e->precision = GB_PREC_S;
    snprintf(e->layout, sizeof e->layout, "col-NN");
    e->m = e->n = e->k = 256;
    snprintf(e->shape_class, sizeof e->shape_class, "small-256");
    snprintf(e->kernel, sizeof e->kernel, "xgemm");
    gb_params_set(&e->params, "MWG", 32);
}

/* The entry's rate counts the transactions: read, add one, write. */
static int bump(gb_store_t *st, void *user)
{
    (void)user;
    gb_tuned_entry_t e;
    int rc = gb_store_tuned_get(st, &key, &e);
    if (rc == GB_ENOPOINT) {
        e = key;
        e.gflops = 0;
    } else if (rc != GB_OK) {
        return rc;
    }
    e.tuned_at[0] = '\0';
    e.gflops += 1;
    return gb_store_tuned_put(st, &e);
}

/* A point that passes gb_point_check, the same definition in every thread. */
static void make_point(gb_point_t *pt)
{
    gb_point_init(pt);
    snprintf(pt->device.name, sizeof pt->device.name, "Shared Card");
    snprintf(pt->device.vendor, sizeof pt->device.vendor, "Vendor");
    snprintf(pt->device.platform, sizeof pt->device.platform, "Platform");
    snprintf(pt->device.driver, sizeof pt->device.driver, "1.0");
    snprintf(pt->device.type, sizeof pt->device.type, "gpu");
    snprintf(pt->kernel, sizeof pt->kernel, "xgemm");
    snprintf(pt->family, sizeof pt->family, "xgemm");
    snprintf(pt->source_hash, sizeof pt->source_hash, "fnv1a64:0123456789abcdef");
    gb_problem_init(&pt->problem, GB_PREC_S, 64, 64, 64);
    gb_problem_check(&pt->problem, NULL, 0);
    gb_params_set(&pt->params, "MWG", 32);
    pt->seed = 42;
    pt->dist.kind = GB_DIST_UNIFORM;
    pt->dist.lo = -1;
    pt->dist.hi = 1;
    pt->warmup = 1;
    pt->iterations = 2;
    pt->timing = pt->result.timing = GB_TIMING_OPS;
    pt->result.gflops = 10;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        gb_stats_t *s = &pt->result.time_ms[ph];
        s->n = 2;
        s->min = s->max = s->median = s->mean = s->ci95_lo = s->ci95_hi = 0.05;
        pt->result.samples_ms[ph] = calloc(2, sizeof(double));
        if (pt->result.samples_ms[ph])
            pt->result.samples_ms[ph][0] = pt->result.samples_ms[ph][1] = 0.05;
    }
    pt->result.energy_j = pt->result.energy_w = pt->result.gflops_per_watt = -1;
    pt->result.energy_s = -1;
    pt->result.validation.done = pt->result.validation.passed = 1;
    gb_point_set_provenance(pt);
    gb_point_compute_id(pt);
}

static void note(worker_t *w, const char *what)
{
    if (!w->failed++)
        snprintf(w->why, sizeof w->why, "thread %d: %s: %s", w->index, what,
                 gb_store_errmsg(w->st));
}

static void *work(void *p)
{
    worker_t *w = p;
    for (int r = 0; r < ROUNDS; r++) {
        if (gb_store_transaction(w->st, bump, NULL) != GB_OK)
            note(w, "transaction");
        gb_tune_run_t run;
        memset(&run, 0, sizeof run);
        snprintf(run.device, sizeof run.device, "Shared Card");
        snprintf(run.platform, sizeof run.platform, "Platform");
        snprintf(run.driver, sizeof run.driver, "1.0");
        snprintf(run.kernel, sizeof run.kernel, "xgemm");
        snprintf(run.layout, sizeof run.layout, "col-NN");
        run.m = run.n = run.k = 64;
        snprintf(run.shape_class, sizeof run.shape_class, "small-64");
        snprintf(run.strategy, sizeof run.strategy, "random");
        run.seed = (uint64_t)(w->index * ROUNDS + r);
        snprintf(run.command, sizeof run.command, "thread %d", w->index);
        if (gb_store_tune_run_begin(w->st, &run) != GB_OK)
            note(w, "a run's beginning");
        w->runs[r] = run.id;
        gb_tune_eval_t ev;
        memset(&ev, 0, sizeof ev);
        ev.run_id = run.id;
        snprintf(ev.point_id, sizeof ev.point_id, "00000000000000%02x", (unsigned)r);
        snprintf(ev.params, sizeof ev.params, "MWG=32");
        ev.gflops = ev.best = 1;
        if (gb_store_tune_eval_add(w->st, &ev) != GB_OK)
            note(w, "an evaluation");
        gb_point_t pt;
        make_point(&pt);
        if (gb_store_insert_next_rep(w->st, &pt) != GB_OK)
            note(w, "a repetition");
        w->reps[r] = pt.rep;
        gb_point_free(&pt);
        /* A failure's message on this handle is this thread's. */
        char id[GB_POINT_ID_LEN + 1];
        snprintf(id, sizeof id, "ffff%04x%08x", (unsigned)w->index, (unsigned)r);
        gb_point_init(&pt);
        if (gb_store_get(w->st, id, &pt) != GB_ENOPOINT || !strstr(gb_store_errmsg(w->st), id))
            note(w, "a missing point's message");
        gb_point_free(&pt);
    }
    return NULL;
}

typedef struct seen {
    int64_t ids[THREADS * ROUNDS];
    size_t n, mismatched;
} seen_t;

static int check_run(const gb_tune_run_t *r, void *user)
{
    seen_t *s = user;
    char want[64];
    snprintf(want, sizeof want, "thread %d", (int)(r->seed / ROUNDS));
    s->mismatched += strcmp(r->command, want) != 0;
    if (s->n < THREADS * ROUNDS)
        s->ids[s->n++] = r->id;
    return GB_OK;
}

int main(void)
{
    char dir[64], path[256], msg[1024];
    if (!unit_make_dir(dir, sizeof dir)) {
        printf("cannot make a temporary directory\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/shared.db", dir);
    make_key(&key);
    gb_store_t *st = NULL;
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        return unit_finish();
    worker_t w[THREADS];
    pthread_t th[THREADS];
    int started = 0;
    memset(w, 0, sizeof w);
    for (int i = 0; i < THREADS; i++) {
        w[i].index = i;
        w[i].st = st;
        if (i && !CHECK_RC(gb_store_share(st, &w[i].st), GB_OK))
            break;
        if (!CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0))
            break;
        started++;
    }
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    CHECK(started == THREADS);
    for (int i = 0; i < started; i++)
        if (!CHECK(w[i].failed == 0))
            printf("  %d failures; the first: %s\n", w[i].failed, w[i].why);

    /* Every transaction counted, every run its own thread's with one evaluation, every
     * repetition index taken once. */
    gb_tuned_entry_t e;
    if (CHECK_RC(gb_store_tuned_get(w[1].st, &key, &e), GB_OK) &&
        !CHECK(e.gflops == THREADS * ROUNDS))
        printf("  the entry counts %g transactions of %d\n", e.gflops, THREADS * ROUNDS);
    gb_tuning_counts_t c;
    CHECK_RC(gb_store_tuning_counts(w[2].st, &c), GB_OK);
    CHECK(c.runs == THREADS * ROUNDS && c.evals == THREADS * ROUNDS && c.tuned == 1);
    seen_t seen = {.n = 0};
    CHECK_RC(gb_store_tune_runs(w[3].st, check_run, &seen), GB_OK);
    CHECK(seen.n == THREADS * ROUNDS && seen.mismatched == 0);
    unsigned char rep_seen[THREADS * ROUNDS] = {0};
    size_t dup = 0;
    for (int i = 0; i < started; i++)
        for (int r = 0; r < ROUNDS; r++) {
            const unsigned rep = w[i].reps[r];
            dup += rep >= THREADS * ROUNDS || rep_seen[rep]++;
        }
    CHECK(dup == 0);
    size_t points = 0;
    CHECK_RC(gb_store_count(st, &points), GB_OK);
    CHECK(points == THREADS * ROUNDS);

    /* The connection stays open while a handle on it does: the first closes, the others read. */
    gb_store_close(st);
    CHECK_RC(gb_store_count(w[1].st, &points), GB_OK);
    size_t checked = 0, bad = 0;
    CHECK_RC(gb_store_check(w[2].st, &checked, &bad), GB_OK);
    CHECK(checked == THREADS * ROUNDS && bad == 0);
    for (int i = 1; i < THREADS; i++)
        gb_store_close(w[i].st);
    unit_remove_dir(dir);
    return unit_finish();
}
