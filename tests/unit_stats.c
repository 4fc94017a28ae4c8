/* unit_stats.c: summary statistics of timing samples (src/measure/stats.c) against values worked
 * out by hand: median of odd and even counts, mean, sample standard deviation with n - 1, and the
 * Student's t 95% interval of the mean. */
#include "unit.h"

#include "../src/measure/stats.h"

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

int main(void)
{
    test_t95();
    test_odd();
    test_even();
    test_constant();
    test_edges();
    return unit_finish();
}
