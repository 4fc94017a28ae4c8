/* xgemm_nv_async.cl: row-major NN GEMM, C = alpha*A*B + beta*C, any M, N, K, leading dimension
 * and offset, with a multi-stage local-memory pipeline that on NVIDIA GPUs is filled by
 * asynchronous copies (PTX cp.async, sm_80 and later) instead of through registers.
 *
 * Why: a register-staged pipeline (xgemm_nv) must store each prefetched slice to local memory at
 * the end of the K step in which it was loaded, so every K step waits for one global-memory
 * round trip, and the staging registers are taken from the accumulators. Here a slice is copied
 * STAGES-1 K steps ahead, straight into local memory, and a K step only waits (cp.async.wait_group
 * + barrier) for a copy issued STAGES-1 steps earlier.
 *
 * The copies cannot transpose, so both operands stay in local memory as they are stored in
 * global memory: As[m][k] (KWG floats per row; for KWG = 16 the two halves of each 64-byte row
 * are swapped on odd row pairs, so that rows r and r+2 fall in different banks) and Bs[k][n].
 * A work-group of (MWG/TM) x (NWG/TN) work-items owns an MWG x NWG tile of C; each work-item
 * holds TM rows, interleaved (ty + i*MWG/TM), by TN columns in runs of 4 (tx*4 + h*4*NWG/TN).
 * Per 4 k it reads one float4 along k for each of its TM rows and TN/4 float4 of Bs per k, and
 * does 4*TM*TN FMAs. A warp is 4 x 8 work-items whose lanes are paired (n and n^1 share a row,
 * n and n^2 share a column), so each 128-bit local read returns in 2 passes instead of 4, and
 * its 4 rows are consecutive, so the A reads are conflict-free without padding.
 *
 * Edges: an interior tile with 16-byte aligned rows copies 16-byte chunks; any other tile, a
 * last partial K step, or a leading dimension or offset that is not a multiple of 4 copies
 * element by element, with zeros for elements outside the matrix (cp.async's zero fill). Warps
 * of an edge tile whose rows or columns are all outside C skip the FMAs.
 *
 * ASYNC=1 uses cp.async where the harness says the device is an NVIDIA GPU (GB_NVIDIA), and the
 * same pipeline with ordinary loads and stores elsewhere (what PoCL and Oclgrind check);
 * ASYNC=0 takes the ordinary path everywhere. Single precision only. */
#ifndef MWG
#define MWG 128 /* tile rows of C per work-group */
#endif
#ifndef NWG
#define NWG 256 /* tile columns of C per work-group */
#endif
#ifndef KWG
#define KWG 8 /* K step: 8 or 16 */
#endif
#ifndef TM
#define TM 8 /* rows of C per work-item */
#endif
#ifndef TN
#define TN 16 /* columns of C per work-item: 8 or 16 */
#endif
#ifndef STAGES
#define STAGES 3 /* local-memory buffers in the pipeline: 2, 3 or 4 */
#endif
#ifndef GROUPM
#define GROUPM 8 /* work-groups walk the tile grid GROUPM tile rows at a time */
#endif
#ifndef EDGES
#define EDGES 1 /* partial (edge) tiles: 0 in grid order, 1 first (grid walked backwards), 2 last */
#endif
#ifndef ASYNC
#define ASYNC 1 /* 1: cp.async on NVIDIA GPUs; 0: ordinary loads and stores everywhere */
#endif

#if !GB_ROW_MAJOR || GB_TRANS_A || GB_TRANS_B || GB_PRECISION != 32
#error "xgemm_nv_async is row-major NN single precision; other layouts are served by the harness"
#endif
#if (KWG != 8 && KWG != 16) || (TN != 8 && TN != 16) || TM % 4
#error "xgemm_nv_async: KWG must be 8 or 16, TN 8 or 16, TM a multiple of 4"
#endif
#if STAGES < 2 || STAGES > 4
#error "xgemm_nv_async: STAGES must be 2, 3 or 4"
#endif

#define TROWS (MWG / TM) /* work-items along M */
#define TCOLS (NWG / TN) /* work-items along N */
#define WARPS_N (TCOLS / 8) /* a warp is 4 (rows) x 8 (columns) work-items */
#define WGS (TROWS * TCOLS)
#define KC (KWG / 4) /* float4 chunks per row of As */
#define NC (NWG / 4) /* float4 chunks per row of Bs */
#define A_CHUNKS (MWG * KC) /* chunks per stage */
#define B_CHUNKS (KWG * NC)
#define A_PER ((A_CHUNKS + WGS - 1) / WGS) /* chunks per work-item per stage */
#define B_PER ((B_CHUNKS + WGS - 1) / WGS)
#if TROWS % 4 || TCOLS % 8
#error "xgemm_nv_async: MWG/TM must be a multiple of 4 and NWG/TN of 8"
#endif

