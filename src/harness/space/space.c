/* space.c: a family's tuning space (gemmbench.h, "search spaces"). The configurations that pass
 * the family's checks are counted, ranked and unranked without being listed: parameters are
 * assigned in an order chosen to keep the frontiers narrow (order()), each check is evaluated
 * as soon as the last parameter it names has a value, and the number of valid completions of a
 * prefix is memoised under the values of the assigned parameters that later checks still name
 * (its frontier). Parameters that no check names come
 * last and multiply the count. This file builds and counts a space; space_rank.c queries it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "rt/family/expr.h"
#include "rt/family/registry.h"
#include "rt/plan/route.h"
#include "space_int.h"

/* ---- names in an expression ------------------------------------------------------------- */

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Does expr name `name` (as a variable, not a function)? */
static int names(const char *expr, const char *name)
{
    const size_t len = strlen(name);
    for (const char *p = expr; (p = strstr(p, name)) != NULL; p += len) {
        const char *q = p + len;
        while (*q == ' ')
            q++;
        if ((p == expr || !is_ident(p[-1])) && !is_ident(p[len]) && *q != '(')
            return 1;
    }
    return 0;
}

/* ---- the memo ------------------------------------------------------------------------------- */

entry_t *gb__space_memo_find(gb_space_t *sp, const unsigned char *key, size_t len, int insert)
{
    if (insert && (sp->memo_used + 1) * 4 > sp->memo_cap * 3) {
        const size_t cap = sp->memo_cap ? 2 * sp->memo_cap : 1024;
        entry_t *grown = calloc(cap, sizeof *grown);
        if (!grown) {
            sp->nomem = 1;
            return NULL;
        }
        for (size_t i = 0; i < sp->memo_cap; i++) {
            const entry_t *e = &sp->memo[i];
            if (!e->used)
                continue;
            size_t h = (size_t)gb__fnv1a64(e->key, e->len, GB_FNV_BASIS) & (cap - 1);
            while (grown[h].used)
                h = (h + 1) & (cap - 1);
            grown[h] = *e;
        }
        free(sp->memo);
        sp->memo = grown;
        sp->memo_cap = cap;
    }
    if (!sp->memo_cap)
        return NULL;
    size_t h = (size_t)gb__fnv1a64(key, len, GB_FNV_BASIS) & (sp->memo_cap - 1);
    while (sp->memo[h].used) {
        if (sp->memo[h].len == len && !memcmp(sp->memo[h].key, key, len))
            return &sp->memo[h];
        h = (h + 1) & (sp->memo_cap - 1);
    }
    if (!insert)
        return NULL;
    entry_t *e = &sp->memo[h];
    e->used = 1;
    e->len = len;
    memcpy(e->key, key, len);
    sp->memo_used++;
    return e;
}

size_t gb__space_key(const gb_space_t *sp, size_t i, const gb_space_cand_t *c, unsigned char *key)
{
    size_t len = 0;
    key[len++] = (unsigned char)i;
    for (size_t j = 0; j < i; j++)
        if (sp->frontier[i] >> j & 1u)
            key[len++] = c->v[j];
    return len;
}

/* ---- evaluation ----------------------------------------------------------------------------- */

static void set_value(gb_space_t *sp, size_t i, unsigned char v)
{
    sp->values_now[i] = sp->values[i][v];
}

int gb__space_run_check(const gb_space_t *sp, size_t k, const long long *values)
{
    long long ok = 0;
    return gb__expr_run(sp->checks[k].prog, values, &ok, NULL, 0) == GB_OK && ok;
}

/* Whether the checks completed by position i pass for the values set. */
static int passes_at(const gb_space_t *sp, size_t i)
{
    for (size_t k = 0; k < sp->nchecks; k++) {
        if (sp->checks[k].level != i || sp->checks[k].off)
            continue;
        if (!gb__space_run_check(sp, k, sp->values_now))
            return 0;
    }
    return 1;
}

static uint64_t add_capped(gb_space_t *sp, uint64_t a, uint64_t b)
{
    if (a > MAX_COUNT - b) {
        sp->overflow = 1;
        return MAX_COUNT;
    }
    return a + b;
}

