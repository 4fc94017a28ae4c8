/* gemmbench_blas.h: the gemmbench GEMM library. C = alpha * op(A) * op(B) + beta * C on the
 * caller's OpenCL buffers, computed by gemmbench's kernels with the configuration its tuning
 * database holds for the device and the shape (docs/library.md), in six precisions: s and d,
 * h (FP16) and b (bfloat16) stored in 16 bits and computed in FP32, c and z complex. Link with
 * -lgemmbench_blas (pkg-config gemmbench_blas, or CMake's find_package(gemmbench) and
 * gemmbench::blas); it needs the OpenCL loader and nothing else.
 *
 * Calls are asynchronous: they check their arguments, enqueue on the caller's queue and return;
 * nothing inside waits for the device. The argument order is CLBlast's (CLBlastSgemm), with the
 * handle first and a wait list before the event.
 *
 * Threads: a handle may be used from several threads at once, each on its own queue; one queue
 * must not be used by two threads' calls at the same time (the handle keeps per-queue scratch
 * space). Queues must be in order. Programs are built once per handle (and kept in the on-disk
 * program cache that the gemmbench tool shares, $GEMMBENCH_CACHE_DIR or ~/.cache/gemmbench).
 *
 * Errors: every call returns GB_OK (0) or a negative gb_error_t (gemmbench_base.h); argument
 * errors are found before anything is enqueued and name the argument as BLAS's xerbla does.
 * gb_blas_errmsg() gives the last failure's one-line message. The library never prints and never
 * aborts. */
#ifndef GEMMBENCH_BLAS_H
#define GEMMBENCH_BLAS_H

#include <stddef.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include "gemmbench_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CLBlast's values, so that its enums convert by a cast. */
typedef enum gb_blas_layout { GB_BLAS_ROW_MAJOR = 101, GB_BLAS_COL_MAJOR = 102 } gb_blas_layout_t;
typedef enum gb_blas_trans {
    GB_BLAS_NO_TRANS = 111,
    GB_BLAS_TRANS = 112,
    GB_BLAS_CONJ_TRANS = 113 /* conjugate transpose for c and z; real data: GB_BLAS_TRANS */
} gb_blas_trans_t;

typedef struct gb_blas gb_blas_t;

/* A handle on the caller's context and one of its devices (both retained until gb_blas_close).
 * It owns the compiled programs and the scratch space of calls; it reads the tuning database
 * compiled into the library. GB_EBADARG for a NULL context or device, GB_EOPENCL when they cannot
 * be queried. */
GB_API int gb_blas_open(gb_blas_t **out, cl_context context, cl_device_id device);
/* A handle on a device chosen as the gemmbench tool's -p/-d choose it: platform and device by
 * index ("0") or by name substring, NULL for the first (a GPU where there is one). The handle
 * makes and owns a context and an in-order queue (gb_blas_queue, gb_blas_context).
 * GB_ENOPLATFORM or GB_ENODEVICE when nothing matches. */
GB_API int gb_blas_open_device(gb_blas_t **out, const char *platform, const char *device);
/* Releases what the handle holds. Calls enqueued earlier may still be running: they keep what
 * they use. Accepts NULL. */
GB_API void gb_blas_close(gb_blas_t *h);
GB_API cl_context gb_blas_context(const gb_blas_t *h);
GB_API cl_device_id gb_blas_device(const gb_blas_t *h);
/* The queue gb_blas_open_device made (NULL for a handle from gb_blas_open). */
GB_API cl_command_queue gb_blas_queue(const gb_blas_t *h);

/* The one-line message of the last call that failed on this thread ("" when none has). */
GB_API const char *gb_blas_errmsg(void);

/* C = alpha * op(A) * op(B) + beta * C. op(A) is m x k, op(B) k x n, C m x n, stored in layout
 * at the element offsets a_off, b_off, c_off with leading dimensions lda, ldb, ldc. Enqueued on
 * queue (of the handle's context and device) after the num_wait events of wait; *event (may be
 * NULL) is the call's last command. m, n or k of 0 is not an error: with m or n of 0 nothing is
 * computed, with k of 0 C is scaled by beta (BLAS); *event is then a marker. */
