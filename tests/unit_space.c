/* unit_space.c: tuning spaces (src/harness/space/space.c) on a device described by hand. The
 * count of every built-in family whose raw product is small enough is checked against a
 * brute-force count (every raw configuration through gb_space_check); rank and unrank are
 * inverse and cover the valid configurations once each; every built-in space's memo stays
 * small; a made-up family has a count worked out by hand; narrowing, neighbours, a parameter
 * the tuner leaves at its default, parameter round trips, and the errors (unknown names, values
 * not allowed, a space emptied by one constraint, named); a space bound to a problem, its
 * constraints on the sizes holding; a PTX program's space, on a device that cannot load it,
 * its emulation alone. */
#include "unit.h"

#include "harness/space/space_int.h"
#include "rt/family/registry.h"
#include "rt/util/util.h"

static void device(gb_device_info_t *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "test device");
    snprintf(d->vendor, sizeof d->vendor, "Test");
    d->type_name = "gpu";
    d->compute_units = 16;
    d->max_wg_size = 1024;
    d->max_wi_sizes[0] = d->max_wi_sizes[1] = d->max_wi_sizes[2] = 1024;
    d->local_mem = d->local_mem_kernel = 48 * 1024;
    d->fp64 = 1;
    d->image_support = 1;
    d->image2d_from_buffer = 1;
    d->extensions = (char *)"cl_khr_fp64 cl_intel_subgroups cl_intel_required_subgroup_size "
                            "cl_nv_device_attribute_query";
    /* The architecture the PTX programs (sgemm_wgmma, sm_90a) are for. */
    snprintf(d->family, sizeof d->family, "nvidia-sm_90");
}

/* Every raw configuration through gb_space_check: the count, and each valid one's rank seen once. */
static uint64_t brute(const gb_space_t *sp, unsigned char *seen)
{
    const size_t n = gb_space_nparams(sp);
    gb_space_cand_t c;
    memset(&c, 0, sizeof c);
    uint64_t valid = 0;
    for (;;) {
        if (gb_space_check(sp, &c, NULL, 0) == GB_OK) {
            valid++;
            const uint64_t r = gb_space_rank(sp, &c);
            if (CHECK(r < gb_space_count(sp)) && seen) {
                CHECK(!seen[r]);
                seen[r] = 1;
                gb_space_cand_t back;
                CHECK(gb_space_unrank(sp, r, &back) == GB_OK && !memcmp(&back, &c, sizeof c));
            }
        }
        size_t i = 0;
        while (i < n && ++c.v[i] == gb_space_nvalues(sp, i))
            c.v[i++] = 0;
        if (i == n)
            return valid;
    }
}

static uint64_t raw_size(const gb_space_t *sp)
{
    uint64_t raw = 1;
    for (size_t i = 0; i < gb_space_nparams(sp); i++)
        raw *= gb_space_nvalues(sp, i);
    return raw;
}

static void test_builtin(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    size_t checked = 0;
    for (size_t fi = 0; fi < gb_registry_count(reg); fi++) {
        const gb_family_t *f = gb_registry_family(reg, fi);
        for (int p = 0; p < GB_PREC_COUNT; p++) {
            if (!(gb_family_precisions(f) & (1u << p)))
                continue;
            gb_space_t *sp;
            char msg[512];
            if (!CHECK_RC(gb_space_open(&sp, f, (gb_precision_t)p, dev, NULL, 0, msg, sizeof msg),
                          GB_OK)) {
                printf("    %s: %s\n", gb_family_name(f), msg);
                continue;
            }
            /* The counting order keeps the memo small (in the family's order dgemm_dmma_nn
             * held 3.5 million states, half a gigabyte). */
            const size_t states = sp->memo_used;
            if (!CHECK(states <= 100000))
                printf("    %s %c: %zu memo states\n", gb_family_name(f), "sd"[p], states);
            if (raw_size(sp) <= 70000) {
                unsigned char *seen = calloc(gb_space_count(sp), 1);
                const uint64_t valid = brute(sp, seen);
                if (!CHECK(valid == gb_space_count(sp)))
                    printf("    %s %c: counted %llu, brute force %llu\n", gb_family_name(f),
                           "sd"[p], (unsigned long long)gb_space_count(sp),
                           (unsigned long long)valid);
                free(seen);
                checked++;
            }
            /* Some unranked configurations are valid, and their parameters round trip. */
            for (uint64_t r = 0; r < gb_space_count(sp); r += gb_space_count(sp) / 7 + 1) {
                gb_space_cand_t c, back;
                gb_params_t ps;
                CHECK_RC(gb_space_unrank(sp, r, &c), GB_OK);
                CHECK_RC(gb_space_check(sp, &c, NULL, 0), GB_OK);
                CHECK(gb_space_rank(sp, &c) == r);
                gb_space_params(sp, &c, &ps);
                CHECK(gb_space_find(sp, &ps, &back) == GB_OK && !memcmp(&c, &back, sizeof c));
            }
            gb_space_cand_t c;
            CHECK_RC(gb_space_unrank(sp, gb_space_count(sp), &c), GB_EBADARG);
            gb_space_close(sp);
        }
    }
    CHECK(checked >= 12);
}