/* Valid completions of positions [i, nchecked) given c's values before i (set in vars). */
static uint64_t count_from(gb_space_t *sp, size_t i, gb_space_cand_t *c)
{
    if (i == sp->nchecked)
        return 1;
    unsigned char key[GB_MAX_PARAMS + 1];
    const size_t len = gb__space_key(sp, i, c, key);
    entry_t *e = gb__space_memo_find(sp, key, len, 0);
    if (e)
        return e->count;
    uint64_t total = 0;
    for (unsigned char v = 0; v < sp->nvalues[i]; v++) {
        c->v[i] = v;
        set_value(sp, i, v);
        if (passes_at(sp, i))
            total = add_capped(sp, total, count_from(sp, i + 1, c));
    }
    if ((e = gb__space_memo_find(sp, key, len, 1)) != NULL)
        e->count = total;
    return total;
}

/* The product of the free positions' value counts (capped). */
static uint64_t free_product(gb_space_t *sp)
{
    uint64_t p = 1;
    for (size_t i = sp->nchecked; i < sp->n; i++) {
        if (p > MAX_COUNT / sp->nvalues[i]) {
            sp->overflow = 1;
            return MAX_COUNT;
        }
        p *= sp->nvalues[i];
    }
    return p;
}

static uint64_t count_all(gb_space_t *sp)
{
    gb_space_cand_t c;
    memset(&c, 0, sizeof c);
    free(sp->memo);
    sp->memo = NULL;
    sp->memo_cap = sp->memo_used = 0;
    const uint64_t head = count_from(sp, 0, &c), tail = free_product(sp);
    if (head && tail > MAX_COUNT / head) {
        sp->overflow = 1;
        return MAX_COUNT;
    }
    return head * tail;
}

/* ---- building a space ----------------------------------------------------------------------- */

/* A range's candidates: its powers of two, its ends and its default. */
static int range_values(const gb_param_t *p, long **out, size_t *n)
{
    long v[80];
    size_t k = 0;
    v[k++] = p->lo;
    for (long x = 1; x > 0 && x <= p->hi && k < 70; x *= 2)
        if (x > p->lo)
            v[k++] = x;
    v[k++] = p->hi;
    v[k++] = p->def;
    /* Sort and drop duplicates. */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
            long t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    if (!(*out = malloc(m * sizeof **out)))
        return GB_ENOMEM;
    memcpy(*out, v, m * sizeof **out);
    *n = m;
    return GB_OK;
}

/* Candidate values of family parameter k: the narrowing's, else its own (its default alone for
 * a parameter the tuner leaves as it is, "tune": false, or one that changes the kernel in none
 * of the family's native layouts, the only ones its kernel sees). */
static int candidates(const gb_family_t *f, size_t k, const gb_space_values_t *narrow,
                      size_t nnarrow, long **out, size_t *n, char *msg, size_t msglen)
{
    const gb_param_t *p = &f->params[k];
    for (size_t i = 0; i < nnarrow; i++) {
        if (strcmp(narrow[i].name, p->name))
            continue;
        if (!narrow[i].n || narrow[i].n > GB_SPACE_MAX_VALUES)
            return gb__fail(msg, msglen, GB_EBADPARAM, "give %s from 1 to %d values", p->name,
                            GB_SPACE_MAX_VALUES);
        for (size_t j = 0; j < narrow[i].n; j++)
            if (!gb__param_allowed(p, narrow[i].values[j]))
                return gb__fail(msg, msglen, GB_EBADPARAM,
                                "%s=%ld is not allowed for kernel "
                                "'%s'",
                                p->name, narrow[i].values[j], f->name);
        if (!(*out = malloc(narrow[i].n * sizeof **out)))
            return GB_ENOMEM;
        /* Ascending and unique, as neighbours step through them in order. */
        size_t m = 0;
        for (size_t j = 0; j < narrow[i].n; j++) {
            size_t at = 0;
            while (at < m && (*out)[at] < narrow[i].values[j])
                at++;
            if (at < m && (*out)[at] == narrow[i].values[j])
                continue;
            memmove(*out + at + 1, *out + at, (m - at) * sizeof **out);
            (*out)[at] = narrow[i].values[j];
            m++;
        }
        *n = m;
        return GB_OK;
    }
    if (p->untuned || (p->layouts && !(p->layouts & gb_family_layouts(f)))) {
        if (!(*out = malloc(sizeof **out)))
            return GB_ENOMEM;
        **out = p->def;
        *n = 1;
        return GB_OK;
    }
    if (!p->values)
        return range_values(p, out, n);
    if (p->nvalues > GB_SPACE_MAX_VALUES)
        return gb__fail(msg, msglen, GB_EBADPARAM, "%s has more than %d values; narrow it", p->name,
                        GB_SPACE_MAX_VALUES);
    if (!(*out = malloc(p->nvalues * sizeof **out)))
        return GB_ENOMEM;
    memcpy(*out, p->values, p->nvalues * sizeof **out);
    *n = p->nvalues;
    for (size_t i = 1; i < *n; i++) /* ascending */
        for (size_t j = i; j > 0 && (*out)[j - 1] > (*out)[j]; j--) {
            long t = (*out)[j];
            (*out)[j] = (*out)[j - 1];
            (*out)[j - 1] = t;
        }
    return GB_OK;
}

