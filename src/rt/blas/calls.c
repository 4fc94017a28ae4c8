/* calls.c: the library's public GEMM functions (gemmbench_blas.h), one per precision and form:
 * each converts its scalars to gb_blas_scalar_t and calls its form's entry (gemm.c), which checks,
 * plans and launches alike for every precision. The batched forms pass their arrays of scalars
 * as they are, read by their precision (gb_blas__scalar_at). */
#include "blas_int.h"

static gb_blas_scalar_t real(double x)
{
    return (gb_blas_scalar_t){x, 0.0};
}

static gb_blas_scalar_t of_float2(cl_float2 x)
{
    return gb_blas__scalar_at(GB_PREC_C, &x, 0);
}

static gb_blas_scalar_t of_double2(cl_double2 x)
{
    return gb_blas__scalar_at(GB_PREC_Z, &x, 0);
}

int gb_sgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
             size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_sgemm", h, GB_PREC_S, layout, trans_a, trans_b, m, n, k,
                         real((double)alpha), a, a_off, lda, b, b_off, ldb, real((double)beta), c,
                         c_off, ldc, queue, num_wait, wait, event);
}

int gb_dgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, double alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, double beta, cl_mem c,
             size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_dgemm", h, GB_PREC_D, layout, trans_a, trans_b, m, n, k, real(alpha),
                         a, a_off, lda, b, b_off, ldb, real(beta), c, c_off, ldc, queue, num_wait,
                         wait, event);
}

int gb_hgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
             size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_hgemm", h, GB_PREC_H, layout, trans_a, trans_b, m, n, k,
                         real((double)alpha), a, a_off, lda, b, b_off, ldb, real((double)beta), c,
                         c_off, ldc, queue, num_wait, wait, event);
}

int gb_bgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, float beta, cl_mem c,
             size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_bgemm", h, GB_PREC_B, layout, trans_a, trans_b, m, n, k,
                         real((double)alpha), a, a_off, lda, b, b_off, ldb, real((double)beta), c,
                         c_off, ldc, queue, num_wait, wait, event);
}

int gb_cgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, cl_float2 alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, cl_float2 beta, cl_mem c,
             size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_cgemm", h, GB_PREC_C, layout, trans_a, trans_b, m, n, k,
                         of_float2(alpha), a, a_off, lda, b, b_off, ldb, of_float2(beta), c, c_off,
                         ldc, queue, num_wait, wait, event);
}

int gb_zgemm(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, cl_double2 alpha, cl_mem a,
             size_t a_off, size_t lda, cl_mem b, size_t b_off, size_t ldb, cl_double2 beta,
             cl_mem c, size_t c_off, size_t ldc, cl_command_queue queue, cl_uint num_wait,
             const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm("gb_zgemm", h, GB_PREC_Z, layout, trans_a, trans_b, m, n, k,
                         of_double2(alpha), a, a_off, lda, b, b_off, ldb, of_double2(beta), c,
                         c_off, ldc, queue, num_wait, wait, event);
}

