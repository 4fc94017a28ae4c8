/* cmd_run.c: `gemmbench run`: build, validate and time kernels on one device, over one or more
 * sizes, and print one comparison table (or JSON). A run is a sweep (src/tool/explore) measured once,
 * each point kept as the next repetition of its definition in the results store. Options follow
 * the Intel SGEMM sample (-p -t -d -M -K -N -i -k -v) and GEMMbench (-n, --lws), and are the
 * same as explore's (options.c). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "progress.h"

/* What the table says once, beside its rows. */
typedef struct table {
    double measured_peak[2]; /* gemmbench ceilings' peaks for the device (0: never measured) */
    double copy_ceiling[2];  /* and its copies' plateau to the device and back for the host
                                memory of the run (0: not measured) */
    char measured_when[32];  /* when they were measured ("": never) */
    char energy_note[320];   /* what the energy column rests on */
    int traffic_rows;        /* rows with the kernel's declared memory traffic */
    int over_measured;       /* rows above the measured peak (meas% over 100) */
} table_t;

static double measured_efficiency(const table_t *tb, const gb_problem_t *p, const gb_result_t *r)
{
    return tb->measured_peak[p->precision] > 0 ? r->gflops / tb->measured_peak[p->precision] : -1.0;
}

static void usage(void)
{
    printf("usage: gemmbench run [options]\n"
           "  -p, --platform P      platform index or name substring\n"
           "  -t, --type T          device type: all, cpu, gpu, acc, default, or the OpenCL\n"
           "                        constant (CL_DEVICE_TYPE_GPU)\n"
           "  -d, --device D        device index (within the platform) or name substring\n"
           "  -k, --kernel K[,K..]  kernel families, presets or library peers ('gemmbench\n"
           "                        kernels' lists them; gb is gemmbench's own library);\n"
           "                        'all' (default) is every family and preset in each\n"
           "                        precision it has: -k all,gb,clblast,cublas,openblas\n"
           "  -n LIST               square sizes (default 256,512): 64,128 or 64:1024:64\n"
           "  -M, -N, -K LIST       rectangular sizes, their product; a missing one follows -n\n"
           "                        (default 512)\n"
           "  -i, --iterations I    timed calls (default 10); 0: build each point's programs\n"
           "                        and call nothing (Intel's sample's -i 0), nothing stored\n"
           "      --warmup W        untimed calls first (default 1)\n"
           "  -v, --validate        validate at any size; --no-validate: never\n"
           "                        (default: validate when M*N*K <= 2^33)\n"
           "      --precision s|d|s,d  (default: a named kernel's own, single where it has\n"
           "                        both; with 'all', each precision a kernel has)\n"
           "      --layout row|col  --transA N|T  --transB N|T (default: row NN, or the\n"
           "                        kernel's own native layout when none is given; others\n"
           "                        are served through transposition passes)\n"
           "      --alpha A --beta B (default 1, 0)\n"
           "      --lda L --ldb L --ldc L  --offa O --offb O --offc O\n"
           "      --lws J,I[;J,I..] work-group sizes (kernels with LX/LY parameters; -lws too)\n"
           "      --lws-grid X;Y --lws-items LIST  a grid of them, as for explore\n"
           "      --param NAME=LIST set a parameter where a kernel has it (repeatable): VW=4,\n"
           "                        or several values, VW=1:8:x2\n"
           "      --seed S          input seed (default 42)\n"
           "      --dist D          uniform:LO:HI (default uniform:-1:1), normal, int:R\n"
           "      --timing T        what GFLOP/s counts: kernel (main kernel), ops (main +\n"
           "                        helper passes, default) or offload (+ host-device copies)\n"
           "      --host-mem H      the operands' host memory, which the copies read and\n"
           "                        write: pageable (default) or pinned; or mapped: no\n"
           "                        copies, the kernel works in host memory (zero-copy, on a\n"
           "                        device that shares it: a CPU, an integrated GPU)\n"
           "      --pipeline [N]    with --timing offload: C in N panels (default 4), whose\n"
           "                        copies overlap the other panels' kernels; each point's\n"
           "                        serial offload is measured first, for the ratio\n"
           "      --cold            write a buffer of four times the device's cache before\n"
           "                        every call, so that none finds its operands cached\n"
           "      --max-rel-ci X    after the -i calls, more until the 95%% CI of the mean is\n"
           "                        within X of it (0.01: 1%%)\n"
           "      --min-time S      ... or until S seconds of timed calls are spent (alone:\n"
           "                        at least S seconds); the row says which stop applied\n"
           "      --kernel-path DIR add or override kernel families from DIR\n"
           "      --store PATH      record every point in this results store (default: the\n"
           "                        default store, 'gemmbench store path'); --no-store: don't\n"
           "      --json            print results as JSON\n"
           "      --verdict V       what a validated result must meet to pass: faithful\n"
           "                        (default: within the error bound, and faithful to the\n"
           "                        precision unless its implementation declares a reduced\n"
           "                        one, as cublas_tf32) or bound (the error bound alone)\n"
           "exit: 0 done, 1 a result failed validation (over the bound, or not faithful),\n"
           "      2 bad usage or a named kernel that cannot run here, 3 an OpenCL, build or\n"
           "      system failure\n");
}

/* The copies' rates in GB/s over their medians: A, B and C written, C read (0: no copies,
 * as from mapped host memory, which the kernel works in). */
