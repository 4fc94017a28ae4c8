/* tuning.c: what `gemmbench tune` keeps beside the points (tuning.h): the tuning database (table
 * tuned) and the candidates that cannot win (tune_failures); tuning runs and their evaluations are
 * in tune_runs.c. The tables (docs/tuning.md) are made together by the first write, so a store of
 * schema version 2 gains them without a migration; a reader of a store without them sees nothing
 * and writes nothing, so that read-only commands stay so. Each public function runs its _locked
 * twin under the connection's lock (store_int.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tuning_int.h"

/* ---- the tables ------------------------------------------------------------------------------ */

static const char *const tables[] = {"tuned", "tune_failures", "tune_runs", "tune_evals"};

/* One savepoint: all four tables or none, inside a caller's transaction or on its own. */
static const char ddl[] =
    "SAVEPOINT tuning_tables;"
    "CREATE TABLE IF NOT EXISTS tuned(device TEXT NOT NULL, platform TEXT NOT NULL, "
    "driver TEXT NOT NULL, precision TEXT NOT NULL, layout TEXT NOT NULL, "
    "shape_class TEXT NOT NULL, vendor TEXT NOT NULL, type TEXT NOT NULL, m INTEGER NOT NULL, "
    "n INTEGER NOT NULL, k INTEGER NOT NULL, kernel TEXT NOT NULL, params TEXT NOT NULL, "
    "gflops REAL NOT NULL, evidence TEXT NOT NULL, tuned_at TEXT NOT NULL, "
    "family TEXT NOT NULL DEFAULT '', "
    "PRIMARY KEY(device, platform, driver, precision, layout, shape_class));"
    "CREATE TABLE IF NOT EXISTS tune_failures(id TEXT PRIMARY KEY NOT NULL, "
    "kernel TEXT NOT NULL, params TEXT NOT NULL, code INTEGER NOT NULL, reason TEXT NOT NULL, "
    "timestamp TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tune_runs(id INTEGER PRIMARY KEY, device TEXT NOT NULL, "
    "platform TEXT NOT NULL, driver TEXT NOT NULL, kernel TEXT NOT NULL, "
    "precision TEXT NOT NULL, layout TEXT NOT NULL, m INTEGER NOT NULL, n INTEGER NOT NULL, "
    "k INTEGER NOT NULL, shape_class TEXT NOT NULL, strategy TEXT NOT NULL, "
    "seed INTEGER NOT NULL, budget INTEGER NOT NULL, time_s REAL, "
    "space INTEGER NOT NULL, started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL, "
    "evals INTEGER NOT NULL, winner TEXT, winner_gflops REAL, command TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS tune_evals(run_id INTEGER NOT NULL REFERENCES tune_runs(id) "
    "ON DELETE CASCADE, seq INTEGER NOT NULL, point_id TEXT NOT NULL, params TEXT NOT NULL, "
    "gflops REAL, code INTEGER NOT NULL, reason TEXT NOT NULL, cached INTEGER NOT NULL, "
    "best REAL, elapsed_s REAL, PRIMARY KEY(run_id, seq)) WITHOUT ROWID;"
    "RELEASE tuning_tables;";

int gb_store__has_table(gb_store_t *st, const char *name)
{
    sqlite3_stmt *q;
    int rc =
        gb_store__prepare(st, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    const int s = sqlite3_step(q);
    rc = s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0 : gb_store__fail_db(st, "reading the schema");
    sqlite3_finalize(q);
    return rc;
}

/* Whether table tuned has the column family (added after the tables were first made): 1, 0,
 * or an error code. */
static int tuned_has_family(gb_store_t *st)
{
    sqlite3_stmt *q;
    int rc =
        gb_store__prepare(st, "SELECT 1 FROM pragma_table_info('tuned') WHERE name = 'family'", &q);
    if (rc != GB_OK)
        return rc;
    const int s = sqlite3_step(q);
    rc = s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0 : gb_store__fail_db(st, "reading the schema");
    sqlite3_finalize(q);
    return rc;
}

int gb_store__tuning_tables(gb_store_t *st)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        const int has = gb_store__has_table(st, tables[i]);
        if (has < 0)
            return has;
        if (!has) {
            int rc = gb_store__exec(st, ddl);
            if (rc != GB_OK)
                sqlite3_exec(st->db, "ROLLBACK TO tuning_tables; RELEASE tuning_tables", NULL, NULL,
                             NULL);
            return rc;
        }
    }
    /* Tables made before entries kept their device's family gain the column (empty: unknown)
     * at their first write. */
    const int fam = tuned_has_family(st);
    return fam < 0   ? fam
           : fam > 0 ? GB_OK
                     : gb_store__exec(st, "ALTER TABLE tuned ADD COLUMN family TEXT NOT NULL "
                                          "DEFAULT ''");
}

