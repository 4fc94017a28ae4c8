/* blas_int.h: the library's handle (gemmbench_blas.h) and what it keeps between calls. A call
 * finds its plan (the configuration chosen for the problem, its route and programs: made once
 * per problem and kept), takes kernel objects from the handle's pool and its queue's scratch
 * buffers, binds the arguments and enqueues. The handle's lock covers the tables only: building
 * programs and binding and enqueueing run outside it, so threads on different queues proceed
 * together. */
#ifndef GB_BLAS_INT_H
#define GB_BLAS_INT_H

#include <pthread.h>

#include "rt/device/context.h"
#include "rt/plan/launch.h"
#include "gemmbench_tuning.h"
#include "gemmbench_blas.h"

/* What makes two calls run the same plan: everything but the scalars' values and the buffers
 * (beta = 0 changes the route: C is then not read; conjugation, for c and z, is a build option). */
typedef struct gb_blas_plan_key {
    gb_precision_t precision;
    gb_layout_t layout;
    gb_trans_t trans_a, trans_b;
    size_t m, n, k, lda, ldb, ldc, off_a, off_b, off_c;
    int beta_zero, conj_a, conj_b;
} gb_blas_plan_key_t;

/* A call's alpha or beta in double, whatever the precision: the real part, and the imaginary
 * part for c and z (0 for the real precisions). */
typedef struct gb_blas_scalar {
    double re, im;
} gb_blas_scalar_t;

typedef struct gb_blas_plan {
    gb_blas_plan_key_t key;
    gb_config_t cfg;
    gb_route_t route;
    cl_program program, helpers; /* helpers NULL where the route has no copies */
    int counted;                 /* its programs are counted in the handle's uses */
    char chosen[1400];           /* "KERNEL NAME=V ... (why)" */
    unsigned refs;               /* the cache's reference, and each call's using it */
} gb_blas_plan_t;

#define GB_PLAN_BUCKETS 64
#define GB_PLAN_WAYS 4 /* plans per bucket; the oldest leaves for a new one */

/* A kernel object of the pool: a call takes one (busy) for its arguments and its enqueue. The
 * pool keeps a program's kernels while a plan uses the program: when the last such plan goes,
 * its idle kernels go with it, and a busy one (doomed) when its call puts it back. */
typedef struct gb_kslot {
    cl_program program;
    const char *entry; /* static text: the family's entry names live as long as the registry */
    cl_kernel kernel;
    int busy, doomed;
    gb_argcache_t args; /* what the kernel's arguments hold (the call that has it busy sets them) */
} gb_kslot_t;

/* How many plans use a program (the kept plans and those a measurement built): the pool's
 * kernels of a program no plan uses are released. */
typedef struct gb_prog_use {
    cl_program program;
    unsigned plans;
} gb_prog_use_t;

/* A queue the handle has served, and its scratch: the route's temporaries of A, B, C and the
 * family's workspace, grown on demand and reused by the queue's next calls. A call holds its
 * queue's entry (busy) from its first command's planning to its last enqueue: a second call on
 * the queue meanwhile, from another thread, is refused (GB_EBADQUEUE) rather than let share the
 * scratch. The handle keeps at most GB_QUEUES_KEPT of them: a new queue's entry replaces the
 * one used least recently (its buffers and its reference on the queue released). */
#define GB_QUEUES_KEPT 32
/* A queue's scratch buffers: the temporaries of A, B and C (0-2), the workspace, the counters. */
enum { GB_SCRATCH_WS = 3, GB_SCRATCH_CNT, GB_SCRATCH_N };
typedef struct gb_scratch {
    cl_command_queue queue; /* retained */
    cl_mem mem[GB_SCRATCH_N];
    size_t bytes[GB_SCRATCH_N];
    int busy;
    unsigned long long used; /* when a call last took it (the handle's tick) */
} gb_scratch_t;

/* A configuration that failed to build or fit here, for problems of one precision and layout. */
typedef struct gb_blas_refused {
    char kernel[2 * GB_NAME_MAX];
    gb_params_t params;
    gb_precision_t precision;
    char layout[8];
} gb_blas_refused_t;

