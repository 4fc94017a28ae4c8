/* store_tuning.c: the tuning tables of the results store (src/tool/store/tuning.h) without a device:
 * a store of schema version 2 without them, opened as read-only commands open it, reads as
 * holding no tuning and gains no table; every field of a tuned entry, a failure, a run and its
 * evaluations is written and read back (parameters sorted, above 2^31 and negative; a seed above
 * 2^63; NaN and infinity); an entry under the same key replaces the one there; bad input is
 * refused naming the field, with nothing written; a rolled-back transaction leaves no table;
 * values gemmbench did not write (26 kinds of damage to a tuned entry, and to runs, evaluations
 * and failures) are passed over by the readers with a warning, named by the tuning check and
 * replaced by a put of their key, the other rows read as before; `store check` passes on a
 * store with tuning tables; an entry's objective and energy per GEMM round-trip, one entry per
 * objective under one class; and a table tuned made before objectives (the key without one) is
 * read as time entries and made anew with the objective in its key at the first write, its
 * entries kept.
 *
 * `store_tuning --make DB` instead writes a new store of three made-up points and tuning data
 * over them (three runs, two tuned entries, one of whose evidence is not stored); `--add DB`
 * adds such tuning data to a store of measured points, over its first points (for the report
 * and `gemmbench tuned` tests); `--points DB` writes the three points alone. */
#include "unit.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include "tool/store/inflight.h"
#include "tool/store/tuning.h"
#include "gemmbench_tuning.h"

static int make(const char *path, int add);

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/* How many tables of the database at path are named like the tuning's. */
static int tuning_tables(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND (name = "
                           "'tuned' OR name LIKE 'tune_%')",
                           -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return n;
}

static int run_sql(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

static void make_entry(gb_tuned_entry_t *e, const char *device, const char *layout, size_t size)
{
    memset(e, 0, sizeof *e);
    snprintf(e->device, sizeof e->device, "%s", device);
    snprintf(e->platform, sizeof e->platform, "Platform, with \"quotes\"");
    snprintf(e->driver, sizeof e->driver, "9.8.7");
    snprintf(e->vendor, sizeof e->vendor, "Vendor");
    snprintf(e->type, sizeof e->type, "gpu");
    e->precision = GB_PREC_D;
    snprintf(e->layout, sizeof e->layout, "%s", layout);
    e->m = size;
    e->n = size + 1;
    e->k = size * 3;
    gb_shape_class(e->m, e->n, e->k, e->shape_class, sizeof e->shape_class);
    snprintf(e->kernel, sizeof e->kernel, "xgemm");
    /* Unsorted, and values a 32-bit long or a double would not keep. */
    gb_params_set(&e->params, "ZZ", -3);
    gb_params_set(&e->params, "AA", 1L << 40);
    gb_params_set(&e->params, "MWG", 64);
    e->gflops = 1234.5678901234567;
    for (size_t i = 0; i < GB_TUNED_EVIDENCE; i++)
        snprintf(e->evidence[i], sizeof e->evidence[i], "%015zx%c", i, 'a' + (int)i % 6);
    e->nevidence = GB_TUNED_EVIDENCE;
    snprintf(e->tuned_at, sizeof e->tuned_at, "2026-11-24T12:34:56Z");
}

/* Every field of two entries equal (b read back: source "store", parameters sorted). */
static int same_entry(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    int same = !strcmp(a->device, b->device) && !strcmp(a->platform, b->platform) &&
               !strcmp(a->driver, b->driver) && !strcmp(a->vendor, b->vendor) &&
               !strcmp(a->type, b->type) && a->precision == b->precision &&
               !strcmp(a->layout, b->layout) && !strcmp(a->shape_class, b->shape_class) &&
               a->m == b->m && a->n == b->n && a->k == b->k && !strcmp(a->kernel, b->kernel) &&
               same_double(a->gflops, b->gflops) && a->nevidence == b->nevidence &&
               !strcmp(a->tuned_at, b->tuned_at) && !strcmp(b->source, "store") &&
               a->params.count == b->params.count;
    for (size_t i = 0; same && i < a->nevidence; i++)
        same = !strcmp(a->evidence[i], b->evidence[i]);
    for (size_t i = 0; same && i < a->params.count; i++) {
        long v;
        same = gb_params_get(&b->params, a->params.name[i], &v) && v == a->params.value[i];
    }
    for (size_t i = 1; same && i < b->params.count; i++)
        same = strcmp(b->params.name[i - 1], b->params.name[i]) < 0;
    return same;
}

static int count_entry(const gb_tuned_entry_t *e, void *user)
{
    (void)e;
    ++*(size_t *)user;
    return GB_OK;
}

static int count_run(const gb_tune_run_t *r, void *user)
{
    (void)r;
    ++*(size_t *)user;
    return GB_OK;
}

static int count_eval(const gb_tune_eval_t *e, void *user)
{
    (void)e;
    ++*(size_t *)user;
    return GB_OK;
}

static int put_then_fail(gb_store_t *st, void *user)
{
    gb_tuned_entry_t e;
    (void)user;
    make_entry(&e, "Dev", "row-NN", 64);
    int rc = gb_store_tuned_put(st, &e);
    return rc == GB_OK ? GB_EIO : rc;
}

/* Read-only on a store without the tables: nothing there, nothing written. */
static void test_absent(const char *dir)
{
    char path[256], msg[1024];
    gb_store_t *st = NULL;
    snprintf(path, sizeof path, "%s/absent.db", dir);
    CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK);
    gb_store_close(st);
    if (!CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK))
        return;
    gb_tuning_counts_t c;
    CHECK_RC(gb_store_tuning_counts(st, &c), GB_OK);
    CHECK(!c.present && !c.tuned && !c.failures && !c.runs && !c.evals);
    gb_tuned_entry_t key, got;
    make_entry(&key, "Dev", "row-NN", 64);
    CHECK_RC(gb_store_tuned_get(st, &key, &got), GB_ENOPOINT);
    CHECK_HAS(gb_store_errmsg(st), "no tuned entry for Dev (d, row-NN, small-128) in store");
    size_t n = 0;
    CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
    gb_tune_failure_t f;
    CHECK_RC(gb_store_failure_get(st, "0123456789abcdef", &f), GB_ENOPOINT);
    CHECK_RC(gb_store_tune_runs(st, count_run, &n), GB_OK);
    CHECK_RC(gb_store_tune_evals(st, 1, count_eval, &n), GB_OK);
    CHECK(n == 0);
    gb_tune_run_t run;
    memset(&run, 0, sizeof run);
    run.id = 1;
    snprintf(run.status, sizeof run.status, "done");
    CHECK_RC(gb_store_tune_run_end(st, &run), GB_ENOPOINT);
    size_t checked = 9, bad = 9;
    CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
    CHECK(checked == 0 && bad == 0);
    gb_store_close(st);
    CHECK(tuning_tables(path) == 0);

    /* A transaction that writes an entry and then fails leaves no table behind either. */
    CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_transaction(st, put_then_fail, NULL), GB_EIO);
    CHECK_RC(gb_store_tuning_counts(st, &c), GB_OK);
    CHECK(!c.present);
    gb_store_close(st);
    CHECK(tuning_tables(path) == 0);
}

/* The keys foreach gives, "device/layout/class;" each. */
static int collect_entry(const gb_tuned_entry_t *e, void *user)
{
    char *order = user;
    size_t len = strlen(order);
    snprintf(order + len, 512 - len, "%s/%s/%s;", e->device, e->layout, e->shape_class);
    return GB_OK;
}

static int stop_at_first(const gb_tuned_entry_t *e, void *user)
{
    (void)e;
    ++*(size_t *)user;
    return 42;
}

