/* rng.c: a seeded generator, the same stream for a seed on every platform: input data, and the
 * tuner's strategies. */
#include <math.h>

#include "util.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void gb__rng_seed(gb_rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t gb__rng_next(gb_rng_t *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double gb__rng_uniform(gb_rng_t *r)
{
    return (double)(gb__rng_next(r) >> 11) * 0x1.0p-53;
}

double gb__rng_normal(gb_rng_t *r)
{
    /* Box-Muller; one value per call keeps the stream independent of call order. */
    double u1 = gb__rng_uniform(r), u2 = gb__rng_uniform(r);
    if (u1 < 0x1.0p-60)
        u1 = 0x1.0p-60;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

uint64_t gb__rng_below(gb_rng_t *r, uint64_t n)
{
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = gb__rng_next(r);
    while (x >= limit);
    return x % n;
}
