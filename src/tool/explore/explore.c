/* explore.c: a plan expanded into jobs: kernel entries (a name and a precision), each with the
 * swept parameters it has and, where it takes LX/LY, the work-group sizes, then sizes and
 * repetitions, in that nesting so that consecutive points share a program. Every point is made
 * (src/tool/job) and classified before anything runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/store/inflight.h"
#include "explore.h"

#define MAX_ENTRIES 1024
#define MAX_REASONS 64

/* One kernel of the sweep, in one precision. */
typedef struct entry {
    const char *name;
    gb_precision_t prec;
    int named;                    /* from the plan's list, not from 'all' */
    size_t params[GB_MAX_PARAMS]; /* indices of the plan's parameters it has */
    size_t nparams;
    size_t ncombos;      /* product of their value counts */
    int lws;             /* sweeps the plan's work-group sizes (it has LX and LY) */
    unsigned layout;     /* gb_layout_index of the layout it would take on its own */
    size_t first, count; /* its points: [first, first + count) */
    size_t runnable;     /* of them, those that can run here (to measure or stored) */
} entry_t;

struct gb_explore {
    const gb_explore_plan_t *pl;
    const gb_registry_t *reg;
    const gb_device_info_t *devs[GB_EXPLORE_MAX_KINDS]; /* the kinds of device to run on */
    size_t ndevs;
    gb_store_t *st;
    const gb_chooser_t *chooser;
    char *names_buf;
    entry_t *entries;
    size_t nentries;
    int one_layout; /* the entries' own layouts differ and none was given: all take the plan's */
    size_t (*shapes)[3], nshapes;
    size_t (*lws)[2], nlws;
    size_t total;
    unsigned char *status;
    uint32_t *runs_on; /* per point: the kinds that can run it */
    size_t counts[4];
    gb_xp_reason_t reasons[MAX_REASONS];
    size_t nreasons;
    int crashes; /* the store records points that crashed a process (looked up per point) */
};

/* n *= f, failing when the product passes the cap. */
static int mul_capped(size_t *n, size_t f)
{
    if (f && *n > GB_EXPLORE_MAX_POINTS / f)
        return 0;
    *n *= f;
    return *n <= GB_EXPLORE_MAX_POINTS;
}

static int expand_shapes(gb_explore_t *ex, char *msg, size_t msglen)
{
    return gb_plan_shapes(ex->pl, &ex->shapes, &ex->nshapes, msg, msglen);
}

/* Work-group sizes: the explicit pairs, or the grid x by y kept where x*y is in items. */
static int expand_lws(gb_explore_t *ex, char *msg, size_t msglen)
{
    const gb_explore_plan_t *pl = ex->pl;
    int grid = pl->lws_x.n || pl->lws_y.n || pl->lws_items.n;
    if (grid && pl->nlws)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "give work-group sizes as pairs (--lws) or as a "
                        "grid (--lws-grid), not both");
    if (grid && (!pl->lws_x.n || !pl->lws_y.n))
        return gb__fail(msg, msglen, GB_EBADARG,
                        "a work-group grid needs both its x and y lists "
                        "(--lws-grid X;Y)");
    for (size_t i = 0; i < pl->nparams; i++)
        if ((pl->nlws || grid) &&
            (!strcmp(pl->params[i].name, "LX") || !strcmp(pl->params[i].name, "LY")))
            return gb__fail(msg, msglen, GB_EBADARG,
                            "give the work-group size with --lws or with "
                            "--param LX/LY, not both");
    if (!grid) {
        if (pl->nlws && !(ex->lws = malloc(pl->nlws * sizeof *ex->lws)))
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        if (pl->nlws)
            memcpy(ex->lws, pl->lws, pl->nlws * sizeof *ex->lws);
        ex->nlws = pl->nlws;
        return GB_OK;
    }
    if (!(ex->lws = malloc(pl->lws_x.n * pl->lws_y.n * sizeof *ex->lws)))
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
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
        return gb__fail(msg, msglen, GB_EBADARG,
                        "no work-group size of the grid has a number of "
                        "work-items in the items list");
    return GB_OK;
}

