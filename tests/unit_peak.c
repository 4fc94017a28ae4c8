/* unit_peak.c: the peak-FLOP/s formula (src/rt/device/peak.c) on made-up devices whose figures
 * are their vendors' published peaks: NVIDIA by compute capability; Intel's graphics by the
 * formula Intel's SGEMM sample states (EUs x FPUs x SIMD width x 2 x clock) per generation, from
 * the driver's facts or, without them, as the sample's generations; AMD's by compute units x
 * SIMDs x lanes x 2 x clock with FP64 at its target's rate; a CPU by its native vector width;
 * and "unknown: why" wherever the lanes cannot be known. Also -t's device types, the OpenCL
 * constants' names among them; what a kernel's local arrays may take. No OpenCL device is used. */
#include "unit.h"

#include "rt/device/peak.h"

/* A device of cus compute units at mhz, with fp64 or not. */
static gb_device_info_t device(unsigned cus, unsigned mhz, int fp64)
{
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    d.compute_units = cus;
    d.clock_mhz = mhz;
    d.fp64 = fp64;
    return d;
}

static gb_peak_facts_t gpu(unsigned vendor)
{
    gb_peak_facts_t f;
    memset(&f, 0, sizeof f);
    f.gpu = 1;
    f.vendor_id = vendor;
    return f;
}

/* The peaks come out as want (0: unknown, with why in its formula), and each formula names
 * part. */
static void expect(const gb_device_info_t *d0, const gb_peak_facts_t *f, double s, double dp,
                   const char *part_s, const char *part_d)
{
    gb_device_info_t d = *d0;
    gb__peak_formula(&d, f);
    CHECK_NEAR(d.peak_gflops[GB_PREC_S], s, 1e-6 * (s > 1 ? s : 1));
    CHECK_NEAR(d.peak_gflops[GB_PREC_D], dp, 1e-6 * (dp > 1 ? dp : 1));
    CHECK_HAS(d.peak_formula[GB_PREC_S], part_s);
    CHECK_HAS(d.peak_formula[GB_PREC_D], part_d);
    if (!s)
        CHECK(!strncmp(d.peak_formula[GB_PREC_S], "unknown: ", 9));
}

static void test_nvidia(void)
{
    gb_peak_facts_t f = gpu(GB_VENDOR_NVIDIA);
    f.nv_major = 9;
    gb_device_info_t h100 = device(132, 1980, 1);
    /* 132 SMs x 128 FP32 lanes x 2 x 1.98 GHz: 66.9 TFLOP/s; FP64 through the tensor cores. */
    expect(&h100, &f, 66908.16, 66908.16, "132 SMs x 128 FP32 lanes (sm_90) x 2 (FMA) x 1.980 GHz",
           "x 2 (FP64 tensor cores)");
    f.nv_major = 4;
    expect(&h100, &f, 0, 0, "no lane table for compute capability 4.0",
           "no lane table for compute capability 4.0");
}

