/* myGEMM5.cl: step 5 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), transposed input and rectangular tiles. Column-major C = alpha*A*B^T + beta*C with A
 * (M x K) packed and B given transposed, stored N x K (element (n, k) at B[k*N + n]): this is the
 * family's native layout col-NT, so for an ordinary col-NN problem the harness's transposition
 * pass (gb_copy) writes B^T first, and its time shows in the 'helpers' column, as the tutorial's
 * separate transpose kernel. M and N are multiples of TS, K of TSDK (the harness zero-pads).
 *
 * With B transposed, a tile of A and a tile of B^T both run along K the same way, so the tile in
 * K can have its own size TSDK: a work-group of TS x RTS work-items (RTS = TS / WPT) computes a
 * TS x TS tile of C, walking K in steps of TSDK. Per step each work-item copies LPT = TSDK / RTS
 * elements of the TS x TSDK tile of A into Asub[k][m] and LPT of the TS x TSDK tile of B^T into
 * Bsub[n][k]; both are read from global memory along M and N, so neighbouring work-items read
 * neighbouring addresses. Bsub is written across its rows (transposing into local memory), so each
 * of its rows is padded by PAD elements, which spreads a column over different local-memory banks.
 * As in step 3, each work-item then computes WPT elements of one row of C (columns col, col + RTS,
 * ...) in registers. */
#ifndef TS
#define TS 32
#endif
#ifndef WPT
#define WPT 8
#endif
#ifndef TSDK
#define TSDK 16
#endif
#ifndef PAD
#define PAD 2
#endif
#define RTS (TS / WPT)   /* work-items along the columns of the tile */
#define LPT (TSDK / RTS) /* elements of each tile loaded per work-item */

kernel void myGEMM5(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, global const real *restrict B,
                    const real beta, global real *C)
{
    const int row = (int)get_local_id(0), col = (int)get_local_id(1);
    const int m0 = (int)get_group_id(0) * TS, n0 = (int)get_group_id(1) * TS;
    local real Asub[TSDK][TS];      /* Asub[k][m] */
    local real Bsub[TS][TSDK + PAD]; /* Bsub[n][k], rows padded */
    real acc[WPT];
#pragma unroll
    for (int w = 0; w < WPT; w++)
        acc[w] = 0;
    for (int t = 0; t < K; t += TSDK) {
#pragma unroll
        for (int l = 0; l < LPT; l++) {
            const int k = col + l * RTS;
            Asub[k][row] = A[(t + k) * M + m0 + row];
            Bsub[row][k] = B[(t + k) * N + n0 + row];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TSDK; k++) {
            const real a = Asub[k][row];
#pragma unroll
            for (int w = 0; w < WPT; w++)
                acc[w] = fma(a, Bsub[col + w * RTS][k], acc[w]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int w = 0; w < WPT; w++)
        GB_UPDATE(C[(n0 + col + w * RTS) * M + m0 + row], acc[w], alpha, beta);
}
