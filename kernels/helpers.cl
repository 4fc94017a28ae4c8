/* helpers.cl: the harness's helper passes, compiled after prelude.cl. gb_copy copies one stored
 * matrix into another, optionally transposing it, and fills the destination beyond the source
 * with zeros: it transposes operands into a kernel's native layout, pads them to a kernel's tile
 * multiples, and copies C into and out of a padded buffer. Coordinates are (outer, inner) of
 * the storage: rows of a row-major matrix, columns of a column-major one. Each work-item writes
 * one destination element; work-items of a row of dimension 0 write neighbouring addresses.
 * gb_transpose is gb_copy's transposing form through local memory (the route's choice).
 * gb_copy4 is the straight copy into a destination whose rows start on 4-element boundaries
 * (d_off and d_ld multiples of 4, as in every padded copy): four elements per work-item, one
 * vector store, which moves more bytes per instruction than gb_copy on a GPU. They only move
 * elements, so they work in the prelude's `elem`, of the storage element's size. Complex
 * builds have gb_copy only (an elem is a real2 there, with no 4-wide vector of it). */
kernel void gb_copy(const int d_outer, const int d_inner, global elem *dst, const int d_off,
                    const int d_ld, const int s_outer, const int s_inner,
                    global const elem *src, const int s_off, const int s_ld, const int trans)
{
    const int i = (int)get_global_id(0), o = (int)get_global_id(1);
    if (o >= d_outer || i >= d_inner)
        return;
    const int so = trans ? i : o, si = trans ? o : i;
    dst[d_off + o * d_ld + i] = so < s_outer && si < s_inner ? src[s_off + so * s_ld + si] : (elem)0;
}

/* gb_copy with trans, a GB_TT x GB_TT block a work-group (GB_TT from the build options: the
 * launch's GB__TRANSPOSE_BLOCK, src/rt/plan/route.h): the block of the source read along its
 * rows into local memory, the destination's written along its rows from it, each access of a
 * row to consecutive addresses (gb_copy's transposing reads go down a column, a 32-byte sector
 * for each element: bench/notes/wgmma.md#tiled-transpose). Any work-group up to GB_TT x GB_TT:
 * its work-items step over the block. The rows of the local block are padded so that a
 * column's elements fall in distinct 4-byte banks. */
#define GB_TPAD (sizeof(elem) < 4 ? 4 / sizeof(elem) : 1)
kernel void gb_transpose(const int d_outer, const int d_inner, global elem *dst, const int d_off,
                         const int d_ld, const int s_outer, const int s_inner,
                         global const elem *src, const int s_off, const int s_ld)
{
    local elem tile[GB_TT][GB_TT + GB_TPAD];
    const int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    const int nx = (int)get_local_size(0), ny = (int)get_local_size(1);
    /* The destination's block at (o0, i0): the source's at (i0, o0). */
    const int i0 = (int)get_group_id(0) * GB_TT, o0 = (int)get_group_id(1) * GB_TT;
    for (int r = ly; r < GB_TT; r += ny)
        for (int c = lx; c < GB_TT; c += nx) {
            const int so = i0 + r, si = o0 + c;
            tile[r][c] = so < s_outer && si < s_inner ? src[s_off + so * s_ld + si] : (elem)0;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = ly; r < GB_TT; r += ny)
        for (int c = lx; c < GB_TT; c += nx)
            if (o0 + r < d_outer && i0 + c < d_inner)
                dst[d_off + (o0 + r) * d_ld + i0 + c] = tile[c][r];
}

#if !GB_COMPLEX
kernel void gb_copy4(const int d_outer, const int d_inner, global elem *dst, const int d_off,
                     const int d_ld, const int s_outer, const int s_inner,
                     global const elem *src, const int s_off, const int s_ld)
{
    const int i = 4 * (int)get_global_id(0), o = (int)get_global_id(1);
    if (o >= d_outer || i >= d_inner)
        return;
    elem4 v = (elem4)0;
    if (o < s_outer) {
        global const elem *s = src + s_off + o * s_ld + i;
        if (i + 4 <= s_inner) {
            v = vload4(0, s); /* any alignment */
        } else {
            v.x = i < s_inner ? s[0] : (elem)0;
            v.y = i + 1 < s_inner ? s[1] : (elem)0;
            v.z = i + 2 < s_inner ? s[2] : (elem)0;
        }
    }
    global elem *d = dst + d_off + o * d_ld + i;
    if (i + 4 <= d_inner) {
        *(global elem4 *)d = v;
    } else {
        d[0] = v.x;
        if (i + 1 < d_inner)
            d[1] = v.y;
        if (i + 2 < d_inner)
            d[2] = v.z;
    }
}
#endif

