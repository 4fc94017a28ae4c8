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

const char *gb_tuned_params_text(const gb_params_t *ps, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ps->count; i++)
        gb__appendf(buf, len, &used, "%s%s=%ld", i ? " " : "", ps->name[i], ps->value[i]);
    if (!ps->count)
        snprintf(buf, len, "(defaults)");
    return buf;
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

/* ---- reading entries ------------------------------------------------------------------------ */

/* What each key must hold, for the message that refuses it. */
static const struct {
    const char *key, *must;
} musts[] = {
    {"device", "the device's name, a non-empty string"},
    {"platform", "the platform's name, a string"},
    {"driver", "a string"},
    {"vendor", "a string"},
    {"type", "a string (gpu, cpu, ...)"},
    {"precision", "\"s\" or \"d\""},
    {"layout", "row-NN, row-NT, row-TN, row-TT, col-NN, col-NT, col-TN or col-TT"},
    {"shape", "[M, N, K], whole numbers from 1 to 2^30"},
    {"kernel", "a kernel, preset or family name, a non-empty string"},
    {"params", "an object of parameter names (letters, digits, _) and whole numbers"},
    {"gflops", "a finite number, 0 or more"},
    {"evidence", "an array of at most 8 point ids (16 lower-case hex digits)"},
    {"tuned_at", "a string (UTC, ISO 8601)"},
};

static const char *must_of(const char *key)
{
    for (size_t i = 0; i < sizeof musts / sizeof musts[0]; i++)
        if (!strcmp(musts[i].key, key))
            return musts[i].must;
    return "an object";
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

/* A parameter name: a C identifier, as the kernels' build options take it. */
static int is_name(const char *s)
{
    static const char letters[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";
    return s[0] && strchr(letters, s[0]) &&
           s[strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789")] == '\0';
}

static int is_point_id(const char *s)
{
    return strlen(s) == GB_POINT_ID_LEN && strspn(s, "0123456789abcdef") == GB_POINT_ID_LEN;
}

/* One entry of a JSON document; NULL, or the key at fault. */
static const char *entry_from_json(const cJSON *o, gb_tuned_entry_t *e)
{
    memset(e, 0, sizeof *e);
    char prec[4];
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(o, "shape");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(o, "params");
    const cJSON *gf = cJSON_GetObjectItemCaseSensitive(o, "gflops");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "evidence");
    if (!get_text(o, "device", e->device, sizeof e->device, 1) || !e->device[0])
        return "device";
    if (!get_text(o, "platform", e->platform, sizeof e->platform, 1))
        return "platform";
    if (!get_text(o, "driver", e->driver, sizeof e->driver, 0))
        return "driver";
    if (!get_text(o, "vendor", e->vendor, sizeof e->vendor, 0))
        return "vendor";
    if (!get_text(o, "type", e->type, sizeof e->type, 0))
        return "type";
    if (!get_text(o, "precision", prec, sizeof prec, 1) ||
        gb_precision_parse(prec, &e->precision) != GB_OK)
        return "precision";
    if (!get_text(o, "layout", e->layout, sizeof e->layout, 1) ||
        (strlen(e->layout) != 6 ||
         (strncmp(e->layout, "row-", 4) && strncmp(e->layout, "col-", 4)) ||
         !strchr("NT", e->layout[4]) || !strchr("NT", e->layout[5])))
        return "layout";
    if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) != 3 ||
        !get_size(cJSON_GetArrayItem(shape, 0), &e->m) ||
        !get_size(cJSON_GetArrayItem(shape, 1), &e->n) ||
        !get_size(cJSON_GetArrayItem(shape, 2), &e->k))
        return "shape";
    /* The class is the shape's ("class" in the file is for readers): one key per shape. */
    gb_shape_class(e->m, e->n, e->k, e->shape_class, sizeof e->shape_class);
    if (!get_text(o, "kernel", e->kernel, sizeof e->kernel, 1) || !e->kernel[0])
        return "kernel";
    if (ps && !cJSON_IsObject(ps))
        return "params";
    for (const cJSON *p = ps ? ps->child : NULL; p; p = p->next)
        if (!cJSON_IsNumber(p) || p->valuedouble != floor(p->valuedouble) ||
            fabs(p->valuedouble) > 1e15 || !is_name(p->string) ||
            gb_params_set(&e->params, p->string, (long)p->valuedouble) != GB_OK)
            return "params";
    if (gf && (!cJSON_IsNumber(gf) || !(gf->valuedouble >= 0) || !isfinite(gf->valuedouble)))
        return "gflops";
    e->gflops = gf ? gf->valuedouble : 0;
    if (ev && (!cJSON_IsArray(ev) || cJSON_GetArraySize(ev) > GB_TUNED_EVIDENCE))
        return "evidence";
    for (const cJSON *p = ev ? ev->child : NULL; p; p = p->next) {
        if (!cJSON_IsString(p) || !is_point_id(p->valuestring))
            return "evidence";
        snprintf(e->evidence[e->nevidence++], GB_POINT_ID_LEN + 1, "%s", p->valuestring);
    }
    if (!get_text(o, "tuned_at", e->tuned_at, sizeof e->tuned_at, 0))
        return "tuned_at";
    return NULL;
}

