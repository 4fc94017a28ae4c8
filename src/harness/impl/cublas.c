/* cublas.c: NVIDIA cuBLAS as a peer implementation (built only where the CUDA toolkit is found).
 * It runs on CUDA device 0 with its own memory, timed with CUDA events exactly as our kernels
 * are with OpenCL events: host-to-device copies, the GEMM, the copy back. TF32 stays off
 * (CUBLAS_DEFAULT_MATH), so SGEMM and CGEMM are true FP32; DGEMM and ZGEMM may use the FP64
 * tensor cores, which round as FP64 FMAs. h and b go through cublasGemmEx with FP16 or bfloat16
 * A, B and C and CUBLAS_COMPUTE_32F (FP32 products and sums, as h and b mean here); cuBLAS
 * may run them on the tensor cores, whose FP32 sums the faithful verdict judges. cublas_tf32 is the same SGEMM in cuBLAS's TF32 fast mode
 * (CUBLAS_TF32_TENSOR_OP_MATH): the tensor cores on inputs rounded to TF32, which the faithful
 * verdict is there to catch; it declares that reduced precision (GB_IS_REDUCED), so that its
 * results are held to the error bound and a run that measures it beside FP32 does not fail.
 * libcublas and libcudart are opened when a cuBLAS peer is first prepared, not linked: their
 * start cost every gemmbench process 360 ms (bench/notes/measurement.md#cublas-dlopen). */
#ifdef GB_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

/* The functions taken from the two libraries, by the names the headers give them (cublasCreate
 * is cublasCreate_v2 there): X(library, function), the library lib<library>. */
#define CU_FUNCTIONS(X)                                                                            \
    X(cudart, cudaGetErrorString)                                                                  \
    X(cudart, cudaMalloc)                                                                          \
    X(cudart, cudaFree)                                                                            \
    X(cudart, cudaStreamCreate)                                                                    \
    X(cudart, cudaStreamDestroy)                                                                   \
    X(cudart, cudaStreamSynchronize)                                                               \
    X(cudart, cudaEventCreate)                                                                     \
    X(cudart, cudaEventDestroy)                                                                    \
    X(cudart, cudaEventRecord)                                                                     \
    X(cudart, cudaEventElapsedTime)                                                                \
    X(cudart, cudaMemcpyAsync)                                                                     \
    X(cublas, cublasCreate)                                                                        \
    X(cublas, cublasDestroy)                                                                       \
    X(cublas, cublasSetStream)                                                                     \
    X(cublas, cublasSetMathMode)                                                                   \
    X(cublas, cublasSgemm)                                                                         \
    X(cublas, cublasDgemm)                                                                         \
    X(cublas, cublasCgemm)                                                                         \
    X(cublas, cublasZgemm)                                                                         \
    X(cublas, cublasGemmEx)

#define CU_MEMBER(lib, f) __typeof__(&f) f;
static struct {
    CU_FUNCTIONS(CU_MEMBER)
} cu;
static char cu_why[320]; /* why the libraries could not be loaded; empty once they are */
static pthread_once_t cu_once = PTHREAD_ONCE_INIT;

/* A symbol's name after the headers' macros. */
#define CU_NAME(f) CU_NAME_(f)
#define CU_NAME_(f) #f

/* The library at the path the build found, or else by its name in the loader's paths. */
static void *cu_open(const char *path, const char *name)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    return h ? h : dlopen(name, RTLD_NOW | RTLD_LOCAL);
}

