/* bayes.c: model-guided search (Bayesian optimisation) with Gaussian processes.
 *
 * A configuration is a point in [0,1]^d: each parameter of more than one candidate value is a
 * coordinate, its value's index over the number of its values less one (kept as the index; the
 * scale goes into the covariance's weights).
 *
 * Two processes are fitted to the configurations told. The score process models the logarithm
 * of the successful scores (GFLOP/s spread over orders of magnitude, and what matters is their
 * ratio), standardised. The feasibility process models success (1) or failure (0) of every
 * configuration told, so that the search learns where configurations fail (too much local
 * memory, too many registers) without distorting the score model near the failures that the
 * best configurations often border. Each has a constant mean and a covariance with a length
 * scale per coordinate (the few parameters that matter get short ones, the rest long ones;
 * failures depend on other parameters than speed does): half a Matern 5/2 of the scaled
 * distance (configurations alike in every parameter that matters score alike) and half the
 * mean of a Matern 5/2 per coordinate (an additive part: a parameter's value that was good
 * elsewhere is predicted good here, which a few dozen points in 8-12 dimensions cannot teach
 * the first part alone); a signal variance, and a noise variance as a ratio of it. The signal
 * variance has a closed form given the rest (y' K^-1 y / m); the length scales and the noise
 * ratio maximise the log marginal likelihood plus the log of a log-normal prior on the length
 * scales (centred on each coordinate's span: a few points alone choose extremes), by coordinate
 * ascent over the grids LSCALES and NOISES from the previous choice, on the first
 * HYPER_M points of the window, again each time the history has grown by a quarter (REFIT).
 * The window is at most WINDOW points told, taken in turn from the best and the most recent, so
 * that a step costs two Cholesky factorisations of order WINDOW and a triangular solve per pool
 * candidate, whatever the budget.
 *
 * The first init candidates (INIT_MIN to INIT_MAX, by the space), and every one until two
 * configurations succeed, are spread over the space (gb_tune__spread). Then each candidate
 * asked is the one of a pool (bayes_pool.c) with the greatest expected improvement over the
 * best score times its predicted odds of success: uniform samples of the unseen
 * configurations, the unseen neighbours of the best few, random changes of one or two of their
 * parameters (jumps along the parameters that matter), and every change of one or two
 * parameters of the best. One ask in LOCAL_EVERY takes only from the last: a local search
 * around the best, guided by the model. Where every expected improvement underflows, the upper
 * confidence bound (mean plus two standard deviations) ranks the pool instead. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bayes_int.h"

/* Candidates before the model: about 1% of the space, from 4 to 10. The affordable budget
 * grows with the space (the default is a tenth of it), and an initial design much larger than
 * a few per cent of it leaves the model nothing to do: on spaces of some 300 configurations, 10
 * (18 with the tuner's 8 asked ahead) made bayes random search up to 5%
 * (bench/notes/strategies.md#bayes-initial-design). */
#define INIT_MIN 4
#define INIT_MAX 10
#define HYPER_M 96    /* points the hyperparameters are chosen on */
#define REFIT 4       /* choose them again when the history has grown by a quarter */
#define XI 0.01       /* expected improvement's margin, in standard deviations */
#define ODDS_MIN 0.02 /* the odds of success predicted never go below this */
/* The additive part's weight in the covariance. On the recorded PoCL space 0.25-0.75 did about
 * as well, 0 (the product alone) worst; its weight chosen by the likelihood was no better than
 * 0 (bench/notes/strategies.md#strategies-recorded). */
#define ADDITIVE 0.5
/* One ask in LOCAL_EVERY is among the changes of at most LOCAL_RADIUS parameters of the best:
 * the model alone kept exploring where a configuration next to the best was better (on the
 * PoCL space, 0.961 of the best one step from 0.645 found 33 evaluations later). */
#define LOCAL_EVERY 2
#define LOCAL_RADIUS 2

