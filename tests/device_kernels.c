/* device_kernels.c: every built-in kernel, in every precision and every layout/transposition it
 * serves (natively or through the operand swap), on the default OpenCL device, at sizes that
 * straddle its tiles, with alpha/beta in {0, 1, other}, under the error bound and with exact
 * integer data, with padded leading dimensions and offsets; the other layouts, served through
 * transposition passes, at one tile-straddling shape. FP16 and bfloat16 (h, b) run wherever a
 * family declares them, and so do complex single and double (c, z), with complex alpha and beta
 * and the conjugate transposition C on every transposed operand. Also checks that validation
 * catches a kernel that is wrong (one that sums FP16 or bfloat16 in the storage format, and
 * complex ones that drop the imaginary cross terms or conjugate the other operand, among them),
 * and that leading dimensions a family avoids are copied.
 *
 * `device_kernels --reduced` runs the same checks at a reduced set of sizes (three shapes that
 * straddle tiles, one exact alpha/beta pair, the thin and split-tail variants at one shape each):
 * every kernel, precision and layout still runs (C on every transposed operand at once), in
 * about a quarter of the time, which is what CI runs under AddressSanitizer and
 * UndefinedBehaviorSanitizer (.ci/run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench.h"

static int failures, passes;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            passes++;                                                                              \
        } else {                                                                                   \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* 129 x 132 and 132 x 129 leave xgemm_nv a thin last row and column of tiles (the strips),
 * with K past the strips' unrolled loads at 260. */
static const size_t shapes[][3] = {{1, 1, 1},    {7, 7, 7},       {63, 63, 63},   {64, 64, 64},
                                   {65, 65, 65}, {127, 127, 127}, {130, 70, 33},  {97, 89, 101},
                                   {1, 65, 7},   {33, 1, 130},    {129, 132, 45}, {132, 129, 260}};
static const double scalars[][2] = {{1, 0}, {1, 1}, {-1.5, 0.75}, {0, 2.5}, {2, 0}};
/* --reduced: these of the shapes above (1 x 1 x 1, 65^3, 130 x 70 x 33), one integer pair. */
static const size_t reduced_shapes[] = {0, 4, 6};
static int reduced;
/* Integers keep every partial sum exact with int:3 data. */
static const double int_scalars[][2] = {{1, 0}, {1, 1}, {-2, 3}, {0, 2}, {3, 0}};

/* Options for one validated call per point, with no warm-up. */
static gb_bench_options_t one_call(void)
{
    gb_bench_options_t o;
    gb_bench_options_init(&o);
    o.warmup = 0;
    o.iterations = 1;
    o.validate = GB_VALIDATE_ON;
    return o;
}

/* Runs one point and checks it ran and validated. */
static void run_point(gb_context_t *ctx, const gb_impl_t *cfg, gb_problem_t p,
                      const gb_bench_options_t *o, const char *what)
{
    gb_result_t r;
    char tag[16];
    int rc = gb_bench_run(ctx, cfg, &p, o, &r);
    CHECK(rc == GB_OK, "%s %s %s %zux%zux%zu: %s", gb_impl_name(cfg),
          gb_precision_name(p.precision), gb_problem_layout_tag(&p, tag, sizeof tag), p.m, p.n, p.k,
          gb_context_errmsg(ctx));
    if (rc != GB_OK)
        return;
    CHECK(r.validation.done && r.validation.passed,
          "%s %s %s %s %zux%zux%zu alpha %g,%g beta %g,%g: %s", what, gb_impl_name(cfg),
          gb_precision_name(p.precision), gb_problem_layout_tag(&p, tag, sizeof tag), p.m, p.n, p.k,
          p.alpha, p.alpha_im, p.beta, p.beta_im, r.validation.reason);
    /* Complex and uniform data: the honest computation is the naive kernel's own order. */
    if (gb_precision_is_complex(p.precision) && o->dist.kind != GB_DIST_INT)
        CHECK(!strcmp(r.validation.faithful, "faithful"), "%s %s %s: %s", what, gb_impl_name(cfg),
              gb_problem_layout_tag(&p, tag, sizeof tag), r.validation.faithful);
    if (o->dist.kind == GB_DIST_INT)
        CHECK(r.validation.exact, "%s: exact mode expected", gb_impl_name(cfg));
    gb_result_free(&r);
}

