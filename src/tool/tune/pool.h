/* pool.h: the tuner's helpers: builders that compile candidates ahead while the device measures
 * an earlier one, either threads of this process (gb_impl_prebuild) or build processes
 * (builders.h), which leave the programs in the disk cache; and a watchdog on the candidate
 * being measured. */
#ifndef GB_TUNE_POOL_H
#define GB_TUNE_POOL_H

#include <pthread.h>

#include "tool/job/job.h"

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

/* threads builder threads on ctx, and procs build processes, each run by a thread of its own,
 * started as argv says (argv NULL: none; see gb_builder_spawn). No builder at all: no pool, *out
 * NULL. Processes start in the background: one that cannot start leaves its thread building in
 * this process, with a note (gb_pool_note). GB_ENOMEM, or GB_EBADARG when a thread cannot be
 * started (msg says why). */
int gb_pool_open(gb_pool_t **out, gb_context_t *ctx, unsigned threads, unsigned procs,
                 char *const *argv, char *msg, size_t msglen);
/* Queues b (its job must stay valid until b is done or cancelled). */
void gb_pool_submit(gb_pool_t *pool, gb_build_t *b);
/* Waits until b is built (or was never queued); its rc and msg are then final. */
void gb_pool_wait(gb_pool_t *pool, gb_build_t *b);
/* What the user should hear of, once: a build process that could not start or died (restarted,
 * or replaced by building in this process). 1 with the note in buf, and it is taken; 0 when
 * there is none. Accepts NULL. */
int gb_pool_note(gb_pool_t *pool, char *buf, size_t len);
/* Cancels the builds not started, kills the build processes (their builds in progress are
 * cancelled), finishes the builds in progress on threads, joins the threads, reaps the
 * processes. Accepts NULL. */
void gb_pool_close(gb_pool_t *pool);
/* Takes b out of the queue when it has not started, else waits for it to end (nothing when it
 * is done or was never queued). The other builds go on: a pool may serve several tuners (the
 * devices of one kind under `tune -d`), each cancelling its own at the end of a run. Accepts
 * NULL. */
void gb_pool_cancel(gb_pool_t *pool, gb_build_t *b);
/* For a process about to exec itself from another thread (the watchdog): cancels every build,
 * kills the build processes and waits until they are reaped, leaving the pool to the exec.
 * Accepts NULL. */
void gb_pool_kill(gb_pool_t *pool);

/* The watchdog: armed with a deadline for one measurement; fires fn(user) once, from its own
 * thread, when the measurement is still running at the deadline. */
typedef struct gb_watchdog gb_watchdog_t;
int gb_watchdog_open(gb_watchdog_t **out, void (*fn)(void *user), void *user);
void gb_watchdog_arm(gb_watchdog_t *w, double seconds);
void gb_watchdog_disarm(gb_watchdog_t *w);
void gb_watchdog_close(gb_watchdog_t *w); /* accepts NULL */

#endif
