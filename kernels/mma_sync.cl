/* mma_sync.cl: row-major GEMM, C = alpha*op(A)*op(B) + beta*C, on NVIDIA's tensor cores through
 * inline PTX mma.sync: row-major NN, NT, TN and TT (GB_TRANS_A/GB_TRANS_B), any M, N, K, leading
 * dimension and offset, no padding pass. Two families share it:
 *   dgemm_dmma   double precision on the FP64 tensor cores (DMMA): one mma.f64 per product block.
 *   sgemm_3xtf32 single precision on the TF32 tensor cores with FP32 accuracy: each operand x is
 *                split into big and small, TF32 values with big + small = x up to 2^-21 |x|
 *                (SPLIT says how), and every product block is the sum small*big + big*small +
 *                big*big, three mma.tf32, accumulated in FP32 (the small*small term, below
 *                2^-20 of the product, is dropped). With KACC=1 each K step's sums accumulate
 *                from zero in the tensor core and are then added to the running sums by FP32
 *                adds, which round to nearest where the tensor core's own accumulation
 *                truncates (KACC=0 is not faithful at K = 4096 on the H200: 12x FP32).
 * NVIDIA only (sm_80+; the m16n8k* shapes need sm_90 in double): elsewhere the source stops at an
 * #error unless EMU=1 (below), and the metadata requires an NVIDIA extension so that other
 * devices skip it.
 *
 * A work-group of WGM x WGN warps owns an MWG x NWG tile of C (MWG = WGM*WM, NWG = WGN*WN) and
 * walks K in steps of BK through double-buffered local memory: As[k][m] (MWG + PAD elements per
 * k-row) and Bs[k][n] (NWG + PAD), both k-major, staged as in xgemm_nv.cl (the next slice's
 * global loads, 16 bytes each, are issued before this slice's MMAs; one barrier per K step).
 * With KCONT=1 an operand stored K-contiguous (A in NN and NT, B in NT and TT) stays so:
 * As[m][k] (Bs[n][k]) in rows of LDK elements, stored by the 16-byte stores of a copy where
 * KCONT=0 transposes it into the k-major tile by scalar stores; its fragments are read along k.
 * Each warp owns a WM x WN block of C, held as (WM/8) x (WN/8) "atoms" of 8x8, each atom being
 * the accumulator of one mma.m8n8k4: two elements per lane.
 *
 * Fragment layouts (PTX ISA, "Matrix Fragments for mma.m8n8k4 with .f64" and for mma.m16n8k4,
 * m16n8k8, m16n8k16 with .f64 and .tf32, which place elements alike), with g = lane >> 2
 * (groupID), t = lane & 3 (threadID_in_group):
 *   m8n8k4    A (8x4, row):  a0 = A[g][t]                                  (f64 only)
 *             B (4x8, col):  b0 = B[t][g]
 *             C/D (8x8):     c0 = C[g][2t], c1 = C[g][2t + 1]
 *   m16n8kK   (K = 4, 8, and 16 in f64 only; sm_90 in f64, sm_80 in tf32)
 *             A (16xK, row): a(2j + h) = A[g + 8h][4j + t]     h = 0, 1; j = 0 .. K/4 - 1
 *             B (Kx8, col):  b(j) = B[4j + t][g]
 *             C/D (16x8):    c(2h + e) = C[g + 8h][2t + e]     e = 0, 1
 * So an m16n8kK is the same arithmetic as 2 x K/4 m8n8k4 on the same per-lane values: atom
 * (i, n) of the warp covers rows 8i + g and columns 8n + 2t + {0, 1} of the warp's block in
 * every shape, the lane's A value of atom row i at k-quad j is As[4j + t][8i + g] and its B value
 * of atom column n is Bs[4j + t][8n + g]. Only how the registers are grouped into instructions
 * depends on the shape (MMAM x 8 x MMAK).
 *
 * With PAIRS=1 a lane's rows and columns come in neighbouring pairs where a tile is k-major:
 * atom rows 2p and 2p + 1 are rows 16p + 2g and 16p + 2g + 1 of the warp's block (one m16n8k*'s
 * A register quad, or two m8n8k4s' A operands), atom columns 2p and 2p + 1 columns 16p + 2g and
 * 16p + 2g + 1 (two B operands), each pair one 16-byte (single: 8-byte) load; its accumulators
 * are then rows 16p + 2g + h and columns 16p + 4t + 0..3, the epilogue's neighbours.
 * Banks: in double a fragment load is a 64-bit LDS; in each half-warp the lanes read
 * As[4j + t][8i + g], t in 0..3 and g in 0..3 (or 4..7), i.e. 16 addresses t*(MWG + PAD) + g +
 * const, which are 16 different 8-byte bank pairs when MWG + PAD is 4 modulo 16 (PAD = 4). In
 * single, the 32 lanes read t*(MWG + PAD) + g + const, 32 different banks when MWG + PAD is 8
 * modulo 32 (PAD = 8). A K-contiguous tile (KCONT) is read at g*LDK + t + const: distinct
 * banks in either precision when LDK is an odd multiple of 4. PAIRS' loads at t*(MWG + PAD) +
 * 2g are distinct 16-byte columns in a quarter-warp (8-byte in a half-warp in single) with the
 * same PAD. The transposing stores of a K-contiguous operand are scalar, 16 consecutive rows per
 * half-warp; copied rows are 128-bit STS of consecutive addresses.
 *
 * Split-K (SPLITK > 1, P = min(SPLITK, K / 256) pieces, or SPLITK = 0, the pieces the grid
 * needs): every tile is cut along K into P pieces. With TAIL, where the tiles end in a partial
 * wave (two work-groups a compute unit), only that wave's tiles are cut, into the most pieces
 * that fill TAIL waves, where that is shorter than one tile's time. The family's lets give D
 * (tiles run whole) and PS (pieces of each other tile) at launch: piece j of a tile walks K steps
 * [j S / PS, (j + 1) S / PS) and writes its bare sums to its own slot of the workspace;
 * mma_sync_sum then adds each element's PS sums in the order of j (the same result run to run)
 * and applies alpha and beta. With FIXUP the pieces do that themselves, in the same order and
 * with the same result: the last of a tile's pieces to finish (a counter a tile in CNT, left
 * zero) adds them all and writes C, with no second kernel; the addition still ends the launch,
 * so it saves little where every piece runs in one wave (bench/notes/thin.md#thin-fixup-h200).
 *
 * Edges as in xgemm_nv: one loop for every work-group; interior tiles (inside M x N) load with
 * no bounds checks, 16-byte loads for an operand whose ld and offset allow them and scalar loads
 * otherwise (only a partial last K step is loaded element by element); edge tiles load element
 * by element and their warps whose block lies wholly outside C skip their MMAs. The prelude's
 * tile walk orders the tiles (EDGES, GROUPM). C is written two elements at a time where the
 * tile is interior and C aligned.
 *
 * EXPANDB=1 (set by the route, never tuned): a complex problem through the 1M method, whose
 * real B is the 2K x 2N matrix Y of 2 x 2 blocks [re im; -im re] made from alpha op(B): here B
 * is the caller's complex B as stored (K x N, read as the real K x 2N matrix of its parts, the
 * leading dimension and offset in reals; or, with GB_TRANS_B, N x K, whose real N x 2K view is
 * read as Y's transpose), and each row of a staged slice is made from B's row of half its index
 * as it is loaded (gb_expand1m's arithmetic: conjugations by
 * EXPANDB_CONJA / _CONJB, times the complex alpha (alphaRe, alphaIm) where it is not 1), so the
 * pass that writes Y and the kernel's reading twice B's bytes are gone; the sums are 1M's.
 *
 * EMU=1 is for testing on devices without tensor cores (PoCL): each mma.sync is replaced by an
 * emulation through local memory that follows the fragment tables above literally (every lane
 * publishes its A and B registers, then computes its C registers from the lanes that hold the
 * elements), so the kernel's indexing, register grouping and operand split can be validated
 * anywhere. Its scratch (NWARPS * 32 * NPROD * BK/4 * WN/8 * (WM/8 + WM/MMAM) elements) comes
 * on top of the tiles. */
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
#define PAD 4 /* elements of padding per k-row of the local tiles */
#endif
#ifndef EDGES
#define EDGES 1 /* partial (edge) tiles: 0 in grid order, 1 first (grid walked backwards), 2 last */
#endif
#ifndef GROUPM
#define GROUPM 8 /* work-groups walk the tile grid GROUPM tile rows at a time (1: row by row) */
#endif
#ifndef KACC
#define KACC 0 /* k > 0: every k K steps' sums accumulate from zero, then are added to the
                  running sums by FP adds; 0: the MMAs accumulate across all of K */
