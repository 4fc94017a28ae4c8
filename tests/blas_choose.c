/* blas_choose.c: what the library chooses, as an application sees it (gemmbench_blas.h alone,
 * the shared library): `blas_choose [MODE] PREC M N K [...]` (PREC one of s, d, h, b, c, z,
 * followed by T or C where op(A) is A^T or A^H) opens a handle on the default device
 * (GEMMBENCH_SELECT and the tuning and choices files as the environment says), sets MODE
 * where given (off, cached, measure, measure+build), and for each shape prints
 * "M N K: KERNEL PARAMS (why)" after running one GEMM of it on buffers of its own (so that the
 * capture file sees the call), then the handle's warnings, each on a line "warning: ...".
 * tests/select_test.sh drives it. Exit 1 when a call fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench_blas.h"

static int mode_of(const char *s, int *mode)
{
    static const struct {
        const char *name;
        int mode;
    } modes[] = {{"off", GB_BLAS_SELECT_OFF},
                 {"cached", GB_BLAS_SELECT_CACHED},
                 {"measure", GB_BLAS_SELECT_MEASURE},
                 {"measure+build", GB_BLAS_SELECT_MEASURE | GB_BLAS_SELECT_BUILD}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcmp(s, modes[i].name)) {
            *mode = modes[i].mode;
            return 1;
        }
    return 0;
}

/* The size of an element of prec: h and b 16-bit, c and z two reals. */
static size_t elem_size(char prec)
{
    switch (prec) {
    case 'h':
    case 'b': return 2;
    case 'd':
    case 'c': return 8;
    case 'z': return 16;
    default: return 4;
    }
}

/* C = op(A) B in prec, row-major, on the buffers a, b, c, enqueued on q. */
static int gemm(gb_blas_t *h, char prec, gb_blas_trans_t ta, size_t m, size_t n, size_t k, cl_mem a,
                cl_mem b, cl_mem c, cl_command_queue q)
{
    const gb_blas_layout_t row = GB_BLAS_ROW_MAJOR;
    const gb_blas_trans_t nt = GB_BLAS_NO_TRANS;
    const size_t lda = ta == GB_BLAS_NO_TRANS ? k : m;
    const cl_float2 c1 = {{1.0f, 0.0f}}, c0 = {{0.0f, 0.0f}};
    const cl_double2 z1 = {{1.0, 0.0}}, z0 = {{0.0, 0.0}};
    switch (prec) {
    case 'd':
        return gb_dgemm(h, row, ta, nt, m, n, k, 1.0, a, 0, lda, b, 0, n, 0.0, c, 0, n, q, 0, NULL,
                        NULL);
    case 'h':
        return gb_hgemm(h, row, ta, nt, m, n, k, 1.0f, a, 0, lda, b, 0, n, 0.0f, c, 0, n, q, 0,
                        NULL, NULL);
    case 'b':
        return gb_bgemm(h, row, ta, nt, m, n, k, 1.0f, a, 0, lda, b, 0, n, 0.0f, c, 0, n, q, 0,
                        NULL, NULL);
    case 'c':
        return gb_cgemm(h, row, ta, nt, m, n, k, c1, a, 0, lda, b, 0, n, c0, c, 0, n, q, 0, NULL,
                        NULL);
    case 'z':
        return gb_zgemm(h, row, ta, nt, m, n, k, z1, a, 0, lda, b, 0, n, z0, c, 0, n, q, 0, NULL,
                        NULL);
    default:
        return gb_sgemm(h, row, ta, nt, m, n, k, 1.0f, a, 0, lda, b, 0, n, 0.0f, c, 0, n, q, 0,
                        NULL, NULL);
    }
}

/* One call of the shape on zeroed buffers of the handle's context. */
static int call(gb_blas_t *h, char prec, gb_blas_trans_t ta, size_t m, size_t n, size_t k)
{
    const size_t es = elem_size(prec);
    cl_int err;
    cl_context ctx = gb_blas_context(h);
    cl_command_queue q = gb_blas_queue(h);
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, m * k * es, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, k * n * es, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, m * n * es, NULL, &err);
    int rc = a && b && c ? gemm(h, prec, ta, m, n, k, a, b, c, q) : GB_ENOMEM;
    if (rc == GB_OK)
        clFinish(q);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    return rc;
}

int main(int argc, char **argv)
{
    int first = 1, mode = -1;
    if (argc > 1 && mode_of(argv[1], &mode))
        first = 2;
    if (argc < first + 4 || (argc - first) % 4) {
        fprintf(stderr, "usage: blas_choose [MODE] PREC M N K [PREC M N K ...]\n");
        return 2;
    }
    gb_blas_t *h;
    if (gb_blas_open_device(&h, NULL, NULL) != GB_OK) {
        fprintf(stderr, "blas_choose: %s\n", gb_blas_errmsg());
        return 77;
    }
    int status = 0;
    if (mode >= 0 && gb_blas_set_select(h, mode) != GB_OK)
        status = 1;
    for (int i = first; !status && i + 3 < argc; i += 4) {
        const char prec = argv[i][0];
        const gb_blas_trans_t ta = argv[i][1] == 'T'   ? GB_BLAS_TRANS
                                   : argv[i][1] == 'C' ? GB_BLAS_CONJ_TRANS
                                                       : GB_BLAS_NO_TRANS;
        const size_t m = strtoull(argv[i + 1], NULL, 10), n = strtoull(argv[i + 2], NULL, 10),
                     k = strtoull(argv[i + 3], NULL, 10);
        char text[2048];
        if (call(h, prec, ta, m, n, k) != GB_OK ||
            gb_blas_chosen(h, prec, GB_BLAS_ROW_MAJOR, ta, GB_BLAS_NO_TRANS, m, n, k, text,
                           sizeof text) != GB_OK) {
            fprintf(stderr, "blas_choose: %s\n", gb_blas_errmsg());
            status = 1;
        } else {
            printf("%zu %zu %zu: %s\n", m, n, k, text);
        }
    }
    const char *w = gb_blas_warnings(h);
    while (*w) {
        const size_t len = strcspn(w, "\n");
        printf("warning: %.*s\n", (int)len, w);
        w += len + (w[len] == '\n');
    }
    gb_blas_close(h);
    return status;
}
