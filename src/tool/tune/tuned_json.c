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
        /* A time entry is written as entries were before objectives: the shipped files too. */
        if (strcmp(gb_tuned_objective(e), GB_OBJECTIVE_TIME))
            cJSON_AddStringToObject(o, "objective", e->objective);
        if (e->joules > 0)
            cJSON_AddNumberToObject(o, "joules", e->joules);
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
    {"type", "the device's type: gpu, cpu, accelerator or other"},
    {"family", "a string: the device's family, as `gemmbench devices` prints it"},
    {"precision", "\"s\", \"d\", \"h\", \"b\", \"c\" or \"z\""},
    {"layout", "row-NN, row-NT, row-TN, row-TT, col-NN, col-NT, col-TN or col-TT (a conjugate "
               "transposition C is keyed as T)"},
    {"shape", "[M, N, K], whole numbers from 1 to 2^30"},
    {"kernel", "a kernel, preset or family name, a non-empty string"},
    {"params", "an object of parameter names (letters, digits, _) and whole numbers"},
    {"gflops", "a finite number, 0 or more"},
    {"evidence", "an array of at most 8 point ids (16 lower-case hex digits)"},
    {"tuned_at", "a string (UTC, ISO 8601)"},
    {"class", "the shape class of its shape, as 'gemmbench tuned export' writes it"},
    {"objective", "\"time\", \"energy\" or \"edp\" (left out: time)"},
    {"joules", "the energy per GEMM, a finite number, 0 or more (left out: not measured)"},
    {"source", "a string (what 'tuned list --json' adds; not read)"},
    {"number", "a number (what 'tuned list --json' adds; not read)"},
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
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= len || !gb__text_ok(v->valuestring))
        return 0;
    snprintf(out, len, "%s", v->valuestring);
    return 1;
}

/* The keys an entry may have: every one of musts. An unknown key is a mistake (a misspelt
 * "kernal" would be ignored, and the entry read without it). NULL, or the key at fault with
 * why ("is unknown; did you mean 'kernel'?", "appears twice"). */
static const char *unknown_key(const cJSON *o, char *why, size_t len)
{
    const char *known[sizeof musts / sizeof musts[0]];
    for (size_t i = 0; i < sizeof musts / sizeof musts[0]; i++)
        known[i] = musts[i].key;
    for (const cJSON *it = o->child; it; it = it->next) {
        if (cJSON_GetObjectItemCaseSensitive(o, it->string) != it) {
            snprintf(why, len, "appears twice; keep one");
            return it->string;
        }
        int found = 0;
        for (size_t i = 0; i < sizeof musts / sizeof musts[0] && !found; i++)
            found = !strcmp(known[i], it->string);
        if (found)
            continue;
        const char *near = gb__did_you_mean(it->string, known, sizeof known / sizeof known[0]);
        if (near)
            snprintf(why, len, "is unknown; did you mean '%s'?", near);
        else
            snprintf(why, len, "is unknown (docs/tuning.md lists an entry's keys)");
        return it->string;
    }
    return NULL;
}

static int get_size(const cJSON *v, size_t *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 1073741824.0 ||
        v->valuedouble != floor(v->valuedouble))
        return 0;
    *out = (size_t)v->valuedouble;
    return 1;
}

/* One entry of a JSON document; NULL, or the key at fault, with what it must be in must (a
 * fixed text, or one made in buf; NULL: must_of's), or with *odd_key set where the key itself is
 * (unknown, or twice) and why in buf. */
