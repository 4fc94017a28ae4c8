/* energy.h: a device's energy counter, and the energy loop that gb_bench_run runs after the
 * timed calls to measure energy per call (docs/methodology.md, "Energy"). */
#ifndef GB_ENERGY_H
#define GB_ENERGY_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "gemmbench.h"

typedef struct gb_energy {
    int ok;
    char source[48], why[128];
    void *nvml_dev;
    char rapl_path[128];
    /* Reads the counter in joules, 0 when it cannot: set by gb__energy_open (a test may set
     * its own, with user for its state). */
    int (*read)(struct gb_energy *e, double *joules);
    void *user;
} gb_energy_t;

/* Finds a counter for the device: e->ok, with e->source naming it, or e->why saying why not. */
void gb__energy_open(gb_energy_t *e, const gb_device_info_t *d);
/* Reads the counter in joules; 0 when it cannot. Counters only grow between reads (a RAPL
 * wrap-around shows as a negative difference, which gb__energy_result reports). */
int gb__energy_read(gb_energy_t *e, double *joules);
void gb__energy_close(gb_energy_t *e);

/* The loop's default and largest minimum duration, and the longest it waits, at each end, for
 * the counter to move. */
#define GB_ENERGY_MIN_S_DEFAULT 1.0
#define GB_ENERGY_MIN_S_MAX 3600.0
#define GB_ENERGY_ALIGN_S 0.5

/* The minimum duration of the energy loop from GEMMBENCH_ENERGY_MIN_S's value (NULL or "":
 * unset): GB_ENERGY_MIN_S_DEFAULT when unset, 0 for "turned off", or -1 when the text is not a
 * number of seconds from 0 to GB_ENERGY_MIN_S_MAX. */
double gb__energy_min_s(const char *value);

/* What one energy loop measured. */
typedef struct gb_energy_loop {
    double j0, j1;   /* the counter at the loop's start and end, joules */
    double seconds;  /* host time between those two reads */
    size_t calls;    /* calls made between them */
    int read_failed; /* a read of the counter failed: the other fields mean nothing */
} gb_energy_loop_t;

/* Runs call(user) until at least min_s seconds have passed between two reads of e's counter,
 * and fills out. Both reads are aligned to an update of the counter: calls go on (at most
 * min(min_s, GB_ENERGY_ALIGN_S) at each end) until the counter moves, so that a counter that
 * updates only every few tens of milliseconds (NVML) does not quantise the loop's energy. call
 * must return only once its work has finished on the device. Returns call's first error (the
 * loop stops there; the message is call's to leave), else GB_OK. */
int gb__energy_loop(gb_energy_t *e, double min_s, int (*call)(void *user), void *user,
                    gb_energy_loop_t *out);

/* Marks r's energy unavailable, why saying why: energy_j, energy_w, gflops_per_watt and
 * energy_s -1, energy_calls 0, source and scope empty. */
void gb__energy_unavailable(gb_result_t *r, const char *why);
/* Fills r's energy fields from one loop of calls of flop floating-point operations each, run by
 * the counter `source` over `scope` ("device-only calls" or "whole calls incl. copies"): joules
 * per call, average watts, GFLOP/s per watt (flop * calls / joules / 1e9), calls and seconds; or
 * energy unavailable, with the reason, when the counter failed, did not advance or went back. */
void gb__energy_result(const gb_energy_loop_t *l, double flop, const char *source,
                       const char *scope, gb_result_t *r);

#endif
