/* run_show.c: how `gemmbench run` shows its points (cmd_run.c measures them): the table's
 * header, one row per point with its rates, efficiencies, copies, traffic, energy and verdicts,
 * and the notes after the rows; or, with --json, one object per point with every phase's times
 * and samples; and -i 0's build times. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_show.h"

static double measured_efficiency(const run_table_t *tb, const gb_problem_t *p,
                                  const gb_result_t *r)
{
    const gb_precision_t a = gb_precision_arith(p->precision);
    return tb->measured_peak[a] > 0 ? r->gflops / tb->measured_peak[a] : -1.0;
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
    if (gb_precision_is_complex(p->precision)) {
        cJSON_AddNumberToObject(o, "alpha_im", p->alpha_im);
        cJSON_AddNumberToObject(o, "beta_im", p->beta_im);
    }
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
    cJSON_AddStringToObject(o, "flops",
                            gb_precision_is_complex(p->precision) ? "8*M*N*K" : "2*M*N*K");
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
static void rates_json(cJSON *o, const run_table_t *tb, const gb_problem_t *p, const gb_result_t *r,
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
cJSON *cli_run_json(const run_table_t *tb, const char *kernel, const gb_problem_t *p,
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

/* The header's device lines: its peaks by formula and as measured, and the copies' ceiling. */
static void header_device(const run_table_t *tb, const gb_device_info_t *dev,
                          const gb_explore_plan_t *o)
{
    printf("device: %s (%s, %s)\n", dev->name, dev->platform_name, dev->driver);
    for (int p = 0; p < 2; p++)
        if (dev->peak_gflops[p] > 0)
            printf("peak %s: %.1f GFLOP/s = %s\n", p ? "D" : "S", dev->peak_gflops[p],
                   dev->peak_formula[p]);
        else
            printf("peak %s: %s\n", p ? "D" : "S", dev->peak_formula[p]);
    if ((o->precisions & GB_PREC_STORAGE16) ||
        (!o->precisions && (!o->kernels || strstr(o->kernels, "all"))))
        printf("peak H, B, HH: peak S (stored in 16 bits, computed in FP32)\n");
    const unsigned cplx = (1u << GB_PREC_C) | (1u << GB_PREC_Z);
    if (o->precisions & cplx)
        printf("peak C, Z: peak S, D; complex GFLOP/s count 8*M*N*K (a complex multiply-add is 8 "
               "real operations)\n");
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
}

void cli_one_layout_note(const gb_explore_plan_t *o)
{
    char tag[16];
    printf("layout: the kernels' own layouts differ, so every one runs %s (its route's passes "
           "or operand swap included where that is not its own) and the rows solve one problem; "
           "--layout, --transA and --transB choose another\n",
           gb_problem_layout_tag(&o->base, tag, sizeof tag));
}

void cli_run_header(const run_table_t *tb, const gb_device_info_t *dev, const gb_explore_plan_t *o,
                    int one_layout, gb_verdict_t verdict)
{
    char dist[64];
    header_device(tb, dev, o);
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
    char sa[64] = "", sb[64] = "";
    if (o->base.alpha_im != 0.0 || o->base.beta_im != 0.0) { /* complex: RE,IM */
        snprintf(sa, sizeof sa, ",%g", o->base.alpha_im);
        snprintf(sb, sizeof sb, ",%g", o->base.beta_im);
    }
    printf("alpha %g%s, beta %g%s, data %s, seed %llu; valid = max |C-Cref|/(u*G) / failing "
           "bound;\n"
           "faithful = worst error on a sample of C within %g times an honest sequential "
           "computation's in the precision (else how many times it, at most)\n",
           o->base.alpha, sa, o->base.beta, sb, gb_dist_format(&o->bench.dist, dist, sizeof dist),
           (unsigned long long)o->bench.seed, GB_FAITHFUL_LAMBDA);
    if (one_layout)
        cli_one_layout_note(o);
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

void cli_run_row(run_table_t *tb, const char *kernel, const gb_problem_t *p, const gb_result_t *r,
                 gb_host_mem_t hm, double serial_ms, const gb_traffic_t *t, gb_outcome_t oc,
                 unsigned caps)
{
    char tag[16], lws[24], ci[40], eff[16], meas[16], helpers[16], verdict[200], faithful[48];
    const double flop = gb_problem_flops(p);
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

void cli_run_notes(const run_table_t *tb)
{
    if (tb->energy_note[0])
        printf("%s\n", tb->energy_note);
    if (tb->over_measured)
        printf("meas%%: %d row%s above the peak 'gemmbench ceilings' measured (%s): its "
               "micro-benchmark ran short of what kernels reach on this device; run 'gemmbench "
               "ceilings' again\n",
               tb->over_measured, tb->over_measured == 1 ? " is" : "s are", tb->measured_when);
    if (tb->traffic_rows)
        printf("traffic: FLOP/B = 2*M*N*K / the bytes of global memory the kernel's family "
               "declares its main kernel reads and writes (loads and stores per work-item, not "
               "DRAM traffic; helper passes not counted; C counted as read), GB/s = those bytes / "
               "the main kernel's median time (docs/kernel-metadata.md)\n");
}

void cli_run_skipped(const gb_job_t *job, int shape, const char *why)
{
    printf("%-24s %-4s ", job->kernel, gb_precision_name(job->problem.precision));
    if (shape)
        printf("%zux%zux%zu ", job->problem.m, job->problem.n, job->problem.k);
    printf("skipped: %s\n", why);
}

void cli_run_build_header(const gb_device_info_t *di)
{
    printf("device: %s (%s, %s)\n-i 0: each point's programs built, or loaded from the "
           "program cache, and the time that took; no call, so nothing is timed, "
           "validated or stored\n\n%-24s %-4s %-7s %6s %6s %6s  %s\n",
           di->name, di->platform_name, di->driver, "kernel", "prec", "layout", "M", "N", "K",
           "build");
}

void cli_run_built(cJSON *out, const char *kernel, const gb_problem_t *p, double ms, int library)
{
    char tag[16];
    if (out) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kernel", kernel);
        cJSON_AddStringToObject(o, "precision", gb_precision_name(p->precision));
        cJSON_AddStringToObject(o, "layout", gb_problem_layout_tag(p, tag, sizeof tag));
        cJSON_AddNumberToObject(o, "M", (double)p->m);
        cJSON_AddNumberToObject(o, "N", (double)p->n);
        cJSON_AddNumberToObject(o, "K", (double)p->k);
        cJSON_AddNumberToObject(o, "build_ms", ms);
        cJSON_AddNumberToObject(o, "calls", 0);
        cJSON_AddItemToArray(out, o);
    } else {
        printf("%-24s %-4s %-7s %6zu %6zu %6zu  built in %.4g ms%s\n", kernel,
               gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), p->m,
               p->n, p->k, ms, library ? " (a library peer: nothing to build)" : "");
    }
}
