/* pool.h: the tuner's helper threads: builders that compile candidates ahead (gb_impl_prebuild)
 * while the device measures an earlier one, and a watchdog on the candidate being measured. */
#ifndef GB_TUNE_POOL_H
#define GB_TUNE_POOL_H

#include <pthread.h>

#include "../job/job.h"

/* One candidate's build: owned by the caller, handed to the pool. */
typedef struct gb_build {
    const gb_job_t *job;
    int state; /* GB_BUILD_QUEUED, _BUILDING, _DONE, _CANCELLED */
    int rc;
    char msg[2048];
    struct gb_build *next;
} gb_build_t;

enum { GB_BUILD_QUEUED = 1, GB_BUILD_BUILDING, GB_BUILD_DONE, GB_BUILD_CANCELLED };

typedef struct gb_pool gb_pool_t;

/* n builder threads on ctx (n 0: no pool, *out NULL). GB_ENOMEM, or GB_EBADARG when a thread
 * cannot be started (msg says why). */
int gb_pool_open(gb_pool_t **out, gb_context_t *ctx, unsigned n, char *msg, size_t msglen);
/* Queues b (its job must stay valid until b is done or cancelled). */
void gb_pool_submit(gb_pool_t *pool, gb_build_t *b);
/* Waits until b is built (or was never queued); its rc and msg are then final. */
void gb_pool_wait(gb_pool_t *pool, gb_build_t *b);
/* Cancels the builds not started, finishes those in progress, joins the threads. Accepts NULL. */
void gb_pool_close(gb_pool_t *pool);

/* The watchdog: armed with a deadline for one measurement; fires fn(user) once, from its own
 * thread, when the measurement is still running at the deadline. */
typedef struct gb_watchdog gb_watchdog_t;
int gb_watchdog_open(gb_watchdog_t **out, void (*fn)(void *user), void *user);
void gb_watchdog_arm(gb_watchdog_t *w, double seconds);
void gb_watchdog_disarm(gb_watchdog_t *w);
void gb_watchdog_close(gb_watchdog_t *w); /* accepts NULL */

#endif
