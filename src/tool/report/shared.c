/* shared.c: small pieces every output format uses: a number or a problem as JSON (the tables and
 * the tuning view), and what a finished write returns. Below the writers, so none calls another
 * for them. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>

#include "report_int.h"

cJSON *gb_report__json_num(double v)
{
    return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

void gb_report__json_problem(cJSON *o, gb_precision_t prec, const char *layout, size_t m, size_t n,
                             size_t k)
{
    cJSON_AddStringToObject(o, "precision", gb_precision_name(prec));
    cJSON_AddStringToObject(o, "layout", layout);
    cJSON_AddNumberToObject(o, "m", (double)m);
    cJSON_AddNumberToObject(o, "n", (double)n);
    cJSON_AddNumberToObject(o, "k", (double)k);
}

int gb_report__written(FILE *f, int rc, char *msg, size_t msglen)
{
    if (rc == GB_OK && ferror(f))
        rc = GB_EIO;
    if (rc != GB_OK)
        snprintf(msg, msglen, "%s",
                 rc == GB_ENOMEM ? "out of memory" : "writing the report failed");
    return rc;
}
