/* report_unit.c: the report module (src/tool/report/) on points made in memory, for what a store
 * measured on PoCL cannot show: two devices, a rectangular size, a gap in the repetitions,
 * more repetitions than the tables have columns, a failed validation, energy, a filter that
 * takes nothing; and the HTML page with all three kinds of plot, which needs gnuplot. Then
 * energy through a results store: points with energy and one without (and its reason) stored,
 * read back by gb_report_read, and shown as GFLOP/s per watt (or the reason there is none). And
 * the tuning view: winners by shape class, tuning runs and their best-so-far curves, filtered,
 * in every format. The time-energy Pareto front of candidates (gb_report_pareto): dominated,
 * equal, not finite, and a front of one. No OpenCL device is used. */
#include <math.h>

#include "unit.h"

#include "tool/report/compare.h"
#include "tool/report/report.h"

static unsigned ids;

/* One point: kernel on dev at m x n x k, repetition rep, with its GFLOP/s and (when energy > 0)
 * its energy in joules per call, else energy unavailable; lx > 0 sets the work-group size
 * parameters. */
static void make(gb_point_t *out, const char *dev, const char *kernel, size_t m, size_t n, size_t k,
                 long lx, long ly, unsigned rep, double gflops, double energy, int fail)
{
    gb_point_t pt;
    gb_point_init(&pt);
    snprintf(pt.device.name, sizeof pt.device.name, "%s", dev);
    snprintf(pt.device.vendor, sizeof pt.device.vendor, "Vendor");
    snprintf(pt.device.platform, sizeof pt.device.platform, "Platform");
    snprintf(pt.device.driver, sizeof pt.device.driver, "1.0");
    snprintf(pt.device.type, sizeof pt.device.type, "gpu");
    snprintf(pt.kernel, sizeof pt.kernel, "%s", kernel);
    snprintf(pt.family, sizeof pt.family, "fam_%s", kernel);
    snprintf(pt.source_hash, sizeof pt.source_hash, "fnv1a64:0123456789abcdef");
    gb_problem_init(&pt.problem, GB_PREC_S, m, n, k);
    gb_problem_check(&pt.problem, NULL, 0);
    gb_params_set(&pt.params, "VW", 4);
    if (lx > 0) {
        gb_params_set(&pt.params, "LX", lx);
        gb_params_set(&pt.params, "LY", ly);
    }
    pt.seed = 42;
    pt.dist.kind = GB_DIST_UNIFORM;
    pt.dist.lo = -1;
    pt.dist.hi = 1;
    pt.warmup = 1;
    pt.iterations = 10;
    pt.timing = GB_TIMING_OPS;
    pt.rep = rep;
    pt.result.gflops = gflops;
    gb_result_t *res = &pt.result;
    if (energy > 0) {
        res->energy_j = energy;
        res->energy_calls = 1000;
        res->energy_s = 2.0;
        res->energy_w = energy * 1000 / 2.0;
        res->gflops_per_watt = gflops / energy;
        snprintf(res->energy_source, sizeof res->energy_source, "NVML total energy");
        snprintf(res->energy_scope, sizeof res->energy_scope, "device-only calls");
    } else {
        res->energy_j = res->energy_w = res->gflops_per_watt = res->energy_s = -1;
        snprintf(res->energy_why, sizeof res->energy_why, "RAPL not readable (test)");
    }
    pt.result.validation.done = 1;
    pt.result.validation.passed = !fail;
    pt.result.validation.max_ratio = 2;
    pt.result.validation.bound_ratio = 100;
    snprintf(pt.result.validation.reason, sizeof pt.result.validation.reason, "%s",
             fail ? "3 elements over the bound" : "");
    snprintf(pt.id, sizeof pt.id, "%016x", ++ids);
    *out = pt;
}

static void add(gb_report_t *r, const char *dev, const char *kernel, size_t m, size_t n, size_t k,
                long lx, long ly, unsigned rep, double gflops, double energy, int fail)
{
    gb_point_t pt;
    make(&pt, dev, kernel, m, n, k, lx, ly, rep, gflops, energy, fail);
    CHECK_RC(gb_report_add(r, &pt), GB_OK);
    gb_point_free(&pt);
}

/* A copy of the first line of text holding both a and b (caller frees), or NULL. */
static char *line_with(const char *text, const char *a, const char *b)
{
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        char *line = malloc(n + 1);
        if (!line)
            return NULL;
        memcpy(line, l, n);
        line[n] = '\0';
        if (strstr(line, a) && strstr(line, b))
            return line;
        free(line);
        l += n + (nl != NULL);
    }
    return NULL;
}

