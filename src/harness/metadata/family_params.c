/* family_params.c: a family's parameters and presets from its metadata (docs/kernel-metadata.md),
 * parsed for family.c with the helpers family_int.h shares. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family_int.h"

int gb__family_params(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f)
{
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(obj, "parameters"), *p;
    if (!ps)
        return GB_OK;
    if (!cJSON_IsObject(ps))
        return gb__family_bad(c, "parameters",
                              "must be an object of name: {default, values|range}");
    size_t n = (size_t)cJSON_GetArraySize(ps);
    if (n > GB_MAX_PARAMS)
        return gb__family_bad(c, "parameters", "has more than 32 entries");
    int rc = gb__family_keys(c, ps, "parameters", NULL, 0);
    if (rc != GB_OK)
        return rc;
    if (n && !(f->params = calloc(n, sizeof *f->params)))
        return GB_ENOMEM;
    cJSON_ArrayForEach(p, ps)
    {
        gb_param_t *q = &f->params[f->nparams++];
        char key[96];
        snprintf(key, sizeof key, "parameters.%s", p->string);
        if (strlen(p->string) >= GB_NAME_MAX || !cJSON_IsObject(p))
            return gb__family_bad(c, key, "must be an object with a name under 48 characters");
        if ((rc = gb__family_keys(
                 c, p, key,
                 KEYS("default", "values", "range", "doc", "tune", "layouts", "adapts"))) != GB_OK)
            return rc;
        if (!(q->name = gb__family_dup(p->string)))
            return GB_ENOMEM;
        char sub[128];
        snprintf(sub, sizeof sub, "%s.default", key);
        if ((rc = gb__family_long(c, cJSON_GetObjectItemCaseSensitive(p, "default"), sub, &q->def)))
            return rc;
        if ((rc = gb__family_string(c, p, "doc", 0, &q->doc)))
            return rc;
        const cJSON *tune = cJSON_GetObjectItemCaseSensitive(p, "tune");
        snprintf(sub, sizeof sub, "%s.tune", key);
        if (tune && !cJSON_IsBool(tune))
            return gb__family_bad(c, sub, "must be true or false");
        q->untuned = tune && cJSON_IsFalse(tune);
        snprintf(sub, sizeof sub, "%s.layouts", key);
        if ((rc = gb__family_layouts(c, p, sub, 0, &q->layouts)))
            return rc;
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(p, "values");
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(p, "range"), *e;
        q->lo = 1;
        q->hi = 1L << 30;
        if (vals) {
            snprintf(sub, sizeof sub, "%s.values", key);
            if (!cJSON_IsArray(vals) || cJSON_GetArraySize(vals) == 0)
                return gb__family_bad(c, sub, "must be a non-empty array of integers");
            q->values = calloc((size_t)cJSON_GetArraySize(vals), sizeof *q->values);
            if (!q->values)
                return GB_ENOMEM;
            cJSON_ArrayForEach(
                e, vals) if ((rc = gb__family_long(c, e, sub, &q->values[q->nvalues++]))) return rc;
        } else if (range) {
            snprintf(sub, sizeof sub, "%s.range", key);
            if (!cJSON_IsArray(range) || cJSON_GetArraySize(range) != 2)
                return gb__family_bad(c, sub, "must be [lo, hi]");
            if ((rc = gb__family_long(c, cJSON_GetArrayItem(range, 0), sub, &q->lo)) ||
                (rc = gb__family_long(c, cJSON_GetArrayItem(range, 1), sub, &q->hi)))
                return rc;
            if (q->lo > q->hi)
                return gb__family_bad(c, sub, "must have lo <= hi");
        }
        if (!gb__param_allowed(q, q->def))
            return gb__family_bad(c, key, "has a default outside its allowed values");
        const cJSON *adapts = cJSON_GetObjectItemCaseSensitive(p, "adapts");
        if (adapts) {
            snprintf(sub, sizeof sub, "%s.adapts", key);
            if ((rc = gb__family_long(c, adapts, sub, &q->adapts)))
                return rc;
            if (!gb__param_allowed(q, q->adapts))
                return gb__family_bad(c, sub, "must be one of the parameter's allowed values");
            q->adaptive = 1;
        }
    }
    return GB_OK;
}

/* An object of parameter values (key names it, "presets.X.params" or "unsplit"), each a
 * parameter of f, into names and values. */
