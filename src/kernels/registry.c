/* registry.c: the set of kernel families: built-in ones embedded at build time, plus those a
 * user drops into --kernel-path DIR, which add to or replace built-ins by family name. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "../core/core.h"
#include "registry.h"

struct gb_registry {
    gb_family_t *families;
    size_t count, cap;
};

#define GB_FILE_MAX (4u << 20) /* bytes of one metadata or source file */

const gb_embedded_file_t *gb__embedded(const char *name)
{
    for (size_t i = 0; i < gb__embedded_count; i++)
        if (!strcmp(gb__embedded_files[i].name, name))
            return &gb__embedded_files[i];
    return NULL;
}

/* Adds fam, replacing a family of the same name; takes ownership. */
static int add_family(gb_registry_t *reg, gb_family_t *fam)
{
    for (size_t i = 0; i < reg->count; i++)
        if (!strcmp(reg->families[i].name, fam->name)) {
            gb__family_free(&reg->families[i]);
            reg->families[i] = *fam;
            return GB_OK;
        }
    if (reg->count == reg->cap) {
        size_t cap = reg->cap ? reg->cap * 2 : 16;
        gb_family_t *grown = realloc(reg->families, cap * sizeof *grown);
        if (!grown)
            return GB_ENOMEM;
        reg->families = grown;
        reg->cap = cap;
    }
    reg->families[reg->count++] = *fam;
    return GB_OK;
}

/* Parses metadata, attaches the source (from dir when given, else built in) and adds it. */
static int load_family(gb_registry_t *reg, const char *json, size_t len, const char *origin,
                       const char *dir, char *msg, size_t msglen)
{
    gb_family_t fam;
    int rc = gb__family_parse(json, len, origin, &fam, msg, msglen);
    if (rc != GB_OK)
        return rc;
    if (strchr(fam.source_file, '/')) {
        rc = gb__fail(msg, msglen, GB_EMETADATA,
                      "%s: key 'source' must be a file name beside the JSON, not a path", origin);
        goto fail;
    }
    char path[4096];
    size_t slen = 0;
    if (dir) {
        snprintf(path, sizeof path, "%s/%s", dir, fam.source_file);
        rc = gb__read_file(path, GB_FILE_MAX, &fam.source, &slen);
        if (rc == GB_ENOMEM)
            goto fail;
        if (rc == GB_EOVERFLOW) {
            rc = gb__fail(msg, msglen, GB_EIO, "%s is over 4 MiB", path);
            goto fail;
        }
    }
    if (!fam.source) {
        const gb_embedded_file_t *e = gb__embedded(fam.source_file);
        if (!e) {
            rc = gb__fail(msg, msglen, GB_ENOSOURCE,
                          "%s: source file '%s' is missing; put it beside the JSON", origin,
                          fam.source_file);
            goto fail;
        }
        if (!(fam.source = gb__memdup(e->data, e->len))) {
            rc = GB_ENOMEM;
            goto fail;
        }
    }
    if (!(fam.origin = gb__memdup(origin, strlen(origin)))) {
        rc = GB_ENOMEM;
        goto fail;
    }
    /* The text gb__program_get compiles: the prelude, a #line, the source. */
    gb_sha256_t s;
    const gb_embedded_file_t *prelude = gb__embedded("prelude.cl");
    gb__sha256_init(&s);
    gb__sha256_update(&s, prelude->data, prelude->len);
    gb__sha256_update(&s, "\n#line 1\n", 9);
    gb__sha256_update(&s, fam.source, strlen(fam.source));
    gb__sha256_hex_final(&s, fam.program_digest);
    if ((rc = add_family(reg, &fam)) == GB_OK)
        return GB_OK;
fail:
    gb__family_free(&fam);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(gb_registry_t *reg, const char *dir, char *msg, size_t msglen)
{
    DIR *d = opendir(dir);
    if (!d)
        return gb__fail(msg, msglen, GB_EIO,
                        "cannot open kernel path '%s'; give an existing directory", dir);
    /* Sorted, so that loading order (and so which duplicate wins) does not depend on readdir. */
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = GB_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                rc = GB_ENOMEM;
                break;
            }
            names = grown;
        }
        if (!(names[n] = gb__memdup(e->d_name, len))) {
            rc = GB_ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (names)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        char path[4096], *json = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc = gb__read_file(path, GB_FILE_MAX, &json, &len);
        if (rc == GB_EIO || rc == GB_EOVERFLOW)
            rc = gb__fail(msg, msglen, GB_EIO, "cannot read '%s' (over 4 MiB or unreadable)", path);
        if (rc == GB_OK)
            rc = load_family(reg, json, len, path, dir, msg, msglen);
        free(json);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int gb_registry_open(gb_registry_t **out, const char *kernel_path, char *msg, size_t msglen)
{
    *out = NULL;
    gb_registry_t *reg = calloc(1, sizeof *reg);
    if (!reg)
        return GB_ENOMEM;
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < gb__embedded_count; i++) {
        const gb_embedded_file_t *e = &gb__embedded_files[i];
        size_t len = strlen(e->name);
        if (len > 5 && !strcmp(e->name + len - 5, ".json")) {
            char origin[256];
            snprintf(origin, sizeof origin, "kernels/%s", e->name);
            rc = load_family(reg, e->data, e->len, origin, NULL, msg, msglen);
        }
    }
    if (rc == GB_OK && kernel_path)
        rc = load_dir(reg, kernel_path, msg, msglen);
    if (rc != GB_OK) {
        gb_registry_close(reg);
        return rc;
    }
    *out = reg;
    return GB_OK;
}

