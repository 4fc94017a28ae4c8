/* columns.c: a point's columns: one table for the SQL schema, the definition text behind the
 * id, and the JSON and CSV exchange, with each column's conversions to and from integers,
 * doubles and text. */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

#define F(field) offsetof(gb_point_t, field), sizeof(((gb_point_t *)0)->field)

/* The definition columns (GB_COLF_DEF) are hashed in this order, by these names: renaming,
 * reordering, adding or removing one changes every id (a new GB_STORE_SCHEMA_VERSION), except
 * a definition column added later (GB_COLF_LATER), which is hashed only away from its default:
 * every point made before is at the default, so its id stays. Any column added is a schema
 * change, with a migration of older stores (schema.c). */
const gb_store__col_t gb_store__cols[] = {
    /* the definition */
    {"device_name", GB_COL_STR, F(device.name), GB_COLF_DEF},
    {"device_vendor", GB_COL_STR, F(device.vendor), GB_COLF_DEF},
    {"platform_name", GB_COL_STR, F(device.platform), GB_COLF_DEF},
    {"driver", GB_COL_STR, F(device.driver), GB_COLF_DEF},
    {"kernel", GB_COL_STR, F(kernel), GB_COLF_DEF},
    {"family", GB_COL_STR, F(family), GB_COLF_DEF},
    {"preset", GB_COL_STR, F(preset), GB_COLF_DEF},
    {"params", GB_COL_PARAMS, F(params), GB_COLF_DEF},
    {"source_hash", GB_COL_STR, F(source_hash), GB_COLF_DEF},
    {"precision", GB_COL_PREC, F(problem.precision), GB_COLF_DEF},
    {"layout", GB_COL_LAYOUT, F(problem.layout), GB_COLF_DEF},
    {"trans_a", GB_COL_TRANS, F(problem.trans_a), GB_COLF_DEF},
    {"trans_b", GB_COL_TRANS, F(problem.trans_b), GB_COLF_DEF},
    {"m", GB_COL_SIZE, F(problem.m), GB_COLF_DEF},
    {"n", GB_COL_SIZE, F(problem.n), GB_COLF_DEF},
    {"k", GB_COL_SIZE, F(problem.k), GB_COLF_DEF},
    {"alpha", GB_COL_DBL, F(problem.alpha), GB_COLF_DEF},
    {"beta", GB_COL_DBL, F(problem.beta), GB_COLF_DEF},
    {"lda", GB_COL_SIZE, F(problem.lda), GB_COLF_DEF},
    {"ldb", GB_COL_SIZE, F(problem.ldb), GB_COLF_DEF},
    {"ldc", GB_COL_SIZE, F(problem.ldc), GB_COLF_DEF},
    {"off_a", GB_COL_SIZE, F(problem.off_a), GB_COLF_DEF},
    {"off_b", GB_COL_SIZE, F(problem.off_b), GB_COLF_DEF},
    {"off_c", GB_COL_SIZE, F(problem.off_c), GB_COLF_DEF},
    {"seed", GB_COL_U64, F(seed), GB_COLF_DEF},
    {"dist", GB_COL_DIST, F(dist), GB_COLF_DEF},
    {"warmup", GB_COL_INT, F(warmup), GB_COLF_DEF},
    {"iterations", GB_COL_INT, F(iterations), GB_COLF_DEF},
    {"timing", GB_COL_TIMING, F(timing), GB_COLF_DEF},
    {"rep", GB_COL_UINT, F(rep), GB_COLF_DEF},
    /* the rest of the device's facts */
    {"device_type", GB_COL_STR, F(device.type), 0},
    {"device_version", GB_COL_STR, F(device.version), 0},
    {"platform_version", GB_COL_STR, F(device.platform_version), 0},
    {"compute_units", GB_COL_UINT, F(device.compute_units), 0},
    {"clock_mhz", GB_COL_UINT, F(device.clock_mhz), 0},
    {"global_mem", GB_COL_U64, F(device.global_mem), 0},
    {"local_mem", GB_COL_U64, F(device.local_mem), 0},
    {"max_wg_size", GB_COL_SIZE, F(device.max_wg_size), 0},
    {"fp64", GB_COL_BOOL, F(device.fp64), 0},
    {"peak_gflops_s", GB_COL_DBL, F(device.peak_gflops[0]), 0},
    {"peak_gflops_d", GB_COL_DBL, F(device.peak_gflops[1]), 0},
    {"peak_formula_s", GB_COL_STR, F(device.peak_formula[0]), 0},
    {"peak_formula_d", GB_COL_STR, F(device.peak_formula[1]), 0},
    /* how it ran */
    {"source_origin", GB_COL_STR, F(source_origin), 0},
    {"build_options", GB_COL_STR, F(result.build_options), 0},
    {"validate", GB_COL_VMODE, F(validate), 0},
    {"route", GB_COL_STR, F(result.route), 0},
    {"helper_kernels", GB_COL_SIZE, F(result.helpers), 0},
    {"swapped", GB_COL_BOOL, F(result.swapped), 0},
    {"global_x", GB_COL_SIZE, F(result.global[0]), 0},
    {"global_y", GB_COL_SIZE, F(result.global[1]), 0},
    {"local_x", GB_COL_SIZE, F(result.local[0]), 0},
    {"local_y", GB_COL_SIZE, F(result.local[1]), 0},
    {"local_auto", GB_COL_BOOL, F(result.local_null), 0},
    {"build_ms", GB_COL_DBL, F(result.build_ms), 0},
    {"cache_hit", GB_COL_BOOL, F(result.cache_hit), 0},
    /* the headline */
    {"gflops", GB_COL_DBL, F(result.gflops), 0},
    {"gflops_wall", GB_COL_DBL, F(result.gflops_wall), 0},
    {"efficiency", GB_COL_OPTDBL, F(result.efficiency), 0},
    /* validation */
    {"verdict", GB_COL_VERDICT, F(result.validation), 0},
    {"valid_mode", GB_COL_VALMODE, F(result.validation), 0},
    {"max_ratio", GB_COL_DBL, F(result.validation.max_ratio), 0},
    {"bound_ratio", GB_COL_DBL, F(result.validation.bound_ratio), 0},
    {"worst_i", GB_COL_SIZE, F(result.validation.worst_i), 0},
    {"worst_j", GB_COL_SIZE, F(result.validation.worst_j), 0},
    {"n_over", GB_COL_SIZE, F(result.validation.n_over), 0},
    {"n_nonfinite", GB_COL_SIZE, F(result.validation.n_nonfinite), 0},
    {"n_canary", GB_COL_SIZE, F(result.validation.n_canary), 0},
    {"valid_reason", GB_COL_STR, F(result.validation.reason), 0},
    /* provenance */
    {"tool_version", GB_COL_STR, F(tool_version), 0},
    {"git_revision", GB_COL_STR, F(git_revision), 0},
    {"hostname", GB_COL_STR, F(hostname), 0},
    {"os", GB_COL_STR, F(os), 0},
    {"env", GB_COL_ENV, F(env_json), 0},
    {"timestamp", GB_COL_STR, F(timestamp), 0},
    /* energy (schema version 2), from the energy loop after the timed calls; last, so that a
     * version-1 store migrated by ALTER TABLE ADD COLUMN has its columns in the same order */
    {"energy_source", GB_COL_OPTSTR, F(result.energy_source), GB_COLF_V2},
    {"energy_scope", GB_COL_OPTSTR, F(result.energy_scope), GB_COLF_V2},
    {"energy_calls", GB_COL_OPTSIZE, F(result.energy_calls), GB_COLF_V2},
    {"energy_s", GB_COL_OPTDBL, F(result.energy_s), GB_COLF_V2},
    {"energy_j", GB_COL_OPTDBL, F(result.energy_j), GB_COLF_V2},
    {"energy_w", GB_COL_OPTDBL, F(result.energy_w), GB_COLF_V2},
    {"gflops_per_watt", GB_COL_OPTDBL, F(result.gflops_per_watt), GB_COLF_V2},
    {"energy_why", GB_COL_OPTSTR, F(result.energy_why), GB_COLF_V2},
    /* schema version 3: the operands' host memory, part of the definition (it changes the
     * copies' times) */
    {"host_mem", GB_COL_HOSTMEM, F(host_mem), GB_COLF_DEF | GB_COLF_V3},
    {"cold", GB_COL_BOOL, F(cold), GB_COLF_DEF | GB_COLF_V3},
    /* and the faithful verdict (NULL: not judged, as in every point stored before) */
    {"faithful", GB_COL_OPTSTR, F(result.validation.faithful), GB_COLF_V3},
    {"faithful_worst", GB_COL_OPTDBL, F(result.validation.faithful_worst), GB_COLF_V3},
    {"faithful_honest", GB_COL_OPTDBL, F(result.validation.faithful_honest), GB_COLF_V3},
    /* schema version 4: the adaptive stops (0: off, as every point before was measured) and
     * which stop ended the timed calls (NULL in points stored before: the count) */
    {"min_time", GB_COL_DBL, F(min_time_s), GB_COLF_DEF | GB_COLF_V4},
    {"max_rel_ci", GB_COL_DBL, F(max_rel_ci), GB_COLF_DEF | GB_COLF_V4},
    {"stop", GB_COL_OPTSTR, F(result.stop), GB_COLF_V4},
    /* schema version 5: clocks and throttling around the timed calls (NULL: not read, as in
     * every point stored before) */
    {"clocks_source", GB_COL_OPTSTR, F(result.clocks_source), GB_COLF_V5},
    {"clock_mhz_start", GB_COL_OPTDBL, F(result.clock_mhz_start), GB_COLF_V5},
    {"clock_mhz_end", GB_COL_OPTDBL, F(result.clock_mhz_end), GB_COLF_V5},
    {"temp_c", GB_COL_OPTDBL, F(result.temp_c), GB_COLF_V5},
    {"throttle", GB_COL_OPTSTR, F(result.throttle), GB_COLF_V5},
    {"governor", GB_COL_OPTSTR, F(result.governor), GB_COLF_V5},
    /* schema version 6: the pipelined offload, the panels asked (in the definition; 0: the
     * serial offload, as every point before) and made (NULL: serial); version 6 also reads
     * host_mem "mapped" */
    {"pipeline", GB_COL_INT, F(pipeline), GB_COLF_DEF | GB_COLF_V6},
    {"panels", GB_COL_OPTSIZE, F(result.panels), GB_COLF_V6},
    /* schema version 7: complex precisions' imaginary parts of alpha and beta and conjugation
     * with the transposition (trans_a T and conj_a 1: 'C'); 0 in every real point, so their
     * ids stay */
    {"alpha_im", GB_COL_DBL, F(problem.alpha_im), GB_COLF_DEF | GB_COLF_V7},
    {"beta_im", GB_COL_DBL, F(problem.beta_im), GB_COLF_DEF | GB_COLF_V7},
    {"conj_a", GB_COL_BOOL, F(problem.conj_a), GB_COLF_DEF | GB_COLF_V7},
    {"conj_b", GB_COL_BOOL, F(problem.conj_b), GB_COLF_DEF | GB_COLF_V7},
};
const size_t gb_store__ncols = sizeof gb_store__cols / sizeof gb_store__cols[0];

