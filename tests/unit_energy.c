/* unit_energy.c: the energy loop (src/harness/measure/energy.c) on counters made in the test, no
 * device: GEMMBENCH_ENERGY_MIN_S's text; the result fields worked out by hand from counter
 * readings (joules per call, watts, GFLOP/s per watt) and every reason energy is unavailable
 * (no advance, a counter gone back, a failed read, no call); a loop over a counter that moves
 * only every so many calls (as NVML's moves every few tens of milliseconds), whose two reads
 * must land on its updates so that the energy per call comes out exact; a counter that never
 * moves (the loop still ends, within its waits); a read that fails; a call that fails. And the
 * clocks' throttle text (src/harness/measure/clocks.c) from NVML's reason masks and violation counters,
 * and the clock fields from samples. */
#include "unit.h"

#include "rt/core/core.h"
#include "harness/measure/clocks.h"
#include "harness/measure/energy.h"
#include "harness/measure/nvml.h"

/* A counter that gains `step` joules every `every` calls (never, with every 0). */
typedef struct fake {
    size_t calls, every, reads;
    double step;
    size_t fail_read_at, fail_call_at; /* 1-based; 0: never */
} fake_t;

static int fake_read(gb_energy_t *e, double *joules)
{
    fake_t *f = e->user;
    if (++f->reads == f->fail_read_at)
        return 0;
    *joules = f->every ? (double)(f->calls / f->every) * f->step : 5.0;
    return 1;
}

static int fake_call(void *user)
{
    fake_t *f = user;
    return ++f->calls == f->fail_call_at ? GB_EOPENCL : GB_OK;
}

static void fake_counter(gb_energy_t *e, fake_t *f)
{
    memset(e, 0, sizeof *e);
    e->ok = 1;
    e->read = fake_read;
    e->user = f;
    snprintf(e->source, sizeof e->source, "test counter");
}

static void test_min_s(void)
{
    CHECK(gb__energy_min_s(NULL) == 1.0);
    CHECK(gb__energy_min_s("") == 1.0);
    CHECK(gb__energy_min_s("0") == 0.0);
    CHECK(gb__energy_min_s("2.5") == 2.5);
    CHECK(gb__energy_min_s("0.25 ") == 0.25);
    CHECK(gb__energy_min_s("3600") == 3600.0);
    CHECK(gb__energy_min_s("3601") == -1.0);
    CHECK(gb__energy_min_s("-1") == -1.0);
    CHECK(gb__energy_min_s("nan") == -1.0);
    CHECK(gb__energy_min_s("1s") == -1.0);
    CHECK(gb__energy_min_s("one") == -1.0);
}

static void test_result(void)
{
    gb_result_t r;
    memset(&r, 0, sizeof r);
    /* 50 J over 1000 calls in 2 s, 2e9 flop a call: 0.05 J a call, 25 W, 2e12 flop / 50 J. */
    gb_energy_loop_t l = {100.0, 150.0, 2.0, 1000, 0};
    gb__energy_result(&l, 2e9, "NVML total energy", "device-only calls", &r);
    CHECK_NEAR(r.energy_j, 0.05, 1e-15);
    CHECK_NEAR(r.energy_w, 25.0, 1e-12);
    CHECK_NEAR(r.gflops_per_watt, 40.0, 1e-12);
    CHECK(r.energy_calls == 1000 && r.energy_s == 2.0);
    CHECK(!strcmp(r.energy_source, "NVML total energy"));
    CHECK(!strcmp(r.energy_scope, "device-only calls"));
    CHECK(r.energy_why[0] == '\0');

    /* A counter that did not move: unavailable, with the loop's calls and time kept. */
    l.j1 = l.j0;
    gb__energy_result(&l, 2e9, "NVML total energy", "whole calls incl. copies", &r);
    CHECK(r.energy_j == -1.0 && r.energy_w == -1.0 && r.gflops_per_watt == -1.0);
    CHECK(r.energy_calls == 1000 && r.energy_s == 2.0);
    CHECK(r.energy_source[0] == '\0' && !strcmp(r.energy_scope, "whole calls incl. copies"));
    CHECK_HAS(r.energy_why,
              "NVML total energy did not advance over the energy loop (1000 calls, 2 s)");

    l.j1 = l.j0 - 1.0; /* a RAPL wrap-around */
    gb__energy_result(&l, 2e9, "RAPL package 0", "device-only calls", &r);
    CHECK(r.energy_j == -1.0);
    CHECK_HAS(r.energy_why, "RAPL package 0 went back");

    l.j1 = 150.0;
    l.read_failed = 1;
    gb__energy_result(&l, 2e9, "RAPL package 0", "device-only calls", &r);
    CHECK(r.energy_j == -1.0 && r.energy_calls == 0 && r.energy_s == -1.0);
    CHECK_HAS(r.energy_why, "reading the energy counter failed");

    l.read_failed = 0;
    l.calls = 0;
    gb__energy_result(&l, 2e9, "RAPL package 0", "device-only calls", &r);
    CHECK(r.energy_j == -1.0);
    CHECK_HAS(r.energy_why, "made no call");

    gb__energy_unavailable(&r, "disabled by GEMMBENCH_ENERGY_MIN_S=0");
    CHECK(r.energy_j == -1.0 && r.energy_w == -1.0 && r.gflops_per_watt == -1.0 &&
          r.energy_s == -1.0 && r.energy_calls == 0 && r.energy_scope[0] == '\0');
    CHECK(!strcmp(r.energy_why, "disabled by GEMMBENCH_ENERGY_MIN_S=0"));
}

