/* dgemm_dmma.cl: double-precision row-major GEMM, C = alpha*op(A)*op(B) + beta*C, on NVIDIA's
 * FP64 tensor cores (DMMA) through inline PTX mma.sync: row-major NN, NT, TN and TT
 * (GB_TRANS_A/GB_TRANS_B), any M, N, K, leading dimension and offset, no padding pass. NVIDIA
 * only (sm_80+; the m16n8k* shapes need sm_90): elsewhere the source stops at an #error unless
 * EMU=1 (below), and the metadata requires an NVIDIA extension so that other devices skip it.
 *
 * A work-group of WGM x WGN warps owns an MWG x NWG tile of C (MWG = WGM*WM, NWG = WGN*WN) and
 * walks K in steps of BK through double-buffered local memory: As[k][m] (MWG + PAD doubles per
 * k-row) and Bs[k][n] (NWG + PAD), both k-major, staged as in xgemm_nv.cl (the next slice's
 * global loads, 16 bytes each, are issued before this slice's MMAs; one barrier per K step).
 * Each warp owns a WM x WN block of C, held as (WM/8) x (WN/8) "atoms" of 8x8, each atom being
 * the accumulator of one mma.m8n8k4: two doubles per lane.
 *
 * Fragment layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f64" and for mma.m16n8k4,
 * m16n8k8, m16n8k16 with .f64), with g = lane >> 2 (groupID), t = lane & 3 (threadID_in_group):
 *   m8n8k4    A (8x4, row):  a0 = A[g][t]
 *             B (4x8, col):  b0 = B[t][g]
 *             C/D (8x8):     c0 = C[g][2t], c1 = C[g][2t + 1]
 *   m16n8kK   (K = 4, 8, 16; sm_90)
 *             A (16xK, row): a(2j + h) = A[g + 8h][4j + t]     h = 0, 1; j = 0 .. K/4 - 1
 *             B (Kx8, col):  b(j) = B[4j + t][g]
 *             C/D (16x8):    c(2h + e) = C[g + 8h][2t + e]     e = 0, 1
 * So an m16n8kK is the same arithmetic as 2 x K/4 m8n8k4 on the same per-lane values: atom
 * (i, n) of the warp covers rows 8i + g and columns 8n + 2t + {0, 1} of the warp's block in
 * every shape, the lane's A value of atom row i at k-quad j is As[4j + t][8i + g] and its B value
 * of atom column n is Bs[4j + t][8n + g]. Only how the registers are grouped into instructions
 * depends on the shape (MMAM x 8 x MMAK).
 *
 * Banks: a fragment load is a 64-bit LDS; in each half-warp the lanes read As[4j + t][8i + g],
 * t in 0..3 and g in 0..3 (or 4..7), i.e. 16 addresses t*(MWG + PAD) + g + const, which are 16
 * different 8-byte bank pairs when MWG + PAD is 4 modulo 16 (PAD = 4). The transposing stores
 * of a K-contiguous operand are 64-bit, 16 consecutive rows per half-warp: conflict-free;
 * copied rows are 128-bit STS of consecutive addresses.
 *
 * Edges as in xgemm_nv: one loop for every work-group; interior tiles (inside M x N) load with
 * no bounds checks, 16-byte loads for an operand whose ld and offset are even and scalar loads
 * otherwise (only a partial last K step is loaded element by element); edge tiles load element
 * by element and their warps whose block lies wholly outside C skip their MMAs. The prelude's
 * tile walk orders the tiles (EDGES, GROUPM). C is written as double2 where the tile is
 * interior and C aligned.
 *
 * EMU=1 is for testing on devices without tensor cores (PoCL): each mma.sync is replaced by an
 * emulation through local memory that follows the fragment tables above literally (every lane
 * publishes its A and B registers, then computes its C registers from the lanes that hold the
 * elements), so the kernel's indexing and register grouping can be validated anywhere. Its
 * scratch (NWARPS * 32 * BK/4 * WN/8 * (WM/8 + WM/MMAM) doubles, 128 KiB for the default
 * tile) comes on top of the tiles. */
