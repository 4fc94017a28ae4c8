/* openblas.c: the host's OpenBLAS as a peer, `-k openblas`: cblas_sgemm, cblas_dgemm,
 * cblas_cgemm or cblas_zgemm on the CPU, on host copies of the harness's inputs, with the problem's layout, transpositions, leading
 * dimensions, offsets, alpha and beta. It does not use the OpenCL device. Nothing is transferred,
 * so the copy phases are 0; the main phase is the host clock around the cblas call alone, and C
 * is restored from the given C before it, outside that time. OpenBLAS runs with the threads it is
 * configured with (OPENBLAS_NUM_THREADS, or its default), which the route names. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

#ifdef OPENBLAS_CONFIG_H
/* "AVX-512" or "AVX2" where the CPU has it, else NULL. */
static const char *vector_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f"))
        return "AVX-512";
    if (__builtin_cpu_supports("avx2"))
        return "AVX2";
#endif
    return NULL;
}

/* OpenBLAS's x86 cores whose kernels predate AVX. */
static int pre_avx_core(const char *core)
{
    static const char *const old[] = {
        "Prescott",  "Core2",  "Penryn", "Dunnington", "Nehalem",   "Atom",  "Opteron",
        "Barcelona", "Bobcat", "Katmai", "Coppermine", "Northwood", "Banias"};
    for (size_t i = 0; i < sizeof old / sizeof old[0]; i++)
        if (!strcmp(core, old[i]))
            return 1;
    return 0;
}
#endif

/* The run's host buffers: A, B, the C last given, and the C computed on. */
typedef struct openblas_run {
    gb_context_t *ctx;
    gb_problem_t p;
    void *buf[4];
    size_t bytes[3];
} openblas_run_t;

static void openblas_release(void *state)
{
    openblas_run_t *s = state;
    if (!s)
        return;
    for (int d = 0; d < 4; d++)
        free(s->buf[d]);
    free(s);
}

/* Any device, any precision it declares: the device is not used. */
static int openblas_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                          const gb_problem_t *p, char *msg, size_t msglen)
{
    (void)im, (void)dev, (void)prec, (void)p, (void)msg, (void)msglen;
    return GB_OK;
}

/* Allocates the host buffers (zeroed, so that a first call without inputs is defined) and
 * describes the run: the library and its threads in the route, its configuration string in
 * the build options. The buffers' sizes were checked with the problem. */
static int openblas_prepare(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                            void **state, gb_result_t *r)
{
    (void)im;
    *state = NULL;
    openblas_run_t *s = calloc(1, sizeof *s);
    if (!s)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    s->ctx = ctx;
    s->p = *p;
    size_t elems[3];
    const size_t es = gb_precision_bytes(p->precision);
    gb_problem_buffer_elems(p, &elems[0], &elems[1], &elems[2]);
    for (int d = 0; d < 3; d++)
        s->bytes[d] = elems[d] * es;
    for (int d = 0; d < 4; d++)
        if (!(s->buf[d] = calloc(1, s->bytes[d < 3 ? d : 2]))) {
            openblas_release(s);
            return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory allocating OpenBLAS's host buffers");
        }
#ifdef OPENBLAS_CONFIG_H
    /* The kernels OpenBLAS picked for this CPU: one it does not recognise gets an older core's
     * (on a virtual Skylake-AVX512 here, "Prescott": SSE3, at a fifth of its speed), which
     * OPENBLAS_CORETYPE fixes; the route says so rather than let the slow peer pass. */
    const char *core = openblas_get_corename(), *isa = vector_isa();
    char hint[64] = "";
    if (isa && pre_avx_core(core))
        snprintf(hint, sizeof hint, " on an %s CPU: set OPENBLAS_CORETYPE", isa);
    snprintf(r->route, sizeof r->route, "library openblas (%d threads, %s kernels%s)",
             openblas_get_num_threads(), core, hint);
    snprintf(r->build_options, sizeof r->build_options, "%s", openblas_get_config());
#else
    snprintf(r->route, sizeof r->route, "library openblas");
#endif
    r->local_null = 1;
    *state = s;
    return GB_OK;
}

