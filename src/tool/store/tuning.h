/* tuning.h: what `gemmbench tune` keeps in the results store beside the points it measures:
 * - the candidates that cannot win (failed to build or run, refused, timed out), keyed by the
 *   point id their definition would have, so that a second tuning neither retries nor measures
 *   them (a measured candidate is a point: the points table is the cache of those);
 * - each tuning run and its evaluations in order (the best-so-far curve the report draws);
 * - the tuning database: the best configuration per device, driver, precision, layout and shape
 *   class, with its evidence.
 * Tables added beside the points (docs/tuning.md), created on first write, so stores of
 * schema version 2 keep working and read as having no tuning. Exports of points leave them out;
 * `gemmbench tuned export|import` carries the database. */
#ifndef GB_STORE_TUNING_H
#define GB_STORE_TUNING_H

#include "gemmbench_tuning.h"
#include "store.h"

/* ---- the tuning database ------------------------------------------------------------------ */

/* Entries are gemmbench_tuning.h's gb_tuned_entry_t. */
_Static_assert(GB_TUNED_ID_LEN == GB_POINT_ID_LEN, "a tuned entry's evidence is point ids");

/* Writes e under its key (device, platform, driver, precision, layout, shape_class), replacing
 * the entry there; an empty tuned_at is written as the time now. Parameters are kept sorted by
 * name. GB_EBADARG for an entry gb_tuned_entry_check refuses. */
int gb_store_tuned_put(gb_store_t *st, const gb_tuned_entry_t *e);
/* The entry under key's key into out (source "store"); GB_ENOPOINT when there is none,
 * GB_ECORRUPT when the row there is damaged (gb_tuning_damage_t; a put of the key replaces
 * it). */
int gb_store_tuned_get(gb_store_t *st, const gb_tuned_entry_t *key, gb_tuned_entry_t *out);

/* A row of a tuning table that does not read back as gemmbench wrote it (edited or damaged):
 * what the row is and what is wrong with it, both printable (control characters and invalid
 * UTF-8 as \xNN) and cut to fit. One such row hides nothing else: readers pass it over. */
typedef struct gb_tuning_damage {
    const char *table; /* "tuned", "tune_runs", "tune_evals" or "tune_failures" */
    long long row;     /* its rowid (a run's id) */
    char what[400];    /* "tuned entry 'H100' (s, row-NN, square-4096)", "tuning run 7", ... */
    char why[512];     /* "column params: 'MWG=x' is not NAME=V NAME=V" */
    int key_whole;     /* a tuned entry whose key (device, platform, driver, precision, layout,
                          shape class) is one gemmbench writes: a put of that key replaces it */
} gb_tuning_damage_t;

/* Every entry (source "store"), ordered by device, precision, layout, shape class; fn's non-zero
 * return stops and is returned. A damaged row is passed over: given to bad, whose non-zero
 * return stops too, or where bad is NULL said in a warning (gb_set_warning_handler: the first
 * few, then how many more) that names it and the way to mend it. */
int gb_store_tuned_scan(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                        int (*bad)(const gb_tuning_damage_t *d, void *user), void *user);
/* gb_store_tuned_scan with bad NULL. */
int gb_store_tuned_foreach(gb_store_t *st, int (*fn)(const gb_tuned_entry_t *e, void *user),
                           void *user);
/* Reads every row of the four tuning tables as their readers do and gives each damaged one to
 * bad (a non-zero return stops and is returned); *checked: the rows read. GB_OK in a store
 * without them. Reads only. */
int gb_store_tuning_check(gb_store_t *st, int (*bad)(const gb_tuning_damage_t *d, void *user),
                          void *user, size_t *checked);

/* ---- candidates that cannot win ----------------------------------------------------------- */

/* A candidate's failure: the code (GB_EBUILD, GB_EWGSIZE, GB_ETIMEOUT, ...), the one-line
 * reason, the kernel and parameters ("DJ=2 LX=16 ..."). */
typedef struct gb_tune_failure {
    char id[GB_POINT_ID_LEN + 1]; /* the point id the candidate's definition has */
    char kernel[2 * GB_NAME_MAX];
    char params[512];
    int code;
    char reason[512];
    char timestamp[32];
} gb_tune_failure_t;

/* Writes f under its id, replacing what was there; an empty timestamp is written as now.
 * GB_EBADARG for an id that is not a point id or a code that is not negative. */
int gb_store_failure_put(gb_store_t *st, const gb_tune_failure_t *f);
/* GB_OK with *f filled, or GB_ENOPOINT when the id has no failure recorded. */
int gb_store_failure_get(gb_store_t *st, const char *id, gb_tune_failure_t *f);