/* The length scales' prior: log-normal, its median the span of the coordinate's values, its
 * deviation LS_PRIOR_SD in the logarithm. Without it, the likelihood of the first 4-12 points in
 * 8 dimensions chose 0.08 or 5 for most coordinates (nothing correlated, or everything), and
 * the expected improvement chose about at random: on the recorded PoCL space bayes at 5% rose
 * from 0.890 to 0.915 with it (300 seeds, one ask at a time). A deviation of 1 did 0.925 there
 * but cost 0.004 at 2% of two synthetic spaces (bench/notes/strategies.md#bayes-prior). */
#define LS_PRIOR_SD 1.5

static const double LSCALES[] = {0.08, 0.15, 0.3, 0.6, 1.2, 2.5, 5.0};
static const double NOISES[] = {1e-4, 1e-3, 1e-2, 0.05, 0.2};
#define NLS (sizeof LSCALES / sizeof LSCALES[0])
#define NNOISE (sizeof NOISES / sizeof NOISES[0])

static int gp_alloc(gp_t *g, size_t noffs)
{
    g->add = malloc((noffs ? noffs : 1) * sizeof *g->add);
    g->y = malloc(WINDOW * sizeof *g->y);
    g->k = malloc(WINDOW * WINDOW * sizeof *g->k);
    g->alpha = malloc(WINDOW * sizeof *g->alpha);
    for (size_t i = 0; i < GB_MAX_PARAMS; i++)
        g->ls[i] = 3; /* 0.6 */
    g->noise = 2;     /* 0.01 */
    return g->y && g->k && g->alpha && g->add ? GB_OK : GB_ENOMEM;
}

static void gp_free(gp_t *g)
{
    free(g->y);
    free(g->k);
    free(g->alpha);
    free(g->add);
}

static int bayes_open(gb_strategy_t *st)
{
    bayes_t *b = calloc(1, sizeof *b);
    if (!b)
        return GB_ENOMEM;
    st->state = b;
    const uint64_t hundredth = gb_space_count(st->sp) / 100;
    b->init = hundredth < INIT_MIN ? INIT_MIN : hundredth > INIT_MAX ? INIT_MAX : (size_t)hundredth;
    for (size_t i = 0; i < st->n; i++) {
        const size_t nv = gb_space_nvalues(st->sp, i);
        if (nv < 2)
            continue;
        b->param[b->d] = i;
        b->unit[b->d] = 1.0 / (double)(nv - 1);
        b->nvals[b->d] = nv;
        b->off[b->d] = b->noffs;
        b->noffs += nv;
        b->d++;
    }
    const size_t d = b->d ? b->d : 1;
    b->order = malloc(WINDOW * sizeof *b->order);
    b->x = malloc(WINDOW * d);
    b->xs = malloc(WINDOW * d);
    b->tmp = malloc(WINDOW * sizeof *b->tmp);
    b->score.x = b->xs;
    b->feasible.x = b->x;
    const int ok =
        gp_alloc(&b->score, b->noffs) == GB_OK && gp_alloc(&b->feasible, b->noffs) == GB_OK;
    return ok && b->order && b->x && b->xs && b->tmp ? GB_OK : GB_ENOMEM;
}

static void bayes_close(gb_strategy_t *st)
{
    bayes_t *b = st->state;
    if (!b)
        return;
    gp_free(&b->score);
    gp_free(&b->feasible);
    free(b->order);
    free(b->x);
    free(b->xs);
    free(b->tmp);
    free(b->pool);
    free(b->cross);
    free(b->mu);
    free(b->var);
    free(b->sorted);
    free(b->all);
    free(b);
}

/* ---- linear algebra ------------------------------------------------------------------------- */

/* a (m x m, row-major, symmetric positive definite) into its lower Cholesky factor L, in place
 * (the upper part is left as it was); col is scratch of m. 0, or -1 when a is not positive
 * definite. Right-looking: each column scales, then updates the rows below it, so that the
 * innermost loop runs along a row (contiguous, and vectorised without reordering sums). */
