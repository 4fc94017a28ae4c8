/* xgemm_nv.cl: a tiled row-major GEMM, C = alpha*op(A)*op(B) + beta*C, shaped for NVIDIA GPUs
 * through NVIDIA's OpenCL compiler (sm_90), written so that every inner-loop access is a 128-bit
 * one that the compiler cannot split: row-major NN, NT, TN and TT (GB_TRANS_A/GB_TRANS_B), any
 * M, N, K, leading dimension and offset.
 *
 * A work-group of WGS = (MWG/(4*RM)) * (NWG/(4*RN)) work-items owns an MWG x NWG tile of C and
 * walks K in steps of KWG. Both operands' slices live in local memory k-major, as rows of
 * float4: As[k][m] (MWG + PADA floats per row) and Bs[k][n] (NWG + PADB), two buffers of each.
 * Each work-item holds a 4*RM x 4*RN block of C in float4 registers: RM runs of 4 rows (ty*4 +
 * {0..3}, MWG/RM apart) by RN runs of 4 columns (tx*4 + {0..3}, NWG/RN apart). Per k it reads RM
 * float4 of As and RN of Bs (declared as float4 arrays, so the loads are LDS.128) and does
 * 16*RM*RN FMAs with compile-time register indices only; with PIPE the next k's fragments are
 * read during the current k's FMAs. 8 x 16 per work-item (RN = 4) takes 6 shared loads per 128
 * FMAs instead of 4 per 64.
 *
 * A warp is 4 (ty) x 8 (tx) work-items. NVIDIA's shared memory returns 128 bytes per cycle, so
 * a 128-bit load takes 4 passes unless lanes n and n^1 (or n^2) read the same address; with
 * LANES the lanes are paired that way (n, n^1 share ty, the A fragment; n, n^2 share tx, B's),
 * and every fragment load takes 2 passes.
 *
 * Staging: an operand stored with K contiguous (A in NN/NT, B in NT/TT) is read as float4 along
 * K and transposed into local memory with four scalar stores; a warp reads 16 rows x 32 bytes
 * (whole sectors) and, with PAD = 4 floats per local row, its 32 scalar stores fall in 32
 * different banks. An operand stored with M or N contiguous (A^T, B in NN) is copied as float4
 * rows: a warp reads 512 contiguous bytes and writes them with conflict-free STS.128. The next
 * slice is loaded into registers before the FMAs of the current one, stored to the other buffer
 * after them, and one barrier per K step separates the two.
 *
 * Every work-group runs the same loop; interior and edge tiles differ by uniform branches
 * outside the FMAs. An interior tile of operands whose leading dimensions and offsets are
 * multiples of 4 loads float4s with no bounds checks; anything else (edge tiles, a final partial
 * K step, lda = 4097) loads element by element with zeros outside the matrix. The family asks
 * the harness for A and B with leading dimensions and offsets that are multiples of 4, so odd
 * sizes reach the float4 path at the cost of copying A and B; C and the sizes stay as they are.
 * It also asks for A to be copied where lda is a multiple of 4096: every warp load of an A slice
 * reads 16 rows, whose addresses then agree below 16 KiB (what that costs:
 * bench/notes/xgemm_nv.md#h100-gap). Warps of an edge tile whose whole share of C lies outside
 * M x N skip the FMAs (their loads, stores and barriers remain). With EDGES=1 the grid is walked
 * backwards, so these cheap edge tiles start first and the last wave is made of full tiles; with
 * EDGES=2 they run after every full tile, in the idle slots of a partial last wave. GROUPM groups
 * tile rows for L2 reuse. C is written as float4 where the tile is interior and C is aligned,
 * element by element otherwise; beta == 0 never reads C. Where the last row (column) of tiles would
 * be at most THIN thin, the grid holds whole tiles only and strips compute the rest (xgemm_nv_rem),
 * each reading the other operand once instead of walking all of K as a partial tile would. With
 * TAIL, a last partial wave of tiles is split along K into pieces that fill TAIL whole waves, their
 * sums added by the remainder kernel from a workspace (below xgemm_nv).
 *
 * The launch geometry is the family's (xgemm_nv.json, 'let'), said there once: the kernels take
 * M1 and N1 (the rows and columns the tiles cover), TM x TN (the tile grid), D (tiles run
 * whole), R and PS (tiles split along K, and pieces each), ROWG and STRIPS (the strips' groups:
 * the row strip's, and all) as arguments, and FUSED (the strips run inside xgemm_nv's grid) as a
 * build option.
 *
 * MAXREG caps the registers of a work-item on NVIDIA GPUs (the family's nvidia_max_registers),
 * which NVIDIA's compiler honours only without reqd_work_group_size, so the kernel then goes
 * without it; ptxas then schedules differently even where the cap is not reached
 * (bench/notes/xgemm_nv.md#h100-gap). */