struct gb_blas {
    gb_device_info_t dev;
    cl_context cl;
    cl_device_id device;
    cl_command_queue own_queue; /* gb_blas_open_device's */
    gb_context_t *ctx;          /* the kept programs, over cl */
    gb_registry_t *reg;
    gb_tuned_t db;
    pthread_mutex_t lock;
    int has_override;
    gb_config_t override;
    gb_blas_plan_t *plans[GB_PLAN_BUCKETS][GB_PLAN_WAYS];
    gb_kslot_t **slots; /* each its own allocation: a call keeps its slot while others grow this */
    size_t nslots, capslots;
    gb_prog_use_t *uses; /* the programs of the plans, with their counts */
    size_t nuses, capuses;
    gb_scratch_t **scratch; /* the queues served, at most GB_QUEUES_KEPT idle ones */
    size_t nscratch, capscratch;
    unsigned long long tick; /* counts the queues' takings, for the least recently used */
    cl_program scale[4];     /* by precision (s, d, h, b): scale.cl, built on first need */
    cl_mem zeros;            /* zeros_bytes of zeros (gb_blas__zeros), made on first need */
    size_t zeros_bytes;
    /* The choice by measurement (select.c): the mode (gb_blas_select_t), the choices file and
     * the capture file ("" for none), what reading tuning files skipped, one measurement at a
     * time, its queue, and the threads building candidates for later. */
    int select;
    char choices[1024], capture[1024], warnings[2048];
    pthread_mutex_t select_lock;
    cl_command_queue measure_queue;
    pthread_t *builders;
    size_t nbuilders, capbuilders;
    /* Configurations that did not build or fit on this device (choose.c), each for a precision
     * and layout: every later choice passes over them (select.c). Under select_lock. */
    gb_blas_refused_t *refused;
    size_t nrefused, caprefused;
};

/* Element i of an array of prec's scalars, as the public functions take them: float for s, h
 * and b (FP32 compute), double for d, cl_float2 for c, cl_double2 for z (gemm.c). */
gb_blas_scalar_t gb_blas__scalar_at(gb_precision_t prec, const void *v, size_t i);
/* The one entry of each form of GEMM call (gemm.c), for every precision: fn names the public
 * function in messages; the scalars in double (gb_blas_scalar_t), those of a batch an array of
 * the precision's type (gb_blas__scalar_at). The arguments
 * checked (each bad one named), then enqueued as gemmbench_blas.h says. */
int gb_blas__gemm(const char *fn, gb_blas_t *h, gb_precision_t prec, gb_blas_layout_t layout,
                  gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m, size_t n, size_t k,
                  gb_blas_scalar_t alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b,
                  size_t b_off, size_t ldb, gb_blas_scalar_t beta, cl_mem c, size_t c_off,
                  size_t ldc, cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                  cl_event *event);
int gb_blas__gemm_batched(const char *fn, gb_blas_t *h, gb_precision_t prec,
                          gb_blas_layout_t layout, gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m,
                          size_t n, size_t k, const void *alphas, cl_mem a, const size_t *a_offs,
                          size_t lda, cl_mem b, const size_t *b_offs, size_t ldb, const void *betas,
                          cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                          cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                          cl_event *event);
int gb_blas__gemm_strided(const char *fn, gb_blas_t *h, gb_precision_t prec,
                          gb_blas_layout_t layout, gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m,
                          size_t n, size_t k, gb_blas_scalar_t alpha, cl_mem a, size_t a_off,
                          size_t lda, size_t a_stride, cl_mem b, size_t b_off, size_t ldb,
                          size_t b_stride, gb_blas_scalar_t beta, cl_mem c, size_t c_off,
                          size_t ldc, size_t c_stride, size_t count, cl_command_queue queue,
                          cl_uint num_wait, const cl_event *wait, cl_event *event);

/* Records the calling thread's message (gb_blas_errmsg) and returns code (message.c). */
int gb_blas__fail(int code, const char *fmt, ...) GB_PRINTF(2, 3);

/* The configuration a problem runs (the handle's override, else the tuning database's choice,
 * measured where the mode says) and what says it (choose.c), built: a database choice that does
 * not build or fit on the device is refused for the handle's life and the next candidate taken.
 * plan: the built plan, the caller's (NULL: let go). GB_OK, or the reason's code with the message
 * recorded. gb_blas__choice_text: "KERNEL NAME=V ... (why)" into buf, as much as
 * fits; returns its length (len or more: it did not fit). */
int gb_blas__choose(gb_blas_t *h, const gb_problem_t *p, gb_config_t *cfg, gb_blas_choice_t *out,
                    gb_blas_plan_t **plan);
/* Keeps c refused for problems of p's precision and layout: the handle's later choices pass
 * over it (select.c). GB_OK or GB_ENOMEM (message recorded). */
int gb_blas__refuse(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *c);
/* Whether a configuration's failure is the device's (its program does not build here, or its
 * kernel does not fit the device's limits), so that another candidate may serve (select.c). */
