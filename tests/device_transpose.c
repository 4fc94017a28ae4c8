/* device_transpose.c: gb_transpose (kernels/helpers.cl), the route's transposing copy on GPUs,
 * run on the default OpenCL device (a CPU device's route takes gb_copy, so nothing else runs it
 * there). For 2-, 4-, 8- and 16-byte elements (h, s, d, z builds of the helpers program, as the
 * route compiles it), work-groups of 32 x 8, 16 x 4 and 7 x 3 (its work-items step over the
 * block, GB__TRANSPOSE_BLOCK a side), blocks cut by the edges, offsets, leading dimensions wider than the rows, and
 * a destination larger than the source (zeros there): every destination element is the source's
 * transposed, byte for byte, and nothing outside the destination's rows is written. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "rt/core/core.h"
#include "rt/family/registry.h"
#include "rt/plan/route.h"
#include "unit.h"

typedef struct shape {
    int s_outer, s_inner, s_off, s_ld, d_outer, d_inner, d_off, d_ld;
} shape_t;

/* The helpers program of prec on dev, or NULL (the build log printed). */
static cl_program build(cl_context ctx, cl_device_id dev, gb_precision_t prec)
{
    const char *src[2] = {gb__embedded("prelude.cl")->data, gb__embedded("helpers.cl")->data};
    char opts[256];
    gb__helper_options(prec, opts, sizeof opts);
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 2, src, NULL, &err);
    if (err != CL_SUCCESS)
        return NULL;
    if (clBuildProgram(p, 1, &dev, opts, NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("helpers (%s) did not build:\n%s\n", opts, log);
        clReleaseProgram(p);
        return NULL;
    }
    return p;
}

/* One launch of k on shape s with elements of es bytes and work-groups lx x ly: 1 where the
 * destination is right. */
static int one(cl_context ctx, cl_command_queue q, cl_kernel k, size_t es, const shape_t *s,
               size_t lx, size_t ly)
{
    const size_t sb = (size_t)(s->s_off + s->s_outer * s->s_ld) * es;
    const size_t db = (size_t)(s->d_off + s->d_outer * s->d_ld) * es;
    unsigned char *src = malloc(sb), *dst = malloc(db);
    for (size_t b = 0; b < sb; b++)
        src[b] = (unsigned char)(b * 7 + b / es * 13 + 1);
    memset(dst, 0xab, db);
    cl_int err;
    cl_mem ms = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sb, src, &err);
    cl_mem md = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, db, dst, &err);
    const int v[] = {s->d_outer, s->d_inner, s->d_off, s->d_ld,
                     s->s_outer, s->s_inner, s->s_off, s->s_ld};
    clSetKernelArg(k, 0, sizeof(int), &v[0]);
    clSetKernelArg(k, 1, sizeof(int), &v[1]);
    clSetKernelArg(k, 2, sizeof md, &md);
    clSetKernelArg(k, 3, sizeof(int), &v[2]);
    clSetKernelArg(k, 4, sizeof(int), &v[3]);
    clSetKernelArg(k, 5, sizeof(int), &v[4]);
    clSetKernelArg(k, 6, sizeof(int), &v[5]);
    clSetKernelArg(k, 7, sizeof ms, &ms);
    clSetKernelArg(k, 8, sizeof(int), &v[6]);
    clSetKernelArg(k, 9, sizeof(int), &v[7]);
    const size_t local[2] = {lx, ly};
    const size_t tt = GB__TRANSPOSE_BLOCK;
    const size_t global[2] = {((size_t)s->d_inner + tt - 1) / tt * lx,
                              ((size_t)s->d_outer + tt - 1) / tt * ly};
    err = clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(q, md, CL_TRUE, 0, db, dst, 0, NULL, NULL);
    int ok = err == CL_SUCCESS, shown = 0;
    for (int o = 0; ok && o < s->d_outer; o++)
        for (int i = 0; i < s->d_ld; i++) {
            const unsigned char *got = dst + (size_t)(s->d_off + o * s->d_ld + i) * es;
            unsigned char want[16];
            if (i >= s->d_inner)
                memset(want, 0xab, es); /* past the row: untouched */
            else if (i < s->s_outer && o < s->s_inner)
                memcpy(want, src + (size_t)(s->s_off + i * s->s_ld + o) * es, es);
            else
                memset(want, 0, es);
            if (memcmp(got, want, es) && !shown++) {
                printf("  %zu-byte elements, %zu x %zu groups, source %d x %d: (%d, %d) wrong\n",
                       es, lx, ly, s->s_outer, s->s_inner, o, i);
                ok = 0;
            }
        }
    for (int b = 0; ok && b < s->d_off * (int)es; b++)
        ok = dst[b] == 0xab;
    clReleaseMemObject(ms);
    clReleaseMemObject(md);
    free(src);
    free(dst);
    return ok;
}

int main(void)
{
    cl_platform_id plat;
    cl_device_id dev;
    if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(plat, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL) != CL_SUCCESS) {
        printf("no OpenCL device\n");
        return 77;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    const struct {
        gb_precision_t prec;
        size_t es;
    } precs[] = {{GB_PREC_H, 2}, {GB_PREC_S, 4}, {GB_PREC_D, 8}, {GB_PREC_Z, 16}};
    const shape_t shapes[] = {
        {37, 70, 3, 75, 70, 40, 5, 41}, /* edges in both, padding to 40 rows' worth */
        {64, 64, 0, 64, 64, 64, 0, 64}, /* whole blocks */
        {1, 33, 0, 33, 36, 4, 0, 6},    /* a row: one block column, zeros past it */
        {100, 1, 2, 1, 1, 100, 0, 101}, /* a column */
    };
    const size_t groups[][2] = {{32, 8}, {16, 4}, {7, 3}};
    for (size_t p = 0; p < sizeof precs / sizeof precs[0]; p++) {
        cl_program prog = build(ctx, dev, precs[p].prec);
        if (!CHECK(prog))
            continue;
        cl_kernel k = clCreateKernel(prog, "gb_transpose", &err);
        if (CHECK(err == CL_SUCCESS))
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
                    CHECK(one(ctx, q, k, precs[p].es, &shapes[s], groups[g][0], groups[g][1]));
        clReleaseKernel(k);
        clReleaseProgram(prog);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return unit_finish();
}