#ifndef MWG
#define MWG 128 /* tile rows of C per work-group: 64, 128 or 256 */
#endif
#ifndef NWG
#define NWG 128 /* tile columns of C per work-group: 64, 128 or 256 */
#endif
#ifndef RM
#define RM 2 /* runs of 4 rows per work-item, MWG/RM apart: 2 (8 rows) or 4 (16 rows) */
#endif
#ifndef RN
#define RN 2 /* runs of 4 columns per work-item, NWG/RN apart: 2 (8 columns) or 4 (16) */
#endif
#ifndef KWG
#define KWG 16 /* K step staged in local memory: 8 or 16 */
#endif
#ifndef PADA
#define PADA 4 /* floats of padding per k-row of the local A tile: 0 or 4 */
#endif
#ifndef PADB
#define PADB 4 /* floats of padding per k-row of the local B tile: 0 or 4 */
#endif
#ifndef EDGES
#define EDGES 1 /* partial (edge) tiles: 0 in grid order, 1 first (grid walked backwards), 2 last */
#endif
#ifndef GROUPM
#define GROUPM 8 /* work-groups walk the tile grid GROUPM tile rows at a time (1: row by row) */
#endif
#ifndef LANES
#define LANES 1 /* 1: lanes paired so that each 128-bit fragment load has pairs of equal addresses */
#endif
#ifndef PIPE
#define PIPE 1 /* 1: each k's fragments are read during the FMAs of k-1 (two register sets) */
#endif
#ifndef MAXREG
#define MAXREG 0 /* registers per work-item on NVIDIA (-cl-nv-maxrregcount); 0: the compiler's choice */
#endif
#ifndef THIN
#define THIN 4 /* a last partial tile row (column) at most this thin goes to the strips */
#endif
#ifndef TAIL
#define TAIL 0 /* 1..4: the last partial wave of tiles is split over that many waves of groups */
#endif
#ifndef FUSED
#define FUSED 0 /* 1: the strips run as extra groups of xgemm_nv (the family's 'let' decides) */
#endif

#if !GB_ROW_MAJOR
#error "xgemm_nv is row-major; column-major problems are served through the operand swap"
#endif
#if (MWG != 64 && MWG != 128 && MWG != 256) || (NWG != 64 && NWG != 128 && NWG != 256)
#error "xgemm_nv: MWG and NWG must be 64, 128 or 256"
#endif
#if (RM != 2 && RM != 4) || (RN != 2 && RN != 4)
#error "xgemm_nv: RM and RN must be 2 or 4"
#endif
#if (KWG != 8 && KWG != 16) || (MWG / (4 * RM)) * (NWG / (4 * RN)) > 512
#error "xgemm_nv: KWG must be 8 or 16, and a group at most 512 work-items"
#endif
#if MWG / (4 * RM) < 4 || NWG / (4 * RN) < 8
#error "xgemm_nv: the tile must hold at least one warp of 4 x 8 work-items"
#endif
#if PADA % 4 || PADB % 4
#error "xgemm_nv: PADA and PADB must keep local rows float4-aligned"
#endif
#if THIN < 0 || THIN > 16
#error "xgemm_nv: THIN must be 0 to 16"
#endif
#if TAIL && (MWG / (4 * RM)) * (NWG / (4 * RN)) != 256
#error "xgemm_nv: TAIL needs 256 work-items per group (the remainder kernel's)"
#endif

#define TROWS (MWG / (4 * RM)) /* work-items along M; each run of rows is 4 * TROWS apart */
#define TCOLS (NWG / (4 * RN)) /* work-items along N */
#define WARPS_M (TROWS / 4) /* a warp is 4 x 8 work-items: 16 rows and 32 columns of each run */
#define WARPS_N (TCOLS / 8)
#define NWARPS (WARPS_M * WARPS_N)
#define WGS (32 * NWARPS) /* work-items per group */
#define LDA4 ((MWG + PADA) / 4) /* local row strides in float4 */
#define LDB4 ((NWG + PADB) / 4)
#define SLOT4 (MWG * NWG / 4) /* real4 per workspace slot (TAIL) */

/* Float4 loads per work-item for one slice of an operand MN wide (MN = MWG or NWG), rounded up:
 * the same count whether the slice is copied (KWG rows of MN/4 float4) or transposed (MN rows of
 * KWG/4, in chunks of 32). A slice smaller than the group (512 work-items, KWG = 8) leaves the
 * work-items or warps past its end idle in the last load, a warp-uniform condition. */
#define NVEC(MN) ((MN) * KWG / 4)
#define LPT(MN) ((NVEC(MN) + WGS - 1) / WGS)
#define LPT_MAX (LPT(MWG) > LPT(NWG) ? LPT(MWG) : LPT(NWG))

#define XN_INLINE static inline __attribute__((always_inline))

/* 16-byte global load from p, which the caller has checked is 16-byte aligned. */
#define gload4(p) (*(global const real4 *)(p))

/* Where load l of this work-item falls in an operand's slice (as stored in memory: row r, float4
 * column c). For a slice MN wide:
 * - transposed (K contiguous in memory; rows of the slice are M or N, columns K): warp w takes
 *   16-row x 2-float4 chunks q = l * NWARPS + w; lane i of it reads row 16*(q % (MN/16)) + i%16,
 *   float4 column 2*(q / (MN/16)) + i/16. It stores element j of the float4 at local
 *   [4*c4 + j][r]: with a row stride of 4 mod 32 floats, the 32 lanes' banks all differ.
 * - copied (M or N contiguous; rows K, columns M or N): vector v = l * WGS + tid of the slice,
 *   k = v / (MN/4), float4 column v % (MN/4); a warp reads 32 consecutive float4. */
