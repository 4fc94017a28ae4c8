/* impl.c: implementations by name and in order (kernel families and presets, then the library
 * peers: our own library, those compiled in, and the host's OpenBLAS), what each can do, and the
 * public calls that go through their operations table. */
#include <stdio.h>
#include <string.h>

#include "impl.h"

static const gb_impl_ops_t *const peers[] = {&gb__library_ops,
#ifdef GB_HAVE_CLBLAST
                                             &gb__clblast_ops,
#endif
#ifdef GB_HAVE_CUBLAS
                                             &gb__cublas_ops,   &gb__cublas_tf32_ops,
#endif
                                             &gb__openblas_ops, NULL};

static size_t peer_count(void)
{
    return sizeof peers / sizeof peers[0] - 1;
}

size_t gb_impl_count(const gb_registry_t *reg)
{
    return gb_registry_count(reg) + peer_count();
}

int gb_impl_at(const gb_registry_t *reg, size_t i, gb_impl_t *out)
{
    memset(out, 0, sizeof *out);
    const size_t nfam = gb_registry_count(reg);
    if (i < nfam) {
        out->ops = &gb__kernel_ops;
        return gb_config_resolve(reg, gb_family_name(gb_registry_family(reg, i)), NULL,
                                 &out->config, NULL, 0);
    }
    if (i - nfam >= peer_count())
        return GB_ENOKERNEL;
    out->ops = peers[i - nfam];
    return GB_OK;
}

void gb_impl_kernel(gb_impl_t *out, const gb_config_t *cfg)
{
    memset(out, 0, sizeof *out);
    out->ops = &gb__kernel_ops;
    out->config = *cfg;
}

int gb_impl_resolve(const gb_registry_t *reg, const char *name, const gb_params_t *overrides,
                    gb_impl_t *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    const gb_family_t *f;
    const gb_preset_t *ps;
    if (gb_registry_find(reg, name, &f, &ps) == GB_OK) {
        out->ops = &gb__kernel_ops;
        return gb_config_resolve(reg, name, overrides, &out->config, msg, msglen);
    }
    for (size_t i = 0; i < peer_count(); i++)
        if (!strcmp(peers[i]->name, name)) {
            out->ops = peers[i];
            if (overrides && overrides->count)
                return gb__fail(msg, msglen, GB_EBADPARAM,
                                "library peer '%s' takes no "
                                "parameters (it was given %s)",
                                name, overrides->name[0]);
            return GB_OK;
        }
    return gb__fail(msg, msglen, GB_ENOKERNEL, "unknown kernel '%s'", name);
}

const char *gb_impl_name(const gb_impl_t *im)
{
    return im->config.family ? gb_config_name(&im->config) : im->ops->name;
}

const char *gb_impl_origin(const gb_impl_t *im)
{
    return im->config.family ? gb_family_origin(im->config.family) : "library";
}

const char *gb_impl_description(const gb_impl_t *im)
{
    return im->config.family ? gb_family_description(im->config.family) : im->ops->description;
}

const char *gb_impl_origin_folder(const char *origin, char *buf, size_t len)
{
    /* Built-in families come from kernels/, peers from "library". */
    if (!origin[0] || !strncmp(origin, "kernels/", 8) || !strcmp(origin, "library"))
        return NULL;
    snprintf(buf, len, "%s", origin);
    char *slash = strrchr(buf, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    return buf;
}

unsigned gb_impl_caps(const gb_impl_t *im)
{
    unsigned caps = im->ops->caps;
    if ((caps & GB_CAN_TRAFFIC) && !gb_family_traffic(im->config.family, 0))
        caps &= ~(unsigned)GB_CAN_TRAFFIC;
    return caps;
}

int gb_impl_can(const gb_impl_t *im, unsigned caps)
{
    return (gb_impl_caps(im) & caps) == caps;
}

unsigned gb_impl_precisions(const gb_impl_t *im)
{
    if (!im->config.family)
        return im->ops->precisions;
    /* A kernel's own precisions, and the complex ones its real ones serve by the 1M method. */
    return gb_precisions_1m(im->config.preset ? im->config.preset->precisions
                                              : gb_family_precisions(im->config.family));
}

void gb_impl_native_layout(const gb_impl_t *im, gb_problem_t *p)
{
    if (im->config.family)
        gb_family_native_layout(im->config.family, p);
}

int gb_impl_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                  const gb_problem_t *problem, char *msg, size_t msglen)
{
    char has[16];
    if (!(gb_impl_precisions(im) & (1u << prec)))
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "kernel '%s' has no %s-precision version; choose one of its precisions "
                        "(%s) or a kernel that has %s",
                        gb_impl_name(im), gb_precision_title(prec),
                        gb_precision_mask_text(gb_impl_precisions(im), has, sizeof has),
                        gb_precision_name(prec));
    return im->ops->check(im, dev, prec, problem, msg, msglen);
}

int gb_impl_program_id(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                       char *buf, size_t len, char *msg, size_t msglen)
{
    return im->ops->program_id(im, dev, p, buf, len, msg, msglen);
}

int gb_impl_plan(gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p, char *msg,
                 size_t msglen)
{
    im->plan.planned = 0;
    return im->ops->plan ? im->ops->plan(im, dev, p, msg, msglen) : GB_OK;
}

int gb_impl_prebuild(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *problem, char *msg,
                     size_t msglen)
{
    gb_problem_t p = *problem;
    if (msg && msglen)
        msg[0] = '\0';
    int rc = gb_problem_check(&p, msg, msglen);
    if (rc == GB_OK)
        rc = gb_impl_check(im, ctx->dev, p.precision, &p, msg, msglen);
    if (rc == GB_OK && im->ops->prebuild)
        rc = im->ops->prebuild(ctx, im, &p, msg, msglen);
    return rc;
}
