/* reference.c: the trusted result (OpenBLAS dgemm on the inputs upcast to double), the
 * element-wise error test against the bound gamma_{K+2} * G, the faithful verdict on a sample,
 * and what a result's two verdicts make of it under the verdict asked (gb_validation_outcome). */
#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "validate.h"

int gb__exact_possible(const gb_problem_t *p, const gb_dist_t *d)
{
    if (d->kind != GB_DIST_INT || p->alpha != floor(p->alpha) || p->beta != floor(p->beta) ||
        p->alpha_im != floor(p->alpha_im) || p->beta_im != floor(p->beta_im))
        return 0;
    const double r = (double)d->range;
    /* A complex part sums 2K products of parts, each at most R^2, times alpha's two parts. */
    const double c = gb_precision_is_complex(p->precision) ? 2.0 : 1.0;
    const double worst = (fabs(p->alpha) + fabs(p->alpha_im)) * c * (double)p->k * r * r +
                         (fabs(p->beta) + fabs(p->beta_im)) * r;
    /* Every integer up to 2^p is exact in a format of p digits: the storage format's for the
     * result (2^11 for FP16, 2^8 for bfloat16), whose FP32 sums are exact then too. */
    return worst <= 1.0 / gb__unit_roundoff(p->precision);
}

static void dgemm(const gb_problem_t *p, double alpha, const double *a, const double *b,
                  double beta, double *c)
{
    cblas_dgemm(p->layout == GB_ROW_MAJOR ? CblasRowMajor : CblasColMajor,
                p->trans_a == GB_TRANS ? CblasTrans : CblasNoTrans,
                p->trans_b == GB_TRANS ? CblasTrans : CblasNoTrans, (int)p->m, (int)p->n, (int)p->k,
                alpha, a + p->off_a, (int)p->lda, b + p->off_b, (int)p->ldb, beta, c + p->off_c,
                (int)p->ldc);
}

int gb__c_is_logical(const gb_problem_t *p, size_t idx)
{
    if (idx < p->off_c)
        return 0;
    size_t rel = idx - p->off_c, outer = rel / p->ldc, inner = rel % p->ldc;
    const int row = p->layout == GB_ROW_MAJOR;
    return inner < (row ? p->n : p->m) && outer < (row ? p->m : p->n);
}

static enum CBLAS_TRANSPOSE cblas_op(gb_trans_t t, int conj)
{
    return t != GB_TRANS ? CblasNoTrans : conj ? CblasConjTrans : CblasTrans;
}

/* Complex (c and z alike): zgemm on the inputs held in double, real and imaginary parts
 * interleaved as zgemm reads them. */
static void zgemm(const gb_problem_t *p, const double *a, const double *b, double *c)
{
    const double alpha[2] = {p->alpha, p->alpha_im}, beta[2] = {p->beta, p->beta_im};
    cblas_zgemm(p->layout == GB_ROW_MAJOR ? CblasRowMajor : CblasColMajor,
                cblas_op(p->trans_a, p->conj_a), cblas_op(p->trans_b, p->conj_b), (int)p->m,
                (int)p->n, (int)p->k, alpha, a + 2 * p->off_a, (int)p->lda, b + 2 * p->off_b,
                (int)p->ldb, beta, c + 2 * p->off_c, (int)p->ldc);
}

/* |x| of element i: the modulus for complex precisions. */
static double modulus(const double *x, size_t i, size_t parts)
{
    return parts == 2 ? hypot(x[2 * i], x[2 * i + 1]) : fabs(x[i]);
}

int gb__reference(const gb_problem_t *p, const double *a, const double *b, const double *c0,
                  size_t elems_a, size_t elems_b, size_t elems_c, double *cref, double *gauge)
{
    const size_t parts = gb_precision_parts(p->precision);
    double *abs_a = malloc(elems_a * sizeof *abs_a), *abs_b = malloc(elems_b * sizeof *abs_b);
    if (!abs_a || !abs_b) {
        free(abs_a);
        free(abs_b);
        return GB_ENOMEM;
    }
    for (size_t i = 0; i < elems_a; i++)
        abs_a[i] = modulus(a, i, parts);
    for (size_t i = 0; i < elems_b; i++)
        abs_b[i] = modulus(b, i, parts);
    /* With beta 0 the original C is not an input (BLAS semantics): start from zeros. */
    for (size_t i = 0; i < elems_c; i++) {
        const int use = !gb__beta_zero(p) && gb__c_is_logical(p, i);
        for (size_t q = 0; q < parts; q++)
            cref[i * parts + q] = use ? c0[i * parts + q] : 0.0;
        gauge[i] = use ? modulus(c0, i, parts) : 0.0;
    }
    /* The gauge is real in every precision: a real product of the moduli, where
     * |conj(x)| = |x|, so op() only places elements. */
    if (parts == 2)
        zgemm(p, a, b, cref);
    else
        dgemm(p, p->alpha, a, b, p->beta, cref);
    dgemm(p, hypot(p->alpha, p->alpha_im), abs_a, abs_b, hypot(p->beta, p->beta_im), gauge);
    free(abs_a);
    free(abs_b);
    return GB_OK;
}

