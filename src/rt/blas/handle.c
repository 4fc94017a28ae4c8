/* handle.c: the library's handle (gemmbench_blas.h): made on the caller's context and device or
 * on a device chosen by name, with the built-in kernel families and the shipped tuning
 * database, and the per-handle kernel override. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas_int.h"

/* What both ways of opening share, once h->cl, h->device and h->dev are set. */
static int finish_open(gb_blas_t *h)
{
    int rc = gb__context_wrap(&h->ctx, &h->dev, h->cl);
    if (rc == GB_OK)
        rc = gb__registry_builtin(&h->reg);
    gb_tuned_init(&h->db);
    if (rc == GB_OK)
        rc = gb_tuned_load_shipped(&h->db);
    /* The library runs buffer kernels only: entries of image kernels are not for it. */
    size_t kept = 0;
    for (size_t i = 0; rc == GB_OK && i < h->db.n; i++) {
        const gb_family_t *f;
        const gb_preset_t *pre;
        if (gb_registry_find(h->reg, h->db.e[i].kernel, &f, &pre) == GB_OK && !f->images)
            h->db.e[kept++] = h->db.e[i];
    }
    h->db.n = kept;
    if (rc == GB_OK && pthread_mutex_init(&h->lock, NULL) != 0)
        rc = GB_ENOMEM;
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
    gb_blas__tables_free(h);
    gb_blas__pools_free(h);
    gb_context_close(h->ctx);
    gb_registry_close(h->reg);
    gb_tuned_free(&h->db);
    pthread_mutex_destroy(&h->lock);
    free_shell(h);
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
    for (int prec = 0; rc == GB_OK && prec < 2; prec++)
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
