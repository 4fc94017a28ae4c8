/* space_rank.c: queries on a tuning space once it is built (space.c): its parameters and
 * values, whether a candidate passes, and a candidate's rank and the candidate of a rank, from
 * the memoised counts of valid completions. Candidates come and go in the API's order of the
 * parameters and are ranked in the positions' (the counting order, sp->inner). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "space_int.h"

uint64_t gb_space_count(const gb_space_t *sp)
{
    return sp->count;
}

size_t gb_space_nparams(const gb_space_t *sp)
{
    return sp->n;
}

const char *gb_space_param(const gb_space_t *sp, size_t i)
{
    return i < sp->n ? sp->family->params[sp->order[sp->inner[i]]].name : NULL;
}

size_t gb_space_nvalues(const gb_space_t *sp, size_t i)
{
    return i < sp->n ? sp->nvalues[sp->inner[i]] : 0;
}

long gb_space_value(const gb_space_t *sp, size_t i, size_t j)
{
    return i < sp->n && j < sp->nvalues[sp->inner[i]] ? sp->values[sp->inner[i]][j] : 0;
}

const gb_family_t *gb_space_family(const gb_space_t *sp)
{
    return sp->family;
}

/* A candidate in the API's order as positions (in), and back (out). */
static void inward(const gb_space_t *sp, const gb_space_cand_t *c, gb_space_cand_t *in)
{
    memset(in, 0, sizeof *in);
    for (size_t i = 0; i < sp->n; i++)
        in->v[sp->inner[i]] = c->v[i];
}

static void outward(const gb_space_t *sp, const gb_space_cand_t *in, gb_space_cand_t *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < sp->n; i++)
        c->v[i] = in->v[sp->inner[i]];
}

int gb_space_check(const gb_space_t *sp, const gb_space_cand_t *c, char *msg, size_t msglen)
{
    long long values[GB_MAX_PARAMS + 8];
    memcpy(values, sp->values_now, sp->nvars * sizeof *values);
    for (size_t i = 0; i < sp->n; i++) {
        const size_t at = sp->inner[i];
        if (c->v[i] >= sp->nvalues[at])
            return gb__fail(msg, msglen, GB_EBADPARAM, "value %u of %s is outside the space",
                            c->v[i], gb_space_param(sp, i));
        values[at] = sp->values[at][c->v[i]];
    }
    for (size_t k = 0; k < sp->nchecks; k++) {
        if (!gb__space_run_check(sp, k, values))
            return gb__fail(msg, msglen, sp->checks[k].code, "fails its %s%s%s%s",
                            sp->checks[k].what, sp->checks[k].code == GB_ECONSTRAINT ? " '" : "",
                            sp->checks[k].code == GB_ECONSTRAINT ? sp->checks[k].expr : "",
                            sp->checks[k].code == GB_ECONSTRAINT ? "'" : " limit");
    }
    return GB_OK;
}

/* The memoised count of position i's completions for c's prefix (the space is read-only here:
 * every state reachable from a valid prefix was counted when the space was opened). */
static uint64_t memo_count(const gb_space_t *sp, size_t i, const gb_space_cand_t *c)
{
    if (i == sp->nchecked)
        return 1;
    unsigned char key[GB_MAX_PARAMS + 1];
    const size_t len = gb__space_key(sp, i, c, key);
    entry_t *e = gb__space_memo_find((gb_space_t *)sp, key, len, 0);
    return e ? e->count : 0;
}

/* Whether the checks completed at position i pass for c's values (values is a scratch copy). */
static int passes_cand(const gb_space_t *sp, long long *values, size_t i, const gb_space_cand_t *c)
{
    for (size_t j = 0; j <= i; j++)
        values[j] = sp->values[j][c->v[j]];
    for (size_t k = 0; k < sp->nchecks; k++)
        if (sp->checks[k].level == i && !gb__space_run_check(sp, k, values))
            return 0;
    return 1;
}