/* The tuning database: round trips, keys, order, replacement and refusals. */
static void test_entries(gb_store_t *st)
{
    gb_tuned_entry_t e, got, key;
    make_entry(&e, "Card \"A\", rev. 2", "col-TN", 4096);
    CHECK_RC(gb_store_tuned_put(st, &e), GB_OK);
    memset(&key, 0, sizeof key);
    snprintf(key.device, sizeof key.device, "%s", e.device);
    snprintf(key.platform, sizeof key.platform, "%s", e.platform);
    snprintf(key.driver, sizeof key.driver, "%s", e.driver);
    key.precision = e.precision;
    snprintf(key.layout, sizeof key.layout, "%s", e.layout);
    snprintf(key.shape_class, sizeof key.shape_class, "%s", e.shape_class);
    if (CHECK_RC(gb_store_tuned_get(st, &key, &got), GB_OK))
        CHECK(same_entry(&e, &got));
    CHECK(got.params.count == 3 && !strcmp(got.params.name[0], "AA") &&
          got.params.value[0] == 1L << 40 && !strcmp(got.params.name[2], "ZZ") &&
          got.params.value[2] == -3);
    /* Each part of the key tells entries apart: another driver is not tuned. */
    snprintf(key.driver, sizeof key.driver, "1.0");
    CHECK_RC(gb_store_tuned_get(st, &key, &got), GB_ENOPOINT);
    snprintf(key.driver, sizeof key.driver, "%s", e.driver);
    key.precision = GB_PREC_S;
    CHECK_RC(gb_store_tuned_get(st, &key, &got), GB_ENOPOINT);
    key.precision = GB_PREC_D;

    /* The same key again replaces; no evidence, no parameters, an empty time made now. */
    gb_tuned_entry_t e2 = e;
    snprintf(e2.kernel, sizeof e2.kernel, "xgemm_nv_64");
    memset(&e2.params, 0, sizeof e2.params);
    e2.nevidence = 0;
    e2.gflops = 0;
    e2.tuned_at[0] = '\0';
    CHECK_RC(gb_store_tuned_put(st, &e2), GB_OK);
    if (CHECK_RC(gb_store_tuned_get(st, &key, &got), GB_OK)) {
        CHECK(!strcmp(got.kernel, "xgemm_nv_64") && got.params.count == 0 && got.nevidence == 0 &&
              got.gflops == 0);
        CHECK(strlen(got.tuned_at) == 20 && got.tuned_at[10] == 'T' && got.tuned_at[19] == 'Z');
    }
    CHECK_RC(gb_store_tuned_put(st, &e), GB_OK);

    /* Order: device, precision, layout, shape class. */
    gb_tuned_entry_t more;
    make_entry(&more, "Card B", "row-NN", 64);
    CHECK_RC(gb_store_tuned_put(st, &more), GB_OK);
    make_entry(&more, "Card B", "col-NN", 64);
    CHECK_RC(gb_store_tuned_put(st, &more), GB_OK);
    make_entry(&more, "Card B", "col-NN", 1024);
    CHECK_RC(gb_store_tuned_put(st, &more), GB_OK);
    char order[512] = "";
    CHECK_RC(gb_store_tuned_foreach(st, collect_entry, order), GB_OK);
    /* '"' sorts before 'B': text compares byte by byte. 64 x 65 x 192 is small-128. */
    char want[512];
    snprintf(want, sizeof want,
             "%s/%s/%s;Card B/col-NN/small-128;Card B/col-NN/square-2048;Card B/row-NN/small-128;",
             e.device, e.layout, e.shape_class);
    CHECK(!strcmp(order, want));
    if (strcmp(order, want))
        printf("    order %s\n    want  %s\n", order, want);
    size_t calls = 0;
    CHECK_RC(gb_store_tuned_foreach(st, stop_at_first, &calls), 42);
    CHECK(calls == 1);

    /* Refused, naming the field; nothing written. */
    static const struct {
        const char *field, *says;
    } bad[] = {{"device", "bad device"},     {"layout", "bad layout"},
               {"kernel", "bad kernel"},     {"m", "bad m, n, k"},
               {"gflops", "bad gflops"},     {"nan", "bad gflops"},
               {"evidence", "bad evidence"}, {"nevidence", "bad nevidence"},
               {"class", "bad shape_class"}, {"precision", "bad precision"},
               {"param", "bad params"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb_tuned_entry_t x;
        make_entry(&x, "Card C", "row-NN", 64);
        if (!strcmp(bad[i].field, "device"))
            x.device[0] = '\0';
        else if (!strcmp(bad[i].field, "layout"))
            snprintf(x.layout, sizeof x.layout, "row-NX");
        else if (!strcmp(bad[i].field, "kernel"))
            x.kernel[0] = '\0';
        else if (!strcmp(bad[i].field, "m"))
            x.k = 0;
        else if (!strcmp(bad[i].field, "gflops"))
            x.gflops = -1;
        else if (!strcmp(bad[i].field, "nan"))
            x.gflops = (double)NAN;
        else if (!strcmp(bad[i].field, "evidence"))
            snprintf(x.evidence[3], sizeof x.evidence[3], "0123456789ABCDEF");
        else if (!strcmp(bad[i].field, "nevidence"))
            x.nevidence = GB_TUNED_EVIDENCE + 1;
        else if (!strcmp(bad[i].field, "class"))
            x.shape_class[0] = '\0';
        else if (!strcmp(bad[i].field, "param")) /* would not read back from "NAME=V ..." */
            gb_params_set(&x.params, "A B", 1);
        else
            x.precision = (gb_precision_t)7;
        CHECK_RC(gb_store_tuned_put(st, &x), GB_EBADARG);
        CHECK_HAS(gb_store_errmsg(st), bad[i].says);
    }
    size_t n = 0;
    CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
    CHECK(n == 4);
}

/* Candidates that cannot win: round trip, replacement, refusals. */
static void test_failures(gb_store_t *st)
{
    gb_tune_failure_t f, got;
    memset(&f, 0, sizeof f);
    snprintf(f.id, sizeof f.id, "00000000deadbeef");
    snprintf(f.kernel, sizeof f.kernel, "xgemm");
    snprintf(f.params, sizeof f.params, "KWG=16 MDIMC=8 MWG=128");
    f.code = GB_ETIMEOUT;
    snprintf(f.reason, sizeof f.reason, "ran past its time limit (2.5 s), \"quoted\"");
    snprintf(f.timestamp, sizeof f.timestamp, "2026-11-24T01:02:03Z");
    CHECK_RC(gb_store_failure_put(st, &f), GB_OK);
    if (CHECK_RC(gb_store_failure_get(st, f.id, &got), GB_OK))
        CHECK(!strcmp(got.id, f.id) && !strcmp(got.kernel, f.kernel) &&
              !strcmp(got.params, f.params) && got.code == f.code &&
              !strcmp(got.reason, f.reason) && !strcmp(got.timestamp, f.timestamp));
    f.code = GB_EBUILD;
    f.timestamp[0] = '\0';
    CHECK_RC(gb_store_failure_put(st, &f), GB_OK);
    CHECK_RC(gb_store_failure_get(st, f.id, &got), GB_OK);
    CHECK(got.code == GB_EBUILD && strlen(got.timestamp) == 20);
    CHECK_RC(gb_store_failure_get(st, "00000000deadbeee", &got), GB_ENOPOINT);
    CHECK_HAS(gb_store_errmsg(st), "no tuning failure recorded for 00000000deadbeee");
    snprintf(f.id, sizeof f.id, "xyz");
    CHECK_RC(gb_store_failure_put(st, &f), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "bad id 'xyz'");
    snprintf(f.id, sizeof f.id, "00000000deadbeee");
    f.code = GB_OK;
    CHECK_RC(gb_store_failure_put(st, &f), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "code 0 is not an error");
    CHECK_RC(gb_store_failure_get(st, f.id, &got), GB_ENOPOINT);
}

typedef struct evals {
    gb_tune_eval_t ev[8];
    size_t n;
} evals_t;

static int keep_eval(const gb_tune_eval_t *ev, void *user)
{
    evals_t *e = user;
    if (e->n < 8)
        e->ev[e->n] = *ev;
    e->n++;
    return GB_OK;
}

typedef struct runs {
    gb_tune_run_t run[4];
    size_t n;
} runs_t;

static int keep_run(const gb_tune_run_t *r, void *user)
{
    runs_t *rs = user;
    if (rs->n < 4)
        rs->run[rs->n] = *r;
    rs->n++;
    return GB_OK;
}

/* Tuning runs and evaluations: every field back, evaluations by seq, refusals. */
static void test_runs(gb_store_t *st)
{
    gb_tune_run_t run, other;
    memset(&run, 0, sizeof run);
    snprintf(run.device, sizeof run.device, "Card \"A\"");
    snprintf(run.platform, sizeof run.platform, "Platform");
    snprintf(run.driver, sizeof run.driver, "9.8.7");
    snprintf(run.kernel, sizeof run.kernel, "xgemm");
    run.precision = GB_PREC_D;
    snprintf(run.layout, sizeof run.layout, "col-NT");
    run.m = 300;
    run.n = 200;
    run.k = 77;
    gb_shape_class(run.m, run.n, run.k, run.shape_class, sizeof run.shape_class);
    snprintf(run.strategy, sizeof run.strategy, "bayes");
    run.seed = (1ull << 63) + 5;
    run.budget = 120;
    run.time_s = 0.25;
    run.space = (1ull << 40) + 3;
    run.winner_gflops = (double)NAN;
    snprintf(run.command, sizeof run.command, "gemmbench tune -k xgemm --strategy bayes");
    CHECK_RC(gb_store_tune_run_begin(st, &run), GB_OK);
    CHECK(run.id > 0 && !strcmp(run.status, "running") && strlen(run.started) == 20);
    other = run;
    snprintf(other.strategy, sizeof other.strategy, "random");
    CHECK_RC(gb_store_tune_run_begin(st, &other), GB_OK);
    CHECK(other.id > run.id);

    /* Evaluations added out of order come back by seq. */
    const double scores[5] = {10.5, -1, 30.25, (double)INFINITY, 20};
    for (size_t i = 5; i-- > 0;) {
        gb_tune_eval_t ev;
        memset(&ev, 0, sizeof ev);
        ev.run_id = run.id;
        ev.seq = i;
        snprintf(ev.point_id, sizeof ev.point_id, "00000000000000%02x", (unsigned)i & 0xffu);
        snprintf(ev.params, sizeof ev.params, "MWG=%d NWG=64", 16 << i);
        ev.gflops = scores[i];
        ev.code = scores[i] < 0 ? GB_EBUILD : GB_OK;
        snprintf(ev.reason, sizeof ev.reason, "%s", scores[i] < 0 ? "build failed: x" : "");
        ev.cached = (int)(i == 2);
        ev.best = i == 0 ? 10.5 : i < 3 ? (i == 1 ? 10.5 : 30.25) : (double)INFINITY;
        ev.elapsed_s = i == 4 ? (double)NAN : 0.1 * (double)i;
        CHECK_RC(gb_store_tune_eval_add(st, &ev), GB_OK);
    }
    evals_t got = {.n = 0};
    CHECK_RC(gb_store_tune_evals(st, run.id, keep_eval, &got), GB_OK);
    CHECK(got.n == 5);
    for (size_t i = 0; i < 5 && i < got.n; i++) {
        const gb_tune_eval_t *ev = &got.ev[i];
        char id[20], params[64];
        snprintf(id, sizeof id, "00000000000000%02zx", i);
        snprintf(params, sizeof params, "MWG=%d NWG=64", 16 << i);
        CHECK(ev->run_id == run.id && ev->seq == i && !strcmp(ev->point_id, id) &&
              !strcmp(ev->params, params) && same_double(ev->gflops, scores[i]));
        CHECK(ev->code == (scores[i] < 0 ? GB_EBUILD : GB_OK) && ev->cached == (i == 2));
        CHECK(!strcmp(ev->reason, scores[i] < 0 ? "build failed: x" : ""));
        CHECK(i == 4 ? isnan(ev->elapsed_s) : ev->elapsed_s == 0.1 * (double)i);
    }
    CHECK(got.n == 5 && isinf(got.ev[4].best) && got.ev[1].best == 10.5);
    got.n = 0;
    CHECK_RC(gb_store_tune_evals(st, other.id, keep_eval, &got), GB_OK);
    CHECK(got.n == 0);

    /* An evaluation of no run, or recorded twice, is refused. */
    gb_tune_eval_t ev = got.ev[0];
    memset(&ev, 0, sizeof ev);
    snprintf(ev.point_id, sizeof ev.point_id, "0000000000000000");
    ev.run_id = other.id + 100;
    CHECK_RC(gb_store_tune_eval_add(st, &ev), GB_ENOPOINT);
    CHECK_HAS(gb_store_errmsg(st), "no tuning run");
    ev.run_id = run.id;
    ev.seq = 3;
    CHECK_RC(gb_store_tune_eval_add(st, &ev), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "evaluation 3 of tuning run");
    snprintf(ev.point_id, sizeof ev.point_id, "short");
    CHECK_RC(gb_store_tune_eval_add(st, &ev), GB_EBADARG);

    /* The end: status, evaluations, winner; the rest as begun. */
    run.evals = 5;
    snprintf(run.status, sizeof run.status, "interrupted");
    snprintf(run.winner, sizeof run.winner, "0000000000000003");
    run.winner_gflops = 30.25;
    CHECK_RC(gb_store_tune_run_end(st, &run), GB_OK);
    runs_t rs = {.n = 0};
    CHECK_RC(gb_store_tune_runs(st, keep_run, &rs), GB_OK);
    CHECK(rs.n == 2 && rs.run[0].id == run.id && rs.run[1].id == other.id);
    const gb_tune_run_t *b = &rs.run[0];
    CHECK(!strcmp(b->device, run.device) && !strcmp(b->platform, run.platform) &&
          !strcmp(b->driver, run.driver) && !strcmp(b->kernel, run.kernel) &&
          b->precision == run.precision && !strcmp(b->layout, run.layout) && b->m == run.m &&
          b->n == run.n && b->k == run.k && !strcmp(b->shape_class, run.shape_class) &&
          !strcmp(b->strategy, run.strategy) && b->seed == run.seed && b->budget == run.budget &&
          b->time_s == run.time_s && b->space == run.space && !strcmp(b->started, run.started) &&
          strlen(b->finished) == 20 && !strcmp(b->status, "interrupted") && b->evals == 5 &&
          !strcmp(b->winner, run.winner) && b->winner_gflops == 30.25 &&
          !strcmp(b->command, run.command));
    CHECK(!strcmp(rs.run[1].status, "running") && !rs.run[1].finished[0] && !rs.run[1].winner[0] &&
          isnan(rs.run[1].winner_gflops));

    /* Both runs with their evaluations as text, added to a store in memory: the same runs (new
     * ids), times, status, evaluations; non-finite values kept. */
    char *text = gb_store_tune_runs_to_json(st);
    CHECK(text != NULL);
    gb_store_t *mem = NULL;
    char msg[256];
    size_t added = 0;
    if (text &&
        CHECK_RC(gb_store_open(&mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg), GB_OK)) {
        CHECK_RC(gb_store_tune_runs_add_json(mem, text, &added), GB_OK);
        CHECK(added == 2);
        runs_t rm = {.n = 0};
        CHECK_RC(gb_store_tune_runs(mem, keep_run, &rm), GB_OK);
        CHECK(rm.n == 2);
        for (size_t i = 0; i < 2 && i < rm.n; i++) {
            const gb_tune_run_t *x = &rm.run[i], *y = &rs.run[i];
            CHECK(!strcmp(x->device, y->device) && !strcmp(x->started, y->started) &&
                  !strcmp(x->finished, y->finished) && !strcmp(x->status, y->status) &&
                  x->seed == y->seed && x->space == y->space && x->evals == y->evals &&
                  same_double(x->winner_gflops, y->winner_gflops) && x->m == y->m &&
                  !strcmp(x->command, y->command) && same_double(x->time_s, y->time_s));
        }
        evals_t again = {.n = 0};
        if (rm.n == 2)
            CHECK_RC(gb_store_tune_evals(mem, rm.run[0].id, keep_eval, &again), GB_OK);
        CHECK(again.n == 5);
        for (size_t i = 0; i < 5 && i < again.n; i++)
            CHECK(same_double(again.ev[i].gflops, scores[i]) &&
                  same_double(again.ev[i].elapsed_s, got.ev[i].elapsed_s) &&
                  same_double(again.ev[i].best, got.ev[i].best) &&
                  again.ev[i].code == got.ev[i].code &&
                  !strcmp(again.ev[i].reason, got.ev[i].reason));
        /* A text gemmbench did not write adds nothing. */
        CHECK_RC(gb_store_tune_runs_add_json(mem, "[{\"device\": 3}]", &added), GB_EBADARG);
        CHECK(added == 0);
        CHECK_RC(gb_store_tune_runs_add_json(mem, "{}", &added), GB_EBADARG);
        rm.n = 0;
        CHECK_RC(gb_store_tune_runs(mem, keep_run, &rm), GB_OK);
        CHECK(rm.n == 2);
        gb_store_close(mem);
    }
    free(text);

    snprintf(run.status, sizeof run.status, "finished");
    CHECK_RC(gb_store_tune_run_end(st, &run), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "bad status 'finished'");
    snprintf(run.status, sizeof run.status, "done");
    run.id = other.id + 100;
    CHECK_RC(gb_store_tune_run_end(st, &run), GB_ENOPOINT);
    other.layout[0] = '\0';
    CHECK_RC(gb_store_tune_run_begin(st, &other), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "bad layout");
    rs.n = 0;
    CHECK_RC(gb_store_tune_runs(st, keep_run, &rs), GB_OK);
    CHECK(rs.n == 2);
}

/* Warnings (gb_set_warning_handler), kept for the test to read. */
static char warnings[4096];

static void keep_warning(const char *msg, void *user)
{
    size_t used = strlen(warnings);
    (void)user;
    snprintf(warnings + used, sizeof warnings - used, "%s\n", msg);
}

typedef struct damages {
    size_t n;
    gb_tuning_damage_t first;
} damages_t;

static int keep_damage(const gb_tuning_damage_t *d, void *user)
{
    damages_t *ds = user;
    if (!ds->n++)
        ds->first = *d;
    return GB_OK;
}

/* A scan's entries counted and its damage kept (one user for both callbacks). */
typedef struct scanned {
    damages_t ds; /* first: keep_damage takes the scan as its damages */
    size_t entries;
} scanned_t;

static int count_scanned(const gb_tuned_entry_t *e, void *user)
{
    (void)e;
    ((scanned_t *)user)->entries++;
    return GB_OK;
}

/* Values gemmbench did not write are damage, not garbage read as data, and one damaged row
 * hides nothing else: each kind of damage to one of three entries leaves the other two read,
 * passes the damaged one over with a warning that names it, is named by the tuning check, and
 * (where its key is whole) is what gb_store_tuned_get refuses and a put of its key replaces. */
static void test_damage(const char *dir)
{
    static const struct {
        const char *set, *says;
        int key_whole; /* the damage leaves the row's key as it was */
    } kinds[] = {
        {"params = 'MWG'", "column params: 'MWG' is not NAME=V NAME=V", 1},
        {"params = 'MWG=x'", "column params: 'MWG=x' is not NAME=V NAME=V", 1},
        {"params = 'MWG=1 MWG=2'", "column params: 'MWG=1 MWG=2' is not", 1},
        {"params = 'MWG=99999999999999999999'", "column params: 'MWG=99999999999999999999'", 1},
        {"params = printf('%.*c', 1048576, 'M') || '=1'", "(1048578 bytes) is longer than", 1},
        {"m = 18446744073709551616", "column m: 1.8446744073709552e+19 is not a whole number", 1},
        {"m = -64", "column m: -64 is not a whole number from 1 to 1073741824", 1},
        {"m = 2147483648", "column m: 2147483648 is not a whole number", 1},
        {"m = 'abc'", "column m: abc is not a whole number", 1},
        {"precision = 'q'", "column precision: 'q' is not s, d, h, b, c, z or hh", 0},
        {"layout = 'row-XY'", "bad layout", 0},
        {"shape_class = 'weird'", "bad shape_class 'weird' (the shape 96x97x288 is of class", 0},
        {"device = ''", "bad device (empty)", 0},
        {"device = 'Card' || char(27) || '[2J'", "bad device (a control character or invalid", 0},
        {"device = CAST(X'43617264ff' AS TEXT)", "bad device (a control character or invalid", 0},
        {"device = CAST(X'4361007264' AS TEXT)", "column device: 'Ca' holds a NUL byte", 0},
        {"device = printf('%.200c', 'D')", "(200 bytes) is longer than gemmbench writes (127)", 0},
        {"vendor = X'56'", "column vendor: a blob, not text", 1},
        {"kernel = X'00'", "column kernel: a blob, not text", 1},
        {"kernel = ''", "bad kernel (empty)", 1},
        {"type = 'quantum'", "bad type (gpu, cpu, accelerator, other", 1},
        {"family = printf('%.64c', 'f')", "column family: 'fff", 1},
        {"gflops = 'fast'", "column gflops: 'fast' is not a number", 1},
        {"gflops = -1", "bad gflops", 1},
        {"evidence = 'nothex'", "column evidence: 'nothex' is not at most 8 point ids", 1},
        {"tuned_at = printf('%.40c', 'T')", "column tuned_at: 'TTT", 1},
    };
    char path[256], msg[1024], sql[256];
    gb_set_warning_handler(keep_warning, NULL);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        gb_store_t *st = NULL;
        snprintf(path, sizeof path, "%s/damaged-%zu.db", dir, i);
        if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
            return;
        gb_tuned_entry_t e[3], got;
        const char *devices[3] = {"Card A", "Card B", "Card C"};
        for (size_t j = 0; j < 3; j++) {
            make_entry(&e[j], devices[j], "row-NN", 96);
            CHECK_RC(gb_store_tuned_put(st, &e[j]), GB_OK);
        }
        gb_store_close(st);
        snprintf(sql, sizeof sql, "UPDATE tuned SET %s WHERE device = 'Card B'", kinds[i].set);
        if (!CHECK(run_sql(path, sql) == SQLITE_OK) ||
            !CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK))
            continue;
        /* The other two entries are read; the damaged one is passed over with a warning. */
        size_t n = 0;
        warnings[0] = '\0';
        CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
        CHECK(n == 2);
        CHECK_HAS(warnings, "is damaged (");
        CHECK_HAS(warnings, kinds[i].says);
        CHECK_HAS(warnings, kinds[i].key_whole
                                ? "and passed over; tuning its class again or 'gemmbench tuned "
                                  "import' of an entry of its key replaces it; "
                                : "and passed over; its key is damaged too, so that no entry "
                                  "replaces it");
        CHECK_HAS(warnings, "'gemmbench store check --store ");
        /* Given to the caller instead, without a warning. */
        scanned_t sc;
        memset(&sc, 0, sizeof sc);
        warnings[0] = '\0';
        CHECK_RC(gb_store_tuned_scan(st, count_scanned, keep_damage, &sc), GB_OK);
        damages_t ds = sc.ds;
        if (!CHECK(sc.entries == 2 && ds.n == 1 && !warnings[0])) {
            printf("  damage: %s\n", kinds[i].set);
            gb_store_close(st);
            continue;
        }
        CHECK(!strcmp(ds.first.table, "tuned") && ds.first.row == 2);
        CHECK(ds.first.key_whole == kinds[i].key_whole);
        CHECK_HAS(ds.first.what, "tuned entry '");
        CHECK_HAS(ds.first.why, kinds[i].says);
        /* The check reads every row and names the damaged one. */
        size_t checked = 0;
        memset(&ds, 0, sizeof ds);
        CHECK_RC(gb_store_tuning_check(st, keep_damage, &ds, &checked), GB_OK);
        CHECK(checked == 3 && ds.n == 1);
        CHECK_HAS(ds.first.why, kinds[i].says);
        if (kinds[i].key_whole) {
            CHECK_RC(gb_store_tuned_get(st, &e[1], &got), GB_ECORRUPT);
            CHECK_HAS(gb_store_errmsg(st), "holds a value gemmbench did not write (");
            CHECK_HAS(gb_store_errmsg(st), "gemmbench tuned export --store");
            CHECK_RC(gb_store_tuned_put(st, &e[1]), GB_OK); /* replaces it */
            memset(&ds, 0, sizeof ds);
            CHECK_RC(gb_store_tuning_check(st, keep_damage, &ds, &checked), GB_OK);
            CHECK(checked == 3 && ds.n == 0);
            if (CHECK_RC(gb_store_tuned_get(st, &e[1], &got), GB_OK))
                CHECK(same_entry(&e[1], &got));
        } else {
            CHECK_RC(gb_store_tuned_get(st, &e[1], &got), GB_ENOPOINT);
        }
        gb_store_close(st);
    }

    /* Many damaged rows: the first few warned of, then how many more. */
    gb_store_t *st = NULL;
    snprintf(path, sizeof path, "%s/many.db", dir);
    if (CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK)) {
        for (size_t j = 0; j < 6; j++) {
            gb_tuned_entry_t x;
            char dev[32];
            snprintf(dev, sizeof dev, "Card %zu", j);
            make_entry(&x, dev, "row-NN", 96);
            CHECK_RC(gb_store_tuned_put(st, &x), GB_OK);
        }
        gb_store_close(st);
        CHECK(run_sql(path, "UPDATE tuned SET precision = 'q' WHERE device != 'Card 0'") ==
              SQLITE_OK);
        size_t n = 0;
        warnings[0] = '\0';
        if (CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK)) {
            CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
            CHECK(n == 1);
            CHECK_HAS(warnings, "2 more damaged rows of its tuning tables passed over");
            gb_store_close(st);
        }
    }

    /* The history: a damaged run, evaluation or failure is passed over by its readers and named
     * by the check. */
    static const struct {
        const char *sql, *table, *says;
    } rows[] = {
        {"UPDATE tune_runs SET status = 'finished' WHERE id = 1", "tune_runs",
         "column status: 'finished' is not one gemmbench writes"},
        {"UPDATE tune_runs SET m = 0 WHERE id = 1", "tune_runs", "column m: 0 is not a whole"},
        {"UPDATE tune_runs SET command = X'00' WHERE id = 1", "tune_runs",
         "column command: a blob, not text"},
        {"UPDATE tune_evals SET gflops = 'x' WHERE run_id = 1 AND seq = 1", "tune_evals",
         "column gflops: 'x' is not a number"},
        {"UPDATE tune_evals SET reason = X'00' WHERE run_id = 2 AND seq = 1", "tune_evals",
         "column reason: a blob, not text"},
        {"UPDATE tune_failures SET code = 3 WHERE rowid = 1", "tune_failures",
         "column code: 3 is not a whole"},
        {"UPDATE tune_failures SET id = 'nothex' WHERE rowid = 2", "tune_failures",
         "column id: 'nothex' is not a point id"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(path, sizeof path, "%s/history-%zu.db", dir, i);
        if (!CHECK(make(path, 0) == 0) || !CHECK(run_sql(path, rows[i].sql) == SQLITE_OK) ||
            !CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK))
            continue;
        damages_t ds = {0};
        size_t checked = 0, n = 0;
        CHECK_RC(gb_store_tuning_check(st, keep_damage, &ds, &checked), GB_OK);
        if (!CHECK(ds.n == 1) || !CHECK(!strcmp(ds.first.table, rows[i].table))) {
            printf("  damage: %s\n", rows[i].sql);
            gb_store_close(st);
            continue;
        }
        CHECK_HAS(ds.first.why, rows[i].says);
        warnings[0] = '\0';
        CHECK_RC(gb_store_tune_runs(st, count_run, &n), GB_OK);
        CHECK(n == 3 - !strcmp(rows[i].table, "tune_runs"));
        for (int64_t id = 1; id <= 3; id++)
            CHECK_RC(gb_store_tune_evals(st, id, count_eval, &n), GB_OK);
        if (strcmp(rows[i].table, "tune_failures"))
            CHECK_HAS(warnings, rows[i].says);
        gb_store_close(st);
    }
    gb_set_warning_handler(NULL, NULL);
}

