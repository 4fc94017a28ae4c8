/* tuning.c: what `gemmbench tune` keeps beside the points (tuning.h): the tuning database (table
 * tuned) and the candidates that cannot win (tune_failures); the tables themselves and the values
 * as they keep them are in tuning_tables.c, tuning runs and their evaluations in tune_runs.c, the
 * check of them all in tuning_check.c. Each public function runs its _locked twin under the
 * connection's lock (store_int.h). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "tuning_int.h"

/* What tuned_table says of the columns added after the tables were first made. */
enum { HAS_TABLE = 1, HAS_FAMILY = 2, HAS_OBJECTIVE = 4 };

/* Whether there is table tuned, and with which of the columns family and objective: 0 no
 * table, else HAS_TABLE with HAS_FAMILY and HAS_OBJECTIVE where it has them; or an error code.
 * One statement: each read of an entry asks it. */
static int tuned_table(gb_store_t *st)
{
    sqlite3_stmt *q;
    int rc = gb_store__prepare(st,
                               "SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                               "AND name = 'tuned'), (SELECT count(*) FROM "
                               "pragma_table_info('tuned') WHERE name = 'family'), (SELECT "
                               "count(*) FROM pragma_table_info('tuned') WHERE name = "
                               "'objective')",
                               &q);
    if (rc != GB_OK)
        return rc;
    if (sqlite3_step(q) == SQLITE_ROW)
        rc = sqlite3_column_int(q, 0) ? HAS_TABLE | (sqlite3_column_int(q, 1) ? HAS_FAMILY : 0) |
                                            (sqlite3_column_int(q, 2) ? HAS_OBJECTIVE : 0)
                                      : 0;
    else
        rc = gb_store__fail_db(st, "reading the schema");
    sqlite3_finalize(q);
    return rc;
}

/* ---- the tuning database -------------------------------------------------------------------- */

#define TUNED_COLS                                                                                 \
    "device, platform, driver, precision, layout, shape_class, vendor, type, m, n, k, kernel, "    \
    "params, gflops, evidence, tuned_at"
/* What reads TUNED_COLS then the family, the objective and the energy: the columns, or what an
 * entry made before them holds ('', time, not measured). */
#define LATER_COLS(has)                                                                            \
    ((has)&HAS_OBJECTIVE ? ", family, objective, joules"                                           \
     : (has)&HAS_FAMILY  ? ", family, 'time' AS objective, NULL AS joules"                         \
                         : ", '' AS family, 'time' AS objective, NULL AS joules")
/* The key's objective in a WHERE clause: the column, or what every entry of a table made
 * before it has. */
#define OBJECTIVE_KEY(has) ((has)&HAS_OBJECTIVE ? "objective" : "'time'")

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
                                ", family, objective, joules) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, "
                                "?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    sqlite3_bind_text(q, 18, gb_tuned_objective(e), -1, SQLITE_STATIC);
    if (e->joules > 0)
        sqlite3_bind_double(q, 19, e->joules);
    else
        sqlite3_bind_null(q, 19);
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

/* Whether s is a shape class's name, "KIND-SIZE" (gb_shape_class), whatever its shape. */
static int class_name_ok(const char *s)
{
    static const char *const kinds[] = {"small", "large-k", "low-k", "tall", "wide", "square"};
    const char *dash = strrchr(s, '-');
    if (!dash || !dash[1] || strspn(dash + 1, "0123456789") != strlen(dash + 1))
        return 0;
    const unsigned long long size = strtoull(dash + 1, NULL, 10);
    int kind = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !kind; i++)
        kind = strlen(kinds[i]) == (size_t)(dash - s) && !strncmp(s, kinds[i], strlen(kinds[i]));
    return kind && size && !(size & (size - 1)) && dash[1] != '0';
}

/* Whether the key of the row at q (a SELECT TUNED_COLS) reads as one gemmbench writes, whatever
 * its other columns hold: then a put of that key replaces the row. */
static int key_whole(sqlite3_stmt *q)
{
    gb_tuned_entry_t k;
    gb_precision_t p;
    char prec[8], why[256];
    return gb_store__col_text(q, 0, "device", k.device, sizeof k.device, 0, why, sizeof why) &&
           gb_store__col_text(q, 1, "platform", k.platform, sizeof k.platform, 0, why,
                              sizeof why) &&
           gb_store__col_text(q, 2, "driver", k.driver, sizeof k.driver, 0, why, sizeof why) &&
           gb_store__col_text(q, 3, "precision", prec, sizeof prec, 0, why, sizeof why) &&
           gb_store__col_text(q, 4, "layout", k.layout, sizeof k.layout, 0, why, sizeof why) &&
           gb_store__col_text(q, 5, "shape_class", k.shape_class, sizeof k.shape_class, 0, why,
                              sizeof why) &&
           k.device[0] && gb__text_ok(k.device) && gb__text_ok(k.platform) &&
           gb__text_ok(k.driver) && gb_precision_parse(prec, &p) == GB_OK &&
           gb_select__layout_ok(k.layout) && class_name_ok(k.shape_class);
}

