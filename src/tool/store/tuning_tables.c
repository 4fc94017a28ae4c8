/* tuning_tables.c: the four tuning tables (docs/tuning.md) and the values as they keep them,
 * below every file that reads or writes them (tuning.c, tune_runs.c, inflight.c). The tables are
 * made together by the first write, so a store of schema version 2 gains them without a
 * migration; a reader of a store without them sees nothing and writes nothing, so that read-only
 * commands stay so. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/core/core.h"
#include "tuning_int.h"

/* ---- the tables ------------------------------------------------------------------------------ */

static const char *const tables_of[] = {"tuned", "tune_failures", "tune_runs", "tune_evals"};

/* Table tuned: an entry per key, the objective in it (what a tuning minimised: a class may hold
 * an entry of each), and the energy per GEMM where measured (NULL: not). */
#define TUNED_DDL                                                                                  \
    "tuned(device TEXT NOT NULL, platform TEXT NOT NULL, "                                         \
    "driver TEXT NOT NULL, precision TEXT NOT NULL, layout TEXT NOT NULL, "                        \
    "shape_class TEXT NOT NULL, vendor TEXT NOT NULL, type TEXT NOT NULL, m INTEGER NOT NULL, "    \
    "n INTEGER NOT NULL, k INTEGER NOT NULL, kernel TEXT NOT NULL, params TEXT NOT NULL, "         \
    "gflops REAL NOT NULL, evidence TEXT NOT NULL, tuned_at TEXT NOT NULL, "                       \
    "family TEXT NOT NULL DEFAULT '', objective TEXT NOT NULL DEFAULT 'time', joules REAL, "       \
    "PRIMARY KEY(device, platform, driver, precision, layout, shape_class, objective))"

/* A table tuned made before entries kept their objective: made anew with the objective in its
 * key (SQLite cannot change a primary key in place), every entry kept as a time entry. */
static const char objective_ddl[] =
    "SAVEPOINT tuned_objective;"
    "ALTER TABLE tuned RENAME TO tuned_before_objective;"
    "CREATE TABLE " TUNED_DDL ";"
    "INSERT INTO tuned(device, platform, driver, precision, layout, shape_class, vendor, type, m, "
    "n, k, kernel, params, gflops, evidence, tuned_at, family) SELECT device, platform, driver, "
    "precision, layout, shape_class, vendor, type, m, n, k, kernel, params, gflops, evidence, "
    "tuned_at, family FROM tuned_before_objective;"
    "DROP TABLE tuned_before_objective;"
    "RELEASE tuned_objective;";

/* One savepoint: all four tables or none, inside a caller's transaction or on its own. */
static const char ddl[] =
    "SAVEPOINT tuning_tables;"
    "CREATE TABLE IF NOT EXISTS " TUNED_DDL ";"
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

/* How many of the four tables there are, and whether tuned has the columns family and
 * objective: GB_OK or an error. One statement: a tuning write asks it each time. */
static int tables_present(gb_store_t *st, int *tables, int *family, int *objective)
{
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st,
                               "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                               "AND name IN ('tuned', 'tune_failures', 'tune_runs', "
                               "'tune_evals')), (SELECT count(*) FROM pragma_table_info('tuned') "
                               "WHERE name = 'family'), (SELECT count(*) FROM "
                               "pragma_table_info('tuned') WHERE name = 'objective')",
                               &q);
    if (rc != GB_OK)
        return rc;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *tables = sqlite3_column_int(q, 0);
        *family = sqlite3_column_int(q, 1);
        *objective = sqlite3_column_int(q, 2);
    } else {
        rc = gb_store__fail_db(st, "reading the schema");
    }
    sqlite3_finalize(q);
    return rc;
}

int gb_store__tuning_tables(gb_store_t *st)
{
    int tables = 0, family = 0, objective = 0;
    int rc = tables_present(st, &tables, &family, &objective);
    if (rc != GB_OK)
        return rc;
    if (tables < (int)(sizeof tables_of / sizeof tables_of[0])) {
        if ((rc = gb_store__exec(st, ddl)) != GB_OK) {
            sqlite3_exec(st->db, "ROLLBACK TO tuning_tables; RELEASE tuning_tables", NULL, NULL,
                         NULL);
            return rc;
        }
        if ((rc = tables_present(st, &tables, &family, &objective)) != GB_OK)
            return rc;
    }
    /* Tables made before entries kept their device's family gain the column (empty: unknown)
     * at their first write; so, then, does the key its objective. */
    if (!family && (rc = gb_store__exec(st, "ALTER TABLE tuned ADD COLUMN family TEXT NOT NULL "
                                            "DEFAULT ''")) != GB_OK)
        return rc;
    if (!objective && (rc = gb_store__exec(st, objective_ddl)) != GB_OK)
        sqlite3_exec(st->db, "ROLLBACK TO tuned_objective; RELEASE tuned_objective", NULL, NULL,
                     NULL);
    return rc;
}

