/* validate.h: the trusted CPU reference and the error test (docs/methodology.md). */
#ifndef GB_VALIDATE_H
#define GB_VALIDATE_H

#include "gemmbench.h"

/* Whether integer data makes every partial sum exact: the distribution is int:R, alpha and beta
 * are integers and |alpha| K R^2 + |beta| R <= 2^p for the precision's p. */
int gb__exact_possible(const gb_problem_t *p, const gb_dist_t *d);

/* Computes, in double through BLAS, cref = alpha op(A) op(B) + beta C0 and the gauge
 * G = |alpha| |op(A)| |op(B)| + |beta| |C0|, both laid out as the C buffer (elems_c elements,
 * the problem's layout, ldc and offset). c0 is not read when beta is 0. */
int gb__reference(const gb_problem_t *p, const double *a, const double *b, const double *c0,
                  size_t elems_a, size_t elems_b, size_t elems_c, double *cref, double *gauge);

/* Is buffer element idx inside the logical M x N matrix C (not offset or ld padding)? */
int gb__c_is_logical(const gb_problem_t *p, size_t idx);

/* Compares the device's C (converted to double, the whole buffer) with the reference: per
 * element |C - Cref| against (gamma_{K+2}(u) + gamma_{K+2}(u_double)) G, with the output's
 * rounding to the storage format added for h and b (gb__bound_of), and canary elements
 * outside the logical matrix that must still equal canary. A NaN or Inf from the device is a
 * failure wherever it is (the inputs are finite, so the exact result is), and so is an element
 * whose reference or gauge is not finite (data that overflow: the reason says so). Fills v. */
void gb__validate(const gb_problem_t *p, int exact, const double *cref, const double *gauge,
                  const double *c, size_t elems_c, double canary, gb_validation_t *v);

/* The faithful verdict's sample: at most GB_FAITHFUL_SIDE^2 elements of C, on a grid spread over
 * it, both ends included (its factor, GB_FAITHFUL_LAMBDA, is in gemmbench.h). */
#define GB_FAITHFUL_SIDE 64
/* Judges c, the device's result (converted to double, the whole buffer), against an honest
 * computation in p's precision of the same elements: for each sampled element, op(A) row times
 * op(B) column summed one product at a time with fused multiply-adds, then alpha and beta
 * applied, in the precision (for h and b in FP32, then rounded once to the storage format); both
 * errors against cref in units of u * gauge (for h and b, FP32's u, each error less what the
 * final rounding to the format may add: gb__faithful_add). a, b and c0 are
 * the inputs as generated (values of the precision, held in double). Fills v's faithful
 * fields; leaves them unjudged where an element or the reference is not finite. */
void gb__faithful(const gb_problem_t *p, const double *a, const double *b, const double *c0,
                  const double *cref, const double *gauge, const double *c, gb_validation_t *v);

#endif
