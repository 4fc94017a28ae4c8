/* peak.c: a device's peak FLOP/s by formula (peak.h): lanes x 2 (an FMA counts as two
 * operations) x clock over all compute units. The lanes come from the driver where it says them
 * (a CPU's native vector width, AMD's SIMDs per compute unit and their width), else from a table
 * per NVIDIA compute capability or Intel graphics generation; each formula is written out with
 * its figures, and "unknown: why" where the lanes cannot be known. Also what a kernel's own local
 * arrays may take, by NVIDIA's table too. */
#include <stdio.h>
#include <string.h>

#include "peak.h"

/* FP32 and FP64 lanes per streaming multiprocessor by compute capability, and how many times
 * the FP64 FMA rate the FP64 tensor cores (DMMA) reach: twice on sm_80 and sm_90, where a DGEMM
 * can use them (vendor whitepapers). */
static int nv_lanes(unsigned major, unsigned minor, unsigned *fp32, unsigned *fp64, unsigned *dmma)
{
    static const struct {
        unsigned major, minor, fp32, fp64, dmma;
    } table[] = {
        {3, 5, 192, 64, 1}, {3, 7, 192, 64, 1},  {5, 0, 128, 4, 1},  {5, 2, 128, 4, 1},
        {6, 0, 64, 32, 1},  {6, 1, 128, 4, 1},   {7, 0, 64, 32, 1},  {7, 5, 64, 2, 1},
        {8, 0, 64, 32, 2},  {8, 6, 128, 2, 1},   {8, 7, 128, 2, 1},  {8, 9, 128, 2, 1},
        {9, 0, 128, 64, 2}, {10, 0, 128, 64, 1}, {12, 0, 128, 2, 1},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].major == major && table[i].minor == minor) {
            *fp32 = table[i].fp32;
            *fp64 = table[i].fp64;
            *dmma = table[i].dmma;
            return 1;
        }
    return 0;
}

static void unknown(gb_device_info_t *di, int p, const char *why)
{
    di->peak_gflops[p] = 0;
    snprintf(di->peak_formula[p], sizeof di->peak_formula[p], "unknown: %s", why);
}

static void nvidia(gb_device_info_t *di, const gb_peak_facts_t *f, double ghz)
{
    unsigned l32, l64, dmma;
    if (!nv_lanes(f->nv_major, f->nv_minor, &l32, &l64, &dmma)) {
        char why[96];
        snprintf(why, sizeof why, "no lane table for compute capability %u.%u", f->nv_major,
                 f->nv_minor);
        unknown(di, GB_PREC_S, why);
        if (di->fp64)
            unknown(di, GB_PREC_D, why);
        return;
    }
    const unsigned lanes[2] = {l32, l64};
    for (int p = 0; p < 2 && (p == GB_PREC_S || di->fp64); p++) {
        const unsigned tc = p == GB_PREC_D ? dmma : 1;
        di->peak_gflops[p] = di->compute_units * lanes[p] * 2.0 * tc * ghz;
        snprintf(di->peak_formula[p], sizeof di->peak_formula[p],
                 "%u SMs x %u %s lanes (sm_%u%u) x 2 (FMA)%s x %.3f GHz", di->compute_units,
                 lanes[p], p ? "FP64" : "FP32", f->nv_major, f->nv_minor,
                 tc == 2 ? " x 2 (FP64 tensor cores)" : "", ghz);
    }
}

/* Intel's graphics: the formula Intel's SGEMM sample states, EUs x FPUs x SIMD width x 2 (a MAD)
 * x clock, with the FPUs and their width by generation (the graphics IP version, where the
 * driver gives it; else the generations before Xe, which the sample was written for: 2 FPUs of
 * SIMD-4 per EU, one of which does FP64 at SIMD-2). The EUs are the driver's count where given
 * (slices x sub-slices x EUs), else its compute units (Intel's OpenCL counts EUs as those). */
