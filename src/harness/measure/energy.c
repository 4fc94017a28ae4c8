/* energy.c: energy counters, and the energy loop run after the timed calls. NVIDIA GPUs: NVML's
 * total energy counter (libnvidia-ml loaded with dlopen, so nothing is needed at build time).
 * CPUs: RAPL through /sys/class/powercap where readable, or the file GEMMBENCH_RAPL_FILE names
 * (a test's counter: a machine without RAPL, such as a container, can still run the energy
 * loop). Otherwise the reason it is unavailable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "energy.h"
#include "nvml.h"

static int nvml_read(gb_energy_t *e, double *joules)
{
    unsigned long long mj = 0;
    if (!gb__nvml_energy_mj(e->nvml_dev, &mj))
        return 0;
    *joules = (double)mj * 1e-3;
    return 1;
}

static int nvml_open(gb_energy_t *e, const gb_device_info_t *d)
{
    void *dev = gb__nvml_device(d, e->why, sizeof e->why);
    if (!dev)
        return 0;
    unsigned long long mj;
    if (!gb__nvml_energy_mj(dev, &mj)) {
        snprintf(e->why, sizeof e->why, "NVML energy counter not supported on this GPU");
        return 0;
    }
    e->nvml_dev = dev;
    e->read = nvml_read;
    snprintf(e->source, sizeof e->source, "NVML total energy");
    return 1;
}

static int rapl_read_path(const char *path, double *joules)
{
    FILE *f = fopen(path, "r");
    unsigned long long uj = 0;
    int ok = f && fscanf(f, "%llu", &uj) == 1;
    if (f)
        fclose(f);
    *joules = (double)uj * 1e-6;
    return ok;
}

static int rapl_read(gb_energy_t *e, double *joules)
{
    return rapl_read_path(e->rapl_path, joules);
}

static int rapl_open(gb_energy_t *e)
{
    /* The package domain; intel-rapl is also what AMD's driver exposes. */
    static const char *const paths[] = {"/sys/class/powercap/intel-rapl:0/energy_uj",
                                        "/sys/class/powercap/intel-rapl/intel-rapl:0/energy_uj"};
    const char *fixture = getenv("GEMMBENCH_RAPL_FILE");
    double j;
    if (fixture && fixture[0]) {
        /* Named on purpose: not readable is said as such, not covered by the real counter. */
        if (strlen(fixture) < sizeof e->rapl_path && rapl_read_path(fixture, &j)) {
            snprintf(e->rapl_path, sizeof e->rapl_path, "%s", fixture);
            e->read = rapl_read;
            snprintf(e->source, sizeof e->source, "RAPL (GEMMBENCH_RAPL_FILE)");
            return 1;
        }
        snprintf(e->why, sizeof e->why, "GEMMBENCH_RAPL_FILE '%.60s' holds no counter", fixture);
        return 0;
    }
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (rapl_read_path(paths[i], &j)) {
            snprintf(e->rapl_path, sizeof e->rapl_path, "%s", paths[i]);
            e->read = rapl_read;
            snprintf(e->source, sizeof e->source, "RAPL package 0");
            return 1;
        }
    snprintf(e->why, sizeof e->why,
             "RAPL not readable (/sys/class/powercap absent or not permitted)");
    return 0;
}

void gb__energy_open(gb_energy_t *e, const gb_device_info_t *d)
{
    memset(e, 0, sizeof *e);
    if (strstr(d->vendor, "NVIDIA") && !strcmp(d->type_name, "gpu"))
        e->ok = nvml_open(e, d);
    else if (!strcmp(d->type_name, "cpu"))
        e->ok = rapl_open(e);
    else
        snprintf(e->why, sizeof e->why, "no energy counter known for this kind of device");
}

int gb_energy_counter(const gb_device_info_t *dev, char *source, size_t slen, char *why,
                      size_t wlen)
{
    gb_energy_t e;
    gb__energy_open(&e, dev);
    const int ok = e.ok;
    snprintf(source, slen, "%s", ok ? e.source : "");
    snprintf(why, wlen, "%s", ok ? "" : e.why);
    gb__energy_close(&e);
    return ok;
}

double gb_energy_min_s(void)
{
    return gb__energy_min_s(getenv("GEMMBENCH_ENERGY_MIN_S"));
}

int gb__energy_read(gb_energy_t *e, double *joules)
{
    return e->ok && e->read ? e->read(e, joules) : 0;
}