static int has_param(const gb_impl_t *im, const char *name)
{
    if (!gb_impl_can(im, GB_CAN_TUNE))
        return 0;
    const gb_family_t *f = im->config.family;
    for (size_t j = 0; j < gb_family_param_count(f); j++)
        if (!strcmp(gb_family_param(f, j)->name, name))
            return 1;
    return 0;
}

/* Adds the entry (name, prec) with the plan's parameters it has. */
static int add_entry(gb_explore_t *ex, const char *name, gb_precision_t prec, int named,
                     const gb_impl_t *im, char *msg, size_t msglen)
{
    if (ex->nentries == MAX_ENTRIES)
        return gb__fail(msg, msglen, GB_EBADARG, "more than %d kernels and precisions to explore",
                        MAX_ENTRIES);
    entry_t *e = &ex->entries[ex->nentries++];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->prec = prec;
    e->named = named;
    e->ncombos = 1;
    for (size_t i = 0; i < ex->pl->nparams; i++)
        if (has_param(im, ex->pl->params[i].name)) {
            e->params[e->nparams++] = i;
            if (!mul_capped(&e->ncombos, ex->pl->params[i].n))
                return gb__fail(msg, msglen, GB_EBADARG,
                                "the plan has more than %u points; narrow "
                                "it",
                                GB_EXPLORE_MAX_POINTS);
        }
    e->lws = ex->nlws && has_param(im, "LX") && has_param(im, "LY");
    gb_problem_t own = ex->pl->base;
    if (!ex->pl->has_layout)
        gb_impl_native_layout(im, &own);
    e->layout = gb_layout_index(own.layout, own.trans_a, own.trans_b);
    return GB_OK;
}

/* The kernel entries: 'all' is every family or preset of the registry in each precision it has
 * (the plan's precisions only, where given); a name is that kernel in the plan's precisions, or
 * in its own (single where it has both); with the precision 'all', in each of its own, those the
 * device cannot run skipped rather than refused. */
