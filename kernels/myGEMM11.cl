/* myGEMM11.cl: kernel 11 of the SGEMM tuning tutorial's code (Cedric Nugteren, "OpenCL SGEMM
 * tuning for Kepler"; its "Inside clBlas" page), register tiling without local memory, as
 * clBlas's kernels do. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N) and C (M x N)
 * packed; M is a multiple of THREADSX*RX, N of THREADSY*RY and K of RK (the harness zero-pads),
 * so every column of A, B and C starts on a whole vector.
 *
 * No local memory and no barriers: each work-item computes an RX x RY block of C (RX consecutive
 * rows of RY consecutive columns) held as RY vectors of RX elements, and walks K in steps of RK,
 * reading straight from global memory into registers an RX x RK block of A (RK vectors of RX rows,
 * through a pointer to realRX) and an RK x RY block of B (RY vectors of RK values of k, through a
 * pointer to realRK), then doing RK rank-1 updates of its block: RX + RY values loaded per k serve
 * RX * RY multiply-adds. Reuse between work-items is left to the caches. Work-groups are
 * THREADSX x THREADSY, which only groups neighbouring blocks for the caches. */
#ifndef THREADSX
#define THREADSX 8
#endif
#ifndef THREADSY
#define THREADSY 8
#endif
#ifndef RX
#define RX 8
#endif
#ifndef RY
#define RY 4
#endif
#ifndef RK
#define RK 4
#endif
#define realX REALV(RX)
#define realK REALV(RK)

kernel void myGEMM11(const int M, const int N, const int K, const real alpha,
                     global const realX *restrict A, global const realK *restrict B,
                     const real beta, global realX *C)
{
    /* mv: this work-item's vector of RX rows; n0: its first column. */
    const int mv = (int)get_global_id(0), n0 = (int)get_global_id(1) * RY;
    const int Mv = M / RX, Kv = K / RK;
    realX acc[RY], a[RK];
    real b[RY][RK];
#pragma unroll
    for (int j = 0; j < RY; j++)
        acc[j] = (realX)0;
    for (int kv = 0; kv < Kv; kv++) {
#pragma unroll
        for (int kk = 0; kk < RK; kk++)
            a[kk] = A[(kv * RK + kk) * Mv + mv];
#pragma unroll
        for (int j = 0; j < RY; j++)
            VSTORE(RK)(B[(n0 + j) * Kv + kv], 0, b[j]);
#pragma unroll
        for (int kk = 0; kk < RK; kk++)
#pragma unroll
            for (int j = 0; j < RY; j++)
                acc[j] = fma(a[kk], (realX)b[j][kk], acc[j]);
    }
#pragma unroll
    for (int j = 0; j < RY; j++)
        GB_UPDATE(C[(n0 + j) * Mv + mv], acc[j], alpha, beta);
}
