/* cmd_ceilings.c: `gemmbench ceilings [-p P -t T -d D] [--json] [--store PATH|--no-store]`: the
 * device's peak FLOP/s by formula and by micro-benchmark, and its measured memory bandwidth,
 * kept in the results store so that `run` reports efficiency against the measured peak. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tool/store/store.h"
#include "cli.h"

/* Keeps the measurement in the store (the default one, or --store PATH). */
static int store_ceilings(const char *path, const gb_device_info_t *di, const gb_ceilings_t *ce)
{
    struct gb_store *st = NULL;
    int rc = cli_store_open(&st, path, 1);
    if (rc)
        return rc;
    if (gb_store_put_ceilings(st, di, ce) != GB_OK)
        rc = cli_error(GB_EIO, "%s", gb_store_errmsg(st));
    else
        fprintf(stderr, "ceilings stored in %s for %s, driver %s\n", gb_store_path(st), di->name,
                di->driver);
    gb_store_close(st);
    return rc;
}

/* The ceilings as JSON. */
static void print_json(const gb_device_info_t *di, const gb_ceilings_t *ce)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "device", di->name);
    cJSON_AddStringToObject(o, "driver", di->driver);
    for (int p = 0; p < 2; p++) {
        cJSON *e = cJSON_AddObjectToObject(o, p ? "d" : "s");
        cJSON_AddNumberToObject(e, "formula_gflops", di->peak_gflops[p]);
        cJSON_AddStringToObject(e, "formula", di->peak_formula[p]);
        cJSON_AddNumberToObject(e, "measured_gflops", ce->peak_gflops[p]);
    }
    cJSON_AddNumberToObject(o, "bandwidth_gbs", ce->bandwidth_gbs);
    cJSON *rd = cJSON_AddArrayToObject(o, "reads");
    for (size_t i = 0; i < ce->nreads; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "bytes", (double)ce->reads[i].bytes);
        cJSON_AddNumberToObject(e, "us", ce->reads[i].us);
        cJSON_AddItemToArray(rd, e);
    }
    cJSON_AddNumberToObject(o, "read_fixed_us", ce->read_fixed_us);
    cJSON_AddNumberToObject(o, "read_gbs", ce->read_gbs);
    cJSON *tr = cJSON_AddObjectToObject(o, "host_device_gbs");
    for (int h = 0; h < GB_HOST_KINDS; h++) {
        if (h == GB_HOST_MAPPED && !di->host_unified)
            continue; /* not measured: the device does not share host memory */
        cJSON *k = cJSON_AddObjectToObject(tr, gb_host_mem_name((gb_host_mem_t)h));
        if (h == GB_HOST_MAPPED)
            cJSON_AddStringToObject(k, "what",
                                    "no copy: bytes over the time of the unmap "
                                    "(h2d) and the map (d2h)");
        cJSON_AddNumberToObject(k, "h2d", ce->h2d_gbs[h]);
        cJSON_AddNumberToObject(k, "d2h", ce->d2h_gbs[h]);
        cJSON *sw = cJSON_AddArrayToObject(k, "sweep");
        for (size_t i = 0; i < ce->nsweep; i++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "bytes", (double)ce->sweep[i].bytes);
            cJSON_AddNumberToObject(e, "h2d", ce->sweep[i].h2d_gbs[h]);
            cJSON_AddNumberToObject(e, "d2h", ce->sweep[i].d2h_gbs[h]);
            cJSON_AddItemToArray(sw, e);
        }
    }
    cJSON_AddStringToObject(o, "method", ce->method);
    char *s = cJSON_Print(o);
    printf("%s\n", s ? s : "{}");
    free(s);
    cJSON_Delete(o);
}

/* The copies' rates by size, and their plateau (mapped memory: the hand-over's time). */
static void print_copies(const gb_device_info_t *di, const gb_ceilings_t *ce)
{
    const int mapped = di->host_unified;
    printf("host-device copies, GB/s (to the device / back), by size:\n");
    printf("  %10s  %-17s %-17s%s\n", "bytes", "pageable", "pinned",
           mapped ? " mapped: unmap / map, us (no copy)" : "");
    for (size_t i = 0; i <= ce->nsweep; i++) {
        const int last = i == ce->nsweep;
        const double *h2d = last ? ce->h2d_gbs : ce->sweep[i].h2d_gbs,
                     *d2h = last ? ce->d2h_gbs : ce->sweep[i].d2h_gbs;
        if (last)
            printf("  %10s ", "ceiling");
        else
            printf("  %10zu ", ce->sweep[i].bytes);
        printf(" %7.2f / %-7.2f %7.2f / %-7.2f", h2d[GB_HOST_PAGEABLE], d2h[GB_HOST_PAGEABLE],
               h2d[GB_HOST_PINNED], d2h[GB_HOST_PINNED]);
        /* Nothing travels: the time of the hand-over says more than a rate. */
        const double bytes = (double)ce->sweep[last ? ce->nsweep - 1 : i].bytes;
        if (mapped && last)
            printf(" %7s / %-7s", "-", "-"); /* no link to reach a speed */
        else if (mapped && h2d[GB_HOST_MAPPED] > 0 && d2h[GB_HOST_MAPPED] > 0)
            printf(" %7.3g / %-7.3g", bytes / (h2d[GB_HOST_MAPPED] * 1e3),
                   bytes / (d2h[GB_HOST_MAPPED] * 1e3));
        printf("%s\n", last ? " (the plateau: the best from 16 MiB up)" : "");
    }
    if (mapped)
        printf("mapped memory is not copied: its figures are the time of handing a buffer of "
               "that size to the device (unmap) and back (map), the best of several; stored "
               "and in --json as bytes over that time\n");
    else
        printf("mapped: not measured: the device does not share host memory\n");
}

