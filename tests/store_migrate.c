/* store_migrate.c: a results store of schema version 1 (fixtures/store_v1.sql, two points as
 * gemmbench 0.1.0 stored them) opened by this gemmbench: it is migrated to version 7 in place
 * (user_version, meta), with the same columns as a new store, its points' ids unchanged and
 * `store check` clean, their host memory pageable, their energy "not recorded" (every energy column NULL, read back as
 * unavailable without a reason); a point with energy is stored beside them and read back; opened
 * again, nothing changes. Its JSON export imports into a new store; so do a version-1 export
 * (no energy keys) and a version-5 one (no pipeline keys), while a version-2 point without an
 * energy key, or a version-6 one without 'pipeline', is refused. A version-1 store that cannot
 * be migrated is left as it was. No device is used. */
#include "unit.h"

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "tool/store/store.h"

#define OLD_A "0df40db0ab15f9f7" /* SGEMM_NT_4x1 in the fixture */
#define OLD_B "fcca2c8c9da5fc1f" /* naive */

/* Runs sql on the database at path (creating it), through SQLite alone. */
static int sql_exec(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        printf("    sqlite: %s\n", db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return rc;
}

/* The first column of the first row of a query, as text into buf ("" when none). */
static const char *sql_text(const char *path, const char *sql, char *buf, size_t len)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    buf[0] = '\0';
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW &&
        sqlite3_column_text(q, 0))
        snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    return buf;
}

/* The points table's columns, "name type notnull;" each, in order. */
static const char *columns_of(const char *path, char *buf, size_t len)
{
    return sql_text(path,
                    "SELECT group_concat(name || ' ' || type || ' ' || \"notnull\", ';') "
                    "FROM pragma_table_info('points')",
                    buf, len);
}

static int no_energy(const gb_result_t *r)
{
    return r->energy_j == -1.0 && r->energy_w == -1.0 && r->gflops_per_watt == -1.0 &&
           r->energy_s == -1.0 && r->energy_calls == 0 && !r->energy_source[0] &&
           !r->energy_scope[0] && !r->energy_why[0];
}

static void set_energy(gb_result_t *r)
{
    snprintf(r->energy_source, sizeof r->energy_source, "NVML total energy");
    snprintf(r->energy_scope, sizeof r->energy_scope, "device-only calls");
    r->energy_calls = 4099;
    r->energy_s = 1.0078125;
    r->energy_j = 0.123456789012345678;
    r->energy_w = 502.25;
    r->gflops_per_watt = 1.0 / 3.0;
    r->energy_why[0] = '\0';
}

static int same_energy(const gb_result_t *a, const gb_result_t *b)
{
    return a->energy_j == b->energy_j && a->energy_w == b->energy_w &&
           a->gflops_per_watt == b->gflops_per_watt && a->energy_s == b->energy_s &&
           a->energy_calls == b->energy_calls && !strcmp(a->energy_source, b->energy_source) &&
           !strcmp(a->energy_scope, b->energy_scope) && !strcmp(a->energy_why, b->energy_why);
}

/* Imports text into a new store at path; returns the import's code, with *added. */
static int import_into(const char *path, const char *text, size_t *added, char *msg, size_t len)
{
    gb_store_t *st = NULL;
    size_t present = 0;
    *added = 0;
    int rc = gb_store_open(&st, path, GB_STORE_CREATE, msg, len);
    if (rc == GB_OK) {
        rc = gb_store_import_json(st, text, strlen(text), "export.json", added, &present);
        snprintf(msg, len, "%s", gb_store_errmsg(st));
    }
    gb_store_close(st);
    return rc;
}

