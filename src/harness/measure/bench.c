/* bench.c: one measured point: generate inputs (or take the context's, inputs.c), build,
 * validate once on poisoned output, then warm-up and timed calls, and summarise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/impl/impl.h"
#include "harness/validate/validate.h"
#include "clocks.h"
#include "energy.h"
#include "inputs.h"
#include "runner.h"
#include "stats.h"
/* Validate by default while the reference costs at most 2^33 multiply-adds (2048^3). */
#define GB_AUTO_VALIDATE_MNK (1ull << 33)

static int adaptive(const gb_bench_options_t *o)
{
    return o->min_time_s > 0 || o->max_rel_ci > 0;
}

/* The most timed calls: the iterations asked, and with an adaptive stop at least
 * GB_BENCH_MAX_SAMPLES. */
static size_t max_calls(const gb_bench_options_t *o)
{
    const size_t asked = (size_t)o->iterations;
    return adaptive(o) && asked < GB_BENCH_MAX_SAMPLES ? GB_BENCH_MAX_SAMPLES : asked;
}

int gb__bench_stop(const gb_bench_options_t *o, const double *x, size_t n, double spent_s,
                   char *why, size_t len)
{
    const char *stop = NULL;
    if (n < (size_t)o->iterations)
        return 0;
    if (!adaptive(o)) {
        stop = "count";
    } else if (n >= max_calls(o)) {
        stop = "cap";
    } else if (o->max_rel_ci > 0 && n >= 2) {
        /* After every call: the CI alone, not the median's sort. */
        double mean, std;
        const double half = gb__mean_ci(x, n, &mean, &std);
        if (mean > 0 && half <= o->max_rel_ci * mean)
            stop = "ci";
    }
    if (!stop && o->min_time_s > 0 && spent_s >= o->min_time_s)
        stop = "time";
    if (!stop && o->min_time_s <= 0 && spent_s >= GB_BENCH_MAX_ADAPTIVE_S)
        stop = "cap";
    if (stop)
        snprintf(why, len, "%s", stop);
    return stop != NULL;
}

void gb_bench_options_init(gb_bench_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->warmup = 1;
    o->iterations = 10;
    o->validate = GB_VALIDATE_AUTO;
    o->seed = 42;
    o->dist.kind = GB_DIST_UNIFORM;
    o->dist.lo = -1.0;
    o->dist.hi = 1.0;
    o->timing = GB_TIMING_OPS;
}

const char *gb_phase_name(gb_phase_t ph)
{
    static const char *const names[GB_PHASE_COUNT] = {"main", "helpers", "h2d", "d2h",
                                                      "ops",  "offload", "wall"};
    return (unsigned)ph < GB_PHASE_COUNT ? names[ph] : "?";
}

int gb_timing_parse(const char *s, gb_timing_t *out)
{
    static const char *const names[] = {"kernel", "ops", "offload"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            *out = (gb_timing_t)i;
            return GB_OK;
        }
    return GB_EBADARG;
}

const char *gb_timing_name(gb_timing_t t)
{
    return t == GB_TIMING_KERNEL ? "kernel" : t == GB_TIMING_OFFLOAD ? "offload" : "ops";
}

static const char *const host_mem_names[GB_HOST_KINDS] = {"pageable", "pinned", "mapped"};

int gb_host_mem_parse(const char *s, gb_host_mem_t *out)
{
    for (int i = 0; i < GB_HOST_KINDS; i++)
        if (!strcmp(s, host_mem_names[i])) {
            *out = (gb_host_mem_t)i;
            return GB_OK;
        }
    return GB_EBADARG;
}

const char *gb_host_mem_name(gb_host_mem_t h)
{
    return (unsigned)h < GB_HOST_KINDS ? host_mem_names[h] : "?";
}

gb_phase_t gb_timing_phase(gb_timing_t t)
{
    return t == GB_TIMING_KERNEL    ? GB_PHASE_MAIN
           : t == GB_TIMING_OFFLOAD ? GB_PHASE_OFFLOAD
                                    : GB_PHASE_OPS;
}

void gb_result_free(gb_result_t *r)
{
    if (!r)
        return;
    for (int i = 0; i < GB_PHASE_COUNT; i++) {
        free(r->samples_ms[i]);
        r->samples_ms[i] = NULL;
    }
}

/* One call of the energy loop: whole (a, b, c and c_out set) or device-only (all NULL: the
 * device keeps the inputs of the previous call), finished on the device before it returns. */
typedef struct energy_job {
    gb_runner_t *run;
    const void *a, *b, *c;
    void *c_out;
} energy_job_t;

