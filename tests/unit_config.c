/* unit_config.c: configuring a kernel (src/rt/family/config.c) and the expression evaluator
 * (src/rt/family/expr.c). Parameters come from defaults, then presets, then --param; --lws sets
 * LX/LY; gb_config_check refuses, with its own code, what a device (filled in by hand here)
 * cannot run. Families with extensions, constraints, local memory and work-groups whose size
 * overflows a 64-bit product are written to a temporary --kernel-path. */
#include <limits.h>

#include "unit.h"

#include "rt/family/expr.h"
#include "rt/family/registry.h"

/* Test families, ' for ": one needs an extension and fixes its work-group, one has a constraint
 * on a parameter, one on M, one asks for local memory, one has expressions that cannot be
 * evaluated. */
static const char *const test_families[][3] = {
    {"needs_ext.json", "needs_ext.cl",
     "{'family': 'needs_ext', 'source': 'needs_ext.cl', 'entry': 'k', 'precisions': ['s'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['M', 'N'],"
     " 'requires': {'extensions': ['cl_fake_ext']}}"},
    {"even_dj.json", "even_dj.cl",
     "{'family': 'even_dj', 'source': 'even_dj.cl', 'entry': 'k', 'precisions': ['s', 'd'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['ceil_div(N, DJ)', 'M'],"
     " 'constraints': ['DJ % 2 == 0'],"
     " 'parameters': {'DJ': {'default': 1, 'values': [1, 2, 3, 4]}}}"},
    {"m_multiple.json", "m_multiple.cl",
     "{'family': 'm_multiple', 'source': 'm_multiple.cl', 'entry': 'k', 'precisions': ['s'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['M', 'N'],"
     " 'constraints': ['M % 4 == 0 && K >= 1']}"},
    {"big_lmem.json", "big_lmem.cl",
     "{'family': 'big_lmem', 'source': 'big_lmem.cl', 'entry': 'k', 'precisions': ['s', 'd'],"
     " 'layouts': ['row-NN'], 'args': ['C'], 'global': ['M', 'N'], 'local': ['LX', 'LY'],"
     " 'requires': {'local_memory': 'LX * LY * ELEM * 32'},"
     " 'parameters': {'LX': {'default': 16, 'range': [1, 64]},"
     "                'LY': {'default': 4, 'range': [1, 64]}}}"},
    {"bad_expr.json", "bad_expr.cl",
     "{'family': 'bad_expr', 'source': 'bad_expr.cl', 'entry': 'k', 'precisions': ['s'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['M', 'N'], 'local': ['LX', 'NOPE'],"
     " 'constraints': ['NOPE > 1'], 'parameters': {'LX': {'default': 16, 'range': [1, 64]}}}"},
    {"huge_wg.json", "huge_wg.cl",
     "{'family': 'huge_wg', 'source': 'huge_wg.cl', 'entry': 'k', 'precisions': ['s'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['M', 'N'], 'local': ['LX', 'LY'],"
     " 'parameters': {'LX': {'default': 1, 'range': [1, 1000000000000]},"
     "                'LY': {'default': 1, 'range': [1, 1000000000000]}}}"},
    {"bad_lmem.json", "bad_lmem.cl",
     "{'family': 'bad_lmem', 'source': 'bad_lmem.cl', 'entry': 'k', 'precisions': ['s'],"
     " 'layouts': ['any'], 'args': ['C'], 'global': ['M', 'N'],"
     " 'requires': {'local_memory': 'ELEM +'}}"},
};

static char ext_plain[] = "cl_khr_fp64 cl_khr_int64_base_atomics cl_fake_ext2";
static char ext_fake[] = "cl_khr_fp64 cl_fake_ext cl_khr_int64_base_atomics";

static gb_device_info_t fake_device(void)
{
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "fake");
    d.type_name = "gpu";
    d.fp64 = 1;
    d.max_wg_size = 1024;
    d.max_wi_sizes[0] = 1024;
    d.max_wi_sizes[1] = 1024;
    d.max_wi_sizes[2] = 64;
    d.local_mem = d.local_mem_kernel = 16384;
    d.extensions = ext_plain;
    return d;
}

static gb_problem_t problem(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, size_t m)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, m, 8, 8);
    p.layout = layout;
    p.trans_a = ta;
    p.trans_b = tb;
    CHECK_RC(gb_problem_check(&p, NULL, 0), GB_OK);
    return p;
}

