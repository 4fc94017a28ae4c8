/* explore.c: a plan expanded into points (kernel x precision x parameters x work-group size x
 * size x repetition, in that nesting, so that consecutive points share a program), each
 * classified before anything runs, and measured and stored one at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

#define MAX_KERNELS 256
#define MAX_REASONS 64

struct gb_explore {
    const gb_plan_t *pl;
    const gb_registry_t *reg;
    const gb_device_info_t *dev;
    gb_store_t *st;
    char *names_buf;
    const char *kernels[MAX_KERNELS];
    size_t nkernels;
    gb_precision_t precs[2];
    size_t nprecs;            /* 0: each kernel's own precision */
    size_t (*shapes)[3], nshapes;
    size_t (*lws)[2], nlws;   /* 0: each kernel's own work-group size */
    size_t ncombos;           /* parameter combinations */
    size_t total;
    unsigned char *status;
    size_t counts[3];
    gb_xp_reason_t reasons[MAX_REASONS];
    size_t nreasons;
};

static int fail(char *msg, size_t len, int code, const char *text)
{
    snprintf(msg, len, "%s", text);
    return code;
}

/* n *= f, failing when the product passes the cap. */
static int mul_capped(size_t *n, size_t f)
{
    if (f && *n > GB_EXPLORE_MAX_POINTS / f)
        return 0;
    *n *= f;
    return *n <= GB_EXPLORE_MAX_POINTS;
}

/* The shapes: square orders from -n, or the product of the -M, -N, -K lists where a missing one
 * follows the order (-n) it is paired with. */
static int expand_shapes(gb_explore_t *ex, char *msg, size_t msglen)
{
    const gb_plan_t *pl = ex->pl;
    const char *dims = "MNK";
    int any_dim = pl->dim[0].n || pl->dim[1].n || pl->dim[2].n;
    if (!any_dim && !pl->orders.n)
        return fail(msg, msglen, GB_EBADARG, "no sizes to explore: give -n (like 64:1024:64) or "
                    "-M, -N and -K, or a plan that has them");
    for (int d = 0; d < 3; d++)
        if (any_dim && !pl->dim[d].n && !pl->orders.n) {
            snprintf(msg, msglen, "-%c is not given while -%c is: give -%c too, or -n for the "
                     "sizes not given", dims[d], pl->dim[0].n ? 'M' : pl->dim[1].n ? 'N' : 'K', dims[d]);
            return GB_EBADARG;
        }
    size_t norders = pl->orders.n ? pl->orders.n : 1, n = norders;
    for (int d = 0; any_dim && d < 3; d++)
        if (!mul_capped(&n, pl->dim[d].n ? pl->dim[d].n : 1))
            return fail(msg, msglen, GB_EBADARG, "the plan has more than 1000000 points (in "
                        "sizes alone); narrow it");
    if (!(ex->shapes = malloc(n * sizeof *ex->shapes)))
        return fail(msg, msglen, GB_ENOMEM, "out of memory");
    for (size_t o = 0; o < norders; o++) {
        size_t order = pl->orders.n ? pl->orders.v[o] : 0;
        if (!any_dim) {
            ex->shapes[ex->nshapes][0] = ex->shapes[ex->nshapes][1] = ex->shapes[ex->nshapes][2] = order;
            ex->nshapes++;
            continue;
        }
        size_t nm = pl->dim[0].n ? pl->dim[0].n : 1, nn = pl->dim[1].n ? pl->dim[1].n : 1;
        size_t nk = pl->dim[2].n ? pl->dim[2].n : 1;
        for (size_t i = 0; i < nm; i++)
            for (size_t j = 0; j < nn; j++)
                for (size_t l = 0; l < nk; l++, ex->nshapes++) {
                    size_t *s = ex->shapes[ex->nshapes];
                    s[0] = pl->dim[0].n ? pl->dim[0].v[i] : order;
                    s[1] = pl->dim[1].n ? pl->dim[1].v[j] : order;
                    s[2] = pl->dim[2].n ? pl->dim[2].v[l] : order;
                }
    }
    return GB_OK;
}

