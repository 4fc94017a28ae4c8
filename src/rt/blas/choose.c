/* choose.c: the configuration a call of the library runs: the handle's override
 * (gb_blas_set_kernel) where it has the problem's precision, else the tuning database's choice for
 * the problem on the handle's device; checked against the problem, and said in one line. */
#include <stdio.h>

#include "blas_int.h"

int gb_blas__choose(gb_blas_t *h, const gb_problem_t *p, gb_config_t *cfg, char *chosen, size_t len)
{
    char msg[1024], params[512];
    size_t used = 0;
    const char *why = "set on the handle";
    if (h->has_override && (h->override.family->precisions & (1u << p->precision))) {
        *cfg = h->override;
    } else {
        gb_tuned_choice_t c;
        int rc = gb_tuned_choose(&h->db, h->reg, &h->dev, p, &c, msg, sizeof msg);
        if (rc == GB_OK)
            rc = gb_config_resolve(h->reg, c.kernel, &c.params, cfg, msg, sizeof msg);
        if (rc != GB_OK)
            return gb_blas__fail(rc, "%s", msg);
        snprintf(chosen, len, "%s", c.why);
        why = NULL;
    }
    const int rc = gb_config_check(cfg, &h->dev, p->precision, p, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "kernel '%s': %s", gb_config_name(cfg), msg);
    if (cfg->family->images)
        return gb_blas__fail(GB_EUNSUPPORTED,
                             "kernel '%s' reads its operands as images, which the library does "
                             "not run",
                             gb_config_name(cfg));
    params[0] = '\0';
    for (size_t i = 0; i < cfg->params.count; i++)
        gb__appendf(params, sizeof params, &used, " %s=%ld", cfg->params.name[i],
                    cfg->params.value[i]);
    char tail[256];
    snprintf(tail, sizeof tail, "%s", why ? why : chosen);
    snprintf(chosen, len, "%s%s (%s)", gb_config_name(cfg), params, tail);
    return GB_OK;
}
