/* ceilings.c: measured device ceilings kept in the results store, one row per device, platform
 * version and driver (the newest measurement wins), so that runs can report efficiency against the
 * measured peak without measuring it again. Each public function runs its _locked twin under the
 * connection's lock (store_int.h). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "store_int.h"

/* The host-device copies' ceilings, per kind of host memory (after the first columns): to the
 * device and back, for each kind in gb_host_mem_t's order. */
#define NRATES (2 * GB_HOST_KINDS)
static const char *const transfer_cols[NRATES] = {"h2d_pageable_gbs", "d2h_pageable_gbs",
                                                  "h2d_pinned_gbs",   "d2h_pinned_gbs",
                                                  "h2d_mapped_gbs",   "d2h_mapped_gbs"};

static int ensure_table(gb_store_t *st)
{
    /* Added beside schema version 1 without changing it: older stores gain the table, and a
     * table from before the copies' ceilings gains their columns (NULL: not measured). */
    int rc =
        gb_store__exec(st, "CREATE TABLE IF NOT EXISTS ceilings(device TEXT NOT NULL, "
                           "platform_version TEXT NOT NULL, driver TEXT NOT NULL, peak_s REAL, "
                           "peak_d REAL, bandwidth_gbs REAL, method TEXT NOT NULL, "
                           "timestamp TEXT NOT NULL, h2d_pageable_gbs REAL, d2h_pageable_gbs REAL, "
                           "h2d_pinned_gbs REAL, d2h_pinned_gbs REAL, h2d_mapped_gbs REAL, "
                           "d2h_mapped_gbs REAL, PRIMARY KEY(device, platform_version, driver))");
    for (int i = 0; rc == GB_OK && i < NRATES; i++) {
        sqlite3_stmt *q;
        if ((rc = gb_store__prepare(
                 st, "SELECT 1 FROM pragma_table_info('ceilings') WHERE name = ?", &q)) != GB_OK)
            break;
        sqlite3_bind_text(q, 1, transfer_cols[i], -1, SQLITE_STATIC);
        const int have = sqlite3_step(q) == SQLITE_ROW;
        sqlite3_finalize(q);
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE ceilings ADD COLUMN %s REAL", transfer_cols[i]);
        if (!have)
            rc = gb_store__exec(st, sql);
    }
    return rc;
}

static int put_ceilings_locked(gb_store_t *st, const gb_device_info_t *dev, const gb_ceilings_t *c)
{
    sqlite3_stmt *q = NULL;
    int rc = ensure_table(st);
    if (rc == GB_OK)
        rc = gb_store__prepare(st,
                               "INSERT OR REPLACE INTO ceilings(device, platform_version, "
                               "driver, peak_s, peak_d, bandwidth_gbs, method, timestamp, "
                               "h2d_pageable_gbs, d2h_pageable_gbs, h2d_pinned_gbs, "
                               "d2h_pinned_gbs, h2d_mapped_gbs, d2h_mapped_gbs) VALUES(?, ?, ?, "
                               "?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?, ?, ?, ?, ?, "
                               "?)",
                               &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, dev->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, dev->platform_version, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, dev->driver, -1, SQLITE_STATIC);
    for (int p = 0; p < 2; p++) {
        if (c->peak_gflops[p] > 0)
            sqlite3_bind_double(q, 4 + p, c->peak_gflops[p]);
        else
            sqlite3_bind_null(q, 4 + p);
    }
    sqlite3_bind_double(q, 6, c->bandwidth_gbs);
    sqlite3_bind_text(q, 7, c->method, -1, SQLITE_STATIC);
    for (int i = 0; i < NRATES; i++) {
        const double rate = i % 2 ? c->d2h_gbs[i / 2] : c->h2d_gbs[i / 2];
        if (rate > 0)
            sqlite3_bind_double(q, 8 + i, rate);
        else
            sqlite3_bind_null(q, 8 + i);
    }
    if (sqlite3_step(q) != SQLITE_DONE)
        rc = gb_store__fail_db(st, "storing the ceilings");
    sqlite3_finalize(q);
    return rc;
}

