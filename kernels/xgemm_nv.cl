/* xgemm_nv.cl: a tiled row-major GEMM, C = alpha*op(A)*op(B) + beta*C, shaped for NVIDIA GPUs
 * through NVIDIA's OpenCL compiler (sm_90), written so that every inner-loop access is a 128-bit
 * one that the compiler cannot split: row-major NN, NT, TN and TT (GB_TRANS_A/GB_TRANS_B), any
 * M, N, K, leading dimension and offset, with no padding pass.
 *
 * A work-group of WGS = (MWG/8)*(NWG/8) work-items (256 for 128x128) owns an MWG x NWG tile of
 * C and walks K in steps of KWG. Both operands' slices live in local memory k-major, as rows of
 * float4: As[k][m] (MWG + PADA floats per row) and Bs[k][n] (NWG + PADB), two buffers of each.
 * Each work-item holds an 8x8 block of C in 16 float4 registers: rows ty*4 + {0..3} and
 * MWG/2 + ty*4 + {0..3}, columns tx*4 + {0..3} and NWG/2 + tx*4 + {0..3}. Per k it reads two
 * float4 of As and two of Bs (declared as float4 arrays, so the loads are LDS.128) and does 64
 * FMAs with compile-time register indices only. A warp is 4 (ty) x 8 (tx) work-items: per k its
 * four LDS.128 read 4 distinct float4 (a0, a1) or 8 (b0, b1), the rest being broadcasts, so each
 * is one 128-byte shared-memory wavefront, with no bank conflict.
 *
 * Staging: an operand stored with K contiguous (A in NN/NT, B in NT/TT) is read as float4 along
 * K and transposed into local memory with four scalar stores; a warp reads 16 rows x 32 bytes
 * (whole sectors) and, with PAD = 4 floats per local row, its 32 scalar stores fall in 32
 * different banks. An operand stored with M or N contiguous (A^T, B in NN) is copied as float4
 * rows: a warp reads 512 contiguous bytes and writes them with conflict-free STS.128. The next
 * slice is loaded into registers before the FMAs of the current one, stored to the other buffer
 * after them, and one barrier per K step separates the two.
 *
 * Every work-group runs the same loop; the differences between interior tiles (inside M x N)
 * and edge tiles are uniform branches outside the FMAs. Interior tiles load with no bounds
 * checks: float4 loads of an operand whose leading dimension and offset are multiples of 4
 * (checked once per launch), scalar loads otherwise (lda = 4097); only a final partial K step is
 * loaded element by element. Edge tiles load element by element with zeros outside the matrix,
 * and their warps whose whole share of C lies outside M x N skip the FMAs (their loads, stores
 * and barriers remain), so a 4097 edge tile with one live row costs about a quarter of a full
 * one. With EDGEFIRST the grid is walked backwards, so these cheap edge tiles start first and
 * the last wave is made of full tiles; GROUPM groups tile rows for L2 reuse. C is written as
 * float4 where the tile is interior and C is aligned, element by element otherwise; beta == 0
 * never reads C.
 *
 * PTX=1 (NVIDIA only; single precision) loads the global float4s with inline PTX
 * ld.global.nc.v4.f32, PTX=2 adds the .L2::256B prefetch hint. Other devices cannot build it. */
#ifndef MWG
#define MWG 128 /* tile rows of C per work-group: 64, 128 or 256 */
#endif
#ifndef NWG
#define NWG 128 /* tile columns of C per work-group: 64, 128 or 256 */
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
#ifndef EDGEFIRST
#define EDGEFIRST 1 /* 1: walk the tile grid backwards, partial (edge) tiles first */
#endif
#ifndef GROUPM
#define GROUPM 8 /* work-groups walk the tile grid GROUPM tile rows at a time (1: row by row) */
#endif
#ifndef PTX
#define PTX 0 /* 1: global loads as inline PTX ld.global.nc.v4.f32; 2: with .L2::256B */
#endif

#if !GB_ROW_MAJOR
#error "xgemm_nv is row-major; column-major problems are served through the operand swap"
#endif
#if (MWG != 64 && MWG != 128 && MWG != 256) || (NWG != 64 && NWG != 128 && NWG != 256)
#error "xgemm_nv: MWG and NWG must be 64, 128 or 256"
#endif
#if (KWG != 8 && KWG != 16) || MWG * NWG > 32768
#error "xgemm_nv: KWG must be 8 or 16, and a group at most 512 work-items"
#endif
#if PADA % 4 || PADB % 4
#error "xgemm_nv: PADA and PADB must keep local rows float4-aligned"
#endif
#if PTX && GB_PRECISION != 32
#error "xgemm_nv: PTX loads are single precision only"
#endif

