/* winner.h: the tuner's leaders (the best configurations so far), their re-measurement, the
 * verdict on the winner, and keeping it in the tuning database (docs/tuning.md, "The winner"). */
#ifndef GB_TUNE_WINNER_H
#define GB_TUNE_WINNER_H

#include "pool.h"
#include "tune.h"

typedef struct gb_leader {
    gb_params_t params;
    double score; /* its first measurement's score (objective.h; GFLOP/s under time) */
} gb_leader_t;

typedef struct gb_leaders {
    gb_leader_t *v;
    size_t n, cap;
} gb_leaders_t;

void gb_leaders_init(gb_leaders_t *l);
void gb_leaders_free(gb_leaders_t *l);
int gb_leaders_add(gb_leaders_t *l, const gb_params_t *params, double score);

/* How a repetition is measured (tune.c: under the watchdog, marked in flight): job, of the
 * configuration whose parameters are params ("NAME=V ..."), measured and stored as
 * gb_job_measure does with GB_JOB_KEEP_NEW, into pt; its codes. */
typedef int (*gb_leaders_measure_fn)(void *user, const gb_job_t *job, const char *params,
                                     gb_point_t *pt, char *msg, size_t msglen);

/* Re-measures the spec->confirm best leaders spec->confirm_reps more times each (repetitions
 * 1.. of their definitions, with measure(mu, ...); those already stored are read, not run, and
 * one recorded as a failure, timed out or crashed, disqualifies its leader), then declares the
 * winner into out (have_winner, winner, verdict). Under an objective that needs energy, a
 * leader's measurements are its definition's repetitions that have energy, in order: one
 * without is passed over, and more are measured as the first repetitions not yet stored.
 * GB_OK, GB_ESTORE, GB_ENOMEM. */
int gb_leaders_confirm(gb_leaders_t *l, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                       gb_context_t *ctx, gb_store_t *st, gb_leaders_measure_fn measure, void *mu,
                       const gb_tune_hooks_t *hooks, gb_tune_outcome_t *out, char *msg,
                       size_t msglen);

/* Is the interval of time [lo, hi] wholly below [lo2, hi2]: the first faster than the second
 * beyond the noise? 1 or 0 (touching or overlapping intervals are within the noise). */
int gb_leaders_beyond_noise(double lo, double hi, double lo2, double hi2);

/* Whether b is a's configuration with one parameter that adapts to the shape (gb_param_t's
 * adaptive) at its adapting value where a's is fixed; *name (may be NULL): that parameter. The
 * tuner declares b the winner where a is not faster beyond the noise. 1 or 0. */
int gb_leaders_adaptive_of(const gb_family_t *f, const gb_params_t *a, const gb_params_t *b,
                           const char **name);

/* The leader to declare among n whose best by score is best: the one that is best's
 * configuration with a parameter at its adapting value (gb_leaders_adaptive_of) where best is
 * not faster than it beyond the noise, else best. params[i]: leader i's parameters; lo[i],
 * hi[i]: the interval of its median time (lo > hi: none, and then no preference); ok[i]: it
 * validated. */
size_t gb_leaders_prefer_adaptive(const gb_family_t *f, const gb_params_t *const *params,
                                  const double *lo, const double *hi, const int *ok, size_t n,
                                  size_t best);

/* Puts out->winner into the tuning database unless the entry there of its key (objective
 * included) scores better (out->kept and kept_why say which). GB_OK or GB_ESTORE. */
int gb_leaders_keep(gb_store_t *st, gb_tune_outcome_t *out, char *msg, size_t msglen);

#endif