#define FIELD(pt, c, type) ((type *)(void *)((char *)(pt) + (c)->off))
#define CFIELD(pt, c, type) ((const type *)(const void *)((const char *)(pt) + (c)->off))

gb_store__class_t gb_store__class(const gb_store__col_t *c)
{
    switch (c->kind) {
    case GB_COL_INT:
    case GB_COL_UINT:
    case GB_COL_SIZE:
    case GB_COL_U64:
    case GB_COL_BOOL:
    case GB_COL_OPTSIZE: return GB_CLASS_INT;
    case GB_COL_DBL:
    case GB_COL_OPTDBL: return GB_CLASS_DBL;
    default: return GB_CLASS_TEXT;
    }
}

const char *gb_store__default_text(const gb_store__col_t *c, char *buf, size_t len)
{
    static const gb_point_t zero; /* as gb_point_init leaves a point */
    return gb_store__text(&zero, c, buf, len);
}

int gb_store__at_default(const gb_point_t *pt, const gb_store__col_t *c)
{
    char mine[64], dflt[64];
    return !strcmp(gb_store__text(pt, c, mine, sizeof mine),
                   gb_store__default_text(c, dflt, sizeof dflt));
}

int gb_store__is_null(const gb_point_t *pt, const gb_store__col_t *c)
{
    switch (c->kind) {
    case GB_COL_OPTSTR: return CFIELD(pt, c, char)[0] == '\0';
    case GB_COL_OPTSIZE: return *CFIELD(pt, c, size_t) == 0;
    case GB_COL_DBL:
    case GB_COL_OPTDBL: return isnan(gb_store__get_dbl(pt, c));
    default: return 0;
    }
}

