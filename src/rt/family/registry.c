/* registry.c: the set of kernel families: the built-in ones, compiled in at build time
 * (gb_meta.c, generated from the JSON files of kernels/ by src/gen/metagen.c), to which the tool adds
 * those a user drops into --kernel-path DIR (registry_load.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt/core/core.h"
#include "registry.h"

const gb_embedded_file_t *gb__embedded(const char *name)
{
    for (size_t i = 0; i < gb__embedded_count; i++)
        if (!strcmp(gb__embedded_files[i].name, name))
            return &gb__embedded_files[i];
    return NULL;
}

/* Adds fam, replacing a family of the same name; takes ownership. */
int gb__registry_add(gb_registry_t *reg, gb_family_t *fam)
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

int gb__registry_builtin(gb_registry_t **out)
{
    *out = NULL;
    gb_registry_t *reg = calloc(1, sizeof *reg);
    if (!reg)
        return GB_ENOMEM;
    for (size_t i = 0; i < gb__builtin_family_count; i++) {
        gb_family_t f = gb__builtin_families[i];
        const gb_embedded_file_t *e = gb__embedded(f.source_file);
        f.source = e ? (char *)e->data : NULL; /* metagen checked that it is there */
        if (!f.source || gb__registry_add(reg, &f) != GB_OK) {
            gb_registry_close(reg);
            return GB_ENOMEM;
        }
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
    /* Exact, then any case; at each, families before presets: a family of --kernel-path named
     * like a built-in preset (a kernel of the GEMMbench paper, imported) is the one meant. */
    for (int nocase = 0; nocase < 2; nocase++) {
        int (*eq)(const char *, const char *) = nocase ? strcasecmp : strcmp;
        for (size_t i = 0; i < reg->count; i++)
            if (!eq(reg->families[i].name, name)) {
                *family = &reg->families[i];
                *preset = NULL;
                return GB_OK;
            }
        for (size_t i = 0; i < reg->count; i++)
            for (size_t j = 0; j < reg->families[i].npresets; j++)
                if (!eq(reg->families[i].presets[j].name, name)) {
                    *family = &reg->families[i];
                    *preset = &reg->families[i].presets[j];
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

unsigned gb_precisions_1m(unsigned mask)
{
    if (mask & (1u << GB_PREC_S))
        mask |= 1u << GB_PREC_C;
    if (mask & (1u << GB_PREC_D))
        mask |= 1u << GB_PREC_Z;
    return mask;
}

unsigned gb_family_layouts(const gb_family_t *f)
{
    return f->layouts;
}

const char *gb_family_layout_where(const gb_family_t *f, unsigned i)
{
    return i < 8 ? f->layout_where[i] : NULL;
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

const char *gb_family_traffic(const gb_family_t *f, int write)
{
    return f->traffic[write != 0];
}