void gb__energy_close(gb_energy_t *e)
{
    memset(e, 0, sizeof *e);
}

double gb__energy_min_s(const char *value)
{
    if (!value || !value[0])
        return GB_ENERGY_MIN_S_DEFAULT;
    char *end;
    double s = strtod(value, &end);
    while (*end == ' ')
        end++;
    if (end == value || *end || !(s >= 0.0 && s <= GB_ENERGY_MIN_S_MAX))
        return -1.0;
    return s;
}

/* Calls until the counter moves from *j (at most wait_ms), leaving its new value in *j;
 * counts the calls in *calls. GB_OK, call's error, or 1 when a read fails. */
static int until_moved(gb_energy_t *e, double wait_ms, int (*call)(void *user), void *user,
                       double *j, size_t *calls)
{
    const double was = *j, start = gb__now_ms();
    do {
        int rc = call(user);
        if (rc != GB_OK)
            return rc;
        ++*calls;
        if (!gb__energy_read(e, j))
            return 1;
    } while (*j == was && gb__now_ms() - start < wait_ms);
    return GB_OK;
}

int gb__energy_loop(gb_energy_t *e, double min_s, int (*call)(void *user), void *user,
                    gb_energy_loop_t *out)
{
    memset(out, 0, sizeof *out);
    const double wait_ms = 1e3 * (min_s < GB_ENERGY_ALIGN_S ? min_s : GB_ENERGY_ALIGN_S);
    size_t before = 0;
    double j;
    int rc;
    /* The start: the first update after a call, which also brings the device to the power it
     * draws under load before anything counts. */
    if (!gb__energy_read(e, &j) || (rc = until_moved(e, wait_ms, call, user, &j, &before)) == 1) {
        out->read_failed = 1;
        return GB_OK;
    }
    if (rc != GB_OK)
        return rc;
    out->j0 = j;
    const double t0 = gb__now_ms();
    do {
        if ((rc = call(user)) != GB_OK)
            return rc;
        out->calls++;
    } while (gb__now_ms() - t0 < 1e3 * min_s);
    /* The end: calls go on until the next update. */
    if (!gb__energy_read(e, &j) ||
        (rc = until_moved(e, wait_ms, call, user, &j, &out->calls)) == 1) {
        out->read_failed = 1;
        return GB_OK;
    }
    if (rc != GB_OK)
        return rc;
    out->j1 = j;
    out->seconds = (gb__now_ms() - t0) * 1e-3;
    return GB_OK;
}

void gb__energy_unavailable(gb_result_t *r, const char *why)
{
    r->energy_j = r->energy_w = r->gflops_per_watt = r->energy_s = -1.0;
    r->energy_calls = 0;
    r->energy_source[0] = r->energy_scope[0] = '\0';
    snprintf(r->energy_why, sizeof r->energy_why, "%s", why);
}

void gb__energy_result(const gb_energy_loop_t *l, double flop, const char *source,
                       const char *scope, gb_result_t *r)
{
    char why[sizeof r->energy_why];
    const double joules = l->j1 - l->j0;
    if (l->read_failed) {
        gb__energy_unavailable(r, "reading the energy counter failed during the energy loop");
        return;
    }
    if (l->calls == 0 || !(l->seconds > 0)) {
        gb__energy_unavailable(r, "the energy loop made no call");
        return;
    }
    if (!(joules > 0) || !isfinite(joules)) {
        if (joules < 0)
            snprintf(why, sizeof why,
                     "%s went back over the energy loop (a wrap-around); run "
                     "again",
                     source);
        else
            snprintf(why, sizeof why, "%s did not advance over the energy loop (%zu calls, %.3g s)",
                     source, l->calls, l->seconds);
        gb__energy_unavailable(r, why);
        r->energy_calls = l->calls;
        r->energy_s = l->seconds;
        snprintf(r->energy_scope, sizeof r->energy_scope, "%s", scope);
        return;
    }
    r->energy_j = joules / (double)l->calls;
    r->energy_w = joules / l->seconds;
    r->gflops_per_watt = flop * (double)l->calls / joules * 1e-9;
    r->energy_calls = l->calls;
    r->energy_s = l->seconds;
    snprintf(r->energy_source, sizeof r->energy_source, "%s", source);
    snprintf(r->energy_scope, sizeof r->energy_scope, "%s", scope);
    r->energy_why[0] = '\0';
}
