/* import_paper.c: kernels described in the GEMMbench paper's metadata form ({"name", "file",
 * "type", "transA", "transB", "dj", "di"}, an object or a list of them) made into kernel
 * families of ours (docs/kernel-metadata.md, "Kernels in the GEMMbench paper's form"): the
 * paper's launcher called the kernel "gemm" with the arguments (A, B, C, alpha, beta, n) over
 * row-major matrices of order n, on a grid of n/dj x n/di work-items. Each family's metadata is
 * checked by our own parser, and everything is checked before the first file is written. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt/core/core.h"
#include "rt/family/registry.h"
#include "family_int.h"

#define PAPER_MAX_JSON (1u << 20)   /* bytes of the paper's metadata file */
#define PAPER_MAX_SOURCE (4u << 20) /* bytes of a kernel source, as --kernel-path reads them */
#define PAPER_MAX_ARGS 16
#define PAPER_MAX_OPTS 8

/* The paper's argument names, and ours they stand for. */
static const char *const paper_args[][2] = {
    {"A", "A"}, {"B", "B"}, {"C", "C"},     {"alpha", "alpha"}, {"beta", "beta"}, {"n", "N"},
    {"m", "M"}, {"k", "K"}, {"lda", "lda"}, {"ldb", "ldb"},     {"ldc", "ldc"},
};

/* One kernel of the paper's metadata, checked, with what is written for it. */
typedef struct entry {
    gb_paper_kernel_t out;
    char file[1024];  /* the source as the metadata names it, relative to its folder */
    char src[5200];   /* that source's path */
    const char *base; /* its last component: the source's name beside our metadata */
    char entry[64];   /* the kernel function's name */
    const char *args[PAPER_MAX_ARGS];
    size_t nargs;
    char opt_name[PAPER_MAX_OPTS][GB_NAME_MAX];
    long opt_value[PAPER_MAX_OPTS];
    size_t nopts;
    char *source; /* the kernel's text (owned) */
    size_t slen;
    char *json; /* our metadata (owned, cJSON's allocator) */
} entry_t;

typedef struct ctx {
    const char *path; /* the paper's metadata file */
    char where[160];  /* "entry 2 ('X')" within a list, else "" */
    char *msg;
    size_t msglen;
} ctx_t;

static int bad(ctx_t *c, const char *key, const char *why)
{
    return gb__fail(c->msg, c->msglen, GB_EMETADATA, "%s: %s%skey '%s' %s", c->path, c->where,
                    c->where[0] ? ": " : "", key, why);
}

static int bad_name(const char *s)
{
    if (!s[0] || s[0] == '.' || strlen(s) >= GB_NAME_MAX)
        return 1;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' || *p == '-' || *p == '.' || (*p >= '0' && *p <= '9') ||
              (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            return 1;
    return 0;
}

static int is_ident(const char *s)
{
    if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
        return 0;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z')))
            return 0;
    return 1;
}

static int string_of(ctx_t *c, const cJSON *o, const char *key, int required, char *out, size_t len)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v)
        return required ? bad(c, key, "is missing; the paper's form needs it") : GB_OK;
    if (!cJSON_IsString(v) || !v->valuestring[0] || strlen(v->valuestring) >= len)
        return bad(c, key, "must be a non-empty string");
    snprintf(out, len, "%s", v->valuestring);
    return GB_OK;
}

/* "type": S or D (the paper's), s, d, float, double; complex types are refused. */
static int type_of(ctx_t *c, const cJSON *o, gb_precision_t *prec)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "type");
    if (!v)
        return bad(c, "type", "is missing; give \"S\" (float) or \"D\" (double)");
    const char *s = cJSON_IsString(v) ? v->valuestring : "";
    if (!strcmp(s, "S") || !strcmp(s, "s") || !strcmp(s, "float") || !strcmp(s, "single"))
        *prec = GB_PREC_S;
    else if (!strcmp(s, "D") || !strcmp(s, "d") || !strcmp(s, "double"))
        *prec = GB_PREC_D;
    else if (!strcmp(s, "C") || !strcmp(s, "Z"))
        return bad(c, "type", "is complex, which gemmbench does not run; give \"S\" or \"D\"");
    else
        return bad(c, "type", "must be \"S\" (float) or \"D\" (double)");
    return GB_OK;
}

