/* handle.c: the library's handle (gemmbench_blas.h): made on the caller's context and device or
 * on a device chosen by name, with the built-in kernel families, the shipped tuning database and
 * the user's tuning file; the per-handle kernel override and selection mode. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas_int.h"

/* The library runs buffer kernels only: entries of image kernels are not for it. */
static void keep_buffer_kernels(gb_blas_t *h)
{
    size_t kept = 0;
    for (size_t i = 0; i < h->db.n; i++) {
        const gb_family_t *f;
        const gb_preset_t *pre;
        if (gb_registry_find(h->reg, h->db.e[i].kernel, &f, &pre) == GB_OK && !f->images)
            h->db.e[kept++] = h->db.e[i];
    }
    h->db.n = kept;
}

/* Entries of the tuning file at path over the handle's; what was skipped into h->warnings.
 * GB_OK, GB_ENOMEM, or GB_EBADARG (msg) when the file cannot be read. */
static int load_file(gb_blas_t *h, const char *path, char *msg, size_t msglen)
{
    size_t read, skipped;
    char warn[1024];
    const int rc = gb_tuned_file_read(&h->db, path, h->reg, "file", &read, &skipped, warn,
                                      sizeof warn, msg, msglen);
    if (rc == GB_OK && skipped) {
        size_t used = strlen(h->warnings);
        gb__appendf(h->warnings, sizeof h->warnings, &used, "%s%s", used ? "\n" : "", warn);
        if (skipped > 1)
            gb__appendf(h->warnings, sizeof h->warnings, &used, " (and %zu more entries skipped)",
                        skipped - 1);
    }
    keep_buffer_kernels(h);
    return rc;
}

/* The mode, the choices and capture files and the user's tuning file, from the environment. */
static void from_environment(gb_blas_t *h)
{
    const char *mode = getenv("GEMMBENCH_SELECT"), *capture = getenv("GEMMBENCH_CAPTURE");
    h->select = GB_BLAS_SELECT_CACHED;
    if (mode && *mode && gb_blas__select_parse(mode, &h->select) != GB_OK) {
        h->select = GB_BLAS_SELECT_CACHED;
        snprintf(h->warnings, sizeof h->warnings,
                 "GEMMBENCH_SELECT is '%.60s': not off, cached, measure or measure+build; cached "
                 "is used",
                 mode);
    }
    if (!gb_chosen_file_default(h->choices, sizeof h->choices))
        h->choices[0] = '\0';
    gb__copy(h->capture, sizeof h->capture, capture ? capture : "");
    char path[1100], msg[512];
    if (gb_tuned_file_default(path, sizeof path) && load_file(h, path, msg, sizeof msg) != GB_OK) {
        size_t used = strlen(h->warnings);
        gb__appendf(h->warnings, sizeof h->warnings, &used, "%s%s (its entries are not used)",
                    used ? "\n" : "", msg);
    }
}

/* What both ways of opening share, once h->cl, h->device and h->dev are set. */
static int finish_open(gb_blas_t *h)
{
    int rc = gb__context_wrap(&h->ctx, &h->dev, h->cl);
    if (rc == GB_OK)
        rc = gb__registry_builtin(&h->reg);
    gb_tuned_init(&h->db);
    if (rc == GB_OK)
        rc = gb_tuned_load_shipped(&h->db);
    if (rc == GB_OK)
        keep_buffer_kernels(h);
    if (rc == GB_OK && pthread_mutex_init(&h->lock, NULL) != 0)
        rc = GB_ENOMEM;
    if (rc == GB_OK && pthread_mutex_init(&h->select_lock, NULL) != 0) {
        pthread_mutex_destroy(&h->lock);
        rc = GB_ENOMEM;
    }
    if (rc == GB_OK)
        from_environment(h);
    if (rc != GB_OK) {
        gb_context_close(h->ctx);
        gb_registry_close(h->reg);
        gb_tuned_free(&h->db);
        h->ctx = NULL;
        h->reg = NULL;
        return gb_blas__fail(rc, "out of memory");
    }
    return GB_OK;
}

static void free_shell(gb_blas_t *h)
{
    free(h->dev.extensions);
    if (h->own_queue)
        clReleaseCommandQueue(h->own_queue);
    if (h->cl)
        clReleaseContext(h->cl);
    if (h->device)
        clReleaseDevice(h->device);
    free(h);
}

