/* thin_stream.cl: GEMM for a C of few rows (M up to about 64: decoding one or a few tokens
 * through a layer), row-major, op(B) = B. Such a product is bound by reading B (K x N) once, not
 * by arithmetic, so the kernel is a stream over B's rows rather than a tiled GEMM:
 *
 * - Work-item columns: each work-item owns VW neighbouring columns of C, read from each row of B
 *   as one VW-wide vector (an aligned load where B's leading dimension and offset are multiples
 *   of VW, else vloadn's), TX work-items side by side, so a warp reads whole rows of B.
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
 * is in bounds and uniform) and are not written. Any M, N, K.
 *
 * thin_stream and thin_dot also take complex elements (GB_COMPLEX: c and z, read as they are
 * stored): a work-item's VW columns are then 2 VW reals of each row of B, read as one vector b;
 * a(k) b is a.x b plus a.y times b with each element's parts exchanged and the first negated,
 * two vector multiply-adds in the order of the prelude's GB_CMAD. */
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

#if GB_COMPLEX
#if defined(RW) && !defined(KL)
#error "thin_cols takes real elements only"
#endif
#define EL 2 /* reals an element */
/* CW, the reals of a work-item's columns in a row (a literal, for REALV's pasting), and each
 * element's parts exchanged in a vector of them. */
#if VW == 1
#define CW 2
#define SWAP(v) (v).s10
#elif VW == 2
#define CW 4
#define SWAP(v) (v).s1032
#elif VW == 4
#define CW 8
#define SWAP(v) (v).s10325476
#elif VW == 8
#define CW 16
#define SWAP(v) (v).s1032547698badcfe
#else
#error "complex elements take VW 1, 2, 4 or 8"
#endif
/* (-1, 1, -1, 1, ..): the imaginary part of a times b's parts exchanged adds -a.y b.y to the
 * real part and a.y b.x to the imaginary one. */
static inline REALV(CW) alt(void)
{
    real t[CW];
#pragma unroll
    for (int j = 0; j < CW; j++)
        t[j] = j % 2 ? (real)1 : (real)-1;
    return VLOAD(CW)(0, t);
}
/* acc += a(k) b: the real parts' products, then the imaginary parts' (GB_CMAD's order). */
#define MAD(acc, a, b)                                                                   \
    do {                                                                                 \
        const real2 ga_ = GB_OPA(a);                                                     \
        (acc) = fma((REALV(CW))ga_.x, (b), (acc));                                       \
        (acc) = fma((REALV(CW))ga_.y * alt(), SWAP(b), (acc));                             \
    } while (0)
/* Element j of a row's sums t (CW reals). */
#define ELEM_AT(t, j) ((real2)((t)[2 * (j)], (t)[2 * (j) + 1]))
#else
#define EL 1
#define CW VW
#define MAD(acc, a, b) ((acc) = fma((REALV(CW))(a), (b), (acc)))
#define ELEM_AT(t, j) ((t)[j])
#endif

/* How a row's CW reals are read (a constant at each call, so that the compiler keeps the loops
 * apart): an aligned vector inside N, vloadn's (element-aligned) inside N where B's leading
 * dimension or offset is not a multiple of VW, guarded scalars at N's edge. */
#define B_VEC 0
#define B_UNALIGNED 1
#define B_EDGE 2
/* Whether B's rows can be read as aligned vectors: its leading dimension and offset multiples of
 * VW (the buffer itself is aligned). */
#define B_ALIGNED(ldb, offB) ((ldb) % VW == 0 && (offB) % VW == 0)

/* Row k of B at this work-item's columns (element n0 on: CW reals), read as mode says; a complex
 * B conjugated where GB_CONJ_B says. */
static inline REALV(CW) b_row(global const real *restrict B, const int ldb, const int k,
                              const int n0, const int N, const int mode)
{
    global const real *b = B + (k * ldb + n0) * EL;
    REALV(CW) v;
    if (mode == B_VEC) {
        v = *(global const REALV(CW) *)b;
    } else if (mode == B_UNALIGNED) {
        v = VLOAD(CW)(0, b);
    } else {
        real t[CW];
#pragma unroll
        for (int j = 0; j < CW; j++)
            t[j] = n0 + j / EL < N ? b[j] : (real)0;
        v = VLOAD(CW)(0, t);
    }
#if GB_COMPLEX && GB_CONJ_B
    v = v * -alt();
#endif
    return v;
}

/* Row m of C at columns n0.. (those inside N): the group's sums v into piece p of the workspace
 * where K is split (P > 1), else into C with alpha and beta. */
static inline void put_row(const REALV(CW) v, const int m, const int M, const int n0, const int N,
                           global real *WS, const int p, const int P, global stored *C,
                           const int ldc, const scalar alpha, const scalar beta)
{
    real t[CW];
    VSTORE(CW)(v, 0, t);
    if (P > 1) {
        global real *w = WS + (((size_t)p * M + m) * N + n0) * EL;
#pragma unroll
        for (int j = 0; j < CW; j++)
            if (n0 + j / EL < N)
                w[j] = t[j];
    } else {
        global stored *c = C + m * ldc + n0;
#pragma unroll
        for (int j = 0; j < VW; j++)
            if (n0 + j < N)
                GB_UPDATE_AT(c, j, ELEM_AT(t, j), alpha, beta);
    }
}

#ifdef KL
/* thin_dot: acc[r] += A(m0 + RL r, k) B(k, n0..) over this work-item's k in [k0, k1): k0 + tx,
 * then every KL-th, KU of them loaded before their products; rows past M read row M - 1. */
