/* tma-probe.c: whether a kernel can make its own tensor map and copy a tile with the tensor memory
 * accelerator (cp.async.bulk.tensor) under NVIDIA's OpenCL, whose buffers' device addresses the
 * host never sees (bench/notes/wgmma.md#tma-route). One PTX kernel (sm_90a), run under the CUDA
 * driver and then under NVIDIA's OpenCL: warp 0 takes a template map from the workspace, writes
 * the matrix's address into it (tensormap.replace; with "all", every field, on a zeroed
 * template), publishes it with tensormap.cp_fenceproxy, and one work-item copies a 64 x 64 FP16
 * tile at (R0, C0) of a 4096 x 4096 matrix into local memory under an mbarrier; the work-group
 * writes the tile out, which the host compares with the matrix. A copy that never completes gives
 * up after about 4 M polls and leaves the output as it was (all 0xffff).
 *
 * Routes: "host": the template encoded by cuTensorMapEncodeTiled with a dummy address; "host all2"
 * and "host all1": the same encoded with 64 x 64 dims, every field replaced in the kernel, the rank
 * written as 2 or 1 (which checks the encodings the replacements take: the ISA does not state the
 * rank's); "zero rank2" and "zero rank1": 128 zero bytes, every field replaced; "zero map": the
 * same map made and published, no copy, the published bytes printed; "bulk 1d": one 128-byte
 * cp.async.bulk a row of the tile, the map made but not used; "bulk only": the same, no
 * tensormap instruction at all; "launch only": none and no copy (the kernel launched and left);
 * "mbar only": no copy, the mbarrier arrived at and waited on (the tile's check meaningless);
 * "bulk cta" and "tensor cta": "bulk only" and "zero rank1" with the copies' destination named
 * as the CTA's shared memory (PTX 8.6) instead of the cluster's; "... nocl": the same with no
 * fence of cluster scope (the barrier's initialisation fenced for the async proxy instead);
 * "shared64" and "shared32": each work-item's index stored to local memory and read back, the
 * address in 64 or in 32 bits (the first 32 printed). Each runtime and route runs in a process
 * of its own. Measured: bench/notes/wgmma.md#tma-probe-h200.
 *
 *   cc -O2 -o tma-probe bench/tma-probe.c -I/usr/local/cuda/include \
 *      -L/usr/local/cuda/lib64/stubs -lcuda -lOpenCL
 *   tma-probe            (one line a runtime and route: elements right of 4096)
 *   tma-probe --ptx      (the kernel's PTX, for ptxas)
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { ROWS = 4096, COLS = 4096, TILE = 64, R0 = 100, C0 = 72, THREADS = 128 };

static const char ptx[] =
    ".version 8.6\n"
    ".target sm_90a\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry tma_probe(\n"
    /* .ptr .global, as NVIDIA's OpenCL compiler declares a buffer: with plain .u64 parameters
       (and without texmode_independent) the kernel faulted at its first global access under
       OpenCL (bench/notes/wgmma.md#tma-probe-h200) */
    "    .param .u64 .ptr .global .align 16 p_a,\n"
    "    .param .u64 .ptr .global .align 16 p_out,\n"
    "    .param .u64 .ptr .global .align 16 p_ws,\n"
    "    .param .u32 p_r0,\n"
    "    .param .u32 p_c0,\n"
    "    .param .u32 p_all,\n"
    "    .param .u32 p_rows,\n"
    "    .param .u32 p_cols,\n"
    "    .param .u64 p_stride,\n"
    "    .param .u32 p_rank)\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<32>;\n"
    "    .reg .b64 %rd<20>;\n"
    "    .shared .align 128 .b8 tmap_s[128];\n"
    "    .shared .align 128 .b8 tile[8192];\n"
    "    .shared .align 8 .b64 bar;\n"
    "\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    ld.param.u64 %rd1, [p_a];\n"
    "    ld.param.u64 %rd2, [p_out];\n"
    "    ld.param.u64 %rd3, [p_ws];\n"
    "    ld.param.u32 %r2, [p_r0];\n"
    "    ld.param.u32 %r3, [p_c0];\n"
    "    ld.param.u32 %r4, [p_all];\n"
    "    add.s64 %rd8, %rd3, 128;\n"
    "    mov.u64 %rd6, tmap_s;\n"
    "    and.b32 %r24, %r4, 128;\n"
    "    setp.ne.u32 %p1, %r24, 0;\n"
    "    @%p1 bra SHTEST;\n"
    "    and.b32 %r18, %r4, 8;\n"
    "    setp.ne.u32 %p1, %r18, 0;\n" /* no map made, none acquired */
    "    @%p1 bra NO_MAP;\n"
    "    setp.ge.u32 %p1, %r1, 32;\n"
    "    @%p1 bra MAP_MADE;\n"
    "    setp.ge.u32 %p2, %r1, 8;\n"
    "    @%p2 bra TEMPLATE_DONE;\n"
    "    mul.wide.u32 %rd4, %r1, 16;\n"
    "    add.s64 %rd5, %rd3, %rd4;\n"
    "    ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd5];\n"
    "    add.s64 %rd7, %rd6, %rd4;\n"
    "    st.shared.v4.u32 [%rd7], {%r5, %r6, %r7, %r8};\n"
    "TEMPLATE_DONE:\n"
    "    bar.warp.sync -1;\n"
    "    setp.ne.u32 %p2, %r1, 0;\n"
    "    @%p2 bra REPLACED;\n"
    "    tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%rd6], %rd1;\n"
    "    and.b32 %r13, %r4, 1;\n"
    "    setp.eq.u32 %p3, %r13, 0;\n"
    "    @%p3 bra REPLACED;\n"
    "    ld.param.u32 %r10, [p_rank];\n"
    "    ld.param.u32 %r11, [p_cols];\n"
    "    ld.param.u32 %r12, [p_rows];\n"
    "    ld.param.u64 %rd9, [p_stride];\n"
    "    tensormap.replace.tile.rank.shared::cta.b1024.b32 [%rd6], %r10;\n"
    "    tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd6], 0, %r11;\n"
    "    tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%rd6], 1, %r12;\n"
    "    tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%rd6], 0, %rd9;\n"
    "    tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd6], 0, 64;\n"
    "    tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%rd6], 1, 64;\n"
    "    tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd6], 0, 1;\n"
    "    tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%rd6], 1, 1;\n"
    "    tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%rd6], 6;\n"
    "    tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%rd6], 0;\n"
    "    tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%rd6], 0;\n"
    "    tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%rd6], 0;\n"
    "REPLACED:\n"
    "    bar.warp.sync -1;\n"
    "    tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned "
    "[%rd8], [%rd6], 128;\n"
    "MAP_MADE:\n"
    "    bar.sync 0;\n"
    "NO_MAP:\n"
    "    and.b32 %r14, %r4, 2;\n"
    "    setp.ne.u32 %p2, %r14, 0;\n"
    "    @%p2 ret;\n"
    "    setp.ne.u32 %p3, %r18, 0;\n"
    "    @%p3 bra ACQUIRED;\n"
    "    fence.proxy.tensormap::generic.acquire.gpu [%rd8], 128;\n"
    "ACQUIRED:\n"
    "    mov.u64 %rd10, bar;\n"
    "    mov.u64 %rd11, tile;\n"
    "    setp.ne.u32 %p2, %r1, 0;\n"
    "    @%p2 bra ISSUED;\n"
    "    mbarrier.init.shared::cta.b64 [%rd10], 1;\n"
    "    and.b32 %r23, %r4, 64;\n"
    "    setp.ne.u32 %p2, %r23, 0;\n"
    "    @%p2 bra INIT_CTA;\n"
    "    fence.mbarrier_init.release.cluster;\n"
    "    bra.uni INIT_DONE;\n"
    "INIT_CTA:\n" /* no fence of cluster scope: the barrier's initialisation made visible to the
                     copy engine by the async proxy's fence (and to the threads by bar.sync) */
    "    fence.proxy.async.shared::cta;\n"
    "INIT_DONE:\n"
    "    and.b32 %r21, %r4, 32;\n"
    "    setp.ne.u32 %p2, %r21, 0;\n"
    "    @%p2 bra ARRIVE_ONLY;\n"
    "    mbarrier.arrive.expect_tx.shared::cta.b64 %rd12, [%rd10], 8192;\n"
    "    and.b32 %r22, %r4, 16;\n"
    "    setp.ne.u32 %p1, %r22, 0;\n" /* %p1: the copies name the CTA's shared memory */
    "    and.b32 %r15, %r4, 4;\n"
    "    setp.ne.u32 %p2, %r15, 0;\n"
    "    @%p2 bra BULK;\n"
    "    @%p1 bra TENSOR_CTA;\n"
    "    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd11], "
    "[%rd8, {%r3, %r2}], [%rd10];\n"
    "    bra.uni ISSUED;\n"
    "TENSOR_CTA:\n"
    "    cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes [%rd11], "
    "[%rd8, {%r3, %r2}], [%rd10];\n"
    "    bra.uni ISSUED;\n"
    "ARRIVE_ONLY:\n"
    "    mbarrier.arrive.shared::cta.b64 %rd12, [%rd10];\n"
    "    bra.uni ISSUED;\n"
    "BULK:\n" /* one 128-byte bulk copy a row, no map */
    "    mov.u32 %r16, 0;\n"
    "    ld.param.u32 %r11, [p_cols];\n"
    "    cvt.u64.u32 %rd17, %r3;\n"
    "BULK_ROW:\n"
    "    add.u32 %r17, %r2, %r16;\n"
    "    mul.wide.u32 %rd16, %r17, %r11;\n"
    "    add.s64 %rd16, %rd16, %rd17;\n"
    "    shl.b64 %rd16, %rd16, 1;\n"
    "    add.s64 %rd16, %rd1, %rd16;\n"
    "    mul.wide.u32 %rd18, %r16, 128;\n"
    "    add.s64 %rd18, %rd11, %rd18;\n"
    "    @%p1 bra BULK_CTA;\n"
    "    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd18], [%rd16], 128, "
    "[%rd10];\n"
    "    bra.uni BULK_NEXT;\n"
    "BULK_CTA:\n"
    "    cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd18], [%rd16], 128, "
    "[%rd10];\n"
    "BULK_NEXT:\n"
    "    add.u32 %r16, %r16, 1;\n"
    "    setp.lt.u32 %p3, %r16, 64;\n"
    "    @%p3 bra BULK_ROW;\n"
    "ISSUED:\n"
    "    bar.sync 0;\n"
    "    mov.u32 %r20, 0;\n"
    "WAIT:\n"
    "    mbarrier.try_wait.parity.shared::cta.b64 %p2, [%rd10], 0;\n"
    "    @%p2 bra ARRIVED;\n"
    "    add.u32 %r20, %r20, 1;\n"
    "    setp.lt.u32 %p3, %r20, 4194304;\n"
    "    @%p3 bra WAIT;\n"
    "    ret;\n"
    "ARRIVED:\n"
    "    mul.wide.u32 %rd13, %r1, 64;\n"
    "    add.s64 %rd14, %rd11, %rd13;\n"
    "    add.s64 %rd15, %rd2, %rd13;\n"
    "    ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%rd14];\n"
    "    st.global.v4.u32 [%rd15], {%r5, %r6, %r7, %r8};\n"
    "    ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%rd14+16];\n"
    "    st.global.v4.u32 [%rd15+16], {%r5, %r6, %r7, %r8};\n"
    "    ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%rd14+32];\n"
    "    st.global.v4.u32 [%rd15+32], {%r5, %r6, %r7, %r8};\n"
    "    ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%rd14+48];\n"
    "    st.global.v4.u32 [%rd15+48], {%r5, %r6, %r7, %r8};\n"
    "    ret;\n"
    "SHTEST:\n" /* each work-item's index through local memory, addressed in 64 or 32 bits */
    "    and.b32 %r25, %r4, 256;\n"
    "    setp.ne.u32 %p2, %r25, 0;\n"
    "    mul.wide.u32 %rd19, %r1, 4;\n"
    "    @%p2 bra SH32;\n"
    "    mov.u64 %rd11, tile;\n"
    "    add.s64 %rd13, %rd11, %rd19;\n"
    "    st.shared.u32 [%rd13], %r1;\n"
    "    bar.sync 0;\n"
    "    ld.shared.u32 %r26, [%rd13];\n"
    "    bra.uni SHOUT;\n"
    "SH32:\n"
    "    mov.u32 %r27, tile;\n"
    "    shl.b32 %r28, %r1, 2;\n"
    "    add.u32 %r27, %r27, %r28;\n"
    "    st.shared.u32 [%r27], %r1;\n"
    "    bar.sync 0;\n"
    "    ld.shared.u32 %r26, [%r27];\n"
    "SHOUT:\n"
    "    add.s64 %rd14, %rd2, %rd19;\n"
    "    st.global.u32 [%rd14], %r26;\n"
    "    ret;\n"
    "}\n";