#endif
#ifndef FRAG
#define FRAG 0 /* 1: operands read from local memory per instruction, not per K step */
#endif
#ifndef SPLIT
#define SPLIT 0 /* single precision: how x is split into big + small (see tf32_split) */
#endif
#ifndef MAXREG
#define MAXREG 0 /* registers per work-item on NVIDIA (-cl-nv-maxrregcount); 0: the compiler's */
#endif
#ifndef KCONT
#define KCONT 0 /* 1: an operand stored K-contiguous stays so in local memory (see below) */
#endif
#ifndef PAIRS
#define PAIRS 0 /* 1: a lane's rows and columns of a k-major tile in neighbouring pairs */
#endif
#ifndef SPLITK
#define SPLITK 1 /* most pieces a tile's K is cut into (split-K); 1: none; 0: the grid's need */
#endif
#ifndef TAIL
#define TAIL 0 /* waves a last partial wave's tiles are cut over along K; 0: none */
#endif
#define SPLIT_CODE (SPLITK != 1 || TAIL) /* the pieces' path built in (PS > 1 may come at launch) */
#ifndef EXPANDB
#define EXPANDB 0 /* 1: B is a complex B as stored, from which Y is staged (see above) */
#endif
#ifndef EXPANDB_CONJA
#define EXPANDB_CONJA 0
#endif
#ifndef EXPANDB_CONJB
#define EXPANDB_CONJB 0
#endif
#ifndef EMU
#define EMU 0 /* 1: emulate mma.sync through local memory (testing only, slow) */
#endif
#ifndef TMA
#define TMA 0 /* dgemm_dmma in TN: 1 fills the stages by the tensor memory accelerator (below) */
#endif
#ifndef STAGES
#define STAGES 2 /* TMA: local buffers of K steps, STAGES - 1 of them filling ahead */
#endif
#ifndef FIXUP
#define FIXUP 0 /* 1: a split tile's last piece adds the pieces (no mma_sync_sum) */
#endif

#if !GB_NVIDIA && !EMU
#error "mma_sync needs inline PTX mma.sync: NVIDIA GPUs only (GB_NVIDIA), or EMU=1 for testing"
#endif
#if !GB_ROW_MAJOR
#error "mma_sync is row-major; column-major problems are served through the operand swap"
#endif
#if GB_PRECISION == 64
#define TF32X3 0
#define NPROD 1 /* instructions per product block */
#define VW 2    /* elements per 16-byte access */
typedef double2 vec_t;
#define VLOADW vload2
#define VSTOREW vstore2
#if !(MMAM == 8 && MMAK == 4) && !(MMAM == 16 && (MMAK == 4 || MMAK == 8 || MMAK == 16))
#error "dgemm_dmma: shapes are m8n8k4 (MMAM=8 MMAK=4) and m16n8k4/8/16 (MMAM=16)"
#endif
#else
#define TF32X3 1
#define NPROD 3
#define VW 4
typedef float4 vec_t;
#define VLOADW vload4
#define VSTOREW vstore4
#if !(MMAM == 16 && (MMAK == 4 || MMAK == 8))
#error "sgemm_3xtf32: shapes are m16n8k4 and m16n8k8 (MMAM=16, MMAK=4 or 8)"
#endif
#endif
#if WM % MMAM || WN % 8 || BK % MMAK || BK % (2 * VW)
#error "mma_sync: WM must be a multiple of MMAM, WN of 8, BK of MMAK and of two 16-byte vectors"
#endif
#if PAD % VW
#error "mma_sync: PAD must keep local rows 16-byte aligned"
#endif
#if PAIRS && (WM % 16 || WN % 16)
#error "mma_sync: PAIRS pairs the atoms of a warp: WM and WN must be multiples of 16"
#endif

#define NWARPS (WGM * WGN)
#define WGS (32 * NWARPS)
#define MWG (WGM * WM)
#define NWG (WGN * WN)
#define LDA (MWG + PAD) /* local row strides, elements */
#define LDB (NWG + PAD)
/* The row stride of a K-contiguous local tile: an odd multiple of 4 elements, so that the 16
 * (double) or 32 (single) lanes of a fragment load, at g * LDK + t, hit distinct banks. */
#define LDK (BK / 4 % 2 ? BK : BK + 4)

#if GB_TRANS_A
#define A_TRANSPOSED 0 /* A^T stored K x M: M contiguous, copied into As[k][m] */
#else
#define A_TRANSPOSED 1 /* A stored M x K: K contiguous, into As[k][m] or, KCONT, As[m][k] */
#endif
#if GB_TRANS_B
#define B_TRANSPOSED 1 /* B^T stored N x K: K contiguous, into Bs[k][n] or, KCONT, Bs[n][k] */
#else
#define B_TRANSPOSED 0 /* B stored K x N: N contiguous, copied into Bs[k][n] */
#endif
/* Whether an operand's local tile keeps K contiguous (rows of LDK along M or N); its strides
 * between neighbours along K and along M (N), and its elements per buffer. */
#define A_KC (KCONT && A_TRANSPOSED)
#define B_KC (KCONT && B_TRANSPOSED)
#define TMA_KC (TMA && (A_KC || B_KC)) /* the copy engine fills a K-contiguous tile */
#if TMA && (EXPANDB || !PAIRS || BK % 8 || STAGES < 2 || A_TRANSPOSED > A_KC ||               \
            B_TRANSPOSED > B_KC || (TMA_KC && (GB_PRECISION != 64 || BK % 16)))
