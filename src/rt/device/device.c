/* device.c: OpenCL platform and device enumeration, device facts, the facts the peak-FLOP/s
 * formula reads (the formula itself: peak.c) and device selection by index, name or type. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rt/core/core.h"
#include "context.h"
#include "peak.h"

#define CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
/* cl_intel_device_attribute_query and cl_amd_device_attribute_query, which older headers lack. */
#define CL_DEVICE_IP_VERSION_INTEL_GB 0x4250
#define CL_DEVICE_NUM_SLICES_INTEL_GB 0x4252
#define CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL_GB 0x4253
#define CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL_GB 0x4254
#define CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD_GB 0x4040
#define CL_DEVICE_SIMD_WIDTH_AMD_GB 0x4041

static void info_str(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = '\0';
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS)
        snprintf(buf, len, "?");
    buf[len - 1] = '\0';
}

static cl_uint info_uint(cl_device_id d, cl_device_info what)
{
    cl_uint v = 0;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

static cl_ulong info_ulong(cl_device_id d, cl_device_info what)
{
    cl_ulong v = 0;
    if (clGetDeviceInfo(d, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

/* The facts beyond di that tables read (peak.h): the device's type and vendor, NVIDIA's compute
 * capability, Intel's graphics IP version and EU count, AMD's SIMDs and target; then the peak
 * formula and what a kernel's local arrays may take (peak.c). */
static void peak_formula(gb_device_info_t *di, cl_device_id d, cl_device_type type)
{
    gb_peak_facts_t f;
    memset(&f, 0, sizeof f);
    f.gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    f.cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    f.vendor_id = info_uint(d, CL_DEVICE_VENDOR_ID);
    if (gb_device_has_extension(di, "cl_nv_device_attribute_query")) {
        f.nv_major = info_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV);
        f.nv_minor = info_uint(d, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV);
    }
    if (gb_device_has_extension(di, "cl_intel_device_attribute_query")) {
        const cl_uint ip = info_uint(d, CL_DEVICE_IP_VERSION_INTEL_GB);
        f.intel_ip_major = ip >> 22;
        f.intel_ip_minor = (ip >> 12) & 0x3ffu;
        f.intel_eus = info_uint(d, CL_DEVICE_NUM_SLICES_INTEL_GB) *
                      info_uint(d, CL_DEVICE_NUM_SUB_SLICES_PER_SLICE_INTEL_GB) *
                      info_uint(d, CL_DEVICE_NUM_EUS_PER_SUB_SLICE_INTEL_GB);
    }
    if (gb_device_has_extension(di, "cl_amd_device_attribute_query")) {
        f.amd_simd_per_cu = info_uint(d, CL_DEVICE_SIMD_PER_COMPUTE_UNIT_AMD_GB);
        f.amd_simd_width = info_uint(d, CL_DEVICE_SIMD_WIDTH_AMD_GB);
    }
    /* ROCm names a device by its target: "gfx90a:sramecc+:xnack-". */
    const char *gfx = strstr(di->name, "gfx");
    if (gfx)
        snprintf(f.amd_target, sizeof f.amd_target, "%.*s", (int)strspn(gfx, "gfx0123456789abcdef"),
                 gfx);
    gb__peak_formula(di, &f);
    di->local_mem_kernel = gb__kernel_local_mem(di, &f);
}

/* Image facts for kernels that read operands as image2d_t. A 2D image over a buffer is core in
 * OpenCL 2.x, optional in 3.0 (where a pitch alignment of 0 says it is missing), and an
 * extension before; the version string reads "OpenCL X.Y ...". */
static void image_info(gb_device_info_t *di, cl_device_id d)
{
    cl_bool img = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL);
    di->image_support = img == CL_TRUE;
    if (!di->image_support)
        return;
    di->image_pitch_align = info_uint(d, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
    clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof di->image2d_max[0], &di->image2d_max[0],
                    NULL);
    clGetDeviceInfo(d, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof di->image2d_max[1], &di->image2d_max[1],
                    NULL);
    int major = 0;
    if (sscanf(di->version, "OpenCL %d.", &major) != 1)
        major = 0;
    di->image2d_from_buffer = gb_device_has_extension(di, "cl_khr_image2d_from_buffer") ||
                              (major >= 2 && di->image_pitch_align > 0);
}

void gb__device_fill(gb_device_info_t *di, cl_platform_id pf, cl_device_id d)
{
    clGetPlatformInfo(pf, CL_PLATFORM_NAME, sizeof di->platform_name, di->platform_name, NULL);
    clGetPlatformInfo(pf, CL_PLATFORM_VERSION, sizeof di->platform_version, di->platform_version,
                      NULL);
    di->platform_name[sizeof di->platform_name - 1] = '\0';
    di->platform_version[sizeof di->platform_version - 1] = '\0';
    info_str(d, CL_DEVICE_NAME, di->name, sizeof di->name);
    info_str(d, CL_DEVICE_VENDOR, di->vendor, sizeof di->vendor);
    info_str(d, CL_DRIVER_VERSION, di->driver, sizeof di->driver);
    info_str(d, CL_DEVICE_VERSION, di->version, sizeof di->version);
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    di->type_name = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
                    : (type & CL_DEVICE_TYPE_CPU)         ? "cpu"
                    : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                          : "other";
    di->compute_units = info_uint(d, CL_DEVICE_MAX_COMPUTE_UNITS);
    di->clock_mhz = info_uint(d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
    di->global_mem = info_ulong(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    di->local_mem = info_ulong(d, CL_DEVICE_LOCAL_MEM_SIZE);
    di->max_alloc = info_ulong(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof di->max_wg_size, &di->max_wg_size,
                    NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof di->max_wi_sizes, di->max_wi_sizes,
                    NULL);
    di->pref_vec_float = info_uint(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT);
    di->pref_vec_double = info_uint(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE);
    di->native_vec_float = info_uint(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT);
    di->native_vec_double = info_uint(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE);
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    size_t n = 0;
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n);
    di->extensions = calloc(n + 1, 1);
    if (di->extensions && n)
        clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, di->extensions, NULL);
    di->fp64 = fp != 0 || gb_device_has_extension(di, "cl_khr_fp64");
    /* Deprecated since OpenCL 2.0 but still answered; a CPU device works in host memory
     * whatever it says. */
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    di->host_unified = unified == CL_TRUE || (type & CL_DEVICE_TYPE_CPU) != 0;
    image_info(di, d);
    /* Lets the tests exercise the no-fp64 and separate-memory paths on a device that has fp64
     * and shares the host's memory. */
    const char *no64 = getenv("GEMMBENCH_DISABLE_FP64");
    if (no64 && *no64 && strcmp(no64, "0") != 0)
        di->fp64 = 0;
    const char *apart = getenv("GEMMBENCH_DISABLE_HOST_UNIFIED");
    if (apart && *apart && strcmp(apart, "0") != 0)
        di->host_unified = 0;
    gb__device_family(di, d);
    /* Lets the tests stand a device in for another of its family (a sibling) under a name of
     * their choice. */
    const char *rename = getenv("GEMMBENCH_RENAME_DEVICE");
    if (rename && *rename)
        snprintf(di->name, sizeof di->name, "%s", rename);
    di->cl_platform = pf;
    di->cl_device = d;
    peak_formula(di, d, type);
}

int gb_device_list(gb_device_info_t **out, size_t *count, char *msg, size_t msglen)
{
    *out = NULL;
    *count = 0;
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &np);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || np == 0)
        return GB_OK;
    if (err != CL_SUCCESS)
        return gb__fail(msg, msglen, GB_EOPENCL, "clGetPlatformIDs failed (%d)", err);
    cl_platform_id *pfs = calloc(np, sizeof *pfs);
    if (!pfs)
        return GB_ENOMEM;
    clGetPlatformIDs(np, pfs, NULL);
    gb_device_info_t *list = NULL;
    size_t total = 0;
    int rc = GB_OK;
    for (cl_uint p = 0; p < np; p++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(pfs[p], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS || nd == 0)
            continue;
        gb_device_info_t *grown = realloc(list, (total + nd) * sizeof *list);
        if (!grown) {
            rc = GB_ENOMEM;
            break;
        }
        list = grown;
        cl_device_id *ds = calloc(nd, sizeof *ds);
        if (!ds) {
            rc = GB_ENOMEM;
            break;
        }
        clGetDeviceIDs(pfs[p], CL_DEVICE_TYPE_ALL, nd, ds, NULL);
        for (cl_uint i = 0; i < nd; i++) {
            gb_device_info_t *di = &list[total++];
            memset(di, 0, sizeof *di);
            di->platform_index = p;
            di->device_index = i;
            gb__device_fill(di, pfs[p], ds[i]);
        }
        free(ds);
    }
    free(pfs);
    if (rc != GB_OK) {
        gb_device_list_free(list, total);
        return gb__fail(msg, msglen, rc, "out of memory listing devices");
    }
    *out = list;
    *count = total;
    return GB_OK;
}

