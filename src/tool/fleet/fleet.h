/* fleet.h: work spread over the devices of one process and over MPI ranks, for explore's sweeps
 * (src/tool/explore) and tune's runs (src/tool/tune/tuners.c): the kinds of device (a name,
 * driver and platform), one worker per device on a thread of its own, the host's cores shared
 * by its pools of build processes, and the MPI ranks (rank 0 hands out the work and keeps what
 * comes back, the others ask for it) with the messages between them. Prints nothing.
 * docs/scale-out.md. */
#ifndef GB_FLEET_H
#define GB_FLEET_H

#include <signal.h>
#include <stddef.h>

#include "gemmbench.h"

/* ---- kinds of device (kinds.c) ------------------------------------------------------------ */

/* The kinds of device work spreads over, in order of first sight: devices of one kind share
 * their work, each kind does all of it (tune: for its own database entries). */
typedef struct gb_fleet_kind {
    char *name, *driver, *platform; /* owned */
} gb_fleet_kind_t;
typedef struct gb_fleet_kinds {
    gb_fleet_kind_t *v;
    size_t n, cap;
} gb_fleet_kinds_t;
/* A table for at most cap kinds (GB_OK or GB_ENOMEM); free with gb_fleet_kinds_free. */
int gb_fleet_kinds_init(gb_fleet_kinds_t *k, size_t cap);
void gb_fleet_kinds_free(gb_fleet_kinds_t *k); /* twice is a no-op */
/* The index of the kind (name, driver, platform) into *index, added when it is new: GB_OK,
 * GB_ENOMEM, or GB_EBADARG when it is new and cap kinds are known already. */
int gb_fleet_kinds_index(gb_fleet_kinds_t *k, const char *name, const char *driver,
                         const char *platform, size_t *index);
/* The number of kinds among the n devices devs (at least 1). */
size_t gb_fleet_kinds_among(const gb_device_info_t *const *devs, size_t n);

/* The cores this process may run on (its affinity; mpirun may bind it to fewer than the host
 * has), and the host's in *online (NULL: not wanted). */
long gb_fleet_usable_cores(long *online);
/* The cores each of a host's pools may build on: the cores but one, shared by the pools (at
 * least 1). */
long gb_fleet_spare_cores(long cores, long pools);

/* ---- workers (workers.c) ------------------------------------------------------------------ */

/* n workers: work(i, user) for each i, each on a thread of its own, but worker 0 on the calling
 * thread unless serve is given (MPI rank 0: serve(user) answers the other ranks there, and
 * every worker has a thread). When a thread cannot start, short_handed(user) is told before
 * anything runs on the calling thread, so that the workers can be stopped. */
typedef struct gb_fleet_crew {
    size_t n;
    void (*work)(size_t i, void *user);
    int (*serve)(void *user);
    void (*short_handed)(void *user);
    void *user;
} gb_fleet_crew_t;
/* Returns when every worker (and serve) has returned: serve's code (GB_OK without serve), and
 * in *all_started whether every worker had its thread. */
int gb_fleet_run(const gb_fleet_crew_t *c, int *all_started);
/* Sleeps ms milliseconds (0: not at all), the pause after a point; a signal cuts it short. */
void gb_fleet_pause(long ms);
/* A worker's label, for progress: "1: NVIDIA H200", or under MPI "rank 2: NVIDIA H200". */
void gb_fleet_label(char *buf, size_t len, int mpi_started, int rank, size_t i, const char *name);

/* ---- MPI ranks (mpi.c; --mpi is refused where gemmbench was built without it) ------------- */

typedef struct gb_fleet_mpi {
    int rank, size, local_rank; /* local_rank: among the ranks of this host */
    int local_size;             /* the ranks of this host (1 without MPI) */
    int started;
} gb_fleet_mpi_t;

/* MPI_Init (main thread only calls MPI) and the rank's place; GB_EBADARG with msg without MPI. */
int gb_fleet_mpi_init(int *argc, char ***argv, gb_fleet_mpi_t *m, char *msg, size_t msglen);
void gb_fleet_mpi_finalize(gb_fleet_mpi_t *m);
/* Ends every rank's process (MPI_Abort) with code, after this rank failed; returns code where
 * MPI was not started. */
int gb_fleet_mpi_abort(gb_fleet_mpi_t *m, int code);
/* This rank's device among n listed (-d): the devices taken in turn by the ranks of one host. */
size_t gb_fleet_mpi_pick(const gb_fleet_mpi_t *m, size_t n);
/* --device-map D0,D1,..: rank's entry (the list repeats past its end) into out. GB_EBADARG when
 * that entry is empty or longer than len - 1. */
int gb_fleet_device_map(const char *map, int rank, char *out, size_t len);

/* Messages between ranks, for explore's exchanges (src/tool/explore/mpi.c) and tune's
 * (src/tool/tune/tuners.c): a tag and fields of text, each ended by a NUL. */
enum {
    GB_FLEET_TAG_HELLO = 1, /* a rank's label (tune: and its device's kind) */
    GB_FLEET_TAG_ASK,       /* a rank asks rank 0 for work */
    GB_FLEET_TAG_CHECK,     /* explore: is this id stored? tune: rank 0's points for a run */
    GB_FLEET_TAG_RESULT,    /* what a rank measured */
    GB_FLEET_TAG_WORK,      /* rank 0: an index to do */
    GB_FLEET_TAG_STOP,      /* rank 0: nothing more */
    GB_FLEET_TAG_GO,
    GB_FLEET_TAG_SKIP
};
/* Sends n fields (n may be 0: an empty message) to rank `to`; GB_OK or GB_ENOMEM. */
int gb_fleet_mpi_send(const char *const *fields, size_t n, int to, int tag);
/* A message waiting from any rank (caller frees; *len its bytes), or NULL when none waits. */
char *gb_fleet_mpi_poll(int *from, int *tag, size_t *len);
/* Waits for the next message from rank `from` (caller frees). */
char *gb_fleet_mpi_recv(int from, int *tag, size_t *len);
/* The next field of a message at *at ("" past its end). */
const char *gb_fleet_mpi_field(const char *buf, size_t len, size_t *at);
/* A rank asks rank 0 for work: 1 with *index, 0 when told to stop. Rank 0 answers with work (1,
 * index) or stop (0). */
int gb_fleet_mpi_ask(size_t *index);
void gb_fleet_mpi_answer(int to, int work, size_t index);
/* Rank 0's wait for the next message: polls until one comes (returned; caller frees); returns
 * NULL once when *stop is first seen set (since then holds when), and NULL with gave_up set when
 * grace_s have passed since without a message (a rank that does not answer is dead or hung). */
typedef struct gb_fleet_wait {
    volatile sig_atomic_t *stop;
    double grace_s;
    double since;
    int gave_up;
} gb_fleet_wait_t;
char *gb_fleet_mpi_next(gb_fleet_wait_t *w, int *from, int *tag, size_t *len);

#endif