static void copy_rates(const gb_problem_t *p, const gb_result_t *r, gb_host_mem_t hm, double *h2d,
                       double *d2h)
{
    *h2d = *d2h = 0;
    if (hm == GB_HOST_MAPPED)
        return;
    size_t ea, eb, ec;
    gb_problem_buffer_elems(p, &ea, &eb, &ec);
    const double es = (double)gb_precision_bytes(p->precision);
    const double th = r->time_ms[GB_PHASE_H2D].median, td = r->time_ms[GB_PHASE_D2H].median;
    *h2d = th > 0 ? (double)(ea + eb + ec) * es / (th * 1e6) : 0;
    *d2h = td > 0 ? (double)ec * es / (td * 1e6) : 0;
}

/* The declared traffic's rate: bytes over the main kernel's median time, in GB/s (0: none). */
static double traffic_gbps(const gb_traffic_t *t, const gb_result_t *r)
{
    const double ms = r->time_ms[GB_PHASE_MAIN].median;
    return t->declared && ms > 0 ? ((double)t->read + (double)t->write) / (ms * 1e6) : 0;
}

/* run --json's "traffic": the family's declared global-memory traffic of the main kernel, its
 * arithmetic intensity and the rate it was moved at; null where the family declares none. */
static cJSON *traffic_json(const gb_traffic_t *t, const gb_result_t *r)
{
    if (!t->declared)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    const double ms = r->time_ms[GB_PHASE_MAIN].median;
    cJSON_AddNumberToObject(o, "read_bytes", (double)t->read);
    cJSON_AddNumberToObject(o, "write_bytes", (double)t->write);
    cJSON_AddNumberToObject(o, "bytes", (double)t->read + (double)t->write);
    cJSON_AddNumberToObject(o, "intensity", t->intensity);
    cJSON_AddNumberToObject(o, "GBps", traffic_gbps(t, r));
    cJSON_AddNumberToObject(o, "gflops_kernel", ms > 0 ? t->flops / (ms * 1e6) : 0);
    cJSON_AddStringToObject(o, "model",
                            "global-memory loads and stores of the main kernel (and its "
                            "remainder kernel) per work-item, as declared; not DRAM traffic; "
                            "helper passes excluded; C counted as read (beta != 0)");
    return o;
}

/* run --json's description of how the point was run: its problem, build, geometry and
 * measuring options; serial_ms: the serial offload of the same point, measured beside a
 * pipelined one (0: none). */
static void setup_json(cJSON *o, const char *kernel, const gb_problem_t *p, const gb_result_t *r,
                       const gb_bench_options_t *b, double serial_ms)
{
    char buf[64];
    cJSON_AddStringToObject(o, "kernel", kernel);
    cJSON_AddStringToObject(o, "precision", gb_precision_name(p->precision));
    cJSON_AddStringToObject(o, "layout", gb_problem_layout_tag(p, buf, sizeof buf));
    cJSON_AddStringToObject(o, "route", r->route);
    cJSON_AddStringToObject(o, "stop", r->stop);
    cJSON_AddNumberToObject(o, "timed_calls", (double)r->time_ms[gb_timing_phase(r->timing)].n);
    cJSON_AddNumberToObject(o, "helper_kernels", (double)r->helpers);
    cJSON_AddNumberToObject(o, "M", (double)p->m);
    cJSON_AddNumberToObject(o, "N", (double)p->n);
    cJSON_AddNumberToObject(o, "K", (double)p->k);
    cJSON_AddNumberToObject(o, "alpha", p->alpha);
    cJSON_AddNumberToObject(o, "beta", p->beta);
    cJSON_AddNumberToObject(o, "lda", (double)p->lda);
    cJSON_AddNumberToObject(o, "ldb", (double)p->ldb);
    cJSON_AddNumberToObject(o, "ldc", (double)p->ldc);
    cJSON_AddNumberToObject(o, "seed", (double)b->seed);
    cJSON_AddStringToObject(o, "dist", gb_dist_format(&b->dist, buf, sizeof buf));
    cJSON_AddStringToObject(o, "build_options", r->build_options);
    cJSON_AddNumberToObject(o, "build_ms", r->build_ms);
    cJSON_AddBoolToObject(o, "program_cache_hit", r->cache_hit);
    cJSON *g = cJSON_AddArrayToObject(o, "global");
    cJSON *l = cJSON_AddArrayToObject(o, "local");
    for (int d = 0; d < 2; d++) {
        cJSON_AddItemToArray(g, cJSON_CreateNumber((double)r->global[d]));
        cJSON_AddItemToArray(l, r->local_null ? cJSON_CreateNull()
                                              : cJSON_CreateNumber((double)r->local[d]));
    }
    cJSON_AddStringToObject(o, "flops", "2*M*N*K");
    cJSON_AddStringToObject(o, "timing", gb_timing_name(r->timing));
    cJSON_AddStringToObject(o, "host_mem", gb_host_mem_name(b->host_mem));
    cJSON_AddNumberToObject(o, "min_time_s", b->min_time_s);
    cJSON_AddNumberToObject(o, "max_rel_ci", b->max_rel_ci);
    cJSON_AddBoolToObject(o, "cold", b->cold);
    cJSON_AddNumberToObject(o, "pipeline", b->pipeline);
    cJSON_AddNumberToObject(o, "panels", (double)r->panels);
    if (serial_ms > 0 && r->time_ms[GB_PHASE_OFFLOAD].median > 0) {
        cJSON_AddNumberToObject(o, "serial_offload_ms", serial_ms);
        cJSON_AddNumberToObject(o, "pipeline_speedup",
                                serial_ms / r->time_ms[GB_PHASE_OFFLOAD].median);
    }
}