#error "mma_sync: TMA needs PAIRS=1, BK % 8 == 0, no EXPANDB; K-contiguous: KCONT, double, BK % 16"
#endif
#if TMA
/* TMA=1: a tile is slabs of 16 rows (columns), each BK k-rows of 16 elements (128 bytes in
 * double, 64 in single) written by the copy engine through the swizzle of that width (the
 * 16-byte unit's index XOR the address's bits from 128 bytes up; every slab starts on a 1024-byte
 * boundary). So element (k, m) of A's tile is TMA_AT(k, m), the next slab BK * 16 elements on,
 * and a lane's atoms of pairs (rows 16p + 2g and 16p + 2g + 1) are 16 p BK apart. The lane of
 * k-slot t of k-quad j reads k-row KROW(j, t) (A and B alike; any order of k inside a step gives
 * the same sums), chosen so that the lanes a load serves at once take different banks: in double
 * 8 (j / 2) + 2t + j % 2, whose pair is 16-byte unit g XOR (2t + j % 2) of the k-row, so a
 * quarter-warp's 8 loads take 8 units; in single 8 (j / 2) + 2 (j % 2) + 4 (t / 2) + t % 2, so a
 * half-warp's 16 8-byte loads take the 16 halves of 8 units of two 64-byte k-rows. With the
 * k-rows in order (4j + t), two or four lanes would share a unit; with dense rows (no swizzle),
 * a quarter-warp's four k-rows would all fall on the same banks.
 * An operand kept K-contiguous (TMA_KC, double) is slabs of 16 k instead, one 128-byte row of
 * them per row of M (N), through the same swizzle: element (k, m) at TMA_KAT(k, m, MWG). Its
 * half-warp's lanes read rows g (4 swizzle rows) at k-slot t: 16 distinct 8-byte halves only
 * where bits 0 and 3 of the four lanes' k differ, while a k-major tile beside it needs bits 1
 * and 2 to differ. So then k-slot t of k-quad j is KT(t) XOR (j % 2) XOR 8 ((j / 2) % 2) in
 * each 16, with KT = 0, 3, 12, 15: both hold (bench/notes/thin.md#thin-dmma-kc-tma). */
#define TMA_ES (GB_PRECISION / 8)               /* bytes an element */
#define TMA_SWB (GB_PRECISION == 64 ? 128 : 64) /* the swizzle's width: one k-row of a slab */
#define TMA_SWZ(e) (GB_SWIZZLE((e) * TMA_ES, TMA_SWB) / TMA_ES)
#define TMA_AT(k, m) (((m) >> 4) * (BK * 16) + TMA_SWZ((k) * 16 + ((m) & 15)))
#define TMA_KAT(k, m, mn) (((k) >> 4) * ((mn) * 16) + TMA_SWZ((m) * 16 + ((k) & 15)))
#if TMA_KC
#define KROW(j, t)                                                                             \
    (16 * ((j) / 4) + ((3 * ((t) & 1) + 12 * ((t) >> 1)) ^ ((j) & 1) ^ 8 * ((j) >> 1 & 1)))
#elif GB_PRECISION == 64
#define KROW(j, t) (8 * ((j) / 2) + 2 * (t) + (j) % 2)
#else
#define KROW(j, t) (8 * ((j) / 2) + 2 * ((j) % 2) + 4 * ((t) / 2) + (t) % 2)
#endif
/* Element (k, m) of A's tile, (k, n) of B's. */
#define A_TAT(k, m) (A_KC ? TMA_KAT(k, m, MWG) : TMA_AT(k, m))
#define B_TAT(k, n) (B_KC ? TMA_KAT(k, n, NWG) : TMA_AT(k, n))
#define A_KS 0 /* unused: k-quads are found by A_KOFF */
#define A_MS (A_KC ? 16 : BK)
#define B_KS 0
#define B_NS (B_KC ? 16 : BK)
#define A_TILE (MWG * BK)
#define B_TILE (NWG * BK)
/* Where k-quad j's element lies from k-quad 0's: 16 k on (the next k slab, or 16 k-rows on)
 * for j's bit 2, and for bits 0 and 1 the lane's own steps (ko, from tile: the swizzle moves
 * them), the same for every atom since atoms are 8 or 16 rows apart, a whole swizzle period.
 * Without a K-contiguous tile bit 1 is 8 k-rows on in every lane: 128 elements. */
#define TMA_KOFF(j, slab, d1, d2) ((j) / 4 * (slab) + ((j) >> 1 & 1) * (d2) + ((j) & 1) * (d1))
#define A_KOFF(j) TMA_KOFF(j, A_TAT(16, 0), ko.x, TMA_KC ? ko.y : 128)
#define B_KOFF(j) TMA_KOFF(j, B_TAT(16, 0), ko.z, TMA_KC ? ko.w : 128)
#else
#define A_KS (A_KC ? 1 : LDA)
#define A_MS (A_KC ? LDK : 1)
#define B_KS (B_KC ? 1 : LDB)
#define B_NS (B_KC ? LDK : 1)
#define A_TILE (A_KC ? MWG * LDK : BK * LDA)
#define B_TILE (B_KC ? NWG * LDK : BK * LDB)
#define A_KOFF(j) (4 * (j) * A_KS)
#define B_KOFF(j) (4 * (j) * B_KS)
#endif
/* Whether an operand's rows (columns) pair (PAIRS, k-major tiles only); the offset along M (N)
 * of the lane's element of atom i from its first, which is row g, or 2g with pairs; and where
 * atom (i, n)'s element e of the lane lies in the warp's block: its row is the lane's own, its
 * column the one lane 2t + e (whose group is that column) reads of B. */
#define A_PAIR (PAIRS && !A_KC)
#define B_PAIR (PAIRS && !B_KC)
#define ATOM_OFF(pair, i) ((pair) ? 16 * ((i) / 2) + (i) % 2 : 8 * (i))
#define LANE_OFF(pair, g) ((1 + (pair)) * (g))
#define ROW_AT(i) (ATOM_OFF(A_PAIR, i) + LANE_OFF(A_PAIR, g))
#define COL_AT(n, e) (ATOM_OFF(B_PAIR, n) + LANE_OFF(B_PAIR, 2 * t + (e)))
#define MI (WM / 8)  /* atoms along M per warp */
#define NI (WN / 8)  /* atoms along N per warp */
#define KQ (BK / 4)  /* k-quads per K step */

#if (MWG * BK / (32 * VW)) % NWARPS || (NWG * BK / (32 * VW)) % NWARPS
#error "mma_sync: each slice must split into whole 32-lane chunks per warp"
#endif
/* 16-byte loads per work-item for a slice MN wide, copied or transposed. */
#define LPT(MN) ((MN) * BK / (VW * WGS))
#define LPT_MAX (LPT(MWG) > LPT(NWG) ? LPT(MWG) : LPT(NWG))

#define XD_INLINE static inline __attribute__((always_inline))

/* Positions of load l of this work-item in a slice (see xgemm_nv.cl), in 16-byte vectors of VW
 * elements: transposed slices (K contiguous) are read in chunks of 16 rows x 2 vectors (32 bytes
 * per row, one sector), lane i taking row 16*(q % (MN/16)) + i%16 and vector column
 * 2*(q / (MN/16)) + i/16 of chunk q = l*NWARPS + warp, so that each half-warp stores 16
 * consecutive rows of one k-row; copied slices take vector v = l*WGS + tid, row v / (MN/VW),
 * column v % (MN/VW). */
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
    const uint v = (uint)(l * WGS + tid), w = (uint)(MN / VW);
    xd_pos_t p = {(int)(v / w), (int)(v % w)};
    return p;
}

