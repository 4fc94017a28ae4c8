/* xgemm.cl: gemmbench's own tiled GEMM, row-major C = alpha*op(A)*op(B) + beta*C for NN, NT, TN
 * and TT (GB_TRANS_A/GB_TRANS_B pick how A and B are read; column-major problems reach it through
 * the harness's operand swap).
 *
 * A work-group of NDIMC x MDIMC work-items (dimension 0 along N) owns an MWG x NWG tile of C and
 * walks K in steps of KWG. Per step, the group copies the MWG x KWG slice of op(A) and the
 * KWG x NWG slice of op(B) from global memory into local memory, with PADA/PADB extra elements
 * per row to spread bank accesses. The B tile is k-major (Bs[k][n]); the A tile is k-major too
 * (As[k][m]) when A is stored transposed or read VWM-wide, and otherwise keeps A's own order
 * (As[m][k]), which spares the copy a transposition. Each work-item loads its share of the slices
 * in vectors along the operand's contiguous dimension (VWK along K for A or B^T, VWM along M for
 * A^T, VWN along N for B): whole vectors are read only when the slice lies inside the matrix and
 * the leading dimension and offset keep them aligned; otherwise every element is bounds-checked
 * and zeros stand in for elements outside the matrix, adding nothing to the sums. The loads go to
 * registers and are stored to local memory afterwards, so with STAGES=2 the next slice's global
 * loads are in flight while the current slice (in the other half of a double buffer) is being
 * multiplied, with one barrier per step; STAGES=1 keeps one buffer and two barriers per step.
 * Each work-item keeps an MWI x NWI block of C (MWI = MWG/MDIMC, NWI = NWG/NDIMC) in registers,
 * or with ACCMEM=1 in a private array between K steps (see multiply()). Its rows are VWM-wide
 * runs strided by MDIMC*VWM and its columns VWN-wide runs strided by NDIMC*VWN, so that
 * neighbouring work-items read neighbouring local memory and write neighbouring parts of a row
 * of C. Per k it reads MWI values of A and NWI/VWN vectors of B from local memory and does
 * MWI*NWI/VWN vector FMAs, each value of A broadcast against a vector of B. At the end alpha and
 * beta are applied as each element is stored (beta == 0: C is not read); stores outside M x N
 * are skipped, and whole vectors are stored where the tile is interior and C is aligned.
 * A, B and C are read and written through the prelude's storage helpers: with FP16 or bfloat16
 * (GB_STORAGE) elements are converted to float as they are loaded, the local tiles and the sums
 * are float, and each element of C is rounded once as it is stored (hh: each vector FMA's sums
 * also rounded to FP16, GB_SUMV).
 * Complex elements (c, z: GB_COMPLEX) are split as they are loaded into two planes, real parts
 * and imaginary parts (PARTS 2), in registers, in the local tiles and in the accumulators, so
 * that the arithmetic is the real kernel's vectors twice over: per k, each complex product is
 * four real FMAs, in the order the prelude's GB_CMAD takes (the real part's two, then the
 * imaginary part's two). An operand conjugated by the C transposition (GB_CONJ_A, GB_CONJ_B)
 * has its imaginary parts negated as its slice is loaded. Complex alpha and beta are applied
 * element by element as C is stored (GB_UPDATE_AT). On a CPU through PoCL this reaches about
 * 0.4x (c) and 0.5x (z) of OpenBLAS at 1024: bench/notes/cpu.md#xgemm-complex-pocl. */
#ifndef MWG
#define MWG 64 /* tile rows of C per work-group */
#endif
#ifndef NWG
#define NWG 64 /* tile columns of C per work-group */
#endif
#ifndef KWG
#define KWG 16 /* K step staged in local memory */
#endif
#ifndef MDIMC
#define MDIMC 8 /* work-group size along M (dimension 1) */
#endif
#ifndef NDIMC
#define NDIMC 8 /* work-group size along N (dimension 0) */
#endif
#ifndef VWM
#define VWM 1 /* vector width along M: A^T global loads, A local reads */
#endif
#ifndef VWN
#define VWN 1 /* vector width along N: B global loads, B local reads, FMAs, C stores */
#endif
#ifndef VWK
#define VWK 1 /* vector width along K: global loads of A and B^T */
#endif
#ifndef PADA
#define PADA 0 /* padding per row of the local A tile */
#endif
#ifndef PADB
#define PADB 0 /* padding per row of the local B tile */
#endif
#ifndef STAGES
#define STAGES 2 /* 1: one local buffer; 2: double-buffered */
#endif
#ifndef ACCMEM
#define ACCMEM 0 /* 1: accumulators stay in an indexed private array between K steps */
#endif

