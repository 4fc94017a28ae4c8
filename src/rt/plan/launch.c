/* launch.c: a planned GEMM's commands, in order, bound and enqueued (launch.h). */
#include <stdio.h>

#include "rt/family/registry.h"
#include "launch.h"

/* One command: a kernel over global (local NULL: the driver chooses the work-group size), or,
 * with kernel NULL, a copy of buffer src into image (region pixels). */
typedef struct cmd {
    cl_kernel kernel;
    size_t global[2], local[2];
    int local_null;
    cl_mem src, image;
    size_t region[2];
    int helper;
    const char *what; /* for messages: "the main kernel" */
} cmd_t;

int gb__launch_programs(gb_context_t *ctx, const gb_config_t *cfg, const gb_route_t *r, int keep,
                        cl_program *program, cl_program *helpers, double *ms, int *hit, char *msg,
                        size_t msglen)
{
    const gb_family_t *f = cfg->family;
    const char *prelude = gb__embedded("prelude.cl")->data;
    int rc = gb__program_get(ctx, f->name, prelude, f->source, r->options, r->ptx, keep, program,
                             ms, hit, msg, msglen);
    if (rc == GB_OK && r->helper_options[0]) {
        double hms;
        int hhit;
        rc = gb__program_get(ctx, "helpers", prelude, gb__embedded("helpers.cl")->data,
                             r->helper_options, "", keep, helpers, &hms, &hhit, msg, msglen);
        *ms += hms;
        *hit &= hhit;
    }
    return rc;
}

int gb__launch_fits(cl_kernel kernel, const gb_device_info_t *dev, const gb_config_t *cfg,
                    const gb_route_t *r, const char *fix, char *msg, size_t msglen)
{
    cl_device_id device = (cl_device_id)dev->cl_device;
    size_t kmax = 0;
    if (!r->local_null &&
        clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax,
                                 NULL) == CL_SUCCESS &&
        kmax > 0 && r->local[0] * r->local[1] > kmax)
        return gb__fail(msg, msglen, GB_EWGSIZE,
                        "kernel '%s' as compiled allows work-groups of at most %zu work-items "
                        "on this device (register use), but its parameters ask for %zu x %zu; "
                        "choose fewer work-items per group, or %s",
                        gb_config_name(cfg), kmax, r->local[0], r->local[1], fix);
    /* What the compiled kernel uses, which the metadata's 'local_memory' only declares (and may
     * leave out): past what the device allows, a launch fails or faults in the driver. NVIDIA's
     * OpenCL reports a kernel's local arrays with their alignment added (16 bytes, 512 or 1024
     * for hgemm_wgmma_nt's swizzled tiles), yet launches a kernel whose arrays take all of the
     * local memory allowed, and its results validate (H200: bench/notes/wgmma.md#wgmma-zfill,
     * #local-227k). */
    cl_ulong used = 0;
    const cl_ulong have = dev->local_mem_kernel, own = gb__route_nvidia(dev) ? 1024 : 0;
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                 NULL) == CL_SUCCESS &&
        have > 0 && used > have + own) {
        const char *declared = gb_family_local_memory(cfg->family);
        return gb__fail(msg, msglen, GB_ELOCALMEM,
                        "kernel '%s' as compiled uses %llu bytes of local memory, over this "
                        "device's %llu (its metadata declares %s%s%s); choose smaller tiles, or %s",
                        gb_config_name(cfg), (unsigned long long)used, (unsigned long long)have,
                        declared ? "'" : "", declared ? declared : "none", declared ? "'" : "",
                        fix);
    }
    return GB_OK;
}

const char *gb__launch_copy_entry(const gb_route_copy_t *c)
{
    switch (c->kind) {
    case GB_PASS_PACK: return "gb_pack1m";
    case GB_PASS_EXPAND: return "gb_expand1m";
    case GB_PASS_SCALE: return "gb_cscale";
    default: return c->tiled ? "gb_transpose" : c->wide ? "gb_copy4" : "gb_copy";
    }
}