static int energy_call(void *user)
{
    energy_job_t *j = user;
    double t[GB_PHASE_COUNT];
    int rc = gb__runner_call(j->run, j->a, j->b, j->c, j->c_out, t);
    /* Each call finishes its own work (cuBLAS synchronises its stream); this makes sure. */
    if (rc == GB_OK)
        rc = gb__cl_check(j->run->ctx, clFinish(j->run->ctx->queue),
                          "finishing an energy-loop call");
    return rc;
}

/* Whether the device's own counters (energy, clocks) see the implementation's work: not when a
 * host library does it beside a device that is not the host's CPU. */
static int device_sees(const gb_runner_t *run)
{
    return !(run->ops->host && strcmp(run->ctx->dev->type_name, "cpu"));
}

/* The energy loop after the timed calls (docs/methodology.md): the timed region is too short
 * for counters that update every few tens of milliseconds, and with timing kernel or ops its
 * calls' copies are not what the GFLOP/s counts. So calls are repeated for at least
 * GEMMBENCH_ENERGY_MIN_S seconds between two counter reads: device-only for timing kernel and
 * ops, whole offloads for offload. Fills r's energy fields, unavailable with the reason where
 * there is no counter or it did not advance. Returns a call's error, else GB_OK. */
static int measure_energy(gb_runner_t *run, gb_timing_t timing, double flop, const void *a,
                          const void *b, const void *c, void *c_out, gb_result_t *r)
{
    const char *env = getenv("GEMMBENCH_ENERGY_MIN_S");
    const double min_s = gb__energy_min_s(env);
    char why[sizeof r->energy_why];
    if (min_s <= 0) {
        if (min_s == 0)
            snprintf(why, sizeof why, "disabled by GEMMBENCH_ENERGY_MIN_S=%s", env);
        else
            snprintf(why, sizeof why,
                     "GEMMBENCH_ENERGY_MIN_S='%.40s' is not a number of seconds "
                     "from 0 to %g",
                     env, GB_ENERGY_MIN_S_MAX);
        gb__energy_unavailable(r, why);
        return GB_OK;
    }
    if (!device_sees(run)) {
        /* The device's counter does not see work done on the host. */
        gb__energy_unavailable(r, "a host library: the device's energy counter does not see "
                                  "its work");
        return GB_OK;
    }
    gb_energy_t en;
    gb__energy_open(&en, run->ctx->dev);
    if (!en.ok) {
        gb__energy_unavailable(r, en.why);
        gb__energy_close(&en);
        return GB_OK;
    }
    const int whole = timing == GB_TIMING_OFFLOAD;
    energy_job_t job = {run, NULL, NULL, NULL, NULL};
    if (whole) {
        job.a = a;
        job.b = b;
        job.c = c;
        job.c_out = c_out;
    }
    gb_energy_loop_t loop;
    int rc = gb__cl_check(run->ctx, clFinish(run->ctx->queue), "finishing the timed calls");
    if (rc == GB_OK)
        rc = gb__energy_loop(&en, min_s, energy_call, &job, &loop);
    if (rc == GB_OK)
        gb__energy_result(&loop, flop, en.source,
                          whole ? "whole calls incl. copies" : "device-only calls", r);
    gb__energy_close(&en);
    return rc;
}

/* --cold: a buffer four times the device's global-memory cache (at least 64 MiB, at most its
 * largest allocation), filled before every warm-up and timed call and finished before the call
 * starts, so that the call finds none of its operands in a cache. */
typedef struct cold {
    cl_mem buf;
    size_t bytes;
    cl_uint fills; /* a new pattern each time: nothing can skip the writes */
} cold_t;

static int cold_open(gb_context_t *ctx, cold_t *c)
{
    cl_ulong cache = 0, most = 0;
    cl_device_id d = (cl_device_id)ctx->dev->cl_device;
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof cache, &cache, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof most, &most, NULL);
    c->bytes = 4 * (size_t)cache > (64u << 20) ? 4 * (size_t)cache : (64u << 20);
    if (most && c->bytes > most)
        c->bytes = (size_t)most & ~(size_t)3;
    cl_int err;
    c->buf = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, c->bytes, NULL, &err);
    return gb__cl_check(ctx, err, "allocating --cold's buffer");
}