static enum CBLAS_TRANSPOSE cblas_op(gb_trans_t t, int conj)
{
    return t != GB_TRANS ? CblasNoTrans : conj ? CblasConjTrans : CblasTrans;
}

static void openblas_gemm(openblas_run_t *s)
{
    const gb_problem_t *p = &s->p;
    const enum CBLAS_ORDER lay = p->layout == GB_ROW_MAJOR ? CblasRowMajor : CblasColMajor;
    const enum CBLAS_TRANSPOSE ta = cblas_op(p->trans_a, p->conj_a);
    const enum CBLAS_TRANSPOSE tb = cblas_op(p->trans_b, p->conj_b);
    const int m = (int)p->m, n = (int)p->n, k = (int)p->k;
    const int lda = (int)p->lda, ldb = (int)p->ldb, ldc = (int)p->ldc;
    /* Complex: alpha and beta as (real, imaginary) pairs, offsets in elements of two reals. */
    if (p->precision == GB_PREC_Z) {
        const double al[2] = {p->alpha, p->alpha_im}, be[2] = {p->beta, p->beta_im};
        cblas_zgemm(lay, ta, tb, m, n, k, al, (const double *)s->buf[0] + 2 * p->off_a, lda,
                    (const double *)s->buf[1] + 2 * p->off_b, ldb, be,
                    (double *)s->buf[3] + 2 * p->off_c, ldc);
    } else if (p->precision == GB_PREC_C) {
        const float al[2] = {(float)p->alpha, (float)p->alpha_im};
        const float be[2] = {(float)p->beta, (float)p->beta_im};
        cblas_cgemm(lay, ta, tb, m, n, k, al, (const float *)s->buf[0] + 2 * p->off_a, lda,
                    (const float *)s->buf[1] + 2 * p->off_b, ldb, be,
                    (float *)s->buf[3] + 2 * p->off_c, ldc);
    } else if (p->precision == GB_PREC_D)
        cblas_dgemm(lay, ta, tb, m, n, k, p->alpha, (const double *)s->buf[0] + p->off_a, lda,
                    (const double *)s->buf[1] + p->off_b, ldb, p->beta,
                    (double *)s->buf[3] + p->off_c, ldc);
    else
        cblas_sgemm(lay, ta, tb, m, n, k, (float)p->alpha, (const float *)s->buf[0] + p->off_a, lda,
                    (const float *)s->buf[1] + p->off_b, ldb, (float)p->beta,
                    (float *)s->buf[3] + p->off_c, ldc);
}

/* Copies the inputs given, restores C from the C last given, and times the cblas call alone;
 * the whole call is the wall time. Cannot fail: the problem was checked. */
static int openblas_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                         double t[GB_PHASE_COUNT])
{
    openblas_run_t *s = state;
    const void *const in[3] = {a, b, c};
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    for (int d = 0; d < 3; d++)
        if (in[d])
            memcpy(s->buf[d], in[d], s->bytes[d]);
    memcpy(s->buf[3], s->buf[2], s->bytes[2]);
    const double g0 = gb__now_ms();
    openblas_gemm(s);
    t[GB_PHASE_MAIN] = gb__now_ms() - g0;
    if (c_out)
        memcpy(c_out, s->buf[3], s->bytes[2]);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS];
    return GB_OK;
}

const gb_impl_ops_t gb__openblas_ops = {
    "openblas",
    "the host's OpenBLAS sgemm/dgemm/cgemm/zgemm on the CPU, host clock, no transfers "
    "(library peer)",
    (1u << GB_PREC_S) | (1u << GB_PREC_D) | (1u << GB_PREC_C) | (1u << GB_PREC_Z),
    GB_IS_LIBRARY,
    openblas_check,
    gb__peer_program_id,
    openblas_prepare,
    NULL,
    openblas_call,
    openblas_release,
    1,
    NULL,
    NULL,
    NULL,
    NULL};