#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)
#define NVN (NWI / VWN) /* vectors per row of a work-item's block */
#define WGS (MDIMC * NDIMC)
#if GB_COMPLEX
#define PARTS 2 /* real and imaginary planes */
#else
#define PARTS 1
#endif

#if !GB_ROW_MAJOR
#error "xgemm is row-major; column-major problems are served through the operand swap"
#endif
#if MWG % MDIMC || NWG % NDIMC || MWI % VWM || NWI % VWN || KWG % VWK
#error "xgemm: MWG/MDIMC and NWG/NDIMC must be whole multiples of VWM and VWN; KWG of VWK"
#endif
#if STAGES != 1 && STAGES != 2
#error "xgemm: STAGES must be 1 or 2"
#endif

/* Each operand's slice as the operand stores it: rows of A_SCOLS/B_SCOLS contiguous elements,
 * read in VWA/VWB-wide vectors, CVA/CVB vectors per row. A is M x K (lda along K) or,
 * transposed, stored K x M; B is K x N or, transposed, stored N x K. */
#if GB_TRANS_A
#define VWA VWM
#define A_SCOLS MWG
#else
#define VWA VWK
#define A_SCOLS KWG
#endif
#if GB_TRANS_B
#define VWB VWK
#define B_SCOLS KWG
#else
#define VWB VWN
#define B_SCOLS NWG
#endif
#define CVA (A_SCOLS / VWA)
#define CVB (B_SCOLS / VWB)
#define LPTA ((MWG * KWG) / (VWA * WGS)) /* vectors of the A slice per work-item */
#define LPTB ((NWG * KWG) / (VWB * WGS))
#if (MWG * KWG) % (VWA * WGS) || (NWG * KWG) % (VWB * WGS)
#error "xgemm: each slice must split into whole vectors per work-item"
#endif

/* The local tiles: element (m, k) of A's at As[m * AS_SM + k * AS_SK], element (k, n) of B's at
 * Bs[k * LDBS + n]. A_LOCAL/B_LOCAL give the local index of element (r, c) of a slice counted
 * in its operand's storage order; A_CONTIG/B_CONTIG say whether a stored row stays contiguous. */
#if GB_TRANS_A || VWM > 1
#define AS_KMAJOR 1
#define AS_SM 1
#define AS_SK (MWG + PADA)
#define AS_SIZE (KWG * (MWG + PADA))
#else
#define AS_KMAJOR 0
#define AS_SM (KWG + PADA)
#define AS_SK 1
#define AS_SIZE (MWG * (KWG + PADA))
#endif
#define LDBS (NWG + PADB)
#define BS_SIZE (KWG * LDBS)
#if GB_TRANS_A
#define A_LOCAL(r, c) ((r) * AS_SK + (c) * AS_SM)
#define A_CONTIG 1
#else
#define A_LOCAL(r, c) ((r) * AS_SM + (c) * AS_SK)
#define A_CONTIG (!AS_KMAJOR)
#endif
#if GB_TRANS_B
#define B_LOCAL(r, c) ((c) * LDBS + (r))
#define B_CONTIG 0
#else
#define B_LOCAL(r, c) ((r) * LDBS + (c))
#define B_CONTIG 1
#endif

/* Helpers are forced inline (PoCL 3.1's LLVM 15 crashes estimating their inline cost) and take no
 * restrict pointers (Oclgrind 21.10 cannot run the alias-scope markers inlining those leaves). */
#define XG_INLINE static inline __attribute__((always_inline))

/* A vector at p, which the caller has checked is aligned to its size; for a narrower storage
 * format, converted to or from REALV(w) (those conversions need only element alignment). */
#if GB_STORAGE
#define GLOAD(w, p) SLOAD(w)(0, p)
#define GSTORE(w, v, p) SSTORE(w)(v, 0, p)
#else
#define GLOAD(w, p) (*(global const REALV(w) *)(p))
#define GSTORE(w, v, p) (*(global REALV(w) *)(p) = (v))
#endif

/* The element at p[i] (inside: else 0) into r[0] and, for complex, its imaginary part into
 * r[n], negated where conj; XG_GETV does the same for the w-vector at p (aligned), its parts
 * split into r[0..w) and r[n..n+w). */
