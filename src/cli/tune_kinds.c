/* tune_kinds.c: the kinds of device a tuning spreads over (tune_cli.h). A kind is a device's
 * name, driver and platform: devices of one kind share the runs, each kind tunes every run for
 * its own database entries (docs/scale-out.md). Kept apart from tune_devices.c, which opens
 * devices and speaks MPI, so that the mapping can be tested on its own. */
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "tune_cli.h"

int cli_kinds_init(cli_kinds_t *k, size_t cap)
{
    memset(k, 0, sizeof *k);
    if (!(k->v = calloc(cap ? cap : 1, sizeof *k->v)))
        return GB_ENOMEM;
    k->cap = cap;
    return GB_OK;
}

void cli_kinds_free(cli_kinds_t *k)
{
    for (size_t i = 0; k->v && i < k->n; i++) {
        free(k->v[i].name);
        free(k->v[i].driver);
        free(k->v[i].platform);
    }
    free(k->v);
    memset(k, 0, sizeof *k);
}

int cli_kinds_index(cli_kinds_t *k, const char *name, const char *driver, const char *platform,
                    size_t *index)
{
    for (size_t i = 0; i < k->n; i++)
        if (!strcmp(k->v[i].name, name) && !strcmp(k->v[i].driver, driver) &&
            !strcmp(k->v[i].platform, platform)) {
            *index = i;
            return GB_OK;
        }
    if (k->n == k->cap)
        return GB_EBADARG;
    cli_kind_t *e = &k->v[k->n];
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

size_t cli_kinds_among(const cli_device_t *d)
{
    cli_kinds_t k;
    size_t n = 1, unused;
    if (cli_kinds_init(&k, d->npicks) != GB_OK)
        return n;
    for (size_t i = 0; i < d->npicks; i++) {
        const gb_device_info_t *x = &d->list[d->picks[i]];
        cli_kinds_index(&k, x->name, x->driver, x->platform_name, &unused);
    }
    n = k.n ? k.n : 1;
    cli_kinds_free(&k);
    return n;
}

long cli_spare_cores(long cores, long pools)
{
    pools = pools > 0 ? pools : 1;
    return cores > pools ? (cores - 1) / pools : 1;
}

long cli_builders_default(long cores, long pools, long lookahead)
{
    pools = pools > 0 ? pools : 1;
    const long spare = cli_spare_cores(cores, pools);
    const long cap = CLI_MAX_BUILDERS / pools > 0 ? CLI_MAX_BUILDERS / pools : 1;
    const long n = spare < cap ? spare : cap;
    return n < lookahead ? n : lookahead;
}
