/* impl.h: an implementation computes one problem on one context: prepare (build, allocate),
 * write inputs, run (timed), read C, release. Kernel families are one implementation. */
#ifndef GB_IMPL_H
#define GB_IMPL_H

#include "../device/context.h"

typedef struct gb_impl {
    gb_context_t *ctx;
    gb_problem_t prob;   /* the problem as the kernel sees it (after any operand swap) */
    int swapped;
    cl_program program;
    cl_kernel kernel;
    cl_mem a, b, c;      /* buffers of the caller's A, B, C */
    size_t bytes_a, bytes_b, bytes_c;
    size_t global[2], local[2];
    int local_null;
    double build_ms;
    char options[512];
} gb_impl_t;

/* Builds the configuration for problem p (already checked) and allocates its buffers. On error
 * the message is on ctx; *out is NULL. Release with gb__impl_release. */
int gb__impl_prepare(gb_context_t *ctx, const gb_config_t *cfg, const gb_problem_t *p,
                     gb_impl_t **out);
/* Copies whole host buffers (in the problem's precision) to the device; any may be NULL. */
int gb__impl_write(gb_impl_t *im, const void *a, const void *b, const void *c);
/* One call: enqueues every kernel, waits, and returns the summed event times and wall time. */
int gb__impl_run(gb_impl_t *im, double *kernel_ms, double *wall_ms);
int gb__impl_read_c(gb_impl_t *im, void *c);
void gb__impl_release(gb_impl_t *im);

#endif
