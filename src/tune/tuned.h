/* tuned.h: the tuning database: the best configuration found per device, driver, precision,
 * layout and shape class, with its evidence (the ids of the points that measured it). Entries
 * come from the results store (the user's own tuning, table `tuned`) and from the defaults
 * shipped in the binary (kernels/tuned/, one JSON file each, made with `gemmbench tune`); the
 * user's override the shipped ones. `-k auto` asks it which configuration to run (docs/tuning.md). */
#ifndef GB_TUNED_H
#define GB_TUNED_H

#include "../store/tuning.h"

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
/* Adds a copy of e, or, where t holds an entry of the same key (device, platform, driver,
 * precision, layout, shape class), keeps one of the two in its place: the store's over the
 * shipped one, else the one added last. Counts t->overridden. GB_ENOMEM on failure. */
int gb_tuned_merge(gb_tuned_t *t, const gb_tuned_entry_t *e);
/* Merges the shipped defaults (embedded JSON, kernels/tuned/) into t, marked "shipped": an
 * entry of the store already in t keeps its key. */
int gb_tuned_load_shipped(gb_tuned_t *t, char *msg, size_t msglen);
/* Merges the entries of the store's tuning database into t, marked "store": they replace the
 * shipped entries of the same key (none from a store without a tuning database; nothing is
 * written to st). On error msg holds the store's message and t keeps the entries merged
 * before it. */
int gb_tuned_load_store(gb_tuned_t *t, gb_store_t *st, char *msg, size_t msglen);

/* Parameters as "NAME=V NAME=V" in their order, or "(defaults)" when there are none; buf. */
const char *gb_tuned_params_text(const gb_params_t *ps, char *buf, size_t len);

/* Entries as JSON (an array of objects; docs/tuning.md) and back. from_json adds all of the
 * document's entries or none: it refuses text that is not one JSON array of valid entries
 * (text after it, a key missing or wrong, two entries of one key) with GB_EBADARG and msg
 * "ORIGIN:LINE: entry I: ..." naming the key and what it must be. */
char *gb_tuned_to_json(const gb_tuned_t *t); /* caller frees */
int gb_tuned_from_json(gb_tuned_t *t, const char *text, size_t len, const char *origin,
                       const char *source, char *msg, size_t msglen);

/* What -k auto runs for problem p on dev. */
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

#endif
