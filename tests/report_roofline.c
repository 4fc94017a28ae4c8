/* report_roofline.c: the report's memory traffic and roofline (src/tool/report/roofline.c) on points
 * stored in a results store made here, with ceilings stored for their device: rows of families
 * that declare their traffic (naive, xgemm) get it from the built-in registry (naive's bytes
 * checked against a hand count), and the others are left out and counted by reason (a library
 * peer, a family not in the registry, a point measured with another source); the HTML page
 * draws the roofline with the device's roofs, the JSON gives each row's traffic and the
 * device's ceilings; without a registry, or without ceilings, the page says so, and a point
 * above its roof's measured peak is named. Needs gnuplot;
 * no OpenCL device is used. */
#include "unit.h"

#include "tool/report/report.h"

/* The device the points name, with the limits route planning reads. */
static void device(gb_device_info_t *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "Card R");
    snprintf(d->vendor, sizeof d->vendor, "Vendor");
    snprintf(d->platform_version, sizeof d->platform_version, "OpenCL 3.0 test");
    snprintf(d->driver, sizeof d->driver, "1.0");
    d->type_name = "gpu";
    d->compute_units = 8;
    d->max_wg_size = 1024;
    d->max_wi_sizes[0] = d->max_wi_sizes[1] = d->max_wi_sizes[2] = 1024;
    d->image2d_max[0] = d->image2d_max[1] = 16384;
}

/* Stores one point of kernel (resolved in reg; a name it lacks is stored as its own family with
 * no parameters) at n x n x n whose main kernel took main_ms per call; source "" takes what
 * the registry's family compiles to. */
static void store(gb_store_t *st, const gb_registry_t *reg, const char *kernel, size_t n,
                  double main_ms, const char *source)
{
    gb_device_info_t dev;
    device(&dev);
    gb_point_t pt;
    gb_point_init(&pt);
    snprintf(pt.device.name, sizeof pt.device.name, "%s", dev.name);
    snprintf(pt.device.vendor, sizeof pt.device.vendor, "%s", dev.vendor);
    snprintf(pt.device.platform, sizeof pt.device.platform, "Platform");
    snprintf(pt.device.platform_version, sizeof pt.device.platform_version, "%s",
             dev.platform_version);
    snprintf(pt.device.driver, sizeof pt.device.driver, "%s", dev.driver);
    snprintf(pt.device.type, sizeof pt.device.type, "gpu");
    pt.device.compute_units = dev.compute_units;
    snprintf(pt.kernel, sizeof pt.kernel, "%s", kernel);
    snprintf(pt.family, sizeof pt.family, "%s", kernel);
    gb_problem_init(&pt.problem, GB_PREC_S, n, n, n);
    gb_problem_check(&pt.problem, NULL, 0);
    gb_impl_t im;
    char msg[512];
    snprintf(pt.source_hash, sizeof pt.source_hash, "%s", source[0] ? source : "none");
    if (gb_impl_resolve(reg, kernel, NULL, &im, msg, sizeof msg) == GB_OK) {
        pt.params = im.config.params;
        if (!source[0] && !gb_impl_can(&im, GB_IS_LIBRARY))
            CHECK_RC(gb_impl_program_id(&im, &dev, &pt.problem, pt.source_hash,
                                        sizeof pt.source_hash, msg, sizeof msg),
                     GB_OK);
    }
    pt.seed = 42;
    pt.dist.kind = GB_DIST_UNIFORM;
    pt.dist.lo = -1;
    pt.dist.hi = 1;
    pt.iterations = 2;
    pt.timing = pt.result.timing = GB_TIMING_OPS;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        const double ms = ph == GB_PHASE_WALL ? 2 * main_ms : main_ms;
        pt.result.time_ms[ph] = (gb_stats_t){2, ms, ms, ms, ms, 0, ms, ms};
        pt.result.samples_ms[ph] = calloc(2, sizeof(double));
        if (pt.result.samples_ms[ph])
            pt.result.samples_ms[ph][0] = pt.result.samples_ms[ph][1] = ms;
    }
    pt.result.gflops = 2.0 * (double)(n * n * n) / (main_ms * 1e6);
    pt.result.energy_j = pt.result.energy_w = pt.result.gflops_per_watt = -1;
    CHECK_RC(gb_point_set_provenance(&pt), GB_OK);
    CHECK_RC(gb_point_compute_id(&pt), GB_OK);
    CHECK_RC(gb_store_insert(st, &pt), GB_OK);
    gb_point_free(&pt);
}

static char *written(const gb_report_t *r, gb_report_format_t fmt)
{
    char *text = NULL, msg[512] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    int rc = gb_report_write(r, fmt, GB_REPORT_ALL, f, msg, sizeof msg);
    fclose(f);
    if (!CHECK_RC(rc, GB_OK))
        printf("    write: %s\n", msg);
    return text;
}

static size_t count(const char *text, const char *part)
{
    size_t n = 0;
    for (const char *p = text; p && (p = strstr(p, part)); p++)
        n++;
    return n;
}

