/* objective.h: what a tuning minimises (docs/tuning.md, "Objectives"): the time per GEMM (the
 * default), the energy per GEMM, or their product (the energy-delay product, EDP). Each is
 * turned into a score where higher is better, so that the strategies and the winner's choice
 * stay as they are: GFLOP/s for time, GFLOP/J for energy (flop over joules per GEMM: the
 * energy loop's GFLOP/s per watt), and GFLOP/s x GFLOP/J for EDP (flop^2 over E x t, so one
 * over the EDP at a fixed shape). */
#ifndef GB_TUNE_OBJECTIVE_H
#define GB_TUNE_OBJECTIVE_H

#include "gemmbench_tuning.h"
#include "tool/store/store.h"

typedef enum gb_objective { GB_OBJ_TIME = 0, GB_OBJ_ENERGY, GB_OBJ_EDP } gb_objective_t;

/* "time", "energy", "edp" (the entries' names, gemmbench_tuning.h). */
const char *gb_objective_name(gb_objective_t o);
/* s as an objective: GB_OK, or GB_EBADARG for anything but time, energy or edp. */
int gb_objective_parse(const char *s, gb_objective_t *o);
/* The unit of o's score: "GFLOP/s", "GFLOP/J", "GFLOP/s x GFLOP/J". */
const char *gb_objective_unit(gb_objective_t o);
/* Whether o needs the energy loop. */
int gb_objective_needs_energy(gb_objective_t o);

/* A stored point as a candidate's rate: its GFLOP/s and GB_OK when it validated, else -1 and
 * GB_EVALIDATION (or why it was not validated) with the reason. gb_objective_score scores it
 * under an objective. */
void gb_leaders_score(const gb_point_t *pt, double *gflops, int *code, char *reason, size_t len);

/* A stored point's score under o (gb_leaders_score's verdict first: a point that did not
 * validate, or is not faithful, cannot win): its score and GB_OK, or -1 with the code and the
 * reason; GB_ENOENERGY where o needs energy and the point has none (energy_why says why). */
void gb_objective_score(gb_objective_t o, const gb_point_t *pt, double *score, int *code,
                        char *reason, size_t len);
/* An entry's score under o from its rate, joules and shape; -1 where o needs the energy it
 * lacks. */
double gb_objective_entry_score(gb_objective_t o, const gb_tuned_entry_t *e);

#endif
