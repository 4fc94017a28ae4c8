/* config.c: a kernel family with its parameters valued, and the checks that decide whether it
 * can run a problem on a device (before anything is launched). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "expr.h"
#include "registry.h"

static const gb_param_t *find_param(const gb_family_t *f, const char *name)
{
    for (size_t i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return &f->params[i];
    return NULL;
}

static void describe_allowed(const gb_param_t *p, char *buf, size_t len)
{
    if (!p->values) {
        snprintf(buf, len, "%ld..%ld", p->lo, p->hi);
        return;
    }
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < p->nvalues && used + 24 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%ld", i ? "," : "", p->values[i]);
}

int gb_config_resolve(const gb_registry_t *reg, const char *kernel, const gb_params_t *overrides,
                      gb_config_t *out, char *msg, size_t msglen)
{
    memset(out, 0, sizeof *out);
    if (gb_registry_find(reg, kernel, &out->family, &out->preset) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOKERNEL, "unknown kernel '%s'", kernel);
    const gb_family_t *f = out->family;
    for (size_t i = 0; i < f->nparams; i++)
        gb_params_set(&out->params, f->params[i].name, f->params[i].def);
    for (size_t i = 0; out->preset && i < out->preset->nset; i++)
        gb_params_set(&out->params, out->preset->set_names[i], out->preset->set_values[i]);
    for (size_t i = 0; overrides && i < overrides->count; i++) {
        const gb_param_t *p = find_param(f, overrides->name[i]);
        if (!p)
            return gb__fail(msg, msglen, GB_EBADPARAM, "kernel '%s' has no parameter %s", kernel,
                            overrides->name[i]);
        gb_params_set(&out->params, p->name, overrides->value[i]);
    }
    for (size_t i = 0; i < out->params.count; i++) {
        const gb_param_t *p = find_param(f, out->params.name[i]);
        if (!gb__param_allowed(p, out->params.value[i])) {
            char vals[160];
            describe_allowed(p, vals, sizeof vals);
            return gb__fail(msg, msglen, GB_EBADPARAM,
                            "parameter %s=%ld of kernel '%s' is not allowed; use one of %s",
                            p->name, out->params.value[i], kernel, vals);
        }
    }
    return GB_OK;
}

/* Whether the family's work-group size is only a launch size, which the driver may choose: its
 * local size is the parameters LX and LY themselves, and its source never reads them (outside
 * the preprocessor lines that give them defaults). A kernel that sizes local memory, a
 * cooperative copy or reqd_work_group_size by them needs the size it names. */
static int lws_free(const gb_family_t *f)
{
    if (!f->local[0] || strcmp(f->local[0], "LX") != 0 || strcmp(f->local[1], "LY") != 0)
        return 0;
    for (const char *line = f->source; line && *line;) {
        const size_t n = strcspn(line, "\n");
        const char *p = line + strspn(line, " \t");
        const int directive = *p == '#';
        for (const char *q = line; q + 2 <= line + n; q++) {
            const int word = q[0] == 'L' && (q[1] == 'X' || q[1] == 'Y') &&
                             (q == line || !(isalnum((unsigned char)q[-1]) || q[-1] == '_')) &&
                             (q + 2 == line + n || !(isalnum((unsigned char)q[2]) || q[2] == '_'));
            if (word && !directive)
                return 0;
        }
        line += n + (line[n] == '\n');
    }
    return 1;
}

int gb_config_set_lws(gb_config_t *cfg, size_t lws0, size_t lws1, char *msg, size_t msglen)
{
    const gb_param_t *x = find_param(cfg->family, "LX"), *y = find_param(cfg->family, "LY");
    if (!x || !y)
        return gb__fail(
            msg, msglen, GB_EBADLWS,
            "kernel '%s' fixes its own work-group size (it has no parameters LX and LY)",
            gb_config_name(cfg));
    if (lws0 == 0 && lws1 == 0) {
        if (!lws_free(cfg->family))
            return gb__fail(msg, msglen, GB_EBADLWS,
                            "kernel '%s' needs the work-group size it is given (its source reads "
                            "LX and LY): 0,0, the driver's choice, is for kernels that do not",
                            gb_config_name(cfg));
        gb_params_set(&cfg->params, "LX", 0);
        gb_params_set(&cfg->params, "LY", 0);
        return GB_OK;
    }
    if (lws0 == 0 || lws1 == 0 || !gb__param_allowed(x, (long)lws0) ||
        !gb__param_allowed(y, (long)lws1)) {
        char a[160], b[160];
        describe_allowed(x, a, sizeof a);
        describe_allowed(y, b, sizeof b);
        return gb__fail(msg, msglen, GB_EBADLWS,
                        "work-group size %zu,%zu is not allowed for '%s'; use j in %s and i in %s",
                        lws0, lws1, gb_config_name(cfg), a, b);
    }
    gb_params_set(&cfg->params, "LX", (long)lws0);
    gb_params_set(&cfg->params, "LY", (long)lws1);
    return GB_OK;
}