void gb_device_list_free(gb_device_info_t *list, size_t count)
{
    if (!list)
        return;
    for (size_t i = 0; i < count; i++)
        free(list[i].extensions);
    free(list);
}

int gb_device_type_parse(const char *s, gb_device_type_t *out)
{
    static const struct {
        const char *name;
        gb_device_type_t type;
    } names[] = {
        {"all", GB_DEVTYPE_ALL}, {"cpu", GB_DEVTYPE_CPU},         {"gpu", GB_DEVTYPE_GPU},
        {"acc", GB_DEVTYPE_ACC}, {"accelerator", GB_DEVTYPE_ACC}, {"default", GB_DEVTYPE_DEFAULT},
    };
    /* The OpenCL constant's name too, as Intel's samples take it: CL_DEVICE_TYPE_GPU. */
    if (!strncasecmp(s, "CL_DEVICE_TYPE_", 15) && s[15])
        s += 15;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(s, names[i].name)) {
            *out = names[i].type;
            return GB_OK;
        }
    return GB_EBADARG;
}

static int is_index(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return 0;
}

static int type_matches(const gb_device_info_t *d, gb_device_type_t t)
{
    switch (t) {
    case GB_DEVTYPE_CPU: return !strcmp(d->type_name, "cpu");
    case GB_DEVTYPE_GPU: return !strcmp(d->type_name, "gpu");
    case GB_DEVTYPE_ACC: return !strcmp(d->type_name, "accelerator");
    default: return 1;
    }
}