int gb_sgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, const float *alphas,
                     cl_mem a, const size_t *a_offs, size_t lda, cl_mem b, const size_t *b_offs,
                     size_t ldb, const float *betas, cl_mem c, const size_t *c_offs, size_t ldc,
                     size_t count, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                     cl_event *event)
{
    return gb_blas__gemm_batched("gb_sgemm_batched", h, GB_PREC_S, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_dgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, const double *alphas,
                     cl_mem a, const size_t *a_offs, size_t lda, cl_mem b, const size_t *b_offs,
                     size_t ldb, const double *betas, cl_mem c, const size_t *c_offs, size_t ldc,
                     size_t count, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                     cl_event *event)
{
    return gb_blas__gemm_batched("gb_dgemm_batched", h, GB_PREC_D, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_hgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, const float *alphas,
                     cl_mem a, const size_t *a_offs, size_t lda, cl_mem b, const size_t *b_offs,
                     size_t ldb, const float *betas, cl_mem c, const size_t *c_offs, size_t ldc,
                     size_t count, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                     cl_event *event)
{
    return gb_blas__gemm_batched("gb_hgemm_batched", h, GB_PREC_H, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_bgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, const float *alphas,
                     cl_mem a, const size_t *a_offs, size_t lda, cl_mem b, const size_t *b_offs,
                     size_t ldb, const float *betas, cl_mem c, const size_t *c_offs, size_t ldc,
                     size_t count, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                     cl_event *event)
{
    return gb_blas__gemm_batched("gb_bgemm_batched", h, GB_PREC_B, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_cgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, const cl_float2 *alphas,
                     cl_mem a, const size_t *a_offs, size_t lda, cl_mem b, const size_t *b_offs,
                     size_t ldb, const cl_float2 *betas, cl_mem c, const size_t *c_offs, size_t ldc,
                     size_t count, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                     cl_event *event)
{
    return gb_blas__gemm_batched("gb_cgemm_batched", h, GB_PREC_C, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_zgemm_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                     gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                     const cl_double2 *alphas, cl_mem a, const size_t *a_offs, size_t lda, cl_mem b,
                     const size_t *b_offs, size_t ldb, const cl_double2 *betas, cl_mem c,
                     const size_t *c_offs, size_t ldc, size_t count, cl_command_queue queue,
                     cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    return gb_blas__gemm_batched("gb_zgemm_batched", h, GB_PREC_Z, layout, trans_a, trans_b, m, n,
                                 k, alphas, a, a_offs, lda, b, b_offs, ldb, betas, c, c_offs, ldc,
                                 count, queue, num_wait, wait, event);
}

int gb_sgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha,
                             cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b,
                             size_t b_off, size_t ldb, size_t b_stride, float beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_sgemm_strided_batched", h, GB_PREC_S, layout, trans_a, trans_b,
                                 m, n, k, real((double)alpha), a, a_off, lda, a_stride, b, b_off,
                                 ldb, b_stride, real((double)beta), c, c_off, ldc, c_stride, count,
                                 queue, num_wait, wait, event);
}

int gb_dgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, double alpha,
                             cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b,
                             size_t b_off, size_t ldb, size_t b_stride, double beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_dgemm_strided_batched", h, GB_PREC_D, layout, trans_a, trans_b,
                                 m, n, k, real(alpha), a, a_off, lda, a_stride, b, b_off, ldb,
                                 b_stride, real(beta), c, c_off, ldc, c_stride, count, queue,
                                 num_wait, wait, event);
}

int gb_hgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha,
                             cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b,
                             size_t b_off, size_t ldb, size_t b_stride, float beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_hgemm_strided_batched", h, GB_PREC_H, layout, trans_a, trans_b,
                                 m, n, k, real((double)alpha), a, a_off, lda, a_stride, b, b_off,
                                 ldb, b_stride, real((double)beta), c, c_off, ldc, c_stride, count,
                                 queue, num_wait, wait, event);
}

int gb_bgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, float alpha,
                             cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b,
                             size_t b_off, size_t ldb, size_t b_stride, float beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_bgemm_strided_batched", h, GB_PREC_B, layout, trans_a, trans_b,
                                 m, n, k, real((double)alpha), a, a_off, lda, a_stride, b, b_off,
                                 ldb, b_stride, real((double)beta), c, c_off, ldc, c_stride, count,
                                 queue, num_wait, wait, event);
}

int gb_cgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, cl_float2 alpha,
                             cl_mem a, size_t a_off, size_t lda, size_t a_stride, cl_mem b,
                             size_t b_off, size_t ldb, size_t b_stride, cl_float2 beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_cgemm_strided_batched", h, GB_PREC_C, layout, trans_a, trans_b,
                                 m, n, k, of_float2(alpha), a, a_off, lda, a_stride, b, b_off, ldb,
                                 b_stride, of_float2(beta), c, c_off, ldc, c_stride, count, queue,
                                 num_wait, wait, event);
}

int gb_zgemm_strided_batched(gb_blas_t *h, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                             gb_blas_trans_t trans_b, size_t m, size_t n, size_t k,
                             cl_double2 alpha, cl_mem a, size_t a_off, size_t lda, size_t a_stride,
                             cl_mem b, size_t b_off, size_t ldb, size_t b_stride, cl_double2 beta,
                             cl_mem c, size_t c_off, size_t ldc, size_t c_stride, size_t count,
                             cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                             cl_event *event)
{
    return gb_blas__gemm_strided("gb_zgemm_strided_batched", h, GB_PREC_Z, layout, trans_a, trans_b,
                                 m, n, k, of_double2(alpha), a, a_off, lda, a_stride, b, b_off, ldb,
                                 b_stride, of_double2(beta), c, c_off, ldc, c_stride, count, queue,
                                 num_wait, wait, event);
}
