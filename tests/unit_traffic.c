/* unit_traffic.c: declared memory traffic (gb_impl_traffic, src/harness/impl/traffic.c) without a
 * device: the built-in naive and xgemm families against counts made by hand from their sources,
 * the problem as the kernel sees it (the operand swap, padding to a tile multiple), a device's
 * compute units and vendor reaching the lets, families and peers that declare nothing, and
 * expressions that fail at evaluation named with their file and key. */
#include "unit.h"

#include "rt/family/registry.h"
#include "rt/util/util.h"

/* A device described by hand: only vendor, type and compute units matter to the traffic, and
 * the limits are left at 0 to show that they are not checked. */
static void device(gb_device_info_t *d, int nvidia, unsigned cus)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "test device");
    snprintf(d->vendor, sizeof d->vendor, "%s", nvidia ? "NVIDIA Corporation" : "Test");
    d->type_name = "gpu";
    d->compute_units = cus;
}

static int traffic(const gb_registry_t *reg, const char *kernel, const gb_params_t *ps,
                   const gb_device_info_t *dev, const gb_problem_t *p, gb_traffic_t *t)
{
    gb_impl_t im;
    char msg[512] = "";
    int rc = gb_impl_resolve(reg, kernel, ps, &im, msg, sizeof msg);
    if (rc == GB_OK)
        rc = gb_impl_traffic(&im, dev, p, t, msg, sizeof msg);
    if (rc != GB_OK)
        printf("    %s: %s\n", kernel, msg);
    return rc;
}

static void test_naive(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    gb_problem_t p;
    gb_traffic_t t;
    /* 5 x 3 x 7: each of the 15 work-items reads a row of A (7 elements) and a column of B (7),
     * and its element of C (beta != 0), and writes that element: 15 * 15 = 225 elements read,
     * 15 written, 4 bytes each. */
    gb_problem_init(&p, GB_PREC_S, 5, 3, 7);
    if (CHECK_RC(traffic(reg, "naive", NULL, dev, &p, &t), GB_OK)) {
        CHECK(t.declared && t.read == 900 && t.write == 60);
        CHECK_NEAR(t.flops, 210.0, 0);
        CHECK_NEAR(t.intensity, 210.0 / 960.0, 1e-15);
    }
    /* Any layout and transposition, the same count; double precision: 8 bytes each. */
    gb_problem_init(&p, GB_PREC_D, 5, 3, 7);
    p.layout = GB_COL_MAJOR;
    p.trans_a = GB_TRANS;
    if (CHECK_RC(traffic(reg, "naive", NULL, dev, &p, &t), GB_OK))
        CHECK(t.declared && t.read == 1800 && t.write == 120);
}

static void test_xgemm(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    gb_params_t ps;
    memset(&ps, 0, sizeof ps);
    gb_params_set(&ps, "MWG", 32);
    gb_params_set(&ps, "NWG", 16);
    gb_problem_t p;
    gb_traffic_t t;
    /* Row-major 100 x 70 x 30 with 32 x 16 tiles: 4 rows of tiles by 5 columns. Each work-group
     * stages its rows of A (all 30 columns) and its columns of B, reading only what lies inside
     * the matrices: A is read once per column of tiles, 100 * 30 * 5 = 15000 elements; B once
     * per row of tiles, 30 * 70 * 4 = 8400; C once, 7000. Written: C, 7000. */
    gb_problem_init(&p, GB_PREC_S, 100, 70, 30);
    if (CHECK_RC(traffic(reg, "xgemm", &ps, dev, &p, &t), GB_OK)) {
        CHECK(t.declared && t.read == 4 * (15000 + 8400 + 7000) && t.write == 4 * 7000);
        CHECK_NEAR(t.intensity, 2.0 * 100 * 70 * 30 / (4.0 * 37400), 1e-12);
    }
    /* Column-major reaches xgemm through the operand swap: the kernel sees 70 x 100 x 30 with
     * A and B exchanged: 3 rows of tiles (70 / 32) by 7 columns (100 / 16): A' 70 * 30 * 7 =
     * 14700, B' 30 * 100 * 3 = 9000, C 7000. */
    p.layout = GB_COL_MAJOR;
    if (CHECK_RC(traffic(reg, "xgemm", &ps, dev, &p, &t), GB_OK))
        CHECK(t.declared && t.read == 4 * (14700 + 9000 + 7000) && t.write == 4 * 7000);
}