/* Route copy c's command on dev: its global size and work-group size. */
static cmd_t copy_cmd(const gb_device_info_t *dev, const gb_route_copy_t *c, cl_kernel k)
{
    cmd_t m = {.kernel = k, .helper = 1, .what = "a helper pass"};
    if (c->tiled) {
        /* gb_transpose: a block a group, GB__TRANSPOSE_BLOCK x 8 work-items (fewer where the
         * device cannot run as many). */
        const size_t tt = GB__TRANSPOSE_BLOCK, lx = dev->max_wg_size < tt ? dev->max_wg_size : tt,
                     ly = dev->max_wg_size / lx < 8 ? dev->max_wg_size / lx : 8;
        m.local[0] = lx;
        m.local[1] = ly;
        m.global[0] = (c->d_inner + tt - 1) / tt * lx;
        m.global[1] = (c->d_outer + tt - 1) / tt * ly;
        return m;
    }
    /* A straight copy reads and writes rows: 64 work-items along them give each warp or wave
     * whole 128-byte lines. A transposing gb_copy and the 1M passes' 2 x 2 blocks read across
     * rows: square groups. */
    const int block = c->kind == GB_PASS_PACK || c->kind == GB_PASS_EXPAND; /* 2 x 2 each */
    const int across = c->trans || block;
    const size_t lx = across ? 16 : 64, ly = across ? 16 : 4;
    /* Along a row: four elements per work-item in gb_copy4, a 2 x 2 block in the 1M passes. */
    const size_t per = c->wide ? 4 : block ? 2 : 1;
    const size_t cols = (c->d_inner + per - 1) / per;
    const size_t outer = block ? (c->d_outer + 1) / 2 : c->d_outer;
    /* The implementation chooses on a device that cannot run 256 work-items in a group. */
    m.local_null = dev->max_wg_size < lx * ly;
    m.local[0] = m.local_null ? 0 : lx;
    m.local[1] = m.local_null ? 0 : ly;
    m.global[0] = (cols + lx - 1) / lx * lx;
    m.global[1] = (outer + ly - 1) / ly * ly;
    return m;
}

/* The prologue, main or remainder kernel k over global and local. */
static cmd_t kernel_cmd(cl_kernel k, const size_t global[2], const size_t local[2], int local_null,
                        const char *what)
{
    cmd_t m = {.kernel = k, .local_null = local_null, .what = what};
    for (int d = 0; d < 2; d++) {
        m.global[d] = global[d];
        m.local[d] = local[d];
    }
    return m;
}

/* l's commands in the order they run, into cmd; returns how many. */
static size_t commands(const gb_launch_t *l, const gb_device_info_t *dev,
                       cmd_t cmd[GB_LAUNCH_MAX_CMDS])
{
    const gb_route_t *r = l->route;
    size_t n = 0;
    for (size_t i = 0; i < r->ncopies; i++) {
        const gb_route_copy_t *c = &r->copies[i];
        if (c->post)
            continue;
        cmd[n++] = copy_cmd(dev, c, l->copy[i]);
        /* An image that is not a view of the packed copy is filled from it once it is made. */
        const int d = c->dst == GB_BUF_TA ? 0 : c->dst == GB_BUF_TB ? 1 : -1;
        if (d >= 0 && r->image[d] && !r->image_view)
            cmd[n++] = (cmd_t){.src = l->mem.buf[c->dst],
                               .image = l->mem.img[d],
                               .region = {r->image_size[d][0], r->image_size[d][1]},
                               .helper = 1,
                               .what = "a helper pass"};
    }
    static const char *const side_what[GB_NSIDES] = {"the prologue kernel", "the remainder kernel"};
    if (l->side[GB_SIDE_PROLOGUE])
        cmd[n++] = kernel_cmd(l->side[GB_SIDE_PROLOGUE], r->side_global[GB_SIDE_PROLOGUE],
                              r->side_local[GB_SIDE_PROLOGUE], 0, side_what[GB_SIDE_PROLOGUE]);
    cmd[n++] = kernel_cmd(l->main, r->global, r->local, r->local_null, "the main kernel");
    if (l->side[GB_SIDE_REMAINDER])
        cmd[n++] = kernel_cmd(l->side[GB_SIDE_REMAINDER], r->side_global[GB_SIDE_REMAINDER],
                              r->side_local[GB_SIDE_REMAINDER], 0, side_what[GB_SIDE_REMAINDER]);
    for (size_t i = 0; i < r->ncopies; i++)
        if (r->copies[i].post)
            cmd[n++] = copy_cmd(dev, &r->copies[i], l->copy[i]);
    return n;
}