void gb_registry_close(gb_registry_t *reg)
{
    if (!reg)
        return;
    for (size_t i = 0; i < reg->count; i++)
        gb__family_free(&reg->families[i]);
    free(reg->families);
    free(reg);
}

size_t gb_registry_count(const gb_registry_t *reg)
{
    return reg->count;
}

const gb_family_t *gb_registry_family(const gb_registry_t *reg, size_t i)
{
    return i < reg->count ? &reg->families[i] : NULL;
}

int gb_registry_find(const gb_registry_t *reg, const char *name, const gb_family_t **family,
                     const gb_preset_t **preset)
{
    for (int nocase = 0; nocase < 2; nocase++)
        for (size_t i = 0; i < reg->count; i++) {
            const gb_family_t *f = &reg->families[i];
            int (*eq)(const char *, const char *) = nocase ? strcasecmp : strcmp;
            if (!eq(f->name, name)) {
                *family = f;
                *preset = NULL;
                return GB_OK;
            }
            for (size_t j = 0; j < f->npresets; j++)
                if (!eq(f->presets[j].name, name)) {
                    *family = f;
                    *preset = &f->presets[j];
                    return GB_OK;
                }
        }
    return GB_ENOKERNEL;
}

/* ---- the public view of a family ------------------------------------------------------------ */

const char *gb_family_name(const gb_family_t *f)
{
    return f->name;
}

const char *gb_family_description(const gb_family_t *f)
{
    return f->description ? f->description : "";
}

const char *gb_family_origin(const gb_family_t *f)
{
    return f->origin;
}

const char *gb_family_entry(const gb_family_t *f)
{
    return f->entry;
}

unsigned gb_family_precisions(const gb_family_t *f)
{
    return f->precisions;
}

unsigned gb_family_layouts(const gb_family_t *f)
{
    return f->layouts;
}

size_t gb_family_param_count(const gb_family_t *f)
{
    return f->nparams;
}

const gb_param_t *gb_family_param(const gb_family_t *f, size_t i)
{
    return i < f->nparams ? &f->params[i] : NULL;
}

size_t gb_family_preset_count(const gb_family_t *f)
{
    return f->npresets;
}

const gb_preset_t *gb_family_preset(const gb_family_t *f, size_t i)
{
    return i < f->npresets ? &f->presets[i] : NULL;
}

const char *gb_family_constraint(const gb_family_t *f, size_t i)
{
    return i < f->nconstraints ? f->constraints[i] : NULL;
}

const char *gb_family_extension(const gb_family_t *f, size_t i)
{
    return i < f->nextensions ? f->extensions[i] : NULL;
}

const char *gb_family_local_memory(const gb_family_t *f)
{
    return f->local_mem;
}
