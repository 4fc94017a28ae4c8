/* plan_int.h: what plan.c shares with plan_bench.c and plan_precision.c: the measuring options'
 * keys (plan_bench.c), the precisions' keys (plan_precision.c) and the scalar value syntax
 * (plan_values.c). */
#ifndef GB_PLAN_INT_H
#define GB_PLAN_INT_H

#include "explore.h"

/* A whole decimal integer: 1 with *out, else 0. */
int gb_plan__parse_long(const char *s, long *out);
/* An integer from lo to hi, or a finite number, into *out; GB_EBADARG with msg naming label. */
int gb_plan__parse_int(const char *text, long lo, long hi, int *out, const char *label, char *msg,
                       size_t msglen);
int gb_plan__parse_finite(const char *text, double *out, const char *label, char *msg,
                          size_t msglen);
/* Sets a key of pl->bench (iterations, warmup, seed, dist, timing, min_time, max_rel_ci, cold,
 * host_mem, pipeline, validate) as gb_plan_set: GB_OK or an error with msg; 1 when key is none
 * of them. */
int gb_plan__set_bench(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                       char *msg, size_t msglen);
/* Sets precision (s, d, h, b, c, z, hh, lists, all) or accumulate (s or h) as gb_plan_set: GB_OK
 * or an error with msg; 1 when key is neither. */
int gb_plan__set_precision(gb_explore_plan_t *pl, const char *key, const char *value,
                           const char *label, char *msg, size_t msglen);

#endif
