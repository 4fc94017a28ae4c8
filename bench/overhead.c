/* overhead.c: what a call of the library costs the host (gemmbench-overhead, run by
 * bench/overhead.sh), against CLBlast where it was built in.
 *
 *   gemmbench-overhead enqueue [-p PLATFORM] [-n SIZE] [-c CALLS] [-e EVERY]
 *     The wall time of the enqueue alone (clock_gettime around gb_sgemm, or CLBlastSgemm) of a
 *     SIZE^3 row-major NN SGEMM (default 64) with warm programs: after warm-up calls, CALLS
 *     calls each (default 1000), in alternating blocks of EVERY calls (default 16) of one
 *     library and then the other on the same queue and buffers, with a clFinish between blocks,
 *     outside the timed region, so that the queue does not grow without bound. Prints the
 *     median, 10th and 90th percentiles of each and the ratio of the medians; both results are
 *     checked against the host's. Beside them, the floor: the same enqueue of a kernel that
 *     does nothing, with as many arguments as ours (three buffers, nine scalars, set each
 *     call), over the same global and local sizes: what the driver alone costs a call.
 *   gemmbench-overhead first gb|clblast [-p PLATFORM] [-n SIZE]
 *     The first call in this process: the time from before the handle is opened (gb) or the
 *     call made (CLBlast, which has no handle) to the first call's completion (clFinish),
 *     with the OpenCL context, queue and buffers made before. Prints one line, in
 *     milliseconds, with its parts. bench/overhead.sh runs it in fresh processes with the
 *     program cache warm and cold.
 *
 * The device: the first GPU of the first platform whose name contains PLATFORM (any platform
 * without -p), else that platform's first device. Exit 0, or 1 with one line on stderr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmbench_blas.h"
#ifdef GB_HAVE_CLBLAST
#include <clblast_c.h>
#endif

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static int die(const char *what, const char *detail)
{
    fprintf(stderr, "gemmbench-overhead: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

/* The OpenCL objects and data of a run: an SIZE x SIZE A, B and C, in order queue. */
typedef struct bench {
    cl_context cl;
    cl_device_id dev;
    cl_command_queue q;
    cl_mem a, b, c;
    cl_program nop_prog;
    cl_kernel nop; /* the floor's kernel */
    size_t n;
    float *ha, *hb, *ref, *got;
    char device_name[256];
} bench_t;

