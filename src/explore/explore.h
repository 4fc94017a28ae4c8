/* explore.h: experiments: a plan (kernels x precisions x parameter grids x work-group sizes x
 * sizes x repetitions, from command-line flags or a JSON plan file, or a built-in named plan),
 * expanded into points, each checked, identified and looked up in the results store before
 * anything runs, so that an interrupted sweep resumes where it stopped. Sits on the public API
 * and the store; prints nothing (the CLI shows progress). See docs/explore.md.
 */
#ifndef GB_EXPLORE_H
#define GB_EXPLORE_H

#include "../store/store.h"
#include "../util/util.h"

#define GB_PLAN_MAX_LIST 4096       /* values in one list or range */
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
    char origin[320];             /* "plan 'FILE'", "built-in plan 'NAME'" or "the command line" */
    char name[64];
    char *kernels;                /* comma-separated kernel or preset names */
    unsigned precisions;          /* mask of 1u << gb_precision_t; 0: each kernel's own */
    gb_size_list_t orders, dim[3];/* -n (square orders), -M, -N, -K */
    size_t (*lws)[2], nlws;       /* explicit work-group sizes */
    gb_size_list_t lws_x, lws_y, lws_items; /* a grid x by y, kept where x*y is in items */
    gb_plan_param_t params[GB_MAX_PARAMS];
    size_t nparams;
    unsigned repeat;              /* stored points per definition (repetition index 0..R-1) */
    gb_bench_options_t bench;
    gb_problem_t base;            /* layout, transpositions, alpha, beta, ld, offsets */
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
/* The built-in plans: count, and each one's name, description and JSON text. */
size_t gb_plan_builtin_count(void);
const char *gb_plan_builtin_name(size_t i);
const char *gb_plan_builtin_description(size_t i);
const char *gb_plan_builtin_json(size_t i);

/* ---- expansion and measurement -------------------------------------------------------------- */

typedef enum gb_xp_status { GB_XP_TODO = 0, GB_XP_STORED = 1, GB_XP_SKIP = 2 } gb_xp_status_t;

/* One point of the sweep, ready to run. */
typedef struct gb_xp_point {
    size_t index;
    gb_xp_status_t status;
    const char *kernel;  /* as the plan names it */
    gb_params_t swept;   /* the swept parameters' values at this point */
    gb_impl_t impl;
    gb_problem_t problem;
    gb_bench_options_t bench;
    unsigned rep;
    int has_lws;
    size_t lws[2];
    int code;        /* why it cannot run (GB_EWGSIZE, ...), or GB_OK */
    char why[512];
    char id[GB_POINT_ID_LEN + 1];
} gb_xp_point_t;

/* Tally of one reason points could not run. */
typedef struct gb_xp_reason {
    int code;
    size_t count;
    char example[512];
} gb_xp_reason_t;

typedef struct gb_explore gb_explore_t;

/* Expands pl against the registry, device and store: checks that every kernel and parameter
 * name exists (GB_ENOKERNEL / GB_EBADPARAM otherwise, msg says which) and that the sweep has
 * at most GB_EXPLORE_MAX_POINTS points, then classifies every point: to run, already stored
 * (by id), or cannot run here (with its reason tallied). Everything passed must outlive ex. */
int gb_explore_open(gb_explore_t **out, const gb_plan_t *pl, const gb_registry_t *reg,
                    const gb_device_info_t *dev, gb_store_t *st, char *msg, size_t msglen);
void gb_explore_close(gb_explore_t *ex);
size_t gb_explore_total(const gb_explore_t *ex);
/* Points in each status after gb_explore_open (measuring does not change them). */
size_t gb_explore_count(const gb_explore_t *ex, gb_xp_status_t status);
gb_xp_status_t gb_explore_status(const gb_explore_t *ex, size_t index);
size_t gb_explore_nreasons(const gb_explore_t *ex);
const gb_xp_reason_t *gb_explore_reason(const gb_explore_t *ex, size_t i);
/* Decodes point index into xp (config, problem, options, id, and why it cannot run). */
int gb_explore_point(gb_explore_t *ex, size_t index, gb_xp_point_t *xp);
/* Runs point index on ctx and stores it, failed validation included. GB_OK with the point in pt
 * (the caller frees it); 1 when the point turned out to be stored meanwhile (by another process);
 * on failure to run, the error code with the reason in msg: codes for which
 * gb_explore_cannot_run() holds mean the point cannot run here, others a real failure. */
int gb_explore_measure(gb_explore_t *ex, gb_context_t *ctx, const gb_xp_point_t *xp,
                       gb_point_t *pt, char *msg, size_t msglen);
/* Is code a reason a point cannot run here (constraints, work-group or local memory too large,
 * missing precision or extension), as opposed to a failure? */
int gb_explore_cannot_run(int code);
/* "SGEMM_NT_4x1 s 64x64x64 lws 16x4 rep 0" into buf. */
const char *gb_explore_describe(const gb_xp_point_t *xp, char *buf, size_t len);

#endif