static long param(const gb_config_t *c, const char *name)
{
    long v = LONG_MIN;
    gb_params_get(&c->params, name, &v);
    return v;
}

static void test_resolve(const gb_registry_t *reg)
{
    gb_config_t c;
    gb_params_t o;
    char msg[512] = "";

    CHECK_RC(gb_config_resolve(reg, "gemmbench_nt", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(c.family && !strcmp(gb_family_name(c.family), "gemmbench_nt") && c.preset == NULL);
    CHECK(!strcmp(gb_config_name(&c), "gemmbench_nt"));
    CHECK(c.params.count == 6);
    CHECK(param(&c, "DJ") == 4 && param(&c, "VW") == 4 && param(&c, "BARRIER") == 0);
    CHECK(param(&c, "DK") == 32 && param(&c, "LX") == 16 && param(&c, "LY") == 4);

    CHECK_RC(gb_config_resolve(reg, "SGEMM_NT_4x1_barrier", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(c.preset && !strcmp(gb_config_name(&c), "SGEMM_NT_4x1_barrier"));
    CHECK(param(&c, "BARRIER") == 1 && param(&c, "DK") == 32 && param(&c, "DJ") == 4);
    CHECK(param(&c, "LX") == 16); /* defaults fill what the preset leaves */

    /* --param wins over the preset, which wins over the default. */
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_parse(&o, "DK=64", msg, sizeof msg), GB_OK);
    CHECK_RC(gb_params_parse(&o, "DJ=8", msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "SGEMM_NT_1x1", &o, &c, msg, sizeof msg), GB_OK);
    CHECK(param(&c, "DK") == 64 && param(&c, "DJ") == 8 && param(&c, "VW") == 4);
    CHECK(c.params.count == 6);

    /* Case-insensitive name; overrides may be NULL. */
    CHECK_RC(gb_config_resolve(reg, "sgemm_nn_4x1", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(c.preset && !strcmp(c.preset->name, "SGEMM_NN_4x1"));

    CHECK_RC(gb_config_resolve(reg, "nope", NULL, &c, msg, sizeof msg), GB_ENOKERNEL);
    CHECK_HAS(msg, "nope");

    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_parse(&o, "FOO=1", msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "gemmbench_nt", &o, &c, msg, sizeof msg), GB_EBADPARAM);
    CHECK_HAS(msg, "FOO");
    /* naive has LX/LY but no DJ. */
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_set(&o, "DJ", 4), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "naive", &o, &c, msg, sizeof msg), GB_EBADPARAM);

    static const char *const disallowed[] = {"DJ=3",    "DJ=0",    "VW=32",    "LX=0",
                                             "LX=1025", "DK=4097", "BARRIER=2"};
    for (size_t i = 0; i < sizeof disallowed / sizeof disallowed[0]; i++) {
        memset(&o, 0, sizeof o);
        CHECK_RC(gb_params_parse(&o, disallowed[i], msg, sizeof msg), GB_OK);
        msg[0] = '\0';
        if (!CHECK_RC(gb_config_resolve(reg, "gemmbench_nt", &o, &c, msg, sizeof msg),
                      GB_EBADPARAM))
            printf("    --param %s\n", disallowed[i]);
        CHECK_HAS(msg, disallowed[i]);
    }

    static const char *const unparsable[] = {
        "DJ", "=4", "DJ=", "DJ=x", "DJ=4x", "DJ=99999999999999999999999"};
    for (size_t i = 0; i < sizeof unparsable / sizeof unparsable[0]; i++) {
        memset(&o, 0, sizeof o);
        if (!CHECK_RC(gb_params_parse(&o, unparsable[i], msg, sizeof msg), GB_EBADPARAM))
            printf("    --param %s\n", unparsable[i]);
    }
    /* Setting a name twice keeps the last value; 32 names at most. */
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_set(&o, "A", 1), GB_OK);
    CHECK_RC(gb_params_set(&o, "A", 2), GB_OK);
    long v = 0;
    CHECK(o.count == 1 && gb_params_get(&o, "A", &v) && v == 2);
    CHECK(!gb_params_get(&o, "B", &v));
    for (int i = 0; i < GB_MAX_PARAMS - 1; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        CHECK_RC(gb_params_set(&o, name, i), GB_OK);
    }
    CHECK_RC(gb_params_set(&o, "ONE_TOO_MANY", 1), GB_EBADPARAM);
    CHECK_RC(gb_params_set(&o, "P0", 5), GB_OK);
}

static void test_lws(const gb_registry_t *reg)
{
    gb_config_t c;
    char msg[512] = "";
    CHECK_RC(gb_config_resolve(reg, "naive", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_set_lws(&c, 8, 32, msg, sizeof msg), GB_OK);
    CHECK(param(&c, "LX") == 8 && param(&c, "LY") == 32);
    CHECK_RC(gb_config_set_lws(&c, 0, 4, msg, sizeof msg), GB_EBADLWS);
    CHECK_RC(gb_config_set_lws(&c, 4, 0, msg, sizeof msg), GB_EBADLWS);
    CHECK_RC(gb_config_set_lws(&c, 2048, 1, msg, sizeof msg), GB_EBADLWS);
    CHECK_HAS(msg, "2048");
    CHECK(param(&c, "LX") == 8 && param(&c, "LY") == 32); /* unchanged by the refusals */

    CHECK_RC(gb_config_resolve(reg, "SGEMM_NT_4x1", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_set_lws(&c, 32, 2, msg, sizeof msg), GB_OK);
    CHECK(param(&c, "LX") == 32 && param(&c, "LY") == 2 && param(&c, "DJ") == 4);

    CHECK_RC(gb_config_resolve(reg, "needs_ext", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_set_lws(&c, 8, 8, msg, sizeof msg), GB_EBADLWS);
    CHECK_HAS(msg, "needs_ext");
}

static void test_check(const gb_registry_t *reg)
{
    gb_config_t c;
    gb_params_t o;
    char msg[512] = "";
    gb_device_info_t dev = fake_device();
    const gb_problem_t row_nn = problem(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 8);

    /* Precision: the device's fp64, and the preset's own precision. */
    CHECK_RC(gb_config_resolve(reg, "naive", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, &row_nn, msg, sizeof msg), GB_OK);
    dev.fp64 = 0;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, &row_nn, msg, sizeof msg), GB_ENOFP64);
    CHECK_HAS(msg, "fake");
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);
    dev.fp64 = 1;
    CHECK_RC(gb_config_resolve(reg, "SGEMM_NT_4x1", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, NULL, msg, sizeof msg), GB_EUNSUPPORTED);

    /* Work-group size: LX * LY = 64 against the device's limits. */
    CHECK_RC(gb_config_resolve(reg, "gemmbench_nn", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(param(&c, "LX") == 16 && param(&c, "LY") == 4);
    dev.max_wg_size = 32;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    CHECK_HAS(msg, "16 x 4");
    dev.max_wg_size = 64;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);
    dev.max_wi_sizes[0] = 8;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    dev = fake_device();
    dev.max_wi_sizes[1] = 2;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    dev = fake_device();
    /* A work-group of 2^32 x 2^32 items: the product (2^64) must not wrap to 0 and pass, even
     * on a device whose per-dimension limits would let each size through. */
    gb_config_t h;
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_set(&o, "LX", 4294967296L), GB_OK);
    CHECK_RC(gb_params_set(&o, "LY", 4294967296L), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "huge_wg", &o, &h, msg, sizeof msg), GB_OK);
    dev.max_wi_sizes[0] = dev.max_wi_sizes[1] = SIZE_MAX;
    CHECK_RC(gb_config_check(&h, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    CHECK_HAS(msg, "4294967296 x 4294967296");
    CHECK_RC(gb_params_set(&o, "LY", 1), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "huge_wg", &o, &h, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&h, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    CHECK_RC(gb_params_set(&o, "LX", 32), GB_OK);
    CHECK_RC(gb_params_set(&o, "LY", 32), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "huge_wg", &o, &h, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&h, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK); /* 1024 */
    CHECK_RC(gb_params_set(&o, "LY", 33), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "huge_wg", &o, &h, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&h, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EWGSIZE);
    dev = fake_device();
    /* Without a device only the problem-independent and problem checks run. */
    CHECK_RC(gb_config_check(&c, NULL, GB_PREC_D, &row_nn, msg, sizeof msg), GB_OK);

    /* Extensions: matched as whole names, not prefixes. */
    CHECK_RC(gb_config_resolve(reg, "needs_ext", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_ENOEXT);
    CHECK_HAS(msg, "cl_fake_ext");
    dev.extensions = NULL;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_ENOEXT);
    dev.extensions = ext_fake;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);
    dev = fake_device();

    /* Constraints on parameters, and on the problem (which wait for one). */
    CHECK_RC(gb_config_resolve(reg, "even_dj", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_ECONSTRAINT);
    CHECK_HAS(msg, "DJ % 2 == 0");
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_ECONSTRAINT);
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_set(&o, "DJ", 2), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "even_dj", &o, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);

    CHECK_RC(gb_config_resolve(reg, "m_multiple", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);
    const gb_problem_t m6 = problem(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 6);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &m6, msg, sizeof msg), GB_ECONSTRAINT);

    /* A constraint that cannot be evaluated waits for the problem (it may name M, N or K), then
     * is a metadata error naming the file; so are bad local size and memory expressions. */
    CHECK_RC(gb_config_resolve(reg, "bad_expr", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, NULL, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, NULL, GB_PREC_S, &row_nn, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "bad_expr.json");
    CHECK_HAS(msg, "NOPE");
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "local size");
    CHECK_RC(gb_config_resolve(reg, "bad_lmem", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "local_memory");

    /* Local memory: LX * LY * ELEM * 32 bytes against 16 KiB. */
    CHECK_RC(gb_config_resolve(reg, "big_lmem", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK); /* 8 KiB */
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, &row_nn, msg, sizeof msg), GB_OK); /* 16 KiB */
    CHECK_RC(gb_config_set_lws(&c, 32, 4, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, &row_nn, msg, sizeof msg), GB_ELOCALMEM);
    CHECK_HAS(msg, "32768");
    dev.local_mem = dev.local_mem_kernel = 1024;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &row_nn, msg, sizeof msg), GB_ELOCALMEM);
    dev = fake_device();
}