/* "transA", "transB": "N"/"T" (the paper's), 0/1 or false/true; "N" when absent, as the
 * paper's launcher took it. */
static int trans_of(ctx_t *c, const cJSON *o, const char *key, int *t)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *t = 0;
    if (!v)
        return GB_OK;
    if (cJSON_IsString(v) && (!strcmp(v->valuestring, "N") || !strcmp(v->valuestring, "n")))
        *t = 0;
    else if (cJSON_IsString(v) && (!strcmp(v->valuestring, "T") || !strcmp(v->valuestring, "t")))
        *t = 1;
    else if (cJSON_IsBool(v))
        *t = cJSON_IsTrue(v);
    else if (cJSON_IsNumber(v) && (v->valuedouble == 0 || v->valuedouble == 1))
        *t = v->valuedouble == 1;
    else
        return bad(c, key, "must be \"N\" or \"T\" (or 0 or 1)");
    return GB_OK;
}

/* "dj", "di": the elements of C a work-item computes along j (columns) and i (rows); 1 when
 * absent, as the paper's launcher took it. */
static int block_of(ctx_t *c, const cJSON *o, const char *key, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    *out = 1;
    if (!v)
        return GB_OK;
    if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long)v->valuedouble ||
        v->valuedouble < 1 || v->valuedouble > 4096)
        return bad(c, key, "must be a positive integer (at most 4096)");
    *out = (long)v->valuedouble;
    return GB_OK;
}

/* "signature": the kernel's arguments in order, in the paper's names; the launcher's
 * (A, B, C, alpha, beta, n) when absent. */
static int signature_of(ctx_t *c, const cJSON *o, entry_t *e)
{
    static const char *const launcher[] = {"A", "B", "C", "alpha", "beta", "n"};
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "signature"), *a;
    const char *names[PAPER_MAX_ARGS];
    size_t n = 0;
    if (!v) {
        for (; n < 6; n++)
            names[n] = launcher[n];
    } else {
        if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) < 1 ||
            cJSON_GetArraySize(v) > PAPER_MAX_ARGS)
            return bad(c, "signature", "must be an array of 1 to 16 argument names");
        cJSON_ArrayForEach(a, v)
        {
            if (!cJSON_IsString(a))
                return bad(c, "signature", "must hold only strings");
            names[n++] = a->valuestring;
        }
    }
    unsigned seen = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < sizeof paper_args / sizeof paper_args[0] && strcmp(names[i], paper_args[j][0]))
            j++;
        if (j == sizeof paper_args / sizeof paper_args[0]) {
            char why[160];
            snprintf(why, sizeof why,
                     "names '%.40s', which is not one of A B C alpha beta n m k lda ldb ldc",
                     names[i]);
            return bad(c, "signature", why);
        }
        if (seen & (1u << j))
            return bad(c, "signature", "names an argument twice");
        seen |= 1u << j;
        e->args[e->nargs++] = paper_args[j][1];
    }
    if ((seen & 7u) != 7u)
        return bad(c, "signature", "must name the matrices A, B and C");
    if (!(seen & (7u << 5)))
        return bad(c, "signature", "must name the order n (or m, n and k)");
    return GB_OK;
}

/* "opts": the build options, of which -DNAME=INTEGER (or -D NAME=INTEGER, -DNAME for 1) are
 * taken as parameters fixed at that value: other options could trade correctness for speed
 * without the record saying so. */
