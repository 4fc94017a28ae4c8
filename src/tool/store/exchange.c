/* exchange.c: the store's points as JSON (the export, which is also the import format, for
 * sharing and merging stores across machines) and CSV (one line per point, for spreadsheets). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_int.h"

#define MAX_IMPORT_POINTS 10000000u

/* A double as a JSON number that reads back bit for bit (cJSON's own printing keeps only 15
 * digits when they read back within an epsilon), or "nan", "inf", "-inf" (JSON has no such
 * numbers): store_int.h. */
cJSON *gb_store__json_double(double v)
{
    char buf[40];
    if (isnan(v))
        return cJSON_CreateString("nan");
    if (isinf(v))
        return cJSON_CreateString(v < 0 ? "-inf" : "inf");
    if (snprintf(buf, sizeof buf, "%.15g", v) > 0 && strtod(buf, NULL) != v)
        snprintf(buf, sizeof buf, "%.17g", v);
    return cJSON_CreateRaw(buf);
}

/* An integer as an exact JSON number, or as decimal text beyond 2^53 (where JSON readers,
 * cJSON included, round). */
static cJSON *json_integer(int64_t v, int is_unsigned)
{
    char buf[32];
    if (is_unsigned)
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)(uint64_t)v);
    else
        snprintf(buf, sizeof buf, "%lld", (long long)v);
    if ((is_unsigned && (uint64_t)v > (1ull << 53)) ||
        (!is_unsigned && (v > (1ll << 53) || v < -(1ll << 53))))
        return cJSON_CreateString(buf);
    return cJSON_CreateRaw(buf);
}

int gb_store__json_to_double(const cJSON *j, double *out)
{
    if (cJSON_IsNumber(j)) {
        *out = j->valuedouble;
        return 1;
    }
    if (!cJSON_IsString(j))
        return 0;
    if (!strcmp(j->valuestring, "nan"))
        *out = (double)NAN;
    else if (!strcmp(j->valuestring, "inf"))
        *out = (double)INFINITY;
    else if (!strcmp(j->valuestring, "-inf"))
        *out = -(double)INFINITY;
    else
        return 0;
    return 1;
}

void *gb_point_to_json(const gb_point_t *pt)
{
    cJSON *o = cJSON_CreateObject();
    char buf[2048];
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "id", pt->id);
    for (size_t i = 0; i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        cJSON *v = NULL;
        /* An optional value's "none" is null, as it is NULL in the store (a plain double's NaN
         * is "nan", below). */
        if (c->kind != GB_COL_DBL && gb_store__is_null(pt, c))
            v = cJSON_CreateNull();
        else
            switch (gb_store__class(c)) {
            case GB_CLASS_INT:
                if (c->kind == GB_COL_BOOL)
                    v = cJSON_CreateBool(gb_store__get_int(pt, c) != 0);
                else
                    v = json_integer(gb_store__get_int(pt, c), c->kind == GB_COL_U64 ||
                                                                   c->kind == GB_COL_SIZE ||
                                                                   c->kind == GB_COL_OPTSIZE);
                break;
            case GB_CLASS_DBL: v = gb_store__json_double(gb_store__get_dbl(pt, c)); break;
            default:
                if (c->kind == GB_COL_PARAMS || c->kind == GB_COL_ENV)
                    v = cJSON_Parse(gb_store__get_text(pt, c, buf, sizeof buf));
                else
                    v = cJSON_CreateString(gb_store__get_text(pt, c, buf, sizeof buf));
                break;
            }
        if (!v) {
            cJSON_Delete(o);
            return NULL;
        }
        cJSON_AddItemToObject(o, c->name, v);
    }
    cJSON *phases = cJSON_AddObjectToObject(o, "phases");
    for (int ph = 0; phases && ph < GB_PHASE_COUNT; ph++) {
        const gb_stats_t *s = &pt->result.time_ms[ph];
        cJSON *p = cJSON_AddObjectToObject(phases, gb_phase_name((gb_phase_t)ph));
        if (!p)
            break;
        cJSON_AddItemToObject(p, "n", json_integer((int64_t)s->n, 1));
        const char *names[7] = {"min", "max", "median", "mean", "std", "ci95_lo", "ci95_hi"};
        const double vals[7] = {s->min, s->max, s->median, s->mean, s->std, s->ci95_lo, s->ci95_hi};
        for (int j = 0; j < 7; j++)
            cJSON_AddItemToObject(p, names[j], gb_store__json_double(vals[j]));
        cJSON *arr = cJSON_AddArrayToObject(p, "samples");
        for (size_t i = 0; arr && pt->result.samples_ms[ph] && i < s->n; i++)
            cJSON_AddItemToArray(arr, gb_store__json_double(pt->result.samples_ms[ph][i]));
    }
    return o;
}