/* Complex alpha and beta from a real pair: imaginary parts of their own, 0 where the pair's
 * part is 0 (so beta 0 still means C is not read). */
static void complex_scalars(gb_problem_t *p)
{
    if (!gb_precision_is_complex(p->precision))
        return;
    p->alpha_im = p->alpha != 0.0 ? -p->alpha - 1.0 : 0.0;
    p->beta_im = p->beta != 0.0 ? 2.0 : 0.0;
}

/* Conjugations of complex precisions: variant cj conjugates A where bit 0 is set, B where bit 1
 * is; only transposed operands can be (C). Whether the variant applies to p: real precisions
 * have variant 0 only; --reduced keeps 0 and the one conjugating every transposed operand. */
static int conj_variant(gb_problem_t *p, unsigned cj)
{
    const unsigned trans = (p->trans_a == GB_TRANS) | (p->trans_b == GB_TRANS) << 1;
    if (cj && (!gb_precision_is_complex(p->precision) || (cj & ~trans) || (reduced && cj != trans)))
        return 0;
    p->conj_a = (cj & 1u) != 0;
    p->conj_b = (cj & 2u) != 0;
    return 1;
}

static void test_config(gb_context_t *ctx, const gb_impl_t *cfg, gb_precision_t prec,
                        unsigned layout_bits)
{
    gb_bench_options_t o = one_call();
    for (unsigned v = 0; v < 32; v++) { /* 8 layouts x 4 conjugations */
        const unsigned bit = v % 8, cj = v / 8;
        if (!(layout_bits & (1u << bit)))
            continue;
        gb_problem_t base;
        gb_problem_init(&base, prec, 1, 1, 1);
        base.layout = (gb_layout_t)(bit / 4);
        base.trans_a = (gb_trans_t)((bit / 2) % 2);
        base.trans_b = (gb_trans_t)(bit % 2);
        if (!conj_variant(&base, cj))
            continue;
        if (gb_impl_check(cfg, gb_context_device(ctx), prec, &base, NULL, 0) != GB_OK)
            continue;
        /* Layouts the kernel runs itself (natively or through the operand swap) get every
         * shape; the others reach it through transposition passes, whose own edges one
         * tile-straddling shape with beta != 0 checks. */
        const unsigned swapped = gb_layout_index(
            base.layout == GB_ROW_MAJOR ? GB_COL_MAJOR : GB_ROW_MAJOR, base.trans_b, base.trans_a);
        const unsigned native = gb_family_layouts(cfg->config.family);
        const int own = ((native >> bit) & 1u) || ((native >> swapped) & 1u);
        if (!own) {
            gb_problem_t p = base;
            p.m = 130;
            p.n = 70;
            p.k = 33;
            p.alpha = -1.5;
            p.beta = 0.75;
            complex_scalars(&p);
            o.dist = (gb_dist_t){GB_DIST_UNIFORM, -1.0, 1.0, 0};
            run_point(ctx, cfg, p, &o, "transposed");
            continue;
        }
        const size_t nshapes = reduced ? sizeof reduced_shapes / sizeof reduced_shapes[0]
                                       : sizeof shapes / sizeof shapes[0];
        for (size_t si = 0; si < nshapes; si++) {
            const size_t s = reduced ? reduced_shapes[si] : si;
            gb_problem_t p = base;
            p.m = shapes[s][0];
            p.n = shapes[s][1];
            p.k = shapes[s][2];
            const double *ab = scalars[s % (sizeof scalars / sizeof scalars[0])];
            p.alpha = ab[0];
            p.beta = ab[1];
            complex_scalars(&p);
            o.dist = (gb_dist_t){GB_DIST_UNIFORM, -1.0, 1.0, 0};
            run_point(ctx, cfg, p, &o, "bound");
        }
        /* Every alpha/beta pair at one tile-straddling size, with exact integer data. */
        for (size_t i = reduced ? 2 : 0;
             i < (reduced ? 3 : sizeof int_scalars / sizeof int_scalars[0]); i++) {
            gb_problem_t p = base;
            p.m = 65;
            p.n = 63;
            p.k = 67;
            p.alpha = int_scalars[i][0];
            p.beta = int_scalars[i][1];
            complex_scalars(&p); /* integers: exact in c and z too */
            /* Exact where the result fits the storage format's digits: 2^11 in FP16, 2^8 in
             * bfloat16 (int:1 there). */
            o.dist = (gb_dist_t){GB_DIST_INT, 0, 0, prec == GB_PREC_B ? 1 : 3};
            run_point(ctx, cfg, p, &o, "exact");
        }
        /* Leading dimensions above the minimum and offsets: canaries in the padding. */
        gb_problem_t p = base;
        p.m = 37;
        p.n = 41;
        p.k = 29;
        p.alpha = 1.25;
        p.beta = -0.5;
        complex_scalars(&p);
        p.lda = 61;
        p.ldb = 53;
        p.ldc = 47;
        p.off_a = 3;
        p.off_b = 5;
        p.off_c = 7;
        o.dist = (gb_dist_t){GB_DIST_UNIFORM, -1.0, 1.0, 0};
        run_point(ctx, cfg, p, &o, "padded");
    }
}

