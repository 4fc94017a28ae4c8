/* plan_bench.c: the plan's keys that say how each point is measured (calls, inputs, timing,
 * host memory, pipeline, adaptive stops, validation). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan_int.h"

int gb_plan__set_bench(gb_explore_plan_t *pl, const char *key, const char *value, const char *label,
                       char *msg, size_t msglen)
{
    char why[256];
    if (!strcmp(key, "iterations"))
        return gb_plan__parse_int(value, 1, 100000, &pl->bench.iterations, label, msg, msglen);
    if (!strcmp(key, "warmup"))
        return gb_plan__parse_int(value, 0, 100000, &pl->bench.warmup, label, msg, msglen);
    if (!strcmp(key, "seed")) {
        char *end;
        errno = 0;
        unsigned long long s = strtoull(value, &end, 10);
        if (end == value || *end || value[0] == '-' || errno == ERANGE)
            return gb__fail(msg, msglen, GB_EBADARG, "%s must be a non-negative integer, got '%s'",
                            label, value);
        pl->bench.seed = s;
        return GB_OK;
    }
    if (!strcmp(key, "dist")) {
        if (gb_dist_parse(value, &pl->bench.dist, why, sizeof why) != GB_OK)
            return gb__fail(msg, msglen, GB_EBADDIST, "%s: %s", label, why);
        return GB_OK;
    }
    if (!strcmp(key, "timing")) {
        if (gb_timing_parse(value, &pl->bench.timing) != GB_OK)
            return gb__fail(msg, msglen, GB_EBADARG,
                            "%s: unknown timing '%s'; use kernel, ops or "
                            "offload",
                            label, value);
        return GB_OK;
    }
    if (!strcmp(key, "min_time") || !strcmp(key, "max_rel_ci")) {
        /* The adaptive stops (gb_bench_options_t): 0 is off. */
        double v = 0;
        const int time = key[1] == 'i';
        int rc = gb_plan__parse_finite(value, &v, label, msg, msglen);
        if (rc == GB_OK && (v < 0 || v > (time ? 3600.0 : 1.0)))
            rc = gb__fail(msg, msglen, GB_EBADARG, "%s must be from 0 (off) to %s, got '%s'", label,
                          time ? "3600 seconds" : "1 (the whole mean)", value);
        if (rc == GB_OK)
            *(time ? &pl->bench.min_time_s : &pl->bench.max_rel_ci) = v;
        return rc;
    }
    if (!strcmp(key, "cold")) {
        if (strcmp(value, "on") && strcmp(value, "off"))
            return gb__fail(msg, msglen, GB_EBADARG,
                            "%s must be on or off (true or false), got '%s'", label, value);
        pl->bench.cold = value[1] == 'n';
        return GB_OK;
    }
    if (!strcmp(key, "host_mem")) {
        if (gb_host_mem_parse(value, &pl->bench.host_mem) != GB_OK)
            return gb__fail(msg, msglen, GB_EBADARG,
                            "%s: unknown host memory '%s'; use pageable, pinned or mapped", label,
                            value);
        return GB_OK;
    }
    if (!strcmp(key, "pipeline")) {
        /* The panels, or on (the default count) and off (0: the serial offload). */
        if (!strcmp(value, "on") || !strcmp(value, "off")) {
            pl->bench.pipeline = value[1] == 'n' ? GB_PIPELINE_DEFAULT : 0;
            return GB_OK;
        }
        long v;
        if (!gb_plan__parse_long(value, &v) || (v != 0 && (v < 2 || v > GB_PIPELINE_MAX)))
            return gb__fail(msg, msglen, GB_EBADARG,
                            "%s must be a number of panels from 2 to %d (1 would overlap "
                            "nothing; 0 or off: the serial offload), got '%s'",
                            label, GB_PIPELINE_MAX, value);
        pl->bench.pipeline = (int)v;
        return GB_OK;
    }
    if (!strcmp(key, "validate")) {
        if (!strcmp(value, "auto"))
            pl->bench.validate = GB_VALIDATE_AUTO;
        else if (!strcmp(value, "on"))
            pl->bench.validate = GB_VALIDATE_ON;
        else if (!strcmp(value, "off"))
            pl->bench.validate = GB_VALIDATE_OFF;
        else
            return gb__fail(msg, msglen, GB_EBADARG, "%s must be auto, on or off, got '%s'", label,
                            value);
        return GB_OK;
    }
    return 1;
}