void gb__validate(const gb_problem_t *p, int exact, const double *cref, const double *gauge,
                  const double *c, size_t elems_c, double canary, gb_validation_t *v)
{
    memset(v, 0, sizeof *v);
    v->faithful_worst = v->faithful_honest = -1.0;
    v->done = 1;
    v->exact = exact;
    /* Ratios are in units of the storage format's u; the bound is the arithmetic's rounding
     * plus the double reference's own, and for h and b the output's rounding to the storage
     * format (gb__bound_of; its ratio where |Cref| = G, the most it can be). */
    const double u = gb__unit_roundoff(p->precision);
    const double g = gb__bound_factor(p);
    v->bound_ratio = exact ? 0.0 : gb__bound_of(p, g, 1.0, 1.0) / u;
    const int row = p->layout == GB_ROW_MAJOR;
    const size_t parts = gb_precision_parts(p->precision);
    size_t ref_bad = 0; /* elements where the reference or its gauge is not finite */
    for (size_t idx = 0; idx < elems_c; idx++) {
        if (!gb__c_is_logical(p, idx)) {
            /* Compare bit patterns: a NaN canary must stay the same NaN. */
            for (size_t q = 0; q < parts; q++)
                if (memcmp(&c[idx * parts + q], &canary, sizeof canary) != 0) {
                    v->n_canary++;
                    break;
                }
            continue;
        }
        /* Complex: the distance in the complex plane, against the moduli's gauge. */
        const double *rp = &cref[idx * parts], *cp = &c[idx * parts];
        const double ref = parts == 2 ? hypot(rp[0], rp[1]) : rp[0];
        const double got =
            parts == 2 ? (isfinite(cp[0]) && isfinite(cp[1]) ? 0.0 : HUGE_VAL) : cp[0];
        const size_t rel = idx - p->off_c, outer = rel / p->ldc, inner = rel % p->ldc;
        const size_t i = row ? outer : inner, j = row ? inner : outer;
        double ratio;
        if (!isfinite(got) || !isfinite(ref) || !isfinite(gauge[idx])) {
            /* Never agreement: the inputs are finite (gb_problem_check_data keeps their
             * products and sums finite too), so the exact result is a finite number, and a
             * NaN or Inf from the device is wrong even where the reference overflowed as well.
             * A reference that is not finite cannot judge anything: a failure too. */
            v->n_nonfinite++;
            ref_bad += !isfinite(ref) || !isfinite(gauge[idx]);
            ratio = HUGE_VAL;
        } else {
            const double diff = parts == 2 ? hypot(cp[0] - rp[0], cp[1] - rp[1]) : fabs(got - ref);
            const int over = exact ? diff != 0.0 : diff > gb__bound_of(p, g, ref, gauge[idx]);
            v->n_over += (size_t)over;
            ratio = gauge[idx] > 0 ? diff / (u * gauge[idx]) : (diff > 0 ? HUGE_VAL : 0.0);
        }
        if (ratio > v->max_ratio) {
            v->max_ratio = ratio;
            v->worst_i = i;
            v->worst_j = j;
        }
    }
    v->passed = v->n_over == 0 && v->n_nonfinite == 0 && v->n_canary == 0;
    if (ref_bad)
        snprintf(v->reason, sizeof v->reason,
                 "%zu elements NaN/Inf, %zu where the reference "
                 "overflowed (never a match), first worst at (%zu,%zu)",
                 v->n_nonfinite, ref_bad, v->worst_i, v->worst_j);
    else if (v->n_nonfinite)
        snprintf(v->reason, sizeof v->reason,
                 "%zu elements NaN/Inf (unwritten or overflowed), "
                 "first worst at (%zu,%zu)",
                 v->n_nonfinite, v->worst_i, v->worst_j);
    else if (v->n_over)
        snprintf(v->reason, sizeof v->reason, "%zu elements %s; worst %.3g u*G at (%zu,%zu)",
                 v->n_over, exact ? "differ from the exact integer result" : "exceed the bound",
                 v->max_ratio, v->worst_i, v->worst_j);
    else if (v->n_canary)
        snprintf(v->reason, sizeof v->reason,
                 "%zu elements outside C (leading-dimension padding) were overwritten",
                 v->n_canary);
}

/* Element (i, j) as an honest computation in the precision makes it (gb__element_honest), its
 * row of op(A) and column of op(B) gathered into row and col (K each). */
