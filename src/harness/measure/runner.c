/* runner.c: how a point's calls reach its implementation: the serial offload (the
 * implementation's own call), zero-copy on mapped host memory, or the pipeline (pipeline.c);
 * and the checks of those options before anything runs (gb_bench_check). */
#include <stdio.h>
#include <string.h>

#include "runner.h"

int gb_bench_options_check(const gb_bench_options_t *o, char *msg, size_t msglen)
{
    if (o->pipeline && o->host_mem == GB_HOST_MAPPED)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "--pipeline overlaps copies, and --host-mem mapped makes none; use "
                        "--host-mem pinned or pageable with --pipeline");
    if (o->pipeline && (o->pipeline < 2 || o->pipeline > GB_PIPELINE_MAX))
        return gb__fail(msg, msglen, GB_EBADARG,
                        "--pipeline %d: give 2 to %d panels (1 would overlap nothing)", o->pipeline,
                        GB_PIPELINE_MAX);
    if (o->pipeline && o->timing != GB_TIMING_OFFLOAD)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "--pipeline overlaps the copies with the kernels, which only --timing "
                        "offload times; add --timing offload");
    return GB_OK;
}

/* The first reason o cannot be measured with im on dev, not counting the panels. */
static int check_options(const gb_device_info_t *dev, const gb_impl_t *im,
                         const gb_bench_options_t *o, char *msg, size_t msglen)
{
    const gb_impl_ops_t *ops = im->ops;
    const char *name = gb_impl_name(im);
    int rc = gb_bench_options_check(o, msg, msglen);
    if (rc != GB_OK)
        return rc;
    if (o->host_mem == GB_HOST_MAPPED) {
        if (dev && !dev->host_unified)
            return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                            "--host-mem mapped: device '%s' does not share host memory; use "
                            "--host-mem pinned or pageable",
                            dev->name);
        if (ops->host)
            return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                            "--host-mem mapped: -k %s computes on the host, with no device to "
                            "share memory with; leave --host-mem out for it",
                            name);
        if (!ops->prepare_on)
            return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                            "--host-mem mapped: -k %s computes in buffers of its own, not in the "
                            "caller's; use --host-mem pinned or pageable for it",
                            name);
    }
    if (!o->pipeline)
        return GB_OK;
    if (ops->host)
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "--pipeline: -k %s computes on the host, with no copies to overlap; "
                        "leave --pipeline out for it",
                        name);
    if (!ops->enqueue || !ops->prepare_on)
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "--pipeline: -k %s is a library call that copies and computes on its "
                        "own terms, which gemmbench cannot split into panels behind its copies; "
                        "leave --pipeline out for it",
                        name);
    return GB_OK;
}

int gb_bench_check(const gb_device_info_t *dev, const gb_impl_t *im, const gb_problem_t *problem,
                   const gb_bench_options_t *o, char *msg, size_t msglen)
{
    int rc = check_options(dev, im, o, msg, msglen);
    if (rc != GB_OK || !o->pipeline)
        return rc;
    /* Each panel is a GEMM of its own, which the implementation must be able to run. */
    size_t each, n;
    gb__pipeline_split(problem, o->pipeline, &each, &n);
    const int rows = problem->layout == GB_ROW_MAJOR;
    for (size_t i = 0; i < n; i++) {
        gb_problem_t q;
        char why[512];
        gb__pipeline_panel(problem, each, i, &q);
        rc = gb_impl_check(im, dev, q.precision, &q, why, sizeof why);
        if (rc != GB_OK)
            return gb__fail(msg, msglen, rc, "--pipeline: panel %zu of %zu (%s %zu to %zu): %s",
                            i + 1, n, rows ? "rows" : "columns", i * each,
                            i * each + (rows ? q.m : q.n) - 1, why);
    }
    return GB_OK;
}

