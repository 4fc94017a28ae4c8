/* intel_simd.cl: the Intel SGEMM sample's L3_SIMD kernels (L3_SIMD_32x2_1x8, L3_SIMD_16x2_1x8,
 * L3_SIMD_16x2_4x8, L3_SIMD_8x4_1x8, L3_SIMD_8x4_8x8, L3_SIMD_8x4_8x8_barrier), rewritten here
 * from their technique: column-major C = alpha*A*B + beta*C where the work-items of a sub-group
 * share data through intel_sub_group_shuffle (cl_intel_subgroups) instead of local memory, and
 * both operands come from global memory through the cache (the "L3").
 *
 * The kernel is compiled for sub-groups of exactly SG work-items
 * (intel_reqd_sub_group_size(SG)), and a work-group is SG x LY work-items: LY sub-groups. Lane
 * l of a sub-group computes TM rows x TN columns of C: rows rowg + l + SG*i (i < TM), so that
 * for each i the lanes touch SG neighbouring elements of a column, and the TN columns that
 * belong to its sub-group. A sub-group thus owns an (SG*TM) x TN tile of C and a work-group the
 * (SG*TM) x (TN*LY) tile whose rows of A its sub-groups share through the cache. K is walked SG
 * steps at a time: lane l loads B(k0 + l, j) for each of the sub-group's TN columns j (one
 * contiguous run of SG elements of each column), and for each step kk every lane obtains
 * B(k0 + kk, j) from lane kk with intel_sub_group_shuffle; it multiplies it by its own
 * A(row, k0 + kk), read from global memory. So each lane holds TM*TN accumulators and TN
 * values of B, and does TM*TN multiply-adds per TN shuffles. With BARRIER=1 the work-group
 * meets a barrier after every SG steps, which keeps its sub-groups in step so that the rows of
 * A they share stay in the cache. Preset names read rows x columns per work-item _ work-group
 * shape LY x SG.
 *
 * Which lane owns which rows, and which columns a sub-group owns, are taken from
 * get_sub_group_local_id() and get_sub_group_id() rather than the local ids, so the result does
 * not depend on how the driver forms sub-groups. The harness pads M to a multiple of SG*TM, N of
 * TN*LY and K of SG (metadata "multiple_of"): there are no edge checks, and every work-item of
 * the work-group runs every shuffle and barrier, as the extension requires of sub-group
 * functions (and as PoCL, which implements shuffles with work-group barriers, needs). */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 4
#endif
#ifndef SG
#define SG 8
#endif
#ifndef LY
#define LY 1
#endif
#ifndef BARRIER
#define BARRIER 0
#endif

kernel __attribute__((intel_reqd_sub_group_size(SG)))
__attribute__((reqd_work_group_size(SG, LY, 1)))
void intel_simd(const int M, const int N, const int K, const real alpha,
                global const real *restrict A, const int offA, const int lda,
                global const real *restrict B, const int offB, const int ldb,
                const real beta, global real *C, const int offC, const int ldc)
{
    const int lane = (int)get_sub_group_local_id();
    const int row0 = (int)get_group_id(0) * (SG * TM) + lane;
    const int col0 = ((int)get_group_id(1) * LY + (int)get_sub_group_id()) * TN;
    global const real *a = A + offA + row0;              /* A(row0 + SG*i, k) = a[k*lda + SG*i] */
    global const real *b = B + offB + col0 * ldb + lane; /* B(k0 + lane, col0 + c) = b[c*ldb + k0] */
    real acc[TN][TM];
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int i = 0; i < TM; i++)
            acc[c][i] = 0;
    for (int k0 = 0; k0 < K; k0 += SG) {
        real bl[TN];
#pragma unroll
        for (int c = 0; c < TN; c++)
            bl[c] = b[c * ldb + k0];
#pragma unroll
        for (int kk = 0; kk < SG; kk++) {
            real bk[TN];
#pragma unroll
            for (int c = 0; c < TN; c++)
                bk[c] = intel_sub_group_shuffle(bl[c], (uint)kk);
            global const real *ak = a + (k0 + kk) * lda;
#pragma unroll
            for (int i = 0; i < TM; i++) {
                const real av = ak[SG * i];
#pragma unroll
                for (int c = 0; c < TN; c++)
                    acc[c][i] = fma(av, bk[c], acc[c][i]);
            }
        }
#if BARRIER
        barrier(CLK_GLOBAL_MEM_FENCE);
#endif
    }
    global real *cp = C + offC + col0 * ldc + row0;
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int i = 0; i < TM; i++)
            GB_UPDATE(cp[c * ldc + SG * i], acc[c][i], alpha, beta);
}
