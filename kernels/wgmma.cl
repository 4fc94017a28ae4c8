/* wgmma.cl: FP32-accurate SGEMM on Hopper's warp-group MMA (PTX wgmma.mma_async, sm_90a), C =
 * alpha*op(A)*op(B) + beta*C, row-major NN, NT, TN and TT, any M, N, K, leading dimension and
 * offset. Each operand x is split into a TF32 big part (x with its low 13 bits cleared) and the
 * exact remainder small = x - big, which the tensor core reads truncated to TF32; every product
 * is small*big + big*small + big*big (TERMS=3, the 3xTF32 of sgemm_3xtf32, which the small*small
 * term, below 2^-20 of the product, is left out of), accumulated in FP32. The split loses up to
 * 3 * 2^-20 of a product (48 u), which FP32's bound, (K + 2) u, covers from K = 46: the metadata
 * asks K >= 48 (bench/notes/wgmma.md#wgmma-first).
 *
 * A PTX program (docs/kernel-metadata.md, "PTX programs"): NVIDIA's OpenCL compiles OpenCL C for
 * sm_90, where wgmma does not assemble, so the wgmma instructions are written as inline
 * assembly that is a comment, "//@...", with its operands. The compiler passes the text into its
 * PTX with the operands' registers filled in; the harness then makes each such line an
 * instruction, raises the target to sm_90a and loads the PTX as the program's binary. Every
 * operand an instruction reads or writes is an operand of its asm statement, so the compiler
 * keeps them live and in order around it, as it would for the instruction itself.
 *
 * A work-group is WGM warp groups of 128 work-items; warp group w owns rows 64w .. 64w + 63 of
 * the BM x BN tile of C (BM = 64 WGM), and the whole width: each K step of 8 is one
 * wgmma.m64n<BN>k8 per term. K is walked in steps of BK; with SPLITK a tile's K is cut into
 * pieces, each run by a work-group of its own that writes its FP32 sums to the workspace, which
 * wgmma_sum adds in a fixed order (piece_place, store_piece).
 *   A comes from registers, as the instruction's A fragment (PTX ISA, "Register fragments" of
 *   wgmma .m64nNk8 for .tf32): in the warp group's warp v, lane l = 4g + t holds a0 = A[16v + g]
 *   [t], a1 = A[16v + g + 8][t], a2 = A[16v + g][t + 4], a3 = A[16v + g + 8][t + 4] of each k8
 *   block. A's rows are used by one warp only, so A never goes through local memory: a lane
 *   loads its two rows straight from global memory, BK/4 consecutive elements of each per step
 *   (one 16-byte load at BK = 16). The order of k inside a step is free as long as A and B
 *   agree: a lane's j-th element of a step (k = t BK/4 + j) is slot t + 4 (j % 2) of k8 block
 *   j / 2, and B is stored in local memory in that same order. In row-TT (KNAT) the order is the
 *   MMA's own instead, and a lane's elements are 4 apart.
 *   B comes from local memory through a matrix descriptor (PTX ISA, "Matrix Descriptor Format"),
 *   "K-major" without swizzling: B^T's BN x 8 block of each k8 is 8-row groups of two core
 *   matrices (8 rows of 16 bytes, rows 16 bytes apart), the core matrix of the next 4 k LBO
 *   bytes on, the next 8 rows SBO bytes on. LBO = 128 + 16 PADL, SBO = BK/4 LBO + 16 PADS.
 *   Both parts of B (big and small) are stored, split once per element as the tile is staged.
 *   The accumulators: d[4j + e] is D[16v + g + 8 (e / 2)][8j + 2t + e % 2] (BN/2 per lane).
 * One K step: the A fragments split, wgmma.fence, the step's 3 BK/8 MMAs issued and committed;
 * while they run, the next step's B, loaded during the step before (PREFETCH=2), is stored into
 * the other local buffer (then fence.proxy.async, which makes ordinary stores visible to the
 * MMA's reads) and the loads of the step after next are issued; then
 * wgmma.wait_group 0, and with KACC=k the sums of every k steps, accumulated from zero in the
 * tensor core, are added to the running sums by FP32 adds, which round to nearest where the
 * tensor core's own accumulation truncates; one barrier per step.
 *
 * EMU=1 is for testing on devices without the instruction (PoCL): each wgmma is computed in
 * OpenCL C from the same registers and the same descriptor (its fields decoded, local memory
 * read where they point), the A fragments exchanged through local memory; the asm statements
 * are left out and the program is plain OpenCL C on any device (the metadata's ptx_unless). */
#ifndef BN
#define BN 128 /* columns of the tile: the N of every wgmma (64, 128, 192 or 256; 16 and 32 too) */
#endif
#ifndef WGM
#define WGM 2 /* warp groups along M, 64 rows each */
#endif
#ifndef BK
#define BK 16 /* K step: 8, 16 or 32 */
#endif
#ifndef TERMS
#define TERMS 3 /* 3: 3xTF32; 1: big*big alone (plain TF32: not FP32-accurate, for testing) */
#endif
#ifndef KACC
#define KACC 8 /* k > 0: the sums of every k steps from zero, added in FP32; 0: all in the tensor core */
#endif
#ifndef RUNSUM
#define RUNSUM 0 /* KACC > 0: 1 keeps the running sums in local memory, 0 in registers */
#endif
#ifndef PADL
#define PADL 0 /* 16-byte units between the core matrices of one 8-row group */
#endif
#ifndef PADS
#define PADS 1 /* 16-byte units after each 8-row group */
#endif
#ifndef PREFETCH
#define PREFETCH 1 /* steps ahead that operands are loaded: 1 (stored as soon as they arrive) or 2 */
#endif
#ifndef BRING
#define BRING 0 /* 1..3: B copied by cp.async into a ring of BRING steps, that many steps ahead */
#endif
#ifndef GROUPM
#define GROUPM 8
#endif
#ifndef EDGES
#define EDGES 1
#endif
#ifndef EMU
#define EMU 0
#endif
#ifndef STAGES
#define STAGES 0 /* 0: the register-staged kernel; 2 or more: hgemm_wgmma_nt's pipeline (below) */
#endif
/* hgemm_wgmma_mn: the pipeline with an operand stored MN-contiguous (B K x N where it is not
 * transposed, A K x M where it is), MN-major in local memory and read by the MMA as such (its
 * operand transposed). */
#define ANM (STAGES && GB_TRANS_A)
#define BNM (STAGES && !GB_TRANS_B)
#ifndef ZFILL
#define ZFILL 1 /* hgemm_wgmma_nt: 0 copies a chunk inside the matrix without the zero-fill operand */
#endif
#ifndef INFLIGHT
#define INFLIGHT 0
#endif
#ifndef SPLITK
#define SPLITK 1 /* most pieces a tile's K is cut into (split-K); 0: the grid's need; 1: none */
#endif
#define SPLIT_CODE (SPLITK != 1) /* the pieces' path built in (PS > 1 may come at launch) */
/* sgemm_wgmma_ct: FIXUP 1 has a split tile's last piece add the pieces and write C (a counter a
 * tile in CNT), where 0 leaves it to wgmma_sum. The families that give FIXUP take the argument
 * CNT (the metadata's counters), in the staged kernel and in wgmma_sum. */
#ifdef FIXUP
#define CNT_ARG , global uint *CNT
#else
#define FIXUP 0
#define CNT_ARG
#endif
#ifndef OVERLAP
#define OVERLAP 0 /* sgemm_wgmma_ct: 1 waits for the next stage and splits its small parts while a step's MMAs run */
#endif
#ifndef SWZ
#define SWZ 0 /* hgemm_wgmma_nt: bytes of a tile's row, swizzled (32, 64, 128: 2 BK); 0: core matrices */
#endif
#ifndef TMA
#define TMA 0 /* hgemm_wgmma_nt: 1 fills the stages by the tensor memory accelerator (SWZ > 0) */
#endif

/* W16: h and b, 16-bit storage (GB_STORAGE): wgmma .m64nNk16 .f16 or .bf16 straight from the
 * stored bits, one product per K step of 16, no split (TERMS is 1); s: .m64nNk8 .tf32. */
#define W16 (GB_STORAGE == GB_STORAGE_FP16 || GB_STORAGE == GB_STORAGE_BF16)
#if W16
#undef TERMS
#define TERMS 1
#endif
#if !GB_NVIDIA && !EMU
#error "wgmma: needs the warp-group MMA (a PTX program for sm_90a): NVIDIA H100/H200, or EMU=1"
#endif
#if !GB_ROW_MAJOR
#error "sgemm_wgmma is row-major; column-major problems are served through the operand swap"
#endif
#if GB_PRECISION != 32 || GB_COMPLEX
#error "wgmma: single precision, FP16 or bfloat16"
#endif
#if BN != 16 && BN != 32 && BN != 64 && BN != 128 && BN != 192 && BN != 256
#error "wgmma: BN is 16, 32, 64, 128, 192 or 256"
#endif
#if W16 ? BK != 16 && BK != 32 && BK != 64 : BK != 8 && BK != 16 && BK != 32
#error "wgmma: BK is 8, 16 or 32 in s, 16, 32 or 64 in h and b"
#endif

#define NT (128 * WGM)                     /* work-items */
#define BM (64 * WGM)
/* An element's bytes, the elements of a core-matrix row (16 bytes) and the K of one MMA: two
 * core matrices. */
#if W16
#define ES 2
#define EPC 8
#else
#define ES 4
#define EPC 4
#endif
#define KMMA (2 * EPC)
#define NKB (BK / KMMA)                    /* MMAs per step and term */
/* Elements of a step a lane holds per A row, BK / 4 (a literal: it names a vector type). */
#if BK == 8
#define JA 2
#elif BK == 16
#define JA 4
#elif BK == 32
#define JA 8
#else
#define JA 16
#endif
#define EPL (KMMA / 4)                     /* of them per MMA */
/* KNAT (s, A^T stored K x M and B^T N x K, row-TT): A and B in the MMA's own k order, slot s of
 * k8 block kb being k = 8 kb + s, so that a 16-byte piece of a row of B^T, 4 consecutive k, is
 * one core-matrix row and is stored as one 16-byte store of each part, where otherwise each
 * element is stored alone; a lane's elements of A are then k = t + 4 j (AK), loaded one by one as
 * A^T's are in any order. With A stored M x K (row-NT) the order above lets a lane load its
 * elements of A as one vector, which KNAT would lose: measured 7% slower on the square tile
 * there (bench/notes/thin.md#thin-knat). A quarter-warp's stores are then 8 pieces of one row of
 * B^T, LBO apart, so LBO is 144 bytes (PADL 1) whatever PADL asks: at 128 they share 4 banks. */
#if !W16 && GB_TRANS_A && GB_TRANS_B && !STAGES
#define KNAT 1
#define AK 4 /* k between a lane's consecutive elements of A */
#define PADL_B 1
#else
#define KNAT 0
#define AK 1
#define PADL_B PADL
#endif
/* The k of a lane's first element of A in a step, t its place in its quad. */
#define A_K0(t) (KNAT ? (t) : (t) * JA)
#define LBOF (8 * EPC + EPC * PADL_B)      /* LBO in elements (128 + 16 PADL_B bytes) */
#define SBOF ((BK / EPC) * LBOF + EPC * PADS) /* SBO in elements */
#define BMAT ((BN / 8) * SBOF)             /* elements of one part of B in local memory */
/* The raw element: A and B move as bits (no conversion) from global memory into the
 * fragments and local memory. */
