/* synthetic.h: made-up recorded spaces for the strategy benchmark (bench/tuners.c): a real
 * family's space, narrowed to a few thousand configurations, scored by a plausible but invented
 * performance model. They stand in for recorded spaces measured on devices; their files are
 * named synthetic-*.space and say so in their 'source' line. */
#ifndef GB_BENCH_SYNTHETIC_H
#define GB_BENCH_SYNTHETIC_H

#include <stdio.h>

#include "gemmbench.h"

/* The models by name, and one line on each. */
size_t gb_synthetic_count(void);
const char *gb_synthetic_name(size_t i);
const char *gb_synthetic_description(size_t i);

/* Writes model name's recorded space (every configuration of its narrowed space, in rank
 * order) to out. GB_EBADARG for an unknown model, GB_EIO when writing fails; msg says which. */
int gb_synthetic_write(const char *name, const gb_registry_t *reg, FILE *out, char *msg,
                       size_t msglen);

#endif
