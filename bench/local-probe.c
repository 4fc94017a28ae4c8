/* local-probe.c: how much local memory a kernel's own arrays may take on NVIDIA's OpenCL, which
 * reports 48 KB (CL_DEVICE_LOCAL_MEM_SIZE). For each size, a kernel with a `local int buf[n]`
 * that 256 work-items fill and read back in reverse order, each counting the values it finds
 * wrong: built from OpenCL C, and again from its PTX raised to sm_90a and loaded as a binary
 * (as the PTX families are), launched as one work-group and as 264; a line per size and form
 * with the build's result (ptxas's log where it refuses), CL_KERNEL_LOCAL_MEM_SIZE, the launch
 * and the wrong values. bench/notes/wgmma.md#local-227k has what the H200 said; the device facts
 * (local_mem_kernel, src/rt/device/peak.c) rest on it.
 *
 *   cc -O2 -o local-probe bench/local-probe.c -lOpenCL && ./local-probe */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(cl_context ctx, cl_command_queue q, cl_device_id dev, cl_program prog, int n,
               int groups, const char *how)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, "probe", &err);
    if (err) {
        printf("%s %d KB: create %d\n", how, n / 256, err);
        return 1;
    }
    cl_ulong lm = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    size_t wg = 0;
    clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    const size_t l = 256, g = l * groups;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, g * 4, NULL, &err);
    clSetKernelArg(k, 0, sizeof out, &out);
    cl_int e2 = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL);
    cl_int e3 = clFinish(q);
    int *h = calloc(g, 4);
    for (size_t i = 0; i < g; i++)
        h[i] = -7;
    clEnqueueReadBuffer(q, out, CL_TRUE, 0, g * 4, h, 0, NULL, NULL);
    long bad = 0;
    for (size_t i = 0; i < g; i++)
        bad += h[i] != 0;
    printf(
        "%s %d KB x %d groups: kernel local %llu, wg %zu, enqueue %d finish %d, wrong items %ld\n",
        how, n / 256, groups, (unsigned long long)lm, wg, e2, e3, bad);
    free(h);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    return 0;
}

int main(void)
{
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    for (cl_uint pi = 0; pi < np; pi++) {
        char name[256];
        clGetPlatformInfo(plats[pi], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, "NVIDIA"))
            continue;
        cl_device_id dev;
        if (clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
            continue;
        cl_int err;
        cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
        const int kbs[] = {47, 48, 64, 100, 160, 200, 224, 227, 228, 256};
        for (size_t i = 0; i < sizeof kbs / sizeof kbs[0]; i++) {
            const int n = kbs[i] * 256;
            char src[1024];
            snprintf(src, sizeof src,
                     "kernel void probe(global int *out) {"
                     "  local int buf[%d];"
                     "  const int l = get_local_id(0), g = get_group_id(0);"
                     "  for (int i = l; i < %d; i += 256) buf[i] = i * 3 + g;"
                     "  barrier(CLK_LOCAL_MEM_FENCE);"
                     "  int bad = 0; for (int i = l; i < %d; i += 256) { int j = %d - 1 - i; bad "
                     "+= buf[j] != j * 3 + g; }"
                     "  out[get_global_id(0)] = bad; }",
                     n, n, n, n);
            const char *s = src;
            cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
            err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
            if (err != CL_SUCCESS) {
                char log[2048] = "";
                clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
                printf("source %d KB: build %d: %.300s\n", kbs[i], err, log);
                continue;
            }
            run(ctx, q, dev, prog, n, 1, "source");
            run(ctx, q, dev, prog, n, 264, "source");
            /* the PTX, raised to sm_90a, as a binary */
            size_t bs = 0;
            clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
            unsigned char *bin = malloc(bs + 16);
            clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
            char *t = strstr((char *)bin, ".target sm_90");
            char *raised = malloc(bs + 16);
            if (t) {
                size_t at = (size_t)(t - (char *)bin) + strlen(".target sm_90");
                memcpy(raised, bin, at);
                raised[at] = 'a';
                memcpy(raised + at + 1, bin + at, bs - at);
                bs++;
            } else
                memcpy(raised, bin, bs);
            const unsigned char *rb = (unsigned char *)raised;
            cl_int bst;
            cl_program p2 = clCreateProgramWithBinary(ctx, 1, &dev, &bs, &rb, &bst, &err);
            err = err ? err : clBuildProgram(p2, 1, &dev, "", NULL, NULL);
            if (err)
                printf("ptx %d KB: build %d\n", kbs[i], err);
            else {
                run(ctx, q, dev, p2, n, 1, "ptx   ");
                run(ctx, q, dev, p2, n, 264, "ptx   ");
            }
            free(bin);
            free(raised);
            clReleaseProgram(prog);
        }
    }
    return 0;
}