/* Loads the fixture family name (the folder fixtures/name) and resolves it into cfg. Returns
 * the registry, to be closed with gb_registry_close, or NULL after a failed CHECK. */
static gb_registry_t *open_fixture(const char *name, gb_impl_t *cfg)
{
    gb_registry_t *reg;
    char dir[512], msg[512];
    snprintf(dir, sizeof dir, "%s/%s", GB_FIXTURES_DIR, name);
    int rc = gb_registry_open(&reg, dir, msg, sizeof msg);
    CHECK(rc == GB_OK, "loading fixtures/%s: %s", name, msg);
    if (rc != GB_OK)
        return NULL;
    rc = gb_impl_resolve(reg, name, NULL, cfg, msg, sizeof msg);
    CHECK(rc == GB_OK, "%s: %s", name, msg);
    if (rc != GB_OK) {
        gb_registry_close(reg);
        return NULL;
    }
    return reg;
}

/* A kernel that needs padded, packed, column-major NN operands is served every layout, size,
 * leading dimension and offset through the helper passes. */
static void test_padded(gb_context_t *ctx)
{
    gb_impl_t cfg;
    gb_registry_t *reg = open_fixture("padded", &cfg);
    for (int p = 0; reg && p < GB_PREC_COUNT; p++) {
        int before = failures;
        test_config(ctx, &cfg, (gb_precision_t)p, 0xffu);
        printf("padded %s: %s\n", gb_precision_name((gb_precision_t)p),
               failures == before ? "ok" : "FAILED");
    }
    gb_registry_close(reg);
}

/* A family that is wrong wherever a leading dimension is a multiple of 16, and says so with
 * ld_avoid_multiple_of, is served every layout and leading dimension: the harness copies the
 * operands whose leading dimension is a multiple of 16 (and names the copy), and only those. */
static void test_avoid(gb_context_t *ctx)
{
    gb_impl_t cfg;
    gb_registry_t *reg = open_fixture("avoid", &cfg);
    for (int p = 0; reg && p < 2; p++) {
        int before = failures;
        test_config(ctx, &cfg, (gb_precision_t)p, 0xffu);
        gb_bench_options_t o = one_call();
        /* 16 x 32 x 32, packed: lda = ldb = ldc = 32 are all copied; with 33 none is. */
        static const size_t lds[] = {32, 33};
        for (size_t i = 0; i < 2; i++) {
            gb_problem_t pr;
            gb_problem_init(&pr, (gb_precision_t)p, 16, 32, 32);
            pr.lda = pr.ldb = pr.ldc = lds[i];
            pr.beta = 0.5;
            gb_result_t r;
            int rc = gb_bench_run(ctx, &cfg, &pr, &o, &r);
            CHECK(rc == GB_OK, "avoid ld %zu: %s", lds[i], gb_context_errmsg(ctx));
            if (rc != GB_OK)
                break;
            CHECK(r.validation.done && r.validation.passed, "avoid ld %zu: %s", lds[i],
                  r.validation.reason);
            CHECK((strstr(r.route, "repack") != NULL) == (i == 0), "avoid ld %zu: route '%s'",
                  lds[i], r.route);
            gb_result_free(&r);
        }
        printf("avoid %s: %s\n", p ? "d" : "s", failures == before ? "ok" : "FAILED");
    }
    gb_registry_close(reg);
}

/* xgemm_nv with the strips up to 8 and 16 lines thin (the presets take 4): each layout, with
 * remainders of 1, 4, 9, 12 and 16 rows or columns, computed by the remainder kernel where they
 * are at most THIN thin and by partial tiles otherwise. */