int gb_blas__device_refuses(int rc);
size_t gb_blas__choice_text(const gb_blas_choice_t *c, char *buf, size_t len);
/* The key of problem p (alpha and beta aside: whether beta is 0), padding zeroed. */
void gb_blas__key(const gb_problem_t *p, gb_blas_plan_key_t *key);
/* The plan of key's problem, made (and the problem checked) on first use; the caller holds a
 * reference until gb_blas__plan_put. GB_OK or the failure's code (message recorded). */
int gb_blas__plan_get(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out);
/* The handle's plan of key, with a reference taken for the caller: 1, or 0 where it has none. */
int gb_blas__plan_find(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out);
/* Keeps made (from gb_blas__plan_build) in the handle's tables, where no thread kept one of its
 * key meanwhile (then made goes): *out the kept plan, with a reference taken for the caller. */
void gb_blas__plan_keep(gb_blas_t *h, gb_blas_plan_t *made, gb_blas_plan_t **out);
/* How many commands a call of problem p enqueues, by its plan: the route's copies, the kernel
 * and its remainder (the harness times a one-command call by its own event). */
int gb_blas__commands(gb_blas_t *h, const gb_problem_t *p, size_t *n);
void gb_blas__plan_put(gb_blas_t *h, gb_blas_plan_t *plan);
/* A plan of problem p (checked) with configuration cfg, built and not kept (one reference, the
 * caller's: gb_blas__plan_put frees it): the route, the programs, the check of the work-group
 * the compiled kernel allows. GB_OK or the failure's code (message recorded). */
int gb_blas__plan_build(gb_blas_t *h, const gb_problem_t *p, const gb_config_t *cfg,
                        gb_blas_plan_t **out);
/* Drops the plan of key from the table, where it is there (freed once no call uses it). */
void gb_blas__plan_drop(gb_blas_t *h, const gb_blas_plan_key_t *key);
/* Enqueues plan pl's work on the queue of q (taken by the caller: gb_blas__queue_take) with the
 * buffers abc (A, B, C at the plan's offsets and leading dimensions) and the scalars: the
 * queue's scratch grown to the route's, the kernels from the pool, bound, the first command
 * after the wait list, the last giving *event (may be NULL). GB_OK or the failure's code
 * (message recorded). */
int gb_blas__run(gb_blas_t *h, gb_blas_plan_t *pl, gb_blas_scalar_t alpha, gb_blas_scalar_t beta,
                 const cl_mem abc[3], gb_scratch_t *q, cl_uint num_wait, const cl_event *wait,
                 cl_event *event);
/* Drops every plan (freed once no call uses it): gb_blas_set_kernel, gb_blas_close. */
void gb_blas__tables_free(gb_blas_t *h);
/* Frees the kernel pool, the queues' entries and the scale programs (gb_blas_close). */
void gb_blas__pools_free(gb_blas_t *h);
/* A free kernel object of program's entry (made where none is free), busy for the caller until
 * gb_blas__kernel_put. */
int gb_blas__kernel_get(gb_blas_t *h, cl_program program, const char *entry, gb_kslot_t **out);
void gb_blas__kernel_put(gb_blas_t *h, gb_kslot_t *slot);
/* queue's entry, busy for the caller until gb_blas__queue_put: made on the queue's first use
 * (checking that it is of the handle's context and device, and in order). GB_EBADQUEUE where
 * another call holds it (two threads' calls on one queue at once) or the queue is refused. */
int gb_blas__queue_take(gb_blas_t *h, cl_command_queue queue, gb_scratch_t **out);
void gb_blas__queue_put(gb_blas_t *h, gb_scratch_t *s);
/* Grows s's buffers to at least bytes[i] each (the caller holds s); the counters made zero. */
int gb_blas__scratch_grow(gb_blas_t *h, gb_scratch_t *s, const size_t bytes[GB_SCRATCH_N]);
/* scale.cl's program for prec: s or d (gb_scale, gb_fill), h or b (gb_fill only). */
int gb_blas__scale_program(gb_blas_t *h, gb_precision_t prec, cl_program *out);
/* A read-only buffer of at least bytes zero bytes, retained for the caller (who releases it):
 * the handle's, made or grown on need (a call that still uses a smaller one keeps it). */
int gb_blas__zeros(gb_blas_t *h, size_t bytes, cl_mem *out);

/* The choice for problem p where nothing is set on the handle (select.c): the tuning
 * database's portfolio, a choice measured before, or a measurement now, as the handle's mode
 * says; note says how it was chosen where it was measured ("" otherwise). GB_OK or the code
 * (message recorded) when nothing can run p here. */
int gb_blas__select(gb_blas_t *h, const gb_problem_t *p, gb_tuned_choice_t *out, char *note,
                    size_t len);

#endif
