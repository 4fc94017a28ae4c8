/* intel_naive.cl: the Intel SGEMM sample's naive kernel, rewritten here: column-major C =
 * alpha*A*B + beta*C, one work-item per element of C, reading a row of A and a column of B
 * straight from global memory (the caches do all the reuse). Dimension 0 runs down the columns
 * of C (its contiguous index) so neighbouring work-items read neighbouring elements of A and
 * write neighbouring elements of C; all of them read the same element of B. Work-items past
 * the edge of C return at once, so any M, N, K works. The baseline the sample's other kernels
 * are measured against. */
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 8
#endif

kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void intel_naive(const int M, const int N, const int K, const real alpha,
                 global const real *restrict A, const int offA, const int lda,
                 global const real *restrict B, const int offB, const int ldb,
                 const real beta, global real *C, const int offC, const int ldc)
{
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
    if (i >= M || j >= N)
        return;
    global const real *a = A + offA + i;           /* A(i, k) = a[k * lda] */
    global const real *b = B + offB + j * ldb;     /* B(k, j) = b[k] */
    real acc = 0;
    for (int k = 0; k < K; k++)
        acc = fma(a[k * lda], b[k], acc);
    GB_UPDATE(C[offC + j * ldc + i], acc, alpha, beta);
}
