/* data.c: seeded input generation (uniform, normal, small integers), distribution parsing, and
 * the check that a problem's data stay finite in its precision. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif

static double draw(const gb_dist_t *d, gb_precision_t prec, gb_rng_t *rng)
{
    double v;
    switch (d->kind) {
    case GB_DIST_INT:
        v = (double)(long)(gb__rng_next(rng) % (uint64_t)(2 * d->range + 1)) - (double)d->range;
        break;
    case GB_DIST_NORMAL: v = gb__rng_normal(rng); break;
    default: v = d->lo + (d->hi - d->lo) * gb__rng_uniform(rng); break;
    }
    /* Round to the target precision so the reference sees exactly the device's inputs. */
    return gb__round_to(prec, v);
}

void gb__matrix_generate(double *buf, size_t elems, gb_layout_t layout, size_t ld, size_t off,
                         size_t rows, size_t cols, const gb_dist_t *d, gb_precision_t prec,
                         gb_rng_t *rng, double fill_pad)
{
    const size_t parts = gb_precision_parts(prec);
    for (size_t i = 0; i < elems * parts; i++)
        buf[i] = fill_pad;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            for (size_t q = 0; q < parts; q++)
                buf[(off + gb__at(layout, ld, r, c)) * parts + q] = draw(d, prec, rng);
}

int gb_dist_parse(const char *s, gb_dist_t *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(s, "normal")) {
        out->kind = GB_DIST_NORMAL;
        return GB_OK;
    }
    if (!strcmp(s, "uniform")) {
        out->kind = GB_DIST_UNIFORM;
        out->lo = -1.0;
        out->hi = 1.0;
        return GB_OK;
    }
    char *end;
    if (!strncmp(s, "uniform:", 8)) {
        errno = 0;
        out->kind = GB_DIST_UNIFORM;
        out->lo = strtod(s + 8, &end);
        if (*end == ':') {
            const char *hi = end + 1;
            out->hi = strtod(hi, &end);
            if (end != hi && *end == '\0' && errno == 0 && isfinite(out->lo) && isfinite(out->hi) &&
                out->lo < out->hi)
                return GB_OK;
        }
        return gb__fail(msg, msglen, GB_EBADDIST,
                        "bad distribution '%s'; write uniform:LO:HI with finite LO < HI", s);
    }
    if (!strncmp(s, "int:", 4)) {
        errno = 0;
        long r = strtol(s + 4, &end, 10);
        if (end != s + 4 && *end == '\0' && errno == 0 && r >= 1 && r <= (1L << 20)) {
            out->kind = GB_DIST_INT;
            out->range = r;
            return GB_OK;
        }
        return gb__fail(msg, msglen, GB_EBADDIST,
                        "bad distribution '%s'; write int:R with an integer R from 1 to 1048576",
                        s);
    }
    return gb__fail(msg, msglen, GB_EBADDIST,
                    "unknown distribution '%s'; use uniform:LO:HI, normal or int:R", s);
}

const char *gb_dist_format(const gb_dist_t *d, char *buf, size_t len)
{
    switch (d->kind) {
    case GB_DIST_NORMAL: snprintf(buf, len, "normal"); break;
    case GB_DIST_INT: snprintf(buf, len, "int:%ld", d->range); break;
    default: snprintf(buf, len, "uniform:%g:%g", d->lo, d->hi); break;
    }
    return buf;
}

double gb_dist_max_abs(const gb_dist_t *d)
{
    switch (d->kind) {
    case GB_DIST_INT: return (double)d->range;
    /* gb__rng_normal: u1 >= 2^-60 and |cos| <= 1. */
    case GB_DIST_NORMAL: return sqrt(-2.0 * log(0x1.0p-60));
    default: return fmax(fabs(d->lo), fabs(d->hi));
    }
}

/* S of gb_problem_check_data for largest magnitude x and scalars a = max(1, |alpha|),
 * b = max(1, |beta|). Infinite when it overflows double. */
static double data_bound(double x, double a, double b, double k)
{
    return a * (k * x * x + x) + b * x;
}