int gb_device_select(const gb_device_info_t *list, size_t count, const gb_device_selector_t *sel,
                     size_t *index, char *msg, size_t msglen)
{
    if (count == 0)
        return gb__fail(
            msg, msglen, GB_ENOPLATFORM,
            "no OpenCL platform found; install one (scripts/install-deps.sh installs PoCL)");
    const char *pf = sel->platform, *dv = sel->device;
    /* With no choice at all the default is PoCL, the CPU device every machine has. */
    if (!pf && !dv && sel->type == GB_DEVTYPE_ALL) {
        for (size_t i = 0; i < count; i++)
            if (contains_nocase(list[i].platform_name, "portable computing language")) {
                *index = i;
                return GB_OK;
            }
        *index = 0;
        return GB_OK;
    }
    int platform_seen = pf == NULL;
    for (size_t i = 0; i < count; i++) {
        const gb_device_info_t *d = &list[i];
        if (pf && !(is_index(pf) ? (size_t)atol(pf) == d->platform_index
                                 : contains_nocase(d->platform_name, pf)))
            continue;
        platform_seen = 1;
        if (!type_matches(d, sel->type))
            continue;
        if (dv) {
            if (is_index(dv)) {
                /* The index counts devices of the chosen type within the platform. */
                size_t k = 0;
                for (size_t j = 0; j < i; j++)
                    k += list[j].platform_index == d->platform_index &&
                         type_matches(&list[j], sel->type);
                if (k != (size_t)atol(dv))
                    continue;
            } else if (!contains_nocase(d->name, dv)) {
                continue;
            }
        }
        *index = i;
        return GB_OK;
    }
    if (!platform_seen)
        return gb__fail(msg, msglen, GB_ENOPLATFORM, "no OpenCL platform matches '%s'", pf);
    return gb__fail(msg, msglen, GB_ENODEVICE, "no OpenCL device matches%s%s%s%s", dv ? " '" : "",
                    dv ? dv : "", dv ? "'" : "",
                    sel->type == GB_DEVTYPE_ALL || sel->type == GB_DEVTYPE_DEFAULT
                        ? ""
                        : " of the requested type");
}
