/* ceilings.cl: micro-benchmarks of a device's ceilings, compiled after prelude.cl.
 * gb_fma_chain: each work-item runs 8 independent chains of CW-wide vector FMAs (64 lanes in
 * single precision, 32 in double) for ITERS steps (independent, so
 * the FMA units' latency is hidden), 2 operations per FMA; the result is stored so nothing is
 * optimised away. gb_copy_bw: each work-item copies one 16-byte vector, so bytes moved are
 * twice the buffer. */
#ifndef ITERS
#define ITERS 1024
#endif

/* Lanes per chain: 256-bit vectors, a width every x86 SIMD unit of the last decade runs. */
#if GB_PRECISION == 64
#define CW 4
#else
#define CW 8
#endif

kernel void gb_fma_chain(global real *out, const real a, const real b)
{
    /* Eight vector chains, so that a CPU compiler emits SIMD FMAs whether or not it vectorises
     * across work-items; a GPU splits them into 8 * CW independent scalar chains. */
    const REALV(CW) va = (REALV(CW))a, vb = (REALV(CW))b;
    REALV(CW) x[8];
#pragma unroll
    for (int c = 0; c < 8; c++)
        x[c] = (REALV(CW))((real)get_global_id(0) * (real)1e-7 + (real)c);
    for (int i = 0; i < ITERS; i++) {
#pragma unroll
        for (int c = 0; c < 8; c++)
            x[c] = fma(x[c], va, vb);
    }
    REALV(CW) t = x[0];
#pragma unroll
    for (int c = 1; c < 8; c++)
        t += x[c];
    out[get_global_id(0)] = HSUM(CW)(t);
}

kernel void gb_copy_bw(global const float4 *restrict src, global float4 *restrict dst)
{
    const size_t i = get_global_id(0);
    dst[i] = src[i];
}
