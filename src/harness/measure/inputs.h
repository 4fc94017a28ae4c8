/* inputs.h: a problem's inputs and reference, kept on the context between gb_bench_run calls. */
#ifndef GB_INPUTS_H
#define GB_INPUTS_H

#include "rt/device/context.h"

/* Outside the logical C: a value no GEMM of our data produces, exact in float. */
#define GB_CANARY (-7777.25)

/* The inputs of checked problem p with distribution d and seed, in host memory of kind
 * host_mem: the context's kept ones when every field of p, d, seed and host_mem matches, else
 * generated anew in their place. GB_OK with *out pointing into ctx (valid until the next
 * call), or GB_ENOMEM / GB_EOPENCL (memory that cannot be pinned) with the message on ctx. */
int gb__inputs_get(gb_context_t *ctx, const gb_problem_t *p, const gb_dist_t *d, uint64_t seed,
                   gb_host_mem_t host_mem, gb_inputs_t **out);
/* The validating call's C in in->poisoned, made at its first need: C with NaN in each logical
 * element where beta is 0. GB_OK, or an error with the message on ctx. */
int gb__inputs_poisoned(gb_context_t *ctx, gb_inputs_t *in);
/* The reference and gauge of the kept inputs in (in->cref, in->gauge), computed at their first
 * need. GB_OK or GB_ENOMEM. */
int gb__inputs_reference(gb_context_t *ctx, gb_inputs_t *in);

#endif
