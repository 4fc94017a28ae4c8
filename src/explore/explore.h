/* explore.h: experiments: a plan (kernels x precisions x parameter grids x work-group sizes x
 * sizes x repetitions, from command-line flags or a JSON plan file, or a built-in named plan),
 * expanded into jobs (src/job), each checked, identified and looked up in the results store
 * before anything runs, so that an interrupted sweep resumes where it stopped. 'run' is the
 * same sweep measured once and kept as new repetitions. Prints nothing (the CLI shows
 * progress). See docs/explore.md.
 */
#ifndef GB_EXPLORE_H
#define GB_EXPLORE_H

#include "../job/job.h"
#include "../util/util.h"

#define GB_PLAN_MAX_LIST 4096 /* values in one list or range */
#define GB_EXPLORE_MAX_POINTS 1000000u

typedef struct gb_size_list {
    size_t *v, n;
} gb_size_list_t;

typedef struct gb_plan_param {
    char name[GB_NAME_MAX];
    long *values;
    size_t n;
} gb_plan_param_t;

/* A plan as given. Lists are owned (gb_plan_free). */
typedef struct gb_plan {
    char origin[320]; /* "plan 'FILE'", "built-in plan 'NAME'" or "the command line" */
    char name[64];
    char *kernels;                          /* comma-separated kernel or preset names */
    unsigned precisions;                    /* mask of 1u << gb_precision_t; 0: each kernel's own */
    gb_size_list_t orders, dim[3];          /* -n (square orders), -M, -N, -K */
    size_t (*shapes)[3], nshapes;           /* explicit M x N x K shapes (--shapes, "shapes") */
    size_t (*lws)[2], nlws;                 /* explicit work-group sizes */
    gb_size_list_t lws_x, lws_y, lws_items; /* a grid x by y, kept where x*y is in items */
    gb_plan_param_t params[GB_MAX_PARAMS];
    size_t nparams;
    unsigned repeat;      /* stored points per definition (repetition index 0..R-1) */
    size_t shard, shards; /* --shard I/N: the points whose index is I modulo N (N = 1: all) */
    gb_bench_options_t bench;
    gb_problem_t base; /* layout, transpositions, alpha, beta, ld, offsets */
    int has_layout;
} gb_plan_t;

void gb_plan_init(gb_plan_t *pl);
void gb_plan_free(gb_plan_t *pl);
/* Sets one key from text, as a command-line flag or a plan file gives it (docs/explore.md lists
 * the keys). label names the source in messages ("-n", "plan 'p.json': key 'n'"). */
int gb_plan_set(gb_plan_t *pl, const char *key, const char *value, const char *label, char *msg,
                size_t msglen);
/* Loads a built-in plan by name or a JSON plan file into pl (keys not in it keep their values).
 * A malformed plan gets GB_EBADARG with msg naming the file and key. */
int gb_plan_load(gb_plan_t *pl, const char *name_or_file, char *msg, size_t msglen);
int gb_plan_parse_json(gb_plan_t *pl, const char *text, size_t len, const char *origin, char *msg,
                       size_t msglen);
/* The plan's shapes into a new array (the caller frees): the square orders (-n), or the product
 * of the -M, -N, -K lists where a missing one follows the order it is paired with, then the
 * explicit shapes. GB_EBADARG when there are none or too many. */
int gb_plan_shapes(const gb_plan_t *pl, size_t (**out)[3], size_t *n, char *msg, size_t msglen);
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
int gb_explore_open(gb_explore_t **out, const gb_plan_t *pl, const gb_registry_t *reg,
                    const gb_device_info_t *dev, gb_store_t *st, const gb_chooser_t *chooser,
                    char *msg, size_t msglen);
void gb_explore_close(gb_explore_t *ex);
size_t gb_explore_total(const gb_explore_t *ex);
/* Points in each status after gb_explore_open (measuring does not change them). */
size_t gb_explore_count(const gb_explore_t *ex, gb_xp_status_t status);
gb_xp_status_t gb_explore_status(const gb_explore_t *ex, size_t index);
size_t gb_explore_nreasons(const gb_explore_t *ex);
const gb_xp_reason_t *gb_explore_reason(const gb_explore_t *ex, size_t i);
/* Makes the job of point index (measure it with gb_job_measure). GB_ENOMEM only. */
int gb_explore_job(gb_explore_t *ex, size_t index, gb_job_t *job);

#endif
