/* kernel.c: a kernel family configuration as an implementation. It plans the route (route.c),
 * then builds the kernel and the helper passes, allocates the caller's buffers and the
 * temporaries, binds the arguments in the order the metadata names them, and launches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/family/registry.h"
#include "rt/plan/bind.h"
#include "impl.h"
#include "rt/plan/route.h"

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
    int rc = gb__route_plan(&im->config, p, dev, &r, msg, msglen);
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

static int set_args(gb_kernel_run_t *kr, const gb_route_t *r, const gb_family_t *f,
                    cl_kernel kernel)
{
    gb_binding_t b = {.ws = kr->ws, .compute_units = kr->ctx->dev->compute_units};
    memcpy(b.buf, kr->buf, sizeof b.buf);
    memcpy(b.img, kr->img, sizeof b.img);
    const int rc =
        gb__bind_args(kernel, f, r, &r->kernel, &b, NULL, kr->ctx->errmsg, sizeof kr->ctx->errmsg);
    return rc;
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
    for (int i = 0; i < GB_MAX_WORK; i++)
        if (kr->work[i])
            clReleaseEvent(kr->work[i]);
    /* Images before the buffers they may be views of. */
    cl_mem mems[] = {kr->img[0], kr->img[1], kr->buf[0], kr->buf[1], kr->buf[2],
                     kr->buf[3], kr->buf[4], kr->buf[5], kr->ws};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    for (size_t i = 0; i < kr->npasses; i++)
        if (kr->passes[i].kernel)
            clReleaseKernel(kr->passes[i].kernel);
    if (kr->kernel)
        clReleaseKernel(kr->kernel);
    for (int s = 0; s < GB_NSIDES; s++)
        if (kr->side[s])
            clReleaseKernel(kr->side[s]);
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
    const char *prelude = gb__embedded("prelude.cl")->data;
    int rc = gb__program_get(kr->ctx, f->name, prelude, f->source, r->options, keep, &kr->program,
                             ms, hit, msg, msglen);
    if (rc == GB_OK && r->helper_options[0]) {
        double hms;
        int hhit;
        rc = gb__program_get(kr->ctx, "helpers", prelude, gb__embedded("helpers.cl")->data,
                             r->helper_options, keep, &kr->helpers, &hms, &hhit, msg, msglen);
        *ms += hms;
        *hit &= hhit;
    }
    if (rc != GB_OK)
        return rc;
    cl_int err;
    kr->kernel = clCreateKernel(kr->program, f->entry, &err);
    if (err != CL_SUCCESS)
        return gb__fail(msg, msglen, GB_EMETADATA,
                        "%s: no kernel named '%s' in %s (%s); fix 'entry'", f->origin, f->entry,
                        f->source_file, gb__cl_errname(err));
    size_t kmax = 0;
    if (!r->local_null &&
        clGetKernelWorkGroupInfo(kr->kernel, (cl_device_id)kr->ctx->dev->cl_device,
                                 CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                 NULL) == CL_SUCCESS &&
        kmax > 0 && r->local[0] * r->local[1] > kmax)
        return gb__fail(msg, msglen, GB_EWGSIZE,
                        "kernel '%s' as compiled allows work-groups of at most %zu work-items "
                        "on this device (register use), but its parameters ask for %zu x %zu; "
                        "choose parameters with fewer work-items per group",
                        gb_config_name(cfg), kmax, r->local[0], r->local[1]);
    for (int s = 0; s < GB_NSIDES; s++)
        if (r->side_global[s][0]) {
            kr->side[s] = clCreateKernel(kr->program, f->side[s].entry, &err);
            if (err != CL_SUCCESS)
                return gb__fail(msg, msglen, GB_EMETADATA,
                                "%s: no kernel named '%s' in %s (%s); fix '%s.entry'", f->origin,
                                f->side[s].entry, f->source_file, gb__cl_errname(err),
                                gb_side_key(s));
        }
    return GB_OK;
}

/* The caller's buffers (given: bufs, retained; else its own), the workspace and the
 * temporaries, then the passes between them. */
