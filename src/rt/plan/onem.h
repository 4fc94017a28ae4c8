/* onem.h: the 1M method's part of a route (route.c): a complex problem on a real kernel, the
 * passes that make the real kernel's operands from the caller's complex ones (docs/methodology.md,
 * "Complex on real kernels"). The call's scalars: gb__route_scalars (route.h). */
#ifndef GB_ONEM_H
#define GB_ONEM_H

#include "route.h"

/* A complex problem on a real kernel (gb__problem_1m): the caller's problem made row-major, and
 * whether that took the swap, A needs packing, and the real problem took the swap as well. */
typedef struct gb_onem {
    gb_problem_t row;
    int swapped, pack, real_swapped;
    int expand_b; /* the kernel stages Y from B as stored: no pass makes it */
} gb_onem_t;

/* Whether the kernel's operand d (0, 1) is made by a 1M pass: Y unless the kernel stages it
 * from B itself, X where A is stored transposed. 0 for om NULL (no 1M). */
int gb__onem_made(const gb_onem_t *om, int d);
/* The pass that makes the kernel's operand d (X where it is the real problem's A, else Y) in its
 * temporary of outer[d] x ld_k[d] elements, transposed where r flips it, from the caller's
 * complex operand. */
gb_route_copy_t gb__onem_pass(const gb_onem_t *om, int d, const size_t outer[3],
                              const size_t ld_k[3], const gb_route_t *r);
/* The pass that scales the caller's complex C by a complex beta before the kernel. */
gb_route_copy_t gb__onem_scale(const gb_onem_t *om);

#endif
