/* bayes_int.h: what bayes.c (the model and the choice) and bayes_pool.c (the candidates it
 * chooses from) share, private to them. */
#ifndef GB_BAYES_INT_H
#define GB_BAYES_INT_H

#include "search.h"

#define WINDOW 160 /* points told the processes are fitted to, at most */

/* An index with a score, to sort by score (greatest first, then by index): history points by
 * score, pool candidates by expected improvement. */
typedef struct scored {
    double score;
    size_t i;
} scored_t;

typedef struct pool_entry {
    uint64_t rank;
    gb_space_cand_t c;
} pool_entry_t;

/* One process: its points (m rows of x, d coordinates each), their standardised values y, the
 * hyperparameters (indices into LSCALES and NOISES), the Cholesky factor of the covariance
 * (m x m), K^-1 y, and the signal variance. */
typedef struct gp {
    size_t m;
    const unsigned char *x;
    double *y, *k, *alpha;
    size_t ls[GB_MAX_PARAMS], noise;
    double w[GB_MAX_PARAMS]; /* (1 / (values - 1) / length scale)^2 of each coordinate */
    /* The additive part's covariance of each coordinate by the difference of two indices
     * (the coordinate's values from b->off). */
    double *add;
    double sig2;
} gp_t;

typedef struct bayes {
    size_t d;                    /* coordinates */
    size_t param[GB_MAX_PARAMS]; /* the parameter of each coordinate */
    double unit[GB_MAX_PARAMS];  /* 1 / (its values - 1) */
    size_t nvals[GB_MAX_PARAMS]; /* its values */
    size_t off[GB_MAX_PARAMS];   /* where its entries of gp_t.add start */
    size_t noffs;                /* the values of all coordinates */
    size_t fitted_at;            /* history size at the last choice of hyperparameters */
    /* The window: history indices, coordinates of all (x) and of the successes (xs). */
    size_t *order;
    unsigned char *x, *xs;
    double *tmp;
    gp_t score, feasible;
    int failures; /* whether the window holds a failure */
    double rate;  /* the window's fraction of successes */
    /* The pool, its covariances with the score process's points (WINDOW x cross_cap), and
     * the predictions: mean and variance of the score, odds of success. */
    pool_entry_t *pool;
    size_t npool, pool_cap;
    double *cross, *mu, *var;
    scored_t *sorted; /* the pool by expected improvement */
    size_t cross_cap;
    /* Every configuration of a small space, by rank (NULL for a larger one). */
    gb_space_cand_t *all;
    size_t init; /* candidates spread over the space before the model */
} bayes_t;

/* The pool of candidates for the next ask into b->pool (b->npool entries, unseen, one per
 * configuration, in rank order): uniform samples, the best few's neighbours and random changes,
 * and every change of one or two parameters of the best. Entries that cannot be stored are left
 * out. */
void gb_tune__bayes_pool(gb_strategy_t *st, bayes_t *b);

#endif