/* Load l's position in a slice: a K-contiguous slice kept so in local memory (kc) is read whole
 * rows at a time, as a copied slice BK wide (a warp's load spans 32 * VW / BK rows of global
 * memory, where pos_transposed's, which the transposing stores need, spans 16). */
XD_INLINE xd_pos_t pos_slice(const int MN, const bool transposed, const bool kc, const int l,
                             const int tid)
{
    return kc ? pos_copied(BK, l, tid)
              : transposed ? pos_transposed(MN, l, tid & 31, tid >> 5) : pos_copied(MN, l, tid);
}

/* How a slice is read: 16-byte loads with no checks (inside the matrix, rows 16-byte aligned),
 * scalar loads with no checks (inside, any alignment), scalar loads with zeros outside. */
#define LD_VEC 0
#define LD_SCALAR 1
#define LD_CHECKED 2

/* One complex element b of B as row 2l (odd: 2l + 1) of Y holds it, or, B transposed, as row
 * 2j (2j + 1) of Y's transpose: the prelude's block of 1M, which gb_expand1m writes, so that
 * the sums are the same bits. */
XD_INLINE real2 y_pair(const real2 b, const bool odd, const real2 alpha)
{
    const real2 top = gb_1m_b(b, EXPANDB_CONJB, alpha), bottom = gb_1m_odd(top, EXPANDB_CONJA);
#if GB_TRANS_B
    return odd ? (real2)(top.y, bottom.y) : (real2)(top.x, bottom.x);
#else
    return odd ? bottom : top;
#endif
}

/* A 16-byte vector of B's parts (VW / 2 complex elements) as Y's row of that parity holds it. */
XD_INLINE vec_t y_vec(const vec_t v, const bool odd, const real2 alpha)
{
#if VW == 2
    return y_pair(v, odd, alpha);
#else
    return (vec_t)(y_pair(v.lo, odd, alpha), y_pair(v.hi, odd, alpha));
#endif
}

/* Loads this work-item's share of a slice into reg[] (x: the slice's origin; rows x cols of it
 * lie inside the matrix, used by LD_CHECKED only). With y (EXPANDB's B), the slice is Y's (its
 * transpose's, B transposed): its row r is made from row r / 2 of x, which holds B's parts. */
XD_INLINE void load_slice(global const real *x, const int ld, const int rows, const int cols,
                          const int MN, const bool transposed, const bool kc, const int mode,
                          const int tid, const bool y, const real2 alpha, vec_t *reg)
{
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN)) {
            const xd_pos_t p = pos_slice(MN, transposed, kc, l, tid);
            global const real *src = x + (y ? p.r >> 1 : p.r) * ld + VW * p.c;
            if (mode == LD_VEC) {
                reg[l] = *(global const vec_t *)src;
            } else if (mode == LD_SCALAR) {
                reg[l] = VLOADW(0, src);
            } else {
                const bool in = p.r < rows;
                real e[VW];
#pragma unroll
                for (int v = 0; v < VW; v++)
                    e[v] = in && VW * p.c + v < cols ? src[v] : (real)0;
                reg[l] = VLOADW(0, e);
            }
            if (y)
                reg[l] = y_vec(reg[l], p.r & 1, alpha);
        }
    }
}

/* Stores reg[] into the local tile xs: k-major (ld elements per k-row), or with kc a
 * K-contiguous slice kept so (ld elements per row of M or N), by the same 16-byte stores as a
 * copied one. */
XD_INLINE void store_slice(local real *xs, const int ld, const int MN, const bool transposed,
                           const bool kc, const int tid, const vec_t *reg)
{
#pragma unroll
    for (int l = 0; l < LPT_MAX; l++) {
        if (l < LPT(MN)) {
            const xd_pos_t p = pos_slice(MN, transposed, kc, l, tid);
            if (transposed && !kc) {
                local real *d = xs + VW * p.c * ld + p.r;
                real e[VW];
                VSTOREW(reg[l], 0, e);
#pragma unroll
                for (int v = 0; v < VW; v++)
                    d[v * ld] = e[v];
            } else {
                *(local vec_t *)(xs + p.r * ld + VW * p.c) = reg[l];
            }
        }
    }
}

/* ---- The MMA instructions. acc[(i * NI + n) * 2 + e] is element e of atom (i, n). */
#define ACC(i, n, e) acc[((i) * NI + (n)) * 2 + (e)]
#define AREGS (MMAM / 8 * MMAK / 4) /* registers per instruction: A */
#define BREGS (MMAK / 4)            /* B */
#define CREGS (2 * MMAM / 8)        /* C and D */
#define NQ ((BK / MMAK) * (WM / MMAM) * NI) /* product blocks per warp per K step */

#if TF32X3
typedef uint op_t; /* an operand register: a TF32 value in the bits of a float */
#else
typedef double op_t;
#endif

#if EMU
/* Emulation scratch: every warp's operands of every instruction of one K step, one element per
 * lane and register. */
#define EMU_DECL                                                                               \
    local real emu_a[NWARPS * NQ * NPROD * AREGS * 32], emu_b[NWARPS * NQ * NPROD * BREGS * 32];
#define EMU_ARGS , emu_a, emu_b
#define EMU_PARAMS , local real *emu_a, local real *emu_b

XD_INLINE real op_value(const op_t x)
{
#if TF32X3
    return as_float(x);
#else
    return x;
#endif
}

/* Phase 0: lane publishes its A and B registers of instruction q; phase 1: it computes its C
 * registers from the lanes that hold the elements, per the fragment tables at the top. */
