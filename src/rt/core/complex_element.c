/* complex_element.c: one element of a complex (c or z) C as the validation judges it: the
 * honest computation in the precision asked and the double reference with its gauge, from the
 * element's row of op(A) and column of op(B) (docs/methodology.md). */
#include <math.h>

#include "core.h"

/* (ar + i ai) (br + i bi) added to (*re, *im), one fused real product at a time, in type T:
 * the order a kernel summing in T follows. */
#define CMAC(T, FMA, re, im, ar, ai, br, bi)                                                       \
    do {                                                                                           \
        re = FMA((T)(ar), (T)(br), re);                                                            \
        re = FMA(-(T)(ai), (T)(bi), re);                                                           \
        im = FMA((T)(ar), (T)(bi), im);                                                            \
        im = FMA((T)(ai), (T)(br), im);                                                            \
    } while (0)

void gb__element_honest_complex(const gb_problem_t *p, const double *arow, const double *bcol,
                                const double *c0, double *out)
{
    const double sa = p->conj_a ? -1.0 : 1.0, sb = p->conj_b ? -1.0 : 1.0;
    const int beta = !gb__beta_zero(p);
    if (p->precision == GB_PREC_Z) {
        double re = 0.0, im = 0.0;
        for (size_t l = 0; l < p->k; l++)
            CMAC(double, fma, re, im, arow[2 * l], sa *arow[2 * l + 1], bcol[2 * l],
                 sb *bcol[2 * l + 1]);
        double yr = fma(p->alpha, re, -p->alpha_im * im), yi = fma(p->alpha, im, p->alpha_im * re);
        if (beta) {
            yr = fma(p->beta, c0[0], fma(-p->beta_im, c0[1], yr));
            yi = fma(p->beta, c0[1], fma(p->beta_im, c0[0], yi));
        }
        out[0] = yr;
        out[1] = yi;
        return;
    }
    float re = 0.0f, im = 0.0f;
    for (size_t l = 0; l < p->k; l++)
        CMAC(float, fmaf, re, im, arow[2 * l], sa *arow[2 * l + 1], bcol[2 * l],
             sb *bcol[2 * l + 1]);
    const float ar = (float)p->alpha, ai = (float)p->alpha_im;
    float yr = fmaf(ar, re, -ai * im), yi = fmaf(ar, im, ai * re);
    if (beta) {
        const float br = (float)p->beta, bi = (float)p->beta_im;
        const float cr = (float)c0[0], ci = (float)c0[1];
        yr = fmaf(br, cr, fmaf(-bi, ci, yr));
        yi = fmaf(br, ci, fmaf(bi, cr, yi));
    }
    out[0] = (double)yr;
    out[1] = (double)yi;
}

void gb__element_reference_complex(const gb_problem_t *p, const double *arow, const double *bcol,
                                   const double *c0, double *ref, double *gauge)
{
    const double sa = p->conj_a ? -1.0 : 1.0, sb = p->conj_b ? -1.0 : 1.0;
    double re = 0.0, im = 0.0, g = 0.0;
    for (size_t l = 0; l < p->k; l++) {
        const double ar = arow[2 * l], ai = sa * arow[2 * l + 1];
        const double br = bcol[2 * l], bi = sb * bcol[2 * l + 1];
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
        g += hypot(ar, ai) * hypot(br, bi);
    }
    ref[0] = p->alpha * re - p->alpha_im * im;
    ref[1] = p->alpha * im + p->alpha_im * re;
    *gauge = hypot(p->alpha, p->alpha_im) * g;
    if (!gb__beta_zero(p)) {
        ref[0] += p->beta * c0[0] - p->beta_im * c0[1];
        ref[1] += p->beta * c0[1] + p->beta_im * c0[0];
        *gauge += hypot(p->beta, p->beta_im) * hypot(c0[0], c0[1]);
    }
}
