/* thin_stream.cl: GEMM for a C of few rows (M up to about 64: decoding one or a few tokens
 * through a layer), row-major, op(B) = B. Such a product is bound by reading B (K x N) once, not
 * by arithmetic, so the kernel is a stream over B's rows rather than a tiled GEMM:
 *
 * - Work-item columns: each work-item owns VW neighbouring columns of C, read from each row of B
 *   as one VW-wide vector (B's leading dimension and offset are multiples of VW: the metadata's
 *   ld_multiple_of), TX work-items side by side, so a warp reads whole rows of B.
 * - Rows of C: a work-group computes MR rows of C at once (MR x VW accumulators per work-item),
 *   so B is read once per MR rows; the A values are the same for the whole work-group (uniform,
 *   cached loads). Row blocks are the grid's second dimension.
 * - K: each work-group's K range is cut into KG contiguous parts, one per row of work-items,
 *   whose sums are added in local memory in a fixed order; and K is split over P work-groups
 *   (the let P: enough groups for SLOTS a compute unit) whose bare sums go to the workspace,
 *   which thin_stream_sum adds in a fixed order before applying alpha and beta (P = 1: the
 *   group writes C itself). KU rows of B are loaded before their products, to keep loads in
 *   flight.
 *
 * thin_cols (the family with RW, which this source then builds instead) is the same stream with
 * the roles of rows and columns exchanged, for a C of few columns (N up to about 16: a tall
 * product, or the transpose of a decode step), bound by reading A (M x K) once: each work-item
 * owns RW rows of C, TX apart (a warp's work-items hold neighbouring rows, so where A is stored
 * K x M, row-TN, its loads run along storage rows), and the VW columns of its group's column
 * block, whose B values are the same for the whole work-group (uniform, cached loads); column
 * blocks are the grid's second dimension.
 *
 * thin_dot (the family with KL) is the product thin_cols computes, for A stored along K
 * (row-major NN), where thin_cols' loads would each touch as many cache lines as a warp has
 * work-items: a work-group is RL rows of KL work-items; those of a row lie along K, each reading
 * every KL-th element of its RW rows of C (RL apart; so KL neighbouring work-items read one
 * contiguous run of a row) and the matching rows of B, which the group's RL rows of work-items
 * share (the same addresses); the KL work-items' sums of each row are added in local memory by
 * halves.
 *
 * A may be transposed (GB_TRANS_A); rows of C past M read row M - 1 of A (so that every load
 * is in bounds and uniform) and are not written. Any M, N, K. */
#ifndef VW
#define VW 4
#endif
#ifndef TX
#define TX 64
#endif
#ifndef KG
#define KG 4
#endif
#ifndef MR
#define MR 16
#endif
#ifndef KU
#define KU 4
#endif

#if GB_TRANS_A
#define A_AT(m, k) A[(k) * lda + (m)]
#else
#define A_AT(m, k) A[(m) * lda + (k)]
#endif

/* Row k of B at this work-item's columns: an aligned vector inside N, guarded scalars at its
 * edge (edge is a constant at each call, so the compiler keeps the two loops apart). */
static inline REALV(VW) b_row(global const real *restrict B, const int ldb, const int k,
                              const int n0, const int N, const int edge)
{
    global const real *b = B + k * ldb + n0;
    if (!edge)
        return *(global const REALV(VW) *)b;
    real t[VW];
#pragma unroll
    for (int j = 0; j < VW; j++)
        t[j] = n0 + j < N ? b[j] : (real)0;
    return VLOAD(VW)(0, t);
}

/* Row m of C at columns n0.. (those inside N): the group's sums v into piece p of the workspace
 * where K is split (P > 1), else into C with alpha and beta. */
static inline void put_row(const REALV(VW) v, const int m, const int M, const int n0, const int N,
                           global real *WS, const int p, const int P, global real *C, const int ldc,
                           const real alpha, const real beta)
{
    real t[VW];
    VSTORE(VW)(v, 0, t);
    if (P > 1) {
        global real *w = WS + ((size_t)p * M + m) * N + n0;
#pragma unroll
        for (int j = 0; j < VW; j++)
            if (n0 + j < N)
                w[j] = t[j];
    } else {
        global real *c = C + m * ldc + n0;
#pragma unroll
        for (int j = 0; j < VW; j++)
            if (n0 + j < N)
                GB_UPDATE(c[j], t[j], alpha, beta);
    }
}

