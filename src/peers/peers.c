/* peers.c: CLBlast as an implementation on our own OpenCL queue and buffers, and the table of
 * compiled-in peers. cuBLAS lives in cublas.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"
#ifdef GB_HAVE_CLBLAST
#include <clblast_c.h>
#endif

struct gb_peer {
    gb_context_t *ctx;
    gb_problem_t p;
    cl_mem a, b, c;
    size_t bytes_a, bytes_b, bytes_c;
    void *cuda; /* cuBLAS state, or NULL */
};

/* cublas.c, when built. */
int gb__cublas_prepare(gb_context_t *ctx, const gb_problem_t *p, void **state);
int gb__cublas_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                    double t[GB_PHASE_COUNT]);
void gb__cublas_release(void *state);

static const struct {
    const char *name, *description;
} peers[] = {
#ifdef GB_HAVE_CLBLAST
    {"clblast", "CLBlast's xGEMM on the same OpenCL device and queue (library peer)"},
#endif
#ifdef GB_HAVE_CUBLAS
    {"cublas", "NVIDIA cuBLAS sgemm/dgemm on CUDA device 0, TF32 off (library peer)"},
#endif
    {NULL, NULL}};

size_t gb__peer_count(void)
{
    return sizeof peers / sizeof peers[0] - 1;
}

const char *gb__peer_name(size_t i)
{
    return peers[i].name;
}

const char *gb__peer_description(size_t i)
{
    return peers[i].description;
}

int gb__peer_prepare(gb_context_t *ctx, const char *name, const gb_problem_t *p, gb_peer_t **out)
{
    *out = NULL;
    gb_peer_t *pe = calloc(1, sizeof *pe);
    if (!pe)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    pe->ctx = ctx;
    pe->p = *p;
    int rc = GB_OK;
    if (!strcmp(name, "cublas")) {
#ifdef GB_HAVE_CUBLAS
        rc = gb__cublas_prepare(ctx, p, &pe->cuda);
#else
        rc = gb__ctx_fail(ctx, GB_EUNSUPPORTED, "this gemmbench was built without cuBLAS");
#endif
    } else {
        size_t ea, eb, ec, es = gb_precision_bytes(p->precision);
        gb_problem_buffer_elems(p, &ea, &eb, &ec);
        pe->bytes_a = ea * es;
        pe->bytes_b = eb * es;
        pe->bytes_c = ec * es;
        cl_int err;
        pe->a = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, pe->bytes_a, NULL, &err);
        if (!(rc = gb__cl_check(ctx, err, "clCreateBuffer(A)")))
            pe->b = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, pe->bytes_b, NULL, &err);
        if (!rc && !(rc = gb__cl_check(ctx, err, "clCreateBuffer(B)")))
            pe->c = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, pe->bytes_c, NULL, &err);
        if (!rc)
            rc = gb__cl_check(ctx, err, "clCreateBuffer(C)");
    }
    if (rc != GB_OK) {
        gb__peer_release(pe);
        return rc;
    }
    *out = pe;
    return GB_OK;
}

static double event_ms(cl_event ev)
{
    cl_ulong s = 0, e = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    return e > s ? (double)(e - s) * 1e-6 : 0.0;
}

#ifdef GB_HAVE_CLBLAST
static int clblast_gemm(gb_peer_t *pe)
{
    const gb_problem_t *p = &pe->p;
    const CLBlastLayout lay = p->layout == GB_ROW_MAJOR ? CLBlastLayoutRowMajor : CLBlastLayoutColMajor;
    const CLBlastTranspose ta = p->trans_a == GB_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    const CLBlastTranspose tb = p->trans_b == GB_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    cl_command_queue q = pe->ctx->queue;
    CLBlastStatusCode st;
    if (p->precision == GB_PREC_D)
        st = CLBlastDgemm(lay, ta, tb, p->m, p->n, p->k, p->alpha, pe->a, p->off_a, p->lda, pe->b,
                          p->off_b, p->ldb, p->beta, pe->c, p->off_c, p->ldc, &q, NULL);
    else
        st = CLBlastSgemm(lay, ta, tb, p->m, p->n, p->k, (float)p->alpha, pe->a, p->off_a, p->lda,
                          pe->b, p->off_b, p->ldb, (float)p->beta, pe->c, p->off_c, p->ldc, &q,
                          NULL);
    if (st != CLBlastSuccess)
        return gb__ctx_fail(pe->ctx, GB_EOPENCL, "CLBlast xGEMM failed with status %d", (int)st);
    return GB_OK;
}
#endif

int gb__peer_call(gb_peer_t *pe, const void *a, const void *b, const void *c, void *c_out,
                  double t[GB_PHASE_COUNT])
{
    if (pe->cuda)
        return gb__cublas_call(pe->cuda, a, b, c, c_out, t);
#ifdef GB_HAVE_CLBLAST
    cl_command_queue q = pe->ctx->queue;
    cl_event ev[4] = {0};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    cl_int err = CL_SUCCESS;
    if (a)
        err = clEnqueueWriteBuffer(q, pe->a, CL_FALSE, 0, pe->bytes_a, a, 0, NULL, &ev[0]);
    if (b && err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, pe->b, CL_FALSE, 0, pe->bytes_b, b, 0, NULL, &ev[1]);
    if (c && err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(q, pe->c, CL_FALSE, 0, pe->bytes_c, c, 0, NULL, &ev[2]);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    int rc = gb__cl_check(pe->ctx, err, "writing the inputs");
    /* CLBlast may run several kernels per call; its whole call is timed from the host. */
    const double g0 = gb__now_ms();
    if (rc == GB_OK && (rc = clblast_gemm(pe)) == GB_OK)
        rc = gb__cl_check(pe->ctx, clFinish(q), "finishing CLBlast's GEMM");
    t[GB_PHASE_MAIN] = gb__now_ms() - g0;
    if (rc == GB_OK && c_out)
        rc = gb__cl_check(pe->ctx, clEnqueueReadBuffer(q, pe->c, CL_TRUE, 0, pe->bytes_c, c_out,
                                                       0, NULL, &ev[3]), "reading C");
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    for (int i = 0; i < 4; i++)
        if (ev[i]) {
            t[i == 3 ? GB_PHASE_D2H : GB_PHASE_H2D] += event_ms(ev[i]);
            clReleaseEvent(ev[i]);
        }
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return rc;
#else
    (void)a, (void)b, (void)c, (void)c_out, (void)t, (void)event_ms;
    return gb__ctx_fail(pe->ctx, GB_EUNSUPPORTED, "this gemmbench was built without CLBlast");
#endif
}

void gb__peer_release(gb_peer_t *pe)
{
    if (!pe)
        return;
    if (pe->cuda)
        gb__cublas_release(pe->cuda);
    if (pe->a)
        clReleaseMemObject(pe->a);
    if (pe->b)
        clReleaseMemObject(pe->b);
    if (pe->c)
        clReleaseMemObject(pe->c);
    free(pe);
}

#ifndef GB_HAVE_CUBLAS
int gb__cublas_prepare(gb_context_t *ctx, const gb_problem_t *p, void **state)
{
    (void)p;
    *state = NULL;
    return gb__ctx_fail(ctx, GB_EUNSUPPORTED, "this gemmbench was built without cuBLAS");
}
int gb__cublas_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                    double t[GB_PHASE_COUNT])
{
    (void)state, (void)a, (void)b, (void)c, (void)c_out, (void)t;
    return GB_EUNSUPPORTED;
}
void gb__cublas_release(void *state)
{
    (void)state;
}
#endif