typedef struct {
    int r, c; /* row and float4 column of the global slice (r: along MN or K, see above) */
} xn_pos_t;

XN_INLINE xn_pos_t pos_transposed(const int MN, const int l, const int lane, const int warp)
{
    const uint q = (uint)(l * NWARPS + warp), rb = (uint)(MN / 16), i = (uint)lane;
    xn_pos_t p = {(int)(16 * (q % rb) + i % 16), (int)(2 * (q / rb) + i / 16)};
    return p;
}

XN_INLINE xn_pos_t pos_copied(const int MN, const int l, const int tid)
{
    const uint v = (uint)(l * WGS + tid), w = (uint)(MN / 4);
    xn_pos_t p = {(int)(v / w), (int)(v % w)};
    return p;
}

/* Whether load l of this work-item exists: vector l*WGS + tid of the slice (copied), or chunk
 * l*NWARPS + warp of 32 vectors (transposed), is inside its NVEC(MN) vectors. Always true, and
 * folded away, unless the slice is smaller than the group. */
XN_INLINE bool in_slice(const int MN, const int l, const int tid)
{
    return NVEC(MN) % WGS == 0 || l * WGS + tid < NVEC(MN);
}

/* How a slice is read: float4 loads with no checks (the slice lies inside the matrix and its
 * rows are 16-byte aligned), or scalar loads with zeros outside the matrix. */
#define LD_VEC 0
#define LD_CHECKED 1

/* Loads this work-item's share of one slice into reg[]. x points at the slice's origin in the
 * global matrix (row r of the slice at x + r*ld); rows and cols bound the part inside the
 * matrix (from the origin; used by LD_CHECKED only). MN and transposed are compile-time
 * constants at every call, and so is mode for LD_CHECKED. */
XN_INLINE void load_slice(global const real *x, const int ld, const int rows, const int cols,
                          const int MN, const bool transposed, const int mode, const int tid,
                          real4 *reg)
{
    const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN) && in_slice(MN, l, tid)) {
            const xn_pos_t p = transposed ? pos_transposed(MN, l, lane, warp)
                                          : pos_copied(MN, l, tid);
            global const real *src = x + p.r * ld + 4 * p.c;
            if (mode == LD_VEC) {
                reg[l] = gload4(src);
            } else {
                const bool in = p.r < rows;
                real4 v = (real4)0;
                if (in && 4 * p.c < cols)
                    v.x = src[0];
                if (in && 4 * p.c + 1 < cols)
                    v.y = src[1];
                if (in && 4 * p.c + 2 < cols)
                    v.z = src[2];
                if (in && 4 * p.c + 3 < cols)
                    v.w = src[3];
                reg[l] = v;
            }
        }
    }
}

/* Stores reg[] (from load_slice with the same MN and transposed) into the local tile xs, k-major
 * with ld4 float4 per k-row. */
XN_INLINE void store_slice(local real4 *xs, const int ld4, const int MN, const bool transposed,
                           const int tid, const real4 *reg)
{
    const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN) && in_slice(MN, l, tid)) {
            if (transposed) {
                const xn_pos_t p = pos_transposed(MN, l, lane, warp);
                local real *d = (local real *)xs + 4 * p.c * (4 * ld4) + p.r;
                d[0 * 4 * ld4] = reg[l].x;
                d[1 * 4 * ld4] = reg[l].y;
                d[2 * 4 * ld4] = reg[l].z;
                d[3 * 4 * ld4] = reg[l].w;
            } else {
                const xn_pos_t p = pos_copied(MN, l, tid);
                xs[p.r * ld4 + p.c] = reg[l];
            }
        }
    }
}

/* acc += this work-item's 4*RM rows of As times its 4*RN columns of Bs over one K step. as and
 * bs point at the work-item's first float4 in k-row 0 (As + ty, Bs + tx). acc[RN*i + h] holds
 * row ty*4 + i%4 + (i/4)*4*TROWS and columns tx*4 + h*4*TCOLS + {0..3}. */
XN_INLINE void multiply(local const real4 *as, local const real4 *bs, real4 *acc)
{
#if PIPE
    /* The fragments of k+1 are read before the FMAs of k. */
    real4 a4[2][RM], b[2][RN];
#pragma unroll
    for (int r = 0; r < RM; r++)
        a4[0][r] = as[r * TROWS];
#pragma unroll
    for (int h = 0; h < RN; h++)
        b[0][h] = bs[h * TCOLS];
#pragma unroll
    for (int k = 0; k < KWG; k++) {
        const int cur = k & 1, nxt = cur ^ 1;
        if (k + 1 < KWG) {
#pragma unroll
            for (int r = 0; r < RM; r++)
                a4[nxt][r] = as[(k + 1) * LDA4 + r * TROWS];
#pragma unroll
            for (int h = 0; h < RN; h++)
                b[nxt][h] = bs[(k + 1) * LDB4 + h * TCOLS];
        }
#pragma unroll
        for (int i = 0; i < 4 * RM; i++) {
            const real4 v = a4[cur][i / 4];
            const real a = i % 4 == 0 ? v.x : i % 4 == 1 ? v.y : i % 4 == 2 ? v.z : v.w;
#pragma unroll
            for (int h = 0; h < RN; h++)
                acc[RN * i + h] = fma((real4)(a), b[cur][h], acc[RN * i + h]);
        }
    }
#else
#pragma unroll
    for (int k = 0; k < KWG; k++) {
        real4 a4[RM], b[RN];
#pragma unroll
        for (int r = 0; r < RM; r++)
            a4[r] = as[k * LDA4 + r * TROWS];
#pragma unroll
        for (int h = 0; h < RN; h++)
            b[h] = bs[k * LDB4 + h * TCOLS];
#pragma unroll
        for (int i = 0; i < 4 * RM; i++) {
            const real4 v = a4[i / 4];
            const real a = i % 4 == 0 ? v.x : i % 4 == 1 ? v.y : i % 4 == 2 ? v.z : v.w;
#pragma unroll
            for (int h = 0; h < RN; h++)
                acc[RN * i + h] = fma((real4)(a), b[h], acc[RN * i + h]);
        }
    }
#endif
}

