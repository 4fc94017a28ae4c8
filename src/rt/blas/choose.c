/* choose.c: the configuration a call of the library runs: the handle's override
 * (gb_blas_set_kernel) where it has the problem's precision, else the tuning database's choice for
 * the problem on the handle's device (measured where the handle's mode says: select.c); checked
 * against the problem, and said in one line; an untuned problem appended to the capture file. */
#include <stdio.h>
#include <string.h>

#include "blas_int.h"

/* Appends p to the capture file where the database has no entry for it: none of this device for
 * p's precision, layout and shape class. */
static void capture(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *c)
{
    char cls[32], tag[16];
    if (!h->capture[0])
        return;
    if (c->entry && c->tier == GB_TIER_DEVICE &&
        !strcmp(c->entry->shape_class, gb_shape_class(p->m, p->n, p->k, cls, sizeof cls)) &&
        !strcmp(c->entry->layout, gb_problem_layout_tag(p, tag, sizeof tag)))
        return;
    gb_capture_append(h->capture, &h->dev, p, NULL, 0);
}

int gb_blas__choose(gb_blas_t *h, const gb_problem_t *p, gb_config_t *cfg, gb_blas_choice_t *out)
{
    char msg[1024];
    memset(out, 0, sizeof *out);
    if (h->has_override && (h->override.family->precisions & (1u << p->precision))) {
        *cfg = h->override;
        gb__copy(out->why, sizeof out->why, "set on the handle");
    } else {
        gb_tuned_choice_t c;
        char note[256];
        int rc = gb_blas__select(h, p, &c, note, sizeof note);
        if (rc != GB_OK)
            return rc;
        if ((rc = gb_config_resolve(h->reg, c.kernel, &c.params, cfg, msg, sizeof msg)) != GB_OK)
            return gb_blas__fail(rc, "%s", msg);
        snprintf(out->why, sizeof out->why, "%s%s%s", note, note[0] ? "; " : "", c.why);
        capture(h, p, &c);
    }
    const int rc = gb_config_check(cfg, &h->dev, p->precision, p, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "kernel '%s': %s", gb_config_name(cfg), msg);
    if (cfg->family->images)
        return gb_blas__fail(GB_EUNSUPPORTED,
                             "kernel '%s' reads its operands as images, which the library does "
                             "not run",
                             gb_config_name(cfg));
    gb__copy(out->kernel, sizeof out->kernel, gb_config_name(cfg));
    gb_params_text(&cfg->params, out->params, sizeof out->params);
    return GB_OK;
}

size_t gb_blas__choice_text(const gb_blas_choice_t *c, char *buf, size_t len)
{
    const int n =
        snprintf(buf, len, "%s%s%s (%s)", c->kernel, c->params[0] ? " " : "", c->params, c->why);
    return n > 0 ? (size_t)n : 0;
}
