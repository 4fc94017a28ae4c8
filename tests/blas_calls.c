/* blas_calls.c: the library's GEMM call (gemmbench_blas.h) on the default device, through its
 * public header alone and linked against the shared library: every layout and transposition at
 * shapes that straddle tiles, leading-dimension padding and offsets, alpha and beta (0 included,
 * with NaN in C that beta = 0 must not read), BLAS's quick returns (M, N or K of 0), batched and
 * strided-batched calls, asynchrony (a call gated by a user event returns before the event is
 * set), bad arguments refused before anything is enqueued, each with its own code (memory
 * objects the handle cannot use among them: another context's, an image, access flags against
 * what the call does, C over A or B), gb_blas_chosen's text that does not fit, and many queues
 * served one after another with the handle's memory bounded. Results
 * are checked against a double-precision product on the host, element by element, with the
 * bound gamma_(K+2) (|alpha| |A| |B| + |beta| |C|) (docs/methodology.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas_test.h"
#include "blas_check.h"

static gb_blas_t *h;
static cl_context ctx;
static cl_command_queue q;

/* Inputs rounded to the precision, so that the host's product is of what the device read. */
static void fill(double *v, size_t n, size_t es)
{
    for (size_t i = 0; i < n; i++)
        v[i] = es == 4 ? (double)(float)uniform() : uniform();
}

/* Runs one case (count items of a batch when count > 1, strided or of offsets) and checks every
 * element of C, and that nothing outside the items' C was written. */
static void run_case(const gemm_case_t *g0, size_t count, int strided)
{
    gemm_case_t g = *g0;
    g.count = count;
    g.strided = strided;
    case_dims_t d;
    case_dims(&g, &d);
    const size_t es = g.prec == 's' ? 4 : 8;
    const size_t na = d.sa * d.items, nb = d.sb * d.items, nc = d.sc * d.items;
    double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c);
    double *out = malloc(nc * sizeof *out);
    fill(a, na, es);
    fill(b, nb, es);
    fill(c, nc, es);
    if (g.beta == 0.0) /* beta = 0: C is not read, so NaN there must not come out */
        for (size_t i = 0; i < nc; i++)
            c[i] = NAN;
    cl_mem ma = upload(ctx, a, na, es), mb = upload(ctx, b, nb, es), mc = upload(ctx, c, nc, es);
    CHECK(case_call(h, q, &g, NULL, &d, ma, mb, mc, NULL) == GB_OK);
    clFinish(q);
    CHECK(download(q, mc, out, nc, es));
    size_t bad, touched;
    char first[256], text[160];
    case_verify(&g, &d, a, b, c, out, &bad, &touched, first, sizeof first);
    if (bad || touched)
        fprintf(stderr, "case %s: %zu wrong, %zu outside C written%s%s\n",
                case_text(&g, text, sizeof text), bad, touched, bad ? "; first: " : "", first);
    CHECK(bad == 0);
    CHECK(touched == 0);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    free(a);
    free(b);
    free(c);
    free(out);
}

static void test_shapes(void)
{
    static const size_t dims[][3] = {{1, 1, 1},     {7, 5, 3},      {64, 64, 64},  {65, 63, 33},
                                     {33, 130, 17}, {128, 96, 200}, {257, 31, 129}};
    static const double scalars[][2] = {{1, 0}, {-1.5, 0.5}, {0.5, 1}};
    const gb_blas_layout_t layouts[] = {GB_BLAS_ROW_MAJOR, GB_BLAS_COL_MAJOR};
    const gb_blas_trans_t trans[] = {GB_BLAS_NO_TRANS, GB_BLAS_TRANS};
    size_t n = 0;
    for (int p = 0; p < 2; p++)
        for (int l = 0; l < 2; l++)
            for (int ta = 0; ta < 2; ta++)
                for (int tb = 0; tb < 2; tb++) {
                    const size_t d = n % (sizeof dims / sizeof dims[0]);
                    const size_t s = n % 3;
                    gemm_case_t g = {p ? 'd' : 's',
                                     layouts[l],
                                     trans[ta],
                                     trans[tb],
                                     dims[d][0],
                                     dims[d][1],
                                     dims[d][2],
                                     n % 2 ? 3 : 0,
                                     n % 3 ? 5 : 0,
                                     scalars[s][0],
                                     scalars[s][1],
                                     1,
                                     0};
                    run_case(&g, 1, 0);
                    /* and one more size each, to straddle tiles on every route */
                    const size_t d2 = (n + 3) % (sizeof dims / sizeof dims[0]);
                    g.m = dims[d2][0];
                    g.n = dims[d2][1];
                    g.k = dims[d2][2];
                    run_case(&g, 1, 0);
                    n++;
                }
}