/* The operands' storage: a slice's origin for K step t and its extent inside the matrix. A is
 * M x K (lda along K) or, transposed, stored K x M; B is K x N or, transposed, stored N x K. */
#if GB_TRANS_A
#define A_TRANSPOSED 0 /* A^T stored K x M: M contiguous, copied */
#define A_AT(t) (A + (t) * KWG * lda + m0)
#define A_ROWS(t) (K - (t) * KWG)
#define A_COLS(t) (M - m0)
#else
#define A_TRANSPOSED 1 /* A stored M x K: K contiguous, transposed into As[k][m] */
#define A_AT(t) (A + m0 * lda + (t) * KWG)
#define A_ROWS(t) (M - m0)
#define A_COLS(t) (K - (t) * KWG)
#endif
#if GB_TRANS_B
#define B_TRANSPOSED 1 /* B^T stored N x K: K contiguous, transposed into Bs[k][n] */
#define B_AT(t) (B + n0 * ldb + (t) * KWG)
#define B_ROWS(t) (N - n0)
#define B_COLS(t) (K - (t) * KWG)
#else
#define B_TRANSPOSED 0 /* B stored K x N: N contiguous, copied */
#define B_AT(t) (B + (t) * KWG * ldb + n0)
#define B_ROWS(t) (K - (t) * KWG)
#define B_COLS(t) (N - n0)
#endif
#define LOAD_A(t, mode, ra)                                                                    \
    load_slice(A_AT(t), lda, A_ROWS(t), A_COLS(t), MWG, A_TRANSPOSED, mode, tid, ra)
#define LOAD_B(t, mode, rb)                                                                    \
    load_slice(B_AT(t), ldb, B_ROWS(t), B_COLS(t), NWG, B_TRANSPOSED, mode, tid, rb)

/* edge (the tile
 * crosses M or N) and checked (edge, or an operand's rows are not 16-byte aligned) are uniform
 * over the work-group: unless checked, every slice but a partial last one is read as float4
 * with no checks; otherwise element by element with zeros outside the matrix. Keeping only
 * these two paths keeps the loop free of a third, predicated copy of the loads. */
/* Work-item tid's place in the tile: warp (wm, wn) is 4 x 8 work-items, rows wm*16 + [0, 16)
 * and columns wn*32 + [0, 32) of each quarter of the tile. (Unsigned: no sign fix-ups.) */
XN_INLINE void place(const int tid, int *wm, int *wn, int *tx, int *ty)
{
    const int lane = tid & 31, warp = tid >> 5;
    *wm = (int)((uint)warp / WARPS_N);
    *wn = (int)((uint)warp % WARPS_N);
#if LANES
    /* Lanes n and n^1 share ty (the A fragment's address) and lanes n and n^2 share tx (B's):
     * a 128-bit shared load whose lane pairs read one address returns in 2 passes, not 4. */
    *tx = *wn * 8 + ((lane & 1) | ((lane >> 1) & 6));
    *ty = *wm * 4 + (((lane >> 1) & 1) | ((lane >> 3) & 2));
#else
    *tx = *wn * 8 + (lane & 7);
    *ty = *wm * 4 + (lane >> 3);
#endif
}

/* C = alpha * acc + beta * C for the work-item at (tx, ty) of the tile at (m0, n0); C is not
 * read when beta is 0. */
/* Where acc[RN * i + h] of the work-item at (tx, ty) lies in its tile: the row, and the first of
 * its four columns. */
#define ACC_ROW(ty, i) ((ty) * 4 + (i) % 4 + ((i) / 4) * (4 * TROWS))
#define ACC_COL(tx, h) ((tx) * 4 + (h) * (4 * TCOLS))

XN_INLINE void put_tile(const int M, const int N, const real alpha, const real beta,
                        global real *C, const int ldc, const bool fast_c, const int m0,
                        const int n0, const int tx, const int ty, const real4 *acc)
{
#pragma unroll
    for (int i = 0; i < 4 * RM; i++) {
        const int row = m0 + ACC_ROW(ty, i);
#pragma unroll
        for (int h = 0; h < RN; h++) {
            const int col = n0 + ACC_COL(tx, h);
            gb_put4(C + row * ldc + col, alpha * acc[RN * i + h], beta, fast_c, row, col, M, N);
        }
    }
}