size_t gb__launch_helpers(const gb_launch_t *l)
{
    const gb_route_t *r = l->route;
    size_t n = r->ncopies;
    for (int d = 0; d < 2; d++)
        n += r->image[d] && !r->image_view;
    return n;
}

/* A helper kernel's argument: its size and its value. */
typedef struct karg {
    size_t size;
    const void *v;
} karg_t;
#define INT_ARG(x) ((karg_t){sizeof(cl_int), &(x)})
#define MEM_ARG(m) ((karg_t){sizeof(cl_mem), &(m)})

/* Sets the first n arguments of k from a, in order. */
static cl_int set_args(cl_kernel k, const karg_t *a, size_t n)
{
    cl_int err = CL_SUCCESS;
    for (size_t i = 0; i < n; i++)
        err |= clSetKernelArg(k, (cl_uint)i, a[i].size, a[i].v);
    return err;
}

/* Sets the arguments of a 1M pass or of gb_cscale (c->kind) with the call's scalars (kp, the
 * kernel's real problem: real2 scalars of its precision). */
static cl_int onem_args(cl_kernel k, const gb_route_t *r, const gb_route_copy_t *c, cl_mem dst,
                        cl_mem src, const gb_problem_t *kp)
{
    double kernel[2], alpha[2], beta[2];
    gb__route_scalars(r, kp, kernel, alpha, beta);
    const double *sc = c->kind == GB_PASS_SCALE ? beta : alpha;
    const float fs[2] = {(float)sc[0], (float)sc[1]};
    const karg_t scalar =
        kp->precision == GB_PREC_D ? (karg_t){sizeof(double[2]), sc} : (karg_t){sizeof fs, fs};
    if (c->kind == GB_PASS_SCALE) {
        const cl_int v[] = {(cl_int)c->d_outer, (cl_int)c->d_inner, (cl_int)c->d_off,
                            (cl_int)c->d_ld};
        const karg_t a[] = {INT_ARG(v[0]), INT_ARG(v[1]), MEM_ARG(dst),
                            INT_ARG(v[2]), INT_ARG(v[3]), scalar};
        return set_args(k, a, sizeof a / sizeof a[0]);
    }
    const cl_int v[] = {(cl_int)c->d_outer, (cl_int)c->d_inner, (cl_int)c->d_ld, (cl_int)c->rows,
                        (cl_int)c->cols,    (cl_int)c->s_off,   (cl_int)c->s_ld, c->trans,
                        c->s_trans,         c->conj_a,          c->conj_b,       (cl_int)c->panel};
    const karg_t a[] = {INT_ARG(v[0]),  INT_ARG(v[1]), MEM_ARG(dst),  INT_ARG(v[2]),
                        INT_ARG(v[3]),  INT_ARG(v[4]), MEM_ARG(src),  INT_ARG(v[5]),
                        INT_ARG(v[6]),  INT_ARG(v[7]), INT_ARG(v[8]), INT_ARG(v[9]),
                        INT_ARG(v[10]), scalar,        INT_ARG(v[11])};
    /* gb_pack1m ends at s_trans; gb_expand1m adds the conjugations, alpha and the panels. */
    return set_args(k, a, c->kind == GB_PASS_EXPAND ? 15 : 11);
}

/* Sets a gb_copy (gb_copy4, gb_transpose) kernel's arguments for c between dst and src. */
static cl_int copy_args(cl_kernel k, const gb_route_copy_t *c, cl_mem dst, cl_mem src)
{
    const cl_int v[] = {(cl_int)c->d_outer, (cl_int)c->d_inner, (cl_int)c->d_off,
                        (cl_int)c->d_ld,    (cl_int)c->s_outer, (cl_int)c->s_inner,
                        (cl_int)c->s_off,   (cl_int)c->s_ld,    c->trans};
    const karg_t a[] = {INT_ARG(v[0]), INT_ARG(v[1]), MEM_ARG(dst),  INT_ARG(v[2]),
                        INT_ARG(v[3]), INT_ARG(v[4]), INT_ARG(v[5]), MEM_ARG(src),
                        INT_ARG(v[6]), INT_ARG(v[7]), INT_ARG(v[8])};
    /* Only gb_copy takes trans. */
    return set_args(k, a, c->tiled || c->wide ? 10 : 11);
}

