/* explore.h: experiments: a plan (kernels x precisions x parameter grids x work-group sizes x
 * sizes x repetitions, from command-line flags or a JSON plan file, or a built-in named plan),
 * expanded into jobs (src/tool/job), each checked, identified and looked up in the results store
 * before anything runs, so that an interrupted sweep resumes where it stopped. 'run' is the
 * same sweep measured once and kept as new repetitions. Prints nothing (the CLI shows
 * progress). See docs/explore.md.
 */
#ifndef GB_EXPLORE_H
#define GB_EXPLORE_H

#include <signal.h>

#include "tool/fleet/fleet.h"
#include "tool/job/job.h"
#include "rt/util/util.h"

#define GB_PLAN_MAX_LIST 4096 /* values in one list or range */
#define GB_EXPLORE_MAX_POINTS 1000000u
#define GB_EXPLORE_MAX_KINDS 32 /* kinds of device one sweep spreads over */

typedef struct gb_size_list {
    size_t *v, n;
} gb_size_list_t;

typedef struct gb_explore_plan_param {
    char name[GB_NAME_MAX];
    long *values;
    size_t n;
} gb_explore_plan_param_t;

/* A plan as given. Lists are owned (gb_plan_free). */
typedef struct gb_explore_plan {
    char origin[320]; /* "plan 'FILE'", "built-in plan 'NAME'" or "the command line" */
    char name[64];
    char *kernels;       /* comma-separated kernel or preset names */
    unsigned precisions; /* mask of 1u << gb_precision_t; 0: each kernel's own */
    int all_precisions;  /* "all": each precision a kernel has, skipping those the device cannot */
    gb_size_list_t orders, dim[3];          /* -n (square orders), -M, -N, -K */
    size_t (*shapes)[3], nshapes;           /* explicit M x N x K shapes (--shapes, "shapes") */
    size_t (*lws)[2], nlws;                 /* explicit work-group sizes */
    gb_size_list_t lws_x, lws_y, lws_items; /* a grid x by y, kept where x*y is in items */
    gb_explore_plan_param_t params[GB_MAX_PARAMS];
    size_t nparams;
    unsigned repeat;      /* stored points per definition (repetition index 0..R-1) */
    size_t shard, shards; /* --shard I/N: the points whose index is I modulo N (N = 1: all) */
    gb_bench_options_t bench;
    gb_problem_t base; /* layout, transpositions, alpha, beta, ld, offsets */
    int has_layout;
    int accumulate_h; /* "accumulate": "h": FP16 sums, so that h is run as hh */
} gb_explore_plan_t;

void gb_plan_init(gb_explore_plan_t *pl);
void gb_plan_free(gb_explore_plan_t *pl);
/* Sets one key from text, as a command-line flag or a plan file gives it (docs/explore.md lists
 * the keys). label names the source in messages ("-n", "plan 'p.json': key 'n'"). */
int gb_plan_set(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                char *msg, size_t msglen);
/* What only complex precisions have (the conjugate transposition C, alpha or beta with an
 * imaginary part) asked with a real precision among the plan's: GB_EBADTRANS or GB_EBADSCALAR
 * with msg saying what to change; else GB_OK. */
int gb_plan_check_complex(const gb_explore_plan_t *pl, char *msg, size_t msglen);
/* "accumulate h" made hh of the plan's h: GB_EBADPRECISION with msg saying what to change where
 * another precision is asked; else GB_OK. */
int gb_plan_apply_accumulate(gb_explore_plan_t *pl, char *msg, size_t msglen);
/* Loads a built-in plan by name or a JSON plan file into pl (keys not in it keep their values).
 * A malformed plan gets GB_EBADARG with msg naming the file and key. */
int gb_plan_load(gb_explore_plan_t *pl, const char *name_or_file, char *msg, size_t msglen);
int gb_plan_parse_json(gb_explore_plan_t *pl, const char *text, size_t len, const char *origin,
                       char *msg, size_t msglen);
/* The plan's shapes into a new array (the caller frees): the square orders (-n), or the product
 * of the -M, -N, -K lists where a missing one follows the order it is paired with, then the
 * explicit shapes. GB_EBADARG when there are none or too many. */
int gb_plan_shapes(const gb_explore_plan_t *pl, size_t (**out)[3], size_t *n, char *msg,
                   size_t msglen);
/* Reads a shapes file (one "M N K" or "MxNxK" per line; '#' comments) into text for the plan key
 * "shapes" ("MxNxK,MxNxK,..."; caller frees). GB_EIO or GB_EBADARG with msg naming the line. */
int gb_plan_read_shapes(const char *path, char **text, char *msg, size_t msglen);

/* The built-in plans: count, and each one's name, description and JSON text. */
size_t gb_plan_builtin_count(void);
const char *gb_plan_builtin_name(size_t i);
const char *gb_plan_builtin_description(size_t i);
const char *gb_plan_builtin_json(size_t i);

/* ---- expansion ----------------------------------------------------------------------------- */