/* Its rates: GFLOP/s, the efficiencies and the declared traffic. */
static void rates_json(cJSON *o, const table_t *tb, const gb_problem_t *p, const gb_result_t *r,
                       const gb_traffic_t *t)
{
    cJSON_AddNumberToObject(o, "gflops", r->gflops);
    cJSON_AddNumberToObject(o, "gflops_wall", r->gflops_wall);
    if (r->efficiency >= 0)
        cJSON_AddNumberToObject(o, "efficiency_formula_peak", r->efficiency);
    else
        cJSON_AddNullToObject(o, "efficiency_formula_peak");
    if (measured_efficiency(tb, p, r) >= 0)
        cJSON_AddNumberToObject(o, "efficiency_measured_peak", measured_efficiency(tb, p, r));
    else
        cJSON_AddNullToObject(o, "efficiency_measured_peak");
    cJSON_AddItemToObject(o, "traffic", traffic_json(t, r));
}

/* Energy comes from its own loop after the timed calls, and the clocks are read around the
 * timed calls (docs/methodology.md): null where not read. */
static void energy_json(cJSON *o, const gb_result_t *r)
{
    cJSON *en = cJSON_AddObjectToObject(o, "energy");
    if (r->energy_j >= 0) {
        cJSON_AddStringToObject(en, "source", r->energy_source);
        cJSON_AddNumberToObject(en, "joules_per_call", r->energy_j);
        cJSON_AddNumberToObject(en, "watts", r->energy_w);
        cJSON_AddNumberToObject(en, "gflops_per_watt", r->gflops_per_watt);
    } else {
        cJSON_AddStringToObject(en, "unavailable", r->energy_why);
    }
    if (r->energy_calls) {
        cJSON_AddStringToObject(en, "loop", r->energy_scope);
        cJSON_AddNumberToObject(en, "calls", (double)r->energy_calls);
        cJSON_AddNumberToObject(en, "seconds", r->energy_s);
    }
    cJSON *ck = cJSON_AddObjectToObject(o, "clocks");
    cJSON_AddStringToObject(ck, "source", r->clocks_source);
    const struct {
        const char *key;
        double v;
    } cv[] = {{"mhz_start", r->clock_mhz_start},
              {"mhz_end", r->clock_mhz_end},
              {"temperature_c", r->temp_c}};
    for (size_t i = 0; i < sizeof cv / sizeof cv[0]; i++)
        if (cv[i].v >= 0)
            cJSON_AddNumberToObject(ck, cv[i].key, cv[i].v);
        else
            cJSON_AddNullToObject(ck, cv[i].key);
    if (r->throttle[0])
        cJSON_AddStringToObject(ck, "throttle", r->throttle);
    else
        cJSON_AddNullToObject(ck, "throttle");
    if (r->governor[0])
        cJSON_AddStringToObject(ck, "governor", r->governor);
}

/* Every phase's times, with their samples, and the copies' rates. */
static void times_json(cJSON *o, const gb_problem_t *p, const gb_result_t *r, gb_host_mem_t hm)
{
    cJSON *times = cJSON_AddObjectToObject(o, "time_ms");
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        const gb_stats_t *st = &r->time_ms[ph];
        cJSON *s = cJSON_AddObjectToObject(times, gb_phase_name((gb_phase_t)ph));
        const struct {
            const char *key;
            double v;
        } sv[] = {{"n", (double)st->n},     {"min", st->min},        {"median", st->median},
                  {"mean", st->mean},       {"max", st->max},        {"std", st->std},
                  {"ci95_lo", st->ci95_lo}, {"ci95_hi", st->ci95_hi}};
        for (size_t i = 0; i < sizeof sv / sizeof sv[0]; i++)
            cJSON_AddNumberToObject(s, sv[i].key, sv[i].v);
        cJSON_AddItemToObject(s, "samples", cJSON_CreateDoubleArray(r->samples_ms[ph], (int)st->n));
    }
    double h2d, d2h;
    copy_rates(p, r, hm, &h2d, &d2h);
    cJSON *rates = cJSON_AddObjectToObject(o, "copy_GBps");
    cJSON_AddItemToObject(rates, "h2d", h2d > 0 ? cJSON_CreateNumber(h2d) : cJSON_CreateNull());
    cJSON_AddItemToObject(rates, "d2h", d2h > 0 ? cJSON_CreateNumber(d2h) : cJSON_CreateNull());
}

/* The validation: "verdict" is the error bound's, "outcome" what the run makes of both verdicts
 * under --verdict ("pass", "fail", "not faithful": a failure, or "not validated"). */
