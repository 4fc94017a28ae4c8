/* recorded.h: recorded spaces: every configuration of a family's (narrowed) space measured at
 * one problem on one device, kept in a small text file (docs/tuning.md, "Recorded spaces"), so
 * that strategies can be compared without a device (simulate.c). */
#ifndef GB_RECORDED_H
#define GB_RECORDED_H

#include <stdio.h>

#include "gemmbench.h"

typedef struct gb_recorded gb_recorded_t;

/* What a recorded space says of itself. */
typedef struct gb_recorded_info {
    char family[GB_NAME_MAX];
    gb_precision_t precision;
    size_t m, n, k;
    char device[128]; /* the device it was measured on */
    char source[256]; /* how it was made (command, date) */
    /* The device limits its space was built under (a 'limits' line, and a 'vendor' line for the
     * vendor's rules): a tuning run on that device never asks for a configuration they exclude.
     * has_limits 0: none given, and the space opens without device limits. */
    int has_limits;
    char vendor[128];
    const char *type_name; /* "cpu", "gpu", "accelerator" or "other" */
    uint64_t local_mem;
    size_t max_wg_size, max_wi_sizes[2];
    unsigned compute_units;
} gb_recorded_info_t;

/* Sets info's device, vendor and limits to dev's. */
void gb_recorded_set_device(gb_recorded_info_t *info, const gb_device_info_t *dev);

/* Reads a recorded space (path) and opens the space it was recorded over (*sp: the family from
 * reg, narrowed to the parameter values the file lists, under the device limits its header
 * gives, if any). GB_EBADARG with msg naming the file and line for a malformed file (a
 * configuration not in that space, or listed twice, included); GB_ENOKERNEL when reg lacks the
 * family; GB_EIO when it cannot be read. Free with gb_recorded_close (and the space with
 * gb_space_close, after it); both are NULL on error. */
int gb_recorded_load(gb_recorded_t **out, gb_space_t **sp, const char *path,
                     const gb_registry_t *reg, char *msg, size_t msglen);
void gb_recorded_close(gb_recorded_t *rec); /* accepts NULL */
/* What the header says (owned by rec). */
const gb_recorded_info_t *gb_recorded_info(const gb_recorded_t *rec);
/* Configurations recorded, and the best score among them (-1 when none succeeded). */
size_t gb_recorded_size(const gb_recorded_t *rec);
double gb_recorded_best(const gb_recorded_t *rec);
/* The score recorded for c: GFLOP/s, or a negative number where it failed or was not recorded. */
double gb_recorded_score(const gb_recorded_t *rec, const gb_space_t *sp, const gb_space_cand_t *c);

/* Writes a recorded space: the header (info, and each parameter's candidate values of sp), then
 * one line per configuration: its parameter values in sp's order and its score (negative or
 * not finite: it failed, written -1), in the shortest text that reads back as the same double.
 * GB_EIO when writing fails. */
int gb_recorded_write_header(FILE *f, const gb_recorded_info_t *info, const gb_space_t *sp);
int gb_recorded_write_entry(FILE *f, const gb_space_t *sp, const gb_space_cand_t *c, double score);

/* ---- simulation --------------------------------------------------------------------------- */

/* Runs strategy over the recorded space (sp: the space gb_recorded_load opened with it) for at
 * most budget evaluations (each a distinct configuration; one the strategy proposes that was
 * not recorded counts as a failed one) and writes the best score found after each evaluation
 * into trace[0..*done) (trace holds budget numbers; negative while every one so far failed).
 * Candidates are asked up to lookahead ahead of their scores and told in the order asked, as a
 * tuning run does (GB_TUNE_LOOKAHEAD; 1: each told before the next is asked). *done is less
 * than budget only when the whole space was evaluated. GB_EBADARG for an unknown strategy (msg
 * lists the known ones), GB_ENOMEM. */
int gb_simulate(const gb_recorded_t *rec, const gb_space_t *sp, const char *strategy, uint64_t seed,
                size_t budget, size_t lookahead, double *trace, size_t *done, char *msg,
                size_t msglen);

#endif