XD_INLINE void emu_mma(const int phase, const int q, const int warp, const int lane,
                       const op_t *a, const op_t *b, real *c, local real *emu_a,
                       local real *emu_b)
{
    local real *sa = emu_a + (warp * NQ * NPROD + q) * AREGS * 32;
    local real *sb = emu_b + (warp * NQ * NPROD + q) * BREGS * 32;
    if (phase == 0) {
        for (int r = 0; r < AREGS; r++)
            sa[r * 32 + lane] = op_value(a[r]);
        for (int r = 0; r < BREGS; r++)
            sb[r * 32 + lane] = op_value(b[r]);
        return;
    }
    const int g = lane >> 2, t = lane & 3;
    for (int ci = 0; ci < CREGS; ci++) {
        const int h = ci / 2, e = ci % 2, row = g + 8 * h, col = 2 * t + e;
        real s = 0;
        for (int kx = 0; kx < MMAK; kx++) {
            /* A[row][kx]: lane 4*(row % 8) + kx % 4, register 2*(kx / 4) + row / 8 (m16n8kK) or 0
             * (m8n8k4, where row < 8 and kx < 4); B[kx][col]: lane 4*col + kx % 4, reg kx / 4. */
            const int ar = MMAM == 16 ? 2 * (kx / 4) + row / 8 : 0;
            const real av = sa[ar * 32 + 4 * (row % 8) + kx % 4];
            const real bv = sb[(kx / 4) * 32 + 4 * col + kx % 4];
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
#elif TF32X3 && MMAK == 4
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 "                  \
                         "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"                  \
                         : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                       \
                         : "r"(a[0]), "r"(a[1]), "r"(b[0]))
#elif TF32X3
#define MMA(q, a, b, c)                                                                        \
    __asm__ __volatile__("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "                  \
                         "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"      \
                         : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                       \
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
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

#if TF32X3
/* x rounded to TF32 (10 stored mantissa bits), to nearest with ties away from zero, in the
 * bits of a float. The emulation rounds the magnitude bits the same way. */
XD_INLINE uint tf32_rna(const float x)
{
#if EMU
    return (as_uint(x) + 0x1000u) & 0xffffe000u;
#else
    uint r;
    __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return r;
#endif
}

/* x = big + small. SPLIT 0: both rounded to TF32 (cvt.rna), what is left (below 2^-22 |x|)
 * dropped; 1: big rounded, small the exact remainder, whose low 13 bits the tensor core does
 * not read (so small is truncated to TF32 there: below 2^-22 |x| lost); 2: big truncated (one
 * AND), small the exact remainder, truncated by the tensor core (below 2^-21 |x| lost). */
XD_INLINE void tf32_split(const float x, uint *big, uint *small)
{
#if SPLIT == 2
    *big = as_uint(x) & 0xffffe000u;
#else
    *big = tf32_rna(x);
#endif
#if SPLIT == 0
    *small = tf32_rna(x - as_float(*big));
#elif EMU
    *small = as_uint(x - as_float(*big)) & 0xffffe000u; /* as the tensor core reads it */
#else
    *small = as_uint(x - as_float(*big));
#endif
}

/* One product block on the TF32 tensor cores: the two small terms first, then big*big. */
#define PRODUCT(q, ab, as_, bb, bs_, c)                                                        \
    do {                                                                                       \
        MMA(NPROD * (q), as_, bb, c);                                                          \
        MMA(NPROD * (q) + 1, ab, bs_, c);                                                      \
        MMA(NPROD * (q) + 2, ab, bb, c);                                                       \
    } while (0)
#else
#define PRODUCT(q, ab, as_, bb, bs_, c) MMA(q, ab, bb, c)
#endif

/* The lane's operand of element x of a fragment: the value itself in double precision; in single
 * its TF32 big part in *big and the small part in *small. */
XD_INLINE void operand(const real x, op_t *big, op_t *small)
{
#if TF32X3
    tf32_split(x, big, small);
#else
    *big = x;
    *small = 0; /* unused */
#endif
}

/* The lane's operands of one k-quad, held in slot j of jn, for the warp's atoms along M (or N):
 * x is the lane's element of the first atom, ms the stride along M (N); each atom's element
 * alone, or (pair) two neighbouring atoms' in one load. f: the operands, fs: their small parts. */
XD_INLINE void read_operands(local const real *x, const int ms, const bool pair, const int atoms,
                             const int j, const int jn, op_t *f, op_t *fs)
{
#pragma unroll
    for (int i = 0; i < atoms; i += 1 + pair) {
        local const real *p = x + ATOM_OFF(pair, i) * ms;
        if (pair) {
            const real2 v = *(local const real2 *)p;
            operand(v.x, &f[i * jn + j], &fs[i * jn + j]);
            operand(v.y, &f[(i + 1) * jn + j], &fs[(i + 1) * jn + j]);
        } else {
            operand(p[0], &f[i * jn + j], &fs[i * jn + j]);
        }
    }
}

/* acc += this warp's block of A times B over one K step. as and bs point at the lane's first
 * fragment element in the current buffers: As + t*A_KS + (wm0 + LANE_OFF(A_PAIR, g))*A_MS and
 * Bs + t*B_KS + (wn0 + LANE_OFF(B_PAIR, g))*B_NS.
 * The lane's operands are read from local memory (and split) once each: all KQ k-quads of the
 * step before its first instruction (FRAG=0), or the MMAK/4 k-quads of each instruction's K
 * just before it (FRAG=1: fewer registers). With KACC=1 the step's sums start at zero. */
XD_INLINE void multiply(local const real *as, local const real *bs, const int4 ko, real *acc,
                        const int warp, const int lane EMU_PARAMS)
{
    (void)ko; /* TMA's steps between k-quads (A_KOFF, B_KOFF) */
#define JN (FRAG ? MMAK / 4 : KQ) /* k-quads held in registers at a time */
    op_t af[MI * JN], bf[NI * JN], afs[MI * JN], bfs[NI * JN];
#if KACC == 1
    /* The step's sums, from zero; added to acc at the end. Here rather than in tile (where
     * KACC > 1 keeps its sums across steps): kept inside one step they measured 50 against 32
     * TFLOP/s with 64x64 warps on the H200 (bench/notes/sgemm_3xtf32.md#3xtf32-first). */
    real sacc[MI * NI * 2];
#pragma unroll
    for (int i = 0; i < MI * NI * 2; i++)
        sacc[i] = 0;
#define SUMS(i, n, e) sacc[((i) * NI + (n)) * 2 + (e)]
#else
#define SUMS ACC
#endif
#if EMU
    for (int phase = 0; phase < 2; phase++) {
#else
    (void)warp;
    (void)lane;
#endif
#pragma unroll
        for (int kb = 0; kb < BK / MMAK; kb++) {
            /* The held k-quads: j0 .. j0 + JN - 1, in slots 0 .. JN - 1. */
            const int j0 = FRAG ? kb * (MMAK / 4) : 0;
            if (FRAG || kb == 0) {
#pragma unroll
                for (int j = 0; j < JN; j++) {
                    read_operands(as + A_KOFF(j0 + j), A_MS, A_PAIR, MI, j, JN, af, afs);
                    read_operands(bs + B_KOFF(j0 + j), B_NS, B_PAIR, NI, j, JN, bf, bfs);
                }
            }
#pragma unroll
            for (int i2 = 0; i2 < WM / MMAM; i2++) {
#pragma unroll
                for (int n = 0; n < NI; n++) {
                    const int q = (kb * (WM / MMAM) + i2) * NI + n;
                    op_t a[AREGS], b[BREGS], as_[AREGS], bs_[BREGS];
                    real c[CREGS];
                    /* Register r = 2*jj + h of A is atom row MMAM/8*i2 + h at k-quad
                     * kb*MMAK/4 + jj (h = 0 only for m8n8k4); B's register jj is that k-quad;
                     * C's register 2*h + e is element e of atom row MMAM/8*i2 + h. */
#pragma unroll
                    for (int jj = 0; jj < MMAK / 4; jj++) {
                        const int slot = kb * (MMAK / 4) + jj - j0;
#pragma unroll
                        for (int h = 0; h < MMAM / 8; h++) {
                            const int ai = (MMAM / 8 * i2 + h) * JN + slot;
                            a[jj * (MMAM / 8) + h] = af[ai];
                            as_[jj * (MMAM / 8) + h] = afs[ai];
                        }
                        b[jj] = bf[n * JN + slot];
                        bs_[jj] = bfs[n * JN + slot];
                    }
#pragma unroll
                    for (int h = 0; h < MMAM / 8; h++) {
                        c[2 * h] = SUMS(MMAM / 8 * i2 + h, n, 0);
                        c[2 * h + 1] = SUMS(MMAM / 8 * i2 + h, n, 1);
                    }
                    PRODUCT(q, a, as_, b, bs_, c);
#pragma unroll
                    for (int h = 0; h < MMAM / 8; h++) {
                        SUMS(MMAM / 8 * i2 + h, n, 0) = c[2 * h];
                        SUMS(MMAM / 8 * i2 + h, n, 1) = c[2 * h + 1];
                    }
                }
            }
        }
#if EMU
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#endif
#if KACC == 1
#pragma unroll
    for (int i = 0; i < MI * NI * 2; i++)
        acc[i] += sacc[i];
#endif
#undef SUMS
#undef JN
}

#if GB_TRANS_A
#define A_AT(t) (A + (t) * BK * lda + m0)
#define A_ROWS(t) (K - (t) * BK)
#define A_COLS(t) (M - m0)
#else
#define A_AT(t) (A + m0 * lda + (t) * BK)
#define A_ROWS(t) (M - m0)
#define A_COLS(t) (K - (t) * BK)
#endif
#if GB_TRANS_B
/* With EXPANDB, Y's transpose's row n0 is B's row n0 / 2 (n0 is even). */
#define B_AT(t) (B + (n0 >> EXPANDB) * ldb + (t) * BK)
#define B_ROWS(t) (N - n0)
#define B_COLS(t) (K - (t) * BK)
#else
/* With EXPANDB, Y's K step t starts at B's row t BK / 2 (BK is even). */
#define B_AT(t) (B + (t) * (BK >> EXPANDB) * ldb + n0)
#define B_ROWS(t) (K - (t) * BK)
#define B_COLS(t) (N - n0)
#endif
#define LOAD_A(t, mode, ra)                                                                    \
    load_slice(A_AT(t), lda, A_ROWS(t), A_COLS(t), MWG, A_TRANSPOSED, A_KC, mode, tid, false, \
               alpha2, ra)
#define LOAD_B(t, mode, rb)                                                                    \
    load_slice(B_AT(t), ldb, B_ROWS(t), B_COLS(t), NWG, B_TRANSPOSED, B_KC, mode, tid, EXPANDB, \
               alpha2, rb)
#define STORE_A(as, ra) store_slice(as, A_KC ? LDK : LDA, MWG, A_TRANSPOSED, A_KC, tid, ra)
#define STORE_B(bs, rb) store_slice(bs, B_KC ? LDK : LDB, NWG, B_TRANSPOSED, B_KC, tid, rb)

#if TMA
/* TMA=1 (bench/notes/dgemm.md#dmma-tma): a work-group makes its maps of A^T (K x M stored, M
 * inner) and B (K x N, N inner), boxes of 16 x BK through the swizzle, and publishes
 * them to its slot of the workspace (gmap[0..32)); one work-item fills a stage: a box for each
 * slab of 16 rows of A's tile and of 16 columns of B's, zeros past M, N and K, counted on the
 * stage's mbarrier, where the work-group waits. STAGES - 1 stages fill while one is read. A
 * K-contiguous operand's map is of A (M x K, K inner; B^T alike), its boxes 16 k x MWG rows, one
 * a slab of 16 k. A map's shape: its dimensions, inner first, and its box's. */
#define STAGE_E (A_TILE + B_TILE)
#define A_SHAPE (A_KC ? (int4)(K, M, 16, MWG) : (int4)(M, K, 16, BK))
#define B_SHAPE (B_KC ? (int4)(K, N, 16, NWG) : (int4)(N, K, 16, BK))
#if EMU
/* The emulation (any device): a map is the numbers the kernel gives it (address, dimensions,
 * ld), written to the workspace's slot; the copy engine is the work-group copying a box from
 * them through the swizzle, zeros past the dimensions; the mbarrier a barrier. It checks the
 * kernel's side (the slots, the boxes' places, the layout its reads expect), not the
 * hardware's encoding. (wgmma.cl emulates its boxes alike; the two stay apart, not in the
 * prelude, because the tests plant faults in them through --kernel-path, which cannot replace
 * the prelude.) */
typedef int tma_to_t; /* who copies: the work-item */
XD_INLINE void tma_map(global ulong *map, global const real *x, const int ld, const int4 shape)
{
    map[0] = (ulong)x;
    map[1] = (ulong)shape.x;
    map[2] = (ulong)shape.y;
    map[3] = (ulong)ld;
    map[4] = (ulong)shape.w;
}
XD_INLINE void tma_setup(local uint4 *maps, global ulong *gmap, global const real *A,
                         const int lda, const int4 sa, global const real *B, const int ldb,
                         const int4 sb, local ulong *bars, const int tid)
{
    (void)maps;
    (void)bars;
    if (tid == 0) {
        tma_map(gmap, A, lda, sa);
        tma_map(gmap + 16, B, ldb, sb);
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
}
XD_INLINE void tma_box(local real *dst, global const ulong *map, const int c0, const int c1,
                       const tma_to_t tid)
{
    global const real *x = (global const real *)map[0];
    const int d0 = (int)map[1], d1 = (int)map[2], ld = (int)map[3], rows = (int)map[4];
    for (int e = tid; e < 16 * rows; e += WGS) {
        const int i = e % 16, j = e / 16;
        dst[TMA_SWZ(e)] = c0 + i < d0 && c1 + j < d1 ? x[(size_t)(c1 + j) * ld + c0 + i] : 0;
    }
}
#define TMA_FILL(stage, bar, k0)                                                               \
    tma_fill(stage, gmap, k0, m0, n0, tid)
#define TMA_WAIT(bar, parity) barrier(CLK_LOCAL_MEM_FENCE)
#else
typedef uint tma_to_t; /* where the copy completes: the mbarrier */
#if GB_PRECISION == 64
#define TMA_TYPE "9" /* tensormap.replace's .f64 */
#define TMA_MODE "3" /* its 128-byte swizzle */
#else
#define TMA_TYPE "7" /* .f32 */
#define TMA_MODE "2" /* the 64-byte swizzle */
#endif
XD_INLINE void tma_setup(local uint4 *maps, global ulong *gmap, global const real *A,
                         const int lda, const int4 sa, global const real *B, const int ldb,
                         const int4 sb, local ulong *bars, const int tid)
{
    gb_tma_zero(maps, tid);
    if (tid == 0) {
        GB_TMA_FIELDS(GB_SMEM(maps), A, (ulong)lda * TMA_ES, sa, TMA_TYPE, TMA_MODE);
        GB_TMA_FIELDS(GB_SMEM(maps + 8), B, (ulong)ldb * TMA_ES, sb, TMA_TYPE, TMA_MODE);
    }
    gb_tma_ready(maps, gmap, bars, STAGES, tid);
}
XD_INLINE void tma_box(local real *dst, global const ulong *map, const int c0, const int c1,
                       const uint bar)
{
    gb_tma_box(GB_SMEM(dst), map, c0, c1, bar);
}
#define TMA_FILL(stage, bar, k0)                                                               \
    do {                                                                                       \
        if (tid == 0) {                                                                        \
            gb_mbar_expect(GB_SMEM(bar), STAGE_E * TMA_ES);                                    \
            tma_fill(stage, gmap, k0, m0, n0, GB_SMEM(bar));                                   \
        }                                                                                      \
    } while (0)
#define TMA_WAIT(bar, parity) gb_mbar_wait(GB_SMEM(bar), parity)
#endif
/* A stage's boxes at k0 (to: the mbarrier, or under EMU the work-item): slabs of 16 rows
 * (columns) at k0, or of 16 k at the tile's first row (column). */
XD_INLINE void tma_fill(local real *stage, global const ulong *gmap, const int k0, const int m0,
                        const int n0, const tma_to_t to)
{
#pragma unroll
    for (int i = 0; i < (A_KC ? BK : MWG) / 16; i++)
        tma_box(stage + i * 16 * (A_KC ? MWG : BK), gmap, A_KC ? k0 + 16 * i : m0 + 16 * i,
                A_KC ? m0 : k0, to);
#pragma unroll
    for (int i = 0; i < (B_KC ? BK : NWG) / 16; i++)
        tma_box(stage + A_TILE + i * 16 * (B_KC ? NWG : BK), gmap + 16,
                B_KC ? k0 + 16 * i : n0 + 16 * i, B_KC ? n0 : k0, to);
}
#endif

/* The whole tile at (m0, n0); edge is uniform over the work-group (see xgemm_nv): interior
 * tiles read an operand with unchecked 16-byte loads where a_vec / b_vec allow, unchecked
 * scalars otherwise, edge tiles element by element. */
XD_INLINE void tile(const int M, const int N, const int K, const real alpha, const real2 alpha2,
                    global const real *A, const int lda, const bool a_vec,
                    global const real *B, const int ldb, const bool b_vec, const real beta,
                    global real *C, const int ldc, const bool c_aligned, const int m0,
                    const int n0, const bool edge, const int s0, const int s1,
                    global real *part, local real *As, local real *Bs, global ulong *gmap,
                    local uint4 *maps, local ulong *bars EMU_PARAMS)
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
    const int full = K / BK; /* K steps s0 .. s1 - 1 */

    real acc[MI * NI * 2];
#pragma unroll
    for (int i = 0; i < MI * NI * 2; i++)
        acc[i] = 0;
#if KACC > 1
    /* The sums of the current KACC steps, from zero in the tensor core; a second array of
     * accumulators, so only for small warp tiles. */
    real sacc[MI * NI * 2];
#define SUMS sacc
#else
#define SUMS acc
#endif
    /* KACC > 1: the sums start from zero every KACC steps, and are added to acc after the last. */
#if KACC > 1
#define KACC_START(s)                                                                          \
    do {                                                                                       \
        if (((s) - s0) % KACC == 0) {                                                          \
            _Pragma("unroll") for (int i = 0; i < MI * NI * 2; i++) sacc[i] = 0;               \
        }                                                                                      \
    } while (0)
#define KACC_END(s)                                                                            \
    do {                                                                                       \
        if (((s) - s0 + 1) % KACC == 0 || (s) + 1 == s1) {                                     \
            _Pragma("unroll") for (int i = 0; i < MI * NI * 2; i++) acc[i] += sacc[i];         \
        }                                                                                      \
    } while (0)
#else
#define KACC_START(s)
#define KACC_END(s)
#endif
#if TMA
    /* The lane's first elements (row or column a0, b0 of a warp's block, k-row KROW(0, t)) and
     * its steps to k-quads 1 and 2 (A_KOFF, B_KOFF). */
    const int a0 = LANE_OFF(A_PAIR, g), b0 = LANE_OFF(B_PAIR, g);
    const int ak = A_TAT(KROW(0, t), a0), bk = B_TAT(KROW(0, t), b0);
    const int4 ko = (int4)(A_TAT(KROW(1, t), a0) - ak, A_TAT(KROW(2, t), a0) - ak,
                           B_TAT(KROW(1, t), b0) - bk, B_TAT(KROW(2, t), b0) - bk);
    if (s1 > s0)
        tma_setup(maps, gmap, A, lda, A_SHAPE, B, ldb, B_SHAPE, bars, tid);
    /* Steps s0 + i fill stage i % STAGES: STAGES - 1 ahead of the one read, which waits on its
     * stage's mbarrier (the parity of its round); the barrier after a step's MMAs frees its
     * stage for the fill the next step issues. */
    for (int i = 0; i < STAGES - 1 && s0 + i < s1; i++)
        TMA_FILL(As + i * STAGE_E, bars + i, (s0 + i) * BK);
    int st = 0, fs = STAGES - 1;
    uint parity = 0;
    for (int s = s0; s < s1; s++) {
        if (s + STAGES - 1 < s1)
            TMA_FILL(As + fs * STAGE_E, bars + fs, (s + STAGES - 1) * BK);
        fs = fs + 1 == STAGES ? 0 : fs + 1;
        TMA_WAIT(bars + st, parity);
        KACC_START(s);
        if (live)
            multiply(As + st * STAGE_E + A_TAT(KROW(0, t), wm0 + a0),
                     As + st * STAGE_E + A_TILE + B_TAT(KROW(0, t), wn0 + b0), ko, SUMS, warp,
                     lane EMU_ARGS);
        KACC_END(s);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (++st == STAGES) {
            st = 0;
            parity ^= 1u;
        }
    }
    (void)Bs;
    (void)alpha2;
    (void)a_vec;
    (void)b_vec;
    (void)full;
#else
    (void)gmap;
    (void)maps;
    (void)bars;
    vec_t ra[LPT_MAX], rb[LPT_MAX];
    local real *a_cur = As, *a_nxt = As + A_TILE, *b_cur = Bs, *b_nxt = Bs + B_TILE;
    const int mode_a = a_vec ? LD_VEC : LD_SCALAR, mode_b = b_vec ? LD_VEC : LD_SCALAR;
    /* An edge tile, or a partial last K step, reads both slices element by element; interior
     * tiles read both in one block. (Checking each operand apart, so that a C of 16 rows reads
     * B unchecked, measured slower on the H200: bench/notes/dgemm.md#dmma-edge-operand.) */
#define LOAD_STEP(t)                                                                           \
    do {                                                                                       \
        if (!edge && (t) < full) {                                                             \
            LOAD_A(t, mode_a, ra);                                                             \
            LOAD_B(t, mode_b, rb);                                                             \
        } else {                                                                               \
            LOAD_A(t, LD_CHECKED, ra);                                                         \
            LOAD_B(t, LD_CHECKED, rb);                                                         \
        }                                                                                      \
    } while (0)
    if (s1 > s0) {
        LOAD_STEP(s0);
        STORE_A(a_cur, ra);
        STORE_B(b_cur, rb);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = s0; s < s1; s++) {
        if (s + 1 < s1)
            LOAD_STEP(s + 1);
        KACC_START(s);
        if (live)
            multiply(a_cur + t * A_KS + (wm0 + LANE_OFF(A_PAIR, g)) * A_MS,
                     b_cur + t * B_KS + (wn0 + LANE_OFF(B_PAIR, g)) * B_NS, (int4)(0), SUMS, warp,
                     lane EMU_ARGS);
        KACC_END(s);
        if (s + 1 < s1) {
            STORE_A(a_nxt, ra);
            STORE_B(b_nxt, rb);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local real *a_tmp = a_cur, *b_tmp = b_cur;
        a_cur = a_nxt;
        b_cur = b_nxt;
        a_nxt = a_tmp;
        b_nxt = b_tmp;
    }
#undef LOAD_STEP
#endif
#undef KACC_START
#undef KACC_END
#undef SUMS

/* Two neighbouring elements of C the lane holds: element q of atoms n and n + 1 (B_PAIR), or
 * atom n's two. */
#define PAIR_AT(i, n, q)                                                                       \
    (B_PAIR ? (real2)(ACC(i, n, q), ACC(i, (n) + B_PAIR, q)) : (real2)(ACC(i, n, 0), ACC(i, n, 1)))
#if SPLIT_CODE
    /* A piece of a split tile: its bare sums, the whole MWG x NWG tile (edges included), to
     * its own slot of the workspace; mma_sync_sum adds the pieces. (vstore2: Oclgrind counts
     * a store through a real2 pointer as three stores of twice the bytes.) */
    if (part) {
#pragma unroll
        for (int i = 0; i < MI; i++)
#pragma unroll
            for (int n = 0; n < NI; n += 1 + B_PAIR)
#pragma unroll
                for (int q = 0; q <= B_PAIR; q++)
                    vstore2(PAIR_AT(i, n, q), 0,
                            part + (wm0 + ROW_AT(i)) * NWG + wn0 + COL_AT(n, q));
        return;
    }
#endif
    /* Atom (i, n) element e is C[m0 + wm0 + ROW_AT(i)][n0 + wn0 + COL_AT(n, e)] (GB_C_AT: C
     * transposed, a pair's two elements ldc apart). */
    const bool fast_c = !GB_TRANS_C && !edge && c_aligned;
    const int next = GB_TRANS_C ? ldc : 1;
#pragma unroll
    for (int i = 0; i < MI; i++) {
        const int row = m0 + wm0 + ROW_AT(i);
#pragma unroll
        for (int n = 0; n < NI; n += 1 + B_PAIR) {
#pragma unroll
            for (int q = 0; q <= B_PAIR; q++) {
                const int col = n0 + wn0 + COL_AT(n, q);
                global real *c = C + GB_C_AT(row, col, ldc);
                const real2 r = alpha * PAIR_AT(i, n, q);
                if (fast_c) {
                    if (beta == (real)0)
                        *(global real2 *)c = r;
                    else
                        *(global real2 *)c = r + beta * *(global real2 *)c;
                } else if (row < M) {
                    if (col < N)
                        c[0] = beta == (real)0 ? r.x : r.x + beta * c[0];
                    if (col + 1 < N)
                        c[next] = beta == (real)0 ? r.y : r.y + beta * c[next];
                }
            }
        }
    }
}

/* NVIDIA's compiler ignores a register cap (MAXREG) under a required work-group size. */
#if !MAXREG
__attribute__((reqd_work_group_size(WGS, 1, 1)))
#endif
#if TF32X3
kernel void sgemm_3xtf32(
#else
kernel void dgemm_dmma(
#endif
    const int M, const int N, const int K, const real alpha, global const real *restrict A,
    const int offA, const int lda, global const real *restrict B, const int offB, const int ldb,
    const real beta, global real *C, const int offC, const int ldc, global real *WS, const int D,
    const int PS, const real alphaRe, const real alphaIm, global uint *CNT)
{
    /* Declared as 16-byte vectors for their alignment: the 16-byte local stores need
     * 16-byte-aligned tiles, and NVIDIA's OpenCL does not place a local double array on a
     * 16-byte boundary (the stores then fault, reported as CL_INVALID_COMMAND_QUEUE). Two
     * buffers each, of A_TILE and B_TILE elements. */
#if TMA
    /* STAGES stages of A's tile then B's, slabs on 1024-byte boundaries (the swizzle's); the
     * maps being made; a stage's mbarrier each. */
    local vec_t tiles2[STAGES * STAGE_E / VW] __attribute__((aligned(1024)));
    local uint4 maps[16] __attribute__((aligned(128)));
    local ulong bars[STAGES];
    local real *As = (local real *)tiles2, *Bs = As + A_TILE;
#else
    local vec_t As2[2 * A_TILE / VW], Bs2[2 * B_TILE / VW];
    local real *As = (local real *)As2, *Bs = (local real *)Bs2;
    local uint4 *maps = NULL;
    local ulong *bars = NULL;
#endif
#if FIXUP && SPLIT_CODE
    local uint last;
#endif
    EMU_DECL
    /* A one-dimensional grid of D whole tiles and the PS pieces of each other tile
     * (gb_tile_piece); piece j walks K steps [j S / PS, (j + 1) S / PS). */
    const uint ntm = (uint)((M + MWG - 1) / MWG), ntn = (uint)((N + NWG - 1) / NWG);
    uint at, j, np, slot;
    gb_tile_piece((uint)get_group_id(0), ntm * ntn, (uint)D, (uint)PS, SPLIT_CODE, &at, &j, &np,
                  &slot);
    int gm, gn;
    gb_tile_at(at, ntm, ntn, GROUPM, EDGES, M % MWG != 0, N % NWG != 0, &gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    const int steps = (K + BK - 1) / BK;
    const int s0 = (int)((long)j * steps / np), s1 = (int)((long)(j + 1) * steps / np);
    global real *part = np > 1 ? WS + (size_t)slot * (MWG * NWG) : NULL;
    /* TMA's maps: 256 bytes a work-group, after the pieces' sums. */
    global ulong *gmap =
        TMA ? (global ulong *)(WS + (PS > 1 ? (size_t)PS * (ntm * ntn - (uint)D) * (MWG * NWG)
                                            : 0)) +
                  32 * get_group_id(0)
            : NULL;
    /* 16-byte accesses need ld and offset multiples of VW (the buffers are aligned); per launch.
     * C is written two elements at a time. */
    const bool a_vec = lda % VW == 0 && offA % VW == 0, b_vec = ldb % VW == 0 && offB % VW == 0;
    const bool c_vec = ldc % 2 == 0 && offC % 2 == 0;
    /* One copy of the loop for every work-group (see xgemm_nv.cl). */
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    tile(M, N, K, alpha, (real2)(alphaRe, alphaIm), A + offA, lda, a_vec, B + offB, ldb, b_vec,
         beta, C + offC, ldc, c_vec,
         m0, n0, edge, s0, s1, part, As, Bs, gmap, maps, bars EMU_ARGS);
#if FIXUP && SPLIT_CODE
    if (np > 1 && gb_piece_last(CNT + (at - (uint)D), np, &last))
        gb_piece_finish(WS + (size_t)(slot - j) * (MWG * NWG), (int)np, C, offC, ldc, m0, n0, M, N,
                        MWG, NWG, (int)get_local_id(0), WGS, alpha, beta);
#endif
}

/* mma_sync_sum: after a launch with split tiles (PS > 1), each element of such a tile from its
 * PS pieces, added in the order of their K ranges (the same result run to run), then alpha and
 * beta; elements of whole tiles were written by their work-groups. One work-item per element;
 * dimension 0 is the column, so neighbours read neighbouring sums. */
kernel void mma_sync_sum(const int M, const int N, const int K, const real alpha,
                         global const real *restrict A, const int offA, const int lda,
                         global const real *restrict B, const int offB, const int ldb,
                         const real beta, global real *C, const int offC, const int ldc,
                         global real *WS, const int D, const int PS, const real alphaRe,
                         const real alphaIm, global uint *CNT)
{
    gb_piece_update(WS, C, offC, ldc, (int)get_global_id(1), (int)get_global_id(0), M, N, MWG, NWG,
                    GROUPM, EDGES, (uint)D, PS, alpha, beta);
}