const char *gb_config_name(const gb_config_t *cfg)
{
    return cfg->preset ? cfg->preset->name : cfg->family->name;
}

size_t gb__config_vars(const gb_config_t *cfg, gb_precision_t prec, const gb_problem_t *problem,
                       gb_var_t *vars)
{
    size_t n = 0;
    for (size_t i = 0; i < cfg->params.count; i++)
        vars[n++] = (gb_var_t){cfg->params.name[i], cfg->params.value[i]};
    n += gb__precision_vars(prec, vars + n);
    return problem ? n + gb__problem_vars(problem, vars + n) : n;
}

size_t gb__precision_vars(gb_precision_t prec, gb_var_t *vars)
{
    vars[0] = (gb_var_t){"ELEM", (long long)gb_precision_bytes(prec)};
    vars[1] = (gb_var_t){"REAL", (long long)gb_precision_bytes(gb_precision_arith(prec))};
    vars[2] = (gb_var_t){"DOUBLE", gb_precision_arith(prec) == GB_PREC_D};
    return GB_PRECISION_VARS;
}

size_t gb__problem_vars(const gb_problem_t *p, gb_var_t *vars)
{
    vars[0] = (gb_var_t){"M", (long long)p->m};
    vars[1] = (gb_var_t){"N", (long long)p->n};
    vars[2] = (gb_var_t){"K", (long long)p->k};
    vars[3] = (gb_var_t){"ROW", p->layout == GB_ROW_MAJOR};
    return GB_PROBLEM_VARS;
}

const char *gb__config_ptx(const gb_config_t *cfg, gb_precision_t prec)
{
    const gb_family_t *f = cfg->family;
    if (!f->ptx_target)
        return NULL;
    gb_var_t vars[GB_MAX_PARAMS + 8];
    const size_t nv = gb__config_vars(cfg, prec, NULL, vars);
    long long unless = 0;
    if (f->ptx_unless && gb__expr_eval(f->ptx_unless, vars, nv, &unless, NULL, 0) != GB_OK)
        unless = 0; /* an expression that does not evaluate leaves the PTX path on */
    return unless ? NULL : f->ptx_target;
}

/* Whether dev takes a PTX program for target ("sm_90a"): an NVIDIA GPU of exactly that
 * architecture where the target ends in 'a' (its instructions exist there alone), of that
 * architecture or later otherwise. */
int gb__ptx_runs_on(const char *target, const gb_device_info_t *dev)
{
    unsigned want = 0, have = 0;
    if (sscanf(target, "sm_%u", &want) != 1 || sscanf(dev->family, "nvidia-sm_%u", &have) != 1)
        return 0;
    return target[strlen(target) - 1] == 'a' ? have == want : have >= want;
}

int gb__config_1m(const gb_config_t *cfg, gb_precision_t prec)
{
    const unsigned precs = cfg->preset ? cfg->preset->precisions : cfg->family->precisions;
    return !(precs & (1u << prec)) && (gb_precisions_1m(precs) & (1u << prec));
}

