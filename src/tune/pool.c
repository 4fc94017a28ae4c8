/* pool.c: builder threads and the watchdog (pool.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/util.h"
#include "pool.h"

struct gb_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    gb_build_t *head, *tail;
    int quit;
    gb_context_t *ctx;
    pthread_t *threads;
    unsigned n;
};

static void *builder(void *arg)
{
    gb_pool_t *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && !p->head)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->quit)
            break;
        gb_build_t *b = p->head;
        p->head = b->next;
        if (!p->head)
            p->tail = NULL;
        b->state = GB_BUILD_BUILDING;
        pthread_mutex_unlock(&p->mu);
        const int rc =
            gb_impl_prebuild(p->ctx, &b->job->impl, &b->job->problem, b->msg, sizeof b->msg);
        pthread_mutex_lock(&p->mu);
        b->rc = rc;
        b->state = GB_BUILD_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

int gb_pool_open(gb_pool_t **out, gb_context_t *ctx, unsigned n, char *msg, size_t msglen)
{
    *out = NULL;
    if (!n)
        return GB_OK;
    gb_pool_t *p = calloc(1, sizeof *p);
    if (!p || !(p->threads = calloc(n, sizeof *p->threads))) {
        free(p);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->ctx = ctx;
    for (; p->n < n; p->n++) {
        const int err = pthread_create(&p->threads[p->n], NULL, builder, p);
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

void gb_pool_close(gb_pool_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    for (gb_build_t *b = p->head; b; b = b->next)
        b->state = GB_BUILD_CANCELLED;
    p->head = p->tail = NULL;
    p->quit = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->n; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
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
    pthread_mutex_lock(&w->mu);
    w->deadline = t;
    w->armed = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void gb_watchdog_disarm(gb_watchdog_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->armed = 0;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

void gb_watchdog_close(gb_watchdog_t *w)
{
    if (!w)
        return;
    pthread_mutex_lock(&w->mu);
    w->quit = 1;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}