int gb__launch_bind(const gb_launch_t *l, const gb_family_t *f, const gb_problem_t *kp,
                    gb_argcache_t *const *caches, char *msg, size_t msglen)
{
    const gb_route_t *r = l->route;
    int rc = gb__bind_args(l->main, f, r, kp, &l->mem, caches ? caches[0] : NULL, msg, msglen);
    for (int s = 0; rc == GB_OK && s < GB_NSIDES; s++)
        if (l->side[s])
            rc = gb__bind_args(l->side[s], f, r, kp, &l->mem, caches ? caches[1 + s] : NULL, msg,
                               msglen);
    for (size_t i = 0; rc == GB_OK && i < r->ncopies; i++) {
        const gb_route_copy_t *c = &r->copies[i];
        const cl_mem dst = c->dst == GB_BUF_WS ? l->mem.ws : l->mem.buf[c->dst];
        const cl_int err = c->kind == GB_PASS_COPY
                               ? copy_args(l->copy[i], c, dst, l->mem.buf[c->src])
                               : onem_args(l->copy[i], r, c, dst, l->mem.buf[c->src], kp);
        if (err != CL_SUCCESS)
            rc = gb__fail(msg, msglen, GB_EOPENCL, "setting %s's arguments failed (%s)",
                          gb__launch_copy_entry(c), gb__cl_errname(err));
    }
    return rc;
}

static cl_int enqueue_cmd(cl_command_queue q, const cmd_t *m, cl_uint nwait, const cl_event *wait,
                          cl_event *ev)
{
    if (m->kernel)
        return clEnqueueNDRangeKernel(q, m->kernel, 2, NULL, m->global,
                                      m->local_null ? NULL : m->local, nwait, wait, ev);
    const size_t origin[3] = {0, 0, 0}, region[3] = {m->region[0], m->region[1], 1};
    return clEnqueueCopyBufferToImage(q, m->src, m->image, 0, origin, region, nwait, wait, ev);
}

/* The message of command m's failure with status err. */
static int failed(const cmd_t *m, cl_int err, char *msg, size_t msglen)
{
    char geometry[96];
    if (!m->kernel)
        snprintf(geometry, sizeof geometry, "%zu x %zu pixels", m->region[0], m->region[1]);
    else if (m->local_null)
        snprintf(geometry, sizeof geometry, "global %zu x %zu, work-group chosen by the driver",
                 m->global[0], m->global[1]);
    else
        snprintf(geometry, sizeof geometry, "global %zu x %zu, work-group %zu x %zu", m->global[0],
                 m->global[1], m->local[0], m->local[1]);
    return gb__fail(msg, msglen, GB_EOPENCL, "enqueueing %s failed: %s (%s)", m->what,
                    gb__cl_errname(err), geometry);
}

int gb__launch_enqueue(const gb_launch_t *l, const gb_device_info_t *dev, cl_command_queue q,
                       cl_uint nwait, const cl_event *wait, gb_launch_events_t *events,
                       cl_event *done, char *msg, size_t msglen)
{
    cmd_t cmd[GB_LAUNCH_MAX_CMDS];
    const size_t n = commands(l, dev, cmd);
    if (events)
        events->n = 0;
    for (size_t i = 0; i < n; i++) {
        cl_event *ev = events ? &events->ev[i] : i + 1 == n ? done : NULL;
        const cl_int err = enqueue_cmd(q, &cmd[i], i == 0 ? nwait : 0, i == 0 ? wait : NULL, ev);
        if (err != CL_SUCCESS)
            return failed(&cmd[i], err, msg, msglen);
        if (events) {
            events->helper[i] = cmd[i].helper;
            events->n = i + 1;
        }
    }
    if (events && done) {
        *done = events->ev[n - 1];
        clRetainEvent(*done);
    }
    return GB_OK;
}

cl_mem gb__launch_counters(cl_context cl, cl_command_queue queue, size_t bytes, cl_int *err)
{
    cl_mem m = clCreateBuffer(cl, CL_MEM_READ_WRITE, bytes, NULL, err);
    const cl_uint zero = 0;
    if (*err == CL_SUCCESS)
        *err = clEnqueueFillBuffer(queue, m, &zero, sizeof zero, 0, bytes, 0, NULL, NULL);
    if (*err != CL_SUCCESS && m) {
        clReleaseMemObject(m);
        m = NULL;
    }
    return m;
}