#ifndef WM
#define WM 32 /* rows of C per warp: a multiple of 8 (of 16 when MMAM is 16) */
#endif
#ifndef WN
#define WN 32 /* columns of C per warp: a multiple of 8 */
#endif
#ifndef WGM
#define WGM 4 /* warps along M */
#endif
#ifndef WGN
#define WGN 2 /* warps along N */
#endif
#ifndef BK
#define BK 8 /* K step staged in local memory: a multiple of 4 and of MMAK */
#endif
#ifndef MMAM
#define MMAM 8 /* instruction shape: 8 (m8n8k4) or 16 (m16n8kMMAK, sm_90) */
#endif
#ifndef MMAK
#define MMAK 4 /* 4 for m8n8k4; 4, 8 or 16 for m16n8k* */
#endif
#ifndef PAD
#define PAD 4 /* doubles of padding per k-row of the local tiles */
#endif
#ifndef EDGES
#define EDGES 1 /* partial (edge) tiles: 0 in grid order, 1 first (grid walked backwards), 2 last */
#endif
#ifndef GROUPM
#define GROUPM 8 /* work-groups walk the tile grid GROUPM tile rows at a time (1: row by row) */
#endif
#ifndef EMU
#define EMU 0 /* 1: emulate mma.sync through local memory (testing only, slow) */
#endif

#if !GB_NVIDIA && !EMU
#error "dgemm_dmma needs inline PTX mma.sync: NVIDIA GPUs only (GB_NVIDIA), or EMU=1 for testing"
#endif
#if GB_PRECISION != 64
#error "dgemm_dmma is double precision only"
#endif
#if !GB_ROW_MAJOR
#error "dgemm_dmma is row-major; column-major problems are served through the operand swap"
#endif
#if !(MMAM == 8 && MMAK == 4) && !(MMAM == 16 && (MMAK == 4 || MMAK == 8 || MMAK == 16))
#error "dgemm_dmma: shapes are m8n8k4 (MMAM=8 MMAK=4) and m16n8k4/8/16 (MMAM=16)"
#endif
#if WM % MMAM || WN % 8 || BK % MMAK || BK % 4
#error "dgemm_dmma: WM must be a multiple of MMAM, WN of 8, BK of 4 and MMAK"
#endif
#if PAD % 2
#error "dgemm_dmma: PAD must keep local rows 16-byte aligned"
#endif

#define NWARPS (WGM * WGN)
#define WGS (32 * NWARPS)
#define MWG (WGM * WM)
#define NWG (WGN * WN)
#define LDA (MWG + PAD) /* local row strides, doubles */
#define LDB (NWG + PAD)
#define MI (WM / 8)  /* atoms along M per warp */
#define NI (WN / 8)  /* atoms along N per warp */
#define KQ (BK / 4)  /* k-quads per K step */

#if (MWG * BK / 64) % NWARPS || (NWG * BK / 64) % NWARPS
#error "dgemm_dmma: each slice must split into whole 32-lane chunks per warp"
#endif
/* double2 loads per work-item for a slice MN wide, copied or transposed. */
#define LPT(MN) ((MN) * BK / (2 * WGS))
#define LPT_MAX (LPT(MWG) > LPT(NWG) ? LPT(MWG) : LPT(NWG))

#define XD_INLINE static inline __attribute__((always_inline))

/* Positions of load l of this work-item in a slice (see xgemm_nv.cl): transposed slices (K
 * contiguous) are read in chunks of 16 rows x 2 double2 (32 bytes per row, one sector), lane i
 * taking row 16*(q % (MN/16)) + i%16 and double2 column 2*(q / (MN/16)) + i/16 of chunk
 * q = l*NWARPS + warp, so that each half-warp stores 16 consecutive rows of one k-row; copied
 * slices take double2 v = l*WGS + tid, row v / (MN/2), column v % (MN/2). */
typedef struct {
    int r, c;
} xd_pos_t;

XD_INLINE xd_pos_t pos_transposed(const int MN, const int l, const int lane, const int warp)
{
    const uint q = (uint)(l * NWARPS + warp), rb = (uint)(MN / 16), i = (uint)lane;
    xd_pos_t p = {(int)(16 * (q % rb) + i % 16), (int)(2 * (q / rb) + i / 16)};
    return p;
}

