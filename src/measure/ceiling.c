/* ceiling.c: measured ceilings of a device: peak FLOP/s per precision from an FMA-chain kernel
 * and memory bandwidth from a copy kernel, each the best of several launches (event times). */
#include <stdio.h>
#include <string.h>

#include "../device/context.h"
#include "../kernels/registry.h"

#define GB_FMA_ITERS 1024
#define GB_REPEATS 5

/* Best (shortest) event time of REPEATS launches of kernel k over global work-items. */
static int best_ms(gb_context_t *ctx, cl_kernel k, size_t global, double *best)
{
    *best = 0;
    for (int r = 0; r < GB_REPEATS + 1; r++) {
        cl_event ev;
        cl_int err = clEnqueueNDRangeKernel(ctx->queue, k, 1, NULL, &global, NULL, 0, NULL, &ev);
        if (err == CL_SUCCESS)
            err = clWaitForEvents(1, &ev);
        cl_ulong s = 0, e = 0;
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
        if (err != CL_SUCCESS)
            return gb__cl_check(ctx, err, "running a ceiling micro-benchmark");
        clReleaseEvent(ev);
        const double ms = (double)(e - s) * 1e-6;
        if (r > 0 && (*best == 0 || ms < *best)) /* the first launch is a warm-up */
            *best = ms;
    }
    return GB_OK;
}

static int measure_peak(gb_context_t *ctx, gb_precision_t prec, double *gflops)
{
    const char *prelude = gb__embedded("prelude.cl")->data,
               *src = gb__embedded("ceilings.cl")->data;
    char opts[96];
    snprintf(opts, sizeof opts, "-DGB_PRECISION=%d -DITERS=%d", prec == GB_PREC_D ? 64 : 32,
             GB_FMA_ITERS);
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    double ms;
    int hit, rc = gb__program_get(ctx, "ceilings", prelude, src, opts, 0, &prog, &ms, &hit,
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
            !(rc = best_ms(ctx, k, global, &ms)))
            /* 8 chains of 8 (single) or 4 (double) lanes, as in ceilings.cl */
            *gflops = (double)global * GB_FMA_ITERS * (prec == GB_PREC_D ? 32.0 : 64.0) * 2.0 /
                      (ms * 1e6);
    }
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    clReleaseProgram(prog);
    return rc;
}

static int measure_bandwidth(gb_context_t *ctx, double *gbs, size_t *bytes_out)
{
    const char *prelude = gb__embedded("prelude.cl")->data,
               *src = gb__embedded("ceilings.cl")->data;
    cl_program prog = NULL;
    double ms;
    int hit, rc = gb__program_get(ctx, "ceilings", prelude, src, "-DGB_PRECISION=32", 0, &prog, &ms,
                                  &hit, ctx->errmsg, sizeof ctx->errmsg);
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
            !(rc = best_ms(ctx, k, bytes / 16, &ms)))
            *gbs = 2.0 * (double)bytes / (ms * 1e6);
    }
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

int gb_ceilings_measure(gb_context_t *ctx, gb_ceilings_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = measure_peak(ctx, GB_PREC_S, &out->peak_gflops[GB_PREC_S]);
    if (!rc && ctx->dev->fp64)
        rc = measure_peak(ctx, GB_PREC_D, &out->peak_gflops[GB_PREC_D]);
    size_t bytes = 0;
    if (!rc)
        rc = measure_bandwidth(ctx, &out->bandwidth_gbs, &bytes);
    snprintf(out->method, sizeof out->method,
             "FMA chains: 64 (S) or 32 (D) lanes per work-item x %d steps, %zu work-items; copy: "
             "%zu MiB float4; best "
             "of %d launches (events)",
             GB_FMA_ITERS, (size_t)ctx->dev->compute_units * ctx->dev->max_wg_size, bytes >> 20,
             GB_REPEATS);
    return rc;
}
