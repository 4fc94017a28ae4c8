/* kinds.c: the kinds of device work spreads over (fleet.h). A kind is a device's name, driver
 * and platform: devices of one kind share their work, and under `tune` each kind tunes every run
 * for its own database entries (docs/scale-out.md). And the cores a process and its pools of
 * build processes may use. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/util/util.h"
#include "fleet.h"

int gb_fleet_kinds_init(gb_fleet_kinds_t *k, size_t cap)
{
    memset(k, 0, sizeof *k);
    if (!(k->v = calloc(cap ? cap : 1, sizeof *k->v)))
        return GB_ENOMEM;
    k->cap = cap;
    return GB_OK;
}

void gb_fleet_kinds_free(gb_fleet_kinds_t *k)
{
    for (size_t i = 0; k->v && i < k->n; i++) {
        free(k->v[i].name);
        free(k->v[i].driver);
        free(k->v[i].platform);
    }
    free(k->v);
    memset(k, 0, sizeof *k);
}

int gb_fleet_kinds_index(gb_fleet_kinds_t *k, const char *name, const char *driver,
                         const char *platform, size_t *index)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i].name, name) && !strcmp(k->v[i].driver, driver) &&
            !strcmp(k->v[i].platform, platform)) {
            *index = i;
            return GB_OK;
        }
    if (k->n == k->cap)
        return GB_EBADARG;
    gb_fleet_kind_t *e = &k->v[k->n];
    e->name = gb__strdup(name);
    e->driver = gb__strdup(driver);
    e->platform = gb__strdup(platform);
    if (!e->name || !e->driver || !e->platform) {
        free(e->name);
        free(e->driver);
        free(e->platform);
        memset(e, 0, sizeof *e);
        return GB_ENOMEM;
    }
    *index = k->n++;
    return GB_OK;
}

size_t gb_fleet_kinds_among(const gb_device_info_t *const *devs, size_t n)
{
    gb_fleet_kinds_t k;
    size_t count = 1, unused;
    if (gb_fleet_kinds_init(&k, n) != GB_OK)
        return count;
    for (size_t i = 0; i < n; i++)
        gb_fleet_kinds_index(&k, devs[i]->name, devs[i]->driver, devs[i]->platform_name, &unused);
    count = k.n ? k.n : 1;
    gb_fleet_kinds_free(&k);
    return count;
}

long gb_fleet_usable_cores(long *online_out)
{
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online_out)
        *online_out = online;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return online;
    const long n = CPU_COUNT(&set);
    return n > 0 && n < online ? n : online;
}

long gb_fleet_spare_cores(long cores, long pools)
{
    pools = pools > 0 ? pools : 1;
    return cores > pools ? (cores - 1) / pools : 1;
}