#ifdef KL
/* thin_dot: acc[r] += A(m0 + RL r, k) B(k, n0..) over this work-item's k in [k0, k1): k0 + tx,
 * then every KL-th, KU of them loaded before their products; rows past M read row M - 1. */
static inline void dot(REALV(VW) acc[RW], global const real *restrict A, const int lda,
                       global const real *restrict B, const int ldb, const int M, const int N,
                       const int m0, const int n0, int k, const int k1, const int tx,
                       const int edge)
{
    global const real *a[RW];
#pragma unroll
    for (int r = 0; r < RW; r++)
        a[r] = A + min(m0 + RL * r, M - 1) * lda;
    for (; k + KL * KU <= k1; k += KL * KU) {
        REALV(VW) b[KU];
#pragma unroll
        for (int u = 0; u < KU; u++)
            b[u] = b_row(B, ldb, k + KL * u + tx, n0, N, edge);
#pragma unroll
        for (int r = 0; r < RW; r++)
#pragma unroll
            for (int u = 0; u < KU; u++)
                acc[r] = fma((REALV(VW))a[r][k + KL * u + tx], b[u], acc[r]);
    }
    for (k += tx; k < k1; k += KL) {
        const REALV(VW) b = b_row(B, ldb, k, n0, N, edge);
#pragma unroll
        for (int r = 0; r < RW; r++)
            acc[r] = fma((REALV(VW))a[r][k], b, acc[r]);
    }
}