int gb_blas_open(gb_blas_t **out, cl_context context, cl_device_id device)
{
    if (!out)
        return gb_blas__fail(GB_EBADARG, "gb_blas_open: argument 1 (out) is NULL");
    *out = NULL;
    if (!context)
        return gb_blas__fail(GB_EBADARG, "gb_blas_open: argument 2 (context) is NULL");
    if (!device)
        return gb_blas__fail(GB_EBADARG, "gb_blas_open: argument 3 (device) is NULL");
    cl_platform_id pf = NULL;
    cl_uint ndev = 0;
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof pf, &pf, NULL);
    if (err == CL_SUCCESS)
        err = clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof ndev, &ndev, NULL);
    cl_device_id *devs = err == CL_SUCCESS && ndev ? calloc(ndev, sizeof *devs) : NULL;
    int member = 0;
    if (devs && clGetContextInfo(context, CL_CONTEXT_DEVICES, ndev * sizeof *devs, devs, NULL) ==
                    CL_SUCCESS)
        for (cl_uint i = 0; i < ndev; i++)
            member |= devs[i] == device;
    free(devs);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_EOPENCL,
                             "gb_blas_open: the context or device cannot be queried (%s)",
                             gb__cl_errname(err));
    if (!member)
        return gb_blas__fail(GB_ENODEVICE,
                             "gb_blas_open: argument 3 (device) is not a device of the context");
    gb_blas_t *h = calloc(1, sizeof *h);
    if (!h)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    clRetainContext(context);
    clRetainDevice(device);
    h->cl = context;
    h->device = device;
    gb__device_fill(&h->dev, pf, device);
    int rc = finish_open(h);
    if (rc != GB_OK) {
        free_shell(h);
        return rc;
    }
    *out = h;
    return GB_OK;
}

int gb_blas_open_device(gb_blas_t **out, const char *platform, const char *device)
{
    if (!out)
        return gb_blas__fail(GB_EBADARG, "gb_blas_open_device: argument 1 (out) is NULL");
    *out = NULL;
    gb_device_info_t *list;
    size_t count, at;
    char msg[512];
    int rc = gb_device_list(&list, &count, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "%s", msg);
    /* With nothing named, a GPU where there is one. */
    gb_device_selector_t sel = {platform, platform || device ? GB_DEVTYPE_ALL : GB_DEVTYPE_GPU,
                                device};
    rc = gb_device_select(list, count, &sel, &at, msg, sizeof msg);
    if (rc != GB_OK && !platform && !device) {
        sel.type = GB_DEVTYPE_ALL;
        rc = gb_device_select(list, count, &sel, &at, msg, sizeof msg);
    }
    if (rc != GB_OK) {
        gb_device_list_free(list, count);
        return gb_blas__fail(rc, "%s", msg);
    }
    gb_blas_t *h = calloc(1, sizeof *h);
    if (!h) {
        gb_device_list_free(list, count);
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    }
    h->dev = list[at];
    list[at].extensions = NULL; /* the handle's now */
    gb_device_list_free(list, count);
    h->device = (cl_device_id)h->dev.cl_device;
    clRetainDevice(h->device);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)h->dev.cl_platform,
                                     0};
    cl_int err;
    h->cl = clCreateContext(props, 1, &h->device, NULL, NULL, &err);
    if (err == CL_SUCCESS)
        h->own_queue = clCreateCommandQueueWithProperties(h->cl, h->device, NULL, &err);
    if (err != CL_SUCCESS) {
        rc = gb_blas__fail(GB_EOPENCL,
                           "gb_blas_open_device: making a context and queue on '%s' "
                           "failed (%s)",
                           h->dev.name, gb__cl_errname(err));
        free_shell(h);
        return rc;
    }
    if ((rc = finish_open(h)) != GB_OK) {
        free_shell(h);
        return rc;
    }
    *out = h;
    return GB_OK;
}

void gb_blas_close(gb_blas_t *h)
{
    if (!h)
        return;
    /* Builds in flight finish first: they use the handle. */
    pthread_mutex_lock(&h->lock);
    pthread_t *builders = h->builders;
    const size_t nbuilders = h->nbuilders;
    h->builders = NULL;
    h->nbuilders = h->capbuilders = 0;
    pthread_mutex_unlock(&h->lock);
    for (size_t i = 0; i < nbuilders; i++)
        pthread_join(builders[i], NULL);
    free(builders);
    gb_blas__tables_free(h);
    gb_blas__pools_free(h);
    if (h->measure_queue)
        clReleaseCommandQueue(h->measure_queue);
    gb_context_close(h->ctx);
    gb_registry_close(h->reg);
    gb_tuned_free(&h->db);
    free(h->refused);
    pthread_mutex_destroy(&h->select_lock);
    pthread_mutex_destroy(&h->lock);
    free_shell(h);
}

