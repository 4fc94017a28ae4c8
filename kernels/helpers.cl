/* helpers.cl: the harness's helper passes, compiled after prelude.cl. gb_copy copies one stored
 * matrix into another, optionally transposing it, and fills the destination beyond the source
 * with zeros: it transposes operands into a kernel's native layout, pads them to a kernel's tile
 * multiples, and copies C into and out of a padded buffer. Coordinates are (outer, inner) of
 * the storage: rows of a row-major matrix, columns of a column-major one. Each work-item writes
 * one destination element; work-items of a row of dimension 0 write neighbouring addresses. */
kernel void gb_copy(const int d_outer, const int d_inner, global real *dst, const int d_off,
                    const int d_ld, const int s_outer, const int s_inner,
                    global const real *src, const int s_off, const int s_ld, const int trans)
{
    const int i = (int)get_global_id(0), o = (int)get_global_id(1);
    if (o >= d_outer || i >= d_inner)
        return;
    const int so = trans ? i : o, si = trans ? o : i;
    dst[d_off + o * d_ld + i] = so < s_outer && si < s_inner ? src[s_off + so * s_ld + si] : (real)0;
}
