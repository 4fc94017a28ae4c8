/* cmd_devices.c: `gemmbench devices [--json]`: every platform and device with its facts and
 * its peak FLOP/s by formula. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static cJSON *device_json(const gb_device_info_t *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "platform_index", (double)d->platform_index);
    cJSON_AddNumberToObject(o, "device_index", (double)d->device_index);
    cJSON_AddStringToObject(o, "platform", d->platform_name);
    cJSON_AddStringToObject(o, "platform_version", d->platform_version);
    cJSON_AddStringToObject(o, "name", d->name);
    cJSON_AddStringToObject(o, "vendor", d->vendor);
    cJSON_AddStringToObject(o, "type", d->type_name);
    cJSON_AddStringToObject(o, "family", d->family);
    cJSON_AddStringToObject(o, "driver", d->driver);
    cJSON_AddStringToObject(o, "opencl_version", d->version);
    cJSON_AddNumberToObject(o, "compute_units", d->compute_units);
    cJSON_AddNumberToObject(o, "clock_mhz", d->clock_mhz);
    cJSON_AddNumberToObject(o, "global_mem_bytes", (double)d->global_mem);
    cJSON_AddNumberToObject(o, "local_mem_bytes", (double)d->local_mem);
    cJSON_AddNumberToObject(o, "kernel_local_mem_bytes", (double)d->local_mem_kernel);
    cJSON_AddNumberToObject(o, "max_alloc_bytes", (double)d->max_alloc);
    cJSON_AddNumberToObject(o, "max_work_group_size", (double)d->max_wg_size);
    cJSON *wi = cJSON_AddArrayToObject(o, "max_work_item_sizes");
    for (int i = 0; i < 3; i++)
        cJSON_AddItemToArray(wi, cJSON_CreateNumber((double)d->max_wi_sizes[i]));
    cJSON *vec = cJSON_AddObjectToObject(o, "vector_widths");
    cJSON_AddNumberToObject(vec, "preferred_float", d->pref_vec_float);
    cJSON_AddNumberToObject(vec, "preferred_double", d->pref_vec_double);
    cJSON_AddNumberToObject(vec, "native_float", d->native_vec_float);
    cJSON_AddNumberToObject(vec, "native_double", d->native_vec_double);
    cJSON_AddBoolToObject(o, "fp64", d->fp64);
    cJSON_AddBoolToObject(o, "host_unified_memory", d->host_unified);
    cJSON_AddStringToObject(o, "extensions", d->extensions ? d->extensions : "");
    cJSON *peak = cJSON_AddObjectToObject(o, "peak_gflops_formula");
    for (int p = 0; p < 2; p++) {
        cJSON *e = cJSON_AddObjectToObject(peak, p ? "d" : "s");
        if (d->peak_gflops[p] > 0)
            cJSON_AddNumberToObject(e, "gflops", d->peak_gflops[p]);
        else
            cJSON_AddNullToObject(e, "gflops");
        cJSON_AddStringToObject(e, "formula", d->peak_formula[p]);
    }
    cJSON_AddBoolToObject(o, "fp16", gb_device_has_extension(d, "cl_khr_fp16"));
    return o;
}

static void device_text(const gb_device_info_t *d)
{
    printf("platform %zu: %s (%s)\n", d->platform_index, d->platform_name, d->platform_version);
    printf("  device %zu: %s\n", d->device_index, d->name);
    printf("    family %s\n", d->family);
    printf("    vendor %s, type %s, driver %s, %s\n", d->vendor, d->type_name, d->driver,
           d->version);
    printf("    compute units %u, clock %u MHz, max work-group %zu (%zu x %zu x %zu)\n",
           d->compute_units, d->clock_mhz, d->max_wg_size, d->max_wi_sizes[0], d->max_wi_sizes[1],
           d->max_wi_sizes[2]);
    printf("    global memory %.1f GiB (max alloc %.1f GiB), local memory %.0f KiB",
           (double)d->global_mem / 1073741824.0, (double)d->max_alloc / 1073741824.0,
           (double)d->local_mem / 1024.0);
    if (d->local_mem_kernel != d->local_mem)
        printf(" (a kernel's own arrays: up to %.0f KiB)", (double)d->local_mem_kernel / 1024.0);
    printf("\n");
    printf("    vector widths preferred float %u double %u, native float %u double %u; fp64 %s\n",
           d->pref_vec_float, d->pref_vec_double, d->native_vec_float, d->native_vec_double,
           d->fp64 ? "yes" : "no");
    printf("    host memory: %s\n", d->host_unified ? "shared with the device (--host-mem mapped: "
                                                      "zero-copy)"
                                                    : "apart (copies; no --host-mem mapped)");
    for (int p = 0; p < 2; p++) {
        if (d->peak_gflops[p] > 0)
            printf("    peak %s: %.1f GFLOP/s = %s\n", p ? "D" : "S", d->peak_gflops[p],
                   d->peak_formula[p]);
        else
            printf("    peak %s: %s\n", p ? "D" : "S", d->peak_formula[p]);
    }
    /* Storage-only formats: their arithmetic is FP32, whatever FP16 units the device has. */
    printf("    peak H, B: peak S (FP16 and bfloat16 are stored in 16 bits and computed in FP32; "
           "%s)\n",
           gb_device_has_extension(d, "cl_khr_fp16") ? "the device's cl_khr_fp16 is not used"
                                                     : "no cl_khr_fp16");
    printf("    extensions: %s\n", d->extensions ? d->extensions : "");
}

int cmd_devices(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int json = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 'h') {
            printf("usage: gemmbench devices [--json]\n");
            return EXIT_OK;
        } else
            return cli_error(GB_EBADARG, "unknown option '%s' for devices; use --json or nothing",
                             argv[optind - 1]);
    }
    int rc = cli_no_operands(argc, argv, "devices");
    if (rc)
        return rc;
    gb_device_info_t *list;
    size_t n;
    char msg[512];
    rc = gb_device_list(&list, &n, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < n; i++)
            cJSON_AddItemToArray(arr, device_json(&list[i]));
        char *s = cJSON_Print(arr);
        printf("%s\n", s ? s : "[]");
        free(s);
        cJSON_Delete(arr);
    } else if (n == 0) {
        printf("no OpenCL devices found (install PoCL: scripts/install-deps.sh)\n");
    } else {
        for (size_t i = 0; i < n; i++)
            device_text(&list[i]);
        printf("peak = lanes x 2 (FMA) x clock over all compute units; 'unknown' where the lane "
               "count cannot be known\n");
    }
    gb_device_list_free(list, n);
    return EXIT_OK;
}