/* The whole tile at (m0, n0), or with TAIL the K steps [t_first, t_end) of it: the K loop, then
 * alpha/beta and the stores to C, or (slot >= 0) the bare sums to workspace slot slot, as an
 * MWG x NWG row-major tile. */
XN_INLINE void tile(const int M, const int N, const int K, const real alpha,
                    global const real *A, const int lda, global const real *B, const int ldb,
                    const real beta, global real *C, const int ldc, const bool c_aligned,
                    const int m0, const int n0, const bool edge, const bool checked,
                    const int t_first, const int t_end, global real4 *WS, const int slot,
                    local real4 *As, local real4 *Bs)
{
    const int tid = (int)get_local_id(0);
    int wm, wn, tx, ty;
    place(tid, &wm, &wn, &tx, &ty);
    /* Warps whose rows or columns all lie outside C skip the arithmetic (edge tiles only). */
    const bool live = !edge || (m0 + wm * 16 < M && n0 + wn * 32 < N);
    const int full = K / KWG;

    real4 acc[4 * RM * RN];
#pragma unroll
    for (int i = 0; i < 4 * RM * RN; i++)
        acc[i] = (real4)0;
    real4 ra[LPT_MAX], rb[LPT_MAX];

    /* The buffers are swapped as pointers (see xgemm.cl: PoCL keeps addresses derived from a
     * loop-carried pointer inside the loop). */
    local real4 *a_cur = As, *a_nxt = As + KWG * LDA4, *b_cur = Bs, *b_nxt = Bs + KWG * LDB4;
    if (t_end > t_first) {
        if (!checked && full > t_first) {
            LOAD_A(t_first, LD_VEC, ra);
            LOAD_B(t_first, LD_VEC, rb);
        } else {
            LOAD_A(t_first, LD_CHECKED, ra);
            LOAD_B(t_first, LD_CHECKED, rb);
        }
        store_slice(a_cur, LDA4, MWG, A_TRANSPOSED, tid, ra);
        store_slice(b_cur, LDB4, NWG, B_TRANSPOSED, tid, rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Slices read as float4 end at the last full one, or sooner where the range ends: one bound
     * in the loop, not two (bench/notes/xgemm_nv.md#h100-last-wave). */
    const int vend = checked ? 0 : min(full, t_end);
    for (int t = t_first; t < t_end; t++) {
        /* The next slice's global loads are issued before this slice's FMAs. */
        if (t + 1 < vend) {
            LOAD_A(t + 1, LD_VEC, ra);
            LOAD_B(t + 1, LD_VEC, rb);
        } else if (t + 1 < t_end) {
            LOAD_A(t + 1, LD_CHECKED, ra);
            LOAD_B(t + 1, LD_CHECKED, rb);
        }
        if (live)
            multiply(a_cur + ty, b_cur + tx, acc);
        /* The other buffer was last read before the previous step's barrier. */
        if (t + 1 < t_end) {
            store_slice(a_nxt, LDA4, MWG, A_TRANSPOSED, tid, ra);
            store_slice(b_nxt, LDB4, NWG, B_TRANSPOSED, tid, rb);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local real4 *a_tmp = a_cur, *b_tmp = b_cur;
        a_cur = a_nxt;
        b_cur = b_nxt;
        a_nxt = a_tmp;
        b_nxt = b_tmp;
    }

#if TAIL
    /* A piece of a tail tile stores its bare sums, as an MWG x NWG tile, to its slot through
     * the same stores as C: a second store path, or a slot pointer and flag carried through the
     * loop, cost registers (bench/notes/xgemm_nv.md#h100-last-wave). */
    const bool to_part = slot >= 0;
    global real4 *part = WS + (uint)slot * SLOT4;
    put_tile(to_part ? MWG : M, to_part ? NWG : N, to_part ? (real)1 : alpha,
             to_part ? (real)0 : beta, to_part ? (global real *)part : C, to_part ? NWG : ldc,
             to_part || (!edge && c_aligned), to_part ? 0 : m0, to_part ? 0 : n0, tx, ty, acc);
#else
    put_tile(M, N, alpha, beta, C, ldc, !edge && c_aligned, m0, n0, tx, ty, acc);
#endif
}

/* xgemm_nv_rem: the thin rest that xgemm_nv leaves: the last M - M1 rows of C, all N
 * columns ("row strip"), and the last N - N1 columns of the first M1 rows ("column strip"), each
 * at most THIN wide. A strip is THIN-or-fewer dot products per element of the operand it streams
 * (B for the row strip, A for the column strip), so it is bound by reading that operand once;
 * a partial tile of xgemm_nv instead walks all of K at the cost of a whole tile.
 *
 * A group of 256 work-items owns 32 outputs along the streamed dimension j (columns of the row
 * strip, rows of the column strip) for every one of the strip's nt lines, and splits K among its
 * work-items; lanes are arranged so that every warp load reads four whole 128-byte lines:
 * - j contiguous in memory (B in NN/TN, A^T in TN/TT): work-item (q, l) = (tid % 8, tid / 8)
 *   reads the float4 of j0 + 4q..4q+3 at k = l, l + 32, ...;
 * - k contiguous (A in NN/NT, B^T in NT/TT): it reads row j0 + l at k = 4q..4q+3, + 32, ...
 * The partial sums meet in local memory, one line at a time; the line's other operand (a row of
 * A or a column of B, K elements) is read by every group through the caches. */
#define RJ 32   /* outputs per group along j */
#define RGS 256 /* work-items per group */


/* p[0..3] (unit stride; 16-byte aligned where vec), zeros from index n on. */
XN_INLINE real4 load4(global const real *p, const int n, const bool vec)
{
    if (vec && n >= 4)
        return gload4(p);
    real4 v = (real4)0;
    if (n > 0)
        v.x = p[0];
    if (n > 1)
        v.y = p[1];
    if (n > 2)
        v.z = p[2];
    if (n > 3)
        v.w = p[3];
    return v;
}

/* p[0], p[d], p[2d], p[3d], zeros from index n on. */
XN_INLINE real4 load4_strided(global const real *p, const int d, const int n)
{
    real4 v = (real4)0;
    if (n > 0)
        v.x = p[0];
    if (n > 1)
        v.y = p[d];
    if (n > 2)
        v.z = p[2 * d];
    if (n > 3)
        v.w = p[3 * d];
    return v;
}

/* acc[t] += this work-item's share of S(k, j) T(t, k) over K, t < TT (a compile-time constant at
 * every call; lines from nt on repeat line nt - 1, whose sums are never stored), with U <= 8
 * float4 loads of S issued before their FMAs: a strip is bound by the loads in flight. */
XN_INLINE void strip_sums(const int TT, const int U, global const real *s, const int sk,
                          const int sj, global const real *tp, const int tt, const int tk,
                          const int nt, const int J, const int K, const int j0, const bool svec,
                          const int tid, real4 *acc)
{
    const int q = tid & 7, l = tid >> 3;
    int to[THIN > 0 ? THIN : 1]; /* line offsets, clamped */
#pragma unroll
    for (int t = 0; t < TT; t++)
        to[t] = (t < nt ? t : nt - 1) * tt;
    if (sj == 1) { /* j contiguous: float4 of j0 + 4q.., k = l + 32i */
        const int j = j0 + 4 * q, nj = J - j;
        global const real *sp = s + j;
        int k = l;
        if (svec && nj >= 4) {
            for (; k + 32 * (U - 1) < K; k += 32 * U) {
                real4 v[8];
#pragma unroll
                for (int u = 0; u < U; u++)
                    v[u] = gload4(sp + (k + 32 * u) * sk);
#pragma unroll
                for (int u = 0; u < U; u++)
#pragma unroll
                    for (int t = 0; t < TT; t++)
                        acc[t] = fma(v[u], (real4)(tp[to[t] + (k + 32 * u) * tk]), acc[t]);
            }
        }
        for (; k < K; k += 32) {
            const real4 v = load4(sp + k * sk, nj, svec);
#pragma unroll
            for (int t = 0; t < TT; t++)
                acc[t] = fma(v, (real4)(tp[to[t] + k * tk]), acc[t]);
        }
    } else if (j0 + l < J) { /* k contiguous: row j0 + l, k = 4q.. + 32i */
        global const real *sp = s + (j0 + l) * sj;
        int k = 4 * q;
        if (svec) {
            for (; k + 32 * (U - 1) + 3 < K; k += 32 * U) {
                real4 v[8];
#pragma unroll
                for (int u = 0; u < U; u++)
                    v[u] = gload4(sp + k + 32 * u);
#pragma unroll
                for (int u = 0; u < U; u++)
#pragma unroll
                    for (int t = 0; t < TT; t++)
                        acc[t] = fma(v[u], load4_strided(tp + to[t] + (k + 32 * u) * tk, tk, 4),
                                     acc[t]);
            }
        }
        for (; k < K; k += 32) {
            const real4 v = load4(sp + k, K - k, svec);
#pragma unroll
            for (int t = 0; t < TT; t++)
                acc[t] = fma(v, load4_strided(tp + to[t] + k * tk, tk, K - k), acc[t]);
        }
    }
}

/* Group g of the strips (ROWG along N for the row strip, then along M1 for the column strip),
 * RGS work-items; red holds RGS real4 of local memory. Groups past the strips' (rounding in a
 * fused grid) return at once. */
XN_INLINE void strips(const int M, const int N, const int K, const real alpha,
                      global const real *A, const int offA, const int lda, global const real *B,
                      const int offB, const int ldb, const real beta, global real *C,
                      const int offC, const int ldc, const int M1, const int N1,
                      const int row_groups, const int nstrips, const int g, const int tid,
                      local real4 *red)
{
    if (g >= nstrips)
        return;
    const bool rows = g < row_groups;
    A += offA;
    B += offB;
    C += offC;
    /* Streamed S(k, j) = s[k*sk + j*sj], the strip's lines T(t, k) = tp[t*tt + k*tk], outputs
     * O(t, j) = c[t*ct + j*cj] for t < nt, j < J. */
    global const real *s, *tp;
    global real *c;
    int sk, sj, tt, tk, ct, cj, J, nt;
    bool svec;
    if (rows) { /* C(M1 + t, j) = sum_k A(M1 + t, k) B(k, j) */
        s = B;
        sk = GB_TRANS_B ? 1 : ldb;
        sj = GB_TRANS_B ? ldb : 1;
        tp = GB_TRANS_A ? A + M1 : A + M1 * lda;
        tt = GB_TRANS_A ? 1 : lda;
        tk = GB_TRANS_A ? lda : 1;
        c = C + M1 * ldc;
        ct = ldc;
        cj = 1;
        J = N;
        nt = M - M1;
        svec = ldb % 4 == 0 && offB % 4 == 0;
    } else { /* C(j, N1 + t) = sum_k A(j, k) B(k, N1 + t), j < M1 */
        s = A;
        sk = GB_TRANS_A ? lda : 1;
        sj = GB_TRANS_A ? 1 : lda;
        tp = GB_TRANS_B ? B + N1 * ldb : B + N1;
        tt = GB_TRANS_B ? ldb : 1;
        tk = GB_TRANS_B ? 1 : ldb;
        c = C + N1;
        ct = 1;
        cj = ldc;
        J = M1;
        nt = N - N1;
        svec = lda % 4 == 0 && offA % 4 == 0;
    }
    const int j0 = RJ * (rows ? g : g - row_groups);
    const bool jv = sj == 1; /* which arrangement (above); uniform over the group */
    real4 acc[THIN > 0 ? THIN : 1];
#pragma unroll
    for (int t = 0; t < (THIN > 0 ? THIN : 1); t++)
        acc[t] = (real4)0;
    /* Compiled for 1, up to 4 and up to THIN lines: no per-line guards in the loads' way. */
    if (nt == 1)
        strip_sums(1, 8, s, sk, sj, tp, tt, tk, nt, J, K, j0, svec, tid, acc);
#if THIN > 4
    else if (nt <= 4)
        strip_sums(4, 4, s, sk, sj, tp, tt, tk, nt, J, K, j0, svec, tid, acc);
    else
        strip_sums(THIN, 2, s, sk, sj, tp, tt, tk, nt, J, K, j0, svec, tid, acc);
#elif THIN > 1
    else
        strip_sums(THIN, 4, s, sk, sj, tp, tt, tk, nt, J, K, j0, svec, tid, acc);
#endif
    /* One line at a time through local memory; the barriers are the same for every group. */
#pragma unroll
    for (int t = 0; t < THIN; t++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        red[tid] = acc[t];
        barrier(CLK_LOCAL_MEM_FENCE);
        const int j = j0 + tid;
        if (tid < RJ && t < nt && j < J) {
            real sum = 0;
            if (jv) { /* output j0 + tid is lane tid % 4 of quad tid / 4, over the 32 k-lanes */
                local const real *r = (local const real *)red + 4 * (tid >> 2) + (tid & 3);
                for (int i = 0; i < 32; i++)
                    sum += r[4 * 8 * i];
            } else { /* row j0 + tid: its 8 work-items' float4 */
                for (int i = 0; i < 8; i++) {
                    const real4 r = red[8 * tid + i];
                    sum += (r.x + r.y) + (r.z + r.w);
                }
            }
            global real *o = c + t * ct + j * cj;
            *o = beta == (real)0 ? alpha * sum : alpha * sum + beta * *o;
        }
    }
}

/* On NVIDIA (FUSED), groups of 256 work-items compute the strips inside xgemm_nv's grid (the
 * local A tile holding the partial sums), where a separate launch would run after the last wave
 * of tiles; elsewhere xgemm_nv_rem does, as the strips' barriers in a second branch of one
 * kernel are what PoCL 3.1 miscompiles (bench/notes/xgemm_nv.md#h100-strips). Only up to 4 lines:
 * the strips' code for 16 costs xgemm_nv too many registers. */
#if FUSED && (WGS != RGS || 2 * KWG * LDA4 < RGS)
#error "xgemm_nv: fused strips need 256 work-items and room for their sums in the local A tile"
#endif

/* The tail (TAIL). Groups start in order of id as earlier ones finish, CUS * SLOTS at a time
 * (a wave). A last partial wave of tiles leaves the rest of the device idle while it runs. So
 * the first D tiles run one per group, and each of the last R is split along K into PS pieces,
 * one per group, with PS the most that fill TAIL waves, where that takes less than a tile's
 * time (the family's 'let' finds D, R and PS). A piece writes its bare sums to its own
 * workspace slot; the remainder kernel adds a tile's PS slots in order (the same sum on every
 * run) and writes C. Pieces within one tile, rather than ranges across two (stream-K), keep one
 * tile per group, which costs fewer registers. */

/* floor(j * S / P) without 64-bit arithmetic (whose division NVIDIA's compiler makes a call). */
XN_INLINE int piece_start(const uint S, const uint P, const uint j)
{
    const uint q = S / P;
    return (int)(j * q + j * (S - q * P) / P);
}

/* NVIDIA's compiler ignores a register cap for a kernel with a required work-group size. */
#if !MAXREG
__attribute__((reqd_work_group_size(WGS, 1, 1)))
#endif
kernel void xgemm_nv(const int M, const int N, const int K, const real alpha,
                     global const real *restrict A, const int offA, const int lda,
                     global const real *restrict B, const int offB, const int ldb,
                     const real beta, global real *C, const int offC, const int ldc,
                     global real4 *WS, const int M1, const int N1, const int TM, const int TN,
                     const int D, const int R, const int PS, const int ROWG, const int STRIPS)
{
    local real4 As[2 * KWG * LDA4];
    local real4 Bs[2 * KWG * LDB4];
    /* A one-dimensional grid: the tiles' groups, the tail's pieces, and on NVIDIA the strips'
     * groups, dispatched last so that they fill the idle slots of the last wave. */
    const uint id = (uint)get_group_id(0);
#if FUSED
    const uint groups = (uint)(D + PS * R);
    if (id >= groups) {
        strips(M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc, M1, N1, ROWG,
               STRIPS, (int)(id - groups), (int)get_local_id(0), As);
        return;
    }
#endif
    /* float4 accesses need ld and offset to keep every row 16-byte aligned (the buffers are);
     * the same for every work-group of the launch. */
    const bool a_vec = lda % 4 == 0 && offA % 4 == 0, b_vec = ldb % 4 == 0 && offB % 4 == 0;
    const bool c_vec = ldc % 4 == 0 && offC % 4 == 0;
    /* A group runs one whole tile, or piece j of tail tile r: its K steps [j*S/P, (j+1)*S/P). */
    const int S = (K + KWG - 1) / KWG;
#if TAIL
    /* Selects, not branches, here: PoCL 3.1 takes a K loop bounded by values merged from
     * branches for a divergent one, and miscompiles its barrier. */
    const bool to_part = id >= (uint)D;
    /* q wraps for the whole tiles' groups, whose selects below drop it (to_part ? id - D : 0
     * would compile to llvm.usub.sat, which Oclgrind cannot run). */
    const uint q = id - (uint)D, r = q / (uint)PS, j = q - r * (uint)PS;
    const uint at = to_part ? (uint)D + r : id;
    const int t_first = to_part ? piece_start((uint)S, (uint)PS, j) : 0;
    const int t_end = to_part ? piece_start((uint)S, (uint)PS, j + 1) : S;
    const int slot = to_part ? (int)q : -1;
#else
    const uint at = id;
    const int t_first = 0, t_end = S, slot = -1;
#endif
    int gm, gn;
    gb_tile_at(at, (uint)TM, (uint)TN, GROUPM, EDGES, M1 % MWG != 0, N1 % NWG != 0, &gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    /* One copy of the loop for every work-group: the barriers must not sit in two branches
     * (PoCL 3.1 miscompiles that), and the FMAs are the same for interior and edge tiles. */
    /* The grid holds no tile past M1 or N1, so bounds at M and N are the same here; the
     * arguments, unlike M1 and N1, take no registers through the loop. */
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    tile(M, N, K, alpha, A + offA, lda, B + offB, ldb, beta, C + offC, ldc, c_vec, m0, n0, edge,
         edge || !a_vec || !b_vec, t_first, t_end, WS, slot, As, Bs);
}

/* Tail tile r (tile D + r of the grid): its PS pieces' sums added in order, then
 * C = alpha * sum + beta * C, by the 256 work-items in their places of the tile. */
XN_INLINE void tail_tile(const int M, const int N, const real alpha, const real beta,
                         global real *C, const int ldc, const bool c_vec, global const real4 *WS,
                         const int M1, const int N1, const uint tm, const uint tn, const uint D,
                         const uint PS, const uint r)
{
    const int tid = (int)get_local_id(0);
    int wm, wn, tx, ty;
    place(tid, &wm, &wn, &tx, &ty);
    real4 acc[4 * RM * RN];
#pragma unroll
    for (int i = 0; i < 4 * RM * RN; i++)
        acc[i] = (real4)0;
    for (uint j = 0; j < PS; j++) {
        global const real4 *part = WS + (r * PS + j) * SLOT4;
#pragma unroll
        for (int i = 0; i < 4 * RM; i++)
#pragma unroll
            for (int h = 0; h < RN; h++)
                acc[RN * i + h] += part[(ACC_ROW(ty, i) * NWG + ACC_COL(tx, h)) / 4];
    }
    int gm, gn;
    gb_tile_at(D + r, tm, tn, GROUPM, EDGES, M1 % MWG != 0, N1 % NWG != 0, &gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    put_tile(M, N, alpha, beta, C, ldc, !edge && c_vec, m0, n0, tx, ty, acc);
}

__attribute__((reqd_work_group_size(RGS, 1, 1)))
kernel void xgemm_nv_rem(const int M, const int N, const int K, const real alpha,
                         global const real *restrict A, const int offA, const int lda,
                         global const real *restrict B, const int offB, const int ldb,
                         const real beta, global real *C, const int offC, const int ldc,
                         global real4 *WS, const int M1, const int N1, const int TM,
                         const int TN, const int D, const int R, const int PS, const int ROWG,
                         const int STRIPS)
{
    local real4 red[RGS];
    const int g = (int)get_group_id(0);
    /* The strips' groups (unless xgemm_nv ran them), then the tail's tiles. */
    const int nstrips = FUSED ? 0 : STRIPS;
    if (g < nstrips) {
        strips(M, N, K, alpha, A, offA, lda, B, offB, ldb, beta, C, offC, ldc, M1, N1, ROWG,
               STRIPS, g, (int)get_local_id(0), red);
        return;
    }
#if TAIL
    if (g - nstrips < R)
        tail_tile(M, N, alpha, beta, C + offC, ldc, ldc % 4 == 0 && offC % 4 == 0, WS, M1, N1,
                  (uint)TM, (uint)TN, (uint)D, (uint)PS, (uint)(g - nstrips));
#endif
}
