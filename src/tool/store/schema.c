/* schema.c: the results store's schema: the points table made from the column table
 * (columns.c), the other tables, and the migration of a store of an older schema version in
 * place, in one write transaction. */
#include <assert.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "store_int.h"

static const char *sql_type(const gb_store__col_t *c)
{
    /* NULL: none (energy unavailable), or not recorded (a point stored before version 2). */
    if (c->kind == GB_COL_OPTSTR)
        return "TEXT";
    if (c->kind == GB_COL_OPTSIZE)
        return "INTEGER";
    switch (gb_store__class(c)) {
    case GB_CLASS_INT: return "INTEGER NOT NULL";
    case GB_CLASS_DBL: return "REAL"; /* NULL: not a number (or an unknown optional value) */
    default: return "TEXT NOT NULL";
    }
}

/* Builds "CREATE TABLE points(...)" from the column table. */
static char *points_ddl(void)
{
    size_t cap = 8192, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    len += (size_t)snprintf(s, cap,
                            "CREATE TABLE points(\n  id TEXT PRIMARY KEY NOT NULL,\n"
                            "  definition TEXT NOT NULL");
    for (size_t i = 0; i < gb_store__ncols && len < cap; i++)
        len += (size_t)snprintf(s + len, cap - len, ",\n  %s %s", gb_store__cols[i].name,
                                sql_type(&gb_store__cols[i]));
    if (len + 4 >= cap) {
        free(s);
        return NULL;
    }
    snprintf(s + len, cap - len, "\n)");
    return s;
}

/* The integer the one-row query sql gives, into *v; what names it in the error. */
/* Does table points have this column? 1 yes, 0 no, or an error. */
static int has_column(gb_store_t *st, const char *name)
{
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st, "SELECT 1 FROM pragma_table_info('points') WHERE name = ?", &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int s = sqlite3_step(q);
    rc = s == SQLITE_ROW ? 1 : s == SQLITE_DONE ? 0 : gb_store__fail_db(st, "reading the schema");
    sqlite3_finalize(q);
    return rc;
}

/* Adds the columns of later schema versions (flags: GB_COLF_V2 to _V7) that points lacks, at
 * its end, inside migrate()'s transaction. ADD COLUMN needs a column that may be NULL or has a
 * default: version 2's energy columns are NULL ("not recorded") in every point already there,
 * version 3's faithful verdict, version 4's stop, version 5's clocks and version 6's panels
 * NULL (not judged, not recorded, serial); version 3's host_mem is "pageable" and cold 0,
 * version 4's min_time and max_rel_ci 0, version 6's pipeline 0, version 7's imaginary
 * parts of alpha and beta and conjugations 0, as those points were measured. No id changes: energy, the verdict, the stop, the clocks and the panels are not in
 * a definition, and the others enter one only away from their defaults. */
static int add_columns(gb_store_t *st, unsigned flag)
{
    char sql[512];
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        if (!(c->flags & flag))
            continue;
        const int def = (c->flags & GB_COLF_DEF) != 0;
        assert(def || c->kind == GB_COL_OPTSTR || c->kind == GB_COL_OPTSIZE ||
               c->kind == GB_COL_OPTDBL);
        if ((rc = has_column(st, c->name)) == 1) {
            rc = GB_OK;
            continue;
        }
        if (rc != GB_OK)
            break;
        char dflt[64];
        snprintf(sql, sizeof sql, "ALTER TABLE points ADD COLUMN %s %s%s%s%s", c->name, sql_type(c),
                 def ? " DEFAULT '" : "", def ? gb_store__default_text(c, dflt, sizeof dflt) : "",
                 def ? "'" : "");
        rc = gb_store__exec(st, sql);
    }
    return rc;
}

/* Migrates a store of an older schema version v to this version, and says so in meta. The
 * columns of every later version are added in the table's order; those a version already has
 * are left as they are. */
