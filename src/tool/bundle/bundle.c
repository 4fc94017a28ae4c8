/* bundle.c: result bundles (bundle.h). The file is the export document with three more keys,
 * "programs" (hash -> the family and the program text), "tuned" (entries as a tuning file
 * writes them) and "digest" (last): the SHA-256 of the file as written, with the digest's own 64
 * hex digits read as zeros. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench_tuning.h"
#include "harness/measure/stats.h"
#include "rt/family/family.h"
#include "rt/family/registry.h"
#include "rt/util/util.h"
#include "tool/tune/tuned.h"
#include "bundle.h"

#define ZEROS "0000000000000000000000000000000000000000000000000000000000000000"

/* The 16 hex digits of the program text's hash in a source_hash ("sha256:<16>/<16>"), into
 * out; 0 for another form ("none" for a library, "fnv1a64:" before the program text). */
static int program_key(const char *source_hash, char out[17])
{
    if (strncmp(source_hash, "sha256:", 7) || strlen(source_hash) < 7 + 16)
        return 0;
    memcpy(out, source_hash + 7, 16);
    out[16] = '\0';
    return 1;
}

/* The family's program text where its hash is key (NULL: another text, or no such family),
 * and the family (*fam). */
static char *program_of(const gb_registry_t *reg, const char *family, const char *key,
                        const gb_family_t **fam)
{
    const gb_family_t *f;
    const gb_preset_t *ps;
    const gb_embedded_file_t *prelude = gb__embedded("prelude.cl");
    if (!reg || !prelude || gb_registry_find(reg, family, &f, &ps) != GB_OK || !f->source)
        return NULL;
    *fam = f;
    char *text = NULL, digest[65];
    if (gb__program_text(prelude->data, f->source, &text, NULL, digest) != GB_OK)
        return NULL;
    if (strncmp(digest, key, 16)) {
        free(text);
        return NULL;
    }
    return text;
}

typedef struct cites {
    cJSON *ids; /* the bundle's point ids, an object used as a set */
    gb_tuned_t t;
    int nomem;
} cites_t;

static int cite(const gb_tuned_entry_t *e, void *user)
{
    cites_t *c = user;
    for (size_t i = 0; i < e->nevidence; i++)
        if (cJSON_GetObjectItemCaseSensitive(c->ids, e->evidence[i])) {
            if (gb_tuned_add(&c->t, e) != GB_OK)
                return c->nomem = 1;
            break;
        }
    return 0;
}

static char *sha_hex(const char *text, size_t len, char hex[65])
{
    gb_sha256_t s;
    gb__sha256_init(&s);
    gb__sha256_update(&s, text, len);
    gb__sha256_hex_final(&s, hex);
    return hex;
}

/* Where the digest's value starts in text (the 64 hex digits after the last "digest" key),
 * or NULL. */
static char *digest_at(char *text, size_t len)
{
    char *at = NULL;
    for (char *p = text; (p = strstr(p, "\"digest\":")) && (size_t)(p - text) < len; p++)
        at = p;
    if (!at)
        return NULL;
    at = strchr(at + 9, '"');
    if (!at || (size_t)(at + 1 + 64 - text) > len || at[65] != '"')
        return NULL;
    return at + 1;
}

