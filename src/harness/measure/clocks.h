/* clocks.h: the device's clocks around the timed calls, and whether anything held them down
 * (docs/methodology.md, "Clocks and throttling"): on NVIDIA GPUs through NVML (the SM clock,
 * the clock-event reasons, the power and thermal violation counters, the temperature), on
 * Linux CPUs through cpufreq (cpu0's frequency and scaling governor). */
#ifndef GB_CLOCKS_H
#define GB_CLOCKS_H

#include "gemmbench.h"

typedef struct gb_clocks {
    void *nvml;       /* NVML's handle of the GPU, or NULL */
    char cpufreq[96]; /* cpu0's cpufreq folder, or "" */
    char source[16];  /* "NVML", "cpufreq", or "" when nothing is readable */
} gb_clocks_t;

typedef struct gb_clocks_sample {
    double mhz, temp_c;            /* -1: not read */
    unsigned long long reasons;    /* GB_NVML_REASON_* */
    unsigned long long viol_ns[2]; /* power, thermal */
    int have_reasons, have_viol;
} gb_clocks_sample_t;

void gb__clocks_open(gb_clocks_t *c, const gb_device_info_t *d);
void gb__clocks_sample(const gb_clocks_t *c, gb_clocks_sample_t *s);
/* Fills r's clock fields from the samples before the first and after the last timed call. */
void gb__clocks_result(const gb_clocks_t *c, const gb_clocks_sample_t *start,
                       const gb_clocks_sample_t *end, gb_result_t *r);

/* The names of the reasons in mask, and "power cap" / "thermal" where those violation counters
 * advanced, comma-separated without repeats, into out; "none" when there are none. */
void gb__throttle_text(unsigned long long mask, int power_violated, int thermal_violated, char *out,
                       size_t len);

#endif