/* The kernel's mode bits (its parameter p_all), one a step the routes tell apart. */
enum {
    ALL = 1,         /* every field of the map replaced, not only the address */
    NO_COPY = 2,     /* return once the map is published (its bytes printed) */
    BULK = 4,        /* one 1-D cp.async.bulk a row instead of the tensor copy */
    NO_MAP = 8,      /* no tensormap instruction at all */
    CTA = 16,        /* the copies' destination named as the CTA's shared memory (PTX 8.6) */
    MBAR_ONLY = 32,  /* the mbarrier arrived at and waited on, no copy */
    NO_CLUSTER = 64, /* the barrier's initialisation fenced for the async proxy, not the cluster */
    SHARED = 128,    /* each work-item's index through local memory, nothing else */
    SHARED32 = 256,  /* with SHARED: the address in 32 bits */
};

static const struct {
    const char *name;
    int all, rank; /* the mode bits; the rank written where ALL */
    int tmpl; /* 1: the host-encoded template (64 x 64 dims, so every field must be replaced) */
} routes[] = {
    {"host", 0, 0, 0},
    {"host all2", ALL, 2, 1},
    {"host all1", ALL, 1, 1},
    {"zero rank2", ALL, 2, 0},
    {"zero rank1", ALL, 1, 0},
    {"zero map", ALL | NO_COPY, 1, 0},
    {"bulk 1d", BULK, 1, 0},
    {"bulk only", BULK | NO_MAP, 1, 0},
    {"launch only", NO_MAP | NO_COPY, 1, 0},
    {"mbar only", NO_MAP | MBAR_ONLY, 1, 0},
    {"bulk cta", BULK | NO_MAP | CTA, 1, 0},
    {"tensor cta", ALL | CTA, 1, 0},
    {"mbar nocl", NO_MAP | MBAR_ONLY | NO_CLUSTER, 1, 0},
    {"bulk nocl", BULK | NO_MAP | CTA | NO_CLUSTER, 1, 0},
    {"tensor nocl", ALL | CTA | NO_CLUSTER, 1, 0},
    {"host nocl", NO_CLUSTER, 0, 0},
    {"shared64", SHARED | NO_COPY, 0, 0},
    {"shared32", SHARED | SHARED32 | NO_COPY, 0, 0},
};

