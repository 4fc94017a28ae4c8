/* ldgsts-probe.c: which forms of an asynchronous copy (cp.async, LDGSTS in SASS) the H100/H200
 * coalesce. Each kernel has every work-item copy 16 bytes from global to local memory, a warp's
 * 32 copies 512 contiguous bytes (or, in the "pair" kernels, 16 rows of 32 bytes, two work-items
 * a row, as hgemm_wgmma_nt maps its chunks at BK 16), once per step for many steps; the kernels
 * differ only in the copy's form and in the control flow around it. Run under Nsight Compute's
 * SourceCounters, each LDGSTS's L2 sectors and local-memory wavefronts per instruction say
 * whether the hardware merged the warp's copies (ideal 16 and 4) or took them one work-item at a
 * time (32 and 32, what hgemm_wgmma_nt's copies show: bench/notes/wgmma.md#wgmma-zfill). Without
 * a profiler it prints each kernel's rate.
 *
 *   cc -O2 -o ldgsts-probe bench/ldgsts-probe.c -I/usr/local/cuda/include -lcuda
 *   ncu --section SourceCounters -o probe ./ldgsts-probe
 *   ncu -i probe.ncu-rep --page source --print-source sass --csv
 *   ldgsts-probe --ptx   (the kernels' PTX, for ptxas and cuobjdump)
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = "?";                                                                  \
            cuGetErrorString(r_, &s_);                                                             \
            fprintf(stderr, "ldgsts-probe: %s: %s\n", #x, s_);                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

enum { THREADS = 128, STEPS = 256, ROW = 8192 };

/* The copy statements of each kernel, between the address set-up and the loop's end. %rd3 is
 * the global address, %r7 the local one, %p2 a flag from the arguments (always 1 here, which
 * the compiler cannot know), %p3 a condition on the work-item's id that always holds. */
static const struct {
    const char *name, *doc, *body;
    int pair;
} kernels[] = {
    {"line", "straight-line cp.async, 16 bytes", "cp.async.cg.shared.global [%r7], [%rd3], 16;\n",
     0},
    {"line_zfill", "the form with a count of bytes (16), as copy16 writes it",
     "cp.async.cg.shared.global [%r7], [%rd3], 16, %r9;\n", 0},
    {"line_pred", "predicated on the flag", "@%p2 cp.async.cg.shared.global [%r7], [%rd3], 16;\n",
     0},
    {"line_ifelse", "an if/else on the flag, another form in each branch",
     "@!%p2 bra ELSE;\ncp.async.cg.shared.global [%r7], [%rd3], 16;\nbra DONE;\n"
     "ELSE:\ncp.async.cg.shared.global [%r7], [%rd3], 16, %r10;\nDONE:\n",
     0},
    {"line_iftid", "an if/else on the work-item's id",
     "@!%p3 bra ELSE;\ncp.async.cg.shared.global [%r7], [%rd3], 16;\nbra DONE;\n"
     "ELSE:\ncp.async.cg.shared.global [%r7], [%rd3], 16, %r10;\nDONE:\n",
     0},
    {"pair", "two work-items a 32-byte row segment, 16 rows a warp",
     "cp.async.cg.shared.global [%r7], [%rd3], 16;\n", 1},
    {"pair_zfill", "the same with a count of bytes",
     "cp.async.cg.shared.global [%r7], [%rd3], 16, %r9;\n", 1},
    {"pair_ifelse", "the same in an if/else on the flag",
     "@!%p2 bra ELSE;\ncp.async.cg.shared.global [%r7], [%rd3], 16, %r9;\nbra DONE;\n"
     "ELSE:\ncp.async.cg.shared.global [%r7], [%rd3], 16, %r10;\nDONE:\n",
     1},
};
enum { NK = sizeof kernels / sizeof kernels[0] };

/* One kernel's PTX: global address (line) block * STEPS * THREADS * 16 + tid * 16 + step *
 * THREADS * 16, or (pair) block rows of 64 at ROW bytes apart, row = tid / 2, + (tid % 2) * 16 +
 * step * 32; local address tid * 16. */
