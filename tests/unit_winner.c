/* unit_winner.c: the verdicts that say whether a choice is beyond the noise. The tuner's
 * (src/tool/tune/winner.c): a winner is faster than its runner-up beyond the noise only when its
 * interval of time lies wholly below the runner-up's; touching, overlapping or reversed
 * intervals are within the noise. And offload's (src/tool/report/offload.c): the faster way to
 * run a size against the next fastest, by the intervals of their medians, with both printed and
 * how sure they are. The tuner's preference for a parameter value that adapts to the shape. */
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

/* A configuration with SPLITK fixed and the same with SPLITK 0, which fits itself to each shape
 * (the "adapts" of sgemm_wgmma's SPLITK): the tuner keeps the second where the first is not
 * faster beyond the noise. Not where anything else differs, nor from a SPLITK already at 0, nor
 * in a family whose SPLITK does not adapt (xgemm_nv's 0 and 1 are two kinds of split). */
static void test_adaptive(void)
{
    gb_registry_t *reg;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    const gb_family_t *wg = NULL, *nv = NULL;
    const gb_preset_t *ps = NULL;
    CHECK_RC(gb_registry_find(reg, "sgemm_wgmma", &wg, &ps), GB_OK);
    CHECK_RC(gb_registry_find(reg, "xgemm_nv", &nv, &ps), GB_OK);
    gb_params_t fixed, adapting, other, back;
    memset(&fixed, 0, sizeof fixed);
    gb_params_set(&fixed, "BN", 128);
    gb_params_set(&fixed, "SPLITK", 8);
    memset(&adapting, 0, sizeof adapting);
    gb_params_set(&adapting, "SPLITK", 0); /* the order does not matter */
    gb_params_set(&adapting, "BN", 128);
    other = adapting;
    gb_params_set(&other, "BN", 64);
    const char *name = NULL;
    CHECK(gb_leaders_adaptive_of(wg, &fixed, &adapting, &name) && name && !strcmp(name, "SPLITK"));
    CHECK(!gb_leaders_adaptive_of(wg, &fixed, &other, NULL));
    CHECK(!gb_leaders_adaptive_of(wg, &adapting, &fixed, NULL));
    CHECK(!gb_leaders_adaptive_of(wg, &fixed, &fixed, NULL));
    back = fixed;
    gb_params_set(&back, "SPLITK", 1); /* 1 is no split, not the adapting value */
    CHECK(!gb_leaders_adaptive_of(wg, &fixed, &back, NULL));
    gb_params_t nv0, nv1;
    memset(&nv0, 0, sizeof nv0);
    gb_params_set(&nv0, "SPLITK", 0);
    nv1 = nv0;
    gb_params_set(&nv1, "SPLITK", 1);
    CHECK(!gb_leaders_adaptive_of(nv, &nv1, &nv0, NULL));
    CHECK(!gb_leaders_adaptive_of(NULL, &fixed, &adapting, NULL));

    /* The declaration: leaders fixed (the best by score), other, adapting. */
    const gb_params_t *ps3[] = {&fixed, &other, &adapting};
    double lo[] = {1.00, 0.90, 1.02}, hi[] = {1.05, 0.95, 1.08};
    int ok[] = {1, 1, 1};
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 0) == 2); /* overlapping */
    lo[2] = 1.05;
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 0) == 2); /* touching */
    lo[2] = 1.06;
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 0) == 0); /* beyond the noise */
    lo[2] = 1.02;
    ok[2] = 0;
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 0) == 0); /* did not validate */
    ok[2] = 1;
    lo[0] = 2, hi[0] = 1; /* the best has no interval */
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 0) == 0);
    lo[0] = 1, hi[0] = 1.05;
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 2, 0) == 0); /* not among the n */
    CHECK(gb_leaders_prefer_adaptive(nv, ps3, lo, hi, ok, 3, 0) == 0); /* SPLITK does not adapt */
    CHECK(gb_leaders_prefer_adaptive(wg, ps3, lo, hi, ok, 3, 1) == 1); /* other has no sibling */
    gb_registry_close(reg);
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
    test_adaptive();
    test_offload();
    return unit_finish();
}
