/* sgemm.c: the gemmbench GEMM library in one program. It opens a handle on the default device,
 * multiplies a 300 x 200 matrix by a 200 x 100 one (row-major, single precision) on buffers of
 * its own, reads the product back and checks it against the same product computed on the host.
 * Prints which kernel the library chose and "ok"; exits with 1 on any failure. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gemmbench_blas.h>

#define M 300
#define N 100
#define K 200

/* Prints what failed, with the library's code and message, and returns 1 (the exit status). */
static int fail(const char *what, int rc)
{
    fprintf(stderr, "sgemm: %s: %s (%s): %s\n", what, gb_errname(rc), gb_strerror(rc),
            gb_blas_errmsg());
    return 1;
}

int main(void)
{
    static float a[M * K], b[K * N], c[M * N];
    /* Values in [-1, 1]: products of such numbers are exact in float, sums are not. */
    for (size_t i = 0; i < M * K; i++)
        a[i] = (float)((i * 37) % 101) / 50.0f - 1.0f;
    for (size_t i = 0; i < K * N; i++)
        b[i] = (float)((i * 53) % 97) / 48.0f - 1.0f;

    /* A handle on the first device (a GPU where there is one), with its own context and
     * in-order queue. gb_blas_open(&h, context, device) takes a context of the program's own. */
    gb_blas_t *h = NULL;
    int rc = gb_blas_open_device(&h, NULL, NULL);
    if (rc != GB_OK)
        return fail("opening a device", rc);
    cl_context ctx = gb_blas_context(h);
    cl_command_queue queue = gb_blas_queue(h);

    cl_int err, err_b, err_c;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof a, NULL, &err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof b, NULL, &err_b);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, &err_c);
    int status = 1;
    if (err != CL_SUCCESS || err_b != CL_SUCCESS || err_c != CL_SUCCESS) {
        fprintf(stderr, "sgemm: clCreateBuffer failed (%d %d %d)\n", err, err_b, err_c);
        goto out;
    }
    /* The uploads need not block: the queue is in order, so the GEMM runs after them. */
    if (clEnqueueWriteBuffer(queue, da, CL_FALSE, 0, sizeof a, a, 0, NULL, NULL) != CL_SUCCESS ||
        clEnqueueWriteBuffer(queue, db, CL_FALSE, 0, sizeof b, b, 0, NULL, NULL) != CL_SUCCESS) {
        fprintf(stderr, "sgemm: clEnqueueWriteBuffer failed\n");
        goto out;
    }

    /* C = 1 * A * B + 0 * C: with beta = 0, C's old contents are not read. Leading dimensions
     * are row lengths (row-major); offsets are in elements. The call only enqueues. */
    cl_event done = NULL;
    rc = gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, M, N, K, 1.0f, da, 0, K,
                  db, 0, N, 0.0f, dc, 0, N, queue, 0, NULL, &done);
    if (rc != GB_OK) {
        status = fail("gb_sgemm", rc);
        goto out;
    }
    /* A blocking read after the GEMM's event: C is then complete on the host. */
    err = clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, sizeof c, c, 1, &done, NULL);
    clReleaseEvent(done);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "sgemm: clEnqueueReadBuffer failed (%d)\n", err);
        goto out;
    }

    /* The host's product in double. Each element of the device's sum of K float products may
     * differ from it by about K * FLT_EPSILON * sum |a_ip b_pj| (a standard bound on rounding
     * in a dot product); twice that is the tolerance. */
    size_t wrong = 0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            double ref = 0, mag = 0;
            for (size_t p = 0; p < K; p++) {
                ref += (double)a[i * K + p] * (double)b[p * N + j];
                mag += fabs((double)a[i * K + p] * (double)b[p * N + j]);
            }
            const double tol = 2.0 * K * (double)FLT_EPSILON * mag;
            if (!(fabs((double)c[i * N + j] - ref) <= tol) && wrong++ == 0)
                fprintf(stderr, "sgemm: C[%zu][%zu] is %.8g, expected %.8g (tolerance %.3g)\n", i,
                        j, (double)c[i * N + j], ref, tol);
        }
    if (wrong) {
        fprintf(stderr, "sgemm: %zu of %d elements wrong\n", wrong, M * N);
        goto out;
    }

    char chosen[512];
    rc = gb_blas_chosen(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, M, N, K,
                        chosen, sizeof chosen);
    if (rc != GB_OK) {
        status = fail("gb_blas_chosen", rc);
        goto out;
    }
    printf("gemmbench %s: C (%dx%d) = A (%dx%d) B (%dx%d) with %s\nok\n", gb_version(), M, N, M, K,
           K, N, chosen);
    status = 0;
out:
    if (dc)
        clReleaseMemObject(dc);
    if (db)
        clReleaseMemObject(db);
    if (da)
        clReleaseMemObject(da);
    gb_blas_close(h);
    return status;
}