static void test_quick_returns(void)
{
    /* K = 0: C = beta C; alpha = 0: the same, A and B unread; M or N = 0: nothing. */
    const gemm_case_t cases[] = {
        {'s', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 9, 7, 0, 1, 2, 1.0, 2.0, 1, 0},
        {'d', GB_BLAS_COL_MAJOR, GB_BLAS_TRANS, GB_BLAS_NO_TRANS, 9, 7, 0, 0, 0, 1.0, 0.0, 1, 0},
        {'s', GB_BLAS_COL_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 9, 7, 5, 2, 1, 0.0, -0.5, 1, 0},
        {'d', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 9, 7, 5, 0, 0, 0.0, 1.0, 1, 0},
        {'s', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 0, 7, 5, 0, 0, 1.0, 0.5, 1, 0},
        {'d', GB_BLAS_COL_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 9, 0, 5, 0, 0, 1.0, 0.5, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i], 1, 0);
    /* With M = 0 the event is still a valid event (a marker). */
    cl_event ev = NULL;
    cl_int err;
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK(gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 0, 4, 4, 1.0f, NULL, 0,
                   4, NULL, 0, 4, 0.0f, c, 0, 4, q, 0, NULL, &ev) == GB_OK);
    CHECK(ev != NULL && clWaitForEvents(1, &ev) == CL_SUCCESS);
    if (ev)
        clReleaseEvent(ev);
    clReleaseMemObject(c);
}

static void test_batches(void)
{
    const gemm_case_t g = {
        's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 17, 23, 9, 1, 3, 0.75, 0.25, 1, 0};
    run_case(&g, 5, 0);
    run_case(&g, 5, 1);
    const gemm_case_t d = {
        'd', GB_BLAS_COL_MAJOR, GB_BLAS_TRANS, GB_BLAS_NO_TRANS, 16, 8, 40, 0, 0, 1.0, 0.0, 1, 0};
    run_case(&d, 4, 0);
    run_case(&d, 3, 1);
}

/* A call gated by a user event: it must return with its commands enqueued, not run. */
static void test_async(void)
{
    const size_t n = 96;
    cl_int err;
    float *host = malloc(n * n * sizeof *host);
    for (size_t i = 0; i < n * n; i++)
        host[i] = (float)(i % 7) - 3.0f;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, host, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * n * 4, host, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * n * 4, NULL, &err);
    cl_event gate = clCreateUserEvent(ctx, &err), done = NULL;
    CHECK(err == CL_SUCCESS);
    CHECK(gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, n, n, n, 1.0f, a, 0, n,
                   b, 0, n, 0.0f, c, 0, n, q, 1, &gate, &done) == GB_OK);
    cl_int status = CL_COMPLETE;
    CHECK(done != NULL);
    if (done)
        clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status != CL_COMPLETE); /* it cannot have run: the gate is still shut */
    clSetUserEventStatus(gate, CL_COMPLETE);
    CHECK(done && clWaitForEvents(1, &done) == CL_SUCCESS);
    float *out = malloc(n * n * sizeof *out);
    clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * n * 4, out, 0, NULL, NULL);
    size_t bad = 0; /* small integers: the product is exact */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0;
            for (size_t p = 0; p < n; p++)
                s += (double)host[i * n + p] * (double)host[p * n + j];
            bad += out[i * n + j] != (float)s;
        }
    CHECK(bad == 0);
    clReleaseEvent(gate);
    if (done)
        clReleaseEvent(done);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    free(host);
    free(out);
}

/* Each bad argument has its code, and its message names it; nothing is enqueued. C is a buffer
 * of its own (C over A or B is refused: test_bad_buffers). */