#if W16
#define EV(n) GB_CAT(ushort, n)
#else
#define EV(n) GB_CAT(float, n)
#endif
#define STAGE (TERMS == 3 ? 2 * BMAT : BMAT)
#define NACC (BN / 2)
#define LB (BN * BK / NT)                  /* B elements a work-item stages per step */
#if LB % 4 && !STAGES
#error "wgmma: BN * BK must be a multiple of 512 WGM (whole 4-element loads of B)"
#endif

#define XW_INLINE static inline __attribute__((always_inline))

/* Where B^T's element (n, k) of a step lies in a part of B, in elements: k's MMA block kb and
 * slot s as A's lanes hold them (above), then the core-matrix layout. */
XW_INLINE uint b_at(const uint n, const uint k)
{
#if KNAT
    const uint kb = k / KMMA, s = k % KMMA;
#else
    const uint t = k / JA, j = k % JA, kb = j / EPL;
#if W16
    const uint s = 2 * t + j % 2 + 8 * ((j % 4) / 2);
#else
    const uint s = t + 4 * (j % 2);
#endif
#endif
    return (n / 8) * SBOF + (2 * kb + s / EPC) * LBOF + (n % 8) * EPC + s % EPC;
}

/* x = big + small: big x truncated to TF32 (one AND), small the exact remainder. */
XW_INLINE void split(const float x, uint *big, uint *small)
{
    *big = as_uint(x) & 0xffffe000u;
    *small = as_uint(x - as_float(*big));
}

/* split's small parts of four words (their big parts are the words as stored: the MMA reads
 * them truncated). */
XW_INLINE float4 small4(const float4 x)
{
    return x - as_float4(as_uint4(x) & 0xffffe000u);
}

#if EMU
/* The descriptor's address is the byte offset in the work-group's tiles. */
#define SMEM(p, tiles) ((uint)((p) - (tiles)) * (uint)ES)
#else
/* NVIDIA's compiler gives a local pointer its offset in the shared window. */
#define SMEM(p, tiles) ((uint)(ulong)(p))
#endif

/* The matrix descriptor of the part of B at p (no swizzling, base offset 0). */
XW_INLINE ulong descriptor_of(const uint addr, const uint lbo, const uint sbo)
{
    return (ulong)((addr & 0x3ffffu) >> 4) | ((ulong)(lbo >> 4) << 16) | ((ulong)(sbo >> 4) << 32);
}
XW_INLINE ulong descriptor(const uint addr)
{
    return descriptor_of(addr, LBOF * ES, SBOF * ES);
}

#if EMU
/* An operand's element, from its bits, as the tensor core reads it: TF32 (truncated) in s, the
 * stored FP16 or bfloat16 value in h and b. */
XW_INLINE float emu_val(const uint bits)
{
#if GB_STORAGE == GB_STORAGE_FP16
    const ushort hb = (ushort)bits;
    return vload_half(0, (const half *)&hb);
#elif W16
    return as_float(bits << 16);
#else
    return as_float(bits & 0xffffe000u);
#endif
}
#if W16
#define ELEM_BITS(x) ((uint)(x))
#else
#define ELEM_BITS(x) as_uint(x)
#endif

/* An element of an operand in local memory, row r (its M or N) and k s of the block the
 * descriptor points at, as the tensor core reads it. K-major (mn 0): swizzled (mode 1, 2, 3:
 * rows of 128, 64, 32 bytes), an 8-row group's rows w bytes apart, K contiguous in a row; else
 * core matrices (8 rows of 16 bytes), the next 8 k LBO on. MN-major (mn 1, swizzled: the MMA's
 * operand transposed): atoms of w / ES rows (one w-byte line each k) x 8 k, the next rows' atom
 * LBO on, the next 8 k SBO on. */
XW_INLINE float emu_at(local const elem *tiles, const ulong desc, const int r, const int s,
                       const bool mn)
{
    const uint addr = (uint)(desc & 0x3fffu) << 4, lbo = (uint)((desc >> 16) & 0x3fffu) << 4;
    const uint sbo = (uint)((desc >> 32) & 0x3fffu) << 4, mode = (uint)(desc >> 62);
    const uint w = mode ? 256u >> mode : 0u;
    uint at;
    if (mn)
        at = GB_SWIZZLE(addr + (uint)r / (w / ES) * lbo + (uint)(s / 8) * sbo +
                            (uint)(s % 8) * w + (uint)r % (w / ES) * (uint)ES,
                        w);
    else if (w)
        at = GB_SWIZZLE(addr + (uint)(r / 8) * sbo + (uint)(r % 8) * w + (uint)s * ES, w);
    else
        at = addr + (uint)(r / 8) * sbo + (uint)(s / EPC) * lbo + (uint)(r % 8) * 16u +
             (uint)(s % EPC) * (uint)ES;
    return emu_val(ELEM_BITS(tiles[at / ES]));
}

/* One wgmma.m64n<BN>k<KMMA> computed as the instruction would from this lane's registers a[4]
 * and the descriptor: every lane publishes its A fragment, then computes its accumulators from
 * the lanes that hold its rows and from B where the descriptor points, operands read as the
 * tensor core reads them (emu_val). All work-items of the work-group call it together (it has
 * barriers). */
XW_INLINE void emu_wgmma(float *d, const uint *a, const ulong desc, const int scale,
                         local const elem *tiles, local uint *emu, const int tid)
{
    for (int r = 0; r < 4; r++)
        emu[tid * 4 + r] = a[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int lane = tid & 31, g = lane >> 2, t = lane & 3, warp0 = tid - lane;
    for (int j = 0; j < BN / 8; j++)
        for (int e = 0; e < 4; e++) {
            const int h = e / 2, col = 8 * j + 2 * t + e % 2;
            float sum = 0;
            for (int s = 0; s < KMMA; s++) {
#if W16
                /* A[g + 8h][s]: lane 4g + (s % 8) / 2, register h + 2 (s / 8), its low half at
                 * even s. */
                const uint ar = emu[(warp0 + 4 * g + (s % 8) / 2) * 4 + h + 2 * (s / 8)];
                const float av = emu_val((ar >> (16 * (s % 2))) & 0xffffu);
#else
                /* A[g + 8h][s]: lane 4g + s % 4, register h + 2 (s / 4). */
                const float av = emu_val(emu[(warp0 + 4 * g + s % 4) * 4 + h + 2 * (s / 4)]);
#endif
                sum += av * emu_at(tiles, desc, col, s, false);
            }
            d[4 * j + e] = (scale ? d[4 * j + e] : 0.0f) + sum;
        }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* wgmma with A from local memory too: this lane's accumulators from both descriptors (no
 * exchange between lanes, so no barrier). */
XW_INLINE void emu_wgmma_ss(float *d, const ulong da, const ulong db, const int scale,
                            local const elem *tiles, const int tid)
{
    const int lane = tid & 31, g = lane >> 2, t = lane & 3, v = (tid >> 5) & 3;
    for (int j = 0; j < BN / 8; j++)
        for (int e = 0; e < 4; e++) {
            const int r = 16 * v + g + 8 * (e / 2), col = 8 * j + 2 * t + e % 2;
            float sum = 0;
            for (int s = 0; s < KMMA; s++)
                sum += emu_at(tiles, da, r, s, ANM) * emu_at(tiles, db, col, s, BNM);
            d[4 * j + e] = (scale ? d[4 * j + e] : 0.0f) + sum;
        }
}
#define WGMMA(d, a, desc, scale) emu_wgmma(d, a, desc, scale, tiles, emu, tid)
#define WGMMA_SS(d, da, db, scale) emu_wgmma_ss(d, da, db, scale, tiles, tid)
#define WGMMA_WAIT(d)
#define WGMMA_WAIT1(d)
#define WG_FENCE()
#define WG_COMMIT()
#define PROXY_FENCE()
#else
/* The instruction's K and types, and its immediates: the scales of A and B, and for 16-bit
 * types the transpositions (0: K-major; 1: MN-major, an operand stored MN-contiguous in
 * hgemm_wgmma_mn), B's, and A's first where A comes from local memory (WGMMA_SS). */
#if ANM
#define WG_TRANS_A "1"
#else
#define WG_TRANS_A "0"
#endif
#if BNM
#define WG_TRANS_B "1"
#else
#define WG_TRANS_B "0"
#endif
#if GB_STORAGE == GB_STORAGE_FP16
#define WG_KIND "k16.f32.f16.f16"
#define WG_IMM "1, 1, 0"
#define WG_IMM_SS "1, 1, " WG_TRANS_A ", " WG_TRANS_B
#elif W16
#define WG_KIND "k16.f32.bf16.bf16"
#define WG_IMM "1, 1, 0"
#define WG_IMM_SS "1, 1, " WG_TRANS_A ", " WG_TRANS_B
#else
#define WG_KIND "k8.f32.tf32.tf32"
#define WG_IMM "1, 1"
#define WG_IMM_SS "1, 1"
#endif
#define WG_FENCE() __asm__ __volatile__("//@wgmma.fence.sync.aligned;" ::: "memory")
#define WG_COMMIT() __asm__ __volatile__("//@wgmma.commit_group.sync.aligned;" ::: "memory")
/* Ordinary stores to local memory made visible to the MMA's reads (the async proxy). */
#define PROXY_FENCE() __asm__ __volatile__("//@fence.proxy.async.shared::cta;" ::: "memory")
/* WGMMA(d, a, desc, scale): d = A * B + (scale ? d : 0), A from the registers a[4], B from the
 * descriptor; WGMMA_SS(d, da, db, scale): the same with A from local memory too, through its
 * descriptor (16-bit types); WGMMA_WAIT(d): waits for every MMA in flight, WGMMA_WAIT1(d) for
 * all but the last group committed; d tied to them. Every accumulator is an operand: WG_D the
 * accumulators' text, WG_DOPS(d) their operands, WG_I0.. the operands after them. */
#define WG_S0 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_S1 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_S2 "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
#define WG_S3 "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define WG_D8(d, i) \
    "+f"(d[(i)]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3]), "+f"(d[(i) + 4]), \
        "+f"(d[(i) + 5]), "+f"(d[(i) + 6]), "+f"(d[(i) + 7])
