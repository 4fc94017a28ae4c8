/* family_free.c: releasing a family's metadata (registry.h). */
#include <stdlib.h>
#include <string.h>

#include "registry.h"

static void free_strings(char **s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        free(s[i]);
    free(s);
}

void gb__family_free(gb_family_t *f)
{
    if (!f)
        return;
    if (f->builtin) { /* compiled in: nothing of it was allocated */
        memset(f, 0, sizeof *f);
        return;
    }
    free(f->name);
    free(f->description);
    free(f->author);
    free(f->license);
    free(f->origin);
    free(f->source_file);
    free(f->entry);
    free(f->source);
    free_strings(f->args, f->nargs);
    for (int i = 0; i < 2; i++) {
        free(f->global[i]);
        free(f->local[i]);
        for (int s = 0; s < GB_NSIDES; s++) {
            free(f->side[s].global[i]);
            free(f->side[s].local[i]);
        }
    }
    for (int i = 0; i < 3; i++) {
        free(f->multiple[i]);
        free(f->ld_multiple[i]);
        free(f->ld_avoid[i]);
    }
    free_strings(f->constraints, f->nconstraints);
    free_strings(f->extensions, f->nextensions);
    free(f->local_mem);
    free(f->nv_max_registers);
    free(f->nv_min_groups);
    free(f->expand_b);
    free(f->expand_b_where);
    free(f->ptx_target);
    free(f->ptx_unless);
    for (int s = 0; s < GB_NSIDES; s++) {
        free(f->side[s].entry);
        free(f->side[s].panels);
    }
    free(f->workspace);
    free(f->counters);
    free(f->transposed_c);
    for (int i = 0; i < 8; i++)
        free(f->layout_where[i]);
    free(f->launch_factor);
    free_strings(f->unsplit_names, f->nunsplit);
    free(f->unsplit_values);
    free(f->traffic[0]);
    free(f->traffic[1]);
    for (size_t i = 0; i < f->nlets; i++) {
        free(f->let_names[i]);
        free(f->let_exprs[i]);
    }
    free(f->let_names);
    free(f->let_exprs);
    for (size_t i = 0; f->params && i < f->nparams; i++) {
        free(f->params[i].name);
        free(f->params[i].doc);
        free(f->params[i].values);
    }
    free(f->params);
    for (size_t i = 0; f->presets && i < f->npresets; i++) {
        gb_preset_t *p = &f->presets[i];
        free(p->name);
        free(p->doc);
        free_strings(p->set_names, p->nset);
        free(p->set_values);
    }
    free(f->presets);
    memset(f, 0, sizeof *f);
}