static void test_bad_arguments(void)
{
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * 16 * 4, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * 16 * 4, NULL, &err);
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8 * 4, NULL, &err);
    const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR;
    const gb_blas_trans_t N = GB_BLAS_NO_TRANS;
    CHECK(gb_sgemm(NULL, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADARG);
    CHECK(gb_sgemm(h, (gb_blas_layout_t)7, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0,
                   NULL, NULL) == GB_EBADLAYOUT);
    CHECK(strstr(gb_blas_errmsg(), "argument 2 (layout)") != NULL);
    CHECK(gb_sgemm(h, R, (gb_blas_trans_t)0, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0,
                   NULL, NULL) == GB_EBADTRANS);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 5, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADLDA);
    CHECK(strstr(gb_blas_errmsg(), "argument 11 (lda)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 6, 4, 1, a, 0, 4, a, 0, 5, 0, c, 0, 6, q, 0, NULL, NULL) ==
          GB_EBADLDB);
    CHECK(gb_dgemm(h, GB_BLAS_COL_MAJOR, N, N, 6, 4, 4, 1, a, 0, 6, a, 0, 4, 0, c, 0, 5, q, 0, NULL,
                   NULL) == GB_EBADLDC);
    CHECK(strstr(gb_blas_errmsg(), "argument 18 (ldc)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, NULL, 0, NULL, NULL) ==
          GB_EBADQUEUE);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, q, 2, NULL, NULL) ==
          GB_EBADARG);
    CHECK(strstr(gb_blas_errmsg(), "argument 21 (wait)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, NULL, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, small, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "argument 12 (b)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 250, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    size_t offs[2] = {0, 0};
    float one[2] = {1, 1};
    CHECK(gb_sgemm_batched(h, R, N, N, 2, 2, 2, one, a, offs, 2, a, NULL, 2, one, c, offs, 2, 2, q,
                           0, NULL, NULL) == GB_EBADARG);
    CHECK(strstr(gb_blas_errmsg(), "argument 13 (b_offs)") != NULL);
    CHECK(gb_sgemm_strided_batched(h, R, N, N, 4, 4, 4, 1, a, 0, 4, 16, a, 0, 4, 16, 0, c, 0, 4, 16,
                                   20, q, 0, NULL, NULL) == GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "batch item 16") != NULL);
    /* Past the kernels' 32-bit indexing: the argument named, as for every other argument. */
    CHECK(gb_sgemm(h, R, N, N, 2, 4, 4, 1, a, 0, (size_t)1 << 30, a, 0, 4, 0, c, 0, 4, q, 0, NULL,
                   NULL) == GB_EOVERFLOW);
    CHECK(strstr(gb_blas_errmsg(), "gb_sgemm: argument 9 (a) is indexed past 2^31-1 elements") !=
          NULL);
    CHECK(gb_sgemm(h, R, N, N, 2, 4, 0, 1, NULL, 0, 4, NULL, 0, 4, 2, c, 0, (size_t)1 << 31, q, 0,
                   NULL, NULL) == GB_EOVERFLOW); /* K = 0: C scaled, still indexed */
    CHECK(strstr(gb_blas_errmsg(), "gb_sgemm: argument 16 (c)") != NULL);
    CHECK(gb_sgemm_strided_batched(h, R, N, N, 4, 4, 4, 1, a, 0, 4, 0, a, 0, 4, 0, 0, c, 0, 4,
                                   SIZE_MAX / 2 + 1, 3, q, 0, NULL, NULL) == GB_EOVERFLOW);
    CHECK(strstr(gb_blas_errmsg(), "argument 21 (c_stride)") != NULL);
    /* An out-of-order queue is refused. */
    cl_device_id dev = gb_blas_device(h);
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    if (err == CL_SUCCESS) {
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, c, 0, 4, ooo, 0, NULL, NULL) ==
              GB_EBADQUEUE);
        CHECK(strstr(gb_blas_errmsg(), "argument 19 (queue)") != NULL);
        clReleaseCommandQueue(ooo);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(c);
    clReleaseMemObject(small);
}

/* Memory objects the handle cannot use, each refused with GB_EBADBUFFER before anything is
 * enqueued, naming the argument: a buffer of another context, an image, C made read-only, A made
 * write-only, a write-only C that beta != 0 reads, and C sharing memory with A or B (the same
 * buffer, or a sub-buffer of it); and what stays allowed: A and B in one buffer, C apart from
 * them in the same buffer, a write-only C with beta = 0, A over C where alpha = 0 leaves it
 * unread. */
