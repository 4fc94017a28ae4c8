/* trial.h: the inputs a measurement runs its candidates on, and the check of each candidate's
 * result (trial.c), in every precision the library takes; select.c times and chooses. */
#ifndef GB_BLAS_TRIAL_H
#define GB_BLAS_TRIAL_H

#include "blas_int.h"

#define GB_TRIAL_SIDE 32 /* rows and columns of C checked per candidate */

/* What a sampled element of C must be, the same for every candidate: the reference (two parts
 * for c and z), the bound on a result's distance from it, the faithful verdict's gauge and the
 * honest computation (its result; for c and z its distance from the reference). */
typedef struct gb_trial_expect {
    double ref[2], bound, gauge, honest;
} gb_trial_expect_t;

/* What the measurement needs of the problem, made once by gb_blas__trial_make: the handle's own
 * buffers of A, B and C, filled on the device, and what each sampled element of C must be,
 * computed from the host's copy of the sampled rows of op(A) and columns of op(B). */
typedef struct gb_blas_trial {
    gb_blas_t *h;
    const gb_problem_t *p;
    cl_command_queue q;
    gb_scratch_t *s; /* q's entry, held for the measurement */
    cl_mem buf[3];
    size_t elems[3];
    size_t si[GB_TRIAL_SIDE], sj[GB_TRIAL_SIDE], ns_i, ns_j;
    gb_trial_expect_t *expect; /* ns_i x ns_j, row by row */
    double *got;               /* a candidate's sampled elements, in double (two parts for c, z) */
    unsigned char *raw;        /* the same as read, in the precision's storage */
} gb_blas_trial_t;

/* t's buffers, A and B filled, and the sampled rows and columns (t's h, p and q set by the
 * caller): GB_OK, or a code with the message recorded (the measurement is then left out).
 * gb_blas__trial_free releases what it made, made whole or not. */
int gb_blas__trial_make(gb_blas_trial_t *t);
void gb_blas__trial_free(gb_blas_trial_t *t);
/* C filled afresh (enqueued on t's queue), before a candidate runs with beta not 0. */
int gb_blas__trial_fill_c(gb_blas_trial_t *t);
/* Whether the candidate's C, just computed from fresh inputs, passes on the sample: every
 * element within the validation's bound, and faithful (docs/methodology.md); else 0 with why. */
int gb_blas__trial_check(gb_blas_trial_t *t, char *why, size_t len);

#endif
