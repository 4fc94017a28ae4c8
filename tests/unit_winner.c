/* unit_winner.c: the verdicts that say whether a choice is beyond the noise. The tuner's
 * (src/tool/tune/winner.c): a winner is faster than its runner-up beyond the noise only when its
 * interval of time lies wholly below the runner-up's; touching, overlapping or reversed
 * intervals are within the noise. And offload's (src/tool/report/offload.c): the faster way to
 * run a size against the next fastest, by the intervals of their medians, with both printed and
 * how sure they are. */
#include "tool/report/report.h"
#include "tool/tune/winner.h"
#include "unit.h"

static void test_leaders(void)
{
    CHECK(gb_leaders_beyond_noise(1, 2, 3, 4));  /* [1,2] below [3,4]: beyond */
    CHECK(!gb_leaders_beyond_noise(1, 3, 2, 4)); /* overlapping: within */
    CHECK(!gb_leaders_beyond_noise(3, 4, 1, 2)); /* the slower of the two */
    CHECK(!gb_leaders_beyond_noise(1, 2, 2, 3)); /* touching */
    CHECK(!gb_leaders_beyond_noise(2, 1, 3, 4)); /* not an interval */
    CHECK(gb_leaders_beyond_noise(0.9, 0.95, 0.951, 5));
}

static void test_offload(void)
{
    char buf[400];
    gb_offload_row_t r;
    memset(&r, 0, sizeof r);
    r.n = 64;
    r.host_ms = 3.5;
    r.host_ci = (gb_offload_ci_t){3, 4, 0.96};
    r.offload_ms[GB_HOST_PINNED] = 1.5;
    r.offload_ci[GB_HOST_PINNED] = (gb_offload_ci_t){1, 2, 0.97};
    r.offload_ms[GB_HOST_PAGEABLE] = 2.6;
    r.offload_ci[GB_HOST_PAGEABLE] = (gb_offload_ci_t){2.2, 2.9, 0.98};
    /* Pinned wins; the runner-up is pageable, not the host. */
    CHECK_HAS(gb_offload_verdict(&r, buf, sizeof buf),
              "device (pinned), beyond the noise: [1, 2] ms against [2.2, 2.9] ms for device "
              "(pageable) (95% CIs of the median)");
    r.offload_ms[GB_HOST_PAGEABLE] = 0;
    r.offload_ci[GB_HOST_PAGEABLE] = (gb_offload_ci_t){0, 0, 0};
    r.offload_ci[GB_HOST_PINNED] = (gb_offload_ci_t){1, 3, 0.97};
    r.host_ci = (gb_offload_ci_t){2, 4, 0.96};
    CHECK_HAS(gb_offload_verdict(&r, buf, sizeof buf),
              "device (pinned), within the noise: [1, 3] ms against [2, 4] ms for host");
    /* The host faster; two calls each: no 95% interval, and it says so. */
    r.host_ms = 1.0;
    r.host_ci = (gb_offload_ci_t){0.9, 1.1, 0.5};
    r.offload_ci[GB_HOST_PINNED] = (gb_offload_ci_t){1.2, 3, 0.97};
    CHECK_HAS(gb_offload_verdict(&r, buf, sizeof buf),
              "host, beyond the noise: [0.9, 1.1] ms against [1.2, 3] ms for device (pinned) (CIs "
              "of 50.0% (too few calls for 95%) of the median)");
    /* Without intervals (none recorded), the winner alone. */
    memset(&r.host_ci, 0, sizeof r.host_ci);
    CHECK(!strcmp(gb_offload_verdict(&r, buf, sizeof buf), "host"));
}

int main(void)
{
    test_leaders();
    test_offload();
    return unit_finish();
}
