/* family.c: parses one kernel family's JSON metadata (docs/kernel-metadata.md) with cJSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "rt/family/expr.h"
#include "family_int.h"

/* Argument names a family may list, in any order. */
static const char *const known_args[] = {
    "M", "N",    "K",   "alpha", "A",    "offA", "lda", "B",   "offB",    "ldb",    "beta",
    "C", "offC", "ldc", "imgA",  "imgB", "WS",   "CNT", "CUS", "alphaRe", "alphaIm"};

static int get_string_array(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                            char ***out, size_t *n)
{
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    *n = 0;
    if (!arr)
        return required ? gb__family_bad(c, key, "is missing") : GB_OK;
    if (!cJSON_IsArray(arr))
        return gb__family_bad(c, key, "must be an array of strings");
    size_t count = (size_t)cJSON_GetArraySize(arr);
    if (count == 0)
        return required ? gb__family_bad(c, key, "must not be empty") : GB_OK;
    if (!(*out = calloc(count, sizeof **out)))
        return GB_ENOMEM;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return gb__family_bad(c, key, "must hold only non-empty strings");
        if (!((*out)[(*n)++] = gb__family_dup(e->valuestring)))
            return GB_ENOMEM;
    }
    return GB_OK;
}

static int parse_pair(gb_family_ctx_t *c, const cJSON *obj, const char *key, int required,
                      char *out[2])
{
    char **arr = NULL;
    size_t n = 0;
    int rc = get_string_array(c, obj, key, required, &arr, &n);
    if (rc == GB_OK && arr && n != 2)
        rc = gb__family_bad(c, key, "must hold exactly two expressions (dimension 0, dimension 1)");
    if (rc == GB_OK && arr) {
        out[0] = arr[0];
        out[1] = arr[1];
        free(arr);
        return GB_OK;
    }
    for (size_t i = 0; i < n; i++)
        free(arr[i]);
    free(arr);
    return rc;
}

/* "prologue" and "remainder": {"entry", "global", "local"}, all required: a kernel run before
 * the main one (e.g. packing an operand into the workspace) and one after it (the part of C the
 * main kernel leaves, e.g. the thin last rows and columns of odd sizes). The prologue may add
 * "panels", an expression: it packs B into the workspace as panels of that many columns. */
/* "ptx_target": a PTX architecture, "sm_" and digits with an optional 'a' (sm_90a); and
 * "ptx_unless", an expression, only with it. */
static int parse_ptx(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    int rc;
    if ((rc = gb__family_string(c, root, "ptx_target", 0, &f->ptx_target)) ||
        (rc = gb__family_string(c, root, "ptx_unless", 0, &f->ptx_unless)))
        return rc;
    if (f->ptx_unless && !f->ptx_target)
        return gb__family_bad(c, "ptx_unless", "needs a 'ptx_target'");
    if (!f->ptx_target)
        return GB_OK;
    const char *t = f->ptx_target;
    size_t digits = strspn(t + (strncmp(t, "sm_", 3) ? 0 : 3), "0123456789");
    const char *end = t + 3 + digits;
    if (strncmp(t, "sm_", 3) || !digits || (*end && strcmp(end, "a")))
        return gb__family_bad(c, "ptx_target", "must name a PTX architecture such as \"sm_90a\"");
    return GB_OK;
}

static int parse_side(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f, int s)
{
    const char *key = gb_side_key(s);
    gb_side_t *side = &f->side[s];
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!obj)
        return GB_OK;
    if (!cJSON_IsObject(obj))
        return gb__family_bad(c, key, "must be an object {\"entry\", \"global\", \"local\"}");
    char origin[512];
    snprintf(origin, sizeof origin, "%s, object '%s'", c->origin, key);
    gb_family_ctx_t sub = {origin, c->msg, c->msglen};
    int rc = s == GB_SIDE_PROLOGUE
                 ? gb__family_keys(c, obj, key, KEYS("entry", "global", "local", "panels"))
                 : gb__family_keys(c, obj, key, KEYS("entry", "global", "local"));
    if (rc == GB_OK)
        rc = gb__family_string(&sub, obj, "entry", 1, &side->entry);
    if (rc == GB_OK)
        rc = gb__family_string(&sub, obj, "panels", 0, &side->panels);
    if (rc == GB_OK)
        rc = parse_pair(&sub, obj, "global", 1, side->global);
    if (rc == GB_OK)
        rc = parse_pair(&sub, obj, "local", 1, side->local);
    return rc;
}

