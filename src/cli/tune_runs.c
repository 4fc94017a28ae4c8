/* tune_runs.c: `gemmbench tune`'s runs checked before anything is measured or written: the
 * kernels named, each one's precision and valid space on the device (--count prints their
 * sizes), the narrowing of --param and --fix, and the strategy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tune/strategy.h"
#include "tune_cli.h"

int cli_tune_known_strategy(const char *name)
{
    for (size_t i = 0; i < gb_strategy_count(); i++)
        if (!strcmp(gb_strategy_name(i), name))
            return 1;
    size_t used = 0;
    char list[256];
    for (size_t i = 0; i < gb_strategy_count(); i++)
        gb__appendf(list, sizeof list, &used, "%s%s", i ? ", " : "", gb_strategy_name(i));
    cli_error(GB_EBADARG, "unknown strategy '%s'; use one of %s", name, list);
    return 0;
}

int cli_tune_narrowing(const gb_explore_plan_t *pl, const tune_opts_t *t, narrowing_t *nw)
{
    nw->n = 0;
    for (size_t i = 0; i < pl->nparams; i++)
        nw->v[nw->n++] =
            (gb_space_values_t){pl->params[i].name, pl->params[i].values, pl->params[i].n};
    for (size_t i = 0; i < t->fix.count; i++) {
        for (size_t j = 0; j < pl->nparams; j++)
            if (!strcmp(pl->params[j].name, t->fix.name[i]))
                return cli_error(GB_EBADARG,
                                 "%s is given both by --param and by --fix; give one of them",
                                 t->fix.name[i]);
        nw->v[nw->n++] = (gb_space_values_t){t->fix.name[i], &t->fix.value[i], 1};
    }
    return 0;
}

/* The precision to tune kernel in: the plan's (one), else single where the family has it. */
static int precision_of(const gb_explore_plan_t *pl, const gb_registry_t *reg, const char *kernel,
                        gb_precision_t *out)
{
    const gb_family_t *f;
    const gb_preset_t *ps;
    if (gb_registry_find(reg, kernel, &f, &ps) != GB_OK)
        return cli_error(GB_ENOKERNEL,
                         "unknown kernel '%s'; 'gemmbench kernels' lists the families to tune",
                         kernel);
    const unsigned own = gb_family_precisions(f);
    if (pl->precisions && (pl->precisions & (pl->precisions - 1)))
        return cli_error(GB_EBADARG, "tune one precision at a time: give --precision s or d");
    if (pl->precisions & ~((1u << GB_PREC_S) | (1u << GB_PREC_D)))
        return cli_error(GB_EBADPRECISION,
                         "tune takes s or d: the tuning database keeps no FP16, bfloat16 or "
                         "complex entries yet; measure those with run or explore");
    const unsigned want = pl->precisions            ? pl->precisions
                          : own & (1u << GB_PREC_S) ? 1u << GB_PREC_S
                                                    : own;
    if (!(own & want))
        return cli_error(GB_EBADPRECISION, "kernel '%s' has no %s precision", kernel,
                         want & (1u << GB_PREC_S) ? "single" : "double");
    *out = want & (1u << GB_PREC_S) ? GB_PREC_S : GB_PREC_D;
    return 0;
}

/* kernel's precision (precision_of) and its space on the device into *sp: 0, the exit code of
 * a refused precision (said), or gb_tune_space's code with msg. */
static int kernel_space(const char *kernel, const gb_explore_plan_t *pl, const narrowing_t *nw,
                        const gb_registry_t *reg, const gb_device_info_t *di, gb_precision_t *prec,
                        gb_space_t **sp, char *msg, size_t msglen)
{
    *sp = NULL;
    int rc = precision_of(pl, reg, kernel, prec);
    if (rc)
        return rc;
    gb_tune_spec_t spec = {.kernel = kernel, .precision = *prec, .narrow = nw->v, .nnarrow = nw->n};
    return gb_tune_space(&spec, reg, di, sp, msg, msglen);
}

/* A family this device cannot run at all (an extension, double precision or images missing). */
static int device_lacks(int rc)
{
    return rc == GB_ENOEXT || rc == GB_ENOFP64 || rc == GB_ENOIMAGES;
}

