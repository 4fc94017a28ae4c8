/* gemmbench_tuning.h: the tuning database, as the runtime library reads it and the tool writes it
 * (docs/tuning.md, "The tuning database"): entries (the best configuration found per device,
 * driver, precision, layout and shape class), shape classes, device families, the portfolio of
 * candidates a problem gets, and the runtime's files: the tuning file (entries), the choices
 * file (what measurement chose per exact shape) and the capture file (shapes a program called).
 * Part of the runtime (src/rt/tuning/): no store, no JSON; the tool adds the store's entries and
 * reads and writes JSON (src/tool/tune/). Not installed: applications use gemmbench_blas.h. */
#ifndef GEMMBENCH_TUNING_H
#define GEMMBENCH_TUNING_H

#include <stdio.h>

#include "gemmbench.h"
#include "gemmbench_blas.h"

/* ---- shape classes (shapes.c says how they are made) ----------------------------------------- */

/* "small", "large-k", "low-k", "tall", "wide" or "square" (static text). */
const char *gb_shape_kind(size_t m, size_t n, size_t k);
/* The power of two nearest (M N K)^(1/3). */
size_t gb_shape_size(size_t m, size_t n, size_t k);
/* "square-4096" into buf: the kind and the size of the dimension that makes it. */
const char *gb_shape_class(size_t m, size_t n, size_t k, char *buf, size_t len);
/* How far apart two shapes (M, N, K) are: the distance of their base-2 logarithms. */
double gb_shape_distance(const size_t a[3], const size_t b[3]);

/* ---- entries --------------------------------------------------------------------------------- */

#define GB_TUNED_EVIDENCE 8 /* point ids kept per entry */
#define GB_TUNED_ID_LEN 16  /* hex digits of a point id (GB_POINT_ID_LEN) */

typedef struct gb_tuned_entry {
    char device[128], platform[128], driver[64];
    char vendor[128], type[16]; /* for a device of the same vendor and type */
    char family[64];            /* the device's family (gb_device_info_t.family); "" unknown */
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
    char source[16];   /* "store", "file" (a tuning file), "shipped" or "heuristic" */
    /* What the tuning that made it minimised (docs/tuning.md, "Objectives"): "time", "energy"
     * or "edp"; "" reads as "time". Part of the key: a class may hold one entry of each. The
     * library and the tuning file hold time entries only. */
    char objective[8];
    double joules; /* energy per GEMM at the shape tuned at, J; 0: not measured */
} gb_tuned_entry_t;

/* The objectives a tuning minimises, as entries name them. */
#define GB_OBJECTIVE_TIME "time"
#define GB_OBJECTIVE_ENERGY "energy"
#define GB_OBJECTIVE_EDP "edp"
/* e's objective: "time" where it is "". */
const char *gb_tuned_objective(const gb_tuned_entry_t *e);
/* Whether s names an objective ("time", "energy" or "edp"). */
int gb_tuned_objective_ok(const char *s);

/* What an entry must be (the store, export files, tuning files and the shipped table all hold
 * to it): every text field printable (gb__text_ok: UTF-8, no control character) and within its
 * array; a device name; a type gemmbench knows (or none); a precision (s, d, h, b, c or z); a
 * layout tag (gb_tuned_layout_key's); M, N and K from
 * 1 to 2^30 and the shape class theirs; a kernel name; parameters of names, each once; a finite
 * rate, 0 or more; point ids as evidence; an objective ("" or gb_tuned_objective_ok) and finite
 * joules, 0 or more. GB_OK, or GB_EBADARG with msg naming the entry (made
 * printable) and the field. Whether the kernel and parameters are this build's is
 * gb_tuned_entry_check_kernel's. */
int gb_tuned_entry_check(const gb_tuned_entry_t *e, char *msg, size_t msglen);
/* What gb_tuned_entry_check finds wrong with e, as one phrase ("bad layout (row-NN, ...)"), in
 * buf (len bytes) where it is made; NULL when nothing is. */
const char *gb_tuned_entry_fault(const gb_tuned_entry_t *e, char *buf, size_t len);
/* Whether e's kernel runs here as its parameters say: a kernel or preset of reg ("did you mean"
 * the nearest where it is not), of e's precision, each parameter one of its family's ("did you
 * mean") and within its allowed values. GB_OK, or GB_ENOKERNEL or GB_EBADPARAM with msg (the
 * fault alone, without the entry; a kernel of one's own is reached with --kernel-path). */
