/* ceiling.c: measured ceilings of a device: peak FLOP/s per precision from an FMA-chain kernel,
 * memory bandwidth from a copy kernel and a short stream's fixed cost from reads of a few
 * sizes, each the best of several launches (event times). */
#include <stdio.h>
#include <string.h>

#include "rt/device/context.h"
#include "harness/impl/impl.h"
#include "rt/family/registry.h"

#define GB_FMA_ITERS 1024
#define GB_REPEATS 5

/* One timed command: a kernel launch or a blocking copy. */
typedef struct timed {
    cl_kernel kernel; /* a launch of global work-items, or (NULL) a copy of bytes */
    size_t global;
    cl_mem dev; /* the copy: to dev from host (h2d) or back */
    void *host;
    size_t bytes;
    int h2d;
} timed_t;

/* Best (shortest) event time of REPEATS of the command (the first is a warm-up), in ms. */
static int best_ms(gb_context_t *ctx, const timed_t *t, double *best)
{
    *best = 0;
    for (int r = 0; r < GB_REPEATS + 1; r++) {
        cl_event ev;
        cl_int err = t->kernel ? clEnqueueNDRangeKernel(ctx->queue, t->kernel, 1, NULL, &t->global,
                                                        NULL, 0, NULL, &ev)
                     : t->h2d  ? clEnqueueWriteBuffer(ctx->queue, t->dev, CL_TRUE, 0, t->bytes,
                                                      t->host, 0, NULL, &ev)
                               : clEnqueueReadBuffer(ctx->queue, t->dev, CL_TRUE, 0, t->bytes,
                                                     t->host, 0, NULL, &ev);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        cl_ulong s = 0, e = 0;
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
        if (err != CL_SUCCESS)
            return gb__cl_check(ctx, err,
                                t->kernel ? "running a ceiling micro-benchmark"
                                : t->h2d  ? "timing a copy to the device"
                                          : "timing a copy from the device");
        clReleaseEvent(ev);
        const double ms = (double)(e - s) * 1e-6;
        if (r > 0 && ms > 0 && (*best == 0 || ms < *best))
            *best = ms;
    }
    return GB_OK;
}

/* The lanes of each of gb_fma_chain's 8 chains (CW in ceilings.cl): the device's native vector
 * width where it is wider than 256 bits (an AVX-512 CPU: 16 floats, 8 doubles), else 256 bits
 * (8 floats, 4 doubles; a GPU, native width 1, splits them into scalar chains). Chains narrower
 * than the device's vectors leave lanes idle: on an AVX-512 CPU the measured peak was below
 * what the library reached there, and doubled at the native width
 * (bench/notes/measurement.md#ceilings-native-width). */
static unsigned chain_lanes(const gb_device_info_t *dev, gb_precision_t prec)
{
    const unsigned native = prec == GB_PREC_D ? dev->native_vec_double : dev->native_vec_float;
    const unsigned base = prec == GB_PREC_D ? 4 : 8;
    return native > base && native <= 16 && !(native & (native - 1)) ? native : base;
}

