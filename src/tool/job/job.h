/* job.h: the one job model of everything that measures (run, explore, replay, tune): a job is one
 * point to measure, made and checked once from what was asked (an implementation by name, its
 * swept parameters and work-group size, the precision, the problem in the implementation's own
 * layout unless one was given, the shape, the repetition) or from a stored point (replay), and
 * measured and stored by one function. Sits on the public API and the store; prints nothing. */
#ifndef GB_JOB_H
#define GB_JOB_H

#include "tool/store/store.h"

/* What -k auto runs: the kernel (family or preset) and its parameters for problem p on dev, and
 * why ("tuned: H100, square-4096"). GB_OK, or an error with why saying what is missing. */
typedef struct gb_chooser {
    int (*choose)(void *user, const gb_device_info_t *dev, const gb_problem_t *p, char *kernel,
                  size_t klen, gb_params_t *params, char *why, size_t wlen);
    void *user;
} gb_chooser_t;

#define GB_AUTO "auto" /* the kernel name that asks the chooser */

/* What a job is made from. */
typedef struct gb_job_spec {
    const char *kernel; /* a kernel family, preset or library peer name */
    int named;          /* asked for by name (its refusals are errors to run), not
                                     through 'all' */
    gb_precision_t precision;
    const gb_params_t *swept; /* parameter values to set (NULL: none) */
    const size_t *lws;        /* a work-group size J, I to set (NULL: the kernel's own) */
    const gb_problem_t *base; /* layout, transpositions, scalars, leading dimensions, offsets */
    int has_layout;           /* the layout was given: else the implementation's own */
    size_t m, n, k;
    const gb_bench_options_t *bench;
    unsigned rep;                /* the repetition index the job is defined with */
    const gb_chooser_t *chooser; /* for the kernel "auto" (NULL: auto is refused) */
} gb_job_spec_t;

/* One job, ready to run or with the reason it cannot. */
typedef struct gb_job {
    const char *kernel; /* the name as asked (points into the spec's text) */
    int named;
    gb_params_t swept;
    int has_lws;
    size_t lws[2];
    gb_impl_t impl;
    gb_problem_t problem; /* checked, leading dimensions filled in */
    gb_bench_options_t bench;
    unsigned rep;
    int code; /* GB_OK, or why it cannot run here (GB_EWGSIZE, ...) */
    char why[512];
    char id[GB_POINT_ID_LEN + 1]; /* its point id (defined with rep) */
    char chosen[2 * GB_NAME_MAX]; /* for "auto": the kernel chosen ("" otherwise) */
    char chosen_why[256];         /* and why */
} gb_job_t;

/* Makes a job: for the kernel "auto", first asks spec->chooser which kernel and parameters to run
 * (job->chosen, job->chosen_why); resolves the implementation with the swept parameters and
 * work-group size, sets
 * the precision and shape, the implementation's native layout unless the layout was given,
 * checks the problem and whether the implementation can run it on dev, and defines its point id.
 * GB_OK with job->code telling whether it can run (and job->why why not); GB_ENOMEM only as an
 * error of its own. */
int gb_job_make(gb_job_t *job, const gb_registry_t *reg, const gb_device_info_t *dev,
                const gb_job_spec_t *spec);
/* The job that measures a stored point again: its implementation, parameters, problem and
 * options, on dev (the caller picks the device the point names). GB_OK with job->code as above;
 * job->id is the id this machine gives that definition (compare with pt->id). */
int gb_job_from_point(gb_job_t *job, const gb_registry_t *reg, const gb_device_info_t *dev,
                      const gb_point_t *pt);

/* How gb_job_measure stores what it measured. */
typedef enum gb_job_store {
    GB_JOB_KEEP_NONE = 0, /* not stored (replay) */
    GB_JOB_KEEP_NEW,      /* stored under the job's id; 1 returned when the id was stored
                             meanwhile (explore: resumable, idempotent) */
    GB_JOB_KEEP_NEXT_REP  /* stored as the first repetition of its definition not yet stored
                             (run: every run is kept) */
} gb_job_store_t;

/* Measures a job that can run (job->code GB_OK) on ctx and stores it as keep says (st may be
 * NULL with GB_JOB_KEEP_NONE). pt (initialised by the caller, who frees it) gets the whole
 * point: definition, result and provenance, and the id it was stored under. Returns GB_OK; 1
 * (GB_JOB_KEEP_NEW) when it was stored meanwhile by another process; the run's error code with
 * the message in msg (gb_job_cannot_run() tells whether it means the job cannot run here);
 * GB_JOB_ESTORE with msg when it ran but could not be stored (pt holds the measurement). */
#define GB_JOB_ESTORE 2
int gb_job_measure(const gb_job_t *job, gb_context_t *ctx, gb_store_t *st, gb_job_store_t keep,
                   gb_point_t *pt, char *msg, size_t msglen);

/* Is code a reason a job cannot run here (constraints, work-group or local memory too large,
 * missing precision or extension, a problem the kernel does not take), as opposed to a failure? */
int gb_job_cannot_run(int code);
/* -k auto's choice: the kernel and its parameters ("xgemm_nv MWG=128 NWG=64"), into buf. */
const char *gb_job_chosen_text(const gb_job_t *job, char *buf, size_t len);
/* "SGEMM_NT_4x1 s 64x64x64 lws 16x4 DJ=2 rep 0" into buf; for auto, "auto -> xgemm_nv_k8
 * (tuned: H100, square-4096) s 4096x4096x4096 rep 0". */
const char *gb_job_describe(const gb_job_t *job, char *buf, size_t len);

#endif
