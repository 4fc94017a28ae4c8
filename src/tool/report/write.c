/* write.c: a finished report written out in the format asked for. */
#include <stdio.h>

#include "report_int.h"

int gb_report_write(const gb_report_t *r, gb_report_format_t fmt, unsigned tables, FILE *f,
                    char *msg, size_t msglen)
{
    int rc;
    if (!r->finished || !(tables & GB_REPORT_ALL)) {
        snprintf(msg, msglen, "no table chosen; use reps, lws, tuned or all");
        return GB_EBADARG;
    }
    switch (fmt) {
    case GB_REPORT_TEXT: rc = gb_report__write_text(r, tables, 0, f); break;
    case GB_REPORT_MD: rc = gb_report__write_text(r, tables, 1, f); break;
    case GB_REPORT_CSV:
        if (tables != GB_REPORT_REPS && tables != GB_REPORT_LWS && tables != GB_REPORT_TUNED) {
            snprintf(msg, msglen,
                     "a CSV file holds one table; choose --table reps or --table lws (or "
                     "--table tuned)");
            return GB_EBADARG;
        }
        rc = gb_report__write_csv(r, tables, f);
        break;
    case GB_REPORT_JSON: rc = gb_report__write_json(r, tables, f); break;
    case GB_REPORT_HTML: return gb_report__write_html(r, tables, f, msg, msglen);
    default: snprintf(msg, msglen, "unknown report format"); return GB_EBADARG;
    }
    return gb_report__written(f, rc, msg, msglen);
}