XD_INLINE xd_pos_t pos_copied(const int MN, const int l, const int tid)
{
    const uint v = (uint)(l * WGS + tid), w = (uint)(MN / 2);
    xd_pos_t p = {(int)(v / w), (int)(v % w)};
    return p;
}

/* How a slice is read: 16-byte loads with no checks (inside the matrix, rows 16-byte aligned),
 * scalar loads with no checks (inside, any alignment), scalar loads with zeros outside. */
#define LD_VEC 0
#define LD_SCALAR 1
#define LD_CHECKED 2

/* Loads this work-item's share of a slice into reg[] (x: the slice's origin; rows x cols of it
 * lie inside the matrix, used by LD_CHECKED only). */
XD_INLINE void load_slice(global const double *x, const int ld, const int rows, const int cols,
                          const int MN, const bool transposed, const int mode, const int tid,
                          double2 *reg)
{
    const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN)) {
            const xd_pos_t p = transposed ? pos_transposed(MN, l, lane, warp)
                                          : pos_copied(MN, l, tid);
            global const double *src = x + p.r * ld + 2 * p.c;
            if (mode == LD_VEC) {
                reg[l] = *(global const double2 *)src;
            } else if (mode == LD_SCALAR) {
                reg[l] = (double2)(src[0], src[1]);
            } else {
                const bool in = p.r < rows;
                double2 v = (double2)0.0;
                if (in && 2 * p.c < cols)
                    v.x = src[0];
                if (in && 2 * p.c + 1 < cols)
                    v.y = src[1];
                reg[l] = v;
            }
        }
    }
}

/* Stores reg[] into the k-major local tile xs (ld doubles per k-row). */
XD_INLINE void store_slice(local double *xs, const int ld, const int MN, const bool transposed,
                           const int tid, const double2 *reg)
{
    const int lane = tid & 31, warp = tid >> 5;
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN)) {
            if (transposed) {
                const xd_pos_t p = pos_transposed(MN, l, lane, warp);
                local double *d = xs + 2 * p.c * ld + p.r;
                d[0] = reg[l].x;
                d[ld] = reg[l].y;
            } else {
                const xd_pos_t p = pos_copied(MN, l, tid);
                *(local double2 *)(xs + p.r * ld + 2 * p.c) = reg[l];
            }
        }
    }
}

/* ---- The MMA instructions. acc[(i * NI + n) * 2 + e] is element e of atom (i, n); af[i * KQ + j]
 * and bf[n * KQ + j] are the lane's A and B values of atom row i / column n at k-quad j. */
#define ACC(i, n, e) acc[((i) * NI + (n)) * 2 + (e)]
#define AF(i, j) af[(i) * KQ + (j)]
#define BF(n, j) bf[(n) * KQ + (j)]
#define AREGS (MMAM / 8 * MMAK / 4) /* registers per instruction: A */
#define BREGS (MMAK / 4)            /* B */
#define CREGS (2 * MMAM / 8)        /* C and D */
#define NQ ((BK / MMAK) * (WM / MMAM) * NI) /* instructions per warp per K step */

#if EMU
/* Emulation scratch: every warp's operands of every instruction of one K step, one double per
 * lane and register. */
#define EMU_DECL local double emu_a[NWARPS * NQ * AREGS * 32], emu_b[NWARPS * NQ * BREGS * 32];
#define EMU_ARGS , emu_a, emu_b
#define EMU_PARAMS , local double *emu_a, local double *emu_b

/* Phase 0: lane publishes its A and B registers of instruction q; phase 1: it computes its C
 * registers from the lanes that hold the elements, per the fragment tables at the top. */