/* The report written in fmt into a string (caller frees), or NULL. */
static char *written(const gb_report_t *r, gb_report_format_t fmt, unsigned tables, int *rc)
{
    char *text = NULL, msg[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    *rc = gb_report_write(r, fmt, tables, f, msg, sizeof msg);
    fclose(f);
    if (*rc != GB_OK)
        printf("    write: %s\n", msg);
    return text;
}

/* Energy from a results store: two repetitions with energy (GFLOP/s per watt 20 and 22) and a
 * kernel without, whose reason the page gives when it is the only one selected. */
static void test_store(void)
{
    char dir[64], path[256], msg[512];
    gb_store_t *st = NULL;
    gb_report_t *r = NULL;
    if (!unit_make_dir(dir, sizeof dir))
        return;
    snprintf(path, sizeof path, "%s/r.db", dir);
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        goto done;
    for (unsigned i = 0; i < 3; i++) {
        gb_point_t pt;
        make(&pt, "Card S", i < 2 ? "withenergy" : "without", 256, 256, 256, 0, 0, i < 2 ? i : 0,
             100.0 + 10.0 * i, i < 2 ? (100.0 + 10.0 * i) / (20.0 + 2.0 * i) : 0, 0);
        pt.iterations = 2;
        pt.result.timing = pt.timing;
        for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
            pt.result.time_ms[ph].n = 2;
            pt.result.samples_ms[ph] = calloc(2, sizeof(double));
        }
        CHECK_RC(gb_point_set_provenance(&pt), GB_OK);
        CHECK_RC(gb_point_compute_id(&pt), GB_OK);
        CHECK_RC(gb_store_insert(st, &pt), GB_OK);
        gb_point_free(&pt);
    }
    gb_report_filter_t all = {NULL, NULL, -1, -1};
    if (!CHECK_RC(gb_report_read(&r, st, &all, NULL, msg, sizeof msg), GB_OK))
        goto done;
    int rc;
    char *t = written(r, GB_REPORT_TEXT, GB_REPORT_REPS, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        CHECK_HAS(t, "GFLOP/s/W: 2*M*N*K times the calls of the energy loop");
        char *line = line_with(t, "withenergy", "105.00");
        CHECK(line && strstr(line, "21.00")); /* the mean of 20 and 22 */
        free(line);
        line = line_with(t, "without", "120.00");
        CHECK(line && !strstr(line, "21.00"));
        free(line);
    }
    free(t);
    t = written(r, GB_REPORT_JSON, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t && strstr(t, "\"gflops_per_watt\":\t21,"));
    free(t);
    gb_report_close(r);
    /* Only the point without energy: the page says why. */
    gb_report_filter_t without = {"without", NULL, -1, -1};
    r = NULL;
    if (!CHECK_RC(gb_report_read(&r, st, &without, NULL, msg, sizeof msg), GB_OK))
        goto done;
    t = written(r, GB_REPORT_HTML, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t);
    CHECK_HAS(t, "No energy measurements in the selected points (the first says: RAPL not "
                 "readable (test))");
    free(t);
done:
    gb_report_close(r);
    gb_store_close(st);
    unit_remove_dir(dir);
}

/* ---- the tuning view ------------------------------------------------------------------------ */

static gb_tuned_entry_t tuned(const char *dev, gb_precision_t prec, size_t size, double gflops)
{
    gb_tuned_entry_t e;
    memset(&e, 0, sizeof e);
    snprintf(e.device, sizeof e.device, "%s", dev);
    snprintf(e.platform, sizeof e.platform, "Plat");
    snprintf(e.driver, sizeof e.driver, "1.0");
    e.precision = prec;
    snprintf(e.layout, sizeof e.layout, "row-NN");
    e.m = e.n = e.k = size;
    snprintf(e.shape_class, sizeof e.shape_class, "square-%zu", size);
    snprintf(e.kernel, sizeof e.kernel, "xgemm");
    gb_params_set(&e.params, "KWG", 16); /* sorted, as the store gives them */
    gb_params_set(&e.params, "MWG", 64);
    e.gflops = gflops;
    snprintf(e.evidence[e.nevidence++], sizeof e.evidence[0], "0123456789abcdef");
    snprintf(e.tuned_at, sizeof e.tuned_at, "2026-11-24T10:00:00Z");
    snprintf(e.source, sizeof e.source, "store");
    return e;
}

