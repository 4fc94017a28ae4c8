/* tune_refresh.c: `gemmbench tune --refresh`'s plan, made before anything is measured or
 * written: the options a refresh does not take refused, the tuned entries -k auto sees read
 * (the store only read), the runs planned (src/tool/tune/refresh.c) and, with --count,
 * printed. The runs then go to the tuners as tune's own do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tune/refresh.h"
#include "tune_cli.h"

static void say_note(const char *msg, void *user)
{
    (void)user;
    printf("tune --refresh: %s\n", msg);
}

/* The options a refresh does not take: 0 or the exit code. */
static int refused(const tune_opts_t *t, const gb_explore_plan_t *pl, const narrowing_t *nw)
{
    if (pl->kernels && pl->kernels[0])
        return cli_error(GB_EBADARG, "--refresh tunes the kernels of each class's entries: give "
                                     "no -k (tune -k FAMILY tunes one family at the shapes given)");
    if (pl->orders.n || pl->dim[0].n || pl->dim[1].n || pl->dim[2].n || pl->nshapes)
        return cli_error(GB_EBADARG, "--refresh tunes each class at its entries' shape: give no "
                                     "-n, -M, -N, -K, --shapes or --plan shapes");
    if (nw->n)
        return cli_error(GB_EBADARG, "--param and --fix narrow one family's space: not with "
                                     "--refresh, which tunes each class's families whole");
    if (pl->has_layout)
        return cli_error(GB_EBADARG, "--refresh tunes each class in its own layout: give no "
                                     "--layout (--classes PRECISION/LAYOUT/CLASS picks classes)");
    if (t->record)
        return cli_error(GB_EBADARG, "--record writes one run's evaluations: not with --refresh");
    return 0;
}

/* The devices to plan for: those of -d; under MPI (rank 0) each rank tunes one device of its
 * own, so every device -d names (with --device-map, every device -p and -t allow), opened
 * again into *all. */
static int plan_devices(const cli_device_t *dev, const cli_measure_t *o, const gb_fleet_mpi_t *mpi,
                        cli_device_t *all, const gb_device_info_t **devs, size_t *n)
{
    const cli_device_t *from = dev;
    if (mpi->started && mpi->size > 1) {
        gb_device_selector_t sel = o->sel;
        if (o->device_map)
            sel.device = "all";
        int rc = cli_devices_open(all, &sel);
        if (rc)
            return rc;
        from = all;
    }
    *n = from->npicks;
    for (size_t i = 0; i < from->npicks; i++)
        devs[i] = &from->list[from->picks[i]];
    return 0;
}

int cli_tune_refresh_plan(gb_tune_runs_t *r, const tune_opts_t *t, const cli_measure_t *o,
                          const gb_explore_plan_t *pl, const narrowing_t *nw,
                          const gb_registry_t *reg, const cli_device_t *dev,
                          const gb_fleet_mpi_t *mpi)
{
    int rc = refused(t, pl, nw);
    if (rc || (rc = cli_tune_check_options(pl, t)))
        return rc;
    r->refresh = 1;
    r->time_s = t->time_s;
    if (mpi->rank > 0)
        return 0; /* rank 0 plans, and sends each rank its runs */
    gb_store_t *st = NULL;
    char msg[2048], warn[1024];
    rc = gb_store_open(&st, o->store, 0, msg, sizeof msg);
    if (rc != GB_OK && rc != GB_ENOSTORE)
        return cli_error(rc, "%s", msg);
    gb_tuned_t db;
    gb_tuned_init(&db);
    rc = gb_refresh_entries(&db, st, reg, warn, sizeof warn, msg, sizeof msg);
    gb_store_close(st);
    if (rc != GB_OK) {
        gb_tuned_free(&db);
        return cli_error(rc, "%s", msg);
    }
    if (warn[0])
        fprintf(stderr, "gemmbench: tune --refresh: %s\n", warn);
    cli_device_t all;
    memset(&all, 0, sizeof all);
    const gb_device_info_t *devs[CLI_MAX_DEVICES];
    size_t n = 0;
    if (!(rc = plan_devices(dev, o, mpi, &all, devs, &n))) {
        const gb_refresh_opts_t ro = {.precisions = pl->precisions,
                                      .classes = t->classes,
                                      .user_only = t->no_shipped,
                                      .base = &pl->base,
                                      .note = say_note};
        if ((rc = gb_refresh_plan(r, &db, reg, devs, n, &ro, msg, sizeof msg)) != GB_OK)
            rc = cli_error(rc, "%s", msg);
    }
    cli_device_close(&all);
    gb_tuned_free(&db);
    return rc;
}

int cli_tune_refresh_print(const gb_tune_runs_t *r)
{
    printf("%-30s %-4s %-6s %-14s %-18s %-16s %20s  %s\n", "device", "prec", "layout",
           "shape class", "kernel", "shape", "valid configurations", "seeds");
    for (size_t i = 0; i < r->nitems; i++) {
        const gb_tune_item_t *it = &r->items[i];
        char shape[64];
        snprintf(shape, sizeof shape, "%zux%zux%zu", it->m, it->n, it->k);
        printf("%-30.30s %-4s %-6s %-14s %-18s %-16s %20llu  %zu\n", it->device,
               gb_precision_name(it->precision), it->layout, it->shape_class, it->kernel, shape,
               (unsigned long long)it->space, it->nseeds);
    }
    printf("%zu run(s) to refresh\n", r->nitems);
    return EXIT_OK;
}