static void test_thin(gb_context_t *ctx, const gb_registry_t *reg)
{
    static const long thin[] = {8, 16};
    static const size_t sh[][3] = {{137, 140, 300}, {132, 136, 260}, {144, 129, 70}};
    char msg[512], tag[16];
    for (size_t i = 0; i < 2; i++) {
        gb_params_t ps = {0};
        gb_params_set(&ps, "THIN", thin[i]);
        gb_impl_t cfg;
        int rc = gb_impl_resolve(reg, "xgemm_nv", &ps, &cfg, msg, sizeof msg);
        CHECK(rc == GB_OK, "xgemm_nv THIN=%ld: %s", thin[i], msg);
        if (rc != GB_OK)
            continue;
        int before = failures;
        gb_bench_options_t o = one_call();
        o.dist = (gb_dist_t){GB_DIST_UNIFORM, -1.0, 1.0, 0};
        for (unsigned t = 0; t < (reduced ? 1u : 4u); t++) {
            for (size_t s = 0; s < (reduced ? 1 : sizeof sh / sizeof sh[0]); s++) {
                gb_problem_t p;
                gb_problem_init(&p, GB_PREC_S, sh[s][0], sh[s][1], sh[s][2]);
                p.trans_a = (gb_trans_t)(t / 2);
                p.trans_b = (gb_trans_t)(t % 2);
                p.alpha = -1.5;
                p.beta = 0.75;
                gb_result_t r;
                rc = gb_bench_run(ctx, &cfg, &p, &o, &r);
                CHECK(rc == GB_OK, "xgemm_nv THIN=%ld: %s", thin[i], gb_context_errmsg(ctx));
                if (rc != GB_OK)
                    continue;
                CHECK(r.validation.done && r.validation.passed,
                      "xgemm_nv THIN=%ld %s %zux%zux%zu: %s", thin[i],
                      gb_problem_layout_tag(&p, tag, sizeof tag), p.m, p.n, p.k,
                      r.validation.reason);
                /* The family's tiles are 128 x 128. */
                const long rm = (long)(p.m % 128), rn = (long)(p.n % 128);
                const int strips = (rm > 0 && rm <= thin[i]) || (rn > 0 && rn <= thin[i]);
                CHECK((strstr(r.route, "remainder kernel") != NULL) == strips,
                      "xgemm_nv THIN=%ld %zux%zu: route '%s'", thin[i], p.m, p.n, r.route);
                gb_result_free(&r);
            }
        }
        printf("xgemm_nv THIN=%ld s: %s\n", thin[i], failures == before ? "ok" : "FAILED");
    }
}

/* Whether xgemm_nv (128 x 128 tiles, THIN 4) splits a last partial wave of tiles along K
 * (TAIL): the rule of tail_of() in xgemm_nv.cl, written again as the test's oracle. */
static int tail_split(size_t m, size_t n, long tail, long slots, unsigned cus)
{
    const size_t m1 = m > 128 && m % 128 <= 4 ? m - m % 128 : m;
    const size_t n1 = n > 128 && n % 128 <= 4 ? n - n % 128 : n;
    const size_t t = (m1 + 127) / 128 * ((n1 + 127) / 128), wave = (size_t)cus * (size_t)slots;
    const size_t r = t > wave ? t % wave : 0, p = r ? (size_t)tail * wave / r : 1;
    return p > 1 && (p * r + wave - 1) / wave < p;
}

/* xgemm_nv with a split tail (TAIL): every layout, both precisions, alpha and beta applied once
 * to the pieces' sum, with pieces as short as a single K step or empty (K = 5), and with strips
 * in the same remainder launch (1100 x 130). The route names the remainder kernel exactly where
 * the oracle expects a split or there are strips, and an unsplit build exactly where it expects
 * none. */
