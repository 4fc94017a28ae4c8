/* refresh.h: what `tune --refresh` tunes again (refresh.c): for each device asked, the classes
 * it uses (the precision, layout and shape class of every tuned entry -k auto would see for it
 * from this device or its family: shipped, in the user's tuning file, in the store), and for
 * each class a run per kernel family of its entries, at the shape of this device's entry there
 * (else the most central of its family's), seeded with the configurations of that kernel
 * family's entries nearest in shape. The runs are the tuners' items (tuners.h). Prints
 * nothing: a hook hears what is passed over. docs/tuning.md, "Refreshing". */
#ifndef GB_TUNE_REFRESH_H
#define GB_TUNE_REFRESH_H

#include "tuned.h"
#include "tuners.h"

/* The strategy's evaluations per run of a refresh unless --budget says otherwise: a refresh has
 * many runs, each warm-started by its seeds, so a few evaluations each. */
#define GB_REFRESH_BUDGET 12

/* The entries -k auto would see: the shipped ones, the user's tuning file's over them
 * (gb_tuned_file_default: $GEMMBENCH_TUNED, else the default store's), the store's (st; NULL:
 * none) over both. A damaged line of the file is skipped and said in warn ("" none). GB_OK, or
 * an error with msg (the store, an unreadable file, out of memory). */
int gb_refresh_entries(gb_tuned_t *db, gb_store_t *st, const gb_registry_t *reg, char *warn,
                       size_t warnlen, char *msg, size_t msglen);

typedef struct gb_refresh_opts {
    unsigned precisions; /* a mask of 1u << gb_precision_t; 0: every one */
    /* The classes to refresh, comma-separated: CLASS ("square-4096") or PRECISION/LAYOUT/CLASS
     * ("s/row-NN/square-4096"); NULL: every one. */
    const char *classes;
    int user_only; /* the classes of the user's entries (store, file) only, not the shipped */
    const gb_problem_t *base; /* the command's problem; each run's in its class's layout */
    void (*note)(const char *msg, void *user); /* a kernel passed over, and why (NULL: none) */
    void *user;
} gb_refresh_opts_t;

/* Adds to runs an item per class and kernel family to tune on each kind of device among devs
 * (devices of one kind share their items; each item names its kind), in the order of the
 * devices, then precision, layout and class, then the class's entries. GB_OK; GB_EBADARG when a
 * class asked for is not one the devices use (msg lists those they do); GB_ENOPOINT when there
 * is nothing to refresh (msg says why); GB_ENOMEM. */
int gb_refresh_plan(gb_tune_runs_t *runs, const gb_tuned_t *db, const gb_registry_t *reg,
                    const gb_device_info_t *const *devs, size_t ndevs, const gb_refresh_opts_t *o,
                    char *msg, size_t msglen);

#endif
