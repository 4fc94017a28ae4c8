/* compare.h: two sets of stored points side by side (`gemmbench compare BASE NEW`): the points
 * of one definition (device, implementation, parameters, problem, data, timing; not the driver,
 * the repetition or the provenance, which a regression check wants to vary) pooled per side,
 * their medians' ratio, and a Mann-Whitney U test of the two samples of times, exact for small
 * samples without ties, else the normal approximation with the tie correction. docs/compare.md. */
#ifndef GB_COMPARE_H
#define GB_COMPARE_H

#include "tool/store/store.h"

/* Below this p, a difference is beyond the noise. */
#define GB_COMPARE_ALPHA 0.01

typedef enum gb_cmp_verdict { GB_CMP_SAME, GB_CMP_FASTER, GB_CMP_SLOWER } gb_cmp_verdict_t;

/* "same", "faster" or "slower". */
const char *gb_cmp_verdict_name(gb_cmp_verdict_t v);

/* One definition measured on both sides. */
typedef struct gb_cmp_row {
    char what[512]; /* device, implementation, precision, layout and shape, for people */
    char device[128], kernel[2 * GB_NAME_MAX];
    size_t points[2], n[2]; /* points (repetitions) and timed calls pooled, base then new */
    double median_ms[2];    /* of the pooled calls, in the point's headline timing */
    double speedup;         /* median base / median new: > 1 is faster */
    double p;               /* two-sided, Mann-Whitney U */
    int exact;              /* p from U's exact distribution */
    gb_cmp_verdict_t verdict;
} gb_cmp_row_t;

typedef struct gb_compare {
    gb_cmp_row_t *rows; /* in the order of the definitions' keys */
    size_t nrows;
    char **only[2]; /* the definitions found on one side only (what[]), base then new */
    size_t nonly[2];
} gb_compare_t;

/* Compares the points of base and new. GB_OK; GB_ENOPOINT when no definition is on both sides
 * (msg says how many each has); a store error (msg). Free with gb_compare_free. */
int gb_compare_stores(gb_store_t *base, gb_store_t *new_, gb_compare_t *out, char *msg,
                      size_t msglen);
void gb_compare_free(gb_compare_t *c);

/* The rows of one device and implementation: how many, by verdict, and their speedups'
 * geometric mean. */
typedef struct gb_cmp_sum {
    char device[128], kernel[2 * GB_NAME_MAX];
    size_t rows, faster, slower, same;
    double geomean;
} gb_cmp_sum_t;
/* c's rows summed by device and implementation, in order of first sight, into *out (*n of them;
 * the caller frees *out). GB_OK or GB_ENOMEM. */
int gb_compare_summary(const gb_compare_t *c, gb_cmp_sum_t **out, size_t *n);
/* Whether row r is slower beyond the noise by more than pct percent (its new median over its
 * base median above 1 + pct / 100). */
int gb_compare_slower_over(const gb_cmp_row_t *r, double pct);

/* The comparison as one self-contained HTML page into f: a plot of each definition's speedup
 * (gnuplot's SVG, inlined), its table, the summary and the one-sided definitions; base and new
 * name the two sides. GB_OK; GB_EIO with msg when gnuplot cannot be run or fails. */
int gb_compare_html(FILE *f, const gb_compare_t *c, const gb_cmp_sum_t *s, size_t ns,
                    const char *base, const char *new_, char *msg, size_t msglen);

/* The two-sided p of a Mann-Whitney U test of x against y; *exact (may be NULL) says whether it
 * is U's exact distribution (both samples at most 50, no ties) or the normal approximation. */
double gb_mann_whitney(const double *x, size_t nx, const double *y, size_t ny, int *exact);

#endif