static void validation_json(cJSON *o, const gb_validation_t *val, gb_outcome_t oc, unsigned caps)
{
    static const char *const outcome[] = {[GB_OUTCOME_PASS] = "pass",
                                          [GB_OUTCOME_UNVALIDATED] = "not validated",
                                          [GB_OUTCOME_FAIL] = "fail",
                                          [GB_OUTCOME_UNFAITHFUL] = "not faithful"};
    cJSON *v = cJSON_AddObjectToObject(o, "validation");
    cJSON_AddStringToObject(v, "verdict",
                            !val->done    ? "not validated"
                            : val->passed ? "pass"
                                          : "fail");
    cJSON_AddStringToObject(v, "outcome", outcome[oc]);
    cJSON_AddBoolToObject(v, "reduced_precision", (caps & GB_IS_REDUCED) != 0);
    if (val->done) {
        cJSON_AddStringToObject(v, "mode", val->exact ? "exact integers" : "bound gamma_(K+2) * G");
        cJSON_AddNumberToObject(v, "max_ratio_u_G", isfinite(val->max_ratio) ? val->max_ratio : -1);
        cJSON_AddNumberToObject(v, "bound_ratio_u_G", val->bound_ratio);
        cJSON_AddNumberToObject(v, "worst_i", (double)val->worst_i);
        cJSON_AddNumberToObject(v, "worst_j", (double)val->worst_j);
        cJSON_AddNumberToObject(v, "elements_over_bound", (double)val->n_over);
        cJSON_AddNumberToObject(v, "elements_nonfinite", (double)val->n_nonfinite);
        cJSON_AddNumberToObject(v, "canaries_touched", (double)val->n_canary);
    }
    if (val->faithful[0]) {
        cJSON_AddStringToObject(v, "faithful", val->faithful);
        cJSON_AddNumberToObject(v, "faithful_worst_u_G", val->faithful_worst);
        cJSON_AddNumberToObject(v, "faithful_honest_u_G", val->faithful_honest);
    }
    cJSON_AddStringToObject(v, "reason", val->reason);
}

/* One row of run --json. */
static cJSON *result_json(const table_t *tb, const char *kernel, const gb_problem_t *p,
                          const gb_result_t *r, const gb_bench_options_t *b, double serial_ms,
                          const gb_traffic_t *t, gb_outcome_t oc, unsigned caps)
{
    cJSON *o = cJSON_CreateObject();
    setup_json(o, kernel, p, r, b, serial_ms);
    rates_json(o, tb, p, r, t);
    energy_json(o, r);
    times_json(o, p, r, b->host_mem);
    validation_json(o, &r->validation, oc, caps);
    return o;
}

static void print_header(const table_t *tb, const gb_device_info_t *dev, const gb_explore_plan_t *o,
                         gb_verdict_t verdict)
{
    char dist[64];
    printf("device: %s (%s, %s)\n", dev->name, dev->platform_name, dev->driver);
    for (int p = 0; p < 2; p++)
        if (dev->peak_gflops[p] > 0)
            printf("peak %s: %.1f GFLOP/s = %s\n", p ? "D" : "S", dev->peak_gflops[p],
                   dev->peak_formula[p]);
        else
            printf("peak %s: %s\n", p ? "D" : "S", dev->peak_formula[p]);
    if (tb->measured_when[0])
        printf("measured peak (gemmbench ceilings, %s): S %.1f, D %.1f GFLOP/s; meas%% is against "
               "it\n",
               tb->measured_when, tb->measured_peak[0], tb->measured_peak[1]);
    if (tb->measured_when[0] && tb->copy_ceiling[0] > 0 && o->bench.host_mem != GB_HOST_MAPPED)
        printf("copies' ceiling from %s host memory (gemmbench ceilings): %.3g / %.3g GB/s, "
               "beside copy GB/s\n",
               gb_host_mem_name(o->bench.host_mem), tb->copy_ceiling[0], tb->copy_ceiling[1]);
    else if (!tb->measured_when[0])
        printf("measured peak: none stored for this device and driver (run 'gemmbench ceilings'); "
               "meas%% shows -\n");
    printf("GFLOP/s = 2*M*N*K / median time of %s (OpenCL events) over %d calls after %d "
           "warm-up;\nCI = 95%% CI of the mean; helpers = transposition/padding passes (ms, in "
           "GFLOP/s unless --timing kernel);\ncopies = host-device copies from %s host memory (ms, "
           "not "
           "in GFLOP/s unless --timing offload), copy GB/s = to the device / back; wall = 2*M*N*K "
           "/ host time of the whole call\n",
           o->bench.timing == GB_TIMING_KERNEL    ? "the main kernel"
           : o->bench.timing == GB_TIMING_OFFLOAD ? "copies + helper passes + main kernel"
                                                  : "the main kernel + helper passes",
           o->bench.iterations, o->bench.warmup, gb_host_mem_name(o->bench.host_mem));
    if (o->bench.min_time_s > 0 || o->bench.max_rel_ci > 0)
        printf("adaptive: after those calls, more until the 95%% CI of the mean is within %g of "
               "it (0: off) or %g s of timed calls are spent (0: off), whichever comes first (at "
               "most %d calls or -i where more, and %g s where only the CI stops); [stop: calls] "
               "after a row says which stop ended its calls\n",
               o->bench.max_rel_ci, o->bench.min_time_s, GB_BENCH_MAX_SAMPLES,
               GB_BENCH_MAX_ADAPTIVE_S);
    if (o->bench.host_mem == GB_HOST_MAPPED)
        printf("mapped: zero-copy, the kernel works in the operands' host memory; copies = the "
               "host handing them to the device (unmap) and back (map), with no copy; C is "
               "restored from the given C on the host before each call, outside its times\n");
    if (o->bench.pipeline)
        printf("pipeline: C in %d panels (rows of a row-major C, columns of a column-major one), "
               "each a GEMM whose copies overlap the other panels' kernels on three queues; its "
               "offload = first copy's start to last copy's end (events); helpers and copies "
               "are sums over the panels; each pipelined row follows the serial offload of the "
               "same point, and ends with the ratio\n",
               o->bench.pipeline);
    if (o->bench.cold)
        printf("cold: before every call a buffer of four times the device's global-memory cache "
               "(at least 64 MiB) is written, outside the timed region\n");
    printf("alpha %g, beta %g, data %s, seed %llu; valid = max |C-Cref|/(u*G) / failing bound;\n"
           "faithful = worst error on a sample of C within %g times an honest sequential "
           "computation's in the precision (else how many times it, at most)\n",
           o->base.alpha, o->base.beta, gb_dist_format(&o->bench.dist, dist, sizeof dist),
           (unsigned long long)o->bench.seed, GB_FAITHFUL_LAMBDA);
    if (verdict == GB_VERDICT_FAITHFUL)
        printf("a result that fails the faithful verdict is a failure (valid: FAIL, exit 1) "
               "unless its implementation declares a reduced precision (faithful: reduced); "
               "--verdict bound holds results to the error bound alone\n\n");
    else
        printf("--verdict bound: results are held to the error bound alone, whatever the "
               "faithful verdict says\n\n");
    printf("%-24s %-4s %-7s %6s %6s %6s %-7s %9s %-19s %6s %6s %8s %8s %-11s %9s  %-22s  %s\n",
           "kernel", "prec", "layout", "M", "N", "K", "lws", "GFLOP/s", "95% CI", "eff%", "meas%",
           "helpers", "copies", "copy GB/s", "wall", "faithful", "valid");
}