/* ---- where in the file ---------------------------------------------------------------------- */

/* Where a refused entry or key is, to name its line. cJSON keeps no positions, so once it has
 * parsed the whole document, each value's extent is found by letting cJSON parse that value on
 * its own (return_parse_end); between values there are only blanks, ',' and ':'. */

static size_t line_of(const char *text, size_t at)
{
    size_t line = 1;
    for (size_t i = 0; i < at; i++)
        line += text[i] == '\n';
    return line;
}

static size_t skip_blanks(const char *text, size_t len, size_t at)
{
    while (at < len && strchr(" \t\r\n", text[at]) && text[at])
        at++;
    return at;
}

/* The end of the value that starts at `at` (cJSON skips the blanks before it). */
static size_t value_end(const char *text, size_t len, size_t at)
{
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text + at, len - at, &end, 0);
    cJSON_Delete(v);
    return v && end ? (size_t)(end - text) : len;
}

/* The offset of entry i of the document's array, and of its key when key is given and there. */
static size_t locate(const char *text, size_t len, size_t i, const char *key)
{
    size_t at = skip_blanks(text, len, 0) + 1; /* past '[' */
    for (size_t j = 0; j < i && at < len; j++) {
        at = skip_blanks(text, len, value_end(text, len, at));
        at += at < len && text[at] == ',';
    }
    const size_t entry = at = skip_blanks(text, len, at);
    if (!key || at >= len || text[at] != '{')
        return entry;
    at = skip_blanks(text, len, at + 1);
    while (at < len && text[at] == '"') {
        const size_t name = at, name_end = value_end(text, len, at);
        cJSON *k = cJSON_ParseWithLength(text + name, name_end - name);
        const int found = k && cJSON_IsString(k) && !strcmp(k->valuestring, key);
        cJSON_Delete(k);
        if (found)
            return name;
        at = skip_blanks(text, len, name_end);
        at = skip_blanks(text, len, value_end(text, len, at + 1)); /* past ':' and the value */
        at = skip_blanks(text, len, at + (at < len && text[at] == ','));
    }
    return entry;
}

static int same_key(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    return !strcmp(a->device, b->device) && !strcmp(a->platform, b->platform) &&
           !strcmp(a->driver, b->driver) && a->precision == b->precision &&
           !strcmp(a->layout, b->layout) && !strcmp(a->shape_class, b->shape_class);
}