/* The row at q of a SELECT TUNED_COLS, family, objective, joules, rowid into e (source
 * "store"): 1, or 0 with d naming the row and what is wrong with it. */
static int row_entry(sqlite3_stmt *q, gb_tuned_entry_t *e, gb_tuning_damage_t *d)
{
    char prec[8], params[4096], evidence[256], shown[4][80], why[512] = "";
    memset(e, 0, sizeof *e);
    d->table = "tuned";
    d->row = (long long)sqlite3_column_int64(q, 19);
    d->key_whole = 0;
    const int at[4] = {0, 3, 4, 5}; /* the key as stored, for the message */
    for (int i = 0; i < 4; i++)
        gb__printable(gb_store__col_str(q, at[i]), shown[i], sizeof shown[i]);
    snprintf(d->what, sizeof d->what, "tuned entry '%s' (%s, %s, %s)", shown[0], shown[1], shown[2],
             shown[3]);
    long long m = 0, n = 0, k = 0;
    const long long most = 1ll << 30;
    int ok =
        gb_store__col_text(q, 0, "device", e->device, sizeof e->device, 0, why, sizeof why) &&
        gb_store__col_text(q, 1, "platform", e->platform, sizeof e->platform, 0, why, sizeof why) &&
        gb_store__col_text(q, 2, "driver", e->driver, sizeof e->driver, 0, why, sizeof why) &&
        gb_store__col_text(q, 3, "precision", prec, sizeof prec, 0, why, sizeof why) &&
        gb_store__col_text(q, 4, "layout", e->layout, sizeof e->layout, 0, why, sizeof why) &&
        gb_store__col_text(q, 5, "shape_class", e->shape_class, sizeof e->shape_class, 0, why,
                           sizeof why) &&
        gb_store__col_text(q, 6, "vendor", e->vendor, sizeof e->vendor, 0, why, sizeof why) &&
        gb_store__col_text(q, 7, "type", e->type, sizeof e->type, 0, why, sizeof why) &&
        gb_store__col_whole(q, 8, "m", 1, most, &m, why, sizeof why) &&
        gb_store__col_whole(q, 9, "n", 1, most, &n, why, sizeof why) &&
        gb_store__col_whole(q, 10, "k", 1, most, &k, why, sizeof why) &&
        gb_store__col_text(q, 11, "kernel", e->kernel, sizeof e->kernel, 0, why, sizeof why) &&
        gb_store__col_text(q, 12, "params", params, sizeof params, 0, why, sizeof why) &&
        gb_store__col_text(q, 14, "evidence", evidence, sizeof evidence, 0, why, sizeof why) &&
        gb_store__col_text(q, 15, "tuned_at", e->tuned_at, sizeof e->tuned_at, 0, why,
                           sizeof why) &&
        gb_store__col_text(q, 16, "family", e->family, sizeof e->family, 0, why, sizeof why) &&
        gb_store__col_text(q, 17, "objective", e->objective, sizeof e->objective, 0, why,
                           sizeof why);
    e->m = (size_t)m;
    e->n = (size_t)n;
    e->k = (size_t)k;
    if (ok && gb_precision_parse(prec, &e->precision) != GB_OK) {
        snprintf(why, sizeof why, "column precision: '%s' is not " GB_PREC_NAMES, shown[1]);
        ok = 0;
    }
    const int gtype = sqlite3_column_type(q, 13);
    if (ok && gtype != SQLITE_FLOAT && gtype != SQLITE_INTEGER) {
        snprintf(why, sizeof why, "column gflops: '%s' is not a number",
                 gb__printable(gb_store__col_str(q, 13), shown[0], sizeof shown[0]));
        ok = 0;
    }
    e->gflops = sqlite3_column_double(q, 13);
    const int jtype = sqlite3_column_type(q, 18);
    if (ok && jtype != SQLITE_NULL && jtype != SQLITE_FLOAT && jtype != SQLITE_INTEGER) {
        snprintf(why, sizeof why, "column joules: '%s' is not a number",
                 gb__printable(gb_store__col_str(q, 18), shown[0], sizeof shown[0]));
        ok = 0;
    }
    e->joules = jtype == SQLITE_NULL ? 0 : sqlite3_column_double(q, 18);
    if (ok && gb_store__params_parse(params, &e->params) != GB_OK) {
        snprintf(why, sizeof why,
                 "column params: '%s' is not NAME=V NAME=V (whole numbers, each name once, at "
                 "most %d)",
                 gb__printable(params, shown[0], sizeof shown[0]), GB_MAX_PARAMS);
        ok = 0;
    }
    for (char *save = NULL, *t = ok ? strtok_r(evidence, ",", &save) : NULL; ok && t;
         t = strtok_r(NULL, ",", &save)) {
        if (e->nevidence < GB_TUNED_EVIDENCE && gb_select__is_id(t)) {
            snprintf(e->evidence[e->nevidence++], GB_POINT_ID_LEN + 1, "%s", t);
            continue;
        }
        snprintf(why, sizeof why, "column evidence: '%s' is not at most %d point ids",
                 gb__printable(gb_store__col_str(q, 14), shown[0], sizeof shown[0]),
                 GB_TUNED_EVIDENCE);
        ok = 0;
    }
    char fault[256];
    const char *bad = ok ? gb_tuned_entry_fault(e, fault, sizeof fault) : NULL;
    if (bad) {
        snprintf(why, sizeof why, "%s", bad);
        ok = 0;
    }
    snprintf(e->source, sizeof e->source, "store");
    if (!ok) {
        snprintf(d->why, sizeof d->why, "%s", why);
        d->key_whole = key_whole(q);
    }
    return ok;
}

