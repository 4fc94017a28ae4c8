/* blas_check.h: the counted check of the library's single-threaded tests (blas_calls.c,
 * blas_tables.c, blas_precisions.c): CHECK counts each condition and prints a failed one with
 * the library's last message; the test ends by printing checks and failures. And their inputs'
 * generator, uniform in (-1, 1) from a fixed seed. Header-only, included once per test. */
#ifndef GB_BLAS_CHECK_H
#define GB_BLAS_CHECK_H

#include <stdio.h>

#include "gemmbench_blas.h"

static int failures, checks;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s (%s)\n", __FILE__, __LINE__, #cond,           \
                    gb_blas_errmsg());                                                             \
        }                                                                                          \
    } while (0)

static unsigned long long rng = 88172645463325252ull;

static inline double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

#endif
