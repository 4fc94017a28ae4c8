/* helpers.cl: the harness's helper passes, compiled after prelude.cl. gb_copy copies one stored
 * matrix into another, optionally transposing it, and fills the destination beyond the source
 * with zeros: it transposes operands into a kernel's native layout, pads them to a kernel's tile
 * multiples, and copies C into and out of a padded buffer. Coordinates are (outer, inner) of
 * the storage: rows of a row-major matrix, columns of a column-major one. Each work-item writes
 * one destination element; work-items of a row of dimension 0 write neighbouring addresses.
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
 * complex operand (real2) at s_off, s_ld, read transposed where s_trans. */
/* This work-item's destination element (o, i), and the element (r, c) of X or Y it holds: 0
 * where it has none. */
static inline int gb_onem_place(const int d_outer, const int d_inner, const int d_trans, int *o,
                                int *i, int *r, int *c)
{
    *i = (int)get_global_id(0);
    *o = (int)get_global_id(1);
    *r = d_trans ? *i : *o;
    *c = d_trans ? *o : *i;
    return *o < d_outer && *i < d_inner;
}

kernel void gb_pack1m(const int d_outer, const int d_inner, global real *dst, const int d_ld,
                      const int rows, const int cols, global const real2 *src, const int s_off,
                      const int s_ld, const int d_trans, const int s_trans)
{
    int o, i, r, c;
    if (!gb_onem_place(d_outer, d_inner, d_trans, &o, &i, &r, &c))
        return;
    real v = 0;
    if (r < rows && c < cols) {
        const int l = c / 2;
        const real2 z = src[s_off + (s_trans ? l * s_ld + r : r * s_ld + l)];
        v = c % 2 ? z.y : z.x;
    }
    dst[o * d_ld + i] = v;
}

kernel void gb_expand1m(const int d_outer, const int d_inner, global real *dst, const int d_ld,
                        const int rows, const int cols, global const real2 *src, const int s_off,
                        const int s_ld, const int d_trans, const int s_trans, const int conj_a,
                        const int conj_b, const real2 alpha)
{
    int o, i, r, c;
    if (!gb_onem_place(d_outer, d_inner, d_trans, &o, &i, &r, &c))
        return;
    real v = 0;
    if (r < rows && c < cols) {
        const int l = r / 2, j = c / 2;
        real2 b = src[s_off + (s_trans ? j * s_ld + l : l * s_ld + j)];
        if (conj_b)
            b.y = -b.y;
        /* alpha is (1, 0) unless it is complex (the kernel applies a real one). */
        if (alpha.x != (real)1 || alpha.y != (real)0)
            b = (real2)(fma(alpha.x, b.x, -alpha.y * b.y), fma(alpha.x, b.y, alpha.y * b.x));
        if (r % 2 == 0)
            v = c % 2 ? b.y : b.x;
        else
            v = (conj_a ? -1 : 1) * (c % 2 ? b.x : -b.y);
    }
    dst[o * d_ld + i] = v;
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