static void test_loop(void)
{
    gb_energy_t e;
    gb_energy_loop_t l;
    gb_result_t r;
    memset(&r, 0, sizeof r);
    /* 0.25 J every 1000 calls: the reads land on updates, so the loop covers whole periods and
     * the energy per call is exact, however long the loop ran between them. */
    fake_t f = {0, 1000, 0, 0.25, 0, 0};
    fake_counter(&e, &f);
    const double t0 = gb__now_ms();
    CHECK_RC(gb__energy_loop(&e, 0.02, fake_call, &f, &l), GB_OK);
    CHECK(gb__now_ms() - t0 >= 20.0);
    CHECK(!l.read_failed && l.seconds >= 0.02);
    CHECK(l.calls > 0 && l.calls % 1000 == 0);
    CHECK(l.j1 - l.j0 == 0.25 * (double)(l.calls / 1000));
    CHECK(f.calls >= l.calls + 1000); /* the first update came after 1000 calls, uncounted */
    gb__energy_result(&l, 1e9, e.source, "device-only calls", &r);
    CHECK(r.energy_j == 0.25 / 1000);
    CHECK_NEAR(r.gflops_per_watt, 1e9 / (0.25 / 1000) * 1e-9, 1e-9);
    CHECK_NEAR(r.energy_w, (l.j1 - l.j0) / l.seconds, 1e-9);

    /* A counter that never moves: the loop ends after its waits, and says so. */
    fake_t still = {0, 0, 0, 0.0, 0, 0};
    fake_counter(&e, &still);
    const double t1 = gb__now_ms();
    CHECK_RC(gb__energy_loop(&e, 0.02, fake_call, &still, &l), GB_OK);
    CHECK(gb__now_ms() - t1 < 2000.0);
    CHECK(!l.read_failed && l.j1 == l.j0 && l.calls > 0);
    gb__energy_result(&l, 1e9, e.source, "device-only calls", &r);
    CHECK(r.energy_j == -1.0);
    CHECK_HAS(r.energy_why, "test counter did not advance");

    /* A read that fails (the second: inside the start's wait); a call that fails. */
    fake_t badread = {0, 10, 0, 1.0, 2, 0};
    fake_counter(&e, &badread);
    CHECK_RC(gb__energy_loop(&e, 0.02, fake_call, &badread, &l), GB_OK);
    CHECK(l.read_failed);
    fake_t badcall = {0, 10, 0, 1.0, 0, 50};
    fake_counter(&e, &badcall);
    CHECK_RC(gb__energy_loop(&e, 0.02, fake_call, &badcall, &l), GB_EOPENCL);
    CHECK(badcall.calls == 50);

    /* No counter: nothing reads. */
    gb_energy_t none;
    memset(&none, 0, sizeof none);
    double j = 7.0;
    CHECK(gb__energy_read(&none, &j) == 0 && j == 7.0);
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.vendor, sizeof d.vendor, "Some Vendor");
    d.type_name = "accelerator";
    gb__energy_open(&none, &d);
    CHECK(!none.ok);
    CHECK_HAS(none.why, "no energy counter known");
    gb__energy_close(&none);
}