int main(void)
{
    char dir[64], path[256], fresh[256], other[256], msg[1024], buf[8192], buf2[8192];
    if (!unit_make_dir(dir, sizeof dir)) {
        printf("cannot make a temporary directory\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/v1.db", dir);
    size_t len = 0;
    char *fixture = unit_read_file(GB_FIXTURES_DIR "/store_v1.sql", &len);
    if (!CHECK(fixture != NULL) || !CHECK(sql_exec(path, fixture) == SQLITE_OK)) {
        free(fixture);
        unit_remove_dir(dir);
        return unit_finish();
    }
    free(fixture);
    CHECK(!strcmp(sql_text(path, "PRAGMA user_version", buf, sizeof buf), "1"));

    /* Opening migrates: version 7, the energy columns, host_mem, the adaptive stops, the
     * clocks and the pipeline added, nothing else touched. */
    gb_store_t *st = NULL;
    if (!CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        unit_remove_dir(dir);
        return unit_finish();
    }
    CHECK(!strcmp(sql_text(path, "PRAGMA user_version", buf, sizeof buf), "7"));
    CHECK(!strcmp(
        sql_text(path, "SELECT value FROM meta WHERE key = 'schema_version'", buf, sizeof buf),
        "7"));
    CHECK_HAS(sql_text(path, "SELECT value FROM meta WHERE key = 'migrated'", buf, sizeof buf),
              "from schema version 1 to 7 on ");
    char migrated[sizeof buf];
    snprintf(migrated, sizeof migrated, "%s", buf);
    /* Version 3's host memory: pageable, as the old points were measured; version 4's adaptive
     * stops off, and no stop recorded. */
    CHECK(!strcmp(
        sql_text(path, "SELECT count(*) FROM points WHERE host_mem = 'pageable'", buf, sizeof buf),
        "2"));
    CHECK(!strcmp(sql_text(path,
                           "SELECT count(*) FROM points WHERE min_time = 0 AND max_rel_ci = 0 "
                           "AND stop IS NULL",
                           buf, sizeof buf),
                  "2"));
    /* Version 5's clocks: not read. */
    CHECK(!strcmp(sql_text(path,
                           "SELECT count(*) FROM points WHERE clocks_source IS NULL AND "
                           "clock_mhz_start IS NULL AND clock_mhz_end IS NULL AND temp_c IS NULL "
                           "AND throttle IS NULL AND governor IS NULL",
                           buf, sizeof buf),
                  "2"));
    /* Version 6's pipeline: off, as the old points were measured; no panels. */
    CHECK(
        !strcmp(sql_text(path, "SELECT count(*) FROM points WHERE pipeline = 0 AND panels IS NULL",
                         buf, sizeof buf),
                "2"));
    CHECK(!strcmp(sql_text(path, "SELECT value FROM meta WHERE key = 'created'", buf, sizeof buf),
                  "2025-01-31T12:00:00Z"));
    CHECK(!strcmp(sql_text(path,
                           "SELECT count(*) FROM points WHERE energy_source IS NULL AND "
                           "energy_scope IS NULL AND energy_calls IS NULL AND energy_s IS "
                           "NULL AND energy_j IS NULL AND energy_w IS NULL AND "
                           "gflops_per_watt IS NULL AND energy_why IS NULL",
                           buf, sizeof buf),
                  "2"));
    /* The same columns, in the same order, as a store made by this version. */
    snprintf(fresh, sizeof fresh, "%s/fresh.db", dir);
    gb_store_t *fs = NULL;
    CHECK_RC(gb_store_open(&fs, fresh, GB_STORE_CREATE, msg, sizeof msg), GB_OK);
    gb_store_close(fs);
    CHECK(strlen(columns_of(path, buf, sizeof buf)) > 100);
    CHECK(!strcmp(buf, columns_of(fresh, buf2, sizeof buf2)));

    /* The points: the same ids (check recomputes them from their definitions), no energy. */
    size_t n = 0, checked = 0, bad = 0;
    CHECK_RC(gb_store_count(st, &n), GB_OK);
    CHECK(n == 2);
    CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
    CHECK(checked == 2 && bad == 0);
    gb_point_t a, b;
    gb_point_init(&a);
    gb_point_init(&b);
    CHECK_RC(gb_store_get(st, OLD_A, &a), GB_OK);
    CHECK(!strcmp(a.kernel, "SGEMM_NT_4x1") && a.result.gflops > 0 && no_energy(&a.result));
    CHECK_RC(gb_store_get(st, OLD_B, &b), GB_OK);
    CHECK(!strcmp(b.kernel, "naive") && no_energy(&b.result));
    char id[GB_POINT_ID_LEN + 1];
    memcpy(id, b.id, sizeof id);
    CHECK_RC(gb_point_compute_id(&b), GB_OK);
    CHECK(!strcmp(b.id, id));

    /* A new repetition with energy, beside them; and one whose energy was unavailable. */
    b.rep = 5;
    CHECK_RC(gb_point_compute_id(&b), GB_OK);
    set_energy(&b.result);
    CHECK_RC(gb_store_insert(st, &b), GB_OK);
    gb_point_t back;
    gb_point_init(&back);
    CHECK_RC(gb_store_get(st, b.id, &back), GB_OK);
    CHECK(same_energy(&b.result, &back.result));
    a.rep = 6;
    CHECK_RC(gb_point_compute_id(&a), GB_OK);
    a.result.energy_j = a.result.energy_w = a.result.gflops_per_watt = a.result.energy_s = -1.0;
    snprintf(a.result.energy_why, sizeof a.result.energy_why,
             "disabled by GEMMBENCH_ENERGY_MIN_S=0");
    CHECK_RC(gb_store_insert(st, &a), GB_OK);
    CHECK_RC(gb_store_get(st, a.id, &back), GB_OK);
    CHECK(same_energy(&a.result, &back.result));
    CHECK(!strcmp(sql_text(path,
                           "SELECT count(*) FROM points WHERE energy_why = 'disabled by "
                           "GEMMBENCH_ENERGY_MIN_S=0' AND energy_j IS NULL AND "
                           "energy_source IS NULL AND energy_calls IS NULL",
                           buf, sizeof buf),
                  "1"));
    /* The version-1 ceilings table is read as it is (reading writes nothing; the copies read
     * as not measured) and gains the copies' columns when ceilings are next written; a
     * device's ceilings stored then carry them. */
    gb_device_info_t cdev;
    gb_ceilings_t ce;
    char when[32];
    memset(&cdev, 0, sizeof cdev);
    snprintf(cdev.name, sizeof cdev.name, "Old Device");
    static const char copy_columns[] =
        "SELECT count(*) FROM pragma_table_info('ceilings') WHERE name IN "
        "('h2d_pageable_gbs', 'd2h_pageable_gbs', 'h2d_pinned_gbs', 'd2h_pinned_gbs')";
    CHECK_RC(gb_store_get_ceilings(st, &cdev, &ce, when), 0);
    CHECK(!strcmp(sql_text(path, copy_columns, buf, sizeof buf), "0"));
    memset(&ce, 0, sizeof ce);
    ce.h2d_gbs[GB_HOST_PINNED] = 50.0;
    snprintf(ce.method, sizeof ce.method, "test");
    CHECK_RC(gb_store_put_ceilings(st, &cdev, &ce), GB_OK);
    CHECK(!strcmp(sql_text(path, copy_columns, buf, sizeof buf), "4"));
    CHECK_RC(gb_store_get_ceilings(st, &cdev, &ce, when), 1);
    CHECK(ce.h2d_gbs[GB_HOST_PINNED] == 50.0 && ce.h2d_gbs[GB_HOST_PAGEABLE] == 0);
    CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
    CHECK(checked == 4 && bad == 0);
    gb_store_close(st);

    /* Opened again: already version 7, migrated once. */
    CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_OK);
    CHECK(!strcmp(sql_text(path, "SELECT value FROM meta WHERE key = 'migrated'", buf, sizeof buf),
                  migrated));
    CHECK_RC(gb_store_count(st, &n), GB_OK);
    CHECK(n == 4);

    /* Its export (version 7) imports whole; the old points' energy keys are null. */
    char *text = NULL;
    size_t tlen = 0, added = 0;
    FILE *f = open_memstream(&text, &tlen);
    CHECK_RC(gb_store_export_json(st, f, &n), GB_OK);
    fclose(f);
    gb_store_close(st);
    CHECK(n == 4);
    CHECK_HAS(text, "\"version\": 6,");
    CHECK_HAS(text, "\"host_mem\":\t\"pageable\"");
    CHECK_HAS(text, "\"pipeline\":\t0");
    CHECK_HAS(text, "\"energy_j\":\tnull");
    CHECK_HAS(text, "\"energy_calls\":\t4099");
    snprintf(other, sizeof other, "%s/imported.db", dir);
    CHECK_RC(import_into(other, text, &added, msg, sizeof msg), GB_OK);
    CHECK(added == 4);
    CHECK_RC(gb_store_open(&st, other, 0, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_get(st, OLD_A, &back), GB_OK);
    CHECK(no_energy(&back.result));
    CHECK_RC(gb_store_get(st, b.id, &back), GB_OK);
    CHECK(same_energy(&b.result, &back.result));
    gb_store_close(st);

    /* As a version-5 export, without the pipeline keys: still imports, with the same ids. A
     * version-6 point without 'pipeline' is refused, and nothing is written. */
    cJSON *root = cJSON_Parse(text);
    cJSON *points = cJSON_GetObjectItem(root, "points"), *p;
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(points, 0), "pipeline");
    char *edited = cJSON_Print(root);
    snprintf(other, sizeof other, "%s/refused6.db", dir);
    CHECK_RC(import_into(other, edited, &added, msg, sizeof msg), GB_EBADPOINT);
    CHECK_HAS(msg, "points[0]: key 'pipeline' is missing");
    free(edited);
    CHECK(!strcmp(sql_text(other, "SELECT count(*) FROM points", buf, sizeof buf), "0"));
    cJSON_ReplaceItemInObject(root, "version", cJSON_CreateNumber(5));
    cJSON_ArrayForEach(p, points)
    {
        cJSON_DeleteItemFromObject(p, "pipeline");
        cJSON_DeleteItemFromObject(p, "panels");
    }
    edited = cJSON_Print(root);
    CHECK(strstr(edited, "pipeline") == NULL && strstr(edited, "panels") == NULL);
    snprintf(other, sizeof other, "%s/v5export.db", dir);
    CHECK_RC(import_into(other, edited, &added, msg, sizeof msg), GB_OK);
    CHECK(added == 4);
    free(edited);
    CHECK_RC(gb_store_open(&st, other, 0, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_get(st, OLD_A, &back), GB_OK);
    CHECK(back.pipeline == 0 && back.result.panels == 0);
    CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
    CHECK(checked == 4 && bad == 0);
    gb_store_close(st);

    /* As a version-1 export, without the energy keys: still imports, energy not recorded. A
     * version-2 point without one of them is refused, and nothing is written. */
    cJSON_ReplaceItemInObject(root, "version", cJSON_CreateNumber(2));
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(points, 1), "energy_w");
    edited = cJSON_Print(root);
    snprintf(other, sizeof other, "%s/refused.db", dir);
    CHECK_RC(import_into(other, edited, &added, msg, sizeof msg), GB_EBADPOINT);
    CHECK_HAS(msg, "points[1]: key 'energy_w' is missing");
    free(edited);
    CHECK(!strcmp(sql_text(other, "SELECT count(*) FROM points", buf, sizeof buf), "0"));
    cJSON_ReplaceItemInObject(root, "version", cJSON_CreateNumber(1));
    cJSON_ReplaceItemInObject(root, "schema_version", cJSON_CreateNumber(1));
    cJSON_ArrayForEach(p, points)
    {
        const char *keys[] = {"energy_source", "energy_scope", "energy_calls",    "energy_s",
                              "energy_j",      "energy_w",     "gflops_per_watt", "energy_why"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            cJSON_DeleteItemFromObject(p, keys[k]);
    }
    edited = cJSON_Print(root);
    CHECK(strstr(edited, "energy") == NULL);
    snprintf(other, sizeof other, "%s/v1export.db", dir);
    CHECK_RC(import_into(other, edited, &added, msg, sizeof msg), GB_OK);
    CHECK(added == 4);
    CHECK_RC(gb_store_open(&st, other, 0, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_get(st, b.id, &back), GB_OK);
    CHECK(no_energy(&back.result));
    CHECK_RC(gb_store_check(st, &checked, &bad), GB_OK);
    CHECK(checked == 4 && bad == 0);
    gb_store_close(st);
    free(edited);
    cJSON_Delete(root);
    free(text);

    /* A version-1 store that cannot be migrated (its points table is gone): refused, and left
     * at version 1. */
    snprintf(other, sizeof other, "%s/broken.db", dir);
    CHECK(sql_exec(other, "CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);"
                          "INSERT INTO meta VALUES('schema_version', '1');"
                          "PRAGMA user_version = 1;") == SQLITE_OK);
    CHECK(gb_store_open(&st, other, 0, msg, sizeof msg) != GB_OK && st == NULL);
    CHECK_HAS(msg, "no such table");
    CHECK(!strcmp(sql_text(other, "PRAGMA user_version", buf, sizeof buf), "1"));
    CHECK(!strcmp(
        sql_text(other, "SELECT value FROM meta WHERE key = 'schema_version'", buf, sizeof buf),
        "1"));

    gb_point_free(&a);
    gb_point_free(&b);
    gb_point_free(&back);
    unit_remove_dir(dir);
    return unit_finish();
}
