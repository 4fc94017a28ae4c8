/* objective.c: a tuning's objective and the scores it gives points and entries (objective.h). */
#include <stdio.h>
#include <string.h>

#include "objective.h"

static const char *const names[] = {GB_OBJECTIVE_TIME, GB_OBJECTIVE_ENERGY, GB_OBJECTIVE_EDP};
static const char *const units[] = {"GFLOP/s", "GFLOP/J", "GFLOP/s x GFLOP/J"};

const char *gb_objective_name(gb_objective_t o)
{
    return (unsigned)o <= GB_OBJ_EDP ? names[o] : "?";
}

int gb_objective_parse(const char *s, gb_objective_t *o)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i])) {
            *o = (gb_objective_t)i;
            return GB_OK;
        }
    return GB_EBADARG;
}

const char *gb_objective_unit(gb_objective_t o)
{
    return (unsigned)o <= GB_OBJ_EDP ? units[o] : "?";
}

int gb_objective_needs_energy(gb_objective_t o)
{
    return o != GB_OBJ_TIME;
}

void gb_leaders_score(const gb_point_t *pt, double *gflops, int *code, char *reason, size_t len)
{
    const gb_validation_t *v = &pt->result.validation;
    reason[0] = '\0';
    /* Not faithful: within the bound, but computing worse than the precision does honestly
     * (inputs rounded to TF32, say); a tuner that picked it would trade accuracy silently. */
    const int faithful = strcmp(v->faithful, "not faithful") != 0;
    if (v->done && v->passed && faithful) {
        *gflops = pt->result.gflops;
        *code = GB_OK;
        return;
    }
    *gflops = -1;
    *code = GB_EVALIDATION;
    if (v->done && v->passed)
        snprintf(reason, len,
                 "not faithful: its worst error on the sample is %.3g u*G, %.3g times an honest "
                 "computation's in the precision (docs/methodology.md)",
                 v->faithful_worst, gb_faithful_ratio(v));
    else if (v->done)
        snprintf(reason, len,
                 "failed validation: max |C-Cref|/(u*G) %.3g over the bound %.3g (%zu elements "
                 "over, %zu not finite, %zu canaries touched)",
                 v->max_ratio, v->bound_ratio, v->n_over, v->n_nonfinite, v->n_canary);
    else
        snprintf(reason, len, "not validated (%s): a candidate must be validated to win",
                 v->reason);
}

void gb_objective_score(gb_objective_t o, const gb_point_t *pt, double *score, int *code,
                        char *reason, size_t len)
{
    gb_leaders_score(pt, score, code, reason, len);
    if (*code != GB_OK || !gb_objective_needs_energy(o))
        return;
    const gb_result_t *r = &pt->result;
    if (!(r->gflops_per_watt > 0)) {
        *score = -1;
        *code = GB_ENOENERGY;
        snprintf(reason, len, "no energy for --objective %s: %s", gb_objective_name(o),
                 r->energy_why[0] ? r->energy_why : "not measured");
        return;
    }
    *score = o == GB_OBJ_ENERGY ? r->gflops_per_watt : r->gflops * r->gflops_per_watt;
}

double gb_objective_entry_score(gb_objective_t o, const gb_tuned_entry_t *e)
{
    if (!gb_objective_needs_energy(o))
        return e->gflops;
    if (!(e->joules > 0))
        return -1;
    gb_problem_t p; /* the entry's shape, for its FLOPs: 8 M N K for a complex precision */
    gb_problem_init(&p, e->precision, e->m, e->n, e->k);
    const double gflop_per_j = gb_problem_flops(&p) / e->joules * 1e-9;
    return o == GB_OBJ_ENERGY ? gflop_per_j : e->gflops * gflop_per_j;
}