#define WARPS_M (MWG / 32) /* a warp covers 16 + 16 rows and 32 + 32 columns */
#define WARPS_N (NWG / 64)
#define NWARPS (WARPS_M * WARPS_N)
#define WGS (32 * NWARPS) /* work-items per group */
#define LDA4 ((MWG + PADA) / 4) /* local row strides in float4 */
#define LDB4 ((NWG + PADB) / 4)
#define LDA (4 * LDA4) /* ... and in floats */
#define LDB (4 * LDB4)

/* Float4 loads per work-item for one slice of an operand MN wide (MN = MWG or NWG), rounded up:
 * the same count whether the slice is copied (KWG rows of MN/4 float4) or transposed (MN rows of
 * KWG/4, in chunks of 32). A slice smaller than the group (512 work-items, KWG = 8) leaves the
 * work-items or warps past its end idle in the last load, a warp-uniform condition. */
#define NVEC(MN) ((MN) * KWG / 4)
#define LPT(MN) ((NVEC(MN) + WGS - 1) / WGS)
#define LPT_MAX (LPT(MWG) > LPT(NWG) ? LPT(MWG) : LPT(NWG))

#define XN_INLINE static inline __attribute__((always_inline))

/* 16-byte global load from p, which the caller has checked is 16-byte aligned. */
#if PTX
XN_INLINE real4 gload4(global const real *p)
{
    real x, y, z, w;
#if PTX == 2
    __asm__("ld.global.nc.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
            : "l"(p));
#else
    __asm__("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
            : "=f"(x), "=f"(y), "=f"(z), "=f"(w)
            : "l"(p));
#endif
    return (real4)(x, y, z, w);
}
#else
#define gload4(p) (*(global const real4 *)(p))
#endif

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
 * rows are 16-byte aligned), scalar loads with no checks (inside, any alignment), or scalar
 * loads with zeros outside the matrix. */
