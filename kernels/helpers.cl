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