static void test_layouts(const gb_registry_t *reg)
{
    gb_config_t c;
    char msg[512] = "";
    const gb_device_info_t dev = fake_device();
    const gb_problem_t row_nt = problem(GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, 8);
    const gb_problem_t row_nn = problem(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 8);
    const gb_problem_t col_tn = problem(GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, 8);
    const gb_problem_t col_nt = problem(GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, 8);
    const gb_problem_t col_nn = problem(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 8);

    /* Every layout reaches every family: natively, through the operand swap, or through
     * transposition passes (the route is the harness's business, tested on the device). */
    static const char *const names[] = {"gemmbench_nt", "gemmbench_nn"};
    const gb_problem_t *all[] = {&row_nt, &row_nn, &col_tn, &col_nt, &col_nn};
    for (size_t f = 0; f < 2; f++) {
        CHECK_RC(gb_config_resolve(reg, names[f], NULL, &c, msg, sizeof msg), GB_OK);
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, all[i], msg, sizeof msg), GB_OK);
    }

    /* naive runs any layout. */
    CHECK_RC(gb_config_resolve(reg, "naive", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &col_nt, msg, sizeof msg), GB_OK);
}

static int eval(const char *expr, long long *out, char *msg, size_t msglen)
{
    static const gb_var_t vars[] = {{"M", 100}, {"N", 7}, {"WPT", 4}, {"ZERO", 0}, {"NEG", -3}};
    msg[0] = '\0';
    return gb__expr_eval(expr, vars, sizeof vars / sizeof vars[0], out, msg, msglen);
}

