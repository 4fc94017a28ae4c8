/* tuned.c: the tuning database in memory: entries from the store and the shipped defaults, as
 * JSON, and the choice -k auto makes (tuned.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/util.h"
#include "shapes.h"
#include "shipped.h"
#include "tuned.h"

void gb_tuned_init(gb_tuned_t *t)
{
    memset(t, 0, sizeof *t);
}

void gb_tuned_free(gb_tuned_t *t)
{
    if (!t)
        return;
    free(t->e);
    memset(t, 0, sizeof *t);
}

int gb_tuned_add(gb_tuned_t *t, const gb_tuned_entry_t *e)
{
    if (gb__grow(&t->e, &t->cap, t->n + 1, sizeof *t->e) != GB_OK)
        return GB_ENOMEM;
    t->e[t->n++] = *e;
    return GB_OK;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

char *gb_tuned_to_json(const gb_tuned_t *t)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < t->n; i++) {
        const gb_tuned_entry_t *e = &t->e[i];
        cJSON *o = cJSON_CreateObject(), *ps = cJSON_CreateObject(), *ev = cJSON_CreateArray();
        cJSON_AddStringToObject(o, "device", e->device);
        cJSON_AddStringToObject(o, "platform", e->platform);
        cJSON_AddStringToObject(o, "driver", e->driver);
        cJSON_AddStringToObject(o, "vendor", e->vendor);
        cJSON_AddStringToObject(o, "type", e->type);
        cJSON_AddStringToObject(o, "precision", gb_precision_name(e->precision));
        cJSON_AddStringToObject(o, "layout", e->layout);
        cJSON_AddStringToObject(o, "class", e->shape_class);
        cJSON *shape = cJSON_AddArrayToObject(o, "shape");
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)e->m));
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)e->n));
        cJSON_AddItemToArray(shape, cJSON_CreateNumber((double)e->k));
        cJSON_AddStringToObject(o, "kernel", e->kernel);
        for (size_t j = 0; j < e->params.count; j++)
            cJSON_AddNumberToObject(ps, e->params.name[j], (double)e->params.value[j]);
        cJSON_AddItemToObject(o, "params", ps);
        cJSON_AddNumberToObject(o, "gflops", e->gflops);
        for (size_t j = 0; j < e->nevidence; j++)
            cJSON_AddItemToArray(ev, cJSON_CreateString(e->evidence[j]));
        cJSON_AddItemToObject(o, "evidence", ev);
        cJSON_AddStringToObject(o, "tuned_at", e->tuned_at);
        cJSON_AddItemToArray(arr, o);
    }
    char *s = arr ? cJSON_Print(arr) : NULL;
    cJSON_Delete(arr);
    return s;
}

static int get_text(const cJSON *o, const char *key, char *out, size_t len, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? 0 : (out[0] = '\0', 1);
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= len)
        return 0;
    snprintf(out, len, "%s", v->valuestring);
    return 1;
}

static int get_size(const cJSON *v, size_t *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 1073741824.0 ||
        v->valuedouble != floor(v->valuedouble))
        return 0;
    *out = (size_t)v->valuedouble;
    return 1;
}

/* One entry of a JSON document; the key at fault into bad. */
static int entry_from_json(const cJSON *o, gb_tuned_entry_t *e, const char **bad)
{
    memset(e, 0, sizeof *e);
    char prec[4];
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(o, "shape");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(o, "params");
    const cJSON *gf = cJSON_GetObjectItemCaseSensitive(o, "gflops");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "evidence");
    if (!cJSON_IsObject(o))
        return *bad = "(an object)", 0;
    if (!get_text(o, "device", e->device, sizeof e->device, 1))
        return *bad = "device", 0;
    if (!get_text(o, "platform", e->platform, sizeof e->platform, 1))
        return *bad = "platform", 0;
    if (!get_text(o, "driver", e->driver, sizeof e->driver, 0))
        return *bad = "driver", 0;
    if (!get_text(o, "vendor", e->vendor, sizeof e->vendor, 0))
        return *bad = "vendor", 0;
    if (!get_text(o, "type", e->type, sizeof e->type, 0))
        return *bad = "type", 0;
    if (!get_text(o, "precision", prec, sizeof prec, 1) ||
        gb_precision_parse(prec, &e->precision) != GB_OK)
        return *bad = "precision", 0;
    if (!get_text(o, "layout", e->layout, sizeof e->layout, 1) ||
        (strlen(e->layout) != 6 ||
         (strncmp(e->layout, "row-", 4) && strncmp(e->layout, "col-", 4)) ||
         !strchr("NT", e->layout[4]) || !strchr("NT", e->layout[5])))
        return *bad = "layout", 0;
    if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) != 3 ||
        !get_size(cJSON_GetArrayItem(shape, 0), &e->m) ||
        !get_size(cJSON_GetArrayItem(shape, 1), &e->n) ||
        !get_size(cJSON_GetArrayItem(shape, 2), &e->k))
        return *bad = "shape", 0;
    gb_shape_class(e->m, e->n, e->k, e->shape_class, sizeof e->shape_class);
    if (!get_text(o, "kernel", e->kernel, sizeof e->kernel, 1) || !e->kernel[0])
        return *bad = "kernel", 0;
    if (ps && !cJSON_IsObject(ps))
        return *bad = "params", 0;
    for (const cJSON *p = ps ? ps->child : NULL; p; p = p->next)
        if (!cJSON_IsNumber(p) || p->valuedouble != floor(p->valuedouble) ||
            fabs(p->valuedouble) > 1e15 ||
            gb_params_set(&e->params, p->string, (long)p->valuedouble) != GB_OK)
            return *bad = "params", 0;
    if (gf && (!cJSON_IsNumber(gf) || !(gf->valuedouble >= 0)))
        return *bad = "gflops", 0;
    e->gflops = gf ? gf->valuedouble : 0;
    if (ev && !cJSON_IsArray(ev))
        return *bad = "evidence", 0;
    for (const cJSON *p = ev ? ev->child : NULL; p && e->nevidence < GB_TUNED_EVIDENCE;
         p = p->next) {
        if (!cJSON_IsString(p) || strlen(p->valuestring) != GB_POINT_ID_LEN)
            return *bad = "evidence", 0;
        snprintf(e->evidence[e->nevidence++], GB_POINT_ID_LEN + 1, "%s", p->valuestring);
    }
    if (!get_text(o, "tuned_at", e->tuned_at, sizeof e->tuned_at, 0))
        return *bad = "tuned_at", 0;
    return 1;
}