static void test_intel(void)
{
    /* Gen9 (HD Graphics 530): 24 EUs x 2 FPUs x SIMD-4 x 2 x 1.15 GHz = 441.6 GFLOP/s, Intel's
     * own figure; FP64 on one FPU at SIMD-2, a quarter of it. */
    gb_peak_facts_t f = gpu(GB_VENDOR_INTEL);
    f.intel_ip_major = 9;
    f.intel_eus = 24;
    gb_device_info_t hd530 = device(24, 1150, 1);
    expect(&hd530, &f, 441.6, 110.4, "24 EUs x 2 FP32 FPUs x SIMD-4 x 2 (MAD) x 1.150 GHz (Gen9)",
           "24 EUs x 1 FP64 FPU x SIMD-2 x 2 (MAD)");
    /* Without the attribute query (an older driver): the compute units as EUs, the sample's
     * generations assumed. */
    f = gpu(GB_VENDOR_INTEL);
    expect(&hd530, &f, 441.6, 110.4, "24 EUs x 2 FP32 FPUs x SIMD-4",
           "Gen7.5-Gen11, assumed: the generation is not told");
    /* The driver's EU count over its compute units where they differ. */
    f.intel_ip_major = 9;
    f.intel_eus = 23;
    expect(&hd530, &f, 23 * 16 * 1.15, 23 * 4 * 1.15, "23 EUs", "23 EUs");
    /* Gen11 (Ice Lake, 64 EUs at 1.1 GHz): no FP64 units. */
    f.intel_ip_major = 11;
    f.intel_eus = 64;
    gb_device_info_t icl = device(64, 1100, 1);
    expect(&icl, &f, 1126.4, 0, "(Gen11)", "Gen11 has no FP64 units");
    /* Xe-LP (Iris Xe, 96 EUs at 1.35 GHz): 1 ALU of SIMD-8, 16 FLOP per EU per clock; no fp64. */
    f.intel_ip_major = 12;
    f.intel_ip_minor = 0;
    f.intel_eus = 96;
    gb_device_info_t tgl = device(96, 1350, 0);
    expect(&tgl, &f, 2073.6, 0, "96 EUs x 1 FP32 FPU x SIMD-8 x 2 (MAD) x 1.350 GHz (Xe-LP)",
           "no fp64 support");
    /* Xe-HPG (Arc A770, 512 EUs at 2.4 GHz): 19.7 TFLOP/s; an FP64 the driver emulates. */
    f.intel_ip_minor = 55;
    f.intel_eus = 512;
    gb_device_info_t a770 = device(512, 2400, 1);
    expect(&a770, &f, 19660.8, 0, "(Xe-HPG)", "no FP64 rate in the table");
    /* Xe-HPC (Max 1550, 1024 EUs at 1.6 GHz): SIMD-16, FP64 at the FP32 rate, 52.4 TFLOP/s. */
    f.intel_ip_minor = 60;
    f.intel_eus = 1024;
    gb_device_info_t pvc = device(1024, 1600, 1);
    expect(&pvc, &f, 52428.8, 52428.8, "x SIMD-16 x 2 (MAD) x 1.600 GHz (Xe-HPC)",
           "1024 EUs x 1 FP64 FPU x SIMD-16");
    /* An Intel CPU (the same vendor id) is a CPU. */
    f = gpu(GB_VENDOR_INTEL);
    f.gpu = 0;
    f.cpu = 1;
    gb_device_info_t cpu = device(2, 2600, 1);
    cpu.native_vec_float = 16;
    cpu.native_vec_double = 8;
    expect(&cpu, &f, 332.8, 166.4, "2 cores x 16 FP32 lanes x 2 (FMA) x 2 FMA pipes (assumed)",
           "2 cores x 8 FP64 lanes");
}

static void test_amd(void)
{
    /* MI250X, one die (gfx90a, 110 CUs at 1.7 GHz): 110 x 4 x 16 x 2 x 1.7 = 23.9 TFLOP/s, FP64
     * at the same rate. */
    gb_peak_facts_t f = gpu(GB_VENDOR_AMD);
    f.amd_simd_per_cu = 4;
    f.amd_simd_width = 16;
    snprintf(f.amd_target, sizeof f.amd_target, "gfx90a");
    gb_device_info_t mi250 = device(110, 1700, 1);
    expect(&mi250, &f, 23936, 23936, "110 CUs x 4 SIMDs x 16 lanes x 2 (FMA) x 1.700 GHz (gfx90a)",
           "/ 1 (FP64 rate of gfx90a)");
    /* MI100 (gfx908, 120 CUs at 1.502 GHz): 23.1 TFLOP/s, FP64 at half. */
    snprintf(f.amd_target, sizeof f.amd_target, "gfx908");
    gb_device_info_t mi100 = device(120, 1502, 1);
    expect(&mi100, &f, 23070.72, 11535.36, "(gfx908)", "/ 2 (FP64 rate of gfx908)");
    /* RX 7900 XTX (gfx1100, 96 CUs of 2 SIMD32 at 2.5 GHz): 61.4 TFLOP/s with dual issue, FP64 a
     * sixteenth of the single-issue rate. */
    f.amd_simd_per_cu = 2;
    f.amd_simd_width = 32;
    snprintf(f.amd_target, sizeof f.amd_target, "gfx1100");
    gb_device_info_t xtx = device(96, 2500, 1);
    expect(&xtx, &f, 61440, 1920, "x 2 (dual issue)", "/ 16 (FP64 rate of gfx1100)");
    /* gfx906 runs FP64 at 1/2 (MI50) or 1/4 (Radeon VII): not guessed. */
    f.amd_simd_per_cu = 4;
    f.amd_simd_width = 16;
    snprintf(f.amd_target, sizeof f.amd_target, "gfx906");
    gb_device_info_t vega20 = device(60, 1800, 1);
    expect(&vega20, &f, 13824, 0, "60 CUs x 4 SIMDs x 16 lanes",
           "no FP64 rate in the table for gfx906");
    /* An older driver: no SIMD facts, no target in the name. */
    f = gpu(GB_VENDOR_AMD);
    gb_device_info_t polaris = device(36, 1266, 1);
    expect(&polaris, &f, 5833.728, 0, "36 CUs x 4 SIMDs x 16 lanes (GCN, assumed)",
           "its target is not in its name");
}