/* ---- tuning runs and their evaluations ------------------------------------------------------ */

typedef struct gb_tune_run {
    int64_t id; /* set by gb_store_tune_run_begin */
    char device[128], platform[128], driver[64];
    char kernel[2 * GB_NAME_MAX];
    gb_precision_t precision;
    char layout[8];
    size_t m, n, k;
    char shape_class[32];
    char strategy[16];
    uint64_t seed;
    size_t budget;  /* evaluations asked for (0: none, a time limit instead) */
    double time_s;  /* the time limit (0: none) */
    uint64_t space; /* valid configurations */
    char started[32], finished[32];
    char status[16]; /* "running", "done", "interrupted", "failed", "died" (its process ended
                        without ending it: killed, or crashed; marked by the next run) */
    size_t evals;    /* evaluations made */
    char winner[GB_POINT_ID_LEN + 1];
    double winner_gflops;
    char command[1024]; /* the command line, for the record */
} gb_tune_run_t;

typedef struct gb_tune_eval {
    int64_t run_id;
    size_t seq; /* 0, 1, ... in the order the strategy was told */
    char point_id[GB_POINT_ID_LEN + 1];
    char params[512];
    double gflops; /* the median rate; negative for a candidate that cannot win */
    int code;      /* GB_OK, or the failure's code (validation failed: GB_EVALIDATION) */
    char reason[256];
    int cached;       /* 1: the store already held it (point or failure); nothing was run */
    double best;      /* the best rate so far in the run (negative while none succeeded) */
    double elapsed_s; /* since the run began */
} gb_tune_eval_t;

/* Records a new run (status "running"; started now), sets run->id and marks it in flight
 * (inflight.h); first marks "died" the runs of processes that are gone. */
int gb_store_tune_run_begin(gb_store_t *st, gb_tune_run_t *run);
/* Begins run as gb_store_tune_run_begin, unless the store holds a run of the same definition
 * (device, platform, driver, kernel, precision, layout, shape, strategy, seed, budget, time,
 * space and command) that no live process is making: a tuning taken up again after it was
 * interrupted, died or ended. Then that run goes on (one tuning, one row): run->id and started
 * are its, its status "running" again; *resumed gets the evaluations it has recorded (their
 * seq 0..*resumed-1 are taken) and was its status before ("" for a new run). */
int gb_store_tune_run_take(gb_store_t *st, gb_tune_run_t *run, size_t *resumed, char *was,
                           size_t waslen);
/* Records a run as it is, its times and status kept (a run made elsewhere), and sets run->id. */
int gb_store_tune_run_put(gb_store_t *st, gb_tune_run_t *run);
/* The store's runs with their evaluations as JSON text (caller frees with free; NULL on
 * failure, the message on st), and such a text's runs added to a store as new runs, in one
 * transaction (*added: how many; GB_EBADARG for a text gemmbench did not write); a run of the
 * same definition as one in the store that no live process is making (see
 * gb_store_tune_run_take) replaces that one, its evaluations too. */
char *gb_store_tune_runs_to_json(gb_store_t *st);
int gb_store_tune_runs_add_json(gb_store_t *st, const char *json, size_t *added);
/* Writes run's status, finished (now), evals, winner and winner_gflops. GB_ENOPOINT when no run
 * has run->id. */
int gb_store_tune_run_end(gb_store_t *st, const gb_tune_run_t *run);
/* GB_ENOPOINT when ev->run_id is no run, GB_EBADARG when its seq is already recorded. */
int gb_store_tune_eval_add(gb_store_t *st, const gb_tune_eval_t *ev);
/* Runs oldest first; a run's evaluations by seq. fn's non-zero return stops and is returned. A
 * damaged run or evaluation is passed over with a warning, as gb_store_tuned_foreach's. */
int gb_store_tune_runs(gb_store_t *st, int (*fn)(const gb_tune_run_t *run, void *user), void *user);
int gb_store_tune_evals(gb_store_t *st, int64_t run_id,
                        int (*fn)(const gb_tune_eval_t *ev, void *user), void *user);

/* ---- what a store holds -------------------------------------------------------------------- */

typedef struct gb_tuning_counts {
    int present; /* 1 when the store has the tuning tables (written once) */
    size_t tuned, failures, runs, evals;
} gb_tuning_counts_t;

/* Counts the rows of each tuning table; all 0 (present 0) in a store without them. Reads only. */
int gb_store_tuning_counts(gb_store_t *st, gb_tuning_counts_t *c);

#endif
