/* pool.c: builder threads and processes, and the watchdog (pool.h).
 *
 * Every builder is a thread taking builds from one queue. A thread either builds in this
 * process (gb_impl_prebuild on the measuring context) or hands each build to a build process
 * of its own (builders.c) and waits for the answer. A process that dies is reaped, started
 * again, and the build asked again once (a process killed from outside says nothing of the
 * candidate); a build that kills two processes fails. One that ends before it is ready is
 * started once more. A thread whose process cannot be started builds in this process from
 * then on. Only the thread that started a process reaps it; the others may kill it, under the
 * lock, while it is published in its slot. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/util/util.h"
#include "builders.h"
#include "pool.h"

typedef struct slot {
    struct gb_pool *pool;
    gb_builder_t w;
    pid_t pid; /* w's process while others may kill it, under the lock (0: none) */
} slot_t;

struct gb_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    gb_build_t *head, *tail;
    unsigned busy; /* builds taken from the queue and not settled */
    int quit;
    gb_context_t *ctx;
    pthread_t *threads;
    unsigned n;    /* threads started */
    slot_t *slots; /* the first nslots threads run a build process each */
    unsigned nslots;
    char *const *argv; /* the build processes' command line */
    unsigned procs;    /* processes started (or being started) and not yet reaped */
    char note[640];    /* a note not yet taken (gb_pool_note) */
};

/* Keeps a note for gb_pool_note, unless one is waiting already. */
static void note(gb_pool_t *p, const char *fmt, ...) GB_PRINTF(2, 3);
static void note(gb_pool_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&p->mu);
    if (!p->note[0])
        vsnprintf(p->note, sizeof p->note, fmt, ap);
    pthread_mutex_unlock(&p->mu);
    va_end(ap);
}

/* The next queued build, marked as building; NULL once the pool quits. With the lock held. */
static gb_build_t *next_build(gb_pool_t *p)
{
    while (!p->quit && !p->head)
        pthread_cond_wait(&p->work, &p->mu);
    if (p->quit)
        return NULL;
    gb_build_t *b = p->head;
    p->head = b->next;
    if (!p->head)
        p->tail = NULL;
    b->state = GB_BUILD_BUILDING;
    p->busy++;
    return b;
}

/* b's end: its code, or cancelled when the pool quit meanwhile. With the lock held. */
static void settle(gb_pool_t *p, gb_build_t *b, int rc)
{
    b->rc = p->quit ? GB_OK : rc;
    b->state = p->quit ? GB_BUILD_CANCELLED : GB_BUILD_DONE;
    p->busy--;
    pthread_cond_broadcast(&p->done);
}

static int build_here(gb_pool_t *p, gb_build_t *b)
{
    return gb_impl_prebuild(p->ctx, &b->job->impl, &b->job->problem, b->msg, sizeof b->msg);
}