int cli_tune_split_kernels(const char *list, gb_tune_runs_t *r)
{
    char *copy = gb__strdup(list ? list : "");
    size_t cap = 0;
    if (!copy)
        return cli_error(GB_ENOMEM, "out of memory");
    for (char *save = NULL, *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (gb__grow(&r->kernels, &cap, r->nkernels + 1, sizeof *r->kernels) != GB_OK ||
            !(r->kernels[r->nkernels] = gb__strdup(k))) {
            free(copy);
            return cli_error(GB_ENOMEM, "out of memory");
        }
        r->nkernels++;
    }
    free(copy);
    return 0;
}

int cli_tune_count(const gb_tune_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                   const gb_registry_t *reg, const gb_device_info_t *di)
{
    printf("%-22s %4s %20s %10s  %s\n", "family", "prec", "valid configurations", "ms",
           "parameters");
    int bad = 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        gb_precision_t prec = GB_PREC_S;
        gb_space_t *sp;
        char msg[1024];
        const double t0 = cli_now_s();
        int rc = kernel_space(r->kernels[i], pl, nw, reg, di, &prec, &sp, msg, sizeof msg);
        const double ms = 1e3 * (cli_now_s() - t0);
        if (rc > 0)
            return rc;
        if (rc != GB_OK) {
            if (r->nkernels == 1)
                return cli_error(rc, "%s", msg);
            printf("%-22s %4s %20s %10.1f  %s\n", r->kernels[i], gb_precision_name(prec), "-", ms,
                   msg);
            bad |= rc != GB_EBADPARAM && !device_lacks(rc);
            continue;
        }
        char params[512];
        size_t used = 0;
        params[0] = '\0';
        for (size_t p = 0; p < gb_space_nparams(sp); p++)
            gb__appendf(params, sizeof params, &used, "%s%s(%zu)", p ? " " : "",
                        gb_space_param(sp, p), gb_space_nvalues(sp, p));
        printf("%-22s %4s %20llu %10.1f  %s\n", r->kernels[i], gb_precision_name(prec),
               (unsigned long long)gb_space_count(sp), ms, params);
        gb_space_close(sp);
    }
    return bad ? EXIT_USAGE : EXIT_OK;
}

int cli_tune_check_options(const gb_explore_plan_t *pl, const tune_opts_t *t)
{
    if (!cli_tune_known_strategy(t->strategy))
        return EXIT_USAGE;
    if (pl->nlws || pl->lws_x.n || pl->lws_y.n || pl->lws_items.n)
        return cli_error(GB_EBADARG, "tune takes work-group sizes as parameters: give "
                                     "--param LX=LIST --param LY=LIST instead of --lws");
    if (pl->repeat > 1)
        return cli_error(GB_EBADARG, "tune takes no --repeat: the leaders are repeated "
                                     "(--confirm-reps)");
    return 0;
}

int cli_tune_check_runs(gb_tune_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                        const tune_opts_t *t, const gb_registry_t *reg, const gb_device_info_t *di)
{
    int rc = cli_tune_check_options(pl, t);
    if (rc)
        return rc;
    if (!(r->prec = calloc(r->nkernels, sizeof *r->prec)) ||
        !(r->space = calloc(r->nkernels, sizeof *r->space)))
        return cli_error(GB_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->nkernels; i++) {
        if (!strcmp(r->kernels[i], "auto"))
            return cli_error(GB_EBADARG, "-k auto picks a tuned kernel; tune a family instead");
        gb_space_t *sp;
        char msg[1024];
        rc = kernel_space(r->kernels[i], pl, nw, reg, di, &r->prec[i], &sp, msg, sizeof msg);
        if (rc > 0)
            return rc;
        if (rc != GB_OK) {
            if (!r->all || !(device_lacks(rc) || rc == GB_EBADPARAM))
                return cli_error(rc == GB_EOVERFLOW ? GB_EBADARG : rc, "%s", msg);
            printf("tune: skipping %s: %s\n", r->kernels[i], msg);
            free(r->kernels[i]);
            memmove(r->kernels + i, r->kernels + i + 1, (r->nkernels - i - 1) * sizeof *r->kernels);
            r->nkernels--;
            i--;
            continue;
        }
        r->space[i] = gb_space_count(sp);
        gb_space_close(sp);
    }
    if (!r->nkernels)
        return cli_error(GB_EBADARG, "no family here has parameters to tune on this device");
    return 0;
}