static int tuned_get_locked(gb_store_t *st, const gb_tuned_entry_t *key, gb_tuned_entry_t *out)
{
    sqlite3_stmt *q = NULL;
    char sql[512];
    int rc = tuned_table(st);
    if (rc > 0) {
        snprintf(sql, sizeof sql,
                 "SELECT " TUNED_COLS "%s, rowid FROM tuned WHERE device = ? AND platform = ? "
                 "AND driver = ? AND precision = ? AND layout = ? AND shape_class = ? AND %s = ?",
                 LATER_COLS(rc), OBJECTIVE_KEY(rc));
        rc = gb_store__prepare(st, sql, &q);
    } else if (rc == 0)
        rc = SQLITE_DONE; /* no table: no entry, and nothing written */
    if (rc < 0)
        return rc;
    int step = SQLITE_DONE;
    if (q) {
        const char *text[] = {key->device,
                              key->platform,
                              key->driver,
                              gb_precision_name(key->precision),
                              key->layout,
                              key->shape_class,
                              gb_tuned_objective(key)};
        for (int i = 0; i < 7; i++)
            sqlite3_bind_text(q, i + 1, text[i], -1, SQLITE_STATIC);
        step = sqlite3_step(q);
    }
    gb_tuning_damage_t d;
    if (step == SQLITE_ROW && !row_entry(q, out, &d))
        rc = gb_store__failf(st, GB_ECORRUPT,
                             "store %s: %s holds a value gemmbench did not write (%s); a new "
                             "entry of its key replaces it, or " GB_STORE__RECOVER,
                             st->path, d.what, d.why, st->path, st->path);
    else if (step == SQLITE_ROW)
        rc = GB_OK;
    else if (step == SQLITE_DONE) {
        const int time = !strcmp(gb_tuned_objective(key), GB_OBJECTIVE_TIME);
        rc = gb_store__failf(st, GB_ENOPOINT, "no tuned entry for %s (%s, %s, %s%s%s) in store %s",
                             key->device, gb_precision_name(key->precision), key->layout,
                             key->shape_class, time ? "" : ", objective ",
                             time ? "" : key->objective, st->path);
    } else
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

/* Every row of table tuned in the order of the entries: each good one to fn, each damaged one
 * to w. */
static int tuned_walk(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user), void *user,
                      gb_store__damage_walk_t *w, size_t *rows)
{
    sqlite3_stmt *q;
    char sql[512];
    int rc = tuned_table(st);
    if (rc <= 0)
        return rc;
    snprintf(sql, sizeof sql,
             "SELECT " TUNED_COLS "%s, rowid FROM tuned ORDER BY device, precision, layout, "
             "shape_class, platform, driver%s",
             LATER_COLS(rc), rc & HAS_OBJECTIVE ? ", objective" : "");
    rc = gb_store__prepare(st, sql, &q);
    if (rc != GB_OK)
        return rc;
    int step = SQLITE_DONE;
    gb_tuned_entry_t e;
    gb_tuning_damage_t d;
    while (rc == GB_OK && (step = sqlite3_step(q)) == SQLITE_ROW) {
        ++*rows;
        if (row_entry(q, &e, &d))
            rc = fn ? fn(&e, user) : GB_OK;
        else
            rc = gb_store__damaged(w, &d);
    }
    if (rc == GB_OK && step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the tuned entries");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_tuned_scan(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                        int (*bad)(const gb_tuning_damage_t *d, void *user), void *user)
{
    gb_store__damage_walk_t w = {st, bad, user, 0};
    size_t rows = 0;
    gb_store__lock(st);
    const int rc = tuned_walk(st, fn, user, &w, &rows);
    gb_store__damage_end(&w);
    gb_store__unlock(st);
    return rc;
}

int gb_store_tuned_foreach(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                           void *user)
{
    return gb_store_tuned_scan(st, fn, NULL, user);
}

int gb_store__tuned_check(gb_store_t *st, gb_store__damage_walk_t *w, size_t *checked)
{
    return tuned_walk(st, NULL, NULL, w, checked);
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
                                   st->path, id, st->path, st->path);
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