static int opts_of(ctx_t *c, const cJSON *o, entry_t *e)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "opts");
    if (!v)
        return GB_OK;
    if (!cJSON_IsString(v) || strlen(v->valuestring) > 1000)
        return bad(c, "opts", "must be a string of build options");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", v->valuestring);
    for (char *save = NULL, *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (strncmp(t, "-D", 2))
            return bad(c, "opts",
                       "holds an option other than -DNAME=INTEGER; only those are "
                       "taken (as fixed parameters)");
        char *def = t[2] ? t + 2 : strtok_r(NULL, " \t", &save);
        if (!def || e->nopts == PAPER_MAX_OPTS)
            return bad(c, "opts", "must give at most 8 definitions -DNAME=INTEGER");
        char *eq = strchr(def, '='), *end = NULL;
        long val = 1;
        if (eq) {
            *eq = '\0';
            errno = 0;
            val = strtol(eq + 1, &end, 10);
            if (end == eq + 1 || *end || errno)
                return bad(c, "opts", "defines a value that is not an integer");
        }
        if (!is_ident(def) || strlen(def) >= GB_NAME_MAX || !strcmp(def, "LX") ||
            !strcmp(def, "LY"))
            return bad(c, "opts",
                       "defines a name that is not an identifier, or LX or LY (the "
                       "work-group size, set with --lws)");
        snprintf(e->opt_name[e->nopts], GB_NAME_MAX, "%s", def);
        e->opt_value[e->nopts++] = val;
    }
    return GB_OK;
}

/* Whether text has name as a whole word followed by '(' (after blanks): the kernel's
 * definition, or a call of it. */
