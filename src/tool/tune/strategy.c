/* strategy.c: what every search strategy shares (strategy.h): opening one by name, the set of
 * ranks already asked or told, the history of scores, uniform draws of unseen configurations;
 * and the two simplest strategies, exhaustive (rank order) and random (uniform draws without
 * repetition). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

static const gb_tune_ops_t *const strategies[] = {&gb_tune__ops_exhaustive, &gb_tune__ops_random,
                                                  &gb_tune__ops_anneal, &gb_tune__ops_genetic,
                                                  &gb_tune__ops_bayes};
#define NSTRATEGIES (sizeof strategies / sizeof strategies[0])

/* Spaces up to this many configurations keep a list of their unseen ranks once random draws
 * start missing (8 bytes each: 32 MiB at most). */
#define LEFT_MAX (1u << 22)
/* Random draws that may miss (hit a seen rank) before the list is built. */
#define MISSES 32

size_t gb_strategy_count(void)
{
    return NSTRATEGIES;
}

const char *gb_strategy_name(size_t i)
{
    return i < NSTRATEGIES ? strategies[i]->name : NULL;
}

const char *gb_strategy_description(size_t i)
{
    return i < NSTRATEGIES ? strategies[i]->description : NULL;
}

/* Strategy name's ops, or NULL for an unknown name. */
static const gb_tune_ops_t *ops_of(const char *name)
{
    for (size_t i = 0; i < NSTRATEGIES; i++)
        if (name && !strcmp(strategies[i]->name, name))
            return strategies[i];
    return NULL;
}

int gb_strategy_learns(const char *name)
{
    const gb_tune_ops_t *ops = ops_of(name);
    return ops ? ops->learns : 1;
}

int gb_strategy_whole(const char *name)
{
    const gb_tune_ops_t *ops = ops_of(name);
    return ops ? ops->whole : 0;
}

/* ---- the set of ranks seen ------------------------------------------------------------------ */

static size_t slot_of(uint64_t r, size_t cap)
{
    /* Fibonacci hashing: consecutive ranks (exhaustive) spread over the table. */
    return (size_t)((r + 1) * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
}

static size_t find_slot(const gb_strategy_t *st, uint64_t r)
{
    size_t h = slot_of(r, st->cap);
    while (st->keys[h] && st->keys[h] != r + 1)
        h = (h + 1) & (st->cap - 1);
    return h;
}

int gb_tune__seen(const gb_strategy_t *st, uint64_t r)
{
    return st->cap && st->keys[find_slot(st, r)] != 0;
}

static int told(const gb_strategy_t *st, uint64_t r)
{
    if (!st->cap)
        return 0;
    const size_t h = find_slot(st, r);
    return st->keys[h] && st->told[h];
}

/* Adds r to the set (told or only asked). GB_OK or GB_ENOMEM. */
static int mark(gb_strategy_t *st, uint64_t r, int is_told)
{
    if ((st->nseen + 1) * 2 > st->cap) {
        const size_t cap = st->cap ? 2 * st->cap : 256;
        uint64_t *keys = calloc(cap, sizeof *keys);
        unsigned char *flags = calloc(cap, 1);
        if (!keys || !flags) {
            free(keys);
            free(flags);
            return GB_ENOMEM;
        }
        for (size_t i = 0; i < st->cap; i++) {
            if (!st->keys[i])
                continue;
            size_t h = slot_of(st->keys[i] - 1, cap);
            while (keys[h])
                h = (h + 1) & (cap - 1);
            keys[h] = st->keys[i];
            flags[h] = st->told[i];
        }
        free(st->keys);
        free(st->told);
        st->keys = keys;
        st->told = flags;
        st->cap = cap;
    }
    const size_t h = find_slot(st, r);
    if (!st->keys[h]) {
        st->keys[h] = r + 1;
        st->nseen++;
    }
    st->told[h] = (unsigned char)(st->told[h] | is_told);
    return GB_OK;
}

/* ---- helpers for the strategies -------------------------------------------------------------- */

uint64_t gb_tune__rank(const gb_strategy_t *st, const gb_space_cand_t *c)
{
    return gb_space_rank(st->sp, c);
}

double gb_tune__merit(double score)
{
    return score > 0 ? score : 0;
}

size_t gb_tune__fresh_neighbours(const gb_strategy_t *st, const gb_space_cand_t *c,
                                 gb_space_cand_t *out, uint64_t *ranks)
{
    gb_space_cand_t nb[2 * GB_MAX_PARAMS];
    const size_t n = gb_space_neighbours(st->sp, c, nb, 2 * GB_MAX_PARAMS);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t r = gb_space_rank(st->sp, &nb[i]);
        if (r != UINT64_MAX && !gb_tune__seen(st, r)) {
            out[k] = nb[i];
            ranks[k++] = r;
        }
    }
    return k;
}