int64_t gb_store__get_int(const gb_point_t *pt, const gb_store__col_t *c)
{
    switch (c->kind) {
    case GB_COL_INT:
    case GB_COL_BOOL: return *CFIELD(pt, c, int);
    case GB_COL_UINT: return *CFIELD(pt, c, unsigned);
    case GB_COL_SIZE:
    case GB_COL_OPTSIZE: return (int64_t)*CFIELD(pt, c, size_t);
    case GB_COL_U64: return (int64_t)*CFIELD(pt, c, uint64_t);
    default: return 0;
    }
}

int gb_store__set_int(gb_point_t *pt, const gb_store__col_t *c, int64_t v, char *msg, size_t len)
{
    switch (c->kind) {
    case GB_COL_INT:
        if (v < INT_MIN || v > INT_MAX)
            break;
        *FIELD(pt, c, int) = (int)v;
        return GB_OK;
    case GB_COL_BOOL:
        if (v != 0 && v != 1)
            return gb__fail(msg, len, GB_EBADPOINT, "key '%s' must be 0 or 1 (or a boolean)",
                            c->name);
        *FIELD(pt, c, int) = (int)v;
        return GB_OK;
    case GB_COL_UINT:
        if (v < 0 || v > (int64_t)UINT_MAX)
            break;
        *FIELD(pt, c, unsigned) = (unsigned)v;
        return GB_OK;
    case GB_COL_SIZE:
    case GB_COL_OPTSIZE:
        if (v < 0)
            break;
        *FIELD(pt, c, size_t) = (size_t)v;
        return GB_OK;
    case GB_COL_U64: *FIELD(pt, c, uint64_t) = (uint64_t)v; return GB_OK;
    default: return gb__fail(msg, len, GB_EBADPOINT, "key '%s' is not an integer column", c->name);
    }
    return gb__fail(msg, len, GB_EBADPOINT, "key '%s' is out of range", c->name);
}

