/* data.c: seeded input generation (uniform, normal, small integers) and distribution parsing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

static double draw(const gb_dist_t *d, gb_precision_t prec, gb_rng_t *rng)
{
    double v;
    switch (d->kind) {
    case GB_DIST_INT:
        v = (double)(long)(gb__rng_next(rng) % (uint64_t)(2 * d->range + 1)) - (double)d->range;
        break;
    case GB_DIST_NORMAL:
        v = gb__rng_normal(rng);
        break;
    default:
        v = d->lo + (d->hi - d->lo) * gb__rng_uniform(rng);
        break;
    }
    /* Round to the target precision so the reference sees exactly the device's inputs. */
    return prec == GB_PREC_S ? (double)(float)v : v;
}

void gb__matrix_generate(double *buf, size_t elems, gb_layout_t layout, size_t ld, size_t off,
                         size_t rows, size_t cols, const gb_dist_t *d, gb_precision_t prec,
                         gb_rng_t *rng, double fill_pad)
{
    for (size_t i = 0; i < elems; i++)
        buf[i] = fill_pad;
    for (size_t r = 0; r < rows; r++)
        for (size_t c = 0; c < cols; c++)
            buf[off + gb__at(layout, ld, r, c)] = draw(d, prec, rng);
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
            if (end != hi && *end == '\0' && errno == 0 && isfinite(out->lo) &&
                isfinite(out->hi) && out->lo < out->hi)
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
                        "bad distribution '%s'; write int:R with an integer R from 1 to 1048576", s);
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

double gb__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
