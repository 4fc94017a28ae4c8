/* simulate.c: a strategy run against a recorded space (recorded.h): each configuration it asks
 * for is "measured" by looking up its recorded score, so strategies can be compared, and tuned,
 * without a device. */
#include <stdlib.h>

#include "rt/util/util.h"
#include "recorded.h"
#include "strategy.h"

int gb_simulate(const gb_recorded_t *rec, const gb_space_t *sp, const char *strategy, uint64_t seed,
                size_t budget, size_t lookahead, double *trace, size_t *done, char *msg,
                size_t msglen)
{
    *done = 0;
    if (lookahead < 1)
        lookahead = 1;
    gb_space_cand_t *ring = malloc(lookahead * sizeof *ring);
    if (!ring)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    gb_strategy_t *st;
    const int rc = gb_strategy_open(&st, strategy, sp, seed, msg, msglen);
    if (rc != GB_OK) {
        free(ring);
        return rc;
    }
    /* As a tuning run does (tune.c): asks run up to lookahead ahead of the tells, and tells come
     * in the order of the asks. */
    double best = 0;
    size_t asked = 0, head = 0, count = 0;
    for (;;) {
        while (count < lookahead && asked < budget &&
               gb_strategy_ask(st, &ring[(head + count) % lookahead])) {
            count++;
            asked++;
        }
        if (!count)
            break;
        const gb_space_cand_t *c = &ring[head];
        const double score = gb_recorded_score(rec, sp, c);
        gb_strategy_tell(st, c, score);
        if (*done == 0 || score > best)
            best = score;
        trace[(*done)++] = best;
        head = (head + 1) % lookahead;
        count--;
    }
    gb_strategy_close(st);
    free(ring);
    return GB_OK;
}