#define USE_PTX (ASYNC && GB_NVIDIA)
#define XA_INLINE static inline __attribute__((always_inline))

/* The float4 chunk of row r of As where chunk c of the row is kept. */
#if KWG == 16
#define SWZ(r, c) ((c) ^ (((r) >> 1) & 1))
#else
#define SWZ(r, c) (c)
#endif

#if USE_PTX
#if STAGES == 2
#define STAGES_MINUS_2 0
#elif STAGES == 3
#define STAGES_MINUS_2 1
#else
#define STAGES_MINUS_2 2
#endif
XA_INLINE void copy16(local float *dst, global const float *src)
{
    GB_CP16_WHOLE(GB_SMEM(dst), src);
}
/* 4 bytes, or 4 zero bytes when !in (src is then not read). */
XA_INLINE void copy4(local float *dst, global const float *src, const bool in)
{
    GB_CP_ELEM(GB_SMEM(dst), src, 4, in);
}
XA_INLINE void copies_commit(void)
{
    GB_CP_COMMIT();
}
/* Waits until at most STAGES-2 of this work-item's copy groups are in flight. */
XA_INLINE void copies_wait(void)
{
    GB_CP_WAIT(STAGES_MINUS_2);
}
#else
XA_INLINE void copy16(local float *dst, global const float *src)
{
    *(local float4 *)dst = *(global const float4 *)src;
}
XA_INLINE void copy4(local float *dst, global const float *src, const bool in)
{
    *dst = in ? *src : 0.0f;
}
XA_INLINE void copies_commit(void)
{
}
XA_INLINE void copies_wait(void)
{
}
#endif

/* Copies K step t of A (rows m0.., columns t*KWG..) and B (rows t*KWG.., columns n0..) into
 * stage buffers as and bs. fast: the tile is inside the matrix along M and N, this K step is
 * whole, and the rows are 16-byte aligned. */
XA_INLINE void load_stage(const int M, const int N, const int K, global const float *A,
                          const int lda, global const float *B, const int ldb, const int m0,
                          const int n0, const int t, const bool fast, local float *as,
                          local float *bs, const int tid)
{
    const int k0 = t * KWG;
#pragma unroll
    for (int l = 0; l < A_PER; l++) {
        const int q = l * WGS + tid;
        if (A_CHUNKS % WGS == 0 || q < A_CHUNKS) {
            const int r = (int)((uint)q / KC), c = q - r * KC;
            local float *dst = as + r * KWG + 4 * SWZ(r, c);
            global const float *src = A + (m0 + r) * lda + k0 + 4 * c;
            if (fast) {
                copy16(dst, src);
            } else {
                const bool rin = m0 + r < M;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const bool in = rin && k0 + 4 * c + j < K;
                    copy4(dst + j, in ? src + j : A, in);
                }
            }
        }
    }
#pragma unroll
    for (int l = 0; l < B_PER; l++) {
        const int q = l * WGS + tid;
        if (B_CHUNKS % WGS == 0 || q < B_CHUNKS) {
            const int k = (int)((uint)q / NC), c = q - k * NC;
            local float *dst = bs + k * NWG + 4 * c;
            global const float *src = B + (k0 + k) * ldb + n0 + 4 * c;
            if (fast) {
                copy16(dst, src);
            } else {
                const bool kin = k0 + k < K;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const bool in = kin && n0 + 4 * c + j < N;
                    copy4(dst + j, in ? src + j : B, in);
                }
            }
        }
    }
}

/* acc += this work-item's rows of As times its columns of Bs over one K step. as points at row
 * ty of As, bs at float4 column tx of Bs. acc[i*(TN/4) + h] holds row ty + i*TROWS, columns
 * tx*4 + h*4*TCOLS + {0..3}. */
