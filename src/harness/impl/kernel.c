/* kernel.c: a kernel family configuration as an implementation. It takes the route (planned
 * once, kept.c), then builds the kernels and the helper passes, allocates the caller's buffers, the temporaries
 * and the images, and hands them to the launch (launch.c), which binds the arguments in the order
 * the metadata names them and enqueues. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/family/registry.h"
#include "impl.h"

static int kernel_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                        const gb_problem_t *p, char *msg, size_t msglen)
{
    return gb_config_check(&im->config, dev, prec, p, msg, msglen);
}

/* "sha256:" and two digests: of the family's program text (prelude and source, hashed once when
 * the family was loaded), and of how it is built for this problem: its build options, and the
 * helper passes' program and options where the route has copies. The first part alone names the
 * code across problems (reports group by it). */
static int kernel_program_id(const gb_impl_t *im, const gb_device_info_t *dev,
                             const gb_problem_t *p, char *buf, size_t len, char *msg, size_t msglen)
{
    gb_route_t r;
    int rc = gb__kernel_route(im, dev, p, 1, &r, msg, msglen);
    if (rc != GB_OK)
        return rc;
    gb_sha256_t s;
    char hex[65];
    gb__sha256_init(&s);
    gb__sha256_update(&s, r.options, strlen(r.options) + 1);
    if (r.helper_options[0]) {
        const gb_embedded_file_t *h = gb__embedded("helpers.cl");
        gb__sha256_update(&s, h->data, h->len);
        gb__sha256_update(&s, r.helper_options, strlen(r.helper_options) + 1);
    }
    gb__sha256_hex_final(&s, hex);
    snprintf(buf, len, "sha256:%.16s/%.16s", im->config.family->program_digest, hex);
    return GB_OK;
}

static cl_mem buffer(gb_kernel_run_t *kr, size_t bytes, cl_mem_flags flags, const char *what,
                     int *rc)
{
    cl_int err;
    cl_mem m = clCreateBuffer(kr->ctx->cl, flags, bytes, NULL, &err);
    *rc = gb__cl_check(kr->ctx, err, what);
    return m;
}

static void kernel_release(void *state)
{
    gb_kernel_run_t *kr = state;
    if (!kr)
        return;
    for (size_t i = 0; i < kr->work.n; i++)
        clReleaseEvent(kr->work.ev[i]);
    gb_launch_t *l = &kr->launch;
    /* Images before the buffers they may be views of. */
    cl_mem mems[] = {l->mem.img[0], l->mem.img[1], l->mem.buf[0], l->mem.buf[1], l->mem.buf[2],
                     l->mem.buf[3], l->mem.buf[4], l->mem.buf[5], l->mem.ws,     l->mem.cnt};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    if (l->main)
        clReleaseKernel(l->main);
    for (int s = 0; s < GB_NSIDES; s++)
        if (l->side[s])
            clReleaseKernel(l->side[s]);
    for (int i = 0; i < GB_ROUTE_MAX_COPIES; i++)
        if (l->copy[i])
            clReleaseKernel(l->copy[i]);
    if (kr->program)
        clReleaseProgram(kr->program);
    if (kr->helpers)
        clReleaseProgram(kr->helpers);
    free(kr);
}

/* Gets the programs (keep: the context keeps them too, for gb_impl_prebuild) and makes the
 * kernels; the compiled kernel may allow fewer work-items per group than the device
 * (registers): refused here, with the reason, rather than at launch. *ms and *hit as
 * gb_result_t's build_ms and cache_hit. Errors into msg: prepare and prebuild say the same. */