/* GB_XP_OTHER: another shard's point (--shard), neither looked up nor run here. */
typedef enum gb_xp_status {
    GB_XP_TODO = 0,
    GB_XP_STORED = 1,
    GB_XP_SKIP = 2,
    GB_XP_OTHER = 3
} gb_xp_status_t;

/* Tally of one reason points could not run. */
typedef struct gb_xp_reason {
    int code;
    size_t count;
    char example[512];
} gb_xp_reason_t;

typedef struct gb_explore gb_explore_t;

/* Expands pl against the registry, device and store (NULL: nothing stored yet): checks that every
 * kernel name exists (GB_ENOKERNEL), that every swept parameter belongs to a kernel explored
 * (GB_EBADPARAM) and work-group sizes to one that takes them (GB_EBADLWS), and that the sweep
 * has at most GB_EXPLORE_MAX_POINTS points; then makes every point's job and classifies it: to
 * run, already stored (by id), or cannot run here (its reason tallied). 'all' in the kernel list
 * is every family and preset; 'auto' asks chooser (may be NULL) per point. Everything passed must
 * outlive ex. */
int gb_explore_open(gb_explore_t **out, const gb_explore_plan_t *pl, const gb_registry_t *reg,
                    const gb_device_info_t *dev, gb_store_t *st, const gb_chooser_t *chooser,
                    char *msg, size_t msglen);
/* The same over ndevs kinds of device (gb_explore_open is one): a point is stored when any
 * kind's id for it is stored, to run when some kind can run it (gb_explore_runs_on), and skipped
 * only when none can. A kind's point that crashed a process before (the store records it:
 * src/tool/store/inflight.h) cannot run there: its reason is GB_ECRASH. */
int gb_explore_open_on(gb_explore_t **out, const gb_explore_plan_t *pl, const gb_registry_t *reg,
                       const gb_device_info_t *const *devs, size_t ndevs, gb_store_t *st,
                       const gb_chooser_t *chooser, char *msg, size_t msglen);
void gb_explore_close(gb_explore_t *ex);
size_t gb_explore_kinds(const gb_explore_t *ex);
/* Can the point run on kind (an index into gb_explore_open_on's devs)? */
int gb_explore_runs_on(const gb_explore_t *ex, size_t index, size_t kind);
size_t gb_explore_total(const gb_explore_t *ex);
/* Whether the kernels' own layouts differ, none was given, and so every point takes the plan's
 * (row-major NN unless a plan file says otherwise): a run's rows then solve one problem. */
int gb_explore_one_layout(const gb_explore_t *ex);
/* Points in each status after gb_explore_open (measuring does not change them). */
size_t gb_explore_count(const gb_explore_t *ex, gb_xp_status_t status);
gb_xp_status_t gb_explore_status(const gb_explore_t *ex, size_t index);
size_t gb_explore_nreasons(const gb_explore_t *ex);
const gb_xp_reason_t *gb_explore_reason(const gb_explore_t *ex, size_t i);
/* The data point index is measured on, as a number: its shape and precision (the plan's other
 * settings are every point's). Points of one key share their inputs and reference on a context
 * (src/harness/measure/inputs.c), so the queue hands them to one worker together. */
size_t gb_explore_data_key(const gb_explore_t *ex, size_t index);
/* The points of the entry (one kernel in one precision) that point index belongs to, all its
 * shapes, work-group sizes and parameter combinations; and of them those that can run here (to
 * measure or in the store), counted once when the sweep is opened. */
size_t gb_explore_entry_points(const gb_explore_t *ex, size_t index);
size_t gb_explore_entry_runnable(const gb_explore_t *ex, size_t index);
/* Makes the job of point index on the first kind of device, or on kind (measure it with
 * gb_job_measure). GB_ENOMEM only. */
int gb_explore_job(gb_explore_t *ex, size_t index, gb_job_t *job);
int gb_explore_job_on(gb_explore_t *ex, size_t index, size_t kind, gb_job_t *job);

/* ---- measuring: workers, one per device context, fed from one queue of points ----------- */

/* One worker: a context of one of the sweep's kinds of device, or (ctx NULL) a worker in another
 * process that the caller feeds from the queue itself (MPI). */
typedef struct gb_xp_worker {
    gb_context_t *ctx;
    size_t kind;     /* its device: an index into gb_explore_open_on's devs */
    char label[160]; /* "1: NVIDIA H200", for progress */
} gb_xp_worker_t;

/* One worker per device of devs (n, at most GB_EXPLORE_MAX_KINDS), labelled as the fleet labels
 * them (gb_fleet_label; mpi NULL: none); a device listed twice is one kind with two workers:
 * the distinct devices into kinds (room for n), in order, their count into *nkinds. */
void gb_xp_workers_init(gb_xp_worker_t *w, const gb_device_info_t *const *devs, size_t n,
                        const gb_fleet_mpi_t *mpi, const gb_device_info_t **kinds, size_t *nkinds);
/* Opens each worker's context on its device (devs as given to gb_xp_workers_init): GB_OK, or
 * the error with msg "LABEL: why"; gb_xp_workers_close closes those opened. */
