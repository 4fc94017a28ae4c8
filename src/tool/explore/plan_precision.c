/* plan_precision.c: the plan's precisions (the keys precision and accumulate) and the checks of
 * the options that only some precisions take (conjugation, complex scalars, FP16 sums). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "plan_int.h"

/* "precision": a list of s, d, h, b, c, z, hh, or all. */
static int set_precisions(gb_explore_plan_t *pl, const char *value, const char *label, char *msg,
                          size_t msglen)
{
    unsigned mask = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", value);
    int all = 0;
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
        gb_precision_t p;
        if (!strcmp(t, "all")) {
            all = 1;
            mask |= GB_PREC_ALL;
            continue;
        }
        if (gb_precision_parse(t, &p) != GB_OK)
            return gb__fail(
                msg, msglen, GB_EBADPRECISION,
                "%s: unknown precision '%s'; use s, d, h, b, c, z, a list of them (s,d) "
                "or all",
                label, t);
        mask |= 1u << p;
    }
    if (!mask || strlen(value) >= sizeof buf)
        return gb__fail(msg, msglen, GB_EBADPRECISION,
                        "%s: give s, d, h, b, c, z, a list of them (s,d) or all, got '%s'", label,
                        value);
    pl->precisions = mask;
    pl->all_precisions = all;
    return GB_OK;
}

int gb_plan_check_complex(const gb_explore_plan_t *pl, char *msg, size_t msglen)
{
    const unsigned cplx = (1u << GB_PREC_C) | (1u << GB_PREC_Z);
    const unsigned mask = pl->precisions ? pl->precisions : 1u << GB_PREC_S;
    const gb_problem_t *b = &pl->base;
    if (!(mask & ~cplx))
        return GB_OK;
    char have[32];
    gb_precision_mask_text(mask & ~cplx, have, sizeof have);
    if ((b->conj_a && b->trans_a == GB_TRANS) || (b->conj_b && b->trans_b == GB_TRANS))
        return gb__fail(msg, msglen, GB_EBADTRANS,
                        "conjugate transposition C needs a complex precision, and %s is real; "
                        "use T, or --precision c or z",
                        have);
    if (b->alpha_im != 0.0 || b->beta_im != 0.0)
        return gb__fail(msg, msglen, GB_EBADSCALAR,
                        "alpha and beta have no imaginary part in precision %s; give one number, "
                        "or --precision c or z",
                        have);
    return GB_OK;
}

int gb_plan_apply_accumulate(gb_explore_plan_t *pl, char *msg, size_t msglen)
{
    if (!pl->accumulate_h)
        return GB_OK;
    const unsigned h = 1u << GB_PREC_H, hh = 1u << GB_PREC_HH;
    if (pl->all_precisions || !pl->precisions || (pl->precisions & ~(h | hh))) {
        char have[32] = "each kernel's own";
        if (pl->precisions && !pl->all_precisions)
            gb_precision_mask_text(pl->precisions & ~(h | hh), have, sizeof have);
        return gb__fail(msg, msglen, GB_EBADPRECISION,
                        "--accumulate h sums in FP16, which only FP16 storage has, and the "
                        "precision asked is %s; use --precision h (or --accumulate s)",
                        pl->all_precisions ? "all" : have);
    }
    pl->precisions = hh;
    return GB_OK;
}

/* "accumulate": s (the precision's own sums, FP32 for h and b) or h (FP16 sums for h). */
static int set_accumulate(gb_explore_plan_t *pl, const char *value, const char *label, char *msg,
                          size_t msglen)
{
    if (!strcasecmp(value, "s") || !strcasecmp(value, "fp32"))
        pl->accumulate_h = 0;
    else if (!strcasecmp(value, "h") || !strcasecmp(value, "fp16"))
        pl->accumulate_h = 1;
    else
        return gb__fail(msg, msglen, GB_EBADPRECISION,
                        "%s: unknown accumulation '%s'; use s (FP32 sums, the default) or h "
                        "(FP16 sums, with --precision h)",
                        label, value);
    return GB_OK;
}

int gb_plan__set_precision(gb_explore_plan_t *pl, const char *key, const char *value,
                           const char *label, char *msg, size_t msglen)
{
    if (!strcmp(key, "precision"))
        return set_precisions(pl, value, label, msg, msglen);
    if (!strcmp(key, "accumulate"))
        return set_accumulate(pl, value, label, msg, msglen);
    return 1;
}