/* "let": {NAME: expr, ...}: names for the size expressions (global, local, remainder, workspace),
 * each evaluated in order, so that a later one may use an earlier one. A name may not hide a
 * parameter or a name the harness defines. */
/* The names the harness defines for the size expressions (docs/kernel-metadata.md): the values
 * are gb__problem_vars', gb__precision_vars' and gb__route_device_vars' (the generator links
 * none of them). */
static const char *const builtin[] = {"M",    "N",      "K",      "ROW", "ELEM",
                                      "REAL", "DOUBLE", "NVIDIA", "CUS"};
#define NBUILTIN (sizeof builtin / sizeof builtin[0])

static int parse_lets(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "let"), *e;
    if (!obj)
        return GB_OK;
    if (!cJSON_IsObject(obj))
        return gb__family_bad(c, "let", "must be an object of NAME: expression");
    size_t n = (size_t)cJSON_GetArraySize(obj);
    if (n > GB_MAX_LETS)
        return gb__family_bad(c, "let", "has more than 16 names");
    int rc = gb__family_keys(c, obj, "let", NULL, 0);
    if (rc != GB_OK)
        return rc;
    if (n && (!(f->let_names = calloc(n, sizeof *f->let_names)) ||
              !(f->let_exprs = calloc(n, sizeof *f->let_exprs))))
        return GB_ENOMEM;
    cJSON_ArrayForEach(e, obj)
    {
        char key[96];
        snprintf(key, sizeof key, "let.%s", e->string);
        int taken = 0;
        for (size_t i = 0; i < NBUILTIN; i++)
            taken |= !strcmp(e->string, builtin[i]);
        for (size_t i = 0; i < f->nparams; i++)
            taken |= !strcmp(e->string, f->params[i].name);
        if (taken)
            return gb__family_bad(c, key,
                                  "names a parameter or a built-in name; choose another name");
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return gb__family_bad(c, key, "must be a non-empty string (an expression)");
        if (!(f->let_names[f->nlets] = gb__family_dup(e->string)) ||
            !(f->let_exprs[f->nlets] = gb__family_dup(e->valuestring)))
            return GB_ENOMEM;
        f->nlets++;
    }
    return GB_OK;
}

/* "traffic": {"read": expr, "write": expr}, both required: bytes of global memory the main
 * kernel (with its remainder kernel) reads and writes, with the names of the size expressions.
 * Each is compiled here against those names (the parameters, the harness's, the lets), so that
 * a syntax error or an unknown name is refused with the file and the key when the family is
 * loaded (at build time for the built-in ones), not when a point is measured. */
static int parse_traffic(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, "traffic");
    if (!obj)
        return GB_OK;
    if (!cJSON_IsObject(obj))
        return gb__family_bad(c, "traffic",
                              "must be an object {\"read\": expr, \"write\": expr} (bytes)");
    int rc = gb__family_keys(c, obj, "traffic", KEYS("read", "write"));
    const char *names[GB_MAX_PARAMS + NBUILTIN + GB_MAX_LETS];
    size_t n = 0;
    for (size_t i = 0; i < f->nparams; i++)
        names[n++] = f->params[i].name;
    for (size_t i = 0; i < NBUILTIN; i++)
        names[n++] = builtin[i];
    for (size_t i = 0; i < f->nlets; i++)
        names[n++] = f->let_names[i];
    static const char *const keys[2] = {"read", "write"};
    for (int d = 0; rc == GB_OK && d < 2; d++) {
        char key[16], why[GB_EXPR_MAX + 256];
        snprintf(key, sizeof key, "traffic.%s", keys[d]);
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(obj, keys[d]);
        if (!e)
            return gb__family_bad(c, key, "is missing (both read and write are declared)");
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return gb__family_bad(c, key, "must be a non-empty string (an expression in bytes)");
        gb_expr_t *prog = NULL;
        char err[GB_EXPR_MAX + 128];
        if ((rc = gb__expr_compile(e->valuestring, names, n, &prog, err, sizeof err)) != GB_OK) {
            if (rc == GB_ENOMEM)
                return rc;
            snprintf(why, sizeof why, "is not an expression of the names it may use: %s", err);
            return gb__family_bad(c, key, why);
        }
        gb__expr_free(prog);
        if (!(f->traffic[d] = gb__family_dup(e->valuestring)))
            return GB_ENOMEM;
    }
    return rc;
}

