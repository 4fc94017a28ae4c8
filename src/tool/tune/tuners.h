/* tuners.h: a tuning's runs (each kernel x shape, or runs of their own with their precision,
 * layout, shape and seeds: tune --refresh's items) spread over devices and MPI ranks by the
 * fleet (src/tool/fleet): a tuner per device, each on a thread of its own (tune -d), devices of
 * one kind (name, driver, platform) sharing the runs and each kind tuning every run for its own
 * database entries (an item only on the kind it names); every tuner stores through the
 * command's one store connection. Under MPI (tune --mpi) rank 0 hands out the runs by the
 * ranks' kinds, sends a rank the points its run already has (and an item, which it did not
 * plan), and stores what comes back. Prints nothing: hooks show the runs and what the
 * ranks send. docs/scale-out.md. */
#ifndef GB_TUNE_TUNERS_H
#define GB_TUNE_TUNERS_H

#include "tool/fleet/fleet.h"
#include "tune.h"

/* At most this many build processes on a host by default: the driver opens one context at a
 * time, and on 32 cores 31 processes cost more in starting than they built ahead
 * (bench/notes/scale-out.md#two-h200). */
#define GB_TUNE_MAX_BUILDERS 15
/* The default number of build processes for each of a host's pools (one per kind of device in
 * a process, each MPI rank of the host its own): its usable cores but one, shared by the
 * pools, at most GB_TUNE_MAX_BUILDERS on the host (and at least 1 a pool), and no more than the
 * lookahead, beyond which nothing waits for a build. */
long gb_tune_builders_default(long cores, long pools, long lookahead);
/* The build threads and processes of a tuning on the n devices devs (under mpi, NULL: none),
 * where *threads or *builders is -1 (left to us): on a CPU device neither; elsewhere build
 * processes (gb_tune_builders_default over the pools: a kind of device each, or each MPI rank
 * of the host) unless threads were asked for, and threads (the spare cores, at most 16) only
 * where there are no processes. */
void gb_tune_helpers_default(long *threads, long *builders, const gb_device_info_t *const *devs,
                             size_t n, const gb_fleet_mpi_t *mpi, const char *strategy);
/* The default budget of strategy over a space of that size: a tenth of it, from 20 to 300, never
 * more than the space; the whole space for a strategy that proposes all of it (exhaustive). */
size_t gb_tune_default_budget(uint64_t space, const char *strategy);

/* At most this many seeds in a run (gb_tune_item_t). */
#define GB_TUNE_SEEDS 8

/* A run of its own (tune --refresh): a family at one precision, layout and shape, its seeds,
 * and the kind of device it is for. */
typedef struct gb_tune_item {
    char kernel[2 * GB_NAME_MAX]; /* a family */
    gb_precision_t precision;
    char layout[8];    /* "row-NN": the layout and transpositions */
    gb_problem_t base; /* the command's problem in that layout (gb_tune_item_layout) */
    size_t m, n, k;
    char shape_class[32];
    gb_params_t seeds[GB_TUNE_SEEDS]; /* measured first (gb_tune_spec_t.seeds) */
    size_t nseeds;
    /* The kind of device it is for (name, driver, platform; a name "" for any). */
    char device[128], driver[64], platform[128];
    uint64_t space; /* the family's valid configurations there */
} gb_tune_item_t;

/* A tuning's runs: each kernel x shape, kernel-major; or, where items are given, the items in
 * their order. Owned arrays (gb_tune_runs_free). */
typedef struct gb_tune_runs {
    char **kernels;
    size_t nkernels;
    size_t (*shapes)[3], nshapes;
    int all;               /* -k all: families a device cannot run are skipped, not refused */
    gb_precision_t *prec;  /* per kernel */
    uint64_t *space;       /* per kernel: its valid configurations (the default budget's base) */
    gb_tune_item_t *items; /* runs of their own (tune --refresh); NULL: kernels x shapes */
    size_t nitems, capitems;
    int refresh; /* the runs are items (a rank other than 0 under MPI gets them from rank 0) */
    /* The whole tuning's limit in seconds (0: none): no run starts once it is spent, and each
     * run stops proposing when it is (its time_s is the time left). */
    double time_s;
} gb_tune_runs_t;
void gb_tune_runs_free(gb_tune_runs_t *r);
/* How many runs r holds. */
size_t gb_tune_runs_count(const gb_tune_runs_t *r);
/* Adds a copy of it to r's items: GB_OK or GB_ENOMEM. */
int gb_tune_runs_add(gb_tune_runs_t *r, const gb_tune_item_t *it);
/* Sets p's layout and transpositions from a tag ("col-NT"): GB_OK, or GB_EBADARG for a tag
 * that is not row-NN ... col-TT. */
