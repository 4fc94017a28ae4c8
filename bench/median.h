/* median.h: one recorded space from several passes of it, each configuration's score the median
 * of its passes' (gemmbench-tuners --median; docs/tuning.md, "Several passes"). */
#ifndef GB_BENCH_MEDIAN_H
#define GB_BENCH_MEDIAN_H

#include <stdio.h>

#include "gemmbench.h"

/* Reads the recorded spaces paths[0..n) (n >= 2), checks that they are passes of one space
 * (the same header but for `source`, every configuration of the space recorded in each), and
 * writes to out the first one's header with `source` set to source, then each configuration with
 * the median of its scores (the mean of the middle two for an even n), failed where any pass
 * failed. Nothing is written unless every check passes. Returns an exit code: 0, 2 for a file
 * that cannot be read, is malformed or is not a pass of the first one's space (one line on
 * stderr names it), 3 when out cannot be written. */
int gb_bench_median(const gb_registry_t *reg, const char *source, char *const *paths, int n,
                    FILE *out);

#endif