static uint16_t element(int r, int c)
{
    return (uint16_t)((r * 131 + c * 7) & 0x7bff); /* finite FP16 bits; only moved, never summed */
}

/* Elements of the 64 x 64 tile at (R0, C0) that out holds right. */
static int right(const uint16_t *out)
{
    int n = 0;
    for (int r = 0; r < TILE; r++)
        for (int c = 0; c < TILE; c++)
            n += out[r * TILE + c] == element(R0 + r, C0 + c);
    return n;
}

/* The template of a route: the host-encoded map with a dummy address (the matrix's dims, or with
 * "all" 64 x 64 ones that the kernel must replace), or 128 zero bytes. cuInit first: under
 * OpenCL no CUDA call has been made in this process. */
static int template_of(size_t route, unsigned char map[128])
{
    memset(map, 0, 128);
    if ((routes[route].all & ALL) && !routes[route].tmpl)
        return 1;
    CUdevice dev;
    CUcontext ctx = NULL;
    if (cuInit(0) == CUDA_SUCCESS && cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && !ctx &&
        cuDeviceGet(&dev, 0) == CUDA_SUCCESS && cuDevicePrimaryCtxRetain(&ctx, dev) == CUDA_SUCCESS)
        cuCtxSetCurrent(ctx);
    CUtensorMap m;
    const int small = routes[route].all & ALL;
    cuuint64_t dims[2] = {small ? 64 : COLS, small ? 64 : ROWS},
               strides[1] = {small ? 128 : COLS * 2};
    cuuint32_t box[2] = {TILE, TILE}, estr[2] = {1, 1};
    CUresult r = cuTensorMapEncodeTiled(
        &m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, (void *)(uintptr_t)0x100000, dims, strides, box,
        estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
        CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "tma-probe: cuTensorMapEncodeTiled failed (%d)\n", (int)r);
        return 0;
    }
    memcpy(map, &m, 128);
    return 1;
}

