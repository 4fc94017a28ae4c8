/* candidate.h: a configuration of a tuning spec as the tuner's files handle it (candidate.c):
 * its job at a repetition (what tune.c measures and winner.c confirms), and its parameters as
 * text. */
#ifndef GB_TUNE_CANDIDATE_H
#define GB_TUNE_CANDIDATE_H

#include "tune.h"

/* The job of configuration params at repetition rep. GB_OK (job->code says whether it can run)
 * or GB_ENOMEM. */
int gb_tune__job(const gb_tune_spec_t *spec, const gb_registry_t *reg, const gb_device_info_t *dev,
                 const gb_params_t *params, unsigned rep, gb_job_t *job);

/* "NAME=V NAME=V" into buf. */
void gb_tune__params_text(const gb_params_t *ps, char *buf, size_t len);

#endif