static int expand_kernels(gb_explore_t *ex, char *msg, size_t msglen)
{
    const gb_explore_plan_t *pl = ex->pl;
    if (!pl->kernels)
        return gb__fail(msg, msglen, GB_ENOKERNEL,
                        "no kernels to explore: give -k (like "
                        "SGEMM_NT_4x1,naive) or a plan that has them");
    if (!(ex->names_buf = gb__strdup(pl->kernels)) ||
        !(ex->entries = malloc(MAX_ENTRIES * sizeof *ex->entries)))
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    int rc = GB_OK;
    for (char *save = NULL, *t = strtok_r(ex->names_buf, ", ", &save); rc == GB_OK && t;
         t = strtok_r(NULL, ", ", &save)) {
        gb_impl_t im;
        if (!strcmp(t, "all")) {
            for (size_t fi = 0; rc == GB_OK && fi < gb_registry_count(ex->reg); fi++) {
                const gb_family_t *f = gb_registry_family(ex->reg, fi);
                const size_t np = gb_family_preset_count(f);
                for (size_t pi = 0; rc == GB_OK && pi < (np ? np : 1); pi++) {
                    const gb_preset_t *ps = gb_family_preset(f, pi);
                    const char *name = ps ? ps->name : gb_family_name(f);
                    const unsigned mask = ps ? ps->precisions : gb_family_precisions(f);
                    if ((rc = gb_impl_resolve(ex->reg, name, NULL, &im, msg, msglen)) != GB_OK)
                        return rc;
                    for (int p = 0; rc == GB_OK && p < GB_PREC_COUNT; p++)
                        if ((mask & (1u << p)) && (!pl->precisions || (pl->precisions & (1u << p))))
                            rc = add_entry(ex, name, (gb_precision_t)p, 0, &im, msg, msglen);
                }
            }
            continue;
        }
        if (!strcmp(t, GB_AUTO)) { /* the chooser picks per point; single unless asked */
            /* Under the precision 'all', every one, those the device cannot run skipped. */
            const unsigned want = pl->all_precisions ? GB_PREC_ALL : pl->precisions;
            memset(&im, 0, sizeof im);
            for (int p = 0; rc == GB_OK && p < GB_PREC_COUNT; p++)
                if (want ? (want & (1u << p)) != 0 : p == GB_PREC_S)
                    rc = add_entry(ex, t, (gb_precision_t)p, !pl->all_precisions, &im, msg, msglen);
            continue;
        }
        if (gb_impl_resolve(ex->reg, t, NULL, &im, msg, msglen) != GB_OK)
            return gb__fail(msg, msglen, GB_ENOKERNEL,
                            "unknown kernel '%s'; run 'gemmbench "
                            "kernels' to list them",
                            t);
        const unsigned own = gb_impl_precisions(&im);
        /* Its own precision: single where it has it, else the first it has (c for c and z). */
        const unsigned first = (own & 1u) || !own ? 1u : own & (~own + 1u);
        for (int p = 0; rc == GB_OK && p < GB_PREC_COUNT; p++)
            if (pl->all_precisions ? (own & GB_PREC_ALL & (1u << p)) != 0
                : pl->precisions   ? (pl->precisions & (1u << p)) != 0
                                   : (first & (1u << p)) != 0)
                rc = add_entry(ex, t, (gb_precision_t)p, !pl->all_precisions, &im, msg, msglen);
    }
    if (rc != GB_OK)
        return rc;
    if (!ex->nentries)
        return gb__fail(msg, msglen, GB_ENOKERNEL, "no kernel to explore in the precisions asked");
    /* Kernels whose own layouts differ, with none given, all take the plan's (row-major NN), so
     * that one run's rows solve one problem. */
    for (size_t e = 1; e < ex->nentries; e++)
        ex->one_layout |= ex->entries[e].layout != ex->entries[0].layout;
    /* Every parameter and the work-group sizes apply to at least one kernel. */
    const char *one = ex->entries[0].name; /* the kernel, where only one is explored */
    for (size_t e = 1; one && e < ex->nentries; e++)
        if (strcmp(ex->entries[e].name, one))
            one = NULL;
    for (size_t i = 0; i < pl->nparams; i++) {
        int used = 0;
        for (size_t e = 0; !used && e < ex->nentries; e++)
            for (size_t j = 0; j < ex->entries[e].nparams; j++)
                used |= ex->entries[e].params[j] == i;
        if (!used && one)
            return gb__fail(msg, msglen, GB_EBADPARAM,
                            "kernel '%s' has no parameter %s; "
                            "'gemmbench kernels' lists them",
                            one, pl->params[i].name);
        if (!used)
            return gb__fail(msg, msglen, GB_EBADPARAM,
                            "no kernel explored has a parameter %s; "
                            "'gemmbench kernels' lists each kernel's parameters",
                            pl->params[i].name);
    }
    int lws = !ex->nlws;
    for (size_t e = 0; !lws && e < ex->nentries; e++)
        lws = ex->entries[e].lws;
    if (!lws && one)
        return gb__fail(msg, msglen, GB_EBADLWS,
                        "kernel '%s' fixes its own work-group size (it "
                        "has no parameters LX and LY); drop --lws",
                        one);
    if (!lws)
        return gb__fail(msg, msglen, GB_EBADLWS,
                        "no kernel explored takes a work-group size (the "
                        "parameters LX and LY): each fixes its own; drop --lws");
    return GB_OK;
}

/* The index of the entry that holds point index. */
static size_t entry_index(const gb_explore_t *ex, size_t index)
{
    size_t lo = 0, hi = ex->nentries;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ex->entries[mid].first <= index)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static const entry_t *entry_of(const gb_explore_t *ex, size_t index)
{
    return &ex->entries[entry_index(ex, index)];
}

size_t gb_explore_entry_points(const gb_explore_t *ex, size_t index)
{
    return entry_of(ex, index)->count;
}

size_t gb_explore_entry_runnable(const gb_explore_t *ex, size_t index)
{
    return entry_of(ex, index)->runnable;
}

size_t gb_explore_data_key(const gb_explore_t *ex, size_t index)
{
    const entry_t *e = entry_of(ex, index);
    const size_t reps = ex->pl->repeat ? ex->pl->repeat : 1;
    const size_t shape = (index - e->first) / reps % ex->nshapes;
    return shape * GB_PREC_COUNT + (size_t)e->prec;
}