XD_INLINE void emu_mma(const int phase, const int q, const int warp, const int lane,
                       const double *a, const double *b, double *c, local double *emu_a,
                       local double *emu_b)
{
    local double *sa = emu_a + (warp * NQ + q) * AREGS * 32;
    local double *sb = emu_b + (warp * NQ + q) * BREGS * 32;
    if (phase == 0) {
        for (int r = 0; r < AREGS; r++)
            sa[r * 32 + lane] = a[r];
        for (int r = 0; r < BREGS; r++)
            sb[r * 32 + lane] = b[r];
        return;
    }
    const int g = lane >> 2, t = lane & 3;
    for (int ci = 0; ci < CREGS; ci++) {
        const int h = ci / 2, e = ci % 2, row = g + 8 * h, col = 2 * t + e;
        double s = 0.0;
        for (int kx = 0; kx < MMAK; kx++) {
            /* A[row][kx]: lane 4*(row % 8) + kx % 4, register 2*(kx / 4) + row / 8 (m16n8kK) or 0
             * (m8n8k4, where row < 8 and kx < 4); B[kx][col]: lane 4*col + kx % 4, reg kx / 4. */
            const int ar = MMAM == 16 ? 2 * (kx / 4) + row / 8 : 0;
            const double av = sa[ar * 32 + 4 * (row % 8) + kx % 4];
            const double bv = sb[(kx / 4) * 32 + 4 * col + kx % 4];
            s += av * bv;
        }
        c[ci] += s;
    }
}
#else
#define EMU_DECL
#define EMU_ARGS
#define EMU_PARAMS
#endif

/* Issues instruction q with registers a[AREGS], b[BREGS] and accumulators c[CREGS]. */
#if EMU
#define MMA(q, a, b, c) emu_mma(phase, q, warp, lane, a, b, c, emu_a, emu_b)
#elif MMAM == 8
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "                     \
                         "{%0, %1}, {%2}, {%3}, {%0, %1};"                                      \
                         : "+d"(c[0]), "+d"(c[1])                                               \
                         : "d"(a[0]), "d"(b[0]))
#elif MMAK == 4
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "                    \
                         "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"                  \
                         : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])                       \
                         : "d"(a[0]), "d"(a[1]), "d"(b[0]))
#elif MMAK == 8
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "                    \
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
                         : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])                       \
                         : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]))
#else
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 "                   \
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, "               \
                         "{%12, %13, %14, %15}, {%0, %1, %2, %3};"                              \
                         : "+d"(c[0]), "+d"(c[1]), "+d"(c[2]), "+d"(c[3])                       \
                         : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]),    \
                           "d"(a[6]), "d"(a[7]), "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]))
#endif

/* acc += this warp's block of A times B over one K step. as and bs point at the lane's first
 * fragment element in the current buffers: As + t*LDA + wm0 + g and Bs + t*LDB + wn0 + g. */
