/* myGEMM7.cl: step 7 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), wide loads with register blocking. Column-major C = alpha*A*B + beta*C with A (M x K),
 * B (K x N) and C (M x N) packed; M, N and K are multiples of TSM, TSN and TSK (the harness
 * zero-pads), and TSM and TSK of WIDTH, so every column of A and B starts on a whole vector.
 *
 * Step 6 (a TSM x TSN tile of C per work-group of RTSM x RTSN work-items, a WPTM x WPTN block of
 * it per work-item in registers, TSM x TSK and TSK x TSN tiles of A and B in local memory), with
 * the tiles copied from global memory as WIDTH-wide vectors: A is read through a pointer to
 * realWIDTH, one vector being WIDTH consecutive rows of a column of the tile, stored as is into
 * Asub[k][m]; B likewise, one vector being WIDTH consecutive k of a column of the tile, spread
 * over WIDTH rows of Bsub[k][n] (padded by PAD per row). Each work-item issues
 * TSM*TSK/(RTSM*RTSN*WIDTH) vector loads of A and TSK*TSN/(RTSM*RTSN*WIDTH) of B per step instead
 * of WIDTH times as many scalar ones. The multiply-adds from local memory are step 6's. */
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
#define realW REALV(WIDTH)

/* Work-item tid's share of copying the tiles of A at (m0, t) and of B at (t, n0) into Asub
 * (TSK x TSM) and Bsub (TSK x LDB). Mv and Kv are M and K counted in vectors. */
void myGEMM7_load(const int Mv, const int Kv, const int m0, const int n0, const int t,
                  const int tid, global const realW *restrict A, global const realW *restrict B,
                  local real *Asub, local real *Bsub)
{
    /* Element id of a tile is (id / rows, id % rows), the remainder taken by subtraction: a
     * div/rem pair becomes LLVM 'freeze' code that Oclgrind's uninitialized-value check
     * cannot follow. */
    for (int l = 0; l < VPTA; l++) {
        const int id = l * NWI + tid, k = id / (TSM / WIDTH), mv = id - k * (TSM / WIDTH);
        VSTORE(WIDTH)(A[(t + k) * Mv + m0 / WIDTH + mv], mv, Asub + k * TSM);
    }
    for (int l = 0; l < VPTB; l++) {
        const int id = l * NWI + tid, n = id / (TSK / WIDTH), kv = id - n * (TSK / WIDTH);
        real v[WIDTH];
        VSTORE(WIDTH)(B[(n0 + n) * Kv + t / WIDTH + kv], 0, v);
#pragma unroll
        for (int w = 0; w < WIDTH; w++)
            Bsub[(kv * WIDTH + w) * LDB + n] = v[w];
    }
}

kernel void myGEMM7(const int M, const int N, const int K, const real alpha,
                    global const realW *restrict A, global const realW *restrict B,
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
        myGEMM7_load(M / WIDTH, K / WIDTH, m0, n0, t, tid, A, B, Asub, Bsub);
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
    for (int wn = 0; wn < WPTN; wn++)
#pragma unroll
        for (int wm = 0; wm < WPTM; wm++)
            GB_UPDATE(C[(n0 + tidn + wn * RTSN) * M + m0 + tidm + wm * RTSM], acc[wm][wn], alpha,
                      beta);
}
