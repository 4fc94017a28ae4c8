/* tune_cli.h: what `gemmbench tune`'s files share: its options and the runs it makes
 * (cmd_tune.c), how a run is shown (tune_run.c), and the tuners that spread runs over devices
 * and MPI ranks (tune_devices.c). */
#ifndef GB_CLI_TUNE_H
#define GB_CLI_TUNE_H

#include <pthread.h>

#include "tool/tune/tune.h"
#include "options.h"
#include "progress.h"

/* The options only tune has (the rest are the measuring commands' own, options.c). */
typedef struct tune_opts {
    const char *strategy, *simulate, *record;
    uint64_t seed;
    size_t budget;
    double time_s, timeout_s;
    int count;
    int no_presets;
    long threads; /* -1: one per core but one, at most 16, unless processes build */
    long
        builders; /* -1: processes on a GPU (cores - 1 over the devices, <= 15 and the lookahead) */
    size_t confirm;
    unsigned reps;
    gb_params_t fix;
} tune_opts_t;

/* The narrowing of the space: the plan's --param lists, then --fix values. */
typedef struct narrowing {
    gb_space_values_t v[2 * GB_MAX_PARAMS];
    size_t n;
} narrowing_t;

/* What the hooks draw with. */
typedef struct view {
    cli_progress_t pr;
    char now[512];
    char **argv; /* the whole command line, for a restart after a timeout */
    /* With several devices: each line starts with the device's label, and one thread at a time
     * prints (lock). */
    const char *label;
    pthread_mutex_t *lock;
    int mpi;      /* under MPI: a candidate past its limit ends the job, no restart */
    int not_kept; /* a rank other than 0: its database line is rank 0's to say */
} view_t;

/* The jobs of the command: each kernel x shape, in that order. */
typedef struct plan_runs {
    char **kernels;
    size_t nkernels;
    size_t (*shapes)[3], nshapes;
    int all;              /* -k all: families this device cannot run are skipped, not refused */
    gb_precision_t *prec; /* per kernel, set by check_runs */
    uint64_t *space;      /* per kernel: its valid configurations, set by check_runs */
} plan_runs_t;

/* The kinds of device (name, driver, platform) a tuning spreads over, in order of first sight:
 * devices of one kind share the runs, each kind tunes every run (tune_kinds.c). */
typedef struct cli_kind {
    char *name, *driver, *platform; /* owned */
} cli_kind_t;
typedef struct cli_kinds {
    cli_kind_t *v;
    size_t n, cap;
} cli_kinds_t;
/* A table for at most cap kinds (GB_OK or GB_ENOMEM); free with cli_kinds_free. */
int cli_kinds_init(cli_kinds_t *k, size_t cap);
void cli_kinds_free(cli_kinds_t *k);
/* The index of the kind (name, driver, platform) into *index, added when it is new: GB_OK,
 * GB_ENOMEM, or GB_EBADARG when it is new and cap kinds are known already. */
int cli_kinds_index(cli_kinds_t *k, const char *name, const char *driver, const char *platform,
                    size_t *index);

/* The number of kinds among d's picked devices (at least 1): a tuning's build pools. */
size_t cli_kinds_among(const cli_device_t *d);

/* At most this many build processes on a host by default: the driver opens one context at a
 * time, and on 32 cores 31 processes cost more in starting than they built ahead
 * (bench/notes.md). */
#define CLI_MAX_BUILDERS 15
/* The cores each of a host's pools may build on: the cores but one, shared by the pools (at
 * least 1). */
long cli_spare_cores(long cores, long pools);
/* The default number of build processes for each of a host's pools (one per kind of device in
 * a process, each MPI rank of the host its own): its usable cores but one, shared by the
 * pools, at most CLI_MAX_BUILDERS on the host (and at least 1 a pool), and no more than the
 * lookahead, beyond which nothing waits for a build. */
long cli_builders_default(long cores, long pools, long lookahead);

typedef struct tuner {
    gb_context_t *ctx;
    gb_store_t *st; /* the first tuner's is the command's; the others share its connection */
    size_t kind;    /* devices of one kind (name, driver, platform) share their runs */
    char label[160];
    char devindex[32];
    char *wargv[10];      /* the build processes' command line: this device, these kernels */
    struct gb_pool *pool; /* its builders, kept from one run to the next (NULL: none) */
    int shares_pool;      /* pool is an earlier tuner's of its kind (not closed here) */
    view_t v;
    int rc;
} tuner_t;

typedef struct tuners {
    const plan_runs_t *runs;
    const gb_explore_plan_t *pl;
    const narrowing_t *nw;
    const tune_opts_t *t;
    const gb_registry_t *reg;
    const cli_measure_t *o;
    const char *cmdline;
    char **argv;
    tuner_t w[CLI_MAX_DEVICES];
    size_t n;
    /* This process's devices' kinds, then (rank 0 under --mpi) the other ranks' as their HELLO
     * comes: room for one kind per device and rank. */
    cli_kinds_t kinds;
    size_t *next;         /* per kind: the next run, a place in order[] */
    size_t *order;        /* the runs (kernel-major indices) in the order they are handed out */
    pthread_mutex_t lock; /* next[], failed, and the output */
    int failed;
    const gb_xp_mpi_t *mpi; /* --mpi: rank 0 also hands runs to the other ranks, by their kind */
    gb_store_t *serve_st;   /* rank 0's handle for what the other ranks send (NULL elsewhere) */
} tuners_t;

/* Output shared by the tuners: lock, and "[label] " where lines carry a label. */
void cli_view_lock(const view_t *v);
void cli_view_unlock(const view_t *v);
const char *cli_view_head(const view_t *v, char *buf, size_t len);
/* The default budget for a space of that size. */
size_t cli_tune_default_budget(uint64_t space);
/* One tuning run on ctx into st, printed through v; its outcome into *out. 0 or an exit code. */
int cli_tune_one(const gb_tune_spec_t *spec, const gb_registry_t *reg, gb_context_t *ctx,
                 gb_store_t *st, view_t *v, const char *record_path, gb_tune_outcome_t *out);

/* A tuner per device of dev (contexts; store handles on st's one connection); 0 or the exit
 * code. Then every run on every kind of device (and over the MPI ranks under --mpi). */
int cli_tuners_open(tuners_t *tu, const cli_device_t *dev, gb_store_t *st);
int cli_tuners_run(tuners_t *tu);
void cli_tuners_close(tuners_t *tu);

#endif
