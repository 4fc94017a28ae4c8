/* cpu_rb.cl: row-major NN GEMM for CPU devices (PoCL), written as a BLAS micro-kernel is: each
 * work-item owns an MR x (NV*VW) block of C held in MR*NV vector accumulators (VW elements each,
 * one SIMD register on the target where VW matches its width), and walks K one step at a time:
 * NV vector loads of B's row k, MR scalar loads of A's column k broadcast, MR*NV fused
 * multiply-adds. No local memory: a CPU's caches serve the reuse. The work-items of a group
 * (LX along dimension 0) share the same rows of A, or with WALKM the same columns of B: then a
 * K x NR panel of B stays in cache while the groups walk down M and A streams, which moves
 * MR/NR as many bytes per FLOP from memory as streaming B does (bench/notes/cpu.md#cpu-rb-walkm: 2x
 * at 1024 for 8 x 48 blocks). A panel's rows lie ldb apart in B, so at large ldb they fall in a few
 * cache sets and the panel does not stay in cache: with PACKB a prologue kernel (cpu_rb_pack) first
 * copies B into the workspace WS as panels, panel p holding B's columns p*NR .. p*NR + NR - 1 for
 * every k, NR elements a row, contiguous, as BLAS libraries pack B. M and N are whole blocks: the
 * harness pads the problem (multiple_of), which costs copies of O(n^2) where a scalar path for the
 * edge blocks cost up to 3x at sizes that are not (bench/notes/cpu.md#cpu-rb-padded); other layouts
 * reach it through the harness's transposition passes. */
#ifndef MR
#define MR 14 /* rows of C per work-item */
#endif
#ifndef NV
#define NV 2 /* vectors of C per row */
#endif
#ifndef VW
#define VW 16 /* elements per vector */
#endif
#ifndef KU
#define KU 1 /* K steps unrolled */
#endif
#ifndef LX
#define LX 4 /* work-items per group, along dimension 0 */
#endif
#ifndef WALKM
#define WALKM 0 /* 1: dimension 0 walks M, so that neighbouring work-items share B's columns */
#endif
#ifndef PACKB
#define PACKB 0 /* 1: B is read from the panels the prologue packed into WS */
#endif

#define NR (NV * VW)
typedef REALV(VW) vec;

__attribute__((reqd_work_group_size(LX, 1, 1))) kernel void cpu_rb(
    const int M, const int N, const int K, const real alpha, global const real *restrict A,
    const int offA, const int lda, global const real *restrict B, const int offB, const int ldb,
    const real beta, global real *C, const int offC, const int ldc, global real *WS)
{
#if WALKM
    const int n0 = (int)get_global_id(1) * NR, m0 = (int)get_global_id(0) * MR;
#else
    const int n0 = (int)get_global_id(0) * NR, m0 = (int)get_global_id(1) * MR;
#endif
    if (m0 >= M || n0 >= N)
        return;
    A += offA;
    B += offB;
    C += offC;
    vec acc[MR][NV];
#pragma unroll
    for (int i = 0; i < MR; i++)
#pragma unroll
        for (int v = 0; v < NV; v++)
            acc[i][v] = (vec)0;
    global const real *a = A + m0 * lda;
#if PACKB
    global const real *b = WS + (size_t)n0 * K; /* its panel: K rows of NR */
    const int bstride = NR;
#else
    global const real *b = B + n0;
    const int bstride = ldb;
#endif
#pragma unroll KU
    for (int k = 0; k < K; k++) {
        vec bv[NV];
#pragma unroll
        for (int v = 0; v < NV; v++)
            bv[v] = VLOAD(VW)(0, b + k * bstride + v * VW);
#pragma unroll
        for (int i = 0; i < MR; i++) {
            const vec av = (vec)a[i * lda + k];
#pragma unroll
            for (int v = 0; v < NV; v++)
                acc[i][v] = fma(av, bv[v], acc[i][v]);
        }
    }
#pragma unroll
    for (int i = 0; i < MR; i++)
#pragma unroll
        for (int v = 0; v < NV; v++) {
            global real *c = C + (m0 + i) * ldc + n0 + v * VW;
            const vec r = alpha * acc[i][v];
            VSTORE(VW)(beta == (real)0 ? r : r + beta * VLOAD(VW)(0, c), 0, c);
        }
}

/* The prologue with PACKB: work-item (v, k) copies the k-th row of vector v of B (VW elements,
 * columns v*VW ..) into its panel: panel n / NR, row k, at n % NR. */
kernel void cpu_rb_pack(const int M, const int N, const int K, const real alpha,
                        global const real *restrict A, const int offA, const int lda,
                        global const real *restrict B, const int offB, const int ldb,
                        const real beta, global real *C, const int offC, const int ldc,
                        global real *WS)
{
    const int n = (int)get_global_id(0) * VW, k = (int)get_global_id(1);
    if (n >= N || k >= K)
        return;
    const vec x = VLOAD(VW)(0, B + offB + (size_t)k * ldb + n);
    VSTORE(VW)(x, 0, WS + (size_t)(n / NR) * K * NR + k * NR + n % NR);
}
