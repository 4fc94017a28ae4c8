/* tune_runs.c: tuning runs and their evaluations in order (tuning.h; tables tune_runs and
 * tune_evals, made with the other tuning tables by the first write: tuning_tables.c). A run is written
 * when it begins and again when it ends, and marked in flight meanwhile (inflight.h), so that
 * one whose process is killed on the way is still there with the evaluations it made, and is
 * marked "died" by the next run to begin; a run of the same definition taken up again goes on
 * in the same row (one tuning, one row). Each public function runs its _locked twin under the
 * connection's lock (store_int.h). */
#include <math.h>
#include <stdint.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "inflight.h"
#include "tuning_int.h"

static int status_ok(const char *s)
{
    return !strcmp(s, "running") || !strcmp(s, "done") || !strcmp(s, "interrupted") ||
           !strcmp(s, "failed") || !strcmp(s, "died");
}

static void bind_opt_text(sqlite3_stmt *q, int i, const char *s)
{
    if (s[0])
        sqlite3_bind_text(q, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

/* Binds what defines a run, the parameters that its INSERT and the search for the same run
 * share: device, platform, driver, kernel, precision, layout, m, n and k at 1 to 9, then
 * strategy, seed, budget, time_s and space from position `search` on. */
static void bind_definition(sqlite3_stmt *q, const gb_tune_run_t *run, int search)
{
    const char *text[] = {
        run->device, run->platform, run->driver, run->kernel, gb_precision_name(run->precision),
        run->layout};
    for (int i = 0; i < 6; i++)
        sqlite3_bind_text(q, i + 1, text[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 7, (sqlite3_int64)run->m);
    sqlite3_bind_int64(q, 8, (sqlite3_int64)run->n);
    sqlite3_bind_int64(q, 9, (sqlite3_int64)run->k);
    sqlite3_bind_text(q, search, run->strategy, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, search + 1, (sqlite3_int64)run->seed); /* bit for bit, like a point's */
    sqlite3_bind_int64(q, search + 2, (sqlite3_int64)run->budget);
    gb_store__bind_dbl(q, search + 3, run->time_s);
    sqlite3_bind_int64(q, search + 4, (sqlite3_int64)run->space);
}

/* Inserts run as it is (started, finished and status too) and sets run->id. */
static int insert_run(gb_store_t *st, gb_tune_run_t *run)
{
    const char *bad =
        !run->kernel[0]                                    ? "kernel (empty)"
        : !run->strategy[0]                                ? "strategy (empty)"
        : (unsigned)run->precision >= GB_PREC_COUNT        ? "precision"
        : !gb_select__layout_ok(run->layout)               ? "layout (row-NN, ..., col-TT)"
        : !run->m || !run->n || !run->k                    ? "m, n, k (each 1 or more)"
        : run->winner[0] && !gb_select__is_id(run->winner) ? "winner (a point id, or empty)"
        : !status_ok(run->status) ? "status (running, done, interrupted, failed or died)"
        : !run->started[0]        ? "started (empty)"
                                  : NULL;
    if (bad)
        return gb_store__failf(st, GB_EBADARG, "tuning run of %s: bad %s", run->kernel, bad);
    sqlite3_stmt *q = NULL;
    int rc = gb_store__tuning_tables(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st,
                               "INSERT INTO tune_runs(device, platform, driver, kernel, precision, "
                               "layout, m, n, k, shape_class, strategy, seed, budget, time_s, "
                               "space, started, finished, status, evals, winner, winner_gflops, "
                               "command) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                               "?, ?, ?, ?, ?, ?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    bind_definition(q, run, 11);
    sqlite3_bind_text(q, 10, run->shape_class, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 16, run->started, -1, SQLITE_STATIC);
    bind_opt_text(q, 17, run->finished);
    sqlite3_bind_text(q, 18, run->status, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 19, (sqlite3_int64)run->evals);
    bind_opt_text(q, 20, run->winner);
    gb_store__bind_dbl(q, 21, run->winner_gflops);
    sqlite3_bind_text(q, 22, run->command, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "recording a tuning run");
    else
        run->id = (int64_t)sqlite3_last_insert_rowid(st->db);
    sqlite3_finalize(q);
    return rc;
}

static int tune_run_begin_locked(gb_store_t *st, gb_tune_run_t *run)
{
    gb_store__utc_now(run->started);
    run->finished[0] = '\0';
    snprintf(run->status, sizeof run->status, "running");
    int rc = gb_store__inflight_reap_locked(st);
    if (rc == GB_OK)
        rc = insert_run(st, run);
    return rc == GB_OK ? gb_store__inflight_run_begin(st, run->id) : rc;
}

int gb_store_tune_run_begin(gb_store_t *st, gb_tune_run_t *run)
{
    gb_store__lock(st);
    const int rc = tune_run_begin_locked(st, run);
    gb_store__unlock(st);
    return rc;
}

int gb_store__tune_run_same(gb_store_t *st, const gb_tune_run_t *run, gb_tune_run_t *found)
{
    sqlite3_stmt *q = NULL;
    int rc = gb_store__tuning_tables(st);
    if (rc == GB_OK)
        rc = gb_store__inflight_table(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st,
                               "SELECT id, started, (SELECT coalesce(max(seq) + 1, 0) FROM "
                               "tune_evals WHERE run_id = tune_runs.id), status FROM tune_runs "
                               "WHERE device = ? "
                               "AND platform = ? AND driver = ? AND kernel = ? AND precision = ? "
                               "AND layout = ? AND m = ? AND n = ? AND k = ? AND strategy = ? AND "
                               "seed = ? AND budget = ? AND time_s IS ? AND space = ? AND "
                               "command = ? AND ('run:' || id) NOT IN (SELECT key FROM in_flight) "
                               "ORDER BY id DESC LIMIT 1",
                               &q);
    if (rc != GB_OK)
        return rc;
    bind_definition(q, run, 10);
    sqlite3_bind_text(q, 15, run->command, -1, SQLITE_STATIC);
    const int step = sqlite3_step(q);
    if (step == SQLITE_ROW) {
        found->id = (int64_t)sqlite3_column_int64(q, 0);
        const sqlite3_int64 evals = sqlite3_column_int64(q, 2);
        found->evals = evals > 0 ? (size_t)evals : 0;
        rc = gb_store__copy_col(q, 1, found->started, sizeof found->started) &&
                     gb_store__copy_col(q, 3, found->status, sizeof found->status)
                 ? 1
                 : gb_store__failf(st, GB_ECORRUPT,
                                   "store %s: tuning run %lld holds a value gemmbench did not "
                                   "write; " GB_STORE__RECOVER,
                                   st->path, (long long)found->id, st->path, st->path);
    } else if (step != SQLITE_DONE) {
        rc = gb_store__fail_db(st, "reading the tuning runs");
    }
    sqlite3_finalize(q);
    return rc;
}

static int tune_run_take_locked(gb_store_t *st, gb_tune_run_t *run, size_t *resumed, char *was,
                                size_t waslen)
{
    *resumed = 0;
    was[0] = '\0';
    /* The dead runs first: one of them may be this one, taken up again. */
    int rc = gb_store__inflight_reap_locked(st);
    gb_tune_run_t old;
    memset(&old, 0, sizeof old);
    if (rc == GB_OK)
        rc = gb_store__tune_run_same(st, run, &old);
    if (rc == 0)
        return tune_run_begin_locked(st, run);
    if (rc != 1)
        return rc;
    sqlite3_stmt *q = NULL;
    if ((rc = gb_store__prepare(st,
                                "UPDATE tune_runs SET status = 'running', finished = NULL WHERE "
                                "id = ?",
                                &q)) != GB_OK)
        return rc;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)old.id);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "taking up a tuning run again");
    sqlite3_finalize(q);
    if (rc != GB_OK)
        return rc;
    run->id = old.id;
    memcpy(run->started, old.started, sizeof run->started);
    run->finished[0] = '\0';
    snprintf(run->status, sizeof run->status, "running");
    *resumed = old.evals;
    snprintf(was, waslen, "%s", old.status);
    return gb_store__inflight_run_begin(st, run->id);
}

int gb_store_tune_run_take(gb_store_t *st, gb_tune_run_t *run, size_t *resumed, char *was,
                           size_t waslen)
{
    gb_store__lock(st);
    const int rc = tune_run_take_locked(st, run, resumed, was, waslen);
    gb_store__unlock(st);
    return rc;
}

static int tune_run_put_locked(gb_store_t *st, gb_tune_run_t *run)
{
    return insert_run(st, run);
}

int gb_store_tune_run_put(gb_store_t *st, gb_tune_run_t *run)
{
    gb_store__lock(st);
    const int rc = tune_run_put_locked(st, run);
    gb_store__unlock(st);
    return rc;
}

static int tune_run_end_locked(gb_store_t *st, const gb_tune_run_t *run)
{
    if (!status_ok(run->status))
        return gb_store__failf(st, GB_EBADARG,
                               "tuning run %lld: bad status '%s' (running, done, interrupted, "
                               "failed or died)",
                               (long long)run->id, run->status);
    if (run->winner[0] && !gb_select__is_id(run->winner))
        return gb_store__failf(st, GB_EBADARG, "tuning run %lld: bad winner '%s' (a point id)",
                               (long long)run->id, run->winner);
    sqlite3_stmt *q = NULL;
    int rc = gb_store__has_table(st, "tune_runs");
    if (rc == 1)
        rc = gb_store__prepare(st,
                               "UPDATE tune_runs SET status = ?, finished = ?, evals = ?, "
                               "winner = ?, winner_gflops = ? WHERE id = ?",
                               &q);
    else if (rc == 0)
        rc = gb_store__failf(st, GB_ENOPOINT, "no tuning run %lld in store %s", (long long)run->id,
                             st->path);
    if (rc != GB_OK)
        return rc;
    char when[32];
    gb_store__utc_now(when);
    sqlite3_bind_text(q, 1, run->status, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, when, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, (sqlite3_int64)run->evals);
    bind_opt_text(q, 4, run->winner);
    gb_store__bind_dbl(q, 5, run->winner_gflops);
    sqlite3_bind_int64(q, 6, (sqlite3_int64)run->id);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "ending a tuning run");
    else if (sqlite3_changes(st->db) == 0)
        rc = gb_store__failf(st, GB_ENOPOINT, "no tuning run %lld in store %s", (long long)run->id,
                             st->path);
    sqlite3_finalize(q);
    return rc == GB_OK ? gb_store__inflight_run_end(st, run->id) : rc;
}

