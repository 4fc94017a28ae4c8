/* library.c: gemmbench's own GEMM library (gemmbench_blas.h) as a peer, `-k gb`: gb_sgemm and
 * gb_dgemm on a handle over the harness's OpenCL context and device, enqueued on its queue with
 * its buffers, exactly as the CLBlast peer (clblast.c) calls CLBlast, so that the two compare
 * alike. The library chooses the kernel and its parameters from its tuning database per call and
 * may run helper passes besides the kernel. Its main phase is the device time of all of its
 * commands, as ours is timed: the call is enqueued behind the writes of its inputs, not waited
 * for, as ours are (a kernel that starts on an idle NVIDIA GPU measured 3% slower at 1024 than
 * the same kernel queued behind a copy: bench/notes/library.md#lib-1024-found), and behind a user
 * event (its wait list), after a 4-byte fill that waits for the event too, so that once the event
 * is set the fill and the call's commands run back to back; the time runs from the fill's end to
 * the end of the call's last command (the event it hands back), and where the call is one command
 * (the library's plan says so), from that command's start, exactly as each of ours is timed. A fill
 * rather than a marker: NVIDIA's markers carry no device times of their own. Where the times cannot
 * be read, the host time from enqueue to completion, as CLBlast's, stands instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/blas/blas_int.h"
#include "gemmbench_blas.h"
#include "impl.h"

typedef struct library_run {
    gb_context_t *ctx;
    gb_problem_t p;
    gb_blas_t *h;
    gb_peer_bufs_t b;
    cl_mem tick;     /* the fill before each timed call */
    size_t commands; /* what one call enqueues (1: timed by its own event) */
} library_run_t;

static void library_release(void *state)
{
    library_run_t *s = state;
    if (!s)
        return;
    gb__peer_buffers_free(&s->b);
    if (s->tick)
        clReleaseMemObject(s->tick);
    gb_blas_close(s->h);
    free(s);
}

/* The library's call on the run's buffers; the library's message goes on the context. */
static int library_gemm(library_run_t *s, cl_uint nwait, const cl_event *wait, cl_event *event)
{
    const gb_problem_t *p = &s->p;
    const gb_blas_layout_t lay = p->layout == GB_ROW_MAJOR ? GB_BLAS_ROW_MAJOR : GB_BLAS_COL_MAJOR;
    const gb_blas_trans_t ta = p->trans_a == GB_TRANS ? GB_BLAS_TRANS : GB_BLAS_NO_TRANS;
    const gb_blas_trans_t tb = p->trans_b == GB_TRANS ? GB_BLAS_TRANS : GB_BLAS_NO_TRANS;
    int rc;
    if (p->precision == GB_PREC_D)
        rc = gb_dgemm(s->h, lay, ta, tb, p->m, p->n, p->k, p->alpha, s->b.buf[0], p->off_a, p->lda,
                      s->b.buf[1], p->off_b, p->ldb, p->beta, s->b.buf[2], p->off_c, p->ldc,
                      s->ctx->queue, nwait, wait, event);
    else
        rc = gb_sgemm(s->h, lay, ta, tb, p->m, p->n, p->k, (float)p->alpha, s->b.buf[0], p->off_a,
                      p->lda, s->b.buf[1], p->off_b, p->ldb, (float)p->beta, s->b.buf[2], p->off_c,
                      p->ldc, s->ctx->queue, nwait, wait, event);
    if (rc != GB_OK)
        return gb__ctx_fail(s->ctx, rc, "the library's %s failed: %s",
                            p->precision == GB_PREC_D ? "gb_dgemm" : "gb_sgemm", gb_blas_errmsg());
    return GB_OK;
}

/* Opens a handle, allocates the buffers and makes the first call on zeroed buffers, which builds
 * the programs (or loads them from the on-disk cache): its host time, enqueue only, is the
 * result's build_ms, and the timed calls then find everything built. The library does not say
 * whether it built or loaded, so cache_hit stays 0. */