static int arg_index(const gb_family_t *f, const char *name)
{
    for (size_t i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i], name))
            return (int)i;
    return -1;
}

/* Operands read as images (imgA, imgB): each replaces its buffer argument, appears once, and
 * exists only in single precision (the image holds 32-bit elements). */
/* key: {"X": expr, ...} naming only the one-letter names in names (e.g. "MNK"); the expression
 * for names[i] goes to out[i]. */
static int parse_multiples(gb_family_ctx_t *c, const cJSON *root, const char *key,
                           const char *names, char **out)
{
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(root, key);
    char why[64];
    if (!obj)
        return GB_OK;
    if (!cJSON_IsObject(obj)) {
        snprintf(why, sizeof why, "must be an object {\"%c\": expr, \"%c\": expr, \"%c\": expr}",
                 names[0], names[1], names[2]);
        return gb__family_bad(c, key, why);
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, obj)
    {
        const char *at = strchr(names, e->string[0]);
        if (!at || e->string[0] == '\0' || e->string[1] != '\0') {
            snprintf(why, sizeof why, "may only name %c, %c and %c", names[0], names[1], names[2]);
            return gb__family_bad(c, key, why);
        }
        char where[32];
        snprintf(where, sizeof where, "%s.%c", key, *at);
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return gb__family_bad(c, where, "must be a non-empty string (an expression)");
        free(out[at - names]);
        if (!(out[at - names] = gb__family_dup(e->valuestring)))
            return GB_ENOMEM;
    }
    return GB_OK;
}

static int parse_images(gb_family_ctx_t *c, gb_family_t *f)
{
    static const char *const pairs[][2] = {{"imgA", "A"}, {"imgB", "B"}};
    for (size_t p = 0; p < 2; p++) {
        int at = arg_index(f, pairs[p][0]);
        if (at < 0)
            continue;
        for (size_t i = (size_t)at + 1; i < f->nargs; i++)
            if (!strcmp(f->args[i], pairs[p][0]))
                return gb__family_bad(c, "args", "names an image operand twice");
        if (arg_index(f, pairs[p][1]) >= 0)
            return gb__family_bad(c, "args",
                                  "names an operand both as a buffer and as an image (A and imgA, "
                                  "or B and imgB)");
        if (f->precisions != 1u << GB_PREC_S)
            return gb__family_bad(c, "precisions",
                                  "must be [\"s\"] alone for a family with imgA or imgB: "
                                  "images hold 32-bit elements");
        f->images = 1;
    }
    return GB_OK;
}

/* "extends": NAME: every key of NAME.json in dir that this file does not give, but its name,
 * description and presets, so that a family that differs from another in a few keys (the same
 * source with other native layouts, say) says only those, and "more_constraints" adds to the
 * constraints. One level: the base may not extend. */