static void report(const char *runtime, const char *route, const uint16_t *out)
{
    const int n = right(out);
    printf("%-7s %-11s %4d of %d right", runtime, route, n, TILE * TILE);
    if (n < TILE * TILE)
        printf(" (first: %04x, want %04x)", out[0], element(R0, C0));
    printf("\n");
}

/* The map the kernel published, as 16 hexadecimal 64-bit words (the "zero map" route). */
static void report_map(const char *runtime, const char *route, const unsigned char map[128])
{
    printf("%-7s %-11s", runtime, route);
    for (int w = 0; w < 16; w++) {
        uint64_t v;
        memcpy(&v, map + 8 * w, 8);
        printf(" %016llx", (unsigned long long)v);
    }
    printf("\n");
}

/* Route i's line: the first words of out (SHARED), the published map (NO_COPY), or the tile. */
static void report_route(const char *runtime, size_t i, const uint16_t *out,
                         const unsigned char map[128])
{
    if (routes[i].all & SHARED)
        report_map(runtime, routes[i].name, (const unsigned char *)out);
    else if (routes[i].all & NO_COPY)
        report_map(runtime, routes[i].name, map);
    else
        report(runtime, routes[i].name, out);
}

static int run_cuda(const uint16_t *a, uint16_t *out, size_t i)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS || cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        return fprintf(stderr, "tma-probe: no CUDA device\n"), 0;
    char log[4096] = "";
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(uintptr_t)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx, 2, opt, val) != CUDA_SUCCESS ||
        cuModuleGetFunction(&fn, mod, "tma_probe") != CUDA_SUCCESS)
        return fprintf(stderr, "tma-probe: the CUDA driver refused the PTX:\n%s\n", log), 0;
    CUdeviceptr da, dout, dws;
    const size_t abytes = (size_t)ROWS * COLS * 2, obytes = TILE * TILE * 2;
    if (cuMemAlloc(&da, abytes) || cuMemAlloc(&dout, obytes) || cuMemAlloc(&dws, 256) ||
        cuMemcpyHtoD(da, a, abytes))
        return fprintf(stderr, "tma-probe: CUDA allocation failed\n"), 0;
    unsigned char map[128];
    if (!template_of(i, map))
        return 0;
    memset(out, 0xff, obytes);
    cuMemcpyHtoD(dout, out, obytes);
    cuMemcpyHtoD(dws, map, 128);
    unsigned r0 = R0, c0 = C0, all = (unsigned)routes[i].all, rows = ROWS, cols = COLS,
             rank = (unsigned)routes[i].rank;
    unsigned long long stride = COLS * 2;
    void *args[] = {&da, &dout, &dws, &r0, &c0, &all, &rows, &cols, &stride, &rank};
    CUresult r = cuLaunchKernel(fn, 1, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL);
    if (r == CUDA_SUCCESS)
        r = cuCtxSynchronize();
    if (r != CUDA_SUCCESS) {
        printf("cuda    %-11s failed (%d)\n", routes[i].name, (int)r);
        return 1;
    }
    cuMemcpyDtoH(out, dout, obytes);
    cuMemcpyDtoH(map, dws + 128, 128);
    report_route("cuda", i, out, map);
    cuMemFree(da);
    cuMemFree(dout);
    cuMemFree(dws);
    return 1;
}