int gb_tuned_entry_check_kernel(const gb_tuned_entry_t *e, const gb_registry_t *reg, char *msg,
                                size_t msglen);
/* Whether two entries have one key: device, platform, driver, precision, layout, shape class,
 * objective. */
int gb_tuned_same_key(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b);
/* The layout part of p's key, "row-NT" into buf: the layout and transpositions, a conjugate
 * transposition (C) under T's entry, since kernels conjugate as they load and the tuning of T
 * holds for it. Entries of every precision are keyed so; a c entry serves only c problems. */
const char *gb_tuned_layout_key(const gb_problem_t *p, char *buf, size_t len);
/* The pieces of that check, for the store's other records: a parameter name (a C identifier),
 * a point id (16 lower-case hex digits), a layout tag ("row-NT"). */
int gb_select__is_name(const char *s);
int gb_select__is_id(const char *s);
int gb_select__layout_ok(const char *s);
/* A device type: gpu, cpu, accelerator, other, or "" (unknown). */
int gb_select__type_ok(const char *s);

/* A collection of entries to choose from. */
typedef struct gb_tuned {
    gb_tuned_entry_t *e;
    size_t n, cap;
    size_t overridden; /* entries gb_tuned_merge met with a key already held */
} gb_tuned_t;

void gb_tuned_init(gb_tuned_t *t);
void gb_tuned_free(gb_tuned_t *t); /* accepts NULL */
/* Adds a copy of e (which must not point into t). GB_ENOMEM on failure. */
int gb_tuned_add(gb_tuned_t *t, const gb_tuned_entry_t *e);
/* Adds a copy of e, or, where t holds an entry of the same key, keeps one of the two in its
 * place: the user's (store or file) over the shipped one, else the one added last. Counts
 * t->overridden. GB_ENOMEM on failure. */
int gb_tuned_merge(gb_tuned_t *t, const gb_tuned_entry_t *e);
/* gb_tuned_merge of e[0..n) in order (e not in t), in time linear in t->n + n (one merge looks
 * through t). GB_ENOMEM on failure, with the entries before the one that failed merged. */
int gb_tuned_merge_all(gb_tuned_t *t, const gb_tuned_entry_t *e, size_t n);
/* Merges the shipped defaults (compiled in from kernels/tuned/), marked "shipped": a user's
 * entry already in t keeps its key. GB_ENOMEM on failure. */
int gb_tuned_load_shipped(gb_tuned_t *t);

/* ---- the choice for a problem ------------------------------------------------------------------ */

/* Where a candidate comes from, in the order a problem's table choice takes them. */
typedef enum gb_tier {
    GB_TIER_DEVICE,    /* this device's entries: the user's, then the shipped ones */
    GB_TIER_FAMILY,    /* a device of the same family (docs/tuning.md, "Device families") */
    GB_TIER_VENDOR,    /* a device of the same vendor and type */
    GB_TIER_HEURISTIC, /* the built-in default per vendor, type and precision */
} gb_tier_t;

/* Entry e's tier for dev (gb_tier_t, not the heuristic's), or -1 where it is for none: no choice
 * for dev ever takes it. */
int gb_tuned_tier(const gb_tuned_entry_t *e, const gb_device_info_t *dev);

/* What may be run for problem p on dev. */
typedef struct gb_tuned_choice {
    char kernel[2 * GB_NAME_MAX];
    gb_params_t params;
    char why[256];                 /* "tuned: H100, square-4096" */
    const gb_tuned_entry_t *entry; /* NULL for the heuristic */
    gb_tier_t tier;
} gb_tuned_choice_t;

/* The table's choice for p on dev: the nearest entry of the nearest tier that runs p here
 * (this device's entries, the user's before the shipped ones; then its family's; then its vendor
 * and type's; the same precision; the same layout first; the nearest shape by
 * gb_shape_distance), else the heuristic. GB_ENOKERNEL when nothing can run p here. */
int gb_tuned_choose(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                    const gb_problem_t *p, gb_tuned_choice_t *out, char *msg, size_t msglen);

/* At most this many candidates in a portfolio. */
#define GB_PORTFOLIO_MAX 8

/* The portfolio of p on dev: the table's choice first, then the nearest entries of other shape
 * classes of this device, the family's entries, the vendor's and the heuristic's choice, each
 * configuration once and each one that runs p here, at most max (<= GB_PORTFOLIO_MAX) in
 * out[0..*n). GB_ENOKERNEL (msg says why) when none can run p here. */