static int add_check(gb_space_t *sp, const char *fmt, const char *a, const char *b, const char *c,
                     const char *what, int code)
{
    if (sp->nchecks == MAX_CHECKS)
        return GB_EMETADATA;
    check_t *k = &sp->checks[sp->nchecks];
    const size_t len = strlen(fmt) + strlen(a) + strlen(b) + strlen(c) + 1;
    if (!(k->expr = malloc(len)))
        return GB_ENOMEM;
    snprintf(k->expr, len, fmt, a, b, c);
    k->what = what;
    k->code = code;
    sp->nchecks++;
    return GB_OK;
}

/* Whether f is a PTX program that dev cannot load but whose parameters can emulate it
 * (ptx_unless): then the space holds only the emulating configurations. */
static int ptx_emulated(const gb_family_t *f, const gb_device_info_t *dev)
{
    return dev && f->ptx_target && f->ptx_unless && !gb__ptx_runs_on(f->ptx_target, dev);
}

/* The family's checks, with the device's limits: those on the problem's sizes only where the
 * space is bound to a problem (has_problem). */
static int collect_checks(gb_space_t *sp, const gb_device_info_t *dev, int has_problem)
{
    const gb_family_t *f = sp->family;
    static const char *const problem[] = {"M", "N", "K", "ROW"};
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < f->nconstraints; i++) {
        int per_problem = 0;
        for (size_t j = 0; j < 4; j++)
            per_problem |= names(f->constraints[i], problem[j]);
        if (!per_problem || has_problem) /* else they wait for it, as gb_config_check does */
            rc = add_check(sp, "%s%s%s", f->constraints[i], "", "", "constraint", GB_ECONSTRAINT);
    }
    if (rc == GB_OK && ptx_emulated(f, dev)) /* only the configurations that emulate it */
        rc = add_check(sp, "%s%s%s", f->ptx_unless, "", "",
                       "emulation condition (this device cannot load its PTX)", GB_EUNSUPPORTED);
    if (rc == GB_OK && dev && f->local_mem) {
        char limit[32];
        snprintf(limit, sizeof limit, "%llu", (unsigned long long)dev->local_mem_kernel);
        rc = add_check(sp, "(%s) <= %s%s", f->local_mem, limit, "", "local memory", GB_ELOCALMEM);
    }
    if (rc == GB_OK && dev && f->local[0]) {
        /* The product within the device's work-group, and each side within its maximum. */
        char expr[2400];
        snprintf(expr, sizeof expr,
                 "(%s) >= 1 && (%s) >= 1 && (%s) <= %zu && (%s) <= %zu && "
                 "(%s) <= %zu / (%s)",
                 f->local[0], f->local[1], f->local[0], dev->max_wi_sizes[0], f->local[1],
                 dev->max_wi_sizes[1], f->local[0], dev->max_wg_size, f->local[1]);
        rc = add_check(sp, "%s%s%s", expr, "", "", "work-group size", GB_EWGSIZE);
    }
    return rc;
}

/* The product of the value counts of the parameters in mask (family indices), as a double:
 * the number of memo states a frontier can hold. */