static int extend(gb_family_ctx_t *c, cJSON *root, const char *dir)
{
    const cJSON *ext = cJSON_GetObjectItemCaseSensitive(root, "extends");
    if (!ext)
        return GB_OK;
    if (!cJSON_IsString(ext) || !ext->valuestring[0] || strchr(ext->valuestring, '/'))
        return gb__family_bad(c, "extends", "must name a family whose JSON lies beside this one");
    if (!dir)
        return gb__family_bad(c, "extends", "needs the base family's JSON beside this one");
    char path[4096], why[4200];
    snprintf(path, sizeof path, "%s/%s.json", dir, ext->valuestring);
    char *text = NULL;
    size_t len = 0;
    cJSON *base = NULL;
    if (gb__read_file(path, 1u << 20, &text, &len) == GB_OK)
        base = cJSON_ParseWithLength(text, len);
    free(text);
    int rc = GB_OK;
    if (!base || !cJSON_IsObject(base)) {
        snprintf(why, sizeof why, "names a base whose metadata %s cannot be read as JSON", path);
        rc = gb__family_bad(c, "extends", why);
    } else if (cJSON_GetObjectItemCaseSensitive(base, "extends")) {
        snprintf(why, sizeof why, "names a base that extends another (%s); one level only", path);
        rc = gb__family_bad(c, "extends", why);
    }
    for (cJSON *it = rc == GB_OK ? base->child : NULL; it && rc == GB_OK; it = it->next) {
        if (!strcmp(it->string, "family") || !strcmp(it->string, "description") ||
            !strcmp(it->string, "presets") || cJSON_GetObjectItemCaseSensitive(root, it->string))
            continue;
        cJSON *copy = cJSON_Duplicate(it, 1);
        if (!copy || !cJSON_AddItemToObject(root, it->string, copy)) {
            cJSON_Delete(copy);
            rc = gb__fail(c->msg, c->msglen, GB_ENOMEM, "out of memory");
        }
    }
    cJSON_Delete(base);
    cJSON_DeleteItemFromObjectCaseSensitive(root, "extends");
    /* "more_constraints": on top of the constraints, given or taken (what its layouts add). */
    cJSON *more = cJSON_DetachItemFromObjectCaseSensitive(root, "more_constraints");
    cJSON *all = cJSON_GetObjectItemCaseSensitive(root, "constraints");
    if (more && rc == GB_OK && (!cJSON_IsArray(more) || !cJSON_IsArray(all)))
        rc = gb__family_bad(c, "more_constraints",
                            "must be an array, beside constraints given or taken from the base");
    for (cJSON *e = more && rc == GB_OK ? more->child : NULL; e && rc == GB_OK; e = e->next) {
        cJSON *copy = cJSON_Duplicate(e, 1);
        if (!copy || !cJSON_AddItemToArray(all, copy)) {
            cJSON_Delete(copy);
            rc = gb__fail(c->msg, c->msglen, GB_ENOMEM, "out of memory");
        }
    }
    cJSON_Delete(more);
    return rc;
}

int gb__family_parse(const char *json, size_t len, const char *origin, gb_family_t *f, char *msg,
                     size_t msglen)
{
    return gb__family_parse_at(json, len, origin, NULL, f, msg, msglen);
}

/* The document of json: one JSON object (nothing but blanks after it), with the keys of the
 * family it extends (dir: where that family's JSON lies); NULL with *rc on failure. */
static cJSON *document(gb_family_ctx_t *c, const char *json, size_t len, const char *dir, int *rc)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
    if (!root) {
        const char *at = cJSON_GetErrorPtr();
        *rc = gb__fail(c->msg, c->msglen, GB_EMETADATA,
                       "%s: not valid JSON near offset %ld; fix the metadata", c->origin,
                       at ? (long)(at - json) : -1L);
        return NULL;
    }
    *rc = GB_OK;
    /* One document per file: anything but whitespace after it is an error, not ignored. */
    for (size_t at = (size_t)(end - json); *rc == GB_OK && at < len; at++)
        if (!strchr(" \t\r\n", json[at]) || json[at] == '\0')
            *rc = gb__fail(c->msg, c->msglen, GB_EMETADATA,
                           "%s: text after the JSON document at byte "
                           "offset %zu; a metadata file holds one object",
                           c->origin, at);
    if (*rc == GB_OK && !cJSON_IsObject(root))
        *rc = gb__fail(c->msg, c->msglen, GB_EMETADATA, "%s: metadata must be a JSON object",
                       c->origin);
    if (*rc == GB_OK)
        *rc = extend(c, root, dir);
    if (*rc != GB_OK) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* "layouts_where": {"row-NN": EXPR, ...}: layouts native besides "layouts" where their
 * expression (of the parameters) is non-zero; each named once, none already in "layouts". */
static int parse_layouts_where(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "layouts_where"), *e;
    if (!o)
        return GB_OK;
    if (!cJSON_IsObject(o) || !o->child)
        return gb__family_bad(c, "layouts_where",
                              "must be an object such as {\"row-NN\": \"PARAM == 1\"}");
    cJSON_ArrayForEach(e, o)
    {
        unsigned i;
        int rc = gb__family_layout_index(c, "layouts_where", e->string, &i);
        if (rc != GB_OK)
            return rc;
        if ((f->layouts >> i) & 1u || f->layout_where[i])
            return gb__family_bad(c, "layouts_where",
                                  "names a layout that 'layouts' already holds, or names it twice");
        if (!cJSON_IsString(e) || !e->valuestring[0])
            return gb__family_bad(c, "layouts_where", "must give each layout an expression");
        if (!(f->layout_where[i] = gb__family_dup(e->valuestring)))
            return GB_ENOMEM;
    }
    return GB_OK;
}

