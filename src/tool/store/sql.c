/* sql.c: what every file of the store does with SQLite: statements run and prepared with their
 * failure on the handle, and the handle's message, which names the store and what SQLite said. */
#include <sqlite3.h>
#include <stdio.h>

#include "store_int.h"

/* An SQLite failure: the message names the store and what SQLite said. */
int gb_store__fail_db(gb_store_t *st, const char *what)
{
    int ext = sqlite3_extended_errcode(st->db);
    if ((ext & 0xff) == SQLITE_NOTADB)
        return gb_store__failf(st, GB_ENOTSTORE,
                               "%s is not an SQLite database; give another --store", st->path);
    if ((ext & 0xff) == SQLITE_CANTOPEN)
        return gb_store__failf(st, GB_EBADARG,
                               "cannot open store %s; check the path (its folder must exist "
                               "and be writable)",
                               st->path);
    if ((ext & 0xff) == SQLITE_BUSY)
        return gb_store__failf(st, GB_EIO, "store %s is locked by another process (%s); try again",
                               st->path, what);
    /* A damaged file is bad input, like a foreign one: exit 2, with the way to recover. */
    if ((ext & 0xff) == SQLITE_CORRUPT)
        return gb_store__failf(st, GB_ECORRUPT, "store %s is damaged (%s: %s); " GB_STORE__RECOVER,
                               st->path, what, sqlite3_errmsg(st->db), st->path, st->path);
    return gb_store__failf(st, GB_ESTORE, "store %s: %s: %s", st->path, what,
                           sqlite3_errmsg(st->db));
}

int gb_store__exec(gb_store_t *st, const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        int rc = gb_store__fail_db(st, err ? err : "exec");
        sqlite3_free(err);
        return rc;
    }
    return GB_OK;
}

int gb_store__prepare(gb_store_t *st, const char *sql, sqlite3_stmt **out)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, out, NULL) != SQLITE_OK)
        return gb_store__fail_db(st, "preparing a statement");
    return GB_OK;
}

int gb_store__step_int(gb_store_t *st, sqlite3_stmt *q, const char *what, int64_t *v)
{
    int rc = GB_OK;
    if (sqlite3_step(q) == SQLITE_ROW)
        *v = (int64_t)sqlite3_column_int64(q, 0);
    else
        rc = gb_store__fail_db(st, what);
    sqlite3_finalize(q);
    return rc;
}

int gb_store__query_int(gb_store_t *st, const char *sql, const char *what, int64_t *v)
{
    sqlite3_stmt *q;
    const int rc = gb_store__prepare(st, sql, &q);
    return rc == GB_OK ? gb_store__step_int(st, q, what, v) : rc;
}

int gb_store__fail(gb_store_t *st, int code, const char *msg)
{
    return gb_store__failf(st, code, "%s", msg);
}