/* Work-group sizes: the explicit pairs, or the grid x by y kept where x*y is in items. */
static int expand_lws(gb_explore_t *ex, char *msg, size_t msglen)
{
    const gb_plan_t *pl = ex->pl;
    int grid = pl->lws_x.n || pl->lws_y.n || pl->lws_items.n;
    if (grid && pl->nlws)
        return fail(msg, msglen, GB_EBADARG, "give work-group sizes as pairs (--lws) or as a grid "
                    "(--lws-grid), not both");
    if (grid && (!pl->lws_x.n || !pl->lws_y.n))
        return fail(msg, msglen, GB_EBADARG, "a work-group grid needs both its x and y lists "
                    "(--lws-grid X;Y)");
    for (size_t i = 0; i < pl->nparams; i++)
        if ((pl->nlws || grid) && (!strcmp(pl->params[i].name, "LX") || !strcmp(pl->params[i].name, "LY")))
            return fail(msg, msglen, GB_EBADARG, "give the work-group size with --lws or with "
                        "--param LX/LY, not both");
    if (!grid) {
        if (pl->nlws && !(ex->lws = malloc(pl->nlws * sizeof *ex->lws)))
            return fail(msg, msglen, GB_ENOMEM, "out of memory");
        if (pl->nlws)
            memcpy(ex->lws, pl->lws, pl->nlws * sizeof *ex->lws);
        ex->nlws = pl->nlws;
        return GB_OK;
    }
    if (!(ex->lws = malloc(pl->lws_x.n * pl->lws_y.n * sizeof *ex->lws)))
        return fail(msg, msglen, GB_ENOMEM, "out of memory");
    for (size_t i = 0; i < pl->lws_x.n; i++)
        for (size_t j = 0; j < pl->lws_y.n; j++) {
            size_t x = pl->lws_x.v[i], y = pl->lws_y.v[j], keep = !pl->lws_items.n;
            for (size_t k = 0; !keep && k < pl->lws_items.n; k++)
                keep = x * y == pl->lws_items.v[k];
            if (keep) {
                ex->lws[ex->nlws][0] = x;
                ex->lws[ex->nlws][1] = y;
                ex->nlws++;
            }
        }
    if (!ex->nlws)
        return fail(msg, msglen, GB_EBADARG, "no work-group size of the grid has a number of "
                    "work-items in the items list");
    return GB_OK;
}

