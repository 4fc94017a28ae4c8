/* select.h: what the runtime's tuning database keeps to itself: the shipped defaults as compiled
 * in (generated at build time from the JSON files of kernels/tuned/ by src/gen/metagen.c). The
 * interface is include/gemmbench_tuning.h. */
#ifndef GB_SELECT_H
#define GB_SELECT_H

#include "gemmbench_tuning.h"

extern const gb_tuned_entry_t gb__shipped_entries[];
extern const size_t gb__shipped_entry_count;

#endif