static void cu_load(void)
{
    void *cudart = cu_open(GB_CUDART_LIB, GB_CUDART_NAME);
    void *cublas = cudart ? cu_open(GB_CUBLAS_LIB, GB_CUBLAS_NAME) : NULL;
    if (!cublas) {
        snprintf(cu_why, sizeof cu_why, "%s", dlerror());
        return;
    }
#define CU_LOAD(lib, f)                                                                            \
    if (!cu_why[0] && !(cu.f = (__typeof__(cu.f))dlsym(lib, CU_NAME(f))))                          \
        snprintf(cu_why, sizeof cu_why, "lib" #lib " has no %s", CU_NAME(f));
    CU_FUNCTIONS(CU_LOAD)
#undef CU_LOAD
}

int gb__cublas_load(char *msg, size_t msglen)
{
    pthread_once(&cu_once, cu_load);
    if (cu_why[0])
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "cuBLAS could not be loaded (%s); install the CUDA toolkit's libraries "
                        "or leave the cuBLAS peer out",
                        cu_why);
    return GB_OK;
}

typedef struct cu_state {
    gb_context_t *ctx;
    gb_problem_t p;
    cublasHandle_t handle;
    cudaStream_t stream;
    void *a, *b, *c;
    size_t bytes_a, bytes_b, bytes_c;
    cudaEvent_t ev[8];
} cu_state_t;

static void cublas_release(void *state);

static int cu_fail(gb_context_t *ctx, cudaError_t e, const char *what)
{
    return gb__ctx_fail(ctx, GB_EOPENCL, "%s failed: %s", what, cu.cudaGetErrorString(e));
}

/* cuBLAS runs on CUDA device 0, so only beside an NVIDIA OpenCL device, taken to be the same. */
static int cublas_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                        const gb_problem_t *p, char *msg, size_t msglen)
{
    (void)p;
    if (dev && !strstr(dev->vendor, "NVIDIA"))
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "cuBLAS runs only beside an NVIDIA GPU "
                        "device; choose the NVIDIA platform");
    if (im->ops == &gb__cublas_tf32_ops && prec != GB_PREC_S)
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "cublas_tf32 is single precision (TF32 does not touch DGEMM); use "
                        "--precision s");
    return GB_OK;
}

static int cublas_program_id(const gb_impl_t *im, const gb_device_info_t *dev,
                             const gb_problem_t *p, char *buf, size_t len, char *msg, size_t msglen)
{
    (void)im, (void)dev, (void)p, (void)msg, (void)msglen;
    snprintf(buf, len, "none");
    return GB_OK;
}

static int cublas_prepare(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                          void **state, gb_result_t *r)
{
    *state = NULL;
    int rc = cublas_check(im, ctx->dev, p->precision, p, ctx->errmsg, sizeof ctx->errmsg);
    if (rc != GB_OK)
        return rc;
    if ((rc = gb__cublas_load(ctx->errmsg, sizeof ctx->errmsg)) != GB_OK)
        return rc;
    cu_state_t *s = calloc(1, sizeof *s);
    if (!s)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    s->ctx = ctx;
    s->p = *p;
    size_t ea, eb, ec, es = gb_precision_bytes(p->precision);
    gb_problem_buffer_elems(p, &ea, &eb, &ec);
    s->bytes_a = ea * es;
    s->bytes_b = eb * es;
    s->bytes_c = ec * es;
    cudaError_t e;
    if ((e = cu.cudaMalloc(&s->a, s->bytes_a)) != cudaSuccess ||
        (e = cu.cudaMalloc(&s->b, s->bytes_b)) != cudaSuccess ||
        (e = cu.cudaMalloc(&s->c, s->bytes_c)) != cudaSuccess ||
        (e = cu.cudaStreamCreate(&s->stream)) != cudaSuccess)
        rc = cu_fail(ctx, e, "CUDA set-up");
    for (int i = 0; rc == GB_OK && i < 8; i++)
        if ((e = cu.cudaEventCreate(&s->ev[i])) != cudaSuccess)
            rc = cu_fail(ctx, e, "cudaEventCreate");
    if (rc == GB_OK &&
        (cu.cublasCreate(&s->handle) != CUBLAS_STATUS_SUCCESS ||
         cu.cublasSetStream(s->handle, s->stream) != CUBLAS_STATUS_SUCCESS ||
         cu.cublasSetMathMode(s->handle, im->ops == &gb__cublas_tf32_ops
                                             ? CUBLAS_TF32_TENSOR_OP_MATH
                                             : CUBLAS_DEFAULT_MATH) != CUBLAS_STATUS_SUCCESS))
        rc = gb__ctx_fail(ctx, GB_EOPENCL, "cuBLAS set-up failed");
    if (rc != GB_OK) {
        cublas_release(s);
        return rc;
    }
    r->local_null = 1;
    snprintf(r->route, sizeof r->route, "library %s", im->ops->name);
    *state = s;
    return GB_OK;
}