static int allocate(gb_kernel_run_t *kr, const gb_problem_t *p, const gb_route_t *r,
                    const cl_mem *bufs)
{
    size_t elems[3];
    const size_t es = gb_precision_bytes(p->precision);
    static const char *const what[6] = {"clCreateBuffer(A)",   "clCreateBuffer(B)",
                                        "clCreateBuffer(C)",   "allocating A's copy",
                                        "allocating B's copy", "allocating C's copy"};
    int rc = GB_OK;
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    for (int d = 0; d < 6 && rc == GB_OK; d++) {
        const size_t bytes = (d < 3 ? elems[d] : r->temp_elems[d - 3]) * es;
        if (d < 3)
            kr->bytes[d] = bytes;
        if (d < 3 && bufs) {
            clRetainMemObject(bufs[d]);
            kr->buf[d] = bufs[d];
        } else if (d < 3 || r->copy[d - 3]) {
            kr->buf[d] =
                buffer(kr, bytes, d < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE, what[d], &rc);
        }
    }
    if (rc == GB_OK && r->has_ws)
        kr->ws =
            buffer(kr, r->ws_bytes, CL_MEM_READ_WRITE, "allocating the kernel's workspace", &rc);
    for (size_t i = 0; rc == GB_OK && i < r->ncopies; i++) {
        const gb_route_copy_t *c = &r->copies[i];
        rc = gb__pass_copy(kr, c, kr->buf[c->dst], kr->buf[c->src]);
        /* An image is made over its operand's packed copy once that copy is planned. */
        const int d = c->dst == GB_BUF_TA ? 0 : c->dst == GB_BUF_TB ? 1 : -1;
        if (rc == GB_OK && d >= 0 && r->image[d])
            rc = gb__pass_image(kr, &kr->img[d], kr->buf[c->dst], r->image_size[d][0],
                                r->image_size[d][1]);
    }
    return rc;
}

static int prepare_with(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                        const cl_mem *bufs, void **state, gb_result_t *res)
{
    *state = NULL;
    const gb_config_t *cfg = &im->config;
    gb_route_t r;
    int rc = gb__route_plan(cfg, p, ctx->dev, &r, ctx->errmsg, sizeof ctx->errmsg);
    if (rc != GB_OK)
        return rc;
    gb_kernel_run_t *kr = calloc(1, sizeof *kr);
    if (!kr)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    kr->ctx = ctx;
    memcpy(kr->global, r.global, sizeof kr->global);
    memcpy(kr->local, r.local, sizeof kr->local);
    memcpy(kr->side_global, r.side_global, sizeof kr->side_global);
    memcpy(kr->side_local, r.side_local, sizeof kr->side_local);
    kr->local_null = r.local_null;
    if ((rc = build(kr, cfg, &r, 0, &res->build_ms, &res->cache_hit, ctx->errmsg,
                    sizeof ctx->errmsg)) != GB_OK ||
        (rc = allocate(kr, p, &r, bufs)) != GB_OK ||
        (rc = set_args(kr, &r, cfg->family, kr->kernel)) != GB_OK) {
        kernel_release(kr);
        return rc;
    }
    for (int s = 0; s < GB_NSIDES; s++)
        if (kr->side[s] && (rc = set_args(kr, &r, cfg->family, kr->side[s])) != GB_OK) {
            kernel_release(kr);
            return rc;
        }
    res->swapped = r.swapped;
    res->local_null = r.local_null;
    res->helpers = kr->npasses;
    memcpy(res->global, r.global, sizeof res->global);
    memcpy(res->local, r.local, sizeof res->local);
    memcpy(res->build_options, r.options, sizeof res->build_options);
    memcpy(res->route, r.text, sizeof res->route);
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
    gb_route_t r;
    int rc = gb__route_plan(&im->config, p, ctx->dev, &r, msg, msglen);
    if (rc != GB_OK)
        return rc;
    gb_kernel_run_t *kr = calloc(1, sizeof *kr);
    if (!kr)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    kr->ctx = ctx;
    double ms;
    int hit;
    rc = build(kr, &im->config, &r, 1, &ms, &hit, msg, msglen);
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

static cl_int enqueue_pass(cl_command_queue q, const gb_pass_t *ps, cl_uint nwait,
                           const cl_event *wait, cl_event *ev)
{
    if (ps->kernel)
        return clEnqueueNDRangeKernel(q, ps->kernel, 2, NULL, ps->global,
                                      ps->local[0] ? ps->local : NULL, nwait, wait, ev);
    const size_t origin[3] = {0, 0, 0}, region[3] = {ps->region[0], ps->region[1], 1};
    return clEnqueueCopyBufferToImage(q, ps->src, ps->image, 0, origin, region, nwait, wait, ev);
}

/* Where a call's device commands keep their events in kr->work. */
enum { W_PRE = 0, W_PRO = GB_MAX_PASSES, W_MAIN, W_REM, W_POST };

/* Side kernel s, where this problem has it: its event into *ev; on failure *g, *l its launch
 * geometry, so that the message names the launch that failed. */
static cl_int enqueue_side(gb_kernel_run_t *kr, cl_command_queue q, int s, cl_uint nwait,
                           const cl_event *wait, cl_event *ev, const size_t **g, const size_t **l)
{
    const cl_int err = clEnqueueNDRangeKernel(q, kr->side[s], 2, NULL, kr->side_global[s],
                                              kr->side_local[s], nwait, wait, ev);
    if (err != CL_SUCCESS) {
        *g = kr->side_global[s];
        *l = kr->side_local[s];
    }
    return err;
}

/* A call's device work on q: the passes before the main kernel, the prologue, main and
 * remainder kernels, the passes after; the first command waits for the nwait events of wait
 * (q is in order: the others follow it). Their events go to kr->work (the previous call's
 * released). On failure returns the OpenCL status with *what naming the command and g, l its
 * launch geometry. */
static cl_int enqueue_work(gb_kernel_run_t *kr, cl_command_queue q, cl_uint nwait,
                           const cl_event *wait, const char **what, const size_t **g,
                           const size_t **l)
{
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < GB_MAX_WORK; i++)
        if (kr->work[i]) {
            clReleaseEvent(kr->work[i]);
            kr->work[i] = NULL;
        }
    *g = kr->global;
    *l = kr->local;
    for (size_t i = 0; i < kr->npasses && err == CL_SUCCESS; i++)
        if (!kr->passes[i].post && (*what = "a helper pass")) {
            err = enqueue_pass(q, &kr->passes[i], nwait, wait, &kr->work[W_PRE + i]);
            nwait = 0;
            wait = NULL;
        }
    if (kr->side[GB_SIDE_PROLOGUE] && err == CL_SUCCESS && (*what = "the prologue kernel")) {
        err = enqueue_side(kr, q, GB_SIDE_PROLOGUE, nwait, wait, &kr->work[W_PRO], g, l);
        nwait = 0;
        wait = NULL;
    }
    if (err == CL_SUCCESS && (*what = "the main kernel"))
        err = clEnqueueNDRangeKernel(q, kr->kernel, 2, NULL, kr->global,
                                     kr->local_null ? NULL : kr->local, nwait, wait,
                                     &kr->work[W_MAIN]);
    if (kr->side[GB_SIDE_REMAINDER] && err == CL_SUCCESS && (*what = "the remainder kernel"))
        err = enqueue_side(kr, q, GB_SIDE_REMAINDER, 0, NULL, &kr->work[W_REM], g, l);
    for (size_t i = 0; i < kr->npasses && err == CL_SUCCESS; i++)
        if (kr->passes[i].post && (*what = "a helper pass"))
            err = enqueue_pass(q, &kr->passes[i], 0, NULL, &kr->work[W_POST + i]);
    return err;
}