#define LD_VEC 0
#define LD_SCALAR 1
#define LD_CHECKED 2

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
            } else if (mode == LD_SCALAR) {
                reg[l] = (real4)(src[0], src[1], src[2], src[3]);
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

/* acc += this work-item's 8 rows of As times its 8 columns of Bs over one K step. as and bs
 * point at the work-item's first float4 in k-row 0 (As + ty, Bs + tx). acc[2*i + h] holds row i
 * (ty*4 + i%4 + (i/4)*MWG/2) and columns tx*4 + h*NWG/2 + {0..3}. */
XN_INLINE void multiply(local const real4 *as, local const real4 *bs, real4 *acc)
{
#pragma unroll
    for (int k = 0; k < KWG; k++) {
        const real4 a0 = as[k * LDA4], a1 = as[k * LDA4 + MWG / 8];
        const real4 b0 = bs[k * LDB4], b1 = bs[k * LDB4 + NWG / 8];
        const real a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
#pragma unroll
        for (int i = 0; i < 8; i++) {
            acc[2 * i] = fma((real4)(a[i]), b0, acc[2 * i]);
            acc[2 * i + 1] = fma((real4)(a[i]), b1, acc[2 * i + 1]);
        }
    }
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

/* The whole tile at (m0, n0): the K loop, then alpha/beta and the stores. edge is uniform over
 * the work-group: when false, every slice but a partial last one is read with no checks, as
 * float4 where a_vec / b_vec say the operand's rows are 16-byte aligned, as scalars otherwise
 * (lda = 4097); when true, element by element with zeros outside the matrix. */
XN_INLINE void tile(const int M, const int N, const int K, const real alpha,
                    global const real *A, const int lda, const bool a_vec,
                    global const real *B, const int ldb, const bool b_vec, const real beta,
                    global real *C, const int ldc, const bool c_aligned,
                    const int m0, const int n0, const bool edge, local real4 *As,
                    local real4 *Bs)
{
    /* Warp (wm, wn) is 4 x 8 work-items: rows wm*16 + [0, 16) and columns wn*32 + [0, 32) of
     * each quarter of the tile. (Unsigned: no sign fix-ups in the divisions.) */
    const int tid = (int)get_local_id(0), lane = tid & 31, warp = tid >> 5;
    const int wm = (int)((uint)warp / WARPS_N), wn = (int)((uint)warp % WARPS_N);
    const int tx = wn * 8 + (lane & 7), ty = wm * 4 + (lane >> 3);
    /* Warps whose rows or columns all lie outside C skip the arithmetic (edge tiles only). */
    const bool live = !edge || (m0 + wm * 16 < M && n0 + wn * 32 < N);
    const int full = K / KWG, steps = (K + KWG - 1) / KWG;

    real4 acc[16];
#pragma unroll
    for (int i = 0; i < 16; i++)
        acc[i] = (real4)0;
    real4 ra[LPT_MAX], rb[LPT_MAX];

    /* The buffers are swapped as pointers (see xgemm.cl: PoCL keeps addresses derived from a
     * loop-carried pointer inside the loop). */
    local real4 *a_cur = As, *a_nxt = As + KWG * LDA4, *b_cur = Bs, *b_nxt = Bs + KWG * LDB4;
    const int mode_a = a_vec ? LD_VEC : LD_SCALAR, mode_b = b_vec ? LD_VEC : LD_SCALAR;
    if (steps > 0) {
        if (!edge && full > 0) {
            LOAD_A(0, mode_a, ra);
            LOAD_B(0, mode_b, rb);
        } else {
            LOAD_A(0, LD_CHECKED, ra);
            LOAD_B(0, LD_CHECKED, rb);
        }
        store_slice(a_cur, LDA4, MWG, A_TRANSPOSED, tid, ra);
        store_slice(b_cur, LDB4, NWG, B_TRANSPOSED, tid, rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < steps; t++) {
        /* The next slice's global loads are issued before this slice's FMAs. */
        if (!edge && t + 1 < full) {
            LOAD_A(t + 1, mode_a, ra);
            LOAD_B(t + 1, mode_b, rb);
        } else if (t + 1 < steps) {
            LOAD_A(t + 1, LD_CHECKED, ra);
            LOAD_B(t + 1, LD_CHECKED, rb);
        }
        if (live)
            multiply(a_cur + ty, b_cur + tx, acc);
        /* The other buffer was last read before the previous step's barrier. */
        if (t + 1 < steps) {
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

    /* C = alpha * acc + beta * C; C is not read when beta is 0. */
    const bool fast_c = !edge && c_aligned;
#pragma unroll
    for (int i = 0; i < 8; i++) {
        const int row = m0 + ty * 4 + i % 4 + (i / 4) * (MWG / 2);
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int col = n0 + tx * 4 + h * (NWG / 2);
            global real *c = C + row * ldc + col;
            const real4 r = alpha * acc[2 * i + h];
            if (fast_c) {
                if (beta == (real)0)
                    *(global real4 *)c = r;
                else
                    *(global real4 *)c = r + beta * *(global real4 *)c;
            } else if (row < M) {
                const real s[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < N)
                        c[j] = beta == (real)0 ? s[j] : s[j] + beta * c[j];
            }
        }
    }
}

/* The tile (gm, gn) of this work-group. Work-groups start about in order of linear id
 * (dimension 0 fastest); consecutive ids walk GROUPM tile rows at a time, column by column, so
 * the tiles in flight together share A and B panels in L2 (with 132 SMs, a row-by-row walk at
 * 8192 keeps about 2 rows of tiles in flight, each B panel being read from DRAM ~32 times; in
 * groups of 8 rows, ~8 times). The last group may have fewer rows. EDGEFIRST then mirrors the
 * grid, so the partial tiles of the last row and column come first. */
XN_INLINE void tile_of_group(int *gm, int *gn)
{
    /* Unsigned, and remainders as x - q*y: no sign fix-ups, and no div/rem pair for the
     * compiler to rewrite with 'freeze' (which Oclgrind's checker cannot run). */
    const uint ntn = (uint)get_num_groups(0), ntm = (uint)get_num_groups(1);
    const uint id = (uint)get_group_id(1) * ntn + (uint)get_group_id(0);
#if GROUPM > 1
    const uint per = GROUPM * ntn, group = id / per, r = id - group * per;
    const uint first = group * GROUPM, rows = min(ntm - first, (uint)GROUPM);
    uint n = r / rows, m = first + (r - n * rows);
#else
    uint m = id / ntn, n = id - m * ntn;
#endif
#if EDGEFIRST
    m = ntm - 1 - m;
    n = ntn - 1 - n;
#endif
    *gm = (int)m;
    *gn = (int)n;
}

__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void xgemm_nv(const int M, const int N, const int K, const real alpha,
                     global const real *restrict A, const int offA, const int lda,
                     global const real *restrict B, const int offB, const int ldb,
                     const real beta, global real *C, const int offC, const int ldc)
{
    local real4 As[2 * KWG * LDA4];
    local real4 Bs[2 * KWG * LDB4];
    int gm, gn;
    tile_of_group(&gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    /* float4 accesses need ld and offset to keep every row 16-byte aligned (the buffers are);
     * the same for every work-group of the launch. */
    const bool a_vec = lda % 4 == 0 && offA % 4 == 0, b_vec = ldb % 4 == 0 && offB % 4 == 0;
    const bool c_vec = ldc % 4 == 0 && offC % 4 == 0;
    /* One copy of the loop for every work-group: the barriers must not sit in two branches
     * (PoCL 3.1 miscompiles that), and the FMAs are the same for interior and edge tiles. */
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    tile(M, N, K, alpha, A + offA, lda, a_vec, B + offB, ldb, b_vec, beta, C + offC, ldc, c_vec,
         m0, n0, edge, As, Bs);
}