int gb_tuned_portfolio(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                       const gb_problem_t *p, size_t max, gb_tuned_choice_t *out, size_t *n,
                       char *msg, size_t msglen);

/* Adds t's entries to library handle h's, over those of the same key (gb_tuned_merge's ranks),
 * as gb_blas_load_tuned adds a tuning file's: the tool gives -k auto's handles the store's
 * entries so. Not exported by the shared library. GB_OK or GB_ENOMEM. */
int gb_blas__add_tuned(gb_blas_t *h, const gb_tuned_t *t);
/* The library's selection mode by its name (off, cached, measure, measure+build): GB_OK or
 * GB_EBADARG. */
int gb_blas__select_parse(const char *s, int *mode);

/* ---- the runtime's files (files.c) ----------------------------------------------------------- */

/* Where the user's tuning file is: $GEMMBENCH_TUNED, else the default results store's
 * companion file, $GEMMBENCH_STORE.tuned, else $XDG_DATA_HOME/gemmbench/results.db.tuned, else
 * ~/.local/share/gemmbench/results.db.tuned. NULL when none can be named (no HOME). buf. */
const char *gb_tuned_file_default(char *buf, size_t len);
/* The tuning file that goes with the results store at store_path: store_path + ".tuned". */
const char *gb_tuned_file_of_store(const char *store_path, char *buf, size_t len);

/* Reads the tuning file at path and merges its entries into t, marked source ("file" or
 * "store"). A missing file is no error (*read 0). A line that is damaged, of another format
 * version or names a kernel reg lacks is skipped: each is counted in *skipped and the first is
 * described in warn (one line: the file, the line number and what is wrong). GB_OK, or
 * GB_ENOMEM; an unreadable file is GB_EBADARG with msg. */
int gb_tuned_file_read(gb_tuned_t *t, const char *path, const gb_registry_t *reg,
                       const char *source, size_t *read, size_t *skipped, char *warn,
                       size_t warnlen, char *msg, size_t msglen);
/* Writes t's entries (those whose source is not "shipped", of the objective time) as the tuning file at path,
 * replacing it at once (a temporary file renamed over it), making its folder. GB_OK or
 * GB_EBADARG with msg naming the path. */
int gb_tuned_file_write(const gb_tuned_t *t, const char *path, char *msg, size_t msglen);

/* One choice made by measurement, for one exact problem on one device. */
typedef struct gb_chosen {
    char device[128], platform[128], driver[64];
    gb_precision_t precision;
    char layout[8];
    size_t m, n, k;
    char portfolio[17]; /* digest of the candidates measured: a new portfolio measures anew */
    char kernel[2 * GB_NAME_MAX];
    gb_params_t params;
    double gflops;      /* the winner's measured rate */
    unsigned measured;  /* candidates measured */
    unsigned pending;   /* candidates not measured (not built yet): the choice is provisional */
    char chosen_at[32]; /* UTC, ISO 8601 */
    double measure_ms;  /* what the measurement took: buffers, checks and timed rounds */
    double build_ms;    /* what building the candidates took first (0: all were built) */
    double table_ratio; /* the table's choice's time over the winner's (0: not measured) */
} gb_chosen_t;

/* Where the choices file is: $GEMMBENCH_CHOICES, else $XDG_CACHE_HOME/gemmbench/choices, else
 * ~/.cache/gemmbench/choices. NULL when none can be named. buf. */
const char *gb_chosen_file_default(char *buf, size_t len);
/* Looks up the latest choice at path for (dev, p, portfolio): GB_OK with *out, GB_ENOPOINT when
 * there is none (or no file); damaged lines are passed over. */
int gb_chosen_find(const char *path, const gb_device_info_t *dev, const gb_problem_t *p,
                   const char *portfolio, gb_chosen_t *out);
/* Appends c to the choices file at path (made with its folder where missing), under an
 * exclusive lock, in one write: two processes may race to add the same choice, and a reader
 * takes the last. GB_OK or GB_EBADARG with msg. */
int gb_chosen_append(const char *path, const gb_chosen_t *c, char *msg, size_t msglen);

/* The capture file (GEMMBENCH_CAPTURE): one line per distinct problem a program ran, as
 * `tune --shapes FILE` reads shapes: "M N K  # PRECISION LAYOUT DEVICE"; appended under a lock
 * unless the file already holds the line. GB_OK or GB_EBADARG with msg. */
int gb_capture_append(const char *path, const gb_device_info_t *dev, const gb_problem_t *p,
                      char *msg, size_t msglen);

#endif
