/* blas_test.h: what the library's tests (blas_calls.c, blas_threads.c, blas_precisions.c,
 * blas_fallback.c) share: a GEMM case and the layout of its buffers, uploads and downloads in s
 * and d, the library call of a case in any precision (single, batched or strided-batched), the
 * check of an s or d result element by element against a double-precision product on the host,
 * with the bound gamma_(K+2) (|alpha| |A| |B| + |beta| |C|) (docs/methodology.md), and that
 * nothing outside the items' C was written. Header-only: each test includes it once and uses what it needs (the
 * helpers are static inline, so that those a test leaves unused say nothing). The counted CHECK
 * of the single-threaded tests is blas_check.h's. */
#ifndef GB_BLAS_TEST_H
#define GB_BLAS_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench_blas.h"

typedef struct gemm_case {
    char prec; /* 's', 'd', 'h', 'b', 'c' or 'z' */
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

static inline size_t at(gb_blas_layout_t layout, size_t ld, size_t r, size_t c)
{
    return layout == GB_BLAS_ROW_MAJOR ? r * ld + c : c * ld + r;
}

static inline void case_dims(const gemm_case_t *g, case_dims_t *d)
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
static inline cl_mem upload(cl_context ctx, const double *v, size_t elems, size_t es)
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
static inline int download(cl_command_queue q, cl_mem m, double *v, size_t elems, size_t es)
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
 * event into *ev where ev is not NULL; im: the imaginary parts of alpha and beta for c and z
 * (NULL: 0). */
static inline int case_call(gb_blas_t *h, cl_command_queue q, const gemm_case_t *g,
                            const double *im, const case_dims_t *d, cl_mem ma, cl_mem mb, cl_mem mc,
                            cl_event *ev)
{
    const gb_blas_layout_t lay = g->layout;
    const gb_blas_trans_t ta = g->ta, tb = g->tb;
    const size_t m = g->m, n = g->n, k = g->k, items = d->items;
    const size_t lda = d->lda, ldb = d->ldb, ldc = d->ldc, off = g->off;
    /* The scalars as each precision takes them: float (s, h, b), double, cl_float2, cl_double2. */
    const float fa = (float)g->alpha, fb = (float)g->beta;
    const double ai = im ? im[0] : 0.0, bi = im ? im[1] : 0.0;
    const cl_float2 ca = {{fa, (float)ai}}, cb = {{fb, (float)bi}};
    const cl_double2 za = {{g->alpha, ai}}, zb = {{g->beta, bi}};
    if (g->count <= 1 || g->strided) {
        const size_t sa = g->count <= 1 ? 0 : d->sa, sb = g->count <= 1 ? 0 : d->sb;
        const size_t sc = g->count <= 1 ? 0 : d->sc;
#define ONE(f, A, B)                                                                               \
    f(h, lay, ta, tb, m, n, k, A, ma, off, lda, mb, off, ldb, B, mc, off, ldc, q, 0, NULL, ev)
#define STRIDED(f, A, B)                                                                           \
    f(h, lay, ta, tb, m, n, k, A, ma, off, lda, sa, mb, off, ldb, sb, B, mc, off, ldc, sc, items,  \
      q, 0, NULL, ev)
        const int one = g->count <= 1;
        switch (g->prec) {
        case 's': return one ? ONE(gb_sgemm, fa, fb) : STRIDED(gb_sgemm_strided_batched, fa, fb);
        case 'd':
            return one ? ONE(gb_dgemm, g->alpha, g->beta)
                       : STRIDED(gb_dgemm_strided_batched, g->alpha, g->beta);
        case 'h': return one ? ONE(gb_hgemm, fa, fb) : STRIDED(gb_hgemm_strided_batched, fa, fb);
        case 'b': return one ? ONE(gb_bgemm, fa, fb) : STRIDED(gb_bgemm_strided_batched, fa, fb);
        case 'c': return one ? ONE(gb_cgemm, ca, cb) : STRIDED(gb_cgemm_strided_batched, ca, cb);
        default: return one ? ONE(gb_zgemm, za, zb) : STRIDED(gb_zgemm_strided_batched, za, zb);
        }
#undef ONE
#undef STRIDED
    }
    /* A batch of offsets: each item's scalars the same, in arrays of the precision's type. */
    size_t *offs = malloc(3 * items * sizeof *offs);
    float *fs = malloc(2 * items * sizeof *fs);
    double *ds = malloc(2 * items * sizeof *ds);
    cl_float2 *cs = malloc(2 * items * sizeof *cs);
    cl_double2 *zs = malloc(2 * items * sizeof *zs);
    int rc = GB_ENOMEM;
    if (offs && fs && ds && cs && zs) {
        for (size_t i = 0; i < items; i++) {
            offs[i] = off + i * d->sa;
            offs[items + i] = off + i * d->sb;
            offs[2 * items + i] = off + i * d->sc;
            fs[i] = fa;
            fs[items + i] = fb;
            ds[i] = g->alpha;
            ds[items + i] = g->beta;
            cs[i] = ca;
            cs[items + i] = cb;
            zs[i] = za;
            zs[items + i] = zb;
        }
        const size_t *ao = offs, *bo = offs + items, *co = offs + 2 * items;
#define BATCH(f, S)                                                                                \
    f(h, lay, ta, tb, m, n, k, S, ma, ao, lda, mb, bo, ldb, S + items, mc, co, ldc, items, q, 0,   \
      NULL, ev)
        switch (g->prec) {
        case 's': rc = BATCH(gb_sgemm_batched, fs); break;
        case 'd': rc = BATCH(gb_dgemm_batched, ds); break;
        case 'h': rc = BATCH(gb_hgemm_batched, fs); break;
        case 'b': rc = BATCH(gb_bgemm_batched, fs); break;
        case 'c': rc = BATCH(gb_cgemm_batched, cs); break;
        default: rc = BATCH(gb_zgemm_batched, zs); break;
        }
#undef BATCH
    }
    free(offs);
    free(fs);
    free(ds);
    free(cs);
    free(zs);
    return rc;
}

/* How many elements outside the items' C differ between out (after the call) and c (before),
 * each of parts doubles (2 for c and z). */
static inline size_t case_touched(const gemm_case_t *g, const case_dims_t *d, size_t parts,
                                  const double *c, const double *out)
{
    const int row = g->layout == GB_BLAS_ROW_MAJOR;
    size_t touched = 0;
    for (size_t i = 0; i < d->items * d->sc; i++) {
        const size_t e = i % d->sc;
        int inside = 0;
        if (e >= g->off) {
            const size_t rel = e - g->off, outer = rel / d->ldc, inner = rel % d->ldc;
            inside = outer < (row ? g->m : g->n) && inner < (row ? g->n : g->m);
        }
        for (size_t p = 0; !inside && p < parts; p++) {
            const double x = out[i * parts + p], y = c[i * parts + p];
            if (!(x == y || (isnan(x) && isnan(y)))) {
                touched++;
                break;
            }
        }
    }
    return touched;
}

/* Checks out (C after the call) against the host's product of a, b and c (before it): *bad
 * elements of the items' C off by more than the bound, *touched elements outside them changed;
 * the first bad one described in first. */
static inline void case_verify(const gemm_case_t *g, const case_dims_t *d, const double *a,
                               const double *b, const double *c, const double *out, size_t *bad,
                               size_t *touched, char *first, size_t len)
{
    const size_t es = g->prec == 's' ? 4 : 8;
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
    *touched = case_touched(g, d, 1, c, out);
}

/* "s row NT m=... x3 strided" (C for a conjugate transposition) into buf. */
static inline const char *case_text(const gemm_case_t *g, char *buf, size_t len)
{
    static const char op[] = "NTC";
    snprintf(buf, len, "%c %s %c%c m=%zu n=%zu k=%zu pad=%zu off=%zu alpha=%g beta=%g x%zu%s",
             g->prec, g->layout == GB_BLAS_ROW_MAJOR ? "row" : "col", op[g->ta - GB_BLAS_NO_TRANS],
             op[g->tb - GB_BLAS_NO_TRANS], g->m, g->n, g->k, g->pad, g->off, g->alpha, g->beta,
             g->count > 1 ? g->count : 1, g->count > 1 && g->strided ? " strided" : "");
    return buf;
}

#endif
