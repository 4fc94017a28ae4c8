/* intel_slm.cl: the Intel SGEMM sample's L3_SLM kernels (L3_SLM_8x8_8x16, L3_SLM_8x8_4x16,
 * L3_SLM_8x8_16x16), rewritten here from their technique: column-major C = alpha*A*B + beta*C
 * with A staged in shared local memory (SLM) and B read from global memory through the cache
 * (the "L3" of Intel Processor Graphics).
 *
 * Each work-item computes a TM x TN block of C: TM consecutive rows (one contiguous run of a
 * column of C) of TN consecutive columns. The work-group is LX work-items down the rows
 * (dimension 0) by LY across the columns (dimension 1), so it owns a (TM*LX) x (TN*LY) tile of
 * C, and every work-item of a column of the work-group needs the same TM*LX rows of A. For each
 * block of KB steps along K, the whole work-group copies that TM*LX x KB slice of A into SLM,
 * each work-item taking every (LX*LY)-th element so that neighbours read neighbouring
 * addresses, meets a barrier, and then each work-item reads its TM rows of the slice from SLM
 * and its TN columns of B from global memory, accumulating TM*TN products per step in private
 * registers. Preset names read rows x columns per work-item _ work-group shape LY x LX.
 *
 * The harness pads M to a multiple of TM*LX, N of TN*LY and K of KB (metadata "multiple_of"),
 * so there are no edge checks and every work-item meets every barrier. */
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 8
#endif
#ifndef KB
#define KB 8
#endif

#define TR (TM * LX) /* rows of the work-group's tile */

kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void intel_slm(const int M, const int N, const int K, const real alpha,
               global const real *restrict A, const int offA, const int lda,
               global const real *restrict B, const int offB, const int ldb,
               const real beta, global real *C, const int offC, const int ldc)
{
    /* A(rowg + r, k0 + k) at tile[k * TR + r]. */
    local real tile[KB * TR];
    const int lid = (int)get_local_id(1) * LX + (int)get_local_id(0);
    const int rowg = (int)get_group_id(0) * TR;
    const int r0 = (int)get_local_id(0) * TM;
    const int col0 = (int)get_global_id(1) * TN;
    global const real *a = A + offA + rowg;        /* A(rowg + r, k) = a[k * lda + r] */
    global const real *b = B + offB + col0 * ldb;  /* B(k, col0 + c) = b[c * ldb + k] */
    real acc[TN][TM];
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int r = 0; r < TM; r++)
            acc[c][r] = 0;
    for (int k0 = 0; k0 < K; k0 += KB) {
        /* The same number of elements for every work-item (a constraint of the metadata). */
        /* The remainder as t - q * TR: Oclgrind's uninitialized-value checker cannot execute
         * the instruction a paired / and % become. */
        for (int t = lid; t < TR * KB; t += LX * LY) {
            const int q = t / TR;
            tile[t] = a[(k0 + q) * lda + (t - q * TR)];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < KB; k++) {
            real av[TM];
#pragma unroll
            for (int r = 0; r < TM; r++)
                av[r] = tile[k * TR + r0 + r];
#pragma unroll
            for (int c = 0; c < TN; c++) {
                const real bv = b[c * ldb + k0 + k];
#pragma unroll
                for (int r = 0; r < TM; r++)
                    acc[c][r] = fma(av[r], bv, acc[c][r]);
            }
        }
        /* Nobody overwrites the slice while a neighbour still reads it. */
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    global real *cp = C + offC + col0 * ldc + rowg + r0;
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int r = 0; r < TM; r++)
            GB_UPDATE(cp[c * ldc + r], acc[c][r], alpha, beta);
}