int gb_tune__random(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    if (st->nseen >= st->count)
        return 0;
    if (!st->left) {
        /* Where the list cannot be kept, the space is far larger than anything a tuning run
         * sees, and a draw misses only with the odds of nseen / count. */
        const unsigned tries = st->count > LEFT_MAX ? 1u << 20 : MISSES;
        for (unsigned t = 0; t < tries; t++) {
            const uint64_t r = gb__rng_below(&st->rng, st->count);
            if (!gb_tune__seen(st, r)) {
                *rank = r;
                return gb_space_unrank(st->sp, r, c) == GB_OK;
            }
        }
        if (st->count > LEFT_MAX)
            return 0;
        if (!(st->left = malloc((size_t)(st->count - st->nseen) * sizeof *st->left))) {
            st->oom = 1;
            return 0;
        }
        for (uint64_t r = 0; r < st->count; r++)
            if (!gb_tune__seen(st, r))
                st->left[st->nleft++] = r;
    }
    /* The list may hold ranks seen since it was made: they leave it when drawn. */
    while (st->nleft) {
        const size_t i = (size_t)gb__rng_below(&st->rng, st->nleft);
        const uint64_t r = st->left[i];
        if (gb_tune__seen(st, r)) {
            st->left[i] = st->left[--st->nleft];
            continue;
        }
        *rank = r;
        return gb_space_unrank(st->sp, r, c) == GB_OK;
    }
    return 0;
}

/* Uniform samples weighed by gb_tune__spread. */
#define SPREAD_DRAWS 64

/* How far apart two configurations are: over the parameters of more than one value, the squared
 * differences of their value indices, each over the parameter's span, summed into *dist; and
 * the values they share, each weighed by how rare it is among the draws (the inverse of its
 * share of them), added to *shared. */
static void apart(const gb_strategy_t *st, const gb_space_cand_t *x, const gb_space_cand_t *y,
                  double *dist, double *shared)
{
    double s = 0;
    for (size_t i = 0; i < st->n; i++) {
        const size_t nv = gb_space_nvalues(st->sp, i);
        if (nv < 2)
            continue;
        const double t = ((double)x->v[i] - (double)y->v[i]) / (double)(nv - 1);
        s += t * t;
        if (x->v[i] == y->v[i]) {
            const unsigned seen = st->drawn[i * GB_SPACE_MAX_VALUES + x->v[i]];
            *shared += (double)(st->ndrawn + nv) / (double)(seen + 1);
        }
    }
    *dist = s;
}

int gb_tune__spread(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    /* Balance first, as a Latin hypercube does: the draw whose values the points share least,
     * so that each parameter's values come up in the proportions the space has them, which is
     * what a model of each parameter's effect needs first. Those proportions, not equal ones:
     * a value the constraints allow rarely (the largest tiles, the widest vectors) is rare
     * because it borders where configurations run out of registers and local memory, and
     * equal shares made the design worse than uniform samples there
     * (bench/notes/strategies.md#wider-space). They are learned from the draws themselves. Of the
     * draws that balance best, the one whose nearest point is farthest. Not distance first: the
     * farthest configurations are the corners of the space; on the recorded H100 space that cost
     * 0.006 at 5% (bench/notes/strategies.md#strategies-recorded). */
    if (!st->drawn && !(st->drawn = calloc(st->n * GB_SPACE_MAX_VALUES, sizeof *st->drawn))) {
        st->oom = 1;
        return 0;
    }
    gb_space_cand_t draws[SPREAD_DRAWS];
    uint64_t ranks[SPREAD_DRAWS];
    size_t nd = 0;
    while (nd < SPREAD_DRAWS && gb_tune__random(st, &draws[nd], &ranks[nd])) {
        for (size_t i = 0; i < st->n; i++)
            st->drawn[i * GB_SPACE_MAX_VALUES + draws[nd].v[i]]++;
        nd++;
    }
    st->ndrawn += nd;
    double best_near = -1, best_shared = HUGE_VAL;
    for (size_t t = 0; t < nd; t++) {
        double near = HUGE_VAL, shared = 0;
        for (size_t k = 0; k < st->nhist + st->npend; k++) {
            const gb_space_cand_t *y = k < st->nhist ? &st->hist[k].c : &st->pend[k - st->nhist].c;
            double d;
            apart(st, &draws[t], y, &d, &shared);
            near = d < near ? d : near;
        }
        if (shared < best_shared - 1e-9 || (shared <= best_shared + 1e-9 && near > best_near)) {
            best_near = near;
            best_shared = shared;
            *c = draws[t];
            *rank = ranks[t];
        }
    }
    return nd > 0;
}

/* ---- the interface --------------------------------------------------------------------------- */

