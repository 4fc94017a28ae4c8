/* choose.c: the configuration run for a problem: the nearest entry of the tuning database that
 * runs it here, else a heuristic by vendor, type and precision (gemmbench_tuning.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "select.h"

int gb_tuned_load_shipped(gb_tuned_t *t)
{
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < gb__shipped_entry_count; i++)
        rc = gb_tuned_merge(t, &gb__shipped_entries[i]);
    return rc;
}

/* Whether kernel with params can run p on dev. */
static int runs(const gb_registry_t *reg, const gb_device_info_t *dev, const gb_problem_t *p,
                const char *kernel, const gb_params_t *params)
{
    gb_config_t cfg;
    return gb_config_resolve(reg, kernel, params, &cfg, NULL, 0) == GB_OK &&
           gb_config_check(&cfg, dev, p->precision, p, NULL, 0) == GB_OK;
}

/* How well entry e fits p on dev: its tier (0 the user's for this device, 1 shipped for this
 * device, 2 a device of the same vendor and type, -1 none) and, within it, a distance. */
static int tier(const gb_tuned_entry_t *e, const gb_device_info_t *dev)
{
    const int same = !strcmp(e->device, dev->name) && !strcmp(e->platform, dev->platform_name);
    if (same)
        return strcmp(e->source, "shipped") ? 0 : 1;
    if (e->vendor[0] && !strcmp(e->vendor, dev->vendor) && !strcmp(e->type, dev->type_name))
        return 2;
    return -1;
}

static double distance(const gb_tuned_entry_t *e, const gb_device_info_t *dev,
                       const gb_problem_t *p)
{
    char tag[16];
    const size_t a[3] = {e->m, e->n, e->k}, b[3] = {p->m, p->n, p->k};
    double d = gb_shape_distance(a, b);
    if (strcmp(e->layout, gb_problem_layout_tag(p, tag, sizeof tag)))
        d += 100; /* another layout only where none of this one is tuned */
    if (strcmp(e->driver, dev->driver))
        d += 0.01; /* the same driver first, among equals */
    return d;
}

/* The heuristic when nothing is tuned: the kernels measured best on such devices. */
static const struct heuristic {
    const char *vendor; /* substring of the device's vendor, or "" for any */
    const char *type;
    gb_precision_t prec;
    size_t max_size; /* for shapes whose size (gb_shape_size) is at most this (0: any) */
    const char *kernel;
} heuristics[] = {
    {"NVIDIA", "gpu", GB_PREC_S, 1024, "xgemm_nv_64x64"},
    {"NVIDIA", "gpu", GB_PREC_S, 0, "xgemm_nv_k8"},
    {"NVIDIA", "gpu", GB_PREC_D, 0, "dgemm_dmma_128_k4"},
    {"", "gpu", GB_PREC_S, 0, "xgemm_gpu"},
    {"", "gpu", GB_PREC_D, 0, "xgemm_gpu_d"},
    {"", "cpu", GB_PREC_S, 0, "xgemm_cpu"},
    {"", "cpu", GB_PREC_D, 0, "xgemm_cpu_d"},
    {"", "", GB_PREC_S, 0, "xgemm_small"},
    {"", "", GB_PREC_D, 0, "xgemm_small"},
    {"", "", GB_PREC_S, 0, "naive"},
    {"", "", GB_PREC_D, 0, "naive"},
};

int gb_tuned_choose(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                    const gb_problem_t *p, gb_tuned_choice_t *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    /* Entries in order of fit, tried until one runs here. */
    unsigned char *tried = t->n ? calloc(t->n, 1) : NULL;
    if (t->n && !tried)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    for (;;) {
        size_t best = t->n;
        int best_tier = 99;
        double best_d = 0;
        for (size_t i = 0; i < t->n; i++) {
            const gb_tuned_entry_t *e = &t->e[i];
            const int tr = tier(e, dev);
            if (tried[i] || tr < 0 || e->precision != p->precision)
                continue;
            const double d = distance(e, dev, p);
            if (tr < best_tier || (tr == best_tier && d < best_d)) {
                best = i;
                best_tier = tr;
                best_d = d;
            }
        }
        if (best == t->n)
            break;
        tried[best] = 1;
        const gb_tuned_entry_t *e = &t->e[best];
        if (!runs(reg, dev, p, e->kernel, &e->params))
            continue;
        snprintf(out->kernel, sizeof out->kernel, "%s", e->kernel);
        out->params = e->params;
        out->entry = e;
        snprintf(out->why, sizeof out->why, "tuned: %s%s, %s%s", best_tier == 2 ? "like " : "",
                 e->device, e->shape_class, best_tier == 1 ? ", shipped" : "");
        free(tried);
        return GB_OK;
    }
    free(tried);
    const size_t size = gb_shape_size(p->m, p->n, p->k);
    for (size_t i = 0; i < sizeof heuristics / sizeof heuristics[0]; i++) {
        const struct heuristic *h = &heuristics[i];
        if (h->prec != p->precision || (h->vendor[0] && !strstr(dev->vendor, h->vendor)) ||
            (h->type[0] && strcmp(h->type, dev->type_name)) || (h->max_size && size > h->max_size))
            continue;
        gb_params_t none;
        memset(&none, 0, sizeof none);
        if (!runs(reg, dev, p, h->kernel, &none))
            continue;
        snprintf(out->kernel, sizeof out->kernel, "%s", h->kernel);
        snprintf(out->why, sizeof out->why, "untuned: the default for a%s %s%s%s",
                 strchr("aeiou", dev->type_name[0]) ? "n" : "", h->vendor[0] ? h->vendor : "",
                 h->vendor[0] ? " " : "", dev->type_name);
        return GB_OK;
    }
    return gb__fail(msg, msglen, GB_ENOKERNEL, "no kernel can run this problem on device '%s'",
                    dev->name);
}