static inline void dot(REALV(CW) acc[RW], global const stored *restrict A, const int lda,
                       global const real *restrict B, const int ldb, const int M, const int N,
                       const int m0, const int n0, int k, const int k1, const int tx,
                       const int mode)
{
    global const stored *a[RW];
#pragma unroll
    for (int r = 0; r < RW; r++)
        a[r] = A + min(m0 + RL * r, M - 1) * lda;
    for (; k + KL * KU <= k1; k += KL * KU) {
        REALV(CW) b[KU];
#pragma unroll
        for (int u = 0; u < KU; u++)
            b[u] = b_row(B, ldb, k + KL * u + tx, n0, N, mode);
#pragma unroll
        for (int r = 0; r < RW; r++)
#pragma unroll
            for (int u = 0; u < KU; u++)
                MAD(acc[r], a[r][k + KL * u + tx], b[u]);
    }
    for (k += tx; k < k1; k += KL) {
        const REALV(CW) b = b_row(B, ldb, k, n0, N, mode);
#pragma unroll
        for (int r = 0; r < RW; r++)
            MAD(acc[r], a[r][k], b);
    }
}

kernel __attribute__((reqd_work_group_size(KL, RL, 1))) void
thin_dot(const int M, const int N, const int K, const scalar alpha,
         global const stored *restrict A, const int offA, const int lda,
         global const stored *restrict B0, const int offB, const int ldb, const scalar beta,
         global stored *C, const int offC, const int ldc, global real *WS, const int P)
{
    const int tx = (int)get_local_id(0), ty = (int)get_local_id(1);
    const int block = (int)get_group_id(1) / P, p = (int)get_group_id(1) - block * P;
    const int m0 = (int)get_group_id(0) * RL * RW + ty, n0 = block * VW;
    A += offA;
    global const real *B = (global const real *)(B0 + offB); /* rows read as vectors of reals */

    /* This piece's K range, in whole steps of KL KU elements. */
    const int piece = ((K + P - 1) / P + KL * KU - 1) / (KL * KU) * (KL * KU);
    const int k0 = min(K, p * piece), k1 = min(K, k0 + piece);

    REALV(CW) acc[RW];
#pragma unroll
    for (int r = 0; r < RW; r++)
        acc[r] = (REALV(CW))0;
    if (n0 + VW > N)
        dot(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, tx, B_EDGE);
    else if (B_ALIGNED(ldb, offB))
        dot(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, tx, B_VEC);
    else
        dot(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, tx, B_UNALIGNED);

    /* Each row's sums over the KL work-items along K, added by halves (a fixed order), one
     * row at a time (local memory for one); work-item 0 of each row of work-items keeps them. */
    local REALV(CW) red[RL][KL];
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
static inline void stream(REALV(CW) acc[NR], global const stored *restrict A, const int lda,
                          global const real *restrict B, const int ldb, const int M, const int N,
                          const int m0, const int n0, int k, const int k1, const int mode)
{
    int row[NR];
#pragma unroll
    for (int r = 0; r < NR; r++)
        row[r] = min(ROW(m0, r), M - 1);
    for (; k + KU <= k1; k += KU) {
        REALV(CW) b[KU];
#pragma unroll
        for (int u = 0; u < KU; u++)
            b[u] = b_row(B, ldb, k + u, n0, N, mode);
#pragma unroll
        for (int r = 0; r < NR; r++)
#pragma unroll
            for (int u = 0; u < KU; u++)
                MAD(acc[r], A_AT(row[r], k + u), b[u]);
    }
    for (; k < k1; k++) {
        const REALV(CW) b = b_row(B, ldb, k, n0, N, mode);
#pragma unroll
        for (int r = 0; r < NR; r++)
            MAD(acc[r], A_AT(row[r], k), b);
    }
}

kernel __attribute__((reqd_work_group_size(TX, KG, 1))) void
ENTRY(const int M, const int N, const int K, const scalar alpha, global const stored *restrict A,
      const int offA, const int lda, global const stored *restrict B0, const int offB,
      const int ldb, const scalar beta, global stored *C, const int offC, const int ldc,
      global real *WS, const int P)
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
    global const real *B = (global const real *)(B0 + offB); /* rows read as vectors of reals */

    /* This piece's K range, then this row of work-items' part of it (whole KU steps). */
    const int piece = (K + P - 1) / P, part = ((piece + KG - 1) / KG + KU - 1) / KU * KU;
    const int pk1 = min(K, (p + 1) * piece);
    const int k0 = min(pk1, p * piece + g * part), k1 = min(pk1, k0 + part);

    REALV(CW) acc[NR];
#pragma unroll
    for (int r = 0; r < NR; r++)
        acc[r] = (REALV(CW))0;
    if (n0 + VW <= N && B_ALIGNED(ldb, offB))
        stream(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, B_VEC);
    else if (n0 + VW <= N)
        stream(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, B_UNALIGNED);
    else if (n0 < N)
        stream(acc, A, lda, B, ldb, M, N, m0, n0, k0, k1, B_EDGE);

#if KG > 1
    /* The rows of work-items' sums, added to row 0's in a fixed order (KG - 1 first). */
    local REALV(CW) red[NR][TX];
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
kernel void thin_stream_sum(const int M, const int N, const int K, const scalar alpha,
                            global const stored *restrict A, const int offA, const int lda,
                            global const stored *restrict B, const int offB, const int ldb,
                            const scalar beta, global stored *C, const int offC, const int ldc,
                            global real *WS, const int P)
{
    const int n = (int)get_global_id(0), m = (int)get_global_id(1);
    if (n >= N || m >= M)
        return;
    real s[EL] = {0};
    for (int p = 0; p < P; p++)
#pragma unroll
        for (int e = 0; e < EL; e++)
            s[e] += WS[(((size_t)p * M + m) * N + n) * EL + e];
    GB_UPDATE_AT(C, offC + m * ldc + n, ELEM_AT(s, 0), alpha, beta);
}