static double states(const size_t *nvalues, unsigned long long mask)
{
    double p = 1;
    for (size_t k = 0; mask; k++, mask >>= 1)
        if (mask & 1u)
            p *= (double)nvalues[k];
    return p;
}

/* The frontier once the parameters in done are assigned: those of them that a check also
 * naming one not yet assigned still needs. uses holds each check's parameters, as done does,
 * by family index or by position. */
static unsigned long long frontier_of(const unsigned long long *uses, size_t nchecks,
                                      unsigned long long done)
{
    unsigned long long fr = 0;
    for (size_t c = 0; c < nchecks; c++)
        if ((uses[c] & done) && (uses[c] & ~done))
            fr |= uses[c] & done;
    return fr;
}

/* What an order of the named parameters costs the memo at most: the frontier states summed
 * over the positions. */
static double order_cost(const size_t *ord, size_t nn, const unsigned long long *uses,
                         size_t nchecks, const size_t *nvalues)
{
    double cost = 0;
    unsigned long long done = 0;
    for (size_t i = 0; i < nn; i++) {
        done |= 1ull << ord[i];
        cost += states(nvalues, frontier_of(uses, nchecks, done));
    }
    return cost;
}

/* Orders the parameters, those the checks name first, and finds each check's level and each
 * position's frontier. The memo holds a count for every frontier state reached, so the named
 * ones go in the order that bounds those states lowest of the family's own and a greedy one
 * (next the parameter that leaves the fewest), improved by swaps: the family's order alone
 * left dgemm_dmma_nn millions of states, the greedy one xgemm. nvalues holds each family
 * parameter's value count. */
static void order(gb_space_t *sp, const size_t *nvalues)
{
    const gb_family_t *f = sp->family;
    unsigned long long uses[MAX_CHECKS], named = 0;
    for (size_t c = 0; c < sp->nchecks; c++) {
        uses[c] = 0;
        for (size_t k = 0; k < f->nparams; k++)
            if (names(sp->checks[c].expr, f->params[k].name))
                uses[c] |= 1ull << k;
        named |= uses[c];
    }
    size_t own[GB_MAX_PARAMS], greedy[GB_MAX_PARAMS], nn = 0;
    for (size_t k = 0; k < f->nparams; k++)
        if (named >> k & 1u)
            own[nn++] = k;
    unsigned long long done = 0;
    for (size_t i = 0; i < nn; i++) {
        size_t best = f->nparams;
        double best_states = 0;
        for (size_t j = 0; j < nn; j++) {
            const size_t k = own[j];
            if (done >> k & 1u)
                continue;
            const double st = states(nvalues, frontier_of(uses, sp->nchecks, done | 1ull << k));
            if (best == f->nparams || st < best_states) {
                best = k;
                best_states = st;
            }
        }
        greedy[i] = best;
        done |= 1ull << best;
    }
    double cost = order_cost(own, nn, uses, sp->nchecks, nvalues);
    const double cost_greedy = order_cost(greedy, nn, uses, sp->nchecks, nvalues);
    size_t *ord = cost_greedy < cost ? greedy : own;
    cost = cost_greedy < cost ? cost_greedy : cost;
    for (int better = 1, pass = 0; better && pass < 16; pass++) {
        better = 0;
        for (size_t i = 0; i < nn; i++)
            for (size_t j = i + 1; j < nn; j++) {
                size_t t = ord[i];
                ord[i] = ord[j];
                ord[j] = t;
                const double c = order_cost(ord, nn, uses, sp->nchecks, nvalues);
                if (c < cost) {
                    cost = c;
                    better = 1;
                } else {
                    ord[j] = ord[i];
                    ord[i] = t;
                }
            }
    }
    memcpy(sp->order, ord, nn * sizeof *ord);
    sp->nchecked = nn;
    for (size_t k = 0, i = nn; k < f->nparams; k++)
        if (!(named >> k & 1u))
            sp->order[i++] = k;
    /* The API's order: own[] then the rest, which keep their places. */
    for (size_t a = 0; a < nn; a++)
        for (size_t i = 0; i < nn; i++)
            if (sp->order[i] == own[a])
                sp->inner[a] = i;
    for (size_t i = nn; i < f->nparams; i++)
        sp->inner[i] = i;
    unsigned long long at[MAX_CHECKS]; /* each check's parameters by position */
    for (size_t c = 0; c < sp->nchecks; c++) {
        check_t *k = &sp->checks[c];
        at[c] = 0;
        k->level = 0;
        for (size_t i = 0; i < nn; i++)
            if (uses[c] >> sp->order[i] & 1u) {
                at[c] |= 1ull << i;
                k->level = i;
            }
    }
    for (size_t i = 0; i <= nn; i++)
        sp->frontier[i] = frontier_of(at, sp->nchecks, (1ull << i) - 1);
}

