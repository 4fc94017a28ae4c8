/* objective.c: a tuning's objective and the scores it gives points and entries (objective.h). */
#include <stdio.h>
#include <string.h>

#include "objective.h"
#include "winner.h"

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
    const double gflop_per_j = 2.0 * (double)e->m * (double)e->n * (double)e->k / e->joules * 1e-9;
    return o == GB_OBJ_ENERGY ? gflop_per_j : e->gflops * gflop_per_j;
}
