/* prelude.cl: compiled before every family's source. It maps GB_PRECISION (32 or 64) to the
 * arithmetic type `real` and its vectors, and gives width-generic vector helpers so a family can
 * be written once for any vector width W in 1, 2, 4, 8, 16: REALV(W), VLOAD(W), VSTORE(W),
 * HSUM(W). GB_STORAGE says how A, B and C hold their elements (see `stored` below): as reals (0,
 * the default), or in FP16 or bfloat16 with the arithmetic in float. The harness passes
 * GB_PRECISION, GB_STORAGE (where not 0), GB_ROW_MAJOR, GB_TRANS_A, GB_TRANS_B, GB_TRANS_C (where
 * the route has the kernel write C transposed) and every family parameter as -D options, and
 * GB_NVIDIA=1 on NVIDIA GPUs (where inline PTX builds). */
#ifndef GB_NVIDIA
#define GB_NVIDIA 0
#endif
#ifndef GB_PRECISION
#define GB_PRECISION 32
#endif
#ifndef GB_ROW_MAJOR
#define GB_ROW_MAJOR 1
#endif
#ifndef GB_TRANS_A
#define GB_TRANS_A 0
#endif
#ifndef GB_TRANS_C
#define GB_TRANS_C 0
#endif
/* Element (row, col) of the kernel's row-major C: at row ldc + col, or at col ldc + row where it
 * writes C transposed (the family's 'transposed_c', docs/kernel-metadata.md). */
#define GB_C_AT(row, col, ldc)                                                                     \
    (GB_TRANS_C ? (size_t)(col) * (size_t)(ldc) + (size_t)(row)                                  \
                : (size_t)(row) * (size_t)(ldc) + (size_t)(col))
#ifndef GB_TRANS_B
#define GB_TRANS_B 0
#endif

#if GB_PRECISION == 64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
typedef double16 real16;
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
typedef float16 real16;
#endif
typedef real real1;

/* Storage. A family that declares h or b reads and writes A, B and C through `stored` pointers
 * and these helpers, and computes in `real` (float: FP32 accumulation):
 *   GB_LOAD(p, i)          element i as a real
 *   GB_STORE(v, p, i)      v rounded to the storage format (to nearest, ties to even) into i
 *   SLOAD(W)(o, p)         the o-th W-vector at p as a REALV(W), any element alignment
 *   SSTORE(W)(v, o, p)     v rounded into the o-th W-vector at p
 * and `elem`/`elem4`, types of the element's size, for code that only moves elements. FP16 goes
 * through vload_half/vstore_half_rte, core OpenCL functions that need no cl_khr_fp16 (half is then
 * only a pointer's type); bfloat16 is the upper 16 bits of a float, in ushort. With GB_STORAGE 0
 * they are plain accesses, so a family written with them serves s and d unchanged. An FP16
 * arithmetic (cl_khr_fp16) would be GB_PRECISION 16 with `real` half; none is built yet. */
#define GB_STORAGE_FP16 1
#define GB_STORAGE_BF16 2
#ifndef GB_STORAGE
#define GB_STORAGE 0
#endif
#define SLOAD(w) GB_CAT(gb_sload, w)
#define SSTORE(w) GB_CAT(gb_sstore, w)

#if GB_STORAGE == GB_STORAGE_FP16
typedef half stored;
typedef ushort elem;
typedef ushort4 elem4;
#define GB_LOAD(p, i) vload_half((i), (p))
#define GB_STORE(v, p, i) vstore_half_rte((v), (i), (p))
#define gb_sload1(o, p) vload_half(o, p)
#define gb_sload2 vload_half2
#define gb_sload4 vload_half4
#define gb_sload8 vload_half8
#define gb_sload16 vload_half16
#define gb_sstore1(v, o, p) vstore_half_rte(v, o, p)
#define gb_sstore2 vstore_half2_rte
#define gb_sstore4 vstore_half4_rte
#define gb_sstore8 vstore_half8_rte
#define gb_sstore16 vstore_half16_rte
#elif GB_STORAGE == GB_STORAGE_BF16
typedef ushort stored;
typedef ushort elem;
typedef ushort4 elem4;
/* To bfloat16: adding 0x7fff plus the kept part's lowest bit rounds to nearest, ties to even (a
 * carry past the largest finite value makes infinity); a NaN is kept quiet. */
#define GB_BF16_OF(T, U, f) \
    convert_##T(select(as_##U(f) + (U)0x7fffu + ((as_##U(f) >> 16) & (U)1u), \
                       as_##U(f) | (U)0x400000u, isnan(f)) >> 16)
