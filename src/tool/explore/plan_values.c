/* plan_values.c: the scalar value syntax every plan key shares (plan.c, plan_bench.c): whole
 * integers, integers in a range, finite numbers. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "plan_int.h"

int gb_plan__parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE)
        return 0;
    *out = v;
    return 1;
}

int gb_plan__parse_int(const char *text, long lo, long hi, int *out, const char *label, char *msg,
                       size_t msglen)
{
    long v;
    if (!gb_plan__parse_long(text, &v) || v < lo || v > hi)
        return gb__fail(msg, msglen, GB_EBADARG, "%s must be an integer from %ld to %ld, got '%s'",
                        label, lo, hi, text);
    *out = (int)v;
    return GB_OK;
}

int gb_plan__parse_finite(const char *text, double *out, const char *label, char *msg,
                          size_t msglen)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end || errno == ERANGE || !isfinite(v))
        return gb__fail(msg, msglen, GB_EBADARG, "%s must be a finite number, got '%s'", label,
                        text);
    *out = v;
    return GB_OK;
}