static void test_expr(void)
{
    static const struct {
        const char *expr;
        long long want;
    } good[] = {
        {"2 + 3 * 4", 14},
        {"(2 + 3) * 4", 20},
        {"10 - 4 - 3", 3},
        {"100 / 10 / 5", 2},
        {"7 / 2", 3},
        {"-7 / 2", -3},
        {"7 % 3", 1},
        {"-7 % 3", -1},
        {"-2 * -3", 6},
        {"- - 5", 5},
        {"+5", 5},
        {"2 * 3 % 4", 2},
        {"M * N + WPT", 704},
        {"NEG * NEG", 9},
        {"ceil_div(N, WPT)", 2},
        {"ceil_div(8, 4)", 2},
        {"ceil_div(0, 4)", 0},
        {"round_up(M, 16)", 112},
        {"round_up(96, 16)", 96},
        {"round_up(97, 0)", 97}, /* no work-group to round to: the driver's (-lws 0,0) */
        {"min(M, N)", 7},
        {"max(M, N)", 100},
        {"min(NEG, 0)", -3},
        {"max(min(5, 9), ceil_div(M, 3))", 34},
        {"1 < 2", 1},
        {"2 < 2", 0},
        {"2 <= 2", 1},
        {"3 >= 4", 0},
        {"3 > 2", 1},
        {"4 == 4", 1},
        {"4 != 4", 0},
        {"1 + 2 > 2", 1},
        {"M % WPT == 0", 1},
        {"1 == 1 && 2 != 2", 0},
        {"0 || 1", 1},
        {"1 || 0 && 0", 1},
        {"(1 || 0) && 0", 0},
        {"!0", 1},
        {"!5", 0},
        {"!(1 == 2)", 1},
        {"!ZERO && N", 1},
        {"  42  ", 42},
        {"ZERO || 1 / 1", 1},
        /* The ends of long long are reachable without overflowing. */
        {"-1073741824 * 1073741824 * 8", -9223372036854775807LL - 1},
        {"-1073741824 * 1073741824 * 8 / 1", -9223372036854775807LL - 1},
        {"(1073741824 * 1073741824 * 4 - 1) * 2 + 1", 9223372036854775807LL},
        {"-1073741824 * 1073741824 * 8 % -2", 0},
        {"-1073741824 * 1073741824 * 4 * 2", -9223372036854775807LL - 1},
        {"ceil_div(1073741824 * 1073741824 * 4, 2)", 2305843009213693952LL},
    };
    long long v;
    char msg[512];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        v = -999;
        int rc = eval(good[i].expr, &v, msg, sizeof msg);
        if (!CHECK(rc == GB_OK && v == good[i].want))
            printf("    '%s' gave %s, %lld (want %lld) %s\n", good[i].expr, gb_errname(rc), v,
                   good[i].want, msg);
    }

    static const struct {
        const char *expr, *why;
    } bad[] = {
        {"1 / 0", "division by zero"},
        {"5 % (2 - 2)", "division by zero"},
        {"M / ZERO", "division by zero"},
        {"ceil_div(1, 0)", "ceil_div"},
        {"round_up(1, -2)", "round_up"},
        {"FOO + 1", "unknown name"},
        {"m", "unknown name"},
        {"pow(2, 3)", "unknown function"},
        {"min(1)", "','"},
        {"min(1, 2", "')'"},
        {"(1 + 2", "')'"},
        {"1 2", "unexpected text"},
        {"3)", "unexpected text"},
        {"1 +", "expected"},
        {"", "expected"},
        {"* 2", "expected"},
        {"1 = 1", "unexpected text"},
        {"1 & 1", "unexpected text"},
        {"1 $ 2", "unexpected text"},
        {"99999999999999999999", "too large"},
        /* Overflow of long long is an error, not undefined behaviour (or SIGFPE). */
        {"1125899906842624 * 1125899906842624", "overflow"},
        {"(-1073741824 * 1073741824 * 8) / -1", "overflow"},
        {"(-1073741824 * 1073741824 * 8) % -1", "overflow"},
        {"-(-1073741824 * 1073741824 * 8)", "overflow"},
        {"1073741824 * 1073741824 * 8", "overflow"},
        {"1073741824 * 1073741824 * 4 + 1073741824 * 1073741824 * 4", "overflow"},
        {"-1073741824 * 1073741824 * 8 - 1", "overflow"},
        {"-1073741824 * 1073741824 * 4 * -2", "overflow"},
        {"ceil_div((1073741824 * 1073741824 * 4 - 1) * 2 + 1, 2)", "overflow"},
        {"round_up((1073741824 * 1073741824 * 4 - 1) * 2, 4)", "overflow"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = -999;
        int rc = eval(bad[i].expr, &v, msg, sizeof msg);
        if (!CHECK_RC(rc, GB_EMETADATA))
            printf("    '%s' gave %lld\n", bad[i].expr, v);
        CHECK_HAS(msg, bad[i].why);
        CHECK(v == -999); /* *out untouched on error */
    }

    /* Nesting: 60 parentheses are fine, 100 are refused (not a stack overflow), and so are long
     * chains of unary operators and over-long input. */
    static char deep[4096];
    size_t n = 0;
    for (int i = 0; i < 60; i++)
        deep[n++] = '(';
    deep[n++] = '1';
    for (int i = 0; i < 60; i++)
        deep[n++] = ')';
    deep[n] = '\0';
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_OK);
    CHECK(v == 1);
    n = 0;
    for (int i = 0; i < 100; i++)
        deep[n++] = '(';
    deep[n++] = '1';
    for (int i = 0; i < 100; i++)
        deep[n++] = ')';
    deep[n] = '\0';
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "nested");
    n = 0;
    for (int i = 0; i < 1000; i++)
        deep[n++] = '(';
    deep[n] = '\0';
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_EMETADATA);
    n = 0;
    for (int i = 0; i < 500; i++) {
        deep[n++] = '-';
        deep[n++] = '!';
    }
    deep[n++] = '1';
    deep[n] = '\0';
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_EMETADATA);
    n = 0;
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, "min(");
    n += (size_t)snprintf(deep + n, sizeof deep - n, "1");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, ", 2)");
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_OK);
    CHECK(v == 1);
    n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, "min(");
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_EMETADATA);
    memset(deep, '1', 1025);
    deep[1025] = '\0';
    CHECK_RC(eval(deep, &v, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "1024");
    /* msg may be NULL. */
    CHECK_RC(gb__expr_eval("1 / 0", NULL, 0, &v, NULL, 0), GB_EMETADATA);
}

