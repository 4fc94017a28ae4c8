/* family.c: a device's family (gb_device_info_t.family), the key under which tuning travels
 * between devices of one architecture (docs/tuning.md, "Device families"): what the driver says
 * of the architecture where it says it, else the vendor, the type and the device's name. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rt/core/core.h"
#include "context.h"

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CL_DEVICE_GFXIP_MAJOR_AMD 0x404A
#define CL_DEVICE_GFXIP_MINOR_AMD 0x404B
#define CL_DEVICE_IP_VERSION_INTEL 0x4250

/* s in lower case, each run of characters other than letters and digits one '-', "(R)" and
 * "(TM)" left out, appended to buf at *used after a '-' where buf holds something. */
static void append_normal(char *buf, size_t len, size_t *used, const char *s)
{
    int dash = *used > 0 && buf[*used - 1] != '-';
    for (; *s && *used + 1 < len; s++) {
        if (!strncasecmp(s, "(r)", 3) || !strncasecmp(s, "(tm)", 4)) {
            s += s[2] == ')' ? 2 : 3;
            continue;
        }
        if (!isalnum((unsigned char)*s)) {
            dash = *used > 0;
            continue;
        }
        if (dash && *used + 2 < len)
            buf[(*used)++] = '-';
        dash = 0;
        buf[(*used)++] = (char)tolower((unsigned char)*s);
    }
    buf[*used] = '\0';
}

static int query_uint(cl_device_id d, cl_device_info what, cl_uint *v)
{
    return clGetDeviceInfo(d, what, sizeof *v, v, NULL) == CL_SUCCESS;
}

/* PoCL's CPU device names its LLVM target in CL_DEVICE_VERSION: "OpenCL 3.0 PoCL HSTR:
 * pthread-x86_64-pc-linux-gnu-skylake-avx512": the driver, the four parts of the triple, then
 * the CPU. */
static int pocl_cpu(const gb_device_info_t *di, char *cpu, size_t len)
{
    const char *h = strstr(di->version, "HSTR: ");
    if (!h)
        return 0;
    h += 6;
    for (int dashes = 0; dashes < 5; h++) {
        if (!*h)
            return 0;
        dashes += *h == '-';
    }
    snprintf(cpu, len, "%.*s", (int)strcspn(h, " "), h);
    return cpu[0] != '\0';
}

void gb__device_family(gb_device_info_t *di, cl_device_id d)
{
    char *f = di->family;
    const size_t len = sizeof di->family;
    size_t used = 0;
    cl_uint major = 0, minor = 0;
    char cpu[48];
    f[0] = '\0';
    if (gb_device_has_extension(di, "cl_nv_device_attribute_query") &&
        query_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, &major) &&
        query_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, &minor)) {
        snprintf(f, len, "nvidia-sm_%u%u", major, minor);
    } else if (!strncmp(di->name, "gfx", 3)) {
        /* ROCm names the device by its ISA: "gfx90a:sramecc+:xnack-". */
        snprintf(f, len, "amd-%.*s", (int)strcspn(di->name, ":"), di->name);
    } else if (gb_device_has_extension(di, "cl_amd_device_attribute_query") &&
               query_uint(d, CL_DEVICE_GFXIP_MAJOR_AMD, &major) &&
               query_uint(d, CL_DEVICE_GFXIP_MINOR_AMD, &minor)) {
        snprintf(f, len, "amd-gfxip%u.%u", major, minor);
    } else if (gb_device_has_extension(di, "cl_intel_device_attribute_query") &&
               query_uint(d, CL_DEVICE_IP_VERSION_INTEL, &major)) {
        /* A cl_version: major 10 bits, minor 10, patch 12; major.minor names the architecture. */
        snprintf(f, len, "intel-%s-ip%u.%u", di->type_name, major >> 22, (major >> 12) & 0x3ff);
    } else if (strstr(di->platform_name, "Portable Computing Language") &&
               !strcmp(di->type_name, "cpu") && pocl_cpu(di, cpu, sizeof cpu)) {
        snprintf(f, len, "pocl-cpu-%s", cpu);
    } else {
        /* The vendor's first word, the type, the name. */
        char vendor[32];
        snprintf(vendor, sizeof vendor, "%.*s", (int)strcspn(di->vendor, " ,"), di->vendor);
        append_normal(f, len, &used, vendor);
        append_normal(f, len, &used, di->type_name);
        append_normal(f, len, &used, di->name);
    }
}