#define WG_D32(d, i) WG_D8(d, (i)), WG_D8(d, (i) + 8), WG_D8(d, (i) + 16), WG_D8(d, (i) + 24)
#if BN == 16
#define WG_N "16"
#define WG_D "%0, %1, %2, %3, %4, %5, %6, %7"
#define WG_DOPS(d) WG_D8(d, 0)
#define WG_I0 "%8"
#define WG_I1 "%9"
#define WG_I2 "%10"
#define WG_I3 "%11"
#define WG_I4 "%12"
#define WG_I5 "%13"
#elif BN == 32
#define WG_N "32"
#define WG_D "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define WG_DOPS(d) WG_D8(d, 0), WG_D8(d, 8)
#define WG_I0 "%16"
#define WG_I1 "%17"
#define WG_I2 "%18"
#define WG_I3 "%19"
#define WG_I4 "%20"
#define WG_I5 "%21"
#elif BN == 64
#define WG_N "64"
#define WG_D WG_S0
#define WG_DOPS(d) WG_D32(d, 0)
#define WG_I0 "%32"
#define WG_I1 "%33"
#define WG_I2 "%34"
#define WG_I3 "%35"
#define WG_I4 "%36"
#define WG_I5 "%37"
#elif BN == 128
#define WG_N "128"
#define WG_D WG_S0 ", " WG_S1
#define WG_DOPS(d) WG_D32(d, 0), WG_D32(d, 32)
#define WG_I0 "%64"
#define WG_I1 "%65"
#define WG_I2 "%66"
#define WG_I3 "%67"
#define WG_I4 "%68"
#define WG_I5 "%69"
#elif BN == 192
#define WG_N "192"
#define WG_D WG_S0 ", " WG_S1 ", " WG_S2
#define WG_DOPS(d) WG_D32(d, 0), WG_D32(d, 32), WG_D32(d, 64)
#define WG_I0 "%96"
#define WG_I1 "%97"
#define WG_I2 "%98"
#define WG_I3 "%99"
#define WG_I4 "%100"
#define WG_I5 "%101"
#else
#define WG_N "256"
#define WG_D WG_S0 ", " WG_S1 ", " WG_S2 ", " WG_S3
#define WG_DOPS(d) WG_D32(d, 0), WG_D32(d, 32), WG_D32(d, 64), WG_D32(d, 96)
#define WG_I0 "%128"
#define WG_I1 "%129"
#define WG_I2 "%130"
#define WG_I3 "%131"
#define WG_I4 "%132"
#define WG_I5 "%133"
#endif
#define WG_OP "wgmma.mma_async.sync.aligned.m64n" WG_N WG_KIND " {" WG_D "}, "
#define WGMMA(d, a, desc, scale) \
    __asm__ __volatile__("//@{ .reg .pred p; setp.ne.b32 p, " WG_I5 ", 0; " WG_OP "{" WG_I0 ", " WG_I1 \
                         ", " WG_I2 ", " WG_I3 "}, " WG_I4 ", p, " WG_IMM "; }" \
                         : WG_DOPS(d) \
                         : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "l"(desc), "r"(scale))
#define WGMMA_SS(d, da, db, scale) \
    __asm__ __volatile__("//@{ .reg .pred p; setp.ne.b32 p, " WG_I2 ", 0; " WG_OP WG_I0 ", " WG_I1 \
                         ", p, " WG_IMM_SS "; }" \
                         : WG_DOPS(d) \
                         : "l"(da), "l"(db), "r"(scale))
#define WGMMA_WAIT(d) __asm__ __volatile__("//@wgmma.wait_group.sync.aligned 0;" : WG_DOPS(d) :: "memory")
#define WGMMA_WAIT1(d) __asm__ __volatile__("//@wgmma.wait_group.sync.aligned 1;" : WG_DOPS(d) :: "memory")
#endif

/* This lane's elements of a step of A: rows row and row + 8 ... x[h][j] = A(row + 8h, k + AK j),
 * k the step's first k plus A_K0(t), t the lane's place in its quad (AK is 1 unless A^T is stored
 * K x M); zeros outside the matrix where checked. vec: a row's JA elements are one aligned
 * vector. */
XW_INLINE void load_a(global const elem *A, const int lda, const int M, const int K,
                      const int row, const int k, const bool checked, const bool vec,
                      elem x[2][JA])
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int r = row + 8 * h;
#if GB_TRANS_A
        /* A^T stored K x M: a lane's elements are one column apart each. */
#pragma unroll
        for (int j = 0; j < JA; j++)
            x[h][j] = !checked || (r < M && k + AK * j < K) ? A[(k + AK * j) * lda + r] : (elem)0;
#else
        if (!checked && vec) {
            VSTORE(JA)(*(global const EV(JA) *)(A + r * lda + k), 0, x[h]);
        } else {
#pragma unroll
            for (int j = 0; j < JA; j++)
                x[h][j] = !checked || (r < M && k + j < K) ? A[r * lda + k + j] : (elem)0;
        }
#endif
    }
}

/* BV4 (s, B stored K x N, BN 64, 128 or 256, BK >= 16, 16 vectors of B a work-item or more): a
 * work-item's vectors of B come four at a time, 4g .. 4g + 3 holding the slots t = 0 .. 3 of
 * the same core-matrix rows, so that store_b writes each part of B 16 bytes at a time, at
 * constant offsets, where without it every element is a 4-byte store with its own address. Where
 * B^T is stored N x K the four vectors are four 16-byte pieces of one row of B^T, 32 bytes apart,
 * and the warps' loads then touch four times the lines: measured 14% slower there, so not
 * (bench/notes/thin.md#thin-bv4). */
#if !W16 && !STAGES && !GB_TRANS_B && LB % 16 == 0 && BK >= 16 && BN != 192
#define BV4 1
#else
#define BV4 0
#endif

/* This work-item's share of a step of B (its 16-byte vectors l * NT + tid). Where B^T is
 * stored N x K, vectors run along K, 8 rows of BK per warp: the lanes' k-quads are the slots t
 * of one core-matrix row, the 8 rows its 8 rows, so that a warp's stores fill 32 banks. Where B
 * is stored K x N, vectors run along N, at fixed k: a warp takes 8 vectors (32 columns, one
 * 128-byte line) at each of 4 k that differ in slot t (k = t JA + j), so that t, n % 8 and, with
 * PADS = 1, n / 8 spread its stores over the banks (bench/notes/wgmma.md#wgmma-first).
 * With BV4 (B K x N), vector l = 4g + t is at k = t JA + j: the work-items' vectors at one l are
 * whole rows of B's step (a warp 512 contiguous bytes at BN 128), tid % (BN / 4) the column quad,
 * g and tid / (BN / 4) the j; at PADS 1 the 16-byte stores of 8 lanes (8 column quads: both
 * halves of 4 groups of 8 rows, SBO apart) cover the 32 banks. */
XW_INLINE void b_pos(const int l, const int tid, uint *n, uint *k)
{
#if BV4
    const uint g = (uint)l / 4, t = (uint)l % 4;
    *n = 4 * ((uint)tid % (BN / 4));
    *k = t * JA + g * (4 * NT / BN) + (uint)tid / (BN / 4);
#else
    const uint v = (uint)(l * NT + tid);
#if GB_TRANS_B
    *n = v / (BK / 4);
    *k = 4 * (v % (BK / 4));
#else
    const uint r = v / 32;
    *k = (v % 4) * JA + r % JA;
    *n = 4 * ((r / JA) * 8 + (v / 4) % 8);
#endif
#endif
}

/* Where vector l of this work-item's share of a step of B starts, and how many of its 4
 * elements lie inside B (along the vector: N where B is K x N, K where it is N x K). */
XW_INLINE global const elem *b_src(global const elem *B, const int ldb, const int N, const int K,
                                   const int n0, const int k0, const int l, const int tid,
                                   int *in)
{
    uint n, k;
    b_pos(l, tid, &n, &k);
#if GB_TRANS_B
    *in = n0 + (int)n < N ? clamp(K - k0 - (int)k, 0, 4) : 0;
    return B + (n0 + n) * ldb + k0 + k;
#else
    *in = k0 + (int)k < K ? clamp(N - n0 - (int)n, 0, 4) : 0;
    return B + (k0 + k) * ldb + n0 + n;
#endif
}

