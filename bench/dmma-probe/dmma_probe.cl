/* dmma_probe.cl: the smallest DGEMM on NVIDIA's FP64 tensor cores, to find out whether
 * mma.sync with .f64 runs under NVIDIA's OpenCL at all. One warp per 8x8 tile of C, operands
 * read straight from global memory (row-major NN, sizes padded to the tile by the harness).
 * Lane (g, t) = (lane >> 2, lane & 3) holds A[g][k + t], B[k + t][g] and C[g][2t + {0, 1}]: the
 * m8n8k4 .f64 fragment layout of the PTX ISA.
 *   OP=0: no tensor core: each lane computes its two elements with inline PTX fma.rn.f64 (tests
 *         inline PTX on doubles and the geometry);
 *   OP=1: one mma.sync.aligned.m8n8k4.row.col.f64 per k-quad;
 *   OP=2: as 1, with every lane's values staged through local memory first. */
#ifndef OP
#define OP 1
#endif
#ifndef WARPS
#define WARPS 1 /* warps per work-group, side by side along N */
#endif

__attribute__((reqd_work_group_size(32 * WARPS, 1, 1)))
kernel void dmma_probe(const int M, const int N, const int K, const double alpha,
                       global const double *restrict A, const int offA, const int lda,
                       global const double *restrict B, const int offB, const int ldb,
                       const double beta, global double *C, const int offC, const int ldc)
{
    const int lane = (int)get_local_id(0) & 31, g = lane >> 2, t = lane & 3;
    const int m0 = (int)get_group_id(1) * 8;
    const int n0 = ((int)get_group_id(0) * WARPS + (int)get_local_id(0) / 32) * 8;
    global const double *a = A + offA + (m0 + g) * lda;
    global const double *b = B + offB + n0;
    double c0 = 0.0, c1 = 0.0;
#if OP == 2
    local double sa[32 * WARPS], sb[32 * WARPS];
#endif
    for (int k = 0; k < K; k += 4) {
#if OP == 0
        for (int kk = 0; kk < 4; kk++) {
            const double x = a[k + kk];
            const double y0 = b[(k + kk) * ldb + 2 * t], y1 = b[(k + kk) * ldb + 2 * t + 1];
            __asm__("fma.rn.f64 %0, %1, %2, %0;" : "+d"(c0) : "d"(x), "d"(y0));
            __asm__("fma.rn.f64 %0, %1, %2, %0;" : "+d"(c1) : "d"(x), "d"(y1));
        }
#else
        double x = a[k + t], y = b[(k + t) * ldb + g];
#if OP == 2
        const int i = (int)get_local_id(0);
        sa[i] = x;
        sb[i] = y;
        barrier(CLK_LOCAL_MEM_FENCE);
        x = sa[i];
        y = sb[i];
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        __asm__ __volatile__("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                             "{%0, %1}, {%2}, {%3}, {%0, %1};"
                             : "+d"(c0), "+d"(c1)
                             : "d"(x), "d"(y));
#endif
    }
    global double *c = C + offC + (m0 + g) * ldc + n0 + 2 * t;
    if (m0 + g < M && n0 + 2 * t < N)
        c[0] = beta == 0.0 ? alpha * c0 : alpha * c0 + beta * c[0];
    if (m0 + g < M && n0 + 2 * t + 1 < N)
        c[1] = beta == 0.0 ? alpha * c1 : alpha * c1 + beta * c[1];
}
