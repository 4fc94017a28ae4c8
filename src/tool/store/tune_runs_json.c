/* tune_runs_json.c: a store's tuning runs, with their evaluations, as JSON text and back
 * (tuning.h), so that a run made in one process (an MPI rank tuning into a store in memory) is
 * recorded in another's store with its times, status and evaluations as they were. Doubles are
 * written as the point exports write them (store_int.h); a run of the same definition as one the
 * store holds, which no live process is making, replaces that one. Each public function runs its
 * _locked twin under the connection's lock (store_int.h). */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inflight.h"
#include "tuning_int.h"

/* The text fields of a run, by name, for both directions. */
typedef struct text_field {
    const char *name;
    size_t off, size;
} text_field_t;

#define TF(n, f)                                                                                   \
    {                                                                                              \
        n, offsetof(gb_tune_run_t, f), sizeof((gb_tune_run_t *)0)->f                               \
    }
static const text_field_t run_text[] = {
    TF("device", device),     TF("platform", platform), TF("driver", driver),
    TF("kernel", kernel),     TF("layout", layout),     TF("class", shape_class),
    TF("strategy", strategy), TF("started", started),   TF("finished", finished),
    TF("status", status),     TF("winner", winner),     TF("command", command)};
#undef TF

typedef struct runs {
    gb_tune_run_t *v;
    size_t n, cap;
} runs_t;

static void add_dbl(cJSON *o, const char *name, double v)
{
    cJSON_AddItemToObject(o, name, gb_store__json_double(v));
}

static int keep_run(const gb_tune_run_t *run, void *user)
{
    runs_t *r = user;
    if (gb__grow(&r->v, &r->cap, r->n + 1, sizeof *r->v) != GB_OK)
        return GB_ENOMEM;
    r->v[r->n++] = *run;
    return GB_OK;
}

static int add_eval(const gb_tune_eval_t *e, void *user)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(user, o)) {
        cJSON_Delete(o);
        return GB_ENOMEM;
    }
    cJSON_AddNumberToObject(o, "seq", (double)e->seq);
    cJSON_AddStringToObject(o, "point_id", e->point_id);
    cJSON_AddStringToObject(o, "params", e->params);
    add_dbl(o, "gflops", e->gflops);
    cJSON_AddNumberToObject(o, "code", e->code);
    cJSON_AddStringToObject(o, "reason", e->reason);
    cJSON_AddNumberToObject(o, "cached", e->cached);
    add_dbl(o, "best", e->best);
    add_dbl(o, "elapsed_s", e->elapsed_s);
    return GB_OK;
}

static cJSON *run_json(const gb_tune_run_t *r)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    for (size_t i = 0; i < sizeof run_text / sizeof *run_text; i++)
        cJSON_AddStringToObject(o, run_text[i].name, (const char *)r + run_text[i].off);
    cJSON_AddStringToObject(o, "precision", gb_precision_name(r->precision));
    cJSON_AddNumberToObject(o, "m", (double)r->m);
    cJSON_AddNumberToObject(o, "n", (double)r->n);
    cJSON_AddNumberToObject(o, "k", (double)r->k);
    cJSON_AddNumberToObject(o, "budget", (double)r->budget);
    add_dbl(o, "time_s", r->time_s);
    cJSON_AddNumberToObject(o, "evals", (double)r->evals);
    add_dbl(o, "winner_gflops", r->winner_gflops);
    /* 64-bit integers as text, bit for bit (a double holds 53 bits). */
    char big[32];
    snprintf(big, sizeof big, "%llu", (unsigned long long)r->seed);
    cJSON_AddStringToObject(o, "seed", big);
    snprintf(big, sizeof big, "%llu", (unsigned long long)r->space);
    cJSON_AddStringToObject(o, "space", big);
    return o;
}

static char *tune_runs_to_json_locked(gb_store_t *st)
{
    runs_t runs = {0};
    cJSON *all = cJSON_CreateArray();
    int rc = all ? gb_store_tune_runs(st, keep_run, &runs) : GB_ENOMEM;
    /* Evaluations once the runs are read: one statement open at a time. */
    for (size_t i = 0; rc == GB_OK && i < runs.n; i++) {
        cJSON *o = run_json(&runs.v[i]),
              *evals = o ? cJSON_AddArrayToObject(o, "evaluations") : NULL;
        if (!evals || !cJSON_AddItemToArray(all, o)) {
            cJSON_Delete(o);
            rc = GB_ENOMEM;
        } else {
            rc = gb_store_tune_evals(st, runs.v[i].id, add_eval, evals);
        }
    }
    free(runs.v);
    char *text = rc == GB_OK ? cJSON_PrintUnformatted(all) : NULL;
    cJSON_Delete(all);
    if (rc == GB_OK && !text)
        rc = GB_ENOMEM;
    if (rc == GB_ENOMEM)
        gb_store__failf(st, GB_ENOMEM, "out of memory writing the tuning runs");
    return text;
}

char *gb_store_tune_runs_to_json(gb_store_t *st)
{
    gb_store__lock(st);
    char *r = tune_runs_to_json_locked(st);
    gb_store__unlock(st);
    return r;
}

/* Copies string member name of o into dst (size bytes); 0 when absent, not a string or long. */
static int get_text(const cJSON *o, const char *name, char *dst, size_t size)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= size)
        return 0;
    memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
    return 1;
}

/* Number member name of o, whole and in [0, max] where whole is set; 0 when it is not. */
static int get_num(const cJSON *o, const char *name, int whole, double max, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(v) || (whole && (v->valuedouble < 0 || v->valuedouble > max ||
                                         v->valuedouble != (double)(long long)v->valuedouble)))
        return 0;
    *out = v->valuedouble;
    return 1;
}

