/* unit_tune_kinds.c: the kinds of device a tuning spreads over (src/tool/fleet/kinds.c): devices
 * of one name, driver and platform share one kind, and so one queue of runs; any difference
 * makes a kind of its own, which tunes every run. Under `tune --mpi` rank 0 maps its own
 * devices first, then each rank's device as its HELLO comes, in a table sized for one kind per
 * device and rank, past the number of devices one process can open. And the build pools of a
 * tuning (one per kind of device picked) and their default number of build processes. */
#include "tool/tune/tuners.h"
#include "unit.h"

static size_t kind_of(gb_fleet_kinds_t *k, const char *name, const char *driver,
                      const char *platform)
{
    size_t i = (size_t)-1;
    CHECK_RC(gb_fleet_kinds_index(k, name, driver, platform, &i), GB_OK);
    return i;
}

int main(void)
{
    gb_fleet_kinds_t k;
    /* Rank 0 with two H200s, then four ranks: an H200, PoCL's CPU, an H200 on another driver,
     * and another CPU of the same kind as the first. */
    CHECK_RC(gb_fleet_kinds_init(&k, 2 + 4), GB_OK);
    CHECK(kind_of(&k, "NVIDIA H200", "580.159.04", "NVIDIA CUDA") == 0);
    CHECK(kind_of(&k, "NVIDIA H200", "580.159.04", "NVIDIA CUDA") == 0);
    CHECK(kind_of(&k, "NVIDIA H200", "580.159.04", "NVIDIA CUDA") == 0);
    CHECK(kind_of(&k, "cpu-x86-64", "6.0", "Portable Computing Language") == 1);
    CHECK(kind_of(&k, "NVIDIA H200", "575.51.03", "NVIDIA CUDA") == 2);
    CHECK(kind_of(&k, "cpu-x86-64", "6.0", "Portable Computing Language") == 1);
    CHECK(k.n == 3);
    /* The platform alone tells two kinds apart, and so does the name. */
    CHECK(kind_of(&k, "NVIDIA H200", "580.159.04", "another platform") == 3);
    CHECK(kind_of(&k, "NVIDIA H100", "580.159.04", "NVIDIA CUDA") == 4);
    CHECK(k.n == 5);
    gb_fleet_kinds_free(&k);
    CHECK(k.n == 0 && k.v == NULL);
    gb_fleet_kinds_free(&k); /* twice: a no-op */

    /* Past the devices one process opens (32): one device here and 40 ranks, each of a kind of
     * its own. */
    const size_t ranks = 32 + 8;
    CHECK_RC(gb_fleet_kinds_init(&k, 1 + ranks), GB_OK);
    CHECK(kind_of(&k, "gpu", "1", "p") == 0);
    int in_order = 1;
    for (size_t r = 1; r <= ranks; r++) {
        char name[32];
        snprintf(name, sizeof name, "device %zu", r);
        in_order &= kind_of(&k, name, "1", "p") == r;
    }
    CHECK(in_order);
    CHECK(k.n == 1 + ranks);
    /* Full: a known kind still resolves, a new one is refused and nothing changes. */
    size_t i = 99;
    CHECK_RC(gb_fleet_kinds_index(&k, "another", "1", "p", &i), GB_EBADARG);
    CHECK(i == 99 && k.n == 1 + ranks);
    CHECK(kind_of(&k, "device 7", "1", "p") == 7);
    gb_fleet_kinds_free(&k);

    /* A table for no kind at all (no device): any kind is refused. */
    CHECK_RC(gb_fleet_kinds_init(&k, 0), GB_OK);
    CHECK_RC(gb_fleet_kinds_index(&k, "gpu", "1", "p", &i), GB_EBADARG);
    gb_fleet_kinds_free(&k);

    /* The build pools of `tune -d`: one per kind among the devices picked. */
    static gb_device_info_t list[3];
    snprintf(list[0].name, sizeof list[0].name, "NVIDIA H100");
    snprintf(list[1].name, sizeof list[1].name, "NVIDIA H100");
    snprintf(list[2].name, sizeof list[2].name, "cpu");
    for (size_t d = 0; d < 3; d++) {
        snprintf(list[d].driver, sizeof list[d].driver, "580");
        snprintf(list[d].platform_name, sizeof list[d].platform_name, d < 2 ? "NVIDIA" : "PoCL");
    }
    const gb_device_info_t *picks[4] = {&list[0], &list[1]};
    CHECK(gb_fleet_kinds_among(picks, 2) == 1);
    picks[1] = &list[2];
    CHECK(gb_fleet_kinds_among(picks, 2) == 2);
    const gb_device_info_t *four[4] = {&list[1], &list[0], &list[2], &list[0]};
    CHECK(gb_fleet_kinds_among(four, 4) == 2);
    CHECK(gb_fleet_kinds_among(four, 0) == 1); /* never 0: it divides */

    /* Build processes by default: the host's cores but one, at most 15 on the host, shared by
     * its pools, at least one a pool, at most the lookahead. */
    CHECK(gb_tune_builders_default(16, 1, 32) == 15);
    CHECK(gb_tune_builders_default(32, 1, 32) == 15);
    CHECK(gb_tune_builders_default(32, 1, 8) == 8);
    CHECK(gb_tune_builders_default(32, 2, 32) == 7); /* two MPI ranks of one host, or two kinds */
    CHECK(gb_tune_builders_default(8, 2, 32) == 3);
    CHECK(gb_tune_builders_default(1, 1, 32) == 1); /* a rank bound to one core */
    CHECK(gb_tune_builders_default(1, 2, 32) == 1);
    CHECK(gb_tune_builders_default(64, 20, 32) == 1);
    CHECK(gb_tune_builders_default(32, 0, 32) == 15); /* no pool counted: one */
    /* The cores a pool's build threads may use: the host's but one, shared. */
    CHECK(gb_fleet_spare_cores(32, 2) == 15);
    CHECK(gb_fleet_spare_cores(16, 1) == 15);
    CHECK(gb_fleet_spare_cores(1, 2) == 1);
    CHECK(gb_fleet_spare_cores(8, 0) == 7);
    return unit_finish();
}
