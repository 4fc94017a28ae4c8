/* peak.h: the peak-FLOP/s formula from a device's facts (peak.c), apart from the OpenCL queries
 * that gather them (device.c), so that it can be checked with made-up devices. */
#ifndef GB_PEAK_H
#define GB_PEAK_H

#include "gemmbench.h"

#define GB_VENDOR_NVIDIA 0x10deu
#define GB_VENDOR_INTEL 0x8086u
#define GB_VENDOR_AMD 0x1002u

/* What the formula reads beyond gb_device_info_t: the device's type and what its vendor's
 * attribute-query extension tells (0 or "" where it tells nothing). */
typedef struct gb_peak_facts {
    int gpu, cpu;                /* CL_DEVICE_TYPE */
    unsigned vendor_id;          /* CL_DEVICE_VENDOR_ID (PCI vendor: GB_VENDOR_*) */
    unsigned nv_major, nv_minor; /* NVIDIA: compute capability (cl_nv_device_attribute_query) */
    /* Intel (cl_intel_device_attribute_query): the graphics IP version's major and minor
     * (CL_DEVICE_IP_VERSION_INTEL: 9.0 Gen9, 12.0 Xe-LP, 12.55 Xe-HPG, 12.60 Xe-HPC, 20 Xe2), and
     * the EUs, slices x sub-slices per slice x EUs per sub-slice */
    unsigned intel_ip_major, intel_ip_minor, intel_eus;
    /* AMD (cl_amd_device_attribute_query): SIMDs per compute unit and lanes per SIMD, and the
     * target ("gfx90a") where the device's name gives it */
    unsigned amd_simd_per_cu, amd_simd_width;
    char amd_target[16];
} gb_peak_facts_t;

/* Fills di->peak_gflops[] and di->peak_formula[] from di's compute units, clock, native vector
 * widths and fp64, and f: lanes x 2 (an FMA counts as two operations) x clock over every compute
 * unit, by a table per NVIDIA compute capability, Intel graphics generation or AMD target where
 * the lanes per unit are not a fact the driver gives; the formula in words, or "unknown: why"
 * (peak 0) where it cannot be known. */
void gb__peak_formula(gb_device_info_t *di, const gb_peak_facts_t *f);

/* What a kernel's own local arrays may take on a device that reports di->local_mem: on NVIDIA,
 * the architecture's shared memory a block on opt-in by CUDA's table per compute capability
 * (227 KB on sm_90), where that is more; elsewhere, and for a compute capability the table lacks,
 * what the device reports. */
uint64_t gb__kernel_local_mem(const gb_device_info_t *di, const gb_peak_facts_t *f);

#endif
