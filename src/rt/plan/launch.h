/* launch.h: a planned GEMM's device work, sequenced by one piece for the library's calls
 * (src/rt/blas/gemm.c) and the harness's kernel implementation (src/harness/impl/kernel.c): the
 * copies in (each followed, where the device cannot make an image over a buffer, by the copy of
 * its temporary into the image the kernel reads), the prologue, the main kernel, the remainder,
 * the copies out, on one in-order queue, the first command after the caller's wait list; and,
 * before that, the route's programs and the check of the compiled main kernel's work-group. The
 * route (route.h) says what runs; the caller makes the kernel objects and the memory. */
#ifndef GB_LAUNCH_H
#define GB_LAUNCH_H

#include "bind.h"

/* What one planned GEMM launches. The kernel objects and memory are the caller's (not
 * released here); route must outlive the launch. */
typedef struct gb_launch {
    const gb_route_t *route;
    gb_binding_t mem;                    /* the memory objects the route names */
    cl_kernel main;                      /* the family's entry */
    cl_kernel side[GB_NSIDES];           /* where the route runs a prologue or remainder */
    cl_kernel copy[GB_ROUTE_MAX_COPIES]; /* route copy i's kernel (gb__launch_copy_entry) */
} gb_launch_t;

/* The most commands a launch enqueues: the copies, two buffer-to-image copies, the main kernel
 * and the side kernels. */
#define GB_LAUNCH_MAX_CMDS (GB_ROUTE_MAX_COPIES + 2 + 1 + GB_NSIDES)

/* Each command's event, for a caller that times them (the harness): in the order they ran, n of
 * them (the caller releases them), with helper[i] 1 for a copy pass, 0 for the prologue, main
 * and remainder kernels. */
typedef struct gb_launch_events {
    cl_event ev[GB_LAUNCH_MAX_CMDS];
    int helper[GB_LAUNCH_MAX_CMDS];
    size_t n;
} gb_launch_events_t;

/* Gets route r's programs for cfg on ctx, built, taken from the programs ctx keeps, or loaded
 * from the disk cache (keep: ctx keeps them too): the family's, with r's build options, and the
 * helpers' where r has copies (else *helpers stays NULL). *ms is the time it took, *hit whether
 * nothing was built. Errors into msg, as gb__program_get's; the caller releases what it got, on
 * failure too. */
int gb__launch_programs(gb_context_t *ctx, const gb_config_t *cfg, const gb_route_t *r, int keep,
                        cl_program *program, cl_program *helpers, double *ms, int *hit, char *msg,
                        size_t msglen);

/* Whether kernel, cfg's main kernel as compiled for device, can run route r there: its
 * work-groups allowed (register use may allow fewer work-items than the device), and the local
 * memory it uses as compiled (CL_KERNEL_LOCAL_MEM_SIZE) within what the device allows a kernel
 * (local_mem_kernel; the metadata only declares it). GB_OK, else GB_EWGSIZE or GB_ELOCALMEM with
 * msg ending in fix, what else the caller can do about it. */
int gb__launch_fits(cl_kernel kernel, const gb_device_info_t *dev, const gb_config_t *cfg,
                    const gb_route_t *r, const char *fix, char *msg, size_t msglen);

/* The helpers program's entry that runs copy c: gb_transpose where it transposes on a GPU, gb_copy4
 * (four elements per work-item) where it is wide (real elements, the destination's rows
 * 4-aligned), else gb_copy. */
const char *gb__launch_copy_entry(const gb_route_copy_t *c);

/* A buffer of bytes for a route's counters (argument CNT), zeroed by a fill enqueued on queue
 * (in order: before the kernels enqueued after it); the kernels that take them leave them zero.
 * NULL with *err set on failure. */
cl_mem gb__launch_counters(cl_context cl, cl_command_queue queue, size_t bytes, cl_int *err);

/* How many of the launch's commands are copy passes (route copies and image copies). */
size_t gb__launch_helpers(const gb_launch_t *l);

/* Sets the arguments of l's kernels: the main and side kernels' by f's 'args' list with the sizes
 * and scalars of kp (l->route->kernel, or a copy with the call's alpha and beta), each through
 * caches[0] (main) and caches[1 + side] where caches is not NULL (gb__bind_args); the copies'
 * between their buffers. GB_OK, GB_EMETADATA with msg naming the argument a kernel refused, or
 * GB_EOPENCL where a copy's arguments cannot be set. */
int gb__launch_bind(const gb_launch_t *l, const gb_family_t *f, const gb_problem_t *kp,
                    gb_argcache_t *const *caches, char *msg, size_t msglen);

/* Enqueues l's commands on q (in order) for dev: the first after the nwait events of wait, the
 * others after it. With events (may be NULL), every command's event goes there; done (may be
 * NULL) gets the last command's event (the caller releases it; with events, a second reference
 * to the last of them). GB_OK, or GB_EOPENCL with msg naming the command that failed, the
 * OpenCL status and the command's geometry (events then holds those enqueued before it). */
int gb__launch_enqueue(const gb_launch_t *l, const gb_device_info_t *dev, cl_command_queue q,
                       cl_uint nwait, const cl_event *wait, gb_launch_events_t *events,
                       cl_event *done, char *msg, size_t msglen);

#endif