/* "expand_b": {"macro", "where"}: the macro required, where an optional expression. */
static int parse_expand_b(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, "expand_b");
    if (!o)
        return GB_OK;
    if (!cJSON_IsObject(o))
        return gb__family_bad(c, "expand_b", "must be an object {macro, where}");
    int rc;
    if ((rc = gb__family_keys(c, o, "expand_b", KEYS("macro", "where"))) ||
        (rc = gb__family_string(c, o, "macro", 1, &f->expand_b)))
        return rc;
    return gb__family_string(c, o, "where", 0, &f->expand_b_where);
}

/* The members that describe the kernels: names, precisions and layouts, arguments, launch
 * sizes, parameters and presets, multiples, side kernels, lets, workspace, launch factor and
 * traffic. */
static int parse_members(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    int rc;
    if ((rc = gb__family_string(c, root, "family", 1, &f->name)) ||
        (rc = gb__family_string(c, root, "description", 0, &f->description)) ||
        (rc = gb__family_string(c, root, "author", 0, &f->author)) ||
        (rc = gb__family_string(c, root, "license", 0, &f->license)) ||
        (rc = gb__family_string(c, root, "source", 1, &f->source_file)) ||
        (rc = gb__family_string(c, root, "entry", 1, &f->entry)))
        return rc;
    if (strlen(f->name) >= GB_NAME_MAX)
        return gb__family_bad(c, "family", "must be shorter than 48 characters");
    const cJSON *prec = cJSON_GetObjectItemCaseSensitive(root, "precisions");
    if (!prec)
        return gb__family_bad(c, "precisions", "is missing");
    if ((rc = gb__family_precisions(c, prec, "precisions", &f->precisions)) ||
        (rc = gb__family_layouts(c, root, "layouts", 1, &f->layouts)) ||
        (rc = get_string_array(c, root, "args", 1, &f->args, &f->nargs)) ||
        (rc = parse_pair(c, root, "global", 1, f->global)) ||
        (rc = parse_pair(c, root, "local", 0, f->local)) ||
        (rc = get_string_array(c, root, "constraints", 0, &f->constraints, &f->nconstraints)) ||
        (rc = gb__family_params(c, root, f)) || (rc = gb__family_presets(c, root, f)))
        return rc;
    if ((rc = parse_multiples(c, root, "multiple_of", "MNK", f->multiple)) ||
        (rc = parse_multiples(c, root, "ld_multiple_of", "ABC", f->ld_multiple)) ||
        (rc = parse_multiples(c, root, "ld_avoid_multiple_of", "ABC", f->ld_avoid)) ||
        (rc = gb__family_string(c, root, "nvidia_max_registers", 0, &f->nv_max_registers)) ||
        (rc = gb__family_string(c, root, "nvidia_min_groups", 0, &f->nv_min_groups)) ||
        (rc = parse_expand_b(c, root, f)) || (rc = parse_ptx(c, root, f)) ||
        (rc = parse_side(c, root, f, GB_SIDE_PROLOGUE)) ||
        (rc = parse_side(c, root, f, GB_SIDE_REMAINDER)) || (rc = parse_lets(c, root, f)) ||
        (rc = gb__family_string(c, root, "workspace", 0, &f->workspace)) ||
        (rc = gb__family_string(c, root, "counters", 0, &f->counters)) ||
        (rc = gb__family_string(c, root, "transposed_c", 0, &f->transposed_c)) ||
        (rc = parse_layouts_where(c, root, f)) ||
        (rc = gb__family_string(c, root, "launch_factor", 0, &f->launch_factor)) ||
        (rc = gb__family_unsplit(c, root, f)))
        return rc;
    return parse_traffic(c, root, f);
}

/* The arguments: each one the harness knows or a let's name; the image operands; the
 * workspace and its argument together. */
