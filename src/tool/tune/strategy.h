/* strategy.h: search strategies over a tuning space (gb_space_t), asked for candidates and told
 * their scores one at a time, so that the same strategy drives a real tuning run (src/tool/tune/tune.c)
 * and a simulation over a recorded space (simulate.c). Deterministic: the same space, seed and
 * scores (asked and told in the same order) give the same sequence of candidates. Prints
 * nothing. What each strategy does, and why: docs/tuning.md, "Strategies". A strategy is used
 * by one thread at a time. */
#ifndef GB_STRATEGY_H
#define GB_STRATEGY_H

#include <stdint.h>

#include "gemmbench.h"

typedef struct gb_strategy gb_strategy_t;

/* The strategies by name: "exhaustive", "random", "anneal", "genetic", "bayes". */
size_t gb_strategy_count(void);
const char *gb_strategy_name(size_t i);
/* One line on what strategy i does, for --help and docs. */
const char *gb_strategy_description(size_t i);

/* Does strategy name learn from the scores told (1; also for an unknown name), or is its
 * sequence the same whatever they are (0: exhaustive, random)? */
int gb_strategy_learns(const char *name);
/* Does strategy name propose the whole space once, in a fixed order (1: exhaustive; 0 also for an
 * unknown name), so that its default budget is all of it? */
int gb_strategy_whole(const char *name);

/* Opens strategy name over sp (which must outlive it) with seed. GB_EBADARG for an unknown name,
 * msg listing the known ones; GB_ENOMEM. Close with gb_strategy_close. */
int gb_strategy_open(gb_strategy_t **out, const char *name, const gb_space_t *sp, uint64_t seed,
                     char *msg, size_t msglen);
void gb_strategy_close(gb_strategy_t *st); /* accepts NULL */
/* The next candidate into *c: 1, or 0 when the strategy has nothing left to propose (every
 * configuration of the space asked or told) or memory ran out. Never proposes a candidate
 * already asked or told, so a space of n configurations ends after n asks. */
int gb_strategy_ask(gb_strategy_t *st, gb_space_cand_t *c);
/* The score of a candidate asked (higher is better: GFLOP/s), or a negative number when it
 * could not be measured (failed to build, refused by the device, failed validation). A valid
 * configuration told without being asked (one measured before) is taken as seen and informs
 * the strategy; a second score for the same configuration, and a candidate that is not a valid
 * configuration of the space, are ignored. */
void gb_strategy_tell(gb_strategy_t *st, const gb_space_cand_t *c, double score);

#endif