int gb_tuned_from_json(gb_tuned_t *t, const char *text, size_t len, const char *origin,
                       const char *source, char *msg, size_t msglen)
{
    const char *end = NULL;
    cJSON *arr = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!arr) {
        const char *at = cJSON_GetErrorPtr();
        const size_t off = at && at >= text && at <= text + len ? (size_t)(at - text) : 0;
        return gb__fail(msg, msglen, GB_EBADARG,
                        "%s:%zu: not valid JSON (byte %zu); a file of tuned entries is what "
                        "'gemmbench tuned export' writes",
                        origin, line_of(text, off), off);
    }
    int rc = GB_OK;
    const size_t first = t->n;
    size_t rest = skip_blanks(text, len, (size_t)(end - text));
    if (rest < len)
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: text after the JSON document (byte %zu); remove it", origin,
                      line_of(text, rest), rest);
    else if (!cJSON_IsArray(arr))
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: not a JSON array of tuned entries (what 'gemmbench tuned export' "
                      "writes)",
                      origin, line_of(text, skip_blanks(text, len, 0)));
    size_t i = 0;
    for (const cJSON *o = rc == GB_OK ? arr->child : NULL; rc == GB_OK && o; o = o->next, i++) {
        gb_tuned_entry_t e;
        char why[512];
        const char *bad = cJSON_IsObject(o) ? entry_from_json(o, &e) : "";
        if (bad && !bad[0]) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu is not an object", origin,
                          line_of(text, locate(text, len, i, NULL)), i);
        } else if (bad) {
            const int has = cJSON_GetObjectItemCaseSensitive(o, bad) != NULL;
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: %s '%s': it must be %s",
                          origin, line_of(text, locate(text, len, i, has ? bad : NULL)), i,
                          has ? "bad value for" : "missing key", bad, must_of(bad));
        } else if (gb_store_tuned_check(&e, why, sizeof why) != GB_OK) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: %s", origin,
                          line_of(text, locate(text, len, i, NULL)), i, why);
        } else {
            for (size_t j = first; rc == GB_OK && j < t->n; j++)
                if (same_key(&e, &t->e[j]))
                    rc = gb__fail(msg, msglen, GB_EBADARG,
                                  "%s:%zu: entry %zu has the key of entry %zu (line %zu): "
                                  "device, platform, driver, precision, layout and shape class; "
                                  "keep one",
                                  origin, line_of(text, locate(text, len, i, NULL)), i, j - first,
                                  line_of(text, locate(text, len, j - first, NULL)));
            snprintf(e.source, sizeof e.source, "%s", source);
            if (rc == GB_OK)
                rc = gb_tuned_add(t, &e);
        }
    }
    cJSON_Delete(arr);
    if (rc != GB_OK)
        t->n = first; /* all of the document or nothing */
    return rc;
}

/* ---- merging the shipped defaults and the store's entries ------------------------------------ */

static int rank(const gb_tuned_entry_t *e)
{
    return !strcmp(e->source, "store") ? 2 : !strcmp(e->source, "shipped") ? 1 : 0;
}

int gb_tuned_merge(gb_tuned_t *t, const gb_tuned_entry_t *e)
{
    for (size_t i = 0; i < t->n; i++) {
        if (!same_key(&t->e[i], e))
            continue;
        t->overridden++;
        if (rank(e) >= rank(&t->e[i]))
            t->e[i] = *e;
        return GB_OK;
    }
    return gb_tuned_add(t, e);
}

int gb_tuned_load_shipped(gb_tuned_t *t, char *msg, size_t msglen)
{
    int rc = GB_OK;
    gb_tuned_t file;
    gb_tuned_init(&file);
    for (size_t i = 0; rc == GB_OK && i < gb_tune__shipped_count; i++) {
        char origin[160];
        snprintf(origin, sizeof origin, "kernels/tuned/%s", gb_tune__shipped_files[i].name);
        file.n = 0;
        rc = gb_tuned_from_json(&file, gb_tune__shipped_files[i].data,
                                gb_tune__shipped_files[i].len, origin, "shipped", msg, msglen);
        for (size_t j = 0; rc == GB_OK && j < file.n; j++)
            rc = gb_tuned_merge(t, &file.e[j]);
    }
    gb_tuned_free(&file);
    if (rc == GB_ENOMEM)
        snprintf(msg, msglen, "out of memory");
    return rc;
}

static int merge_entry(const gb_tuned_entry_t *e, void *user)
{
    return gb_tuned_merge(user, e);
}

int gb_tuned_load_store(gb_tuned_t *t, gb_store_t *st, char *msg, size_t msglen)
{
    const int rc = gb_store_tuned_foreach(st, merge_entry, t);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "%s",
                        rc == GB_ENOMEM ? "out of memory" : gb_store_errmsg(st));
    return GB_OK;
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