static void test_tail(gb_context_t *ctx, const gb_registry_t *reg)
{
    static const long tails[][2] = {{1, 1}, {3, 2}, {4, 3}}; /* TAIL, SLOTS */
    static const size_t sh[][3] = {{600, 600, 333}, {850, 600, 5}, {1100, 130, 333}};
    const unsigned cus = gb_context_device(ctx)->compute_units;
    char msg[512], tag[16];
    int split_seen = 0, before = failures;
    /* --reduced: TAIL=3, SLOTS=2 only, NN in each precision, at 850 x 600 x 5. */
    const size_t first = reduced ? 1 : 0, end = reduced ? 2 : sizeof tails / sizeof tails[0];
    for (size_t i = first; i < end; i++) {
        gb_params_t ps = {0};
        gb_params_set(&ps, "TAIL", tails[i][0]);
        gb_params_set(&ps, "SLOTS", tails[i][1]);
        gb_params_set(&ps, "KWG", 8);
        gb_impl_t cfg;
        int rc = gb_impl_resolve(reg, "xgemm_nv", &ps, &cfg, msg, sizeof msg);
        CHECK(rc == GB_OK, "xgemm_nv TAIL=%ld: %s", tails[i][0], msg);
        if (rc != GB_OK)
            continue;
        gb_bench_options_t o = one_call();
        o.dist = (gb_dist_t){GB_DIST_UNIFORM, -1.0, 1.0, 0};
        for (unsigned t = 0; t < 8; t += reduced ? 4 : 1) {
            for (size_t s = reduced ? 1 : 0; s < (reduced ? 2 : sizeof sh / sizeof sh[0]); s++) {
                gb_problem_t p;
                gb_problem_init(&p, t < 4 ? GB_PREC_S : GB_PREC_D, sh[s][0], sh[s][1], sh[s][2]);
                p.trans_a = (gb_trans_t)(t % 4 / 2);
                p.trans_b = (gb_trans_t)(t % 2);
                p.alpha = -1.5;
                p.beta = 0.75;
                gb_result_t r;
                rc = gb_bench_run(ctx, &cfg, &p, &o, &r);
                CHECK(rc == GB_OK, "xgemm_nv TAIL=%ld: %s", tails[i][0], gb_context_errmsg(ctx));
                if (rc != GB_OK)
                    continue;
                CHECK(r.validation.done && r.validation.passed,
                      "xgemm_nv TAIL=%ld SLOTS=%ld %s %zux%zux%zu: %s", tails[i][0], tails[i][1],
                      gb_problem_layout_tag(&p, tag, sizeof tag), p.m, p.n, p.k,
                      r.validation.reason);
                const int split = tail_split(p.m, p.n, tails[i][0], tails[i][1], cus);
                const int strips = p.n % 128 > 0 && p.n % 128 <= 4;
                split_seen |= split;
                CHECK((strstr(r.route, "remainder kernel") != NULL) == (split || strips),
                      "xgemm_nv TAIL=%ld %zux%zu: route '%s'", tails[i][0], p.m, p.n, r.route);
                /* No tail cut: the kernel built without the tail's code (the family's
                 * "unsplit"). */
                CHECK((strstr(r.route, "unsplit build") != NULL) == !split,
                      "xgemm_nv TAIL=%ld %zux%zu: route '%s'", tails[i][0], p.m, p.n, r.route);
                gb_result_free(&r);
            }
        }
    }
    /* On a device of up to 8 compute units these shapes reach the split (the reduced one, up
     * to 2). */
    CHECK(split_seen || cus > (reduced ? 2u : 8u),
          "xgemm_nv TAIL: no shape was split on %u compute units", cus);
    printf("xgemm_nv TAIL: %s\n", failures == before ? "ok" : "FAILED");
}

/* A family whose kernel leaves the last column of C unwritten must fail validation, and one
 * that ignores beta must fail too. */
static void test_catches_wrong(gb_context_t *ctx, const gb_registry_t *reg)
{
    char msg[512];
    int rc;
    static const char *const names[] = {"wrong_edge", "wrong_beta"};
    for (int i = 0; i < 2; i++) {
        gb_impl_t cfg;
        rc = gb_impl_resolve(reg, names[i], NULL, &cfg, msg, sizeof msg);
        CHECK(rc == GB_OK, "%s: %s", names[i], msg);
        if (rc != GB_OK)
            continue;
        gb_problem_t p;
        gb_problem_init(&p, GB_PREC_S, 33, 17, 9);
        p.beta = 0.5;
        gb_bench_options_t o = one_call();
        gb_result_t r;
        rc = gb_bench_run(ctx, &cfg, &p, &o, &r);
        CHECK(rc == GB_OK, "%s ran: %s", names[i], gb_context_errmsg(ctx));
        if (rc == GB_OK) {
            CHECK(r.validation.done && !r.validation.passed, "%s must fail validation", names[i]);
            gb_result_free(&r);
        }
    }
}