/* A family that serves a complex precision through its real one by the 1M method has, in the
 * complex precision, the real precision's space: its constraints and limits see the real
 * kernel's element (ELEM 4 for c through s), as the configuration check does. */
static void test_onem(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    size_t checked = 0;
    for (size_t fi = 0; fi < gb_registry_count(reg); fi++) {
        const gb_family_t *f = gb_registry_family(reg, fi);
        const unsigned own = gb_family_precisions(f);
        for (int p = 0; p < GB_PREC_COUNT; p++) {
            const gb_precision_t prec = (gb_precision_t)p, real = gb_precision_arith(prec);
            if ((own & (1u << p)) || !(gb_precisions_1m(own) & (1u << p)))
                continue;
            gb_space_t *sc, *sr;
            char msg[512];
            if (!CHECK_RC(gb_space_open(&sc, f, prec, dev, NULL, 0, msg, sizeof msg), GB_OK))
                continue;
            CHECK_RC(gb_space_open(&sr, f, real, dev, NULL, 0, msg, sizeof msg), GB_OK);
            if (!CHECK(sr && gb_space_count(sc) == gb_space_count(sr)))
                printf("    %s %s: %llu configurations, %s %llu\n", gb_family_name(f),
                       gb_precision_name(prec), (unsigned long long)gb_space_count(sc),
                       gb_precision_name(real), sr ? (unsigned long long)gb_space_count(sr) : 0);
            gb_space_close(sc);
            gb_space_close(sr);
            checked++;
        }
    }
    CHECK(checked >= 10);
}

/* Made up: A in {1,2,4,8}, B in {1,2,4,8}, C free in {0,1,2}, with A * B <= 8 and A >= B:
 * (1,1) (2,1) (2,2) (4,1) (4,2) (8,1) = 6 pairs, times 3 for C: 18. */
static const char toy[] =
    "{'family': 'toy', 'source': 'toy.cl', 'entry': 'k', 'precisions': ['s'], 'layouts': "
    "['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'], 'global': ['M', 'N'],"
    " 'parameters': {'A': {'default': 1, 'values': [1, 2, 4, 8]}, 'B': {'default': 1, 'values':"
    " [8, 4, 2, 1]}, 'C': {'default': 0, 'range': [0, 2]}}, 'constraints': ['A * B <= 8', "
    "'A >= B', 'K > 0']}";

static int parse_toy(const char *from, const char *to, gb_family_t *f)
{
    char buf[2048], msg[256];
    const char *at = from ? strstr(toy, from) : NULL;
    if (at)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - toy), toy, to, at + strlen(from));
    else
        snprintf(buf, sizeof buf, "%s", toy);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    int rc = gb__family_parse(buf, strlen(buf), "toy.json", f, msg, sizeof msg);
    if (rc != GB_OK)
        printf("    %s\n", msg);
    else
        f->origin = gb__strdup("toy.json");
    return rc;
}

/* A parameter that changes the kernel only in layouts the family lacks is held at its default
 * (C's three values to one: 6 configurations); in a layout it has, it is tuned (18); a bad
 * layout name is refused, naming the key. */