static void print_row(table_t *tb, const char *kernel, const gb_problem_t *p, const gb_result_t *r,
                      gb_host_mem_t hm, double serial_ms, const gb_traffic_t *t, gb_outcome_t oc,
                      unsigned caps)
{
    char tag[16], lws[24], ci[40], eff[16], meas[16], helpers[16], verdict[200], faithful[48];
    const double flop = 2.0 * (double)p->m * (double)p->n * (double)p->k;
    const gb_stats_t *head = &r->time_ms[gb_timing_phase(r->timing)];
    if (r->local_null)
        snprintf(lws, sizeof lws, "auto");
    else
        snprintf(lws, sizeof lws, "%zux%zu", r->local[0], r->local[1]);
    if (head->n > 1 && head->ci95_lo > 0)
        snprintf(ci, sizeof ci, "[%.4g, %.4g]", flop / (head->ci95_hi * 1e6),
                 flop / (head->ci95_lo * 1e6));
    else
        snprintf(ci, sizeof ci, "-");
    if (r->efficiency >= 0)
        snprintf(eff, sizeof eff, "%.1f", 100.0 * r->efficiency);
    else
        snprintf(eff, sizeof eff, "?");
    if (measured_efficiency(tb, p, r) >= 0)
        snprintf(meas, sizeof meas, "%.1f", 100.0 * measured_efficiency(tb, p, r));
    else
        snprintf(meas, sizeof meas, "-");
    tb->over_measured += measured_efficiency(tb, p, r) > 1.0;
    if (r->helpers)
        snprintf(helpers, sizeof helpers, "%.3g", r->time_ms[GB_PHASE_HELPERS].median);
    else
        snprintf(helpers, sizeof helpers, "-");
    cli_outcome_text(&r->validation, oc, verdict, sizeof verdict);
    cli_faithful_text(&r->validation, p->precision, faithful, sizeof faithful);
    if ((caps & GB_IS_REDUCED) && strcmp(r->validation.faithful, "not faithful") == 0)
        snprintf(faithful, sizeof faithful, "reduced: %.0fx %s", gb_faithful_ratio(&r->validation),
                 p->precision == GB_PREC_D ? "FP64" : "FP32");
    double h2d, d2h;
    char rates[32];
    copy_rates(p, r, hm, &h2d, &d2h);
    if (h2d > 0 && d2h > 0)
        snprintf(rates, sizeof rates, "%.3g/%.3g", h2d, d2h);
    else
        snprintf(rates, sizeof rates, "-");
    printf("%-24s %-4s %-7s %6zu %6zu %6zu %-7s %9.4g %-19s %6s %6s %8s %8.3g %-11s %9.4g  %-22s  "
           "%s",
           kernel, gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), p->m,
           p->n, p->k, lws, r->gflops, ci, eff, meas, helpers,
           r->time_ms[GB_PHASE_H2D].median + r->time_ms[GB_PHASE_D2H].median, rates, r->gflops_wall,
           faithful, verdict);
    if (strcmp(r->route, "native") != 0)
        printf(" (%s)", r->route);
    if (strcmp(r->stop, "count") != 0)
        printf(" [%s: %zu calls]", r->stop, head->n);
    if (t->declared) {
        printf("  traffic: %.3g FLOP/B %.4g GB/s", t->intensity, traffic_gbps(t, r));
        tb->traffic_rows++;
    }
    const double piped = r->time_ms[GB_PHASE_OFFLOAD].median;
    if (serial_ms > 0 && piped > 0)
        printf("  pipelined %.4g ms, serial %.4g ms: %.2fx", piped, serial_ms, serial_ms / piped);
    if (r->gflops_per_watt >= 0) {
        printf("  %.3g GFLOP/s/W %.4g W", r->gflops_per_watt, r->energy_w);
        snprintf(tb->energy_note, sizeof tb->energy_note,
                 "energy: %s over a loop of %s after the timed "
                 "calls, lasting GEMMBENCH_ENERGY_MIN_S (default 1) s or more; GFLOP/s/W = "
                 "2*M*N*K * calls / joules, W = its average power",
                 r->energy_source, r->energy_scope);
    } else {
        snprintf(tb->energy_note, sizeof tb->energy_note, "energy: unavailable (%s)",
                 r->energy_why);
    }
    /* Throttling seen during the timed calls: the figure is not the device's unthrottled rate. */
    if (r->throttle[0] && strcmp(r->throttle, "none") != 0)
        printf("  throttled: %s (%.0f-%.0f MHz)", r->throttle, r->clock_mhz_start,
               r->clock_mhz_end);
    printf("\n");
    fflush(stdout);
}

