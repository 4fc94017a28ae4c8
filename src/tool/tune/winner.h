/* winner.h: the tuner's leaders (the best configurations so far), their re-measurement, the
 * verdict on the winner, and keeping it in the tuning database (docs/tuning.md, "The winner"). */
#ifndef GB_TUNE_WINNER_H
#define GB_TUNE_WINNER_H

#include "pool.h"
#include "tune.h"

typedef struct gb_leader {
    gb_params_t params;
    double gflops; /* its first measurement's median rate */
} gb_leader_t;

typedef struct gb_leaders {
    gb_leader_t *v;
    size_t n, cap;
} gb_leaders_t;

void gb_leaders_init(gb_leaders_t *l);
void gb_leaders_free(gb_leaders_t *l);
int gb_leaders_add(gb_leaders_t *l, const gb_params_t *params, double gflops);

/* A stored point as a candidate's score: its rate and GB_OK when it validated, else -1 and
 * GB_EVALIDATION (or why it was not validated) with the reason. */
void gb_leaders_score(const gb_point_t *pt, double *gflops, int *code, char *reason, size_t len);

/* Re-measures the spec->confirm best leaders spec->confirm_reps more times each (repetitions
 * 1.. of their definitions; those already stored are read, not run), then declares the winner
 * into out (have_winner, winner, verdict). GB_OK, GB_ESTORE, GB_ENOMEM. */
int gb_leaders_confirm(gb_leaders_t *l, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                       gb_context_t *ctx, gb_store_t *st, gb_watchdog_t *dog, double timeout_s,
                       const gb_tune_hooks_t *hooks, gb_tune_outcome_t *out, char *msg,
                       size_t msglen);

/* Puts out->winner into the tuning database unless the entry there is faster (out->kept and
 * kept_why say which). GB_OK or GB_ESTORE. */
int gb_leaders_keep(gb_store_t *st, gb_tune_outcome_t *out, char *msg, size_t msglen);

#endif
