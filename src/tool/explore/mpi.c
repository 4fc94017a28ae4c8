/* mpi.c: a sweep spread over MPI ranks (explore --mpi). Rank 0 coordinates: it alone holds the
 * store, hands out point indices from the one queue (workers.c) as ranks ask, checks each
 * remote job's id against the store before it runs, and stores the whole points that come back.
 * Every rank expands the same plan, so an index names the same point everywhere; a rank makes
 * its job on its own device. Only this file knows MPI; without it, --mpi is refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "explore.h"

#ifdef GB_HAVE_MPI

#include <cjson/cJSON.h>
#include <mpi.h>
#include <time.h>

int gb_xp_mpi_init(int *argc, char ***argv, gb_xp_mpi_t *m, char *msg, size_t msglen)
{
    int provided = 0;
    memset(m, 0, sizeof *m);
    /* Only the main thread calls MPI; the local workers measure on threads of their own. */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS ||
        provided < MPI_THREAD_FUNNELED)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "MPI could not start with threads (run under "
                        "mpirun, or drop --mpi)");
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m->rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &m->local_rank);
    MPI_Comm_size(node, &m->local_size);
    MPI_Comm_free(&node);
    m->started = 1;
    return GB_OK;
}

void gb_xp_mpi_finalize(gb_xp_mpi_t *m)
{
    if (m->started)
        MPI_Finalize();
    m->started = 0;
}

int gb_xp_mpi_abort(gb_xp_mpi_t *m, int code)
{
    if (m->started) {
        fflush(NULL);
        MPI_Abort(MPI_COMM_WORLD, code);
    }
    return code;
}

/* Fields of a message, each ended by a NUL. */
static char *fields(size_t *len, const char *const *f, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += strlen(f[i]) + 1;
    char *buf = malloc(total ? total : 1);
    for (size_t i = 0, at = 0; buf && i < n; i++) {
        const size_t l = strlen(f[i]) + 1;
        memcpy(buf + at, f[i], l);
        at += l;
    }
    *len = total;
    return buf;
}

/* The next field of buf[0..len) at *at, or "" past its end. */
const char *gb_xp_mpi_field(const char *buf, size_t len, size_t *at)
{
    if (*at >= len)
        return "";
    const char *f = buf + *at;
    const char *end = memchr(f, '\0', len - *at);
    *at = end ? (size_t)(end - buf) + 1 : len;
    return end ? f : "";
}

int gb_xp_mpi_send(const char *const *f, size_t n, int to, int tag)
{
    size_t len;
    char *buf = fields(&len, f, n);
    if (!buf || len > INT32_MAX) {
        free(buf);
        return GB_ENOMEM;
    }
    MPI_Send(buf, (int)len, MPI_CHAR, to, tag, MPI_COMM_WORLD);
    free(buf);
    return GB_OK;
}