GB_API int gb_sgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                    size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta,
                    cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
                    const cl_event *wait, cl_event *event);
GB_API int gb_dgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, double alpha, cl_mem a,
                    size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, double beta,
                    cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
                    const cl_event *wait, cl_event *event);
/* FP16 (h: cl_half bit patterns) and bfloat16 (b: cl_ushort bit patterns, the upper half of a
 * float) in A, B and C: products accumulated in FP32 and the result rounded once to 16 bits (to
 * nearest, ties to even). alpha and beta are float, applied in FP32, as cublasGemmEx takes them
 * with CUBLAS_COMPUTE_32F (CLBlast's Hgemm takes cl_half scalars and computes in FP16). */
GB_API int gb_hgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                    size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta,
                    cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
                    const cl_event *wait, cl_event *event);
GB_API int gb_bgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
                    size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta,
                    cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
                    const cl_event *wait, cl_event *event);
/* Complex single (c) and double (z): elements of two reals, real part first, as BLAS and CLBlast
 * interleave them; offsets and leading dimensions count complex elements. alpha and beta are
 * (real, imaginary) in .s[0], .s[1]. trans_a, trans_b: GB_BLAS_CONJ_TRANS makes op(X) the
 * conjugate transpose X^H, GB_BLAS_TRANS the plain transpose X^T. */
GB_API int gb_cgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, cl_float2 alpha,
                    cl_mem a, size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb,
                    cl_float2 beta, cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue,
                    cl_uint num_wait, const cl_event *wait, cl_event *event);
GB_API int gb_zgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, cl_double2 alpha,
                    cl_mem a, size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb,
                    cl_double2 beta, cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue,
                    cl_uint num_wait, const cl_event *wait, cl_event *event);

/* Batches of count GEMMs of one shape (CLBlast's GemmBatched): item i has alphas[i], betas[i]
 * and the offsets a_offs[i], b_offs[i], c_offs[i] into the one buffer of each operand. The
 * scalars are of the single call's types (float for h and b). */
GB_API int gb_sgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const float *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const float *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
GB_API int gb_dgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const double *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const double *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
GB_API int gb_hgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const float *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const float *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
GB_API int gb_bgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const float *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const float *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
GB_API int gb_cgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const cl_float2 *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const cl_float2 *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
GB_API int gb_zgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                            gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                            const cl_double2 *alphas, cl_mem a, const size_t *a_offs, size_t lda,
                            cl_mem b, const size_t *b_offs, size_t ldb, const cl_double2 *betas,
                            cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                            cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                            cl_event *event);
/* Strided batches (CLBlast's GemmStridedBatched): item i's operands start at a_off + i *
 * a_stride, and so on, with one alpha and beta for all. */
GB_API int gb_sgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    float alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, float beta, cl_mem c, size_t c_off, size_t ldc,
                                    size_t c_stride, size_t count, cl_command_queue queue,
                                    cl_uint num_wait, const cl_event *wait, cl_event *event);
GB_API int gb_dgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    double alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, double beta, cl_mem c, size_t c_off,
                                    size_t ldc, size_t c_stride, size_t count,
                                    cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                                    cl_event *event);
GB_API int gb_hgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    float alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, float beta, cl_mem c, size_t c_off, size_t ldc,
                                    size_t c_stride, size_t count, cl_command_queue queue,
                                    cl_uint num_wait, const cl_event *wait, cl_event *event);
GB_API int gb_bgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    float alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, float beta, cl_mem c, size_t c_off, size_t ldc,
                                    size_t c_stride, size_t count, cl_command_queue queue,
                                    cl_uint num_wait, const cl_event *wait, cl_event *event);
GB_API int gb_cgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    cl_float2 alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, cl_float2 beta, cl_mem c, size_t c_off,
                                    size_t ldc, size_t c_stride, size_t count,
                                    cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                                    cl_event *event);
GB_API int gb_zgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                                    gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                                    cl_double2 alpha, cl_mem a, size_t a_off, size_t lda,
                                    size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                                    size_t b_stride, cl_double2 beta, cl_mem c, size_t c_off,
                                    size_t ldc, size_t c_stride, size_t count,
                                    cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                                    cl_event *event);

