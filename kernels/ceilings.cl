/* ceilings.cl: micro-benchmarks of a device's ceilings, compiled after prelude.cl.
 * gb_fma_chain: each work-item runs 8 independent chains of CW-wide vector FMAs (8 * CW lanes:
 * 64 in single precision and 32 in double at 256 bits) for ITERS steps (independent, so
 * the FMA units' latency is hidden), 2 operations per FMA; the result is stored so nothing is
 * optimised away. gb_copy_bw: each work-item copies one 16-byte vector, so bytes moved are
 * twice the buffer. gb_read_bw: each work-item reads one 16-byte vector and writes nothing
 * (unless its sum is a value no input holds): a stream's reads alone, whose time at a few sizes
 * gives the fixed cost of a short stream beside its rate. */
#ifndef ITERS
#define ITERS 1024
#endif

/* Lanes per chain: the harness passes the device's native vector width where it is wider than
 * 256 bits (AVX-512: 16 floats, 8 doubles), so that the chains use every lane the device has;
 * 256-bit vectors otherwise, a width every x86 SIMD unit of the last decade runs, and which a GPU
 * splits into independent scalar chains. */
#ifndef CW
#if GB_PRECISION == 64
#define CW 4
#else
#define CW 8
#endif
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

kernel void gb_read_bw(global const float4 *restrict src, global float *restrict out)
{
    const float4 v = src[get_global_id(0)];
    const float t = v.x + v.y + v.z + v.w;
    if (t == -1.0f) /* the buffer is zeroed: never taken, but the compiler cannot know */
        out[0] = t;
}
