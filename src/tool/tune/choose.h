/* choose.h: -k auto's chooser (job.h's gb_chooser_t): what the library would run for the
 * problem, asked of a library handle per device (gb_blas_choose), with the store's entries over
 * the shipped ones and the user's tuning file, and the library's choice by measurement in the
 * mode asked (gemmbench_blas.h, gb_blas_set_select; the command line measures by default),
 * in every precision. */
#ifndef GB_TUNE_CHOOSE_H
#define GB_TUNE_CHOOSE_H

#include <pthread.h>

#include "tool/job/job.h"
#include "tuned.h"

typedef struct gb_auto_handle gb_auto_handle_t;

typedef struct gb_auto {
    gb_chooser_t chooser; /* what gb_job_spec_t.chooser takes */
    gb_tuned_t db;        /* the store's entries */
    int select;           /* the handles' mode (gb_blas_select_t) */
    pthread_mutex_t lock; /* the handles, made on first use per device */
    gb_auto_handle_t *handles;
    size_t nhandles, caphandles;
    char warnings[2048]; /* what the handles skipped reading tuning files ("" none) */
} gb_auto_t;

/* Loads the store's entries (st may be NULL) for the handles to add to theirs; select: the
 * handles' mode, or -1 for GEMMBENCH_SELECT where it is set, else measure and build. objective
 * (NULL or "time": time) other than time: the entries of that objective stand in for the time
 * entries of their keys (the library knows one entry per key, and chooses by time), the other
 * classes keep their time entries, and the handles take the table's choice (select off):
 * measuring the portfolio would choose by time. On error msg says which entry or file is at
 * fault. Free with gb_auto_close. */
int gb_auto_open(gb_auto_t *a, gb_store_t *st, int select, const char *objective, char *msg,
                 size_t msglen);
void gb_auto_close(gb_auto_t *a);

#endif