#if GB_COMPLEX
#define XG_W2(w) GB_CAT(XG_W2_, w) /* twice w: the reals in w complex elements */
#define XG_W2_1 2
#define XG_W2_2 4
#define XG_W2_4 8
#define XG_W2_8 16
#define XG_GET1(r, n, inside, p, i, conj)                              \
    do {                                                              \
        const real2 e_ = (inside) ? GB_LOAD(p, i) : (real2)0;         \
        (r)[0] = e_.x;                                                \
        (r)[n] = (conj) ? -e_.y : e_.y;                               \
    } while (0)
#define XG_GETV(w, r, n, p, conj)                                     \
    do {                                                              \
        const REALV(XG_W2(w)) v_ = GLOAD(XG_W2(w), p);                \
        VSTORE(w)(v_.even, 0, r);                                     \
        VSTORE(w)((conj) ? -v_.odd : v_.odd, 0, (r) + (n));           \
    } while (0)
#else
#define XG_GET1(r, n, inside, p, i, conj) ((r)[0] = (inside) ? GB_LOAD(p, i) : (real)0)
#define XG_GETV(w, r, n, p, conj) VSTORE(w)(GLOAD(w, p), 0, r)
#endif

/* Local memory is read and written in plain vectors where the tile layout keeps them aligned to
 * their size (the tiles themselves are aligned to the widest), so that GPUs make one wide access
 * of each; vload/vstore do the rest. *_ALIGNED say where the layout does. */
#define LLOAD(w, p) (*(local const REALV(w) *)(p))
#define LSTORE(w, v, p) (*(local REALV(w) *)(p) = (v))
#define A_PUT_ALIGNED (A_CONTIG && A_LOCAL(1, 0) % VWA == 0)
#define B_PUT_ALIGNED (B_CONTIG && LDBS % VWB == 0)
#define A_GET_ALIGNED (AS_KMAJOR && AS_SK % VWM == 0)
#define B_GET_ALIGNED (LDBS % VWN == 0)

/* Work-items take consecutive vectors of a slice: vector l of work-item tid is l * WGS + tid. A
 * work-item's first vector is at row tr = tid / CV, vector column tc = tid % CV (computed once);
 * XG_STEP gives vector l's row and element column relative to that one, (dr, dc), from
 * compile-time constants and one comparison, so no division is left in the loops and addresses
 * are a per-work-item base plus constants. */
#define XG_STEP(l, tc, CV, VW, dr, dc)                                                       \
    const int dr##_carry = ((l) * WGS) % (CV) + (tc) >= (CV);                               \
    const int dr = ((l) * WGS) / (CV) + dr##_carry;                                         \
    const int dc = (((l) * WGS) % (CV) - dr##_carry * (CV)) * (VW)

/* Loads this work-item's share of the A slice into ra[PARTS * LPTA * VWA] (complex: the real
 * parts, then the imaginary parts). a points at the work-item's first element (lda apart rows);
 * rows and cols count how much of the slice from that element on lies inside the matrix. fast:
 * all of the slice does and vectors are aligned, so whole vectors are read unchecked. */
XG_INLINE void load_a(global const stored *a, const int lda, const int tc, const int rows,
                      const int cols, const bool fast, real *ra)
{
    if (fast) {
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            XG_STEP(l, tc, CVA, VWA, dr, dc);
            XG_GETV(VWA, ra + l * VWA, LPTA * VWA, a + dr * lda + dc, GB_CONJ_A);
        }
    } else {
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            XG_STEP(l, tc, CVA, VWA, dr, dc);
#pragma unroll
            for (int w = 0; w < VWA; w++)
                XG_GET1(ra + l * VWA + w, LPTA * VWA, dr < rows && dc + w < cols, a,
                        dr * lda + dc + w, GB_CONJ_A);
        }
    }
}

/* Stores ra (from load_a) into the local A tile, plane by plane (AS_SIZE apart); as points at
 * the work-item's first element. */
XG_INLINE void store_a(local real *as, const int tc, const real *ra)
{
#pragma unroll
    for (int q = 0; q < PARTS; q++) {
        local real *asq = as + q * AS_SIZE;
        const real *raq = ra + q * (LPTA * VWA);
#pragma unroll
        for (int l = 0; l < LPTA; l++) {
            XG_STEP(l, tc, CVA, VWA, dr, dc);
#if A_PUT_ALIGNED
            LSTORE(VWA, VLOAD(VWA)(0, raq + l * VWA), asq + A_LOCAL(dr, dc));
#elif A_CONTIG
            VSTORE(VWA)(VLOAD(VWA)(0, raq + l * VWA), 0, asq + A_LOCAL(dr, dc));
#else
#pragma unroll
            for (int w = 0; w < VWA; w++)
                asq[A_LOCAL(dr, dc + w)] = raq[l * VWA + w];
#endif
        }
    }
}

