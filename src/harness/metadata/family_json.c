/* family_json.c: the member readers the metadata parser's files share (family.c, family_params.c):
 * each reads a member of a JSON object, or refuses it with a message naming the file and the
 * key (and, for a key it does not know, the nearest one it does). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "family_int.h"

int gb__family_bad(gb_family_ctx_t *c, const char *key, const char *why)
{
    return gb__fail(c->msg, c->msglen, GB_EMETADATA, "%s: key '%s' %s; fix the metadata", c->origin,
                    key, why);
}

/* Every key of obj (written where, e.g. "requires") is one of known and appears once: a key
 * misspelled would otherwise be ignored, and of a duplicate only the first used. The error
 * names the key and the nearest known one. */
int gb__family_keys(gb_family_ctx_t *c, const cJSON *obj, const char *where,
                    const char *const *known, size_t nknown)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        char key[160];
        snprintf(key, sizeof key, "%s%s%s", where, where[0] ? "." : "", it->string);
        if (cJSON_GetObjectItemCaseSensitive(obj, it->string) != it)
            return gb__family_bad(c, key, "appears twice");
        if (!known)
            continue; /* names the family chooses: only duplicates are wrong */
        size_t best = 0, dist = (size_t)-1;
        for (size_t i = 0; i < nknown; i++) {
            const size_t d = gb__edit_distance(it->string, known[i]);
            if (d < dist) {
                dist = d;
                best = i;
            }
        }
        if (dist == 0)
            continue;
        char why[256];
        if (dist <= 3 || dist * 2 < strlen(known[best]))
            snprintf(why, sizeof why, "is unknown; did you mean '%s%s%s'?", where,
                     where[0] ? "." : "", known[best]);
        else
            snprintf(why, sizeof why, "is unknown (docs/kernel-metadata.md lists the keys)");
        return gb__family_bad(c, key, why);
    }
    return GB_OK;
}

char *gb__family_dup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Reads an optional or required string member into *out (heap). */
int gb__family_string(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                      char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v)
        return required ? gb__family_bad(c, key, "is missing") : GB_OK;
    if (!cJSON_IsString(v) || !v->valuestring[0])
        return gb__family_bad(c, key, "must be a non-empty string");
    return (*out = gb__family_dup(v->valuestring)) ? GB_OK : GB_ENOMEM;
}

int gb__family_long(gb_family_ctx_t *c, const cJSON *v, const char *key, long *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        fabs(v->valuedouble) > 1e15)
        return gb__family_bad(c, key, "must be an integer");
    *out = (long)v->valuedouble;
    return GB_OK;
}

int gb__family_precisions(gb_family_ctx_t *c, const cJSON *v, const char *key, unsigned *mask)
{
    *mask = 0;
    const cJSON *e;
    if (cJSON_IsString(v)) {
        gb_precision_t p;
        if (gb_precision_parse(v->valuestring, &p) != GB_OK)
            return gb__family_bad(c, key, "must be \"s\", \"d\", \"h\" or \"b\"");
        *mask = 1u << p;
        return GB_OK;
    }
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) == 0)
        return gb__family_bad(c, key, "must be a non-empty array of \"s\", \"d\", \"h\", \"b\"");
    cJSON_ArrayForEach(e, v)
    {
        gb_precision_t p;
        if (!cJSON_IsString(e) || gb_precision_parse(e->valuestring, &p) != GB_OK)
            return gb__family_bad(c, key, "must hold only \"s\", \"d\", \"h\" or \"b\"");
        *mask |= 1u << p;
    }
    return GB_OK;
}

int gb__family_layouts(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                       unsigned *mask)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, "layouts"), *e;
    *mask = 0;
    if (!arr)
        return required ? gb__family_bad(c, key, "is missing") : GB_OK;
    if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) == 0)
        return gb__family_bad(c, key,
                              "must be a non-empty array such as [\"row-NN\"] or [\"any\"]");
    cJSON_ArrayForEach(e, arr)
    {
        const char *s = cJSON_IsString(e) ? e->valuestring : "";
        if (!strcmp(s, "any")) {
            *mask = 0xffu;
            continue;
        }
        unsigned i;
        const int rc = gb__family_layout_index(c, key, s, &i);
        if (rc != GB_OK)
            return rc;
        *mask |= 1u << i;
    }
    return GB_OK;
}

int gb__family_layout_index(gb_family_ctx_t *c, const char *key, const char *s, unsigned *index)
{
    gb_layout_t l;
    if (strlen(s) != 6 || s[3] != '-' || (s[4] != 'N' && s[4] != 'T') ||
        (s[5] != 'N' && s[5] != 'T'))
        return gb__family_bad(c, key,
                              "must name layouts like \"row-NT\", \"col-TN\" (or \"any\" in "
                              "'layouts')");
    char lay[4] = {s[0], s[1], s[2], 0};
    if (gb_layout_parse(lay, &l) != GB_OK)
        return gb__family_bad(c, key, "must start each name with row or col");
    *index = gb_layout_index(l, s[4] == 'T' ? GB_TRANS : GB_NOTRANS,
                             s[5] == 'T' ? GB_TRANS : GB_NOTRANS);
    return GB_OK;
}