int gb_space_unrank(const gb_space_t *sp, uint64_t r, gb_space_cand_t *out)
{
    if (r >= sp->count)
        return GB_EBADARG;
    gb_space_cand_t in, *c = &in; /* by position */
    memset(c, 0, sizeof *c);
    uint64_t tail = 1;
    for (size_t i = sp->nchecked; i < sp->n; i++)
        tail *= sp->nvalues[i];
    uint64_t head = r / tail, rest = r % tail;
    long long vars[GB_MAX_PARAMS + 8];
    memcpy(vars, sp->values_now, sp->nvars * sizeof *vars);
    for (size_t i = 0; i < sp->nchecked; i++) {
        unsigned char v = 0;
        for (; v < sp->nvalues[i]; v++) {
            c->v[i] = v;
            if (!passes_cand(sp, vars, i, c))
                continue;
            const uint64_t n = memo_count(sp, i + 1, c);
            if (head < n)
                break;
            head -= n;
        }
        if (v == sp->nvalues[i])
            return GB_EBADARG; /* cannot happen for r < count */
    }
    for (size_t i = sp->n; i-- > sp->nchecked;) {
        c->v[i] = (unsigned char)(rest % sp->nvalues[i]);
        rest /= sp->nvalues[i];
    }
    outward(sp, c, out);
    return GB_OK;
}

uint64_t gb_space_rank(const gb_space_t *sp, const gb_space_cand_t *given)
{
    if (gb_space_check(sp, given, NULL, 0) != GB_OK)
        return UINT64_MAX;
    gb_space_cand_t in, *c = &in; /* by position */
    inward(sp, given, c);
    uint64_t head = 0;
    gb_space_cand_t p;
    memset(&p, 0, sizeof p);
    long long vars[GB_MAX_PARAMS + 8];
    memcpy(vars, sp->values_now, sp->nvars * sizeof *vars);
    for (size_t i = 0; i < sp->nchecked; i++) {
        for (unsigned char v = 0; v < c->v[i]; v++) {
            p.v[i] = v;
            if (passes_cand(sp, vars, i, &p))
                head += memo_count(sp, i + 1, &p);
        }
        p.v[i] = c->v[i];
    }
    uint64_t tail = 0;
    for (size_t i = sp->nchecked; i < sp->n; i++)
        tail = tail * sp->nvalues[i] + c->v[i];
    uint64_t width = 1;
    for (size_t i = sp->nchecked; i < sp->n; i++)
        width *= sp->nvalues[i];
    return head * width + tail;
}

size_t gb_space_neighbours(const gb_space_t *sp, const gb_space_cand_t *c, gb_space_cand_t *out,
                           size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < sp->n && n < cap; i++)
        for (int d = -1; d <= 1 && n < cap; d += 2) {
            const int v = (int)c->v[i] + d;
            if (v < 0 || v >= (int)gb_space_nvalues(sp, i))
                continue;
            out[n] = *c;
            out[n].v[i] = (unsigned char)v;
            if (gb_space_check(sp, &out[n], NULL, 0) == GB_OK)
                n++;
        }
    return n;
}

void gb_space_params(const gb_space_t *sp, const gb_space_cand_t *c, gb_params_t *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sp->n; i++)
        gb_params_set(out, gb_space_param(sp, i),
                      gb_space_value(sp, i, c->v[i] < gb_space_nvalues(sp, i) ? c->v[i] : 0));
}

int gb_space_find(const gb_space_t *sp, const gb_params_t *ps, gb_space_cand_t *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < sp->n; i++) {
        const size_t at = sp->inner[i];
        const gb_param_t *p = &sp->family->params[sp->order[at]];
        long v;
        if (!gb_params_get(ps, p->name, &v))
            v = p->def;
        size_t j = 0;
        while (j < sp->nvalues[at] && sp->values[at][j] != v)
            j++;
        if (j == sp->nvalues[at])
            return GB_EBADPARAM;
        c->v[i] = (unsigned char)j;
    }
    return GB_OK;
}
