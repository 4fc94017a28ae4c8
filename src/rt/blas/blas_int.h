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
#include "rt/select/select.h"
#include "gemmbench_blas.h"

/* What makes two calls run the same plan: everything but the scalars' values and the buffers
 * (beta = 0 changes the route: C is then not read). */
typedef struct gb_blas_plan_key {
    gb_precision_t precision;
    gb_layout_t layout;
    gb_trans_t trans_a, trans_b;
    size_t m, n, k, lda, ldb, ldc, off_a, off_b, off_c;
    int beta_zero;
} gb_blas_plan_key_t;

typedef struct gb_blas_plan {
    gb_blas_plan_key_t key;
    gb_config_t cfg;
    gb_route_t route;
    cl_program program, helpers; /* helpers NULL where the route has no copies */
    char chosen[384];            /* "KERNEL NAME=V ... (why)" */
    unsigned refs;               /* the cache's reference, and each call's using it */
} gb_blas_plan_t;

#define GB_PLAN_BUCKETS 64
#define GB_PLAN_WAYS 4 /* plans per bucket; the oldest leaves for a new one */

/* A kernel object of the pool: a call takes one (busy) for its arguments and its enqueue. */
typedef struct gb_kslot {
    cl_program program;
    const char *entry; /* static text: the family's entry names live as long as the registry */
    cl_kernel kernel;
    int busy;
    gb_argcache_t args; /* what the kernel's arguments hold (the call that has it busy sets them) */
} gb_kslot_t;

/* A queue's scratch: the route's temporaries of A, B, C and the family's workspace, grown on
 * demand and reused by the queue's next calls (in order, so never two at once). */
typedef struct gb_scratch {
    cl_command_queue queue; /* retained */
    cl_mem mem[4];
    size_t bytes[4];
} gb_scratch_t;

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
    gb_scratch_t **scratch;
    size_t nscratch, capscratch;
    cl_program scale[2]; /* by precision: scale.cl, built on first need */
};

/* Records the calling thread's message (gb_blas_errmsg) and returns code (message.c). */
int gb_blas__fail(int code, const char *fmt, ...) GB_PRINTF(2, 3);

/* The configuration a problem runs (the handle's override, else the tuning database) and the
 * text that says it (choose.c). GB_OK, or the reason's code with the message recorded. */
int gb_blas__choose(gb_blas_t *h, const gb_problem_t *p, gb_config_t *cfg, char *chosen,
                    size_t len);
/* The key of problem p (alpha and beta aside: whether beta is 0), padding zeroed. */
void gb_blas__key(const gb_problem_t *p, gb_blas_plan_key_t *key);
/* The plan of key's problem, made (and the problem checked) on first use; the caller holds a
 * reference until gb_blas__plan_put. GB_OK or the failure's code (message recorded). */
int gb_blas__plan_get(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out);
/* How many commands a call of problem p enqueues, by its plan: the route's copies, the kernel
 * and its remainder (the harness times a one-command call by its own event). */
int gb_blas__commands(gb_blas_t *h, const gb_problem_t *p, size_t *n);
void gb_blas__plan_put(gb_blas_t *h, gb_blas_plan_t *plan);
/* Drops every plan (freed once no call uses it): gb_blas_set_kernel, gb_blas_close. */
void gb_blas__tables_free(gb_blas_t *h);
/* Frees the kernel pool, the scratch buffers and the scale programs (gb_blas_close). */
void gb_blas__pools_free(gb_blas_t *h);
/* A free kernel object of program's entry (made where none is free), busy for the caller until
 * gb_blas__kernel_put. */
int gb_blas__kernel_get(gb_blas_t *h, cl_program program, const char *entry, gb_kslot_t **out);
void gb_blas__kernel_put(gb_blas_t *h, gb_kslot_t *slot);
/* queue's scratch with at least bytes[i] in each buffer (checking, on a queue's first use,
 * that it is of the handle's context and device and in order). */
int gb_blas__scratch(gb_blas_t *h, cl_command_queue queue, const size_t bytes[4],
                     gb_scratch_t **out);
/* scale.cl's program for prec. */
int gb_blas__scale_program(gb_blas_t *h, gb_precision_t prec, cl_program *out);

#endif