/* One operand's op: its transposition and, in complex precisions, its conjugation. */
static cublasOperation_t cu_op(gb_trans_t t, int conj)
{
    return t != GB_TRANS ? CUBLAS_OP_N : conj ? CUBLAS_OP_C : CUBLAS_OP_T;
}

/* cuBLAS is column-major: a row-major problem is run as C^T = op(B)^T op(A)^T, B first with its
 * own op, M and N swapped. Each op goes with its operand, conjugation included: the column-major
 * view of B's storage is B^T, and (B^H)^T = conj(B) = (B^T)^H, so a conjugated B is still
 * CUBLAS_OP_C there. Offsets are in elements of the precision (a complex element is one). */
static cublasStatus_t gemm(cu_state_t *s)
{
    const gb_problem_t *p = &s->p;
    const size_t es = gb_precision_bytes(p->precision);
    const void *a = (const char *)s->a + p->off_a * es, *b = (const char *)s->b + p->off_b * es;
    void *c = (char *)s->c + p->off_c * es;
    cublasOperation_t ta = cu_op(p->trans_a, p->conj_a), tb = cu_op(p->trans_b, p->conj_b);
    int m = (int)p->m, n = (int)p->n, lda = (int)p->lda, ldb = (int)p->ldb;
    const int k = (int)p->k, ldc = (int)p->ldc;
    if (p->layout == GB_ROW_MAJOR) {
        const void *x = a;
        const cublasOperation_t tx = ta;
        const int mx = m, ldx = lda;
        a = b, b = x, ta = tb, tb = tx, m = n, n = mx, lda = ldb, ldb = ldx;
    }
    switch (p->precision) {
    case GB_PREC_D: {
        const double al = p->alpha, be = p->beta;
        return cu.cublasDgemm(s->handle, ta, tb, m, n, k, &al, a, lda, b, ldb, &be, c, ldc);
    }
    case GB_PREC_H:
    case GB_PREC_B: {
        /* A, B and C in FP16 or bfloat16, products and sums in FP32 (CUBLAS_COMPUTE_32F, not
         * its 16-bit or TF32 compute types), alpha and beta in float, as h and b ask. */
        const cudaDataType_t ty = p->precision == GB_PREC_H ? CUDA_R_16F : CUDA_R_16BF;
        const float al = (float)p->alpha, be = (float)p->beta;
        return cu.cublasGemmEx(s->handle, ta, tb, m, n, k, &al, a, ty, lda, b, ty, ldb, &be, c, ty,
                               ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
    case GB_PREC_C: {
        /* FP32 throughout: the math mode keeps TF32 off (CUBLAS_COMPUTE_32F_FAST_TF32 is
         * cublas_tf32's kind, and it is single precision only), and cgemm3m is not used. */
        const cuComplex al = make_cuComplex((float)p->alpha, (float)p->alpha_im);
        const cuComplex be = make_cuComplex((float)p->beta, (float)p->beta_im);
        return cu.cublasCgemm(s->handle, ta, tb, m, n, k, &al, a, lda, b, ldb, &be, c, ldc);
    }
    case GB_PREC_Z: {
        const cuDoubleComplex al = make_cuDoubleComplex(p->alpha, p->alpha_im);
        const cuDoubleComplex be = make_cuDoubleComplex(p->beta, p->beta_im);
        return cu.cublasZgemm(s->handle, ta, tb, m, n, k, &al, a, lda, b, ldb, &be, c, ldc);
    }
    default: {
        const float al = (float)p->alpha, be = (float)p->beta;
        return cu.cublasSgemm(s->handle, ta, tb, m, n, k, &al, a, lda, b, ldb, &be, c, ldc);
    }
    }
}

static double elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0;
    cu.cudaEventElapsedTime(&ms, a, b);
    return (double)ms;
}

static int cublas_call(void *state, const void *a, const void *b, const void *c, void *c_out,
                       double t[GB_PHASE_COUNT])
{
    cu_state_t *s = state;
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    cudaError_t e = cudaSuccess;
    cu.cudaEventRecord(s->ev[0], s->stream);
    if (a)
        e = cu.cudaMemcpyAsync(s->a, a, s->bytes_a, cudaMemcpyHostToDevice, s->stream);
    if (b && e == cudaSuccess)
        e = cu.cudaMemcpyAsync(s->b, b, s->bytes_b, cudaMemcpyHostToDevice, s->stream);
    if (c && e == cudaSuccess)
        e = cu.cudaMemcpyAsync(s->c, c, s->bytes_c, cudaMemcpyHostToDevice, s->stream);
    cu.cudaEventRecord(s->ev[1], s->stream);
    cublasStatus_t st = gemm(s);
    cu.cudaEventRecord(s->ev[2], s->stream);
    if (c_out && e == cudaSuccess)
        e = cu.cudaMemcpyAsync(c_out, s->c, s->bytes_c, cudaMemcpyDeviceToHost, s->stream);
    cu.cudaEventRecord(s->ev[3], s->stream);
    cudaError_t sync = cu.cudaStreamSynchronize(s->stream);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    if (e == cudaSuccess)
        e = sync;
    if (e != cudaSuccess)
        return cu_fail(s->ctx, e, "a cuBLAS call");
    if (st != CUBLAS_STATUS_SUCCESS)
        return gb__ctx_fail(s->ctx, GB_EOPENCL, "cublas gemm failed with status %d", (int)st);
    t[GB_PHASE_H2D] = elapsed(s->ev[0], s->ev[1]);
    t[GB_PHASE_MAIN] = elapsed(s->ev[1], s->ev[2]);
    t[GB_PHASE_D2H] = elapsed(s->ev[2], s->ev[3]);
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_H2D] + t[GB_PHASE_MAIN] + t[GB_PHASE_D2H];
    return GB_OK;
}