XA_INLINE void multiply(local const float *as, local const float4 *bs, const int ty,
                        float4 *acc)
{
#pragma unroll
    for (int c = 0; c < KC; c++) {
        float4 a[TM];
#pragma unroll
        for (int i = 0; i < TM; i++)
            a[i] = *(local const float4 *)(as + i * TROWS * KWG + 4 * SWZ(ty + i * TROWS, c));
#pragma unroll
        for (int j = 0; j < 4; j++) {
            float4 b[TN / 4];
#pragma unroll
            for (int h = 0; h < TN / 4; h++)
                b[h] = bs[(4 * c + j) * NC + h * TCOLS];
#pragma unroll
            for (int i = 0; i < TM; i++) {
                const float x = j == 0 ? a[i].x : j == 1 ? a[i].y : j == 2 ? a[i].z : a[i].w;
#pragma unroll
                for (int h = 0; h < TN / 4; h++)
                    acc[i * (TN / 4) + h] = fma((float4)(x), b[h], acc[i * (TN / 4) + h]);
            }
        }
    }
}

__attribute__((reqd_work_group_size(WGS, 1, 1)))
kernel void xgemm_nv_async(const int M, const int N, const int K, const float alpha,
                           global const float *restrict A, const int offA, const int lda,
                           global const float *restrict B, const int offB, const int ldb,
                           const float beta, global float *C, const int offC, const int ldc)
{
    local float4 As4[STAGES * MWG * KC], Bs4[STAGES * KWG * NC];
    local float *const As = (local float *)As4, *const Bs = (local float *)Bs4;
    int gm, gn;
    gb_tile_of_group(GROUPM, EDGES, M % MWG != 0, N % NWG != 0, &gm, &gn);
    const int m0 = gm * MWG, n0 = gn * NWG;
    A += offA;
    B += offB;
    C += offC;
    const int tid = (int)get_local_id(0), lane = tid & 31, warp = tid >> 5;
    const int wm = (int)((uint)warp / WARPS_N), wn = warp - wm * WARPS_N;
    const int tx = wn * 8 + ((lane & 1) | ((lane >> 1) & 6));
    const int ty = wm * 4 + (((lane >> 1) & 1) | ((lane >> 3) & 2));
    const bool edge = m0 + MWG > M || n0 + NWG > N;
    const bool live = !edge || (m0 + wm * 4 < M && n0 + wn * 32 < N);
    /* 16-byte copies need every row of both operands 16-byte aligned (the buffers are). */
    const bool aligned = lda % 4 == 0 && offA % 4 == 0 && ldb % 4 == 0 && offB % 4 == 0;
    const int full = K / KWG, steps = (K + KWG - 1) / KWG;

    float4 acc[TM * (TN / 4)];
#pragma unroll
    for (int i = 0; i < TM * (TN / 4); i++)
        acc[i] = (float4)(0.0f);

    /* Stages 0..STAGES-2 in flight; a group is committed for every stage, empty or not, so that
     * "all but the last STAGES-2 groups" always means "K step t". */
#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < steps)
            load_stage(M, N, K, A, lda, B, ldb, m0, n0, s, !edge && aligned && s < full,
                       As + s * MWG * KWG, Bs + s * KWG * NWG, tid);
        copies_commit();
    }
    int cur = 0, nxt = STAGES - 1;
    for (int t = 0; t < steps; t++) {
        copies_wait();
        /* Every work-item's copies for step t have landed, and every work-item has finished
         * reading the stage that the copy below overwrites (read in step t-1). */
        barrier(CLK_LOCAL_MEM_FENCE);
        const int tn = t + STAGES - 1;
        if (tn < steps)
            load_stage(M, N, K, A, lda, B, ldb, m0, n0, tn, !edge && aligned && tn < full,
                       As + nxt * MWG * KWG, Bs + nxt * KWG * NWG, tid);
        copies_commit();
        if (live)
            multiply(As + cur * MWG * KWG + ty * KWG, (local const float4 *)(Bs + cur * KWG * NWG) + tx,
                     ty, acc);
        cur = cur == STAGES - 1 ? 0 : cur + 1;
        nxt = nxt == STAGES - 1 ? 0 : nxt + 1;
    }

    /* C = alpha * acc + beta * C; C is not read when beta is 0. */
    const bool fast_c = !edge && ldc % 4 == 0 && offC % 4 == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        const int row = m0 + ty + i * TROWS;
#pragma unroll
        for (int h = 0; h < TN / 4; h++) {
            const int col = n0 + tx * 4 + h * 4 * TCOLS;
            gb_put4(C + row * ldc + col, alpha * acc[i * (TN / 4) + h], beta, fast_c, row, col, M,
                    N);
        }
    }
}
