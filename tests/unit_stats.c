/* unit_stats.c: summary statistics of timing samples (src/harness/measure/stats.c) against values worked
 * out by hand: median of odd and even counts, mean, sample standard deviation with n - 1, and the
 * Student's t 95% interval of the mean; and when the adaptive timed calls stop. */
#include "unit.h"

#include "harness/measure/stats.h"

#define TOL 1e-12

static void test_t95(void)
{
    CHECK(gb__t95(1) == 12.706);
    CHECK(gb__t95(2) == 4.303);
    CHECK(gb__t95(4) == 2.776);
    CHECK(gb__t95(30) == 2.042);
    CHECK(isinf(gb__t95(0)));
    /* Large df tends to the normal quantile 1.96. */
    CHECK_NEAR(gb__t95(1000), 1.96, 0.005);
    CHECK_NEAR(gb__t95(100000), 1.96, 0.001);
    CHECK(gb__t95(1000) > 1.96);
    /* The quantile shrinks as df grows, across the table's end too. */
    int monotone = 1;
    for (size_t df = 1; df < 200; df++)
        monotone &= gb__t95(df + 1) <= gb__t95(df);
    CHECK(monotone);
}

static void test_odd(void)
{
    const double x[5] = {5, 1, 4, 2, 3}; /* unsorted on purpose */
    const double copy[5] = {5, 1, 4, 2, 3};
    gb_stats_t s;
    gb__stats_compute(x, 5, &s);
    CHECK(s.n == 5);
    CHECK(s.min == 1.0);
    CHECK(s.max == 5.0);
    CHECK(s.median == 3.0);
    CHECK_NEAR(s.mean, 3.0, TOL);
    /* squares of deviations 4+1+0+1+4 = 10, over n-1 = 4 */
    CHECK_NEAR(s.std, sqrt(2.5), TOL);
    const double half = 2.776 * sqrt(2.5) / sqrt(5.0);
    CHECK_NEAR(s.ci95_lo, 3.0 - half, TOL);
    CHECK_NEAR(s.ci95_hi, 3.0 + half, TOL);
    CHECK(memcmp(x, copy, sizeof x) == 0);
}

static void test_even(void)
{
    const double x[4] = {4, 1, 3, 2};
    gb_stats_t s;
    gb__stats_compute(x, 4, &s);
    CHECK(s.n == 4);
    CHECK(s.median == 2.5);
    CHECK_NEAR(s.mean, 2.5, TOL);
    /* 2.25+0.25+0.25+2.25 = 5, over 3 */
    CHECK_NEAR(s.std, sqrt(5.0 / 3.0), TOL);
    const double half = 3.182 * sqrt(5.0 / 3.0) / 2.0;
    CHECK_NEAR(s.ci95_lo, 2.5 - half, TOL);
    CHECK_NEAR(s.ci95_hi, 2.5 + half, TOL);

    const double y[2] = {10, 20};
    gb__stats_compute(y, 2, &s);
    CHECK(s.median == 15.0);
    CHECK_NEAR(s.std, sqrt(50.0), TOL);
    CHECK_NEAR(s.ci95_hi - s.mean, 12.706 * sqrt(50.0) / sqrt(2.0), 1e-9);
}

static void test_constant(void)
{
    const double x[3] = {0.5, 0.5, 0.5};
    gb_stats_t s;
    gb__stats_compute(x, 3, &s);
    CHECK(s.std == 0.0);
    CHECK(s.ci95_lo == 0.5 && s.ci95_hi == 0.5);
    CHECK(s.median == 0.5 && s.min == 0.5 && s.max == 0.5);
}

static void test_edges(void)
{
    gb_stats_t s;
    const double one = 7.25;
    gb__stats_compute(&one, 1, &s);
    CHECK(s.n == 1);
    CHECK(s.min == 7.25 && s.max == 7.25 && s.median == 7.25 && s.mean == 7.25);
    CHECK(s.std == 0.0);
    CHECK(s.ci95_lo == 7.25 && s.ci95_hi == 7.25);

    memset(&s, 0xff, sizeof s);
    gb__stats_compute(NULL, 0, &s);
    CHECK(s.n == 0);
    CHECK(s.min == 0.0 && s.max == 0.0 && s.median == 0.0 && s.mean == 0.0);
    CHECK(s.std == 0.0 && s.ci95_lo == 0.0 && s.ci95_hi == 0.0);
}

/* The stops of gb__bench_stop: the count without an adaptive stop, the CI, the time, the caps;
 * never before the iterations asked. */
