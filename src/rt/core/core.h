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

/* Stored shape of operand A or B: rows and columns as held in memory. */
void gb__stored_a(const gb_problem_t *p, size_t *rows, size_t *cols);
void gb__stored_b(const gb_problem_t *p, size_t *rows, size_t *cols);
/* Index of element (r, c) of a stored matrix with leading dimension ld. */
static inline size_t gb__at(gb_layout_t layout, size_t ld, size_t r, size_t c)
{
    return layout == GB_ROW_MAJOR ? r * ld + c : c * ld + r;
}

/* Fills the logical rows x cols of a stored matrix (double values exactly representable in
 * the target precision) and sets every other element of the buffer to fill_pad. */
void gb__matrix_generate(double *buf, size_t elems, gb_layout_t layout, size_t ld, size_t off,
                         size_t rows, size_t cols, const gb_dist_t *d, gb_precision_t prec,
                         gb_rng_t *rng, double fill_pad);

#endif
