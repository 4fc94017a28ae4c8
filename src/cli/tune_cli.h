/* tune_cli.h: what `gemmbench tune`'s files share: its options (cmd_tune.c), its runs' checks
 * before anything is measured (tune_runs.c), and how the runs are shown (tune_show.c: the hooks
 * of the tuners, src/tool/tune/tuners.h, which spread the runs over devices and MPI ranks). */
#ifndef GB_CLI_TUNE_H
#define GB_CLI_TUNE_H

#include <pthread.h>

#include "tool/tune/tuners.h"
#include "options.h"
#include "progress.h"

/* The options only tune has (the rest are the measuring commands' own, options.c). */
typedef struct tune_opts {
    const char *strategy, *simulate, *record;
    uint64_t seed;
    size_t budget;
    double time_s, timeout_s, compile_timeout_s; /* compile: 0, ten times timeout_s */
    int count;
    int no_presets;
    int no_siblings;
    int refresh;         /* --refresh: the classes the devices use, tuned again */
    int no_shipped;      /* --no-shipped: the classes of the user's entries only */
    const char *classes; /* --classes CLASS,..: those only (NULL: every one) */
    long threads;        /* -1: one per core but one, at most 16, unless processes build */
    long
        builders; /* -1: processes on a GPU (cores - 1 over the devices, <= 15 and the lookahead) */
    size_t confirm;
    unsigned reps;
    gb_params_t fix;
    gb_objective_t objective; /* --objective: what the winner minimises */
} tune_opts_t;

/* The narrowing of the space: the plan's --param lists, then --fix values. */
typedef struct narrowing {
    gb_space_values_t v[2 * GB_MAX_PARAMS];
    size_t n;
} narrowing_t;

/* Whether the strategy is one tune knows; else says which are and returns 0. */
int cli_tune_known_strategy(const char *name);
/* The narrowing of the plan's --param lists and the --fix values: 0 or the exit code. */
int cli_tune_narrowing(const gb_explore_plan_t *pl, const tune_opts_t *t, narrowing_t *nw);
/* The kernels of a comma-separated list added to r's: 0 or the exit code. */
int cli_tune_split_kernels(const char *list, gb_tune_runs_t *r);
/* --count: each family's space size in each precision asked (r made one run per kernel and
 * precision) and the time to count it; the exit code. */
int cli_tune_count(gb_tune_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                   const gb_registry_t *reg, const gb_device_info_t *di);
/* The options tune's runs check whatever they are (the strategy, no --lws, no --repeat): 0 or
 * the exit code. */
int cli_tune_check_options(const gb_explore_plan_t *pl, const tune_opts_t *t);
/* Checks every run can be made (kernel, precision, space, strategy) before anything is written,
 * each kernel's precision and space into r; -k all skips the families the device cannot run,
 * saying so. 0 or the exit code. */
int cli_tune_check_runs(gb_tune_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                        const tune_opts_t *t, const gb_registry_t *reg, const gb_device_info_t *di);

/* tune --refresh (tune_refresh.c): the options it refuses, then (rank 0) the runs planned into
 * r from the tuned entries -k auto sees for the devices (the store read, never written),
 * saying which kernels are passed over; a rank other than 0 plans nothing (rank 0 sends each
 * its runs). 0 or the exit code (2: nothing to refresh, an unknown class). */
int cli_tune_refresh_plan(gb_tune_runs_t *r, const tune_opts_t *t, const cli_measure_t *o,
                          const gb_explore_plan_t *pl, const narrowing_t *nw,
                          const gb_registry_t *reg, const cli_device_t *dev,
                          const gb_fleet_mpi_t *mpi);
/* --refresh --count: the planned runs, one a line; the exit code. */
int cli_tune_refresh_print(const gb_tune_runs_t *r);

/* How one tuner's runs are shown. */
typedef struct view {
    cli_progress_t pr;
    char now[512];
    char **argv; /* the whole command line, for a restart after a timeout */
    /* With several devices or ranks: each line starts with the device's label, and one thread
     * at a time prints (lock). */
    const char *label;
    pthread_mutex_t *lock;
    int mpi;            /* under MPI: a candidate past its limit ends the job, no restart */
    int restarted;      /* this process took over from one that stopped (timeout or crash) */
    int not_kept;       /* a rank other than 0: its database line is rank 0's to say */
    int refresh;        /* tune --refresh: each run opens with a line saying its class */
    const char *record; /* --record FILE: the run's evaluations written there (NULL: none) */
    const gb_registry_t *reg;
} view_t;

/* What shows a tuning's runs: a view per tuner, and the lock their lines and rank 0's take. */
typedef struct tune_show {
    view_t v[CLI_MAX_DEVICES];
    void *users[CLI_MAX_DEVICES];
    pthread_mutex_t lock;
} tune_show_t;
/* The hooks that show tu's runs (labelled where several devices or ranks print) into *hooks;
 * argv the whole command line, for a restart; record --record's file (NULL: none). Done with
 * cli_tune_show_done. */
void cli_tune_show(tune_show_t *s, const gb_tuners_t *tu, const gb_fleet_mpi_t *mpi, char **argv,
                   const char *record, const gb_registry_t *reg, gb_tuners_hooks_t *hooks);
void cli_tune_show_done(tune_show_t *s);

#endif