static int cholesky(double *a, size_t m, double *col)
{
    for (size_t j = 0; j < m; j++) {
        double *rj = a + j * m;
        if (!(rj[j] > 0))
            return -1;
        const double ljj = sqrt(rj[j]);
        rj[j] = ljj;
        for (size_t i = j + 1; i < m; i++)
            col[i] = a[i * m + j] /= ljj;
        for (size_t i = j + 1; i < m; i++) {
            double *ri = a + i * m;
            const double lij = col[i];
            for (size_t k = j + 1; k <= i; k++)
                ri[k] -= lij * col[k];
        }
    }
    return 0;
}

/* Solves L z = b in place (b becomes z). */
static void solve_lower(const double *l, size_t m, double *b)
{
    for (size_t i = 0; i < m; i++) {
        const double *ri = l + i * m;
        double t = b[i];
        for (size_t k = 0; k < i; k++)
            t -= ri[k] * b[k];
        b[i] = t / ri[i];
    }
}

/* Solves L' x = b in place. */
static void solve_upper(const double *l, size_t m, double *b)
{
    for (size_t i = m; i-- > 0;) {
        double t = b[i];
        for (size_t k = i + 1; k < m; k++)
            t -= l[k * m + i] * b[k];
        b[i] = t / l[i * m + i];
    }
}

/* ---- the processes -------------------------------------------------------------------------- */

static double matern52(double r2)
{
    const double r = sqrt(5.0 * r2);
    return (1.0 + r + r * r / 3.0) * exp(-r);
}

/* The weights of g's coordinates for its length scales, and the additive part's table. */
static void set_weights(const bayes_t *b, gp_t *g)
{
    for (size_t i = 0; i < b->d; i++) {
        const double t = b->unit[i] / LSCALES[g->ls[i]];
        g->w[i] = t * t;
        for (size_t k = 0; k < b->nvals[i]; k++)
            g->add[b->off[i] + k] = matern52(g->w[i] * (double)(k * k));
    }
}

/* The covariance of two configurations (value indices of the coordinates) under g. */
static double cov(const bayes_t *b, const gp_t *g, const unsigned char *p, const unsigned char *q)
{
    double s = 0, a = 0;
    for (size_t i = 0; i < b->d; i++) {
        const int t = (int)p[i] - (int)q[i];
        s += g->w[i] * (double)(t * t);
        a += g->add[b->off[i] + (size_t)abs(t)];
    }
    return (1 - ADDITIVE) * matern52(s) + ADDITIVE * a / (double)b->d;
}

static void coords(const bayes_t *b, const gb_space_cand_t *c, unsigned char *x)
{
    for (size_t i = 0; i < b->d; i++)
        x[i] = c->v[b->param[i]];
}

/* g's covariance over its first m points factorised, K^-1 y into alpha and the signal
 * variance; returns the profiled log marginal likelihood, -m/2 log(y' K^-1 y / m) - log det L,
 * or -HUGE_VAL when K is not positive definite. */
static double factorise(const bayes_t *b, gp_t *g, size_t m)
{
    const size_t d = b->d;
    set_weights(b, g);
    for (size_t i = 0; i < m; i++) {
        g->k[i * m + i] = 1.0 + NOISES[g->noise];
        for (size_t j = 0; j < i; j++)
            g->k[i * m + j] = cov(b, g, g->x + i * d, g->x + j * d);
    }
    if (cholesky(g->k, m, b->tmp) != 0)
        return -HUGE_VAL;
    memcpy(g->alpha, g->y, m * sizeof *g->alpha);
    solve_lower(g->k, m, g->alpha);
    double quad = 0, logdet = 0;
    for (size_t i = 0; i < m; i++) {
        quad += g->alpha[i] * g->alpha[i];
        logdet += log(g->k[i * m + i]);
    }
    solve_upper(g->k, m, g->alpha);
    if (quad < 1e-300)
        quad = 1e-300;
    g->sig2 = quad / (double)m;
    return -0.5 * (double)m * log(g->sig2) - logdet;
}

