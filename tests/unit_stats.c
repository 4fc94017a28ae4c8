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

int main(void)
{
    test_t95();
    test_odd();
    test_even();
    test_constant();
    test_edges();
    test_stops();
    return unit_finish();
}
