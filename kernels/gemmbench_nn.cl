/* gemmbench_nn.cl: the GEMMbench NN kernels (SGEMM_NN_1x1, SGEMM_NN_4x1 and their DGEMM
 * counterparts), row-major C = alpha*A*B + beta*C with A (M x K) and B (K x N) untransposed.
 *
 * Each work-item computes DJ consecutive elements of one row of C (the name's "DJx1": DJ
 * columns by 1 row). Per step k it reads one element of A and DJ contiguous elements of row k
 * of B as one vector, and accumulates a DJ-wide vector: B is read along its rows, so
 * neighbouring work-items read neighbouring vectors. Unlike the original, any M, N, K works:
 * the last work-item of a row falls back to scalar loads for the columns that remain. */
#ifndef DJ
#define DJ 4
#endif
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 4
#endif

kernel void gemm_nn(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, const int offA, const int lda,
                    global const real *restrict B, const int offB, const int ldb,
                    const real beta, global real *C, const int offC, const int ldc)
{
    const int j0 = (int)get_global_id(0) * DJ, i = (int)get_global_id(1);
    if (i >= M || j0 >= N)
        return;
    global const real *a = A + offA + i * lda;
    global const real *b = B + offB + j0;
    global real *c = C + offC + i * ldc + j0;
    if (j0 + DJ <= N) {
        REALV(DJ) acc = (REALV(DJ))0;
        for (int k = 0; k < K; k++)
            acc = fma((REALV(DJ))a[k], VLOAD(DJ)(0, b + k * ldb), acc);
        REALV(DJ) out = beta == (real)0 ? alpha * acc : alpha * acc + beta * VLOAD(DJ)(0, c);
        VSTORE(DJ)(out, 0, c);
        return;
    }
    for (int jj = 0; jj < N - j0; jj++) {
        real acc = 0;
        for (int k = 0; k < K; k++)
            acc = fma(a[k], b[k * ldb + jj], acc);
        GB_UPDATE(c[jj], acc, alpha, beta);
    }
}
