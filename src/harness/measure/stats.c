/* stats.c: min, max, median, mean, sample standard deviation and the 95% confidence interval of
 * the mean; and the distribution-free confidence interval of the median (gb_median_ci). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double gb__t95(size_t df)
{
    static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    if (df == 0)
        return HUGE_VAL;
    if (df <= 30)
        return t[df - 1];
    /* 1.96 + 2.5/df is within 0.003 of the exact quantile for df > 30. */
    return 1.96 + 2.5 / (double)df;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gb__mean_ci(const double *x, size_t n, double *mean, double *std)
{
    double sum = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    *mean = n ? sum / (double)n : 0.0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - *mean) * (x[i] - *mean);
    *std = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    return n > 1 ? gb__t95(n - 1) * *std / sqrt((double)n) : 0.0;
}

void gb__stats_compute(const double *x, size_t n, gb_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0)
        return;
    double *sorted = malloc(n * sizeof *sorted);
    const double half = gb__mean_ci(x, n, &s->mean, &s->std);
    if (sorted) {
        memcpy(sorted, x, n * sizeof *x);
        qsort(sorted, n, sizeof *sorted, cmp_double);
        s->min = sorted[0];
        s->max = sorted[n - 1];
        s->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        free(sorted);
    } else {
        s->min = s->max = s->median = s->mean;
    }
    s->ci95_lo = s->mean - half;
    s->ci95_hi = s->mean + half;
}

int gb_median_ci(const double *x, size_t n, double *lo, double *hi, double *coverage)
{
    if (!n)
        return GB_EBADARG;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return GB_ENOMEM;
    memcpy(sorted, x, n * sizeof *x);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    /* tail(l) = P(B < l) for B ~ Binomial(n, 1/2), summed in logs: n may be thousands. The
     * interval [x_(l), x_(n+1-l)] misses the median with probability 2 tail(l) at most. log
     * C(n, j) is carried from one j to the next: lgamma would do, but it sets the global
     * signgam, a data race between the tuners' threads (ThreadSanitizer saw it). */
    size_t l = 1;
    double tail = 0, cover = 1.0 - 2.0 * pow(0.5, (double)n), log_c = 0;
    for (size_t j = 0; j + 1 <= (n + 1) / 2; j++) {
        if (j)
            log_c += log((double)(n - j + 1)) - log((double)j);
        const double lp = log_c - (double)n * log(2.0);
        tail += exp(lp); /* P(B <= j): the interval with l = j + 1 misses with 2 tail */
        if (1.0 - 2.0 * tail < 0.95)
            break;
        l = j + 1;
        cover = 1.0 - 2.0 * tail;
    }
    *lo = sorted[l - 1];
    *hi = sorted[n - l];
    if (coverage)
        *coverage = cover;
    free(sorted);
    return GB_OK;
}