static int check_args(gb_family_ctx_t *c, gb_family_t *f)
{
    for (size_t i = 0; i < f->nargs; i++) {
        int known = 0;
        for (size_t j = 0; j < sizeof known_args / sizeof known_args[0]; j++)
            known |= !strcmp(f->args[i], known_args[j]);
        for (size_t j = 0; j < f->nlets; j++)
            known |= !strcmp(f->args[i], f->let_names[j]);
        if (!known)
            return gb__family_bad(c, "args",
                                  "holds a name that is neither a 'let' nor one of M N K alpha "
                                  "beta A B C offA offB offC lda ldb ldc imgA imgB WS CNT CUS "
                                  "alphaRe alphaIm");
    }
    int rc = parse_images(c, f);
    if (rc != GB_OK)
        return rc;
    /* The scratch buffer and its argument come together. */
    if (!f->workspace != (arg_index(f, "WS") < 0))
        return gb__family_bad(c, f->workspace ? "workspace" : "args",
                              f->workspace ? "gives a size, but 'args' has no WS to pass the buffer"
                                           : "names WS, but there is no 'workspace' size");
    if (!f->counters != (arg_index(f, "CNT") < 0))
        return gb__family_bad(c, f->counters ? "counters" : "args",
                              f->counters ? "gives a count, but 'args' has no CNT to pass them"
                                          : "names CNT, but there is no 'counters' count");
    /* Y staged from B takes alpha's parts, which 1M's pass would have multiplied B by. */
    if (f->expand_b && (arg_index(f, "alphaRe") < 0 || arg_index(f, "alphaIm") < 0))
        return gb__family_bad(c, "expand_b",
                              "needs the arguments alphaRe and alphaIm in 'args', through which "
                              "the kernel gets alpha's parts");
    if (f->side[GB_SIDE_PROLOGUE].panels && !f->workspace)
        return gb__family_bad(c, "prologue",
                              "gives 'panels', which live in the workspace, but "
                              "there is no 'workspace' size");
    return GB_OK;
}

/* "requires": {extensions, local_memory, images, image2d_from_buffer}, all optional. */
static int parse_requires(gb_family_ctx_t *c, const cJSON *root, gb_family_t *f)
{
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(root, "requires");
    if (!req)
        return GB_OK;
    if (!cJSON_IsObject(req))
        return gb__family_bad(c, "requires", "must be an object {extensions, local_memory}");
    int rc;
    if ((rc = gb__family_keys(
             c, req, "requires",
             KEYS("extensions", "local_memory", "images", "image2d_from_buffer"))) ||
        (rc = get_string_array(c, req, "extensions", 0, &f->extensions, &f->nextensions)) ||
        (rc = gb__family_string(c, req, "local_memory", 0, &f->local_mem)))
        return rc;
    const cJSON *img = cJSON_GetObjectItemCaseSensitive(req, "images");
    const cJSON *fb = cJSON_GetObjectItemCaseSensitive(req, "image2d_from_buffer");
    if ((img && !cJSON_IsBool(img)) || (fb && !cJSON_IsBool(fb)))
        return gb__family_bad(
            c, img && !cJSON_IsBool(img) ? "requires.images" : "requires.image2d_from_buffer",
            "must be true or false");
    f->images_from_buffer = cJSON_IsTrue(fb);
    f->images |= cJSON_IsTrue(img) || f->images_from_buffer;
    return GB_OK;
}

int gb__family_parse_at(const char *json, size_t len, const char *origin, const char *dir,
                        gb_family_t *f, char *msg, size_t msglen)
{
    gb_family_ctx_t c = {origin, msg, msglen};
    memset(f, 0, sizeof *f);
    if (len > (1u << 20))
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: metadata larger than 1 MiB", origin);
    int rc;
    cJSON *root = document(&c, json, len, dir, &rc);
    if (!root)
        return rc;
    if ((rc = parse_members(&c, root, f)) == GB_OK && (rc = check_args(&c, f)) == GB_OK &&
        (rc = parse_requires(&c, root, f)) == GB_OK)
        /* Last, so that a known key's own fault is named first. */
        rc = gb__family_keys(
            &c, root, "",
            KEYS("family", "description", "author", "license", "source", "entry", "precisions",
                 "layouts", "args", "global", "local", "parameters", "constraints", "requires",
                 "multiple_of", "ld_multiple_of", "ld_avoid_multiple_of", "nvidia_max_registers",
                 "nvidia_min_groups", "expand_b", "ptx_target", "ptx_unless", "prologue",
                 "remainder", "workspace", "counters", "transposed_c", "launch_factor", "unsplit",
                 "traffic", "let", "presets", "layouts_where"));
    cJSON_Delete(root);
    if (rc != GB_OK)
        gb__family_free(f);
    return rc;
}
