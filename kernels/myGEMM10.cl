/* myGEMM10.cl: step 10 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), incomplete tiles and arbitrary sizes. Column-major C = alpha*A*B + beta*C with A
 * (M x K), B (K x N) and C (M x N) packed, for any M, N and K.
 *
 * The tutorial gets there by zero-padding the matrices to whole tiles in separate kernels around
 * step 7's; in gemmbench every tiled family gets that padding from the harness (its "multiple_of"
 * metadata, timed as 'helpers'). This family instead handles the incomplete tiles itself, so it
 * needs no padding pass and no copy of C: it is step 7 (a TSM x TSN tile of C per work-group of
 * RTSM x RTSN work-items, a WPTM x WPTN block of it per work-item in registers, tiles of A and B
 * in local memory copied as WIDTH-wide vectors, B's spread over Bsub[k][n] padded by PAD) with
 *  - the grid rounded up to whole tiles of C, the last tiles along M and N overhanging C;
 *  - K walked in steps of TSK, the last step possibly short;
 *  - each vector of a tile loaded whole when it lies inside the matrix and element by element
 *    otherwise, elements outside the matrix stored as zeros, so the overhanging parts of the
 *    tiles contribute nothing to the sums; vectors are read with vloadN, which needs only element
 *    alignment, because with arbitrary M and K a column no longer starts on a whole vector;
 *  - each element of C stored only when it lies inside C.
 * So TSM, TSN and TSK may be chosen freely (subject to the load-per-thread integrality rules)
 * whatever the problem size. */
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
#ifndef WIDTH
#define WIDTH 4
#endif
#ifndef PAD
#define PAD 0
#endif
#define RTSM (TSM / WPTM) /* work-items along M */
#define RTSN (TSN / WPTN) /* work-items along N */
#define NWI (RTSM * RTSN) /* work-items per group */
#define VPTA (TSM * TSK / (NWI * WIDTH)) /* vectors of A's tile loaded per work-item */
#define VPTB (TSK * TSN / (NWI * WIDTH)) /* vectors of B's tile loaded per work-item */
#define LDB (TSN + PAD) /* row length of the local B tile */

/* Work-item tid's share of copying the tiles of A at (m0, t) and of B at (t, n0) into Asub
 * (TSK x TSM) and Bsub (TSK x LDB), with zeros for elements outside the M x K and K x N
 * matrices. */
void myGEMM10_load(const int M, const int N, const int K, const int m0, const int n0,
                   const int t, const int tid, global const real *restrict A,
                   global const real *restrict B, local real *Asub, local real *Bsub)
{
    /* Element id of a tile is (id / rows, id % rows), the remainder taken by subtraction: a
     * div/rem pair becomes LLVM 'freeze' code that Oclgrind's uninitialized-value check
     * cannot follow. */
    for (int l = 0; l < VPTA; l++) {
        const int id = l * NWI + tid, k = id / (TSM / WIDTH), mv = id - k * (TSM / WIDTH);
        const int gm = m0 + mv * WIDTH, gk = t + k;
        local real *dst = Asub + k * TSM + mv * WIDTH;
        if (gk < K && gm + WIDTH <= M) {
            VSTORE(WIDTH)(VLOAD(WIDTH)(0, A + gk * M + gm), 0, dst);
        } else {
#pragma unroll
            for (int w = 0; w < WIDTH; w++)
                dst[w] = gk < K && gm + w < M ? A[gk * M + gm + w] : (real)0;
        }
    }
    for (int l = 0; l < VPTB; l++) {
        const int id = l * NWI + tid, n = id / (TSK / WIDTH), kv = id - n * (TSK / WIDTH);
        const int gk = t + kv * WIDTH, gn = n0 + n;
        real v[WIDTH];
        if (gn < N && gk + WIDTH <= K) {
            VSTORE(WIDTH)(VLOAD(WIDTH)(0, B + gn * K + gk), 0, v);
        } else {
#pragma unroll
            for (int w = 0; w < WIDTH; w++)
                v[w] = gn < N && gk + w < K ? B[gn * K + gk + w] : (real)0;
        }
#pragma unroll
        for (int w = 0; w < WIDTH; w++)
            Bsub[(kv * WIDTH + w) * LDB + n] = v[w];
    }
}

kernel void myGEMM10(const int M, const int N, const int K, const real alpha,
                     global const real *restrict A, global const real *restrict B,
                     const real beta, global real *C)
{
    const int tidm = (int)get_local_id(0), tidn = (int)get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int m0 = (int)get_group_id(0) * TSM, n0 = (int)get_group_id(1) * TSN;
    local real Asub[TSK * TSM]; /* Asub[k][m] */
    local real Bsub[TSK * LDB]; /* Bsub[k][n] */
    real acc[WPTM][WPTN], breg[WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0;
    for (int t = 0; t < K; t += TSK) {
        myGEMM10_load(M, N, K, m0, n0, t, tid, A, B, Asub, Bsub);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                breg[wn] = Bsub[k * LDB + tidn + wn * RTSN];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                const real a = Asub[k * TSM + tidm + wm * RTSM];
#pragma unroll
                for (int wn = 0; wn < WPTN; wn++)
                    acc[wm][wn] = fma(a, breg[wn], acc[wm][wn]);
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++) {
        const int n = n0 + tidn + wn * RTSN;
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++) {
            const int m = m0 + tidm + wm * RTSM;
            if (m < M && n < N)
                GB_UPDATE(C[n * M + m], acc[wm][wn], alpha, beta);
        }
    }
}