#if !GB_COMPLEX && !GB_STORAGE
/* The 1M method: a complex GEMM on a real kernel (docs/methodology.md). With the problem made
 * row-major, op(A) is the real M x 2K matrix X of its parts side by side, alpha op(B) the real
 * 2K x 2N matrix Y of 2x2 blocks [re im; -im re], and X Y holds C's parts side by side: each
 * complex product's four real products, summed with the rest of K. Conjugating A flips the
 * signs of Y's second rows; conjugating B negates its imaginary part. gb_pack1m and
 * gb_expand1m write X (rows x cols) or Y, or their transposes where d_trans, into a
 * d_outer x d_inner destination (leading dimension d_ld) with zeros beyond them, from the
 * complex operand (real2) at s_off, s_ld, read transposed where s_trans. gb_expand1m with panel
 * > 0 writes the destination as a kernel's prologue packs B instead: panels of panel columns,
 * one after another, each its d_outer rows of panel elements (no d_trans then). */
/* Each work-item makes one 2 x 2 block of X or Y, whose element (R, C) (both even) is its
 * place in the destination, (2 gid1, 2 gid0), or the transposed place where d_trans: a block
 * is one complex element of op(B) (Y), or two of op(A) (X, rows R and R + 1). 0 where the
 * block starts outside the destination. */
static inline int gb_onem_block(const int d_outer, const int d_inner, const int d_trans, int *R,
                                int *C)
{
    const int o = 2 * (int)get_global_id(1), i = 2 * (int)get_global_id(0);
    *R = d_trans ? i : o;
    *C = d_trans ? o : i;
    return o < d_outer && i < d_inner;
}

/* Where element (o, i) of the destination lies: rows d_ld apart, or in panels of panel columns
 * (even, so that a block's two columns share one). */
static inline int gb_onem_at(const int d_outer, const int d_ld, const int panel, const int o,
                             const int i)
{
    return panel ? (i / panel) * d_outer * panel + o * panel + i % panel : o * d_ld + i;
}

/* Stores block v (row-major: (R, C), (R, C + 1), (R + 1, C), (R + 1, C + 1)) at its place. */
static inline void gb_onem_store(global real *dst, const int d_outer, const int d_inner,
                                 const int d_ld, const int d_trans, const int panel, const int R,
                                 const int C, const real *v)
{
    if (!d_trans && R + 1 < d_outer && C + 1 < d_inner) { /* the usual case: two pairs */
        vstore2((real2)(v[0], v[1]), 0, dst + gb_onem_at(d_outer, d_ld, panel, R, C));
        vstore2((real2)(v[2], v[3]), 0, dst + gb_onem_at(d_outer, d_ld, panel, R + 1, C));
        return;
    }
    for (int e = 0; e < 4; e++) {
        const int r = R + e / 2, c = C + e % 2, o = d_trans ? c : r, i = d_trans ? r : c;
        if (o < d_outer && i < d_inner)
            dst[gb_onem_at(d_outer, d_ld, panel, o, i)] = v[e];
    }
}

kernel void gb_pack1m(const int d_outer, const int d_inner, global real *dst, const int d_ld,
                      const int rows, const int cols, global const real2 *src, const int s_off,
                      const int s_ld, const int d_trans, const int s_trans)
{
    int R, C;
    if (!gb_onem_block(d_outer, d_inner, d_trans, &R, &C))
        return;
    real v[4] = {0, 0, 0, 0};
    const int l = C / 2;
    for (int h = 0; h < 2; h++)
        if (R + h < rows && C < cols) {
            const real2 z = src[s_off + (s_trans ? l * s_ld + R + h : (R + h) * s_ld + l)];
            v[2 * h] = z.x;
            v[2 * h + 1] = z.y;
        }
    gb_onem_store(dst, d_outer, d_inner, d_ld, d_trans, 0, R, C, v);
}

kernel void gb_expand1m(const int d_outer, const int d_inner, global real *dst, const int d_ld,
                        const int rows, const int cols, global const real2 *src, const int s_off,
                        const int s_ld, const int d_trans, const int s_trans, const int conj_a,
                        const int conj_b, const real2 alpha, const int panel)
{
    int R, C;
    if (!gb_onem_block(d_outer, d_inner, d_trans, &R, &C))
        return;
    real v[4] = {0, 0, 0, 0};
    if (R < rows && C < cols) {
        const int l = R / 2, j = C / 2;
        /* alpha is (1, 0) unless it is complex (the kernel applies a real one). */
        const real2 b =
            gb_1m_b(src[s_off + (s_trans ? j * s_ld + l : l * s_ld + j)], conj_b, alpha);
        const real2 o = gb_1m_odd(b, conj_a);
        v[0] = b.x;
        v[1] = b.y;
        v[2] = o.x;
        v[3] = o.y;
    }
    gb_onem_store(dst, d_outer, d_inner, d_ld, d_trans, panel, R, C, v);
}

/* C = beta C for a complex beta (the real kernel then adds to C with beta 1); (1, 0) leaves C
 * to the kernel. rows x cols complex elements at off, leading dimension ld. */
kernel void gb_cscale(const int rows, const int cols, global real2 *c, const int off,
                      const int ld, const real2 beta)
{
    const int i = (int)get_global_id(0), o = (int)get_global_id(1);
    if (o >= rows || i >= cols || (beta.x == (real)1 && beta.y == (real)0))
        return;
    global real2 *p = c + off + o * ld + i;
    const real2 v = *p;
    *p = (real2)(fma(beta.x, v.x, -beta.y * v.y), fma(beta.x, v.y, beta.y * v.x));
}
#endif