/* Vector l of the share, zeros outside B where checked. */
XW_INLINE EV(4) load_bv(global const elem *B, const int ldb, const int N, const int K,
                        const int n0, const int k0, const bool checked, const bool vec,
                        const int l, const int tid)
{
    int in;
    global const elem *p = b_src(B, ldb, N, K, n0, k0, l, tid, &in);
    if (!checked && vec)
        return *(global const EV(4) *)p;
    elem e[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        e[i] = !checked || i < in ? p[i] : (elem)0;
    return vload4(0, e);
}

XW_INLINE void load_b(global const elem *B, const int ldb, const int N, const int K,
                      const int n0, const int k0, const bool checked, const bool vec,
                      const int tid, EV(4) *x)
{
#pragma unroll
    for (int l = 0; l < LB / 4; l++)
        x[l] = load_bv(B, ldb, N, K, n0, k0, checked, vec, l, tid);
}

/* Steps ahead that a work-item commits its groups of cp.async copies before their use: the
 * stages of hgemm_wgmma_nt (below) or sgemm_wgmma's ring of B (BRING); 0: none. */
#define AHEAD (STAGES ? STAGES - 1 - INFLIGHT : BRING)
#if GB_NVIDIA && !EMU
XW_INLINE void copies_commit(void)
{
#if !TMA
    GB_CP_COMMIT();
#endif
}
/* Waits until at most AHEAD - 1 of this work-item's copy groups are in flight. */
#define COPIES_WAIT() GB_CP_WAIT(AHEAD_1)
#if AHEAD == 1
#define AHEAD_1 0
#elif AHEAD == 2
#define AHEAD_1 1
#elif AHEAD == 3
#define AHEAD_1 2
#elif AHEAD == 4
#define AHEAD_1 3
#elif AHEAD == 5
#define AHEAD_1 4
#elif AHEAD == 6
#define AHEAD_1 5
#elif AHEAD == 7
#define AHEAD_1 6
#elif AHEAD
#error "wgmma: STAGES - 1 - INFLIGHT or BRING is 1 to 7 (wait_group's count is written out)"
#endif
#else
XW_INLINE void copies_commit(void)
{
}
#define COPIES_WAIT()
#endif

#if BRING
#if W16 || PREFETCH != 1
#error "sgemm_wgmma: BRING > 0 is for s at PREFETCH=1"
#endif
#define RING_SLOT (LB / 4 * NT) /* vectors of a slot of the ring: a step of B */
/* Where vector l of work-item tid lies in a slot. B stored N x K: the work-item's own place,
 * a warp's 32 vectors 512 contiguous bytes of 4 rows of B's; so with BV4, whose warps read B's
 * rows whole. Stored K x N without BV4, a warp's vectors are 4
 * k of 8 vectors each (b_pos): each k's 128 bytes placed in one 128-byte line, rotated by 2 k
 * vectors, so that the copies pair one line of B with one line of local memory (a wavefront
 * each, bench/notes/wgmma.md#wgmma-zfill) and 8 work-items' reads cover the 32 banks. */
XW_INLINE int ring_at(const int l, const int tid)
{
#if GB_TRANS_B || BV4
    return l * NT + tid;
#else
    const int lane = tid & 31, kq = lane & 3;
    return l * NT + (tid - lane) + 8 * kq + ((lane >> 2) + 2 * kq) % 8;
#endif
}

/* BRING: a step's share of B (load_b's vectors) into a slot of the ring (at ring_at), by
 * 16-byte cp.async (zero-filled past B) where B's rows are 16-byte aligned, else by loads and
 * stores. Each work-item reads back only its own vectors, after its own wait: no barrier.
 * Nothing of B waits in registers, so BRING steps of it are in flight at once where the
 * register-staged kernel holds one (bench/notes/thin.md#thin-bring). */
XW_INLINE void ring_fill(local EV(4) *slot, global const elem *B, const int ldb, const int N,
                         const int K, const int n0, const int k0, const bool checked,
                         const bool vec, const int tid)
{
#pragma unroll
    for (int l = 0; l < LB / 4; l++) {
        local EV(4) *dst = slot + ring_at(l, tid);
#if GB_NVIDIA && !EMU
        if (vec) {
            int in;
            global const elem *p = b_src(B, ldb, N, K, n0, k0, l, tid, &in);
            if (!checked)
                GB_CP16_WHOLE(SMEM(dst, 0), p);
            else
                GB_CP16(SMEM(dst, 0), in ? p : B, in * ES);
            continue;
        }
#endif
        *dst = load_bv(B, ldb, N, K, n0, k0, checked, vec, l, tid);
    }
}
#endif

#if KNAT || BV4
/* One core-matrix row of B, the four slots e[0], e[s], e[2s], e[3s], split and stored 16 bytes at
 * a time: the big parts at at, the small BMAT on. */
XW_INLINE void store_row4(local elem *at, const elem *e, const int s)
{
    uint big[4], small[4];
#pragma unroll
    for (int t = 0; t < 4; t++)
        split(e[t * s], &big[t], &small[t]);
    *(local uint4 *)at = vload4(0, big);
#if TERMS == 3
    *(local uint4 *)(at + BMAT) = vload4(0, small);
#endif
}
#endif

/* The staged vectors into local memory: in s split into the two parts of B (big at b, small
 * BMAT on), in h and b as they are. */
XW_INLINE void store_b(local elem *b, const int tid, const EV(4) *x)
{
#if BV4
    /* Element i of vectors 4g .. 4g + 3 is the 4 slots of column n + i's core-matrix row, EPC
     * elements after column n's. */
#pragma unroll
    for (int g = 0; g < LB / 16; g++) {
        uint n, k;
        b_pos(4 * g, tid, &n, &k);
        local elem *row = b + b_at(n, k);
        elem e[16]; /* e[4t + i]: element i of vector 4g + t */
#pragma unroll
        for (int t = 0; t < 4; t++)
            vstore4(x[4 * g + t], t, e);
#pragma unroll
        for (int i = 0; i < 4; i++)
            store_row4(row + i * EPC, e + i, 4);
    }
#else
#pragma unroll
    for (int l = 0; l < LB / 4; l++) {
        uint n, k;
        b_pos(l, tid, &n, &k);
        elem e[4];
        vstore4(x[l], 0, e);
#if KNAT
        /* 4 consecutive k of one row of B^T: one core-matrix row's 4 slots. */
        store_row4(b + b_at(n, k), e, 1);
#else
#pragma unroll
        for (int i = 0; i < 4; i++) {
#if GB_TRANS_B
            const int at = b_at(n, k + i);
#else
            const int at = b_at(n + i, k);
#endif
#if W16
            b[at] = e[i];
#else
            uint big, small;
            split(e[i], &big, &small);
            b[at] = as_float(big);
#if TERMS == 3
            b[BMAT + at] = as_float(small);
#endif
#endif
        }
#endif
    }
#endif
}

/* The tile of C at walk position at (of ceil(M / BM) x ceil(N / BN)): its origin (m0, n0), this
 * lane's first row (its warp group's 64, its warp's 16, its group's row), and whether the tile
 * crosses C's last row or column. */
XW_INLINE bool tile_place(const int M, const int N, const int tid, const uint at, int *m0, int *n0,
                          int *row)
{
    int gm, gn;
    gb_tile_at(at, (uint)((M + BM - 1) / BM), (uint)((N + BN - 1) / BN), GROUPM, EDGES,
               M % BM != 0, N % BN != 0, &gm, &gn);
    *m0 = gm * BM;
    *n0 = gn * BN;
    *row = *m0 + 64 * (tid >> 7) + 16 * ((tid >> 5) & 3) + ((tid & 31) >> 2);
    return *m0 + BM > M || *n0 + BN > N;
}

/* Work-group id's tile, piece and slot in a one-dimensional grid of D whole tiles and the PS
 * pieces of each other tile (gb_tile_piece; without split-K, D is every tile), its tile placed
 * (tile_place), and the piece's K steps [*s0, *s0 + *steps) of all of K's. */
/* The tiles of an M x N C (the metadata's let T). */
XW_INLINE uint tile_count(const int M, const int N)
{
    return (uint)((M + BM - 1) / BM) * (uint)((N + BN - 1) / BN);
}

XW_INLINE bool piece_place(const int M, const int N, const int K, const int tid, const int D,
                           const int PS, int *m0, int *n0, int *row, uint *np, uint *slot,
                           int *s0, int *steps)
{
    uint at, piece;
    gb_tile_piece((uint)get_group_id(0), tile_count(M, N), (uint)D, (uint)PS, SPLIT_CODE, &at,
                  &piece, np, slot);
    const int all = (K + BK - 1) / BK;
    *s0 = (int)((long)piece * all / *np);
    *steps = (int)((long)(piece + 1) * all / *np) - *s0;
    return tile_place(M, N, tid, at, m0, n0, row);
}

/* A piece of a split tile: its bare sums, the whole BM x BN tile, to its own slot of the
 * workspace (row-major), acc[4j + 2h + e] being the tile's [row - m0 + 8h][8j + 2t + e];
 * wgmma_sum adds the pieces. */
XW_INLINE void store_piece(global float *WS, const uint slot, const int row, const int m0,
                           const int t, const float *acc)
{
    global float *part = WS + (size_t)slot * (BM * BN);
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int h = 0; h < 2; h++)
            vstore2((float2)(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]), 0,
                    part + (row - m0 + 8 * h) * BN + 8 * j + 2 * t);
}

#if KACC
/* Whether the tensor core's sums are added to the running sums after step s (of steps): at the
 * end of each group of KACC steps and after the last step. */
XW_INLINE bool sums_due(const int s, const int steps)
{
    return (s + 1) % KACC == 0 || s + 1 == steps;
}
#endif
#if KACC && RUNSUM
/* RUNSUM=1: the running sums in local memory, so that a lane's registers hold the tensor core's
 * sums alone (NACC fewer registers: more work-groups an SM). Lane tid's sums 4i .. 4i + 3 are
 * runs[i NT + tid], a warp's 32 float4 side by side. Each lane reads and writes only its own:
 * no barrier. */
#define RUNS_DECL local float4 runs[NACC / 4 * NT];
/* After step s (of steps): the tensor core's sums of the last KACC steps added in FP32 to the
 * running sums where due; the first group's stored. */
XW_INLINE void add_sums(local float4 *runs, const int tid, const float *sacc, const int s,
                        const int steps)
{
    if (sums_due(s, steps)) {
#pragma unroll
        for (int i = 0; i < NACC / 4; i++) {
            const float4 v = (float4)(sacc[4 * i], sacc[4 * i + 1], sacc[4 * i + 2], sacc[4 * i + 3]);
            runs[i * NT + tid] = s >= KACC ? runs[i * NT + tid] + v : v;
        }
    }
}
#define ADD_SUMS(s, steps) add_sums(runs, tid, sacc, s, steps)
/* The running sums into acc after the last step (acc untouched before: no registers held). */
XW_INLINE void sums_final(float *acc, local const float4 *runs, const int tid)
{
#pragma unroll
    for (int i = 0; i < NACC / 4; i++) {
        const float4 v = runs[i * NT + tid];
        acc[4 * i] = v.x;
        acc[4 * i + 1] = v.y;
        acc[4 * i + 2] = v.z;
        acc[4 * i + 3] = v.w;
    }
}
#define SUMS_INIT(acc) (void)0
#define SUMS_FINAL(acc) sums_final(acc, runs, tid)
#else
#define RUNS_DECL
#if KACC
/* After step s (of steps): the tensor core's sums of the last KACC steps added to the running
 * sums in FP32 where due. */
XW_INLINE void add_sums(float *acc, const float *sacc, const int s, const int steps)
{
    if (sums_due(s, steps)) {
#pragma unroll
        for (int i = 0; i < NACC; i++)
            acc[i] += sacc[i];
    }
}
#define ADD_SUMS(s, steps) add_sums(acc, sacc, s, steps)
#endif
XW_INLINE void sums_zero(float *acc)
{
#pragma unroll
    for (int i = 0; i < NACC; i++)
        acc[i] = 0.0f;
}
#define SUMS_INIT(acc) sums_zero(acc)
#define SUMS_FINAL(acc) (void)0
#endif

/* The lane's sums into C one element at a time, each rounded once to the storage format (C
 * transposed where the route asks, GB_C_AT): acc[4j + 2h + e] is C[row + 8h][n0 + 8j + 2t + e]. */
XW_INLINE void store_c_each(global stored *C, const int offC, const int ldc, const int M,
                            const int N, const int row, const int n0, const int t, const bool edge,
                            const float *acc, const float alpha, const float beta)
{
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int r = row + 8 * h, col = n0 + 8 * j + 2 * t + e;
                if (!edge || (r < M && col < N))
                    GB_UPDATE_AT(C, offC + GB_C_AT(r, col, ldc), acc[4 * j + 2 * h + e], alpha,
                                 beta);
            }
}