int gb_explore_job(gb_explore_t *ex, size_t index, gb_job_t *job)
{
    return gb_explore_job_on(ex, index, 0, job);
}

int gb_explore_job_on(gb_explore_t *ex, size_t index, size_t kind, gb_job_t *job)
{
    const gb_explore_plan_t *pl = ex->pl;
    const entry_t *e = entry_of(ex, index);
    /* Mixed radix within the entry, innermost first: rep, shape, lws, parameter combination. */
    size_t i = index - e->first, reps = pl->repeat ? pl->repeat : 1;
    const unsigned rep = (unsigned)(i % reps);
    i /= reps;
    const size_t *shape = ex->shapes[i % ex->nshapes];
    i /= ex->nshapes;
    const size_t nl = e->lws ? ex->nlws : 1, li = i % nl;
    size_t combo = i / nl;
    gb_params_t swept;
    long values[GB_MAX_PARAMS];
    memset(&swept, 0, sizeof swept);
    for (size_t p = e->nparams; p-- > 0;) {
        const gb_explore_plan_param_t *pp = &pl->params[e->params[p]];
        values[p] = pp->values[combo % pp->n];
        combo /= pp->n;
    }
    for (size_t p = 0; p < e->nparams; p++)
        gb_params_set(&swept, pl->params[e->params[p]].name, values[p]);
    gb_job_spec_t spec = {e->name,
                          e->named,
                          e->prec,
                          &swept,
                          e->lws ? ex->lws[li] : NULL,
                          &pl->base,
                          pl->has_layout || ex->one_layout,
                          shape[0],
                          shape[1],
                          shape[2],
                          &pl->bench,
                          rep,
                          ex->chooser};
    return gb_job_make(job, ex->reg, ex->devs[kind < ex->ndevs ? kind : 0], &spec);
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

/* Classifies point i over every kind of device: stored where any kind's id is in the store, to
 * run where some kind can run it, else skipped with the first kind's reason (a point that
 * crashed a process before cannot run: GB_ECRASH). GB_OK or an error that stops the expansion
 * (store, memory). */
static int classify(gb_explore_t *ex, size_t i, char *msg, size_t msglen)
{
    uint32_t mask = 0;
    int stored = 0, code = GB_OK;
    char why[512] = "";
    for (size_t k = 0; k < ex->ndevs && !stored; k++) {
        gb_job_t job;
        if (gb_explore_job_on(ex, i, k, &job) != GB_OK)
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        int crashed = 0;
        if (job.code == GB_OK && ex->crashes && (crashed = gb_store_crashed(ex->st, job.id)) < 0)
            return gb__fail(msg, msglen, crashed, "%s", gb_store_errmsg(ex->st));
        if (job.code != GB_OK || crashed) {
            if (code == GB_OK) {
                char desc[400];
                code = crashed ? GB_ECRASH : job.code;
                snprintf(why, sizeof why, "%s",
                         crashed ? gb_job_describe(&job, desc, sizeof desc) : job.why);
                if (crashed)
                    snprintf(why + strlen(why), sizeof why - strlen(why),
                             ": it crashed the process in an earlier run: not run again");
            }
            continue;
        }
        mask |= (uint32_t)1 << k;
        if ((stored = ex->st ? gb_store_exists(ex->st, job.id) : 0) < 0)
            return gb__fail(msg, msglen, stored, "%s", gb_store_errmsg(ex->st));
    }
    gb_xp_status_t s = stored ? GB_XP_STORED : mask ? GB_XP_TODO : GB_XP_SKIP;
    if (s == GB_XP_SKIP)
        tally(ex, code, why);
    ex->status[i] = (unsigned char)s;
    ex->entries[entry_index(ex, i)].runnable += s != GB_XP_SKIP;
    ex->runs_on[i] = mask;
    ex->counts[s]++;
    return GB_OK;
}

int gb_explore_open(gb_explore_t **out, const gb_explore_plan_t *pl, const gb_registry_t *reg,
                    const gb_device_info_t *dev, gb_store_t *st, const gb_chooser_t *chooser,
                    char *msg, size_t msglen)
{
    return gb_explore_open_on(out, pl, reg, &dev, 1, st, chooser, msg, msglen);
}

int gb_explore_open_on(gb_explore_t **out, const gb_explore_plan_t *pl, const gb_registry_t *reg,
                       const gb_device_info_t *const *devs, size_t ndevs, gb_store_t *st,
                       const gb_chooser_t *chooser, char *msg, size_t msglen)
{
    *out = NULL;
    if (!ndevs || ndevs > GB_EXPLORE_MAX_KINDS)
        return gb__fail(msg, msglen, GB_EBADARG, "%zu kinds of device; 1 to %d can share a sweep",
                        ndevs, GB_EXPLORE_MAX_KINDS);
    gb_explore_t *ex = calloc(1, sizeof *ex);
    if (!ex)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    ex->pl = pl;
    ex->reg = reg;
    memcpy(ex->devs, devs, ndevs * sizeof *devs);
    ex->ndevs = ndevs;
    ex->chooser = chooser;
    ex->st = st;
    int rc;
    if ((rc = expand_shapes(ex, msg, msglen)) != GB_OK ||
        (rc = expand_lws(ex, msg, msglen)) != GB_OK ||
        (rc = expand_kernels(ex, msg, msglen)) != GB_OK)
        goto done;
    const size_t per_shape = ex->nshapes * (pl->repeat ? pl->repeat : 1);
    for (size_t i = 0; i < ex->nentries; i++) {
        entry_t *e = &ex->entries[i];
        e->first = ex->total;
        e->count = e->ncombos;
        if (!mul_capped(&e->count, e->lws ? ex->nlws : 1) || !mul_capped(&e->count, per_shape) ||
            e->count > GB_EXPLORE_MAX_POINTS - ex->total) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "the plan has more than %u points; narrow it",
                          GB_EXPLORE_MAX_POINTS);
            goto done;
        }
        ex->total += e->count;
    }
    size_t crashes = 0;
    if (st && (rc = gb_store_crashes(st, &crashes)) != GB_OK) {
        rc = gb__fail(msg, msglen, rc, "%s", gb_store_errmsg(st));
        goto done;
    }
    ex->crashes = crashes > 0;
    if (!(ex->status = malloc(ex->total ? ex->total : 1)) ||
        !(ex->runs_on = calloc(ex->total ? ex->total : 1, sizeof *ex->runs_on))) {
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < ex->total; i++) {
        /* By the point's index in the plan's expansion, which every shard makes alike. */
        if (pl->shards > 1 && i % pl->shards != pl->shard) {
            ex->status[i] = GB_XP_OTHER;
            ex->counts[GB_XP_OTHER]++;
            continue;
        }
        if ((rc = classify(ex, i, msg, msglen)) != GB_OK)
            goto done;
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
    free(ex->entries);
    free(ex->shapes);
    free(ex->lws);
    free(ex->status);
    free(ex->runs_on);
    free(ex);
}

int gb_explore_one_layout(const gb_explore_t *ex)
{
    return ex->one_layout;
}

size_t gb_explore_total(const gb_explore_t *ex)
{
    return ex->total;
}

size_t gb_explore_count(const gb_explore_t *ex, gb_xp_status_t status)
{
    return (unsigned)status < 4 ? ex->counts[status] : 0;
}

gb_xp_status_t gb_explore_status(const gb_explore_t *ex, size_t index)
{
    return index < ex->total ? (gb_xp_status_t)ex->status[index] : GB_XP_SKIP;
}

int gb_explore_runs_on(const gb_explore_t *ex, size_t index, size_t kind)
{
    return index < ex->total && kind < ex->ndevs && (ex->runs_on[index] >> kind & 1u);
}

size_t gb_explore_kinds(const gb_explore_t *ex)
{
    return ex->ndevs;
}

size_t gb_explore_nreasons(const gb_explore_t *ex)
{
    return ex->nreasons;
}

const gb_xp_reason_t *gb_explore_reason(const gb_explore_t *ex, size_t i)
{
    return i < ex->nreasons ? &ex->reasons[i] : NULL;
}