/* A row for a kernel the sweep skips (from 'all'), once per kernel and precision. */
static void print_skip(const gb_job_t *job, const char *why, int json)
{
    if (!json)
        printf("%-24s %-4s skipped: %s\n", job->kernel, gb_precision_name(job->problem.precision),
               why);
}

/* The default sizes, where the plan has none: 256 and 512, or 512 for the dimensions -M, -N,
 * -K leave out. */
static int default_sizes(gb_explore_plan_t *pl)
{
    char msg[256];
    if (pl->orders.n)
        return GB_OK;
    const int any_dim = pl->dim[0].n || pl->dim[1].n || pl->dim[2].n;
    return gb_plan_set(pl, "n", any_dim ? "512" : "256,512", "-n", msg, sizeof msg);
}

/* The first reason a named kernel cannot run, as the error of the whole run; or, when no point
 * at all can run, the first reason. 0 when the run can go ahead. */
static int refuse(gb_explore_t *ex)
{
    gb_job_t first;
    int have = 0;
    for (size_t i = 0; i < gb_explore_total(ex); i++) {
        if (gb_explore_status(ex, i) != GB_XP_SKIP)
            continue;
        gb_job_t job;
        if (gb_explore_job(ex, i, &job) != GB_OK)
            return cli_error(GB_ENOMEM, "out of memory");
        if (job.named)
            return cli_error(job.code, "%s", job.why);
        if (!have)
            first = job;
        have = 1;
    }
    if (have && gb_explore_count(ex, GB_XP_SKIP) == gb_explore_total(ex))
        return cli_error(first.code, "nothing can run here: %s", first.why);
    return 0;
}

/* What a run works with, closed by close_run. */
typedef struct run {
    gb_registry_t *reg;
    cli_device_t dev;
    const gb_device_info_t *di;
    gb_context_t *ctx;
    gb_store_t *st;
    gb_explore_t *ex;
    cli_auto_t autodb;
    cJSON *out; /* --json: the rows */
    table_t tb;
    size_t stored;
    int exit_code;
    gb_verdict_t verdict; /* --verdict */
    size_t unfaithful;    /* rows that failed for not being faithful */
    /* The entry (kernel, precision) skipped last: its other points are skipped silently. */
    const char *skipped;
    gb_precision_t skipped_prec;
} run_t;

static void close_run(run_t *u)
{
    gb_store_close(u->st);
    cJSON_Delete(u->out);
    gb_context_close(u->ctx);
    gb_explore_close(u->ex);
    cli_auto_close(&u->autodb);
    cli_device_close(&u->dev);
    gb_registry_close(u->reg);
}

/* The results store: an explicit --store must open; the default one that cannot is only a
 * warning, since the measurements still print. Then efficiency against the measured peak,
 * where 'gemmbench ceilings' measured this device. 0 or the exit code. */
