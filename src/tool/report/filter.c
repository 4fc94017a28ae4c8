/* filter.c: what a report takes (--kernel, --device, --precision, --timing): the points that
 * collect.c groups into rows, the tuning rows of tuning.c, and the filter said in words. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "report_int.h"

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return n == 0;
}

/* Is kernel, preset or family (the last two may be NULL) in the comma-separated list? */
static int kernel_matches(const char *list, const char *kernel, const char *preset,
                          const char *family)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
        if (!strcasecmp(t, kernel) || (preset && !strcasecmp(t, preset)) ||
            (family && !strcasecmp(t, family)))
            return 1;
    return 0;
}

int gb_report__selects(const gb_report_t *r, const gb_point_t *pt)
{
    if (r->precision >= 0 && (int)pt->problem.precision != r->precision)
        return 0;
    if (r->timing >= 0 && (int)pt->timing != r->timing)
        return 0;
    if (r->device && !contains_nocase(pt->device.name, r->device) &&
        !contains_nocase(pt->device.platform, r->device))
        return 0;
    return !r->kernels || kernel_matches(r->kernels, pt->kernel, pt->preset, pt->family);
}

int gb_report__takes(const gb_report_t *r, const char *device, const char *platform,
                     gb_precision_t precision, const char *kernel)
{
    if (r->precision >= 0 && (int)precision != r->precision)
        return 0;
    if (r->device && !contains_nocase(device, r->device) && !contains_nocase(platform, r->device))
        return 0;
    return !r->kernels || kernel_matches(r->kernels, kernel, NULL, NULL);
}

const char *gb_report_filter_text(const gb_report_t *r, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    if (r->kernels)
        n += (size_t)snprintf(buf + n, len - n, "--kernel %s ", r->kernels);
    if (r->device && n < len)
        n += (size_t)snprintf(buf + n, len - n, "--device '%s' ", r->device);
    if (r->precision >= 0 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "--precision %s ",
                              gb_precision_name((gb_precision_t)r->precision));
    if (r->timing >= 0 && n < len)
        n += (size_t)snprintf(buf + n, len - n, "--timing %s ",
                              gb_timing_name((gb_timing_t)r->timing));
    if (n == 0)
        snprintf(buf, len, "none");
    else if (n < len)
        buf[n - 1] = '\0';
    return buf;
}