static int get_dbl(const cJSON *o, const char *name, double *out)
{
    return gb_store__json_to_double(cJSON_GetObjectItemCaseSensitive(o, name), out);
}

static int get_u64(const cJSON *o, const char *name, uint64_t *out)
{
    char t[32], *end = NULL;
    if (!get_text(o, name, t, sizeof t) || !t[0])
        return 0;
    *out = (uint64_t)strtoull(t, &end, 10);
    return *end == '\0';
}

static int read_run(const cJSON *o, gb_tune_run_t *r)
{
    double m = 0, n = 0, k = 0, budget = 0, evals = 0;
    char prec[8];
    memset(r, 0, sizeof *r);
    int ok = cJSON_IsObject(o);
    for (size_t i = 0; ok && i < sizeof run_text / sizeof *run_text; i++)
        ok = get_text(o, run_text[i].name, (char *)r + run_text[i].off, run_text[i].size);
    ok = ok && get_text(o, "precision", prec, sizeof prec) &&
         gb_precision_parse(prec, &r->precision) == GB_OK && get_num(o, "m", 1, 9e15, &m) &&
         get_num(o, "n", 1, 9e15, &n) && get_num(o, "k", 1, 9e15, &k) &&
         get_num(o, "budget", 1, 9e15, &budget) && get_num(o, "evals", 1, 9e15, &evals) &&
         get_dbl(o, "time_s", &r->time_s) && get_dbl(o, "winner_gflops", &r->winner_gflops) &&
         get_u64(o, "seed", &r->seed) && get_u64(o, "space", &r->space);
    r->m = (size_t)m;
    r->n = (size_t)n;
    r->k = (size_t)k;
    r->budget = (size_t)budget;
    r->evals = (size_t)evals;
    return ok;
}

static int read_eval(const cJSON *o, int64_t run_id, gb_tune_eval_t *e)
{
    double seq = 0, code = 0, cached = 0;
    memset(e, 0, sizeof *e);
    e->run_id = run_id;
    const int ok = cJSON_IsObject(o) && get_num(o, "seq", 1, 9e15, &seq) &&
                   get_text(o, "point_id", e->point_id, sizeof e->point_id) &&
                   get_text(o, "params", e->params, sizeof e->params) &&
                   get_dbl(o, "gflops", &e->gflops) && get_num(o, "code", 0, 0, &code) &&
                   get_text(o, "reason", e->reason, sizeof e->reason) &&
                   get_num(o, "cached", 1, 1, &cached) && get_dbl(o, "best", &e->best) &&
                   get_dbl(o, "elapsed_s", &e->elapsed_s);
    e->seq = (size_t)seq;
    e->code = (int)code;
    e->cached = (int)cached;
    return ok;
}

/* Deletes run id with its evaluations (ON DELETE CASCADE). */
static int delete_run(gb_store_t *st, int64_t id)
{
    sqlite3_stmt *q = NULL;
    int rc = gb_store__prepare(st, "DELETE FROM tune_runs WHERE id = ?", &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)id);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "replacing a tuning run");
    sqlite3_finalize(q);
    return rc;
}

typedef struct add_job {
    const cJSON *all;
    size_t added;
} add_job_t;

static int add_all(gb_store_t *st, void *user)
{
    add_job_t *job = user;
    int rc = GB_OK;
    for (const cJSON *o = job->all->child; rc == GB_OK && o; o = o->next) {
        gb_tune_run_t run;
        gb_tune_eval_t ev;
        const cJSON *evals = cJSON_GetObjectItemCaseSensitive(o, "evaluations");
        if (!read_run(o, &run) || !cJSON_IsArray(evals))
            return gb_store__failf(st, GB_EBADARG, "tuning run %zu: a field is missing or bad",
                                   job->added + 1);
        /* A tuning taken up again after a process died on it: its run replaces the row the
         * earlier attempt left (one tuning, one row). */
        gb_tune_run_t old;
        rc = gb_store__tune_run_same(st, &run, &old);
        if (rc == 1)
            rc = delete_run(st, old.id);
        if (rc == GB_OK)
            rc = gb_store_tune_run_put(st, &run);
        for (const cJSON *e = evals ? evals->child : NULL; rc == GB_OK && e; e = e->next)
            rc = read_eval(e, run.id, &ev)
                     ? gb_store_tune_eval_add(st, &ev)
                     : gb_store__failf(st, GB_EBADARG,
                                       "tuning run %zu: an evaluation's field is missing or bad",
                                       job->added + 1);
        job->added += rc == GB_OK;
    }
    return rc;
}

static int tune_runs_add_json_locked(gb_store_t *st, const char *json, size_t *added)
{
    *added = 0;
    cJSON *all = cJSON_Parse(json);
    if (!cJSON_IsArray(all)) {
        cJSON_Delete(all);
        return gb_store__failf(st, GB_EBADARG, "tuning runs: not a JSON array of runs");
    }
    add_job_t job = {all, 0};
    /* The tables first: made outside the transaction, as every other write makes them. */
    int rc = gb_store__tuning_tables(st);
    if (rc == GB_OK)
        rc = gb_store__inflight_table(st);
    if (rc == GB_OK)
        rc = gb_store_transaction(st, add_all, &job);
    cJSON_Delete(all);
    *added = rc == GB_OK ? job.added : 0;
    return rc;
}

int gb_store_tune_runs_add_json(gb_store_t *st, const char *json, size_t *added)
{
    gb_store__lock(st);
    const int rc = tune_runs_add_json_locked(st, json, added);
    gb_store__unlock(st);
    return rc;
}
