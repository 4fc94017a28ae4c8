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

/* Whether the plan asks for several precisions (a list, or all): each is a run of its own. */
static int several(const gb_explore_plan_t *pl)
{
    return pl->all_precisions || (pl->precisions & (pl->precisions - 1));
}

/* The precisions to tune kernel in, as a mask into *want: the plan's one; else, under several,
 * those of them the family has (all: each it has), the others said skipped in a line each; else
 * single where the family has it, or the first it has. 0 or the exit code (said). */
static int precisions_of(const gb_explore_plan_t *pl, const gb_registry_t *reg, const char *kernel,
                         unsigned *want)
{
    const gb_family_t *f;
    const gb_preset_t *ps;
    if (gb_registry_find(reg, kernel, &f, &ps) != GB_OK)
        return cli_error(GB_ENOKERNEL,
                         "unknown kernel '%s'; 'gemmbench kernels' lists the families to tune",
                         kernel);
    /* Its own precisions, and the complex ones its real ones serve by the 1M method. */
    const unsigned own = gb_precisions_1m(ps ? ps->precisions : gb_family_precisions(f));
    if (!pl->precisions) {
        *want = own & (1u << GB_PREC_S) ? 1u << GB_PREC_S : own & (~own + 1u);
        return 0;
    }
    if (!several(pl)) {
        *want = pl->precisions;
        if (!(own & *want))
            return cli_error(GB_EBADPRECISION, "kernel '%s' has no %s precision", kernel,
                             gb_precision_title(cli_first_precision(*want)));
        return 0;
    }
    *want = own & pl->precisions;
    for (int p = 0; p < GB_PREC_COUNT; p++)
        if ((pl->precisions & ~own & (1u << p)) && !pl->all_precisions)
            printf("tune: skipping %s in %s: the family has no %s precision\n", kernel,
                   gb_precision_name((gb_precision_t)p), gb_precision_title((gb_precision_t)p));
    return 0;
}

/* Makes r's runs one per kernel and precision (precisions_of), r->prec set: 0 or the exit code. */
static int expand_precisions(gb_tune_runs_t *r, const gb_explore_plan_t *pl,
                             const gb_registry_t *reg)
{
    char **kernels = NULL;
    gb_precision_t *prec = NULL;
    size_t n = 0, cap = 0, pcap = 0;
    int rc = 0;
    for (size_t i = 0; !rc && i < r->nkernels; i++) {
        unsigned want = 0;
        if (!strcmp(r->kernels[i], "auto"))
            rc = cli_error(GB_EBADARG, "-k auto picks a tuned kernel; tune a family instead");
        else
            rc = precisions_of(pl, reg, r->kernels[i], &want);
        for (int p = 0; !rc && p < GB_PREC_COUNT; p++) {
            if (!(want & (1u << p)))
                continue;
            if (gb__grow(&kernels, &cap, n + 1, sizeof *kernels) != GB_OK ||
                gb__grow(&prec, &pcap, n + 1, sizeof *prec) != GB_OK ||
                !(kernels[n] = gb__strdup(r->kernels[i]))) {
                rc = cli_error(GB_ENOMEM, "out of memory");
                break;
            }
            prec[n++] = (gb_precision_t)p;
        }
    }
    for (size_t i = 0; i < r->nkernels; i++)
        free(r->kernels[i]);
    free(r->kernels);
    free(r->prec);
    r->kernels = kernels;
    r->prec = prec;
    r->nkernels = n;
    return rc;
}

/* kernel's space in prec on the device into *sp: GB_OK or gb_tune_space's code with msg. */
static int kernel_space(const char *kernel, gb_precision_t prec, const narrowing_t *nw,
                        const gb_registry_t *reg, const gb_device_info_t *di, gb_space_t **sp,
                        char *msg, size_t msglen)
{
    *sp = NULL;
    gb_tune_spec_t spec = {.kernel = kernel, .precision = prec, .narrow = nw->v, .nnarrow = nw->n};
    return gb_tune_space(&spec, reg, di, NULL, sp, msg, msglen);
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

int cli_tune_count(gb_tune_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                   const gb_registry_t *reg, const gb_device_info_t *di)
{
    int rc = expand_precisions(r, pl, reg);
    if (rc)
        return rc;
    printf("%-22s %4s %20s %10s  %s\n", "family", "prec", "valid configurations", "ms",
           "parameters");
    int bad = 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        const gb_precision_t prec = r->prec[i];
        gb_space_t *sp;
        char msg[1024];
        const double t0 = cli_now_s();
        rc = kernel_space(r->kernels[i], prec, nw, reg, di, &sp, msg, sizeof msg);
        const double ms = 1e3 * (cli_now_s() - t0);
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
    if ((rc = expand_precisions(r, pl, reg)))
        return rc;
    if (r->nkernels && !(r->space = calloc(r->nkernels, sizeof *r->space)))
        return cli_error(GB_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->nkernels; i++) {
        gb_space_t *sp;
        char msg[1024];
        rc = kernel_space(r->kernels[i], r->prec[i], nw, reg, di, &sp, msg, sizeof msg);
        if (rc != GB_OK) {
            /* Under -k all or several precisions, what the device cannot run is skipped. */
            if (!(r->all || several(pl)) || !(device_lacks(rc) || rc == GB_EBADPARAM))
                return cli_error(rc == GB_EOVERFLOW ? GB_EBADARG : rc, "%s", msg);
            printf("tune: skipping %s in %s: %s\n", r->kernels[i], gb_precision_name(r->prec[i]),
                   msg);
            free(r->kernels[i]);
            memmove(r->kernels + i, r->kernels + i + 1, (r->nkernels - i - 1) * sizeof *r->kernels);
            memmove(r->prec + i, r->prec + i + 1, (r->nkernels - i - 1) * sizeof *r->prec);
            r->nkernels--;
            i--;
            continue;
        }
        r->space[i] = gb_space_count(sp);
        gb_space_close(sp);
    }
    if (!r->nkernels)
        return cli_error(GB_EBADARG, "no family here has parameters to tune on this device in "
                                     "the precisions asked");
    return 0;
}