static int build(gb_kernel_run_t *kr, const gb_config_t *cfg, const gb_route_t *r, int keep,
                 double *ms, int *hit, char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    gb_launch_t *l = &kr->launch;
    int rc = gb__launch_programs(kr->ctx, cfg, r, keep, &kr->program, &kr->helpers, ms, hit, msg,
                                 msglen);
    if (rc != GB_OK)
        return rc;
    cl_int err;
    l->main = clCreateKernel(kr->program, f->entry, &err);
    if (err != CL_SUCCESS)
        return gb__fail(msg, msglen, GB_EMETADATA,
                        "%s: no kernel named '%s' in %s (%s); fix 'entry'", f->origin, f->entry,
                        f->source_file, gb__cl_errname(err));
    if ((rc = gb__launch_fits(l->main, kr->ctx->dev, cfg, r, "other parameters (--param)", msg,
                              msglen)) != GB_OK)
        return rc;
    for (int s = 0; s < GB_NSIDES; s++)
        if (r->side_global[s][0]) {
            l->side[s] = clCreateKernel(kr->program, f->side[s].entry, &err);
            if (err != CL_SUCCESS)
                return gb__fail(msg, msglen, GB_EMETADATA,
                                "%s: no kernel named '%s' in %s (%s); fix '%s.entry'", f->origin,
                                f->side[s].entry, f->source_file, gb__cl_errname(err),
                                gb_side_key(s));
        }
    for (size_t i = 0; i < r->ncopies; i++) {
        l->copy[i] = clCreateKernel(kr->helpers, gb__launch_copy_entry(&r->copies[i]), &err);
        if (err != CL_SUCCESS)
            return gb__fail(msg, msglen, GB_EOPENCL, "creating the gb_copy helper failed (%s)",
                            gb__cl_errname(err));
    }
    return GB_OK;
}

/* The caller's buffers (given: bufs, retained; else its own), the temporaries, the workspace and
 * the images over the temporaries, into the launch's memory. */
static int allocate(gb_kernel_run_t *kr, const gb_problem_t *p, const gb_route_t *r,
                    const cl_mem *bufs)
{
    size_t elems[3];
    const size_t es = gb_precision_bytes(p->precision),
                 kes = gb_precision_bytes(r->kernel.precision);
    static const char *const what[6] = {"clCreateBuffer(A)",   "clCreateBuffer(B)",
                                        "clCreateBuffer(C)",   "allocating A's copy",
                                        "allocating B's copy", "allocating C's copy"};
    gb_binding_t *m = &kr->launch.mem;
    int rc = GB_OK;
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    for (int d = 0; d < 6 && rc == GB_OK; d++) {
        /* The temporaries hold the kernel's elements (real ones under 1M). */
        const size_t bytes = d < 3 ? elems[d] * es : r->temp_elems[d - 3] * kes;
        if (d < 3)
            kr->bytes[d] = bytes;
        if (d < 3 && bufs) {
            clRetainMemObject(bufs[d]);
            m->buf[d] = bufs[d];
        } else if (d < 3 || r->copy[d - 3]) {
            m->buf[d] =
                buffer(kr, bytes, d < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE, what[d], &rc);
        }
    }
    if (rc == GB_OK && r->has_ws)
        m->ws =
            buffer(kr, r->ws_bytes, CL_MEM_READ_WRITE, "allocating the kernel's workspace", &rc);
    if (rc == GB_OK && r->cnt_bytes) {
        cl_int err;
        m->cnt = gb__launch_counters(kr->ctx->cl, kr->ctx->queue, r->cnt_bytes, &err);
        rc = gb__cl_check(kr->ctx, err, "allocating the kernel's counters");
    }
    for (int d = 0; rc == GB_OK && d < 2; d++)
        if (r->image[d])
            rc = gb__kernel_image(kr, &m->img[d], m->buf[GB_BUF_TA + d], r->image_size[d][0],
                                  r->image_size[d][1]);
    m->compute_units = kr->ctx->dev->compute_units;
    return rc;
}