int gb_store_tune_run_end(gb_store_t *st, const gb_tune_run_t *run)
{
    gb_store__lock(st);
    const int rc = tune_run_end_locked(st, run);
    gb_store__unlock(st);
    return rc;
}

static int tune_eval_add_locked(gb_store_t *st, const gb_tune_eval_t *ev)
{
    if (!gb_select__is_id(ev->point_id))
        return gb_store__failf(st, GB_EBADARG,
                               "evaluation %zu of tuning run %lld: bad point id '%s' (16 hex "
                               "digits)",
                               ev->seq, (long long)ev->run_id, ev->point_id);
    sqlite3_stmt *q = NULL;
    int rc = gb_store__tuning_tables(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "INSERT INTO tune_evals VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)ev->run_id);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)ev->seq);
    sqlite3_bind_text(q, 3, ev->point_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, ev->params, -1, SQLITE_STATIC);
    gb_store__bind_dbl(q, 5, ev->gflops);
    sqlite3_bind_int(q, 6, ev->code);
    sqlite3_bind_text(q, 7, ev->reason, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 8, ev->cached != 0);
    gb_store__bind_dbl(q, 9, ev->best);
    gb_store__bind_dbl(q, 10, ev->elapsed_s);
    if (sqlite3_step(q) != SQLITE_DONE) {
        const int ext = sqlite3_extended_errcode(st->db);
        if (ext == SQLITE_CONSTRAINT_FOREIGNKEY)
            rc = gb_store__failf(st, GB_ENOPOINT,
                                 "evaluation %zu: no tuning run %lld in store %s (begin the run "
                                 "first)",
                                 ev->seq, (long long)ev->run_id, st->path);
        else if (ext == SQLITE_CONSTRAINT_PRIMARYKEY)
            rc = gb_store__failf(st, GB_EBADARG,
                                 "evaluation %zu of tuning run %lld is already recorded", ev->seq,
                                 (long long)ev->run_id);
        else
            rc = gb_store__fail_db(st, "recording an evaluation");
    }
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tune_eval_add(gb_store_t *st, const gb_tune_eval_t *ev)
{
    gb_store__lock(st);
    const int rc = tune_eval_add_locked(st, ev);
    gb_store__unlock(st);
    return rc;
}

/* The columns of a run, in the order read_run takes them. */
#define RUN_COLS                                                                                   \
    "id, device, platform, driver, kernel, precision, layout, m, n, k, shape_class, strategy, "    \
    "seed, budget, time_s, space, started, finished, status, evals, winner, winner_gflops, "       \
    "command"

/* A column that is a real number or NULL (NaN): 1, or 0 with why. */
static int col_real(sqlite3_stmt *q, int i, const char *name, double *out, char *why, size_t len)
{
    const int type = sqlite3_column_type(q, i);
    *out = gb_store__col_dbl(q, i);
    if (type == SQLITE_NULL || type == SQLITE_FLOAT || type == SQLITE_INTEGER)
        return 1;
    char shown[80];
    snprintf(why, len, "column %s: '%s' is not a number", name,
             gb__printable(gb_store__col_str(q, i), shown, sizeof shown));
    return 0;
}

/* The row at q of a SELECT RUN_COLS into r: 1, or 0 with d naming the run and what is wrong. */
static int read_run(sqlite3_stmt *q, gb_tune_run_t *r, gb_tuning_damage_t *d)
{
    char prec[8], why[512] = "";
    long long m = 0, n = 0, k = 0, budget = 0, evals = 0;
    const long long most = 1ll << 30;
    memset(r, 0, sizeof *r);
    r->id = (int64_t)sqlite3_column_int64(q, 0);
    d->table = "tune_runs";
    d->row = (long long)r->id;
    d->key_whole = 0;
    snprintf(d->what, sizeof d->what, "tuning run %lld", d->row);
    int ok =
        gb_store__col_text(q, 1, "device", r->device, sizeof r->device, 0, why, sizeof why) &&
        gb_store__col_text(q, 2, "platform", r->platform, sizeof r->platform, 0, why, sizeof why) &&
        gb_store__col_text(q, 3, "driver", r->driver, sizeof r->driver, 0, why, sizeof why) &&
        gb_store__col_text(q, 4, "kernel", r->kernel, sizeof r->kernel, 0, why, sizeof why) &&
        gb_store__col_text(q, 5, "precision", prec, sizeof prec, 0, why, sizeof why) &&
        gb_store__col_text(q, 6, "layout", r->layout, sizeof r->layout, 0, why, sizeof why) &&
        gb_store__col_whole(q, 7, "m", 1, most, &m, why, sizeof why) &&
        gb_store__col_whole(q, 8, "n", 1, most, &n, why, sizeof why) &&
        gb_store__col_whole(q, 9, "k", 1, most, &k, why, sizeof why) &&
        gb_store__col_text(q, 10, "shape_class", r->shape_class, sizeof r->shape_class, 0, why,
                           sizeof why) &&
        gb_store__col_text(q, 11, "strategy", r->strategy, sizeof r->strategy, 0, why,
                           sizeof why) &&
        gb_store__col_whole(q, 13, "budget", 0, INT64_MAX, &budget, why, sizeof why) &&
        col_real(q, 14, "time_s", &r->time_s, why, sizeof why) &&
        gb_store__col_text(q, 16, "started", r->started, sizeof r->started, 0, why, sizeof why) &&
        gb_store__col_text(q, 17, "finished", r->finished, sizeof r->finished, 1, why,
                           sizeof why) &&
        gb_store__col_text(q, 18, "status", r->status, sizeof r->status, 0, why, sizeof why) &&
        gb_store__col_whole(q, 19, "evals", 0, INT64_MAX, &evals, why, sizeof why) &&
        gb_store__col_text(q, 20, "winner", r->winner, sizeof r->winner, 1, why, sizeof why) &&
        col_real(q, 21, "winner_gflops", &r->winner_gflops, why, sizeof why) &&
        gb_store__col_text(q, 22, "command", r->command, sizeof r->command, 0, why, sizeof why);
    r->m = (size_t)m;
    r->n = (size_t)n;
    r->k = (size_t)k;
    r->seed = (uint64_t)sqlite3_column_int64(q, 12);
    r->budget = (size_t)budget;
    r->space = (uint64_t)sqlite3_column_int64(q, 15);
    r->evals = (size_t)evals;
    const char *bad = !ok ? NULL
                      : gb_precision_parse(prec, &r->precision) != GB_OK
                          ? "precision (" GB_PREC_NAMES ")"
                      : !gb_select__layout_ok(r->layout)             ? "layout"
                      : !status_ok(r->status)                        ? "status"
                      : r->winner[0] && !gb_select__is_id(r->winner) ? "winner"
                                                                     : NULL;
    if (bad) {
        char shown[80];
        const int col = bad[0] == 'p' ? 5 : bad[0] == 'l' ? 6 : bad[0] == 's' ? 18 : 20;
        snprintf(why, sizeof why, "column %s: '%s' is not one gemmbench writes", bad,
                 gb__printable(gb_store__col_str(q, col), shown, sizeof shown));
        ok = 0;
    }
    if (!ok)
        snprintf(d->why, sizeof d->why, "%s", why);
    return ok;
}

/* The runs in order of id, each good one to fn (when given), each damaged one to w. */
static int runs_walk(gb_store_t *st, int (*fn)(const gb_tune_run_t *run, void *user), void *user,
                     gb_store__damage_walk_t *w, size_t *rows)
{
    sqlite3_stmt *q;
    int rc = gb_store__has_table(st, "tune_runs");
    if (rc <= 0)
        return rc;
    rc = gb_store__prepare(st, "SELECT " RUN_COLS " FROM tune_runs ORDER BY id", &q);
    if (rc != GB_OK)
        return rc;
    int step = SQLITE_DONE;
    gb_tune_run_t run;
    gb_tuning_damage_t d;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        ++*rows;
        if (read_run(q, &run, &d))
            rc = fn ? fn(&run, user) : GB_OK;
        else
            rc = gb_store__damaged(w, &d);
    }
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the tuning runs");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tune_runs(gb_store_t *st, int (*fn)(const gb_tune_run_t *run, void *user), void *user)
{
    gb_store__damage_walk_t w = {st, NULL, NULL, 0};
    size_t rows = 0;
    gb_store__lock(st);
    const int rc = runs_walk(st, fn, user, &w, &rows);
    gb_store__damage_end(&w);
    gb_store__unlock(st);
    return rc;
}

/* The row at q of a SELECT EVAL_COLS into ev: 1, or 0 with d naming it and what is wrong. */
#define EVAL_COLS "seq, point_id, params, gflops, code, reason, cached, best, elapsed_s, run_id"
static int read_eval(sqlite3_stmt *q, gb_tune_eval_t *ev, gb_tuning_damage_t *d)
{
    char why[512] = "";
    long long seq = 0;
    memset(ev, 0, sizeof *ev);
    ev->run_id = (int64_t)sqlite3_column_int64(q, 9);
    ev->code = sqlite3_column_int(q, 4);
    ev->cached = sqlite3_column_int(q, 6);
    d->table = "tune_evals";
    d->row = (long long)ev->run_id;
    d->key_whole = 0;
    snprintf(d->what, sizeof d->what, "evaluation %lld of tuning run %lld",
             (long long)sqlite3_column_int64(q, 0), (long long)ev->run_id);
    const int ok =
        gb_store__col_whole(q, 0, "seq", 0, INT64_MAX, &seq, why, sizeof why) &&
        gb_store__col_text(q, 1, "point_id", ev->point_id, sizeof ev->point_id, 0, why,
                           sizeof why) &&
        gb_store__col_text(q, 2, "params", ev->params, sizeof ev->params, 0, why, sizeof why) &&
        col_real(q, 3, "gflops", &ev->gflops, why, sizeof why) &&
        gb_store__col_text(q, 5, "reason", ev->reason, sizeof ev->reason, 0, why, sizeof why) &&
        col_real(q, 7, "best", &ev->best, why, sizeof why) &&
        col_real(q, 8, "elapsed_s", &ev->elapsed_s, why, sizeof why);
    ev->seq = (size_t)seq;
    if (!ok)
        snprintf(d->why, sizeof d->why, "%s", why);
    return ok;
}

static int tune_evals_locked(gb_store_t *st, int64_t run_id,
                             int (*fn)(const gb_tune_eval_t *ev, void *user), void *user)
{
    sqlite3_stmt *q;
    int rc = gb_store__has_table(st, "tune_evals");
    if (rc <= 0)
        return rc;
    rc = gb_store__prepare(st, "SELECT " EVAL_COLS " FROM tune_evals WHERE run_id = ? ORDER BY seq",
                           &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)run_id);
    int step = SQLITE_DONE;
    gb_tune_eval_t ev;
    gb_tuning_damage_t d;
    gb_store__damage_walk_t w = {st, NULL, NULL, 0};
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW)
        rc = read_eval(q, &ev, &d) ? fn(&ev, user) : gb_store__damaged(&w, &d);
    gb_store__damage_end(&w);
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the evaluations");
    sqlite3_finalize(q);
    return rc;
}

