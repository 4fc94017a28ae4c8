/* intel_block_read.cl: the Intel SGEMM sample's block_read kernels (block_read_32x2_1x8 ...
 * block_read_4x1_1x8), rewritten here from their technique: column-major C = alpha*A*B + beta*C
 * where A and B are read as 2D images made over the same memory as their buffers, with the
 * sub-group block reads of cl_intel_subgroups, and B is shared inside a sub-group with
 * intel_sub_group_shuffle.
 *
 * The images (made by the harness, docs/intel-kernels.md) hold one 32-bit element per pixel:
 * pixel (x, y) of imgA is A(x, y), of imgB is B(x, y), i.e. x runs down a column and y picks the
 * column. intel_sub_group_block_readN(img, (int2)(4*x, y)) gives lane l of the sub-group the
 * pixels (x + l, y), (x + l, y + 1), ... (x + l, y + N - 1) as the N components of its result:
 * the byte x-coordinate is 4 per element, and the components walk down the image's rows.
 *
 * The layout of the work is that of intel_simd.cl, with SG fixed at 8: a work-group is 8 x LY
 * work-items, LY sub-groups of 8 (intel_reqd_sub_group_size(8)); lane l computes TM x TN of C,
 * rows rowg + l + 8*i and its sub-group's TN columns. For each 8 steps k0 .. k0+7 along K:
 *  - one block read of TN rows of imgB at (4*k0, col0) gives lane l B(k0 + l, col0 + c) for
 *    c < TN, and 8 shuffles per column give every lane B(k0 + kk, col0 + c) for each kk;
 *  - for each i, one block read of 8 rows of imgA at (4*(rowg + 8*i), k0) gives lane l
 *    A(rowg + 8*i + l, k0 + kk) for kk < 8, which it multiplies by those values of B.
 * Preset names read rows x columns per work-item _ work-group shape LY x 8.
 *
 * With EMULATE_BLOCK_READ=1 each block read is replaced by what the extension defines it to
 * return, one read_imageui per component at x = byte_x/4 + lane; this exists only to check the
 * kernel's indexing on drivers that have sub-group shuffles but no image block reads (PoCL),
 * and is not what the sample times. The harness pads M to a multiple of 8*TM, N of TN*LY and K
 * of 8, so every block read lies inside its image and every work-item runs every shuffle. */
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 2
#endif
#ifndef SG
#define SG 8
#endif
#ifndef LY
#define LY 1
#endif
#ifndef EMULATE_BLOCK_READ
#define EMULATE_BLOCK_READ 0
#endif

#if SG != 8
#error "intel_block_read.cl reads 8 steps of K per block read of A: SG must be 8"
#endif

#if EMULATE_BLOCK_READ
/* Row `row` of a block read at byte coordinate xy, as lane get_sub_group_local_id() sees it. */
uint gb_block_read_row(read_only image2d_t img, int2 xy, int row)
{
    return read_imageui(img, (int2)(xy.x / 4 + (int)get_sub_group_local_id(), xy.y + row)).x;
}
#define BLOCK_READ1(img, xy) gb_block_read_row(img, xy, 0)
#define BLOCK_READ2(img, xy) (uint2)(BLOCK_READ1(img, xy), gb_block_read_row(img, xy, 1))
#define BLOCK_READ4(img, xy) \
    (uint4)(BLOCK_READ2(img, xy), gb_block_read_row(img, xy, 2), gb_block_read_row(img, xy, 3))
#define BLOCK_READ8(img, xy)                                                                 \
    (uint8)(BLOCK_READ4(img, xy), gb_block_read_row(img, xy, 4), gb_block_read_row(img, xy, 5), \
            gb_block_read_row(img, xy, 6), gb_block_read_row(img, xy, 7))
#else
#define BLOCK_READ1 intel_sub_group_block_read
#define BLOCK_READ2 intel_sub_group_block_read2
#define BLOCK_READ4 intel_sub_group_block_read4
#define BLOCK_READ8 intel_sub_group_block_read8
#endif

/* Reads TN rows of an image into the private array out[TN], as floats. */
#if TN == 1
#define READ_TN(img, xy, out) ((out)[0] = as_float(BLOCK_READ1(img, xy)))
#elif TN == 2
#define READ_TN(img, xy, out) vstore2(as_float2(BLOCK_READ2(img, xy)), 0, out)
#elif TN == 4
#define READ_TN(img, xy, out) vstore4(as_float4(BLOCK_READ4(img, xy)), 0, out)
#elif TN == 8
#define READ_TN(img, xy, out) vstore8(as_float8(BLOCK_READ8(img, xy)), 0, out)
#else
#error "TN must be 1, 2, 4 or 8"
#endif

kernel __attribute__((intel_reqd_sub_group_size(SG)))
__attribute__((reqd_work_group_size(SG, LY, 1)))
void intel_block_read(const int M, const int N, const int K, const float alpha,
                      read_only image2d_t imgA, read_only image2d_t imgB, const float beta,
                      global float *C, const int offC, const int ldc)
{
    const int lane = (int)get_sub_group_local_id();
    const int rowg = (int)get_group_id(0) * (SG * TM);
    const int col0 = ((int)get_group_id(1) * LY + (int)get_sub_group_id()) * TN;
    float acc[TN][TM];
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int i = 0; i < TM; i++)
            acc[c][i] = 0;
    for (int k0 = 0; k0 < K; k0 += SG) {
        float bl[TN], bk[TN][SG];
        READ_TN(imgB, (int2)(k0 * 4, col0), bl);
#pragma unroll
        for (int c = 0; c < TN; c++)
#pragma unroll
            for (int kk = 0; kk < SG; kk++)
                bk[c][kk] = intel_sub_group_shuffle(bl[c], (uint)kk);
#pragma unroll
        for (int i = 0; i < TM; i++) {
            float a8[8];
            vstore8(as_float8(BLOCK_READ8(imgA, (int2)((rowg + SG * i) * 4, k0))), 0, a8);
#pragma unroll
            for (int kk = 0; kk < SG; kk++)
#pragma unroll
                for (int c = 0; c < TN; c++)
                    acc[c][i] = fma(a8[kk], bk[c][kk], acc[c][i]);
        }
    }
    global float *cp = C + offC + col0 * ldc + rowg + lane;
#pragma unroll
    for (int c = 0; c < TN; c++)
#pragma unroll
        for (int i = 0; i < TM; i++)
            GB_UPDATE(cp[c * ldc + SG * i], acc[c][i], alpha, beta);
}