static int measure_peak(gb_context_t *ctx, gb_precision_t prec, double *gflops)
{
    const char *prelude = gb__embedded("prelude.cl")->data,
               *src = gb__embedded("ceilings.cl")->data;
    const unsigned cw = chain_lanes(ctx->dev, prec);
    char opts[96];
    snprintf(opts, sizeof opts, "-DGB_PRECISION=%d -DITERS=%d -DCW=%u", prec == GB_PREC_D ? 64 : 32,
             GB_FMA_ITERS, cw);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    double ms;
    int hit, rc = gb__program_get(ctx, "ceilings", prelude, src, opts, "", 0, &prog, &ms, &hit,
                                  ctx->errmsg, sizeof ctx->errmsg);
    if (rc)
        return rc;
    /* Enough work-items to fill every compute unit many times over. */
    const size_t global = (size_t)ctx->dev->compute_units * ctx->dev->max_wg_size;
    cl_int err;
    k = clCreateKernel(prog, "gb_fma_chain", &err);
    if (!(rc = gb__cl_check(ctx, err, "gb_fma_chain")))
        out = clCreateBuffer(ctx->cl, CL_MEM_WRITE_ONLY, global * gb_precision_bytes(prec), NULL,
                             &err);
    if (!rc && !(rc = gb__cl_check(ctx, err, "clCreateBuffer"))) {
        /* a < 1 and a small b keep the chains finite and normal. */
        double a = 0.999999, b = 1e-6;
        float af = (float)a, bf = (float)b;
        err = clSetKernelArg(k, 0, sizeof out, &out);
        err |= prec == GB_PREC_D ? clSetKernelArg(k, 1, sizeof a, &a)
                                 : clSetKernelArg(k, 1, sizeof af, &af);
        err |= prec == GB_PREC_D ? clSetKernelArg(k, 2, sizeof b, &b)
                                 : clSetKernelArg(k, 2, sizeof bf, &bf);
        if (!(rc = gb__cl_check(ctx, err, "gb_fma_chain arguments")) &&
            !(rc = best_ms(ctx, &(timed_t){.kernel = k, .global = global}, &ms)))
            /* 8 chains of cw lanes, as in ceilings.cl */
            *gflops = (double)global * GB_FMA_ITERS * 8.0 * cw * 2.0 / (ms * 1e6);
    }
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(prog);
    return rc;
}

/* Reads alone of a (zeroed, at least 4 MiB) by gb_read_bw, at 4 MiB to 256 MiB by 4 while a
 * holds them; the fixed cost and rate from the line through the two largest (through the
 * largest and the origin where that line would give a cost below nothing). */
static int measure_reads(gb_context_t *ctx, cl_program prog, cl_mem a, size_t bytes, cl_mem out,
                         gb_ceilings_t *ce)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "gb_read_bw", &err);
    int rc = gb__cl_check(ctx, err, "gb_read_bw");
    if (!rc) {
        err = clSetKernelArg(k, 0, sizeof a, &a);
        err |= clSetKernelArg(k, 1, sizeof out, &out);
        rc = gb__cl_check(ctx, err, "gb_read_bw set-up");
    }
    ce->nreads = 0;
    for (size_t b = (size_t)4 << 20; !rc && b <= bytes && ce->nreads < GB_CEIL_READS; b *= 4) {
        double ms;
        if (!(rc = best_ms(ctx, &(timed_t){.kernel = k, .global = b / 16}, &ms))) {
            ce->reads[ce->nreads].bytes = b;
            ce->reads[ce->nreads++].us = ms * 1e3;
        }
    }
    if (!rc && ce->nreads >= 2) {
        const size_t i = ce->nreads - 1;
        const double db = (double)(ce->reads[i].bytes - ce->reads[i - 1].bytes),
                     dt = ce->reads[i].us - ce->reads[i - 1].us;
        if (dt > 0) {
            ce->read_gbs = db / (dt * 1e3);
            ce->read_fixed_us = ce->reads[i].us - (double)ce->reads[i].bytes / (ce->read_gbs * 1e3);
            if (ce->read_fixed_us < 0) { /* noise, or a cache that flatters the smaller read */
                ce->read_fixed_us = 0;   /* the line through the largest and the origin */
                ce->read_gbs = (double)ce->reads[i].bytes / (ce->reads[i].us * 1e3);
            }
        }
    }
    if (k)
        clReleaseKernel(k);
    return rc;
}

