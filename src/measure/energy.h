/* energy.h: reading a device's energy counter around a timed region. */
#ifndef GB_ENERGY_H
#define GB_ENERGY_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "gemmbench.h"

typedef struct gb_energy {
    int ok;
    char source[48], why[128];
    void *nvml_dev, *nvml_energy;
    char rapl_path[128];
} gb_energy_t;

/* Finds a counter for the device: e->ok, with e->source naming it, or e->why saying why not. */
void gb__energy_open(gb_energy_t *e, const gb_device_info_t *d);
/* Reads the counter in joules; 0 when it cannot. Counters only grow between reads (a RAPL
 * wrap-around shows as a negative difference, which the caller discards). */
int gb__energy_read(gb_energy_t *e, double *joules);
void gb__energy_close(gb_energy_t *e);

#endif