int gb__runner_prepare(gb_runner_t *run, gb_context_t *ctx, const gb_impl_t *im,
                       const gb_problem_t *p, const gb_bench_options_t *o, gb_inputs_t *in,
                       gb_result_t *r)
{
    memset(run, 0, sizeof *run);
    run->ops = im->ops;
    run->ctx = ctx;
    if (o->pipeline)
        return gb__pipeline_open(&run->pipe, ctx, im, p, o->pipeline, r);
    if (o->host_mem != GB_HOST_MAPPED)
        return im->ops->prepare(ctx, im, p, &run->state, r);
    /* Zero-copy: the kernel's A, B and C are the inputs' own buffers. */
    gb_hostbuf_t *hb[3] = {&in->da, &in->db, &in->out};
    const cl_mem bufs[3] = {hb[0]->mem, hb[1]->mem, hb[2]->mem};
    memcpy(run->mapped, hb, sizeof run->mapped);
    run->c_bytes = in->ec * gb_precision_bytes(p->precision);
    int rc = im->ops->prepare_on(ctx, im, p, bufs, &run->state, r);
    if (rc == GB_OK) {
        const size_t len = strlen(r->route);
        snprintf(r->route + len, sizeof r->route - len, "; zero-copy");
    }
    return rc;
}

/* A zero-copy call: the host hands A, B and C to the device (unmap), the kernels work in
 * them, and the device hands them back (map). The unmaps are its h2d, the maps its d2h: on a
 * device that shares the host's memory they move nothing. C is first restored from c by the
 * host, before the call's times: the kernel overwrites C in place. */
static int mapped_call(gb_runner_t *run, const void *c, double t[GB_PHASE_COUNT])
{
    gb_context_t *ctx = run->ctx;
    cl_command_queue q = ctx->queue;
    gb_hostbuf_t *const *hb = run->mapped;
    cl_event unmap[3] = {0}, map[3] = {0};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    if (c && c != hb[2]->ptr)
        memcpy(hb[2]->ptr, c, run->c_bytes);
    const double t0 = gb__now_ms();
    cl_int err = CL_SUCCESS;
    for (int d = 0; d < 3 && err == CL_SUCCESS; d++)
        if ((err = clEnqueueUnmapMemObject(q, hb[d]->mem, hb[d]->ptr, 0, NULL, &unmap[d])) ==
            CL_SUCCESS)
            hb[d]->unmapped = 1;
    int rc = gb__cl_check(ctx, err, "handing the operands to the device (unmap)");
    if (rc == GB_OK)
        rc = run->ops->enqueue(run->state, q, 0, NULL, NULL);
    /* Back to the host in any case: the host owns them between calls. */
    for (int d = 0; d < 3; d++) {
        if (!hb[d]->unmapped)
            continue;
        cl_int e;
        void *at = clEnqueueMapBuffer(q, hb[d]->mem, CL_FALSE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                      hb[d]->bytes, 0, NULL, &map[d], &e);
        if (e == CL_SUCCESS && at != hb[d]->ptr) /* the host's own memory (OpenCL 1.2, 5.4.2) */
            e = CL_INVALID_OPERATION;
        if (e == CL_SUCCESS)
            hb[d]->unmapped = 0;
        if (rc == GB_OK)
            rc = gb__cl_check(ctx, e, "handing the operands back to the host (map)");
    }
    const cl_int fin = clFinish(q);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    if (rc == GB_OK)
        rc = gb__cl_check(ctx, fin, "finishing the call");
    err = CL_SUCCESS;
    for (int d = 0; d < 3; d++) {
        if (unmap[d]) {
            t[GB_PHASE_H2D] += gb__event_ms(unmap[d], &err);
            clReleaseEvent(unmap[d]);
        }
        if (map[d]) {
            t[GB_PHASE_D2H] += gb__event_ms(map[d], &err);
            clReleaseEvent(map[d]);
        }
    }
    const int trc = run->ops->times(run->state, t); /* releases the kernels' events too */
    if (rc == GB_OK)
        rc = trc != GB_OK ? trc : gb__cl_check(ctx, err, "reading the map and unmap times");
    /* t[GB_PHASE_OPS] is the kernels' span, which times set */
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return rc;
}

int gb__runner_call(gb_runner_t *run, const void *a, const void *b, const void *c, void *c_out,
                    double t[GB_PHASE_COUNT])
{
    if (run->pipe)
        return gb__pipeline_call(run->pipe, a, b, c, c_out, t);
    if (run->mapped[0])
        return mapped_call(run, c, t);
    return run->ops->call(run->state, a, b, c, c_out, t);
}

void gb__runner_release(gb_runner_t *run)
{
    gb__pipeline_close(run->pipe);
    if (run->state)
        run->ops->release(run->state);
    memset(run, 0, sizeof *run);
}