/* xgemm with wide vectors, besides xgemm_small's scalar accesses (which the presets' loop runs in
 * every precision): xgemm_cpu's parameters (8-wide loads along K and N, double-buffered,
 * accumulators kept in memory) in FP16, bfloat16, c and z, so that the storage formats' vector
 * loads and stores and the complex elements' vectors split into planes (conjugated or not) are
 * checked; and in c and z, vectors along M too (A^T's vector loads, the A tile k-major read in
 * vectors) with both tiles padded, B's out of its vectors' alignment. */
static void test_xgemm_vectors(gb_context_t *ctx, const gb_registry_t *reg)
{
    static const struct {
        const char *params[12];
        gb_precision_t first, last;
    } sets[] = {
        {{"MWG=96", "NWG=64", "KWG=16", "MDIMC=16", "NDIMC=4", "VWN=8", "VWK=8", "STAGES=2",
          "ACCMEM=1"},
         GB_PREC_H,
         GB_PREC_Z},
        {{"MWG=32", "NWG=64", "KWG=8", "MDIMC=8", "NDIMC=8", "VWM=2", "VWN=2", "VWK=4", "PADA=2",
          "PADB=1", "STAGES=2"},
         GB_PREC_C,
         GB_PREC_Z},
    };
    char msg[512];
    for (size_t si = 0; si < sizeof sets / sizeof sets[0]; si++) {
        gb_params_t ps;
        memset(&ps, 0, sizeof ps);
        for (size_t i = 0; i < 12 && sets[si].params[i]; i++)
            CHECK(gb_params_parse(&ps, sets[si].params[i], msg, sizeof msg) == GB_OK, "%s: %s",
                  sets[si].params[i], msg);
        gb_impl_t cfg;
        int rc = gb_impl_resolve(reg, "xgemm", &ps, &cfg, msg, sizeof msg);
        CHECK(rc == GB_OK, "xgemm: %s", msg);
        for (int p = sets[si].first; rc == GB_OK && p <= (int)sets[si].last; p++) {
            if (gb_impl_check(&cfg, gb_context_device(ctx), (gb_precision_t)p, NULL, msg,
                              sizeof msg) != GB_OK) {
                printf("skip xgemm set %zu %s: %s\n", si, gb_precision_name((gb_precision_t)p),
                       msg);
                continue;
            }
            int before = failures;
            test_config(ctx, &cfg, (gb_precision_t)p, 0xffu);
            printf("xgemm %s %s %s: %s\n", sets[si].params[5], sets[si].params[6],
                   gb_precision_name((gb_precision_t)p), failures == before ? "ok" : "FAILED");
        }
    }
}

/* A kernel that sums FP16 or bfloat16 products in the storage format where FP32 accumulation was
 * asked (fixtures/wrong, wrong_acc16) must not pass, in any layout it serves; the same kernel
 * summing in float (right_acc32) must. Where FP16 sums are asked (hh), the same kernel's FP16
 * sums must pass and so must float ones (more accurate than asked); bfloat16 sums (wrong_acc8)
 * must not. */
static void test_catches_acc16(gb_context_t *ctx, const gb_registry_t *reg)
{
    static const struct {
        gb_precision_t prec;
        const char *name;
        double wrong; /* > 0: the faithful ratio it must exceed (its sums' error against the
                         honest ones': FP16's or bfloat16's u over FP32's, bfloat16's over FP16's) */
    } cases[] = {
        {GB_PREC_H, "right_acc32", 0},  {GB_PREC_H, "wrong_acc16", 100},
        {GB_PREC_B, "right_acc32", 0},  {GB_PREC_B, "wrong_acc16", 100},
        {GB_PREC_HH, "right_acc32", 0}, {GB_PREC_HH, "wrong_acc16", 0},
        {GB_PREC_HH, "wrong_acc8", 4},
    };
    char msg[512];
    int rc;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *name = cases[i].name, *pn = gb_precision_name(cases[i].prec);
        gb_impl_t cfg;
        rc = gb_impl_resolve(reg, name, NULL, &cfg, msg, sizeof msg);
        CHECK(rc == GB_OK, "%s: %s", name, msg);
        if (rc != GB_OK)
            continue;
        /* row-NN natively and col-NN through the swap; K past a few FP16 roundings */
        for (int col = 0; col < 2; col++) {
            gb_problem_t p;
            gb_problem_init(&p, cases[i].prec, 33, 17, 64);
            p.layout = col ? GB_COL_MAJOR : GB_ROW_MAJOR;
            p.beta = 0.5;
            gb_bench_options_t o = one_call();
            gb_result_t r;
            rc = gb_bench_run(ctx, &cfg, &p, &o, &r);
            CHECK(rc == GB_OK, "%s ran: %s", name, gb_context_errmsg(ctx));
            if (rc != GB_OK)
                continue;
            const gb_outcome_t oc =
                gb_validation_outcome(&r.validation, gb_impl_caps(&cfg), GB_VERDICT_FAITHFUL);
            if (cases[i].wrong > 0) {
                CHECK(oc >= GB_OUTCOME_FAIL, "%s %s must fail", name, pn);
                CHECK(!strcmp(r.validation.faithful, "not faithful") &&
                          gb_faithful_ratio(&r.validation) > cases[i].wrong,
                      "%s %s must not be faithful: %s %.3g", name, pn, r.validation.faithful,
                      gb_faithful_ratio(&r.validation));
                printf("%s %s %s: caught: %.0fx the honest sums' error, %s\n", name, pn,
                       col ? "col" : "row", gb_faithful_ratio(&r.validation),
                       r.validation.passed ? "within the bound" : r.validation.reason);
            } else {
                CHECK(oc == GB_OUTCOME_PASS, "%s %s must pass: %s %s", name, pn,
                      r.validation.reason, r.validation.faithful);
            }
            gb_result_free(&r);
        }
    }
}

