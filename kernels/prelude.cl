/* prelude.cl: compiled before every family's source. It maps GB_PRECISION (32 or 64) to the
 * element type `real` and its vectors, and gives width-generic vector helpers so a family can
 * be written once for any vector width W in 1, 2, 4, 8, 16: REALV(W), VLOAD(W), VSTORE(W),
 * HSUM(W). The harness passes GB_PRECISION, GB_ROW_MAJOR, GB_TRANS_A, GB_TRANS_B and every
 * family parameter as -D options, and GB_NVIDIA=1 on NVIDIA GPUs (where inline PTX builds). */
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

/* C = alpha * acc + beta * C, where beta == 0 means C is not read (BLAS semantics). */
#define GB_UPDATE(c, acc, alpha, beta) \
    ((c) = (beta) == (real)0 ? (alpha) * (acc) : (alpha) * (acc) + (beta) * (c))

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

/* gb_tile_at for this work-group's linear id, the grid's dimension 0 being the tile columns. */
static inline void gb_tile_of_rows(const uint ntm, const uint groupm, const int edges,
                                   const bool edge_m, const bool edge_n, int *gm, int *gn)
{
    const uint ntn = (uint)get_num_groups(0);
    gb_tile_at((uint)get_group_id(1) * ntn + (uint)get_group_id(0), ntm, ntn, groupm, edges,
               edge_m, edge_n, gm, gn);
}

/* The same over every row of the grid. */
static inline void gb_tile_of_group(const uint groupm, const int edges, const bool edge_m,
                                    const bool edge_n, int *gm, int *gn)
{
    gb_tile_of_rows((uint)get_num_groups(1), groupm, edges, edge_m, edge_n, gm, gn);
}

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
