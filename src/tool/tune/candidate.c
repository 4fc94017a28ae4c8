/* candidate.c: a configuration of a tuning spec as the tuner's files handle it (candidate.h). */
#include "rt/util/util.h"
#include "candidate.h"

int gb_tune__job(const gb_tune_spec_t *spec, const gb_registry_t *reg, const gb_device_info_t *dev,
                 const gb_params_t *params, unsigned rep, gb_job_t *job)
{
    gb_job_spec_t js = {.kernel = spec->kernel,
                        .named = 1,
                        .precision = spec->precision,
                        .swept = params,
                        .base = spec->base,
                        .has_layout = spec->has_layout,
                        .m = spec->m,
                        .n = spec->n,
                        .k = spec->k,
                        .bench = &spec->bench,
                        .rep = rep};
    return gb_job_make(job, reg, dev, &js);
}

void gb_tune__params_text(const gb_params_t *ps, char *buf, size_t len)
{
    gb_params_text(ps, buf, len);
}