/* Complex kernels that drop the imaginary cross terms (wrong_cross) or conjugate the other
 * operand (wrong_conj: at row-CN, B is conjugated where A was asked) must fail; the honest one
 * (right_cplx) must pass, faithful, in both layouts and both precisions. */
static void test_catches_complex(gb_context_t *ctx, const gb_registry_t *reg)
{
    char msg[512], tag[16];
    int rc;
    static const char *const names[] = {"right_cplx", "wrong_cross", "wrong_conj"};
    for (int prec = GB_PREC_C; prec <= GB_PREC_Z; prec++)
        for (int w = 0; w < 3; w++) {
            gb_impl_t cfg;
            rc = gb_impl_resolve(reg, names[w], NULL, &cfg, msg, sizeof msg);
            CHECK(rc == GB_OK, "%s: %s", names[w], msg);
            if (rc != GB_OK)
                continue;
            if (gb_impl_check(&cfg, gb_context_device(ctx), (gb_precision_t)prec, NULL, msg,
                              sizeof msg) != GB_OK)
                continue; /* z without fp64 */
            /* row-NN, and row-CN (A^H) where conjugation is what is judged */
            for (int conj = 0; conj < 2; conj++) {
                gb_problem_t p;
                gb_problem_init(&p, (gb_precision_t)prec, 33, 17, 40);
                p.trans_a = conj ? GB_TRANS : GB_NOTRANS;
                p.conj_a = conj;
                p.alpha_im = 0.5;
                p.beta = 0.5;
                p.beta_im = -1.0;
                gb_bench_options_t o = one_call();
                gb_result_t r;
                rc = gb_bench_run(ctx, &cfg, &p, &o, &r);
                CHECK(rc == GB_OK, "%s ran: %s", names[w], gb_context_errmsg(ctx));
                if (rc != GB_OK)
                    continue;
                const gb_outcome_t oc =
                    gb_validation_outcome(&r.validation, gb_impl_caps(&cfg), GB_VERDICT_FAITHFUL);
                const char *pn = gb_precision_name((gb_precision_t)prec);
                gb_problem_layout_tag(&p, tag, sizeof tag);
                /* wrong_conj is honest where nothing is conjugated */
                if (w == 1 || (w == 2 && conj)) {
                    CHECK(oc >= GB_OUTCOME_FAIL && !r.validation.passed, "%s %s %s must fail",
                          names[w], pn, tag);
                    printf("%s %s %s: caught: %s\n", names[w], pn, tag, r.validation.reason);
                } else {
                    CHECK(oc == GB_OUTCOME_PASS && !strcmp(r.validation.faithful, "faithful"),
                          "%s %s %s must pass: %s %s", names[w], pn, tag, r.validation.reason,
                          r.validation.faithful);
                }
                gb_result_free(&r);
            }
        }
}

/* An implementation planned ahead for one problem (gb_impl_plan, as explore and tune do), then
 * given problems that differ from it only in a conjugation or an imaginary part: the plan kept
 * for row-TN with alpha 1 is not one for row-CN or alpha 1,2, so each must be routed afresh. */
