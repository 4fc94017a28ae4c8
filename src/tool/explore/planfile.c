/* planfile.c: JSON plan files (the same keys as the command-line flags, see docs/explore.md) and
 * the built-in named plans, which are plan files kept in the binary. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

#define MAX_PLAN_BYTES (1u << 20)

static const struct builtin {
    const char *name, *description, *json;
} builtins[] = {
    {"explore-f-n",
     "the 3 SGEMM NT kernels x the paper's 11 orders 64..1024 at work-group 8x8 (33 points)",
     "{\n"
     "  \"name\": \"explore-f-n\",\n"
     "  \"description\": \"the three SGEMM NT kernels over the GEMMbench paper's orders at its "
     "work-group of 8 x 8\",\n"
     "  \"kernels\": [\"SGEMM_NT_1x1\", \"SGEMM_NT_4x1\", \"SGEMM_NT_4x1_barrier\"],\n"
     "  \"n\": \"64,96,128,192,256,384,512,640,768,896,1024\",\n"
     "  \"lws\": \"8,8\"\n"
     "}\n"},
    {"explore-n-lws",
     "SGEMM_NT_4x1_barrier x orders 128..512 step 128 x work-groups JxI of 16..128 "
     "items (104 points)",
     "{\n"
     "  \"name\": \"explore-n-lws\",\n"
     "  \"description\": \"SGEMM_NT_4x1_barrier over orders 128..512 step 128 and work-groups of "
     "16 to 128 work-items\",\n"
     "  \"kernels\": [\"SGEMM_NT_4x1_barrier\"],\n"
     "  \"n\": \"128:512:128\",\n"
     "  \"lws\": {\"x\": \"1:128:x2\", \"y\": \"1:128:x2\", \"items\": [16, 32, 64, 128]}\n"
     "}\n"},
    {"tune-square", "square orders 256..8192, doubling (6 shapes; for tune -k FAMILY)",
     "{\n"
     "  \"name\": \"tune-square\",\n"
     "  \"description\": \"square orders 256 to 8192, doubling\",\n"
     "  \"n\": \"256:8192:x2\"\n"
     "}\n"},
    {"tune-shapes",
     "12 rectangular shapes: large K with small M and N, low K, tall, wide, small, odd "
     "(for tune -k FAMILY)",
     "{\n"
     "  \"name\": \"tune-shapes\",\n"
     "  \"description\": \"large K with small M and N, low K, tall, wide, small and odd "
     "shapes\",\n"
     "  \"shapes\": [\"64x64x65536\", \"256x256x16384\", \"1024x1024x32768\",\n"
     "             \"4096x4096x64\", \"8192x8192x256\", \"8192x256x4096\",\n"
     "             \"16384x1024x1024\", \"256x8192x4096\", \"1024x16384x1024\",\n"
     "             \"128x128x128\", \"2048x1024x4096\", \"1000x1000x1000\"]\n"
     "}\n"},
};

size_t gb_plan_builtin_count(void)
{
    return sizeof builtins / sizeof builtins[0];
}

const char *gb_plan_builtin_name(size_t i)
{
    return i < gb_plan_builtin_count() ? builtins[i].name : NULL;
}

const char *gb_plan_builtin_description(size_t i)
{
    return i < gb_plan_builtin_count() ? builtins[i].description : NULL;
}

const char *gb_plan_builtin_json(size_t i)
{
    return i < gb_plan_builtin_count() ? builtins[i].json : NULL;
}

/* A JSON scalar as the text a flag would give; NULL if it is not a scalar. */
static const char *scalar_text(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsString(v))
        return v->valuestring;
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 9.0e15)
            snprintf(buf, len, "%.0f", d);
        else
            snprintf(buf, len, "%.17g", d);
        return buf;
    }
    if (cJSON_IsBool(v)) {
        snprintf(buf, len, "%s", cJSON_IsTrue(v) ? "on" : "off");
        return buf;
    }
    return NULL;
}

