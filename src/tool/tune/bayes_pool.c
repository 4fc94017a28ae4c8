/* bayes_pool.c: the candidates bayes (bayes.c) chooses its next one from: uniform samples of the
 * unseen configurations, the unseen neighbours of the best few told and random changes of one
 * or two of their parameters (jumps along the parameters that matter), and every change of one
 * or two parameters of the best, which its local steps take from. */
#include <stdlib.h>

#include "bayes_int.h"

#define POOL_RANDOM 256
#define POOL_BEST 5
#define POOL_MUT 16
#define CACHE_MAX 65536 /* spaces up to this size keep every configuration unranked */

static void pool_add(gb_strategy_t *st, bayes_t *b, const gb_space_cand_t *c, uint64_t r)
{
    if (r == UINT64_MAX || gb_tune__seen(st, r) ||
        gb__grow(&b->pool, &b->pool_cap, b->npool + 1, sizeof *b->pool) != GB_OK)
        return;
    b->pool[b->npool].rank = r;
    b->pool[b->npool].c = *c;
    b->npool++;
}

static int by_rank(const void *x, const void *y)
{
    const uint64_t a = ((const pool_entry_t *)x)->rank, c = ((const pool_entry_t *)y)->rank;
    return a < c ? -1 : a > c;
}

/* The best POOL_BEST successful configurations told, as history indices, best first. */
static size_t best_few(const gb_strategy_t *st, size_t *top)
{
    size_t ntop = 0;
    for (size_t i = 0; i < st->nhist; i++) {
        if (st->hist[i].score < 0)
            continue;
        size_t at = ntop < POOL_BEST ? ntop++ : POOL_BEST;
        if (at == POOL_BEST) {
            if (st->hist[i].score <= st->hist[top[POOL_BEST - 1]].score)
                continue;
            at = POOL_BEST - 1;
        }
        while (at > 0 && st->hist[i].score > st->hist[top[at - 1]].score) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = i;
    }
    return ntop;
}

/* Every valid unseen change of one or two parameters of base, to any of their values, into the
 * pool: the local search's candidates (a few hundred for a dozen parameters). */
static void add_changes(gb_strategy_t *st, bayes_t *b, const gb_space_cand_t *base)
{
    for (size_t i = 0; i < b->d; i++) {
        const size_t pi = b->param[i];
        for (size_t vi = 0; vi < b->nvals[i]; vi++) {
            if (vi == base->v[pi])
                continue;
            gb_space_cand_t c = *base;
            c.v[pi] = (unsigned char)vi;
            if (gb_space_check(st->sp, &c, NULL, 0) == GB_OK)
                pool_add(st, b, &c, gb_tune__rank(st, &c));
            for (size_t j = i + 1; j < b->d; j++) {
                const size_t pj = b->param[j];
                for (size_t vj = 0; vj < b->nvals[j]; vj++) {
                    if (vj == base->v[pj])
                        continue;
                    gb_space_cand_t e = c;
                    e.v[pj] = (unsigned char)vj;
                    if (gb_space_check(st->sp, &e, NULL, 0) == GB_OK)
                        pool_add(st, b, &e, gb_tune__rank(st, &e));
                }
            }
        }
    }
}

void gb_tune__bayes_pool(gb_strategy_t *st, bayes_t *b)
{
    b->npool = 0;
    if (!b->all && st->count <= CACHE_MAX && (b->all = malloc((size_t)st->count * sizeof *b->all)))
        for (uint64_t r = 0; r < st->count; r++)
            gb_space_unrank(st->sp, r, &b->all[r]);
    if (b->all && st->count - st->nseen <= POOL_RANDOM) {
        for (uint64_t r = 0; r < st->count; r++)
            pool_add(st, b, &b->all[r], r);
    } else {
        for (size_t i = 0; i < POOL_RANDOM; i++) {
            gb_space_cand_t c;
            uint64_t r;
            if (b->all) {
                r = gb__rng_below(&st->rng, st->count);
                pool_add(st, b, &b->all[r], r);
            } else if (gb_tune__random(st, &c, &r)) {
                pool_add(st, b, &c, r);
            }
        }
    }
    /* The best few: their neighbours, and changes of one or two parameters. */
    size_t top[POOL_BEST];
    const size_t ntop = best_few(st, top);
    for (size_t t = 0; t < ntop; t++) {
        const gb_space_cand_t *base = &st->hist[top[t]].c;
        gb_space_cand_t nb[2 * GB_MAX_PARAMS];
        uint64_t ranks[2 * GB_MAX_PARAMS];
        const size_t n = gb_tune__fresh_neighbours(st, base, nb, ranks);
        for (size_t i = 0; i < n; i++)
            pool_add(st, b, &nb[i], ranks[i]);
        for (size_t i = 0; i < POOL_MUT && b->d; i++) {
            gb_space_cand_t c = *base;
            const int changes = 1 + (int)gb__rng_below(&st->rng, 2);
            for (int k = 0; k < changes; k++) {
                const size_t p = b->param[gb__rng_below(&st->rng, b->d)];
                c.v[p] = (unsigned char)gb__rng_below(&st->rng, gb_space_nvalues(st->sp, p));
            }
            if (gb_space_check(st->sp, &c, NULL, 0) == GB_OK)
                pool_add(st, b, &c, gb_tune__rank(st, &c));
        }
    }
    if (ntop)
        add_changes(st, b, &st->hist[top[0]].c);
    /* One entry per configuration, in rank order (so that ties go to the lowest rank). */
    qsort(b->pool, b->npool, sizeof *b->pool, by_rank);
    size_t m = 0;
    for (size_t i = 0; i < b->npool; i++)
        if (!m || b->pool[m - 1].rank != b->pool[i].rank)
            b->pool[m++] = b->pool[i];
    b->npool = m;
}