int gb_strategy_open(gb_strategy_t **out, const char *name, const gb_space_t *sp, uint64_t seed,
                     char *msg, size_t msglen)
{
    *out = NULL;
    const gb_tune_ops_t *ops = ops_of(name);
    if (!ops) {
        char known[128];
        size_t used = 0;
        known[0] = '\0';
        for (size_t i = 0; i < NSTRATEGIES; i++)
            gb__appendf(known, sizeof known, &used, "%s%s", i ? ", " : "", strategies[i]->name);
        return gb__fail(msg, msglen, GB_EBADARG, "unknown strategy '%s': choose one of %s",
                        name ? name : "", known);
    }
    gb_strategy_t *st = calloc(1, sizeof *st);
    if (!st)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    st->ops = ops;
    st->sp = sp;
    st->n = gb_space_nparams(sp);
    st->count = gb_space_count(sp);
    st->best = SIZE_MAX;
    gb__rng_seed(&st->rng, seed);
    if (ops->open && ops->open(st) != GB_OK) {
        gb_strategy_close(st);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    *out = st;
    return GB_OK;
}

void gb_strategy_close(gb_strategy_t *st)
{
    if (!st)
        return;
    if (st->ops->close)
        st->ops->close(st);
    free(st->keys);
    free(st->told);
    free(st->hist);
    free(st->left);
    free(st->drawn);
    free(st->pend);
    free(st);
}

int gb_strategy_ask(gb_strategy_t *st, gb_space_cand_t *c)
{
    if (st->oom || st->nseen >= st->count)
        return 0;
    gb_space_cand_t x;
    uint64_t r = UINT64_MAX;
    memset(&x, 0, sizeof x);
    if (!st->ops->ask(st, &x, &r))
        return 0;
    assert(r == gb_space_rank(st->sp, &x) && !gb_tune__seen(st, r));
    if (gb_tune__seen(st, r) && !gb_tune__random(st, &x, &r))
        return 0; /* the promise holds even if a strategy breaks its own */
    if (mark(st, r, 0) != GB_OK ||
        gb__grow(&st->pend, &st->pend_cap, st->npend + 1, sizeof *st->pend) != GB_OK) {
        st->oom = 1;
        return 0;
    }
    gb_tune_point_t *p = &st->pend[st->npend++];
    memset(p, 0, sizeof *p);
    p->c = x;
    p->rank = r;
    p->score = -1;
    *c = x;
    return 1;
}

void gb_strategy_tell(gb_strategy_t *st, const gb_space_cand_t *c, double score)
{
    const uint64_t r = gb_space_rank(st->sp, c);
    if (r == UINT64_MAX || told(st, r))
        return; /* not a configuration of the space, or told before: the first score stands */
    if (gb__grow(&st->hist, &st->hist_cap, st->nhist + 1, sizeof *st->hist) != GB_OK ||
        mark(st, r, 1) != GB_OK) {
        st->oom = 1;
        return;
    }
    for (size_t i = 0; i < st->npend; i++)
        if (st->pend[i].rank == r) {
            memmove(st->pend + i, st->pend + i + 1, (st->npend - i - 1) * sizeof *st->pend);
            st->npend--;
            break;
        }
    gb_tune_point_t *p = &st->hist[st->nhist];
    memset(p, 0, sizeof *p);
    p->c = *c;
    p->rank = r;
    p->score = isnan(score) || score < 0 ? -1.0 : score;
    if (p->score >= 0 && (st->best == SIZE_MAX || p->score > st->hist[st->best].score))
        st->best = st->nhist;
    st->nfailed += !(p->score > 0);
    st->nhist++;
    if (st->ops->tell)
        st->ops->tell(st, p);
}

/* ---- exhaustive: every configuration in rank order ------------------------------------------ */

static int exhaustive_open(gb_strategy_t *st)
{
    return (st->state = calloc(1, sizeof(uint64_t))) ? GB_OK : GB_ENOMEM;
}

static void exhaustive_close(gb_strategy_t *st)
{
    free(st->state);
}

static int exhaustive_ask(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    uint64_t *next = st->state;
    while (*next < st->count && gb_tune__seen(st, *next))
        ++*next;
    if (*next == st->count)
        return 0;
    *rank = *next;
    return gb_space_unrank(st->sp, *next, c) == GB_OK;
}

const gb_tune_ops_t gb_tune__ops_exhaustive = {
    "exhaustive",
    "every configuration in rank order (the seed is not used)",
    0,
    1,
    exhaustive_open,
    exhaustive_close,
    exhaustive_ask,
    NULL};

/* ---- random: uniform draws without repetition ----------------------------------------------- */

static int random_ask(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    return gb_tune__random(st, c, rank);
}

const gb_tune_ops_t gb_tune__ops_random = {
    "random", "uniform samples of the space without repetition", 0, 0, NULL, NULL, random_ask,
    NULL};