/* A scalar, or an array of scalars joined with sep, into a new string; NULL if neither. */
static char *joined_text(const cJSON *v, const char *sep)
{
    char buf[64];
    const char *s = scalar_text(v, buf, sizeof buf);
    if (s) {
        char *out = malloc(strlen(s) + 1);
        if (out)
            strcpy(out, s);
        return out;
    }
    if (!cJSON_IsArray(v) || !v->child)
        return NULL;
    size_t len = 1;
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!(s = scalar_text(it, buf, sizeof buf)))
            return NULL;
        len += strlen(s) + strlen(sep);
    }
    char *out = malloc(len);
    if (!out)
        return NULL;
    out[0] = '\0';
    for (const cJSON *it = v->child; it; it = it->next) {
        if (it != v->child)
            strcat(out, sep);
        strcat(out, scalar_text(it, buf, sizeof buf));
    }
    return out;
}

/* "J,I;J,I" from [[J, I], ...]; NULL if it is not that. */
static char *pairs_text(const cJSON *v)
{
    if (!cJSON_IsArray(v) || !v->child)
        return NULL;
    size_t n = (size_t)cJSON_GetArraySize(v);
    char *out = malloc(n * 48 + 1);
    if (!out)
        return NULL;
    out[0] = '\0';
    size_t used = 0;
    for (const cJSON *it = v->child; it; it = it->next) {
        const cJSON *a = cJSON_GetArrayItem(it, 0), *b = cJSON_GetArrayItem(it, 1);
        /* Whole numbers only: 1.5 is refused, not rounded to 2. */
        if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2 || !cJSON_IsNumber(a) ||
            !cJSON_IsNumber(b) || a->valuedouble < 1 || b->valuedouble < 1 ||
            a->valuedouble > 65536 || b->valuedouble > 65536 ||
            a->valuedouble != floor(a->valuedouble) || b->valuedouble != floor(b->valuedouble)) {
            free(out);
            return NULL;
        }
        used += (size_t)snprintf(out + used, 48, "%s%.0f,%.0f", used ? ";" : "", a->valuedouble,
                                 b->valuedouble);
    }
    return out;
}

/* What each key of a plan file holds, for messages. */
static const char *expected(const char *key)
{
    static const struct {
        const char *key, *what;
    } table[] = {
        {"kernels", "an array of kernel or preset names"},
        {"precision", "\"s\", \"d\" or [\"s\", \"d\"]"},
        {"n", "a size list: an array of integers, or text like \"64:1024:64\""},
        {"M", "a size list: an array of integers, or text like \"64:1024:64\""},
        {"N", "a size list: an array of integers, or text like \"64:1024:64\""},
        {"K", "a size list: an array of integers, or text like \"64:1024:64\""},
        {"lws", "an array of [J, I] pairs, text like \"16,4;32,2\", or an object {\"x\": sizes, "
                "\"y\": sizes, \"items\": sizes}"},
        {"params", "an object of NAME: [values] (or text like \"1:8:x2\")"},
        {"dist", "text: \"uniform:LO:HI\", \"normal\" or \"int:R\""},
        {"timing", "\"kernel\", \"ops\" or \"offload\""},
        {"host_mem", "\"pageable\", \"pinned\" or \"mapped\""},
        {"pipeline", "a number of panels (2 to 256; 0: off), or true (4) or false"},
        {"cold", "true or false"},
        {"min_time", "seconds (a number; 0: off)"},
        {"max_rel_ci", "a fraction of the mean (a number; 0: off)"},
        {"validate", "\"auto\", \"on\" or \"off\" (or true/false)"},
        {"layout", "\"row\" or \"col\""},
        {"transA", "\"N\", \"T\" or \"C\" (c and z)"},
        {"transB", "\"N\", \"T\" or \"C\" (c and z)"},
        {"alpha", "a number, or [RE, IM] (\"RE,IM\") for c and z"},
        {"beta", "a number, or [RE, IM] (\"RE,IM\") for c and z"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].key, key))
            return table[i].what;
    return "an integer";
}