static void test_kept_complex(gb_context_t *ctx, const gb_registry_t *reg)
{
    gb_impl_t cfg;
    char msg[512];
    int rc = gb_impl_resolve(reg, "naive", NULL, &cfg, msg, sizeof msg);
    CHECK(rc == GB_OK, "naive: %s", msg);
    if (rc != GB_OK)
        return;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_C, 19, 23, 17);
    p.trans_a = GB_TRANS;
    CHECK(gb_problem_check(&p, msg, sizeof msg) == GB_OK, "%s", msg);
    rc = gb_impl_plan(&cfg, gb_context_device(ctx), &p, msg, sizeof msg);
    CHECK(rc == GB_OK, "planning naive c row-TN: %s", msg);
    const gb_bench_options_t o = one_call();
    run_point(ctx, &cfg, p, &o, "kept: T");
    p.conj_a = 1;
    run_point(ctx, &cfg, p, &o, "kept: C after T");
    p.alpha_im = 2.0;
    run_point(ctx, &cfg, p, &o, "kept: alpha 1,2 after 1,0");
    p.conj_a = 0;
    run_point(ctx, &cfg, p, &o, "kept: T after C");
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--reduced"))) {
        printf("usage: device_kernels [--reduced]\n");
        return 2;
    }
    reduced = argc == 2;
    gb_device_info_t *list;
    size_t n, idx;
    char msg[512];
    if (gb_device_list(&list, &n, msg, sizeof msg) != GB_OK || n == 0) {
        printf("no OpenCL device: %s\n", msg);
        return 1;
    }
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    if (gb_device_select(list, n, &sel, &idx, msg, sizeof msg) != GB_OK) {
        printf("%s\n", msg);
        return 1;
    }
    gb_context_t *ctx;
    gb_registry_t *reg;
    if (gb_context_open(&ctx, &list[idx], msg, sizeof msg) != GB_OK ||
        gb_registry_open(&reg, NULL, msg, sizeof msg) != GB_OK) {
        printf("%s\n", msg);
        return 1;
    }
    printf("device: %s%s\n", list[idx].name, reduced ? " (reduced sizes)" : "");
    for (size_t fi = 0; fi < gb_registry_count(reg); fi++) {
        const gb_family_t *f = gb_registry_family(reg, fi);
        const size_t np = gb_family_preset_count(f), count = np ? np : 1;
        for (size_t pi = 0; pi < count; pi++) {
            const gb_preset_t *ps = gb_family_preset(f, pi);
            const char *name = ps ? ps->name : gb_family_name(f);
            unsigned precs = ps ? ps->precisions : gb_family_precisions(f);
            gb_impl_t cfg;
            if (gb_impl_resolve(reg, name, NULL, &cfg, msg, sizeof msg) != GB_OK) {
                CHECK(0, "%s: %s", name, msg);
                continue;
            }
            for (int p = 0; p < GB_PREC_COUNT; p++) {
                const char *pn = gb_precision_name((gb_precision_t)p);
                if (!(precs & (1u << p)))
                    continue;
                if (gb_impl_check(&cfg, &list[idx], (gb_precision_t)p, NULL, msg, sizeof msg)) {
                    printf("skip %s %s: %s\n", name, pn, msg);
                    continue;
                }
                int before = failures;
                test_config(ctx, &cfg, (gb_precision_t)p, 0xffu);
                printf("%s %s: %s\n", name, pn, failures == before ? "ok" : "FAILED");
                fflush(stdout);
            }
        }
    }
    test_padded(ctx);
    test_avoid(ctx);
    test_thin(ctx, reg);
    test_tail(ctx, reg);
    test_xgemm_vectors(ctx, reg);
    gb_registry_t *wrong;
    if (gb_registry_open(&wrong, GB_FIXTURES_DIR "/wrong", msg, sizeof msg) == GB_OK) {
        test_catches_wrong(ctx, wrong);
        test_catches_acc16(ctx, wrong);
        test_catches_complex(ctx, wrong);
        gb_registry_close(wrong);
    } else {
        CHECK(0, "loading fixtures/wrong: %s", msg);
    }
    test_kept_complex(ctx, reg);
    gb_registry_close(reg);
    gb_context_close(ctx);
    gb_device_list_free(list, n);
    printf("%d passed, %d failed\n", passes, failures);
    return failures != 0;
}