int gb_config_check(const gb_config_t *cfg, const gb_device_info_t *dev, gb_precision_t prec,
                    const gb_problem_t *problem, char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    const char *name = gb_config_name(cfg);
    unsigned precs = cfg->preset ? cfg->preset->precisions : f->precisions;
    /* Through the 1M method the real kernel, its constraints and its sizes see the real
     * problem. */
    gb_problem_t real;
    if (gb__config_1m(cfg, prec)) {
        if (problem) {
            gb__problem_1m(problem, &real, NULL, NULL, NULL);
            problem = &real;
        }
        prec = gb_precision_arith(prec);
    }
    if (!(precs & (1u << prec))) {
        char has[16];
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "kernel '%s' has no %s-precision version; choose one of its "
                        "precisions (%s) or a kernel that has %s",
                        name, gb_precision_title(prec),
                        gb_precision_mask_text(precs, has, sizeof has), gb_precision_name(prec));
    }
    if (gb_precision_arith(prec) == GB_PREC_D && dev && !dev->fp64)
        return gb__fail(
            msg, msglen, GB_ENOFP64,
            "device '%s' has no double precision (cl_khr_fp64); choose single precision",
            dev->name);
    for (size_t i = 0; dev && i < f->nextensions; i++)
        if (!gb_device_has_extension(dev, f->extensions[i]))
            return gb__fail(msg, msglen, GB_ENOEXT,
                            "kernel '%s' needs %s, which device '%s' "
                            "lacks; choose another device",
                            name, f->extensions[i], dev->name);
    if (f->images && dev && !dev->image_support)
        return gb__fail(msg, msglen, GB_ENOIMAGES,
                        "kernel '%s' reads operands as images, which "
                        "device '%s' does not support; choose another device",
                        name, dev->name);
    if (f->images_from_buffer && dev && !dev->image2d_from_buffer)
        return gb__fail(msg, msglen, GB_ENOIMAGES,
                        "kernel '%s' reads operands as images made "
                        "over their buffers, which device '%s' cannot make "
                        "(cl_khr_image2d_from_buffer); choose another device",
                        name, dev->name);
    const char *ptx = gb__config_ptx(cfg, prec);
    if (ptx && dev && !gb__ptx_runs_on(ptx, dev))
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "kernel '%s' is a PTX program for %s, which device '%s' (%s) cannot load; "
                        "run it on an NVIDIA GPU of that architecture%s%s%s",
                        name, ptx, dev->name, dev->family,
                        f->ptx_unless ? ", or with parameters where '" : "",
                        f->ptx_unless ? f->ptx_unless : "",
                        f->ptx_unless ? "' holds (its emulation, on any device)" : "");
    gb_var_t vars[GB_MAX_PARAMS + 8];
    size_t nv = gb__config_vars(cfg, prec, problem, vars);
    char why[256];
    for (size_t i = 0; i < f->nconstraints; i++) {
        long long ok = 0;
        int rc = gb__expr_eval(f->constraints[i], vars, nv, &ok, why, sizeof why);
        if (rc != GB_OK && !problem)
            continue; /* a constraint on M, N or K waits for the problem */
        if (rc != GB_OK)
            return gb__fail(msg, msglen, GB_EMETADATA, "%s: %s", f->origin, why);
        if (!ok)
            return gb__fail(
                msg, msglen, GB_ECONSTRAINT,
                "kernel '%s' violates its constraint '%s'; choose other parameter values", name,
                f->constraints[i]);
    }
    if (f->local[0] && dev) {
        long long l0 = 0, l1 = 0;
        if (gb__expr_eval(f->local[0], vars, nv, &l0, why, sizeof why) != GB_OK ||
            gb__expr_eval(f->local[1], vars, nv, &l1, why, sizeof why) != GB_OK)
            return gb__fail(msg, msglen, GB_EMETADATA, "%s: local size: %s", f->origin, why);
        /* 0 x 0: the driver chooses (gb_config_set_lws). */
        if ((l0 < 1 || l1 < 1) && !(l0 == 0 && l1 == 0))
            return gb__fail(msg, msglen, GB_EBADLWS,
                            "kernel '%s' asks for a work-group of "
                            "%lld x %lld; sizes must be positive",
                            name, l0, l1);
        /* l0 * l1 > max without forming the product, which may overflow long long. */
        const unsigned long long wg_max = dev->max_wg_size;
        if (l0 > 0 && ((unsigned long long)l0 > wg_max ||
                       (unsigned long long)l1 > wg_max / (unsigned long long)l0 ||
                       (size_t)l0 > dev->max_wi_sizes[0] || (size_t)l1 > dev->max_wi_sizes[1]))
            return gb__fail(
                msg, msglen, GB_EWGSIZE,
                "kernel '%s' needs a work-group of %lld x %lld, over device '%s''s "
                "limit of %zu (%zu x %zu); choose a smaller work-group size or other parameters",
                name, l0, l1, dev->name, dev->max_wg_size, dev->max_wi_sizes[0],
                dev->max_wi_sizes[1]);
    }
    if (f->local_mem && dev) {
        long long bytes = 0;
        if (gb__expr_eval(f->local_mem, vars, nv, &bytes, why, sizeof why) != GB_OK)
            return gb__fail(msg, msglen, GB_EMETADATA, "%s: local_memory: %s", f->origin, why);
        if ((unsigned long long)bytes > dev->local_mem_kernel)
            return gb__fail(msg, msglen, GB_ELOCALMEM,
                            "kernel '%s' needs %lld bytes of local memory, over device '%s''s "
                            "%llu; choose smaller tiles",
                            name, bytes, dev->name, (unsigned long long)dev->local_mem_kernel);
    }
    return GB_OK;
}

void gb_family_native_layout(const gb_family_t *f, gb_problem_t *p)
{
    if (f->layouts & (1u << gb_layout_index(p->layout, p->trans_a, p->trans_b)))
        return;
    for (unsigned i = 0; i < 8; i++)
        if (f->layouts & (1u << i)) {
            p->layout = (gb_layout_t)(i / 4);
            p->trans_a = (gb_trans_t)((i / 2) % 2);
            p->trans_b = (gb_trans_t)(i % 2);
            return;
        }
}