/* Receives a message already probed (st) into a new buffer. */
static char *recv_probed(const MPI_Status *st, size_t *len)
{
    int count = 0;
    MPI_Get_count(st, MPI_CHAR, &count);
    char *buf = malloc((size_t)count + 1);
    MPI_Recv(buf ? buf : (char[1]){0}, buf ? count : 0, MPI_CHAR, st->MPI_SOURCE, st->MPI_TAG,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (buf)
        buf[count] = '\0';
    *len = buf ? (size_t)count : 0;
    return buf;
}

char *gb_xp_mpi_poll(int *from, int *tag, size_t *len)
{
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
        return NULL;
    *from = st.MPI_SOURCE;
    *tag = st.MPI_TAG;
    char *buf = recv_probed(&st, len);
    return buf ? buf : gb__strdup(""); /* out of memory: the message is read, its text lost */
}

char *gb_xp_mpi_recv(int from, int *tag, size_t *len)
{
    MPI_Status st;
    MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    *tag = st.MPI_TAG;
    char *buf = recv_probed(&st, len);
    return buf ? buf : gb__strdup("");
}

int gb_xp_mpi_ask(size_t *index)
{
    uint64_t i64;
    MPI_Status st;
    MPI_Send(NULL, 0, MPI_CHAR, 0, GB_XP_TAG_ASK, MPI_COMM_WORLD);
    MPI_Recv(&i64, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    *index = (size_t)i64;
    return st.MPI_TAG == GB_XP_TAG_WORK;
}

void gb_xp_mpi_answer(int to, int work, size_t index)
{
    uint64_t i64 = index;
    MPI_Send(&i64, 1, MPI_UINT64_T, to, work ? GB_XP_TAG_WORK : GB_XP_TAG_STOP, MPI_COMM_WORLD);
}

void gb_xp_mpi_idle(void)
{
    struct timespec ts = {0, 200000L};
    nanosleep(&ts, NULL);
}

char *gb_xp_mpi_next(gb_xp_wait_t *w, int *from, int *tag, size_t *len)
{
    for (;;) {
        char *buf = gb_xp_mpi_poll(from, tag, len);
        if (buf)
            return buf;
        /* Polled, so that a stop request is seen while every rank is busy. */
        if (w->stop && *w->stop && !w->since) {
            w->since = gb__now_ms() / 1e3;
            return NULL;
        }
        if (w->since && gb__now_ms() / 1e3 - w->since > w->grace_s) {
            w->gave_up = 1; /* a rank that does not answer is dead or hung */
            return NULL;
        }
        gb_xp_mpi_idle();
    }
}

/* ---- rank 0 ------------------------------------------------------------------------------- */

/* Stores the result a rank sent: "index\0rc\0desc\0msg\0json". */
static int take_result(gb_xp_queue_t *q, const gb_xp_worker_t *r, const char *buf, size_t len,
                       char *msg, size_t msglen)
{
    size_t at = 0;
    const size_t index = (size_t)strtoull(gb_xp_mpi_field(buf, len, &at), NULL, 10);
    const int rc = atoi(gb_xp_mpi_field(buf, len, &at));
    const char *desc = gb_xp_mpi_field(buf, len, &at), *why = gb_xp_mpi_field(buf, len, &at);
    const char *json = gb_xp_mpi_field(buf, len, &at);
    gb_point_t pt;
    gb_point_init(&pt);
    gb_xp_outcome_t o = {r, index, desc, why, rc, NULL};
    char perr[512];
    if (rc == GB_OK || rc == 1) {
        cJSON *j = cJSON_Parse(json);
        const int prc = j ? gb_point_from_json(j, &pt, perr, sizeof perr) : GB_EBADARG;
        cJSON_Delete(j);
        if (prc != GB_OK) {
            gb_point_free(&pt);
            return gb__fail(msg, msglen, GB_EIO, "%s sent a point that does not read back (%s)",
                            r->label, j ? perr : "not JSON");
        }
        o.pt = &pt;
    }
    const int src = gb_xp_queue_done(q, &o, msg, msglen);
    gb_point_free(&pt);
    return src;
}

int gb_xp_mpi_coordinate(gb_xp_queue_t *q, void *user)
{
    gb_xp_mpi_coord_t *c = user;
    const int size = c->mpi->size;
    gb_xp_worker_t *rs = calloc((size_t)size, sizeof *rs); /* the ranks, by number */
    if (!rs)
        return gb__fail(c->msg, c->msglen, GB_ENOMEM, "out of memory");
    for (int r = 1; r < size; r++)
        snprintf(rs[r].label, sizeof rs[r].label, "rank %d", r);
    int live = size - 1, rc = GB_OK;
    gb_xp_wait_t wait = {c->stop, c->grace_s, 0, 0};
    while (live > 0 && !wait.gave_up) {
        int from, tag;
        size_t len;
        char *buf = gb_xp_mpi_next(&wait, &from, &tag, &len);
        if (!buf) {
            if (!wait.gave_up)
                /* mpirun sends SIGTERM when a rank dies: what came is already stored. */
                fprintf(stderr,
                        "gemmbench: explore --mpi: stopping on signal %d; every point received "
                        "is stored; run the same command again to resume\n",
                        (int)*c->stop);
            continue;
        }
        gb_xp_worker_t *r = &rs[from];
        if (tag == GB_XP_TAG_HELLO) {
            snprintf(r->label, sizeof r->label, "%s", buf);
        } else if (tag == GB_XP_TAG_ASK) {
            size_t index = 0;
            const int work = rc == GB_OK && gb_xp_queue_take(q, 0, &index);
            gb_xp_mpi_answer(from, work, index);
            live -= !work;
        } else if (tag == GB_XP_TAG_CHECK) {
            const int stored = gb_xp_queue_stored(q, buf);
            MPI_Send(NULL, 0, MPI_CHAR, from, stored ? GB_XP_TAG_SKIP : GB_XP_TAG_GO,
                     MPI_COMM_WORLD);
            if (stored) {
                /* Counted as stored meanwhile; the rank asks again. */
                gb_xp_outcome_t o = {r, 0, buf, "", 1, NULL};
                if (gb_xp_queue_done(q, &o, c->msg, c->msglen) != GB_OK)
                    rc = GB_JOB_ESTORE;
            }
        } else if (tag == GB_XP_TAG_RESULT) {
            const int trc = take_result(q, r, buf, len, c->msg, c->msglen);
            if (trc != GB_OK && rc == GB_OK)
                rc = trc;
        }
        free(buf);
    }
    if (live > 0)
        c->lost = (size_t)live;
    free(rs);
    return rc;
}

/* ---- ranks 1.. ----------------------------------------------------------------------------- */

int gb_xp_mpi_work(gb_explore_t *ex, const gb_xp_worker_t *w, long pause_ms, char *msg,
                   size_t msglen)
{
    const char *hello[] = {w->label};
    gb_xp_mpi_send(hello, 1, 0, GB_XP_TAG_HELLO);
    size_t index;
    while (gb_xp_mpi_ask(&index)) {
        MPI_Status st;
        gb_job_t job;
        char desc[512], why[1024] = "", idx[32], code[16];
        if (gb_explore_job_on(ex, index, w->kind, &job) != GB_OK)
            return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
        gb_job_describe(&job, desc, sizeof desc);
        snprintf(idx, sizeof idx, "%zu", index);
        if (job.code != GB_OK) {
            snprintf(code, sizeof code, "%d", job.code);
            const char *f[] = {idx, code, desc, job.why, ""};
            gb_xp_mpi_send(f, 5, 0, GB_XP_TAG_RESULT);
            continue;
        }
        MPI_Send(job.id, (int)strlen(job.id) + 1, MPI_CHAR, 0, GB_XP_TAG_CHECK, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_CHAR, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == GB_XP_TAG_SKIP)
            continue;
        gb_point_t pt;
        gb_point_init(&pt);
        int rc = gb_job_measure(&job, w->ctx, NULL, GB_JOB_KEEP_NONE, &pt, why, sizeof why);
        char *json = NULL;
        if (rc == GB_OK) {
            cJSON *j = gb_point_to_json(&pt);
            json = j ? cJSON_PrintUnformatted(j) : NULL;
            cJSON_Delete(j);
            if (!json) {
                rc = GB_ENOMEM;
                snprintf(why, sizeof why, "out of memory writing the point");
            }
        }
        snprintf(code, sizeof code, "%d", rc);
        const char *f[] = {idx, code, desc, why, json ? json : ""};
        const int src = gb_xp_mpi_send(f, 5, 0, GB_XP_TAG_RESULT);
        free(json);
        gb_point_free(&pt);
        if (src != GB_OK)
            return gb__fail(msg, msglen, src, "out of memory");
        gb_xp_pause(pause_ms);
    }
    return GB_OK;
}

#else /* no MPI at build time */

int gb_xp_mpi_init(int *argc, char ***argv, gb_xp_mpi_t *m, char *msg, size_t msglen)
{
    (void)argc;
    (void)argv;
    memset(m, 0, sizeof *m);
    return gb__fail(msg, msglen, GB_EBADARG,
                    "--mpi: this gemmbench was built without MPI; install libopenmpi-dev and "
                    "build again, or use --shard I/N (docs/scale-out.md)");
}

void gb_xp_mpi_finalize(gb_xp_mpi_t *m)
{
    (void)m;
}

int gb_xp_mpi_abort(gb_xp_mpi_t *m, int code)
{
    (void)m;
    return code;
}

int gb_xp_mpi_send(const char *const *fields, size_t n, int to, int tag)
{
    (void)fields;
    (void)n;
    (void)to;
    (void)tag;
    return GB_EBADARG;
}

char *gb_xp_mpi_poll(int *from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    return NULL;
}

const char *gb_xp_mpi_field(const char *buf, size_t len, size_t *at)
{
    (void)buf;
    (void)len;
    (void)at;
    return "";
}

char *gb_xp_mpi_recv(int from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    return NULL;
}

int gb_xp_mpi_ask(size_t *index)
{
    (void)index;
    return 0;
}

void gb_xp_mpi_answer(int to, int work, size_t index)
{
    (void)to;
    (void)work;
    (void)index;
}

void gb_xp_mpi_idle(void)
{
}

char *gb_xp_mpi_next(gb_xp_wait_t *w, int *from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    w->gave_up = 1;
    return NULL;
}

int gb_xp_mpi_coordinate(gb_xp_queue_t *q, void *user)
{
    (void)q;
    (void)user;
    return GB_EBADARG;
}

int gb_xp_mpi_work(gb_explore_t *ex, const gb_xp_worker_t *w, long pause_ms, char *msg,
                   size_t msglen)
{
    (void)ex;
    (void)w;
    (void)pause_ms;
    return gb__fail(msg, msglen, GB_EBADARG, "built without MPI");
}

#endif