static int cold_flush(gb_context_t *ctx, cold_t *c)
{
    c->fills++;
    int rc = gb__cl_check(ctx,
                          clEnqueueFillBuffer(ctx->queue, c->buf, &c->fills, sizeof c->fills, 0,
                                              c->bytes, 0, NULL, NULL),
                          "writing --cold's buffer");
    return rc == GB_OK ? gb__cl_check(ctx, clFinish(ctx->queue), "writing --cold's buffer") : rc;
}

static int validate_once(gb_runner_t *run, gb_inputs_t *in, gb_validation_t *v)
{
    const gb_problem_t *p = &in->p;
    double t[GB_PHASE_COUNT];
    int rc = gb__inputs_poisoned(run->ctx, in);
    if (rc == GB_OK)
        rc = gb__runner_call(run, in->da.ptr, in->db.ptr, in->poisoned.ptr, in->out.ptr, t);
    if (rc == GB_OK)
        rc = gb__inputs_reference(run->ctx, in);
    if (rc == GB_OK) {
        gb__from_storage(p->precision, in->out.ptr, in->ec, in->got);
        /* The canary as the precision stores it (-7776 in FP16 and bfloat16). */
        gb__validate(p, gb__exact_possible(p, &in->dist), in->cref, in->gauge, in->got, in->ec,
                     gb__round_to(p->precision, GB_CANARY), v);
        gb__faithful(p, in->a, in->b, in->c, in->cref, in->gauge, in->got, v);
    }
    if (rc == GB_ENOMEM)
        gb__ctx_fail(run->ctx, rc, "out of memory validating");
    return rc;
}

/* The last timed call's C (every call an offload of the same inputs) against the same reference,
 * where the first call's passed: a kernel right only on its first call, through state it keeps
 * between calls (counters it must leave zero), fails here. Its failure replaces v's. */
static void validate_last(gb_inputs_t *in, gb_validation_t *v)
{
    const gb_problem_t *p = &in->p;
    gb_validation_t last;
    gb__from_storage(p->precision, in->out.ptr, in->ec, in->got);
    gb__validate(p, gb__exact_possible(p, &in->dist), in->cref, in->gauge, in->got, in->ec,
                 gb__round_to(p->precision, GB_CANARY), &last);
    if (last.passed)
        return;
    char why[sizeof last.reason];
    memcpy(why, last.reason, sizeof why);
    snprintf(last.reason, sizeof last.reason, "the last timed call (the first passed): %.110s",
             why);
    *v = last;
}

/* Does a run of p with o validate? */
static int validates(const gb_problem_t *p, const gb_bench_options_t *o)
{
    const double mnk = (double)p->m * (double)p->n * (double)p->k;
    return o->validate == GB_VALIDATE_AUTO ? mnk <= (double)GB_AUTO_VALIDATE_MNK
                                           : o->validate == GB_VALIDATE_ON;
}

/* *p: problem completed and checked, its data too, as every run needs it; the message on ctx. */
static int problem_checked(gb_context_t *ctx, const gb_problem_t *problem,
                           const gb_bench_options_t *o, gb_problem_t *p)
{
    *p = *problem;
    int rc = gb_problem_check(p, ctx->errmsg, sizeof ctx->errmsg);
    return rc == GB_OK ? gb_problem_check_data(p, &o->dist, ctx->errmsg, sizeof ctx->errmsg) : rc;
}

int gb_bench_inputs_ready(gb_context_t *ctx, const gb_problem_t *problem,
                          const gb_bench_options_t *o)
{
    gb_problem_t p;
    gb_inputs_t *in;
    int rc = problem_checked(ctx, problem, o, &p);
    if (rc == GB_OK)
        rc = gb__inputs_get(ctx, &p, &o->dist, o->seed, o->host_mem, &in);
    if (rc == GB_OK && validates(&p, o) && (rc = gb__inputs_reference(ctx, in)) == GB_OK)
        rc = gb__inputs_poisoned(ctx, in);
    return rc;
}