/* As load_a, for the B slice into rb[LPTB * VWB]. */
XG_INLINE void load_b(global const stored *b, const int ldb, const int tc, const int rows,
                      const int cols, const bool fast, real *rb)
{
    if (fast) {
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            XG_STEP(l, tc, CVB, VWB, dr, dc);
            XG_GETV(VWB, rb + l * VWB, LPTB * VWB, b + dr * ldb + dc, GB_CONJ_B);
        }
    } else {
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            XG_STEP(l, tc, CVB, VWB, dr, dc);
#pragma unroll
            for (int w = 0; w < VWB; w++)
                XG_GET1(rb + l * VWB + w, LPTB * VWB, dr < rows && dc + w < cols, b,
                        dr * ldb + dc + w, GB_CONJ_B);
        }
    }
}

/* As store_a, for rb into the local B tile. */
XG_INLINE void store_b(local real *bs, const int tc, const real *rb)
{
#pragma unroll
    for (int q = 0; q < PARTS; q++) {
        local real *bsq = bs + q * BS_SIZE;
        const real *rbq = rb + q * (LPTB * VWB);
#pragma unroll
        for (int l = 0; l < LPTB; l++) {
            XG_STEP(l, tc, CVB, VWB, dr, dc);
#if B_PUT_ALIGNED
            LSTORE(VWB, VLOAD(VWB)(0, rbq + l * VWB), bsq + B_LOCAL(dr, dc));
#elif B_CONTIG
            VSTORE(VWB)(VLOAD(VWB)(0, rbq + l * VWB), 0, bsq + B_LOCAL(dr, dc));
#else
#pragma unroll
            for (int w = 0; w < VWB; w++)
                bsq[B_LOCAL(dr, dc + w)] = rbq[l * VWB + w];
#endif
        }
    }
}

/* acc += this work-item's rows of the A tile times its columns of the B tile over one K step;
 * as and bs point at its first row and column. acc holds the MWI x NWI block as MWI rows of NVN
 * vectors (per plane: complex has the real parts' block, then the imaginary parts'): each k
 * broadcasts one value of A against a vector of B, so the FMAs are VWN wide even where the
 * compiler does not vectorize across work-items. */
XG_INLINE void multiply(local const real *as, local const real *bs, REALV(VWN) *acc)
{
    /* c is acc while the step runs. With ACCMEM, acc itself is indexed at run time elsewhere and
     * so stays in memory: a compiler that runs a group's work-items in loops (PoCL) then reads
     * and writes it once per step, instead of copying it from loop iteration to loop iteration
     * as it must do with values held in registers across a barrier. */
    REALV(VWN) c[PARTS * MWI * NVN];
#pragma unroll
    for (int i = 0; i < PARTS * MWI * NVN; i++)
        c[i] = acc[i];
#pragma unroll
    for (int k = 0; k < KWG; k++) {
        real a[PARTS * MWI];
        REALV(VWN) b[PARTS * NVN];
#pragma unroll
        for (int q = 0; q < PARTS; q++) {
            local const real *aq = as + q * AS_SIZE, *bq = bs + q * BS_SIZE;
#if A_GET_ALIGNED
#pragma unroll
            for (int mv = 0; mv < MWI / VWM; mv++)
                VSTORE(VWM)(LLOAD(VWM, aq + k * AS_SK + mv * (MDIMC * VWM)), 0,
                            a + q * MWI + mv * VWM);
#elif AS_KMAJOR
#pragma unroll
            for (int mv = 0; mv < MWI / VWM; mv++)
                VSTORE(VWM)(VLOAD(VWM)(0, aq + k * AS_SK + mv * (MDIMC * VWM)), 0,
                            a + q * MWI + mv * VWM);
#else
#pragma unroll
            for (int mi = 0; mi < MWI; mi++) /* VWM == 1 */
                a[q * MWI + mi] = aq[k + mi * (MDIMC * AS_SM)];
#endif
#pragma unroll
            for (int nv = 0; nv < NVN; nv++)
#if B_GET_ALIGNED
                b[q * NVN + nv] = LLOAD(VWN, bq + k * LDBS + nv * (NDIMC * VWN));
#else
                b[q * NVN + nv] = VLOAD(VWN)(0, bq + k * LDBS + nv * (NDIMC * VWN));
#endif
        }
#pragma unroll
        for (int mi = 0; mi < MWI; mi++)
#pragma unroll
            for (int nv = 0; nv < NVN; nv++) {
                const int x = mi * NVN + nv;
#if GB_COMPLEX
                /* GB_CMAD's order: re += ar br - ai bi, im += ar bi + ai br, one FMA each. */
                const int y = MWI * NVN + x;
                const REALV(VWN) ar = (REALV(VWN))(a[mi]), ai = (REALV(VWN))(a[MWI + mi]);
                c[x] = fma(ar, b[nv], c[x]);
                c[x] = fma(-ai, b[NVN + nv], c[x]);
                c[y] = fma(ar, b[NVN + nv], c[y]);
                c[y] = fma(ai, b[nv], c[y]);
#else
                c[x] = GB_SUMV(VWN)(fma((REALV(VWN))(a[mi]), b[nv], c[x]));
#endif
            }
    }
#pragma unroll
    for (int i = 0; i < PARTS * MWI * NVN; i++)
        acc[i] = c[i];
}

__attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
kernel void xgemm(const int M, const int N, const int K, const scalar alpha,
                  global const stored *restrict A, const int offA, const int lda,
                  global const stored *restrict B, const int offB, const int ldb,
                  const scalar beta, global stored *C, const int offC, const int ldc)
{
    local real As[STAGES * PARTS * AS_SIZE] __attribute__((aligned(8 * sizeof(real))));
    local real Bs[STAGES * PARTS * BS_SIZE] __attribute__((aligned(8 * sizeof(real))));
    const int tn = (int)get_local_id(0), tm = (int)get_local_id(1);
    const int m0 = (int)get_group_id(1) * MWG, n0 = (int)get_group_id(0) * NWG;
    /* Unsigned, so that the compiler knows tca < CVA and tcb < CVB; the remainders are written
     * as differences because Oclgrind 21.10 cannot run the 'freeze' that a division and a
     * remainder by the same number become. */
    const uint tid = (uint)(tm * NDIMC + tn), uta = tid / CVA, utb = tid / CVB;
    const int tra = (int)uta, tca = (int)(tid - uta * CVA);
    const int trb = (int)utb, tcb = (int)(tid - utb * CVB);
    A += offA;
    B += offB;
    C += offC;
    /* Whole vectors are read where the slice lies inside M (N) and K, and the leading dimension
     * and offset keep every vector aligned. */
    const bool inside_a = lda % VWA == 0 && offA % VWA == 0 && m0 + MWG <= M;
    const bool inside_b = ldb % VWB == 0 && offB % VWB == 0 && n0 + NWG <= N;

    /* Each slice starts at a_k/b_k (the same for the whole group, moved on by a_step/b_step per K
     * step); this work-item's first element of it is a_off/b_off further on. How much of the
     * slice from that element on lies inside the matrix depends on K - k and these offsets. */
#if GB_TRANS_A
    global const stored *a_k = A + m0;
    const int a_off = tra * lda + tca * VWA, a_step = KWG * lda;
#define A_EXTENT(kleft) (kleft) - tra, M - m0 - tca * VWA
#else
    global const stored *a_k = A + m0 * lda;
    const int a_off = tra * lda + tca * VWA, a_step = KWG;
#define A_EXTENT(kleft) M - m0 - tra, (kleft) - tca * VWA
#endif
#if GB_TRANS_B
    global const stored *b_k = B + n0 * ldb;
    const int b_off = trb * ldb + tcb * VWB, b_step = KWG;
#define B_EXTENT(kleft) N - n0 - trb, (kleft) - tcb * VWB
#else
    global const stored *b_k = B + n0;
    const int b_off = trb * ldb + tcb * VWB, b_step = KWG * ldb;
#define B_EXTENT(kleft) (kleft) - trb, N - n0 - tcb * VWB
#endif
    /* Where this work-item writes its share of the tiles, and where its block starts in them. */
    const int as_put = A_LOCAL(tra, tca * VWA), bs_put = B_LOCAL(trb, tcb * VWB);
    const int as_get = tm * VWM * AS_SM, bs_get = tn * VWN;

    REALV(VWN) acc[PARTS * MWI * NVN];
#pragma unroll
    for (int i = 0; i < PARTS * MWI * NVN; i++)
        acc[i] = (REALV(VWN))0;

    real ra[PARTS * LPTA * VWA], rb[PARTS * LPTB * VWB];
    const int ksteps = (K + KWG - 1) / KWG;
    load_a(a_k + a_off, lda, tca, A_EXTENT(K), inside_a && KWG <= K, ra);
    load_b(b_k + b_off, ldb, tcb, B_EXTENT(K), inside_b && KWG <= K, rb);
    /* The buffers are swapped as pointers rather than indexed by t, and the slice pointers
     * advanced, because a compiler that runs a group's work-items in loops (PoCL) must keep every
     * value that crosses a barrier in memory per work-item: addresses derived from loop-carried
     * pointers stay inside the loop instead of being hoisted out of it one by one. */
    local real *a_cur = As, *b_cur = Bs;
#if STAGES == 2
    local real *a_nxt = As + PARTS * AS_SIZE, *b_nxt = Bs + PARTS * BS_SIZE;
#else
    local real *a_nxt = As, *b_nxt = Bs;
#endif
    store_a(a_cur + as_put, tca, ra);
    store_b(b_cur + bs_put, tcb, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = 0; t < ksteps; t++) {
        const bool more = t + 1 < ksteps;
        /* The next slice's global loads are issued before this slice's arithmetic. */
        if (more) {
            const int kleft = K - (t + 1) * KWG;
            a_k += a_step;
            b_k += b_step;
            load_a(a_k + a_off, lda, tca, A_EXTENT(kleft), inside_a && KWG <= kleft, ra);
            load_b(b_k + b_off, ldb, tcb, B_EXTENT(kleft), inside_b && KWG <= kleft, rb);
        }
        multiply(a_cur + as_get, b_cur + bs_get, acc);
#if STAGES == 1
        /* Everyone must be done reading the one buffer before it is overwritten. */
        barrier(CLK_LOCAL_MEM_FENCE);
#endif
        /* With two buffers, the other one was last read before the previous step's barrier. */
        if (more) {
            store_a(a_nxt + as_put, tca, ra);
            store_b(b_nxt + bs_put, tcb, rb);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        local real *a_tmp = a_cur, *b_tmp = b_cur;
        a_cur = a_nxt;
        b_cur = b_nxt;
        a_nxt = a_tmp;
        b_nxt = b_tmp;
    }

#if !GB_COMPLEX
    const bool fast_c = m0 + MWG <= M && n0 + NWG <= N && ldc % VWN == 0 && offC % VWN == 0;
#endif
    /* With ACCMEM this loop is left rolled: its run-time index into acc is what keeps acc in
     * memory (see multiply()). */
#if ACCMEM
#pragma unroll 1
#else
#pragma unroll
#endif
    for (int mv = 0; mv < MWI / VWM; mv++) {
#pragma unroll
        for (int wm = 0; wm < VWM; wm++) {
            const int mi = mv * VWM + wm, i = m0 + (mv * MDIMC + tm) * VWM + wm;
#pragma unroll
            for (int nv = 0; nv < NVN; nv++) {
                const int j = n0 + (nv * NDIMC + tn) * VWN;
#if GB_COMPLEX
                if (i < M) {
                    global stored *c = C + i * ldc + j;
                    real re[VWN], im[VWN];
                    VSTORE(VWN)(acc[mi * NVN + nv], 0, re);
                    VSTORE(VWN)(acc[MWI * NVN + mi * NVN + nv], 0, im);
#pragma unroll
                    for (int w = 0; w < VWN; w++)
                        if (j + w < N) {
                            const real2 s = (real2)(re[w], im[w]);
                            GB_UPDATE_AT(c, w, s, alpha, beta);
                        }
                }
#else
                if (fast_c) {
                    global stored *c = C + i * ldc + j;
                    const REALV(VWN) r = alpha * acc[mi * NVN + nv];
                    if (beta == (real)0)
                        GSTORE(VWN, r, c);
                    else
                        GSTORE(VWN, r + beta * GLOAD(VWN, c), c);
                } else if (i < M) {
                    global stored *c = C + i * ldc + j;
                    real s[VWN];
                    VSTORE(VWN)(acc[mi * NVN + nv], 0, s);
#pragma unroll
                    for (int w = 0; w < VWN; w++)
                        if (j + w < N)
                            GB_UPDATE_AT(c, w, s[w], alpha, beta);
                }
#endif
            }
        }
    }
}