/* msg gets "key 'K': why"; returns code. */
static int bad(char *msg, size_t len, const char *key, const char *why)
{
    snprintf(msg, len, "key '%s' %s", key, why);
    return GB_EBADPOINT;
}

static int column_from_json(gb_point_t *pt, const gb_store__col_t *c, const cJSON *v, char *msg,
                            size_t len)
{
    /* null: an optional value's "none" (as gb_point_init leaves the field; -1 for doubles). */
    if (cJSON_IsNull(v) &&
        (c->kind == GB_COL_OPTSTR || c->kind == GB_COL_OPTSIZE || c->kind == GB_COL_OPTDBL)) {
        if (c->kind == GB_COL_OPTDBL)
            gb_store__set_dbl(pt, c, (double)NAN);
        return GB_OK;
    }
    switch (gb_store__class(c)) {
    case GB_CLASS_INT: {
        int64_t x;
        if (c->kind == GB_COL_BOOL && cJSON_IsBool(v)) {
            x = cJSON_IsTrue(v);
        } else if (cJSON_IsString(v) &&
                   (c->kind == GB_COL_U64 || c->kind == GB_COL_SIZE || c->kind == GB_COL_OPTSIZE)) {
            char *end;
            errno = 0;
            unsigned long long u = strtoull(v->valuestring, &end, 10);
            if (end == v->valuestring || *end || v->valuestring[0] == '-' || errno == ERANGE ||
                (c->kind != GB_COL_U64 && u > (unsigned long long)INT64_MAX))
                return bad(msg, len, c->name, "must be a non-negative integer");
            x = (int64_t)u;
        } else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
                   fabs(v->valuedouble) <= 9007199254740992.0) {
            x = (int64_t)v->valuedouble;
        } else {
            return bad(msg, len, c->name, "must be an integer");
        }
        return gb_store__set_int(pt, c, x, msg, len);
    }
    case GB_CLASS_DBL: {
        double d;
        if (!gb_store__json_to_double(v, &d))
            return bad(msg, len, c->name, "must be a number (or \"nan\", \"inf\", \"-inf\")");
        gb_store__set_dbl(pt, c, d);
        return GB_OK;
    }
    default:
        if (c->kind == GB_COL_PARAMS || c->kind == GB_COL_ENV) {
            if (!cJSON_IsObject(v))
                return bad(msg, len, c->name, "must be an object");
            char *s = cJSON_PrintUnformatted(v);
            if (!s)
                return GB_ENOMEM;
            int rc = gb_store__set_text(pt, c, s, msg, len);
            free(s);
            return rc;
        }
        if (!cJSON_IsString(v))
            return bad(msg, len, c->name, "must be a string");
        return gb_store__set_text(pt, c, v->valuestring, msg, len);
    }
}

