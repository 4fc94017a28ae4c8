/* nvml.c: libnvidia-ml through dlopen (nvml.h). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "nvml.h"

#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009

typedef int (*nvml_init_t)(void);
typedef int (*nvml_handle_t)(const char *bus, void **dev);
typedef int (*nvml_index_t)(unsigned idx, void **dev);
typedef int (*nvml_u64_t)(void *dev, unsigned long long *v);
typedef int (*nvml_clock_t)(void *dev, int type, unsigned *mhz);
typedef int (*nvml_temp_t)(void *dev, int sensor, unsigned *c);
typedef struct {
    unsigned long long reference_ns, violation_ns;
} nvml_violation_t;
typedef int (*nvml_violation_fn_t)(void *dev, int policy, nvml_violation_t *v);

/* NVML is loaded and initialised once per process (pthread_once: contexts on several threads
 * may read it at once) and never unloaded: it runs threads of its own, and unmapping the
 * library under them (dlclose without nvmlShutdown) crashes the process. Read-only after that.
 * Readings a driver lacks stay NULL. */
static struct {
    int ok;
    nvml_handle_t by_bus;
    nvml_index_t by_index;
    nvml_u64_t energy, reasons;
    nvml_clock_t clock;
    nvml_temp_t temperature;
    nvml_violation_fn_t violation;
} nvml;
static pthread_once_t nvml_once = PTHREAD_ONCE_INIT;

static void nvml_init_once(void)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return;
    nvml_init_t init = (nvml_init_t)dlsym(lib, "nvmlInit_v2");
    nvml.by_bus = (nvml_handle_t)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.by_index = (nvml_index_t)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml.energy = (nvml_u64_t)dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
    /* The reasons' newer name, then the older one (drivers before 535). */
    nvml.reasons = (nvml_u64_t)dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.reasons)
        nvml.reasons = (nvml_u64_t)dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    nvml.clock = (nvml_clock_t)dlsym(lib, "nvmlDeviceGetClockInfo");
    nvml.temperature = (nvml_temp_t)dlsym(lib, "nvmlDeviceGetTemperature");
    nvml.violation = (nvml_violation_fn_t)dlsym(lib, "nvmlDeviceGetViolationStatus");
    nvml.ok = init && nvml.by_index && init() == 0;
}

void *gb__nvml_device(const gb_device_info_t *d, char *why, size_t whylen)
{
    pthread_once(&nvml_once, nvml_init_once);
    if (!nvml.ok) {
        snprintf(why, whylen, "NVML (libnvidia-ml.so.1) not found or not initialised");
        return NULL;
    }
    cl_uint bus = 0, slot = 0;
    char busid[32];
    void *dev = NULL;
    if (nvml.by_bus &&
        clGetDeviceInfo((cl_device_id)d->cl_device, CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus,
                        NULL) == CL_SUCCESS &&
        clGetDeviceInfo((cl_device_id)d->cl_device, CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot,
                        NULL) == CL_SUCCESS) {
        snprintf(busid, sizeof busid, "00000000:%02x:%02x.0", bus & 0xffu, (slot >> 3) & 0x1fu);
        if (nvml.by_bus(busid, &dev) != 0)
            dev = NULL;
    }
    if (!dev && nvml.by_index((unsigned)d->device_index, &dev) != 0) {
        snprintf(why, whylen, "NVML has no device %zu", d->device_index);
        return NULL;
    }
    return dev;
}

int gb__nvml_energy_mj(void *dev, unsigned long long *mj)
{
    return nvml.energy && nvml.energy(dev, mj) == 0;
}

int gb__nvml_sm_clock_mhz(void *dev, unsigned *mhz)
{
    return nvml.clock && nvml.clock(dev, 1 /* NVML_CLOCK_SM */, mhz) == 0;
}

int gb__nvml_reasons(void *dev, unsigned long long *mask)
{
    return nvml.reasons && nvml.reasons(dev, mask) == 0;
}

int gb__nvml_violation_ns(void *dev, int policy, unsigned long long *ns)
{
    nvml_violation_t v;
    if (!nvml.violation || nvml.violation(dev, policy, &v) != 0)
        return 0;
    *ns = v.violation_ns;
    return 1;
}

int gb__nvml_temperature_c(void *dev, unsigned *c)
{
    return nvml.temperature && nvml.temperature(dev, 0 /* NVML_TEMPERATURE_GPU */, c) == 0;
}
