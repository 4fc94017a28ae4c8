/* fuzz_plan.c: explore plan files (gb_plan_parse_json, src/tool/explore/planfile.c): any bytes give
 * GB_OK or a refusal (an error code of the table: GB_EBADPLAN, GB_EBADARG, ...) with a message,
 * and a plan that parses holds lists within their documented caps. */
#include <string.h>

#include "tool/explore/explore.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_explore_plan_t pl;
    char msg[1024] = "";
    gb_plan_init(&pl);
    int rc = gb_plan_parse_json(&pl, (const char *)data, size, "plan 'fuzz.json'", msg, sizeof msg);
    fuzz_assert(rc <= GB_OK && strcmp(gb_errname(rc), "GB_E?") != 0);
    if (rc != GB_OK) {
        fuzz_assert(msg[0] != '\0');
    } else {
        fuzz_assert(pl.orders.n <= GB_PLAN_MAX_LIST && pl.nlws <= GB_PLAN_MAX_LIST);
        for (int d = 0; d < 3; d++)
            fuzz_assert(pl.dim[d].n <= GB_PLAN_MAX_LIST);
        fuzz_assert(pl.nparams <= GB_MAX_PARAMS);
        for (size_t i = 0; i < pl.nparams; i++)
            fuzz_assert(pl.params[i].n <= GB_PLAN_MAX_LIST);
    }
    gb_plan_free(&pl);
    return 0;
}