static int run_opencl(const uint16_t *a, uint16_t *out, size_t i)
{
    cl_platform_id ps[16];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np && !dev; i++) {
        char name[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, "NVIDIA") || clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL))
            dev = NULL;
    }
    if (!dev)
        return fprintf(stderr, "tma-probe: no NVIDIA OpenCL device\n"), 0;
    cl_int err, status;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    /* The target line as NVIDIA's OpenCL compiler writes its own. */
    static char clptx[sizeof ptx + 32];
    const char *t = strstr(ptx, ".target sm_90a\n");
    snprintf(clptx, sizeof clptx, "%.*s.target sm_90a, texmode_independent\n%s", (int)(t - ptx),
             ptx, t + strlen(".target sm_90a\n"));
    const size_t len = strlen(clptx) + 1;
    const unsigned char *bins[1] = {(const unsigned char *)clptx};
    cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
    if (!prog || clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        if (prog)
            clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        return fprintf(stderr, "tma-probe: NVIDIA's OpenCL refused the PTX (%d):\n%s\n", err, log),
               0;
    }
    cl_kernel k = clCreateKernel(prog, "tma_probe", &err);
    const size_t abytes = (size_t)ROWS * COLS * 2, obytes = TILE * TILE * 2;
    cl_mem da =
        clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, abytes, (void *)a, &err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, obytes, NULL, &err);
    cl_mem dws = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
    if (!k || !da || !dout || !dws)
        return fprintf(stderr, "tma-probe: OpenCL set-up failed (%d)\n", err), 0;
    unsigned char map[128];
    if (!template_of(i, map))
        return 0;
    memset(out, 0xff, obytes);
    clEnqueueWriteBuffer(q, dout, CL_TRUE, 0, obytes, out, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, dws, CL_TRUE, 0, 128, map, 0, NULL, NULL);
    cl_uint r0 = R0, c0 = C0, all = (cl_uint)routes[i].all, rows = ROWS, cols = COLS,
            rank = (cl_uint)routes[i].rank;
    cl_ulong stride = COLS * 2;
    clSetKernelArg(k, 0, sizeof da, &da);
    clSetKernelArg(k, 1, sizeof dout, &dout);
    clSetKernelArg(k, 2, sizeof dws, &dws);
    clSetKernelArg(k, 3, sizeof r0, &r0);
    clSetKernelArg(k, 4, sizeof c0, &c0);
    clSetKernelArg(k, 5, sizeof all, &all);
    clSetKernelArg(k, 6, sizeof rows, &rows);
    clSetKernelArg(k, 7, sizeof cols, &cols);
    clSetKernelArg(k, 8, sizeof stride, &stride);
    clSetKernelArg(k, 9, sizeof rank, &rank);
    const size_t g = THREADS, l = THREADS;
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clFinish(q);
    if (err != CL_SUCCESS) {
        printf("opencl  %-11s failed (%d)\n", routes[i].name, err);
        return 1;
    }
    clEnqueueReadBuffer(q, dout, CL_TRUE, 0, obytes, out, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dws, CL_TRUE, 128, 128, map, 0, NULL, NULL);
    report_route("opencl", i, out, map);
    clReleaseMemObject(da);
    clReleaseMemObject(dout);
    clReleaseMemObject(dws);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--ptx")) {
        fputs(ptx, stdout);
        return 0;
    }
    uint16_t *a = malloc((size_t)ROWS * COLS * 2), out[TILE * TILE];
    if (!a)
        return 1;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            a[(size_t)r * COLS + c] = element(r, c);
    /* Each runtime and route in a process of its own: a fault leaves the CUDA context, and with
     * it every later CUDA call of the process, unusable. */
    int ok = 1;
    for (int rt = 0; rt < 2; rt++)
        for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
            fflush(stdout);
            const pid_t pid = fork();
            if (pid == 0) {
                alarm(60);
                const int r = rt ? run_opencl(a, out, i) : run_cuda(a, out, i);
                fflush(stdout);
                _exit(r ? 0 : 3);
            }
            int st = 0;
            if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
                printf("%-7s %-11s no result (%s)\n", rt ? "opencl" : "cuda", routes[i].name,
                       pid > 0 && WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "set-up failed");
                ok = 0;
            }
        }
    free(a);
    return ok ? 0 : 3;
}
