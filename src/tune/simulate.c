/* simulate.c: a strategy run against a recorded space (recorded.h): each configuration it asks
 * for is "measured" by looking up its recorded score, so strategies can be compared, and tuned,
 * without a device. */
#include "../util/util.h"
#include "recorded.h"
#include "strategy.h"

int gb_simulate(const gb_recorded_t *rec, const gb_space_t *sp, const char *strategy, uint64_t seed,
                size_t budget, double *trace, size_t *done, char *msg, size_t msglen)
{
    *done = 0;
    gb_strategy_t *st;
    const int rc = gb_strategy_open(&st, strategy, sp, seed, msg, msglen);
    if (rc != GB_OK)
        return rc;
    double best = 0;
    gb_space_cand_t c;
    for (size_t i = 0; i < budget && gb_strategy_ask(st, &c); i++) {
        const double score = gb_recorded_score(rec, sp, &c);
        gb_strategy_tell(st, &c, score);
        if (i == 0 || score > best)
            best = score;
        trace[i] = best;
        *done = i + 1;
    }
    gb_strategy_close(st);
    return GB_OK;
}