static int has_function(const char *text, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        const char before = p == text ? ' ' : p[-1];
        const char *q = p + n;
        while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r')
            q++;
        if (*q == '(' && !(before == '_' || (before >= '0' && before <= '9') ||
                           (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z')))
            return 1;
    }
    return 0;
}

/* Reads and checks one object of the paper's form into e, its source from folder dir. */
static int read_entry(ctx_t *c, const cJSON *o, const char *dir, entry_t *e)
{
    if (!cJSON_IsObject(o))
        return gb__fail(c->msg, c->msglen, GB_EMETADATA,
                        "%s: %sthe paper's metadata is an object {\"name\", \"file\", \"type\", "
                        "...} or a list of them",
                        c->path, c->where);
    gb_family_ctx_t fc = {c->path, c->msg, c->msglen};
    int rc = gb__family_keys(
        &fc, o, "",
        KEYS("name", "file", "type", "transA", "transB", "dj", "di", "opts", "entry", "signature"));
    if (rc != GB_OK)
        return rc;
    if ((rc = string_of(c, o, "name", 1, e->out.name, sizeof e->out.name)) ||
        (rc = string_of(c, o, "file", 1, e->file, sizeof e->file)) ||
        (rc = type_of(c, o, &e->out.precision)) || (rc = trans_of(c, o, "transA", &e->out.ta)) ||
        (rc = trans_of(c, o, "transB", &e->out.tb)) || (rc = block_of(c, o, "dj", &e->out.dj)) ||
        (rc = block_of(c, o, "di", &e->out.di)) || (rc = signature_of(c, o, e)) ||
        (rc = opts_of(c, o, e)))
        return rc;
    snprintf(e->entry, sizeof e->entry, "gemm"); /* what the paper's launcher called */
    if ((rc = string_of(c, o, "entry", 0, e->entry, sizeof e->entry)))
        return rc;
    if (bad_name(e->out.name))
        return bad(c, "name",
                   "must be under 48 letters, digits, '_', '-' or '.' (it names the "
                   "kernel and its metadata file)");
    if (!is_ident(e->entry))
        return bad(c, "entry", "must be the kernel function's name (an identifier)");
    const char *slash = strrchr(e->file, '/');
    e->base = slash ? slash + 1 : e->file;
    if (!e->base[0] || !strcmp(e->base, ".") || !strcmp(e->base, ".."))
        return bad(c, "file", "must name the kernel's .cl file");
    snprintf(e->src, sizeof e->src, "%s%s%s", e->file[0] == '/' ? "" : dir,
             e->file[0] == '/' ? "" : "/", e->file);
    rc = gb__read_file(e->src, PAPER_MAX_SOURCE, &e->source, &e->slen);
    if (rc == GB_ENOMEM)
        return rc;
    if (rc != GB_OK)
        return gb__fail(c->msg, c->msglen, GB_ENOSOURCE,
                        "%s: %s%skernel source '%s' cannot be read (missing, or over 4 MiB); put "
                        "it where key 'file' says, beside the metadata",
                        c->path, c->where, c->where[0] ? ": " : "", e->src);
    if (!has_function(e->source, e->entry))
        return gb__fail(c->msg, c->msglen, GB_EMETADATA,
                        "%s: %s%s'%s' has no kernel '%s'; name it with key \"entry\"", c->path,
                        c->where, c->where[0] ? ": " : "", e->src, e->entry);
    snprintf(e->out.layout, sizeof e->out.layout, "row-%c%c", e->out.ta ? 'T' : 'N',
             e->out.tb ? 'T' : 'N');
    return GB_OK;
}

static cJSON *strings(const char *const *s, size_t n)
{
    return cJSON_CreateStringArray(s, (int)n);
}

/* Our metadata for e (docs/kernel-metadata.md): the paper's grid, n/dj x n/di, with no
 * rounding up (the paper's kernels do not check bounds, so the sizes and the work-group must
 * divide it), square problems unless the kernel is given m, n and k. */
static char *family_text(const entry_t *e, const char *path)
{
    char g0[64], g1[64], desc[600], lx[96], ly[96], split[96];
    int sizes = 0;
    for (size_t i = 0; i < e->nargs; i++)
        sizes += !strcmp(e->args[i], "M") || !strcmp(e->args[i], "N") || !strcmp(e->args[i], "K");
    snprintf(g0, sizeof g0, "N / %ld", e->out.dj);
    snprintf(g1, sizeof g1, "M / %ld", e->out.di);
    snprintf(split, sizeof split, "N %% %ld == 0 && M %% %ld == 0", e->out.dj, e->out.di);
    /* LX = LY = 0 (--lws 0,0): the driver chooses a size that divides the grid. */
    snprintf(lx, sizeof lx, "(N / %ld) %% max(LX, 1) == 0", e->out.dj);
    snprintf(ly, sizeof ly, "(M / %ld) %% max(LY, 1) == 0", e->out.di);
    snprintf(desc, sizeof desc,
             "GEMMbench-form kernel imported from %.300s: each work-item computes %ld x %ld "
             "elements of C (dj x di)%s.",
             strrchr(path, '/') ? strrchr(path, '/') + 1 : path, e->out.dj, e->out.di,
             sizes < 3 ? "; square matrices of order n" : "");
    const char *cons[4] = {split, lx, ly, "M == N && N == K"};
    const char *prec = e->out.precision == GB_PREC_D ? "d" : "s", *lay = e->out.layout;
    const char *local[2] = {"LX", "LY"}, *global[2] = {g0, g1};
    cJSON *o = cJSON_CreateObject(), *params, *p;
    if (!o)
        return NULL;
    cJSON_AddStringToObject(o, "family", e->out.name);
    cJSON_AddStringToObject(o, "description", desc);
    cJSON_AddStringToObject(o, "source", e->base);
    cJSON_AddStringToObject(o, "entry", e->entry);
    cJSON_AddItemToObject(o, "precisions", strings(&prec, 1));
    cJSON_AddItemToObject(o, "layouts", strings(&lay, 1));
    cJSON_AddItemToObject(o, "args", strings(e->args, e->nargs));
    cJSON_AddItemToObject(o, "global", strings(global, 2));
    cJSON_AddItemToObject(o, "local", strings(local, 2));
    params = cJSON_AddObjectToObject(o, "parameters");
    static const char *const docs[2] = {"work-group size along j (C columns / dj)",
                                        "work-group size along i (C rows / di)"};
    for (int i = 0; params && i < 2; i++) {
        /* The paper's work-group (explore-f-n); --lws J,I sets it, 0,0 leaves it to the driver
         * as the paper's launcher did when it was not given. */
        const int range[2] = {1, 1024};
        p = cJSON_AddObjectToObject(params, local[i]);
        cJSON_AddNumberToObject(p, "default", 8);
        cJSON_AddItemToObject(p, "range", cJSON_CreateIntArray(range, 2));
        cJSON_AddStringToObject(p, "doc", docs[i]);
    }
    for (size_t i = 0; params && i < e->nopts; i++) {
        const double v = (double)e->opt_value[i];
        p = cJSON_AddObjectToObject(params, e->opt_name[i]);
        cJSON_AddNumberToObject(p, "default", v);
        cJSON_AddItemToObject(p, "values", cJSON_CreateDoubleArray(&v, 1));
        cJSON_AddStringToObject(p, "doc", "from the paper's build options (opts)");
    }
    cJSON_AddItemToObject(o, "constraints", strings(cons, sizes < 3 ? 4 : 3));
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    return text;
}

/* Whether two paths name one file (or folder). */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* Whether the file at path holds exactly text. */
static int holds(const char *path, const char *text, size_t len)
{
    char *have = NULL;
    size_t hlen = 0;
    const int same = gb__read_file(path, PAPER_MAX_SOURCE, &have, &hlen) == GB_OK && hlen == len &&
                     !memcmp(have, text, len);
    free(have);
    return same;
}

/* Writes text to path through a temporary file renamed into place. */
static int write_file(const char *path, const char *text, size_t len, char *msg, size_t msglen)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(text, 1, len, f) == len;
    ok = (f && fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) == 0)
        return GB_OK;
    remove(tmp);
    return gb__fail(msg, msglen, GB_EIO, "cannot write '%s' (%s); check the folder", path,
                    strerror(errno));
}