static void test_param_layouts(const gb_device_info_t *dev)
{
    static const struct {
        const char *layouts;
        int rc;
        unsigned long long count;
    } cases[] = {{"['row-TN', 'col-NN']", GB_OK, 6},
                 {"['row-TN', 'row-NN']", GB_OK, 18},
                 {"['any']", GB_OK, 18},
                 {"['rowNN']", GB_EMETADATA, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char with[128];
        snprintf(with, sizeof with, "'C': {'default': 0, 'layouts': %s, ", cases[i].layouts);
        gb_family_t f;
        if (!CHECK_RC(parse_toy("'C': {'default': 0, ", with, &f), cases[i].rc) || cases[i].rc)
            continue;
        gb_space_t *sp;
        char msg[512];
        if (CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, NULL, 0, msg, sizeof msg), GB_OK)) {
            CHECK(gb_space_count(sp) == cases[i].count);
            gb_space_close(sp);
        }
        gb__family_free(&f);
    }
}

/* The mma.sync families: KCONT tuned where an operand is K-contiguous (dgemm_dmma_nn's NN, NT,
 * TT), held at 0 in dgemm_dmma, whose only layout is TN. */
static void test_kcont(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    static const struct {
        const char *family;
        size_t values;
    } cases[] = {{"dgemm_dmma", 1}, {"dgemm_dmma_nn", 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gb_family_t *f = NULL;
        const gb_preset_t *ps = NULL;
        gb_space_t *sp;
        char msg[512];
        if (!CHECK_RC(gb_registry_find(reg, cases[i].family, &f, &ps), GB_OK) ||
            !CHECK_RC(gb_space_open(&sp, f, GB_PREC_D, dev, NULL, 0, msg, sizeof msg), GB_OK))
            continue;
        size_t k = 0;
        while (k < gb_space_nparams(sp) && strcmp(gb_space_param(sp, k), "KCONT"))
            k++;
        CHECK(k < gb_space_nparams(sp) && gb_space_nvalues(sp, k) == cases[i].values);
        gb_space_close(sp);
    }
}

/* A PTX program on a device that cannot load it: its space holds the emulation alone, so that
 * tune runs there with EMU 1 as the kernel's error message says; EMU is not tuned, so
 * without it given (or with 0) the space is empty and says why, where the GPU's is not. */
static void test_ptx_emulated(const gb_registry_t *reg, const gb_device_info_t *dev)
{
    gb_device_info_t cpu = *dev;
    snprintf(cpu.family, sizeof cpu.family, "pocl-cpu");
    const gb_family_t *f = NULL;
    const gb_preset_t *ps = NULL;
    gb_space_t *sp;
    char msg[512];
    if (!CHECK_RC(gb_registry_find(reg, "sgemm_wgmma", &f, &ps), GB_OK))
        return;
    static const long one[] = {1}, zero[] = {0};
    const gb_space_values_t emulated[] = {{"EMU", one, 1}}, native[] = {{"EMU", zero, 1}};
    if (CHECK_RC(gb_space_open(&sp, f, GB_PREC_S, &cpu, emulated, 1, msg, sizeof msg), GB_OK)) {
        CHECK(gb_space_count(sp) > 0);
        for (uint64_t r = 0; r < gb_space_count(sp); r += gb_space_count(sp) / 5 + 1) {
            gb_space_cand_t c;
            gb_params_t p;
            long emu = 0;
            CHECK_RC(gb_space_unrank(sp, r, &c), GB_OK);
            gb_space_params(sp, &c, &p);
            CHECK(gb_params_get(&p, "EMU", &emu) && emu == 1);
        }
        gb_space_close(sp);
    }
    for (int given = 0; given < 2; given++) {
        msg[0] = '\0';
        CHECK_RC(gb_space_open(&sp, f, GB_PREC_S, &cpu, native, (size_t)given, msg, sizeof msg),
                 GB_EUNSUPPORTED);
        CHECK(strstr(msg, "PTX") && strstr(msg, "'EMU'"));
    }
    if (CHECK_RC(gb_space_open(&sp, f, GB_PREC_S, dev, native, 1, msg, sizeof msg), GB_OK))
        gb_space_close(sp);
}

static void test_toy(const gb_device_info_t *dev)
{
    gb_family_t f;
    gb_space_t *sp;
    char msg[512];
    if (!CHECK_RC(parse_toy(NULL, NULL, &f), GB_OK))
        return;
    if (!CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, NULL, 0, msg, sizeof msg), GB_OK))
        return;
    CHECK(gb_space_count(sp) == 18);
    /* Candidates ascending; the range 0..2 as its ends, powers of two and default: 0, 1, 2. */
    CHECK(gb_space_nparams(sp) == 3);
    size_t b = 0;
    while (b < 3 && strcmp(gb_space_param(sp, b), "B"))
        b++;
    CHECK(b < 3 && gb_space_nvalues(sp, b) == 4 && gb_space_value(sp, b, 0) == 1 &&
          gb_space_value(sp, b, 3) == 8);
    CHECK(brute(sp, NULL) == 18);
    /* Neighbours of (A=2, B=2, C=1): A to 1 fails A >= B, A to 4 is fine (8 <= 8), B to 1 is
     * fine, B to 4 fails A >= B, C to 0 and 2 are fine: four. */
    gb_params_t ps;
    memset(&ps, 0, sizeof ps);
    gb_params_set(&ps, "A", 2);
    gb_params_set(&ps, "B", 2);
    gb_params_set(&ps, "C", 1);
    gb_space_cand_t c, nb[8];
    CHECK_RC(gb_space_find(sp, &ps, &c), GB_OK);
    CHECK(gb_space_neighbours(sp, &c, nb, 8) == 4);
    gb_params_set(&ps, "A", 3);
    CHECK_RC(gb_space_find(sp, &ps, &c), GB_EBADPARAM);
    gb_params_set(&ps, "A", 8);
    CHECK_RC(gb_space_find(sp, &ps, &c), GB_OK);
    CHECK_RC(gb_space_check(sp, &c, msg, sizeof msg), GB_ECONSTRAINT);
    CHECK_HAS(msg, "A * B <= 8");
    gb_space_close(sp);
    /* Narrowed: A in {4, 8}, C fixed at 2: (4,1) (4,2) (8,1) = 3. */
    const long a_vals[] = {8, 4, 8}, c_vals[] = {2};
    const gb_space_values_t narrow[] = {{"A", a_vals, 3}, {"C", c_vals, 1}};
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, narrow, 2, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 3);
    gb_space_close(sp);
    /* Errors: an unknown parameter, a value not allowed, a precision it lacks, and a space that
     * one constraint empties, named. */
    const gb_space_values_t bad_name[] = {{"Q", a_vals, 1}};
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, bad_name, 1, msg, sizeof msg), GB_EBADPARAM);
    CHECK_HAS(msg, "no parameter Q");
    const long three[] = {3};
    const gb_space_values_t bad_value[] = {{"A", three, 1}};
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, bad_value, 1, msg, sizeof msg), GB_EBADPARAM);
    CHECK_HAS(msg, "A=3 is not allowed");
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_D, dev, NULL, 0, msg, sizeof msg), GB_EUNSUPPORTED);
    const long one[] = {1}, eight[] = {8};
    const gb_space_values_t empty[] = {{"A", one, 1}, {"B", eight, 1}};
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, empty, 2, msg, sizeof msg), GB_ECONSTRAINT);
    CHECK_HAS(msg, "passes its constraint 'A >= B'");
    gb__family_free(&f);
    /* The device's limits: a work-group of A x B work-items over a device of 8. */
    if (!CHECK_RC(
            parse_toy("'global': ['M', 'N'],", "'global': ['M', 'N'], 'local': ['A', 'B'],", &f),
            GB_OK))
        return;
    gb_device_info_t small = *dev;
    small.max_wg_size = 4;
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, &small, NULL, 0, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 4 * 3); /* (1,1) (2,1) (2,2) (4,1) */
    gb_space_close(sp);
    gb__family_free(&f);
    /* The device's local memory, at its limit: A * B * 16 bytes of a device's 64 leaves the
     * pairs of at most 4 work-items, the limit itself included: (1,1) (2,1) (2,2) (4,1). The
     * space and the check of one configuration (gb_config_check) agree there. */
    if (!CHECK_RC(parse_toy("'global': ['M', 'N'],",
                            "'global': ['M', 'N'], 'requires': {'local_memory': 'A * B * 16'},",
                            &f),
                  GB_OK))
        return;
    small = *dev;
    small.local_mem = small.local_mem_kernel = 64;
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, &small, NULL, 0, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 4 * 3);
    CHECK(brute(sp, NULL) == 4 * 3);
    gb_space_close(sp);
    gb_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.family = &f;
    gb_params_set(&cfg.params, "A", 2);
    gb_params_set(&cfg.params, "B", 2);
    gb_params_set(&cfg.params, "C", 0);
    CHECK_RC(gb_config_check(&cfg, &small, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    gb_params_set(&cfg.params, "A", 4);
    CHECK_RC(gb_config_check(&cfg, &small, GB_PREC_S, NULL, msg, sizeof msg), GB_ELOCALMEM);
    CHECK_HAS(msg, "needs 128 bytes of local memory");
    gb__family_free(&f);
    /* C left as it is ("tune": false, as EMU): the space holds its default alone, 6 pairs; a
     * narrowing still names its values; a tune that is not true or false is refused. */
    if (!CHECK_RC(parse_toy("'C': {'default': 0, ", "'C': {'default': 0, 'tune': false, ", &f),
                  GB_OK))
        return;
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, NULL, 0, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 6);
    CHECK(brute(sp, NULL) == 6);
    gb_space_close(sp);
    const long c_both[] = {0, 2};
    const gb_space_values_t c_named[] = {{"C", c_both, 2}};
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, c_named, 1, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 12);
    gb_space_close(sp);
    gb__family_free(&f);
    CHECK_RC(parse_toy("'C': {'default': 0, ", "'C': {'default': 0, 'tune': 0, ", &f),
             GB_EMETADATA);
    /* No parameters: nothing to tune. */
    if (!CHECK_RC(parse_toy(", 'parameters': {'A': {'default': 1, 'values': [1, 2, 4, 8]}, 'B':"
                            " {'default': 1, 'values': [8, 4, 2, 1]}, 'C': {'default': 0, "
                            "'range': [0, 2]}}, 'constraints': ['A * B <= 8', 'A >= B', 'K > 0']",
                            "", &f),
                  GB_OK))
        return;
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, NULL, 0, msg, sizeof msg), GB_EBADPARAM);
    CHECK_HAS(msg, "nothing to tune");
    gb__family_free(&f);
}

