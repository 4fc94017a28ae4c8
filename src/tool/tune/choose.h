/* choose.h: -k auto's chooser (job.h's gb_chooser_t) over the tuning database: the shipped
 * defaults and the store's entries, which override them (tuned.h, gb_tuned_choose). */
#ifndef GB_TUNE_CHOOSE_H
#define GB_TUNE_CHOOSE_H

#include "tool/job/job.h"
#include "tuned.h"

typedef struct gb_auto {
    gb_chooser_t chooser; /* what gb_job_spec_t.chooser takes */
    gb_tuned_t db;
    const gb_registry_t *reg;
} gb_auto_t;

/* Loads the database: the shipped defaults, then st's entries (st may be NULL). On error msg
 * says which entry or file is at fault. Free with gb_auto_close. */
int gb_auto_open(gb_auto_t *a, const gb_registry_t *reg, gb_store_t *st, char *msg, size_t msglen);
void gb_auto_close(gb_auto_t *a);

#endif
