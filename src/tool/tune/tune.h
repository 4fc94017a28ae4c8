/* tune.h: one tuning run: a kernel family's space (gb_space_t) on one problem, searched by a
 * strategy (strategy.h); each candidate made into a job and measured as `run` measures (warm-up,
 * median of the timed calls, validated), with the store as the cache (a candidate measured or
 * failed before is looked up, not run); builds done ahead on host threads or in build
 * processes while the device measures; the leaders re-measured before a winner is declared,
 * and the winner kept in the tuning database. docs/tuning.md says how. Prints nothing: hooks
 * report progress. */
#ifndef GB_TUNE_H
#define GB_TUNE_H

#include <signal.h>

#include "tool/job/job.h"
#include "tool/store/tuning.h"
#include "objective.h"

/* Candidates asked ahead of their results, which is how many builds can be in flight: few for a
 * strategy that learns from the scores, whose every candidate asked ahead is one asked without
 * the latest scores; more for one whose sequence does not depend on them. A run without
 * builders (threads or processes) asks one at a time. */
#define GB_TUNE_LOOKAHEAD 8
#define GB_TUNE_LOOKAHEAD_BLIND 32
/* The lookahead of strategy name: GB_TUNE_LOOKAHEAD, or GB_TUNE_LOOKAHEAD_BLIND for one that
 * does not learn (gb_strategy_learns). */
size_t gb_tune_lookahead(const char *strategy);

typedef struct gb_tune_spec {
    const char *kernel; /* a family, or a preset (its family is tuned) */
    gb_precision_t precision;
    const gb_problem_t *base; /* layout, transpositions, scalars, leading dimensions, offsets */
    int has_layout;           /* else the family's native layout */
    size_t m, n, k;
    gb_bench_options_t bench;        /* validation is forced on */
    const gb_space_values_t *narrow; /* --param and --fix: each parameter's values */
    size_t nnarrow;
    const char *strategy;
    uint64_t seed;
    int presets; /* the family's presets in the space are measured first, besides the budget */
    /* Configurations measured before the presets, besides the budget, and told to the strategy
     * (a warm start: tune --refresh seeds a run with the tuned entries of its family); those
     * that are not configurations of the space are passed over. */
    const gb_params_t *seeds;
    size_t nseeds;
    size_t budget;     /* the strategy's evaluations (0: the whole space, or until time_s) */
    double time_s;     /* stop proposing after this long (0: no limit) */
    unsigned threads;  /* build threads (0: none; builds happen when measuring) */
    unsigned builders; /* build processes (0: none), started with builder_argv (pool.h) */
    char *const *builder_argv;
    /* The builders of an earlier run on the same context, kept (threads and builders are then
     * not used; NULL: this run starts its own and closes them). */
    struct gb_pool *pool;
    /* The watchdog on one candidate (0: none): its runs may take candidate_timeout_s, from the
     * end of its first call where that call compiles (a CPU device, whose driver compiles at a
     * kernel's first launch, or a run without builders, which builds in the measurement), else
     * from the start of its measurement; its build and that first call compile_timeout_s (0:
     * ten times candidate_timeout_s). A candidate past either is recorded as timed out and
     * hooks->timed_out is called. */
    double candidate_timeout_s, compile_timeout_s;
    size_t confirm;        /* leaders re-measured (0: none) */
    unsigned confirm_reps; /* repetitions each leader gets besides its first */
    /* 1: the winner is not validated at the other shapes of its class that it is declared for
     * (winner.c, siblings: a shorter and a longer K), only at the tuned one */
    int no_siblings;
    const char *command; /* recorded with the run */
    /* What the run minimises (objective.h). Energy and EDP need the energy loop in every
     * measurement (GEMMBENCH_ENERGY_MIN_S not 0), and a candidate's stored measurement counts
     * only with energy: one without (a time tuning's) is measured again, as the next
     * repetition of its definition. */
    gb_objective_t objective;
} gb_tune_spec_t;

/* What the hooks are told after each evaluation. */
typedef struct gb_tune_progress {
    const gb_tune_run_t *run;
    const gb_tune_eval_t *last;
    size_t evals, planned; /* planned: the budget, the space, or 0 when only time limits */
    /* Evaluations an earlier process recorded in this run (gb_store_tune_run_take): the first
     * `resumed` evaluations (last->seq below it) were told then, and are told again now from
     * the store. */
    size_t resumed;
    double best;  /* the best score (the objective's unit); negative while nothing succeeded */
    double score; /* last's score (its GFLOP/s under time) */
    gb_objective_t objective;
    char best_params[512];
    double elapsed_s;
} gb_tune_progress_t;

typedef struct gb_tune_hooks {
    /* Before a candidate is measured (desc as gb_job_describe), and after each evaluation. */
    void (*measuring)(const char *desc, void *user);
    void (*progress)(const gb_tune_progress_t *p, void *user);
    /* Something the user should hear of that is no candidate's result: a build process that
     * could not start or died. */
    void (*note)(const char *msg, void *user);
    /* Called from the watchdog thread once a candidate has run past its limit (f->reason says
     * which) and has been recorded as timed out (a failure; its run stays "running", to be
     * taken up again by the next process): the process cannot take the device back from a
     * kernel that does not end, so this must not return (exec or exit). */
    void (*timed_out)(const gb_tune_failure_t *f, void *user);
    volatile sig_atomic_t *stop; /* non-zero: stop after the current candidate */
    void *user;
} gb_tune_hooks_t;

/* What a run found. */
typedef struct gb_tune_outcome {
    gb_tune_run_t run;
    /* The run was taken up again (gb_store_tune_run_take): the evaluations it had recorded,
     * and the status it had ("" for a new run). */
    size_t resumed;
    char resumed_status[16];
    size_t measured, cached, failed; /* evaluations: run now, found in the store, cannot win */
    size_t seeds;                    /* of spec->seeds, those in the space: measured first */
    int have_winner;
    gb_tuned_entry_t winner; /* its configuration, rate and evidence */
    char verdict[1200];      /* how the winner compares with the runner-up, in words */
    int kept;                /* the winner went into the tuning database */
    char kept_why[256];      /* why it did or did not */
} gb_tune_outcome_t;

/* Opens the space spec tunes (family, precision, device limits, narrowing; bound to problem, its
 * constraints on the sizes holding, where problem is not NULL: gb_space_open_for). Errors as
 * gb_space_open, and GB_ENOKERNEL for an unknown name, GB_EBADPARAM for a library peer or a
 * family without parameters; msg says which. */
int gb_tune_space(const gb_tune_spec_t *spec, const gb_registry_t *reg, const gb_device_info_t *dev,
                  const gb_problem_t *problem, gb_space_t **sp, char *msg, size_t msglen);

/* Runs the tuning spec asks for on ctx, recording in st (which must be open for writing): in
 * the row of a run of the same definition where no live process makes it
 * (gb_store_tune_run_take), else in a new one. GB_OK with out filled (also when stopped by
 * hooks->stop: out->run.status "interrupted"); errors as gb_tune_space, GB_EBADARG for an
 * unknown strategy, GB_ESTORE, GB_ENOMEM. */
int gb_tune_run(gb_tune_outcome_t *out, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                gb_context_t *ctx, gb_store_t *st, const gb_tune_hooks_t *hooks, char *msg,
                size_t msglen);

#endif
