/* workers.c: a sweep's points measured by several workers (one per device context, on threads
 * of this process started by the fleet (src/tool/fleet), or in other processes fed by mpi.c)
 * from one queue. Each worker takes the points its kind can run, those on the data it holds
 * first (gb_xp_queue_take); one writer at a time stores what comes back, under the queue's lock, which also serialises the hooks. A
 * point is marked in flight in the store while it is measured (src/tool/store/inflight.h), so
 * that one that crashes the process is known to the next. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/store/inflight.h"
#include "explore.h"

/* The data a worker measured last (gb_explore_data_key) and the point it took last. */
typedef struct holder {
    const gb_xp_worker_t *w;
    size_t key, last;
} holder_t;

/* How far past the cursor a worker looks for data no other worker holds before it takes any
 * point: a bound on a take's cost in a sweep of very many shapes. */
#define UNHELD_WINDOW 65536

struct gb_xp_queue {
    gb_explore_t *ex;
    gb_store_t *st;
    const gb_xp_hooks_t *hooks;
    pthread_mutex_t lock;
    unsigned char *taken;
    size_t *next_same; /* per point: the next point on its data (SIZE_MAX: none) */
    size_t cursor[GB_EXPLORE_MAX_KINDS]; /* per kind: no point below it is left for it */
    holder_t *held;
    size_t nheld;
    int error;
    char errmsg[1024];
};

int gb_xp_queue_open(gb_xp_queue_t **out, gb_explore_t *ex, gb_store_t *st,
                     const gb_xp_hooks_t *hooks)
{
    const size_t total = gb_explore_total(ex);
    gb_xp_queue_t *q = calloc(1, sizeof *q);
    size_t keys = 0, *last = NULL;
    for (size_t i = 0; i < total; i++) {
        const size_t k = gb_explore_data_key(ex, i) + 1;
        keys = k > keys ? k : keys;
    }
    if (!q || !(q->taken = calloc(total + 1, 1)) ||
        !(q->next_same = malloc((total + 1) * sizeof *q->next_same)) ||
        !(last = malloc((keys + 1) * sizeof *last))) {
        if (q) {
            free(q->taken);
            free(q->next_same);
        }
        free(q);
        return GB_ENOMEM;
    }
    /* Each point linked to the next on the same data, from the last backwards. */
    for (size_t k = 0; k <= keys; k++)
        last[k] = SIZE_MAX;
    for (size_t i = total; i-- > 0;) {
        const size_t k = gb_explore_data_key(ex, i);
        q->next_same[i] = last[k];
        last[k] = i;
    }
    free(last);
    q->ex = ex;
    q->st = st;
    q->hooks = hooks;
    pthread_mutex_init(&q->lock, NULL);
    *out = q;
    return GB_OK;
}

void gb_xp_queue_close(gb_xp_queue_t *q)
{
    if (!q)
        return;
    pthread_mutex_destroy(&q->lock);
    free(q->held);
    free(q->next_same);
    free(q->taken);
    free(q);
}

static int stopping(const gb_xp_queue_t *q)
{
    return q->error != GB_OK || (q->hooks->stop && *q->hooks->stop);
}

static void keep_error(gb_xp_queue_t *q, int rc, const char *what);

/* Is point i left for a worker of kind? */
static int left_for(const gb_xp_queue_t *q, size_t i, size_t kind)
{
    return !q->taken[i] && gb_explore_status(q->ex, i) == GB_XP_TODO &&
           gb_explore_runs_on(q->ex, i, kind);
}

/* w's holder, made when it has none (NULL: out of memory). */
static holder_t *holder_of(gb_xp_queue_t *q, const gb_xp_worker_t *w)
{
    for (size_t i = 0; i < q->nheld; i++)
        if (q->held[i].w == w)
            return &q->held[i];
    holder_t *more = realloc(q->held, (q->nheld + 1) * sizeof *more);
    if (!more)
        return NULL;
    q->held = more;
    q->held[q->nheld] = (holder_t){w, SIZE_MAX, SIZE_MAX};
    return &q->held[q->nheld++];
}

static int held_by_other(const gb_xp_queue_t *q, const holder_t *me, size_t key)
{
    for (size_t i = 0; i < q->nheld; i++)
        if (&q->held[i] != me && q->held[i].key == key)
            return 1;
    return 0;
}