static int library_prepare(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                           void **state, gb_result_t *r)
{
    (void)im;
    *state = NULL;
    library_run_t *s = calloc(1, sizeof *s);
    if (!s)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    s->ctx = ctx;
    s->p = *p;
    int rc = gb_blas_open(&s->h, ctx->cl, (cl_device_id)ctx->dev->cl_device);
    if (rc != GB_OK) {
        gb__ctx_fail(ctx, rc, "opening the library's handle failed: %s", gb_blas_errmsg());
        goto fail;
    }
    const size_t es = gb_precision_bytes(p->precision);
    const double zero_d = 0.0;
    const float zero_s = 0.0f;
    const void *zero = p->precision == GB_PREC_D ? (const void *)&zero_d : (const void *)&zero_s;
    if (rc == GB_OK)
        rc = gb__peer_buffers(&s->b, ctx, p);
    for (int d = 0; d < 3 && rc == GB_OK; d++)
        rc = gb__cl_check(
            ctx,
            clEnqueueFillBuffer(ctx->queue, s->b.buf[d], zero, es, 0, s->b.bytes[d], 0, NULL, NULL),
            "zeroing the buffers");
    if (rc == GB_OK) {
        cl_int err;
        s->tick = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, 4, NULL, &err);
        rc = gb__cl_check(ctx, err, "clCreateBuffer(the timing fill)");
    }
    if (rc != GB_OK)
        goto fail;
    const double t0 = gb__now_ms();
    rc = library_gemm(s, 0, NULL, NULL);
    r->build_ms = gb__now_ms() - t0;
    if (rc != GB_OK || (rc = gb__cl_check(ctx, clFinish(ctx->queue), "finishing the first call")))
        goto fail;
    /* The plan the first call made: how many commands a call enqueues. */
    if (gb_blas__commands(s->h, p, &s->commands) != GB_OK)
        s->commands = 0; /* unknown: the fill's way */
    /* What the library runs, as it says it: the kernel, its parameters and why. */
    char chosen[512];
    const gb_blas_layout_t lay = p->layout == GB_ROW_MAJOR ? GB_BLAS_ROW_MAJOR : GB_BLAS_COL_MAJOR;
    if (gb_blas_chosen(s->h, p->precision == GB_PREC_D ? 'd' : 's', lay,
                       p->trans_a == GB_TRANS ? GB_BLAS_TRANS : GB_BLAS_NO_TRANS,
                       p->trans_b == GB_TRANS ? GB_BLAS_TRANS : GB_BLAS_NO_TRANS, p->m, p->n, p->k,
                       chosen, sizeof chosen) != GB_OK)
        snprintf(chosen, sizeof chosen, "?");
    r->local_null = 1;
    const int room = (int)sizeof r->route - 13; /* after "library gb: " and the NUL */
    snprintf(r->route, sizeof r->route, "library gb: %.*s", room, chosen);
    if (strlen(chosen) > (size_t)room) /* cut: say so */
        memcpy(r->route + sizeof r->route - 4, "...", 4);
    snprintf(r->build_options, sizeof r->build_options, "%s", chosen);
    *state = s;
    return GB_OK;
fail:
    library_release(s);
    return rc;
}

static int library_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                        double t[GB_PHASE_COUNT])
{
    library_run_t *s = state;
    cl_command_queue q = s->ctx->queue;
    cl_event ev[4] = {0};
    const void *const in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    int rc = gb__peer_write(s->ctx, &s->b, in, ev, 0);
    cl_int err = CL_SUCCESS;
    /* The gate: a user event the call waits for, and a fill before the call that waits for it
     * too; set once the call is enqueued. */
    cl_event gate = NULL, mark = NULL, last = NULL;
    const cl_uint zero = 0;
    if (rc == GB_OK) {
        gate = clCreateUserEvent(s->ctx->cl, &err);
        if (err == CL_SUCCESS)
            err = clEnqueueFillBuffer(q, s->tick, &zero, sizeof zero, 0, sizeof zero, 1, &gate,
                                      &mark);
        rc = gb__cl_check(s->ctx, err, "gating the library's GEMM");
    }
    const double g0 = gb__now_ms();
    if (rc == GB_OK)
        rc = library_gemm(s, 1, &gate, &last);
    if (gate)
        clSetUserEventStatus(gate, rc == GB_OK ? CL_COMPLETE : -1);
    if (rc == GB_OK)
        rc = gb__cl_check(s->ctx, clFinish(q), "finishing the library's GEMM");
    t[GB_PHASE_MAIN] = gb__now_ms() - g0;
    /* One command: its own start to its end, as each of ours is timed; several: the fill's end
     * to the last one's end, the gaps between them included. */
    cl_ulong from = 0, to = 0;
    if (rc == GB_OK && last &&
        (s->commands == 1
             ? clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_START, sizeof from, &from, NULL)
             : clGetEventProfilingInfo(mark, CL_PROFILING_COMMAND_END, sizeof from, &from, NULL)) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(last, CL_PROFILING_COMMAND_END, sizeof to, &to, NULL) ==
            CL_SUCCESS &&
        to > from)
        t[GB_PHASE_MAIN] = (double)(to - from) * 1e-6;
    cl_event evs[3] = {gate, mark, last};
    for (int i = 0; i < 3; i++)
        if (evs[i])
            clReleaseEvent(evs[i]);
    return gb__peer_finish(s->ctx, &s->b, rc, c_out, ev, t0, t);
}

const gb_impl_ops_t gb__library_ops = {
    "gb",
    "gemmbench's own library (gemmbench_blas.h: gb_sgemm, gb_dgemm) on the same OpenCL device "
    "and queue, with its tuning database's choice per shape (library peer)",
    3u,
    GB_IS_LIBRARY,
    gb__peer_check,
    gb__peer_program_id,
    library_prepare,
    NULL,
    library_call,
    library_release,
    0,
    NULL,
    NULL,
    NULL,
    NULL};