static void test_unknown(void)
{
    gb_peak_facts_t f = gpu(0x13b5); /* ARM */
    gb_device_info_t mali = device(4, 600, 0);
    expect(&mali, &f, 0, 0, "no lane-count formula for this kind of device", "no fp64 support");
}

static void test_types(void)
{
    static const struct {
        const char *s;
        gb_device_type_t want;
    } good[] = {{"gpu", GB_DEVTYPE_GPU},
                {"CL_DEVICE_TYPE_GPU", GB_DEVTYPE_GPU},
                {"cl_device_type_cpu", GB_DEVTYPE_CPU},
                {"CL_DEVICE_TYPE_ACCELERATOR", GB_DEVTYPE_ACC},
                {"CL_DEVICE_TYPE_DEFAULT", GB_DEVTYPE_DEFAULT},
                {"CL_DEVICE_TYPE_ALL", GB_DEVTYPE_ALL}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gb_device_type_t t = GB_DEVTYPE_ALL;
        CHECK(gb_device_type_parse(good[i].s, &t) == GB_OK && t == good[i].want);
    }
    gb_device_type_t t;
    CHECK(gb_device_type_parse("CL_DEVICE_TYPE_", &t) == GB_EBADARG);
    CHECK(gb_device_type_parse("CL_DEVICE_TYPE_FPGA", &t) == GB_EBADARG);
    CHECK(gb_device_type_parse("fpga", &t) == GB_EBADARG);
}

/* A kernel's own local arrays: CUDA's opt-in shared memory a block on NVIDIA GPUs by compute
 * capability (the H200's 227 KB measured: bench/notes/wgmma.md#local-227k), never less than
 * the device reports; elsewhere, and for an unknown compute capability, what it reports. */
static void test_kernel_local_mem(void)
{
    gb_device_info_t d = device(132, 1980, 1);
    d.local_mem = 48 * 1024;
    gb_peak_facts_t f = gpu(GB_VENDOR_NVIDIA);
    f.nv_major = 9;
    CHECK(gb__kernel_local_mem(&d, &f) == 232448);
    f.nv_major = 8;
    CHECK(gb__kernel_local_mem(&d, &f) == 163 * 1024);
    f.nv_minor = 6;
    CHECK(gb__kernel_local_mem(&d, &f) == 99 * 1024);
    f.nv_minor = 5; /* no sm_85 */
    CHECK(gb__kernel_local_mem(&d, &f) == 48 * 1024);
    f.nv_major = 7;
    CHECK(gb__kernel_local_mem(&d, &f) == 64 * 1024);
    d.local_mem = 96 * 1024; /* a device reporting more than the table keeps its own */
    CHECK(gb__kernel_local_mem(&d, &f) == 96 * 1024);
    d.local_mem = 48 * 1024;
    f.nv_major = 9;
    f.nv_minor = 0;
    f.gpu = 0; /* not a GPU */
    CHECK(gb__kernel_local_mem(&d, &f) == 48 * 1024);
    gb_peak_facts_t amd = gpu(GB_VENDOR_AMD);
    amd.nv_major = 9; /* facts another vendor's table would read mean nothing here */
    d.local_mem = 64 * 1024;
    CHECK(gb__kernel_local_mem(&d, &amd) == 64 * 1024);
}

int main(void)
{
    test_nvidia();
    test_intel();
    test_amd();
    test_unknown();
    test_types();
    test_kernel_local_mem();
    return unit_finish();
}