static void cublas_release(void *state)
{
    cu_state_t *s = state;
    if (!s)
        return;
    if (s->handle)
        cu.cublasDestroy(s->handle);
    for (int i = 0; i < 8; i++)
        if (s->ev[i])
            cu.cudaEventDestroy(s->ev[i]);
    if (s->stream)
        cu.cudaStreamDestroy(s->stream);
    cu.cudaFree(s->a);
    cu.cudaFree(s->b);
    cu.cudaFree(s->c);
    free(s);
}

/* The two peers differ only in name, description, precisions and capabilities: cublas_prepare
 * sets the math mode from the table it runs under. */
#define CUBLAS_OPS(name, description, precisions, caps)                                            \
    {                                                                                              \
        name, description, precisions, caps, cublas_check, cublas_program_id, cublas_prepare,      \
            NULL, cublas_call, cublas_release, 0, NULL, NULL, NULL, NULL                           \
    }

const gb_impl_ops_t gb__cublas_ops =
    CUBLAS_OPS("cublas",
               "NVIDIA cuBLAS sgemm/dgemm/cgemm/zgemm, and GemmEx with FP32 compute for h and b, "
               "on CUDA device 0, TF32 off (library peer)",
               GB_PREC_ALL, GB_IS_LIBRARY);

const gb_impl_ops_t gb__cublas_tf32_ops =
    CUBLAS_OPS("cublas_tf32",
               "NVIDIA cuBLAS sgemm in its TF32 fast mode: tensor cores on inputs rounded to TF32, "
               "not FP32-accurate (library peer)",
               1u, GB_IS_LIBRARY | GB_IS_REDUCED);
#endif
