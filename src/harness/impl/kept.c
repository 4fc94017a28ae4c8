/* kept.c: a kernel configuration's route planned once for a point and kept on its gb_impl_t
 * (gb_impl_plan), with what it was planned from: the program id, prepare, prebuild and the
 * declared traffic take it from there where they are asked about the same configuration,
 * problem and device, and plan it themselves otherwise (another problem: a pipeline's panels). */
#include <string.h>

#include "impl.h"

/* What gb_impl_t's plan holds for a kernel configuration. */
typedef struct kept {
    gb_config_t config;
    gb_problem_t problem;
    gb_route_device_t dev;
    gb_route_t route;
} kept_t;

_Static_assert(sizeof(kept_t) <= GB_IMPL_PLAN_BYTES, "a kept route needs a larger gb_impl_plan_t");

static int same_config(const gb_config_t *a, const gb_config_t *b)
{
    if (a->family != b->family || a->preset != b->preset || a->params.count != b->params.count)
        return 0;
    for (size_t i = 0; i < a->params.count; i++)
        if (a->params.value[i] != b->params.value[i] ||
            strcmp(a->params.name[i], b->params.name[i]))
            return 0;
    return 1;
}

/* Field by field, the scalars by their bits: the route carries them to the kernel's arguments. */
static int same_problem(const gb_problem_t *a, const gb_problem_t *b)
{
    return a->precision == b->precision && a->layout == b->layout && a->trans_a == b->trans_a &&
           a->trans_b == b->trans_b && a->m == b->m && a->n == b->n && a->k == b->k &&
           !memcmp(&a->alpha, &b->alpha, sizeof a->alpha) &&
           !memcmp(&a->beta, &b->beta, sizeof a->beta) && a->lda == b->lda && a->ldb == b->ldb &&
           a->ldc == b->ldc && a->off_a == b->off_a && a->off_b == b->off_b &&
           a->off_c == b->off_c && !memcmp(&a->alpha_im, &b->alpha_im, sizeof a->alpha_im) &&
           !memcmp(&a->beta_im, &b->beta_im, sizeof a->beta_im) && a->conj_a == b->conj_a &&
           a->conj_b == b->conj_b;
}

int gb__kernel_plan(gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p, char *msg,
                    size_t msglen)
{
    /* Planned here and copied in: the plan's storage is bytes, not a kept_t. */
    kept_t k;
    memset(&k, 0, sizeof k);
    const int rc = gb__route_plan(&im->config, p, dev, &k.route, msg, msglen);
    if (rc != GB_OK)
        return rc;
    k.config = im->config;
    k.problem = *p;
    gb__route_device(dev, &k.dev);
    memcpy(im->plan.u.bytes, &k, sizeof k);
    im->plan.planned = 1;
    return GB_OK;
}

int gb__kernel_route(const gb_impl_t *im, const gb_device_info_t *dev, const gb_problem_t *p,
                     int limits, gb_route_t *r, char *msg, size_t msglen)
{
    if (im->plan.planned) {
        kept_t k;
        gb_route_device_t d;
        memcpy(&k, im->plan.u.bytes, sizeof k);
        gb__route_device(dev, &d);
        if (same_config(&k.config, &im->config) && same_problem(&k.problem, p) &&
            gb__route_device_same(&k.dev, &d, limits)) {
            *r = k.route;
            return GB_OK;
        }
    }
    return gb__route_plan(&im->config, p, dev, r, msg, msglen);
}
