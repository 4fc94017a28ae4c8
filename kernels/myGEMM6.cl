/* myGEMM6.cl: step 6 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), 2D register blocking. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N)
 * and C (M x N) packed; M, N and K are multiples of TSM, TSN and TSK (the harness zero-pads).
 *
 * A work-group of RTSM x RTSN work-items (RTSM = TSM / WPTM, RTSN = TSN / WPTN) computes a
 * TSM x TSN tile of C, and each work-item a WPTM x WPTN block of it: rows tidm, tidm + RTSM, ...
 * and columns tidn, tidn + RTSN, ... of the tile (strided, so that neighbouring work-items touch
 * neighbouring addresses), held in WPTM*WPTN registers. K is walked in steps of TSK: the group
 * copies the TSM x TSK tile of A into Asub[k][m] and the TSK x TSN tile of B into Bsub[k][n],
 * every work-item loading TSM*TSK/(RTSM*RTSN) elements of the first and TSK*TSN/(RTSM*RTSN) of the
 * second, read along the direction global memory holds them (down A's and B's columns). Bsub is
 * written across its rows (transposing into local memory), which PAD elements per row can spread
 * over local-memory banks; the tutorial needs no such padding, as it feeds this step B^T. Then for
 * each k a work-item reads WPTN values of Bsub and WPTM of Asub into registers and does the
 * WPTM x WPTN outer product: WPTM + WPTN local reads serve WPTM * WPTN multiply-adds. TSM and
 * TSN are independent (rectangular C tiles work). */
#ifndef TSM
#define TSM 128
#endif
#ifndef TSN
#define TSN 128
#endif
#ifndef TSK
#define TSK 16
#endif
#ifndef WPTM
#define WPTM 8
#endif
#ifndef WPTN
#define WPTN 8
#endif
#ifndef PAD
#define PAD 0
#endif
#define RTSM (TSM / WPTM) /* work-items along M */
#define RTSN (TSN / WPTN) /* work-items along N */
#define NWI (RTSM * RTSN) /* work-items per group */
#define LPTA (TSM * TSK / NWI) /* elements of A's tile loaded per work-item */
#define LPTB (TSK * TSN / NWI) /* elements of B's tile loaded per work-item */

kernel void myGEMM6(const int M, const int N, const int K, const real alpha,
                    global const real *restrict A, global const real *restrict B,
                    const real beta, global real *C)
{
    const int tidm = (int)get_local_id(0), tidn = (int)get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int m0 = (int)get_group_id(0) * TSM, n0 = (int)get_group_id(1) * TSN;
    local real Asub[TSK][TSM];       /* Asub[k][m] */
    local real Bsub[TSK][TSN + PAD]; /* Bsub[k][n] */
    real acc[WPTM][WPTN], breg[WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0;
    for (int t = 0; t < K; t += TSK) {
        /* Element id of a tile is (id / rows, id % rows), the remainder taken by subtraction: a
         * div/rem pair becomes LLVM 'freeze' code that Oclgrind's uninitialized-value check
         * cannot follow. */
        for (int l = 0; l < LPTA; l++) {
            const int id = l * NWI + tid, k = id / TSM, m = id - k * TSM;
            Asub[k][m] = A[(t + k) * M + m0 + m];
        }
        for (int l = 0; l < LPTB; l++) {
            const int id = l * NWI + tid, n = id / TSK, k = id - n * TSK;
            Bsub[k][n] = B[(n0 + n) * K + t + k];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                breg[wn] = Bsub[k][tidn + wn * RTSN];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                const real a = Asub[k][tidm + wm * RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] = fma(a, breg[wn], acc[wm][wn]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++)
            GB_UPDATE(C[(n0 + tidn + wn * RTSN) * M + m0 + tidm + wm * RTSM], acc[wm][wn], alpha,
                      beta);
}
