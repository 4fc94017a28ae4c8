/* kernels.c: whether a tuned entry's kernel and parameters are this build's (or those of the
 * families of --kernel-path): what the library asks of a tuning file's lines and `tuned import`
 * of a file's entries, with the nearest name where one is misspelt, as kernel metadata is
 * checked. Apart from entries.c, which the build-time generator links without the registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "select.h"

/* The nearest of the registry's family and preset names to name (NULL: none near). */
static const char *nearest_kernel(const gb_registry_t *reg, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; i < gb_registry_count(reg); i++)
        n += 1 + gb_family_preset_count(gb_registry_family(reg, i));
    const char **known = malloc((n ? n : 1) * sizeof *known);
    if (!known)
        return NULL;
    n = 0;
    for (size_t i = 0; i < gb_registry_count(reg); i++) {
        const gb_family_t *f = gb_registry_family(reg, i);
        known[n++] = gb_family_name(f);
        for (size_t j = 0; j < gb_family_preset_count(f); j++)
            known[n++] = gb_family_preset(f, j)->name;
    }
    const char *near = gb__did_you_mean(name, known, n);
    free(known);
    return near;
}

/* The nearest of f's parameter names to name (NULL: none near). */
static const char *nearest_param(const gb_family_t *f, const char *name)
{
    const char *known[GB_MAX_PARAMS * 2];
    size_t n = 0;
    for (size_t i = 0; i < gb_family_param_count(f) && n < sizeof known / sizeof known[0]; i++)
        known[n++] = gb_family_param(f, i)->name;
    return gb__did_you_mean(name, known, n);
}

int gb_tuned_entry_check_kernel(const gb_tuned_entry_t *e, const gb_registry_t *reg, char *msg,
                                size_t msglen)
{
    const gb_family_t *f;
    const gb_preset_t *pre;
    char name[200];
    gb__printable(e->kernel, name, sizeof name);
    if (gb_registry_find(reg, e->kernel, &f, &pre) != GB_OK) {
        const char *near = nearest_kernel(reg, e->kernel);
        if (near)
            return gb__fail(msg, msglen, GB_ENOKERNEL,
                            "unknown kernel '%s'; did you mean '%s'? ('gemmbench kernels' lists "
                            "them)",
                            name, near);
        return gb__fail(msg, msglen, GB_ENOKERNEL,
                        "unknown kernel '%s' ('gemmbench kernels' lists them)", name);
    }
    /* Its own precisions, and the complex ones its real ones serve by the 1M method. */
    const unsigned precisions = gb_precisions_1m(pre ? pre->precisions : gb_family_precisions(f));
    if ((unsigned)e->precision >= GB_PREC_COUNT || !(precisions & (1u << e->precision)))
        return gb__fail(msg, msglen, GB_EBADPARAM, "kernel '%s' has no precision %s", name,
                        (unsigned)e->precision < GB_PREC_COUNT ? gb_precision_name(e->precision)
                                                               : "?");
    for (size_t i = 0; i < e->params.count && i < GB_MAX_PARAMS; i++) {
        int known = 0;
        for (size_t j = 0; j < gb_family_param_count(f) && !known; j++)
            known = !strcmp(gb_family_param(f, j)->name, e->params.name[i]);
        if (known)
            continue;
        const char *near = nearest_param(f, e->params.name[i]);
        return gb__fail(msg, msglen, GB_EBADPARAM, "kernel '%s' has no parameter %s%s%s%s", name,
                        e->params.name[i], near ? "; did you mean " : "", near ? near : "",
                        near ? "?" : "");
    }
    gb_config_t cfg;
    return gb_config_resolve(reg, e->kernel, &e->params, &cfg, msg, msglen);
}