/* Says which checks emptied the space: checks left out one by one until something is left,
 * then each of those taken back that is not needed, so the message names a few that together
 * leave nothing (usually one). */
static void empty_why(gb_space_t *sp, const char *family, char *msg, size_t msglen)
{
    size_t k = 0;
    for (; k < sp->nchecks; k++) {
        sp->checks[k].off = 1;
        if (count_all(sp) > 0)
            break;
    }
    for (size_t j = 0; k < sp->nchecks && j < k; j++) {
        sp->checks[j].off = 0;
        if (count_all(sp) == 0)
            sp->checks[j].off = 1;
    }
    char what[1024];
    size_t used = 0, n = 0;
    what[0] = '\0';
    for (size_t j = 0; j < sp->nchecks; j++) {
        const check_t *c = &sp->checks[j];
        if (!c->off)
            continue;
        if (c->code == GB_ECONSTRAINT || c->code == GB_EUNSUPPORTED)
            gb__appendf(what, sizeof what, &used, "%s%s '%s'", n ? " and its " : "", c->what,
                        c->expr);
        else
            gb__appendf(what, sizeof what, &used, "%s%s limit on this device", n ? " and its " : "",
                        c->what);
        n++;
    }
    if (!n)
        gb__fail(msg, msglen, GB_ECONSTRAINT,
                 "no configuration of kernel '%s' passes its checks; widen the values given",
                 family);
    else
        gb__fail(msg, msglen, GB_ECONSTRAINT,
                 "no configuration of kernel '%s' passes its %s%s; widen the values given", family,
                 what, n > 1 ? " together" : "");
}

int gb_space_open(gb_space_t **out, const gb_family_t *f, gb_precision_t prec,
                  const gb_device_info_t *dev, const gb_space_values_t *narrow, size_t nnarrow,
                  char *msg, size_t msglen)
{
    return gb_space_open_for(out, f, prec, dev, narrow, nnarrow, NULL, msg, msglen);
}