kernel __attribute__((reqd_work_group_size(KL, RL, 1))) void
thin_dot(const int M, const int N, const int K, const real alpha, global const real *restrict A,
         const int offA, const int lda, global const real *restrict B, const int offB,
         const int ldb, const real beta, global real *C, const int offC, const int ldc,
         global real *WS, const int P)
{
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int block = (int)get_group_id(1) / P, p = (int)get_group_id(1) - block * P;
    const int m0 = (int)get_group_id(0) * RL * RW + ty, n0 = block * VW;
    A += offA;
    B += offB;

    /* This piece's K range, in whole steps of KL KU elements. */
    const int piece = ((K + P - 1) / P + KL * KU - 1) / (KL * KU) * (KL * KU);
    const int k0 = min(K, p * piece), k1 = min(K, k0 + piece);

    REALV(VW) acc[RW];
#pragma unroll
    for (int r = 0; r < RW; r++)
        acc[r] = (REALV(VW))0;
    if (n0 + VW <= N)
        dot(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, tx, 0);
    else
        dot(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, tx, 1);

    /* Each row's sums over the KL work-items along K, added by halves (a fixed order), one
     * row at a time (local memory for one); work-item 0 of each row of work-items keeps them. */
    local REALV(VW) red[RL][KL];
#pragma unroll
    for (int r = 0; r < RW; r++) {
        red[ty][tx] = acc[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = KL / 2; h > 0; h /= 2) {
            if (tx < h)
                red[ty][tx] += red[ty][tx + h];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        acc[r] = red[ty][0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tx != 0)
        return;
#pragma unroll
    for (int r = 0; r < RW; r++) {
        const int m = m0 + RL * r;
        if (m >= M)
            break;
        put_row(acc[r], m, M, n0, N, WS, p, P, C + offC, ldc, alpha, beta);
    }
}
#else
#ifdef RW
/* thin_cols: a work-item's RW rows of C, TX apart from its first. */
#define NR RW
#define ROW(m0, r) ((m0) + TX * (r))
#define ENTRY thin_cols
#else
/* thin_stream: the work-group's MR rows of C. */
#define NR MR
#define ROW(m0, r) ((m0) + (r))
#define ENTRY thin_stream
#endif

/* acc[r] += A(ROW(m0, r), k) B(k, n0..) over k in [k0, k1), rows past M reading row M - 1. */
static inline void stream(REALV(VW) acc[NR], global const real *restrict A, const int lda,
                          global const real *restrict B, const int ldb, const int M, const int N,
                          const int m0, const int n0, int k, const int k1, const int edge)
{
    int row[NR];
#pragma unroll
    for (int r = 0; r < NR; r++)
        row[r] = min(ROW(m0, r), M - 1);
    for (; k + KU <= k1; k += KU) {
        REALV(VW) b[KU];
#pragma unroll
        for (int u = 0; u < KU; u++)
            b[u] = b_row(B, ldb, k + u, n0, N, edge);
#pragma unroll
        for (int r = 0; r < NR; r++)
#pragma unroll
            for (int u = 0; u < KU; u++)
                acc[r] = fma((REALV(VW))A_AT(row[r], k + u), b[u], acc[r]);
    }
    for (; k < k1; k++) {
        const REALV(VW) b = b_row(B, ldb, k, n0, N, edge);
#pragma unroll
        for (int r = 0; r < NR; r++)
            acc[r] = fma((REALV(VW))A_AT(row[r], k), b, acc[r]);
    }
}

kernel __attribute__((reqd_work_group_size(TX, KG, 1))) void
ENTRY(const int M, const int N, const int K, const real alpha, global const real *restrict A,
      const int offA, const int lda, global const real *restrict B, const int offB, const int ldb,
      const real beta, global real *C, const int offC, const int ldc, global real *WS, const int P)
{
    const int tx = (int)get_local_id(0), g = (int)get_local_id(1);
    const int block = (int)get_group_id(1) / P, p = (int)get_group_id(1) - block * P;
#ifdef RW
    /* Row blocks of TX RW rows along the grid's first dimension, column blocks the second. */
    const int m0 = (int)get_group_id(0) * TX * RW + tx, n0 = block * VW;
#else
    const int n0 = ((int)get_group_id(0) * TX + tx) * VW, m0 = block * MR;
#endif
    A += offA;
    B += offB;

    /* This piece's K range, then this row of work-items' part of it (whole KU steps). */
    const int piece = (K + P - 1) / P, part = ((piece + KG - 1) / KG + KU - 1) / KU * KU;
    const int pk1 = min(K, (p + 1) * piece);
    const int k0 = min(pk1, p * piece + g * part), k1 = min(pk1, k0 + part);

    REALV(VW) acc[NR];
#pragma unroll
    for (int r = 0; r < NR; r++)
        acc[r] = (REALV(VW))0;
    if (n0 + VW <= N)
        stream(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, 0);
    else if (n0 < N)
        stream(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, 1);

#if KG > 1
    /* The rows of work-items' sums, added to row 0's in a fixed order (KG - 1 first). */
    local REALV(VW) red[NR][TX];
    for (int h = KG - 1; h > 0; h--) {
        if (g == h)
#pragma unroll
            for (int r = 0; r < NR; r++)
                red[r][tx] = acc[r];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (g == 0)
#pragma unroll
            for (int r = 0; r < NR; r++)
                acc[r] += red[r][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
    if (g != 0 || n0 >= N)
        return;
#pragma unroll
    for (int r = 0; r < NR; r++) {
        const int m = ROW(m0, r);
        if (m >= M)
            break;
        put_row(acc[r], m, M, n0, N, WS, p, P, C + offC, ldc, alpha, beta);
    }
}
#endif

/* The pieces' sums of C(m, n), added in order p = 0 .. P - 1; then alpha and beta. */
kernel void thin_stream_sum(const int M, const int N, const int K, const real alpha,
                            global const real *restrict A, const int offA, const int lda,
                            global const real *restrict B, const int offB, const int ldb,
                            const real beta, global real *C, const int offC, const int ldc,
                            global real *WS, const int P)
{
    const int n = (int)get_global_id(0), m = (int)get_global_id(1);
    if (n >= N || m >= M)
        return;
    real s = 0;
    for (int p = 0; p < P; p++)
        s += WS[((size_t)p * M + m) * N + n];
    GB_UPDATE(C[offC + m * ldc + n], s, alpha, beta);
}