/* The ceilings as text. */
static void print_text(const gb_device_info_t *di, const gb_ceilings_t *ce)
{
    printf("device: %s (%s)\n", di->name, di->driver);
    for (int p = 0; p < 2; p++) {
        printf("peak %s: measured %.1f GFLOP/s", p ? "D" : "S", ce->peak_gflops[p]);
        if (di->peak_gflops[p] > 0)
            printf(", formula %.1f (%.0f%%): %s\n", di->peak_gflops[p],
                   100.0 * ce->peak_gflops[p] / di->peak_gflops[p], di->peak_formula[p]);
        else
            printf(", formula %s\n", di->peak_formula[p]);
        /* A formula below what was measured is not a ceiling: say which of its figures fails. */
        if (di->peak_gflops[p] > 0 && ce->peak_gflops[p] > 1.02 * di->peak_gflops[p])
            printf("  above the formula: the cores ran faster than the %u MHz the driver "
                   "reports (turbo), or an assumption of the formula does not hold here; eff%% "
                   "can pass 100%%, meas%% is against the measured peak\n",
                   di->clock_mhz);
    }
    printf("memory bandwidth: measured %.1f GB/s (read + write)\n", ce->bandwidth_gbs);
    if (ce->nreads) {
        printf("reads alone, us:");
        for (size_t i = 0; i < ce->nreads; i++)
            printf(" %zu MiB %.1f%s", ce->reads[i].bytes >> 20, ce->reads[i].us,
                   i + 1 < ce->nreads ? "," : "");
        if (ce->read_gbs > 0)
            printf("; a stream of b bytes from memory: about %.1f us + b at %.1f GB/s",
                   ce->read_fixed_us, ce->read_gbs);
        printf("\n");
    }
    print_copies(di, ce);
    printf("method: %s\n", ce->method);
}

/* The options: 0, -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, gb_device_selector_t *sel, const char **store,
                 int *no_store, int *json)
{
    static const struct option opts[] = {
        {"platform", required_argument, NULL, 'p'}, {"type", required_argument, NULL, 't'},
        {"device", required_argument, NULL, 'd'},   {"json", no_argument, NULL, 'j'},
        {"store", required_argument, NULL, 's'},    {"no-store", no_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:t:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': sel->platform = optarg; break;
        case 'd': sel->device = optarg; break;
        case 't':
            if ((rc = cli_device_type(optarg, &sel->type)) != 0)
                return rc;
            break;
        case 'j': *json = 1; break;
        case 's': *store = optarg; break;
        case 'n': *no_store = 1; break;
        case 'h':
            printf("usage: gemmbench ceilings [-p P] [-t T] [-d D] [--json] [--store "
                   "PATH|--no-store]\n");
            return -1;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]);
        default: return cli_error(GB_EBADARG, "unknown option '%s' for ceilings", argv[optind - 1]);
        }
    }
    return cli_no_operands(argc, argv, "ceilings");
}

int cmd_ceilings(int argc, char **argv)
{
    const char *store = NULL;
    int no_store = 0, json = 0;
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    int rc = parse(argc, argv, &sel, &store, &no_store, &json);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    cli_device_t dev;
    rc = cli_device_open(&dev, &sel);
    if (rc)
        return rc;
    const gb_device_info_t *di = &dev.list[dev.index];
    gb_context_t *ctx = NULL;
    char msg[512];
    gb_ceilings_t ce;
    if ((rc = gb_context_open(&ctx, di, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
    } else if ((rc = gb_ceilings_measure(ctx, &ce)) != GB_OK) {
        rc = cli_error(rc, "%s", gb_context_errmsg(ctx));
    } else if (!no_store && (rc = store_ceilings(store, di, &ce)) != 0) {
        /* the error is printed */
    } else {
        if (json)
            print_json(di, &ce);
        else
            print_text(di, &ce);
        rc = EXIT_OK;
    }
    gb_context_close(ctx);
    cli_device_close(&dev);
    return rc;
}