static int plan_key(gb_explore_plan_t *pl, const cJSON *item, const char *origin, char *msg,
                    size_t msglen)
{
    const char *key = item->string;
    char label[400], sub[64];
    snprintf(label, sizeof label, "%s: key '%s'", origin, key);
    if (!strcmp(key, "name") || !strcmp(key, "description")) {
        if (!cJSON_IsString(item))
            return gb__fail(msg, msglen, GB_EBADARG, "%s must be text", label);
        if (key[0] == 'n')
            snprintf(pl->name, sizeof pl->name, "%s", item->valuestring);
        return GB_OK;
    }
    if (!strcmp(key, "lws") && cJSON_IsObject(item)) {
        static const char *const subs[3][2] = {
            {"x", "lws_x"}, {"y", "lws_y"}, {"items", "lws_items"}};
        for (const cJSON *it = item->child; it; it = it->next) {
            int j = 0;
            while (j < 3 && strcmp(it->string, subs[j][0]))
                j++;
            snprintf(label, sizeof label, "%s: key 'lws.%s'", origin, it->string);
            if (j == 3)
                return gb__fail(msg, msglen, GB_EBADARG,
                                "%s is unknown; lws grids have x, y and "
                                "items",
                                label);
            char *text = joined_text(it, ",");
            if (!text)
                return gb__fail(msg, msglen, GB_EBADARG, "%s must be %s", label, expected("n"));
            int rc = gb_plan_set(pl, subs[j][1], text, label, msg, msglen);
            free(text);
            if (rc != GB_OK)
                return rc;
        }
        if (!pl->lws_x.n || !pl->lws_y.n)
            return gb__fail(msg, msglen, GB_EBADARG, "%s: key 'lws' as a grid needs both x and y",
                            origin);
        return GB_OK;
    }
    if (!strcmp(key, "params")) {
        if (!cJSON_IsObject(item))
            return gb__fail(msg, msglen, GB_EBADARG, "%s must be %s", label, expected(key));
        for (const cJSON *it = item->child; it; it = it->next) {
            snprintf(label, sizeof label, "%s: key 'params.%s'", origin, it->string);
            char *text = joined_text(it, ",");
            if (!text || strlen(it->string) >= GB_NAME_MAX - 1) {
                free(text);
                return gb__fail(msg, msglen, GB_EBADARG,
                                "%s must be an array of integers or text "
                                "like \"1:8:x2\"",
                                label);
            }
            size_t need = strlen(it->string) + strlen(text) + 2;
            char *assign = malloc(need);
            if (!assign) {
                free(text);
                return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
            }
            snprintf(assign, need, "%s=%s", it->string, text);
            free(text);
            int rc = gb_plan_set(pl, "param", assign, label, msg, msglen);
            free(assign);
            if (rc != GB_OK)
                return rc;
        }
        return GB_OK;
    }
    static const char *const keys[] = {
        "kernels",  "precision",  "n",       "M",      "N",      "K",      "lws",
        "repeat",   "iterations", "warmup",  "seed",   "dist",   "timing", "host_mem",
        "cold",     "validate",   "layout",  "transA", "transB", "alpha",  "beta",
        "lda",      "ldb",        "ldc",     "offa",   "offb",   "offc",   "shapes",
        "min_time", "max_rel_ci", "pipeline"};
    size_t k = 0;
    while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k], key))
        k++;
    if (k == sizeof keys / sizeof keys[0])
        return gb__fail(msg, msglen, GB_EBADPLAN,
                        "%s: unknown key '%s'; docs/explore.md lists the keys", origin, key);
    char *text =
        !strcmp(key, "lws") && cJSON_IsArray(item) ? pairs_text(item) : joined_text(item, ",");
    /* Lists only where a list makes sense; everything else takes one scalar. Names and words
     * must be text, not numbers that would read as a name. */
    int list_ok = !strcmp(key, "kernels") || !strcmp(key, "precision") || strlen(key) == 1 ||
                  !strcmp(key, "lws") || !strcmp(key, "shapes");
    /* A complex scalar is [RE, IM]: two numbers, the form --alpha RE,IM takes. */
    const int scalar = !strcmp(key, "alpha") || !strcmp(key, "beta");
    if (scalar && cJSON_IsArray(item)) {
        const int n = cJSON_GetArraySize(item);
        if (n != 2 || !cJSON_IsNumber(cJSON_GetArrayItem(item, 0)) ||
            !cJSON_IsNumber(cJSON_GetArrayItem(item, 1))) {
            free(text);
            return gb__fail(msg, msglen, GB_EBADSCALAR,
                            "%s: a complex %s is [RE, IM], two numbers; got %d %s", label, key, n,
                            n == 1 ? "element" : "elements");
        }
        list_ok = 1;
    }
    static const char *const words[] = {"kernels", "precision", "dist",   "timing", "host_mem",
                                        "layout",  "transA",    "transB", "shapes"};
    int word = 0;
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        word |= !strcmp(words[w], key);
    int typed = !word || cJSON_IsString(item);
    if (word && cJSON_IsArray(item)) {
        typed = 1;
        for (const cJSON *it = item->child; it; it = it->next)
            typed &= cJSON_IsString(it);
    }
    if (!text || !typed || (!list_ok && cJSON_IsArray(item))) {
        free(text);
        snprintf(sub, sizeof sub, "%s", key);
        return gb__fail(msg, msglen, GB_EBADARG, "%s must be %s", label, expected(sub));
    }
    int rc = gb_plan_set(pl, key, text, label, msg, msglen);
    free(text);
    return rc;
}

