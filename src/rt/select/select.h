/* select.h: choosing the kernel configuration for a problem: the tuning database's entries (the
 * best configuration found per device, driver, precision, layout and shape class), the defaults
 * shipped in the library (kernels/tuned/, compiled in at build time), and the choice `-k auto`
 * and the library's GEMM call make from them (docs/tuning.md). Part of the runtime library:
 * no store, no JSON; the tool adds the store's entries and reads and writes JSON (src/tool/tune/). */
#ifndef GB_SELECT_H
#define GB_SELECT_H

#include "gemmbench.h"
#include "shapes.h"

#define GB_TUNED_EVIDENCE 8 /* point ids kept per entry */
#define GB_TUNED_ID_LEN 16  /* hex digits of a point id (GB_POINT_ID_LEN) */

typedef struct gb_tuned_entry {
    char device[128], platform[128], driver[64];
    char vendor[128], type[16]; /* for a device of the same vendor and type */
    gb_precision_t precision;
    char layout[8];               /* "row-NN": the problem's layout and transpositions */
    char shape_class[32];         /* gb_shape_class of the shape tuned at */
    size_t m, n, k;               /* the shape tuned at */
    char kernel[2 * GB_NAME_MAX]; /* the family (or preset) the parameters are of */
    gb_params_t params;           /* every parameter's value */
    double gflops;                /* its median rate at the shape tuned at */
    char evidence[GB_TUNED_EVIDENCE][GB_TUNED_ID_LEN + 1];
    size_t nevidence;
    char tuned_at[32]; /* UTC, ISO 8601 */
    char source[16];   /* "store", "shipped" or "heuristic" */
} gb_tuned_entry_t;

/* What an entry must be (the store, export files and the shipped table all hold to it): GB_OK,
 * or GB_EBADARG with msg naming the entry and the field. */
int gb_tuned_entry_check(const gb_tuned_entry_t *e, char *msg, size_t msglen);
/* Whether two entries have one key: device, platform, driver, precision, layout, shape class. */
int gb_tuned_same_key(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b);
/* The pieces of that check, for the store's other records: a parameter name (a C identifier),
 * a point id (16 lower-case hex digits), a layout tag ("row-NT"). */
int gb_select__is_name(const char *s);
int gb_select__is_id(const char *s);
int gb_select__layout_ok(const char *s);

/* A collection of entries to choose from. */
typedef struct gb_tuned {
    gb_tuned_entry_t *e;
    size_t n, cap;
    size_t overridden; /* entries gb_tuned_merge met with a key already held */
} gb_tuned_t;

void gb_tuned_init(gb_tuned_t *t);
void gb_tuned_free(gb_tuned_t *t);
/* Adds a copy of e. GB_ENOMEM on failure. */
int gb_tuned_add(gb_tuned_t *t, const gb_tuned_entry_t *e);
/* Adds a copy of e, or, where t holds an entry of the same key, keeps one of the two in its
 * place: the store's over the shipped one, else the one added last. Counts t->overridden.
 * GB_ENOMEM on failure. */
int gb_tuned_merge(gb_tuned_t *t, const gb_tuned_entry_t *e);
/* Merges the shipped defaults (compiled in from kernels/tuned/), marked "shipped": an entry of
 * the store already in t keeps its key. GB_ENOMEM on failure. */
int gb_tuned_load_shipped(gb_tuned_t *t);

/* What is run for problem p on dev. */
typedef struct gb_tuned_choice {
    char kernel[2 * GB_NAME_MAX];
    gb_params_t params;
    char why[256];                 /* "tuned: H100, square-4096" */
    const gb_tuned_entry_t *entry; /* NULL for the heuristic */
} gb_tuned_choice_t;

/* The nearest tuned entry for p on dev: first the same device (the user's entries, then the
 * shipped ones), then a device of the same vendor and type; among those the same precision,
 * then the same layout, then the nearest shape (gb_shape_distance); an entry whose kernel reg
 * cannot resolve, or that cannot run p on dev, is passed over. Else a built-in heuristic by
 * vendor, type and precision. GB_ENOKERNEL when nothing can run p here. */
int gb_tuned_choose(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                    const gb_problem_t *p, gb_tuned_choice_t *out, char *msg, size_t msglen);

/* The shipped defaults as compiled in (generated at build time from the JSON files of kernels/tuned/ by
 * src/gen/metagen.c). */
extern const gb_tuned_entry_t gb__shipped_entries[];
extern const size_t gb__shipped_entry_count;

#endif
