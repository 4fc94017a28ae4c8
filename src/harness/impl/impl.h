/* impl.h: the one implementation interface (gb_impl_t in gemmbench.h): an operations table that
 * the kernel-family implementation (kernel.c) and each library peer (library.c: gemmbench's own
 * library; clblast.c, cublas.c, openblas.c) provide, so that measuring (src/harness/measure) calls every
 * one the same way. */
#ifndef GB_IMPL_H
#define GB_IMPL_H

#include "rt/device/context.h"
#include "rt/plan/launch.h"

struct gb_impl_ops {
    const char *name; /* a peer's name; NULL for kernel families (named by config) */
    const char *description;
    unsigned precisions; /* a peer's (kernel families: their config's) */
    /* What it can do (gb_impl_cap_t); GB_CAN_TRAFFIC only where the family declares it. */
    unsigned caps;
    /* Whether im can run the problem on dev (either may be NULL), as gb_impl_check(). */
    int (*check)(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                 const gb_problem_t *p, char *msg, size_t msglen);
    /* The identity of what would be compiled, as gb_impl_program_id(). */
    int (*program_id)(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                      char *buf, size_t len, char *msg, size_t msglen);
    /* Makes the state that computes problem p (checked) on ctx: builds, allocates. Fills r's
     * description of the run (route, sizes, build options and time). Errors on ctx. */
    int (*prepare)(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p, void **state,
                   gb_result_t *r);
    /* Builds what prepare would build for problem p (checked) and has the context keep it, as
     * gb_impl_prebuild(): on any thread, errors into msg, never on ctx. NULL: nothing to build
     * (library peers). */
    int (*prebuild)(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p, char *msg,
                    size_t msglen);
    /* One call: writes the whole host buffers a, b, c (any may be NULL: the device keeps what the
     * last call wrote) in the problem's precision, computes, reads C into c_out (NULL: not read),
     * and fills t[] per gb_phase_t. Errors on the context. */
    int (*call)(void *state, const void *a, const void *b, const void *c, void *c_out,
                double t[GB_PHASE_COUNT]);
    void (*release)(void *state); /* accepts NULL */
    int host; /* computes on the host's CPU, not on the OpenCL device (OpenBLAS) */
    /* The device work of a call alone, for zero-copy and pipelined offloads (src/harness/measure/
     * runner.c, pipeline.c); NULL where the implementation cannot split its call so (the
     * library peers: gb_bench_check refuses --host-mem mapped and --pipeline for them).
     * prepare_on: as prepare, but the kernel's A, B and C are the caller's buffers bufs (A, B,
     * C in the problem's layout, at least as large as the problem needs; retained while the
     * state lives), not buffers of its own. enqueue: a call's device work, the helper passes
     * and kernels that call runs (no copies), on queue q, the first command after the nwait
     * events of wait; the last command's event into *done (NULL: not wanted; else the caller
     * releases it). times: once q has finished them, the main and helper phases of the last
     * enqueue added into t[GB_PHASE_MAIN] and t[GB_PHASE_HELPERS], and t[GB_PHASE_OPS] set
     * to their span (first start to last end, gaps included), their events released.
     * Errors on the context. */
    int (*prepare_on)(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
                      const cl_mem bufs[3], void **state, gb_result_t *r);
    int (*enqueue)(void *state, cl_command_queue q, cl_uint nwait, const cl_event *wait,
                   cl_event *done);
    int (*times)(void *state, double t[GB_PHASE_COUNT]);
    /* Plans what im runs for problem p on dev and keeps it on im->plan, as gb_impl_plan(); NULL:
     * nothing to plan (the library peers). */
    int (*plan)(gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p, char *msg,
                size_t msglen);
};

extern const gb_impl_ops_t gb__kernel_ops;
extern const gb_impl_ops_t gb__library_ops;
extern const gb_impl_ops_t gb__openblas_ops;
#ifdef GB_HAVE_CLBLAST
extern const gb_impl_ops_t gb__clblast_ops;
#endif
#ifdef GB_HAVE_CUBLAS
extern const gb_impl_ops_t gb__cublas_ops, gb__cublas_tf32_ops;
/* libcublas and libcudart opened and their functions taken, once (every later call says how the
 * first went): GB_OK, or GB_EUNSUPPORTED with why. */
int gb__cublas_load(char *msg, size_t msglen);
#endif

/* A kernel family configuration prepared for one problem: its route (route.h), programs, and
 * the launch (launch.h) over its kernels and memory, which it owns: the kernels and memory
 * objects the launch names are released with the run. */
typedef struct gb_kernel_run {
    gb_context_t *ctx;
    gb_route_t route;
    cl_program program, helpers;
    gb_launch_t launch; /* mem.buf by gb_buf_t: the caller's A, B, C, then the temporaries; mem.img
                           image2d_t views or images of the kernel's A, B, or NULL; mem.ws the
                           family's workspace (argument WS), or NULL */
    size_t bytes[3];    /* of the caller's A, B, C */
    gb_launch_events_t work; /* the last call's device commands, until their times are read */
} gb_kernel_run_t;

/* A kernel configuration's route, planned once (kept.c). gb__kernel_plan plans im's route for
 * problem p on dev and keeps it on im (its ops' plan). gb__kernel_route gives the route of
 * problem p on dev into *r: the kept one where im's configuration, p and dev's facts (with
 * limits, dev's limits too) are those it was planned for, else planned anew; GB_OK or
 * gb__route_plan's failure with msg. */
int gb__kernel_plan(gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p, char *msg,
                    size_t msglen);
int gb__kernel_route(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                     int limits, gb_route_t *r, char *msg, size_t msglen);

/* Makes *img, a width x height image2d_t over the packed temporary buf (images.c): a view where
 * the device can, else an image of its own that the launch fills from buf on every call; a
 * device without the image format fails with GB_EUNSUPPORTED. Errors on the context. */
int gb__kernel_image(gb_kernel_run_t *kr, cl_mem *img, cl_mem buf, size_t width, size_t height);

/* What the library peers on our own queue share (peer_cl.c): their A, B, C buffers (sized for
 * the problem), the writes of a timed call's inputs (then clFinish), its end (C read into c_out
 * where given, the copies' event times and the wall time since t0 into t, the events released;
 * rc passed through), and the checks and program identity ("none") of a library. */
typedef struct gb_peer_bufs {
    cl_mem buf[3];
    size_t bytes[3];
} gb_peer_bufs_t;
int gb__peer_buffers(gb_peer_bufs_t *pb, gb_context_t *ctx, const gb_problem_t *p);
void gb__peer_buffers_free(gb_peer_bufs_t *pb);
/* finish: wait for the writes (a host-timed call follows); else the call queues behind them. */
int gb__peer_write(gb_context_t *ctx, const gb_peer_bufs_t *pb, const void *const in[3],
                   cl_event ev[4], int finish);
int gb__peer_finish(gb_context_t *ctx, const gb_peer_bufs_t *pb, int rc, void *c_out,
                    cl_event ev[4], double t0, double t[GB_PHASE_COUNT]);
int gb__peer_check(const gb_impl_t *im, const gb_device_info_t *dev, gb_precision_t prec,
                   const gb_problem_t *p, char *msg, size_t msglen);
int gb__peer_program_id(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                        char *buf, size_t len, char *msg, size_t msglen);

/* Event time of a finished command in milliseconds; where the times cannot be read, 0, and the
 * error goes to *err (may be NULL) unless it already holds one. */
double gb__event_ms(cl_event ev, cl_int *err);

#endif
