/* energy.c: energy counters read around the timed calls. NVIDIA GPUs: NVML's total energy
 * counter (libnvidia-ml loaded with dlopen, so nothing is needed at build time). CPUs: RAPL
 * through /sys/class/powercap where readable. Otherwise the reason it is unavailable. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "energy.h"

#define CL_DEVICE_PCI_BUS_ID_NV 0x4008
#define CL_DEVICE_PCI_SLOT_ID_NV 0x4009

typedef int (*nvml_init_t)(void);
typedef int (*nvml_handle_t)(const char *bus, void **dev);
typedef int (*nvml_index_t)(unsigned idx, void **dev);
typedef int (*nvml_energy_t)(void *dev, unsigned long long *mj);

/* NVML is loaded and initialised once per process and never unloaded: it runs threads of its
 * own, and unmapping the library under them (dlclose without nvmlShutdown) crashes the process. */
static struct {
    int tried, ok;
    nvml_handle_t by_bus;
    nvml_index_t by_index;
    void *energy;
} nvml;

static int nvml_load(void)
{
    if (nvml.tried)
        return nvml.ok;
    nvml.tried = 1;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    nvml_init_t init = (nvml_init_t)dlsym(lib, "nvmlInit_v2");
    nvml.by_bus = (nvml_handle_t)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml.by_index = (nvml_index_t)dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml.energy = dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption");
    nvml.ok = init && nvml.by_index && nvml.energy && init() == 0;
    return nvml.ok;
}

static int nvml_open(gb_energy_t *e, const gb_device_info_t *d)
{
    if (!nvml_load()) {
        snprintf(e->why, sizeof e->why, "NVML (libnvidia-ml.so.1) not found or not initialised");
        return 0;
    }
    e->nvml_energy = nvml.energy;
    /* Match the OpenCL device to NVML's by PCI bus, where the driver tells it. */
    cl_uint bus = 0, slot = 0;
    char busid[32];
    void *dev = NULL;
    if (nvml.by_bus &&
        clGetDeviceInfo((cl_device_id)d->cl_device, CL_DEVICE_PCI_BUS_ID_NV, sizeof bus, &bus, NULL) == CL_SUCCESS &&
        clGetDeviceInfo((cl_device_id)d->cl_device, CL_DEVICE_PCI_SLOT_ID_NV, sizeof slot, &slot, NULL) == CL_SUCCESS) {
        snprintf(busid, sizeof busid, "00000000:%02x:%02x.0", bus & 0xffu, (slot >> 3) & 0x1fu);
        if (nvml.by_bus(busid, &dev) != 0)
            dev = NULL;
    }
    if (!dev && nvml.by_index((unsigned)d->device_index, &dev) != 0) {
        snprintf(e->why, sizeof e->why, "NVML has no device %zu", d->device_index);
        return 0;
    }
    unsigned long long mj;
    if (((nvml_energy_t)e->nvml_energy)(dev, &mj) != 0) {
        snprintf(e->why, sizeof e->why, "NVML energy counter not supported on this GPU");
        return 0;
    }
    e->nvml_dev = dev;
    snprintf(e->source, sizeof e->source, "NVML total energy");
    return 1;
}

static int rapl_read(const char *path, double *joules)
{
    FILE *f = fopen(path, "r");
    unsigned long long uj = 0;
    int ok = f && fscanf(f, "%llu", &uj) == 1;
    if (f)
        fclose(f);
    *joules = (double)uj * 1e-6;
    return ok;
}

static int rapl_open(gb_energy_t *e)
{
    /* The package domain; intel-rapl is also what AMD's driver exposes. */
    static const char *const paths[] = {"/sys/class/powercap/intel-rapl:0/energy_uj",
                                        "/sys/class/powercap/intel-rapl/intel-rapl:0/energy_uj"};
    double j;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (rapl_read(paths[i], &j)) {
            snprintf(e->rapl_path, sizeof e->rapl_path, "%s", paths[i]);
            snprintf(e->source, sizeof e->source, "RAPL package 0");
            return 1;
        }
    snprintf(e->why, sizeof e->why, "RAPL not readable (/sys/class/powercap absent or not permitted)");
    return 0;
}

void gb__energy_open(gb_energy_t *e, const gb_device_info_t *d)
{
    memset(e, 0, sizeof *e);
    if (strstr(d->vendor, "NVIDIA") && !strcmp(d->type_name, "gpu"))
        e->ok = nvml_open(e, d);
    else if (!strcmp(d->type_name, "cpu"))
        e->ok = rapl_open(e);
    else
        snprintf(e->why, sizeof e->why, "no energy counter known for this kind of device");
}

int gb__energy_read(gb_energy_t *e, double *joules)
{
    if (!e->ok)
        return 0;
    if (e->nvml_dev) {
        unsigned long long mj = 0;
        if (((nvml_energy_t)e->nvml_energy)(e->nvml_dev, &mj) != 0)
            return 0;
        *joules = (double)mj * 1e-3;
        return 1;
    }
    return rapl_read(e->rapl_path, joules);
}

void gb__energy_close(gb_energy_t *e)
{
    memset(e, 0, sizeof *e);
}