static int phase_from_json(gb_point_t *pt, int ph, const cJSON *p, char *msg, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "phases.%s", gb_phase_name((gb_phase_t)ph));
    if (!cJSON_IsObject(p))
        return bad(msg, len, key, "must be an object");
    gb_stats_t *s = &pt->result.time_ms[ph];
    const char *names[7] = {"min", "max", "median", "mean", "std", "ci95_lo", "ci95_hi"};
    double *vals[7] = {&s->min, &s->max, &s->median, &s->mean, &s->std, &s->ci95_lo, &s->ci95_hi};
    size_t seen = 0;
    const cJSON *samples = NULL;
    for (const cJSON *it = p->child; it; it = it->next) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.%s", key, it->string ? it->string : "");
        int j = 0;
        while (j < 7 && strcmp(it->string, names[j]))
            j++;
        if (j < 7) {
            if (!gb_store__json_to_double(it, vals[j]))
                return bad(msg, len, sub, "must be a number");
        } else if (!strcmp(it->string, "n")) {
            if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 1e8 ||
                it->valuedouble != floor(it->valuedouble))
                return bad(msg, len, sub, "must be a sample count");
            s->n = (size_t)it->valuedouble;
        } else if (!strcmp(it->string, "samples")) {
            samples = it;
        } else {
            return bad(msg, len, sub, "is not a key of the export format");
        }
        seen++;
    }
    if (seen != 9)
        return bad(msg, len, key,
                   "must have n, min, max, median, mean, std, ci95_lo, ci95_hi "
                   "and samples, each once");
    if (!cJSON_IsArray(samples) || (size_t)cJSON_GetArraySize(samples) != s->n)
        return bad(msg, len, key, "must have a samples array of n numbers");
    if (s->n && !(pt->result.samples_ms[ph] = calloc(s->n, sizeof(double))))
        return GB_ENOMEM;
    size_t i = 0;
    for (const cJSON *it = samples->child; it; it = it->next, i++)
        if (!gb_store__json_to_double(it, &pt->result.samples_ms[ph][i]))
            return bad(msg, len, key, "has a sample that is not a number");
    return GB_OK;
}

int gb_point_from_json(const void *json, gb_point_t *pt, char *msg, size_t msglen)
{
    const cJSON *o = json;
    gb_point_free(pt);
    if (!cJSON_IsObject(o))
        return bad(msg, msglen, "points[]", "must hold objects");
    /* Every key must be a known one and every known one present: a typo is an error, not a
     * silently default field. */
    for (const cJSON *it = o->child; it; it = it->next) {
        int known = !strcmp(it->string, "id") || !strcmp(it->string, "phases");
        for (size_t i = 0; !known && i < gb_store__ncols; i++)
            known = !strcmp(it->string, gb_store__cols[i].name);
        if (!known)
            return bad(msg, msglen, it->string, "is not a key of the export format");
        if (cJSON_GetObjectItemCaseSensitive(o, it->string) != it)
            return bad(msg, msglen, it->string, "appears twice");
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
    if (!cJSON_IsString(id) || strlen(id->valuestring) != GB_POINT_ID_LEN)
        return bad(msg, msglen, "id", "must be a string of 16 hex digits");
    memcpy(pt->id, id->valuestring, GB_POINT_ID_LEN + 1);
    for (size_t i = 0; i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, c->name);
        if (!v && (c->flags & (GB_COLF_V2 | GB_COLF_LATER))) {
            /* A point from an export before the column: its energy, faithful verdict, stop,
             * clocks or panels were not recorded, its host memory, cold, adaptive stops and
             * pipeline were the defaults. */
            if (c->kind == GB_COL_OPTDBL)
                gb_store__set_dbl(pt, c, (double)NAN);
            continue;
        }
        if (!v)
            return bad(msg, msglen, c->name, "is missing");
        int rc = column_from_json(pt, c, v, msg, msglen);
        if (rc != GB_OK)
            return rc;
    }
    const cJSON *phases = cJSON_GetObjectItemCaseSensitive(o, "phases");
    if (!cJSON_IsObject(phases) || cJSON_GetArraySize(phases) != GB_PHASE_COUNT)
        return bad(msg, msglen, "phases",
                   "must be an object with one entry per phase (main, "
                   "helpers, h2d, d2h, ops, offload, wall)");
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        int rc = phase_from_json(
            pt, ph, cJSON_GetObjectItemCaseSensitive(phases, gb_phase_name((gb_phase_t)ph)), msg,
            msglen);
        if (rc != GB_OK)
            return rc;
    }
    pt->result.timing = pt->timing;
    return GB_OK;
}

