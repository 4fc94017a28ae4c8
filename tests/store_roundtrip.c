/* store_roundtrip.c: the results store (src/tool/store/) end to end: a point with every field set to
 * a distinctive value (NaN, infinity, a seed above 2^53, an unknown efficiency, unsorted
 * parameters, energy) is inserted and read back field by field, and so is one whose energy was
 * unavailable; inserted again it is recognised; malformed points write nothing; a JSON export
 * imported into a fresh store gives the same points back, and importing it twice adds nothing;
 * the hashes meet their test vectors; and a real run on the default OpenCL device (PoCL) is
 * stored as repetitions 0 and 1, with its energy (or why there is none: turned off by
 * GEMMBENCH_ENERGY_MIN_S=0, a bad value of it, or no counter) read back.
 *
 * `store_roundtrip --make-foreign DB` instead writes a store holding one point measured on a
 * device that no machine has, and prints its id (for the replay test); `--make-many DB N` a
 * store of N such points (repetitions 0..N-1), for the damaged-store tests; `--sql DB SQL` runs
 * SQL on DB with SQLite alone (to make databases that are not stores, with no sqlite3 program). */
#include "unit.h"

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "tool/store/store.h"

/* Doubles equal bit for bit, NaN included. */
static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static int mismatches;

static void mismatch(const char *field)
{
    mismatches++;
    printf("    field %s differs after the round trip\n", field);
}