static void intel(gb_device_info_t *di, const gb_peak_facts_t *f, double ghz)
{
    const unsigned ip = f->intel_ip_major * 100 + f->intel_ip_minor;
    const unsigned eus = f->intel_eus ? f->intel_eus : di->compute_units;
    unsigned fpus[2], simd[2];
    const char *gen, *no64 = NULL;
    char named[48];
    if (!f->intel_ip_major) {
        gen = "Gen7.5-Gen11, assumed: the generation is not told";
        fpus[0] = 2, simd[0] = 4, fpus[1] = 1, simd[1] = 2;
    } else if (ip < 1200) {
        snprintf(named, sizeof named, "Gen%u", f->intel_ip_major);
        gen = named;
        fpus[0] = 2, simd[0] = 4, fpus[1] = 1, simd[1] = 2;
        if (f->intel_ip_major == 11)
            no64 = "Gen11 has no FP64 units (its FP64 is emulated)";
    } else if (ip < 1260 || (ip >= 1270 && ip < 2000)) {
        gen = ip < 1250 ? "Xe-LP" : ip < 1260 ? "Xe-HPG" : "Xe-LPG";
        fpus[0] = 1, simd[0] = 8, fpus[1] = 0, simd[1] = 0;
        no64 = "no FP64 rate in the table for this generation (Xe-LP and Xe-HPG emulate it)";
    } else if (ip < 1270) {
        gen = "Xe-HPC";
        fpus[0] = 1, simd[0] = 16, fpus[1] = 1, simd[1] = 16;
    } else {
        gen = "Xe2 or later";
        fpus[0] = 1, simd[0] = 16, fpus[1] = 0, simd[1] = 0;
        no64 = "no FP64 rate in the table for Xe2 and later";
    }
    for (int p = 0; p < 2 && (p == GB_PREC_S || di->fp64); p++) {
        if (p == GB_PREC_D && no64) {
            unknown(di, p, no64);
            continue;
        }
        di->peak_gflops[p] = eus * fpus[p] * simd[p] * 2.0 * ghz;
        snprintf(di->peak_formula[p], sizeof di->peak_formula[p],
                 "%u EUs x %u %s FPU%s x SIMD-%u x 2 (MAD) x %.3f GHz (%s)", eus, fpus[p],
                 p ? "FP64" : "FP32", fpus[p] == 1 ? "" : "s", simd[p], ghz, gen);
    }
}

/* The FP32 rate over the FP64 rate of AMD's targets, by the prefix of their name (the first that
 * matches; 0: not known, as gfx906, whose Radeon VII runs FP64 at 1/4 and MI50 at 1/2), and
 * whether FP32 issues twice per clock (RDNA 3 and 4: dual issue, which AMD's peaks count). */
static const struct {
    const char *prefix;
    unsigned ratio, dual;
} amd_targets[] = {
    {"gfx906", 0, 0}, {"gfx908", 2, 0}, {"gfx90a", 1, 0}, {"gfx94", 1, 0},  {"gfx950", 1, 0},
    {"gfx90", 16, 0}, {"gfx8", 16, 0},  {"gfx10", 16, 0}, {"gfx11", 16, 1}, {"gfx12", 16, 1},
};

/* AMD's GPUs: compute units x SIMDs per unit x lanes per SIMD x 2 (FMA) x clock, the SIMDs and
 * lanes as the driver gives them (cl_amd_device_attribute_query), else GCN's 4 x 16 (every GCN,
 * CDNA and RDNA compute unit has 64 FP32 lanes); FP64 at the target's rate. */