/* ---- made-up tuning data for the script tests ------------------------------------------------ */

/* A point that passes gb_point_check: kernel with MWG=mwg on dev at n^3, gflops, validated. */
static int make_point(gb_store_t *st, const char *dev, long mwg, size_t n, double gflops,
                      char id[GB_POINT_ID_LEN + 1])
{
    gb_point_t pt;
    gb_point_init(&pt);
    snprintf(pt.device.name, sizeof pt.device.name, "%s", dev);
    snprintf(pt.device.vendor, sizeof pt.device.vendor, "Tuning Vendor");
    snprintf(pt.device.platform, sizeof pt.device.platform, "Tuning Platform");
    snprintf(pt.device.driver, sizeof pt.device.driver, "1.0");
    snprintf(pt.device.type, sizeof pt.device.type, "gpu");
    snprintf(pt.kernel, sizeof pt.kernel, "xgemm");
    snprintf(pt.family, sizeof pt.family, "xgemm");
    snprintf(pt.source_hash, sizeof pt.source_hash, "fnv1a64:0123456789abcdef");
    gb_problem_init(&pt.problem, GB_PREC_S, n, n, n);
    gb_problem_check(&pt.problem, NULL, 0);
    gb_params_set(&pt.params, "MWG", mwg);
    pt.seed = 42;
    pt.dist.kind = GB_DIST_UNIFORM;
    pt.dist.lo = -1;
    pt.dist.hi = 1;
    pt.warmup = 1;
    pt.iterations = 2;
    pt.timing = pt.result.timing = GB_TIMING_OPS;
    pt.result.gflops = gflops;
    const double ms = 2.0 * (double)n * (double)n * (double)n / gflops / 1e6;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        gb_stats_t *s = &pt.result.time_ms[ph];
        s->n = 2;
        s->min = s->median = s->mean = ms;
        s->max = ms * 1.02;
        s->std = ms * 0.01;
        s->ci95_lo = ms * 0.9;
        s->ci95_hi = ms * 1.1;
        pt.result.samples_ms[ph] = calloc(2, sizeof(double));
        if (pt.result.samples_ms[ph])
            pt.result.samples_ms[ph][0] = pt.result.samples_ms[ph][1] = ms;
    }
    pt.result.energy_j = pt.result.energy_w = pt.result.gflops_per_watt = pt.result.energy_s = -1;
    snprintf(pt.result.energy_why, sizeof pt.result.energy_why, "made up");
    pt.result.validation.done = pt.result.validation.passed = 1;
    pt.result.validation.max_ratio = 0.5;
    pt.result.validation.bound_ratio = 100;
    int rc = gb_point_set_provenance(&pt);
    if (rc == GB_OK)
        rc = gb_point_compute_id(&pt);
    if (rc == GB_OK && (rc = gb_store_insert(st, &pt)) == 1)
        rc = GB_OK;
    memcpy(id, pt.id, GB_POINT_ID_LEN + 1);
    gb_point_free(&pt);
    return rc;
}