/* Every evaluation and every failure row, each damaged one to w. */
static int evals_failures_check(gb_store_t *st, gb_store__damage_walk_t *w, size_t *rows)
{
    sqlite3_stmt *q;
    int rc = gb_store__has_table(st, "tune_evals");
    if (rc == 1 &&
        (rc = gb_store__prepare(st, "SELECT " EVAL_COLS " FROM tune_evals ORDER BY run_id, seq",
                                &q)) == GB_OK) {
        gb_tune_eval_t ev;
        gb_tuning_damage_t d;
        int step;
        while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
            ++*rows;
            if (!read_eval(q, &ev, &d))
                rc = gb_store__damaged(w, &d);
        }
        sqlite3_finalize(q);
    }
    if (rc < 0)
        return rc;
    rc = gb_store__has_table(st, "tune_failures");
    if (rc <= 0 || (rc = gb_store__prepare(st,
                                           "SELECT id, kernel, params, code, reason, timestamp, "
                                           "rowid FROM tune_failures ORDER BY rowid",
                                           &q)) != GB_OK)
        return rc;
    while (rc == GB_OK && sqlite3_step(q) == SQLITE_ROW) {
        gb_tune_failure_t f;
        gb_tuning_damage_t d;
        char why[512] = "";
        long long code = 0;
        ++*rows;
        d.table = "tune_failures";
        d.row = (long long)sqlite3_column_int64(q, 6);
        d.key_whole = 0;
        char shown[80];
        snprintf(d.what, sizeof d.what, "tuning failure '%s'",
                 gb__printable(gb_store__col_str(q, 0), shown, sizeof shown));
        int ok =
            gb_store__col_text(q, 0, "id", f.id, sizeof f.id, 0, why, sizeof why) &&
            gb_store__col_text(q, 1, "kernel", f.kernel, sizeof f.kernel, 0, why, sizeof why) &&
            gb_store__col_text(q, 2, "params", f.params, sizeof f.params, 0, why, sizeof why) &&
            gb_store__col_whole(q, 3, "code", INT32_MIN, -1, &code, why, sizeof why) &&
            gb_store__col_text(q, 4, "reason", f.reason, sizeof f.reason, 0, why, sizeof why) &&
            gb_store__col_text(q, 5, "timestamp", f.timestamp, sizeof f.timestamp, 0, why,
                               sizeof why);
        if (ok && !gb_select__is_id(f.id)) {
            snprintf(why, sizeof why, "column id: '%s' is not a point id", shown);
            ok = 0;
        }
        if (!ok) {
            snprintf(d.why, sizeof d.why, "%s", why);
            rc = gb_store__damaged(w, &d);
        }
    }
    sqlite3_finalize(q);
    return rc;
}

int gb_store__tune_runs_check(gb_store_t *st, gb_store__damage_walk_t *w, size_t *checked)
{
    const int rc = runs_walk(st, NULL, NULL, w, checked);
    return rc == GB_OK ? evals_failures_check(st, w, checked) : rc;
}

int gb_store_tune_evals(gb_store_t *st, int64_t run_id,
                        int (*fn)(const gb_tune_eval_t *ev, void *user), void *user)
{
    gb_store__lock(st);
    const int rc = tune_evals_locked(st, run_id, fn, user);
    gb_store__unlock(st);
    return rc;
}