int gb_xp_queue_take(gb_xp_queue_t *q, const gb_xp_worker_t *w, size_t *index)
{
    pthread_mutex_lock(&q->lock);
    const size_t total = gb_explore_total(q->ex), kind = w->kind;
    size_t *c = &q->cursor[kind];
    while (*c < total && !left_for(q, *c, kind))
        (*c)++;
    holder_t *me = holder_of(q, w);
    if (!me) {
        keep_error(q, GB_ENOMEM, "out of memory");
        pthread_mutex_unlock(&q->lock);
        return 0;
    }
    size_t got = SIZE_MAX;
    if (!stopping(q)) {
        /* The data it holds (along the points on it), then data no one holds (within a
         * window), then any. */
        for (size_t i = me->last == SIZE_MAX ? SIZE_MAX : q->next_same[me->last];
             i != SIZE_MAX && got == SIZE_MAX; i = q->next_same[i])
            if (i >= *c && left_for(q, i, kind))
                got = i;
        for (size_t i = *c; got == SIZE_MAX && i < total && i - *c < UNHELD_WINDOW; i++)
            if (left_for(q, i, kind) && !held_by_other(q, me, gb_explore_data_key(q->ex, i)))
                got = i;
        if (got == SIZE_MAX && *c < total)
            got = *c; /* left for this kind: the cursor stops at the first such point */
    }
    if (got != SIZE_MAX) {
        q->taken[got] = 1;
        me->key = gb_explore_data_key(q->ex, got);
        me->last = got;
        *index = got;
    }
    pthread_mutex_unlock(&q->lock);
    return got != SIZE_MAX;
}

int gb_xp_queue_stored(gb_xp_queue_t *q, const char *id)
{
    pthread_mutex_lock(&q->lock);
    const int rc = q->st ? gb_store_exists(q->st, id) : 0;
    pthread_mutex_unlock(&q->lock);
    return rc;
}

void gb_xp_queue_measuring(gb_xp_queue_t *q, const gb_xp_worker_t *w, const char *desc)
{
    pthread_mutex_lock(&q->lock);
    if (q->hooks->measuring)
        q->hooks->measuring(w, desc, q->hooks->user);
    pthread_mutex_unlock(&q->lock);
}

/* The first error that stops the sweep is kept (with the lock held). */
static void keep_error(gb_xp_queue_t *q, int rc, const char *what)
{
    if (q->error == GB_OK) {
        q->error = rc;
        snprintf(q->errmsg, sizeof q->errmsg, "%s", what);
    }
}

int gb_xp_queue_done(gb_xp_queue_t *q, gb_xp_outcome_t *o, char *msg, size_t msglen)
{
    pthread_mutex_lock(&q->lock);
    int rc = GB_OK;
    if (o->rc == GB_OK && q->st) {
        /* The point is kept under the id its own device gives it (pt->id). */
        const int ins = gb_store_insert(q->st, o->pt);
        if (ins < 0) {
            rc = gb__fail(msg, msglen, GB_JOB_ESTORE, "%s: %s", o->desc, gb_store_errmsg(q->st));
            keep_error(q, rc, msg);
        } else {
            o->rc = ins;
        }
    }
    if (rc == GB_OK && q->hooks->measured)
        q->hooks->measured(o, q->hooks->user);
    pthread_mutex_unlock(&q->lock);
    return rc;
}

int gb_xp_queue_error(gb_xp_queue_t *q, char *msg, size_t msglen)
{
    pthread_mutex_lock(&q->lock);
    const int rc = q->error;
    snprintf(msg, msglen, "%s", q->errmsg);
    pthread_mutex_unlock(&q->lock);
    return rc;
}

/* Stops the sweep with an error of the worker's own (memory). */
static void fail(gb_xp_queue_t *q, int rc, const char *what)
{
    pthread_mutex_lock(&q->lock);
    keep_error(q, rc, what);
    pthread_mutex_unlock(&q->lock);
}