static void test_bad_buffers(void)
{
    const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR;
    const gb_blas_trans_t N = GB_BLAS_NO_TRANS;
    cl_int err;
    cl_device_id dev = gb_blas_device(h);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
    /* Another context on the same device. */
    cl_context other = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err == CL_SUCCESS) {
        cl_mem x = clCreateBuffer(other, CL_MEM_READ_WRITE, 4096, NULL, &err);
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, x, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
              GB_EBADBUFFER);
        CHECK(strstr(gb_blas_errmsg(), "argument 12 (b) is a buffer of another context") != NULL);
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, x, 0, 4, q, 0, NULL, NULL) ==
              GB_EBADBUFFER);
        clReleaseMemObject(x);
        clReleaseContext(other);
    }
    /* An image as A. */
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL);
    if (images) {
        const cl_image_format fmt = {CL_R, CL_FLOAT};
        cl_image_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = desc.image_height = 16;
        cl_mem img = clCreateImage(ctx, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &err);
        if (err == CL_SUCCESS) {
            CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, img, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL,
                           NULL) == GB_EBADBUFFER);
            CHECK(strstr(gb_blas_errmsg(), "argument 9 (a) is an image, not a buffer") != NULL);
            clReleaseMemObject(img);
        }
    }
    /* Access flags against what the call does. */
    cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 4096, NULL, &err);
    cl_mem wo = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 4096, NULL, &err);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, ro, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "argument 16 (c) was made CL_MEM_READ_ONLY") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, wo, 0, 4, a, 0, 4, 0, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "argument 9 (a) was made CL_MEM_WRITE_ONLY") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, ro, 0, 4, ro, 0, 4, 1, wo, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "but the call reads it (beta is not 0)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, ro, 0, 4, ro, 0, 4, 0, wo, 0, 4, q, 0, NULL, NULL) ==
          GB_OK);
    /* C over A or B: the same buffer, or a sub-buffer of it, overlapping. */
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, a, 15, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "argument 16 (c) overlaps argument 9 (a)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, c, 0, 4, a, 0, 4, 0, a, 15, 4, q, 0, NULL, NULL) ==
          GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "argument 16 (c) overlaps argument 12 (b)") != NULL);
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, a, 0, 4, a, 0, 4, 0, a, 16, 4, q, 0, NULL, NULL) ==
          GB_OK); /* C right after A and B: apart */
    CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 0, a, 0, 4, a, 0, 4, 2, a, 0, 4, q, 0, NULL, NULL) ==
          GB_OK); /* alpha = 0: A and B are not read */
    cl_uint align_bits = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
    const size_t align = align_bits / 8;
    cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * align + 4096, NULL, &err);
    const cl_buffer_region first = {0, align + 64}, second = {align, 2 * align};
    cl_mem sub1 = align >= 64 ? clCreateSubBuffer(big, CL_MEM_READ_WRITE,
                                                  CL_BUFFER_CREATE_TYPE_REGION, &first, &err)
                              : NULL;
    cl_mem sub2 = sub1 ? clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                           &second, &err)
                       : NULL;
    if (sub1 && sub2) {
        /* A at the end of the first region is within the second's start. */
        const size_t at = align / 4;
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, sub1, at, 4, c, 0, 4, 0, sub2, 0, 4, q, 0, NULL,
                       NULL) == GB_EBADBUFFER);
        CHECK(strstr(gb_blas_errmsg(), "argument 16 (c) overlaps argument 9 (a)") != NULL);
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, sub1, 0, 4, c, 0, 4, 0, sub2, 0, 4, q, 0, NULL,
                       NULL) == GB_OK);
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, big, 0, 4, c, 0, 4, 0, sub2, 0, 4, q, 0, NULL,
                       NULL) == GB_OK);
        CHECK(gb_sgemm(h, R, N, N, 4, 4, 4, 1, big, at, 4, c, 0, 4, 0, sub2, 0, 4, q, 0, NULL,
                       NULL) == GB_EBADBUFFER);
    }
    if (sub1)
        clReleaseMemObject(sub1);
    if (sub2)
        clReleaseMemObject(sub2);
    clReleaseMemObject(big);
    clFinish(q);
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseMemObject(a);
    clReleaseMemObject(c);
}

/* Many queues served, one after another, each released by its owner: the handle keeps a bounded
 * number of them (and their scratch), so memory stops growing. Each call pads C (ldc), so the
 * route copies it through the queue's scratch. The memory is the process's resident set; under
 * AddressSanitizer, whose quarantine keeps freed memory resident (256 MB by default), the heap
 * the process holds (every malloc goes through ASan's allocator, the OpenCL driver's too). */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifdef SANITIZED
size_t __sanitizer_get_current_allocated_bytes(void);
static long memory_kb(void)
{
    return (long)(__sanitizer_get_current_allocated_bytes() / 1024);
}
#else
static long memory_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}
#endif

