/* scale.cl: C = beta * C (s and d), and the inputs the library measures candidates on (every
 * precision), compiled after prelude.cl. The library's GEMM call runs it where the
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

/* gb_fill: buf[i] for i < n, a function of (seed, i) that the host computes as well
 * (src/rt/blas/trial.c, fill_value): a 24-bit integer from a hash of both, scaled into [-1, 1),
 * exact in single and double precision, and rounded to the storage format by GB_STORE for h and
 * b (to nearest, ties to even, as the host's gb__round_to). A complex buffer is filled as the
 * reals of its parts (n twice its elements, the program of its real precision). The library
 * checks the candidates it measures against the host's reference of a few elements of C made
 * from these. */
kernel void gb_fill(global stored *buf, const uint n, const uint seed)
{
    const uint i = (uint)get_global_id(0);
    if (i >= n)
        return;
    uint x = i * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    GB_STORE((real)((int)(x >> 8) - (1 << 23)) * (real)0x1.0p-23, buf, i);
}