int gb_tuned_from_json(gb_tuned_t *t, const char *text, size_t len, const char *origin,
                       const char *source, char *msg, size_t msglen)
{
    const char *end = NULL;
    cJSON *arr = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!arr)
        return gb__fail(msg, msglen, GB_EBADARG, "%s is not valid JSON near byte %ld", origin,
                        cJSON_GetErrorPtr() ? (long)(cJSON_GetErrorPtr() - text) : -1L);
    int rc = GB_OK;
    for (size_t at = (size_t)(end - text); rc == GB_OK && at < len; at++)
        if (!strchr(" \t\r\n", text[at]) || !text[at])
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s: text after the JSON document at byte %zu",
                          origin, at);
    if (rc == GB_OK && !cJSON_IsArray(arr))
        rc = gb__fail(msg, msglen, GB_EBADARG, "%s must be a JSON array of tuned entries", origin);
    size_t i = 0;
    for (const cJSON *o = arr->child; rc == GB_OK && o; o = o->next, i++) {
        gb_tuned_entry_t e;
        const char *bad = "";
        if (!entry_from_json(o, &e, &bad))
            rc = gb__fail(msg, msglen, GB_EBADARG,
                          "%s: entry %zu: key '%s' is missing or wrong "
                          "(docs/tuning.md)",
                          origin, i, bad);
        else {
            snprintf(e.source, sizeof e.source, "%s", source);
            rc = gb_tuned_add(t, &e);
        }
    }
    cJSON_Delete(arr);
    return rc;
}

int gb_tuned_load_shipped(gb_tuned_t *t, char *msg, size_t msglen)
{
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < gb_tune__shipped_count; i++) {
        char origin[160];
        snprintf(origin, sizeof origin, "kernels/tuned/%s", gb_tune__shipped_files[i].name);
        rc = gb_tuned_from_json(t, gb_tune__shipped_files[i].data, gb_tune__shipped_files[i].len,
                                origin, "shipped", msg, msglen);
    }
    return rc;
}

/* ---- choosing ------------------------------------------------------------------------------- */

/* Whether kernel with params can run p on dev (resolved into *im). */
static int runs(const gb_registry_t *reg, const gb_device_info_t *dev, const gb_problem_t *p,
                const char *kernel, const gb_params_t *params, gb_impl_t *im)
{
    return gb_impl_resolve(reg, kernel, params, im, NULL, 0) == GB_OK &&
           gb_impl_check(im, dev, p->precision, p, NULL, 0) == GB_OK;
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
    gb_impl_t im;
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
        if (!runs(reg, dev, p, e->kernel, &e->params, &im))
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
        if (!runs(reg, dev, p, h->kernel, &none, &im))
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