#define EQ_STR(f)                                                                                  \
    do {                                                                                           \
        if (strcmp(a->f, b->f))                                                                    \
            mismatch(#f);                                                                          \
    } while (0)
#define EQ_NUM(f)                                                                                  \
    do {                                                                                           \
        if (a->f != b->f)                                                                          \
            mismatch(#f);                                                                          \
    } while (0)
#define EQ_DBL(f)                                                                                  \
    do {                                                                                           \
        if (!same_double(a->f, b->f)) {                                                            \
            mismatch(#f);                                                                          \
            printf("      %.17g vs %.17g\n", (double)a->f, (double)b->f);                          \
        }                                                                                          \
    } while (0)

/* Compares every field of two points; returns the number that differ (and names them). */
static int compare_points(const gb_point_t *a, const gb_point_t *b)
{
    mismatches = 0;
    EQ_STR(id);
    EQ_STR(device.name);
    EQ_STR(device.vendor);
    EQ_STR(device.type);
    EQ_STR(device.version);
    EQ_STR(device.platform);
    EQ_STR(device.platform_version);
    EQ_STR(device.driver);
    EQ_NUM(device.compute_units);
    EQ_NUM(device.clock_mhz);
    EQ_NUM(device.global_mem);
    EQ_NUM(device.local_mem);
    EQ_NUM(device.max_wg_size);
    EQ_NUM(device.fp64);
    for (int p = 0; p < 2; p++) {
        EQ_DBL(device.peak_gflops[p]);
        EQ_STR(device.peak_formula[p]);
    }
    EQ_STR(kernel);
    EQ_STR(family);
    EQ_STR(preset);
    EQ_NUM(params.count);
    for (size_t i = 0; i < a->params.count && i < GB_MAX_PARAMS; i++) {
        EQ_STR(params.name[i]);
        EQ_NUM(params.value[i]);
    }
    EQ_STR(source_hash);
    EQ_NUM(problem.precision);
    EQ_NUM(problem.layout);
    EQ_NUM(problem.trans_a);
    EQ_NUM(problem.trans_b);
    EQ_NUM(problem.m);
    EQ_NUM(problem.n);
    EQ_NUM(problem.k);
    EQ_DBL(problem.alpha);
    EQ_DBL(problem.beta);
    EQ_NUM(problem.lda);
    EQ_NUM(problem.ldb);
    EQ_NUM(problem.ldc);
    EQ_NUM(problem.off_a);
    EQ_NUM(problem.off_b);
    EQ_NUM(problem.off_c);
    EQ_NUM(seed);
    EQ_NUM(dist.kind);
    EQ_DBL(dist.lo);
    EQ_DBL(dist.hi);
    EQ_NUM(dist.range);
    EQ_NUM(warmup);
    EQ_NUM(iterations);
    EQ_NUM(timing);
    EQ_NUM(host_mem);
    EQ_NUM(cold);
    EQ_NUM(pipeline);
    EQ_NUM(rep);
    EQ_STR(source_origin);
    EQ_NUM(validate);
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        EQ_NUM(result.time_ms[ph].n);
        EQ_DBL(result.time_ms[ph].min);
        EQ_DBL(result.time_ms[ph].max);
        EQ_DBL(result.time_ms[ph].median);
        EQ_DBL(result.time_ms[ph].mean);
        EQ_DBL(result.time_ms[ph].std);
        EQ_DBL(result.time_ms[ph].ci95_lo);
        EQ_DBL(result.time_ms[ph].ci95_hi);
        if (!a->result.samples_ms[ph] || !b->result.samples_ms[ph]) {
            mismatch("result.samples_ms (missing)");
            continue;
        }
        for (size_t i = 0; i < a->result.time_ms[ph].n; i++)
            EQ_DBL(result.samples_ms[ph][i]);
    }
    EQ_NUM(result.timing);
    EQ_NUM(result.panels);
    EQ_DBL(result.gflops);
    EQ_DBL(result.gflops_wall);
    EQ_DBL(result.efficiency);
    EQ_DBL(result.build_ms);
    EQ_NUM(result.cache_hit);
    EQ_NUM(result.global[0]);
    EQ_NUM(result.global[1]);
    EQ_NUM(result.local[0]);
    EQ_NUM(result.local[1]);
    EQ_NUM(result.local_null);
    EQ_NUM(result.swapped);
    EQ_STR(result.route);
    EQ_NUM(result.helpers);
    EQ_STR(result.build_options);
    EQ_NUM(result.validation.done);
    EQ_NUM(result.validation.passed);
    EQ_NUM(result.validation.exact);
    EQ_DBL(result.validation.max_ratio);
    EQ_DBL(result.validation.bound_ratio);
    EQ_NUM(result.validation.worst_i);
    EQ_NUM(result.validation.worst_j);
    EQ_NUM(result.validation.n_over);
    EQ_NUM(result.validation.n_nonfinite);
    EQ_NUM(result.validation.n_canary);
    EQ_STR(result.validation.reason);
    EQ_DBL(result.energy_j);
    EQ_DBL(result.energy_w);
    EQ_DBL(result.gflops_per_watt);
    EQ_NUM(result.energy_calls);
    EQ_DBL(result.energy_s);
    EQ_STR(result.energy_source);
    EQ_STR(result.energy_scope);
    EQ_STR(result.energy_why);
    EQ_STR(result.clocks_source);
    EQ_DBL(result.clock_mhz_start);
    EQ_DBL(result.clock_mhz_end);
    EQ_DBL(result.temp_c);
    EQ_STR(result.throttle);
    EQ_STR(result.governor);
    EQ_STR(tool_version);
    EQ_STR(git_revision);
    EQ_STR(hostname);
    EQ_STR(os);
    EQ_STR(timestamp);
    if (!a->env_json || !b->env_json || strcmp(a->env_json, b->env_json))
        mismatch("env_json");
    return mismatches;
}

/* A point no run would produce: every field distinctive. */
static void make_point(gb_point_t *pt, const char *device_name)
{
    gb_point_init(pt);
    gb_point_device_t *d = &pt->device;
    snprintf(d->name, sizeof d->name, "%s", device_name);
    snprintf(d->vendor, sizeof d->vendor, "Vendor, \"quoted\"");
    snprintf(d->type, sizeof d->type, "gpu");
    snprintf(d->version, sizeof d->version, "OpenCL 3.0 test");
    snprintf(d->platform, sizeof d->platform, "Test Platform");
    snprintf(d->platform_version, sizeof d->platform_version, "OpenCL 3.0 line\nbreak");
    snprintf(d->driver, sizeof d->driver, "9.8.7");
    d->compute_units = 132;
    d->clock_mhz = 1980;
    d->global_mem = 85899345920ull;
    d->local_mem = 232448;
    d->max_wg_size = 1024;
    d->fp64 = 1;
    d->peak_gflops[0] = 66908.16;
    d->peak_gflops[1] = 0.1;
    snprintf(d->peak_formula[0], sizeof d->peak_formula[0], "132 SMs x 128 lanes x 2 x 1.98 GHz");
    snprintf(d->peak_formula[1], sizeof d->peak_formula[1], "unknown");
    snprintf(pt->kernel, sizeof pt->kernel, "TEST_KERNEL_8x8");
    snprintf(pt->family, sizeof pt->family, "testfam");
    snprintf(pt->preset, sizeof pt->preset, "TEST_KERNEL_8x8");
    /* Unsorted on purpose: gb_point_define sorts, a store read gives them sorted. */
    gb_params_set(&pt->params, "ZZ", -3);
    gb_params_set(&pt->params, "AA", 1L << 40);
    gb_params_set(&pt->params, "MM", 0);
    snprintf(pt->source_hash, sizeof pt->source_hash, "fnv1a64:0123456789abcdef");
    gb_problem_init(&pt->problem, GB_PREC_D, 7, 11, 13);
    pt->problem.layout = GB_COL_MAJOR;
    pt->problem.trans_a = GB_TRANS;
    pt->problem.alpha = 0.1;
    pt->problem.beta = -2.5;
    pt->problem.lda = 20;
    pt->problem.ldb = 21;
    pt->problem.ldc = 22;
    pt->problem.off_a = 1;
    pt->problem.off_b = 2;
    pt->problem.off_c = 3;
    pt->seed = (1ull << 63) + 5; /* above 2^53: exported as exact text */
    pt->dist.kind = GB_DIST_UNIFORM;
    pt->dist.lo = -0.3;
    pt->dist.hi = 0.7;
    pt->warmup = 3;
    pt->iterations = 5;
    pt->timing = GB_TIMING_OFFLOAD;
    pt->pipeline = 4; /* a pipelined offload: in the definition */
    pt->rep = 2;
    snprintf(pt->source_origin, sizeof pt->source_origin, "/some/dir/testfam.json");
    pt->validate = GB_VALIDATE_ON;
    gb_result_t *r = &pt->result;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        gb_stats_t *s = &r->time_ms[ph];
        s->n = 5;
        s->min = 1.0 + ph;
        s->max = 2.0 + ph;
        s->median = 1.5 + ph;
        s->mean = 1.25 + ph;
        s->std = 0.1 * (ph + 1);
        s->ci95_lo = 1.2 + ph;
        s->ci95_hi = 1.3 + ph;
        r->samples_ms[ph] = malloc(5 * sizeof(double));
        for (int i = 0; i < 5; i++)
            r->samples_ms[ph][i] = 1.0 / 3.0 + ph + i;
    }
    r->samples_ms[GB_PHASE_HELPERS][4] = (double)NAN;
    r->time_ms[GB_PHASE_HELPERS].std = (double)NAN;
    r->timing = pt->timing;
    r->panels = 3;
    r->gflops = 1234.5678901234567;
    r->gflops_wall = 1e-300;
    r->efficiency = -1.0; /* unknown peak */
    r->build_ms = 42.25;
    r->cache_hit = 1;
    r->global[0] = 64;
    r->global[1] = 32;
    r->local[0] = 16;
    r->local[1] = 8;
    r->local_null = 0;
    r->swapped = 1;
    snprintf(r->route, sizeof r->route, "swap, transpose B");
    r->helpers = 1;
    snprintf(r->build_options, sizeof r->build_options, "-DX=1 -cl-mad-enable");
    gb_validation_t *v = &r->validation;
    v->done = 1;
    v->passed = 0;
    v->exact = 0;
    v->max_ratio = (double)INFINITY;
    v->bound_ratio = 1030.5;
    v->worst_i = 3;
    v->worst_j = 4;
    v->n_over = 7;
    v->n_nonfinite = 2;
    v->n_canary = 1;
    snprintf(v->reason, sizeof v->reason, "2 elements are NaN or Inf, first at (3, 4)");
    snprintf(r->energy_source, sizeof r->energy_source, "NVML total energy");
    snprintf(r->energy_scope, sizeof r->energy_scope, "whole calls incl. copies");
    r->energy_calls = 1234567;
    r->energy_s = 1.0000001;
    r->energy_j = 0.1 + 0.2; /* 17 digits to read back */
    r->energy_w = 612.75;
    r->gflops_per_watt = 2.0 / 3.0;
    snprintf(r->clocks_source, sizeof r->clocks_source, "NVML");
    r->clock_mhz_start = 1980;
    r->clock_mhz_end = 1755.5;
    r->temp_c = 61;
    snprintf(r->throttle, sizeof r->throttle, "power cap, thermal");
    setenv("POCL_GB_STORE_TEST", "value with \"quotes\"", 1);
    gb_point_set_provenance(pt);
    gb_point_compute_id(pt);
}

/* The point as gb_point_define would leave its parameters (sorted), for comparisons. */
static void sort_params(gb_point_t *pt)
{
    gb_params_t ps;
    memset(&ps, 0, sizeof ps);
    gb_params_set(&ps, "AA", 1L << 40);
    gb_params_set(&ps, "MM", 0);
    gb_params_set(&ps, "ZZ", -3);
    pt->params = ps;
    gb_point_compute_id(pt);
}

static size_t count_points(gb_store_t *st)
{
    size_t n = 0;
    gb_store_count(st, &n);
    return n;
}

static void test_roundtrip(const char *dir)
{
    char path[4200], path2[4200], json[4200], msg[1024];
    snprintf(path, sizeof path, "%s/a.db", dir);
    snprintf(path2, sizeof path2, "%s/b.db", dir);
    snprintf(json, sizeof json, "%s/export.json", dir);
    gb_store_t *st = NULL, *st2 = NULL;
    CHECK_RC(gb_store_open(&st, path, 0, msg, sizeof msg), GB_ENOSTORE); /* no file, no create */
    CHECK_HAS(msg, "no results store at");
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    gb_point_t pt, back;
    gb_point_init(&back);
    make_point(&pt, "Test Device 3000");
    sort_params(&pt);
    char why[512];
    CHECK_RC(gb_point_check(&pt, why, sizeof why), GB_OK);
    CHECK_RC(gb_store_insert(st, &pt), GB_OK);
    CHECK(gb_store_insert(st, &pt) == 1); /* the same id again: recognised, nothing written */
    CHECK(count_points(st) == 1);
    CHECK(gb_store_exists(st, pt.id) == 1);
    CHECK_RC(gb_store_get(st, pt.id, &back), GB_OK);
    CHECK(compare_points(&pt, &back) == 0);
    /* Energy unavailable: the reason, and no numbers. */
    gb_point_t off;
    make_point(&off, "Test Device 3001");
    sort_params(&off);
    off.result.energy_j = off.result.energy_w = off.result.gflops_per_watt = -1.0;
    off.result.energy_s = -1.0;
    off.result.energy_calls = 0;
    off.result.energy_source[0] = off.result.energy_scope[0] = '\0';
    snprintf(off.result.energy_why, sizeof off.result.energy_why,
             "RAPL not readable (/sys/class/powercap absent or not permitted)");
    /* And clocks of a CPU device: a governor, no throttling watched, no temperature. */
    snprintf(off.result.clocks_source, sizeof off.result.clocks_source, "cpufreq");
    off.result.temp_c = -1;
    off.result.throttle[0] = '\0';
    snprintf(off.result.governor, sizeof off.result.governor, "performance");
    /* And zero-copy from mapped host memory, serial (mapped has nothing to pipeline). */
    off.host_mem = GB_HOST_MAPPED;
    off.pipeline = 0;
    off.result.panels = 0;
    CHECK_RC(gb_point_compute_id(&off), GB_OK);
    /* The pipeline enters a definition only when set, mapped memory as any kind but pageable:
     * the ids of points made before them stay. */
    char *def = NULL;
    CHECK_RC(gb_point_definition(&pt, &def), GB_OK);
    CHECK(def && strstr(def, "pipeline") && !strstr(def, "host_mem"));
    free(def);
    CHECK_RC(gb_point_definition(&off, &def), GB_OK);
    CHECK(def && !strstr(def, "pipeline") && strstr(def, "mapped"));
    free(def);
    CHECK_RC(gb_store_insert(st, &off), GB_OK);
    CHECK_RC(gb_store_get(st, off.id, &back), GB_OK);
    CHECK(compare_points(&off, &back) == 0);
    CHECK(back.result.energy_j == -1.0 && back.result.energy_calls == 0);
    CHECK(count_points(st) == 2);
    char id[GB_POINT_ID_LEN + 1];
    char prefix[8];
    snprintf(prefix, sizeof prefix, "%.6s", pt.id);
    CHECK_RC(gb_store_resolve_id(st, prefix, id), GB_OK);
    CHECK(!strcmp(id, pt.id));
    CHECK_RC(gb_store_resolve_id(st, "xyz", id), GB_EBADARG);

    /* Bad input writes nothing: a wrong id, samples that do not match the iterations. */
    gb_point_t bad = pt;
    bad.id[0] = bad.id[0] == '0' ? '1' : '0';
    CHECK_RC(gb_store_insert(st, &bad), GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st), "does not match its definition");
    bad = pt;
    bad.iterations = 6;
    gb_point_compute_id(&bad);
    CHECK_RC(gb_store_insert(st, &bad), GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st), "one sample per timed call");
    bad = pt;
    bad.timestamp[0] = '\0';
    CHECK_RC(gb_store_insert(st, &bad), GB_EBADPOINT);
    CHECK(count_points(st) == 2);
    size_t checked = 0, faults = 0;
    CHECK_RC(gb_store_check(st, &checked, &faults), GB_OK);
    CHECK(checked == 2 && faults == 0);

    /* The next repetition of the same definition is a new point. */
    gb_point_t again;
    gb_point_init(&again);
    again = pt;
    again.env_json = NULL;
    memset(again.result.samples_ms, 0, sizeof again.result.samples_ms);
    gb_point_set_result(&again, &pt.result);
    again.env_json = malloc(3);
    strcpy(again.env_json, "{}");
    CHECK_RC(gb_store_insert_next_rep(st, &again), GB_OK);
    CHECK(again.rep == 0); /* rep 2 was taken; 0 was free */
    CHECK(strcmp(again.id, pt.id) != 0);
    CHECK_RC(gb_store_insert_next_rep(st, &again), GB_OK);
    CHECK(again.rep == 1);
    CHECK_RC(gb_store_insert_next_rep(st, &again), GB_OK);
    CHECK(again.rep == 3);
    CHECK(count_points(st) == 5);
    gb_point_free(&again);

    /* Export, import into a fresh store: the same point, field by field; twice adds nothing. */
    FILE *f = fopen(json, "wb");
    size_t n = 0;
    CHECK_RC(gb_store_export_json(st, f, &n), GB_OK);
    fclose(f);
    CHECK(n == 5);
    size_t len = 0, added = 0, present = 0;
    char *text = unit_read_file(json, &len);
    CHECK(text != NULL);
    CHECK_HAS(text, "\"seed\":\t\"9223372036854775813\"");
    CHECK_HAS(text, "\"max_ratio\":\t\"inf\"");
    CHECK_HAS(text, "\"efficiency\":\tnull");
    CHECK_HAS(text, "\"energy_calls\":\t1234567");
    CHECK_HAS(text, "\"energy_j\":\t0.30000000000000004");
    CHECK_HAS(text, "\"energy_source\":\tnull"); /* the point without energy */
    CHECK_HAS(text, "\"energy_why\":\t\"RAPL not readable");
    CHECK_RC(gb_store_open(&st2, path2, GB_STORE_CREATE, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_import_json(st2, text, len, "export.json", &added, &present), GB_OK);
    CHECK(added == 5 && present == 0);
    CHECK_RC(gb_store_import_json(st2, text, len, "export.json", &added, &present), GB_OK);
    CHECK(added == 0 && present == 5);
    CHECK_RC(gb_store_import_json(st, text, len, "export.json", &added, &present), GB_OK);
    CHECK(added == 0 && present == 5);
    CHECK_RC(gb_store_get(st2, pt.id, &back), GB_OK);
    CHECK(compare_points(&pt, &back) == 0);
    CHECK_RC(gb_store_get(st2, off.id, &back), GB_OK);
    CHECK(compare_points(&off, &back) == 0);

    /* Malformed imports write nothing and name what is wrong. */
    CHECK_RC(gb_store_import_json(st2, text, len / 2, "half.json", &added, &present), GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st2), "half.json is not valid JSON (line");
    cJSON *root = cJSON_Parse(text);
    cJSON *points = cJSON_GetObjectItem(root, "points");
    cJSON *p0 = cJSON_GetArrayItem(points, 0);
    cJSON_AddNumberToObject(p0, "colour", 3);
    char *edited = cJSON_Print(root);
    gb_store_t *st3 = NULL;
    char path3[4200];
    snprintf(path3, sizeof path3, "%s/c.db", dir);
    CHECK_RC(gb_store_open(&st3, path3, GB_STORE_CREATE, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_store_import_json(st3, edited, strlen(edited), "x.json", &added, &present),
             GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st3), "points[0]: key 'colour' is not a key of the export format");
    free(edited);
    cJSON_DeleteItemFromObject(p0, "colour");
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(points, 4), "m", cJSON_CreateNumber(99));
    edited = cJSON_Print(root);
    CHECK_RC(gb_store_import_json(st3, edited, strlen(edited), "x.json", &added, &present),
             GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st3), "points[4]: id");
    CHECK(count_points(st3) == 0); /* points 0..3 were fine, yet nothing was written */
    free(edited);
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(points, 4), "m", cJSON_CreateNumber(7));
    cJSON_ReplaceItemInObject(cJSON_GetArrayItem(points, 1), "energy_calls",
                              cJSON_CreateNumber(-2));
    edited = cJSON_Print(root);
    CHECK_RC(gb_store_import_json(st3, edited, strlen(edited), "x.json", &added, &present),
             GB_EBADPOINT);
    CHECK_HAS(gb_store_errmsg(st3), "points[1]: key 'energy_calls' is out of range");
    free(edited);
    cJSON_Delete(root);
    gb_store_close(st3);
    free(text);

    /* CSV: a header and one line per point, quoted where needed. */
    f = fopen(json, "wb");
    CHECK_RC(gb_store_export_csv(st2, f, &n), GB_OK);
    fclose(f);
    text = unit_read_file(json, &len);
    CHECK_HAS(text, "id,device_name,");
    CHECK_HAS(text, "\"Vendor, \"\"quoted\"\"\"");
    CHECK_HAS(text, "main_median_ms");
    CHECK_HAS(text,
              ",timestamp,energy_source,energy_scope,energy_calls,energy_s,energy_j,"
              "energy_w,gflops_per_watt,energy_why,host_mem,cold,faithful,faithful_worst,faithful_"
              "honest,min_time,max_rel_ci,stop,clocks_source,clock_mhz_start,clock_mhz_end,temp_c,"
              "throttle,governor,pipeline,panels,alpha_im,beta_im,conj_a,conj_b,main_n,");
    CHECK_HAS(text, ",mapped,0,"); /* the mapped point's host_mem and cold */
    CHECK_HAS(text, ",NVML total energy,whole calls incl. "
                    "copies,1234567,1.0000001,0.30000000000000004,612.75,");
    free(text);

    /* Not a store: a text file, and an SQLite database of something else. */
    gb_store_t *nope = NULL;
    unit_write_file(dir, "text.db", "this is not a database, just some text that is long enough\n");
    char tpath[4200];
    snprintf(tpath, sizeof tpath, "%s/text.db", dir);
    CHECK_RC(gb_store_open(&nope, tpath, 0, msg, sizeof msg), GB_ENOTSTORE);
    CHECK_HAS(msg, "is not an SQLite database");
    snprintf(tpath, sizeof tpath, "%s/no/such/dir/x.db", dir);
    CHECK(gb_store_open(&nope, tpath, GB_STORE_CREATE, msg, sizeof msg) != GB_OK);
    CHECK_HAS(msg, "cannot open store");
    CHECK(nope == NULL);

    gb_point_free(&pt);
    gb_point_free(&off);
    gb_point_free(&back);
    gb_store_close(st);
    gb_store_close(st2);
}