int gb_store_put_ceilings(gb_store_t *st, const gb_device_info_t *dev, const gb_ceilings_t *c)
{
    gb_store__lock(st);
    const int rc = put_ceilings_locked(st, dev, c);
    gb_store__unlock(st);
    return rc;
}

/* Whether the store has a ceilings table (*have) and, for each copies' column, whether the
 * table has it (cols[i]): asked without writing anything. */
static int table_state(gb_store_t *st, int *have, int cols[NRATES])
{
    sqlite3_stmt *q;
    *have = 0;
    memset(cols, 0, NRATES * sizeof *cols);
    int rc = gb_store__prepare(st, "SELECT name FROM pragma_table_info('ceilings')", &q);
    if (rc != GB_OK)
        return rc;
    int step;
    while ((step = sqlite3_step(q)) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(q, 0);
        *have = 1;
        for (int i = 0; name && i < NRATES; i++)
            cols[i] |= !strcmp(name, transfer_cols[i]);
    }
    if (step != SQLITE_DONE)
        rc = gb_store__fail_db(st, "reading the ceilings");
    sqlite3_finalize(q);
    return rc;
}

static int get_ceilings_locked(gb_store_t *st, const gb_device_info_t *dev, gb_ceilings_t *c,
                               char when[32])
{
    sqlite3_stmt *q = NULL;
    memset(c, 0, sizeof *c);
    when[0] = '\0';
    /* Read only: a store without the table, or from before some of the copies' columns, is
     * read as it is (those copies not measured), so that reading commands (report) leave it
     * byte for byte. */
    int have, cols[NRATES], rc = table_state(st, &have, cols);
    if (rc != GB_OK || !have)
        return rc == GB_OK ? 0 : rc;
    char sql[512];
    size_t used = 0;
    gb__appendf(sql, sizeof sql, &used, "SELECT peak_s, peak_d, bandwidth_gbs, method, timestamp");
    for (int i = 0; i < NRATES; i++)
        gb__appendf(sql, sizeof sql, &used, ", %s", cols[i] ? transfer_cols[i] : "NULL");
    gb__appendf(sql, sizeof sql, &used,
                " FROM ceilings WHERE device = ? AND platform_version = ? AND driver = ?");
    rc = gb_store__prepare(st, sql, &q);
    if (rc != GB_OK)
        return rc;
    sqlite3_bind_text(q, 1, dev->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, dev->platform_version, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, dev->driver, -1, SQLITE_STATIC);
    int found = 0, step = sqlite3_step(q);
    if (step == SQLITE_ROW) {
        found = 1;
        c->peak_gflops[GB_PREC_S] = sqlite3_column_double(q, 0);
        c->peak_gflops[GB_PREC_D] = sqlite3_column_double(q, 1);
        c->bandwidth_gbs = sqlite3_column_double(q, 2);
        snprintf(c->method, sizeof c->method, "%s", (const char *)sqlite3_column_text(q, 3));
        snprintf(when, 32, "%s", (const char *)sqlite3_column_text(q, 4));
        for (int i = 0; i < NRATES; i++) /* NULL reads as 0: not measured */
            *(i % 2 ? &c->d2h_gbs[i / 2] : &c->h2d_gbs[i / 2]) = sqlite3_column_double(q, 5 + i);
    } else if (step != SQLITE_DONE) {
        rc = gb_store__fail_db(st, "reading the ceilings");
    }
    sqlite3_finalize(q);
    return rc == GB_OK ? found : rc;
}

int gb_store_get_ceilings(gb_store_t *st, const gb_device_info_t *dev, gb_ceilings_t *c,
                          char when[32])
{
    gb_store__lock(st);
    const int rc = get_ceilings_locked(st, dev, c, when);
    gb_store__unlock(st);
    return rc;
}
