/* clblast.c: CLBlast's xGEMM as an implementation, on our own OpenCL context, queue and buffers
 * (built where CLBlast was found). CLBlast may run several kernels per call (its own helper
 * passes), which cannot be told apart: its whole call is the main phase, timed from the host
 * from enqueue to completion. */
#ifdef GB_HAVE_CLBLAST
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

typedef struct clblast_run {
    gb_context_t *ctx;
    gb_problem_t p;
    gb_peer_bufs_t b;
} clblast_run_t;

static void clblast_release(void *state)
{
    clblast_run_t *s = state;
    if (!s)
        return;
    gb__peer_buffers_free(&s->b);
    free(s);
}

static int clblast_prepare(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                           void **state, gb_result_t *r)
{
    (void)im;
    *state = NULL;
    clblast_run_t *s = calloc(1, sizeof *s);
    if (!s)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    s->ctx = ctx;
    s->p = *p;
    const int rc = gb__peer_buffers(&s->b, ctx, p);
    if (rc != GB_OK) {
        clblast_release(s);
        return rc;
    }
    r->local_null = 1;
    snprintf(r->route, sizeof r->route, "library clblast");
    *state = s;
    return GB_OK;
}

static int clblast_gemm(clblast_run_t *s)
{
    const gb_problem_t *p = &s->p;
    const CLBlastLayout lay =
        p->layout == GB_ROW_MAJOR ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    const CLBlastTranspose ta = p->trans_a == GB_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = p->trans_b == GB_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    cl_command_queue q = s->ctx->queue;
    CLBlastStatusCode st;
    if (p->precision == GB_PREC_D)
        st = CLBlastDgemm(lay, ta, tb, p->m, p->n, p->k, p->alpha, s->b.buf[0], p->off_a, p->lda,
                          s->b.buf[1], p->off_b, p->ldb, p->beta, s->b.buf[2], p->off_c, p->ldc, &q,
                          NULL);
    else
        st = CLBlastSgemm(lay, ta, tb, p->m, p->n, p->k, (float)p->alpha, s->b.buf[0], p->off_a,
                          p->lda, s->b.buf[1], p->off_b, p->ldb, (float)p->beta, s->b.buf[2],
                          p->off_c, p->ldc, &q, NULL);
    if (st != CLBlastSuccess)
        return gb__ctx_fail(s->ctx, GB_EOPENCL, "CLBlast xGEMM failed with status %d", (int)st);
    return GB_OK;
}

static int clblast_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                        double t[GB_PHASE_COUNT])
{
    clblast_run_t *s = state;
    cl_event ev[4] = {0};
    const void *const in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    int rc = gb__peer_write(s->ctx, &s->b, in, ev, 1);
    const double g0 = gb__now_ms();
    if (rc == GB_OK && (rc = clblast_gemm(s)) == GB_OK)
        rc = gb__cl_check(s->ctx, clFinish(s->ctx->queue), "finishing CLBlast's GEMM");
    t[GB_PHASE_MAIN] = gb__now_ms() - g0;
    return gb__peer_finish(s->ctx, &s->b, rc, c_out, ev, t0, t);
}

const gb_impl_ops_t gb__clblast_ops = {
    "clblast",
    "CLBlast's xGEMM on the same OpenCL device and queue (library peer)",
    3u,
    GB_IS_LIBRARY,
    gb__peer_check,
    gb__peer_program_id,
    clblast_prepare,
    NULL,
    clblast_call,
    clblast_release,
    0,
    NULL,
    NULL,
    NULL,
    NULL};
#endif
