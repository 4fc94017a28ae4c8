/* pipeline.c: the pipelined offload (--pipeline, docs/offload.md). C is split into panels, its
 * rows where it is row-major and its columns where column-major, so that each panel of C is one
 * stretch of its buffer; each panel is a GEMM of its own (a panel of op(A) and the whole op(B)
 * for row panels, the whole op(A) and a panel of op(B) for column panels), prepared by the
 * implementation on the whole problem's device buffers and enqueued through its own call path.
 * The operand every panel reads is written once, first. Then, on three in-order queues joined
 * by events, panel i's kernels run while panel i+1's operands travel to the device (one queue)
 * and panel i-1's C travels back (another).
 *
 * What is timed: every command has its OpenCL event; h2d, d2h, helpers and main are the sums
 * of their commands over the panels, and offload is the span of the whole offload on the
 * device's clock, from the start of its first command (the shared operand's copy) to the end
 * of its last (the last panel's copy back): shorter than the sum of its phases by what
 * overlapped. wall is the host's clock around the whole call, as for the serial offload. */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* A panel's events, by what the command does. */
enum { E_SPLIT, E_C, E_DONE, E_READ, E_PER_PANEL };

struct gb_pipeline {
    gb_context_t *ctx;
    const gb_impl_ops_t *ops;
    gb_problem_t p;
    int rows;       /* row panels: op(A) split, B whole; else column panels: op(B) split, A whole */
    int strided;    /* the split operand's panel is a sub-rectangle of its lines (transposed) */
    size_t es;      /* bytes per element */
    size_t each, n; /* rows (columns) per panel, panels */
    cl_mem buf[3];
    size_t bytes[3];
    cl_command_queue to, back; /* the copies to the device, and back; kernels on ctx->queue */
    void **state;              /* each panel's, n of them */
    cl_event *ev;              /* n x E_PER_PANEL, during a call */
};

void gb__pipeline_split(const gb_problem_t *p, int asked, size_t *each, size_t *n)
{
    const size_t d = p->layout == GB_ROW_MAJOR ? p->m : p->n;
    size_t h = asked > 0 ? (d + (size_t)asked - 1) / (size_t)asked : d;
    /* Panels of whole multiples of 8 keep the panels' offsets aligned for vector loads. */
    if (h > 8)
        h = (h + 7) / 8 * 8;
    if (h == 0)
        h = 1;
    *each = h;
    *n = d ? (d + h - 1) / h : 1;
}

void gb__pipeline_panel(const gb_problem_t *p, size_t each, size_t i, gb_problem_t *out)
{
    *out = *p;
    const int rows = p->layout == GB_ROW_MAJOR;
    const size_t d = rows ? p->m : p->n, from = i * each, len = d - from < each ? d - from : each;
    if (rows) {
        /* Row-major op(A): rows of A, or columns of a transposed A. */
        out->m = len;
        out->off_a += p->trans_a == GB_NOTRANS ? from * p->lda : from;
    } else {
        /* Column-major op(B): columns of B, or rows of a transposed B. */
        out->n = len;
        out->off_b += p->trans_b == GB_NOTRANS ? from * p->ldb : from;
    }
    out->off_c += from * p->ldc;
}

void gb__pipeline_close(gb_pipeline_t *pl)
{
    if (!pl)
        return;
    for (size_t i = 0; pl->state && i < pl->n; i++)
        if (pl->state[i])
            pl->ops->release(pl->state[i]);
    for (int d = 0; d < 3; d++)
        if (pl->buf[d])
            clReleaseMemObject(pl->buf[d]);
    if (pl->to)
        clReleaseCommandQueue(pl->to);
    if (pl->back)
        clReleaseCommandQueue(pl->back);
    free(pl->state);
    free(pl->ev);
    free(pl);
}

static cl_command_queue profiling_queue(gb_context_t *ctx, int *rc)
{
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err;
    cl_command_queue q =
        clCreateCommandQueueWithProperties(ctx->cl, (cl_device_id)ctx->dev->cl_device, qp, &err);
    *rc = gb__cl_check(ctx, err, "creating the pipeline's copy queues");
    return *rc == GB_OK ? q : NULL;
}

/* Panel i prepared on the shared buffers: built ahead and kept by the context (so that the
 * panels share one build where their routes agree), then prepared; its description into pr. */
static int prepare_panel(gb_pipeline_t *pl, const gb_impl_t *im, size_t i, gb_result_t *pr)
{
    gb_problem_t q;
    gb__pipeline_panel(&pl->p, pl->each, i, &q);
    const double t0 = gb__now_ms();
    int rc = pl->ops->prebuild
                 ? pl->ops->prebuild(pl->ctx, im, &q, pl->ctx->errmsg, sizeof pl->ctx->errmsg)
                 : GB_OK;
    const double ahead = gb__now_ms() - t0;
    if (rc == GB_OK)
        rc = pl->ops->prepare_on(pl->ctx, im, &q, pl->buf, &pl->state[i], pr);
    pr->build_ms += ahead;
    return rc;
}