/* Overrides the tuning database for this handle: kernel (a family or preset name of `gemmbench
 * kernels`, e.g. "xgemm_nv_k8") with params ("NAME=V NAME=V", or NULL) for every call in a
 * precision the kernel has; calls in another precision keep the database's choice. A call the
 * kernel cannot run (a constraint, the device) then fails with its reason rather than fall
 * back. kernel NULL returns to the database. GB_ENOKERNEL, GB_EBADPARAM or GB_ECONSTRAINT when
 * the kernel or its parameters are refused (the handle keeps its previous choice). Not to be
 * called while other threads make calls on the handle. */
GB_API int gb_blas_set_kernel(gb_blas_t *h, const char *kernel, const char *params);
/* What a call of this precision ('s', 'd', 'h', 'b', 'c' or 'z'), layout, transpositions and
 * shape would run, into buf: "xgemm_nv NAME=V ... (tuned: NVIDIA H100 80GB HBM3, square-4096)".
 * The choice is built first: one that does not build or fit on the device is passed over for the
 * next candidate, and said in the why (docs/library.md). GB_OK, or the code the call would fail
 * with (msg then in gb_blas_errmsg), or GB_EBADARG where len is too short for the text (buf then
 * holds as much as fits). */
GB_API int gb_blas_chosen(gb_blas_t *h, char precision, gb_blas_layout_t layout,
                          gb_blas_trans_t trans_a, gb_blas_trans_t trans_b, size_t m, size_t n,
                          size_t k, char *buf, size_t len);

/* The same, in parts: the kernel ("xgemm_nv"), its parameters ("NAME=V NAME=V", "" for its
 * defaults) and why ("tuned: ...", "measured: ..."). */
typedef struct gb_blas_choice {
    char kernel[96];
    char params[640];
    char why[640];
} gb_blas_choice_t;
GB_API int gb_blas_choose(gb_blas_t *h, char precision, gb_blas_layout_t layout,
                          gb_blas_trans_t trans_a, gb_blas_trans_t trans_b, size_t m, size_t n,
                          size_t k, gb_blas_choice_t *out);

/* How the handle chooses among the candidates the tuning database gives a new problem
 * (docs/library.md, "How the kernel is chosen"): the table's nearest entry alone (OFF), or a
 * choice measured before for the exact shape where there is one (CACHED, the default), or,
 * where there is none, by timing the candidates on buffers of the handle's own at the first call
 * of the shape (MEASURE: within a budget of about 20 of the shape's own calls, at least 100 ms
 * on a GPU, 1 s on a CPU; each candidate checked against a reference before it may win; the
 * choice kept in the choices file for the next calls and processes). With MEASURE, a candidate
 * whose program is not built yet is skipped and built in the background, and the shape is
 * measured again once it is; GB_BLAS_SELECT_BUILD or'd in builds it first. The environment
 * variable GEMMBENCH_SELECT (off, cached, measure, measure+build) sets the mode of every handle
 * opened after it. Not to be called while other threads make calls on the handle. */
typedef enum gb_blas_select {
    GB_BLAS_SELECT_OFF = 0,
    GB_BLAS_SELECT_CACHED = 1,
    GB_BLAS_SELECT_MEASURE = 2,
    GB_BLAS_SELECT_BUILD = 0x100
} gb_blas_select_t;
GB_API int gb_blas_set_select(gb_blas_t *h, int mode);

/* Reads the tuning file at path (what `gemmbench tune` writes beside the results store) and
 * adds its entries to the handle's, over those of the same key. At open the handle reads the
 * shipped entries, then the user's tuning file ($GEMMBENCH_TUNED, else the default store's,
 * results.db.tuned). A damaged line, or one naming a kernel this build lacks, is skipped and
 * said by gb_blas_warnings; a missing file adds nothing. GB_OK, or GB_EBADARG when path cannot
 * be read. Not to be called while other threads make calls on the handle. */
GB_API int gb_blas_load_tuned(gb_blas_t *h, const char *path);
/* What reading tuning files skipped, one line per file ("" when nothing was). Valid until the
 * next gb_blas_load_tuned. */
GB_API const char *gb_blas_warnings(const gb_blas_t *h);

#ifdef __cplusplus
}
#endif
#endif