/* A PTX program (sgemm_wgmma, built in: ptx_target sm_90a unless EMU): taken by an NVIDIA
 * device of exactly that architecture, refused in one line elsewhere; its emulation is plain
 * OpenCL C, taken anywhere. */
static void test_ptx(const gb_registry_t *reg)
{
    gb_config_t c;
    gb_params_t o;
    char msg[512] = "";
    gb_device_info_t dev = fake_device();
    dev.local_mem = dev.local_mem_kernel = 49152;
    gb_problem_t sq = problem(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 256);
    sq.k = 256; /* the family's constraint: K >= 48 */
    if (!CHECK_RC(gb_config_resolve(reg, "sgemm_wgmma_128x128", NULL, &c, msg, sizeof msg), GB_OK))
        return;
    CHECK(gb__config_ptx(&c, GB_PREC_S) && !strcmp(gb__config_ptx(&c, GB_PREC_S), "sm_90a"));
    static const struct {
        const char *family;
        int rc;
    } devices[] = {
        {"nvidia-sm_90", GB_OK},
        {"nvidia-sm_89", GB_EUNSUPPORTED},
        {"nvidia-sm_100", GB_EUNSUPPORTED}, /* sm_90a's instructions exist on sm_90 alone */
        {"nvidia-sm_9", GB_EUNSUPPORTED},
        {"pocl-cpu-skylake-avx512", GB_EUNSUPPORTED},
        {"", GB_EUNSUPPORTED}};
    for (size_t i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        snprintf(dev.family, sizeof dev.family, "%s", devices[i].family);
        msg[0] = '\0';
        if (!CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &sq, msg, sizeof msg), devices[i].rc))
            printf("    device family '%s': %s\n", devices[i].family, msg);
        if (devices[i].rc != GB_OK) {
            CHECK_HAS(msg, "PTX program for sm_90a");
            CHECK_HAS(msg, "'EMU' holds");
            CHECK(!strchr(msg, '\n'));
        }
    }
    /* Its emulation: no PTX, any device. */
    memset(&o, 0, sizeof o);
    CHECK_RC(gb_params_set(&o, "EMU", 1), GB_OK);
    CHECK_RC(gb_config_resolve(reg, "sgemm_wgmma", &o, &c, msg, sizeof msg), GB_OK);
    CHECK(gb__config_ptx(&c, GB_PREC_S) == NULL);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, &sq, msg, sizeof msg), GB_OK);
    /* A family without ptx_target has none. */
    CHECK_RC(gb_config_resolve(reg, "naive", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(gb__config_ptx(&c, GB_PREC_S) == NULL);
}

int main(void)
{
    char dir[64];
    gb_registry_t *reg = NULL;
    char msg[512] = "";
    test_expr();
    if (!CHECK(unit_make_dir(dir, sizeof dir)))
        return unit_finish();
    for (size_t i = 0; i < sizeof test_families / sizeof test_families[0]; i++) {
        char json[1024];
        snprintf(json, sizeof json, "%s", test_families[i][2]);
        for (char *p = json; *p; p++)
            if (*p == '\'')
                *p = '"';
        CHECK(unit_write_file(dir, test_families[i][0], json));
        CHECK(unit_write_file(dir, test_families[i][1], "kernel void k(void) {}\n"));
    }
    if (CHECK_RC(gb_registry_open(&reg, dir, msg, sizeof msg), GB_OK)) {
        test_resolve(reg);
        test_lws(reg);
        test_check(reg);
        test_ptx(reg);
        test_layouts(reg);
        gb_registry_close(reg);
    } else {
        printf("    %s\n", msg);
    }
    unit_remove_dir(dir);
    return unit_finish();
}