static void test_many_queues(void)
{
    cl_int err;
    cl_device_id dev = gb_blas_device(h);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 4, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 4, NULL, &err);
    long before = 0;
    int ok = 1;
    for (int i = 0; i < 1200 && ok; i++) {
        if (i == 200)
            before = memory_kb();
        cl_command_queue qi = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
        ok = err == CL_SUCCESS &&
             gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 17, 17, 17, 1.0f, a, 0,
                      17, a, 0, 17, 0.0f, c, 0, 19, qi, 0, NULL, NULL) == GB_OK &&
             clFinish(qi) == CL_SUCCESS;
        if (err == CL_SUCCESS)
            clReleaseCommandQueue(qi);
    }
    CHECK(ok);
    const long after = memory_kb();
    if (before > 0 && after > 0) {
        printf("1000 queues served: memory %+ld kB\n", after - before);
        CHECK(after - before < 4096);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(c);
}

static void test_override(void)
{
    char buf[512];
    CHECK(gb_blas_chosen(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 256, 256,
                         256, buf, sizeof buf) == GB_OK);
    printf("auto at 256^3 (s): %s\n", buf);
    CHECK(gb_blas_set_kernel(h, "no_such_kernel", NULL) == GB_ENOKERNEL);
    CHECK(gb_blas_set_kernel(h, "naive", "NOPE=3") == GB_EBADPARAM);
    CHECK(gb_blas_set_kernel(h, "xgemm", "MWG=64 NWG=64 KWG=16") == GB_OK);
    CHECK(gb_blas_chosen(h, 's', GB_BLAS_COL_MAJOR, GB_BLAS_TRANS, GB_BLAS_NO_TRANS, 100, 90, 80,
                         buf, sizeof buf) == GB_OK);
    CHECK(strncmp(buf, "xgemm ", 6) == 0 && strstr(buf, "MWG=64") && strstr(buf, "set on"));
    const gemm_case_t g = {
        's', GB_BLAS_COL_MAJOR, GB_BLAS_TRANS, GB_BLAS_NO_TRANS, 100, 90, 80, 2, 1, 1.0, -1.0, 1,
        0};
    run_case(&g, 1, 0);
    CHECK(gb_blas_set_kernel(h, "naive", NULL) == GB_OK);
    const gemm_case_t d = {
        'd', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 33, 17, 9, 0, 0, 2.0, 0.0, 1, 0};
    run_case(&d, 1, 0);
    CHECK(gb_blas_set_kernel(h, NULL, NULL) == GB_OK);
    CHECK(gb_blas_chosen(h, 'x', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 1, 1, 1,
                         buf, sizeof buf) == GB_EBADPRECISION);
    /* A buffer too short for the text: refused, naming it, with as much as fits. */
    char shortbuf[8];
    CHECK(gb_blas_chosen(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 256, 256,
                         256, buf, sizeof buf) == GB_OK);
    CHECK(gb_blas_chosen(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 256, 256,
                         256, shortbuf, sizeof shortbuf) == GB_EBADARG);
    CHECK(strstr(gb_blas_errmsg(), "gb_blas_chosen: argument 10 (len) is 8") != NULL);
    CHECK(strlen(shortbuf) == 7 && !strncmp(shortbuf, buf, 7));
}

int main(void)
{
    /* Opened by name, as the tool's -p/-d: PoCL where it is there, else the first device. */
    int rc = gb_blas_open_device(&h, getenv("GB_TEST_PLATFORM"), getenv("GB_TEST_DEVICE"));
    if (rc != GB_OK) {
        fprintf(stderr, "no device: %s\n", gb_blas_errmsg());
        return 77;
    }
    ctx = gb_blas_context(h);
    q = gb_blas_queue(h);
    test_shapes();
    test_quick_returns();
    test_batches();
    test_async();
    test_bad_arguments();
    test_bad_buffers();
    test_many_queues();
    test_override();
    /* A handle on the caller's own context and device. */
    gb_blas_t *h2;
    CHECK(gb_blas_open(&h2, ctx, gb_blas_device(h)) == GB_OK);
    gb_blas_close(h2);
    CHECK(gb_blas_open(&h2, NULL, gb_blas_device(h)) == GB_EBADARG && h2 == NULL);
    gb_blas_t *keep = h;
    CHECK(gb_blas_open(&h, ctx, gb_blas_device(keep)) == GB_OK);
    const gemm_case_t g = {
        'd', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 40, 50, 60, 0, 0, 1.0, 1.0, 1,
        0};
    run_case(&g, 1, 0);
    gb_blas_close(h);
    h = keep;
    gb_blas_close(h);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