/* The log of the length scales' prior density, less a constant. */
static double log_prior(const bayes_t *b, const gp_t *g)
{
    double s = 0;
    for (size_t i = 0; i < b->d; i++) {
        const double z = log(LSCALES[g->ls[i]]) / LS_PRIOR_SD;
        s -= 0.5 * z * z;
    }
    return s;
}

/* Coordinate ascent of the likelihood times the prior over the grids, from the current choice,
 * on the first HYPER_M points (the best and the most recent). */
static void choose_hyper(const bayes_t *b, gp_t *g, int sweeps)
{
    const size_t m = g->m < HYPER_M ? g->m : HYPER_M;
    double best = factorise(b, g, m) + log_prior(b, g);
    for (int s = 0; s < sweeps; s++) {
        for (size_t i = 0; i <= b->d; i++) {
            const size_t n = i < b->d ? NLS : NNOISE;
            size_t *at = i < b->d ? &g->ls[i] : &g->noise;
            const size_t was = *at;
            size_t pick = was;
            for (size_t v = 0; v < n; v++) {
                if (v == was)
                    continue;
                *at = v;
                const double l = factorise(b, g, m) + log_prior(b, g);
                if (l > best + 1e-9) {
                    best = l;
                    pick = v;
                }
            }
            *at = pick;
        }
    }
}

/* Standardises g's m values in place; returns what was their mean, and their deviation in
 * *sd. */
static double standardise(gp_t *g, double *sd_out)
{
    double mean = 0, var = 0;
    for (size_t i = 0; i < g->m; i++)
        mean += g->y[i];
    mean /= (double)g->m;
    for (size_t i = 0; i < g->m; i++)
        var += (g->y[i] - mean) * (g->y[i] - mean);
    const double sd = var > 0 ? sqrt(var / (double)g->m) : 1.0;
    for (size_t i = 0; i < g->m; i++)
        g->y[i] = (g->y[i] - mean) / sd;
    *sd_out = sd;
    return mean;
}

static int by_score_desc(const void *x, const void *y)
{
    const scored_t *a = x, *c = y;
    if (a->score != c->score)
        return a->score > c->score ? -1 : 1;
    return a->i < c->i ? -1 : a->i > c->i;
}

/* The window: up to WINDOW points told, taken in turn from the best and from the most recent
 * (so that any prefix of it holds both), as the feasibility process's points (all) and the
 * score process's (the successes, in the same order). Returns the standardised best score. */
static double load_window(gb_strategy_t *st, bayes_t *b)
{
    const size_t nh = st->nhist, d = b->d;
    size_t m = 0;
    scored_t *all = malloc(nh * sizeof *all);
    unsigned char *in = calloc(nh, 1);
    if (all && in) {
        for (size_t i = 0; i < nh; i++) {
            all[i].score = st->hist[i].score;
            all[i].i = i;
        }
        qsort(all, nh, sizeof *all, by_score_desc);
        size_t best = 0, recent = nh;
        while (m < WINDOW && m < nh) {
            while (best < nh && in[all[best].i])
                best++;
            if (best < nh) {
                b->order[m++] = all[best].i;
                in[all[best].i] = 1;
            }
            while (recent > 0 && in[recent - 1])
                recent--;
            if (recent > 0 && m < WINDOW) {
                b->order[m++] = recent - 1;
                in[recent - 1] = 1;
            }
        }
    } else {
        for (size_t i = nh; i-- > 0 && m < WINDOW;) /* out of memory: the most recent */
            b->order[m++] = i;
    }
    free(all);
    free(in);
    gp_t *s = &b->score, *f = &b->feasible;
    s->m = 0;
    f->m = m;
    double hi = -HUGE_VAL;
    for (size_t i = 0; i < m; i++) {
        const gb_tune_point_t *p = &st->hist[b->order[i]];
        const int ok = p->score > 0;
        coords(b, &p->c, b->x + i * d);
        f->y[i] = ok;
        if (ok) {
            memcpy(b->xs + s->m * d, b->x + i * d, d);
            s->y[s->m] = log(p->score);
            hi = s->y[s->m] > hi ? s->y[s->m] : hi;
            s->m++;
        }
    }
    b->rate = (double)s->m / (double)m;
    b->failures = s->m < m;
    if (s->m == 0)
        return 0;
    double sd, fsd;
    const double mean = standardise(s, &sd);
    if (b->failures)
        standardise(f, &fsd); /* mean: the rate; deviation: sqrt(rate (1 - rate)) */
    return (hi - mean) / sd;
}