int gb_bundle_write(gb_store_t *st, const gb_registry_t *reg, FILE *f, size_t *npoints,
                    size_t *nprograms, char *msg, size_t msglen)
{
    char *exp = NULL, *text = NULL;
    size_t explen = 0, count = 0;
    cJSON *root = NULL;
    cites_t c = {NULL, {0}, 0};
    gb_tuned_init(&c.t);
    *npoints = *nprograms = 0;
    FILE *m = open_memstream(&exp, &explen);
    int rc = m ? gb_store_export_json(st, m, &count) : GB_ENOMEM;
    if (m && fclose(m) != 0 && rc == GB_OK)
        rc = GB_ENOMEM;
    if (rc != GB_OK) {
        gb__fail(msg, msglen, rc, "%s", rc == GB_ENOMEM ? "out of memory" : gb_store_errmsg(st));
        goto done;
    }
    if (!count) {
        rc = gb__fail(msg, msglen, GB_ENOPOINT, "the store holds no point; nothing to bundle");
        goto done;
    }
    if (!(root = cJSON_ParseWithLength(exp, explen)) || !(c.ids = cJSON_CreateObject())) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    cJSON_ReplaceItemInObjectCaseSensitive(root, "format", cJSON_CreateString(GB_BUNDLE_FORMAT));
    cJSON_AddNumberToObject(root, "bundle_version", GB_BUNDLE_VERSION);
    cJSON *programs = cJSON_AddObjectToObject(root, "programs");
    const cJSON *pt;
    cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(root, "points"))
    {
        const char *id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pt, "id"));
        const char *hash =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pt, "source_hash"));
        const char *family = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(pt, "family"));
        char key[17];
        if (id)
            cJSON_AddTrueToObject(c.ids, id);
        if (!hash || !family || !program_key(hash, key) ||
            cJSON_GetObjectItemCaseSensitive(programs, key))
            continue;
        const gb_family_t *fam = NULL;
        char *prog = program_of(reg, family, key, &fam);
        if (!prog)
            continue;
        cJSON *o = cJSON_AddObjectToObject(programs, key);
        cJSON_AddStringToObject(o, "family", family);
        if (fam->author)
            cJSON_AddStringToObject(o, "author", fam->author);
        if (fam->license)
            cJSON_AddStringToObject(o, "license", fam->license);
        cJSON_AddStringToObject(o, "text", prog);
        free(prog);
        (*nprograms)++;
    }
    if (gb_store_tuned_foreach(st, cite, &c) != GB_OK && !c.nomem) {
        rc = gb__fail(msg, msglen, GB_EIO, "%s", gb_store_errmsg(st));
        goto done;
    }
    char *tj = c.nomem ? NULL : gb_tuned_to_json(&c.t);
    cJSON *tuned = tj ? cJSON_Parse(tj) : NULL;
    free(tj);
    if (!tuned) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    cJSON_AddItemToObject(root, "tuned", tuned);
    cJSON_AddStringToObject(root, "digest", ZEROS);
    if (!(text = cJSON_Print(root))) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    const size_t len = strlen(text);
    char hex[65], *at = digest_at(text, len);
    if (!at) {
        rc = gb__fail(msg, msglen, GB_EIO, "the bundle's digest could not be placed");
        goto done;
    }
    sha_hex(text, len, hex);
    memcpy(at, hex, 64);
    if (fwrite(text, 1, len, f) != len || fputc('\n', f) == EOF) {
        rc = gb__fail(msg, msglen, GB_EIO, "writing the bundle failed");
        goto done;
    }
    *npoints = count;
done:
    free(exp);
    free(text);
    cJSON_Delete(root);
    cJSON_Delete(c.ids);
    gb_tuned_free(&c.t);
    return rc;
}

int gb_bundle_is(const char *text, size_t len)
{
    static const char key[] = "\"format\"", value[] = "\"" GB_BUNDLE_FORMAT "\"";
    size_t at = 0;
    while (at + sizeof key - 1 <= len && memcmp(text + at, key, sizeof key - 1))
        at++;
    at += sizeof key - 1;
    while (at < len && strchr(" \t\r\n:", text[at]))
        at++;
    return at + sizeof value - 1 <= len && !memcmp(text + at, value, sizeof value - 1);
}

/* root's points as an export document's text. NULL: out of memory. */
static char *export_of(const cJSON *root)
{
    static const char *const keys[] = {"version", "schema_version", "exported", "tool_version",
                                       "points"};
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return NULL;
    cJSON_AddStringToObject(doc, "format", GB_EXPORT_FORMAT);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, keys[i]);
        if (v)
            cJSON_AddItemToObject(doc, keys[i], cJSON_Duplicate(v, 1));
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    return text;
}