static int parse_set(gb_family_ctx_t *c, const cJSON *set, const char *key, const gb_family_t *f,
                     char ***names, long **values, size_t *n)
{
    if (!cJSON_IsObject(set))
        return gb__family_bad(c, key, "must be an object of parameter: value");
    size_t m = (size_t)cJSON_GetArraySize(set);
    *names = calloc(m ? m : 1, sizeof **names);
    *values = calloc(m ? m : 1, sizeof **values);
    if (!*names || !*values)
        return GB_ENOMEM;
    const cJSON *e;
    cJSON_ArrayForEach(e, set)
    {
        char sub[192];
        snprintf(sub, sizeof sub, "%s.%s", key, e->string);
        int known = 0, rc;
        for (size_t i = 0; i < f->nparams; i++)
            known |= !strcmp(f->params[i].name, e->string);
        if (!known)
            return gb__family_bad(c, sub, "names no parameter of the family");
        if ((rc = gb__family_long(c, e, sub, &(*values)[*n])))
            return rc;
        if (!((*names)[(*n)++] = gb__family_dup(e->string)))
            return GB_ENOMEM;
    }
    return GB_OK;
}

int gb__family_presets(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f)
{
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(obj, "presets"), *p;
    if (!ps)
        return GB_OK;
    if (!cJSON_IsObject(ps))
        return gb__family_bad(c, "presets", "must be an object of name: {precision, params, doc}");
    size_t n = (size_t)cJSON_GetArraySize(ps);
    int rc = gb__family_keys(c, ps, "presets", NULL, 0);
    if (rc != GB_OK)
        return rc;
    if (n && !(f->presets = calloc(n, sizeof *f->presets)))
        return GB_ENOMEM;
    cJSON_ArrayForEach(p, ps)
    {
        gb_preset_t *q = &f->presets[f->npresets++];
        char key[128];
        snprintf(key, sizeof key, "presets.%s", p->string);
        if (!cJSON_IsObject(p) || strlen(p->string) >= GB_NAME_MAX)
            return gb__family_bad(c, key, "must be an object with a name under 48 characters");
        if ((rc = gb__family_keys(c, p, key, KEYS("precision", "params", "doc"))) != GB_OK)
            return rc;
        if (!(q->name = gb__family_dup(p->string)))
            return GB_ENOMEM;
        if ((rc = gb__family_string(c, p, "doc", 0, &q->doc)))
            return rc;
        const cJSON *prec = cJSON_GetObjectItemCaseSensitive(p, "precision");
        q->precisions = f->precisions;
        if (prec) {
            char sub[160];
            snprintf(sub, sizeof sub, "%s.precision", key);
            if ((rc = gb__family_precisions(c, prec, sub, &q->precisions)))
                return rc;
            if (q->precisions & ~f->precisions)
                return gb__family_bad(c, sub, "names a precision the family does not support");
        }
        const cJSON *set = cJSON_GetObjectItemCaseSensitive(p, "params");
        if (!set)
            continue;
        char sub[160];
        snprintf(sub, sizeof sub, "%s.params", key);
        if ((rc = parse_set(c, set, sub, f, &q->set_names, &q->set_values, &q->nset)))
            return rc;
    }
    return GB_OK;
}

int gb__family_unsplit(gb_family_ctx_t *c, const cJSON *obj, gb_family_t *f)
{
    const cJSON *set = cJSON_GetObjectItemCaseSensitive(obj, "unsplit");
    if (!set)
        return GB_OK;
    if (!f->launch_factor)
        return gb__family_bad(c, "unsplit",
                              "needs a 'launch_factor', whose value 1 says that nothing is split");
    int rc = parse_set(c, set, "unsplit", f, &f->unsplit_names, &f->unsplit_values, &f->nunsplit);
    if (rc == GB_OK && !f->nunsplit)
        return gb__family_bad(c, "unsplit", "names no parameter; leave it out instead");
    return rc;
}
