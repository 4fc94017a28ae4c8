/* scale.cl: C = beta * C, compiled after prelude.cl. The library's GEMM call runs it where the
 * product vanishes (K = 0 or alpha = 0: BLAS then reads neither A nor B). beta = 0 writes zeros
 * without reading C, so that NaN or Inf already in C does not survive (BLAS semantics). Each
 * work-item scales one element; dimension 0 runs along the stored rows. */
kernel void gb_scale(const int outer, const int inner, global real *c, const int off,
                     const int ld, const real beta)
{
    const int i = (int)get_global_id(0), o = (int)get_global_id(1);
    if (o >= outer || i >= inner)
        return;
    global real *p = c + off + o * ld + i;
    *p = beta == (real)0 ? (real)0 : beta * *p;
}
