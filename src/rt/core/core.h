/* core.h: helpers shared inside the library: checked size arithmetic, the seeded generator
 * and matrix storage helpers (messages, growth, files and hashes: ../util/util.h). */
#ifndef GB_CORE_H
#define GB_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "gemmbench.h"
#include "rt/util/util.h"

/* Passes a formatted one-line warning to the handler of gb_set_warning_handler, if any. */
void gb__warn(const char *fmt, ...) GB_PRINTF(1, 2);
/* Passes a successful build's log to the handler of gb_set_build_log_handler, unless it is blank. */
void gb__build_log(const char *program, const char *options, const char *log);

/* a * b and a + b into *out; return 0 on overflow. */
int gb__mul_ok(size_t a, size_t b, size_t *out);
int gb__add_ok(size_t a, size_t b, size_t *out);

/* The row/column-major swap: C^T = op(B)^T op(A)^T, so the same memory read in the other
 * layout is the problem with A and B exchanged, M and N exchanged, transpositions (and
 * conjugations) exchanged. */
gb_problem_t gb__problem_swapped(const gb_problem_t *p);
/* The row-major problem whose C is p's C read transposed: C^T = op(B)^T op(A)^T with each stored
 * operand read as its transpose (the same memory), for a kernel that writes element (i, j) of
 * its C at j ldc + i. A column-major p as it is; a row-major one swapped first. Real problems
 * without conjugation only (0 otherwise). */
int gb__problem_transposed_c(const gb_problem_t *p, gb_problem_t *q);
/* A C that is a vector read as a row-major column: a column-major C of one column is also a
 * row-major one with a leading dimension of 1 (A and B then read transposed, the same memory),
 * a row-major C of one row is the column of the swapped problem, and a row-major column (or a
 * column-major row, swapped) is one already. Where B of that form is one contiguous row read
 * transposed, it is read as a column with a leading dimension of 1. So a row-major 1 x N x K
 * problem with B transposed (y = x W^T) is the row-major N x 1 x K problem y^T = W x^T with
 * nothing transposed, and N x 1 x K with B transposed is N x 1 x K NN. Returns 1 with *q that
 * form (row-major, n = 1) and, swapped not NULL, *swapped (its A is p's B), or 0 where C is
 * no vector or an operand is conjugated. */
int gb__problem_vector(const gb_problem_t *p, gb_problem_t *q, int *swapped);
/* The 1M method (docs/methodology.md): a complex problem p (c, z) as the real problem a real
 * kernel computes it in, each complex element its two parts side by side: with p made row-major
 * (the operand swap where it is column-major: *swapped), C as the real M x 2N matrix of its
 * parts, op(A) as the real M x 2K matrix X of its parts (A itself, read with twice its leading
 * dimension and offset, where it is stored untransposed; else a packed copy, *pack), op(B)
 * scaled by alpha as the real 2K x 2N matrix Y of 2x2 blocks [re im; -im re] (always a copy).
 * The real problem keeps p's alpha, beta and their imaginary parts: the launch gives the kernel
 * and the passes what each applies (gb__route_scalars). row, swapped and pack may be NULL. */
void gb__problem_1m(const gb_problem_t *p, gb_problem_t *real, gb_problem_t *row, int *swapped,
                    int *pack);

/* Stored shape of operand A or B: rows and columns as held in memory. */
void gb__stored_a(const gb_problem_t *p, size_t *rows, size_t *cols);
void gb__stored_b(const gb_problem_t *p, size_t *rows, size_t *cols);
/* Index of element (r, c) of a stored matrix with leading dimension ld. */
static inline size_t gb__at(gb_layout_t layout, size_t ld, size_t r, size_t c)
{
    return layout == GB_ROW_MAJOR ? r * ld + c : c * ld + r;
}

/* Fills the logical rows x cols of a stored matrix (double values exactly representable in
 * the target precision) and sets every other element of the buffer to fill_pad. For complex
 * precisions buf holds 2 * elems doubles, and the real and imaginary parts of each element are
 * drawn independently (a padding element gets fill_pad in both). */
void gb__matrix_generate(double *buf, size_t elems, gb_layout_t layout, size_t ld, size_t off,
                         size_t rows, size_t cols, const gb_dist_t *d, gb_precision_t prec,
                         gb_rng_t *rng, double fill_pad);

/* The storage formats (storage.c). gb__round_to: x rounded to prec's format (to nearest, ties
 * to even, subnormals kept, +-Inf past the largest finite value; x itself in double).
 * gb__storage_max: the format's largest finite value (65504 for FP16). gb__output_rounding: for
 * h and b, the most that the final rounding of a single-precision result to the format can have
 * moved it to y, a value of the format (half the spacing of y's binade, or of the subnormals);
 * 0 for s and d, whose results are not rounded again after their arithmetic. */
double gb__round_to(gb_precision_t prec, double x);
double gb__storage_max(gb_precision_t prec);
/* Whether prec stores its elements in 16 bits (h, hh: FP16; b: bfloat16), computed in single. */
int gb__storage16(gb_precision_t prec);
double gb__output_rounding(gb_precision_t prec, double y);
/* FP16 and bfloat16 bit patterns of x (rounded as gb__round_to does; NaN stays a quiet NaN) and
 * the values of bit patterns. */