static int tuning_counts_locked(gb_store_t *st, gb_tuning_counts_t *c)
{
    memset(c, 0, sizeof *c);
    size_t *at[] = {&c->tuned, &c->failures, &c->runs, &c->evals};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        const int has = gb_store__has_table(st, tables[i]);
        if (has < 0)
            return has;
        if (!has)
            continue;
        c->present = 1;
        char sql[64];
        sqlite3_stmt *q;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables[i]);
        int rc = gb_store__prepare(st, sql, &q);
        if (rc != GB_OK)
            return rc;
        if (sqlite3_step(q) == SQLITE_ROW)
            *at[i] = (size_t)sqlite3_column_int64(q, 0);
        else
            rc = gb_store__fail_db(st, "counting the tuning data");
        sqlite3_finalize(q);
        if (rc != GB_OK)
            return rc;
    }
    return GB_OK;
}

int gb_store_tuning_counts(gb_store_t *st, gb_tuning_counts_t *c)
{
    gb_store__lock(st);
    const int rc = tuning_counts_locked(st, c);
    gb_store__unlock(st);
    return rc;
}

/* ---- values as the tables keep them ---------------------------------------------------------- */

void gb_store__utc_now(char buf[32])
{
    time_t now = time(NULL);
    struct tm tm;
    buf[0] = '\0';
    if (gmtime_r(&now, &tm))
        strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int gb_store__params_text(const gb_params_t *ps, char *buf, size_t len)
{
    gb_params_t sorted = *ps;
    size_t used = 0;
    int fits = 1;
    gb_store__params_sort(&sorted);
    buf[0] = '\0';
    for (size_t i = 0; fits && i < sorted.count; i++)
        fits =
            gb__appendf(buf, len, &used, "%s%s=%ld", i ? " " : "", sorted.name[i], sorted.value[i]);
    return fits ? GB_OK : GB_EBADARG;
}

int gb_store__params_parse(const char *text, gb_params_t *ps)
{
    char buf[4096];
    memset(ps, 0, sizeof *ps);
    if (strlen(text) >= sizeof buf)
        return GB_EBADARG;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        const size_t before = ps->count; /* a name given twice sets, and does not count */
        if (gb_params_parse(ps, t, NULL, 0) != GB_OK || ps->count != before + 1)
            return GB_EBADARG;
    }
    return GB_OK;
}

const char *gb_store__col_str(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? (const char *)t : "";
}

double gb_store__col_dbl(sqlite3_stmt *q, int i)
{
    return sqlite3_column_type(q, i) == SQLITE_NULL ? (double)NAN : sqlite3_column_double(q, i);
}

void gb_store__bind_dbl(sqlite3_stmt *q, int i, double v)
{
    if (isnan(v))
        sqlite3_bind_null(q, i);
    else
        sqlite3_bind_double(q, i, v);
}

int gb_store__copy_col(sqlite3_stmt *q, int i, char *dst, size_t size)
{
    return snprintf(dst, size, "%s", gb_store__col_str(q, i)) < (int)size;
}

/* ---- the tuning database -------------------------------------------------------------------- */

#define TUNED_COLS                                                                                 \
    "device, platform, driver, precision, layout, shape_class, vendor, type, m, n, k, kernel, "    \
    "params, gflops, evidence, tuned_at"
/* What reads TUNED_COLS then the family: the column, or '' where the table predates it. */
#define FAMILY_COL(has) ((has) ? ", family" : ", '' AS family")