/* The energy fields of a run: measured by a loop of device-only calls, or unavailable with a
 * reason and no numbers. */
static int energy_coherent(const gb_result_t *r)
{
    if (r->gflops_per_watt > 0)
        return r->energy_j > 0 && r->energy_w > 0 && r->energy_calls > 0 && r->energy_s > 0 &&
               r->energy_source[0] && !strcmp(r->energy_scope, "device-only calls") &&
               !r->energy_why[0];
    return r->energy_j == -1.0 && r->energy_w == -1.0 && r->gflops_per_watt == -1.0 &&
           !r->energy_source[0] && r->energy_why[0];
}

/* A real run on the default device, stored twice as repetitions 0 and 1 and read back; then
 * with the energy loop turned off, stored as repetition 2, and with a bad loop duration. */
static void test_device(const char *dir)
{
    gb_device_info_t *list = NULL;
    size_t count = 0;
    char msg[1024], path[4200];
    if (gb_device_list(&list, &count, msg, sizeof msg) != GB_OK || count == 0) {
        printf("no OpenCL device: the device part is skipped\n");
        return;
    }
    gb_registry_t *reg = NULL;
    gb_context_t *ctx = NULL;
    gb_store_t *st = NULL;
    gb_impl_t cfg;
    gb_problem_t p;
    gb_bench_options_t o;
    gb_result_t r;
    gb_point_t pt, back;
    gb_point_init(&pt);
    gb_point_init(&back);
    snprintf(path, sizeof path, "%s/run.db", dir);
    gb_problem_init(&p, GB_PREC_S, 16, 12, 8);
    gb_bench_options_init(&o);
    o.iterations = 2;
    o.warmup = 0;
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK) ||
        !CHECK_RC(gb_impl_resolve(reg, "SGEMM_NT_4x1", NULL, &cfg, msg, sizeof msg), GB_OK) ||
        !CHECK_RC(gb_context_open(&ctx, &list[0], msg, sizeof msg), GB_OK) ||
        !CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        goto done;
    p.trans_b = GB_TRANS;
    /* Where the device has an energy counter, a short loop keeps the test quick. */
    setenv("GEMMBENCH_ENERGY_MIN_S", "0.05", 1);
    if (!CHECK_RC(gb_bench_run(ctx, &cfg, &p, &o, &r), GB_OK)) {
        printf("    %s\n", gb_context_errmsg(ctx));
        goto done;
    }
    CHECK(energy_coherent(&r));
    CHECK_RC(gb_point_define(&pt, &list[0], &cfg, &p, &o, 0, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_point_set_result(&pt, &r), GB_OK);
    CHECK_RC(gb_point_set_provenance(&pt), GB_OK);
    gb_result_free(&r);
    CHECK(!strcmp(pt.kernel, "SGEMM_NT_4x1") && !strcmp(pt.family, "gemmbench_nt"));
    CHECK(!strncmp(pt.source_hash, "sha256:", 7) && strlen(pt.source_hash) == 40);
    CHECK(pt.problem.lda == 8 && pt.problem.ldb == 8 && pt.problem.ldc == 12);
    CHECK(strlen(pt.timestamp) == 20 && pt.timestamp[19] == 'Z');
    CHECK_RC(gb_store_insert_next_rep(st, &pt), GB_OK);
    CHECK(pt.rep == 0);
    char first[GB_POINT_ID_LEN + 1];
    memcpy(first, pt.id, sizeof first);
    CHECK_RC(gb_store_get(st, first, &back), GB_OK);
    CHECK(compare_points(&pt, &back) == 0);
    CHECK(back.result.validation.done && back.result.validation.passed);
    /* The same definition again: the next repetition, a different id. */
    CHECK_RC(gb_store_insert_next_rep(st, &pt), GB_OK);
    CHECK(pt.rep == 1 && strcmp(pt.id, first) != 0);
    /* Defining it anew recomputes the first id: ids do not depend on measured values. */
    gb_point_t again;
    gb_point_init(&again);
    CHECK_RC(gb_point_define(&again, &list[0], &cfg, &p, &o, 0, msg, sizeof msg), GB_OK);
    CHECK(!strcmp(again.id, first));
    gb_point_free(&again);
    /* GEMMBENCH_ENERGY_MIN_S=0: no loop, energy unavailable and saying why, on any device. */
    setenv("GEMMBENCH_ENERGY_MIN_S", "0", 1);
    if (CHECK_RC(gb_bench_run(ctx, &cfg, &p, &o, &r), GB_OK)) {
        CHECK(energy_coherent(&r) && r.energy_calls == 0 && r.energy_s == -1.0);
        CHECK(!strcmp(r.energy_why, "disabled by GEMMBENCH_ENERGY_MIN_S=0"));
        CHECK_RC(gb_point_define(&pt, &list[0], &cfg, &p, &o, 0, msg, sizeof msg), GB_OK);
        CHECK_RC(gb_point_set_result(&pt, &r), GB_OK);
        CHECK_RC(gb_point_set_provenance(&pt), GB_OK);
        gb_result_free(&r);
        CHECK_RC(gb_store_insert_next_rep(st, &pt), GB_OK);
        CHECK(pt.rep == 2);
        CHECK_RC(gb_store_get(st, pt.id, &back), GB_OK);
        CHECK(compare_points(&pt, &back) == 0);
    }
    setenv("GEMMBENCH_ENERGY_MIN_S", "soon", 1);
    if (CHECK_RC(gb_bench_run(ctx, &cfg, &p, &o, &r), GB_OK)) {
        CHECK(energy_coherent(&r));
        CHECK_HAS(r.energy_why, "GEMMBENCH_ENERGY_MIN_S='soon' is not a number of seconds");
        gb_result_free(&r);
    }
    unsetenv("GEMMBENCH_ENERGY_MIN_S");
done:
    gb_point_free(&pt);
    gb_point_free(&back);
    gb_store_close(st);
    gb_context_close(ctx);
    gb_registry_close(reg);
    gb_device_list_free(list, count);
}

