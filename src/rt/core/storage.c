/* storage.c: the formats elements are stored in. FP16 (IEEE binary16) and bfloat16 are held in 16
 * bits and computed in single precision: this rounds doubles to them (to nearest, ties to even,
 * with subnormals, and to infinity past the largest finite value, as the device's conversions
 * do), gives their bit patterns and values, converts whole buffers to and from what the device
 * holds, and says each format's facts the validation needs (docs/methodology.md). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core.h"

/* A binary floating-point format: p significand bits (the leading one included), emin the
 * exponent of its smallest normal number, max its largest finite value. */
typedef struct format {
    int p, emin;
    double max;
} format_t;

static const format_t fp16 = {11, -14, 65504.0};
static const format_t bf16 = {8, -126, 0x1.fep127};
static const format_t fp32 = {24, -126, (double)FLT_MAX};
static const format_t fp64 = {53, -1022, DBL_MAX};

static const format_t *format_of(gb_precision_t prec)
{
    switch (prec) {
    case GB_PREC_D:
    case GB_PREC_Z: return &fp64;
    case GB_PREC_H:
    case GB_PREC_HH: return &fp16;
    case GB_PREC_B: return &bf16;
    default: return &fp32;
    }
}

/* x rounded to f: the spacing at x's binade (the subnormal spacing below the normal range) is a
 * power of two, so x / q is exact and nearbyint rounds it to nearest, ties to even, in the
 * default rounding mode. */
static double round_to(const format_t *f, double x)
{
    if (!isfinite(x) || x == 0.0)
        return x;
    int e;
    (void)frexp(x, &e); /* 2^(e-1) <= |x| < 2^e */
    const int lead = e - 1 < f->emin ? f->emin : e - 1;
    const double q = ldexp(1.0, lead - (f->p - 1));
    const double r = nearbyint(x / q) * q;
    return fabs(r) > f->max ? copysign(HUGE_VAL, x) : r;
}

double gb__round_to(gb_precision_t prec, double x)
{
    return prec == GB_PREC_D || prec == GB_PREC_Z ? x : round_to(format_of(prec), x);
}

double gb__storage_max(gb_precision_t prec)
{
    return format_of(prec)->max;
}

int gb__storage16(gb_precision_t prec)
{
    return (unsigned)prec < GB_PREC_COUNT && (GB_PREC_STORAGE16 >> prec) & 1u;
}

double gb__output_rounding(gb_precision_t prec, double y)
{
    if (!gb__storage16(prec))
        return 0.0;
    const format_t *f = format_of(prec);
    int e = f->emin + 1;
    if (y != 0.0)
        (void)frexp(y, &e);
    /* Half the spacing of y's binade, which also bounds a value below a power of two that rounded
     * up to it (the spacing there is half as wide). */
    return ldexp(1.0, (e - 1 < f->emin ? f->emin : e - 1) - f->p);
}

uint16_t gb__fp16_bits(double x)
{
    const double r = round_to(&fp16, x);
    const uint16_t sign = signbit(r) ? 0x8000u : 0u;
    if (isnan(r))
        return (uint16_t)(sign | 0x7e00u);
    if (isinf(r))
        return (uint16_t)(sign | 0x7c00u);
    const double a = fabs(r);
    if (a < 0x1.0p-14) /* subnormal or zero: a multiple of 2^-24 */
        return (uint16_t)(sign | (uint16_t)(a * 0x1.0p24));
    int e;
    const double m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
    return (uint16_t)(sign | (unsigned)(e - 1 + 15) << 10 | (unsigned)((2.0 * m - 1.0) * 1024.0));
}

double gb__fp16_value(uint16_t h)
{
    const int e = (h >> 10) & 31;
    const unsigned m = h & 1023u;
    double v;
    if (e == 0)
        v = ldexp((double)m, -24);
    else if (e == 31)
        v = m ? (double)NAN : HUGE_VAL;
    else
        v = ldexp((double)(m + 1024u), e - 25);
    return h & 0x8000u ? -v : v;
}

uint16_t gb__bf16_bits(double x)
{
    /* Rounded to bfloat16, the value is a float whose low 16 bits are zero. */
    const float f = (float)round_to(&bf16, x);
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (isnan(f))
        return (uint16_t)((u >> 16) | 0x0040u); /* quiet */
    return (uint16_t)(u >> 16);
}

double gb__bf16_value(uint16_t b)
{
    const uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

const char *gb__precision_options(gb_precision_t prec, char *buf, size_t len)
{
    const int bits = gb_precision_arith(prec) == GB_PREC_D ? 64 : 32;
    /* hh: FP16, its sums rounded to FP16 (kernels/prelude.cl's GB_SUM). */
    if (gb__storage16(prec))
        snprintf(buf, len, "-DGB_PRECISION=%d -DGB_STORAGE=%d%s", bits, prec == GB_PREC_B ? 2 : 1,
                 prec == GB_PREC_HH ? " -DGB_ACC16=1" : "");
    else if (gb_precision_is_complex(prec))
        snprintf(buf, len, "-DGB_PRECISION=%d -DGB_COMPLEX=1", bits);
    else
        snprintf(buf, len, "-DGB_PRECISION=%d", bits);
    return buf;
}

void gb__to_storage(gb_precision_t prec, const double *x, size_t n, void *out)
{
    n *= gb_precision_parts(prec); /* complex: real and imaginary parts, as they lie */
    if (gb_precision_arith(prec) == GB_PREC_D) {
        memcpy(out, x, n * sizeof *x);
    } else if (gb__storage16(prec)) {
        uint16_t *h = out;
        for (size_t i = 0; i < n; i++)
            h[i] = prec != GB_PREC_B ? gb__fp16_bits(x[i]) : gb__bf16_bits(x[i]);
    } else {
        float *f = out;
        for (size_t i = 0; i < n; i++)
            f[i] = (float)x[i];
    }
}

void gb__from_storage(gb_precision_t prec, const void *in, size_t n, double *out)
{
    n *= gb_precision_parts(prec);
    if (gb_precision_arith(prec) == GB_PREC_D) {
        memcpy(out, in, n * sizeof *out);
    } else if (gb__storage16(prec)) {
        const uint16_t *h = in;
        for (size_t i = 0; i < n; i++)
            out[i] = prec != GB_PREC_B ? gb__fp16_value(h[i]) : gb__bf16_value(h[i]);
    } else {
        const float *f = in;
        for (size_t i = 0; i < n; i++)
            out[i] = (double)f[i];
    }
}
