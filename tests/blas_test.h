/* blas_test.h: what the library's tests (blas_calls.c, blas_threads.c) share: a GEMM case and
 * the layout of its buffers, uploads and downloads in the case's precision, the library call of
 * a case (single, batched or strided-batched), and the check of its result element by element
 * against a double-precision product on the host, with the bound
 * gamma_(K+2) (|alpha| |A| |B| + |beta| |C|) (docs/methodology.md), and that nothing outside
 * the items' C was written. Header-only: each test includes it once. */
#ifndef GB_BLAS_TEST_H
#define GB_BLAS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench_blas.h"

typedef struct gemm_case {
    char prec;
    gb_blas_layout_t layout;
    gb_blas_trans_t ta, tb;
    size_t m, n, k, pad, off; /* ld = minimum + pad; every operand at offset off */
    double alpha, beta;
    size_t count; /* the items of a batch (0 or 1: one call) */
    int strided;  /* a strided batch, else a batch of offsets */
} gemm_case_t;

/* Leading dimensions, and each item's elements of A, B, C (3 spare after each). */
typedef struct case_dims {
    size_t items, lda, ldb, ldc, sa, sb, sc;
} case_dims_t;

static size_t at(gb_blas_layout_t layout, size_t ld, size_t r, size_t c)
{
    return layout == GB_BLAS_ROW_MAJOR ? r * ld + c : c * ld + r;
}

static void case_dims(const gemm_case_t *g, case_dims_t *d)
{
    const int row = g->layout == GB_BLAS_ROW_MAJOR;
    /* Stored rows and columns of A and B (op^-1 of m x k and k x n). */
    const size_t ar = g->ta == GB_BLAS_NO_TRANS ? g->m : g->k;
    const size_t ac = g->ta == GB_BLAS_NO_TRANS ? g->k : g->m;
    const size_t br = g->tb == GB_BLAS_NO_TRANS ? g->k : g->n;
    const size_t bc = g->tb == GB_BLAS_NO_TRANS ? g->n : g->k;
    d->items = g->count > 1 ? g->count : 1;
    d->lda = (row ? ac : ar) + g->pad + (ac == 0 || ar == 0);
    d->ldb = (row ? bc : br) + g->pad + (bc == 0 || br == 0);
    d->ldc = (row ? g->n : g->m) + g->pad + (g->n == 0 || g->m == 0);
    d->sa = g->off + d->lda * (row ? ar : ac) + 3;
    d->sb = g->off + d->ldb * (row ? br : bc) + 3;
    d->sc = g->off + d->ldc * (row ? g->m : g->n) + 3;
}

/* A buffer of ctx holding v in es-byte elements; NULL on failure. */
static cl_mem upload(cl_context ctx, const double *v, size_t elems, size_t es)
{
    unsigned char *buf = malloc(elems * es);
    if (!buf)
        return NULL;
    for (size_t i = 0; i < elems; i++) {
        if (es == 4) {
            const float f = (float)v[i];
            memcpy(buf + 4 * i, &f, 4);
        } else {
            memcpy(buf + 8 * i, &v[i], 8);
        }
    }
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, elems * es, buf, &err);
    free(buf);
    return err == CL_SUCCESS ? m : NULL;
}

/* Reads m into v (blocking); 1, or 0 on failure. */
static int download(cl_command_queue q, cl_mem m, double *v, size_t elems, size_t es)
{
    unsigned char *buf = malloc(elems * es);
    if (!buf ||
        clEnqueueReadBuffer(q, m, CL_TRUE, 0, elems * es, buf, 0, NULL, NULL) != CL_SUCCESS) {
        free(buf);
        return 0;
    }
    for (size_t i = 0; i < elems; i++) {
        if (es == 4) {
            float f;
            memcpy(&f, buf + 4 * i, 4);
            v[i] = f;
        } else {
            memcpy(&v[i], buf + 8 * i, 8);
        }
    }
    free(buf);
    return 1;
}

/* The library call of g on q (its items d->sa, d->sb, d->sc elements apart), the last command's
 * event into *ev where ev is not NULL. */