/* ---- asking --------------------------------------------------------------------------------- */

static double expected_improvement(double mu, double var, double best)
{
    const double s = sqrt(var > 1e-12 ? var : 1e-12), gain = mu - best - XI;
    const double z = gain / s;
    const double cdf = 0.5 * erfc(-z / sqrt(2.0)), pdf = exp(-0.5 * z * z) / 2.5066282746310002;
    return gain * cdf + s * pdf;
}

/* Room for the predictions of np candidates. */
static int predictions_room(bayes_t *b, size_t np)
{
    if (np <= b->cross_cap)
        return GB_OK;
    free(b->cross);
    free(b->mu);
    free(b->var);
    free(b->sorted);
    b->cross = malloc(np * WINDOW * sizeof *b->cross);
    b->mu = malloc(np * sizeof *b->mu);
    b->var = malloc(np * sizeof *b->var);
    b->sorted = malloc(np * sizeof *b->sorted);
    b->cross_cap = b->cross && b->mu && b->var && b->sorted ? np : 0;
    return b->cross_cap ? GB_OK : GB_ENOMEM;
}

/* Each pool candidate's predicted score: mean and variance, standardised. */
static void predict(bayes_t *b)
{
    const gp_t *s = &b->score;
    const size_t m = s->m, np = b->npool, d = b->d;
    /* cross (m x np): the covariances between the score process's points and the pool, then
     * L^-1 of them, a row at a time over all candidates (contiguous, vectorised). */
    double *z = b->cross, *mu = b->mu, *var = b->var;
    for (size_t p = 0; p < np; p++) {
        unsigned char xp[GB_MAX_PARAMS];
        coords(b, &b->pool[p].c, xp);
        for (size_t i = 0; i < m; i++)
            z[i * np + p] = cov(b, s, xp, s->x + i * d);
        mu[p] = 0;
        var[p] = 1;
    }
    for (size_t i = 0; i < m; i++) {
        double *zi = z + i * np;
        const double *li = s->k + i * m;
        for (size_t p = 0; p < np; p++)
            mu[p] += zi[p] * s->alpha[i];
        for (size_t k = 0; k < i; k++) {
            const double *zk = z + k * np, lik = li[k];
            for (size_t p = 0; p < np; p++)
                zi[p] -= lik * zk[p];
        }
        const double inv = 1.0 / li[i];
        for (size_t p = 0; p < np; p++) {
            zi[p] *= inv;
            var[p] -= zi[p] * zi[p];
        }
    }
}

/* The odds that c succeeds: the feasibility process's mean, back in the units of the labels. */
static double odds(const bayes_t *b, const gb_space_cand_t *c)
{
    if (!b->failures)
        return 1;
    const gp_t *f = &b->feasible;
    unsigned char xp[GB_MAX_PARAMS];
    coords(b, c, xp);
    double t = 0;
    for (size_t i = 0; i < f->m; i++)
        t += cov(b, f, xp, f->x + i * b->d) * f->alpha[i];
    const double o = b->rate + t * sqrt(b->rate * (1 - b->rate));
    return o < ODDS_MIN ? ODDS_MIN : o > 1 ? 1 : o;
}

/* How many parameters differ between c and x. */
static size_t changes(const gb_strategy_t *st, const gb_space_cand_t *c, const gb_space_cand_t *x)
{
    size_t h = 0;
    for (size_t i = 0; i < st->n; i++)
        h += c->v[i] != x->v[i];
    return h;
}

