/* programs.c: the programs a context keeps built. gb_impl_prebuild builds, on threads of its
 * caller's, the programs of configurations a tuner will measure next; the measuring thread then
 * takes them from here instead of building them (gb__program_get). A program is in the table
 * from the moment one thread claims it: others that want it wait for that build rather than
 * build it again. The table is bounded: past its max the oldest built program is released,
 * which leaves valid any run prepared with it (it holds its own reference). */
#include <stdlib.h>
#include <string.h>

#include "context.h"

int gb__programs_init(gb_programs_t *t)
{
    memset(t, 0, sizeof *t);
    t->max = GB_PROGRAMS_MAX;
    if (pthread_mutex_init(&t->lock, NULL) != 0)
        return GB_ENOMEM;
    if (pthread_cond_init(&t->settled, NULL) != 0) {
        pthread_mutex_destroy(&t->lock);
        return GB_ENOMEM;
    }
    return GB_OK;
}

void gb__programs_free(gb_programs_t *t)
{
    for (size_t i = 0; i < t->n; i++) {
        if (t->e[i].program)
            clReleaseProgram(t->e[i].program);
        free(t->e[i].key);
    }
    free(t->e);
    pthread_cond_destroy(&t->settled);
    pthread_mutex_destroy(&t->lock);
}

static gb_kept_program_t *find(gb_programs_t *t, const char *key)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->e[i].key, key))
            return &t->e[i];
    return NULL;
}

static void drop(gb_programs_t *t, gb_kept_program_t *e)
{
    if (e->program)
        clReleaseProgram(e->program);
    free(e->key);
    *e = t->e[--t->n];
}

int gb__programs_take(gb_programs_t *t, const char *key, int claim, cl_program *out, int *claimed)
{
    int rc = GB_OK;
    *out = NULL;
    *claimed = 0;
    pthread_mutex_lock(&t->lock);
    gb_kept_program_t *e;
    /* Entries move (growth, removal) while the lock is free: found again after each wait. A
     * build that failed leaves no entry, and this thread then tries it itself (for its own
     * build log). */
    while ((e = find(t, key)) && !e->program)
        pthread_cond_wait(&t->settled, &t->lock);
    if (e) {
        clRetainProgram(e->program);
        *out = e->program;
    } else if (claim) {
        char *k = gb__strdup(key);
        if (!k || gb__grow(&t->e, &t->cap, t->n + 1, sizeof *t->e) != GB_OK) {
            free(k);
            rc = GB_ENOMEM;
        } else {
            t->e[t->n++] = (gb_kept_program_t){k, NULL, ++t->seq};
            *claimed = 1;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

int gb__programs_has(gb_programs_t *t, const char *key)
{
    pthread_mutex_lock(&t->lock);
    const gb_kept_program_t *e = find(t, key);
    const int has = e && e->program;
    pthread_mutex_unlock(&t->lock);
    return has;
}

void gb__programs_settle(gb_programs_t *t, const char *key, cl_program prog)
{
    pthread_mutex_lock(&t->lock);
    gb_kept_program_t *e = find(t, key);
    if (e && prog) {
        clRetainProgram(prog);
        e->program = prog;
    } else if (e) {
        drop(t, e);
    }
    /* Builds in flight do not count: they are not programs yet, and their threads settle them. */
    for (;;) {
        size_t built = 0;
        gb_kept_program_t *oldest = NULL;
        for (size_t i = 0; i < t->n; i++)
            if (t->e[i].program) {
                built++;
                if (!oldest || t->e[i].seq < oldest->seq)
                    oldest = &t->e[i];
            }
        if (built <= t->max)
            break;
        drop(t, oldest);
    }
    pthread_cond_broadcast(&t->settled);
    pthread_mutex_unlock(&t->lock);
}