static int case_call(gb_blas_t *h, cl_command_queue q, const gemm_case_t *g, const case_dims_t *d,
                     cl_mem ma, cl_mem mb, cl_mem mc, cl_event *ev)
{
    const int s = g->prec == 's';
    const float fa = (float)g->alpha, fb = (float)g->beta;
    const size_t n = d->items, lda = d->lda, ldb = d->ldb, ldc = d->ldc, off = g->off;
    if (g->count <= 1)
        return s ? gb_sgemm(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fa, ma, off, lda, mb, off,
                            ldb, fb, mc, off, ldc, q, 0, NULL, ev)
                 : gb_dgemm(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, ma, off, lda,
                            mb, off, ldb, g->beta, mc, off, ldc, q, 0, NULL, ev);
    if (g->strided)
        return s ? gb_sgemm_strided_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fa, ma,
                                            off, lda, d->sa, mb, off, ldb, d->sb, fb, mc, off, ldc,
                                            d->sc, n, q, 0, NULL, ev)
                 : gb_dgemm_strided_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
                                            ma, off, lda, d->sa, mb, off, ldb, d->sb, g->beta, mc,
                                            off, ldc, d->sc, n, q, 0, NULL, ev);
    size_t *offs = malloc(3 * n * sizeof *offs);
    float *fs = malloc(2 * n * sizeof *fs);
    double *ds = malloc(2 * n * sizeof *ds);
    int rc = GB_ENOMEM;
    if (offs && fs && ds) {
        for (size_t i = 0; i < n; i++) {
            offs[i] = off + i * d->sa;
            offs[n + i] = off + i * d->sb;
            offs[2 * n + i] = off + i * d->sc;
            fs[i] = fa;
            fs[n + i] = fb;
            ds[i] = g->alpha;
            ds[n + i] = g->beta;
        }
        rc = s ? gb_sgemm_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fs, ma, offs, lda,
                                  mb, offs + n, ldb, fs + n, mc, offs + 2 * n, ldc, n, q, 0, NULL,
                                  ev)
               : gb_dgemm_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, ds, ma, offs, lda,
                                  mb, offs + n, ldb, ds + n, mc, offs + 2 * n, ldc, n, q, 0, NULL,
                                  ev);
    }
    free(offs);
    free(fs);
    free(ds);
    return rc;
}

/* Checks out (C after the call) against the host's product of a, b and c (before it): *bad
 * elements of the items' C off by more than the bound, *touched elements outside them changed;
 * the first bad one described in first. */
static void case_verify(const gemm_case_t *g, const case_dims_t *d, const double *a,
                        const double *b, const double *c, const double *out, size_t *bad,
                        size_t *touched, char *first, size_t len)
{
    const size_t es = g->prec == 's' ? 4 : 8;
    const int row = g->layout == GB_BLAS_ROW_MAJOR;
    const double u = es == 4 ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const double gamma = (double)(g->k + 2) * u / (1.0 - (double)(g->k + 2) * u);
    *bad = *touched = 0;
    first[0] = '\0';
    for (size_t it = 0; it < d->items; it++) {
        const double *A = a + it * d->sa + g->off, *B = b + it * d->sb + g->off;
        const double *C0 = c + it * d->sc + g->off, *O = out + it * d->sc + g->off;
        for (size_t i = 0; i < g->m; i++)
            for (size_t j = 0; j < g->n; j++) {
                double s = 0, s_abs = 0;
                for (size_t p = 0; p < g->k; p++) {
                    const double x = g->ta == GB_BLAS_NO_TRANS ? A[at(g->layout, d->lda, i, p)]
                                                               : A[at(g->layout, d->lda, p, i)];
                    const double y = g->tb == GB_BLAS_NO_TRANS ? B[at(g->layout, d->ldb, p, j)]
                                                               : B[at(g->layout, d->ldb, j, p)];
                    s += x * y;
                    s_abs += fabs(x * y);
                }
                const double c0 = g->beta == 0.0 ? 0.0 : C0[at(g->layout, d->ldc, i, j)];
                const double ref = g->alpha * s + g->beta * c0;
                const double bound = gamma * (fabs(g->alpha) * s_abs + fabs(g->beta * c0)) +
                                     (es == 4 ? 1e-30 : 1e-300);
                const double got = O[at(g->layout, d->ldc, i, j)];
                if (!(fabs(got - ref) <= bound) && (*bad)++ == 0)
                    snprintf(first, len, "item %zu (%zu,%zu): %.17g, expected %.17g (bound %.3g)",
                             it, i, j, got, ref, bound);
            }
    }
    for (size_t i = 0; i < d->items * d->sc; i++) {
        const size_t e = i % d->sc;
        int inside = 0;
        if (e >= g->off) {
            const size_t rel = e - g->off, outer = rel / d->ldc, inner = rel % d->ldc;
            inside = outer < (row ? g->m : g->n) && inner < (row ? g->n : g->m);
        }
        if (!inside && !(out[i] == c[i] || (isnan(out[i]) && isnan(c[i]))))
            (*touched)++;
    }
}

/* "s row NT m=... x3 strided" into buf. */
static const char *case_text(const gemm_case_t *g, char *buf, size_t len)
{
    snprintf(buf, len, "%c %s %c%c m=%zu n=%zu k=%zu pad=%zu off=%zu alpha=%g beta=%g x%zu%s",
             g->prec, g->layout == GB_BLAS_ROW_MAJOR ? "row" : "col",
             g->ta == GB_BLAS_NO_TRANS ? 'N' : 'T', g->tb == GB_BLAS_NO_TRANS ? 'N' : 'T', g->m,
             g->n, g->k, g->pad, g->off, g->alpha, g->beta, g->count > 1 ? g->count : 1,
             g->count > 1 && g->strided ? " strided" : "");
    return buf;
}

#endif
