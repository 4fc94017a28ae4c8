/* naive.cl: one work-item per element of C, reading a row of op(A) and a column of op(B)
 * straight from global memory. Any layout and transposition, chosen at build time by
 * GB_ROW_MAJOR, GB_TRANS_A and GB_TRANS_B. Dimension 0 runs along C's contiguous index so
 * neighbouring work-items write neighbouring addresses. The baseline every other kernel beats.
 * Elements are read and written through the prelude's storage helpers, so FP16 and bfloat16
 * (GB_STORAGE) are summed in float and rounded once when C is written (hh: each sum rounded to
 * FP16 by GB_SUM). Complex (GB_COMPLEX)
 * elements are real2s summed with the prelude's GB_CMAD, conjugated where GB_CONJ_A/B say. */
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 16
#endif

#if GB_ROW_MAJOR
#define AT(ld, r, c) ((r) * (ld) + (c))
#else
#define AT(ld, r, c) ((c) * (ld) + (r))
#endif
#if GB_TRANS_A
#define OPA(i, k) GB_LOAD(A, offA + AT(lda, k, i))
#else
#define OPA(i, k) GB_LOAD(A, offA + AT(lda, i, k))
#endif
#if GB_TRANS_B
#define OPB(k, j) GB_LOAD(B, offB + AT(ldb, j, k))
#else
#define OPB(k, j) GB_LOAD(B, offB + AT(ldb, k, j))
#endif

kernel void gemm_naive(const int M, const int N, const int K, const scalar alpha,
                       global const stored *restrict A, const int offA, const int lda,
                       global const stored *restrict B, const int offB, const int ldb,
                       const scalar beta, global stored *C, const int offC, const int ldc)
{
#if GB_ROW_MAJOR
    const int i = (int)get_global_id(1), j = (int)get_global_id(0);
#else
    const int i = (int)get_global_id(0), j = (int)get_global_id(1);
#endif
    if (i >= M || j >= N)
        return;
#if GB_COMPLEX
    real2 acc = 0;
    for (int k = 0; k < K; k++)
        GB_CMAD(acc, GB_OPA(OPA(i, k)), GB_OPB(OPB(k, j)));
#else
    real acc = 0;
    for (int k = 0; k < K; k++)
        acc = GB_SUM(fma(OPA(i, k), OPB(k, j), acc));
#endif
    GB_UPDATE_AT(C, offC + AT(ldc, i, j), acc, alpha, beta);
}