static int prepare_with(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                        const cl_mem *bufs, void **state, gb_result_t *res)
{
    *state = NULL;
    const gb_config_t *cfg = &im->config;
    gb_kernel_run_t *kr = calloc(1, sizeof *kr);
    if (!kr)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    kr->ctx = ctx;
    const gb_route_t *r = &kr->route;
    kr->launch.route = r;
    int rc = gb__kernel_route(im, ctx->dev, p, 1, &kr->route, ctx->errmsg, sizeof ctx->errmsg);
    if (rc == GB_OK)
        rc = build(kr, cfg, r, 0, &res->build_ms, &res->cache_hit, ctx->errmsg, sizeof ctx->errmsg);
    if (rc == GB_OK)
        rc = allocate(kr, p, r, bufs);
    if (rc == GB_OK)
        rc = gb__launch_bind(&kr->launch, cfg->family, &r->kernel, NULL, ctx->errmsg,
                             sizeof ctx->errmsg);
    if (rc != GB_OK) {
        kernel_release(kr);
        return rc;
    }
    res->swapped = r->swapped;
    res->local_null = r->local_null;
    res->helpers = gb__launch_helpers(&kr->launch);
    memcpy(res->global, r->global, sizeof res->global);
    memcpy(res->local, r->local, sizeof res->local);
    memcpy(res->build_options, r->options, sizeof res->build_options);
    memcpy(res->route, r->text, sizeof res->route);
    *state = kr;
    return GB_OK;
}

static int kernel_prepare(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                          void **state, gb_result_t *res)
{
    return prepare_with(ctx, im, p, NULL, state, res);
}

static int kernel_prepare_on(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                             const cl_mem bufs[3], void **state, gb_result_t *res)
{
    return prepare_with(ctx, im, p, bufs, state, res);
}

/* The programs of prepare's build, kept by the context; the kernels made to check them go. */
static int kernel_prebuild(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p, char *msg,
                           size_t msglen)
{
    gb_kernel_run_t *kr = calloc(1, sizeof *kr);
    if (!kr)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    kr->ctx = ctx;
    double ms;
    int hit;
    int rc = gb__kernel_route(im, ctx->dev, p, 1, &kr->route, msg, msglen);
    if (rc == GB_OK)
        rc = build(kr, &im->config, &kr->route, 1, &ms, &hit, msg, msglen);
    kernel_release(kr);
    return rc;
}

/* ev's device START and END (0 where unread); the first failure goes to *err (kept). */
static void event_times(cl_event ev, cl_ulong *start, cl_ulong *end, cl_int *err)
{
    *start = *end = 0;
    cl_int e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof *start, start, NULL);
    if (e == CL_SUCCESS)
        e = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof *end, end, NULL);
    if (err && *err == CL_SUCCESS)
        *err = e;
    if (e != CL_SUCCESS)
        *start = *end = 0;
}

double gb__event_ms(cl_event ev, cl_int *err)
{
    cl_ulong start, end;
    event_times(ev, &start, &end, err);
    return end > start ? (double)(end - start) * 1e-6 : 0.0;
}

/* Releases the events of the last call's device work. */
static void work_release(gb_kernel_run_t *kr)
{
    for (size_t i = 0; i < kr->work.n; i++)
        clReleaseEvent(kr->work.ev[i]);
    kr->work.n = 0;
}

/* A call's device work on q, the first command after the nwait events of wait; their events
 * into kr->work (the previous call's released), the last one's into *done where wanted. */
static int enqueue_work(gb_kernel_run_t *kr, cl_command_queue q, cl_uint nwait,
                        const cl_event *wait, cl_event *done)
{
    work_release(kr);
    return gb__launch_enqueue(&kr->launch, kr->ctx->dev, q, nwait, wait, &kr->work, done,
                              kr->ctx->errmsg, sizeof kr->ctx->errmsg);
}

static int kernel_enqueue(void *state, cl_command_queue q, cl_uint nwait, const cl_event *wait,
                          cl_event *done)
{
    return enqueue_work(state, q, nwait, wait, done);
}