static int tuned_put_locked(gb_store_t *st, const gb_tuned_entry_t *e)
{
    char params[4096], evidence[GB_TUNED_EVIDENCE * (GB_POINT_ID_LEN + 1) + 1] = "", when[32];
    size_t used = 0;
    sqlite3_stmt *q = NULL;
    int rc = gb_tuned_entry_check(e, st->msg, sizeof st->msg);
    if (rc != GB_OK)
        return rc;
    if (gb_store__params_text(&e->params, params, sizeof params) != GB_OK)
        return gb_store__failf(st, GB_EBADARG, "tuned entry for %s: parameters too long",
                               e->device);
    for (size_t i = 0; i < e->nevidence; i++)
        gb__appendf(evidence, sizeof evidence, &used, "%s%s", i ? "," : "", e->evidence[i]);
    snprintf(when, sizeof when, "%s", e->tuned_at);
    if (!when[0])
        gb_store__utc_now(when);
    if ((rc = gb_store__tuning_tables(st)) != GB_OK ||
        (rc = gb_store__prepare(st,
                                "INSERT OR REPLACE INTO tuned(" TUNED_COLS
                                ", family) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                "?)",
                                &q)) != GB_OK)
        return rc;
    const char *text[] = {e->device, e->platform,    e->driver, gb_precision_name(e->precision),
                          e->layout, e->shape_class, e->vendor, e->type};
    for (int i = 0; i < 8; i++)
        sqlite3_bind_text(q, i + 1, text[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 9, (sqlite3_int64)e->m);
    sqlite3_bind_int64(q, 10, (sqlite3_int64)e->n);
    sqlite3_bind_int64(q, 11, (sqlite3_int64)e->k);
    sqlite3_bind_text(q, 12, e->kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 13, params, -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 14, e->gflops);
    sqlite3_bind_text(q, 15, evidence, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 16, when, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 17, e->family, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "storing a tuned entry");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tuned_put(gb_store_t *st, const gb_tuned_entry_t *e)
{
    gb_store__lock(st);
    const int rc = tuned_put_locked(st, e);
    gb_store__unlock(st);
    return rc;
}

/* The current row of a SELECT TUNED_COLS into e (source "store"). */
static int read_entry(gb_store_t *st, sqlite3_stmt *q, gb_tuned_entry_t *e)
{
    char prec[8], evidence[256];
    memset(e, 0, sizeof *e);
    int ok = gb_store__copy_col(q, 0, e->device, sizeof e->device) &&
             gb_store__copy_col(q, 1, e->platform, sizeof e->platform) &&
             gb_store__copy_col(q, 2, e->driver, sizeof e->driver) &&
             gb_store__copy_col(q, 3, prec, sizeof prec) &&
             gb_precision_parse(prec, &e->precision) == GB_OK &&
             gb_store__copy_col(q, 4, e->layout, sizeof e->layout) &&
             gb_select__layout_ok(e->layout) &&
             gb_store__copy_col(q, 5, e->shape_class, sizeof e->shape_class) &&
             gb_store__copy_col(q, 6, e->vendor, sizeof e->vendor) &&
             gb_store__copy_col(q, 7, e->type, sizeof e->type);
    const sqlite3_int64 m = sqlite3_column_int64(q, 8), n = sqlite3_column_int64(q, 9),
                        k = sqlite3_column_int64(q, 10);
    ok = ok && m > 0 && n > 0 && k > 0 && gb_store__copy_col(q, 11, e->kernel, sizeof e->kernel) &&
         gb_store__params_parse(gb_store__col_str(q, 12), &e->params) == GB_OK &&
         gb_store__copy_col(q, 14, evidence, sizeof evidence) &&
         gb_store__copy_col(q, 15, e->tuned_at, sizeof e->tuned_at) &&
         gb_store__copy_col(q, 16, e->family, sizeof e->family);
    e->m = (size_t)m;
    e->n = (size_t)n;
    e->k = (size_t)k;
    e->gflops = gb_store__col_dbl(q, 13);
    for (char *save = NULL, *t = ok ? strtok_r(evidence, ",", &save) : NULL; t;
         t = strtok_r(NULL, ",", &save)) {
        ok = ok && e->nevidence < GB_TUNED_EVIDENCE && gb_select__is_id(t);
        if (ok)
            snprintf(e->evidence[e->nevidence++], GB_POINT_ID_LEN + 1, "%s", t);
    }
    snprintf(e->source, sizeof e->source, "store");
    if (!ok)
        return gb_store__failf(st, GB_ECORRUPT,
                               "store %s: the tuned entry for %s (%s, %s) holds a value gemmbench "
                               "did not write; " GB_STORE__RECOVER,
                               st->path, e->device, prec, e->shape_class, st->path);
    return GB_OK;
}

static int tuned_get_locked(gb_store_t *st, const gb_tuned_entry_t *key, gb_tuned_entry_t *out)
{
    sqlite3_stmt *q = NULL;
    char sql[512];
    int rc = gb_store__has_table(st, "tuned");
    if (rc == 1 && (rc = tuned_has_family(st)) >= 0) {
        snprintf(sql, sizeof sql,
                 "SELECT " TUNED_COLS "%s FROM tuned WHERE device = ? AND platform = ? AND "
                 "driver = ? AND precision = ? AND layout = ? AND shape_class = ?",
                 FAMILY_COL(rc));
        rc = gb_store__prepare(st, sql, &q);
    } else if (rc == 0)
        rc = SQLITE_DONE; /* no table: no entry, and nothing written */
    if (rc < 0)
        return rc;
    int step = SQLITE_DONE;
    if (q) {
        const char *text[] = {key->device, key->platform,
                              key->driver, gb_precision_name(key->precision),
                              key->layout, key->shape_class};
        for (int i = 0; i < 6; i++)
            sqlite3_bind_text(q, i + 1, text[i], -1, SQLITE_STATIC);
        step = sqlite3_step(q);
    }
    if (step == SQLITE_ROW)
        rc = read_entry(st, q, out);
    else if (step == SQLITE_DONE)
        rc = gb_store__failf(st, GB_ENOPOINT, "no tuned entry for %s (%s, %s, %s) in store %s",
                             key->device, gb_precision_name(key->precision), key->layout,
                             key->shape_class, st->path);
    else
        rc = gb_store__fail_db(st, "reading a tuned entry");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tuned_get(gb_store_t *st, const gb_tuned_entry_t *key, gb_tuned_entry_t *out)
{
    gb_store__lock(st);
    const int rc = tuned_get_locked(st, key, out);
    gb_store__unlock(st);
    return rc;
}

static int tuned_foreach_locked(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                                void *user)
{
    sqlite3_stmt *q;
    char sql[512];
    int rc = gb_store__has_table(st, "tuned");
    if (rc <= 0 || (rc = tuned_has_family(st)) < 0)
        return rc;
    snprintf(sql, sizeof sql,
             "SELECT " TUNED_COLS "%s FROM tuned ORDER BY device, precision, layout, shape_class, "
             "platform, driver",
             FAMILY_COL(rc));
    rc = gb_store__prepare(st, sql, &q);
    if (rc != GB_OK)
        return rc;
    int step = SQLITE_DONE;
    gb_tuned_entry_t e;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW)
        if ((rc = read_entry(st, q, &e)) == GB_OK)
            rc = fn(&e, user);
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the tuned entries");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tuned_foreach(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                           void *user)
{
    gb_store__lock(st);
    const int rc = tuned_foreach_locked(st, fn, user);
    gb_store__unlock(st);
    return rc;
}

/* ---- candidates that cannot win -------------------------------------------------------------- */

static int failure_put_locked(gb_store_t *st, const gb_tune_failure_t *f)
{
    sqlite3_stmt *q = NULL;
    char when[32];
    if (!gb_select__is_id(f->id))
        return gb_store__failf(st, GB_EBADARG,
                               "tuning failure: bad id '%s' (a point id of 16 hex digits)", f->id);
    if (f->code >= 0)
        return gb_store__failf(st, GB_EBADARG,
                               "tuning failure %s: code %d is not an error (a negative "
                               "gb_error_t)",
                               f->id, f->code);
    snprintf(when, sizeof when, "%s", f->timestamp);
    if (!when[0])
        gb_store__utc_now(when);
    int rc = gb_store__tuning_tables(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st, "INSERT OR REPLACE INTO tune_failures VALUES(?, ?, ?, ?, ?, ?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, f->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, f->kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, f->params, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 4, f->code);
    sqlite3_bind_text(q, 5, f->reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 6, when, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "storing a tuning failure");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_failure_put(gb_store_t *st, const gb_tune_failure_t *f)
{
    gb_store__lock(st);
    const int rc = failure_put_locked(st, f);
    gb_store__unlock(st);
    return rc;
}

static int failure_get_locked(gb_store_t *st, const char *id, gb_tune_failure_t *f)
{
    sqlite3_stmt *q = NULL;
    memset(f, 0, sizeof *f);
    int rc = gb_store__has_table(st, "tune_failures"), step = SQLITE_DONE;
    if (rc < 0)
        return rc;
    if (rc == 1) {
        rc = gb_store__prepare(st,
                               "SELECT id, kernel, params, code, reason, timestamp FROM "
                               "tune_failures WHERE id = ?",
                               &q);
        if (rc != GB_OK)
            return rc;
        sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
        step = sqlite3_step(q);
    }
    if (step == SQLITE_ROW) {
        f->code = sqlite3_column_int(q, 3);
        rc = gb_store__copy_col(q, 0, f->id, sizeof f->id) &&
                     gb_store__copy_col(q, 1, f->kernel, sizeof f->kernel) &&
                     gb_store__copy_col(q, 2, f->params, sizeof f->params) &&
                     gb_store__copy_col(q, 4, f->reason, sizeof f->reason) &&
                     gb_store__copy_col(q, 5, f->timestamp, sizeof f->timestamp)
                 ? GB_OK
                 : gb_store__failf(st, GB_ECORRUPT,
                                   "store %s: the tuning failure %s holds a value gemmbench did "
                                   "not write; " GB_STORE__RECOVER,
                                   st->path, id, st->path);
    } else if (step == SQLITE_DONE) {
        rc = gb_store__failf(st, GB_ENOPOINT, "no tuning failure recorded for %s", id);
    } else {
        rc = gb_store__fail_db(st, "reading a tuning failure");
    }
    sqlite3_finalize(q);
    return rc;
}

int gb_store_failure_get(gb_store_t *st, const char *id, gb_tune_failure_t *f)
{
    gb_store__lock(st);
    const int rc = failure_get_locked(st, id, f);
    gb_store__unlock(st);
    return rc;
}