/* A run of dev with the best-so-far values given (negative: nothing succeeded yet). */
static void run_with(gb_report_t *r, int64_t id, const char *dev, const char *strategy,
                     const double *best, size_t n)
{
    gb_tune_run_t run;
    memset(&run, 0, sizeof run);
    run.id = id;
    snprintf(run.device, sizeof run.device, "%s", dev);
    snprintf(run.platform, sizeof run.platform, "Plat");
    snprintf(run.kernel, sizeof run.kernel, "xgemm");
    run.precision = GB_PREC_S;
    snprintf(run.layout, sizeof run.layout, "row-NN");
    run.m = run.n = run.k = 512;
    snprintf(run.shape_class, sizeof run.shape_class, "square-512");
    snprintf(run.strategy, sizeof run.strategy, "%s", strategy);
    run.seed = (1ull << 63) + 1; /* past 2^53: JSON keeps it as text */
    snprintf(run.status, sizeof run.status, "done");
    CHECK_RC(gb_report_add_run(r, &run), GB_OK);
    for (size_t i = 0; i < n; i++) {
        gb_tune_eval_t ev;
        memset(&ev, 0, sizeof ev);
        ev.run_id = id;
        ev.seq = i;
        ev.best = best[i];
        CHECK_RC(gb_report_add_eval(r, &ev), GB_OK);
    }
}

/* Winners sorted by shape class (size within a kind), the filter applied to tuning data, runs
 * with their best-so-far curves, and each format; a report without tuning data shows no view. */
static void test_tuning(void)
{
    gb_report_t *r = NULL;
    gb_report_filter_t single = {NULL, "plat", GB_PREC_S, -1};
    if (!CHECK_RC(gb_report_open(&r, &single), GB_OK))
        return;
    gb_tuned_entry_t e = tuned("Card T", GB_PREC_S, 4096, 900.5);
    CHECK_RC(gb_report_add_tuned(r, &e), GB_OK);
    e = tuned("Card T", GB_PREC_S, 512, 300.25);
    CHECK_RC(gb_report_add_tuned(r, &e), GB_OK);
    e = tuned("Card T", GB_PREC_D, 512, 150); /* left out by --precision s */
    CHECK_RC(gb_report_add_tuned(r, &e), GB_OK);
    static const double a[] = {-1, 40, 40, 55}, b[] = {10, 20};
    run_with(r, 7, "Card T", "bayes", a, 4);
    run_with(r, 9, "Card T", "random", b, 2);
    CHECK_RC(gb_report_finish(r, "memory"), GB_OK);
    CHECK(gb_report_tuned(r) == 2 && gb_report_tune_runs(r) == 2);
    CHECK(gb_report_tuning_offered(r) == 5 && gb_report_offered(r) == 0);
    CHECK_RC(gb_report_add_tuned(r, &e), GB_EBADARG);

    int rc;
    char *t = written(r, GB_REPORT_TEXT, GB_REPORT_TUNED, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        CHECK_HAS(t, "tuning data: 2 tuned entries and 2 tuning runs selected (of 5)");
        const char *small = strstr(t, "square-512 "), *big = strstr(t, "square-4096 ");
        CHECK(small && big && small < big); /* by size, not as text */
        char *line = line_with(t, "square-4096", "KWG=16 MWG=64");
        CHECK(line && strstr(line, "900.50"));
        free(line);
        line = line_with(t, "bayes", "done");
        CHECK(line && strstr(line, "  4  ") && strstr(line, "55.00"));
        free(line);
        CHECK(!strstr(t, "150.00") && !strstr(t, "Repetitions"));
    }
    free(t);
    t = written(r, GB_REPORT_CSV, GB_REPORT_TUNED, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        CHECK(!strncmp(t,
                       "shape_class,device,platform,driver,vendor,type,precision,layout,m,n,k,"
                       "kernel,params,gflops,evidence,tuned_at\nsquare-512,Card T,",
                       120));
        CHECK_HAS(t, ",xgemm,\"{\"\"KWG\"\":16,\"\"MWG\"\":64}\",900.5,0123456789abcdef,");
    }
    free(t);
    t = written(r, GB_REPORT_JSON, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        CHECK_HAS(t, "\"tuned\":\t[{");
        CHECK_HAS(t, "\"seed\":\t\"9223372036854775809\"");
        CHECK_HAS(t, "\"best_so_far\":\t[null, 40, 40, 55]");
    }
    free(t);
    t = written(r, GB_REPORT_HTML, GB_REPORT_TUNED, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        size_t svgs = 0;
        for (const char *p = t; (p = strstr(p, "<svg")); p++)
            svgs++;
        CHECK(svgs == 1); /* the runs' plot alone: no point to plot */
        CHECK_HAS(t, "<h3>Tuning runs</h3>");
        CHECK(!strstr(t, "<h2>Energy") && !strstr(t, "GFLOP/s against matrix order"));
    }
    free(t);
    gb_report_close(r);

    /* Points without tuning data: no tuning view, unless it alone is asked for. */
    r = NULL;
    if (!CHECK_RC(gb_report_open(&r, &single), GB_OK))
        return;
    add(r, "Card T", "k1", 64, 64, 64, 0, 0, 0, 1.0, 0, 0);
    CHECK_RC(gb_report_finish(r, "memory"), GB_OK);
    t = written(r, GB_REPORT_TEXT, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t && !strstr(t, "Tuning") && !strstr(t, "tuning data"));
    free(t);
    t = written(r, GB_REPORT_TEXT, GB_REPORT_TUNED, &rc);
    CHECK(rc == GB_OK && t && strstr(t, "No tuning data in the store"));
    free(t);
    gb_report_close(r);
}