/* ---- export --------------------------------------------------------------------------------- */

typedef struct export_state {
    FILE *f;
    size_t count;
    int failed;
} export_state_t;

static int export_one(const gb_point_t *pt, void *user)
{
    export_state_t *es = user;
    cJSON *o = gb_point_to_json(pt);
    char *s = o ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    if (!s)
        return GB_ENOMEM;
    int ok = fprintf(es->f, "%s%s", es->count ? ",\n" : "\n", s) >= 0;
    free(s);
    if (!ok)
        return GB_EIO;
    es->count++;
    return GB_OK;
}

static void now_utc(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    buf[0] = '\0';
    if (gmtime_r(&now, &tm))
        strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int gb_store_export_json(gb_store_t *st, FILE *f, size_t *count)
{
    char when[32];
    now_utc(when, sizeof when);
    export_state_t es = {f, 0, 0};
    fprintf(f,
            "{\n\"format\": \"%s\",\n\"version\": %d,\n\"schema_version\": %d,\n"
            "\"exported\": \"%s\",\n\"tool_version\": \"%s\",\n\"points\": [",
            GB_EXPORT_FORMAT, GB_EXPORT_VERSION, GB_STORE_SCHEMA_VERSION, when, gb_version());
    int rc = gb_store_foreach(st, 1, export_one, &es);
    fprintf(f, "%s]\n}\n", es.count ? "\n" : "");
    *count = es.count;
    if (rc == GB_ENOMEM || rc == GB_EIO)
        return gb_store__fail(
            st, rc, rc == GB_EIO ? "writing the export failed" : "out of memory exporting");
    if (rc == GB_OK && (fflush(f) != 0 || ferror(f)))
        return gb_store__fail(st, GB_EIO, "writing the export failed");
    return rc;
}

void gb_store_csv_field(FILE *f, const char *s)
{
    size_t n = strlen(s);
    if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_field(FILE *f, const char *s, int first)
{
    if (!first)
        fputc(',', f);
    gb_store_csv_field(f, s);
}

static const char *const stat_names[8] = {"n",    "min", "max",     "median",
                                          "mean", "std", "ci95_lo", "ci95_hi"};

static int csv_one(const gb_point_t *pt, void *user)
{
    export_state_t *es = user;
    char buf[2048];
    csv_field(es->f, pt->id, 1);
    for (size_t i = 0; i < gb_store__ncols; i++)
        csv_field(es->f, gb_store__text(pt, &gb_store__cols[i], buf, sizeof buf), 0);
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        const gb_stats_t *s = &pt->result.time_ms[ph];
        const double v[7] = {s->min, s->max, s->median, s->mean, s->std, s->ci95_lo, s->ci95_hi};
        snprintf(buf, sizeof buf, "%zu", s->n);
        csv_field(es->f, buf, 0);
        for (int j = 0; j < 7; j++) {
            snprintf(buf, sizeof buf, "%.17g", v[j]);
            csv_field(es->f, buf, 0);
        }
    }
    fputc('\n', es->f);
    es->count++;
    return ferror(es->f) ? GB_EIO : GB_OK;
}

int gb_store_export_csv(gb_store_t *st, FILE *f, size_t *count)
{
    export_state_t es = {f, 0, 0};
    csv_field(f, "id", 1);
    for (size_t i = 0; i < gb_store__ncols; i++)
        csv_field(f, gb_store__cols[i].name, 0);
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++)
        for (int j = 0; j < 8; j++) {
            char name[64];
            snprintf(name, sizeof name, "%s_%s%s", gb_phase_name((gb_phase_t)ph), stat_names[j],
                     j ? "_ms" : "");
            csv_field(f, name, 0);
        }
    fputc('\n', f);
    int rc = gb_store_foreach(st, 0, csv_one, &es);
    *count = es.count;
    if (rc == GB_EIO || (rc == GB_OK && (fflush(f) != 0 || ferror(f))))
        return gb_store__fail(st, GB_EIO, "writing the export failed");
    return rc;
}