int gb_space_open_for(gb_space_t **out, const gb_family_t *f, gb_precision_t prec,
                      const gb_device_info_t *dev, const gb_space_values_t *narrow, size_t nnarrow,
                      const gb_problem_t *problem, char *msg, size_t msglen)
{
    *out = NULL;
    if (!f->nparams)
        return gb__fail(msg, msglen, GB_EBADPARAM, "kernel '%s' has no parameters: nothing to tune",
                        f->name);
    for (size_t i = 0; i < nnarrow; i++) {
        size_t k = 0;
        while (k < f->nparams && strcmp(f->params[k].name, narrow[i].name))
            k++;
        if (k == f->nparams)
            return gb__fail(msg, msglen, GB_EBADPARAM, "kernel '%s' has no parameter %s", f->name,
                            narrow[i].name);
    }
    /* What does not depend on the parameters: precision, fp64, extensions, images. */
    gb_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.family = f;
    for (size_t k = 0; k < f->nparams; k++)
        gb_params_set(&cfg.params, f->params[k].name, f->params[k].def);
    char has[16];
    if (!(gb_precisions_1m(f->precisions) & (1u << prec)))
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "kernel '%s' has no %s-precision version; choose one of its precisions "
                        "(%s)",
                        f->name, gb_precision_title(prec),
                        gb_precision_mask_text(gb_precisions_1m(f->precisions), has, sizeof has));
    gb_space_t *sp = calloc(1, sizeof *sp);
    if (!sp)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    sp->family = f;
    sp->n = f->nparams;
    int rc = collect_checks(sp, dev, problem != NULL);
    /* The candidates by family index, then by position once ordered. */
    for (size_t k = 0; rc == GB_OK && k < sp->n; k++)
        rc = candidates(f, k, narrow, nnarrow, &sp->values[k], &sp->nvalues[k], msg, msglen);
    if (rc == GB_OK) {
        long *values[GB_MAX_PARAMS];
        size_t nvalues[GB_MAX_PARAMS];
        memcpy(values, sp->values, sizeof values);
        memcpy(nvalues, sp->nvalues, sizeof nvalues);
        order(sp, nvalues);
        for (size_t i = 0; i < sp->n; i++) {
            sp->values[i] = values[sp->order[i]];
            sp->nvalues[i] = nvalues[sp->order[i]];
        }
    }
    if (rc != GB_OK) {
        if (rc == GB_ENOMEM || rc == GB_EMETADATA)
            gb__fail(msg, msglen, rc, rc == GB_ENOMEM ? "out of memory" : "%s: too many checks",
                     f->origin);
        gb_space_close(sp);
        return rc;
    }
    for (size_t i = 0; i < sp->n; i++) {
        sp->names[i] = f->params[sp->order[i]].name;
        sp->values_now[i] = sp->values[i][0];
    }
    sp->nvars = sp->n;
    /* The constants the configuration check sees (gb_config_check): through the 1M method, the
     * real precision's and the real problem's. */
    const int onem = gb__config_1m(&cfg, prec);
    gb_var_t consts[GB_PRECISION_VARS + GB_DEVICE_VARS + GB_PROBLEM_VARS];
    size_t nconsts = gb__precision_vars(onem ? gb_precision_arith(prec) : prec, consts);
    nconsts += gb__route_device_vars(dev, consts + nconsts);
    if (problem) {
        gb_problem_t real = *problem;
        if (onem)
            gb__problem_1m(problem, &real, NULL, NULL, NULL);
        nconsts += gb__problem_vars(&real, consts + nconsts);
    }
    for (size_t i = 0; i < nconsts; i++) {
        sp->names[sp->nvars] = consts[i].name;
        sp->values_now[sp->nvars++] = consts[i].value;
    }
    for (size_t k = 0; rc == GB_OK && k < sp->nchecks; k++)
        rc = gb__expr_compile(sp->checks[k].expr, sp->names, sp->nvars, &sp->checks[k].prog, msg,
                              msglen);
    if (rc != GB_OK) {
        gb_space_close(sp);
        return rc;
    }
    if (dev && (rc = gb_config_check(&cfg, dev, prec, NULL, NULL, 0)) != GB_OK &&
        rc != GB_ECONSTRAINT && rc != GB_EWGSIZE && rc != GB_ELOCALMEM &&
        !(rc == GB_EUNSUPPORTED && ptx_emulated(f, dev))) {
        /* The device lacks what the family needs whatever its parameters. */
        gb_config_check(&cfg, dev, prec, NULL, msg, msglen);
        gb_space_close(sp);
        return rc;
    }
    sp->count = count_all(sp);
    if (sp->nomem || sp->overflow) {
        rc = gb__fail(msg, msglen, sp->nomem ? GB_ENOMEM : GB_EOVERFLOW,
                      sp->nomem ? "out of memory counting the space"
                                : "kernel '%s''s space has over 2^62 "
                                  "configurations; narrow it with --param or --fix",
                      f->name);
        gb_space_close(sp);
        return rc;
    }
    if (sp->count == 0) {
        empty_why(sp, f->name, msg, msglen);
        rc = GB_ECONSTRAINT;
        for (size_t k = 0; k < sp->nchecks; k++)
            if (sp->checks[k].off && sp->checks[k].code != GB_ECONSTRAINT)
                rc = sp->checks[k].code;
        gb_space_close(sp);
        return rc;
    }
    *out = sp;
    return GB_OK;
}

void gb_space_close(gb_space_t *sp)
{
    if (!sp)
        return;
    for (size_t i = 0; i < GB_MAX_PARAMS; i++)
        free(sp->values[i]);
    for (size_t k = 0; k < sp->nchecks; k++) {
        free(sp->checks[k].expr);
        gb__expr_free(sp->checks[k].prog);
    }
    free(sp->memo);
    free(sp);
}