/* What the tuning data is made over: a device and up to three point ids. */
typedef struct over {
    gb_point_device_t dev;
    char kernel[2 * GB_NAME_MAX];
    char ids[3][GB_POINT_ID_LEN + 1];
    size_t nids;
} over_t;

static int take_point(const gb_point_t *pt, void *user)
{
    over_t *o = user;
    if (!o->nids) {
        o->dev = pt->device;
        snprintf(o->kernel, sizeof o->kernel, "%s", pt->family[0] ? pt->family : pt->kernel);
    }
    if (!strcmp(pt->device.name, o->dev.name))
        memcpy(o->ids[o->nids++], pt->id, GB_POINT_ID_LEN + 1);
    return o->nids == 3 ? 1 : GB_OK;
}

/* One run of strategy over made-up scores (negative: failed), ended with status; its winner is
 * the point o->ids[winner] (the last there is), or none when winner is negative. */
static int add_run(gb_store_t *st, const over_t *o, const char *strategy, uint64_t seed,
                   const double *scores, size_t n, const char *status, int winner)
{
    gb_tune_run_t run;
    memset(&run, 0, sizeof run);
    snprintf(run.device, sizeof run.device, "%s", o->dev.name);
    snprintf(run.platform, sizeof run.platform, "%s", o->dev.platform);
    snprintf(run.driver, sizeof run.driver, "%s", o->dev.driver);
    snprintf(run.kernel, sizeof run.kernel, "%s", o->kernel);
    run.precision = GB_PREC_S;
    snprintf(run.layout, sizeof run.layout, "row-NN");
    run.m = run.n = run.k = 256;
    gb_shape_class(run.m, run.n, run.k, run.shape_class, sizeof run.shape_class);
    snprintf(run.strategy, sizeof run.strategy, "%s", strategy);
    run.seed = seed;
    run.budget = n;
    run.space = 120;
    run.winner_gflops = (double)NAN;
    snprintf(run.command, sizeof run.command, "gemmbench tune -k %s --strategy %s", o->kernel,
             strategy);
    int rc = gb_store_tune_run_begin(st, &run);
    double best = -1;
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        gb_tune_eval_t ev;
        memset(&ev, 0, sizeof ev);
        ev.run_id = run.id;
        ev.seq = i;
        snprintf(ev.point_id, sizeof ev.point_id, "%08x%08x", (unsigned)(seed & 0xffffffffu),
                 (unsigned)i);
        snprintf(ev.params, sizeof ev.params, "MWG=%zu", 16 * (i + 1));
        ev.gflops = scores[i];
        ev.code = scores[i] < 0 ? GB_EBUILD : GB_OK;
        snprintf(ev.reason, sizeof ev.reason, "%s", scores[i] < 0 ? "build failed" : "");
        best = scores[i] > best ? scores[i] : best;
        ev.best = best;
        ev.elapsed_s = 0.5 * (double)(i + 1);
        if (ev.gflops == best && o->nids && winner >= 0) {
            const size_t w = (size_t)winner < o->nids ? (size_t)winner : o->nids - 1;
            memcpy(run.winner, o->ids[w], sizeof run.winner);
            run.winner_gflops = best;
        }
        rc = gb_store_tune_eval_add(st, &ev);
    }
    run.evals = n;
    snprintf(run.status, sizeof run.status, "%s", status);
    return rc == GB_OK ? gb_store_tune_run_end(st, &run) : rc;
}