/* ---- import --------------------------------------------------------------------------------- */

struct gb_store_import {
    gb_point_t *points;
    size_t n, added, present;
};

static int import_fn(gb_store_t *st, void *user)
{
    gb_store_import_t *is = user;
    is->added = is->present = 0;
    for (size_t i = 0; i < is->n; i++) {
        int rc = gb_store__insert_in_tx(st, &is->points[i]);
        if (rc < 0)
            return rc;
        if (rc == 0)
            is->added++;
        else
            is->present++;
    }
    return GB_OK;
}

/* Line and column of byte offset `at` in text, for parse errors. */
static void line_col(const char *text, size_t at, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < at; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* The first column of the versions after 1 up to version (GB_COLF_V2, GB_COLF_V3) that a point
 * object lacks, or NULL. */
static const char *missing_key(const cJSON *o, int version)
{
    const unsigned since = (version >= 2 ? GB_COLF_V2 : 0) | (version >= 3 ? GB_COLF_V3 : 0) |
                           (version >= 4 ? GB_COLF_V4 : 0) | (version >= 5 ? GB_COLF_V5 : 0) |
                           (version >= 6 ? GB_COLF_V6 : 0) | (version >= 7 ? GB_COLF_V7 : 0);
    for (size_t i = 0; cJSON_IsObject(o) && i < gb_store__ncols; i++)
        if ((gb_store__cols[i].flags & since) &&
            !cJSON_GetObjectItemCaseSensitive(o, gb_store__cols[i].name))
            return gb_store__cols[i].name;
    return NULL;
}

int gb_store_import_parse(const char *text, size_t len, const char *origin, gb_store_import_t **out,
                          char *msg, size_t msglen)
{
    char why[512];
    const char *end = NULL;
    *out = NULL;
    gb_store_import_t *is = calloc(1, sizeof *is);
    if (!is) {
        snprintf(msg, msglen, "out of memory importing %s", origin);
        return GB_ENOMEM;
    }
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    int rc = GB_EBADPOINT;
    if (!root) {
        size_t line, col;
        line_col(text, end && end >= text ? (size_t)(end - text) : 0, &line, &col);
        snprintf(msg, msglen,
                 "%s is not valid JSON (line %zu, column %zu); give a file "
                 "made by 'gemmbench export --format json'",
                 origin, line, col);
        goto done;
    }
    /* One document per file: a second export concatenated after the first is an error, not
     * silently left out. */
    for (size_t at = (size_t)(end - text); at < len; at++)
        if (!strchr(" \t\r\n", text[at]) || text[at] == '\0') {
            size_t line, col;
            line_col(text, at, &line, &col);
            snprintf(msg, msglen,
                     "%s: text after the JSON document at byte offset %zu (line "
                     "%zu, column %zu); import one export at a time",
                     origin, at, line, col);
            goto done;
        }
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
    const cJSON *points = cJSON_GetObjectItemCaseSensitive(root, "points");
    if (!cJSON_IsObject(root) || !cJSON_IsString(format) ||
        strcmp(format->valuestring, GB_EXPORT_FORMAT) != 0) {
        snprintf(msg, msglen,
                 "%s: key 'format' must be \"%s\"; give a file made by "
                 "'gemmbench export --format json'",
                 origin, GB_EXPORT_FORMAT);
        goto done;
    }
    if (!cJSON_IsNumber(version) || version->valuedouble != floor(version->valuedouble) ||
        version->valuedouble < 1 || version->valuedouble > GB_EXPORT_VERSION) {
        snprintf(msg, msglen,
                 "%s: key 'version' must be 1 to %d (a newer gemmbench may read "
                 "this file)",
                 origin, GB_EXPORT_VERSION);
        goto done;
    }
    if (!cJSON_IsArray(points)) {
        snprintf(msg, msglen, "%s: key 'points' must be an array", origin);
        goto done;
    }
    for (const cJSON *it = root->child; it; it = it->next) {
        static const char *const known[] = {"format",   "version",      "schema_version",
                                            "exported", "tool_version", "points"};
        size_t k = 0;
        while (k < 6 && strcmp(it->string, known[k]))
            k++;
        if (k == 6) {
            snprintf(msg, msglen, "%s: key '%s' is not a key of the export format", origin,
                     it->string);
            goto done;
        }
    }
    int n = cJSON_GetArraySize(points);
    if (n < 0 || (unsigned)n > MAX_IMPORT_POINTS) {
        snprintf(msg, msglen, "%s holds more than %u points; split it", origin, MAX_IMPORT_POINTS);
        goto done;
    }
    is->points = calloc((size_t)n + 1, sizeof *is->points);
    if (!is->points) {
        snprintf(msg, msglen, "out of memory importing %s", origin);
        rc = GB_ENOMEM;
        goto done;
    }
    /* Everything is parsed and checked before anything is written. Version 1 had no energy
     * keys, versions 1 and 2 no host_mem; from the version that added them on, every point has
     * them. */
    const int ver = (int)version->valuedouble;
    rc = GB_OK;
    for (const cJSON *it = points->child; it; it = it->next, is->n++) {
        const char *missing = missing_key(it, ver);
        if (missing) {
            snprintf(why, sizeof why, "key '%s' is missing", missing);
            rc = GB_EBADPOINT;
        } else if ((rc = gb_point_from_json(it, &is->points[is->n], why, sizeof why)) == GB_OK) {
            rc = gb_point_check(&is->points[is->n], why, sizeof why);
        }
        if (rc != GB_OK) {
            snprintf(msg, msglen, "%s: points[%zu]: %s", origin, is->n, why);
            is->n++;
            goto done;
        }
    }
done:
    cJSON_Delete(root);
    if (rc != GB_OK) {
        gb_store_import_free(is);
        return rc;
    }
    *out = is;
    return GB_OK;
}

size_t gb_store_import_count(const gb_store_import_t *im)
{
    return im ? im->n : 0;
}

const gb_point_t *gb_store_import_point(const gb_store_import_t *im, size_t i)
{
    return &im->points[i];
}

int gb_store_import_commit(gb_store_t *st, gb_store_import_t *im, size_t *added, size_t *present)
{
    *added = *present = 0;
    int rc = gb_store_transaction(st, import_fn, im);
    if (rc == GB_OK) {
        *added = im->added;
        *present = im->present;
    }
    return rc;
}

void gb_store_import_free(gb_store_import_t *im)
{
    if (!im)
        return;
    for (size_t i = 0; im->points && i < im->n; i++)
        gb_point_free(&im->points[i]);
    free(im->points);
    free(im);
}

int gb_store_import_json(gb_store_t *st, const char *text, size_t len, const char *origin,
                         size_t *added, size_t *present)
{
    char msg[768];
    gb_store_import_t *im = NULL;
    *added = *present = 0;
    int rc = gb_store_import_parse(text, len, origin, &im, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_store__fail(st, rc, msg);
    rc = gb_store_import_commit(st, im, added, present);
    gb_store_import_free(im);
    return rc;
}