int gb_tune_item_layout(gb_problem_t *p, const char *tag);
/* An item as one line of text for another rank, with the time left of the tuning (caller
 * frees; NULL when out of memory), and back, its base the command's base in its layout:
 * GB_OK, or GB_EBADARG for text gb_tune_item_text did not write. */
char *gb_tune_item_text(const gb_tune_item_t *it, double time_left);
int gb_tune_item_parse(gb_tune_item_t *it, double *time_left, const char *text,
                       const gb_problem_t *base);

/* One device to tune on: its facts, and the command line of its build processes (pool.h). Both
 * must outlive the tuners. */
typedef struct gb_tuner_dev {
    const gb_device_info_t *dev;
    char *const *builder_argv;
} gb_tuner_dev_t;

typedef struct gb_tuners_spec {
    const gb_tune_runs_t *runs;
    /* Every run's spec but its kernel, precision, shape, build processes' command line and pool
     * (each tuner's), and for an item its layout, seeds and time left; validation is forced on,
     * and a budget of 0 without time_s becomes gb_tune_default_budget of the kernel's space. */
    const gb_tune_spec_t *base;
    const gb_registry_t *reg;
    const gb_tuner_dev_t *devs;
    size_t ndevs;
    const gb_fleet_mpi_t *mpi; /* under mpirun (started); NULL: this process alone */
} gb_tuners_spec_t;

typedef struct gb_tuners gb_tuners_t;
/* A tuner per device of spec (everything spec points to must outlive them): its context, a
 * store handle on st's one connection (under MPI a rank other than 0 has no store: st NULL),
 * and its build pool (one per kind of device, shared by the devices of that kind). GB_OK, or
 * the error with msg ("LABEL: why" where a device failed). Close with gb_tuners_close. */
int gb_tuners_open(gb_tuners_t **out, const gb_tuners_spec_t *spec, gb_store_t *st, char *msg,
                   size_t msglen);
void gb_tuners_close(gb_tuners_t *tu); /* accepts NULL */
size_t gb_tuners_count(const gb_tuners_t *tu);
/* The kinds among this process's devices (rank 0 under MPI adds the other ranks' later). */
size_t gb_tuners_kinds(const gb_tuners_t *tu);
/* Tuner i's label: "1: NVIDIA H200", or under MPI "rank 2: NVIDIA H200". */
const char *gb_tuners_label(const gb_tuners_t *tu, size_t i);

/* What the tuners tell, from their threads: the caller serialises what it prints. Codes the
 * hooks return are the caller's (exit codes): 0 goes on, another stops every tuner. */
typedef struct gb_tuners_hooks {
    /* Each run's hooks as gb_tune_run takes them, told with users[i] of the tuner running it
     * (run.user is not used); run.stop also stops the handing out of runs. */
    gb_tune_hooks_t run;
    void *const *users;
    /* Before a run on a tuner (its users[i]). */
    void (*starting)(const gb_tune_spec_t *spec, void *user);
    /* After it: gb_tune_run's rc and msg, its outcome (rc GB_OK), the store and device it ran on.
     * 0, or a code that stops every tuner (unless *run.stop is set) and that gb_tuners_run
     * returns; under MPI a rank other than 0 sends it to rank 0. */
    int (*finished)(const gb_tune_spec_t *spec, int rc, const char *msg,
                    const gb_tune_outcome_t *out, gb_store_t *st, const gb_device_info_t *dev,
                    void *user);
    /* The rest with user. Rank 0 under MPI: a rank's device is a kind of its own (it tunes
     * every run); what a rank sent is stored (rc GB_OK, out its outcome) or could not be (rc
     * and msg): 0, or a code that stops every tuner. */
    void (*new_kind)(const char *label, const char *driver, const char *platform, void *user);
    int (*stored)(const char *label, int rc, const char *msg, const gb_tune_outcome_t *out,
                  void *user);
    /* Something to hear of that is no run's: ranks that stopped answering, rank 0's points that
     * did not read back on a rank. */
    void (*warn)(const char *msg, void *user);
    /* The tuners' own failure (a gb_error_t code and its message): the code to stop with. */
    int (*fail)(int code, const char *msg, void *user);
    void *user;
} gb_tuners_hooks_t;

/* Every run on every kind of device: the first tuner on this thread and the others on their
 * own, or (rank 0 under MPI) every tuner on a thread while this one serves the other ranks;
 * a rank other than 0 tunes what rank 0 hands it, each run into a store in memory whose points
 * and winner go back to rank 0. 0 when every run was made (or a stop asked for), else the first
 * code of a hook that stopped them. */
int gb_tuners_run(gb_tuners_t *tu, const gb_tuners_hooks_t *hooks);
/* After gb_tuners_run: the runs of this process's kinds of device that were not started (the
 * whole tuning's time was spent, or a stop came). */
size_t gb_tuners_unstarted(const gb_tuners_t *tu);

#endif
