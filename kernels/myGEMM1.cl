/* myGEMM1.cl: step 1 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), the naive kernel. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N) and
 * C (M x N) packed (leading dimensions M, K and M; the harness packs operands for it).
 *
 * Nothing is shared: every work-item computes one element C(m, n), m = global id 0 (so that
 * neighbouring work-items touch neighbouring elements of C and of A's columns), n = global id 1.
 * It walks K reading row m of A (stride M) and column n of B (contiguous) straight from global
 * memory, keeping the sum in one register. The work-group is TS x TS, as the tutorial launches
 * it; work-items past the edge of C (the harness rounds the grid up to whole work-groups) do
 * nothing, so any M, N, K works without padding. */
#ifndef TS
#define TS 32
#endif

kernel void myGEMM1(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, global const real *restrict B,
                    const real beta, global real *C)
{
    const int m = (int)get_global_id(0), n = (int)get_global_id(1);
    if (m >= M || n >= N)
        return;
    real acc = 0;
    for (int k = 0; k < K; k++)
        acc = fma(A[k * M + m], B[n * K + k], acc);
    GB_UPDATE(C[n * M + m], acc, alpha, beta);
}
