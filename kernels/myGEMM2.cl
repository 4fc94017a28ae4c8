/* myGEMM2.cl: step 2 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), tiling in local memory. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N)
 * and C (M x N) packed; M, N and K are multiples of TS (the harness zero-pads to them).
 *
 * A work-group of TS x TS work-items computes one TS x TS tile of C, one element per work-item
 * (row = local id 0, column = local id 1). It walks K in steps of TS: each work-item copies one
 * element of the TS x TS tile of A and one of the tile of B from global into local memory
 * (Asub[k][m] and Bsub[n][k], both in the order global memory holds them, so neighbouring
 * work-items read neighbouring addresses), the group meets a barrier, then each work-item
 * accumulates its dot product of length TS from local memory in a register, and the group meets
 * a second barrier before the tiles are overwritten. Each element of A and B is read from global
 * memory N/TS and M/TS times instead of N and M times. */
#ifndef TS
#define TS 32
#endif

kernel void myGEMM2(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, global const real *restrict B,
                    const real beta, global real *C)
{
    const int row = (int)get_local_id(0), col = (int)get_local_id(1);
    const int m = (int)get_group_id(0) * TS + row, n = (int)get_group_id(1) * TS + col;
    local real Asub[TS][TS]; /* Asub[k][m]: a TS x TS tile of A */
    local real Bsub[TS][TS]; /* Bsub[n][k]: a TS x TS tile of B */
    real acc = 0;
    for (int t = 0; t < K; t += TS) {
        Asub[col][row] = A[(t + col) * M + m];
        Bsub[col][row] = B[n * K + t + row];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc = fma(Asub[k][row], Bsub[col][k], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    GB_UPDATE(C[n * M + m], acc, alpha, beta);
}
