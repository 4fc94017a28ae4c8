/* clocks.c: clocks and throttling around the timed calls (clocks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocks.h"
#include "nvml.h"

/* The first word of sysfs file dir/file into out: 1 on success. */
static int read_sys(const char *dir, const char *file, char *out, size_t len)
{
    char path[160], fmt[16];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(fmt, sizeof fmt, "%%%zus", len - 1);
    FILE *f = fopen(path, "r");
    const int ok = f && fscanf(f, fmt, out) == 1;
    if (f)
        fclose(f);
    return ok;
}

/* cpu0's current frequency in MHz (sysfs gives kHz), or -1. */
static double cpu_mhz(const char *dir)
{
    char w[32], *end;
    if (!read_sys(dir, "scaling_cur_freq", w, sizeof w))
        return -1.0;
    const double khz = strtod(w, &end);
    return end != w && khz > 0 ? khz / 1e3 : -1.0;
}

void gb__clocks_open(gb_clocks_t *c, const gb_device_info_t *d)
{
    memset(c, 0, sizeof *c);
    char why[128];
    if (strstr(d->vendor, "NVIDIA") && !strcmp(d->type_name, "gpu")) {
        if ((c->nvml = gb__nvml_device(d, why, sizeof why)))
            snprintf(c->source, sizeof c->source, "NVML");
    } else if (!strcmp(d->type_name, "cpu")) {
        /* cpu0 stands for the package: a CPU device's work-items run on every core. */
        static const char dir[] = "/sys/devices/system/cpu/cpu0/cpufreq";
        if (cpu_mhz(dir) > 0) {
            snprintf(c->cpufreq, sizeof c->cpufreq, "%s", dir);
            snprintf(c->source, sizeof c->source, "cpufreq");
        }
    }
}

void gb__clocks_sample(const gb_clocks_t *c, gb_clocks_sample_t *s)
{
    memset(s, 0, sizeof *s);
    s->mhz = s->temp_c = -1.0;
    unsigned u;
    if (c->nvml) {
        if (gb__nvml_sm_clock_mhz(c->nvml, &u))
            s->mhz = u;
        if (gb__nvml_temperature_c(c->nvml, &u))
            s->temp_c = u;
        s->have_reasons = gb__nvml_reasons(c->nvml, &s->reasons);
        s->have_viol = gb__nvml_violation_ns(c->nvml, GB_NVML_POLICY_POWER, &s->viol_ns[0]) &&
                       gb__nvml_violation_ns(c->nvml, GB_NVML_POLICY_THERMAL, &s->viol_ns[1]);
    } else if (c->cpufreq[0]) {
        s->mhz = cpu_mhz(c->cpufreq);
    }
}

void gb__throttle_text(unsigned long long mask, int power_violated, int thermal_violated, char *out,
                       size_t len)
{
    /* The power cap's and the software thermal slowdown's are also what the two violation
     * counters count. */
    static const struct {
        unsigned long long bit;
        const char *name;
    } names[] = {{GB_NVML_REASON_SW_POWER_CAP, "power cap"},
                 {GB_NVML_REASON_HW_SLOWDOWN, "hardware slowdown"},
                 {GB_NVML_REASON_SYNC_BOOST, "sync boost"},
                 {GB_NVML_REASON_SW_THERMAL, "thermal"},
                 {GB_NVML_REASON_HW_THERMAL, "hardware thermal"},
                 {GB_NVML_REASON_HW_POWER_BRAKE, "power brake"}};
    if (power_violated)
        mask |= GB_NVML_REASON_SW_POWER_CAP;
    if (thermal_violated)
        mask |= GB_NVML_REASON_SW_THERMAL;
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((mask & names[i].bit) && used + 1 < len) {
            snprintf(out + used, len - used, "%s%s", used ? ", " : "", names[i].name);
            used += strlen(out + used);
        }
    if (!out[0])
        snprintf(out, len, "none");
}

void gb__clocks_result(const gb_clocks_t *c, const gb_clocks_sample_t *start,
                       const gb_clocks_sample_t *end, gb_result_t *r)
{
    r->clock_mhz_start = start->mhz;
    r->clock_mhz_end = end->mhz;
    r->temp_c = end->temp_c;
    snprintf(r->clocks_source, sizeof r->clocks_source, "%s", c->source);
    r->throttle[0] = '\0';
    r->governor[0] = '\0';
    if (c->nvml && start->have_reasons && end->have_reasons) {
        /* Seen: active when the timed calls began or ended, or a violation counter moved. */
        const int viol = start->have_viol && end->have_viol;
        gb__throttle_text(
            start->reasons | end->reasons, viol && end->viol_ns[0] > start->viol_ns[0],
            viol && end->viol_ns[1] > start->viol_ns[1], r->throttle, sizeof r->throttle);
    }
    if (c->cpufreq[0])
        if (!read_sys(c->cpufreq, "scaling_governor", r->governor, sizeof r->governor))
            r->governor[0] = '\0';
}