static double honest(const gb_problem_t *p, const double *a, const double *b, const double *c0,
                     size_t i, size_t j, double *row, double *col)
{
    for (size_t l = 0; l < p->k; l++) {
        row[l] = a[gb__at_a(p, i, l)];
        col[l] = b[gb__at_b(p, l, j)];
    }
    return gb__element_honest(p, row, col, p->beta == 0.0 ? 0.0 : c0[gb__at_c(p, i, j)]);
}

/* The same for a complex element (2K doubles each in row and col): the distances of the
 * device's and the honest result from the reference, as *dk and *dh. */
static void honest_complex(const gb_problem_t *p, const double *a, const double *b,
                           const double *c0, const double *cref, const double *c, size_t i,
                           size_t j, double *row, double *col, double *dk, double *dh)
{
    for (size_t l = 0; l < p->k; l++) {
        const size_t ia = gb__at_a(p, i, l), ib = gb__at_b(p, l, j);
        row[2 * l] = a[2 * ia];
        row[2 * l + 1] = a[2 * ia + 1];
        col[2 * l] = b[2 * ib];
        col[2 * l + 1] = b[2 * ib + 1];
    }
    const size_t at = gb__at_c(p, i, j);
    double h[2];
    gb__element_honest_complex(p, row, col, c0 + 2 * at, h);
    const double *r = cref + 2 * at, *got = c + 2 * at;
    *dk = hypot(got[0] - r[0], got[1] - r[1]);
    *dh = hypot(h[0] - r[0], h[1] - r[1]);
}

void gb__faithful(const gb_problem_t *p, const double *a, const double *b, const double *c0,
                  const double *cref, const double *gauge, const double *c, gb_validation_t *v)
{
    v->faithful[0] = '\0';
    v->faithful_worst = v->faithful_honest = -1.0;
    const size_t sm = p->m < GB_FAITHFUL_SIDE ? p->m : GB_FAITHFUL_SIDE;
    const size_t sn = p->n < GB_FAITHFUL_SIDE ? p->n : GB_FAITHFUL_SIDE;
    const size_t parts = gb_precision_parts(p->precision);
    double *row = malloc(2 * parts * p->k * sizeof *row);
    if (!row)
        return;
    gb_faithful_t f = {0, 0};
    int judged = sm && sn;
    for (size_t ti = 0; judged && ti < sm; ti++)
        for (size_t tj = 0; judged && tj < sn; tj++) {
            const size_t i = gb__spread(ti, sm, p->m), j = gb__spread(tj, sn, p->n);
            const size_t at = gb__at_c(p, i, j);
            if (parts == 2) {
                /* Complex results are judged by their distances from the reference (no
                 * rounding to a storage format follows their arithmetic). */
                double dk, dh;
                honest_complex(p, a, b, c0, cref, c, i, j, row, row + 2 * p->k, &dk, &dh);
                judged = gb__faithful_add(&f, p->precision, dk, 0.0, gauge[at], dh);
                continue;
            }
            const double h = honest(p, a, b, c0, i, j, row, row + p->k);
            judged = gb__faithful_add(&f, p->precision, c[at], cref[at], gauge[at], h);
        }
    free(row);
    if (!judged)
        return;
    v->faithful_worst = f.worst;
    v->faithful_honest = f.worst_honest;
    snprintf(v->faithful, sizeof v->faithful, "%s",
             gb_faithful_ratio(v) <= GB_FAITHFUL_LAMBDA ? "faithful" : "not faithful");
}

double gb_faithful_ratio(const gb_validation_t *v)
{
    if (v->faithful_worst < 0)
        return -1.0;
    return gb__faithful_of(v->faithful_worst, v->faithful_honest);
}

int gb_verdict_parse(const char *s, gb_verdict_t *out)
{
    if (!strcmp(s, "faithful"))
        *out = GB_VERDICT_FAITHFUL;
    else if (!strcmp(s, "bound"))
        *out = GB_VERDICT_BOUND;
    else
        return GB_EBADARG;
    return GB_OK;
}

const char *gb_verdict_name(gb_verdict_t v)
{
    return v == GB_VERDICT_BOUND ? "bound" : "faithful";
}

gb_outcome_t gb_validation_outcome(const gb_validation_t *v, unsigned caps, gb_verdict_t verdict)
{
    if (!v->done)
        return GB_OUTCOME_UNVALIDATED;
    if (!v->passed)
        return GB_OUTCOME_FAIL;
    /* Within the bound: a result computed worse than the precision honestly computes (inputs
     * rounded to TF32, say) fails, unless it says so of itself or the user accepts the bound. */
    if (verdict == GB_VERDICT_FAITHFUL && !(caps & GB_IS_REDUCED) &&
        !strcmp(v->faithful, "not faithful"))
        return GB_OUTCOME_UNFAITHFUL;
    return GB_OUTCOME_PASS;
}
