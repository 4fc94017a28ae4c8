/* myGEMM3.cl: step 3 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), more work per thread. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N)
 * and C (M x N) packed; M, N and K are multiples of TS (the harness zero-pads to them).
 *
 * As step 2, a work-group computes a TS x TS tile of C from TS x TS tiles of A and B staged in
 * local memory (Asub[k][m], Bsub[n][k]), but with TS x RTS work-items, RTS = TS / WPT: each
 * work-item computes WPT elements of one row of the tile, in columns col, col + RTS, col + 2*RTS,
 * ... (strided, so that the work-items of a row of the group still touch neighbouring addresses),
 * keeping WPT accumulators in registers. It loads WPT elements of each tile of A and B per step,
 * and every element of Asub it reads from local memory serves WPT multiply-adds instead of one. */
#ifndef TS
#define TS 32
#endif
#ifndef WPT
#define WPT 8
#endif
#define RTS (TS / WPT) /* work-items along the columns of the tile */

kernel void myGEMM3(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, global const real *restrict B,
                    const real beta, global real *C)
{
    const int row = (int)get_local_id(0), col = (int)get_local_id(1);
    const int m = (int)get_group_id(0) * TS + row, n0 = (int)get_group_id(1) * TS;
    local real Asub[TS][TS]; /* Asub[k][m] */
    local real Bsub[TS][TS]; /* Bsub[n][k] */
    real acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; w++)
        acc[w] = 0;
    for (int t = 0; t < K; t += TS) {
#pragma unroll
        for (int w = 0; w < WPT; w++) {
            const int c = col + w * RTS;
            Asub[c][row] = A[(t + c) * M + m];
            Bsub[c][row] = B[(n0 + c) * K + t + row];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) {
            const real a = Asub[k][row];
#pragma unroll
            for (int w = 0; w < WPT; w++)
                acc[w] = fma(a, Bsub[col + w * RTS][k], acc[w]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int w = 0; w < WPT; w++)
        GB_UPDATE(C[(n0 + col + w * RTS) * M + m], acc[w], alpha, beta);
}
