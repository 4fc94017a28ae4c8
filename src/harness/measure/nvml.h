/* nvml.h: NVIDIA's management library (libnvidia-ml), loaded with dlopen once per process so
 * that nothing is needed at build time, and the few readings gemmbench takes from it: the
 * energy counter (energy.c), the SM clock, the clock-event (throttle) reasons, the power and
 * thermal violation counters and the temperature (clocks.c). Each reading returns 1 on success
 * and 0 when NVML or the GPU does not give it. */
#ifndef GB_NVML_H
#define GB_NVML_H

#include "gemmbench.h"

/* NVML's handle of the GPU behind OpenCL device d (matched by PCI bus where the driver tells
 * it, else by index), or NULL with the reason in why. */
void *gb__nvml_device(const gb_device_info_t *d, char *why, size_t whylen);

int gb__nvml_energy_mj(void *dev, unsigned long long *mj);
int gb__nvml_sm_clock_mhz(void *dev, unsigned *mhz);
/* The reasons the clocks are held down now: a mask of GB_NVML_REASON_*. */
int gb__nvml_reasons(void *dev, unsigned long long *mask);
/* Cumulative nanoseconds the clocks were held down by the power cap (policy 0) or by
 * temperature (policy 1). */
int gb__nvml_violation_ns(void *dev, int policy, unsigned long long *ns);
int gb__nvml_temperature_c(void *dev, unsigned *c);

/* nvmlClocksEventReasons, those that slow a GPU under load (idle, application and display
 * clock settings are left out). */
#define GB_NVML_REASON_SW_POWER_CAP 0x4ull
#define GB_NVML_REASON_HW_SLOWDOWN 0x8ull
#define GB_NVML_REASON_SYNC_BOOST 0x10ull
#define GB_NVML_REASON_SW_THERMAL 0x20ull
#define GB_NVML_REASON_HW_THERMAL 0x40ull
#define GB_NVML_REASON_HW_POWER_BRAKE 0x80ull
#define GB_NVML_POLICY_POWER 0
#define GB_NVML_POLICY_THERMAL 1

#endif