int gb_xp_workers_open(gb_xp_worker_t *w, const gb_device_info_t *const *devs, size_t n, char *msg,
                       size_t msglen);
void gb_xp_workers_close(gb_xp_worker_t *w, size_t n);

/* What became of one point. rc: GB_OK measured and stored; 1 stored meanwhile by another
 * process; a gb_job_cannot_run code (cannot run on that worker's device); another failure. */
typedef struct gb_xp_outcome {
    const gb_xp_worker_t *worker;
    size_t index;
    const char *desc, *msg;
    int rc;
    const gb_point_t *pt; /* rc GB_OK or 1 */
} gb_xp_outcome_t;

/* Told of each point, always from one thread at a time (under the queue's lock). */
typedef struct gb_xp_hooks {
    void (*measuring)(const gb_xp_worker_t *w, const char *desc, void *user);
    void (*measured)(const gb_xp_outcome_t *o, void *user);
    volatile sig_atomic_t *stop; /* non-zero: every worker stops after its point */
    long pause_ms;               /* each worker sleeps this long after each point */
    void *user;
} gb_xp_hooks_t;

/* The queue of the points to run (status GB_XP_TODO), each taken once by a worker of a kind that
 * can run it, in index order per kind (neighbours share a program); results are stored in st by
 * one writer at a time. */
typedef struct gb_xp_queue gb_xp_queue_t;
int gb_xp_queue_open(gb_xp_queue_t **q, gb_explore_t *ex, gb_store_t *st,
                     const gb_xp_hooks_t *hooks);
void gb_xp_queue_close(gb_xp_queue_t *q);
/* The next point for worker w (of its kind): 1 with *index, or 0 when none is left or the sweep
 * stops (hooks->stop or a failure). A worker is given the points on the data it measured last
 * first (gb_explore_data_key), then those on data no other worker holds, then any, each in
 * index order: so each worker generates inputs and a reference once per data wherever it can,
 * rather than once per point where the workers' points interleave. */
int gb_xp_queue_take(gb_xp_queue_t *q, const gb_xp_worker_t *w, size_t *index);
/* Stores a point's outcome (o->pt under o->pt->id where o->rc is GB_OK; rc becomes 1 when that id
 * was stored meanwhile) and tells the hooks. GB_OK, or an error that stops the sweep (the store
 * failing: msg says why). */
int gb_xp_queue_done(gb_xp_queue_t *q, gb_xp_outcome_t *o, char *msg, size_t msglen);
/* Under the queue's lock: is id in the store (1, 0, or a negative error)? */
int gb_xp_queue_stored(gb_xp_queue_t *q, const char *id);
void gb_xp_queue_measuring(gb_xp_queue_t *q, const gb_xp_worker_t *w, const char *desc);
/* The first error that stopped the sweep (GB_OK: none), its message into msg. */
int gb_xp_queue_error(gb_xp_queue_t *q, char *msg, size_t msglen);
/* One worker's loop: takes points for its kind, measures each on its context, marked in flight
 * in the store meanwhile (inflight.h), and hands it to gb_xp_queue_done, until none is left. */
void gb_xp_work(gb_xp_queue_t *q, const gb_xp_worker_t *w);

/* Workers in other processes, served from the queue by serve(q, user) on the calling thread
 * (gb_xp_mpi_coordinate); it returns GB_OK or an error that stopped the sweep. */
typedef struct gb_xp_remote {
    int (*serve)(gb_xp_queue_t *q, void *user);
    void *user;
} gb_xp_remote_t;

/* Measures every point to run over nw local workers, each on its own thread (the first on this
 * one unless remote is given: then remote->serve runs here), and stores each as it comes. GB_OK
 * when the queue ran dry or was stopped; a failure that stopped it (store, memory) with msg. */
int gb_explore_measure(gb_explore_t *ex, const gb_xp_worker_t *w, size_t nw, gb_store_t *st,
                       const gb_xp_hooks_t *hooks, const gb_xp_remote_t *remote, char *msg,
                       size_t msglen);

/* ---- MPI (mpi.c, on the fleet's messages: src/tool/fleet) -------------------------------- */

/* What rank 0's serve needs: it answers the other ranks' requests until each was told to stop;
 * after a stop request (stopping(signal) is told of it when *stop is first seen set; NULL: not
 * told) it waits grace_s for the points in flight, then gives up on ranks that do not answer
 * (lost: how many). */
typedef struct gb_xp_mpi_coord {
    const gb_fleet_mpi_t *mpi;
    volatile sig_atomic_t *stop;
    double grace_s;
    size_t lost;
    char *msg;
    size_t msglen;
    void (*stopping)(int signal);
} gb_xp_mpi_coord_t;
int gb_xp_mpi_coordinate(gb_xp_queue_t *q, void *user);
/* A rank other than 0: asks rank 0 for points, measures each with worker w (its own device and
 * context; ex expanded without a store) and sends the whole point back, sleeping pause_ms after
 * each, until told to stop. */
int gb_xp_mpi_work(gb_explore_t *ex, const gb_xp_worker_t *w, long pause_ms, char *msg,
                   size_t msglen);

#endif
