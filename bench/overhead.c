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
 *     checked against the host's.
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
    size_t n;
    float *ha, *hb, *ref, *got;
    char device_name[256];
} bench_t;

static void bench_close(bench_t *x)
{
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

static int run_enqueue(const char *platform, size_t n, size_t calls, size_t every)
{
    bench_t x;
    memset(&x, 0, sizeof x);
    gb_blas_t *h = NULL;
    double *t[2] = {calloc(calls, sizeof(double)), calloc(calls, sizeof(double))};
    int have_clblast = 0, rc = 1;
#ifdef GB_HAVE_CLBLAST
    have_clblast = 1;
#endif
    const char *fail = NULL;
    if (!t[0] || !t[1] || bench_open(&x, platform, n))
        goto done;
    if (gb_blas_open(&h, x.cl, x.dev) != GB_OK) {
        die("gb_blas_open failed", gb_blas_errmsg());
        goto done;
    }
    /* Warm-up: programs built (or loaded), kernels made, scratch allocated, caches warm. */
    for (int lib = 0; lib < 1 + have_clblast; lib++) {
        for (int i = 0; i < 20 && !fail; i++)
            fail = sgemm(&x, lib ? NULL : h);
        if (fail || check_c(&x, lib ? "CLBlast" : "gb")) {
            if (fail)
                die("the warm-up call failed", fail);
            goto done;
        }
    }
    /* Alternating blocks of `every` calls, so that both see the same conditions. */
    size_t done_calls[2] = {0, 0};
    for (int lib = 0; done_calls[0] < calls || (have_clblast && done_calls[1] < calls);
         lib = have_clblast ? !lib : 0) {
        for (size_t i = 0; i < every && done_calls[lib] < calls && !fail; i++) {
            const double t0 = now_us();
            fail = sgemm(&x, lib ? NULL : h);
            t[lib][done_calls[lib]++] = now_us() - t0;
        }
        if (fail) {
            die("a timed call failed", fail);
            goto done;
        }
        clFinish(x.q);
    }
    if (check_c(&x, have_clblast ? "CLBlast" : "gb"))
        goto done;
    printf("device: %s; %zux%zux%zu SGEMM, row-major NN; host wall time of the enqueue call "
           "alone, %zu calls each after 20 warm-up calls, clFinish every %zu calls outside "
           "the timed region\n",
           x.device_name, n, n, n, calls, every);
    printf("%-14s %10s %10s %10s\n", "library", "median us", "p10 us", "p90 us");
    double med[2] = {0, 0};
    static const char *const names[2] = {"gb_sgemm", "CLBlastSgemm"};
    for (int lib = 0; lib < 1 + have_clblast; lib++) {
        qsort(t[lib], calls, sizeof(double), cmp_double);
        med[lib] = quantile(t[lib], calls, 0.5);
        printf("%-14s %10.2f %10.2f %10.2f\n", names[lib], med[lib], quantile(t[lib], calls, 0.1),
               quantile(t[lib], calls, 0.9));
    }
    if (have_clblast)
        printf("gb / CLBlast (medians): %.3f\n", med[0] / med[1]);
    else
        printf("CLBlast: not built in\n");
    rc = 0;
done:
    gb_blas_close(h);
    bench_close(&x);
    free(t[0]);
    free(t[1]);
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
