/* search.h: the parts the strategies (strategy.h) share, private to src/tool/tune: the strategy's
 * common state (the space, the generator, the ranks already seen, the history of what was told),
 * the table each strategy fills in, and helpers to draw unseen configurations. */
#ifndef GB_SEARCH_H
#define GB_SEARCH_H

#include <stdint.h>

#include "rt/util/util.h"
#include "gemmbench.h"
#include "strategy.h"

/* One configuration told: its candidate, rank in the space and score (negative: failed). */
typedef struct gb_tune_point {
    gb_space_cand_t c;
    uint64_t rank;
    double score;
} gb_tune_point_t;

/* A strategy: its name, whether it learns from the scores, and what it does on open, ask, tell
 * and close. ask writes a candidate the strategy has not seen (gb_tune__seen) and its rank and
 * returns 1, or returns 0 when it has nothing to propose; tell (NULL: nothing) sees every
 * candidate told, in order, after it was added to the history. */
typedef struct gb_tune_ops {
    const char *name, *description;
    /* 1 when the candidates depend on the scores told. Not the same as having a tell: bayes
     * reads the history when asked. */
    int learns;
    /* 1 when it proposes every configuration once, in an order fixed in advance (exhaustive): its
     * default budget is the whole space, not a sample of it. */
    int whole;
    int (*open)(gb_strategy_t *st);   /* sets st->state; GB_OK or GB_ENOMEM */
    void (*close)(gb_strategy_t *st); /* frees st->state */
    int (*ask)(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank);
    void (*tell)(gb_strategy_t *st, const gb_tune_point_t *p);
} gb_tune_ops_t;

extern const gb_tune_ops_t gb_tune__ops_exhaustive, gb_tune__ops_random, gb_tune__ops_anneal,
    gb_tune__ops_genetic, gb_tune__ops_bayes;

struct gb_strategy {
    const gb_tune_ops_t *ops;
    const gb_space_t *sp;
    size_t n;       /* parameters */
    uint64_t count; /* configurations */
    gb_rng_t rng;
    /* Ranks asked or told: open addressing over keys rank + 1 (0 marks a free slot), with
     * whether each was told. */
    uint64_t *keys;
    unsigned char *told;
    size_t cap, nseen;
    /* Every configuration told, in order; best is the index of the highest score (SIZE_MAX
     * before the first success). */
    gb_tune_point_t *hist;
    size_t nhist, hist_cap, best;
    size_t nfailed; /* told with no positive score */
    /* Asked and not told yet, oldest first: a tuning run asks ahead of the scores. */
    gb_tune_point_t *pend;
    size_t npend, pend_cap;
    /* The unseen ranks of a small space, drawn from once random draws start missing (built on
     * first need; NULL before); ranks seen since it was built leave it when drawn. */
    uint64_t *left;
    size_t nleft;
    /* gb_tune__spread's uniform draws: how often each parameter's value came up (n rows of
     * GB_SPACE_MAX_VALUES; NULL before the first), in ndrawn draws. */
    unsigned *drawn;
    size_t ndrawn;
    int oom;     /* memory ran out: ask proposes nothing more */
    void *state; /* the strategy's own */
};

/* Whether rank r was asked or told already. */
int gb_tune__seen(const gb_strategy_t *st, uint64_t r);
/* A uniform sample of the configurations not seen yet into *c and its rank: 1, or 0 when none
 * is left. Random ranks while they mostly hit unseen ones; then, in a small space, a draw from
 * the list of the unseen ones, so that it ends. Draws again may give the same one until it is
 * asked. */
int gb_tune__random(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank);
/* An unseen configuration spread away from those asked or told, into *c and its rank: of
 * SPREAD_DRAWS uniform samples, the one that best keeps each parameter's values in the
 * proportions the space has them, then the farthest from them (1); 0 when none is left. For
 * the candidates asked before the scores can guide anything. */
int gb_tune__spread(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank);
/* Rank of c, UINT64_MAX when c is not a valid configuration. */
uint64_t gb_tune__rank(const gb_strategy_t *st, const gb_space_cand_t *c);
/* The unseen valid configurations one step from c, into out and their ranks into ranks (each
 * of capacity 2 * GB_MAX_PARAMS); returns how many. */
size_t gb_tune__fresh_neighbours(const gb_strategy_t *st, const gb_space_cand_t *c,
                                 gb_space_cand_t *out, uint64_t *ranks);
/* A score for comparisons: failures (negative, NaN) are 0, below any success. */
double gb_tune__merit(double score);

#endif
