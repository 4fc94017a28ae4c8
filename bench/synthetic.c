/* synthetic.c: made-up recorded spaces (synthetic.h). Each model narrows a real family's space
 * to a few thousand configurations and scores them with an invented performance model shaped
 * like what bench/notes/tuner.md#tuner-h100 and bench/notes/xgemm_nv.md#h200-first-look measured: a
 * few parameters (the tile, the work per work-item, the work-group size, where accumulators live)
 * matter much more than the rest (padding, vector widths, walk order); configurations fail for the
 * reasons real ones do (local memory over the 48 KiB OpenCL gives a work-group, registers times
 * work-items over the register file, and a few build failures at random); and every score carries a
 * little measurement noise. The noise and the random failures are drawn from a hash of the
 * configuration, so a model always writes the same file. The scores are GFLOP/s rounded to 0.1. */
#include <math.h>
#include <string.h>

#include "tool/tune/recorded.h"
#include "rt/util/util.h"
#include "synthetic.h"

/* A narrowing: a parameter and its values, up to 8. */
typedef struct narrow {
    const char *name;
    long values[8];
    size_t n;
} narrow_t;

typedef struct model {
    const char *name, *description, *family;
    gb_precision_t precision;
    size_t m, n, k;
    const char *device;
    narrow_t narrow[GB_MAX_PARAMS];
    /* The score of a configuration (ps: every parameter's value), or -1 when it fails; u is a
     * uniform draw in [0,1) and z a normal one, both fixed per configuration. */
    double (*score)(const gb_params_t *ps, double u, double z);
} model_t;

static long pv(const gb_params_t *ps, const char *name)
{
    long v = 0;
    gb_params_get(ps, name, &v);
    return v;
}