static void *builder(void *arg)
{
    gb_pool_t *p = arg;
    pthread_mutex_lock(&p->mu);
    for (gb_build_t *b; (b = next_build(p));) {
        pthread_mutex_unlock(&p->mu);
        const int rc = build_here(p, b);
        pthread_mutex_lock(&p->mu);
        settle(p, b, rc);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Ends s's process (killed, in case it still runs) and reaps it; why says how it ended. */
static void stop(slot_t *s, char *why, size_t whylen)
{
    gb_pool_t *p = s->pool;
    if (s->w.pid <= 0)
        return;
    pthread_mutex_lock(&p->mu);
    s->pid = 0; /* nobody else kills it from here: it is reaped only below */
    pthread_mutex_unlock(&p->mu);
    kill(s->w.pid, SIGKILL);
    gb_builder_close(&s->w);
    gb_builder_reap(s->w.pid, why, whylen);
    s->w.pid = 0;
    pthread_mutex_lock(&p->mu);
    p->procs--;
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
}

static int closing(gb_pool_t *p)
{
    pthread_mutex_lock(&p->mu);
    const int quit = p->quit;
    pthread_mutex_unlock(&p->mu);
    return quit;
}

/* Starts s's process and waits until it is ready: 1, or 0 with why (also when the pool is
 * closing). */
static int start(slot_t *s, char *why, size_t whylen)
{
    gb_pool_t *p = s->pool;
    pthread_mutex_lock(&p->mu);
    const int quit = p->quit;
    if (!quit)
        p->procs++; /* counted before it exists: gb_pool_kill waits for it too */
    pthread_mutex_unlock(&p->mu);
    if (quit) {
        gb__copy(why, whylen, "the tuning is ending");
        return 0;
    }
    if (gb_builder_spawn(&s->w, s->pool->argv, why, whylen) != GB_OK) {
        pthread_mutex_lock(&p->mu);
        p->procs--;
        pthread_cond_broadcast(&p->done);
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    pthread_mutex_lock(&p->mu);
    s->pid = p->quit ? 0 : s->w.pid;
    pthread_mutex_unlock(&p->mu);
    if (s->pid && gb_builder_ready(&s->w, why, whylen) == GB_OK)
        return 1;
    char how[96];
    stop(s, how, sizeof how);
    size_t used = strlen(why);
    gb__appendf(why, whylen, &used, ", %s", how);
    return 0;
}

/* b built by s's process (*up: it has one; cleared when none can be started): the build's
 * code, with its message in b->msg. */
static int build_there(slot_t *s, gb_build_t *b, int *up)
{
    gb_pool_t *p = s->pool;
    char lost[256], again[256], desc[512];
    for (int tries = 1;; tries++) {
        int rc;
        const int io = gb_builder_build(&s->w, b->job, &rc, b->msg, sizeof b->msg);
        if (io == GB_OK)
            return rc;
        gb_job_describe(b->job, desc, sizeof desc);
        if (io == GB_EBADARG) { /* not a request, or not one the process could take */
            note(p, "%s: this process builds %s", b->msg, desc);
            return build_here(p, b);
        }
        /* Lost: how it went, and how it ended. */
        gb__copy(lost, sizeof lost, b->msg);
        size_t used = strlen(lost);
        char how[96];
        stop(s, how, sizeof how);
        gb__appendf(lost, sizeof lost, &used, ": %s", how);
        *up = !closing(p) && start(s, again, sizeof again);
        if (closing(p))
            return GB_OK; /* killed by gb_pool_kill or gb_pool_close: cancelled */
        if (!*up)
            note(p,
                 "a build process was lost (%s) building %s, and another could not start (%s): "
                 "this process builds its candidates instead",
                 lost, desc, again);
        else if (tries == 1)
            note(p,
                 "a build process was lost (%s) building %s: started again, and the candidate "
                 "built again",
                 lost, desc);
        if (tries == 2)
            return gb__fail(b->msg, sizeof b->msg, GB_EBUILD,
                            "its build process was lost twice building it (%s)", lost);
        if (!*up)
            return build_here(p, b);
    }
}

static void *proxy(void *arg)
{
    slot_t *s = arg;
    gb_pool_t *p = s->pool;
    char why[256];
    int up = start(s, why, sizeof why);
    /* One that ends before it is ready (killed from outside, or short of memory while the
     * runtime loads) is started once more, as one lost mid-build is. */
    if (!up && !closing(p)) {
        char first[256];
        gb__copy(first, sizeof first, why);
        if ((up = start(s, why, sizeof why)))
            note(p, "a build process could not start (%s): started again", first);
    }
    if (!up && !closing(p))
        note(p,
             "a build process could not start (%s): this process builds its candidates "
             "instead",
             why);
    pthread_mutex_lock(&p->mu);
    for (gb_build_t *b; (b = next_build(p));) {
        pthread_mutex_unlock(&p->mu);
        const int rc = up ? build_there(s, b, &up) : build_here(p, b);
        pthread_mutex_lock(&p->mu);
        settle(p, b, rc);
    }
    pthread_mutex_unlock(&p->mu);
    if (up)
        stop(s, why, sizeof why);
    return NULL;
}

int gb_pool_open(gb_pool_t **out, gb_context_t *ctx, unsigned threads, unsigned procs,
                 char *const *argv, char *msg, size_t msglen)
{
    *out = NULL;
    if (!procs)
        argv = NULL;
    if (!threads && (!procs || !argv))
        return GB_OK;
    const unsigned n = threads + (argv ? procs : 0);
    gb_pool_t *p = calloc(1, sizeof *p);
    if (!p || !(p->threads = calloc(n, sizeof *p->threads)) ||
        (argv && !(p->slots = calloc(procs, sizeof *p->slots)))) {
        if (p)
            free(p->threads);
        free(p);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->ctx = ctx;
    p->argv = argv;
    p->nslots = argv ? procs : 0;
    for (; p->n < n; p->n++) {
        slot_t *s = p->n < p->nslots ? &p->slots[p->n] : NULL;
        if (s)
            *s = (slot_t){.pool = p, .w = {.fd = -1}};
        const int err = s ? pthread_create(&p->threads[p->n], NULL, proxy, s)
                          : pthread_create(&p->threads[p->n], NULL, builder, p);
        if (err) {
            gb_pool_close(p);
            return gb__fail(msg, msglen, GB_EBADARG, "cannot start a build thread: %s",
                            strerror(err));
        }
    }
    *out = p;
    return GB_OK;
}

void gb_pool_submit(gb_pool_t *p, gb_build_t *b)
{
    b->next = NULL;
    pthread_mutex_lock(&p->mu);
    b->state = GB_BUILD_QUEUED;
    if (p->tail)
        p->tail->next = b;
    else
        p->head = b;
    p->tail = b;
    pthread_cond_signal(&p->work);
    pthread_mutex_unlock(&p->mu);
}

void gb_pool_wait(gb_pool_t *p, gb_build_t *b)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    while (b->state == GB_BUILD_QUEUED || b->state == GB_BUILD_BUILDING)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

int gb_pool_note(gb_pool_t *p, char *buf, size_t len)
{
    if (!p)
        return 0;
    pthread_mutex_lock(&p->mu);
    const int have = p->note[0] != '\0';
    if (have)
        gb__copy(buf, len, p->note);
    p->note[0] = '\0';
    pthread_mutex_unlock(&p->mu);
    return have;
}

/* Cancels the queued builds and kills the build processes. With the lock held. */
static void quit(gb_pool_t *p)
{
    for (gb_build_t *b = p->head; b; b = b->next)
        b->state = GB_BUILD_CANCELLED;
    p->head = p->tail = NULL;
    p->quit = 1;
    for (unsigned i = 0; i < p->nslots; i++)
        if (p->slots[i].pid > 0)
            kill(p->slots[i].pid, SIGKILL);
    pthread_cond_broadcast(&p->work);
    pthread_cond_broadcast(&p->done);
}

void gb_pool_cancel(gb_pool_t *p, gb_build_t *b)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    if (b->state == GB_BUILD_QUEUED) {
        gb_build_t *prev = NULL;
        for (gb_build_t *q = p->head; q && q != b; q = q->next)
            prev = q;
        if (prev)
            prev->next = b->next;
        else if (p->head == b)
            p->head = b->next;
        if (p->tail == b)
            p->tail = prev;
        b->next = NULL;
        b->state = GB_BUILD_CANCELLED;
        pthread_cond_broadcast(&p->done);
    }
    while (b->state == GB_BUILD_BUILDING)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

/* quit under the lock; with wait, until no build process is left. */
static void shut(gb_pool_t *p, int wait)
{
    pthread_mutex_lock(&p->mu);
    quit(p);
    while (wait && p->procs)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void gb_pool_kill(gb_pool_t *p)
{
    if (p)
        shut(p, 1);
}

void gb_pool_close(gb_pool_t *p)
{
    if (!p)
        return;
    shut(p, 0);
    for (unsigned i = 0; i < p->n; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p->slots);
    free(p->threads);
    free(p);
}

struct gb_watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int quit, armed;
    struct timespec deadline; /* CLOCK_MONOTONIC */
    void (*fn)(void *user);
    void *user;
    pthread_t thread;
};

static void *watch(void *arg)
{
    gb_watchdog_t *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        if (!w->armed) {
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        if (pthread_cond_timedwait(&w->cv, &w->mu, &w->deadline) == ETIMEDOUT && w->armed &&
            !w->quit) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (now.tv_sec > w->deadline.tv_sec ||
                (now.tv_sec == w->deadline.tv_sec && now.tv_nsec >= w->deadline.tv_nsec)) {
                w->armed = 0;
                pthread_mutex_unlock(&w->mu);
                w->fn(w->user);
                pthread_mutex_lock(&w->mu);
            }
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

int gb_watchdog_open(gb_watchdog_t **out, void (*fn)(void *user), void *user)
{
    *out = NULL;
    gb_watchdog_t *w = calloc(1, sizeof *w);
    if (!w)
        return GB_ENOMEM;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, &attr);
    pthread_condattr_destroy(&attr);
    w->fn = fn;
    w->user = user;
    if (pthread_create(&w->thread, NULL, watch, w)) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return GB_ENOMEM;
    }
    *out = w;
    return GB_OK;
}

/* Sets what the watch waits for, under its lock, and wakes it: deadline (NULL: nothing), or its
 * end (quit). */
static void tell(gb_watchdog_t *w, const struct timespec *deadline, int quit)
{
    pthread_mutex_lock(&w->mu);
    if (deadline)
        w->deadline = *deadline;
    w->armed = deadline != NULL;
    w->quit = quit;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void gb_watchdog_arm(gb_watchdog_t *w, double seconds)
{
    if (!w)
        return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    const double whole = (double)(long)seconds;
    t.tv_sec += (time_t)whole;
    t.tv_nsec += (long)((seconds - whole) * 1e9);
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    tell(w, &t, 0);
}

void gb_watchdog_disarm(gb_watchdog_t *w)
{
    if (w)
        tell(w, NULL, 0);
}

void gb_watchdog_close(gb_watchdog_t *w)
{
    if (!w)
        return;
    tell(w, NULL, 1);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