uint16_t gb__fp16_bits(double x);
double gb__fp16_value(uint16_t h);
uint16_t gb__bf16_bits(double x);
double gb__bf16_value(uint16_t b);
/* The build options that give kernels/prelude.cl a precision: GB_PRECISION, the arithmetic's
 * bits (32 or 64), and for h and b GB_STORAGE, the storage format (GB_STORAGE_FP16 1,
 * GB_STORAGE_BF16 2), into buf. */
const char *gb__precision_options(gb_precision_t prec, char *buf, size_t len);
/* n elements of the precision, held in double (2n doubles, real and imaginary parts, for c and
 * z), into the elements the device holds (float, double or 16-bit patterns) at out, and back. */
void gb__to_storage(gb_precision_t prec, const double *x, size_t n, void *out);
void gb__from_storage(gb_precision_t prec, const void *in, size_t n, double *out);

/* One element of C as the validation judges it (element.c). The unit roundoff of a precision's
 * storage format (2^-24, 2^-53, 2^-11 for FP16, 2^-8 for bfloat16) and of its arithmetic (2^-24
 * for h and b, 2^-11 for hh, whose sums are FP16's); gamma_n = n u / (1 - n u), or INFINITY when
 * n u >= 1; the bound's factor gamma_{K+2}(u) + gamma_{K+2}(u_double) with u the arithmetic's
 * (the device's rounding plus a double reference's); gb__bound_of: the bound of one element of
 * p from that factor g, its reference and its gauge: g G, and for h, b and hh
 * (1 + u_s) (g G + U) + u_s |ref| + eta_s, the output's rounding to the storage format (u_s its
 * unit roundoff, eta_s half its smallest subnormal) added, and for hh U = (K + 2) eta_s |alpha|,
 * what FP16 sums below its normal range may lose (else U = 0). */
double gb__unit_roundoff(gb_precision_t prec);
double gb__arith_roundoff(gb_precision_t prec);
double gb__gamma(size_t n, double u);
double gb__bound_factor(const gb_problem_t *p);
/* The complex precisions' factor: sqrt(2) (gamma_{2K+5}(u) + gamma_{2K+5}(u_double)), u the
 * arithmetic's (gb__bound_factor gives it for c and z). */
double gb__bound_factor_complex(size_t k, double u);
double gb__bound_of(const gb_problem_t *p, double g, double ref, double gauge);
/* Buffer indices of op(A)(i, l), op(B)(l, j) and C(i, j): a transposed operand is stored with
 * the two indices swapped. */
size_t gb__at_a(const gb_problem_t *p, size_t i, size_t l);
size_t gb__at_b(const gb_problem_t *p, size_t l, size_t j);
size_t gb__at_c(const gb_problem_t *p, size_t i, size_t j);
/* Index t of n sample points spread over 0..len-1, both ends included. */
size_t gb__spread(size_t t, size_t n, size_t len);
/* Element (i, j) from its row of op(A) and column of op(B) (K values each, of the precision,
 * held in double) and C's element c0 before the call (read where beta is not 0): as an honest
 * computation in the precision makes it, one fused product at a time, then alpha and beta, each
 * rounded to the precision's arithmetic, and for h and b the result rounded once to the storage
 * format; and its reference (summed in double) and gauge
 * |alpha| |op(A)| |op(B)| + |beta| |c0|. */
double gb__element_honest(const gb_problem_t *p, const double *arow, const double *bcol, double c0);
void gb__element_reference(const gb_problem_t *p, const double *arow, const double *bcol, double c0,
                           double *ref, double *gauge);
/* The faithful verdict's worst errors over sampled elements, in units of u * gauge with u the
 * arithmetic's, each less the final rounding to the storage format (gb__output_rounding): the
 * device's and the honest computation's. gb__faithful_add takes one element (got, its reference,
 * gauge and honest value): 0, and nothing taken, where any is not finite (then nothing can be
 * judged). gb__faithful_of: the worst against the honest one or one u*G, where that is more
 * (faithful: at most GB_FAITHFUL_LAMBDA). */
typedef struct gb_faithful {
    double worst, worst_honest;
} gb_faithful_t;
int gb__faithful_add(gb_faithful_t *f, gb_precision_t prec, double got, double ref, double gauge,
                     double honest);
double gb__faithful_of(double worst, double worst_honest);

/* Is beta zero (both parts): C is then not read (BLAS semantics). */
static inline int gb__beta_zero(const gb_problem_t *p)
{
    return p->beta == 0.0 && p->beta_im == 0.0;
}

/* Complex elements (complex_element.c), each two doubles (real, imaginary): element (i, j) of
 * a c or z problem from its row of op(A) and column of op(B) (K elements each, as stored:
 * conjugation, where asked, is applied here) and c0 (read where beta is not 0), as an honest
 * computation makes it (each part summed one fused product at a time in the arithmetic's
 * precision, then alpha and beta applied in it) into out[2]; and its reference, summed in
 * double, into ref[2] with the gauge |alpha| sum |a||b| + |beta| |c0| (moduli). */
void gb__element_honest_complex(const gb_problem_t *p, const double *arow, const double *bcol,
                                const double *c0, double *out);
void gb__element_reference_complex(const gb_problem_t *p, const double *arow, const double *bcol,
                                   const double *c0, double *ref, double *gauge);

#endif