static int migrate(gb_store_t *st, int v)
{
    const int rc = add_columns(st, GB_COLF_V2 | GB_COLF_LATER);
    if (rc != GB_OK)
        return rc;
    char sql[512];
    snprintf(sql, sizeof sql,
             "UPDATE meta SET value = '%d' WHERE key = 'schema_version';"
             "INSERT OR REPLACE INTO meta VALUES('migrated', 'from schema version %d to %d on ' "
             "|| strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now') || ' by gemmbench %s (%s)');"
             "PRAGMA user_version = %d;",
             GB_STORE_SCHEMA_VERSION, v, GB_STORE_SCHEMA_VERSION, gb_version(),
             gb_store_git_revision(), GB_STORE_SCHEMA_VERSION);
    return gb_store__exec(st, sql);
}

int gb_store__schema(gb_store_t *st)
{
    int64_t version = 0, tables = 0;
    int rc;
    if ((rc = gb_store__exec(st, "BEGIN IMMEDIATE")) != GB_OK)
        return rc;
    if ((rc = gb_store__query_int(st, "PRAGMA user_version", "reading the schema version",
                                  &version)) != GB_OK ||
        (rc = gb_store__query_int(st, "SELECT count(*) FROM sqlite_master WHERE type='table'",
                                  "reading the schema", &tables)) != GB_OK)
        goto done;
    const int v = (int)version; /* SQLite's user_version is 32 bits */
    if (v > GB_STORE_SCHEMA_VERSION) {
        rc = gb_store__failf(st, GB_ENOTSTORE,
                             "store %s has schema version %d, newer than this gemmbench (%s) "
                             "reads (%d); use a newer gemmbench",
                             st->path, v, gb_version(), GB_STORE_SCHEMA_VERSION);
        goto done;
    }
    if (v == GB_STORE_SCHEMA_VERSION)
        goto done;
    if (v >= 1) {
        rc = migrate(st, v);
        goto done;
    }
    if (v != 0 || tables != 0) {
        rc = gb_store__failf(st, GB_ENOTSTORE,
                             "%s is an SQLite database but not a gemmbench results store; give "
                             "another --store",
                             st->path);
        goto done;
    }
    char *ddl = points_ddl();
    if (!ddl) {
        rc = gb_store__failf(st, GB_ENOMEM, "out of memory creating the schema");
        goto done;
    }
    rc = gb_store__exec(st, ddl);
    free(ddl);
    if (rc != GB_OK)
        goto done;
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);"
             "CREATE TABLE phase_stats(point_id TEXT NOT NULL REFERENCES points(id) ON DELETE "
             "CASCADE, phase TEXT NOT NULL, n INTEGER NOT NULL, min REAL, max REAL, median REAL, "
             "mean REAL, std REAL, ci95_lo REAL, ci95_hi REAL, PRIMARY KEY(point_id, phase)) "
             "WITHOUT ROWID;"
             "CREATE TABLE samples(point_id TEXT NOT NULL REFERENCES points(id) ON DELETE "
             "CASCADE, phase TEXT NOT NULL, i INTEGER NOT NULL, ms REAL, PRIMARY KEY(point_id, "
             "phase, i)) WITHOUT ROWID;"
             "CREATE INDEX points_by_kernel ON points(kernel, precision, m, n, k);"
             "CREATE INDEX points_by_time ON points(timestamp);"
             "INSERT INTO meta VALUES('schema_version', '%d');"
             "INSERT INTO meta VALUES('created', strftime('%%Y-%%m-%%dT%%H:%%M:%%SZ', 'now'));"
             "INSERT INTO meta VALUES('created_by', 'gemmbench %s (%s)');"
             "PRAGMA user_version = %d;",
             GB_STORE_SCHEMA_VERSION, gb_version(), gb_store_git_revision(),
             GB_STORE_SCHEMA_VERSION);
    rc = gb_store__exec(st, sql);
done:
    if (rc == GB_OK)
        rc = gb_store__exec(st, "COMMIT");
    if (rc != GB_OK)
        sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}