/* Three runs (random won by the first point, bayes by the second, an interrupted anneal without
 * a winner), two failures and two tuned entries: one at 256^3 with the first two points as
 * evidence (chosen by the bayes run), one at 1024^3 with the third and an id that is not
 * stored (chosen by no run). */
static int fill(gb_store_t *st, const over_t *o)
{
    static const double a[] = {50, -1, 80, 70, 120, 90}, b[] = {60, 100, 130, -1, 125, 140},
                        c[] = {40, 45};
    int rc = add_run(st, o, "random", 1, a, 6, "done", 0);
    if (rc == GB_OK)
        rc = add_run(st, o, "bayes", 7, b, 6, "done", 1);
    if (rc == GB_OK)
        rc = add_run(st, o, "anneal", 3, c, 2, "interrupted", -1);
    for (size_t i = 0; rc == GB_OK && i < 2; i++) {
        gb_tune_failure_t f;
        memset(&f, 0, sizeof f);
        snprintf(f.id, sizeof f.id, "%016zx", 0xbad0 + i);
        snprintf(f.kernel, sizeof f.kernel, "%s", o->kernel);
        snprintf(f.params, sizeof f.params, "MWG=%zu", (size_t)256 << i);
        f.code = i ? GB_ETIMEOUT : GB_ELOCALMEM;
        snprintf(f.reason, sizeof f.reason, "%s", gb_strerror(f.code));
        rc = gb_store_failure_put(st, &f);
    }
    for (size_t i = 0; rc == GB_OK && i < 2; i++) {
        gb_tuned_entry_t e;
        memset(&e, 0, sizeof e);
        snprintf(e.device, sizeof e.device, "%s", o->dev.name);
        snprintf(e.platform, sizeof e.platform, "%s", o->dev.platform);
        snprintf(e.driver, sizeof e.driver, "%s", o->dev.driver);
        snprintf(e.vendor, sizeof e.vendor, "%s", o->dev.vendor);
        snprintf(e.type, sizeof e.type, "%s", o->dev.type);
        e.precision = GB_PREC_S;
        snprintf(e.layout, sizeof e.layout, "row-NN");
        e.m = e.n = e.k = i ? 1024 : 256;
        gb_shape_class(e.m, e.n, e.k, e.shape_class, sizeof e.shape_class);
        snprintf(e.kernel, sizeof e.kernel, "%s", o->kernel);
        gb_params_set(&e.params, "MWG", i ? 64 : 32);
        gb_params_set(&e.params, "KWG", 16);
        e.gflops = i ? 300 : 140;
        for (size_t j = i ? 2 : 0; j < (i ? 3 : 2) && j < o->nids; j++)
            memcpy(e.evidence[e.nevidence++], o->ids[j], GB_POINT_ID_LEN + 1);
        if (i)
            snprintf(e.evidence[e.nevidence++], GB_POINT_ID_LEN + 1, "ffffffffffffffff");
        snprintf(e.tuned_at, sizeof e.tuned_at, "2026-11-2%zuT10:00:00Z", 4 + i);
        rc = gb_store_tuned_put(st, &e);
    }
    return rc;
}

