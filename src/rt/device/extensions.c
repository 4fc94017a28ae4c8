/* extensions.c: whether a device advertises an OpenCL extension (gemmbench.h), for the facts
 * that depend on one: fp64, the family, the peak. */
#include <string.h>

#include "gemmbench.h"

int gb_device_has_extension(const gb_device_info_t *d, const char *ext)
{
    size_t n = strlen(ext);
    for (const char *p = d->extensions; p && (p = strstr(p, ext)) != NULL; p += n)
        if ((p == d->extensions || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}