static double dmin(double a, double b)
{
    return a < b ? a : b;
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* Work-groups an SM of an H100 holds: registers (65536), local memory (227 KiB), work-items
 * (2048), groups (32). 0: the group does not fit (the launch fails). */
static double h100_groups(double regs, double wis, double local_bytes)
{
    const double by_regs = floor(65536.0 / (regs * wis));
    const double by_local = local_bytes > 0 ? floor(232448.0 / local_bytes) : 32;
    return dmin(dmin(by_regs, by_local), dmin(floor(2048.0 / wis), 32));
}

/* xgemm on an H100: 128x128 tiles of 8x8 per work-item near the top (36 TFLOP/s measured),
 * 64x64 about half of it, vector width 2 a little ahead of 4, accumulators in a private array
 * (ACCMEM) far behind. */
static double xgemm_h100(const gb_params_t *ps, double u, double z)
{
    const double mwg = (double)pv(ps, "MWG"), nwg = (double)pv(ps, "NWG"),
                 kwg = (double)pv(ps, "KWG"), mdimc = (double)pv(ps, "MDIMC"),
                 ndimc = (double)pv(ps, "NDIMC"), pada = (double)pv(ps, "PADA"),
                 padb = (double)pv(ps, "PADB"), stages = (double)pv(ps, "STAGES");
    const long vwm = pv(ps, "VWM"), vwn = pv(ps, "VWN"), vwk = pv(ps, "VWK");
    const int accmem = pv(ps, "ACCMEM") != 0;
    if (u < 0.015)
        return -1; /* the build failed */
    const double mwi = mwg / mdimc, nwi = nwg / ndimc, wis = mdimc * ndimc;
    const double local =
        stages * (dmax(kwg * (mwg + pada), mwg * (kwg + pada)) + kwg * (nwg + padb)) * 4;
    if (local > 49152)
        return -1;
    double regs = 30 + mwi * nwi * (accmem ? 0.3 : 1) + 2 * (mwi + nwi) +
                  (stages > 1 ? (mwg + nwg) * kwg / wis : 0);
    double spill = 1;
    if (regs > 255) {
        spill = pow(255 / regs, 3);
        regs = 255;
    }
    const double groups = h100_groups(regs, wis, local);
    if (groups < 1)
        return -1; /* out of resources */
    const double occ = pow(dmin(1, groups * wis / 32 / 16), 0.4);
    const double ai = mwi * nwi / (mwi + nwi);
    const double vm = vwm == 1 ? 0.8 : vwm == 2 ? 1.0 : 0.95;
    const double vn = vwn == 1 ? 0.85 : vwn == 2 ? 1.0 : 0.97;
    const double f = ai / (ai + 1.5) / (1 + 20 / mwg + 20 / nwg) * occ * spill * vm * vn *
                     (vwk == 4 ? 1 : 0.93) * (pada == 0 && vwm == 1 ? 0.88 : 1) *
                     (kwg == 16   ? 1
                      : kwg == 32 ? 0.96
                                  : 0.92) *
                     (accmem ? 0.6 : 1);
    return 80000 * f * exp(0.02 * z);
}

/* xgemm on PoCL on an 8-core AVX2 CPU: wide vectors along N, accumulators kept in memory
 * across barriers (ACCMEM), about 12 vector accumulators per work-item, 64 work-items. */
static double xgemm_pocl(const gb_params_t *ps, double u, double z)
{
    const double mwg = (double)pv(ps, "MWG"), nwg = (double)pv(ps, "NWG"),
                 kwg = (double)pv(ps, "KWG"), mdimc = (double)pv(ps, "MDIMC"),
                 ndimc = (double)pv(ps, "NDIMC");
    const long vwm = pv(ps, "VWM"), vwn = pv(ps, "VWN"), vwk = pv(ps, "VWK");
    const int accmem = pv(ps, "ACCMEM") != 0;
    const double mwi = mwg / mdimc, nwi = nwg / ndimc, wis = mdimc * ndimc;
    if (u < 0.04 || mwi * nwi > 128)
        return -1; /* the build failed, or took too long */
    const double acc = mwi * nwi / (double)vwn;
    const double fa = acc <= 12 ? acc / (acc + 3) : 0.8 * pow(12 / acc, 1.5);
    const double fv = vwn == 1 ? 0.45 : vwn == 4 ? 0.8 : 1.0;
    const double ft = 1 - 0.1 * fabs(log2(wis / 64));
    const double f = fa * fv * ft * (vwk == 8 ? 1 : 0.85) * (vwm == 1 ? 1 : 0.97) *
                     (accmem ? 1 : 0.5) / (1 + 6 / mwg + 6 / nwg) * (kwg == 16 ? 1 : 0.95);
    return 900 * f * exp(0.03 * z);
}

/* xgemm_nv on an H100: 8x8 per work-item in 128 registers gives two groups of 256 per SM; more
 * registers, one; paired lanes (LANES) +6%, a K step of 16 -6%, TAIL +2.5%, GROUPM 1 -3%. */
static double xgemm_nv_h100(const gb_params_t *ps, double u, double z)
{
    const double mwg = (double)pv(ps, "MWG"), nwg = (double)pv(ps, "NWG"),
                 kwg = (double)pv(ps, "KWG"), rm = (double)pv(ps, "RM"), rn = (double)pv(ps, "RN"),
                 pada = (double)pv(ps, "PADA"), padb = (double)pv(ps, "PADB");
    const long lanes = pv(ps, "LANES"), pipe = pv(ps, "PIPE"), groupm = pv(ps, "GROUPM"),
               tail = pv(ps, "TAIL"), maxreg = pv(ps, "MAXREG");
    if (u < 0.02)
        return -1;
    const double mwi = 4 * rm, nwi = 4 * rn, wis = mwg / mwi * (nwg / nwi);
    const double local = 2 * kwg * (mwg + pada + nwg + padb) * 4;
    if (local > 49152)
        return -1;
    const double natural =
        24 + mwi * nwi + (mwi + nwi) * (pipe ? 1 : 0.5) + kwg / 2 + 2.0 * (double)lanes;
    /* The cap: MAXREG, or 65536 / 512 for 512 work-items under reqd_work_group_size. */
    const double cap = maxreg ? (double)maxreg : wis >= 512 ? 128 : 255;
    const double regs = dmin(natural, cap);
    const double spill = 1 / (1 + dmax(0, natural - cap) / 40);
    const double groups = h100_groups(regs, wis, local);
    if (groups < 1)
        return -1;
    const double occ = pow(dmin(1, groups * wis / 32 / 16), 0.25);
    const double ai = mwi * nwi / (mwi + nwi);
    const double f = ai / (ai + 0.6) / (1 + 12 / mwg + 12 / nwg) * occ * spill *
                     (lanes ? 1.06 : 1) * (pipe ? 1.03 : 1) * (pada > 0 ? 1.03 : 0.95) *
                     (kwg == 16 ? 0.94 : 1) * (groupm == 8 ? 1 : 0.97) * (tail ? 1.025 : 1) *
                     (maxreg ? 0.99 : 1);
    return 55000 * f * exp(0.015 * z);
}

static const model_t models[] = {
    {"xgemm-h100",
     "xgemm, single precision at 4096, on an invented H100",
     "xgemm",
     GB_PREC_S,
     4096,
     4096,
     4096,
     "NVIDIA H100 80GB HBM3 (synthetic model)",
     {{"MWG", {32, 64, 128}, 3},
      {"NWG", {32, 64, 128}, 3},
      {"KWG", {16, 32}, 2},
      {"MDIMC", {8, 16}, 2},
      {"NDIMC", {8, 16, 32}, 3},
      {"VWM", {1, 4}, 2},
      {"VWN", {1, 2, 4}, 3},
      {"VWK", {1, 4}, 2},
      {"PADA", {0, 4}, 2},
      {"PADB", {0}, 1},
      {"STAGES", {2}, 1},
      {"ACCMEM", {0, 1}, 2}},
     xgemm_h100},
    {"xgemm-pocl",
     "xgemm, single precision at 1024, on an invented 8-core AVX2 CPU (PoCL)",
     "xgemm",
     GB_PREC_S,
     1024,
     1024,
     1024,
     "pthread-Intel(R) Xeon(R) (synthetic model)",
     {{"MWG", {16, 32, 64, 96, 128}, 5},
      {"NWG", {16, 32, 64, 128}, 4},
      {"KWG", {16, 32}, 2},
      {"MDIMC", {4, 8, 16}, 3},
      {"NDIMC", {4, 8, 16}, 3},
      {"VWM", {1, 4}, 2},
      {"VWN", {1, 4, 8}, 3},
      {"VWK", {1, 8}, 2},
      {"PADA", {0}, 1},
      {"PADB", {0}, 1},
      {"STAGES", {2}, 1},
      {"ACCMEM", {0, 1}, 2}},
     xgemm_pocl},
    {"xgemm_nv-h100",
     "xgemm_nv, single precision at 4096, on an invented H100",
     "xgemm_nv",
     GB_PREC_S,
     4096,
     4096,
     4096,
     "NVIDIA H100 80GB HBM3 (synthetic model)",
     {{"MWG", {64, 128, 256}, 3},
      {"NWG", {64, 128, 256}, 3},
      {"RM", {2, 4}, 2},
      {"RN", {2, 4}, 2},
      {"KWG", {8, 16}, 2},
      {"PADA", {0, 4}, 2},
      {"PADB", {4}, 1},
      {"EDGES", {1}, 1},
      {"LANES", {0, 1}, 2},
      {"PIPE", {0, 1}, 2},
      {"GROUPM", {1, 8}, 2},
      {"THIN", {4}, 1},
      {"TAIL", {0, 3}, 2},
      {"SLOTS", {2}, 1},
      {"MAXREG", {0, 128, 255}, 3}},
     xgemm_nv_h100},
};
#define NMODELS (sizeof models / sizeof models[0])

size_t gb_synthetic_count(void)
{
    return NMODELS;
}

const char *gb_synthetic_name(size_t i)
{
    return i < NMODELS ? models[i].name : NULL;
}

const char *gb_synthetic_description(size_t i)
{
    return i < NMODELS ? models[i].description : NULL;
}

int gb_synthetic_write(const char *name, const gb_registry_t *reg, FILE *out, char *msg,
                       size_t msglen)
{
    const model_t *m = NULL;
    for (size_t i = 0; i < NMODELS && !m; i++)
        if (!strcmp(models[i].name, name))
            m = &models[i];
    if (!m)
        return gb__fail(msg, msglen, GB_EBADARG, "unknown synthetic model '%s'", name);
    const gb_family_t *f;
    const gb_preset_t *preset;
    int rc = gb_registry_find(reg, m->family, &f, &preset);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "no kernel family '%s'", m->family);
    gb_space_values_t narrow[GB_MAX_PARAMS];
    size_t nn = 0;
    for (; nn < GB_MAX_PARAMS && m->narrow[nn].name; nn++) {
        narrow[nn].name = m->narrow[nn].name;
        narrow[nn].values = m->narrow[nn].values;
        narrow[nn].n = m->narrow[nn].n;
    }
    gb_space_t *sp;
    if ((rc = gb_space_open(&sp, f, m->precision, NULL, narrow, nn, msg, msglen)) != GB_OK)
        return rc;
    gb_recorded_info_t info;
    memset(&info, 0, sizeof info);
    snprintf(info.family, sizeof info.family, "%s", m->family);
    info.precision = m->precision;
    info.m = m->m;
    info.n = m->n;
    info.k = m->k;
    snprintf(info.device, sizeof info.device, "%s", m->device);
    snprintf(info.source, sizeof info.source,
             "SYNTHETIC: made-up scores from the model '%s' of "
             "bench/synthetic.c (gemmbench-tuners --synthesize %s), not measurements",
             m->name, m->name);
    rc = gb_recorded_write_header(out, &info, sp);
    for (uint64_t r = 0; rc == GB_OK && r < gb_space_count(sp); r++) {
        gb_space_cand_t c;
        gb_params_t ps;
        gb_space_unrank(sp, r, &c);
        gb_space_params(sp, &c, &ps);
        /* The configuration's own draws: from a hash of its values and the model's name. */
        gb_rng_t rng;
        uint64_t h = gb__fnv1a64(m->name, strlen(m->name), GB_FNV_BASIS);
        for (size_t i = 0; i < ps.count; i++)
            h = gb__fnv1a64(&ps.value[i], sizeof ps.value[i], h);
        gb__rng_seed(&rng, h);
        const double u = gb__rng_uniform(&rng), z = gb__rng_normal(&rng);
        const double s = m->score(&ps, u, z);
        rc = gb_recorded_write_entry(out, sp, &c, s < 0 ? -1 : floor(s * 10 + 0.5) / 10);
    }
    gb_space_close(sp);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "writing the recorded space failed");
    return GB_OK;
}
