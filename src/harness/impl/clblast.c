/* clblast.c: CLBlast's xGEMM as an implementation, on our own OpenCL context, queue and buffers
 * (built where CLBlast was found): SGEMM, DGEMM, CGEMM and ZGEMM (conjugate transpositions and
 * complex alpha and beta as CLBlast takes them), and HGEMM where the device has cl_khr_fp16.
 * CLBlast's HGEMM computes in FP16 throughout, products and sums alike, where gemmbench's h
 * accumulates in FP32: it is held to h's bound and faithful verdict all the same, which an FP16
 * sum fails by thousands of FP32 units (docs/methodology.md). CLBlast has no bfloat16. CLBlast may run
 * several kernels per call (its own helper passes), which cannot be told apart: its whole call
 * is the main phase, timed from the host from enqueue to completion. */
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

/* The peer's checks (gb__peer_check's), and HGEMM only where the device has FP16 arithmetic. */
static int clblast_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                         const gb_problem_t *p, char *msg, size_t msglen)
{
    if (prec == GB_PREC_H && dev && !gb_device_has_extension(dev, "cl_khr_fp16"))
        return gb__fail(msg, msglen, GB_ENOEXT,
                        "CLBlast's HGEMM needs cl_khr_fp16, which device '%s' lacks; choose "
                        "another device, or another kernel for h",
                        dev->name);
    return gb__peer_check(im, dev, prec, p, msg, msglen);
}

static CLBlastTranspose clblast_op(gb_trans_t t, int conj)
{
    return t != GB_TRANS ? CLBlastTransposeNo
           : conj        ? CLBlastTransposeConjugate
                         : CLBlastTransposeYes;
}

static int clblast_gemm(clblast_run_t *s)
{
    const gb_problem_t *p = &s->p;
    const CLBlastLayout lay =
        p->layout == GB_ROW_MAJOR ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    const CLBlastTranspose ta = clblast_op(p->trans_a, p->conj_a);
    const CLBlastTranspose tb = clblast_op(p->trans_b, p->conj_b);
    cl_command_queue q = s->ctx->queue;
    CLBlastStatusCode st;
    /* Offsets are in elements of the precision, a complex one included, as CLBlast counts them. */
    if (p->precision == GB_PREC_Z) {
        const cl_double2 al = {{p->alpha, p->alpha_im}}, be = {{p->beta, p->beta_im}};
        st = CLBlastZgemm(lay, ta, tb, p->m, p->n, p->k, al, s->b.buf[0], p->off_a, p->lda,
                          s->b.buf[1], p->off_b, p->ldb, be, s->b.buf[2], p->off_c, p->ldc, &q,
                          NULL);
    } else if (p->precision == GB_PREC_C) {
        const cl_float2 al = {{(float)p->alpha, (float)p->alpha_im}};
        const cl_float2 be = {{(float)p->beta, (float)p->beta_im}};
        st = CLBlastCgemm(lay, ta, tb, p->m, p->n, p->k, al, s->b.buf[0], p->off_a, p->lda,
                          s->b.buf[1], p->off_b, p->ldb, be, s->b.buf[2], p->off_c, p->ldc, &q,
                          NULL);
    } else if (p->precision == GB_PREC_H) {
        /* HGEMM takes alpha and beta in FP16 too (exact for the usual 1, 0, 0.5, -2). */
        st = CLBlastHgemm(lay, ta, tb, p->m, p->n, p->k, gb__fp16_bits(p->alpha), s->b.buf[0],
                          p->off_a, p->lda, s->b.buf[1], p->off_b, p->ldb, gb__fp16_bits(p->beta),
                          s->b.buf[2], p->off_c, p->ldc, &q, NULL);
    } else if (p->precision == GB_PREC_D)
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
    "CLBlast's SGEMM/DGEMM/CGEMM/ZGEMM on the same OpenCL device and queue; HGEMM (h) where the "
    "device has cl_khr_fp16, accumulating in FP16, not FP32 as h asks; no bfloat16 (library peer)",
    (1u << GB_PREC_S) | (1u << GB_PREC_D) | (1u << GB_PREC_H) | (1u << GB_PREC_C) |
        (1u << GB_PREC_Z),
    GB_IS_LIBRARY,
    clblast_check,
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