int gb_blas_set_select(gb_blas_t *h, int mode)
{
    if (!h)
        return gb_blas__fail(GB_EBADARG, "gb_blas_set_select: argument 1 (handle) is NULL");
    const int base = mode & ~GB_BLAS_SELECT_BUILD;
    if (base < GB_BLAS_SELECT_OFF || base > GB_BLAS_SELECT_MEASURE)
        return gb_blas__fail(GB_EBADARG,
                             "gb_blas_set_select: argument 2 (mode) is %d; use "
                             "GB_BLAS_SELECT_OFF, _CACHED or _MEASURE (| GB_BLAS_SELECT_BUILD)",
                             mode);
    h->select = mode;
    /* Plans made under the previous mode go. */
    gb_blas__tables_free(h);
    return GB_OK;
}

int gb_blas_load_tuned(gb_blas_t *h, const char *path)
{
    if (!h || !path)
        return gb_blas__fail(GB_EBADARG, "gb_blas_load_tuned: argument %d (%s) is NULL", h ? 2 : 1,
                             h ? "path" : "handle");
    char msg[1024];
    const int rc = load_file(h, path, msg, sizeof msg);
    gb_blas__tables_free(h);
    return rc == GB_OK ? GB_OK : gb_blas__fail(rc, "gb_blas_load_tuned: %s", msg);
}

int gb_blas__add_tuned(gb_blas_t *h, const gb_tuned_t *t)
{
    const int rc = gb_tuned_merge_all(&h->db, t->e, t->n);
    keep_buffer_kernels(h);
    gb_blas__tables_free(h);
    return rc == GB_OK ? GB_OK : gb_blas__fail(rc, "out of memory");
}

const char *gb_blas_warnings(const gb_blas_t *h)
{
    return h ? h->warnings : "";
}

cl_context gb_blas_context(const gb_blas_t *h)
{
    return h ? h->cl : NULL;
}

cl_device_id gb_blas_device(const gb_blas_t *h)
{
    return h ? h->device : NULL;
}

cl_command_queue gb_blas_queue(const gb_blas_t *h)
{
    return h ? h->own_queue : NULL;
}

/* "NAME=V NAME=V" into ps. */
static int parse_params(const char *text, gb_params_t *ps, char *msg, size_t msglen)
{
    memset(ps, 0, sizeof *ps);
    char buf[1024];
    if (!text)
        return GB_OK;
    if (strlen(text) >= sizeof buf)
        return gb__fail(msg, msglen, GB_EBADPARAM, "parameters '%.40s...' are too long", text);
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
        const int rc = gb_params_parse(ps, t, msg, msglen);
        if (rc != GB_OK)
            return rc;
    }
    return GB_OK;
}

int gb_blas_set_kernel(gb_blas_t *h, const char *kernel, const char *params)
{
    if (!h)
        return gb_blas__fail(GB_EBADARG, "gb_blas_set_kernel: argument 1 (handle) is NULL");
    if (!kernel) {
        h->has_override = 0;
        return GB_OK;
    }
    gb_params_t ps;
    gb_config_t cfg;
    char msg[1024];
    int rc = parse_params(params, &ps, msg, sizeof msg);
    if (rc == GB_OK)
        rc = gb_config_resolve(h->reg, kernel, &ps, &cfg, msg, sizeof msg);
    /* What does not depend on the problem: precision aside, constraints, the device. */
    for (int prec = 0; rc == GB_OK && prec < GB_PREC_COUNT; prec++)
        if (cfg.family->precisions & (1u << prec)) {
            rc = gb_config_check(&cfg, &h->dev, (gb_precision_t)prec, NULL, msg, sizeof msg);
            break;
        }
    if (rc == GB_OK && cfg.family->images)
        rc = gb__fail(msg, sizeof msg, GB_EUNSUPPORTED,
                      "kernel '%s' reads its operands as images, which the library does not "
                      "run; choose a buffer kernel",
                      kernel);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "gb_blas_set_kernel: %s", msg);
    /* Plans made with the previous choice go. */
    pthread_mutex_lock(&h->lock);
    h->override = cfg;
    h->has_override = 1;
    pthread_mutex_unlock(&h->lock);
    gb_blas__tables_free(h);
    return GB_OK;
}