static const char *entry_from_json(const cJSON *o, gb_tuned_entry_t *e, const char **must,
                                   int *odd_key, char *buf, size_t len)
{
    memset(e, 0, sizeof *e);
    *must = NULL;
    const char *key = unknown_key(o, buf, len);
    if ((*odd_key = key != NULL))
        return key;
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
    if (!get_text(o, "type", e->type, sizeof e->type, 0) || !gb_select__type_ok(e->type))
        return "type";
    if (!get_text(o, "family", e->family, sizeof e->family, 0))
        return "family";
    if (!get_text(o, "precision", prec, sizeof prec, 1) ||
        gb_precision_parse(prec, &e->precision) != GB_OK)
        return "precision";
    if (!get_text(o, "layout", e->layout, sizeof e->layout, 1) || !gb_select__layout_ok(e->layout))
        return "layout";
    if (!cJSON_IsArray(shape) || cJSON_GetArraySize(shape) != 3 ||
        !get_size(cJSON_GetArrayItem(shape, 0), &e->m) ||
        !get_size(cJSON_GetArrayItem(shape, 1), &e->n) ||
        !get_size(cJSON_GetArrayItem(shape, 2), &e->k))
        return "shape";
    /* The class is the shape's: one key per shape. "class" is written for readers, and where
     * given must be the same (an edited shape or class says the entry is not what was tuned). */
    gb_shape_class(e->m, e->n, e->k, e->shape_class, sizeof e->shape_class);
    const cJSON *cls = cJSON_GetObjectItemCaseSensitive(o, "class");
    if (cls && (!cJSON_IsString(cls) || strcmp(cls->valuestring, e->shape_class))) {
        snprintf(buf, len, "%s, the class of its shape [%zu, %zu, %zu] (or left out)",
                 e->shape_class, e->m, e->n, e->k);
        *must = buf;
        return "class";
    }
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
    const cJSON *num = cJSON_GetObjectItemCaseSensitive(o, "number");
    if (src && !cJSON_IsString(src))
        return "source";
    if (num && !cJSON_IsNumber(num))
        return "number";
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
    if (!get_text(o, "objective", e->objective, sizeof e->objective, 0) ||
        (e->objective[0] && !gb_tuned_objective_ok(e->objective)))
        return "objective";
    const cJSON *jl = cJSON_GetObjectItemCaseSensitive(o, "joules");
    if (jl && (!cJSON_IsNumber(jl) || !(jl->valuedouble >= 0) || !isfinite(jl->valuedouble)))
        return "joules";
    e->joules = jl ? jl->valuedouble : 0;
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

size_t gb_tuned_json_line(const char *text, size_t len, size_t i, const char *key)
{
    return line_of(text, locate(text, len, i, key));
}

/* Where a string of the document holds what no name or value may: a control character, raw or
 * escaped (\n, \u001b; \u0000 would cut the string short where cJSON reads it), or invalid
 * UTF-8. The offset, and what it is in why; len when there is none. The document is valid
 * JSON (cJSON parsed it), so its strings are closed. */
static size_t bad_string(const char *text, size_t len, char *why, size_t wlen)
{
    int in = 0;
    for (size_t at = 0; at < len;) {
        const unsigned char c = (unsigned char)text[at];
        if (!in) {
            in = c == '"';
            at++;
            continue;
        }
        if (c == '"') {
            in = 0;
            at++;
            continue;
        }
        if (c == '\\' && at + 1 < len) {
            const char esc = text[at + 1];
            unsigned long u = 0;
            if (esc == 'u' && at + 6 <= len) {
                char hex[5];
                memcpy(hex, text + at + 2, 4);
                hex[4] = '\0';
                u = strtoul(hex, NULL, 16);
            }
            if (strchr("bfnrt", esc) || (esc == 'u' && (u < 0x20 || (u >= 0x7f && u <= 0x9f)))) {
                snprintf(why, wlen, "a control character (escaped as \\%.*s)", esc == 'u' ? 5 : 1,
                         text + at + 1);
                return at;
            }
            at += esc == 'u' ? 6 : 2;
            continue;
        }
        const size_t n = gb__text_char(text + at, len - at);
        if (!n) {
            if (c < 0x20 || c == 0x7f)
                snprintf(why, wlen, "a control character (byte 0x%02x)", c);
            else
                snprintf(why, wlen, "invalid UTF-8 (byte 0x%02x)", c);
            return at;
        }
        at += n;
    }
    return len;
}

/* Entries first..n of t by key, then by position: two of one key are neighbours. */
typedef struct keyed {
    const gb_tuned_entry_t *e;
    size_t i;
} keyed_t;

static int by_key(const void *a, const void *b)
{
    const keyed_t *x = a, *y = b;
    const gb_tuned_entry_t *p = x->e, *q = y->e;
    int d = strcmp(p->device, q->device);
    if (!d)
        d = (int)p->precision - (int)q->precision;
    if (!d)
        d = strcmp(p->platform, q->platform);
    if (!d)
        d = strcmp(p->driver, q->driver);
    if (!d)
        d = strcmp(p->layout, q->layout);
    if (!d)
        d = strcmp(p->shape_class, q->shape_class);
    return d ? d : (x->i > y->i) - (x->i < y->i);
}

/* The first entry (in the document's order) of n at e that has the key of an earlier one:
 * 1 with *later and *earlier (the first of its key), 0 when every key is once, -1 when out of
 * memory. In n log n. */
static int first_twice(const gb_tuned_entry_t *e, size_t n, size_t *later, size_t *earlier)
{
    if (n < 2)
        return 0;
    keyed_t *k = malloc(n * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < n; i++)
        k[i] = (keyed_t){&e[i], i};
    qsort(k, n, sizeof *k, by_key);
    int found = 0;
    for (size_t i = 1, group = 0; i < n; i++) {
        if (!gb_tuned_same_key(k[i].e, k[group].e)) {
            group = i;
            continue;
        }
        if (i == group + 1 && (!found || k[i].i < *later)) {
            *later = k[i].i;
            *earlier = k[group].i;
            found = 1;
        }
    }
    free(k);
    return found;
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
    size_t rest = skip_blanks(text, len, (size_t)(end - text)), bad_at;
    char why[512];
    if (rest < len)
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: text after the JSON document (byte %zu); remove it", origin,
                      line_of(text, rest), rest);
    else if (!cJSON_IsArray(arr))
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: not a JSON array of tuned entries (what 'gemmbench tuned export' "
                      "writes)",
                      origin, line_of(text, skip_blanks(text, len, 0)));
    else if ((bad_at = bad_string(text, len, why, sizeof why)) < len)
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: a string holds %s at byte %zu; names and values must be printable "
                      "text",
                      origin, line_of(text, bad_at), why, bad_at);
    size_t i = 0;
    for (const cJSON *o = rc == GB_OK ? arr->child : NULL; rc == GB_OK && o; o = o->next, i++) {
        gb_tuned_entry_t e;
        const char *must = NULL;
        int odd_key = 0;
        const char *bad =
            cJSON_IsObject(o) ? entry_from_json(o, &e, &must, &odd_key, why, sizeof why) : "";
        if (bad && !bad[0]) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu is not an object", origin,
                          line_of(text, locate(text, len, i, NULL)), i);
        } else if (bad && odd_key) {
            char key[120];
            gb__printable(bad, key, sizeof key);
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: key '%s' %s", origin,
                          line_of(text, locate(text, len, i, bad)), i, key, why);
        } else if (bad) {
            const int has = cJSON_GetObjectItemCaseSensitive(o, bad) != NULL;
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: %s '%s': it must be %s",
                          origin, line_of(text, locate(text, len, i, has ? bad : NULL)), i,
                          has ? "bad value for" : "missing key", bad, must ? must : must_of(bad));
        } else if (gb_tuned_entry_check(&e, why, sizeof why) != GB_OK) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s:%zu: entry %zu: %s", origin,
                          line_of(text, locate(text, len, i, NULL)), i, why);
        } else {
            snprintf(e.source, sizeof e.source, "%s", source);
            rc = gb_tuned_add(t, &e);
        }
    }
    size_t later = 0, earlier = 0;
    const int twice =
        rc == GB_OK && t->n > first ? first_twice(t->e + first, t->n - first, &later, &earlier) : 0;
    if (twice < 0)
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    else if (twice)
        rc = gb__fail(msg, msglen, GB_EBADARG,
                      "%s:%zu: entry %zu has the key of entry %zu (line %zu): device, platform, "
                      "driver, precision, layout and shape class; keep one",
                      origin, line_of(text, locate(text, len, later, NULL)), later, earlier,
                      line_of(text, locate(text, len, earlier, NULL)));
    cJSON_Delete(arr);
    if (rc != GB_OK)
        t->n = first; /* all of the document or nothing */
    return rc;
}