/* The Mann-Whitney U test of compare: exact p for small samples against hand counts (the
 * Gaussian binomial's coefficients), the normal approximation for large or tied ones. */
static void test_mann_whitney(void)
{
    const double a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    int exact = 0;
    /* 3 against 3 apart: U = 0, P = 1 / C(6, 3) a tail, p = 0.1. */
    CHECK(fabs(gb_mann_whitney(a, 3, a + 3, 3, &exact) - 0.1) < 1e-12 && exact);
    /* and the other way round */
    CHECK(fabs(gb_mann_whitney(a + 3, 3, a, 3, &exact) - 0.1) < 1e-12 && exact);
    /* 5 against 5 apart: p = 2 / C(10, 5) = 2 / 252. */
    CHECK(fabs(gb_mann_whitney(a, 5, a + 5, 5, &exact) - 2.0 / 252) < 1e-12 && exact);
    /* Interleaved {1, 3, 5} and {2, 4, 6}: U = 3, P(U <= 3) = (1 + 1 + 2 + 3) / 20, p = 0.7. */
    const double odd[] = {1, 3, 5}, even[] = {2, 4, 6};
    CHECK(fabs(gb_mann_whitney(odd, 3, even, 3, &exact) - 0.7) < 1e-12 && exact);
    /* All the same: ties everywhere, nothing to tell apart. */
    const double same[] = {2, 2, 2, 2, 2, 2};
    CHECK(gb_mann_whitney(same, 3, same + 3, 3, &exact) == 1 && !exact);
    /* 60 against 60, apart: the normal approximation, far below any alpha; the same 60 twice:
     * p = 1. */
    double x[60], y[60];
    for (int i = 0; i < 60; i++) {
        x[i] = i;
        y[i] = 100 + i;
    }
    CHECK(gb_mann_whitney(x, 60, y, 60, &exact) < 1e-15 && !exact);
    CHECK(fabs(gb_mann_whitney(x, 60, x, 60, &exact) - 1) < 1e-12);
}

/* The front of a tuning run's candidates: time and energy per GEMM. */
static void test_pareto(void)
{
    /* 0 fast and costly, 1 slow and frugal, 2 between them on both (on the front), 3 beaten
     * by 2 in both, 4 as fast as 0 but costlier, 5 equal to 2 (the first stays), 6 without
     * energy. */
    const double t[] = {1.0, 4.0, 2.0, 2.5, 1.0, 2.0, 0.5};
    const double e[] = {9.0, 1.0, 3.0, 3.5, 9.5, 3.0, (double)NAN};
    unsigned char on[7];
    CHECK(gb_report_pareto(t, e, 7, on) == 3);
    const unsigned char want[] = {1, 1, 1, 0, 0, 0, 0};
    for (size_t i = 0; i < 7; i++)
        CHECK(on[i] == want[i]);
    /* One candidate is its own front; the fastest and the most frugal are always on it. */
    CHECK(gb_report_pareto(t + 2, e + 2, 1, on) == 1 && on[0] == 1);
    const double t2[] = {3.0, 1.0, 2.0}, e2[] = {1.0, 3.0, 2.0};
    CHECK(gb_report_pareto(t2, e2, 3, on) == 3);
    /* One that beats every other in both: the front is it alone. */
    const double t3[] = {3.0, 1.0, 2.0}, e3[] = {3.0, 1.0, 2.0};
    CHECK(gb_report_pareto(t3, e3, 3, on) == 1 && on[1] && !on[0] && !on[2]);
    CHECK(gb_report_pareto(t3, e3, 0, on) == 0);
}