static void bench_close(bench_t *x)
{
    if (x->nop)
        clReleaseKernel(x->nop);
    if (x->nop_prog)
        clReleaseProgram(x->nop_prog);
    cl_mem m[3] = {x->a, x->b, x->c};
    for (int i = 0; i < 3; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    if (x->q)
        clReleaseCommandQueue(x->q);
    if (x->cl)
        clReleaseContext(x->cl);
    free(x->ha);
    free(x->hb);
    free(x->ref);
    free(x->got);
}

/* The device as the file's header says, a context, a queue, the buffers with A and B written.
 * 0, or 1 with the message printed (the caller closes x either way). */
static int bench_open(bench_t *x, const char *platform, size_t n)
{
    memset(x, 0, sizeof *x);
    x->n = n;
    cl_platform_id pfs[16];
    cl_uint npf = 0;
    if (clGetPlatformIDs(16, pfs, &npf) != CL_SUCCESS || npf == 0)
        return die("no OpenCL platform", NULL);
    for (cl_uint i = 0; i < npf && !x->dev; i++) {
        char name[256] = "";
        clGetPlatformInfo(pfs[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (platform && !strstr(name, platform))
            continue;
        if (clGetDeviceIDs(pfs[i], CL_DEVICE_TYPE_GPU, 1, &x->dev, NULL) != CL_SUCCESS &&
            clGetDeviceIDs(pfs[i], CL_DEVICE_TYPE_ALL, 1, &x->dev, NULL) != CL_SUCCESS)
            x->dev = NULL;
    }
    if (!x->dev)
        return die("no OpenCL device on a platform named like", platform ? platform : "any");
    clGetDeviceInfo(x->dev, CL_DEVICE_NAME, sizeof x->device_name, x->device_name, NULL);
    cl_int err;
    x->cl = clCreateContext(NULL, 1, &x->dev, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        x->q = clCreateCommandQueueWithProperties(x->cl, x->dev, NULL, &err);
    const size_t bytes = n * n * sizeof(float);
    if (err == CL_SUCCESS)
        x->a = clCreateBuffer(x->cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        x->b = clCreateBuffer(x->cl, CL_MEM_READ_ONLY, bytes, NULL, &err);
    if (err == CL_SUCCESS)
        x->c = clCreateBuffer(x->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS)
        return die("making the context, queue and buffers failed", NULL);
    x->ha = malloc(bytes);
    x->hb = malloc(bytes);
    x->ref = calloc(n * n, sizeof(float));
    x->got = malloc(bytes);
    if (!x->ha || !x->hb || !x->ref || !x->got)
        return die("out of memory", NULL);
    /* Small integers: every sum is exact, in any order. */
    for (size_t i = 0; i < n * n; i++) {
        x->ha[i] = (float)((int)(i * 7 % 5) - 2);
        x->hb[i] = (float)((int)(i * 3 % 7) - 3);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t l = 0; l < n; l++)
            for (size_t j = 0; j < n; j++)
                x->ref[i * n + j] += x->ha[i * n + l] * x->hb[l * n + j];
    err = clEnqueueWriteBuffer(x->q, x->a, CL_TRUE, 0, bytes, x->ha, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueWriteBuffer(x->q, x->b, CL_TRUE, 0, bytes, x->hb, 0, NULL, NULL);
    return err == CL_SUCCESS ? 0 : die("writing A and B failed", NULL);
}

static const char *nop_source =
    "__kernel void nop(__global const float *a, __global const float *b, __global float *c,\n"
    "                  int m, int n, int k, int lda, int ldb, int ldc, float alpha, float beta,\n"
    "                  int off) {}\n";

/* The floor's kernel, built: 0, or 1 with the message printed. */
static int nop_open(bench_t *x)
{
    cl_int err;
    x->nop_prog = clCreateProgramWithSource(x->cl, 1, &nop_source, NULL, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(x->nop_prog, 1, &x->dev, "", NULL, NULL);
    if (err == CL_SUCCESS)
        x->nop = clCreateKernel(x->nop_prog, "nop", &err);
    return err == CL_SUCCESS ? 0 : die("building the floor's kernel failed", NULL);
}

/* The floor: its arguments set and the kernel enqueued over 64 x 64 items in 16 x 16 groups
 * (as our 64^3 kernel is), as a library call would. 0 or the failure's message. */
static const char *nop_call(bench_t *x)
{
    const cl_int m = (cl_int)x->n, zero = 0;
    const float one = 1.0f, none = 0.0f;
    cl_int err = clSetKernelArg(x->nop, 0, sizeof x->a, &x->a);
    err |= clSetKernelArg(x->nop, 1, sizeof x->b, &x->b);
    err |= clSetKernelArg(x->nop, 2, sizeof x->c, &x->c);
    for (cl_uint i = 3; i < 9; i++)
        err |= clSetKernelArg(x->nop, i, sizeof m, &m);
    err |= clSetKernelArg(x->nop, 9, sizeof one, &one);
    err |= clSetKernelArg(x->nop, 10, sizeof none, &none);
    err |= clSetKernelArg(x->nop, 11, sizeof zero, &zero);
    const size_t g[2] = {64, 64}, l[2] = {16, 16};
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(x->q, x->nop, 2, NULL, g, l, 0, NULL, NULL);
    return err == CL_SUCCESS ? NULL : "enqueueing the floor's kernel failed";
}

/* C = A * B by the library (h) or, with h NULL, by CLBlast. 0 or the failure's message. */
static const char *sgemm(bench_t *x, gb_blas_t *h)
{
    const size_t n = x->n;
    if (h)
        return gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, n, n, n, 1.0f,
                        x->a, 0, n, x->b, 0, n, 0.0f, x->c, 0, n, x->q, 0, NULL, NULL) == GB_OK
                   ? NULL
                   : gb_blas_errmsg();
#ifdef GB_HAVE_CLBLAST
    return CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n,
                        1.0f, x->a, 0, n, x->b, 0, n, 0.0f, x->c, 0, n, &x->q,
                        NULL) == CLBlastSuccess
               ? NULL
               : "CLBlastSgemm failed";
#else
    return "CLBlast was not built in";
#endif
}

/* C as the host computes it: 0, or 1 with the message printed. */
static int check_c(bench_t *x, const char *who)
{
    if (clEnqueueReadBuffer(x->q, x->c, CL_TRUE, 0, x->n * x->n * sizeof(float), x->got, 0, NULL,
                            NULL) != CL_SUCCESS)
        return die("reading C failed", who);
    for (size_t i = 0; i < x->n * x->n; i++)
        if (x->got[i] != x->ref[i])
            return die("C differs from the host's", who);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The q-th quantile of n sorted values (nearest rank). */
static double quantile(const double *s, size_t n, double q)
{
    size_t i = (size_t)ceil(q * (double)n);
    return s[i ? i - 1 : 0];
}

/* One call of way w: 0 gb_sgemm, 1 the floor, 2 CLBlastSgemm. 0 or the failure's message. */
static const char *way_call(bench_t *x, gb_blas_t *h, int w)
{
    return w == 0 ? sgemm(x, h) : w == 1 ? nop_call(x) : sgemm(x, NULL);
}

static int run_enqueue(const char *platform, size_t n, size_t calls, size_t every)
{
    bench_t x;
    memset(&x, 0, sizeof x);
    gb_blas_t *h = NULL;
    double *t[3] = {calloc(calls, sizeof(double)), calloc(calls, sizeof(double)),
                    calloc(calls, sizeof(double))};
    int have_clblast = 0, rc = 1;
#ifdef GB_HAVE_CLBLAST
    have_clblast = 1;
#endif
    const int ways = 2 + have_clblast;
    const char *fail = NULL;
    if (!t[0] || !t[1] || !t[2] || bench_open(&x, platform, n) || nop_open(&x))
        goto done;
    if (gb_blas_open(&h, x.cl, x.dev) != GB_OK) {
        die("gb_blas_open failed", gb_blas_errmsg());
        goto done;
    }
    /* Warm-up: programs built (or loaded), kernels made, scratch allocated, caches warm. The
     * floor writes nothing, so C is checked after the libraries only. */
    for (int w = 0; w < ways; w++) {
        for (int i = 0; i < 20 && !fail; i++)
            fail = way_call(&x, h, w);
        if (fail || (w != 1 && check_c(&x, w ? "CLBlast" : "gb"))) {
            if (fail)
                die("the warm-up call failed", fail);
            goto done;
        }
    }
    /* Alternating blocks of `every` calls, so that all see the same conditions. */
    size_t done_calls[3] = {0, 0, 0};
    for (int w = 0, left = 1; left; w = (w + 1) % ways) {
        for (size_t i = 0; i < every && done_calls[w] < calls && !fail; i++) {
            const double t0 = now_us();
            fail = way_call(&x, h, w);
            t[w][done_calls[w]++] = now_us() - t0;
        }
        if (fail) {
            die("a timed call failed", fail);
            goto done;
        }
        clFinish(x.q);
        left = 0;
        for (int v = 0; v < ways; v++)
            left |= done_calls[v] < calls;
    }
    if (check_c(&x, have_clblast ? "CLBlast" : "gb"))
        goto done;
    printf("device: %s; %zux%zux%zu SGEMM, row-major NN; host wall time of the enqueue call "
           "alone, %zu calls each after 20 warm-up calls, clFinish every %zu calls outside "
           "the timed region\n",
           x.device_name, n, n, n, calls, every);
    printf("%-14s %10s %10s %10s\n", "library", "median us", "p10 us", "p90 us");
    double med[3] = {0, 0, 0};
    static const char *const names[3] = {"gb_sgemm", "floor", "CLBlastSgemm"};
    for (int w = 0; w < ways; w++) {
        qsort(t[w], calls, sizeof(double), cmp_double);
        med[w] = quantile(t[w], calls, 0.5);
        printf("%-14s %10.2f %10.2f %10.2f\n", names[w], med[w], quantile(t[w], calls, 0.1),
               quantile(t[w], calls, 0.9));
    }
    printf("floor: an empty kernel's arguments set and enqueue; gb over the floor (medians): "
           "%.2f us\n",
           med[0] - med[1]);
    if (have_clblast)
        printf("gb / CLBlast (medians): %.3f\n", med[0] / med[2]);
    else
        printf("CLBlast: not built in\n");
    rc = 0;
done:
    gb_blas_close(h);
    bench_close(&x);
    for (int w = 0; w < 3; w++)
        free(t[w]);
    return rc;
}

static int run_first(const char *platform, size_t n, int use_clblast)
{
    bench_t x;
    gb_blas_t *h = NULL;
    int rc = 1;
    if (bench_open(&x, platform, n))
        goto done;
    clFinish(x.q);
    const double t0 = now_us();
    if (!use_clblast && gb_blas_open(&h, x.cl, x.dev) != GB_OK) {
        die("gb_blas_open failed", gb_blas_errmsg());
        goto done;
    }
    const double t1 = now_us();
    const char *fail = sgemm(&x, use_clblast ? NULL : h);
    const double t2 = now_us();
    if (fail) {
        die("the first call failed", fail);
        goto done;
    }
    clFinish(x.q);
    const double t3 = now_us();
    if (check_c(&x, use_clblast ? "CLBlast" : "gb"))
        goto done;
    printf("first %s %.3f ms (open %.3f, call %.3f, finish %.3f) on %s\n",
           use_clblast ? "clblast" : "gb", (t3 - t0) / 1e3, (t1 - t0) / 1e3, (t2 - t1) / 1e3,
           (t3 - t2) / 1e3, x.device_name);
    rc = 0;
done:
    gb_blas_close(h);
    bench_close(&x);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: gemmbench-overhead enqueue [-p PLATFORM] [-n SIZE] [-c CALLS] "
                    "[-e EVERY]\n"
                    "       gemmbench-overhead first gb|clblast [-p PLATFORM] [-n SIZE]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const int first = !strcmp(argv[1], "first");
    if (!first && strcmp(argv[1], "enqueue"))
        return usage();
    int use_clblast = 0, i = 2;
    if (first) {
        if (argc < 3 || (strcmp(argv[2], "gb") && strcmp(argv[2], "clblast")))
            return usage();
        use_clblast = !strcmp(argv[2], "clblast");
        i = 3;
    }
    const char *platform = NULL;
    size_t n = 64, calls = 1000, every = 16;
    for (; i + 1 < argc; i += 2) {
        const char *o = argv[i], *v = argv[i + 1];
        char *end;
        const unsigned long long u = strtoull(v, &end, 10);
        if (!strcmp(o, "-p"))
            platform = v;
        else if (*end || u < 1 || u > 1u << 20)
            return usage();
        else if (!strcmp(o, "-n"))
            n = (size_t)u;
        else if (!strcmp(o, "-c"))
            calls = (size_t)u;
        else if (!strcmp(o, "-e"))
            every = (size_t)u;
        else
            return usage();
    }
    if (i != argc)
        return usage();
#ifndef GB_HAVE_CLBLAST
    if (use_clblast)
        return die("CLBlast was not built in", NULL);
#endif
    return first ? run_first(platform, n, use_clblast) : run_enqueue(platform, n, calls, every);
}