int main(void)
{
    char dir[64], path[256], msg[512];
    gb_store_t *st = NULL;
    gb_registry_t *reg = NULL;
    gb_report_t *r = NULL;
    gb_report_filter_t all = {NULL, NULL, -1, -1};
    if (!unit_make_dir(dir, sizeof dir))
        return unit_finish();
    snprintf(path, sizeof path, "%s/r.db", dir);
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK) ||
        !CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        goto done;
    store(st, reg, "naive", 64, 1.0, "");
    store(st, reg, "xgemm", 64, 0.5, "");
    store(st, reg, "openblas", 64, 0.1, "");
    store(st, reg, "fam_gone", 64, 1.0, "sha256:0123456789abcdef/0123456789abcdef");
    store(st, reg, "naive", 32, 1.0, "sha256:0123456789abcdef/0123456789abcdef");

    /* Without ceilings: the points are drawn, and the page says what would give the roofs. */
    if (!CHECK_RC(gb_report_read(&r, st, &all, reg, msg, sizeof msg), GB_OK))
        goto done;
    CHECK(gb_report_rows(r) == 5 && gb_report_traffic_rows(r) == 2);
    char *t = written(r, GB_REPORT_HTML);
    CHECK_HAS(t, "<h2>Roofline</h2>");
    CHECK(count(t, "<svg") == 2); /* GFLOP/s and the roofline; no energy measured */
    CHECK_HAS(t, "No ceilings stored for Card R: &#39;gemmbench ceilings&#39; measures them.");
    CHECK_HAS(t, "3 of 5 rows are left out of the roofline: 1 whose family declares no memory "
                 "traffic (library peers among them); 1 whose family or parameters are not in "
                 "this kernel registry");
    CHECK_HAS(t, "; 1 measured with another version of their family&#39;s source.");
    free(t);
    gb_report_close(r);
    r = NULL;

    /* With ceilings: the roofs, named with their figures, and the JSON's traffic. naive at 64:
     * per element of C a row of A and a column of B, and C read and written: 4 * (2 * 64^3 +
     * 2 * 64^2) = 2129920 bytes, moved in 1 ms: 2.12992 GB/s at 2 * 64^3 / 2129920 FLOP/B. */
    gb_device_info_t dev;
    device(&dev);
    gb_ceilings_t c;
    memset(&c, 0, sizeof c);
    c.peak_gflops[GB_PREC_S] = 100;
    c.peak_gflops[GB_PREC_D] = 50;
    c.bandwidth_gbs = 20;
    snprintf(c.method, sizeof c.method, "test");
    CHECK_RC(gb_store_put_ceilings(st, &dev, &c), GB_OK);
    if (!CHECK_RC(gb_report_read(&r, st, &all, reg, msg, sizeof msg), GB_OK))
        goto done;
    t = written(r, GB_REPORT_HTML);
    CHECK_HAS(t, "Roofline: GFLOP/s of the main kernel against arithmetic intensity");
    CHECK_HAS(t, "Card R s roof: 100 GFLOP/s, 20 GB/s");
    CHECK(!strstr(t, "Card R d roof")); /* no double-precision row */
    CHECK(!strstr(t, "No ceilings stored"));
    CHECK_HAS(t, "naive s");
    CHECK_HAS(t, "xgemm s");
    /* Log axes labelled as people write them, not gnuplot's "0.100000" and "100.000000". */
    CHECK_HAS(t, ">0.1</text>");
    CHECK_HAS(t, ">100</text>");
    free(t);
    t = written(r, GB_REPORT_JSON);
    CHECK_HAS(t, "\"bytes\":\t2129920,");
    CHECK_HAS(t, "\"GBps\":\t2.12992,");
    CHECK_HAS(t, "\"intensity\":\t0.24615384615384617,");
    CHECK(count(t, "\"traffic\":\tnull") == 3);
    CHECK_HAS(t, "\"bandwidth_gbs\":\t20,");
    free(t);
    gb_report_close(r);
    r = NULL;

    /* Without a registry nothing is computed, and the page says so. */
    if (!CHECK_RC(gb_report_read(&r, st, &all, NULL, msg, sizeof msg), GB_OK))
        goto done;
    CHECK(gb_report_traffic_rows(r) == 0);
    t = written(r, GB_REPORT_HTML);
    CHECK(count(t, "<svg") == 1);
    CHECK_HAS(t, "No roofline: no selected row has declared memory traffic");
    CHECK_HAS(t, "5 of 5 rows are left out of the roofline: 5 without a kernel registry");
    CHECK(!strstr(t, "Above the peak"));
    free(t);
    gb_report_close(r);
    r = NULL;

    /* A point above the measured peak (xgemm at 128 in 1 us: 4194 GFLOP/s against a peak of
     * 100): its roof is drawn below it, and the page says so. */
    store(st, reg, "xgemm", 128, 0.001, "");
    if (!CHECK_RC(gb_report_read(&r, st, &all, reg, msg, sizeof msg), GB_OK))
        goto done;
    t = written(r, GB_REPORT_HTML);
    CHECK_HAS(t, "Above the peak: Card R s: 100 GFLOP/s measured, 1 point up to 4194. That point "
                 "lies above the measured peak of its roof: the roof is drawn below what was "
                 "observed, so &#39;gemmbench ceilings&#39; measured that peak short");
    free(t);
    gb_report_close(r);
    r = NULL;

    /* A point nine decades below the others (naive at 32 in 10 s: 6.6e-6 GFLOP/s): gnuplot's
     * own labels on such an axis read "0.000010" and "100.000000"; ours as people write them. */
    store(st, reg, "naive", 32, 1e4, "");
    if (!CHECK_RC(gb_report_read(&r, st, &all, reg, msg, sizeof msg), GB_OK))
        goto done;
    t = written(r, GB_REPORT_HTML);
    CHECK_HAS(t, ">1e-5</text>");
    CHECK_HAS(t, ">0.0001</text>");
    CHECK_HAS(t, ">1000</text>");
    CHECK(!strstr(t, "0000</text>"));
    free(t);
done:
    gb_report_close(r);
    gb_store_close(st);
    gb_registry_close(reg);
    unit_remove_dir(dir);
    return unit_finish();
}