/* --make DB (made-up points first) or --add DB (over the store's first points); --points DB
 * (add 2) makes the points alone, a store without tuning tables. */
static int make(const char *path, int add)
{
    char msg[1024];
    gb_store_t *st = NULL;
    over_t o;
    memset(&o, 0, sizeof o);
    if (gb_store_open(&st, path, add == 1 ? 0 : GB_STORE_CREATE, msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    int rc = GB_OK;
    if (add != 1) {
        static const double g[3] = {100, 140, 290};
        for (size_t i = 0; rc == GB_OK && i < 3; i++)
            rc = make_point(st, "Tuning Test Device", 16L << i, i < 2 ? 256 : 1024, g[i], o.ids[i]);
    }
    if (rc == GB_OK && (rc = gb_store_foreach(st, 0, take_point, &o)) == 1)
        rc = GB_OK;
    if (rc == GB_OK && !o.nids) {
        fprintf(stderr, "store %s holds no points to make tuning data over\n", path);
        rc = GB_EBADARG;
    } else if (rc == GB_OK && add != 2) {
        rc = fill(st, &o);
    }
    if (rc != GB_OK && rc != GB_EBADARG)
        fprintf(stderr, "%s\n", gb_store_errmsg(st));
    gb_store_close(st);
    return rc == GB_OK ? 0 : 1;
}

/* How many marks of what is in flight the store at path holds for key. */
static int marks(const char *path, const char *key)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int n = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT count(*) FROM in_flight WHERE key = ?", -1, &q, NULL) ==
            SQLITE_OK &&
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return n;
}

static void make_run(gb_tune_run_t *run, uint64_t seed)
{
    memset(run, 0, sizeof *run);
    snprintf(run->device, sizeof run->device, "Card");
    snprintf(run->platform, sizeof run->platform, "Platform");
    snprintf(run->driver, sizeof run->driver, "1.0");
    snprintf(run->kernel, sizeof run->kernel, "xgemm");
    snprintf(run->layout, sizeof run->layout, "row-NN");
    run->m = run->n = run->k = 128;
    gb_shape_class(run->m, run->n, run->k, run->shape_class, sizeof run->shape_class);
    snprintf(run->strategy, sizeof run->strategy, "random");
    run->seed = seed;
    run->budget = 10;
    run->space = 40;
    run->winner_gflops = (double)NAN;
    snprintf(run->command, sizeof run->command, "gemmbench tune -k xgemm -n 128");
}

/* A process that dies in the middle of a run: it begins the run (seed 1), records two
 * evaluations, marks a point in flight and ends without a word (as SIGKILL would end it). */
static void die_in_a_run(const char *path)
{
    const pid_t pid = fork();
    if (pid == 0) {
        gb_store_t *st = NULL;
        char msg[512], was[16];
        gb_tune_run_t run;
        size_t resumed = 9;
        make_run(&run, 1);
        int ok = gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg) == GB_OK &&
                 gb_store_tune_run_take(st, &run, &resumed, was, sizeof was) == GB_OK &&
                 resumed == 0 && !was[0];
        for (size_t i = 0; ok && i < 2; i++) {
            gb_tune_eval_t ev;
            memset(&ev, 0, sizeof ev);
            ev.run_id = run.id;
            ev.seq = i;
            snprintf(ev.point_id, sizeof ev.point_id, "00000000000000a%zu", i);
            snprintf(ev.params, sizeof ev.params, "MWG=%zu", 16 * (i + 1));
            ev.gflops = ev.best = 10.0 * (double)(i + 1);
            ok = gb_store_tune_eval_add(st, &ev) == GB_OK;
        }
        ok = ok && gb_store_inflight_begin(st, "00000000000000b0", "xgemm", "MWG=48",
                                           "xgemm s 128x128x128 MWG=48 rep 0") == GB_OK;
        _exit(ok ? 0 : 1);
    }
    int status = -1;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0);
}