/* The main and helper times of the last call's device work into t, adding, and its ops: from
 * the first command's start to the last one's end, the gaps between them included (time the
 * caller waits, and how a library's or cuBLAS's several kernels are timed); events released.
 * err: the first failure to read a time (kept). */
static void work_times(gb_kernel_run_t *kr, double t[GB_PHASE_COUNT], cl_int *err)
{
    cl_ulong first = 0, last = 0;
    for (size_t i = 0; i < kr->work.n; i++) {
        cl_ulong start, end;
        event_times(kr->work.ev[i], &start, &end, err);
        if (end > start) {
            t[kr->work.helper[i] ? GB_PHASE_HELPERS : GB_PHASE_MAIN] +=
                (double)(end - start) * 1e-6;
            first = !first || start < first ? start : first;
            last = end > last ? end : last;
        }
    }
    work_release(kr);
    t[GB_PHASE_OPS] = last > first ? (double)(last - first) * 1e-6 : 0.0;
}

static int kernel_times(void *state, double t[GB_PHASE_COUNT])
{
    gb_kernel_run_t *kr = state;
    cl_int err = CL_SUCCESS;
    work_times(kr, t, &err);
    return gb__cl_check(kr->ctx, err, "reading the kernels' times");
}

/* The serial offload: A, B and C written, the device work, C read back, on the context's
 * queue. */
static int kernel_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                       double t[GB_PHASE_COUNT])
{
    gb_kernel_run_t *kr = state;
    enum { W_A, W_B, W_C, READ, NEV };
    cl_event ev[NEV] = {0};
    cl_command_queue q = kr->ctx->queue;
    const cl_mem *buf = kr->launch.mem.buf;
    cl_int err = CL_SUCCESS;
    const char *what = "writing A";
    const void *in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    for (int d = 0; d < 3 && err == CL_SUCCESS; d++)
        if (in[d] && (what = d == 0 ? "writing A" : d == 1 ? "writing B" : "writing C"))
            err = clEnqueueWriteBuffer(q, buf[d], CL_FALSE, 0, kr->bytes[d], in[d], 0, NULL,
                                       &ev[W_A + d]);
    /* A failed launch has its message on the context already. */
    const int rc = err == CL_SUCCESS ? enqueue_work(kr, q, 0, NULL, NULL) : GB_OK;
    if (c_out && rc == GB_OK && err == CL_SUCCESS && (what = "reading C"))
        err = clEnqueueReadBuffer(q, buf[GB_BUF_C], CL_FALSE, 0, kr->bytes[2], c_out, 0, NULL,
                                  &ev[READ]);
    cl_int fin = clFinish(q);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    if (err == CL_SUCCESS && fin != CL_SUCCESS && (what = "finishing the call"))
        err = fin;
    for (int i = 0; i < NEV; i++) {
        if (!ev[i])
            continue;
        t[i == READ ? GB_PHASE_D2H : GB_PHASE_H2D] += gb__event_ms(ev[i], &err);
        clReleaseEvent(ev[i]);
    }
    work_times(kr, t, &err);
    if (rc != GB_OK)
        return rc;
    if (err != CL_SUCCESS)
        return gb__ctx_fail(kr->ctx, GB_EOPENCL, "%s failed: %s", what, gb__cl_errname(err));
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return GB_OK;
}

const gb_impl_ops_t gb__kernel_ops = {NULL,
                                      "a kernel family configuration",
                                      0u,
                                      GB_CAN_TUNE | GB_CAN_LWS | GB_CAN_CHECK | GB_CAN_TRAFFIC,
                                      kernel_check,
                                      kernel_program_id,
                                      kernel_prepare,
                                      kernel_prebuild,
                                      kernel_call,
                                      kernel_release,
                                      0,
                                      kernel_prepare_on,
                                      kernel_enqueue,
                                      kernel_times,
                                      gb__kernel_plan};