static int launch_failed(gb_kernel_run_t *kr, cl_int err, const char *what, const size_t *g,
                         const size_t *l)
{
    return gb__ctx_fail(kr->ctx, GB_EOPENCL,
                        "%s failed: %s (global %zu x %zu, work-group %zu x %zu)", what,
                        gb__cl_errname(err), g[0], g[1], l[0], l[1]);
}

static int kernel_enqueue(void *state, cl_command_queue q, cl_uint nwait, const cl_event *wait,
                          cl_event *done)
{
    gb_kernel_run_t *kr = state;
    const char *what = "the main kernel";
    const size_t *g, *l;
    const cl_int err = enqueue_work(kr, q, nwait, wait, &what, &g, &l);
    if (err != CL_SUCCESS)
        return launch_failed(kr, err, what, g, l);
    if (done) {
        *done = NULL;
        for (int i = GB_MAX_WORK; i-- > 0 && !*done;)
            *done = kr->work[i];
        clRetainEvent(*done);
    }
    return GB_OK;
}

/* The main and helper times of the last call's device work into t, adding, and its ops: from
 * the first command's start to the last one's end, the gaps between them included (time the
 * caller waits, and how a library's or cuBLAS's several kernels are timed); events released.
 * err: the first failure to read a time (kept). */
static void work_times(gb_kernel_run_t *kr, double t[GB_PHASE_COUNT], cl_int *err)
{
    cl_ulong first = 0, last = 0;
    for (int i = 0; i < GB_MAX_WORK; i++) {
        if (!kr->work[i])
            continue;
        cl_ulong start, end;
        event_times(kr->work[i], &start, &end, err);
        if (end > start) {
            t[i >= W_PRO && i <= W_REM ? GB_PHASE_MAIN : GB_PHASE_HELPERS] +=
                (double)(end - start) * 1e-6;
            first = !first || start < first ? start : first;
            last = end > last ? end : last;
        }
        clReleaseEvent(kr->work[i]);
        kr->work[i] = NULL;
    }
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
    cl_int err = CL_SUCCESS;
    const char *what = "writing A";
    const size_t *g = kr->global, *l = kr->local;
    const void *in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    for (int d = 0; d < 3 && err == CL_SUCCESS; d++)
        if (in[d] && (what = d == 0 ? "writing A" : d == 1 ? "writing B" : "writing C"))
            err = clEnqueueWriteBuffer(q, kr->buf[d], CL_FALSE, 0, kr->bytes[d], in[d], 0, NULL,
                                       &ev[W_A + d]);
    if (err == CL_SUCCESS)
        err = enqueue_work(kr, q, 0, NULL, &what, &g, &l);
    if (c_out && err == CL_SUCCESS && (what = "reading C"))
        err = clEnqueueReadBuffer(q, kr->buf[GB_BUF_C], CL_FALSE, 0, kr->bytes[2], c_out, 0, NULL,
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
    if (err != CL_SUCCESS)
        return launch_failed(kr, err, what, g, l);
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
                                      kernel_times};
