/* stats.h: summary statistics of timing samples. */
#ifndef GB_STATS_H
#define GB_STATS_H

#include "gemmbench.h"

/* Student's t quantile for a two-sided 95% interval with df degrees of freedom (df >= 1). */
double gb__t95(size_t df);
/* The mean and sample standard deviation of n samples, and the half-width of the mean's 95% CI
 * (Student's t; 0 with one sample), in one pass each, without sorting. */
double gb__mean_ci(const double *x, size_t n, double *mean, double *std);
/* Fills s from n samples (n may be 0: all fields 0). The 95% CI is of the mean, with
 * Student's t; with one sample it collapses to the sample. Does not modify x. */
void gb__stats_compute(const double *x, size_t n, gb_stats_t *s);
/* Whether the timed calls stop after n samples x of the headline phase and spent_s seconds (the
 * adaptive stops of o; gb_bench_options_t says which), with the stop's name in why: 1 or 0. */
int gb__bench_stop(const gb_bench_options_t *o, const double *x, size_t n, double spent_s,
                   char *why, size_t len);

#endif
