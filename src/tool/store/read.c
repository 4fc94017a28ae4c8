/* read.c: reading points back from the results store (one, by id or prefix, or all of them in one
 * consistent snapshot), and checking the whole database. Each public function runs its _locked twin
 * under the connection's lock (store_int.h). */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

static char *select_sql(const char *where)
{
    size_t cap = 8192, len = 0;
    char *sql = malloc(cap);
    if (!sql)
        return NULL;
    len += (size_t)snprintf(sql, cap, "SELECT id, definition");
    for (size_t i = 0; i < gb_store__ncols && len < cap; i++)
        len += (size_t)snprintf(sql + len, cap - len, ", %s", gb_store__cols[i].name);
    if (len < cap)
        len += (size_t)snprintf(sql + len, cap - len, " FROM points %s", where);
    if (len >= cap) {
        free(sql);
        return NULL;
    }
    return sql;
}

/* Reads the current row of q (from select_sql) into pt, then its statistics and samples. */
static int read_point(gb_store_t *st, sqlite3_stmt *q, gb_point_t *pt, int with_samples)
{
    char why[512];
    gb_point_free(pt);
    const unsigned char *id = sqlite3_column_text(q, 0);
    snprintf(pt->id, sizeof pt->id, "%s", id ? (const char *)id : "");
    for (size_t i = 0; i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        int at = (int)i + 2, rc = GB_OK;
        switch (gb_store__class(c)) {
        case GB_CLASS_INT:
            rc = gb_store__set_int(pt, c, sqlite3_column_int64(q, at), why, sizeof why);
            break;
        case GB_CLASS_DBL:
            gb_store__set_dbl(pt, c,
                              sqlite3_column_type(q, at) == SQLITE_NULL
                                  ? (double)NAN
                                  : sqlite3_column_double(q, at));
            break;
        default: {
            const unsigned char *t = sqlite3_column_text(q, at);
            rc = gb_store__set_text(pt, c, t ? (const char *)t : "", why, sizeof why);
            break;
        }
        }
        if (rc != GB_OK)
            return gb_store__failf(st, rc, "store %s: point %s: %s", st->path, pt->id, why);
    }
    pt->result.timing = pt->timing;
    sqlite3_stmt *s = NULL, *x = NULL;
    int rc =
        gb_store__prepare(st,
                          "SELECT phase, n, min, max, median, mean, std, ci95_lo, ci95_hi FROM "
                          "phase_stats WHERE point_id = ?",
                          &s);
    if (rc == GB_OK && with_samples)
        rc = gb_store__prepare(
            st, "SELECT i, ms FROM samples WHERE point_id = ? AND phase = ? ORDER BY i", &x);
    if (rc != GB_OK)
        goto done;
    sqlite3_bind_text(s, 1, pt->id, -1, SQLITE_TRANSIENT);
    int step;
    while (rc == GB_OK && (step = sqlite3_step(s)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        int ph = name ? gb_store__phase_parse(name) : -1;
        if (ph < 0) {
            rc = gb_store__failf(st, GB_ECORRUPT, "store %s: point %s has an unknown phase '%s'",
                                 st->path, pt->id, name ? name : "");
            break;
        }
        gb_stats_t *stt = &pt->result.time_ms[ph];
        sqlite3_int64 n = sqlite3_column_int64(s, 1);
        if (n < 0 || n > 100000000) {
            rc = gb_store__failf(st, GB_ECORRUPT, "store %s: point %s has a bad sample count",
                                 st->path, pt->id);
            break;
        }
        stt->n = (size_t)n;
        double *v[7] = {&stt->min, &stt->max,     &stt->median, &stt->mean,
                        &stt->std, &stt->ci95_lo, &stt->ci95_hi};
        for (int j = 0; j < 7; j++)
            *v[j] = sqlite3_column_type(s, 2 + j) == SQLITE_NULL ? (double)NAN
                                                                 : sqlite3_column_double(s, 2 + j);
        if (!with_samples || n == 0)
            continue;
        if (!(pt->result.samples_ms[ph] = calloc((size_t)n, sizeof(double)))) {
            rc = gb_store__failf(st, GB_ENOMEM, "out of memory reading samples");
            break;
        }
        sqlite3_reset(x);
        sqlite3_bind_text(x, 1, pt->id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(x, 2, name, -1, SQLITE_TRANSIENT);
        size_t got = 0;
        while (sqlite3_step(x) == SQLITE_ROW) {
            sqlite3_int64 i = sqlite3_column_int64(x, 0);
            if (i < 0 || i >= n) {
                rc = gb_store__failf(st, GB_ECORRUPT, "store %s: point %s has a stray sample",
                                     st->path, pt->id);
                break;
            }
            pt->result.samples_ms[ph][i] = sqlite3_column_type(x, 1) == SQLITE_NULL
                                               ? (double)NAN
                                               : sqlite3_column_double(x, 1);
            got++;
        }
        if (rc == GB_OK && got != (size_t)n)
            rc = gb_store__failf(st, GB_ECORRUPT,
                                 "store %s: point %s phase %s has %zu samples, not %lld", st->path,
                                 pt->id, name, got, (long long)n);
    }
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading phase statistics");
done:
    sqlite3_finalize(s);
    sqlite3_finalize(x);
    return rc;
}

static int get_locked(gb_store_t *st, const char *id, gb_point_t *pt)
{
    char *sql = select_sql("WHERE id = ?");
    sqlite3_stmt *q = NULL;
    if (!sql)
        return gb_store__failf(st, GB_ENOMEM, "out of memory");
    int rc = gb_store__prepare(st, sql, &q);
    free(sql);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(q);
    if (s == SQLITE_ROW)
        rc = read_point(st, q, pt, 1);
    else if (s == SQLITE_DONE)
        rc = gb_store__failf(st, GB_ENOPOINT,
                             "no point %s in store %s; 'gemmbench store list' shows them", id,
                             st->path);
    else
        rc = gb_store__fail_db(st, "reading a point");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_get(gb_store_t *st, const char *id, gb_point_t *pt)
{
    gb_store__lock(st);
    const int rc = get_locked(st, id, pt);
    gb_store__unlock(st);
    return rc;
}

static int resolve_id_locked(gb_store_t *st, const char *prefix, char id_out[GB_POINT_ID_LEN + 1])
{
    size_t len = strlen(prefix);
    if (len < 4 || len > GB_POINT_ID_LEN || strspn(prefix, "0123456789abcdef") != len)
        return gb_store__failf(st, GB_EBADARG,
                               "'%s' is not a point id: give its %d hex digits, or a unique "
                               "prefix of at least 4",
                               prefix, GB_POINT_ID_LEN);
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st, "SELECT id FROM points WHERE substr(id, 1, ?) = ? LIMIT 2", &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_int(q, 1, (int)len);
    sqlite3_bind_text(q, 2, prefix, -1, SQLITE_TRANSIENT);
    int found = 0;
    while (sqlite3_step(q) == SQLITE_ROW && found < 2) {
        if (!found)
            snprintf(id_out, GB_POINT_ID_LEN + 1, "%s", (const char *)sqlite3_column_text(q, 0));
        found++;
    }
    sqlite3_finalize(q);
    if (found == 0)
        return gb_store__failf(st, GB_ENOPOINT,
                               "no point %s in store %s; 'gemmbench store list' shows them", prefix,
                               st->path);
    if (found > 1)
        return gb_store__failf(st, GB_EBADARG,
                               "point id prefix '%s' is ambiguous in store %s; give more "
                               "digits",
                               prefix, st->path);
    return GB_OK;
}

int gb_store_resolve_id(gb_store_t *st, const char *prefix, char id_out[GB_POINT_ID_LEN + 1])
{
    gb_store__lock(st);
    const int rc = resolve_id_locked(st, prefix, id_out);
    gb_store__unlock(st);
    return rc;
}

int gb_store_count(gb_store_t *st, size_t *n)
{
    int64_t count;
    gb_store__lock(st);
    const int rc =
        gb_store__query_int(st, "SELECT count(*) FROM points", "counting points", &count);
    gb_store__unlock(st);
    if (rc == GB_OK)
        *n = (size_t)count;
    return rc;
}

static int foreach_locked(gb_store_t *st, int with_samples,
                          int (*fn)(const gb_point_t *pt, void *user), void *user)
{
    char *sql = select_sql("ORDER BY timestamp, rowid");
    sqlite3_stmt *q = NULL;
    gb_point_t pt;
    gb_point_init(&pt);
    if (!sql)
        return gb_store__failf(st, GB_ENOMEM, "out of memory");
    /* One read transaction: a consistent snapshot even while another process writes. */
    int rc = gb_store__exec(st, "BEGIN");
    if (rc == GB_OK)
        rc = gb_store__prepare(st, sql, &q);
    free(sql);
    int s = SQLITE_DONE;
    while (rc == GB_OK && (s = sqlite3_step(q)) == SQLITE_ROW)
        if ((rc = read_point(st, q, &pt, with_samples)) == GB_OK)
            rc = fn(&pt, user);
    if (rc == GB_OK && s != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading points");
    gb_point_free(&pt);
    sqlite3_finalize(q);
    sqlite3_exec(st->db, "COMMIT", NULL, NULL, NULL);
    return rc;
}

int gb_store_foreach(gb_store_t *st, int with_samples, int (*fn)(const gb_point_t *pt, void *user),
                     void *user)
{
    gb_store__lock(st);
    const int rc = foreach_locked(st, with_samples, fn, user);
    gb_store__unlock(st);
    return rc;
}

/* ---- checking ------------------------------------------------------------------------------- */

typedef struct check_state {
    gb_store_t *st;
    size_t checked, bad;
    char first[1024];
} check_state_t;

static void check_note(check_state_t *cs, const char *fmt, const char *id, const char *why)
{
    cs->bad++;
    if (!cs->first[0])
        snprintf(cs->first, sizeof cs->first, fmt, id, why);
}

static int check_one(const gb_point_t *pt, void *user)
{
    check_state_t *cs = user;
    char why[512], *def = NULL;
    cs->checked++;
    /* gb_point_check recomputes the id from the columns; the stored definition must be the
     * same text. */
    if (gb_point_check(pt, why, sizeof why) != GB_OK) {
        check_note(cs, "point %s: %s", pt->id, why);
        return GB_OK;
    }
    if (gb_point_definition(pt, &def) != GB_OK)
        return gb_store__failf(cs->st, GB_ENOMEM, "out of memory");
    sqlite3_stmt *q;
    int rc = gb_store__prepare(cs->st, "SELECT definition FROM points WHERE id = ?", &q);
    if (rc == GB_OK) {
        sqlite3_bind_text(q, 1, pt->id, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(q) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(q, 0), def))
            check_note(cs, "point %s: %s", pt->id,
                       "its stored definition differs from its columns");
        sqlite3_finalize(q);
    }
    free(def);
    return rc;
}

static int check_locked(gb_store_t *st, size_t *checked, size_t *bad)
{
    check_state_t cs;
    memset(&cs, 0, sizeof cs);
    cs.st = st;
    *checked = *bad = 0;
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st, "PRAGMA integrity_check", &q);
    if (rc != GB_OK)
        return rc;
    if (sqlite3_step(q) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(q, 0), "ok"))
        check_note(&cs, "store: %s%s", "SQLite integrity check failed", "");
    sqlite3_finalize(q);
    if ((rc = gb_store__prepare(st, "PRAGMA foreign_key_check", &q)) != GB_OK)
        return rc;
    if (sqlite3_step(q) == SQLITE_ROW)
        check_note(&cs, "store: %s%s",
                   strcmp((const char *)sqlite3_column_text(q, 0), "tune_evals")
                       ? "statistics or samples without their point"
                       : "evaluations without their tuning run",
                   "");
    sqlite3_finalize(q);
    /* Every point has every phase; counts match; reading each point checks its samples. */
    if ((rc = gb_store__prepare(
             st,
             "SELECT p.id FROM points p WHERE (SELECT count(*) FROM phase_stats s "
             "WHERE s.point_id = p.id) != ? OR EXISTS (SELECT 1 FROM phase_stats s "
             "WHERE s.point_id = p.id AND CASE WHEN p.min_time > 0 OR p.max_rel_ci > 0 THEN s.n "
             "< p.iterations ELSE s.n != p.iterations END) OR (SELECT count(DISTINCT n) FROM "
             "phase_stats s WHERE s.point_id = p.id) > 1",
             &q)) != GB_OK)
        return rc;
    sqlite3_bind_int(q, 1, GB_PHASE_COUNT);
    while (sqlite3_step(q) == SQLITE_ROW)
        check_note(&cs, "point %s: %s", (const char *)sqlite3_column_text(q, 0),
                   "phases missing or not one sample count per timed call");
    sqlite3_finalize(q);
    rc = gb_store_foreach(st, 1, check_one, &cs);
    if (rc != GB_OK) {
        /* A point that cannot be read back is itself a fault worth reporting. */
        check_note(&cs, "%s%s", st->msg, "");
        rc = GB_OK;
    }
    *checked = cs.checked;
    *bad = cs.bad;
    if (cs.bad)
        snprintf(st->msg, sizeof st->msg, "%s", cs.first);
    else
        st->msg[0] = '\0';
    return rc;
}

int gb_store_check(gb_store_t *st, size_t *checked, size_t *bad)
{
    gb_store__lock(st);
    const int rc = check_locked(st, checked, bad);
    gb_store__unlock(st);
    return rc;
}
