/* anneal.c: simulated annealing over a space's neighbourhoods (one parameter one candidate value
 * up or down, gb_space_neighbours).
 *
 * The walk keeps a current configuration and proposes one of its unseen neighbours at random.
 * A neighbour at least as good becomes the current one; a worse one does with probability
 * exp(-d / T), where d is how much worse it is relative to the best score found so far (0.05:
 * five per cent of the best) and T the temperature: T0 * exp(-k / TAU) after k evaluations since
 * the walk (re)started, never below TMIN. So a fresh walk crosses dips of a few per cent, and
 * after some TAU * 2 evaluations it only climbs. A failed configuration counts as a score of 0.
 * A fraction JUMP of the proposals are uniform samples of the space judged by the same rule
 * (a probe of far regions that the walk takes when it is good). When every neighbour of the
 * current configuration has been seen, the walk is stuck: it restarts, from the best configuration
 * seen that still has unseen neighbours (with probability RESTART_BEST: the region of the best is
 * where the gains are), else from a uniform sample, and the temperature starts again from T0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define T0 0.05
#define TMIN 0.002
#define TAU 25.0
#define JUMP 0.05
#define PAIR 0.1
#define RESTART_BEST 0.5
#define RESTART_SCAN 8 /* the best this many configurations told are tried as restart points */

typedef struct anneal {
    int have_cur;
    gb_space_cand_t cur;
    double cur_merit;
    uint64_t restart; /* the rank of a uniform restart point asked, awaited; UINT64_MAX none */
    unsigned steps;   /* evaluations since the walk restarted */
} anneal_t;

static int anneal_open(gb_strategy_t *st)
{
    anneal_t *a = calloc(1, sizeof *a);
    if (!a)
        return GB_ENOMEM;
    a->restart = UINT64_MAX;
    st->state = a;
    return GB_OK;
}

static void anneal_close(gb_strategy_t *st)
{
    free(st->state);
}

static int by_merit_desc(const void *x, const void *y)
{
    const gb_tune_point_t *const *a = x, *const *b = y;
    const double ma = gb_tune__merit((*a)->score), mb = gb_tune__merit((*b)->score);
    if (ma != mb)
        return ma > mb ? -1 : 1;
    return (*a)->rank < (*b)->rank ? -1 : (*a)->rank > (*b)->rank;
}

/* The best told configuration (of the RESTART_SCAN best) that has unseen neighbours, as the
 * current one: 1, or 0 when none has. */
static int restart_at_best(gb_strategy_t *st, anneal_t *a)
{
    const gb_tune_point_t *top[RESTART_SCAN];
    size_t ntop = 0;
    for (size_t i = 0; i < st->nhist; i++) {
        const gb_tune_point_t *p = &st->hist[i];
        if (p->score < 0)
            continue;
        /* Insertion into the best RESTART_SCAN so far. */
        size_t at = ntop < RESTART_SCAN ? ntop++ : RESTART_SCAN;
        if (at == RESTART_SCAN) {
            if (by_merit_desc(&p, &top[RESTART_SCAN - 1]) >= 0)
                continue;
            at = RESTART_SCAN - 1;
        }
        while (at > 0 && by_merit_desc(&p, &top[at - 1]) < 0) {
            top[at] = top[at - 1];
            at--;
        }
        top[at] = p;
    }
    gb_space_cand_t nb[2 * GB_MAX_PARAMS];
    uint64_t ranks[2 * GB_MAX_PARAMS];
    for (size_t i = 0; i < ntop; i++)
        if (gb_tune__fresh_neighbours(st, &top[i]->c, nb, ranks) > 0) {
            a->cur = top[i]->c;
            a->cur_merit = gb_tune__merit(top[i]->score);
            a->have_cur = 1;
            a->steps = 0;
            return 1;
        }
    return 0;
}

/* An unseen valid configuration two steps from the current one (two parameters one candidate
 * value each): 1, or 0 when a few draws find none. */
static int two_steps(gb_strategy_t *st, const anneal_t *a, gb_space_cand_t *c, uint64_t *rank)
{
    for (int t = 0; t < 8; t++) {
        gb_space_cand_t x = a->cur;
        const size_t i = (size_t)gb__rng_below(&st->rng, st->n),
                     j = (size_t)gb__rng_below(&st->rng, st->n);
        if (i == j)
            continue;
        int ok = 1;
        for (int k = 0; k < 2 && ok; k++) {
            const size_t p = k ? j : i, nv = gb_space_nvalues(st->sp, p);
            const int v = (int)x.v[p] + (gb__rng_below(&st->rng, 2) ? 1 : -1);
            ok = v >= 0 && v < (int)nv;
            if (ok)
                x.v[p] = (unsigned char)v;
        }
        if (!ok || gb_space_check(st->sp, &x, NULL, 0) != GB_OK)
            continue;
        const uint64_t r = gb_tune__rank(st, &x);
        if (gb_tune__seen(st, r))
            continue;
        *c = x;
        *rank = r;
        return 1;
    }
    return 0;
}

static int anneal_ask(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    anneal_t *a = st->state;
    if (a->have_cur && gb__rng_uniform(&st->rng) < JUMP)
        return gb_tune__random(st, c, rank);
    gb_space_cand_t nb[2 * GB_MAX_PARAMS];
    uint64_t ranks[2 * GB_MAX_PARAMS];
    size_t n = a->have_cur ? gb_tune__fresh_neighbours(st, &a->cur, nb, ranks) : 0;
    if (a->have_cur && n == 0) {
        /* Stuck: restart. */
        a->have_cur = 0;
        if (gb__rng_uniform(&st->rng) < RESTART_BEST && restart_at_best(st, a))
            n = gb_tune__fresh_neighbours(st, &a->cur, nb, ranks);
    }
    if (!a->have_cur) {
        if (!gb_tune__random(st, c, rank))
            return 0;
        a->restart = *rank;
        return 1;
    }
    if (gb__rng_uniform(&st->rng) < PAIR && two_steps(st, a, c, rank))
        return 1;
    const size_t i = (size_t)gb__rng_below(&st->rng, n);
    *c = nb[i];
    *rank = ranks[i];
    return 1;
}

static void anneal_tell(gb_strategy_t *st, const gb_tune_point_t *p)
{
    anneal_t *a = st->state;
    const double merit = gb_tune__merit(p->score);
    if (!a->have_cur || p->rank == a->restart) {
        /* The start of a walk: a restart point, or the first configuration told. */
        a->cur = p->c;
        a->cur_merit = merit;
        a->have_cur = 1;
        a->steps = 0;
        if (p->rank == a->restart)
            a->restart = UINT64_MAX;
        return;
    }
    a->steps++;
    const double ref =
        st->best != SIZE_MAX && st->hist[st->best].score > 0 ? st->hist[st->best].score : 1.0;
    const double d = (a->cur_merit - merit) / ref;
    int accept = d <= 0;
    if (!accept) {
        double t = T0 * exp(-(double)a->steps / TAU);
        if (t < TMIN)
            t = TMIN;
        accept = gb__rng_uniform(&st->rng) < exp(-d / t);
    }
    if (accept) {
        a->cur = p->c;
        a->cur_merit = merit;
    }
}

const gb_tune_ops_t gb_tune__ops_anneal = {
    "anneal",
    "simulated annealing over neighbours (one parameter one step), with random jumps and "
    "restarts when every neighbour is seen",
    1,
    0,
    anneal_open,
    anneal_close,
    anneal_ask,
    anneal_tell};
