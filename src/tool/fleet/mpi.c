/* mpi.c: work spread over MPI ranks (fleet.h): starting and ending MPI, each rank's device,
 * and the messages between ranks (a tag and NUL-ended fields), on which explore's exchange
 * (src/tool/explore/mpi.c) and tune's (src/tool/tune/tuners.c) are built. Only this file knows
 * MPI; without it, --mpi is refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "rt/util/util.h"
#include "fleet.h"

size_t gb_fleet_mpi_pick(const gb_fleet_mpi_t *m, size_t n)
{
    return n ? (size_t)m->local_rank % n : 0;
}

int gb_fleet_device_map(const char *map, int rank, char *out, size_t len)
{
    size_t n = 1;
    for (const char *c = map; *c; c++)
        n += *c == ',';
    const char *at = map;
    for (size_t i = (size_t)rank % n; i > 0; i--)
        at = strchr(at, ',') + 1;
    const size_t l = strcspn(at, ",");
    if (!l || l >= len)
        return GB_EBADARG;
    memcpy(out, at, l);
    out[l] = '\0';
    return GB_OK;
}

#ifdef GB_HAVE_MPI

#include <mpi.h>
#include <time.h>

int gb_fleet_mpi_init(int *argc, char ***argv, gb_fleet_mpi_t *m, char *msg, size_t msglen)
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

void gb_fleet_mpi_finalize(gb_fleet_mpi_t *m)
{
    if (m->started)
        MPI_Finalize();
    m->started = 0;
}

int gb_fleet_mpi_abort(gb_fleet_mpi_t *m, int code)
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
const char *gb_fleet_mpi_field(const char *buf, size_t len, size_t *at)
{
    if (*at >= len)
        return "";
    const char *f = buf + *at;
    const char *end = memchr(f, '\0', len - *at);
    *at = end ? (size_t)(end - buf) + 1 : len;
    return end ? f : "";
}

int gb_fleet_mpi_send(const char *const *f, size_t n, int to, int tag)
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

char *gb_fleet_mpi_poll(int *from, int *tag, size_t *len)
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

char *gb_fleet_mpi_recv(int from, int *tag, size_t *len)
{
    MPI_Status st;
    MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    *tag = st.MPI_TAG;
    char *buf = recv_probed(&st, len);
    return buf ? buf : gb__strdup("");
}

int gb_fleet_mpi_ask(size_t *index)
{
    uint64_t i64;
    MPI_Status st;
    MPI_Send(NULL, 0, MPI_CHAR, 0, GB_FLEET_TAG_ASK, MPI_COMM_WORLD);
    MPI_Recv(&i64, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    *index = (size_t)i64;
    return st.MPI_TAG == GB_FLEET_TAG_WORK;
}

void gb_fleet_mpi_answer(int to, int work, size_t index)
{
    uint64_t i64 = index;
    MPI_Send(&i64, 1, MPI_UINT64_T, to, work ? GB_FLEET_TAG_WORK : GB_FLEET_TAG_STOP,
             MPI_COMM_WORLD);
}

static void idle(void)
{
    struct timespec ts = {0, 200000L};
    nanosleep(&ts, NULL);
}

char *gb_fleet_mpi_next(gb_fleet_wait_t *w, int *from, int *tag, size_t *len)
{
    for (;;) {
        char *buf = gb_fleet_mpi_poll(from, tag, len);
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
        idle();
    }
}

#else /* no MPI at build time */

int gb_fleet_mpi_init(int *argc, char ***argv, gb_fleet_mpi_t *m, char *msg, size_t msglen)
{
    (void)argc;
    (void)argv;
    memset(m, 0, sizeof *m);
    return gb__fail(msg, msglen, GB_EBADARG,
                    "--mpi: this gemmbench was built without MPI; install libopenmpi-dev and "
                    "build again, or use --shard I/N (docs/scale-out.md)");
}

void gb_fleet_mpi_finalize(gb_fleet_mpi_t *m)
{
    (void)m;
}

int gb_fleet_mpi_abort(gb_fleet_mpi_t *m, int code)
{
    (void)m;
    return code;
}

int gb_fleet_mpi_send(const char *const *fields, size_t n, int to, int tag)
{
    (void)fields;
    (void)n;
    (void)to;
    (void)tag;
    return GB_EBADARG;
}

char *gb_fleet_mpi_poll(int *from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    return NULL;
}

const char *gb_fleet_mpi_field(const char *buf, size_t len, size_t *at)
{
    (void)buf;
    (void)len;
    (void)at;
    return "";
}

char *gb_fleet_mpi_recv(int from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    return NULL;
}

int gb_fleet_mpi_ask(size_t *index)
{
    (void)index;
    return 0;
}

void gb_fleet_mpi_answer(int to, int work, size_t index)
{
    (void)to;
    (void)work;
    (void)index;
}

char *gb_fleet_mpi_next(gb_fleet_wait_t *w, int *from, int *tag, size_t *len)
{
    (void)from;
    (void)tag;
    (void)len;
    w->gave_up = 1;
    return NULL;
}

#endif
