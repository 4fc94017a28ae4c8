/* tuned.h: the tuning database as the tool keeps it: entries from the results store (the user's
 * own tuning, table `tuned`) over the defaults shipped in the library (gemmbench_tuning.h), and entries as
 * JSON for `gemmbench tuned export|import` and kernels/tuned/ (docs/tuning.md). */
#ifndef GB_TUNED_H
#define GB_TUNED_H

#include "gemmbench_tuning.h"
#include "tool/store/tuning.h"

/* Merges the entries of the store's tuning database into t, marked "store": they replace the
 * shipped entries of the same key (none from a store without a tuning database; nothing is
 * written to st). A damaged row is passed over with a warning (gb_store_tuned_foreach). On
 * error msg holds the store's message, and t may hold some of the entries. */
int gb_tuned_load_store(gb_tuned_t *t, gb_store_t *st, char *msg, size_t msglen);

/* Writes the store's tuning file (gb_tuned_file_of_store: the store's path + ".tuned"), which
 * the library reads without the store, anew from the store's entries; *n how many. GB_OK, or
 * an error with msg (the store or the file). */
int gb_tuned_sync_file(gb_store_t *st, size_t *n, char *msg, size_t msglen);

/* Parameters as "NAME=V NAME=V" in their order, or "(defaults)" when there are none; buf. */
const char *gb_tuned_params_text(const gb_params_t *ps, char *buf, size_t len);

/* Entries as JSON (an array of objects; docs/tuning.md) and back. from_json adds all of the
 * document's entries or none: it refuses text that is not one JSON array of valid entries
 * (text after it, a key missing, unknown or wrong, a class not the shape's, a string that holds
 * a control character, raw or escaped, or invalid UTF-8, two entries of one key) with
 * GB_EBADARG and msg "ORIGIN:LINE: entry I: ..." naming the key and what it must be; in time
 * n log n. Whether the kernels are this build's is gb_tuned_entry_check_kernel's. */
char *gb_tuned_to_json(const gb_tuned_t *t); /* caller frees */
int gb_tuned_from_json(gb_tuned_t *t, const char *text, size_t len, const char *origin,
                       const char *source, char *msg, size_t msglen);
/* The line of entry i of such a document (text, len bytes, which gb_tuned_from_json took), at
 * its key where key is given and there: what a later check of the entry names. */
size_t gb_tuned_json_line(const char *text, size_t len, size_t i, const char *key);

#endif
