/* gemmbench_nt.cl: the GEMMbench NT kernels (SGEMM_NT_1x1, SGEMM_NT_4x1, SGEMM_NT_4x1_barrier
 * and their DGEMM counterparts), row-major C = alpha*A*B^T + beta*C with A (M x K) and B stored
 * as N x K, so that both operands are read along their rows.
 *
 * Each work-item computes DJ consecutive elements of one row i of C (the name's "DJx1"). It
 * walks K in vectors of VW elements: one vector of row i of A and one of each of DJ rows of B,
 * kept as DJ vector accumulators that are summed across lanes at the end. With BARRIER=1 every
 * work-item of a group meets a barrier after DK vector steps, which keeps the group in step so
 * that the rows it shares stay in cache. Unlike the original (which needed N a multiple of 128),
 * any M, N, K works: K's remainder is done in scalars, and work-items past the edge of C keep
 * meeting the barriers but read and write nothing. */
#ifndef DJ
#define DJ 4
#endif
#ifndef VW
#define VW 4
#endif
#ifndef BARRIER
#define BARRIER 0
#endif
#ifndef DK
#define DK 32
#endif
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 4
#endif

kernel void gemm_nt(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, const int offA, const int lda,
                    global const real *restrict B, const int offB, const int ldb,
                    const real beta, global real *C, const int offC, const int ldc)
{
    const int j0 = (int)get_global_id(0) * DJ, i = (int)get_global_id(1);
    const bool active = i < M && j0 < N;
    /* Rows of B past N are clamped to the last one: they are read but their sums discarded. */
    global const real *a = A + offA + min(i, M - 1) * lda;
    global const real *b[DJ];
#pragma unroll
    for (int d = 0; d < DJ; d++)
        b[d] = B + offB + min(j0 + d, N - 1) * ldb;
    REALV(VW) acc[DJ];
#pragma unroll
    for (int d = 0; d < DJ; d++)
        acc[d] = (REALV(VW))0;
    const int kv = K / VW;
#if BARRIER
    for (int k0 = 0; k0 < kv; k0 += DK) {
        const int kend = min(k0 + DK, kv);
        for (int k = k0; k < kend && active; k++) {
#else
    {
        for (int k = 0; k < kv; k++) {
#endif
            const REALV(VW) av = VLOAD(VW)(k, a);
#pragma unroll
            for (int d = 0; d < DJ; d++)
                acc[d] = fma(av, VLOAD(VW)(k, b[d]), acc[d]);
        }
#if BARRIER
        barrier(CLK_GLOBAL_MEM_FENCE);
#endif
    }
    if (!active)
        return;
    global real *c = C + offC + i * ldc + j0;
#pragma unroll
    for (int d = 0; d < DJ; d++) {
        real sum = HSUM(VW)(acc[d]);
        for (int k = kv * VW; k < K; k++)
            sum = fma(a[k], b[d][k], sum);
        if (j0 + d < N)
            GB_UPDATE(c[d], sum, alpha, beta);
    }
}
