/* genetic.c: a steady-state genetic algorithm. The population is the first POP configurations
 * told (uniform samples); then each candidate asked is a child of two parents, each the best of
 * TOURNAMENT members drawn at random, taking every parameter from one parent or the other with
 * even odds (uniform crossover), and mutated: each parameter with probability 1/n (n parameters;
 * at least one when the child equals a parent), to a neighbouring candidate value (MUT_STEP of
 * the time) or to any value. A child that fails the space's checks is repaired to one of its
 * unseen valid neighbours; one already seen is mutated again; after TRIES children that are
 * neither, a uniform sample is asked instead. A child told replaces the worst member when it
 * scores better (failures score 0), so the population only improves and a few good members
 * soon dominate it, as small budgets want. When STALL children in a row bring no new best, the
 * population has converged: the next POP / 2 candidates are uniform samples (immigrants), each
 * replacing the worst member whatever it scores, so that a new region can take over. */
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define POP 24
#define TOURNAMENT 3
#define MUT_STEP 0.6
#define TRIES 16
#define STALL (3 * POP) /* children without a new best before immigrants come */

typedef struct genetic {
    gb_tune_point_t pop[POP];
    size_t npop;
    size_t since;      /* children told since the best member last improved */
    size_t immigrants; /* uniform samples still to ask that replace the worst members */
    double best;       /* the best member's merit */
} genetic_t;

static int genetic_open(gb_strategy_t *st)
{
    return (st->state = calloc(1, sizeof(genetic_t))) ? GB_OK : GB_ENOMEM;
}

static void genetic_close(gb_strategy_t *st)
{
    free(st->state);
}

static size_t tournament(gb_strategy_t *st, const genetic_t *g)
{
    size_t best = (size_t)gb__rng_below(&st->rng, g->npop);
    for (int i = 1; i < TOURNAMENT; i++) {
        const size_t j = (size_t)gb__rng_below(&st->rng, g->npop);
        if (gb_tune__merit(g->pop[j].score) > gb_tune__merit(g->pop[best].score))
            best = j;
    }
    return best;
}

static void mutate_one(gb_strategy_t *st, gb_space_cand_t *c, size_t i)
{
    const size_t nv = gb_space_nvalues(st->sp, i);
    if (nv < 2)
        return;
    if (gb__rng_uniform(&st->rng) < MUT_STEP) {
        int v = (int)c->v[i] + (gb__rng_below(&st->rng, 2) ? 1 : -1);
        if (v < 0)
            v = 1;
        if (v >= (int)nv)
            v = (int)nv - 2;
        c->v[i] = (unsigned char)v;
    } else {
        /* Any other value. */
        size_t v = (size_t)gb__rng_below(&st->rng, nv - 1);
        c->v[i] = (unsigned char)(v >= c->v[i] ? v + 1 : v);
    }
}

/* Parameters of more than one value: mutations elsewhere change nothing. */
static size_t mutable_params(const gb_strategy_t *st, size_t *which)
{
    size_t k = 0;
    for (size_t i = 0; i < st->n; i++)
        if (gb_space_nvalues(st->sp, i) > 1)
            which[k++] = i;
    return k;
}

static int genetic_ask(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    genetic_t *g = st->state;
    size_t which[GB_MAX_PARAMS];
    const size_t nm = mutable_params(st, which);
    if (g->npop < POP || nm == 0 || g->immigrants > 0)
        return gb_tune__random(st, c, rank);
    for (int t = 0; t < TRIES; t++) {
        const size_t a = tournament(st, g);
        size_t b = tournament(st, g);
        if (b == a)
            b = tournament(st, g);
        gb_space_cand_t x;
        memset(&x, 0, sizeof x);
        for (size_t i = 0; i < st->n; i++)
            x.v[i] = gb__rng_below(&st->rng, 2) ? g->pop[a].c.v[i] : g->pop[b].c.v[i];
        int mutated = 0;
        for (size_t k = 0; k < nm; k++)
            if (gb__rng_below(&st->rng, nm) == 0) {
                mutate_one(st, &x, which[k]);
                mutated = 1;
            }
        if (!mutated || !memcmp(&x, &g->pop[a].c, sizeof x) || !memcmp(&x, &g->pop[b].c, sizeof x))
            mutate_one(st, &x, which[gb__rng_below(&st->rng, nm)]);
        if (gb_space_check(st->sp, &x, NULL, 0) != GB_OK) {
            /* Repair: a valid configuration one step away. */
            gb_space_cand_t nb[2 * GB_MAX_PARAMS];
            uint64_t ranks[2 * GB_MAX_PARAMS];
            const size_t n = gb_tune__fresh_neighbours(st, &x, nb, ranks);
            if (n == 0)
                continue;
            const size_t i = (size_t)gb__rng_below(&st->rng, n);
            *c = nb[i];
            *rank = ranks[i];
            return 1;
        }
        const uint64_t r = gb_tune__rank(st, &x);
        if (gb_tune__seen(st, r))
            continue;
        *c = x;
        *rank = r;
        return 1;
    }
    return gb_tune__random(st, c, rank);
}

static void genetic_tell(gb_strategy_t *st, const gb_tune_point_t *p)
{
    genetic_t *g = st->state;
    const double merit = gb_tune__merit(p->score);
    if (g->npop < POP) {
        g->pop[g->npop++] = *p;
        g->best = merit > g->best ? merit : g->best;
        return;
    }
    size_t worst = 0;
    for (size_t i = 1; i < POP; i++)
        if (gb_tune__merit(g->pop[i].score) < gb_tune__merit(g->pop[worst].score))
            worst = i;
    if (g->immigrants > 0) {
        /* An immigrant takes the worst member's place whatever it scores. */
        g->immigrants--;
        g->pop[worst] = *p;
    } else if (merit > gb_tune__merit(g->pop[worst].score)) {
        g->pop[worst] = *p;
    }
    if (merit > g->best) {
        g->best = merit;
        g->since = 0;
    } else if (++g->since >= STALL) {
        g->since = 0;
        g->immigrants = POP / 2;
    }
}

const gb_tune_ops_t gb_tune__ops_genetic = {
    "genetic",
    "steady-state genetic algorithm: tournament selection, uniform crossover, mutation to a "
    "neighbouring or random value",
    1,
    0,
    genetic_open,
    genetic_close,
    genetic_ask,
    genetic_tell};