static void test_stops(void)
{
    gb_bench_options_t o;
    gb_bench_options_init(&o);
    o.iterations = 3;
    const double steady[4] = {1.0, 1.0, 1.0, 1.0}, noisy[4] = {1.0, 3.0, 1.0, 3.0};
    char why[8] = "";
    CHECK(!gb__bench_stop(&o, steady, 2, 0, why, sizeof why));
    CHECK(gb__bench_stop(&o, steady, 3, 0, why, sizeof why) && !strcmp(why, "count"));
    o.max_rel_ci = 0.1;
    CHECK(!gb__bench_stop(&o, steady, 2, 100, why, sizeof why)); /* not before -i, whatever */
    CHECK(gb__bench_stop(&o, steady, 3, 0, why, sizeof why) && !strcmp(why, "ci"));
    /* 1,3,1,3: mean 2, CI half-width 3.182 * 1.155 / 2 = 1.84, over 10% of it */
    CHECK(!gb__bench_stop(&o, noisy, 4, 1.0, why, sizeof why));
    CHECK(gb__bench_stop(&o, noisy, 4, GB_BENCH_MAX_ADAPTIVE_S, why, sizeof why) &&
          !strcmp(why, "cap"));
    o.min_time_s = 2.0;
    CHECK(!gb__bench_stop(&o, noisy, 4, 1.9, why, sizeof why));
    CHECK(gb__bench_stop(&o, noisy, 4, 2.0, why, sizeof why) && !strcmp(why, "time"));
    CHECK(gb__bench_stop(&o, steady, 3, 0, why, sizeof why) && !strcmp(why, "ci"));
    /* min-time alone runs past the 60 s cap where asked to */
    o.max_rel_ci = 0;
    o.min_time_s = 120;
    CHECK(!gb__bench_stop(&o, steady, 4, 90, why, sizeof why));
    CHECK(gb__bench_stop(&o, steady, GB_BENCH_MAX_SAMPLES, 90, why, sizeof why) &&
          !strcmp(why, "cap"));
    /* More iterations asked than the cap: all of them, then the cap. */
    o.iterations = GB_BENCH_MAX_SAMPLES + 5;
    CHECK(!gb__bench_stop(&o, steady, GB_BENCH_MAX_SAMPLES, 90, why, sizeof why));
    CHECK(gb__bench_stop(&o, steady, GB_BENCH_MAX_SAMPLES + 5, 90, why, sizeof why) &&
          !strcmp(why, "cap"));
}

/* The distribution-free interval of the median: order statistics, never a time below the
 * fastest call (a t-interval of 3 calls once gave [-2.8, 5.9] ms), with its coverage. */
static void test_median_ci(void)
{
    double lo = -1, hi = -1, cover = -1;
    const double nine[9] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    CHECK_RC(gb_median_ci(nine, 9, &lo, &hi, &cover), GB_OK);
    /* 1 - 2 P(B(9, 1/2) <= 1) = 1 - 2 * 10/512; with l = 3 it would be 1 - 2 * 46/512 < 0.95. */
    CHECK(lo == 2 && hi == 8);
    CHECK_NEAR(cover, 1.0 - 20.0 / 512.0, 1e-12);
    CHECK(nine[0] == 9 && nine[8] == 5); /* not sorted in place */
    /* Five calls: no pair of order statistics reaches 95%: the extremes, 1 - 2/32. */
    const double five[5] = {2.0, 3.0, 2.5, 50.0, 2.2};
    CHECK_RC(gb_median_ci(five, 5, &lo, &hi, &cover), GB_OK);
    CHECK(lo == 2.0 && hi == 50.0);
    CHECK_NEAR(cover, 1.0 - 2.0 / 32.0, 1e-12);
    /* Three calls, one far off: the interval stays within what was measured. */
    const double three[3] = {0.5, 0.6, 12.0};
    CHECK_RC(gb_median_ci(three, 3, &lo, &hi, NULL), GB_OK);
    CHECK(lo == 0.5 && hi == 12.0);
    double one = 4.0;
    CHECK_RC(gb_median_ci(&one, 1, &lo, &hi, &cover), GB_OK);
    CHECK(lo == 4.0 && hi == 4.0 && cover == 0.0);
    CHECK_RC(gb_median_ci(&one, 0, &lo, &hi, &cover), GB_EBADARG);
    /* Many calls: about n/2 -+ 1.96 sqrt(n)/2 (470 and 531 of 1000), symmetric, >= 95%. */
    static double many[1000];
    for (size_t i = 0; i < 1000; i++)
        many[i] = (double)(1000 - i);
    CHECK_RC(gb_median_ci(many, 1000, &lo, &hi, &cover), GB_OK);
    CHECK(lo >= 467 && lo <= 472 && hi == 1001 - lo);
    CHECK(cover >= 0.95 && cover < 0.96);
}

int main(void)
{
    test_median_ci();
    test_t95();
    test_odd();
    test_even();
    test_constant();
    test_edges();
    test_stops();
    return unit_finish();
}