void gb_xp_work(gb_xp_queue_t *q, const gb_xp_worker_t *w)
{
    size_t i;
    while (gb_xp_queue_take(q, w, &i)) {
        gb_job_t job;
        char desc[512], msg[1024];
        if (gb_explore_job_on(q->ex, i, w->kind, &job) != GB_OK) {
            fail(q, GB_ENOMEM, "out of memory");
            return;
        }
        gb_job_describe(&job, desc, sizeof desc);
        gb_xp_queue_measuring(q, w, desc);
        char params[512];
        gb_params_text(&job.swept, params, sizeof params);
        if (q->st && gb_store_inflight_begin(q->st, job.id, job.kernel, params, desc) != GB_OK) {
            snprintf(msg, sizeof msg, "%s: %s", desc, gb_store_errmsg(q->st));
            fail(q, GB_JOB_ESTORE, msg);
            return;
        }
        gb_point_t pt;
        gb_point_init(&pt);
        msg[0] = '\0';
        gb_xp_outcome_t o = {w, i, desc, msg, 0, &pt};
        o.rc = gb_job_measure(&job, w->ctx, NULL, GB_JOB_KEEP_NONE, &pt, msg, sizeof msg);
        if (o.rc == GB_ENOMEM) {
            gb_point_free(&pt);
            fail(q, GB_ENOMEM, "out of memory");
            return;
        }
        char why[1024];
        int rc = gb_xp_queue_done(q, &o, why, sizeof why);
        if (rc == GB_OK && q->st && gb_store_inflight_end(q->st, job.id) != GB_OK) {
            snprintf(why, sizeof why, "%s: %s", desc, gb_store_errmsg(q->st));
            fail(q, GB_JOB_ESTORE, why);
            rc = GB_JOB_ESTORE;
        }
        gb_point_free(&pt);
        if (rc != GB_OK)
            return;
        if (!stopping(q))
            gb_fleet_pause(q->hooks->pause_ms);
    }
}

void gb_xp_workers_init(gb_xp_worker_t *w, const gb_device_info_t *const *devs, size_t n,
                        const gb_fleet_mpi_t *mpi, const gb_device_info_t **kinds, size_t *nkinds)
{
    *nkinds = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < *nkinds && kinds[k] != devs[i])
            k++;
        if (k == *nkinds)
            kinds[(*nkinds)++] = devs[i];
        memset(&w[i], 0, sizeof w[i]);
        w[i].kind = k;
        gb_fleet_label(w[i].label, sizeof w[i].label, mpi && mpi->started, mpi ? mpi->rank : 0, i,
                       devs[i]->name);
    }
}

int gb_xp_workers_open(gb_xp_worker_t *w, const gb_device_info_t *const *devs, size_t n, char *msg,
                       size_t msglen)
{
    char why[1024];
    for (size_t i = 0; i < n; i++) {
        const int rc = gb_context_open(&w[i].ctx, devs[i], why, sizeof why);
        if (rc != GB_OK)
            return gb__fail(msg, msglen, rc, "%s: %s", w[i].label, why);
    }
    return GB_OK;
}

void gb_xp_workers_close(gb_xp_worker_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        gb_context_close(w[i].ctx);
        w[i].ctx = NULL;
    }
}

/* The sweep's crew (gb_fleet_run): the local workers, and the remote ones' server. */
typedef struct crew {
    gb_xp_queue_t *q;
    const gb_xp_worker_t *w;
    const gb_xp_remote_t *remote;
} crew_t;

static void crew_work(size_t i, void *user)
{
    const crew_t *c = user;
    gb_xp_work(c->q, &c->w[i]);
}

static int crew_serve(void *user)
{
    const crew_t *c = user;
    return c->remote->serve(c->q, c->remote->user);
}

static void crew_short(void *user)
{
    const crew_t *c = user;
    fail(c->q, GB_ENOMEM, "could not start a thread for every device");
}

int gb_explore_measure(gb_explore_t *ex, const gb_xp_worker_t *w, size_t nw, gb_store_t *st,
                       const gb_xp_hooks_t *hooks, const gb_xp_remote_t *remote, char *msg,
                       size_t msglen)
{
    gb_xp_queue_t *q;
    if (gb_xp_queue_open(&q, ex, st, hooks) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    crew_t c = {q, w, remote};
    const gb_fleet_crew_t crew = {nw, crew_work, remote ? crew_serve : NULL, crew_short, &c};
    int all_started;
    const int rrc = gb_fleet_run(&crew, &all_started);
    const int rc = gb_xp_queue_error(q, msg, msglen);
    gb_xp_queue_close(q);
    return rc != GB_OK ? rc : rrc;
}