static int tuning_counts_locked(gb_store_t *st, gb_tuning_counts_t *c)
{
    memset(c, 0, sizeof *c);
    size_t *at[] = {&c->tuned, &c->failures, &c->runs, &c->evals};
    for (size_t i = 0; i < sizeof tables_of / sizeof tables_of[0]; i++) {
        const int has = gb_store__has_table(st, tables_of[i]);
        if (has < 0)
            return has;
        if (!has)
            continue;
        c->present = 1;
        char sql[64];
        int64_t count;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", tables_of[i]);
        const int rc = gb_store__query_int(st, sql, "counting the tuning data", &count);
        if (rc != GB_OK)
            return rc;
        *at[i] = (size_t)count;
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

int gb_store__col_text(sqlite3_stmt *q, int i, const char *name, char *dst, size_t size,
                       int optional, char *why, size_t len)
{
    const int type = sqlite3_column_type(q, i);
    dst[0] = '\0';
    if (type == SQLITE_NULL && optional)
        return 1;
    if (type != SQLITE_TEXT) {
        snprintf(why, len, "column %s: %s, not text", name,
                 type == SQLITE_NULL      ? "NULL"
                 : type == SQLITE_INTEGER ? "an integer"
                 : type == SQLITE_FLOAT   ? "a real number"
                                          : "a blob");
        return 0;
    }
    const char *t = gb_store__col_str(q, i);
    const size_t bytes = (size_t)sqlite3_column_bytes(q, i);
    char shown[80];
    if (strlen(t) != bytes) {
        snprintf(why, len, "column %s: '%s' holds a NUL byte", name,
                 gb__printable(t, shown, sizeof shown));
        return 0;
    }
    if (bytes >= size) {
        snprintf(why, len, "column %s: '%s' (%zu bytes) is longer than gemmbench writes (%zu)",
                 name, gb__printable(t, shown, sizeof shown), bytes, size - 1);
        return 0;
    }
    memcpy(dst, t, bytes + 1);
    return 1;
}

int gb_store__col_whole(sqlite3_stmt *q, int i, const char *name, long long lo, long long hi,
                        long long *out, char *why, size_t len)
{
    const int type = sqlite3_column_type(q, i);
    if (type == SQLITE_INTEGER) {
        const sqlite3_int64 v = sqlite3_column_int64(q, i);
        if (v >= lo && v <= hi) {
            *out = (long long)v;
            return 1;
        }
    }
    char shown[80];
    if (type == SQLITE_FLOAT)
        snprintf(shown, sizeof shown, "%.17g", sqlite3_column_double(q, i));
    else
        gb__printable(type == SQLITE_NULL ? "NULL" : gb_store__col_str(q, i), shown, sizeof shown);
    snprintf(why, len, "column %s: %s is not a whole number from %lld to %lld", name, shown, lo,
             hi);
    return 0;
}

/* The damaged rows warned of in one walk, before the rest are only counted. */
#define DAMAGE_WARNED 3

int gb_store__damaged(gb_store__damage_walk_t *w, const gb_tuning_damage_t *d)
{
    w->n++;
    if (w->bad)
        return w->bad(d, w->user);
    if (w->n <= DAMAGE_WARNED)
        gb__warn("store %s: %s is damaged (%s) and passed over; %s'gemmbench store check "
                 "--store %s' names each damaged row",
                 w->st->path, d->what, d->why,
                 strcmp(d->table, "tuned") ? ""
                 : d->key_whole ? "tuning its class again or 'gemmbench tuned import' of an entry "
                                  "of its key replaces it; "
                                : "its key is damaged too, so that no entry replaces it (a store "
                                  "made anew by 'gemmbench tuned export' and 'tuned import' "
                                  "leaves it behind); ",
                 w->st->path);
    return GB_OK;
}

void gb_store__damage_end(gb_store__damage_walk_t *w)
{
    if (!w->bad && w->n > DAMAGE_WARNED)
        gb__warn("store %s: %zu more damaged rows of its tuning tables passed over; 'gemmbench "
                 "store check --store %s' names them",
                 w->st->path, w->n - DAMAGE_WARNED, w->st->path);
}