/* Kernel names exist; every parameter name belongs to at least one of the kernels. */
static int check_names(gb_explore_t *ex, char *msg, size_t msglen)
{
    const gb_plan_t *pl = ex->pl;
    if (!pl->kernels)
        return fail(msg, msglen, GB_ENOKERNEL, "no kernels to explore: give -k (like "
                    "SGEMM_NT_4x1,naive) or a plan that has them");
    size_t n = strlen(pl->kernels);
    if (!(ex->names_buf = malloc(n + 1)))
        return fail(msg, msglen, GB_ENOMEM, "out of memory");
    memcpy(ex->names_buf, pl->kernels, n + 1);
    for (char *save = NULL, *t = strtok_r(ex->names_buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        const gb_family_t *f;
        const gb_preset_t *ps;
        if (gb_registry_find(ex->reg, t, &f, &ps) != GB_OK) {
            snprintf(msg, msglen, "unknown kernel '%s'; run 'gemmbench kernels' to list them", t);
            return GB_ENOKERNEL;
        }
        if (ex->nkernels == MAX_KERNELS)
            return fail(msg, msglen, GB_EBADARG, "more than 256 kernels to explore");
        ex->kernels[ex->nkernels++] = t;
    }
    for (size_t i = 0; i < pl->nparams; i++) {
        int known = 0;
        for (size_t k = 0; !known && k < ex->nkernels; k++) {
            const gb_family_t *f;
            const gb_preset_t *ps;
            gb_registry_find(ex->reg, ex->kernels[k], &f, &ps);
            for (size_t j = 0; j < gb_family_param_count(f); j++)
                known |= !strcmp(gb_family_param(f, j)->name, pl->params[i].name);
        }
        if (!known) {
            snprintf(msg, msglen, "no kernel explored has a parameter %s; 'gemmbench kernels "
                     "--json' lists each kernel's parameters", pl->params[i].name);
            return GB_EBADPARAM;
        }
    }
    return GB_OK;
}

int gb_explore_cannot_run(int code)
{
    switch (code) {
    case GB_EBADPARAM: case GB_ECONSTRAINT: case GB_EBADLWS: case GB_EUNSUPPORTED:
    case GB_ENOFP64: case GB_ENOEXT: case GB_EWGSIZE: case GB_ELOCALMEM: case GB_EOVERFLOW:
    case GB_EBADM: case GB_EBADN: case GB_EBADK: case GB_EBADLDA: case GB_EBADLDB:
    case GB_EBADLDC: case GB_EBADPRECISION:
        return 1;
    default:
        return 0;
    }
}

int gb_explore_point(gb_explore_t *ex, size_t index, gb_xp_point_t *xp)
{
    const gb_plan_t *pl = ex->pl;
    memset(xp, 0, sizeof *xp);
    xp->index = index;
    /* Mixed radix, innermost first: rep, shape, lws, params, precision, kernel. */
    size_t i = index, reps = pl->repeat ? pl->repeat : 1;
    xp->rep = (unsigned)(i % reps);
    i /= reps;
    const size_t *shape = ex->shapes[i % ex->nshapes];
    i /= ex->nshapes;
    size_t nl = ex->nlws ? ex->nlws : 1, li = i % nl;
    i /= nl;
    size_t combo = i % ex->ncombos;
    i /= ex->ncombos;
    size_t np = ex->nprecs ? ex->nprecs : 1, pi = i % np;
    i /= np;
    const char *kernel = xp->kernel = ex->kernels[i];
    long values[GB_MAX_PARAMS];
    for (size_t p = pl->nparams; p-- > 0;) {
        values[p] = pl->params[p].values[combo % pl->params[p].n];
        combo /= pl->params[p].n;
    }
    for (size_t p = 0; p < pl->nparams; p++)
        gb_params_set(&xp->swept, pl->params[p].name, values[p]);
    int rc = gb_impl_resolve(ex->reg, kernel, &xp->swept, &xp->impl, xp->why, sizeof xp->why);
    if (rc == GB_OK && ex->nlws) {
        xp->has_lws = 1;
        xp->lws[0] = ex->lws[li][0];
        xp->lws[1] = ex->lws[li][1];
        rc = xp->impl.config.family ? gb_config_set_lws(&xp->impl.config, xp->lws[0], xp->lws[1],
                                                        xp->why, sizeof xp->why)
                                    : gb__fail(xp->why, sizeof xp->why, GB_EBADLWS, "library "
                                               "peer '%s' takes no work-group size", kernel);
    }
    gb_precision_t prec;
    if (ex->nprecs) {
        prec = ex->precs[pi];
    } else {
        /* Each kernel's own: its preset's precision, single where it has both. */
        const gb_family_t *f;
        const gb_preset_t *ps;
        gb_registry_find(ex->reg, kernel, &f, &ps);
        unsigned mask = ps ? ps->precisions : gb_family_precisions(f);
        prec = (mask & 1u) || !mask ? GB_PREC_S : GB_PREC_D;
    }
    xp->problem = pl->base;
    xp->problem.precision = prec;
    xp->problem.m = shape[0];
    xp->problem.n = shape[1];
    xp->problem.k = shape[2];
    xp->bench = pl->bench;
    if (rc == GB_OK && !pl->has_layout)
        gb_impl_native_layout(&xp->impl, &xp->problem);
    if (rc == GB_OK)
        rc = gb_problem_check(&xp->problem, xp->why, sizeof xp->why);
    if (rc == GB_OK)
        rc = gb_impl_check(&xp->impl, ex->dev, prec, &xp->problem, xp->why, sizeof xp->why);
    if (rc == GB_ENOMEM)
        return rc;
    if (rc != GB_OK) {
        xp->status = GB_XP_SKIP;
        xp->code = rc;
        return GB_OK;
    }
    gb_point_t pt;
    gb_point_init(&pt);
    rc = gb_point_define(&pt, ex->dev, &xp->impl, &xp->problem, &xp->bench, xp->rep, xp->why,
                         sizeof xp->why);
    memcpy(xp->id, pt.id, sizeof xp->id);
    gb_point_free(&pt);
    if (rc == GB_ENOMEM)
        return rc;
    if (rc != GB_OK) {
        xp->status = GB_XP_SKIP;
        xp->code = rc;
        return GB_OK;
    }
    rc = gb_store_exists(ex->st, xp->id);
    if (rc < 0) {
        snprintf(xp->why, sizeof xp->why, "%s", gb_store_errmsg(ex->st));
        return rc;
    }
    xp->status = rc ? GB_XP_STORED : GB_XP_TODO;
    return GB_OK;
}

static void tally(gb_explore_t *ex, int code, const char *why)
{
    size_t r = 0;
    while (r < ex->nreasons && ex->reasons[r].code != code)
        r++;
    if (r == ex->nreasons) {
        if (r == MAX_REASONS)
            r--; /* the last slot collects the rest */
        else
            ex->nreasons++;
        ex->reasons[r].code = code;
        snprintf(ex->reasons[r].example, sizeof ex->reasons[r].example, "%s", why);
    }
    ex->reasons[r].count++;
}

int gb_explore_open(gb_explore_t **out, const gb_plan_t *pl, const gb_registry_t *reg,
                    const gb_device_info_t *dev, gb_store_t *st, char *msg, size_t msglen)
{
    *out = NULL;
    gb_explore_t *ex = calloc(1, sizeof *ex);
    if (!ex)
        return fail(msg, msglen, GB_ENOMEM, "out of memory");
    ex->pl = pl;
    ex->reg = reg;
    ex->dev = dev;
    ex->st = st;
    int rc;
    if ((rc = check_names(ex, msg, msglen)) != GB_OK || (rc = expand_shapes(ex, msg, msglen)) != GB_OK ||
        (rc = expand_lws(ex, msg, msglen)) != GB_OK)
        goto done;
    for (int p = 0; p < 2; p++)
        if (pl->precisions & (1u << p))
            ex->precs[ex->nprecs++] = (gb_precision_t)p;
    ex->ncombos = 1;
    size_t total = ex->nkernels;
    int ok = mul_capped(&total, ex->nprecs ? ex->nprecs : 1);
    for (size_t i = 0; i < pl->nparams; i++) {
        ok = ok && mul_capped(&ex->ncombos, pl->params[i].n);
    }
    ok = ok && mul_capped(&total, ex->ncombos) && mul_capped(&total, ex->nlws ? ex->nlws : 1) &&
         mul_capped(&total, ex->nshapes) && mul_capped(&total, pl->repeat ? pl->repeat : 1);
    if (!ok) {
        snprintf(msg, msglen, "the plan has more than %u points; narrow it", GB_EXPLORE_MAX_POINTS);
        rc = GB_EBADARG;
        goto done;
    }
    ex->total = total;
    if (!(ex->status = malloc(total ? total : 1))) {
        rc = fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < total; i++) {
        gb_xp_point_t xp;
        if ((rc = gb_explore_point(ex, i, &xp)) != GB_OK) {
            snprintf(msg, msglen, "%s", xp.why);
            goto done;
        }
        ex->status[i] = (unsigned char)xp.status;
        ex->counts[xp.status]++;
        if (xp.status == GB_XP_SKIP)
            tally(ex, xp.code, xp.why);
    }
done:
    if (rc != GB_OK) {
        gb_explore_close(ex);
        return rc;
    }
    *out = ex;
    return GB_OK;
}

void gb_explore_close(gb_explore_t *ex)
{
    if (!ex)
        return;
    free(ex->names_buf);
    free(ex->shapes);
    free(ex->lws);
    free(ex->status);
    free(ex);
}

size_t gb_explore_total(const gb_explore_t *ex)
{
    return ex->total;
}

size_t gb_explore_count(const gb_explore_t *ex, gb_xp_status_t status)
{
    return (unsigned)status < 3 ? ex->counts[status] : 0;
}

gb_xp_status_t gb_explore_status(const gb_explore_t *ex, size_t index)
{
    return index < ex->total ? (gb_xp_status_t)ex->status[index] : GB_XP_SKIP;
}

size_t gb_explore_nreasons(const gb_explore_t *ex)
{
    return ex->nreasons;
}

const gb_xp_reason_t *gb_explore_reason(const gb_explore_t *ex, size_t i)
{
    return i < ex->nreasons ? &ex->reasons[i] : NULL;
}

int gb_explore_measure(gb_explore_t *ex, gb_context_t *ctx, const gb_xp_point_t *xp,
                       gb_point_t *pt, char *msg, size_t msglen)
{
    gb_result_t r;
    int rc = gb_point_define(pt, ex->dev, &xp->impl, &xp->problem, &xp->bench, xp->rep, msg,
                             msglen);
    if (rc != GB_OK)
        return rc;
    rc = gb_bench_run(ctx, &xp->impl, &xp->problem, &xp->bench, &r);
    if (rc != GB_OK) {
        snprintf(msg, msglen, "%s", gb_context_errmsg(ctx));
        return rc;
    }
    rc = gb_point_set_result(pt, &r);
    gb_result_free(&r);
    if (rc == GB_OK)
        rc = gb_point_set_provenance(pt);
    if (rc != GB_OK)
        return fail(msg, msglen, rc, "out of memory recording the point");
    rc = gb_store_insert(ex->st, pt);
    if (rc < 0)
        snprintf(msg, msglen, "%s", gb_store_errmsg(ex->st));
    return rc;
}

const char *gb_explore_describe(const gb_xp_point_t *xp, char *buf, size_t len)
{
    char lws[32] = "", params[256] = "";
    if (xp->has_lws)
        snprintf(lws, sizeof lws, " lws %zux%zu", xp->lws[0], xp->lws[1]);
    size_t used = 0;
    for (size_t i = 0; i < xp->swept.count && used < sizeof params; i++) {
        int n = snprintf(params + used, sizeof params - used, " %s=%ld", xp->swept.name[i],
                         xp->swept.value[i]);
        used += n > 0 ? (size_t)n : 0;
    }
    snprintf(buf, len, "%s %s %zux%zux%zu%s%s rep %u", xp->kernel ? xp->kernel : "?",
             gb_precision_name(xp->problem.precision), xp->problem.m, xp->problem.n,
             xp->problem.k, lws, params, xp->rep);
    return buf;
}