/* The output folder's checks, for every entry before anything is written: no metadata file
 * there already, no other source of the same name, and not the paper's own folder. */
static int check_out(ctx_t *c, const char *dir, const char *in_dir, entry_t *e, size_t n)
{
    if (same_file(dir, in_dir))
        return gb__fail(c->msg, c->msglen, GB_EBADARG,
                        "the output folder '%s' holds the paper's metadata, which --kernel-path "
                        "would read as ours; choose another folder",
                        dir);
    for (size_t i = 0; i < n; i++) {
        char path[4200];
        struct stat sb;
        snprintf(e[i].out.json, sizeof e[i].out.json, "%s/%s.json", dir, e[i].out.name);
        if (stat(e[i].out.json, &sb) == 0)
            return gb__fail(c->msg, c->msglen, GB_EBADARG,
                            "'%s' exists; remove it or choose another output folder",
                            e[i].out.json);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(e[i].out.name, e[j].out.name))
                return gb__fail(c->msg, c->msglen, GB_EMETADATA,
                                "%s: two kernels are named '%s'; give each its own name", c->path,
                                e[i].out.name);
            else if (!strcmp(e[i].base, e[j].base) &&
                     (e[i].slen != e[j].slen || memcmp(e[i].source, e[j].source, e[i].slen)))
                return gb__fail(c->msg, c->msglen, GB_EMETADATA,
                                "%s: two different sources are named '%s'; rename one", c->path,
                                e[i].base);
        snprintf(path, sizeof path, "%s/%s", dir, e[i].base);
        if (stat(path, &sb) == 0 && !same_file(path, e[i].src) &&
            !holds(path, e[i].source, e[i].slen))
            return gb__fail(c->msg, c->msglen, GB_EBADARG,
                            "'%s' exists and differs from '%s'; remove it or choose another "
                            "output folder",
                            path, e[i].src);
    }
    return GB_OK;
}

static void entries_free(entry_t *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++) {
        free(e[i].source);
        cJSON_free(e[i].json);
    }
    free(e);
}