int gb_plan_parse_json(gb_explore_plan_t *pl, const char *text, size_t len, const char *origin,
                       char *msg, size_t msglen)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    snprintf(pl->origin, sizeof pl->origin, "%s", origin);
    if (!root) {
        size_t line = 1, col = 1, at = end && end >= text ? (size_t)(end - text) : 0;
        for (size_t i = 0; i < at && i < len; i++, col++)
            if (text[i] == '\n') {
                line++;
                col = 0;
            }
        return gb__fail(msg, msglen, GB_EBADPLAN, "%s is not valid JSON (line %zu, column %zu)",
                        origin, line, col);
    }
    int rc = GB_OK;
    /* One document per file: anything but whitespace after it is an error, not ignored. */
    for (size_t at = (size_t)(end - text); rc == GB_OK && at < len; at++)
        if (!strchr(" \t\r\n", text[at]) || text[at] == '\0')
            rc = gb__fail(msg, msglen, GB_EBADPLAN,
                          "%s: text after the JSON document at "
                          "byte offset %zu; a plan file holds one object",
                          origin, at);
    if (rc == GB_OK && !cJSON_IsObject(root))
        rc = gb__fail(msg, msglen, GB_EBADPLAN, "%s must be a JSON object of plan keys", origin);
    for (const cJSON *it = root->child; rc == GB_OK && it; it = it->next) {
        if (cJSON_GetObjectItemCaseSensitive(root, it->string) != it)
            rc = gb__fail(msg, msglen, GB_EBADPLAN, "%s: key '%s' appears twice", origin,
                          it->string);
        else
            rc = plan_key(pl, it, origin, msg, msglen);
    }
    cJSON_Delete(root);
    return rc;
}

int gb_plan_load(gb_explore_plan_t *pl, const char *name_or_file, char *msg, size_t msglen)
{
    char origin[320];
    for (size_t i = 0; i < gb_plan_builtin_count(); i++)
        if (!strcmp(builtins[i].name, name_or_file)) {
            snprintf(origin, sizeof origin, "built-in plan '%s'", builtins[i].name);
            return gb_plan_parse_json(pl, builtins[i].json, strlen(builtins[i].json), origin, msg,
                                      msglen);
        }
    char *buf;
    size_t n;
    int rc = gb__read_file(name_or_file, MAX_PLAN_BYTES, &buf, &n);
    if (rc == GB_ENOMEM)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    if (rc == GB_EOVERFLOW)
        return gb__fail(msg, msglen, GB_EBADPLAN, "plan '%s' is over 1 MiB", name_or_file);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, GB_EBADPLAN,
                        "cannot read plan '%s': %s; give a plan file or a "
                        "built-in plan (explore-f-n, explore-n-lws)",
                        name_or_file, strerror(errno));
    snprintf(origin, sizeof origin, "plan '%s'", name_or_file);
    rc = gb_plan_parse_json(pl, buf, n, origin, msg, msglen);
    free(buf);
    return rc;
}