double gb_store__get_dbl(const gb_point_t *pt, const gb_store__col_t *c)
{
    double v = *CFIELD(pt, c, double);
    if (c->kind == GB_COL_OPTDBL && v < 0)
        return (double)NAN;
    return v;
}

void gb_store__set_dbl(gb_point_t *pt, const gb_store__col_t *c, double v)
{
    if (c->kind == GB_COL_OPTDBL && isnan(v))
        v = -1.0;
    if (v == 0.0)
        v = 0.0; /* SQLite keeps no negative zero; neither does the store */
    *FIELD(pt, c, double) = v;
}

static int cmp_param(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts ps by name (names and values move together). */
void gb_store__params_sort(gb_params_t *ps)
{
    const char *names[GB_MAX_PARAMS];
    gb_params_t sorted;
    memset(&sorted, 0, sizeof sorted);
    for (size_t i = 0; i < ps->count; i++)
        names[i] = ps->name[i];
    qsort(names, ps->count, sizeof names[0], cmp_param);
    for (size_t i = 0; i < ps->count; i++) {
        size_t j = (size_t)(names[i] - ps->name[0]) / GB_NAME_MAX;
        memcpy(sorted.name[i], ps->name[j], GB_NAME_MAX);
        sorted.value[i] = ps->value[j];
    }
    sorted.count = ps->count;
    *ps = sorted;
}

/* A finite double in the shorter of %.15g and %.17g that reads back exactly. */
static const char *shortest(char *buf, size_t len, double v)
{
    if (v == 0.0)
        v = 0.0; /* "0", never "-0": SQLite keeps no negative zero */
    if (snprintf(buf, len, "%.15g", v) > 0 && strtod(buf, NULL) != v)
        snprintf(buf, len, "%.17g", v);
    return buf;
}

static const char *dist_text(const gb_dist_t *d, char *buf, size_t len)
{
    char lo[32], hi[32];
    switch (d->kind) {
    case GB_DIST_NORMAL: snprintf(buf, len, "normal"); break;
    case GB_DIST_INT: snprintf(buf, len, "int:%ld", d->range); break;
    default:
        snprintf(buf, len, "uniform:%s:%s", shortest(lo, sizeof lo, d->lo),
                 shortest(hi, sizeof hi, d->hi));
        break;
    }
    return buf;
}

/* Params as a compact JSON object in name order; "{}" if it does not fit. */
static const char *params_text(const gb_params_t *ps, char *buf, size_t len)
{
    size_t used = 0;
    int n = snprintf(buf, len, "{");
    used = n > 0 ? (size_t)n : 0;
    for (size_t i = 0; i < ps->count && used < len; i++) {
        n = snprintf(buf + used, len - used, "%s\"%s\":%ld", i ? "," : "", ps->name[i],
                     ps->value[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (used + 2 > len) {
        snprintf(buf, len, "{}");
        return buf;
    }
    snprintf(buf + used, len - used, "}");
    return buf;
}

static int params_parse(const char *s, gb_params_t *ps, const char *key, char *msg, size_t len)
{
    cJSON *o = cJSON_Parse(s);
    int rc = GB_OK;
    gb_params_t out;
    memset(&out, 0, sizeof out);
    if (!cJSON_IsObject(o)) {
        rc = gb__fail(msg, len, GB_EBADPOINT, "key '%s' must be a JSON object of NAME: integer",
                      key);
        goto done;
    }
    for (cJSON *it = o->child; it; it = it->next) {
        double v = it->valuedouble;
        if (!it->string || !it->string[0] || strlen(it->string) >= GB_NAME_MAX ||
            !cJSON_IsNumber(it) || v != floor(v) || fabs(v) > 9.0e15 ||
            gb_params_get(&out, it->string, &(long){0}) || out.count == GB_MAX_PARAMS) {
            rc = gb__fail(msg, len, GB_EBADPOINT,
                          "key '%s': parameter '%s' must be a unique short name "
                          "with an integer value",
                          key, it->string ? it->string : "");
            goto done;
        }
        gb_params_set(&out, it->string, (long)v);
    }
    gb_store__params_sort(&out);
    *ps = out;
done:
    cJSON_Delete(o);
    return rc;
}

static int copy_str(char *dst, size_t size, const char *s, const char *key, char *msg, size_t len)
{
    size_t n = strlen(s);
    if (n >= size) {
        char limit[32];
        snprintf(limit, sizeof limit, "%zu", size - 1);
        return gb__fail(msg, len, GB_EBADPOINT, "key '%s' is longer than %s bytes", key, limit);
    }
    memcpy(dst, s, n + 1);
    return GB_OK;
}

const char *gb_store__get_text(const gb_point_t *pt, const gb_store__col_t *c, char *buf,
                               size_t len)
{
    const gb_validation_t *v = CFIELD(pt, c, gb_validation_t);
    switch (c->kind) {
    case GB_COL_STR:
    case GB_COL_OPTSTR: return CFIELD(pt, c, char);
    case GB_COL_PREC: return gb_precision_name(*CFIELD(pt, c, gb_precision_t));
    case GB_COL_LAYOUT: return *CFIELD(pt, c, gb_layout_t) == GB_COL_MAJOR ? "col" : "row";
    case GB_COL_TRANS: return *CFIELD(pt, c, gb_trans_t) == GB_TRANS ? "T" : "N";
    case GB_COL_TIMING: return gb_timing_name(*CFIELD(pt, c, gb_timing_t));
    case GB_COL_HOSTMEM: return gb_host_mem_name(*CFIELD(pt, c, gb_host_mem_t));
    case GB_COL_VMODE: {
        gb_validate_mode_t m = *CFIELD(pt, c, gb_validate_mode_t);
        return m == GB_VALIDATE_ON ? "on" : m == GB_VALIDATE_OFF ? "off" : "auto";
    }
    case GB_COL_DIST: return dist_text(CFIELD(pt, c, gb_dist_t), buf, len);
    case GB_COL_PARAMS: return params_text(CFIELD(pt, c, gb_params_t), buf, len);
    case GB_COL_ENV: return pt->env_json ? pt->env_json : "{}";
    case GB_COL_VERDICT: return !v->done ? "not validated" : v->passed ? "pass" : "fail";
    case GB_COL_VALMODE: return !v->done ? "none" : v->exact ? "exact" : "bound";
    default: return "";
    }
}

int gb_store__set_text(gb_point_t *pt, const gb_store__col_t *c, const char *s, char *msg,
                       size_t len)
{
    gb_validation_t *v = FIELD(pt, c, gb_validation_t);
    const char *bad = NULL;
    switch (c->kind) {
    case GB_COL_STR:
    case GB_COL_OPTSTR: return copy_str(FIELD(pt, c, char), c->size, s, c->name, msg, len);
    case GB_COL_PREC: {
        /* The names gb_precision_name gives alone: those are what the column holds. */
        int p = 0;
        while (p < GB_PREC_COUNT && strcmp(s, gb_precision_name((gb_precision_t)p)))
            p++;
        if (p < GB_PREC_COUNT)
            *FIELD(pt, c, gb_precision_t) = (gb_precision_t)p;
        else
            bad = GB_PREC_NAMES;
        break;
    }
    case GB_COL_LAYOUT:
        if (!strcmp(s, "row") || !strcmp(s, "col"))
            *FIELD(pt, c, gb_layout_t) = s[0] == 'c' ? GB_COL_MAJOR : GB_ROW_MAJOR;
        else
            bad = "row or col";
        break;
    case GB_COL_TRANS:
        if (!strcmp(s, "N") || !strcmp(s, "T"))
            *FIELD(pt, c, gb_trans_t) = s[0] == 'T' ? GB_TRANS : GB_NOTRANS;
        else
            bad = "N or T";
        break;
    case GB_COL_TIMING:
        if (gb_timing_parse(s, FIELD(pt, c, gb_timing_t)) != GB_OK)
            bad = "kernel, ops or offload";
        break;
    case GB_COL_HOSTMEM:
        if (gb_host_mem_parse(s, FIELD(pt, c, gb_host_mem_t)) != GB_OK)
            bad = "pageable or pinned";
        break;
    case GB_COL_VMODE:
        if (!strcmp(s, "auto") || !strcmp(s, "on") || !strcmp(s, "off"))
            *FIELD(pt, c, gb_validate_mode_t) = s[1] == 'n'   ? GB_VALIDATE_ON
                                                : s[1] == 'f' ? GB_VALIDATE_OFF
                                                              : GB_VALIDATE_AUTO;
        else
            bad = "auto, on or off";
        break;
    case GB_COL_DIST: {
        char why[160];
        if (gb_dist_parse(s, FIELD(pt, c, gb_dist_t), why, sizeof why) != GB_OK)
            bad = "uniform:LO:HI, normal or int:R";
        break;
    }
    case GB_COL_PARAMS: return params_parse(s, FIELD(pt, c, gb_params_t), c->name, msg, len);
    case GB_COL_ENV: {
        cJSON *o = cJSON_Parse(s);
        int ok = cJSON_IsObject(o) && strlen(s) <= 65536;
        cJSON_Delete(o);
        if (!ok)
            return gb__fail(msg, len, GB_EBADPOINT,
                            "key '%s' must be a JSON object (at most 64 KiB)", c->name);
        char *dup = malloc(strlen(s) + 1);
        if (!dup)
            return gb__fail(msg, len, GB_ENOMEM, "out of memory reading key '%s'", c->name);
        strcpy(dup, s);
        free(pt->env_json);
        pt->env_json = dup;
        return GB_OK;
    }
    case GB_COL_VERDICT:
        if (!strcmp(s, "pass") || !strcmp(s, "fail") || !strcmp(s, "not validated")) {
            v->done = s[0] != 'n';
            v->passed = s[0] == 'p';
        } else {
            bad = "pass, fail or not validated";
        }
        break;
    case GB_COL_VALMODE:
        if (!strcmp(s, "exact") || !strcmp(s, "bound") || !strcmp(s, "none"))
            v->exact = s[0] == 'e';
        else
            bad = "exact, bound or none";
        break;
    default: bad = "text"; break;
    }
    if (bad)
        return gb__fail(msg, len, GB_EBADPOINT, "key '%s' must be %s", c->name, bad);
    return GB_OK;
}

const char *gb_store__text(const gb_point_t *pt, const gb_store__col_t *c, char *buf, size_t len)
{
    switch (gb_store__class(c)) {
    case GB_CLASS_INT:
        if (c->kind == GB_COL_U64)
            snprintf(buf, len, "%llu", (unsigned long long)*CFIELD(pt, c, uint64_t));
        else
            snprintf(buf, len, "%lld", (long long)gb_store__get_int(pt, c));
        return buf;
    case GB_CLASS_DBL: {
        double v = gb_store__get_dbl(pt, c);
        if (isnan(v))
            snprintf(buf, len, "nan");
        else if (isinf(v))
            snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
        else
            shortest(buf, len, v);
        return buf;
    }
    default: return gb_store__get_text(pt, c, buf, len);
    }
}

int gb_store__phase_parse(const char *name)
{
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++)
        if (!strcmp(name, gb_phase_name((gb_phase_t)ph)))
            return ph;
    return -1;
}