int gb__pipeline_open(gb_pipeline_t **out, gb_context_t *ctx, const gb_impl_t *im,
                      const gb_problem_t *p, int asked, gb_result_t *r)
{
    gb_pipeline_t *pl = calloc(1, sizeof *pl);
    *out = pl;
    if (!pl)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    pl->ctx = ctx;
    pl->ops = im->ops;
    pl->p = *p;
    pl->rows = p->layout == GB_ROW_MAJOR;
    pl->strided = pl->rows ? p->trans_a == GB_TRANS : p->trans_b == GB_TRANS;
    pl->es = gb_precision_bytes(p->precision);
    gb__pipeline_split(p, asked, &pl->each, &pl->n);
    if (!(pl->state = calloc(pl->n, sizeof *pl->state)) ||
        !(pl->ev = calloc(pl->n * E_PER_PANEL, sizeof *pl->ev)))
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    size_t elems[3];
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    int rc = GB_OK;
    for (int d = 0; d < 3 && rc == GB_OK; d++) {
        cl_int err;
        pl->bytes[d] = elems[d] * pl->es;
        pl->buf[d] = clCreateBuffer(ctx->cl, d < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                    pl->bytes[d] ? pl->bytes[d] : 1, NULL, &err);
        rc = gb__cl_check(ctx, err, "allocating the pipeline's buffers");
    }
    if (rc == GB_OK)
        pl->to = profiling_queue(ctx, &rc);
    if (rc == GB_OK)
        pl->back = profiling_queue(ctx, &rc);
    /* Built: nothing was compiled here, and every panel took its programs from a cache. */
    const unsigned long builds = ctx->builds;
    int hit = 1;
    double build_ms = 0;
    size_t helpers = 0;
    for (size_t i = 0; rc == GB_OK && i < pl->n; i++) {
        gb_result_t pr;
        memset(&pr, 0, sizeof pr);
        rc = prepare_panel(pl, im, i, i == 0 ? r : &pr);
        const gb_result_t *got = i == 0 ? r : &pr;
        build_ms += got->build_ms;
        hit &= got->cache_hit;
        helpers += got->helpers;
    }
    if (rc != GB_OK)
        return rc;
    r->build_ms = build_ms;
    r->cache_hit = hit && ctx->builds == builds;
    r->helpers = helpers;
    r->panels = pl->n;
    const size_t len = strlen(r->route);
    snprintf(r->route + len, sizeof r->route - len, "; %zu %s panels of %zu", pl->n,
             pl->rows ? "row" : "column", pl->each);
    return GB_OK;
}

/* The elements of C's buffer that panel i's copies carry: its lines, the first panel from the
 * buffer's start and the last to its end, so that the panels carry the whole buffer. */
static void c_range(const gb_pipeline_t *pl, size_t i, size_t *from, size_t *to)
{
    const gb_problem_t *p = &pl->p;
    const size_t d = pl->rows ? p->m : p->n;
    const size_t last = (i + 1) * pl->each < d ? (i + 1) * pl->each : d;
    *from = i == 0 ? 0 : p->off_c + i * pl->each * p->ldc;
    *to = i + 1 == pl->n ? pl->bytes[2] / pl->es : p->off_c + last * p->ldc;
}

/* Panel i of the split operand to the device: whole lines, or (transposed) a sub-rectangle of
 * every line. */
static cl_int write_split(gb_pipeline_t *pl, size_t i, const void *host, cl_event *ev)
{
    const gb_problem_t *p = &pl->p;
    const int s = pl->rows ? 0 : 1;
    gb_problem_t q;
    gb__pipeline_panel(p, pl->each, i, &q);
    const size_t off = s == 0 ? q.off_a : q.off_b, ld = s == 0 ? p->lda : p->ldb;
    const size_t len = pl->rows ? q.m : q.n;
    if (!pl->strided)
        return clEnqueueWriteBuffer(pl->to, pl->buf[s], CL_FALSE, off * pl->es, len * ld * pl->es,
                                    (const char *)host + off * pl->es, 0, NULL, ev);
    /* Transposed: a stretch of len elements in each of the K stored lines. */
    const size_t origin[3] = {off * pl->es, 0, 0}, region[3] = {len * pl->es, p->k, 1};
    return clEnqueueWriteBufferRect(pl->to, pl->buf[s], CL_FALSE, origin, origin, region,
                                    ld * pl->es, 0, ld * pl->es, 0, host, 0, NULL, ev);
}

static cl_int read_c(gb_pipeline_t *pl, size_t i, void *c_out)
{
    size_t from, to;
    c_range(pl, i, &from, &to);
    cl_event *ev = &pl->ev[i * E_PER_PANEL];
    return clEnqueueReadBuffer(pl->back, pl->buf[2], CL_FALSE, from * pl->es, (to - from) * pl->es,
                               (char *)c_out + from * pl->es, 1, &ev[E_DONE], &ev[E_READ]);
}