/* A space bound to a problem: the constraints on its sizes hold in it (unbound, they wait for
 * each configuration's check). The toy with 'A * K <= 16' beside its own: K = 4 keeps A <= 4, so
 * (1,1) (2,1) (2,2) (4,1) (4,2) = 5 pairs, 15 with C; K = 2 keeps all 18; K = 32 none (named);
 * every configuration the bound space holds passes gb_config_check with the problem. */
static void test_bound(const gb_device_info_t *dev)
{
    gb_family_t f;
    gb_space_t *sp;
    char msg[512];
    if (!CHECK_RC(parse_toy("'K > 0'", "'K > 0', 'A * K <= 16'", &f), GB_OK))
        return;
    CHECK_RC(gb_space_open(&sp, &f, GB_PREC_S, dev, NULL, 0, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 18);
    gb_space_close(sp);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 64, 64, 4);
    CHECK_RC(gb_space_open_for(&sp, &f, GB_PREC_S, dev, NULL, 0, &p, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 15);
    CHECK(brute(sp, NULL) == 15);
    for (uint64_t r = 0; r < gb_space_count(sp); r++) {
        gb_space_cand_t c;
        gb_config_t cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.family = &f;
        CHECK_RC(gb_space_unrank(sp, r, &c), GB_OK);
        gb_space_params(sp, &c, &cfg.params);
        CHECK_RC(gb_config_check(&cfg, dev, GB_PREC_S, &p, msg, sizeof msg), GB_OK);
    }
    gb_space_close(sp);
    p.k = 2;
    CHECK_RC(gb_space_open_for(&sp, &f, GB_PREC_S, dev, NULL, 0, &p, msg, sizeof msg), GB_OK);
    CHECK(gb_space_count(sp) == 18);
    gb_space_close(sp);
    p.k = 32;
    CHECK_RC(gb_space_open_for(&sp, &f, GB_PREC_S, dev, NULL, 0, &p, msg, sizeof msg),
             GB_ECONSTRAINT);
    CHECK_HAS(msg, "no configuration of kernel 'toy' passes its constraint");
    gb__family_free(&f);
}

int main(void)
{
    gb_registry_t *reg;
    char msg[512];
    gb_device_info_t dev;
    device(&dev);
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return unit_finish();
    test_builtin(reg, &dev);
    test_onem(reg, &dev);
    test_toy(&dev);
    test_param_layouts(&dev);
    test_kcont(reg, &dev);
    test_ptx_emulated(reg, &dev);
    test_bound(&dev);
    gb_registry_close(reg);
    return unit_finish();
}
