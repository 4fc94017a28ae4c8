/* tune_runs.c: tuning runs and their evaluations in order (tuning.h; tables tune_runs and
 * tune_evals, made with the other tuning tables by the first write: tuning.c). A run is written
 * when it begins and again when it ends, and marked in flight meanwhile (inflight.h), so that
 * one whose process is killed on the way is still there with the evaluations it made, and is
 * marked "died" by the next run to begin; a run of the same definition taken up again goes on
 * in the same row (one tuning, one row). Each public function runs its _locked twin under the
 * connection's lock (store_int.h). */
#include <math.h>
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
        : (unsigned)run->precision > GB_PREC_D             ? "precision"
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
                                   st->path, (long long)found->id, st->path);
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

static int read_run(gb_store_t *st, sqlite3_stmt *q, gb_tune_run_t *r)
{
    char prec[8];
    memset(r, 0, sizeof *r);
    r->id = (int64_t)sqlite3_column_int64(q, 0);
    const sqlite3_int64 m = sqlite3_column_int64(q, 7), n = sqlite3_column_int64(q, 8),
                        k = sqlite3_column_int64(q, 9), budget = sqlite3_column_int64(q, 13),
                        evals = sqlite3_column_int64(q, 19);
    int ok = gb_store__copy_col(q, 1, r->device, sizeof r->device) &&
             gb_store__copy_col(q, 2, r->platform, sizeof r->platform) &&
             gb_store__copy_col(q, 3, r->driver, sizeof r->driver) &&
             gb_store__copy_col(q, 4, r->kernel, sizeof r->kernel) &&
             gb_store__copy_col(q, 5, prec, sizeof prec) &&
             gb_precision_parse(prec, &r->precision) == GB_OK &&
             gb_store__copy_col(q, 6, r->layout, sizeof r->layout) && m > 0 && n > 0 && k > 0 &&
             gb_store__copy_col(q, 10, r->shape_class, sizeof r->shape_class) &&
             gb_store__copy_col(q, 11, r->strategy, sizeof r->strategy) && budget >= 0 &&
             gb_store__copy_col(q, 16, r->started, sizeof r->started) &&
             gb_store__copy_col(q, 17, r->finished, sizeof r->finished) &&
             gb_store__copy_col(q, 18, r->status, sizeof r->status) && evals >= 0 &&
             gb_store__copy_col(q, 20, r->winner, sizeof r->winner) &&
             gb_store__copy_col(q, 22, r->command, sizeof r->command);
    r->m = (size_t)m;
    r->n = (size_t)n;
    r->k = (size_t)k;
    r->seed = (uint64_t)sqlite3_column_int64(q, 12);
    r->budget = (size_t)budget;
    r->time_s = gb_store__col_dbl(q, 14);
    r->space = (uint64_t)sqlite3_column_int64(q, 15);
    r->evals = (size_t)evals;
    r->winner_gflops = gb_store__col_dbl(q, 21);
    if (!ok)
        return gb_store__failf(st, GB_ECORRUPT,
                               "store %s: tuning run %lld holds a value gemmbench did not "
                               "write; " GB_STORE__RECOVER,
                               st->path, (long long)r->id, st->path);
    return GB_OK;
}

static int tune_runs_locked(gb_store_t *st, int (*fn)(const gb_tune_run_t *run, void *user),
                            void *user)
{
    sqlite3_stmt *q;
    int rc = gb_store__has_table(st, "tune_runs");
    if (rc <= 0)
        return rc;
    rc = gb_store__prepare(st,
                           "SELECT id, device, platform, driver, kernel, precision, layout, m, n, "
                           "k, shape_class, strategy, seed, budget, time_s, space, started, "
                           "finished, status, evals, winner, winner_gflops, command FROM "
                           "tune_runs ORDER BY id",
                           &q);
    if (rc != GB_OK)
        return rc;
    int step = SQLITE_DONE;
    gb_tune_run_t run;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW)
        if ((rc = read_run(st, q, &run)) == GB_OK)
            rc = fn(&run, user);
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the tuning runs");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tune_runs(gb_store_t *st, int (*fn)(const gb_tune_run_t *run, void *user), void *user)
{
    gb_store__lock(st);
    const int rc = tune_runs_locked(st, fn, user);
    gb_store__unlock(st);
    return rc;
}

static int tune_evals_locked(gb_store_t *st, int64_t run_id,
                             int (*fn)(const gb_tune_eval_t *ev, void *user), void *user)
{
    sqlite3_stmt *q;
    int rc = gb_store__has_table(st, "tune_evals");
    if (rc <= 0)
        return rc;
    rc = gb_store__prepare(st,
                           "SELECT seq, point_id, params, gflops, code, reason, cached, best, "
                           "elapsed_s FROM tune_evals WHERE run_id = ? ORDER BY seq",
                           &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)run_id);
    int step = SQLITE_DONE;
    gb_tune_eval_t ev;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        memset(&ev, 0, sizeof ev);
        ev.run_id = run_id;
        const sqlite3_int64 seq = sqlite3_column_int64(q, 0);
        ev.seq = (size_t)seq;
        ev.gflops = gb_store__col_dbl(q, 3);
        ev.code = sqlite3_column_int(q, 4);
        ev.cached = sqlite3_column_int(q, 6);
        ev.best = gb_store__col_dbl(q, 7);
        ev.elapsed_s = gb_store__col_dbl(q, 8);
        if (seq < 0 || !gb_store__copy_col(q, 1, ev.point_id, sizeof ev.point_id) ||
            !gb_store__copy_col(q, 2, ev.params, sizeof ev.params) ||
            !gb_store__copy_col(q, 5, ev.reason, sizeof ev.reason))
            rc = gb_store__failf(st, GB_ECORRUPT,
                                 "store %s: an evaluation of tuning run %lld holds a value "
                                 "gemmbench did not write; " GB_STORE__RECOVER,
                                 st->path, (long long)run_id, st->path);
        else
            rc = fn(&ev, user);
    }
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the evaluations");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tune_evals(gb_store_t *st, int64_t run_id,
                        int (*fn)(const gb_tune_eval_t *ev, void *user), void *user)
{
    gb_store__lock(st);
    const int rc = tune_evals_locked(st, run_id, fn, user);
    gb_store__unlock(st);
    return rc;
}