/* What a process leaves in flight when it dies (inflight.h), and a run taken up again: the next
 * process marks the dead run "died" and drops the dead point's mark without calling it a crash
 * (it was killed, not crashed: the point is measured again); a run of the same definition goes
 * on in the same row, its evaluations kept and counted; this process's own marks are alive and
 * stay; one tuning, one row. */
static void test_inflight(const char *dir)
{
    char path[256], msg[1024], was[16];
    snprintf(path, sizeof path, "%s/inflight.db", dir);
    die_in_a_run(path);
    CHECK(marks(path, "run:1") == 1 && marks(path, "00000000000000b0") == 1);
    gb_store_t *st = NULL;
    if (!CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK))
        return;
    runs_t rs = {.n = 0};
    CHECK_RC(gb_store_tune_runs(st, keep_run, &rs), GB_OK);
    CHECK(rs.n == 1 && !strcmp(rs.run[0].status, "running"));
    /* Reaped as after a crash of this process: the mark is another process's, so no crash. */
    size_t crashed = 5;
    CHECK_RC(gb_store_inflight_reap(st, SIGABRT, NULL, NULL, &crashed), GB_OK);
    CHECK(crashed == 0 && gb_store_crashed(st, "00000000000000b0") == 0);
    CHECK(marks(path, "run:1") == 0 && marks(path, "00000000000000b0") == 0);
    rs.n = 0;
    CHECK_RC(gb_store_tune_runs(st, keep_run, &rs), GB_OK);
    CHECK(rs.n == 1 && !strcmp(rs.run[0].status, "died") && strlen(rs.run[0].finished) == 20);
    /* Taken up again: the same row, its 2 evaluations, "running" again; another seed is
     * another run. */
    gb_tune_run_t run, other;
    size_t resumed = 0;
    make_run(&run, 1);
    CHECK_RC(gb_store_tune_run_take(st, &run, &resumed, was, sizeof was), GB_OK);
    CHECK(run.id == rs.run[0].id && resumed == 2 && !strcmp(was, "died") &&
          !strcmp(run.started, rs.run[0].started) && !strcmp(run.status, "running"));
    make_run(&other, 2);
    CHECK_RC(gb_store_tune_run_take(st, &other, &resumed, was, sizeof was), GB_OK);
    CHECK(other.id != run.id && resumed == 0 && !was[0]);
    /* A run this process is making is not taken twice, and its marks survive a reap. */
    gb_tune_run_t again;
    make_run(&again, 1);
    CHECK_RC(gb_store_tune_run_take(st, &again, &resumed, was, sizeof was), GB_OK);
    CHECK(again.id != run.id && resumed == 0);
    CHECK_RC(gb_store_inflight_begin(st, "00000000000000c0", "xgemm", "MWG=64", "c"), GB_OK);
    CHECK_RC(gb_store_inflight_reap(st, SIGSEGV, NULL, NULL, &crashed), GB_OK);
    CHECK(crashed == 0 && marks(path, "00000000000000c0") == 1 && marks(path, "run:1") == 1);
    CHECK_RC(gb_store_inflight_end(st, "00000000000000c0"), GB_OK);
    CHECK(marks(path, "00000000000000c0") == 0);
    CHECK_RC(gb_store_inflight_begin(st, "short", "xgemm", "", ""), GB_EBADARG);
    /* Ended, each run is one row, and its mark is gone. */
    gb_tune_run_t *all[3] = {&run, &other, &again};
    for (int i = 0; i < 3; i++) {
        all[i]->evals = i == 0 ? 2 : 0;
        snprintf(all[i]->status, sizeof all[i]->status, "done");
        CHECK_RC(gb_store_tune_run_end(st, all[i]), GB_OK);
    }
    rs.n = 0;
    CHECK_RC(gb_store_tune_runs(st, keep_run, &rs), GB_OK);
    CHECK(rs.n == 3 && rs.run[0].id == run.id && !strcmp(rs.run[0].status, "done") &&
          rs.run[0].evals == 2);
    CHECK(marks(path, "run:1") == 0);
    /* The same definition once more: the latest row of it, ended, goes on. */
    make_run(&run, 1);
    CHECK_RC(gb_store_tune_run_take(st, &run, &resumed, was, sizeof was), GB_OK);
    CHECK(run.id == again.id && resumed == 0 && !strcmp(was, "done"));
    gb_store_close(st);
}

