/* tuners_int.h: what the tuners' files share: the tuners of this process (tuners.c), the queue
 * of runs they and the other MPI ranks take from (queue.c), and the exchange with those ranks
 * (tuners_mpi.c). */
#ifndef GB_TUNE_TUNERS_INT_H
#define GB_TUNE_TUNERS_INT_H

#include <pthread.h>

#include "pool.h"
#include "tuners.h"

typedef struct gb_tuner {
    const gb_tuner_dev_t *d;
    gb_context_t *ctx;
    gb_store_t *st; /* the first tuner's is the command's; the others share its connection */
    size_t kind;    /* devices of one kind (name, driver, platform) share their runs */
    char label[160];
    gb_pool_t *pool; /* its builders, kept from one run to the next (NULL: none) */
    int shares_pool; /* pool is an earlier tuner's of its kind (not closed here) */
    int rc;          /* the code its last run stopped with */
} gb_tuner_t;

struct gb_tuners {
    gb_tuners_spec_t spec;
    const gb_tuners_hooks_t *hooks; /* while gb_tuners_run runs */
    gb_tuner_t *w;
    size_t n;
    /* This process's devices' kinds, then (rank 0 under MPI) the other ranks' as their HELLO
     * comes: room for one kind per device and rank. */
    gb_fleet_kinds_t kinds;
    size_t *next;         /* per kind: the next run, a place in order[] */
    size_t *order;        /* the runs (their indices) in the order they are handed out */
    pthread_mutex_t lock; /* next[] and failed */
    int failed;
    gb_store_t *serve_st; /* rank 0's handle for what the other ranks send (NULL elsewhere) */
    double t0;            /* when gb_tuners_run began (CLOCK_MONOTONIC, seconds) */
};

/* The queue (queue.c). Whether this process is one rank of several. */
int gb_tuners__ranks(const gb_tuners_t *tu);
/* Orders the runs for handing out (larger first where devices or ranks share them): GB_OK or
 * GB_ENOMEM. */
int gb_tuners__order(gb_tuners_t *tu, int shared);
/* CLOCK_MONOTONIC in seconds. */
double gb_tuners__mono_s(void);
/* The next run for kind: 1 with its index r (kernel-major: kernel r / nshapes at shape
 * r % nshapes; or the item's), 0 when none is left, the whole tuning's time is spent or all
 * stop. */
int gb_tuners__next(gb_tuners_t *tu, size_t kind, size_t *r);
/* The tuning run r on tuner w. */
void gb_tuners__spec(const gb_tuners_t *tu, const gb_tuner_t *w, size_t r, gb_tune_spec_t *spec);
/* The tuning run of item it on tuner w, with the time left of the whole tuning (0: no limit). */
void gb_tuners__spec_item(const gb_tuners_t *tu, const gb_tuner_t *w, const gb_tune_item_t *it,
                          double time_left, gb_tune_spec_t *spec);
/* The time left of the whole tuning (runs->time_s), at least a millisecond; 0 without a limit. */
double gb_tuners__time_left(const gb_tuners_t *tu);
/* One run on tuner i into st, told to the hooks: the finished hook's code. */
int gb_tuners__one(gb_tuners_t *tu, size_t i, const gb_tune_spec_t *spec, gb_store_t *st,
                   gb_tune_outcome_t *out);
/* A failure stops every tuner after its run. */
void gb_tuners__stop_all(gb_tuners_t *tu);
int gb_tuners__stopped(const gb_tuners_t *tu); /* the run hooks' stop is set */
/* Rank 0: serves the other ranks while this process's tuners tune (on threads); a rank other
 * than 0: tunes what rank 0 hands it (tuners_mpi.c). 0 or the code that stopped them. */
int gb_tuners__serve(gb_tuners_t *tu);
int gb_tuners__remote(gb_tuners_t *tu);

#endif
