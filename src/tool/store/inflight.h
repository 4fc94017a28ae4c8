/* inflight.h: what a process has in flight in a store, marked before it starts and cleared when
 * it ends (table in_flight, made by the first mark): the points it is measuring (tune's
 * candidates, explore's points) and the tuning runs it is making. A process that dies on the
 * way leaves its marks, and the next process to look finds them: the runs are marked "died";
 * a point is measured again, unless the process crashed on it, when it is recorded as a
 * failure GB_ECRASH in tune_failures (tuning.h) and never run again. A mark's owner is the
 * process image: host, boot, pid, the pid's start time and a number drawn at the first mark, so
 * that a process that exec'd itself (tune after a candidate past its limit, or after a crash)
 * is told from the image before it. docs/tuning.md, "A candidate that crashes". */
#ifndef GB_STORE_INFLIGHT_H
#define GB_STORE_INFLIGHT_H

#include "tuning.h"

/* Marks point id as measured now by this process: kernel and params (for the failure it may
 * become), what it is in words (gb_job_describe). A mark of the same id by a process that is
 * gone is replaced. GB_EBADARG for an id that is not a point id, else GB_OK or GB_ESTORE. */
int gb_store_inflight_begin(gb_store_t *st, const char *id, const char *kernel, const char *params,
                            const char *what);
/* Clears this process's mark on id (nothing when there is none). GB_OK or GB_ESTORE. */
int gb_store_inflight_end(gb_store_t *st, const char *id);

/* Clears the marks of the processes that are gone: their runs are marked "died" (those still
 * "running"); their points are dropped, to be measured again, except where crash_signal is not
 * 0 and the mark is an earlier image's of this very process, which exec'd itself after crashing
 * with that signal while measuring it: then the point is recorded as a failure GB_ECRASH
 * (unless a failure is recorded for it already) and told to fn (may be NULL), and *crashed
 * (may be NULL) counts them. Marks of processes still alive, or of another host (which cannot
 * be asked), stay. GB_OK or GB_ESTORE. */
int gb_store_inflight_reap(gb_store_t *st, int crash_signal,
                           void (*fn)(const gb_tune_failure_t *f, void *user), void *user,
                           size_t *crashed);

/* Did point id crash a process (a failure GB_ECRASH recorded for it)? 1, 0, or a negative
 * error (message on st). */
int gb_store_crashed(gb_store_t *st, const char *id);
/* How many points crashed a process (0 in a store without the tuning tables). */
int gb_store_crashes(gb_store_t *st, size_t *n);

/* ---- for tune_runs.c, under the connection's lock ------------------------------------------- */

/* Makes the table where it is missing. */
int gb_store__inflight_table(gb_store_t *st);
/* The latest run of run's definition (everything but its id, times, status, evaluations and
 * winner) that no live process is making: its id, started, evals and status into *found. 1
 * found, 0 none, or an error. */
int gb_store__tune_run_same(gb_store_t *st, const gb_tune_run_t *run, gb_tune_run_t *found);

/* Marks tuning run id as made now by this process; clears the mark. */
int gb_store__inflight_run_begin(gb_store_t *st, int64_t id);
int gb_store__inflight_run_end(gb_store_t *st, int64_t id);
/* gb_store_inflight_reap with no crash: the dead processes' runs "died", their points dropped. */
int gb_store__inflight_reap_locked(gb_store_t *st);

#endif