XD_INLINE void multiply(local const double *as, local const double *bs, double *acc,
                        const int warp, const int lane EMU_PARAMS)
{
    double af[MI * KQ], bf[NI * KQ];
#pragma unroll
    for (int j = 0; j < KQ; j++) {
#pragma unroll
        for (int i = 0; i < MI; i++)
            AF(i, j) = as[4 * j * LDA + 8 * i];
#pragma unroll
        for (int n = 0; n < NI; n++)
            BF(n, j) = bs[4 * j * LDB + 8 * n];
    }
#if EMU
    for (int phase = 0; phase < 2; phase++) {
#else
    (void)warp;
    (void)lane;
#endif
#pragma unroll
        for (int kb = 0; kb < BK / MMAK; kb++) {
#pragma unroll
            for (int i2 = 0; i2 < WM / MMAM; i2++) {
#pragma unroll
                for (int n = 0; n < NI; n++) {
                    const int q = (kb * (WM / MMAM) + i2) * NI + n;
                    double a[AREGS], b[BREGS], c[CREGS];
                    /* Register r = 2*jj + h of A is atom row MMAM/8*i2 + h at k-quad
                     * kb*MMAK/4 + jj (h = 0 only for m8n8k4); B's register jj is that k-quad;
                     * C's register 2*h + e is element e of atom row MMAM/8*i2 + h. */
#pragma unroll
                    for (int jj = 0; jj < MMAK / 4; jj++) {
#pragma unroll
                        for (int h = 0; h < MMAM / 8; h++)
                            a[jj * (MMAM / 8) + h] = AF(MMAM / 8 * i2 + h, kb * (MMAK / 4) + jj);
                        b[jj] = BF(n, kb * (MMAK / 4) + jj);
                    }
#pragma unroll
                    for (int h = 0; h < MMAM / 8; h++) {
                        c[2 * h] = ACC(MMAM / 8 * i2 + h, n, 0);
                        c[2 * h + 1] = ACC(MMAM / 8 * i2 + h, n, 1);
                    }
                    MMA(q, a, b, c);
#pragma unroll
                    for (int h = 0; h < MMAM / 8; h++) {
                        ACC(MMAM / 8 * i2 + h, n, 0) = c[2 * h];
                        ACC(MMAM / 8 * i2 + h, n, 1) = c[2 * h + 1];
                    }
                }
            }
        }
#if EMU
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
}

#if GB_TRANS_A
#define A_TRANSPOSED 0 /* A^T stored K x M: M contiguous, copied */
#define A_AT(t) (A + (t) * BK * lda + m0)
#define A_ROWS(t) (K - (t) * BK)
#define A_COLS(t) (M - m0)
#else
#define A_TRANSPOSED 1 /* A stored M x K: K contiguous, transposed into As[k][m] */
#define A_AT(t) (A + m0 * lda + (t) * BK)
#define A_ROWS(t) (M - m0)
#define A_COLS(t) (K - (t) * BK)
#endif
#if GB_TRANS_B
#define B_TRANSPOSED 1 /* B^T stored N x K: K contiguous, transposed into Bs[k][n] */
#define B_AT(t) (B + n0 * ldb + (t) * BK)
#define B_ROWS(t) (N - n0)
#define B_COLS(t) (K - (t) * BK)
#else
#define B_TRANSPOSED 0 /* B stored K x N: N contiguous, copied */
#define B_AT(t) (B + (t) * BK * ldb + n0)
#define B_ROWS(t) (K - (t) * BK)
#define B_COLS(t) (N - n0)
#endif
#define LOAD_A(t, mode, ra)                                                                    \
    load_slice(A_AT(t), lda, A_ROWS(t), A_COLS(t), MWG, A_TRANSPOSED, mode, tid, ra)
#define LOAD_B(t, mode, rb)                                                                    \
    load_slice(B_AT(t), ldb, B_ROWS(t), B_COLS(t), NWG, B_TRANSPOSED, mode, tid, rb)

/* The whole tile at (m0, n0); edge is uniform over the work-group (see xgemm_nv): interior
 * tiles read an operand with unchecked 16-byte loads where a_vec / b_vec allow, unchecked
 * scalars otherwise, edge tiles element by element. */
XD_INLINE void tile(const int M, const int N, const int K, const double alpha,
                    global const double *A, const int lda, const bool a_vec,
                    global const double *B, const int ldb, const bool b_vec, const double beta,
                    global double *C, const int ldc, const bool c_aligned, const int m0,
                    const int n0, const bool edge, local double *As,
                    local double *Bs EMU_PARAMS)
{
    const int tid = (int)get_local_id(0), lane = tid & 31, warp = tid >> 5;
    const int g = lane >> 2, t = lane & 3;
    const int wm0 = (int)((uint)warp / WGN) * WM, wn0 = (int)((uint)warp % WGN) * WN;
#if EMU
    const bool live = true; /* the emulation's barriers need every warp */
#else
    /* Warps whose block lies wholly outside C skip their MMAs (edge tiles only); the
     * condition is uniform over the warp, as mma.sync.aligned requires. */
    const bool live = !edge || (m0 + wm0 < M && n0 + wn0 < N);
#endif
    const int full = K / BK, steps = (K + BK - 1) / BK;

    double acc[MI * NI * 2];
#pragma unroll
    for (int i = 0; i < MI * NI * 2; i++)
        acc[i] = 0.0;
    double2 ra[LPT_MAX], rb[LPT_MAX];

    local double *a_cur = As, *a_nxt = As + BK * LDA, *b_cur = Bs, *b_nxt = Bs + BK * LDB;
    const int mode_a = a_vec ? LD_VEC : LD_SCALAR, mode_b = b_vec ? LD_VEC : LD_SCALAR;
    if (steps > 0) {
        if (!edge && full > 0) {
            LOAD_A(0, mode_a, ra);
            LOAD_B(0, mode_b, rb);
        } else {
            LOAD_A(0, LD_CHECKED, ra);
            LOAD_B(0, LD_CHECKED, rb);
        }
        store_slice(a_cur, LDA, MWG, A_TRANSPOSED, tid, ra);
        store_slice(b_cur, LDB, NWG, B_TRANSPOSED, tid, rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 0; s < steps; s++) {
        if (!edge && s + 1 < full) {
            LOAD_A(s + 1, mode_a, ra);
            LOAD_B(s + 1, mode_b, rb);
        } else if (s + 1 < steps) {
            LOAD_A(s + 1, LD_CHECKED, ra);
            LOAD_B(s + 1, LD_CHECKED, rb);
        }
        if (live)
            multiply(a_cur + t * LDA + wm0 + g, b_cur + t * LDB + wn0 + g, acc, warp,
                     lane EMU_ARGS);
        if (s + 1 < steps) {
            store_slice(a_nxt, LDA, MWG, A_TRANSPOSED, tid, ra);
            store_slice(b_nxt, LDB, NWG, B_TRANSPOSED, tid, rb);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local double *a_tmp = a_cur, *b_tmp = b_cur;
        a_cur = a_nxt;
        b_cur = b_nxt;
        a_nxt = a_tmp;
        b_nxt = b_tmp;
    }

    /* Atom (i, n) element e is C[m0 + wm0 + 8i + g][n0 + wn0 + 8n + 2t + e]. */
    const bool fast_c = !edge && c_aligned;
#pragma unroll
    for (int i = 0; i < MI; i++) {
        const int row = m0 + wm0 + 8 * i + g;
#pragma unroll
        for (int n = 0; n < NI; n++) {
            const int col = n0 + wn0 + 8 * n + 2 * t;
            global double *c = C + row * ldc + col;
            const double2 r = alpha * (double2)(ACC(i, n, 0), ACC(i, n, 1));
            if (fast_c) {
                if (beta == 0.0)
                    *(global double2 *)c = r;
                else
                    *(global double2 *)c = r + beta * *(global double2 *)c;
            } else if (row < M) {
                if (col < N)
                    c[0] = beta == 0.0 ? r.x : r.x + beta * c[0];
                if (col + 1 < N)
                    c[1] = beta == 0.0 ? r.y : r.y + beta * c[1];
            }
        }
    }
}

__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void dgemm_dmma(const int M, const int N, const int K, const double alpha,
                       global const double *restrict A, const int offA, const int lda,
                       global const double *restrict B, const int offB, const int ldb,
                       const double beta, global double *C, const int offC, const int ldc)
{
    /* Declared as double2 for their alignment: the 16-byte local stores need 16-byte-aligned
     * tiles, and NVIDIA's OpenCL does not place a local double array on a 16-byte boundary (the
     * stores then fault, reported as CL_INVALID_COMMAND_QUEUE). Two buffers of BK k-rows each. */
    local double2 As2[BK * LDA], Bs2[BK * LDB];
    local double *As = (local double *)As2, *Bs = (local double *)Bs2;
    EMU_DECL
    int gm, gn;
    gb_tile_of_group(GROUPM, EDGES, M % MWG != 0, N % NWG != 0, &gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    /* 16-byte accesses need ld and offset even (the buffers are aligned); per launch. */
    const bool a_vec = lda % 2 == 0 && offA % 2 == 0, b_vec = ldb % 2 == 0 && offB % 2 == 0;
    const bool c_vec = ldc % 2 == 0 && offC % 2 == 0;
    /* One copy of the loop for every work-group (see xgemm_nv.cl). */
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    tile(M, N, K, alpha, A + offA, lda, a_vec, B + offB, ldb, b_vec, beta, C + offC, ldc, c_vec,
         m0, n0, edge, As, Bs EMU_ARGS);
}