static int measure_bandwidth(gb_context_t *ctx, gb_ceilings_t *ce, size_t *bytes_out)
{
    double *gbs = &ce->bandwidth_gbs;
    const char *prelude = gb__embedded("prelude.cl")->data,
               *src = gb__embedded("ceilings.cl")->data;
    cl_program prog = NULL;
    double ms;
    int hit, rc = gb__program_get(ctx, "ceilings", prelude, src, "-DGB_PRECISION=32", "", 0, &prog,
                                  &ms, &hit, ctx->errmsg, sizeof ctx->errmsg);
    if (rc)
        return rc;
    /* Far larger than any cache: a quarter of the largest allocation, at most 1 GiB. */
    size_t bytes = (size_t)(ctx->dev->max_alloc / 4);
    if (bytes > (1u << 30))
        bytes = 1u << 30;
    bytes &= ~(size_t)4095;
    cl_int err;
    cl_mem a = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err), b = NULL;
    cl_kernel k = NULL;
    if (!(rc = gb__cl_check(ctx, err, "clCreateBuffer")))
        b = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!rc && !(rc = gb__cl_check(ctx, err, "clCreateBuffer")))
        k = clCreateKernel(prog, "gb_copy_bw", &err);
    if (!rc && !(rc = gb__cl_check(ctx, err, "gb_copy_bw"))) {
        const float zero = 0;
        err = clEnqueueFillBuffer(ctx->queue, a, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
        err |= clSetKernelArg(k, 0, sizeof a, &a);
        err |= clSetKernelArg(k, 1, sizeof b, &b);
        if (!(rc = gb__cl_check(ctx, err, "gb_copy_bw set-up")) &&
            !(rc = best_ms(ctx, &(timed_t){.kernel = k, .global = bytes / 16}, &ms)))
            *gbs = 2.0 * (double)bytes / (ms * 1e6);
    }
    if (!rc)
        rc = measure_reads(ctx, prog, a, bytes, b, ce);
    *bytes_out = bytes;
    if (k)
        clReleaseKernel(k);
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    clReleaseProgram(prog);
    return rc;
}

/* Mapped memory is not copied: the best (shortest) time of handing a mapped buffer to the
 * device (unmap: h2d) or back to the host (map: d2h), the other half of each round untimed. */
static int best_handover_ms(gb_context_t *ctx, gb_hostbuf_t *hb, int h2d, double *best)
{
    *best = 0;
    for (int r = 0; r < GB_REPEATS + 1; r++) {
        cl_event ev[2] = {NULL, NULL};
        cl_int err = clEnqueueUnmapMemObject(ctx->queue, hb->mem, hb->ptr, 0, NULL, &ev[0]);
        void *at = NULL;
        if (err == CL_SUCCESS)
            at = clEnqueueMapBuffer(ctx->queue, hb->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                    hb->bytes, 0, NULL, &ev[1], &err);
        if (err == CL_SUCCESS && at != hb->ptr)
            err = CL_INVALID_OPERATION;
        double ms = 0;
        if (err == CL_SUCCESS)
            ms = gb__event_ms(ev[h2d ? 0 : 1], &err);
        for (int i = 0; i < 2; i++)
            if (ev[i])
                clReleaseEvent(ev[i]);
        if (err != CL_SUCCESS) {
            hb->unmapped = at != hb->ptr; /* left with the device: not unmapped again */
            return gb__cl_check(ctx, err, "timing a mapped buffer's map and unmap");
        }
        if (r > 0 && ms > 0 && (*best == 0 || ms < *best))
            *best = ms;
    }
    return GB_OK;
}

/* The copies' sweep: 64 KiB to 256 MiB (at most half the largest allocation), by 4, from and
 * to pageable and pinned host memory, and for mapped memory (where the device shares the
 * host's) the map and unmap of a buffer of each size. The ceiling of each is the plateau: the
 * best rate at GB_CEIL_PLATEAU bytes and above (or at the largest size, where the sweep stops
 * below), where a link has reached its speed and no host cache flatters a copy. */
#define GB_CEIL_PLATEAU ((size_t)16 << 20)
static void record_copy(gb_ceilings_t *out, size_t i, int kind, int h2d, double ms)
{
    const size_t bytes = out->sweep[i].bytes;
    const double gbs = ms > 0 ? (double)bytes / (ms * 1e6) : 0;
    double *at = h2d ? &out->sweep[i].h2d_gbs[kind] : &out->sweep[i].d2h_gbs[kind];
    double *ceil = h2d ? &out->h2d_gbs[kind] : &out->d2h_gbs[kind];
    *at = gbs;
    const int plateau = bytes >= GB_CEIL_PLATEAU || i + 1 == out->nsweep;
    if (plateau && gbs > *ceil)
        *ceil = gbs;
}

