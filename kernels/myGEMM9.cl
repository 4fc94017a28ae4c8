/* myGEMM9.cl: step 9 of the SGEMM tuning tutorial (Cedric Nugteren, "OpenCL SGEMM tuning for
 * Kepler"), pre-fetching. Column-major C = alpha*A*B + beta*C with A (M x K), B (K x N) and
 * C (M x N) packed; M, N and K are multiples of TSM, TSN and TSK (the harness zero-pads), and
 * TSM and TSK of WIDTH. (Step 8 of the tutorial is CUDA-only and has no OpenCL kernel.)
 *
 * Step 7 (a TSM x TSN tile of C per work-group of RTSM x RTSN work-items, a WPTM x WPTN block of
 * it per work-item in registers, tiles of A and B copied to local memory as WIDTH-wide vectors)
 * with two local buffers for each tile, so that copying the next K step's tiles overlaps with the
 * multiply-adds on the current ones: the first tiles are loaded before the loop; in iteration t
 * the group loads step t+1 into one buffer while it computes from the other, which step t-1
 * filled, and one barrier per step (instead of two) both publishes the new tiles and frees the
 * old ones for step t+2. This costs twice the local memory of step 7. */
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
void myGEMM9_load(const int Mv, const int Kv, const int m0, const int n0, const int t,
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

kernel void myGEMM9(const int M, const int N, const int K, const real alpha,
                    global const realW *restrict A, global const realW *restrict B,
                    const real beta, global real *C)
{
    const int tidm = (int)get_local_id(0), tidn = (int)get_local_id(1);
    const int tid = tidn * RTSM + tidm;
    const int m0 = (int)get_group_id(0) * TSM, n0 = (int)get_group_id(1) * TSN;
    const int Mv = M / WIDTH, Kv = K / WIDTH;
    local real Asub[2][TSK * TSM]; /* two buffers of Asub[k][m] */
    local real Bsub[2][TSK * LDB]; /* two buffers of Bsub[k][n] */
    real acc[WPTM][WPTN], breg[WPTN];
#pragma unroll
    for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++)
            acc[wm][wn] = 0;
    myGEMM9_load(Mv, Kv, m0, n0, 0, tid, A, B, Asub[0], Bsub[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0, cur = 0; t < K; t += TSK, cur ^= 1) {
        /* The other buffer was last read in the previous step, before its closing barrier. */
        if (t + TSK < K)
            myGEMM9_load(Mv, Kv, m0, n0, t + TSK, tid, A, B, Asub[cur ^ 1], Bsub[cur ^ 1]);
        local const real *As = Asub[cur], *Bs = Bsub[cur];
        for (int k = 0; k < TSK; k++) {
#pragma unroll
            for (int wn = 0; wn < WPTN; wn++)
                breg[wn] = Bs[k * LDB + tidn + wn * RTSN];
#pragma unroll
            for (int wm = 0; wm < WPTM; wm++) {
                const real a = As[k * TSM + tidm + wm * RTSM];
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