/* A padded family is charged for the padding it reads: myGEMM2 (TS = 32) sees 33 x 17 x 9 as
 * 64 x 32 x 32: A 64 * 32 read by each of 1 column of tiles, B 32 * 32 by each of 2 rows, C 64
 * * 32; the FLOPs stay the caller's. */
static void test_padded(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    gb_problem_t p;
    gb_traffic_t t;
    gb_problem_init(&p, GB_PREC_S, 33, 17, 9);
    p.layout = GB_COL_MAJOR;
    if (CHECK_RC(traffic(reg, "myGEMM2", NULL, dev, &p, &t), GB_OK)) {
        CHECK(t.declared && t.read == 4 * (2048 + 2048 + 2048) && t.write == 4 * 2048);
        CHECK_NEAR(t.flops, 2.0 * 33 * 17 * 9, 0);
    }
}

/* The lets see the device: xgemm_nv's TAIL splits a last partial wave of tiles, whose size is
 * the device's compute units times SLOTS. 3 tiles of 128 x 128 on 1 compute unit x 2 slots
 * leave 1 tile in a partial wave, split in 2 pieces whose sums go through the workspace (2
 * slots of 128 x 128 written, then read by the remainder kernel); on 2 compute units the 3
 * tiles fit one wave and nothing is split. */
static void test_device_lets(const gb_registry_t *reg)
{
    gb_params_t ps;
    memset(&ps, 0, sizeof ps);
    gb_params_set(&ps, "TAIL", 1);
    gb_problem_t p;
    gb_traffic_t t;
    gb_device_info_t one, two;
    device(&one, 0, 1);
    device(&two, 0, 2);
    gb_problem_init(&p, GB_PREC_S, 128, 384, 40);
    const uint64_t tiles_a = 128 * 40 * 3, tiles_b = 40 * 384 * 1, c = 128 * 384;
    const uint64_t slots = 2 * 128 * 128;
    if (CHECK_RC(traffic(reg, "xgemm_nv", &ps, &one, &p, &t), GB_OK))
        CHECK(t.read == 4 * (tiles_a + tiles_b + slots + c) && t.write == 4 * (c + slots));
    if (CHECK_RC(traffic(reg, "xgemm_nv", &ps, &two, &p, &t), GB_OK))
        CHECK(t.read == 4 * (tiles_a + tiles_b + c) && t.write == 4 * c);
}

/* Nothing declared: a family without the key, and a library peer. */
static void test_undeclared(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    gb_problem_t p;
    gb_traffic_t t;
    gb_problem_init(&p, GB_PREC_S, 64, 64, 64);
    if (CHECK_RC(traffic(reg, "intel_naive", NULL, dev, &p, &t), GB_OK))
        CHECK(!t.declared && t.read == 0 && t.write == 0);
    if (CHECK_RC(traffic(reg, "openblas", NULL, dev, &p, &t), GB_OK))
        CHECK(!t.declared);
}

/* An expression that fails for a problem names the file and the key. */
static void test_failing(const gb_device_info_t *dev)
{
    static char json[] =
        "{'family': 'tr', 'source': 'tr.cl', 'entry': 'k', 'precisions': ['s'],"
        " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'],"
        " 'global': ['M', 'N'], 'traffic': {'read': 'ELEM * M * N', 'write': 'M / (K - 9)'}}";
    for (char *c = json; *c; c++)
        if (*c == '\'')
            *c = '"';
    gb_family_t f;
    char msg[512] = "";
    if (!CHECK_RC(gb__family_parse(json, strlen(json), "tr.json", &f, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    f.origin = gb__strdup("tr.json");
    gb_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.family = &f;
    gb_impl_t im;
    gb_impl_kernel(&im, &cfg);
    gb_problem_t p;
    gb_traffic_t t;
    gb_problem_init(&p, GB_PREC_S, 8, 8, 9);
    CHECK_RC(gb_impl_traffic(&im, dev, &p, &t, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "tr.json: traffic.write");
    CHECK_HAS(msg, "division by zero");
    CHECK(!t.declared);
    p.k = 10;
    CHECK_RC(gb_impl_traffic(&im, dev, &p, &t, msg, sizeof msg), GB_OK);
    CHECK(t.declared && t.read == 256 && t.write == 8);
    gb__family_free(&f);
}

int main(void)
{
    gb_registry_t *reg = NULL;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return unit_finish();
    gb_device_info_t dev;
    device(&dev, 1, 132);
    test_naive(reg, &dev);
    test_xgemm(reg, &dev);
    test_padded(reg, &dev);
    test_device_lets(reg);
    test_undeclared(reg, &dev);
    test_failing(&dev);
    gb_registry_close(reg);
    return unit_finish();
}