static int measure_transfers(gb_context_t *ctx, gb_ceilings_t *out, size_t *top)
{
    size_t most = (size_t)256 << 20;
    if (most > ctx->dev->max_alloc / 2)
        most = (size_t)(ctx->dev->max_alloc / 2) & ~(size_t)4095;
    out->nsweep = 0;
    for (size_t b = (size_t)64 << 10; b <= most && out->nsweep < GB_CEIL_SWEEP; b *= 4)
        out->sweep[out->nsweep++].bytes = b;
    *top = out->nsweep ? out->sweep[out->nsweep - 1].bytes : 0;
    cl_int err;
    cl_mem dev = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, *top ? *top : 1, NULL, &err);
    int rc = gb__cl_check(ctx, err, "clCreateBuffer");
    for (int kind = 0; rc == GB_OK && kind < GB_HOST_PINNED + 1; kind++) {
        gb_hostbuf_t hb;
        if ((rc = gb__hostbuf_alloc(ctx, *top, (gb_host_mem_t)kind, &hb)) != GB_OK)
            break;
        memset(hb.ptr, 1, *top); /* touched: no first-use page faults in the timings */
        for (size_t i = 0; rc == GB_OK && i < out->nsweep; i++) {
            double ms;
            for (int h2d = 1; rc == GB_OK && h2d >= 0; h2d--) {
                const timed_t t = {
                    .dev = dev, .host = hb.ptr, .bytes = out->sweep[i].bytes, .h2d = h2d};
                if ((rc = best_ms(ctx, &t, &ms)) == GB_OK)
                    record_copy(out, i, kind, h2d, ms);
            }
        }
        gb__hostbuf_free(&hb);
    }
    /* Mapped: a buffer of each size over host memory, handed over and back. */
    for (size_t i = 0; rc == GB_OK && ctx->dev->host_unified && i < out->nsweep; i++) {
        gb_hostbuf_t hb;
        if ((rc = gb__hostbuf_alloc(ctx, out->sweep[i].bytes, GB_HOST_MAPPED, &hb)) != GB_OK)
            break;
        memset(hb.ptr, 1, out->sweep[i].bytes);
        double ms;
        for (int h2d = 1; rc == GB_OK && h2d >= 0; h2d--)
            if ((rc = best_handover_ms(ctx, &hb, h2d, &ms)) == GB_OK)
                record_copy(out, i, GB_HOST_MAPPED, h2d, ms);
        gb__hostbuf_free(&hb);
    }
    if (dev)
        clReleaseMemObject(dev);
    return rc;
}

int gb_ceilings_measure(gb_context_t *ctx, gb_ceilings_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = measure_peak(ctx, GB_PREC_S, &out->peak_gflops[GB_PREC_S]);
    if (!rc && ctx->dev->fp64)
        rc = measure_peak(ctx, GB_PREC_D, &out->peak_gflops[GB_PREC_D]);
    size_t bytes = 0, top = 0;
    if (!rc)
        rc = measure_bandwidth(ctx, out, &bytes);
    if (!rc)
        rc = measure_transfers(ctx, out, &top);
    snprintf(out->method, sizeof out->method,
             "FMA chains: %u (S) or %u (D) lanes per work-item x %d steps, %zu work-items; copy: "
             "%zu MiB float4; reads: float4 a work-item, 4 MiB to %zu MiB; host-device: blocking "
             "copies of 64 KiB to %zu MiB%s; best of %d (events)",
             8 * chain_lanes(ctx->dev, GB_PREC_S), 8 * chain_lanes(ctx->dev, GB_PREC_D),
             GB_FMA_ITERS, (size_t)ctx->dev->compute_units * ctx->dev->max_wg_size, bytes >> 20,
             out->nreads ? out->reads[out->nreads - 1].bytes >> 20 : 0, top >> 20,
             ctx->dev->host_unified ? "; mapped: unmap and map, no copy" : "", GB_REPEATS);
    return rc;
}
