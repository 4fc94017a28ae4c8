/* builders.h: build processes: copies of gemmbench (its hidden `__build-worker` command), each
 * with an OpenCL context of its own on the tuner's device, that build candidates ahead
 * (gb_impl_prebuild) and so leave their binaries in the program cache on disk, where the
 * measuring process then loads them. Threads would do the same within one process, but NVIDIA's
 * OpenCL builds one program at a time per process. One request line in, one answer line out,
 * over a socket that is the worker's standard input and output. The pool (pool.c) runs them;
 * this file is the protocol and the processes themselves. */
#ifndef GB_TUNE_BUILDERS_H
#define GB_TUNE_BUILDERS_H

#include <stdio.h>
#include <sys/types.h>

#include "tool/job/job.h"

/* One build process, seen from the tuner. */
typedef struct gb_builder {
    pid_t pid; /* 0: none */
    int fd;    /* the tuner's end of the socket (-1: none) */
    FILE *in;  /* answers, read from fd */
    unsigned long seq;
} gb_builder_t;

/* Starts /proc/self/exe with argv (argv[0] is only its name), in the environment this process
 * started with (builders.c says why), as a build process, in a process group of its own (a
 * Ctrl-C at the terminal reaches the tuner, which stops its workers) and killed if the thread
 * that started it ends. Returns at once: gb_builder_ready waits for it.
 * GB_OK, or GB_EIO with msg saying why (no socket, no fork). */
int gb_builder_spawn(gb_builder_t *w, char *const *argv, char *msg, size_t msglen);
/* Waits for the worker's first line, which says its device and context are open. GB_OK, or
 * GB_EIO when it ended first or said something else (msg). */
int gb_builder_ready(gb_builder_t *w, char *msg, size_t msglen);
/* Asks the worker to build job's programs and waits for its answer: GB_OK with *rc and msg as
 * gb_impl_prebuild gave them in the worker (GB_OK: the programs are in the disk cache); GB_EIO
 * when the worker ended or answered out of protocol (msg says so); GB_EBADARG when the job
 * cannot be written as a request (a kernel name with blanks) or the worker could not take it
 * (msg): build it another way. */
int gb_builder_build(gb_builder_t *w, const gb_job_t *job, int *rc, char *msg, size_t msglen);
/* Closes the tuner's end of the socket (the worker sees the end of its input). */
void gb_builder_close(gb_builder_t *w);
/* Waits for process pid to end (kill it first to be sure it does) and describes how it ended
 * in why: "exited with status 3", "killed by signal 9". */
void gb_builder_reap(pid_t pid, char *why, size_t whylen);

/* The worker's side: opens its context on dev, says it is ready on out, then answers each
 * request read from in until in ends. GB_OK at the end of in; else the error that stopped it
 * (a context that cannot be opened, or out closed), with msg. */
int gb_builder_serve(const gb_registry_t *reg, const gb_device_info_t *dev, FILE *in, FILE *out,
                     char *msg, size_t msglen);

#endif
