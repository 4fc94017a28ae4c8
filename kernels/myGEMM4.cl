/* myGEMM4.cl: step 4 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), wide data types. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N) and
 * C (M x N) packed; M, N and K are multiples of TS (the harness zero-pads to them), and TS is a
 * multiple of WIDTH, so every column of A, B and C starts on a whole vector.
 *
 * A, B and C are read and written as vectors of WIDTH elements (realWIDTH: float4, double8, ...)
 * so that each memory instruction moves WIDTH elements. A work-group of TS/WIDTH x TS work-items
 * computes a TS x TS tile of C; each work-item computes WIDTH consecutive rows of one column of
 * it (one vector of C) in one vector accumulator. Per step of TS along K it copies one vector of
 * the tile of A (WIDTH rows of one column: Asub[k][m/WIDTH], a local array of vectors) and one of
 * the tile of B (WIDTH values of k of one column: stored into Bsub[n][k], a local array of
 * scalars) into local memory; then for each k it multiplies its vector of Asub by the scalar
 * Bsub[n][k], broadcast to all lanes. Any WIDTH in 1, 2, 4, 8 works, both precisions. */
#ifndef TS
#define TS 32
#endif
#ifndef WIDTH
#define WIDTH 4
#endif
#define realW REALV(WIDTH)

kernel void myGEMM4(const int M, const int N, const int K, const real alpha,
                    global const realW *restrict A, global const realW *restrict B,
                    const real beta, global realW *C)
{
    const int row = (int)get_local_id(0), col = (int)get_local_id(1);
    /* mv: this work-item's vector of rows; vector indices below count whole vectors. */
    const int mv = (int)get_group_id(0) * (TS / WIDTH) + row, n = (int)get_group_id(1) * TS + col;
    const int Mv = M / WIDTH, Kv = K / WIDTH;
    local realW Asub[TS][TS / WIDTH]; /* Asub[k][m / WIDTH] */
    local real Bsub[TS][TS];          /* Bsub[n][k] */
    realW acc = (realW)0;
    for (int t = 0; t < K; t += TS) {
        Asub[col][row] = A[(t + col) * Mv + mv];
        VSTORE(WIDTH)(B[n * Kv + t / WIDTH + row], row, Bsub[col]);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc = fma(Asub[k][row], (realW)Bsub[col][k], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    GB_UPDATE(C[n * Mv + mv], acc, alpha, beta);
}