int gb_bench_run(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *problem,
                 const gb_bench_options_t *o, gb_result_t *r)
{
    memset(r, 0, sizeof *r);
    r->validation.faithful_worst = r->validation.faithful_honest = -1.0;
    gb_problem_t p;
    int rc = problem_checked(ctx, problem, o, &p);
    if (rc != GB_OK)
        return rc;
    if ((rc = gb_impl_check(im, ctx->dev, p.precision, &p, ctx->errmsg, sizeof ctx->errmsg)) ||
        (rc = gb_bench_check(ctx->dev, im, &p, o, ctx->errmsg, sizeof ctx->errmsg)))
        return rc;
    if (o->iterations < 1 || o->warmup < 0 || !(o->min_time_s >= 0) || !(o->max_rel_ci >= 0))
        return gb__ctx_fail(ctx, GB_EBADARG,
                            "iterations must be at least 1, warm-up at least 0, and the adaptive "
                            "stops (min time, max relative CI) at least 0");
    gb_runner_t run;
    memset(&run, 0, sizeof run);
    int nomem = 0;
    for (int i = 0; i < GB_PHASE_COUNT; i++)
        nomem |= !(r->samples_ms[i] = calloc(max_calls(o), sizeof(double)));
    if (nomem) {
        rc = gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
        goto done;
    }
    gb_inputs_t *in;
    if ((rc = gb__inputs_get(ctx, &p, &o->dist, o->seed, o->host_mem, &in)) != GB_OK)
        goto done;
    const void *da = in->da.ptr, *db = in->db.ptr, *dc = in->dc.ptr;
    void *cout = in->out.ptr;
    if ((rc = gb__runner_prepare(&run, ctx, im, &p, o, in, r)) != GB_OK)
        goto done;
    r->timing = o->timing;
    /* The first call compiles what a driver compiles at a kernel's first launch (PoCL). */
    int first = 1;
    if (validates(&p, o)) {
        rc = validate_once(&run, in, &r->validation);
        if (rc == GB_OK && o->first_call_done)
            o->first_call_done(o->first_call_user);
        first = 0;
    } else {
        snprintf(r->validation.reason, sizeof r->validation.reason, "%s",
                 o->validate == GB_VALIDATE_OFF ? "validation off"
                                                : "not validated: M*N*K over 2^33 (use -v)");
    }
    /* Every call is a whole offload (inputs written, C read back), so each phase is measured
     * each time and C starts from the same values. */
    cold_t cold = {0};
    if (rc == GB_OK && o->cold)
        rc = cold_open(ctx, &cold);
    /* The timed calls: the iterations asked, then more while an adaptive stop asks for them. */
    const gb_phase_t headline = gb_timing_phase(o->timing);
    size_t n = 0;
    double t0 = 0;
    /* The device's clocks, where they are what does the work. */
    gb_clocks_t clocks = {0};
    gb_clocks_sample_t c_start, c_end;
    if (device_sees(&run))
        gb__clocks_open(&clocks, ctx->dev);
    for (int i = 0; rc == GB_OK; i++) {
        double t[GB_PHASE_COUNT];
        if (i == o->warmup) {
            gb__clocks_sample(&clocks, &c_start);
            t0 = gb__now_ms() / 1e3;
        }
        if (i >= o->warmup && gb__bench_stop(o, r->samples_ms[headline], n, gb__now_ms() / 1e3 - t0,
                                             r->stop, sizeof r->stop))
            break;
        if (o->cold && (rc = cold_flush(ctx, &cold)) != GB_OK)
            break;
        if ((rc = gb__runner_call(&run, da, db, dc, cout, t)) == GB_OK && i >= o->warmup) {
            for (int ph = 0; ph < GB_PHASE_COUNT; ph++)
                r->samples_ms[ph][n] = t[ph];
            n++;
        }
        if (rc == GB_OK && first && o->first_call_done)
            o->first_call_done(o->first_call_user);
        first = 0;
    }
    if (rc == GB_OK && n > 0 && r->validation.done && r->validation.passed)
        validate_last(in, &r->validation);
    if (cold.buf)
        clReleaseMemObject(cold.buf);
    if (rc == GB_OK) {
        gb__clocks_sample(&clocks, &c_end);
        gb__clocks_result(&clocks, &c_start, &c_end, r);
    }
    if (rc == GB_OK)
        rc = measure_energy(&run, o->timing, gb_problem_flops(&p), da, db, dc, cout, r);
    if (rc != GB_OK)
        goto done;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++)
        gb__stats_compute(r->samples_ms[ph], n, &r->time_ms[ph]);
    const double flop = gb_problem_flops(&p), head = r->time_ms[gb_timing_phase(o->timing)].median;
    r->gflops = head > 0 ? flop / (head * 1e6) : 0;
    r->gflops_wall =
        r->time_ms[GB_PHASE_WALL].median > 0 ? flop / (r->time_ms[GB_PHASE_WALL].median * 1e6) : 0;
    /* FP16 and bfloat16 are computed in single precision here: single's peak applies. */
    const double peak = ctx->dev->peak_gflops[gb_precision_arith(p.precision)];
    r->efficiency = peak > 0 ? r->gflops / peak : -1.0;
done:
    gb__runner_release(&run);
    if (rc != GB_OK)
        gb_result_free(r);
    return rc;
}