static cJSON *bundle_root(const char *text, size_t len, const char *origin, char *msg,
                          size_t msglen)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    const char *fmt = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "format"));
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "bundle_version");
    if (!root || !fmt || strcmp(fmt, GB_BUNDLE_FORMAT)) {
        snprintf(msg, msglen,
                 "%s is not a bundle (its 'format' is not \"%s\"); make one with 'gemmbench "
                 "export --bundle FILE'",
                 origin, GB_BUNDLE_FORMAT);
        cJSON_Delete(root);
        return NULL;
    }
    if (!cJSON_IsNumber(v) || v->valuedouble != GB_BUNDLE_VERSION) {
        snprintf(msg, msglen,
                 "%s: key 'bundle_version' must be %d (a newer gemmbench may read this bundle)",
                 origin, GB_BUNDLE_VERSION);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static void failed(gb_bundle_check_t *c, const char *fmt, ...) GB_PRINTF(2, 3);
static void failed(gb_bundle_check_t *c, const char *fmt, ...)
{
    if (c->failures < sizeof c->failure / sizeof c->failure[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->failure[c->failures], sizeof c->failure[0], fmt, ap);
        va_end(ap);
    }
    c->failures++;
}

/* x and y equal to a relative 1e-9 (both printed and read back as JSON numbers). */
static int same(double x, double y)
{
    return fabs(x - y) <= 1e-9 * fmax(fabs(x), fabs(y));
}

/* One point's own consistency: statistics, GFLOP/s, verdicts, program. */
static void check_point(const gb_point_t *pt, const cJSON *programs, gb_bundle_check_t *c)
{
    char what[160], tag[16];
    const gb_problem_t *p = &pt->problem;
    snprintf(what, sizeof what, "point %s (%s %s %s %zux%zux%zu)", pt->id, pt->kernel,
             gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), p->m, p->n,
             p->k);
    const gb_result_t *r = &pt->result;
    /* Every phase's statistics against its timed calls. */
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        gb_stats_t st;
        gb__stats_compute(r->samples_ms[ph], r->time_ms[ph].n, &st);
        c->checks++;
        if (!same(st.median, r->time_ms[ph].median) || !same(st.mean, r->time_ms[ph].mean))
            failed(c, "%s: its %s median %.9g ms is not its timed calls' (%.9g)", what,
                   gb_phase_name((gb_phase_t)ph), r->time_ms[ph].median, st.median);
    }
    const double med = r->time_ms[gb_timing_phase(pt->timing)].median;
    c->checks += 3;
    const double gflops = med > 0 ? gb_problem_flops(p) / (med * 1e6) : 0;
    if (!same(gflops, r->gflops))
        failed(c, "%s: its GFLOP/s %.9g is not 2*M*N*K over its median call (%.9g)", what,
               r->gflops, gflops);
    const gb_validation_t *v = &r->validation;
    if (v->done) {
        const int within = v->n_over == 0 && v->n_nonfinite == 0 && v->n_canary == 0 &&
                           (v->exact || v->max_ratio <= v->bound_ratio);
        if (within != v->passed)
            failed(c, "%s: its verdict does not follow from its errors (worst %.4g, bound %.4g)",
                   what, v->max_ratio, v->bound_ratio);
        if (v->faithful[0]) {
            const double ratio = gb_faithful_ratio(v);
            if ((ratio <= GB_FAITHFUL_LAMBDA) != !strcmp(v->faithful, "faithful"))
                failed(c,
                       "%s: its faithful verdict does not follow from its errors (%.4g "
                       "times the honest computation's, at most %g)",
                       what, ratio, GB_FAITHFUL_LAMBDA);
        }
    }
    char key[17];
    if (!program_key(pt->source_hash, key))
        return;
    if (!cJSON_GetObjectItemCaseSensitive(programs, key))
        c->unchecked++;
}

int gb_bundle_verify(const char *text, size_t len, const char *origin, gb_bundle_check_t *c,
                     gb_store_import_t **points, char *msg, size_t msglen)
{
    memset(c, 0, sizeof *c);
    if (points)
        *points = NULL;
    cJSON *root = bundle_root(text, len, origin, msg, msglen);
    if (!root)
        return GB_EBADARG;
    int rc = GB_OK;
    char *copy = malloc(len + 1), *exp = NULL;
    gb_store_import_t *im = NULL;
    if (!copy) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    /* The digest, over the file with its own value read as zeros. */
    const char *digest = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(root, "digest"));
    char *at = digest_at(copy, len), hex[65];
    c->checks++;
    if (!digest || !at || strncmp(at, digest, 64)) {
        failed(c, "%s: no digest of 64 hex digits at the end", origin);
    } else {
        memcpy(at, ZEROS, 64);
        size_t n = len;
        while (n && (copy[n - 1] == '\n')) /* as written: the text, then one newline */
            n--;
        if (strcmp(sha_hex(copy, n, hex), digest))
            failed(c, "%s: the digest is not the file's: it was changed after it was made", origin);
    }
    /* The points: each id against its definition, as import checks them. */
    if (!(exp = export_of(root))) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    char why[512];
    c->checks++;
    const int prc = gb_store_import_parse(exp, strlen(exp), origin, &im, why, sizeof why);
    if (prc == GB_ENOMEM) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    const cJSON *programs = cJSON_GetObjectItemCaseSensitive(root, "programs");
    if (prc != GB_OK)
        failed(c, "%s", why);
    c->points = gb_store_import_count(im);
    for (size_t i = 0; i < c->points; i++)
        check_point(gb_store_import_point(im, i), programs, c);
    /* Each program text against its hash. */
    const cJSON *prog;
    cJSON_ArrayForEach(prog, programs)
    {
        const char *t = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(prog, "text"));
        c->programs++;
        c->checks++;
        if (!t || strncmp(sha_hex(t, strlen(t), hex), prog->string, 16))
            failed(c, "%s: the program text under %s is not the text of that hash", origin,
                   prog->string);
    }
    /* Each tuning entry's evidence among the points. */
    const cJSON *e, *ev;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "tuned"))
    {
        c->tuned++;
        c->checks++;
        int found = 0;
        cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(e, "evidence"))
        {
            for (size_t i = 0; i < c->points && !found; i++)
                found = cJSON_IsString(ev) &&
                        !strcmp(gb_store_import_point(im, i)->id, ev->valuestring);
        }
        if (!found)
            failed(c, "%s: a tuning entry cites no point of the bundle", origin);
    }
done:
    if (points && rc == GB_OK)
        *points = im;
    else
        gb_store_import_free(im);
    free(exp);
    free(copy);
    cJSON_Delete(root);
    return rc;
}