static void test_throttle(void)
{
    char t[96];
    gb__throttle_text(0, 0, 0, t, sizeof t);
    CHECK(!strcmp(t, "none"));
    /* Idle (0x1), application clocks (0x2) and display clock (0x100) are not throttling. */
    gb__throttle_text(0x1 | 0x2 | 0x100, 0, 0, t, sizeof t);
    CHECK(!strcmp(t, "none"));
    gb__throttle_text(GB_NVML_REASON_SW_POWER_CAP, 0, 0, t, sizeof t);
    CHECK(!strcmp(t, "power cap"));
    /* A violation counter names its reason once, beside the mask's. */
    gb__throttle_text(GB_NVML_REASON_SW_POWER_CAP | GB_NVML_REASON_HW_THERMAL, 1, 1, t, sizeof t);
    CHECK(!strcmp(t, "power cap, thermal, hardware thermal"));
    gb__throttle_text(0, 0, 1, t, sizeof t);
    CHECK(!strcmp(t, "thermal"));
    gb__throttle_text(~0ull, 1, 1, t, sizeof t);
    CHECK(!strcmp(t, "power cap, hardware slowdown, sync boost, thermal, hardware thermal, "
                     "power brake"));
    /* Cut to the buffer, still terminated. */
    gb__throttle_text(~0ull, 0, 0, t, 12);
    CHECK(strlen(t) == 11 && !strncmp(t, "power cap, ", 11));

    /* The fields from two samples: power capped at the end only, a violation in between. */
    gb_clocks_t c = {0};
    snprintf(c.source, sizeof c.source, "NVML");
    c.nvml = &c; /* any handle: gb__clocks_result reads only the samples */
    gb_clocks_sample_t a = {1980, 40, 0, {100, 7}, 1, 1};
    gb_clocks_sample_t b = {1755, 63, GB_NVML_REASON_SW_POWER_CAP, {100, 9}, 1, 1};
    gb_result_t r;
    memset(&r, 0, sizeof r);
    gb__clocks_result(&c, &a, &b, &r);
    CHECK(r.clock_mhz_start == 1980 && r.clock_mhz_end == 1755 && r.temp_c == 63);
    CHECK(!strcmp(r.clocks_source, "NVML") && !strcmp(r.throttle, "power cap, thermal"));
    CHECK(!r.governor[0]);
    /* Without the reasons at either end, throttling was not watched: "". */
    b.have_reasons = 0;
    gb__clocks_result(&c, &a, &b, &r);
    CHECK(!r.throttle[0]);
    /* Nothing readable: no source, clocks -1. */
    gb_clocks_t none = {0};
    gb_clocks_sample_t s;
    gb__clocks_sample(&none, &s);
    gb__clocks_result(&none, &s, &s, &r);
    CHECK(r.clock_mhz_start == -1 && r.clock_mhz_end == -1 && r.temp_c == -1);
    CHECK(!r.clocks_source[0] && !r.throttle[0] && !r.governor[0]);

    /* A CPU's cpufreq folder (a fake one: this machine may have none): kHz read as MHz, the
     * governor's word, no throttling watched. */
    char dir[64];
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        char path[300];
        snprintf(path, sizeof path, "%s/scaling_cur_freq", dir);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs("2300000\n", f);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/scaling_governor", dir);
        if ((f = fopen(path, "w"))) {
            fputs("performance\n", f);
            fclose(f);
        }
        gb_clocks_t cpu = {0};
        snprintf(cpu.cpufreq, sizeof cpu.cpufreq, "%s", dir);
        snprintf(cpu.source, sizeof cpu.source, "cpufreq");
        gb__clocks_sample(&cpu, &s);
        gb__clocks_result(&cpu, &s, &s, &r);
        CHECK(r.clock_mhz_start == 2300 && r.clock_mhz_end == 2300 && r.temp_c == -1);
        CHECK(!strcmp(r.clocks_source, "cpufreq") && !strcmp(r.governor, "performance"));
        CHECK(!r.throttle[0]);
        /* A frequency file that does not hold a number: not read. */
        snprintf(path, sizeof path, "%s/scaling_cur_freq", dir);
        if ((f = fopen(path, "w"))) {
            fputs("unknown\n", f);
            fclose(f);
        }
        gb__clocks_sample(&cpu, &s);
        CHECK(s.mhz == -1);
        unit_remove_dir(dir);
    }
}

int main(void)
{
    test_min_s();
    test_result();
    test_loop();
    test_throttle();
    return unit_finish();
}