int gb_problem_check_data(const gb_problem_t *p, const gb_dist_t *d, char *msg, size_t msglen)
{
    char dist[96];
    if ((d->kind != GB_DIST_UNIFORM && d->kind != GB_DIST_NORMAL && d->kind != GB_DIST_INT) ||
        (d->kind == GB_DIST_UNIFORM && !(isfinite(d->lo) && isfinite(d->hi) && d->lo < d->hi)) ||
        (d->kind == GB_DIST_INT && d->range < 1))
        return gb__fail(msg, msglen, GB_EBADDIST,
                        "the data distribution is not one; use "
                        "uniform:LO:HI with finite LO < HI, normal or int:R");
    if (!isfinite(p->alpha) || !isfinite(p->beta))
        return gb__fail(msg, msglen, GB_EBADSCALAR, "alpha and beta must be finite numbers");
    /* The range is the storage format's (65504 for FP16: a sum in FP32 that fits it is stored
     * finite), the rounding that can grow a sum the arithmetic's. */
    const gb_precision_t prec = p->precision;
    const double big = gb__storage_max(prec), u = gb__arith_roundoff(prec);
    /* Complex: moduli (an element's is at most sqrt(2) times its parts' largest), whose sums
     * bound every part; each part's sum is 2K roundings long. */
    const int cplx = gb_precision_is_complex(prec);
    const double k = (double)p->k * (cplx ? 2.0 : 1.0),
                 x = gb_dist_max_abs(d) * (cplx ? M_SQRT2 : 1.0);
    const double a = fmax(1.0, hypot(p->alpha, p->alpha_im)),
                 b = fmax(1.0, hypot(p->beta, p->beta_im));
    /* The rounding of K+2 additions can grow a magnitude by (1 + u)^(K+2) at worst: 1.0000002
     * for K = 1 in single. Capped at 2, reached at K = 11.6 million in single, where the error
     * bound says nothing any more (gamma_K >= 0.69) and a worst case of e^128 at K = 2^31 would
     * refuse every problem. */
    const double room = fmin(2.0, exp((k + 2.0) * log1p(u))), limit = big / room;
    const double s = data_bound(x, a, b, k);
    if (s <= limit)
        return GB_OK;
    /* The fix: the largest magnitude that would do (both terms of S within half the limit, so
     * within it), and the largest |alpha| with this data when there is one. */
    const double x_max = fmin(sqrt(limit / (4.0 * a * k)), limit / (4.0 * (a + b)));
    const double alpha_max = (limit - b * x) / (k * x * x + x);
    const char *title = gb_precision_title(prec);
    /* A wider precision is a fix only where the same data fit there: single for FP16 and
     * bfloat16 (bfloat16's range is just below single's), else double. */
    const int wider_s =
        gb__storage16(prec) && s <= (double)FLT_MAX / fmin(2.0, exp((k + 2.0) * log1p(0x1.0p-24)));
    const int wider_d = prec != GB_PREC_D && prec != GB_PREC_Z && !wider_s &&
                        s <= DBL_MAX / fmin(2.0, exp((k + 2.0) * log1p(0x1.0p-53)));
    const char *wider = wider_s ? "s" : wider_d ? (cplx ? "z" : "d") : NULL;
    /* FP16's range is near the sums it refuses (65540 against 65504): more digits there. */
    const int dig = prec == GB_PREC_H || prec == GB_PREC_HH ? 6 : 3;
    char reach[48];
    if (isinf(s))
        snprintf(reach, sizeof reach, "beyond %.3g", DBL_MAX);
    else
        snprintf(reach, sizeof reach, "%.*g", dig, s);
    gb_dist_format(d, dist, sizeof dist);
    if (alpha_max >= 1.0 && fabs(p->alpha) > 1.0)
        return gb__fail(msg, msglen, GB_ERANGE,
                        "data %s with K=%zu, alpha %g, beta %g can reach "
                        "%s, over the %.*g %s precision holds; use |alpha| <= %.3g (or data of "
                        "magnitude <= %.3g%s%s)",
                        dist, p->k, p->alpha, p->beta, reach, dig, big, title, alpha_max, x_max,
                        wider ? ", or --precision " : "", wider ? wider : "");
    return gb__fail(msg, msglen, GB_ERANGE,
                    "data %s with K=%zu, alpha %g, beta %g can reach %s, "
                    "over the %.*g %s precision holds; use data of magnitude <= %.3g (e.g. "
                    "--dist uniform:-%.3g:%.3g)%s%s",
                    dist, p->k, p->alpha, p->beta, reach, dig, big, title, x_max, x_max, x_max,
                    wider ? " or --precision " : "", wider ? wider : "");
}