int main(void)
{
    test_mann_whitney();
    test_pareto();
    gb_report_t *r;
    gb_report_filter_t all = {NULL, NULL, -1, -1};
    CHECK_RC(gb_report_open(&r, &all), GB_OK);
    /* A: three orders, reps 0 and 2 (a gap), energy; one failed validation at 128. */
    for (size_t o = 64; o <= 256; o += 64) {
        add(r, "Card A", "k1", o, o, o, 0, 0, 0, 10.0 * (double)o / 64, 0.5, o == 128);
        add(r, "Card A", "k1", o, o, o, 0, 0, 2, 12.0 * (double)o / 64, 0.6, 0);
    }
    /* A: a work-group sweep at two orders, 20 reps of one cell. */
    for (long l = 1; l <= 4; l *= 2)
        for (size_t o = 64; o <= 128; o += 64)
            add(r, "Card A", "k2", o, o, o, 16 / l, l, 0, 5.0 + (double)l, 0, 0);
    for (unsigned rep = 1; rep < 20; rep++)
        add(r, "Card A", "k2", 64, 64, 64, 16, 1, rep, 6.0, 0, 0);
    /* B: another device, a rectangular size. */
    add(r, "Card B", "k1", 300, 200, 77, 0, 0, 0, 3.0, 0, 0);
    CHECK_RC(gb_report_finish(r, "memory"), GB_OK);
    CHECK(gb_report_offered(r) == 4 * 2 + 6 + 19 + 1);
    CHECK(gb_report_selected(r) == gb_report_offered(r));
    CHECK(gb_report_rows(r) == 4 + 6 + 1);
    CHECK(gb_report_lws_tables(r) == 1);

    int rc;
    char *t = written(r, GB_REPORT_TEXT, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        CHECK(strstr(t, "note: points from 2 devices") != NULL);
        CHECK(strstr(t, "note: repetitions rep16 to rep19 are not shown as columns") != NULL);
        CHECK(strstr(t, "MxNxK") != NULL && strstr(t, "300x200x77") != NULL);
        CHECK(strstr(t, "GFLOP/s/W") != NULL);
        CHECK(strstr(t, "FAIL 1/2: 3 elements over the bound") != NULL);
        CHECK(strstr(t, "rep14  rep15   mean") != NULL);
        /* k1 at 64 on A: reps 0 and 2 (rep1 missing), mean 11, sample std sqrt(2). */
        char *line = line_with(t, "Card A  k1", " 64 ");
        CHECK(line && strstr(line, "10.00     -  12.00") && strstr(line, "11.00  1.41  "));
        free(line);
        /* The sweep: at 64, 4x4 (9) beats 8x2 (7) and 16x1 (the mean of 20 reps of 6). */
        line = line_with(t, " 64  6.00  7.00", "9.00*");
        CHECK(line != NULL);
        free(line);
    }
    free(t);
    t = written(r, GB_REPORT_CSV, GB_REPORT_ALL, &rc);
    CHECK_RC(rc, GB_EBADARG);
    free(t);
    t = written(r, GB_REPORT_CSV, GB_REPORT_LWS, &rc);
    CHECK(rc == GB_OK && t && strstr(t, "k2,fam_k2,,s,row-NN,ops,,128,128,128,4,4,1,9,,1\n"));
    free(t);
    t = written(r, GB_REPORT_HTML, GB_REPORT_ALL, &rc);
    CHECK(rc == GB_OK && t);
    if (t) {
        size_t svgs = 0;
        for (const char *p = t; (p = strstr(p, "<svg")); p++)
            svgs++;
        CHECK(svgs == 3); /* GFLOP/s, the heat map, energy */
        CHECK(strstr(t, "GFLOP/s per watt") != NULL);
        CHECK(strstr(t, "No energy measurements") == NULL);
        CHECK(strstr(t, "<script") == NULL);
    }
    free(t);
    gb_report_close(r);

    /* A filter that takes nothing: offered but none selected, no rows. */
    gb_report_filter_t dbl = {"k1", "card", GB_PREC_D, -1};
    CHECK_RC(gb_report_open(&r, &dbl), GB_OK);
    add(r, "Card A", "k1", 64, 64, 64, 0, 0, 0, 1.0, 0, 0);
    CHECK_RC(gb_report_finish(r, "memory"), GB_OK);
    CHECK(gb_report_offered(r) == 1 && gb_report_selected(r) == 0 && gb_report_rows(r) == 0);
    char buf[256];
    CHECK(!strcmp(gb_report_filter_text(r, buf, sizeof buf),
                  "--kernel k1 --device 'card' --precision d"));
    gb_report_close(r);
    gb_report_close(NULL);
    test_store();
    test_tuning();
    return unit_finish();
}