static int open_store(run_t *u, const cli_measure_t *o, const gb_explore_plan_t *pl)
{
    char msg[1024];
    int rc;
    if (!o->no_store && o->store && (rc = cli_store_open(&u->st, o->store, 1)))
        return rc;
    if (!o->no_store && !o->store &&
        gb_store_open(&u->st, NULL, GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        fprintf(stderr, "gemmbench: warning: results not stored: %s\n", msg);
    gb_ceilings_t ceil;
    if (u->st && gb_store_get_ceilings(u->st, u->di, &ceil, u->tb.measured_when) == 1) {
        memcpy(u->tb.measured_peak, ceil.peak_gflops, sizeof u->tb.measured_peak);
        u->tb.copy_ceiling[0] = ceil.h2d_gbs[pl->bench.host_mem];
        u->tb.copy_ceiling[1] = ceil.d2h_gbs[pl->bench.host_mem];
    } else {
        u->tb.measured_when[0] = '\0';
    }
    return 0;
}

/* Every point made and checked before anything is opened on the device (a named kernel that
 * cannot run a shape here fails before the table starts); then the store and a context. 0 or
 * the exit code. */
static int open_run(run_t *u, const cli_measure_t *o, const gb_explore_plan_t *pl)
{
    char msg[1024];
    int rc;
    if ((rc = cli_measure_open(o, &u->reg, &u->dev, &u->di)) ||
        (rc = cli_auto_open(&u->autodb, pl, o->store)))
        return rc;
    if ((rc = gb_explore_open(&u->ex, pl, u->reg, u->di, NULL, cli_auto_chooser(&u->autodb), msg,
                              sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    if ((rc = refuse(u->ex)) || (rc = open_store(u, o, pl)))
        return rc;
    if ((rc = gb_context_open(&u->ctx, u->di, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    return 0;
}

/* Under 'all', a kernel that cannot run here is skipped with its reason. */
static void skip(run_t *u, const gb_job_t *job, const char *why)
{
    print_skip(job, why, u->out != NULL);
    u->skipped = job->kernel;
    u->skipped_prec = job->problem.precision;
}

/* One measurement of job (jb: it, or its serial twin), as a row or a JSON item. */
static void show(run_t *u, const gb_job_t *job, const gb_job_t *jb, int headline, gb_point_t *pt,
                 int mrc, const char *msg, double serial_ms)
{
    /* The family's declared memory traffic (docs/kernel-metadata.md), where it has one. */
    gb_traffic_t traffic;
    char why[512];
    if (gb_impl_traffic(&jb->impl, u->di, &jb->problem, &traffic, why, sizeof why) != GB_OK)
        fprintf(stderr, "gemmbench: warning: %s: no memory traffic: %s\n", job->kernel, why);
    const gb_result_t *r = &pt->result;
    const unsigned caps = gb_impl_caps(&jb->impl);
    const gb_outcome_t oc = gb_validation_outcome(&r->validation, caps, u->verdict);
    if (oc >= GB_OUTCOME_FAIL)
        u->exit_code = EXIT_INVALID;
    u->unfaithful += oc == GB_OUTCOME_UNFAITHFUL;
    if (mrc == GB_JOB_ESTORE) {
        u->exit_code = cli_error(GB_EIO, "%s: not stored: %s", job->kernel, msg);
        pt->id[0] = '\0';
    } else if (u->st) {
        u->stored++;
    }
    const char *name = job->chosen[0] ? job->chosen : job->kernel;
    char chosen[512];
    if (job->chosen[0] && !u->out && headline)
        printf("auto -> %s (%s)\n", gb_job_chosen_text(job, chosen, sizeof chosen),
               job->chosen_why);
    if (u->out) {
        cJSON *item =
            result_json(&u->tb, name, &jb->problem, r, &jb->bench, serial_ms, &traffic, oc, caps);
        if (job->chosen[0])
            cJSON_AddStringToObject(item, "auto", job->chosen_why);
        if (u->st && pt->id[0])
            cJSON_AddStringToObject(item, "id", pt->id);
        cJSON_AddItemToArray(u->out, item);
    } else {
        print_row(&u->tb, name, &jb->problem, r, jb->bench.host_mem, serial_ms, &traffic, oc, caps);
    }
}

/* Point i measured and shown: a pipelined point comes after the serial offload of the same
 * point, for the ratio. 0 or the exit code. */
static int measure_point(run_t *u, size_t i)
{
    gb_job_t job;
    char msg[1024];
    if (gb_explore_job(u->ex, i, &job) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    if (u->skipped && u->skipped == job.kernel && u->skipped_prec == job.problem.precision)
        return 0;
    if (job.code != GB_OK) { /* only unnamed kernels get here: named ones were refused */
        skip(u, &job, job.why);
        return 0;
    }
    gb_job_t twin = job;
    twin.bench.pipeline = 0;
    double serial_ms = 0;
    const int first = job.bench.pipeline ? 0 : 1;
    for (int pass = first; pass < 2; pass++) {
        const gb_job_t *jb = pass ? &job : &twin;
        gb_point_t pt;
        gb_point_init(&pt);
        const int mrc =
            gb_job_measure(jb, u->ctx, u->st, u->st ? GB_JOB_KEEP_NEXT_REP : GB_JOB_KEEP_NONE, &pt,
                           msg, sizeof msg);
        /* Found only once compiled (e.g. registers limit the work-group): under 'all' a
         * kernel that cannot run here is skipped with its reason, like the checks before. */
        if (!job.named && gb_job_cannot_run(mrc)) {
            skip(u, &job, msg);
            gb_point_free(&pt);
            break;
        }
        if (mrc != GB_OK && mrc != GB_JOB_ESTORE) {
            gb_point_free(&pt);
            return cli_error(mrc, "%s: %s", job.kernel, msg);
        }
        show(u, &job, jb, pass == first, &pt, mrc, msg, serial_ms);
        const gb_outcome_t oc =
            gb_validation_outcome(&pt.result.validation, gb_impl_caps(&jb->impl), u->verdict);
        if (pass == 0 && oc < GB_OUTCOME_FAIL)
            serial_ms = pt.result.time_ms[GB_PHASE_OFFLOAD].median;
        gb_point_free(&pt);
    }
    return 0;
}

/* -i 0 (Intel's sample: "no kernel invocation is performed, but all other host stuff is
 * created"): point i's programs built, or loaded from the program cache, on the context, and
 * the time that took; nothing is called, timed, validated or stored. 0 or the exit code. */
static int build_point(run_t *u, size_t i)
{
    gb_job_t job;
    char msg[16384], tag[16];
    if (gb_explore_job(u->ex, i, &job) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    if (u->skipped && u->skipped == job.kernel && u->skipped_prec == job.problem.precision)
        return 0;
    if (job.code != GB_OK) {
        skip(u, &job, job.why);
        return 0;
    }
    const double t0 = cli_now_s();
    const int rc = gb_impl_prebuild(u->ctx, &job.impl, &job.problem, msg, sizeof msg);
    const double ms = (cli_now_s() - t0) * 1e3;
    if (!job.named && gb_job_cannot_run(rc)) {
        skip(u, &job, msg);
        return 0;
    }
    if (rc != GB_OK)
        return cli_error(rc, "%s: %s", job.kernel, msg);
    const char *name = job.chosen[0] ? job.chosen : job.kernel;
    if (u->out) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kernel", name);
        cJSON_AddStringToObject(o, "precision", gb_precision_name(job.problem.precision));
        cJSON_AddStringToObject(o, "layout", gb_problem_layout_tag(&job.problem, tag, sizeof tag));
        cJSON_AddNumberToObject(o, "M", (double)job.problem.m);
        cJSON_AddNumberToObject(o, "N", (double)job.problem.n);
        cJSON_AddNumberToObject(o, "K", (double)job.problem.k);
        cJSON_AddNumberToObject(o, "build_ms", ms);
        cJSON_AddNumberToObject(o, "calls", 0);
        cJSON_AddItemToArray(u->out, o);
    } else {
        printf("%-24s %-4s %-7s %6zu %6zu %6zu  built in %.4g ms%s\n", name,
               gb_precision_name(job.problem.precision),
               gb_problem_layout_tag(&job.problem, tag, sizeof tag), job.problem.m, job.problem.n,
               job.problem.k, ms,
               gb_impl_can(&job.impl, GB_IS_LIBRARY) ? " (a library peer: nothing to build)" : "");
    }
    return 0;
}

/* After the rows: the notes on energy and traffic, and where the points went; or the JSON. */
static void finish_run(const run_t *u)
{
    if (!u->out && u->tb.energy_note[0])
        printf("%s\n", u->tb.energy_note);
    if (!u->out && u->tb.over_measured)
        printf("meas%%: %d row%s above the peak 'gemmbench ceilings' measured (%s): its "
               "micro-benchmark ran short of what kernels reach on this device; run 'gemmbench "
               "ceilings' again\n",
               u->tb.over_measured, u->tb.over_measured == 1 ? " is" : "s are",
               u->tb.measured_when);
    if (!u->out && u->tb.traffic_rows)
        printf("traffic: FLOP/B = 2*M*N*K / the bytes of global memory the kernel's family "
               "declares its main kernel reads and writes (loads and stores per work-item, not "
               "DRAM traffic; helper passes not counted; C counted as read), GB/s = those bytes / "
               "the main kernel's median time (docs/kernel-metadata.md)\n");
    if (u->out) {
        char *s = cJSON_Print(u->out);
        printf("%s\n", s ? s : "[]");
        free(s);
    } else if (u->st) {
        printf("\nstored %zu points in %s ('gemmbench store list' shows them)\n", u->stored,
               gb_store_path(u->st));
    }
    if (u->unfaithful)
        fprintf(stderr,
                "gemmbench: %zu result%s within the error bound but not faithful to %s precision "
                "(exit 1); an implementation that computes in a reduced precision on purpose "
                "declares it, and --verdict bound holds results to the bound alone\n",
                u->unfaithful, u->unfaithful == 1 ? "" : "s", u->unfaithful == 1 ? "its" : "their");
}

int cmd_run(int argc, char **argv)
{
    cli_measure_t o;
    gb_explore_plan_t pl;
    char msg[1024];
    gb_plan_init(&pl);
    int rc = gb_plan_set(&pl, "kernels", "all", "-k", msg, sizeof msg);
    if (rc == GB_OK)
        rc = cli_measure_parse(
            argc, argv, "run",
            CLI_OPT_JSON | CLI_OPT_NO_STORE | CLI_OPT_VERDICT | CLI_OPT_BUILD_ONLY, usage, &o, &pl);
    if (rc == 0)
        rc = default_sizes(&pl);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    run_t u;
    memset(&u, 0, sizeof u);
    u.verdict = o.verdict;
    o.no_store |= o.build_only; /* nothing to keep */
    if ((rc = open_run(&u, &o, &pl)) == 0) {
        if (o.json)
            u.out = cJSON_CreateArray();
        else if (o.build_only)
            printf("device: %s (%s, %s)\n-i 0: each point's programs built, or loaded from the "
                   "program cache, and the time that took; no call, so nothing is timed, "
                   "validated or stored\n\n%-24s %-4s %-7s %6s %6s %6s  %s\n",
                   u.di->name, u.di->platform_name, u.di->driver, "kernel", "prec", "layout", "M",
                   "N", "K", "build");
        else
            print_header(&u.tb, u.di, &pl, o.verdict);
        for (size_t i = 0; i < gb_explore_total(u.ex) && !rc; i++)
            rc = o.build_only ? build_point(&u, i) : measure_point(&u, i);
        if (!rc) {
            finish_run(&u);
            rc = u.exit_code;
        }
    }
    close_run(&u);
    gb_plan_free(&pl);
    return rc;
}
