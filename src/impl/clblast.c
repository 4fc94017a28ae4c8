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
    cl_mem buf[3];
    size_t bytes[3];
} clblast_run_t;

static void clblast_release(void *state)
{
    clblast_run_t *s = state;
    if (!s)
        return;
    for (int d = 0; d < 3; d++)
        if (s->buf[d])
            clReleaseMemObject(s->buf[d]);
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
    size_t elems[3];
    const size_t es = gb_precision_bytes(p->precision);
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    static const char *const what[3] = {"clCreateBuffer(A)", "clCreateBuffer(B)",
                                        "clCreateBuffer(C)"};
    int rc = GB_OK;
    for (int d = 0; d < 3 && rc == GB_OK; d++) {
        cl_int err;
        s->bytes[d] = elems[d] * es;
        s->buf[d] = clCreateBuffer(ctx->cl, d < 2 ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE,
                                   s->bytes[d], NULL, &err);
        rc = gb__cl_check(ctx, err, what[d]);
    }
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
        st = CLBlastDgemm(lay, ta, tb, p->m, p->n, p->k, p->alpha, s->buf[0], p->off_a, p->lda,
                          s->buf[1], p->off_b, p->ldb, p->beta, s->buf[2], p->off_c, p->ldc, &q,
                          NULL);
    else
        st = CLBlastSgemm(lay, ta, tb, p->m, p->n, p->k, (float)p->alpha, s->buf[0], p->off_a,
                          p->lda, s->buf[1], p->off_b, p->ldb, (float)p->beta, s->buf[2], p->off_c,
                          p->ldc, &q, NULL);
    if (st != CLBlastSuccess)
        return gb__ctx_fail(s->ctx, GB_EOPENCL, "CLBlast xGEMM failed with status %d", (int)st);
    return GB_OK;
}

static int clblast_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                        double t[GB_PHASE_COUNT])
{
    clblast_run_t *s = state;
    cl_command_queue q = s->ctx->queue;
    cl_event ev[4] = {0};
    const void *in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    cl_int err = CL_SUCCESS;
    for (int d = 0; d < 3 && err == CL_SUCCESS; d++)
        if (in[d])
            err = clEnqueueWriteBuffer(q, s->buf[d], CL_FALSE, 0, s->bytes[d], in[d], 0, NULL,
                                       &ev[d]);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    int rc = gb__cl_check(s->ctx, err, "writing the inputs");
    const double g0 = gb__now_ms();
    if (rc == GB_OK && (rc = clblast_gemm(s)) == GB_OK)
        rc = gb__cl_check(s->ctx, clFinish(q), "finishing CLBlast's GEMM");
    t[GB_PHASE_MAIN] = gb__now_ms() - g0;
    if (rc == GB_OK && c_out)
        rc = gb__cl_check(
            s->ctx,
            clEnqueueReadBuffer(q, s->buf[2], CL_TRUE, 0, s->bytes[2], c_out, 0, NULL, &ev[3]),
            "reading C");
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    for (int i = 0; i < 4; i++)
        if (ev[i]) {
            t[i == 3 ? GB_PHASE_D2H : GB_PHASE_H2D] += gb__event_ms(ev[i], NULL);
            clReleaseEvent(ev[i]);
        }
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return rc;
}

static int clblast_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                         const gb_problem_t *p, char *msg, size_t msglen)
{
    (void)im, (void)p;
    if (prec == GB_PREC_D && dev && !dev->fp64)
        return gb__fail(msg, msglen, GB_ENOFP64,
                        "device '%s' has no double precision "
                        "(cl_khr_fp64); choose single precision",
                        dev->name);
    return GB_OK;
}

static int clblast_program_id(const gb_impl_t *im, const gb_device_info_t *dev,
                              const gb_problem_t *p, char *buf, size_t len, char *msg,
                              size_t msglen)
{
    (void)im, (void)dev, (void)p, (void)msg, (void)msglen;
    snprintf(buf, len, "none");
    return GB_OK;
}

const gb_impl_ops_t gb__clblast_ops = {
    "clblast",
    "CLBlast's xGEMM on the same OpenCL device and queue (library peer)",
    3u,
    clblast_check,
    clblast_program_id,
    clblast_prepare,
    NULL,
    clblast_call,
    clblast_release};
#endif
