/* element.c: one element of C judged as the validation judges it (docs/methodology.md): where
 * op(A)(i, l), op(B)(l, j) and C(i, j) sit in their buffers, the unit roundoff and gamma of the
 * bound, and an element's reference, gauge and honest value from its row of op(A) and column of
 * op(B). The harness's validation (src/harness/validate/) and the library's check of the
 * candidates it measures (src/rt/blas/trial.c) both use it. */
#include <math.h>

#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

#include "core.h"

double gb__unit_roundoff(gb_precision_t prec)
{
    switch (prec) {
    case GB_PREC_D:
    case GB_PREC_Z: return 0x1.0p-53;
    case GB_PREC_H:
    case GB_PREC_HH: return 0x1.0p-11;
    case GB_PREC_B: return 0x1.0p-8;
    default: return 0x1.0p-24;
    }
}

double gb__arith_roundoff(gb_precision_t prec)
{
    /* hh's sums are FP16's, though the arithmetic between roundings is single's. */
    return gb__unit_roundoff(prec == GB_PREC_HH ? prec : gb_precision_arith(prec));
}

double gb__gamma(size_t n, double u)
{
    double nu = (double)n * u;
    return nu < 1.0 ? nu / (1.0 - nu) : HUGE_VAL;
}

double gb__bound_factor(const gb_problem_t *p)
{
    if (gb_precision_is_complex(p->precision))
        return gb__bound_factor_complex(p->k, gb__arith_roundoff(p->precision));
    return gb__gamma(p->k + 2, gb__arith_roundoff(p->precision)) + gb__gamma(p->k + 2, 0x1.0p-53);
}

double gb__bound_factor_complex(size_t k, double u)
{
    /* Each part of a complex sum of K products is a real sum of 2K products (fused or not, in
     * any order): sqrt(2) gamma_{2K}; alpha's and beta's complex products (sqrt(2) gamma_2
     * each) and the last addition make it sqrt(2) gamma_{2K+5}, for the device's rounding and
     * the double reference's (docs/methodology.md). */
    return M_SQRT2 * (gb__gamma(2 * k + 5, u) + gb__gamma(2 * k + 5, 0x1.0p-53));
}

double gb__bound_of(const gb_problem_t *p, double g, double ref, double gauge)
{
    const gb_precision_t prec = p->precision;
    if (!gb__storage16(prec))
        return g * gauge;
    /* The single-precision result x is within g G of the reference; rounding it to the format
     * moves it by at most u_s |x| + eta_s, and |x| <= |ref| + g G. */
    const double us = gb__unit_roundoff(prec), eta = gb__output_rounding(prec, 0.0);
    /* hh: each of the K + 2 sums rounded to FP16 may also lose eta where it falls below FP16's
     * normal range (an absolute error, which g's relative one does not cover), scaled by alpha. */
    const double under = prec == GB_PREC_HH ? (double)(p->k + 2) * eta * fabs(p->alpha) : 0.0;
    return (1.0 + us) * g * gauge + (1.0 + us) * under + us * fabs(ref) + eta;
}

size_t gb__at_a(const gb_problem_t *p, size_t i, size_t l)
{
    return p->off_a + (p->trans_a == GB_TRANS ? gb__at(p->layout, p->lda, l, i)
                                              : gb__at(p->layout, p->lda, i, l));
}

size_t gb__at_b(const gb_problem_t *p, size_t l, size_t j)
{
    return p->off_b + (p->trans_b == GB_TRANS ? gb__at(p->layout, p->ldb, j, l)
                                              : gb__at(p->layout, p->ldb, l, j));
}

size_t gb__at_c(const gb_problem_t *p, size_t i, size_t j)
{
    return p->off_c + gb__at(p->layout, p->ldc, i, j);
}

size_t gb__spread(size_t t, size_t n, size_t len)
{
    return n > 1 ? t * (len - 1) / (n - 1) : 0;
}

double gb__element_honest(const gb_problem_t *p, const double *arow, const double *bcol, double c0)
{
    if (p->precision == GB_PREC_D) {
        double acc = 0.0;
        for (size_t l = 0; l < p->k; l++)
            acc = fma(arow[l], bcol[l], acc);
        const double r = p->alpha * acc;
        return p->beta == 0.0 ? r : r + p->beta * c0;
    }
    float acc = 0.0f;
    for (size_t l = 0; l < p->k; l++) {
        acc = fmaf((float)arow[l], (float)bcol[l], acc);
        if (p->precision == GB_PREC_HH) /* every partial sum rounded to FP16 */
            acc = (float)gb__round_to(GB_PREC_HH, (double)acc);
    }
    const float r = (float)p->alpha * acc;
    const float y = p->beta == 0.0 ? r : (float)(r + (float)p->beta * (float)c0);
    return gb__round_to(p->precision, (double)y); /* h and b: once, to the storage format */
}

void gb__element_reference(const gb_problem_t *p, const double *arow, const double *bcol, double c0,
                           double *ref, double *gauge)
{
    double s = 0.0, g = 0.0;
    for (size_t l = 0; l < p->k; l++) {
        s += arow[l] * bcol[l];
        g += fabs(arow[l]) * fabs(bcol[l]);
    }
    *ref = p->alpha * s + (p->beta != 0.0 ? p->beta * c0 : 0.0);
    *gauge = fabs(p->alpha) * g + (p->beta != 0.0 ? fabs(p->beta) * fabs(c0) : 0.0);
}

int gb__faithful_add(gb_faithful_t *f, gb_precision_t prec, double got, double ref, double gauge,
                     double honest)
{
    const double g = gb__arith_roundoff(prec) * gauge;
    if (!isfinite(got) || !isfinite(ref) || !isfinite(g) || !isfinite(honest))
        return 0;
    /* What the one rounding to the storage format may add is not the arithmetic's error: without
     * it, an honest FP16 result's error is its FP32 sum's, and one summed in FP16 stands out. */
    const double dk = fmax(0.0, fabs(got - ref) - gb__output_rounding(prec, got));
    const double dh = fmax(0.0, fabs(honest - ref) - gb__output_rounding(prec, honest));
    const double ek = g > 0 ? dk / g : dk > 0 ? HUGE_VAL : 0.0;
    const double eh = g > 0 ? dh / g : dh > 0 ? HUGE_VAL : 0.0;
    f->worst = ek > f->worst ? ek : f->worst;
    f->worst_honest = eh > f->worst_honest ? eh : f->worst_honest;
    return 1;
}

double gb__faithful_of(double worst, double worst_honest)
{
    return worst / (worst_honest > 1.0 ? worst_honest : 1.0);
}