/* Panel i's copies to the device (those given) and its device work behind them. */
static int enqueue_panel(gb_pipeline_t *pl, size_t i, cl_event shared, const void *split,
                         const void *c, const char **what)
{
    cl_event *ev = &pl->ev[i * E_PER_PANEL];
    cl_int err = CL_SUCCESS;
    if (split && (*what = "writing a panel of the split operand"))
        err = write_split(pl, i, split, &ev[E_SPLIT]);
    if (c && err == CL_SUCCESS && (*what = "writing a panel of C")) {
        size_t from, to;
        c_range(pl, i, &from, &to);
        err =
            clEnqueueWriteBuffer(pl->to, pl->buf[2], CL_FALSE, from * pl->es, (to - from) * pl->es,
                                 (const char *)c + from * pl->es, 0, NULL, &ev[E_C]);
    }
    if (err == CL_SUCCESS)
        err = clFlush(pl->to);
    if (err != CL_SUCCESS)
        return gb__cl_check(pl->ctx, err, *what);
    cl_event wait[3];
    cl_uint nwait = 0;
    const cl_event mine[3] = {shared, ev[E_SPLIT], ev[E_C]};
    for (int k = 0; k < 3; k++)
        if (mine[k])
            wait[nwait++] = mine[k];
    *what = "the panel's kernels";
    int rc =
        pl->ops->enqueue(pl->state[i], pl->ctx->queue, nwait, nwait ? wait : NULL, &ev[E_DONE]);
    if (rc == GB_OK)
        rc = gb__cl_check(pl->ctx, clFlush(pl->ctx->queue), "starting the panel's kernels");
    return rc;
}

/* The events' times into t, their span (first start to last end) into *span; every event
 * released. err: the first failure to read a time. */
static void collect(gb_pipeline_t *pl, cl_event shared, double t[GB_PHASE_COUNT], double *span,
                    cl_int *err)
{
    cl_ulong lo = 0, hi = 0;
    for (size_t k = 0; k <= pl->n * E_PER_PANEL; k++) {
        cl_event *ev = k == 0 ? &shared : &pl->ev[k - 1];
        if (!*ev)
            continue;
        const int kind = k == 0 ? E_SPLIT : (int)((k - 1) % E_PER_PANEL);
        if (kind != E_DONE)
            t[kind == E_READ ? GB_PHASE_D2H : GB_PHASE_H2D] += gb__event_ms(*ev, err);
        cl_ulong s = 0, e = 0;
        if (clGetEventProfilingInfo(*ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) ==
                CL_SUCCESS &&
            clGetEventProfilingInfo(*ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) ==
                CL_SUCCESS) {
            lo = lo == 0 || s < lo ? s : lo;
            hi = e > hi ? e : hi;
        }
        clReleaseEvent(*ev);
        *ev = NULL;
    }
    *span = hi > lo ? (double)(hi - lo) * 1e-6 : 0.0;
}

int gb__pipeline_call(gb_pipeline_t *pl, const void *a, const void *b, const void *c, void *c_out,
                      double t[GB_PHASE_COUNT])
{
    gb_context_t *ctx = pl->ctx;
    const void *shared_in = pl->rows ? b : a, *split_in = pl->rows ? a : b;
    const int sh = pl->rows ? 1 : 0;
    cl_event shared = NULL;
    const char *what = "writing the shared operand";
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    int rc = GB_OK;
    if (shared_in)
        rc = gb__cl_check(ctx,
                          clEnqueueWriteBuffer(pl->to, pl->buf[sh], CL_FALSE, 0, pl->bytes[sh],
                                               shared_in, 0, NULL, &shared),
                          what);
    /* Panel i's copies and kernels, then panel i-1's copy back: where a driver's copy from
     * pageable memory blocks the host until it is done, panel i's kernels are already under
     * way meanwhile. */
    for (size_t i = 0; rc == GB_OK && i <= pl->n; i++) {
        if (i < pl->n)
            rc = enqueue_panel(pl, i, shared, split_in, c, &what);
        if (rc == GB_OK && i > 0 && c_out)
            rc = gb__cl_check(ctx, read_c(pl, i - 1, c_out), "reading a panel of C");
        if (rc == GB_OK && i > 0 && c_out)
            rc = gb__cl_check(ctx, clFlush(pl->back), "reading a panel of C");
    }
    const cl_int f1 = clFinish(pl->back), f2 = clFinish(ctx->queue), f3 = clFinish(pl->to);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    if (rc == GB_OK)
        rc = gb__cl_check(ctx,
                          f1 != CL_SUCCESS   ? f1
                          : f2 != CL_SUCCESS ? f2
                                             : f3,
                          "finishing the pipeline");
    cl_int err = CL_SUCCESS;
    double span;
    collect(pl, shared, t, &span, &err);
    for (size_t i = 0; i < pl->n; i++) {
        const int trc = pl->state[i] ? pl->ops->times(pl->state[i], t) : GB_OK;
        if (rc == GB_OK)
            rc = trc;
    }
    if (rc == GB_OK)
        rc = gb__cl_check(ctx, err, "reading the pipeline's times");
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN] + t[GB_PHASE_HELPERS];
    t[GB_PHASE_OFFLOAD] = span;
    return rc;
}