static int bayes_ask(gb_strategy_t *st, gb_space_cand_t *c, uint64_t *rank)
{
    bayes_t *b = st->state;
    if (st->nhist < b->init || b->d == 0 || st->nhist - st->nfailed < 2)
        return gb_tune__spread(st, c, rank);
    const double best = load_window(st, b);
    if (b->score.m < 2)
        return gb_tune__random(st, c, rank);
    if (b->fitted_at == 0 ||
        st->nhist >= b->fitted_at + (b->fitted_at / REFIT > 4 ? b->fitted_at / REFIT : 4)) {
        choose_hyper(b, &b->score, b->fitted_at == 0 ? 2 : 1);
        if (b->failures)
            choose_hyper(b, &b->feasible, b->fitted_at == 0 ? 2 : 1);
        b->fitted_at = st->nhist;
    }
    /* With a noise ratio above 0 the covariances are positive definite; be safe anyway. */
    if (factorise(b, &b->score, b->score.m) == -HUGE_VAL ||
        (b->failures && factorise(b, &b->feasible, b->feasible.m) == -HUGE_VAL))
        return gb_tune__random(st, c, rank);
    gb_tune__bayes_pool(st, b);
    if (b->npool == 0 || predictions_room(b, b->npool) != GB_OK)
        return gb_tune__random(st, c, rank);
    predict(b);
    /* The greatest expected improvement times the odds of success: as the odds are at most 1,
     * candidates are taken by expected improvement until it falls below the best product. */
    scored_t *ei = b->sorted;
    for (size_t p = 0; p < b->npool; p++) {
        ei[p].score = expected_improvement(b->mu[p], b->score.sig2 * b->var[p], best);
        ei[p].i = p;
    }
    qsort(ei, b->npool, sizeof *ei, by_score_desc);
    if (!(ei[0].score > 1e-300)) {
        /* Every expected improvement underflowed (the best is far above every prediction):
         * rank by the upper confidence bound instead, not by rank order. */
        for (size_t p = 0; p < b->npool; p++) {
            ei[p].score = b->mu[p] + 2 * sqrt(b->score.sig2 * (b->var[p] > 0 ? b->var[p] : 0));
            ei[p].i = p;
        }
        qsort(ei, b->npool, sizeof *ei, by_score_desc);
        const double lowest = ei[b->npool - 1].score;
        for (size_t p = 0; p < b->npool; p++)
            ei[p].score -= lowest; /* non-negative, so that the odds weigh as they do below */
    }
    /* Every LOCAL_EVERY-th ask, only candidates near the best (if any are left). */
    const gb_space_cand_t *near = st->nseen % LOCAL_EVERY ? &st->hist[st->best].c : NULL;
    if (near) {
        size_t p = 0;
        while (p < b->npool && changes(st, &b->pool[p].c, near) > LOCAL_RADIUS)
            p++;
        if (p == b->npool)
            near = NULL;
    }
    double top = -HUGE_VAL;
    size_t pick = ei[0].i;
    for (size_t j = 0; j < b->npool && ei[j].score > top; j++) {
        if (near && changes(st, &b->pool[ei[j].i].c, near) > LOCAL_RADIUS)
            continue;
        const double a = ei[j].score * odds(b, &b->pool[ei[j].i].c);
        if (a > top) {
            top = a;
            pick = ei[j].i;
        }
    }
    *c = b->pool[pick].c;
    *rank = b->pool[pick].rank;
    return 1;
}

const gb_tune_ops_t gb_tune__ops_bayes = {
    "bayes",
    "Bayesian optimisation: Gaussian processes (Matern 5/2, half additive, a length scale per "
    "parameter) of the log of the scores and of the odds of success; expected improvement over "
    "a pool of samples and of changes to the best, every other candidate a change of one or two "
    "parameters of the best",
    1,
    0,
    bayes_open,
    bayes_close,
    bayes_ask,
    NULL};