static int kernel_ptx(char *out, size_t cap, int i)
{
    const char *addr = kernels[i].pair ? "shr.u32 %r11, %r3, 1;\n"
                                         "mad.wide.u32 %rd4, %r11, "
                                         "8192"
                                         ", %rd1;\n"
                                         "and.b32 %r12, %r3, 1;\n"
                                         "mul.wide.u32 %rd5, %r12, 16;\n"
                                         "add.u64 %rd4, %rd4, %rd5;\n"
                                         "mul.wide.u32 %rd5, %r4, 524288;\n"
                                         "add.u64 %rd3, %rd4, %rd5;\n"
                                         "mov.u64 %rd6, 32;\n"
                                       : "mul.wide.u32 %rd4, %r3, 16;\n"
                                         "add.u64 %rd4, %rd4, %rd1;\n"
                                         "mul.wide.u32 %rd5, %r4, 524288;\n"
                                         "add.u64 %rd3, %rd4, %rd5;\n"
                                         "mov.u64 %rd6, 2048;\n";
    return snprintf(out, cap,
                    ".visible .entry %s(.param .u64 src, .param .u32 flag, .param .u32 steps)\n"
                    "{\n.reg .u64 %%rd<10>;\n.reg .u32 %%r<20>;\n.reg .pred %%p<5>;\n"
                    ".shared .align 128 .b8 buf[2048];\n"
                    "ld.param.u64 %%rd1, [src];\ncvta.to.global.u64 %%rd1, %%rd1;\n"
                    "ld.param.u32 %%r1, [flag];\nld.param.u32 %%r2, [steps];\n"
                    "mov.u32 %%r3, %%tid.x;\nmov.u32 %%r4, %%ctaid.x;\n"
                    "setp.ne.u32 %%p2, %%r1, 0;\nsetp.lt.u32 %%p3, %%r3, 1024;\n"
                    "mul.lo.u32 %%r9, %%r1, 16;\nmov.u32 %%r10, 0;\n"
                    "%s"
                    "mov.u32 %%r5, buf;\nshl.b32 %%r6, %%r3, 4;\nadd.u32 %%r7, %%r5, %%r6;\n"
                    "mov.u32 %%r8, 0;\n"
                    "LOOP:\n%s"
                    "cp.async.commit_group;\ncp.async.wait_group 0;\n"
                    "add.u64 %%rd3, %%rd3, %%rd6;\nadd.u32 %%r8, %%r8, 1;\n"
                    "setp.lt.u32 %%p1, %%r8, %%r2;\n@%%p1 bra LOOP;\nret;\n}\n",
                    kernels[i].name, addr, kernels[i].body);
}

int main(int argc, char **argv)
{
    static char ptx[1 << 16];
    size_t n = (size_t)snprintf(ptx, sizeof ptx, ".version 8.0\n.target sm_90\n.address_size 64\n");
    for (int i = 0; i < NK; i++)
        n += (size_t)kernel_ptx(ptx + n, sizeof ptx - n, i);
    if (argc > 1 && !strcmp(argv[1], "--ptx")) {
        fputs(ptx, stdout);
        return 0;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    char log[8192] = "";
    CUjit_option opt[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    if (cuModuleLoadDataEx(&mod, ptx, 2, opt, val) != CUDA_SUCCESS) {
        fprintf(stderr, "ldgsts-probe: the PTX did not build:\n%s\n%s", log, ptx);
        return 1;
    }
    int sms = 0;
    CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
    const unsigned blocks = (unsigned)sms * 8;
    const size_t bytes = (size_t)blocks * 524288 + (1 << 20);
    CUdeviceptr src;
    CK(cuMemAlloc(&src, bytes));
    CK(cuMemsetD8(src, 1, bytes));
    CUevent e0, e1;
    CK(cuEventCreate(&e0, 0));
    CK(cuEventCreate(&e1, 0));
    unsigned flag = 1, steps = STEPS;
    void *args[] = {&src, &flag, &steps};
    for (int i = 0; i < NK; i++) {
        CUfunction fn;
        CK(cuModuleGetFunction(&fn, mod, kernels[i].name));
        float ms = 0;
        for (int rep = 0; rep < 2; rep++) {
            CK(cuEventRecord(e0, 0));
            CK(cuLaunchKernel(fn, blocks, 1, 1, THREADS, 1, 1, 0, 0, args, NULL));
            CK(cuEventRecord(e1, 0));
            CK(cuEventSynchronize(e1));
            CK(cuEventElapsedTime(&ms, e0, e1));
        }
        const double moved = (double)blocks * THREADS * 16 * STEPS;
        printf("%-12s %8.1f GB/s  %s\n", kernels[i].name, moved / (ms * 1e6), kernels[i].doc);
    }
    return 0;
}