/* Measured ceilings: absent, stored, read back per device and driver, replaced by a newer one. */
static void test_ceilings(const char *dir)
{
    char path[256], msg[1024], when[32];
    snprintf(path, sizeof path, "%s/ceilings.db", dir);
    gb_store_t *st = NULL;
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        return;
    gb_device_info_t dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "Ceiling Device");
    snprintf(dev.platform_version, sizeof dev.platform_version, "OpenCL 3.0 test");
    snprintf(dev.driver, sizeof dev.driver, "1.0");
    gb_ceilings_t c, got;
    memset(&c, 0, sizeof c);
    c.peak_gflops[0] = 1234.5;
    c.peak_gflops[1] = 617.25;
    c.bandwidth_gbs = 99.5;
    c.h2d_gbs[GB_HOST_PINNED] = 25.5;
    c.d2h_gbs[GB_HOST_PAGEABLE] = 6.25;
    snprintf(c.method, sizeof c.method, "method text");
    CHECK_RC(gb_store_get_ceilings(st, &dev, &got, when), 0);
    CHECK_RC(gb_store_put_ceilings(st, &dev, &c), GB_OK);
    CHECK_RC(gb_store_get_ceilings(st, &dev, &got, when), 1);
    CHECK(got.peak_gflops[0] == 1234.5 && got.peak_gflops[1] == 617.25);
    CHECK(got.bandwidth_gbs == 99.5 && !strcmp(got.method, "method text"));
    /* The copies' ceilings; one not measured reads back as 0. */
    CHECK(got.h2d_gbs[GB_HOST_PINNED] == 25.5 && got.d2h_gbs[GB_HOST_PAGEABLE] == 6.25);
    CHECK(got.h2d_gbs[GB_HOST_PAGEABLE] == 0 && got.d2h_gbs[GB_HOST_PINNED] == 0);
    CHECK(strlen(when) == 20 && when[10] == 'T' && when[19] == 'Z');
    snprintf(dev.driver, sizeof dev.driver, "2.0"); /* another driver: not measured */
    CHECK_RC(gb_store_get_ceilings(st, &dev, &got, when), 0);
    snprintf(dev.driver, sizeof dev.driver, "1.0");
    c.peak_gflops[0] = 2000.0;
    CHECK_RC(gb_store_put_ceilings(st, &dev, &c), GB_OK);
    CHECK_RC(gb_store_get_ceilings(st, &dev, &got, when), 1);
    CHECK(got.peak_gflops[0] == 2000.0);
    gb_store_close(st);
}

