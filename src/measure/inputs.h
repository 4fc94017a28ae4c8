/* inputs.h: a problem's inputs and reference, kept on the context between gb_bench_run calls. */
#ifndef GB_INPUTS_H
#define GB_INPUTS_H

#include "../device/context.h"

/* Outside the logical C: a value no GEMM of our data produces, exact in float. */
#define GB_CANARY (-7777.25)

/* The inputs of checked problem p with distribution d and seed: the context's kept ones when
 * every field of p, d and seed matches, else generated anew in their place. GB_OK with *out
 * pointing into ctx (valid until the next call), or GB_ENOMEM with the message on ctx. */
int gb__inputs_get(gb_context_t *ctx, const gb_problem_t *p, const gb_dist_t *d, uint64_t seed,
                   gb_inputs_t **out);
/* The reference and gauge of the kept inputs in (in->cref, in->gauge), computed at their first
 * need. GB_OK or GB_ENOMEM. */
int gb__inputs_reference(gb_context_t *ctx, gb_inputs_t *in);

/* n doubles x in precision prec: x itself in double, else a new buffer (the caller frees it
 * when it is not x); NULL when out of memory. */
void *gb__to_precision(double *x, size_t n, gb_precision_t prec);

#endif
