/* labels.c: how every output format names a row: its size, its verdict over repetitions, its
 * timing, its series; and the natural order that keeps "LX=2" before "LX=16". */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "report_int.h"

int gb_report__natcmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (isdigit((unsigned char)a[na]))
                na++;
            while (isdigit((unsigned char)b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

const char *gb_report__size_text(const gb_report__row_t *row, char *buf, size_t len)
{
    if (row->m == row->n && row->n == row->k)
        snprintf(buf, len, "%zu", row->n);
    else
        snprintf(buf, len, "%zux%zux%zu", row->m, row->n, row->k);
    return buf;
}

const char *gb_report__verdict(const gb_report__row_t *row, char *buf, size_t len)
{
    char some[64] = "";
    if (row->nvalid && row->nvalid < row->nreps)
        snprintf(some, sizeof some, " (%zu of %zu validated)", row->nvalid, row->nreps);
    if (!row->nvalid)
        snprintf(buf, len, "-");
    else if (row->nfail)
        snprintf(buf, len, "FAIL %zu/%zu: %s%s", row->nfail, row->nvalid, row->fail_reason, some);
    else if (row->nexact == row->nvalid)
        snprintf(buf, len, "pass exact%s", some);
    else
        snprintf(buf, len, "pass %.2g/%.3g%s", row->worst, row->bound, some);
    return buf;
}

const char *gb_report__timing_text(gb_timing_t t)
{
    switch (t) {
    case GB_TIMING_KERNEL: return "the main kernel alone";
    case GB_TIMING_OFFLOAD:
        return "the whole offload: copies to and from the device, helper passes "
               "and the main kernel";
    default: return "the main kernel and its helper passes (transposition, padding)";
    }
}

const char *gb_report__series_title(const gb_report_t *r, const gb_report__row_t *row,
                                    const char *variant, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "%s", row->kernel);
    /* Only what tells series apart: a precision, timing or device where several are shown. */
    if (n < len && (r->precisions & (r->precisions - 1)))
        n += (size_t)snprintf(buf + n, len - n, " %s", gb_precision_name(row->precision));
    if (n < len && r->mixed_layouts)
        n += (size_t)snprintf(buf + n, len - n, " %s", row->layout);
    if (n < len && (r->timings & (r->timings - 1)))
        n += (size_t)snprintf(buf + n, len - n, " %s", gb_timing_name(row->timing));
    if (n < len && r->ndevs > 1)
        n += (size_t)snprintf(buf + n, len - n, " on %s", r->devs[row->dev].label);
    if (n < len && variant && variant[0])
        snprintf(buf + n, len - n, " [%s]", variant);
    return buf;
}

const gb_report__rep_t *gb_report__find_rep(const gb_report__row_t *row, unsigned rep)
{
    for (size_t i = 0; i < row->nreps; i++)
        if (row->reps[i].rep == rep)
            return &row->reps[i];
    return NULL;
}

void gb_report__strip_variant(const char *variant, int calls, char *out, size_t len)
{
    size_t n = 0;
    char buf[256];
    out[0] = '\0';
    snprintf(buf, sizeof buf, "%s", variant);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (strncmp(t, "LX=", 3) && strncmp(t, "LY=", 3) && n < len &&
            !(calls && (!strncmp(t, "warmup=", 7) || !strncmp(t, "iterations=", 11))))
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "", t);
}
