/* tuned_json.c: entries of the tuning database as JSON (what `gemmbench tuned export` writes
 * and `import` reads, and what kernels/tuned/ holds), and back (tuned.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "tuned.h"

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
        if (e->family[0])
            cJSON_AddStringToObject(o, "family", e->family);
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
    {"family", "a string: the device's family, as `gemmbench devices` prints it"},
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
    if (!get_text(o, "family", e->family, sizeof e->family, 0))
        return "family";
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
            fabs(p->valuedouble) > 1e15 || !gb_select__is_name(p->string) ||
            gb_params_set(&e->params, p->string, (long)p->valuedouble) != GB_OK)
            return "params";
    if (gf && (!cJSON_IsNumber(gf) || !(gf->valuedouble >= 0) || !isfinite(gf->valuedouble)))
        return "gflops";
    e->gflops = gf ? gf->valuedouble : 0;
    if (ev && (!cJSON_IsArray(ev) || cJSON_GetArraySize(ev) > GB_TUNED_EVIDENCE))
        return "evidence";
    for (const cJSON *p = ev ? ev->child : NULL; p; p = p->next) {
        if (!cJSON_IsString(p) || !gb_select__is_id(p->valuestring))
            return "evidence";
        snprintf(e->evidence[e->nevidence++], GB_TUNED_ID_LEN + 1, "%s", p->valuestring);
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
        } else if (gb_tuned_entry_check(&e, why, sizeof why) != GB_OK) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: %s", origin,
                          line_of(text, locate(text, len, i, NULL)), i, why);
        } else {
            for (size_t j = first; rc == GB_OK && j < t->n; j++)
                if (gb_tuned_same_key(&e, &t->e[j]))
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