#define GB_BF16_DEF(n)                                                                 \
    static inline float##n gb_bf16_load##n(const ushort##n b)                          \
    {                                                                                  \
        return as_float##n(convert_uint##n(b) << 16);                                  \
    }                                                                                  \
    static inline ushort##n gb_bf16_round##n(const float##n f)                         \
    {                                                                                  \
        return GB_BF16_OF(ushort##n, uint##n, f);                                   \
    }
GB_BF16_DEF(2)
GB_BF16_DEF(4)
GB_BF16_DEF(8)
GB_BF16_DEF(16)
static inline float gb_bf16_load1(const ushort b)
{
    return as_float((uint)b << 16);
}
static inline ushort gb_bf16_round1(const float f)
{
    const uint u = as_uint(f);
    return (ushort)((isnan(f) ? u | 0x400000u : u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
#define GB_LOAD(p, i) gb_bf16_load1((p)[i])
#define GB_STORE(v, p, i) ((p)[i] = gb_bf16_round1(v))
#define gb_sload1(o, p) gb_bf16_load1((p)[o])
#define gb_sload2(o, p) gb_bf16_load2(vload2(o, p))
#define gb_sload4(o, p) gb_bf16_load4(vload4(o, p))
#define gb_sload8(o, p) gb_bf16_load8(vload8(o, p))
#define gb_sload16(o, p) gb_bf16_load16(vload16(o, p))
#define gb_sstore1(v, o, p) ((p)[o] = gb_bf16_round1(v))
#define gb_sstore2(v, o, p) vstore2(gb_bf16_round2(v), o, p)
#define gb_sstore4(v, o, p) vstore4(gb_bf16_round4(v), o, p)
#define gb_sstore8(v, o, p) vstore8(gb_bf16_round8(v), o, p)
#define gb_sstore16(v, o, p) vstore16(gb_bf16_round16(v), o, p)
#elif GB_COMPLEX
/* Complex (c, z): an element is a real2, real part in .x, imaginary in .y, as BLAS lays them
 * out; only element-wise access (GB_LOAD, GB_STORE) and GB_UPDATE_AT are given. */
typedef real2 stored;
typedef real2 elem;
#define GB_LOAD(p, i) ((p)[i])
#define GB_STORE(v, p, i) ((p)[i] = (v))
#else
typedef real stored;
typedef real elem;
typedef real4 elem4;
#define GB_LOAD(p, i) ((p)[i])
#define GB_STORE(v, p, i) ((p)[i] = (v))
#define gb_sload1(o, p) ((p)[o])
#define gb_sload2 vload2
#define gb_sload4 vload4
#define gb_sload8 vload8
#define gb_sload16 vload16
#define gb_sstore1(v, o, p) ((p)[o] = (v))
#define gb_sstore2 vstore2
#define gb_sstore4 vstore4
#define gb_sstore8 vstore8
#define gb_sstore16 vstore16
#endif

#define GB_CAT_(a, b) a##b
#define GB_CAT(a, b) GB_CAT_(a, b)
#define REALV(w) GB_CAT(real, w)
#define VLOAD(w) GB_CAT(gb_vload, w)
#define VSTORE(w) GB_CAT(gb_vstore, w)
#define HSUM(w) GB_CAT(gb_hsum, w)

#define gb_vload1(o, p) ((p)[o])
#define gb_vload2 vload2
#define gb_vload4 vload4
#define gb_vload8 vload8
#define gb_vload16 vload16
#define gb_vstore1(v, o, p) ((p)[o] = (v))
#define gb_vstore2 vstore2
#define gb_vstore4 vstore4
#define gb_vstore8 vstore8
#define gb_vstore16 vstore16

/* Macros rather than functions: wide vector arguments trip ABI warnings on some CPUs. */
#define gb_hsum1(v) (v)
#define gb_hsum2(v) ((v).s0 + (v).s1)
#define gb_hsum4(v) (gb_hsum2((v).lo) + gb_hsum2((v).hi))
#define gb_hsum8(v) (gb_hsum4((v).lo) + gb_hsum4((v).hi))
#define gb_hsum16(v) (gb_hsum8((v).lo) + gb_hsum8((v).hi))

/* Complex arithmetic (GB_COMPLEX 1): `scalar` is the type of alpha and beta (real2 there,
 * real otherwise). GB_CMAD(acc, a, b) adds a * b to acc one fused real product at a time, the
 * order the validation's honest computation follows; GB_CMUL(a, b) is a * b; GB_CONJ(a) is
 * conj(a). GB_OPA(a), GB_OPB(b) conjugate an element of A (B) where the build asks
 * (GB_CONJ_A, GB_CONJ_B: the C transposition; the flags, not the transposition, say it, since
 * a route may move the transposition elsewhere). */
#ifndef GB_COMPLEX
#define GB_COMPLEX 0
#endif
#ifndef GB_CONJ_A
#define GB_CONJ_A 0
#endif
#ifndef GB_CONJ_B
#define GB_CONJ_B 0
#endif
#if GB_COMPLEX
typedef real2 scalar;
#define GB_CONJ(a) ((real2)((a).x, -(a).y))
#define GB_CMUL(a, b) ((real2)(fma((a).x, (b).x, -(a).y * (b).y), fma((a).x, (b).y, (a).y * (b).x)))
#define GB_CMAD(acc, a, b)                      \
    do {                                        \
        const real2 ga_ = (a), gb_ = (b);       \
        (acc).x = fma(ga_.x, gb_.x, (acc).x);   \
        (acc).x = fma(-ga_.y, gb_.y, (acc).x);  \
        (acc).y = fma(ga_.x, gb_.y, (acc).y);   \
        (acc).y = fma(ga_.y, gb_.x, (acc).y);   \
    } while (0)
#if GB_CONJ_A
#define GB_OPA(a) GB_CONJ(a)
#else
#define GB_OPA(a) (a)
#endif
#if GB_CONJ_B
#define GB_OPB(b) GB_CONJ(b)
#else
#define GB_OPB(b) (b)
#endif
#else
typedef real scalar;
#endif

/* GB_SUM(x), and GB_SUMV(W)(x) for a REALV(W): a partial sum as the precision keeps it. With
 * GB_ACC16 (hh: FP16 sums) x rounded to FP16, to nearest even, FP16's subnormals (multiples of
 * 2^-24) and overflow to infinity included, in float arithmetic (no cl_khr_fp16 needed); else
 * x. A family that declares hh applies it to each multiply-add's result. */
#define GB_SUMV(w) GB_CAT(gb_sum, w)
#if GB_ACC16
/* Per element (select picks by a scalar condition's truth, a vector one's sign bits): the
 * subnormal range rounded by scaling (exact), the normal one by rounding the float's 13 low
 * mantissa bits away (a carry moves the exponent, as rounding does). */
#define GB_ROUND16(T, U)                                                                    \
    const U b_ = GB_CAT(as_, U)(x);                                                        \
    const T r_ = GB_CAT(as_, T)((b_ + (U)0x0fffu + ((b_ >> 13) & (U)1u)) & (U)0xffffe000u); \
    const T s_ = rint(x * 0x1.0p24f) * 0x1.0p-24f;                                        \
    const T o_ = select(r_, copysign((T)INFINITY, x), isgreater(fabs(r_), (T)65504.0f));    \
    return select(o_, s_, isless(fabs(x), (T)0x1.0p-14f))
static inline float gb_sum1(const float x) { GB_ROUND16(float, uint); }
static inline float2 gb_sum2(const float2 x) { GB_ROUND16(float2, uint2); }
static inline float4 gb_sum4(const float4 x) { GB_ROUND16(float4, uint4); }
static inline float8 gb_sum8(const float8 x) { GB_ROUND16(float8, uint8); }
static inline float16 gb_sum16(const float16 x) { GB_ROUND16(float16, uint16); }
#define GB_SUM(x) gb_sum1(x)
#else
#define gb_sum1(x) (x)
#define gb_sum2(x) (x)
#define gb_sum4(x) (x)
#define gb_sum8(x) (x)
#define gb_sum16(x) (x)
#define GB_SUM(x) (x)
#endif

/* C = alpha * acc + beta * C, where beta == 0 means C is not read (BLAS semantics). */
#define GB_UPDATE(c, acc, alpha, beta) \
    ((c) = (beta) == (real)0 ? (alpha) * (acc) : (alpha) * (acc) + (beta) * (c))
/* The same for element i of a `stored` C at p, rounded once to the storage format; complex:
 * alpha acc + beta C with both parts of beta 0 meaning C is not read, added as the honest
 * computation adds them. */
#if GB_COMPLEX
#define GB_UPDATE_AT(p, i, acc, alpha, beta)                                              \
    do {                                                                                  \
        real2 gy_ = GB_CMUL((alpha), (acc));                                              \
        if ((beta).x != (real)0 || (beta).y != (real)0) {                                 \
            const real2 gc_ = GB_LOAD(p, i);                                              \
            gy_ = (real2)(fma((beta).x, gc_.x, fma(-(beta).y, gc_.y, gy_.x)),             \
                          fma((beta).x, gc_.y, fma((beta).y, gc_.x, gy_.y)));             \
        }                                                                                 \
        GB_STORE(gy_, p, i);                                                              \
    } while (0)
#else
#define GB_UPDATE_AT(p, i, acc, alpha, beta)                                                \
    GB_STORE((beta) == (real)0 ? (alpha) * (acc) : (alpha) * (acc) + (beta) * GB_LOAD(p, i), \
             p, i)
#endif

#if !GB_COMPLEX && !GB_STORAGE
/* The 1M method (docs/methodology.md) on a real kernel: complex element b of op(B) as the 2 x 2
 * block of Y that holds it, whose first row is gb_1m_b's (b conjugated where B is, then times
 * alpha where that is not 1) and whose second is gb_1m_odd's of it. One piece for gb_expand1m
 * (kernels/helpers.cl), which writes Y, and for the kernels that stage Y from B themselves
 * (mma_sync.cl's EXPANDB), so that both make the same bits. */
static inline real2 gb_1m_b(real2 b, const int conj_b, const real2 alpha)
{
    if (conj_b)
        b.y = -b.y;
    if (alpha.x != (real)1 || alpha.y != (real)0)
        b = (real2)(fma(alpha.x, b.x, -alpha.y * b.y), fma(alpha.x, b.y, alpha.y * b.x));
    return b;
}
/* The block's second row: (-b.y, b.x), both negated where A is conjugated. */
static inline real2 gb_1m_odd(const real2 b, const int conj_a)
{
    const real sa = conj_a ? (real)-1 : (real)1;
    return (real2)(-sa * b.y, sa * b.x);
}
#endif

/* Tile (m, n) number id of an ntm x ntn grid walked groupm tile rows at a time, column by column
 * (1: row by row). Unsigned, and remainders as x - q*y: no sign fix-ups, and no div/rem pair for
 * the compiler to rewrite with 'freeze' (which Oclgrind's checker cannot run). */
static inline void gb__tile_walk(const uint id, const uint ntm, const uint ntn, const uint groupm,
                                 uint *m, uint *n)
{
    if (groupm > 1) {
        const uint per = groupm * ntn, group = id / per, r = id - group * per;
        const uint first = group * groupm, rows = min(ntm - first, groupm);
        *n = r / rows;
        *m = first + (r - *n * rows);
    } else {
        *m = id / ntn;
        *n = id - *m * ntn;
    }
}

/* The tile (gm, gn) that work-group number id computes, of an ntm x ntn grid of tiles.
 * Work-groups start about in order of linear id (dimension 0 fastest); consecutive ids walk
 * groupm tile rows at a time, column by column, so the tiles in flight together share A and B
 * panels in L2 (with 132 SMs, a row-by-row walk at 8192 keeps about 2 rows of tiles in flight,
 * each B panel being read from DRAM ~32 times; in groups of 8 rows, ~8 times). The last group
 * may have fewer rows. edges says when the partial tiles of the last row (edge_m: there is one)
 * and last column (edge_n) run: 0 in grid order; 1 first (the grid mirrored), so the last wave
 * is full tiles; 2 last, after every full tile, so they fill the idle part of the last wave.
 * groupm and edges are compile-time constants where it is used. */
static inline void gb_tile_at(const uint id, const uint ntm, const uint ntn, const uint groupm,
                              const int edges, const bool edge_m, const bool edge_n, int *gm,
                              int *gn)
{
    uint m, n;
    if (edges == 2) {
        const uint fm = ntm - (uint)edge_m, fn = ntn - (uint)edge_n, col = edge_n ? fm : 0;
        if (id < fm * fn) {
            gb__tile_walk(id, fm, fn, groupm, &m, &n);
        } else if (id - fm * fn < col) { /* the last column, above the corner */
            m = id - fm * fn;
            n = ntn - 1;
        } else { /* the last row */
            m = ntm - 1;
            n = id - fm * fn - col;
        }
    } else {
        gb__tile_walk(id, ntm, ntn, groupm, &m, &n);
        if (edges == 1) {
            m = ntm - 1 - m;
            n = ntn - 1 - n;
        }
    }
    *gm = (int)m;
    *gn = (int)n;
}

/* The walk position of tile (m, n) of an ntm x ntn grid walked as gb__tile_walk walks it. */
static inline uint gb__tile_walk_id(const uint m, const uint n, const uint ntm, const uint ntn,
                                    const uint groupm)
{
    if (groupm > 1) {
        const uint group = m / groupm, first = group * groupm, rows = min(ntm - first, groupm);
        return group * groupm * ntn + n * rows + (m - first);
    }
    return m * ntn + n;
}

/* The work-group number that gb_tile_at gives tile (m, n): its inverse. */
static inline uint gb_tile_id(const uint m, const uint n, const uint ntm, const uint ntn,
                              const uint groupm, const int edges, const bool edge_m,
                              const bool edge_n)
{
    if (edges == 2) {
        const uint fm = ntm - (uint)edge_m, fn = ntn - (uint)edge_n, col = edge_n ? fm : 0;
        if (m < fm && n < fn)
            return gb__tile_walk_id(m, n, fm, fn, groupm);
        /* The last column above the corner, then the last row. */
        return fm * fn + (m < fm ? m : col + n);
    }
    return edges == 1 ? gb__tile_walk_id(ntm - 1 - m, ntn - 1 - n, ntm, ntn, groupm)
                      : gb__tile_walk_id(m, n, ntm, ntn, groupm);
}

/* This work-group's linear id in a two-dimensional grid (dimension 0 fastest). */
static inline uint gb_group_linear(void)
{
    return (uint)get_group_id(1) * (uint)get_num_groups(0) + (uint)get_group_id(0);
}

/* gb_tile_at for this work-group's linear id, the grid's dimension 0 being the tile columns. */
static inline void gb_tile_of_rows(const uint ntm, const uint groupm, const int edges,
                                   const bool edge_m, const bool edge_n, int *gm, int *gn)
{
    gb_tile_at(gb_group_linear(), ntm, (uint)get_num_groups(0), groupm, edges, edge_m, edge_n, gm,
               gn);
}

/* The same over every row of the grid. */
static inline void gb_tile_of_group(const uint groupm, const int edges, const bool edge_m,
                                    const bool edge_n, int *gm, int *gn)
{
    gb_tile_of_rows((uint)get_num_groups(1), groupm, edges, edge_m, edge_n, gm, gn);
}

/* A one-dimensional launch over a grid of t tiles: work-groups 0 .. d - 1 run whole tiles in the
 * walk's order; each of the other r = t - d tiles (walk positions d + i) is cut along K into ps
 * pieces, piece j of tile i run by work-group d + j r + i (the pieces of one K range side by
 * side, as an unsplit grid's tiles are) and writing its bare sums to workspace slot i ps + j.
 * Work-group id's walk position *at, its piece *j of *np (0 of 1 for a whole tile) and its slot
 * *slot (a piece's only). split, a compile-time constant, is whether the kernel has the pieces'
 * code: without it every work-group runs a whole tile and nothing is divided. Selects, not
 * branches (PoCL 3.1 miscompiles a K loop bounded by values merged from branches); q wraps for
 * the whole tiles, whose selects drop it. */
static inline void gb_tile_piece(const uint id, const uint t, const uint d, const uint ps,
                                 const bool split, uint *at, uint *j, uint *np, uint *slot)
{
    const uint r = t - d, q = id - d, qj = split ? q / (r > 0 ? r : 1u) : 0, i = q - qj * r;
    const bool piece = split && id >= d;
    *at = piece ? d + i : id;
    *j = piece ? qj : 0;
    *np = piece ? ps : 1;
    *slot = piece ? i * ps + qj : 0;
}

/* How many pieces' sums gb_piece_sum loads at once (gb_piece_finish: GB_FIN_LOADS). */
#define GB_PIECE_LOADS 8

/* After such a launch over tm x tn tiles of an M x N matrix (walked as gb_tile_at walks them):
 * whether element (row, col)'s tile was split, and if so its pieces' sums in ws added in the
 * order of their K ranges (the same result run to run) into *sum. */
static inline bool gb_piece_sum(global const real *ws, const int row, const int col, const int M,
                                const int N, const int tm, const int tn, const uint groupm,
                                const int edges, const uint d, const int ps, real *sum)
{
    const uint ntm = (uint)((M + tm - 1) / tm), ntn = (uint)((N + tn - 1) / tn);
    const uint at = gb_tile_id((uint)(row / tm), (uint)(col / tn), ntm, ntn, groupm, edges,
                               M % tm != 0, N % tn != 0);
    if (at < d)
        return false;
    global const real *x =
        ws + (size_t)(at - d) * (uint)ps * (tm * tn) + (row % tm) * tn + col % tn;
    /* GB_PIECE_LOADS pieces' loads issued before their sums are added: one wait on memory for
     * every GB_PIECE_LOADS pieces, not one a piece (bench/notes/thin.md#thin-sum-loads). */
    real s = 0;
    for (int j0 = 0; j0 < ps; j0 += GB_PIECE_LOADS) {
        real v[GB_PIECE_LOADS];
#pragma unroll
        for (int j = 0; j < GB_PIECE_LOADS; j++)
            v[j] = j0 + j < ps ? x[(size_t)(j0 + j) * (tm * tn)] : (real)0;
#pragma unroll
        for (int j = 0; j < GB_PIECE_LOADS; j++)
            if (j0 + j < ps)
                s += v[j];
    }
    *sum = s;
    return true;
}

#if !GB_COMPLEX
/* The remainder kernel's element (row, col) of C after such a launch: from its tile's pieces
 * (gb_piece_sum), times alpha, plus beta times C (not read where beta is 0), rounded once to the
 * storage format; nothing for an element outside C or of a whole tile, which its work-group
 * wrote. */
static inline void gb_piece_update(global const real *ws, global stored *C, const int offC,
                                   const int ldc, const int row, const int col, const int M,
                                   const int N, const int tm, const int tn, const uint groupm,
                                   const int edges, const uint d, const int ps, const real alpha,
                                   const real beta)
{
    real sum;
    if (row < M && col < N && gb_piece_sum(ws, row, col, M, N, tm, tn, groupm, edges, d, ps, &sum))
        GB_UPDATE_AT(C, (size_t)offC + GB_C_AT(row, col, ldc), sum, alpha, beta);
}

/* The pieces of a split tile without the remainder kernel, for a family whose counters (CNT)
 * start at zero: each piece's work-group, once its sums are stored, counts itself on its tile's
 * counter; whether it was the last of the tile's np to come is the work-group's answer (flag:
 * a local word to share it), and the last sets the counter back to zero for the next launch.
 * The fences around the count make every piece's stores visible to the last one's loads (NVIDIA:
 * membar.gl, the device-wide fence; elsewhere the work-item's own, which is all a CPU needs). */
#if GB_NVIDIA && !EMU
#define GB_FENCE_DEVICE() __asm__ __volatile__("membar.gl;" ::: "memory")
#else
#define GB_FENCE_DEVICE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
static inline bool gb_piece_last(volatile global uint *cnt, const uint np, local uint *flag)
{
    GB_FENCE_DEVICE();
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0 && get_local_id(1) == 0) {
        const bool last = atomic_inc(cnt) == np - 1;
        if (last)
            atomic_xchg(cnt, 0u);
        *flag = last;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const bool last = *flag != 0;
    if (last)
        GB_FENCE_DEVICE();
    return last;
}

/* The last piece's work-group then makes C's tm x tn tile at (m0, n0) from the np pieces' sums
 * at ws (the tile's first slot, 16-byte aligned), added as gb_piece_update adds them: the same
 * result as the remainder kernel's. Work-item w of wgs takes runs of four elements (tn a
 * multiple of 4), GB_FIN of them spaced 4 wgs apart at a time, and loads them from GB_FIN_LOADS
 * pieces before adding, so that many loads are in flight together: the whole tile is this
 * work-group's alone. */
#define GB_FIN 4
#define GB_FIN_LOADS 4
static inline void gb_piece_finish(global const real *ws, const int np, global stored *C,
                                   const int offC, const int ldc, const int m0, const int n0,
                                   const int M, const int N, const int tm, const int tn,
                                   const int w, const int wgs, const real alpha, const real beta)
{
    const int t = tm * tn;
    for (int e0 = 4 * w; e0 < t; e0 += 4 * wgs * GB_FIN) {
        real4 s[GB_FIN];
#pragma unroll
        for (int i = 0; i < GB_FIN; i++)
            s[i] = 0;
        for (int j0 = 0; j0 < np; j0 += GB_FIN_LOADS) {
            real4 v[GB_FIN_LOADS][GB_FIN];
#pragma unroll
            for (int j = 0; j < GB_FIN_LOADS; j++)
#pragma unroll
                for (int i = 0; i < GB_FIN; i++)
                    v[j][i] = j0 + j < np && e0 + 4 * wgs * i < t
                                  ? vload4(0, ws + (size_t)(j0 + j) * t + e0 + 4 * wgs * i)
                                  : (real4)0;
#pragma unroll
            for (int j = 0; j < GB_FIN_LOADS; j++)
#pragma unroll
                for (int i = 0; i < GB_FIN; i++)
                    if (j0 + j < np)
                        s[i] += v[j][i];
        }
#pragma unroll
        for (int i = 0; i < GB_FIN; i++) {
            const int e = e0 + 4 * wgs * i, row = m0 + e / tn, col = n0 + e % tn;
            const real v[4] = {s[i].x, s[i].y, s[i].z, s[i].w};
#pragma unroll
            for (int c = 0; c < 4; c++)
                if (e < t && row < M && col + c < N)
                    GB_UPDATE_AT(C, (size_t)offC + GB_C_AT(row, col + c, ldc), v[c], alpha,
                                 beta);
        }
    }
}
#endif

/* C[row][col..col+3] = r + beta * C, where r is alpha * the accumulators; C is not read when
 * beta is 0. fast: the four elements lie inside C and c is 16-byte aligned (one real4 access);
 * otherwise element by element, only those inside M x N. */
static inline void gb_put4(global real *c, const real4 r, const real beta, const bool fast,
                           const int row, const int col, const int M, const int N)
{
    if (fast) {
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

/* A byte offset in a tile of rows of w bytes (32, 64 or 128) as the tensor core reads it and the
 * copy engine writes it with its w-byte swizzle: the 16-byte unit's index XOR the offset's bits
 * from 128 bytes up (the tile's start aligned to 8 rows of 128 bytes). */
#define GB_SWIZZLE(a, w) ((a) ^ ((((a) >> 7) & ((w) / 16 - 1)) << 4))

#if GB_NVIDIA
/* Asynchronous copies into local memory (cp.async, sm_80 on), for the families that stage K steps
 * by them (xgemm_nv_async.cl, wgmma.cl); dst is a shared-window address (GB_SMEM).
 * GB_CP16: 16 bytes, the first `bytes` of them copied and the rest zero-filled (src not read
 * where bytes is 0); GB_CP16_WHOLE: all 16, in the form without the zero-fill operand; GB_CP_ELEM:
 * one element of SIZE bytes (4 or 8, a literal), zero where !in. GB_CP_WAIT(n): until at most n
 * (a literal, or a macro of one) of the work-item's committed groups are in flight. */
#define GB_STR_(x) #x
#define GB_STR(x) GB_STR_(x)
#define GB_CP16(dst, src, bytes)                                                               \
    __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src),     \
                     "r"(bytes)                                                                \
                     : "memory")
#define GB_CP16_WHOLE(dst, src)                                                                \
    __asm__ volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory")
#define GB_CP_ELEM(dst, src, size, in)                                                         \
    __asm__ volatile("cp.async.ca.shared.global [%0], [%1], " GB_STR(size) ", %2;" ::"r"(dst), \
                     "l"(src), "r"((in) ? (size) : 0)                                          \
                     : "memory")
#define GB_CP_COMMIT() __asm__ volatile("cp.async.commit_group;" ::: "memory")
#define GB_CP_WAIT(n) __asm__ volatile("cp.async.wait_group " GB_STR(n) ";" ::: "memory")

/* The tensor memory accelerator (bench/notes/wgmma.md#tma-probe-h200), for the families that fill
 * local memory through it (wgmma.cl, mma_sync.cl). Its instructions exist on sm_90a only, so
 * they are deferred ("//@...", docs/kernel-metadata.md, "PTX programs"): a family that runs
 * them is a PTX program. A work-group makes its own two-dimensional maps in local memory (every
 * field by tensormap.replace: an OpenCL buffer's device address is known only to the kernel),
 * publishes each to global memory, and one work-item copies boxes that complete on mbarriers. */
#define GB_SMEM(p) ((uint)(ulong)(p)) /* NVIDIA gives a local pointer its shared-window offset */
#define GB_TMAP_SET(FIELD, TYPE, VAL)                                                          \
    "//@tensormap.replace.tile." FIELD ".shared::cta.b1024." TYPE " [%0], " VAL ";"
/* The fields of the map at local offset MAP (128 zero bytes) of a matrix at X whose rows are
 * STRIDE bytes apart: dimensions SH.x (inner) x SH.y, boxes SH.z x SH.w; ELEMTYPE and SWIZZLE
 * are tensormap.replace's immediates (strings: .f16 "6", .f64 "9", .bf16 "10"; 128-byte swizzle
 * "3"). The rank is written as rank - 1; zeros fill a box past the dimensions. */
#define GB_TMA_FIELDS(MAP, X, STRIDE, SH, ELEMTYPE, SWIZZLE)                                   \
    do {                                                                                       \
        const uint m_ = (MAP);                                                                 \
        const int4 s_ = (SH);                                                                  \
        __asm__ volatile(GB_TMAP_SET("global_address", "b64", "%1")::"r"(m_), "l"(X)           \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("rank", "b32", "1")::"r"(m_) : "memory");                 \
        __asm__ volatile(GB_TMAP_SET("global_dim", "b32", "0, %1")::"r"(m_), "r"(s_.x)         \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("global_dim", "b32", "1, %1")::"r"(m_), "r"(s_.y)         \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("global_stride", "b64", "0, %1")::"r"(m_),                \
                         "l"((ulong)(STRIDE))                                                  \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("box_dim", "b32", "0, %1")::"r"(m_), "r"(s_.z)            \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("box_dim", "b32", "1, %1")::"r"(m_), "r"(s_.w)            \
                         : "memory");                                                          \
        __asm__ volatile(GB_TMAP_SET("element_stride", "b32", "0, 1")::"r"(m_) : "memory");    \
        __asm__ volatile(GB_TMAP_SET("element_stride", "b32", "1, 1")::"r"(m_) : "memory");    \
        __asm__ volatile(GB_TMAP_SET("elemtype", "b32", ELEMTYPE)::"r"(m_) : "memory");        \
        __asm__ volatile(GB_TMAP_SET("swizzle_mode", "b32", SWIZZLE)::"r"(m_) : "memory");     \
    } while (0)
/* The map at local offset map published to gmap (global memory, 128 bytes) for the tensor-map
 * proxy; a whole warp calls it. */
static inline void gb_tma_publish(global ulong *gmap, const uint map)
{
    __asm__ volatile("//@tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release"
                     ".gpu.sync.aligned [%0], [%1], 128;" ::"l"(gmap),
                     "r"(map)
                     : "memory");
}
/* The published map at gmap acquired by the work-item that copies through it. */
static inline void gb_tma_acquire(global const ulong *gmap)
{
    __asm__ volatile("//@fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gmap)
                     : "memory");
}
/* n mbarriers from local offset bar on (8 bytes each), each waiting for one arrival, made
 * visible; one work-item calls it, before a barrier. */
static inline void gb_mbar_init(const uint bar, const int n)
{
    for (int i = 0; i < n; i++)
        __asm__ volatile("//@mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar + 8u * (uint)i)
                         : "memory");
    __asm__ volatile("//@fence.mbarrier_init.release.cluster;" ::: "memory");
}
/* The mbarrier at bar told to expect bytes more (the arrival of the work-item that copies). */
static inline void gb_mbar_expect(const uint bar, const uint bytes)
{
    __asm__ volatile("//@{ .reg .b64 tx; mbarrier.arrive.expect_tx.shared::cta.b64 tx, [%0], %1; }"
                     ::"r"(bar), "r"(bytes)
                     : "memory");
}
/* The box of the map at map at (c0, c1) (inner first) into local offset dst, completing on the
 * mbarrier at bar. */
static inline void gb_tma_box(const uint dst, global const ulong *map, const int c0, const int c1,
                              const uint bar)
{
    __asm__ volatile(
        "//@cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], "
        "[%1, {%2, %3}], [%4];" ::"r"(dst),
        "l"(map), "r"(c0), "r"(c1), "r"(bar)
        : "memory");
}
/* Waits until the mbarrier at bar has completed the phase of this parity. */
static inline void gb_mbar_wait(const uint bar, const uint parity)
{
    uint done = 0;
    while (!done)
        __asm__ volatile("//@{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; "
                         "selp.u32 %0, 1, 0, p; }"
                         : "=r"(done)
                         : "r"(bar), "r"(parity)
                         : "memory");
}
/* A work-group's two maps are made in maps (local, 256 bytes, 128-byte aligned): gb_tma_zero by
 * every work-item, then GB_TMA_FIELDS of map 0 at GB_SMEM(maps) and map 1 at GB_SMEM(maps + 8)
 * by work-item 0, then gb_tma_ready by every work-item, which publishes them to gmap[0..32)
 * (global memory), initialises n mbarriers at bars (local) and has work-item 0, the one that
 * copies, acquire the maps. */
static inline void gb_tma_zero(local uint4 *maps, const int tid)
{
    if (tid < 16)
        maps[tid] = (uint4)(0u);
    if (tid < 32)
        __asm__ volatile("bar.warp.sync -1;" ::: "memory");
}
static inline void gb_tma_ready(local uint4 *maps, global ulong *gmap, local ulong *bars,
                                const int n, const int tid)
{
    if (tid < 32) {
        __asm__ volatile("bar.warp.sync -1;" ::: "memory");
        gb_tma_publish(gmap, GB_SMEM(maps));
        gb_tma_publish(gmap + 16, GB_SMEM(maps + 8));
    }
    if (tid == 0)
        gb_mbar_init(GB_SMEM(bars), n);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tid == 0) {
        gb_tma_acquire(gmap);
        gb_tma_acquire(gmap + 16);
    }
}
#endif