/* Reads the paper's file into its entries, each checked and translated. */
static int read_entries(ctx_t *c, const char *text, size_t len, const char *in_dir, entry_t **out,
                        size_t *count)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root)
        return gb__fail(c->msg, c->msglen, GB_EMETADATA,
                        "%s: not valid JSON near offset %ld; fix the file", c->path,
                        end ? (long)(end - text) : 0L);
    const int list = cJSON_IsArray(root);
    const size_t n = list ? (size_t)cJSON_GetArraySize(root) : 1;
    entry_t *e = calloc(n ? n : 1, sizeof *e);
    int rc = !e  ? GB_ENOMEM
             : n ? GB_OK
                 : gb__fail(c->msg, c->msglen, GB_EMETADATA,
                            "%s: the list is empty; give one object per kernel", c->path);
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        const cJSON *o = list ? cJSON_GetArrayItem(root, (int)i) : root;
        const cJSON *name = cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, "name") : NULL;
        if (list)
            snprintf(c->where, sizeof c->where, "entry %zu%s%.60s%s", i + 1,
                     cJSON_IsString(name) ? " ('" : "",
                     cJSON_IsString(name) ? name->valuestring : "",
                     cJSON_IsString(name) ? "')" : "");
        rc = read_entry(c, o, in_dir, &e[i]);
        if (rc == GB_OK && !(e[i].json = family_text(&e[i], c->path)))
            rc = GB_ENOMEM;
        if (rc != GB_OK)
            break;
        /* Our parser has the last word on what was made. */
        gb_family_t fam;
        char origin[300];
        snprintf(origin, sizeof origin, "the metadata made for '%s'", e[i].out.name);
        rc = gb__family_parse_at(e[i].json, strlen(e[i].json), origin, NULL, &fam, c->msg,
                                 c->msglen);
        if (rc == GB_OK)
            gb__family_free(&fam);
    }
    cJSON_Delete(root);
    if (rc != GB_OK) {
        entries_free(e, n);
        return rc;
    }
    *out = e;
    *count = n;
    return GB_OK;
}

int gb_paper_import(const char *path, const char *dir, gb_paper_kernel_t **out, size_t *count,
                    char *msg, size_t msglen)
{
    *out = NULL;
    *count = 0;
    ctx_t c = {path, "", msg, msglen};
    char *text = NULL, in_dir[4096];
    size_t len = 0, n = 0;
    int rc = gb__read_file(path, PAPER_MAX_JSON, &text, &len);
    if (rc == GB_ENOMEM)
        return rc;
    if (rc != GB_OK)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "cannot read '%s' (missing, or over 1 MiB); give the paper's metadata "
                        "file",
                        path);
    /* The folder the paper's "file" is relative to. */
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(in_dir, sizeof in_dir, ".");
    else if (slash == path)
        snprintf(in_dir, sizeof in_dir, "/");
    else
        snprintf(in_dir, sizeof in_dir, "%.*s", (int)(slash - path), path);
    entry_t *e = NULL;
    rc = read_entries(&c, text, len, in_dir, &e, &n);
    free(text);
    if (rc == GB_OK)
        rc = check_out(&c, dir, in_dir, e, n);
    if (rc == GB_OK && mkdir(dir, 0777) != 0 && errno != EEXIST)
        rc =
            gb__fail(msg, msglen, GB_EIO, "cannot make the folder '%s' (%s)", dir, strerror(errno));
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        char src[4200];
        snprintf(src, sizeof src, "%s/%s", dir, e[i].base);
        if (!same_file(src, e[i].src) && !holds(src, e[i].source, e[i].slen))
            rc = write_file(src, e[i].source, e[i].slen, msg, msglen);
        if (rc == GB_OK)
            rc = write_file(e[i].out.json, e[i].json, strlen(e[i].json), msg, msglen);
    }
    gb_paper_kernel_t *k = rc == GB_OK ? calloc(n, sizeof *k) : NULL;
    if (rc == GB_OK && !k)
        rc = GB_ENOMEM;
    for (size_t i = 0; k && i < n; i++)
        k[i] = e[i].out;
    entries_free(e, n);
    if (rc != GB_OK)
        return rc;
    *out = k;
    *count = n;
    return GB_OK;
}