/* --make-many DB N: N points of the made-up device in a new store. */
static int make_many(const char *path, const char *count)
{
    char msg[1024];
    gb_store_t *st = NULL;
    gb_point_t pt;
    const unsigned n = (unsigned)strtoul(count, NULL, 10);
    if (gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    make_point(&pt, "No Such Device 9000");
    /* Sorted, as a store read or an import gives them, so that the ids survive an export. */
    memset(&pt.params, 0, sizeof pt.params);
    gb_params_set(&pt.params, "AA", 1L << 40);
    gb_params_set(&pt.params, "MM", 0);
    gb_params_set(&pt.params, "ZZ", -3);
    int rc = GB_OK;
    for (unsigned i = 0; rc == GB_OK && i < n; i++) {
        pt.rep = i;
        if ((rc = gb_point_compute_id(&pt)) == GB_OK)
            rc = gb_store_insert(st, &pt) < 0 ? GB_EIO : GB_OK;
    }
    if (rc != GB_OK)
        fprintf(stderr, "%s\n", gb_store_errmsg(st));
    gb_point_free(&pt);
    gb_store_close(st);
    return rc == GB_OK ? 0 : 1;
}

/* --sql DB SQL: SQLite on its own, printing each result row's first column. */
static int print_row(void *user, int ncols, char **values, char **names)
{
    (void)user;
    (void)names;
    if (ncols > 0)
        printf("%s\n", values[0] ? values[0] : "NULL");
    return 0;
}

static int run_sql(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    char *err = NULL;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, print_row, NULL, &err);
    if (rc != SQLITE_OK)
        fprintf(stderr, "%s\n", err ? err : db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_free(err);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--sql"))
        return run_sql(argv[2], argv[3]);
    if (argc == 4 && !strcmp(argv[1], "--make-many"))
        return make_many(argv[2], argv[3]);
    if (argc == 3 && !strcmp(argv[1], "--make-foreign")) {
        char msg[1024];
        gb_store_t *st = NULL;
        gb_point_t pt;
        if (gb_store_open(&st, argv[2], GB_STORE_CREATE, msg, sizeof msg) != GB_OK) {
            fprintf(stderr, "%s\n", msg);
            return 1;
        }
        make_point(&pt, "No Such Device 9000");
        int rc = gb_store_insert(st, &pt);
        if (rc == GB_OK || rc == 1)
            printf("%s\n", pt.id);
        else
            fprintf(stderr, "%s\n", gb_store_errmsg(st));
        gb_point_free(&pt);
        gb_store_close(st);
        return rc == GB_OK || rc == 1 ? 0 : 1;
    }
    char dir[64];
    if (!unit_make_dir(dir, sizeof dir)) {
        printf("cannot make a temporary directory\n");
        return 1;
    }
    test_roundtrip(dir);
    test_device(dir);
    test_ceilings(dir);
    /* SQLite's WAL side files and the test's own files. */
    unit_remove_dir(dir);
    return unit_finish();
}