/* An entry of each objective under one key; a table made before objectives, migrated. */
static void test_objectives(const char *dir)
{
    char path[256], msg[1024];
    gb_store_t *st = NULL;
    snprintf(path, sizeof path, "%s/objectives.db", dir);
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        return;
    gb_tuned_entry_t t, e, got;
    make_entry(&t, "Dev", "row-NN", 64);
    e = t;
    snprintf(e.objective, sizeof e.objective, "energy");
    e.joules = 0.0123456789012345;
    gb_params_set(&e.params, "MWG", 32);
    CHECK_RC(gb_store_tuned_put(st, &t), GB_OK);
    CHECK_RC(gb_store_tuned_put(st, &e), GB_OK);
    size_t n = 0;
    CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
    CHECK(n == 2);
    if (CHECK_RC(gb_store_tuned_get(st, &e, &got), GB_OK)) {
        CHECK(same_entry(&e, &got));
        CHECK(!strcmp(got.objective, "energy") && got.joules == e.joules);
        long v = 0;
        CHECK(gb_params_get(&got.params, "MWG", &v) && v == 32);
    }
    if (CHECK_RC(gb_store_tuned_get(st, &t, &got), GB_OK)) {
        CHECK(!strcmp(gb_tuned_objective(&got), "time") && got.joules == 0);
        long v = 0;
        CHECK(gb_params_get(&got.params, "MWG", &v) && v == 64);
    }
    gb_tuned_entry_t edp = t;
    snprintf(edp.objective, sizeof edp.objective, "edp");
    CHECK_RC(gb_store_tuned_get(st, &edp, &got), GB_ENOPOINT);
    CHECK_HAS(gb_store_errmsg(st), "(d, row-NN, small-128, objective edp)");
    /* Refused: an objective that is none, energy that is not a number of joules. */
    snprintf(edp.objective, sizeof edp.objective, "watts");
    CHECK_RC(gb_store_tuned_put(st, &edp), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "bad objective");
    edp = e;
    edp.joules = -1;
    CHECK_RC(gb_store_tuned_put(st, &edp), GB_EBADARG);
    CHECK_HAS(gb_store_errmsg(st), "bad joules");
    gb_store_close(st);

    /* A table tuned as it was before objectives, with one entry. */
    snprintf(path, sizeof path, "%s/before.db", dir);
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        return;
    gb_store_close(st);
    CHECK(run_sql(path,
                  "CREATE TABLE tuned(device TEXT NOT NULL, platform TEXT NOT NULL, driver TEXT "
                  "NOT NULL, precision TEXT NOT NULL, layout TEXT NOT NULL, shape_class TEXT NOT "
                  "NULL, vendor TEXT NOT NULL, type TEXT NOT NULL, m INTEGER NOT NULL, n INTEGER "
                  "NOT NULL, k INTEGER NOT NULL, kernel TEXT NOT NULL, params TEXT NOT NULL, "
                  "gflops REAL NOT NULL, evidence TEXT NOT NULL, tuned_at TEXT NOT NULL, family "
                  "TEXT NOT NULL DEFAULT '', PRIMARY KEY(device, platform, driver, precision, "
                  "layout, shape_class));"
                  "INSERT INTO tuned VALUES('Old', 'P', '1', 's', 'row-NN', 'square-1024', 'V', "
                  "'gpu', 1024, 1024, 1024, 'xgemm', 'MWG=64', 99.5, '', '2026-01-01T00:00:00Z', "
                  "'fam');") == SQLITE_OK);
    if (!CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK))
        return;
    gb_tuned_entry_t old;
    memset(&old, 0, sizeof old);
    snprintf(old.device, sizeof old.device, "Old");
    snprintf(old.platform, sizeof old.platform, "P");
    snprintf(old.driver, sizeof old.driver, "1");
    old.precision = GB_PREC_S;
    snprintf(old.layout, sizeof old.layout, "row-NN");
    snprintf(old.shape_class, sizeof old.shape_class, "square-1024");
    /* Read before any write: a time entry, and the table as it was. */
    if (CHECK_RC(gb_store_tuned_get(st, &old, &got), GB_OK))
        CHECK(!strcmp(got.objective, "time") && got.gflops == 99.5 && !strcmp(got.family, "fam"));
    gb_tuned_entry_t olde = old;
    snprintf(olde.objective, sizeof olde.objective, "energy");
    CHECK_RC(gb_store_tuned_get(st, &olde, &got), GB_ENOPOINT);
    char cols[512] = "";
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    /* The first write migrates: an energy entry beside the old one of its key. */
    make_entry(&e, "Old", "row-NN", 1024);
    snprintf(e.platform, sizeof e.platform, "P");
    snprintf(e.driver, sizeof e.driver, "1");
    e.precision = GB_PREC_S;
    e.m = e.n = e.k = 1024;
    snprintf(e.shape_class, sizeof e.shape_class, "square-1024");
    snprintf(e.objective, sizeof e.objective, "energy");
    e.joules = 2.5;
    CHECK_RC(gb_store_tuned_put(st, &e), GB_OK);
    n = 0;
    CHECK_RC(gb_store_tuned_foreach(st, count_entry, &n), GB_OK);
    CHECK(n == 2);
    if (CHECK_RC(gb_store_tuned_get(st, &old, &got), GB_OK))
        CHECK(!strcmp(got.objective, "time") && got.gflops == 99.5 && !strcmp(got.family, "fam") &&
              got.joules == 0);
    if (CHECK_RC(gb_store_tuned_get(st, &olde, &got), GB_OK))
        CHECK(got.joules == 2.5);
    gb_store_close(st);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db,
                           "SELECT group_concat(name || ':' || pk, ',') FROM "
                           "pragma_table_info('tuned')",
                           -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW && sqlite3_column_text(q, 0))
        snprintf(cols, sizeof cols, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    CHECK_HAS(cols, "objective:7");
    CHECK_HAS(cols, "joules:0");
    CHECK(tuning_tables(path) == 4);
}

int main(int argc, char **argv)
{
    if (argc == 3 &&
        (!strcmp(argv[1], "--make") || !strcmp(argv[1], "--add") || !strcmp(argv[1], "--points")))
        return make(argv[2], !strcmp(argv[1], "--add") ? 1 : !strcmp(argv[1], "--points") ? 2 : 0);
    char dir[64], path[256], msg[1024];
    if (!unit_make_dir(dir, sizeof dir)) {
        printf("cannot make a temporary directory\n");
        return 1;
    }
    test_absent(dir);
    snprintf(path, sizeof path, "%s/tuning.db", dir);
    gb_store_t *st = NULL;
    if (CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK)) {
        test_entries(st);
        test_failures(st);
        test_runs(st);
        gb_tuning_counts_t c;
        CHECK_RC(gb_store_tuning_counts(st, &c), GB_OK);
        CHECK(c.present && c.tuned == 4 && c.failures == 1 && c.runs == 2 && c.evals == 5);
        gb_store_close(st);
    }
    /* The made-up data over made-up points; `store check` passes with the tuning tables. */
    snprintf(path, sizeof path, "%s/made.db", dir);
    CHECK(make(path, 0) == 0);
    if (CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK)) {
        size_t checked = 0, bad = 0;
        CHECK_RC(gb_store_quick_check(st), GB_OK);
        CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
        CHECK(checked == 3 && bad == 0);
        gb_tuning_counts_t c;
        CHECK_RC(gb_store_tuning_counts(st, &c), GB_OK);
        CHECK(c.present && c.tuned == 2 && c.failures == 2 && c.runs == 3 && c.evals == 14);
        gb_store_close(st);
    }
    CHECK(make(path, 1) == 0); /* again over the same points: entries replaced, runs added */
    test_inflight(dir);
    test_damage(dir);
    test_objectives(dir);
    unit_remove_dir(dir);
    return unit_finish();
}