static void amd(gb_device_info_t *di, const gb_peak_facts_t *f, double ghz)
{
    const int told = f->amd_simd_per_cu && f->amd_simd_width;
    const unsigned simds = told ? f->amd_simd_per_cu : 4, width = told ? f->amd_simd_width : 16;
    unsigned ratio = 0, dual = 0;
    for (size_t i = 0; f->amd_target[0] && i < sizeof amd_targets / sizeof amd_targets[0]; i++)
        if (!strncmp(f->amd_target, amd_targets[i].prefix, strlen(amd_targets[i].prefix))) {
            ratio = amd_targets[i].ratio;
            dual = amd_targets[i].dual;
            break;
        }
    const double fp32 = di->compute_units * simds * width * 2.0 * (dual ? 2 : 1) * ghz;
    di->peak_gflops[GB_PREC_S] = fp32;
    snprintf(di->peak_formula[GB_PREC_S], sizeof di->peak_formula[0],
             "%u CUs x %u SIMDs x %u lanes%s x 2 (FMA)%s x %.3f GHz%s%s%s", di->compute_units,
             simds, width, told ? "" : " (GCN, assumed)", dual ? " x 2 (dual issue)" : "", ghz,
             f->amd_target[0] ? " (" : "", f->amd_target, f->amd_target[0] ? ")" : "");
    if (!di->fp64)
        return;
    if (!ratio) {
        char why[96];
        snprintf(why, sizeof why, "no FP64 rate in the table for %s",
                 f->amd_target[0] ? f->amd_target : "this AMD GPU (its target is not in its name)");
        unknown(di, GB_PREC_D, why);
        return;
    }
    /* The FP64 rate is a fraction of the single-issue FP32 one. */
    di->peak_gflops[GB_PREC_D] = fp32 / (dual ? 2 : 1) / ratio;
    snprintf(di->peak_formula[GB_PREC_D], sizeof di->peak_formula[1],
             "%u CUs x %u SIMDs x %u lanes x 2 (FMA) / %u (FP64 rate of %s) x %.3f GHz",
             di->compute_units, simds, width, ratio, f->amd_target, ghz);
}

void gb__peak_formula(gb_device_info_t *di, const gb_peak_facts_t *f)
{
    const double ghz = di->clock_mhz / 1000.0;
    for (int p = 0; p < 2; p++)
        unknown(di, p, "no lane-count formula for this kind of device");
    if (!di->fp64)
        snprintf(di->peak_formula[GB_PREC_D], sizeof di->peak_formula[1], "no fp64 support");
    if (f->gpu && f->nv_major) {
        nvidia(di, f, ghz);
    } else if (f->gpu && f->vendor_id == GB_VENDOR_INTEL) {
        intel(di, f, ghz);
    } else if (f->gpu && f->vendor_id == GB_VENDOR_AMD) {
        amd(di, f, ghz);
    } else if (f->cpu) {
        /* Native vector width is the SIMD width the driver compiles for; two FMA pipes per core
         * is an assumption true of recent x86 server cores (Skylake-SP, Zen 2 and later). */
        const unsigned w[2] = {di->native_vec_float, di->native_vec_double};
        for (int p = 0; p < 2 && (p == GB_PREC_S || di->fp64); p++) {
            if (w[p] == 0)
                continue;
            di->peak_gflops[p] = di->compute_units * w[p] * 2.0 * 2.0 * ghz;
            snprintf(di->peak_formula[p], sizeof di->peak_formula[p],
                     "%u cores x %u %s lanes x 2 (FMA) x 2 FMA pipes (assumed) x %.3f GHz",
                     di->compute_units, w[p], p ? "FP64" : "FP32", ghz);
        }
    }
}

/* NVIDIA's OpenCL reports 48 KB, the most a CUDA kernel gets without asking, yet builds and runs
 * kernels whose local arrays take up to the architecture's opt-in shared memory a block, which
 * its assembler enforces (the H200: 224 KB built, ran and kept every value; 227 KB and 228 KB
 * refused by ptxas, "0x38c00 max"; bench/notes/wgmma.md#local-227k). A __local argument is held
 * to the 48 KB. */
uint64_t gb__kernel_local_mem(const gb_device_info_t *di, const gb_peak_facts_t *f)
{
    static const struct {
        unsigned cc, kb;
    } opt_in[] = {{70, 96}, {72, 96},  {75, 64},   {80, 163},  {86, 99}, {87, 163},
                  {89, 99}, {90, 227}, {100, 227}, {101, 227}, {120, 99}};
    const unsigned cc = f->nv_major * 10 + f->nv_minor;
    if (f->vendor_id == GB_VENDOR_NVIDIA && f->gpu)
        for (size_t i = 0; i < sizeof opt_in / sizeof opt_in[0]; i++)
            if (opt_in[i].cc == cc && opt_in[i].kb * 1024ull > di->local_mem)
                return opt_in[i].kb * 1024ull;
    return di->local_mem;
}
