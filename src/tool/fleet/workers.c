/* workers.c: one worker per device, each on a thread of its own (fleet.h), and what their
 * labels and pauses are. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fleet.h"

typedef struct thread_arg {
    const gb_fleet_crew_t *c;
    size_t i;
} thread_arg_t;

static void *work_thread(void *p)
{
    const thread_arg_t *a = p;
    a->c->work(a->i, a->c->user);
    return NULL;
}

int gb_fleet_run(const gb_fleet_crew_t *c, int *all_started)
{
    pthread_t *th = calloc(c->n ? c->n : 1, sizeof *th);
    thread_arg_t *args = calloc(c->n ? c->n : 1, sizeof *args);
    size_t nth = 0;
    /* This thread serves the other ranks, if asked to, else runs the first worker. */
    const size_t first = c->serve ? 0 : 1;
    for (size_t i = first; th && args && i < c->n; i++) {
        args[nth] = (thread_arg_t){c, i};
        if (pthread_create(&th[nth], NULL, work_thread, &args[nth]) != 0)
            break;
        nth++;
    }
    *all_started = first + nth >= c->n;
    if (!*all_started && c->short_handed)
        c->short_handed(c->user);
    int rc = GB_OK;
    if (c->serve)
        rc = c->serve(c->user);
    else if (c->n)
        c->work(0, c->user);
    for (size_t i = 0; i < nth; i++)
        pthread_join(th[i], NULL);
    free(th);
    free(args);
    return rc;
}

void gb_fleet_pause(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    if (ms > 0)
        nanosleep(&ts, NULL); /* a signal cuts it short, as it should */
}

void gb_fleet_label(char *buf, size_t len, int mpi_started, int rank, size_t i, const char *name)
{
    if (mpi_started)
        snprintf(buf, len, "rank %d: %s", rank, name);
    else
        snprintf(buf, len, "%zu: %s", i, name);
}