#if !STAGES
#if W16
#define WG_ENTRY hgemm_wgmma
#else
#define WG_ENTRY sgemm_wgmma
#endif
__attribute__((reqd_work_group_size(NT, 1, 1))) kernel void
WG_ENTRY(const int M, const int N, const int K, const float alpha,
         global const stored *restrict A0, const int offA, const int lda,
         global const stored *restrict B0, const int offB, const int ldb, const float beta,
         global stored *C, const int offC, const int ldc, global float *WS, const int D,
         const int PS)
{
    /* Two buffers of one step's B, 16-byte aligned (the descriptors' core matrices). */
    local uint4 tiles4[2 * STAGE * ES / 16];
    local elem *tiles = (local elem *)tiles4;
    RUNS_DECL
#if BRING
    local EV(4) ring[BRING * RING_SLOT]; /* slot (s - 1) % BRING: step s's share of B */
#endif
#if EMU
    local uint emu[NT * 4];
#endif
    /* A and B move as bits: elements, not the stored type's values. */
    global const elem *A = (global const elem *)A0 + offA;
    global const elem *B = (global const elem *)B0 + offB;
    const int tid = (int)get_local_id(0), t = tid & 3;
    int m0, n0, row, s0, steps;
    uint np, slot;
    const bool edge = piece_place(M, N, K, tid, D, PS, &m0, &n0, &row, &np, &slot, &s0, &steps);
    const bool a_vec = lda % JA == 0 && offA % JA == 0, b_vec = ldb % 4 == 0 && offB % 4 == 0;
    const int k0 = s0 * BK; /* the piece's first k */

    float acc[NACC];
    SUMS_INIT(acc);
#if KACC
    float sacc[NACC]; /* a step's sums */
#define SUMS sacc
#else
#define SUMS acc
#endif
    elem xa[2][JA];   /* this step's A */
    EV(4) xb[LB / 4]; /* the next step's B (PREFETCH=2), or this one's */
    local elem *cur = tiles, *nxt = tiles + STAGE;
    bool checked = edge || k0 + BK > K;
#if BRING
    /* Steps 1 .. BRING into the ring, one copy group each (empty past the piece's steps). */
    for (int r = 0; r < BRING; r++) {
        const int k = k0 + (r + 1) * BK;
        if (r + 1 < steps)
            ring_fill(ring + r * RING_SLOT, B, ldb, N, K, n0, k, edge || k + BK > K, b_vec,
                      tid);
        copies_commit();
    }
#endif
    load_a(A, lda, M, K, row, k0 + A_K0(t), checked, a_vec, xa);
    load_b(B, ldb, N, K, n0, k0, checked, b_vec, tid, xb);
    store_b(cur, tid, xb);
#if PREFETCH == 2
    elem ya[2][JA]; /* the next step's A */
    if (steps > 1) {
        checked = edge || k0 + 2 * BK > K;
        load_a(A, lda, M, K, row, k0 + BK + A_K0(t), checked, a_vec, ya);
        load_b(B, ldb, N, K, n0, k0 + BK, checked, b_vec, tid, xb);
    }
#endif
    PROXY_FENCE();
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 0; s < steps; s++) {
#if W16
        /* The A fragments: register r of MMA kb is row h = r % 2 at slots 2t + 8 (r / 2) and the
         * next, the lane's elements j = 4 kb + 2 (r / 2) and j + 1, the first in the low half. */
        uint abig[NKB][4];
#pragma unroll
        for (int kb = 0; kb < NKB; kb++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                abig[kb][r] = (uint)xa[r % 2][4 * kb + 2 * (r / 2)] |
                              (uint)xa[r % 2][4 * kb + 2 * (r / 2) + 1] << 16;
#else
        /* The A fragments: register r of k8 block kb is row h = r % 2 at slot t + 4 (r / 2),
         * the lane's element j = 2 kb + r / 2. */
        uint abig[NKB][4], asml[NKB][4];
#pragma unroll
        for (int kb = 0; kb < NKB; kb++)
#pragma unroll
            for (int r = 0; r < 4; r++)
                split(xa[r % 2][2 * kb + r / 2], &abig[kb][r], &asml[kb][r]);
#endif
        WG_FENCE();
        /* 0: the sums of KACC steps start from zero at this step's first MMA. */
        const int carry = !(KACC && s % KACC == 0);
#pragma unroll
        for (int kb = 0; kb < NKB; kb++) {
            const int first = kb > 0 || carry;
            const ulong db = descriptor(SMEM(cur + 2 * kb * LBOF, tiles));
#if TERMS == 3
            const ulong ds = descriptor(SMEM(cur + BMAT + 2 * kb * LBOF, tiles));
            WGMMA(SUMS, asml[kb], db, first);
            WGMMA(SUMS, abig[kb], ds, 1);
            WGMMA(SUMS, abig[kb], db, 1);
#else
#if !W16
            (void)asml;
#endif
            WGMMA(SUMS, abig[kb], db, first);
#endif
        }
        WG_COMMIT();
        if (s + 1 < steps) {
#if PREFETCH == 2
            /* Step s + 1's operands arrived during step s - 1's MMAs: stored without waiting
             * on a load; step s + 2's are loaded while this step's MMAs run. */
            store_b(nxt, tid, xb);
#pragma unroll
            for (int h = 0; h < 2; h++)
#pragma unroll
                for (int j = 0; j < JA; j++)
                    xa[h][j] = ya[h][j];
            if (s + 2 < steps) {
                const int k2 = k0 + (s + 2) * BK;
                checked = edge || k2 + BK > K;
                load_a(A, lda, M, K, row, k2 + A_K0(t), checked, a_vec, ya);
                load_b(B, ldb, N, K, n0, k2, checked, b_vec, tid, xb);
            }
#else
            const int k1 = k0 + (s + 1) * BK;
            checked = edge || k1 + BK > K;
            load_a(A, lda, M, K, row, k1 + A_K0(t), checked, a_vec, xa);
#if BRING
            /* Step s + 1's share, copied BRING steps ago, out of its slot; the slot refilled
             * with step s + 1 + BRING's. */
            local EV(4) *slot = ring + s % BRING * RING_SLOT;
            COPIES_WAIT();
#pragma unroll
            for (int l = 0; l < LB / 4; l++)
                xb[l] = slot[ring_at(l, tid)];
            store_b(nxt, tid, xb);
            const int kr = k1 + BRING * BK;
            if (s + 1 + BRING < steps)
                ring_fill(slot, B, ldb, N, K, n0, kr, edge || kr + BK > K, b_vec, tid);
            copies_commit();
#else
            load_b(B, ldb, N, K, n0, k1, checked, b_vec, tid, xb);
            store_b(nxt, tid, xb);
#endif
#endif
            PROXY_FENCE();
        }
        WGMMA_WAIT(SUMS);
#if KACC
        ADD_SUMS(s, steps);
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        local elem *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
#undef SUMS
    SUMS_FINAL(acc);
    if (np > 1) {
        store_piece(WS, slot, row, m0, t, acc);
        return;
    }
    /* acc[4j + 2h + e] is C[row + 8h][n0 + 8j + 2t + e]. */
#if W16
    store_c_each(C, offC, ldc, M, N, row, n0, t, edge, acc, alpha, beta);
#else
    const bool fast = !edge && ldc % 2 == 0 && offC % 2 == 0;
#pragma unroll
    for (int j = 0; j < BN / 8; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int r = row + 8 * h, col = n0 + 8 * j + 2 * t;
            global float *c = C + offC + r * ldc + col;
            const float2 v = alpha * (float2)(acc[4 * j + 2 * h], acc[4 * j + 2 * h + 1]);
            if (fast) {
                if (beta == 0.0f)
                    *(global float2 *)c = v;
                else
                    *(global float2 *)c = v + beta * *(global float2 *)c;
            } else if (r < M) {
                if (col < N)
                    c[0] = beta == 0.0f ? v.x : v.x + beta * c[0];
                if (col + 1 < N)
                    c[1] = beta == 0.0f ? v.y : v.y + beta * c[1];
            }
        }
#endif
}
#endif

#if STAGES
/* hgemm_wgmma_nt (h and b, row-major NT: A stored M x K and B N x K, both K-contiguous): A and B both
 * from local memory through descriptors (wgmma's A from local memory, no register fragments),
 * filled by asynchronous copies (cp.async) STAGES - 1 - INFLIGHT K steps ahead, so a step waits
 * only for copies issued that many steps earlier, not for a load issued during the step before
 * (the register-staged kernel's limit: bench/notes/wgmma.md#wgmma-16bit). Without a second set
 * of accumulators or staging registers, two work-groups of 128x128 share an SM.
 * A stage holds A's BM x BK tile and B^T's BN x BK tile, each K-major. SWZ 0, without
 * swizzling: a core matrix (8 rows of 16 bytes) is 128 contiguous bytes (LBO 128 + 16 PADL to
 * the next 8 k), an 8-row group CPR of them (SBO), and the 32 chunks a warp copies at once are
 * 512 contiguous bytes: no bank conflicts. SWZ = 2 BK: row r's BK k are its SWZ bytes at r SWZ,
 * their 16-byte units permuted by the tensor core's swizzle (GB_SWIZZLE), an 8-row group SBO = 8
 * SWZ bytes, an MMA's 16 k 32 bytes on in the descriptor's address: a row of global memory
 * lands in one line of local memory, which is what makes the copies cheap (chunk_of).
 * hgemm_wgmma_mn (row-NN, TN, TT): an operand stored MN-contiguous is copied MN-major into the
 * 128-byte swizzle's atoms (SBO_N) and the MMA reads it transposed (mnchunks_init).
 * The pipeline: at step s, wait for the copies of step s, fence (the async proxy reads what
 * they wrote), barrier; issue the step's BK/16 MMAs per warp group; copy step s + STAGES - 1 -
 * INFLIGHT into the stage whose MMAs every warp group has waited for (before the barrier); wait
 * for the MMAs (INFLIGHT=1: all but this step's, except at the end of a group of KACC steps, whose
 * sums are then added). KACC as in the kernel above: 0 lets the tensor core accumulate all of K,
 * whose truncating sums are not faithful on data of one sign past a few hundred k
 * (bench/notes/wgmma.md#wgmma-zfill), so the metadata asks for at most 256 k there.
 * Both operands' rows are 16-byte aligned (the route copies them where they are not), so every
 * chunk is one cp.async (zero-filled past K and past the matrix).
 * EMU=1 and devices other than NVIDIA copy with ordinary loads and stores. */
#ifndef BCOPY
#define BCOPY 0 /* sgemm_wgmma_ct: 1 takes B stored K x N (NN, TN) and copies it K-major in the kernel */
#endif
#if !W16 && BNM && !BCOPY
#error "sgemm_wgmma_ct: B stored K x N (row-NN, row-TN as the kernel sees it) needs BCOPY=1"
#endif
#if !W16 && (!TMA || INFLIGHT)
#error "sgemm_wgmma_ct: TMA=1 and INFLIGHT=0 (A's registers are read until the MMAs are waited for)"
#endif
#if (ANM || BNM) && !SWZ
#error "hgemm_wgmma_mn: SWZ > 0 (an MN-major swizzled tile starts on a 1024-byte boundary)"
#endif
#if STAGES - INFLIGHT < 2
#error "hgemm_wgmma_nt: STAGES - INFLIGHT must be at least 2"
#endif
#if OVERLAP && (W16 || !TMA)
#error "OVERLAP is sgemm_wgmma_ct's (TMA=1)"
#endif
#if TMA && (!SWZ || !(GB_NVIDIA || EMU))
#error "hgemm_wgmma_nt: TMA=1 needs SWZ > 0 and the GPU (or EMU=1)"
#endif
#define CPR (BK / EPC)                 /* 16-byte chunks in a row of a tile */
#if SWZ
#if SWZ != BK * ES || PADL
#error "hgemm_wgmma_nt: SWZ is the bytes of a tile's row (BK ES), with PADL 0"
#endif
#define LBO_B 16                       /* not read in a swizzled K-major layout */
#define SBO_E (8 * SWZ / ES)           /* elements from an 8-row group to the next */
#define KB_STEP 2                      /* an MMA's 16 k further: 32 bytes, in descriptor units */
#define DESC_SWZ ((ulong)(SWZ == 128 ? 1 : SWZ == 64 ? 2 : 3) << 62)
#else
#define LBO_B (128 + 16 * PADL)        /* bytes from a core matrix to the next 8 k */
#define SBO_E (CPR * LBO_B / ES)       /* elements from an 8-row group to the next */
#define KB_STEP (2 * LBO_B / 16)       /* an MMA's 16 k further, in descriptor units */
#define DESC_SWZ 0ul
#endif
/* An MN-major tile of TR rows (M or N) through the 128-byte swizzle: atoms of 64 rows (a
 * 128-byte line a k) x 8 k, 1024 bytes each. With cp.async, TR / 64 side by side (LBO_N apart),
 * the next 8 k SBO_N(TR) on: a warp's 8 copies at one k then fill one line of local memory. With
 * TMA, a group of MN_ROWS rows (a 128-byte line: 64 in h and b, 32 in s) holds its BK k's lines
 * one after another (the next 8 k 1024 bytes on), as one box of MN_ROWS rows x BK k lands, and
 * the next MN_ROWS rows are BK 128 bytes on. An MMA's 16 k is 2 SBO_N(TR) further. In s the
 * MMA does not read such a tile: sgemm_wgmma_ct loads its fragments from it (a_frags). */
#define MN_ROWS (128 / ES)
#if TMA
#define LBO_N(TR) (BK * 128)
#define SBO_N(TR) 1024
#else
#define LBO_N(TR) 1024
#define SBO_N(TR) ((TR) / 64 * 1024)
#endif
#define DESC_MN (1ul << 62)
#if ANM
#define KB_STEP_A (2 * SBO_N(BM) / 16)
#else
#define KB_STEP_A KB_STEP
#endif
#if BNM && W16
#define KB_STEP_B (2 * SBO_N(BN) / 16)
#else
#define KB_STEP_B KB_STEP /* in s the MMA reads B K-major (its copy, split_mn) */
#endif
/* Element (r, k) of an MN-major tile of TR rows landed by the copy engine: its group of MN_ROWS
 * rows, then line k through the 128-byte swizzle. */
#define MN_AT(TR, r, k) \
    ((r) / MN_ROWS * (LBO_N(TR) / ES) + GB_SWIZZLE((k) * 128 + (r) % MN_ROWS * ES, 128) / ES)
/* Where the tiles start: on their swizzle's repeating pattern (its address bits). */
#if ANM || BNM
#define TILES_ALIGN 1024
#elif SWZ
#define TILES_ALIGN (8 * SWZ)
#else
#define TILES_ALIGN 16
#endif
#define AT_E (BM / 8 * SBO_E)          /* elements of A's tile */
/* B's rows as landed: an MN-major tile lands in boxes of MN_ROWS rows, so at BN 16 (s) one box
 * of 32, its last 16 rows the next tile's or zeros, unread. */
#define BN_LAND (BNM && BN < MN_ROWS ? MN_ROWS : BN)
#define STAGE_E ((BM + BN_LAND) / 8 * SBO_E) /* elements of a stage */
/* s (sgemm_wgmma_ct): B's small parts, split from each landed stage into one of two buffers of
 * B's tile after the stages (the other is the one the step before's MMAs read); with B stored
 * K x N (BNM), which lands MN-major, B's words first copied K-major into two buffers of their own
 * (HI_AT) before the small parts' (LO_AT). */
#define BT_E (BN / 8 * SBO_E)
#define LO_BUFS (!W16 && TERMS == 3 ? 2 : 0)
#define HI_BUFS (!W16 && BNM ? 2 : 0)
#define HI_AT(p) (STAGES * STAGE_E + (p) * BT_E)
#define LO_AT(p) (STAGES * STAGE_E + (HI_BUFS + (p)) * BT_E)
#if W16
#define ST_ENTRY hgemm_wgmma_nt
#else
#define ST_ENTRY sgemm_wgmma_ct
#endif
/* The first n of 8 elements from src into dst by ordinary loads and stores, zeros after them. */
XW_INLINE void copy8(local elem *dst, global const elem *src, const int n)
{
#pragma unroll
    for (int e = 0; e < 8; e++)
        dst[e] = e < n ? src[e] : (elem)0;
}
#if GB_NVIDIA && !EMU
/* 16 bytes from src, of which the first bytes are copied and the rest zero-filled (src not
 * read where bytes is 0). */
XW_INLINE void copy16(local elem *dst, global const elem *src, const int bytes)
{
    GB_CP16(SMEM(dst, 0), src, bytes);
}
/* The same, all 16 bytes, in the form without the zero-fill operand (ZFILL=0). */
XW_INLINE void copy16_whole(local elem *dst, global const elem *src)
{
    GB_CP16_WHOLE(SMEM(dst, 0), src);
}
#else
XW_INLINE void copy16(local elem *dst, global const elem *src, const int bytes)
{
    copy8(dst, src, bytes / ES);
}
XW_INLINE void copy16_whole(local elem *dst, global const elem *src)
{
    copy16(dst, src, 16);
}
#endif

#if TMA
/* The tensor memory accelerator (TMA=1; bench/notes/wgmma.md#tma-probe-h200): a work-group makes
 * its own tensor maps, one per operand, from 128 zero bytes in local memory (every field written
 * by tensormap.replace: an OpenCL buffer's device address is known only to the kernel) and
 * publishes them to its slot of the workspace; then one work-item fills a stage: a K-major
 * operand with one box of BK k x TR rows through the swizzle of SWZ bytes, an MN-major one
 * (hgemm_wgmma_mn, sgemm_wgmma_ct's A in row-TT) with a box of MN_ROWS rows x BK k through the
 * 128-byte swizzle for each MN_ROWS rows (LBO_N apart): the tiles' layouts, zeros past the
 * matrix and past K. The stage's mbarrier counts its bytes, and the work-group waits on it where
 * the cp.async pipeline waits for its copy groups. All of it in deferred instructions
 * (sm_90a). */
/* A map's dimensions and box (inner first) for an operand of R rows of K elements: stored R x K
 * (K-major), boxes of BK k x TR rows; stored K x R (MN-major, mn), boxes of MN_ROWS rows x BK k. */
XW_INLINE int4 tma_shape(const int R, const int K, const int TR, const bool mn)
{
    return mn ? (int4)(R, K, MN_ROWS, BK) : (int4)(K, R, BK, TR);
}
#if EMU
/* The emulation (EMU=1, any device): a map is the numbers the kernel gives it (address, its two
 * dimensions, ld, its box), written by the work-group to its slot of the workspace; the copy
 * engine is the work-group copying a box from the map's numbers through the swizzle of the box's
 * row (SWZ bytes K-major, 128 MN-major), with zeros past the dimensions; the mbarrier a barrier.
 * It checks the kernel's side (the fields, the boxes' places, the stages, the workspace's
 * slots), not the hardware's encoding. */
XW_INLINE void tma_map(global ulong *map, global const elem *x, const int ld, const int4 sh)
{
    map[0] = (ulong)x;
    map[1] = (ulong)sh.x;
    map[2] = (ulong)sh.y;
    map[3] = (ulong)ld;
    map[4] = (ulong)sh.z;
    map[5] = (ulong)sh.w;
}
XW_INLINE void tma_setup(global ulong *gmap, global const elem *A, const int M, const int lda,
                         global const elem *B, const int N, const int ldb, const int K,
                         const int tid)
{
    if (tid == 0) {
        tma_map(gmap, A, lda, tma_shape(M, K, BM, ANM));
        tma_map(gmap + 16, B, ldb, tma_shape(N, K, BN, BNM));
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
}
/* The map's box at (c0, c1) (inner first) into dst, as the copy engine would: the box's rows
 * through the swizzle of their bytes, zeros past the map's dimensions. */
XW_INLINE void tma_box(local elem *dst, global const ulong *map, const int c0, const int c1,
                       const uint tid)
{
    global const elem *x = (global const elem *)map[0];
    const int d0 = (int)map[1], d1 = (int)map[2], ld = (int)map[3], b0 = (int)map[4],
              b1 = (int)map[5];
    for (int e = (int)tid; e < b0 * b1; e += NT) {
        const int i = e % b0, j = e / b0;
        const bool in = c0 + i < d0 && c1 + j < d1;
        dst[GB_SWIZZLE((j * b0 + i) * ES, b0 * ES) / ES] =
            in ? x[(size_t)(c1 + j) * ld + c0 + i] : 0;
    }
}
#else
#if GB_STORAGE == GB_STORAGE_FP16
#define TMA_ELEMTYPE "6" /* tensormap.replace's element types: .f16 is 6 */
#elif !W16
#define TMA_ELEMTYPE "7" /* .f32 */
#else
#define TMA_ELEMTYPE "10" /* .bf16 is 10 (9 is .f64; the CUDA driver's enum differs) */
#endif
#if SWZ == 32
#define TMA_SWIZZLE "1"
#elif SWZ == 64
#define TMA_SWIZZLE "2"
#else
#define TMA_SWIZZLE "3"
#endif
#define TMA_BYTES ((BM + BN_LAND) * BK * ES) /* a stage's bytes, all boxes whole */
/* The fields of the map at map (local memory, zeroed) of the operand at x, ld apart, of the
 * shape sh (tma_shape), through the swizzle of its box's rows (SWZ bytes K-major, 128 MN-major,
 * mn). */
XW_INLINE void tma_fields(const uint map, global const elem *x, const int ld, const int4 sh,
                          const bool mn)
{
    const ulong stride = (ulong)ld * ES;
    if (mn)
        GB_TMA_FIELDS(map, x, stride, sh, TMA_ELEMTYPE, "3");
    else
        GB_TMA_FIELDS(map, x, stride, sh, TMA_ELEMTYPE, TMA_SWIZZLE);
}
/* The work-group's maps of A (M x K) and B (N x K) made and published to gmap[0..32), its
 * STAGES mbarriers (bars) initialised, the maps acquired by the work-item that copies (tid 0).
 * All work-items call it. */
XW_INLINE void tma_setup(local uint4 *maps, global ulong *gmap, global const elem *A, const int M,
                         const int lda, global const elem *B, const int N, const int ldb,
                         const int K, local ulong *bars, const int tid)
{
    gb_tma_zero(maps, tid);
    if (tid == 0) {
        tma_fields(SMEM(maps, 0), A, lda, tma_shape(M, K, BM, ANM), ANM);
        tma_fields(SMEM(maps + 8, 0), B, ldb, tma_shape(N, K, BN, BNM), BNM);
    }
    gb_tma_ready(maps, gmap, bars, STAGES, tid);
}
/* The map's box at (c0, c1) (inner first) into dst, completing on the mbarrier at bar. */
XW_INLINE void tma_box(local elem *dst, global const ulong *map, const int c0, const int c1,
                       const uint bar)
{
    gb_tma_box(SMEM(dst, 0), map, c0, c1, bar);
}
#endif
/* One operand's tile of TR rows at (r0, k0) from the map at map: one box K-major, a box for
 * each MN_ROWS rows MN-major, LBO_N(TR) apart (to: the mbarrier, or under EMU the work-item). */
XW_INLINE void tma_tile(local elem *tile, global const ulong *map, const int k0, const int r0,
                        const int TR, const bool mn, const uint to)
{
    if (mn) {
#pragma unroll
        for (int g = 0; g < TR / MN_ROWS; g++)
            tma_box(tile + g * (LBO_N(TR) / ES), map, r0 + MN_ROWS * g, k0, to);
    } else {
        tma_box(tile, map, k0, r0, to);
    }
}
/* A stage's tiles at k0: A's at m0 from the map at gmap, B's at n0 from the one after it (to: as
 * tma_tile). */
XW_INLINE void tma_stage(local elem *stage, global const ulong *gmap, const int k0, const int m0,
                         const int n0, const uint to)
{
    tma_tile(stage, gmap, k0, m0, BM, ANM, to);
    tma_tile(stage + AT_E, gmap + 16, k0, n0, BN_LAND, BNM, to);
}
#if EMU
#define TMA_SETUP() tma_setup(gmap, A, M, lda, B, N, ldb, K, tid)
#define TMA_FILL(st, s)                                                                            \
    tma_stage(tiles + (st) * STAGE_E, gmap, (s0 + (s)) * BK, m0, n0, (uint)tid)
#define TMA_WAIT(st, parity) barrier(CLK_LOCAL_MEM_FENCE)
#else
/* Stage st's fill (tid 0): its bytes announced to its mbarrier, then its tiles. */
XW_INLINE void tma_fill(local elem *stage, local ulong *bar, global const ulong *gmap,
                        const int k0, const int m0, const int n0)
{
    const uint b = SMEM(bar, 0);
    gb_mbar_expect(b, TMA_BYTES);
    tma_stage(stage, gmap, k0, m0, n0, b);
}
#define TMA_SETUP() tma_setup(maps, gmap, A, M, lda, B, N, ldb, K, bars, tid)
#define TMA_FILL(st, s)                                                                            \
    do {                                                                                           \
        if (tid == 0)                                                                              \
            tma_fill(tiles + (st) * STAGE_E, bars + (st), gmap, (s0 + (s)) * BK, m0, n0);          \
    } while (0)
#define TMA_WAIT(st, parity) gb_mbar_wait(SMEM(bars + (st), 0), parity)
#endif
#endif

#if !W16
/* sgemm_wgmma_ct: the operand whose rows stream (the caller's B, as the route gives C^T = B A^T)
 * is the MMA's A operand from registers, split there, so its small parts cost no store; the
 * other (64 rows a tile) is read by the MMA from local memory, its big part the stage as landed
 * (the tensor core reads an FP32 word truncated, which is the split's big part) and its small
 * parts split once a step into a buffer of the same layout (bench/notes/thin.md#thin-ct-staged). */
/* Of a landed tile at st, this work-item's share of its n 16-byte pieces into lo, each piece's
 * small parts at its own place (so the swizzle and the zeros past the edges carry over). */
XW_INLINE void split_pieces(local elem *lo, local const elem *st, const int n, const int tid)
{
#pragma unroll
    for (int i = 0; i < (n + NT - 1) / NT; i++) {
        const int q = tid + NT * i;
        if (n % NT == 0 || q < n) {
            const float4 x = vload4(q, st);
            vstore4(small4(x), q, lo);
        }
    }
}
/* This lane's A fragments of a landed stage (at: its A tile, K-major rows of SWZ bytes through
 * their swizzle; with ANM, A stored K x M, MN-major: boxes of MN_ROWS rows, a k a 128-byte line
 * through its swizzle), split: register r of k8 block kb is row 16 w + g + 8 (r % 2) at k 8 kb
 * + t + 4 (r / 2), w the lane's warp in the work-group (its warp group's 64 rows). */
XW_INLINE void a_frags(local const elem *at, const int tid, uint big[NKB][4], uint sml[NKB][4])
{
    const int g = (tid & 31) >> 2, t = tid & 3, r0 = 16 * (tid >> 5) + g;
#pragma unroll
    for (int kb = 0; kb < NKB; kb++)
#pragma unroll
        for (int r = 0; r < 4; r++) {
            const int row = r0 + 8 * (r % 2), k = 8 * kb + t + 4 * (r / 2);
#if ANM
            const int e = MN_AT(BM, row, k);
#else
            const int e = GB_SWIZZLE(row * SWZ + k * ES, SWZ) / ES;
#endif
            split(at[e], &big[kb][r], &sml[kb][r]);
        }
}
#if BNM
/* B stored K x N: its landed tile at st is MN-major, which TF32's MMA does not read. This
 * work-item's share of it written K-major in the layout of a landed K-major tile: to hi the
 * words whole (the MMA reads them truncated: the big parts) and with TERMS 3 their small parts to
 * lo. Work-item q takes row n = q % BN at 4 k: four 4-byte reads (a warp's 32 at one k are one
 * 128-byte line), one 16-byte store a buffer (zeros past the edges carried over). */
XW_INLINE void split_mn(local elem *hi, local elem *lo, local const elem *st, const int tid)
{
#pragma unroll
    for (int i = 0; i < (BN * BK / 4 + NT - 1) / NT; i++) {
        const int q = tid + NT * i, n = q % BN, k = 4 * (q / BN);
        if ((BN * BK / 4) % NT == 0 || q < BN * BK / 4) {
            const float4 x = (float4)(st[MN_AT(BN, n, k)], st[MN_AT(BN, n, k + 1)],
                                      st[MN_AT(BN, n, k + 2)], st[MN_AT(BN, n, k + 3)]);
            const int e = GB_SWIZZLE(n * SWZ + k * ES, SWZ) / ES;
            vstore4(x, 0, hi + e);
#if TERMS == 3
            vstore4(small4(x), 0, lo + e);
#else
            (void)lo;
#endif
        }
    }
}
#endif
#endif

/* Where chunk q of a tile (16 bytes: 8 k of one row) comes from and goes: row *r of the tile,
 * k 8 *kc of the step, element *at of the tile. The copies move in units of one 128-byte line of
 * global memory into one 128-byte line of local memory: a warp's copy instruction costs a
 * local-memory wavefront (and its sectors) per such pair of lines among its 32 chunks
 * (bench/notes/wgmma.md#wgmma-zfill). With core matrices (SWZ 0) a row's chunks go to different
 * core matrices, so every chunk is a pair of its own: 32 wavefronts an instruction. There an
 * 8-row group's 8 CPR chunks are CPR runs of 8, each 8 / CPR rows CPR apart (whole 32-byte
 * sectors of a row side by side), and PADL = 1 spreads them over 8 bank groups. Swizzled (SWZ),
 * a row's CPR chunks are CPR work-items side by side, written into the row's SWZ bytes: 32 / CPR
 * rows, 128 / SWZ of them a line of local memory, so 128 / SWZ pairs of lines per 8
 * work-items. */
XW_INLINE void chunk_of(const int q, int *r, int *kc, int *at)
{
#if SWZ
    *r = q / CPR;
    *kc = q % CPR;
    *at = GB_SWIZZLE(*r * SWZ + 16 * *kc, SWZ) / ES;
#else
    const int g = q / (8 * CPR), w = q % (8 * CPR), l = w % 8;
    *r = 8 * g + w / 8 + CPR * (l / CPR);
    *kc = l % CPR;
    *at = g * SBO_E + *kc * (LBO_B / ES) + 8 * (*r % 8);
#endif
}

/* A work-item's chunks of a tile of TR rows: chunk q = tid + NT i (i < CH), whose row, k in the
 * step and place stay the same from step to step, so they are worked out once (p[i], at k 0;
 * at[i]; 16 bytes in full[i], 0 for a row past the matrix) and a step only moves along K: one
 * add and one copy a chunk, where working out each chunk's place every step cost the kernel more
 * instructions than its MMAs had cycles (bench/notes/wgmma.md#wgmma-copies). */
#define CHUNKS_OF(TR) ((TR) * CPR)
#define CH_OF(TR) ((CHUNKS_OF(TR) + NT - 1) / NT)
/* Whether chunk i of a tile of TR rows is this work-item's (all are where NT divides them). */
#define HAS_CHUNK(TR, i, tid) (CHUNKS_OF(TR) % NT == 0 || (tid) + NT * (i) < CHUNKS_OF(TR))
XW_INLINE void chunks_init(global const elem **p, int *at, int *full, const int ch, const int tr,
                           global const elem *x, const int ld, const int r0, const int R,
                           const int tid)
{
#pragma unroll
    for (int i = 0; i < ch; i++) {
        const int q = tid + NT * i;
        int r, kc;
        chunk_of(q, &r, &kc, &at[i]);
        const bool in = HAS_CHUNK(tr, i, tid) && r0 + r < R;
        full[i] = in ? 16 : 0;
        p[i] = x + (in ? (size_t)(r0 + r) * ld + 8 * kc : 0);
    }
}
/* Step k0's copies of one operand's chunks into its tile. Where the step lies inside K (whole),
 * each is 16 bytes or, for a row past the matrix, 16 zeros; in the last step the bytes past K
 * are zeros too (and nothing is read where no byte is). */
XW_INLINE void chunks_copy(local elem *tile, global const elem *const *p, const int *at,
                           const int *full, const int ch, const int tr, global const elem *x,
                           const int k0, const int K, const bool whole, const int tid)
{
#pragma unroll
    for (int i = 0; i < ch; i++) {
        if (!HAS_CHUNK(tr, i, tid))
            continue;
        if (whole) {
            if (!ZFILL && full[i])
                copy16_whole(tile + at[i], p[i] + k0);
            else
                copy16(tile + at[i], p[i] + k0, full[i]);
        } else {
            int r, kc, a;
            chunk_of(tid + NT * i, &r, &kc, &a);
            const int in = full[i] ? clamp(K - k0 - 8 * kc, 0, 8) : 0;
            copy16(tile + at[i], in ? p[i] + k0 : x, 2 * in);
        }
    }
}

#if ANM || BNM
/* An MN-major operand's chunks (hgemm_wgmma_mn), its tile of TR rows: chunk q is 8 rows at one
 * k (k = q / (TR / 8)), placed and pointed at (k 0 of the piece) once, as the K-major chunks
 * are; full: its bytes inside R (zero-filled past R's end); a step moves k0 rows of the stored
 * operand on, and in the last step a k past K copies zeros. */
XW_INLINE void mnchunks_init(global const elem **p, int *at, int *full, const int tr,
                             global const elem *x, const int ld, const int r0, const int R,
                             const int tid)
{
#pragma unroll
    for (int i = 0; i < CH_OF(tr); i++) {
        const int q = tid + NT * i, k = q / (tr / 8), r = 8 * (q % (tr / 8));
        at[i] = GB_SWIZZLE(k / 8 * SBO_N(tr) + r / 64 * LBO_N(tr) + k % 8 * 128 + r % 64 * ES, 128)
                / ES;
        full[i] = HAS_CHUNK(tr, i, tid) ? ES * clamp(R - r0 - r, 0, 8) : 0;
        p[i] = x + (full[i] ? (size_t)k * ld + r0 + r : 0);
    }
}
XW_INLINE void mnchunks_copy(local elem *tile, global const elem *const *p, const int *at,
                             const int *full, const int tr, global const elem *x,
                             const size_t off, const int k0, const int K, const bool whole,
                             const int tid)
{
#pragma unroll
    for (int i = 0; i < CH_OF(tr); i++) {
        if (!HAS_CHUNK(tr, i, tid))
            continue;
        if (whole && !ZFILL && full[i] == 16) {
            copy16_whole(tile + at[i], p[i] + off);
        } else {
            const int in = whole || k0 + (tid + NT * i) / (tr / 8) < K ? full[i] : 0;
            copy16(tile + at[i], in ? p[i] + off : x, in);
        }
    }
}
#endif

__attribute__((reqd_work_group_size(NT, 1, 1))) kernel void
ST_ENTRY(const int M, const int N, const int K, const float alpha,
         global const stored *restrict A0, const int offA, const int lda,
         global const stored *restrict B0, const int offB, const int ldb, const float beta,
         global stored *C, const int offC, const int ldc, global float *WS, const int D,
         const int PS CNT_ARG)
{
    local uint4 tiles4[(STAGES * STAGE_E + (HI_BUFS + LO_BUFS) * BT_E) * ES / 16]
        __attribute__((aligned(TILES_ALIGN)));
#if EMU && !W16
    local uint emu[NT * 4];
#endif
    local elem *tiles = (local elem *)tiles4;
#if TMA && !EMU
    local uint4 maps[16] __attribute__((aligned(128))); /* A's and B's maps being made */
    local ulong bars[STAGES];                           /* each stage's mbarrier */
#endif
#if FIXUP && SPLIT_CODE
    local uint last;
#endif
    RUNS_DECL
    /* A is stored M x K, B N x K (op(B) = B^T): both K-contiguous; in hgemm_wgmma_mn A may be
     * stored K x M (op(A) = A^T) and B K x N. */
    global const elem *A = (global const elem *)A0 + offA;
    global const elem *B = (global const elem *)B0 + offB;
    const int tid = (int)get_local_id(0), t = tid & 3, wg = tid >> 7;
    int m0, n0, row, s0, steps;
    uint np, slot;
    const bool edge = piece_place(M, N, K, tid, D, PS, &m0, &n0, &row, &np, &slot, &s0, &steps);
#if TMA
    /* This work-group's maps: 256 bytes of the workspace after the pieces' sums (the metadata's
     * workspace). */
    const size_t sums = PS > 1 ? (size_t)PS * (tile_count(M, N) - D) * BM * BN : 0;
    global ulong *gmap = (global ulong *)(WS + sums) + 32 * get_group_id(0);
    TMA_SETUP();
#else
    global const elem *pa[CH_OF(BM)], *pb[CH_OF(BN)];
    int ata[CH_OF(BM)], atb[CH_OF(BN)], fa[CH_OF(BM)], fb[CH_OF(BN)];
#if ANM
    mnchunks_init(pa, ata, fa, BM, A, lda, m0, M, tid);
#else
    chunks_init(pa, ata, fa, CH_OF(BM), BM, A, lda, m0, M, tid);
#endif
#if BNM
    mnchunks_init(pb, atb, fb, BN, B, ldb, n0, N, tid);
#else
    chunks_init(pb, atb, fb, CH_OF(BN), BN, B, ldb, n0, N, tid);
#endif
#endif
    float acc[NACC];
    SUMS_INIT(acc);
#if KACC
    float sacc[NACC]; /* the sums of KACC steps, from zero in the tensor core */
#define SUMS sacc
#else
#define SUMS acc
#endif
#if ANM
#define COPY_A(st, k0, whole) \
    mnchunks_copy(st, pa, ata, fa, BM, A, (size_t)(k0) * lda, k0, K, whole, tid)
#else
#define COPY_A(st, k0, whole) chunks_copy(st, pa, ata, fa, CH_OF(BM), BM, A, k0, K, whole, tid)
#endif
#if BNM
#define COPY_B(st, k0, whole) \
    mnchunks_copy(st, pb, atb, fb, BN, B, (size_t)(k0) * ldb, k0, K, whole, tid)
#else
#define COPY_B(st, k0, whole) chunks_copy(st, pb, atb, fb, CH_OF(BN), BN, B, k0, K, whole, tid)
#endif
/* The piece's step s's copies into stage st, in 16-byte chunks (A's and B's rows are
 * 16-byte aligned: the metadata's ld_multiple_of), or with TMA one box of each by tid 0. */
#if TMA
#define COPY_STEP(st, s) TMA_FILL(st, s)
#else
#define COPY_STEP(st, s)                                                                           \
    do {                                                                                           \
        const int k0_ = (s0 + (s)) * BK;                                                           \
        const bool whole_ = k0_ + BK <= K;                                                         \
        COPY_A(tiles + (st) * STAGE_E, k0_, whole_);                                               \
        COPY_B(tiles + (st) * STAGE_E + AT_E, k0_, whole_);                                        \
    } while (0)
#endif
    for (int s = 0; s < AHEAD; s++) {
        if (s < steps)
            COPY_STEP(s, s);
        copies_commit();
    }
    /* The descriptors of stage 0's A (this warp group's 64 rows: 8-row groups SBO apart, the
     * next 8 k LBO on) and B; a stage or an MMA's 16 k further is an address further, in the
     * descriptor's 16-byte units. */
#if ANM && W16
    /* MN-major: this warp group's 64 rows are one atom's. */
    const ulong da0 =
        descriptor_of(SMEM(tiles + wg * (LBO_N(BM) / ES), tiles), LBO_N(BM), SBO_N(BM)) | DESC_MN;
#elif W16
    const ulong da0 =
        descriptor_of(SMEM(tiles + 8 * SBO_E * wg, tiles), LBO_B, SBO_E * ES) | DESC_SWZ;
#else
    (void)wg; /* s: A from registers (a_frags) */
#endif
#if BNM && W16
    const ulong db0 = descriptor_of(SMEM(tiles + AT_E, tiles), LBO_N(BN), SBO_N(BN)) | DESC_MN;
#elif BNM
    /* s: B's K-major copy of step 0 (split_mn); the next step's is BT_E further. */
    const ulong db0 = descriptor_of(SMEM(tiles + HI_AT(0), tiles), LBO_B, SBO_E * ES) | DESC_SWZ;
#else
    const ulong db0 = descriptor_of(SMEM(tiles + AT_E, tiles), LBO_B, SBO_E * ES) | DESC_SWZ;
#endif
    int cur = 0, nxt = AHEAD % STAGES; /* the stages of step s and of step s + AHEAD */
#if TMA
/* Stage st of step s landed: its phase (s / STAGES), written by the async proxy that the MMAs
 * read through; in s, B's small parts then split into step s's buffer (with BNM B's words and
 * small parts, K-major, into step s's two). */
#if !W16 && BNM
#define SPLIT_STEP(st, s)                                                                          \
    split_mn(tiles + HI_AT((s) % 2), tiles + LO_AT((s) % 2), tiles + (st) * STAGE_E + AT_E, tid)
#elif !W16 && TERMS == 3
#define SPLIT_STEP(st, s)                                                                          \
    split_pieces(tiles + LO_AT((s) % 2), tiles + (st) * STAGE_E + AT_E, BT_E / 4, tid)
#endif
#ifdef SPLIT_STEP
#define LAND(st, s)                                                                                \
    do {                                                                                           \
        TMA_WAIT(st, (uint)((s) / STAGES) & 1u);                                                   \
        SPLIT_STEP(st, s);                                                                         \
        PROXY_FENCE();                                                                             \
    } while (0)
#else
#define LAND(st, s) TMA_WAIT(st, (uint)((s) / STAGES) & 1u)
#endif
#if OVERLAP
    if (steps > 0)
        LAND(0, 0);
#endif
#endif
    for (int s = 0; s < steps; s++) {
#if TMA
#if !OVERLAP
        LAND(cur, s);
#endif
#if !W16
        /* s: this lane's A fragments, split in registers. */
        uint abig[NKB][4], asml[NKB][4];
        a_frags(tiles + cur * STAGE_E, tid, abig, asml);
#endif
#else
        COPIES_WAIT();
        PROXY_FENCE();
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        WG_FENCE();
#if !W16 && BNM
        /* B's K-major copy of step s, and its small parts from there on. */
        const ulong so = (ulong)(s % 2 * (BT_E * ES / 16));
#if TERMS == 3
        const ulong lo = (ulong)((LO_AT(0) - HI_AT(0)) * ES / 16);
#endif
#else
        const ulong so = (ulong)(cur * (STAGE_E * ES / 16));
#if !W16 && TERMS == 3
        /* B's small parts, from B's tile of stage cur on. */
        const ulong lo = (ulong)((LO_AT(s % 2) - cur * STAGE_E - AT_E) * ES / 16);
#endif
#endif
#pragma unroll
        for (int kb = 0; kb < NKB; kb++) {
            /* Two core matrices of K per MMA. */
            const ulong db = db0 + so + KB_STEP_B * kb;
            const int first = kb > 0 || (KACC ? s % KACC != 0 : s > 0);
#if W16
            WGMMA_SS(SUMS, da0 + so + KB_STEP_A * kb, db, first);
#elif TERMS == 3
            WGMMA(SUMS, asml[kb], db, first);
            WGMMA(SUMS, abig[kb], db + lo, 1);
            WGMMA(SUMS, abig[kb], db, 1);
#else
            WGMMA(SUMS, abig[kb], db, first);
#endif
        }
        WG_COMMIT();
        /* Step s + AHEAD into the stage of step s - 1 - INFLIGHT, whose MMAs every warp group
         * waited for before the barrier. */
        if (s + AHEAD < steps)
            COPY_STEP(nxt, s + AHEAD);
        copies_commit();
        cur = cur + 1 == STAGES ? 0 : cur + 1;
        nxt = nxt + 1 == STAGES ? 0 : nxt + 1;
#if OVERLAP
        /* The next step's stage (cur now) waited for, and its small parts split into the other
         * buffer, while this step's MMAs run. */
        if (s + 1 < steps)
            LAND(cur, s + 1);
#endif
#if INFLIGHT && KACC
        /* The tensor core's sums are read only at the end of a group of KACC steps: there all
         * MMAs are waited for, elsewhere all but this step's. */
        if (sums_due(s, steps)) {
            WGMMA_WAIT(SUMS);
            ADD_SUMS(s, steps);
        } else {
            WGMMA_WAIT1(SUMS);
        }
#elif INFLIGHT
        WGMMA_WAIT1(SUMS);
#else
        WGMMA_WAIT(SUMS);
#if KACC
        ADD_SUMS(s, steps);
#endif
#endif
    }
#undef COPY_STEP
#undef LAND
#undef SPLIT_STEP
#undef COPY_A
#undef COPY_B
#if INFLIGHT
    WGMMA_WAIT(SUMS);
#endif
#undef SUMS
    SUMS_FINAL(acc);
    if (np > 1) {
        store_piece(WS, slot, row, m0, t, acc);
#if FIXUP && SPLIT_CODE
        /* Split tile i's np pieces are slots i np .. i np + np - 1 (gb_tile_piece); its
         * counter is CNT[i]. */
        const uint tile = slot / np;
        if (gb_piece_last(CNT + tile, np, &last))
            gb_piece_finish(WS + (size_t)tile * np * (BM * BN), (int)np, C, offC, ldc, m0, n0, M, N,
                            BM, BN, tid, NT, alpha, beta);
#endif
        return;
    }
    /* acc[4j + 2h + e] is C[row + 8h][n0 + 8j + 2t + e]. */
    store_c_each(C, offC, ldc, M, N, row, n0, t, edge, acc, alpha, beta);
}

#endif

/* wgmma_sum: after a launch with split tiles (PS > 1), each element of such a tile from its PS
 * pieces, added in FP32 in a fixed order (gb_piece_sum), then alpha and beta, rounded once to the
 * storage format. One work-item per element; dimension 0 is the column, so neighbours read
 * neighbouring sums. */
kernel void wgmma_sum(const int M, const int N, const int K, const float alpha,
                      global const stored *restrict A0, const int offA, const int lda,
                      global const stored *restrict B0, const int offB, const int ldb,
                      const float beta, global stored *C, const int offC, const int ldc,
                      global const float *WS, const int D, const int PS CNT_ARG)
{
    gb_piece_update(WS, C, offC, ldc, (int)get_global_id(1), (int)get_global_id(0), M, N, BM, BN,
                    GROUPM, EDGES, (uint)D, PS, alpha, beta);
}
