/* tune_spaces.h: tune's recorded spaces on the command line (tune_spaces.c). */
#ifndef GB_CLI_TUNE_SPACES_H
#define GB_CLI_TUNE_SPACES_H

#include "tool/tune/tune.h"

/* --simulate: strategy over the recorded space at path for budget evaluations (0: the whole
 * space), each candidate asked lookahead ahead of its score, printing the best so far against
 * evaluations. An exit code. */
int cli_tune_simulate(const char *path, const char *strategy, uint64_t seed, size_t budget,
                      size_t lookahead, const char *kpath);
/* --record: run's evaluations written to path as a recorded space (every configuration
 * evaluated, with its score; failures as -1). 0, or an exit code after a message. */
int cli_tune_record(const char *path, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                    const gb_device_info_t *di, gb_store_t *st, const gb_tune_run_t *run);

#endif
