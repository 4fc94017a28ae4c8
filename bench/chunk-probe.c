/* chunk-probe.c: the read bandwidth of a matrix taken W bytes of a row at a time, down every row
 * before the next W of each (the order in which a GEMM whose long operand is K-contiguous, M x K
 * row-major, streams it when every work-group takes BK k of its rows a step: W = 4 BK in s),
 * against the same bytes read in order. One OpenCL kernel over a ROWS x 16384-byte FP32 matrix
 * (537 MB); each work-item reads 8 float4 a loop at a stride of the grid, at the address the
 * order gives, and sums them; the median of 10 calls after 2 (OpenCL events). A line per W:
 * GB/s and the fraction of the in-order read. bench/notes/thin.md#thin-ct-profile has what the
 * H200 said.
 *
 *   cc -O2 -o chunk-probe bench/chunk-probe.c -lOpenCL
 *   chunk-probe [PLATFORM-SUBSTRING [ROWS]]   (default: the first GPU's platform, 32768 rows) */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "kernel void sweep(global const float4 *A, const uint lrows, const uint lrow4,\n"
    "                  const uint lw4, global float *out)\n"
    "{\n"
    "    const uint gsz = get_global_size(0), total = 1u << (lrows + lrow4);\n"
    "    float4 acc = 0;\n"
    "    for (uint L0 = get_global_id(0); L0 < total; L0 += 8 * gsz) {\n"
    "        float4 v[8];\n"
    "        for (int j = 0; j < 8; j++) {\n"
    "            const uint L = L0 + j * gsz, c = L >> lw4, o = L & ((1u << lw4) - 1);\n"
    "            const uint r = c & ((1u << lrows) - 1), cc = c >> lrows;\n"
    "            v[j] = A[((size_t)r << lrow4) + (cc << lw4) + o];\n"
    "        }\n"
    "        for (int j = 0; j < 8; j++)\n"
    "            acc += v[j];\n"
    "    }\n"
    "    out[get_global_id(0)] = acc.x + acc.y + acc.z + acc.w;\n"
    "}\n";

static int cmpd(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int ilog2(unsigned v)
{
    int l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "";
    const unsigned rows = argc > 2 ? (unsigned)atoi(argv[2]) : 32768u, row4 = 1024;
    if (rows < 256 || (rows & (rows - 1))) {
        fprintf(stderr, "chunk-probe: ROWS must be a power of two, at least 256\n");
        return 2;
    }
    cl_platform_id plats[8];
    cl_uint np = 0;
    clGetPlatformIDs(8, plats, &np);
    cl_device_id dev = NULL;
    for (cl_uint i = 0; i < np && !dev; i++) {
        char name[256];
        clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (!strstr(name, want) ||
            clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS)
            dev = NULL;
    }
    if (!dev) {
        fprintf(stderr, "chunk-probe: no OpenCL device on a platform named like '%s'\n", want);
        return 2;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "chunk-probe: build failed: %s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "sweep", &err);
    const size_t bytes = (size_t)rows * row4 * 16, l = 256;
    size_t g = (size_t)rows * row4 / 128; /* 16 loops of 8 a work-item */
    float *h = malloc(bytes);
    if (!h) {
        fprintf(stderr, "chunk-probe: out of memory (%zu bytes)\n", bytes);
        return 1;
    }
    for (size_t i = 0; i < bytes / 4; i++)
        h[i] = (float)(i % 7);
    cl_int err_out;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, g * 4, NULL, &err_out);
    if (err || err_out) {
        fprintf(stderr, "chunk-probe: cannot allocate %zu bytes (%d, %d)\n", bytes, err, err_out);
        return 1;
    }
    free(h);
    cl_uint lrows = (cl_uint)ilog2(rows), lrow4 = (cl_uint)ilog2(row4);
    clSetKernelArg(k, 0, sizeof a, &a);
    clSetKernelArg(k, 1, sizeof lrows, &lrows);
    clSetKernelArg(k, 2, sizeof lrow4, &lrow4);
    clSetKernelArg(k, 4, sizeof out, &out);
    printf("%u rows x 16384 bytes (%zu MB), %zu work-items\n", rows, bytes >> 20, g);
    double inorder = 0;
    const unsigned widths[] = {16384, 64, 128, 256, 512, 1024, 2048, 4096};
    for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
        cl_uint lw4 = (cl_uint)ilog2(widths[wi] / 16);
        clSetKernelArg(k, 3, sizeof lw4, &lw4);
        double t[12];
        for (int i = 0; i < 12; i++) {
            cl_event e;
            if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &e)) != CL_SUCCESS ||
                (err = clWaitForEvents(1, &e)) != CL_SUCCESS) {
                fprintf(stderr, "chunk-probe: the kernel did not run (%d)\n", err);
                return 1;
            }
            cl_ulong t0 = 0, t1 = 0;
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            clReleaseEvent(e);
            t[i] = (double)(t1 - t0) * 1e-9;
        }
        qsort(t + 2, 10, sizeof t[0], cmpd);
        const double gbs = (double)bytes / t[2 + 5] * 1e-9;
        if (wi == 0)
            inorder = gbs;
        printf("W %5u bytes%s: %7.1f us, %7.1f GB/s, %.2f of in order\n", widths[wi],
               wi == 0 ? " (in order)" : "", t[2 + 5] * 1e6, gbs, gbs / inorder);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
