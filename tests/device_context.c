/* device_context.c: what a context keeps between calls, on the default OpenCL device.
 *
 * Inputs: two gb_bench_run calls on one problem validate alike (and like a fresh context) and
 * compute the reference once; another seed, alpha or beta's sign computes it again, and a run
 * without validation computes none.
 *
 * Programs built ahead (gb_impl_prebuild): three threads prebuild xgemm and myGEMM2
 * configurations (myGEMM2's padding needs the helpers program too), each thread the whole set,
 * two from one starting point so that they want one program at once, while this thread
 * measures other configurations: every program compiles once, as on one thread; then every
 * prebuilt one runs with nothing built and validates. A family that does not compile gives GB_EBUILD on its thread, with the build log
 * and the very message gb_bench_run gives, and nothing on the context's message. The table's
 * bound releases the oldest program first, and a run prepared with a released program still
 * runs. Library peers have nothing to prebuild.
 *
 * The program cache on disk is off (GEMMBENCH_NO_CACHE=1), so a program that was not built
 * came from the context; the context counts the programs it compiles, so one built twice
 * shows. Worth running under ThreadSanitizer too (a build with -DCMAKE_C_FLAGS=-fsanitize=thread).
 */
#include <pthread.h>

#include "rt/device/context.h"
#include "harness/impl/impl.h"
#include "unit.h"

#define NTHREADS 3

static gb_bench_options_t one_call(void)
{
    gb_bench_options_t o;
    gb_bench_options_init(&o);
    o.warmup = 0;
    o.iterations = 1;
    o.validate = GB_VALIDATE_ON;
    return o;
}

/* The validations of two runs agree in every field. */
static int same_validation(const gb_validation_t *x, const gb_validation_t *y)
{
    return x->done == y->done && x->passed == y->passed && x->exact == y->exact &&
           !memcmp(&x->max_ratio, &y->max_ratio, sizeof x->max_ratio) &&
           !memcmp(&x->bound_ratio, &y->bound_ratio, sizeof x->bound_ratio) &&
           x->worst_i == y->worst_i && x->worst_j == y->worst_j && x->n_over == y->n_over &&
           x->n_nonfinite == y->n_nonfinite && x->n_canary == y->n_canary &&
           !strcmp(x->reason, y->reason);
}

/* Runs im on p with o; *v gets the validation. GB_OK or the run's error. */
static int run(gb_context_t *ctx, const gb_impl_t *im, const gb_problem_t *p,
               const gb_bench_options_t *o, gb_validation_t *v, int *hit)
{
    gb_result_t r;
    int rc = gb_bench_run(ctx, im, p, o, &r);
    if (rc != GB_OK) {
        printf("    %s: %s\n", gb_impl_name(im), gb_context_errmsg(ctx));
        return rc;
    }
    *v = r.validation;
    if (hit)
        *hit = r.cache_hit;
    gb_result_free(&r);
    return rc;
}

static void test_inputs(const gb_device_info_t *dev, const gb_impl_t *im)
{
    char msg[256];
    gb_context_t *ctx, *fresh;
    if (!CHECK(gb_context_open(&ctx, dev, msg, sizeof msg) == GB_OK) ||
        !CHECK(gb_context_open(&fresh, dev, msg, sizeof msg) == GB_OK))
        return;
    gb_bench_options_t o = one_call();
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 65, 63, 67);
    p.alpha = -1.5;
    p.beta = 0.75;
    p.ldc = 70; /* canaries in the padding */
    gb_validation_t v1, v2, v3;
    CHECK_RC(run(ctx, im, &p, &o, &v1, NULL), GB_OK);
    CHECK(v1.done && v1.passed);
    CHECK(ctx->references == 1);
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 1); /* the second run took the first's reference */
    CHECK(same_validation(&v1, &v2));
    CHECK_RC(run(fresh, im, &p, &o, &v3, NULL), GB_OK);
    CHECK(same_validation(&v1, &v3)); /* kept inputs are the ones a fresh context makes */

    o.seed = 43;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 2);
    CHECK(v2.passed && !same_validation(&v1, &v2));
    o.seed = 42;
    p.alpha = -1.25;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 3);
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 3);

    /* beta 0 and -0: the same GEMM, but not the same key. */
    p.beta = 0.0;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 4);
    p.beta = -0.0;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 5);

    /* Without validation no reference; the next validating run on the problem makes it. */
    p.m = 33;
    o.validate = GB_VALIDATE_OFF;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(!v2.done && ctx->references == 5);
    o.validate = GB_VALIDATE_ON;
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(v2.passed && ctx->references == 6);
    CHECK_RC(run(ctx, im, &p, &o, &v2, NULL), GB_OK);
    CHECK(ctx->references == 6);
    gb_context_close(fresh);
    gb_context_close(ctx);
}

/* xgemm's tiles and myGEMM2's tile size, one configuration each. */
static const long xgemm_tiles[][3] = {{16, 16, 8}, {32, 16, 8},  {16, 32, 16}, {32, 32, 8},
                                      {64, 16, 8}, {16, 64, 16}, {64, 32, 16}, {32, 64, 8}};
static const long mygemm2_ts[] = {8, 16, 4};
#define NXGEMM (sizeof xgemm_tiles / sizeof xgemm_tiles[0])
#define NCONFIGS (NXGEMM + sizeof mygemm2_ts / sizeof mygemm2_ts[0])
#define NMEASURED 3 /* the first ones: measured while the others are prebuilt */

static int make_config(const gb_registry_t *reg, size_t i, gb_impl_t *im)
{
    gb_params_t ps = {0};
    char msg[256];
    if (i < NXGEMM) {
        gb_params_set(&ps, "MWG", xgemm_tiles[i][0]);
        gb_params_set(&ps, "NWG", xgemm_tiles[i][1]);
        gb_params_set(&ps, "KWG", xgemm_tiles[i][2]);
    } else {
        gb_params_set(&ps, "TS", mygemm2_ts[i - NXGEMM]);
    }
    int rc = gb_impl_resolve(reg, i < NXGEMM ? "xgemm" : "myGEMM2", &ps, im, msg, sizeof msg);
    if (rc != GB_OK)
        printf("    config %zu: %s\n", i, msg);
    return rc;
}

typedef struct prebuilder {
    pthread_t thread;
    gb_context_t *ctx;
    const gb_impl_t *configs; /* NCONFIGS, the first NMEASURED not prebuilt */
    const gb_impl_t *broken;  /* prebuilt by the first thread only, or NULL */
    const gb_problem_t *p;
    size_t start;
    int rc[NCONFIGS], broken_rc;
    char msg[16384];
} prebuilder_t;

static void *prebuild_all(void *arg)
{
    prebuilder_t *b = arg;
    const size_t n = NCONFIGS - NMEASURED;
    for (size_t j = 0; j < n; j++) {
        const size_t i = NMEASURED + (b->start + j) % n;
        b->rc[i] = gb_impl_prebuild(b->ctx, &b->configs[i], b->p, b->msg, sizeof b->msg);
        if (b->rc[i] != GB_OK)
            printf("    prebuilding %s: %s\n", gb_impl_name(&b->configs[i]), b->msg);
    }
    if (b->broken)
        b->broken_rc = gb_impl_prebuild(b->ctx, b->broken, b->p, b->msg, sizeof b->msg);
    return NULL;
}

/* Programs compiled when one thread prebuilds the set and the broken family once on a fresh
 * context; prebuilding the set again compiles nothing. */
static unsigned long builds_alone(const gb_device_info_t *dev, const gb_impl_t *configs,
                                  const gb_impl_t *broken, const gb_problem_t *p)
{
    char msg[256];
    gb_context_t *ctx;
    if (!CHECK(gb_context_open(&ctx, dev, msg, sizeof msg) == GB_OK))
        return 0;
    prebuilder_t *b = calloc(1, sizeof *b);
    if (!CHECK(b != NULL)) {
        gb_context_close(ctx);
        return 0;
    }
    b->ctx = ctx;
    b->configs = configs;
    b->broken = broken;
    b->p = p;
    prebuild_all(b);
    const unsigned long n = ctx->builds;
    b->broken = NULL;
    prebuild_all(b);
    CHECK(ctx->builds == n);
    free(b);
    gb_context_close(ctx);
    return n;
}

static void test_prebuild(const gb_device_info_t *dev, const gb_registry_t *reg)
{
    char msg[256];
    gb_context_t *ctx;
    gb_impl_t configs[NCONFIGS], broken;
    for (size_t i = 0; i < NCONFIGS; i++)
        if (!CHECK(make_config(reg, i, &configs[i]) == GB_OK))
            return;
    if (!CHECK(gb_impl_resolve(reg, "broken", NULL, &broken, msg, sizeof msg) == GB_OK))
        return;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 96, 80, 72);
    p.alpha = 1.5;
    p.beta = -0.5;
    const unsigned long alone = builds_alone(dev, configs, &broken, &p);
    /* Kernels and the helpers' program of myGEMM2's padding, and the failed build. */
    CHECK(alone > NCONFIGS - NMEASURED + 1);
    if (!CHECK(gb_context_open(&ctx, dev, msg, sizeof msg) == GB_OK))
        return;
    gb_bench_options_t o = one_call();
    gb_validation_t v;
    int hit;
    /* Two threads start on one configuration, so that they want its program at once. */
    static const size_t starts[NTHREADS] = {0, 0, 4};
    prebuilder_t *b = calloc(NTHREADS, sizeof *b);
    if (!CHECK(b != NULL)) {
        gb_context_close(ctx);
        return;
    }
    for (int t = 0; t < NTHREADS; t++) {
        b[t].ctx = ctx;
        b[t].configs = configs;
        b[t].broken = t == 0 ? &broken : NULL;
        b[t].p = &p;
        b[t].start = starts[t];
        CHECK(pthread_create(&b[t].thread, NULL, prebuild_all, &b[t]) == 0);
    }
    for (size_t i = 0; i < NMEASURED; i++) {
        CHECK_RC(run(ctx, &configs[i], &p, &o, &v, NULL), GB_OK);
        CHECK(v.done && v.passed);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(b[t].thread, NULL);
    for (int t = 0; t < NTHREADS; t++)
        for (size_t i = NMEASURED; i < NCONFIGS; i++)
            CHECK_RC(b[t].rc[i], GB_OK);
    /* Each program compiled once over the three threads, and the measured ones (no padding at
     * this size: no helpers' program) by the measuring thread. */
    if (!CHECK(ctx->builds == alone + NMEASURED))
        printf("    %lu programs built, %lu expected\n", (unsigned long)ctx->builds,
               alone + NMEASURED);
    /* The thread's message, not the context's. */
    CHECK_RC(b[0].broken_rc, GB_EBUILD);
    CHECK_HAS(b[0].msg, "OpenCL build of 'broken' failed");
    CHECK_HAS(b[0].msg, "this_is_not_declared");
    CHECK(!strstr(gb_context_errmsg(ctx), "broken"));

    for (size_t i = NMEASURED; i < NCONFIGS; i++) {
        hit = 0;
        CHECK_RC(run(ctx, &configs[i], &p, &o, &v, &hit), GB_OK);
        CHECK(hit); /* nothing built: the disk cache is off */
        CHECK(v.done && v.passed);
    }
    CHECK(ctx->builds == alone + NMEASURED);

    /* prepare's message is the prebuild's. */
    gb_result_t r;
    CHECK_RC(gb_bench_run(ctx, &broken, &p, &o, &r), GB_EBUILD);
    /* The same but for the name of the driver's temporary file in its log. */
    const char *mine = gb_context_errmsg(ctx), *log = strstr(mine, "build log:\n");
    if (!CHECK(log && !strncmp(mine, b[0].msg, (size_t)(log - mine))))
        printf("    prepare: [%s]\n    prebuild: [%s]\n", mine, b[0].msg);
    CHECK_HAS(mine, "this_is_not_declared");

    /* Failures of gb_impl_prebuild leave the context's message as it was. */
    char before[sizeof ctx->errmsg];
    snprintf(before, sizeof before, "%s", gb_context_errmsg(ctx));
    CHECK_RC(gb_impl_prebuild(ctx, &broken, &p, b[1].msg, sizeof b[1].msg), GB_EBUILD);
    CHECK_HAS(b[1].msg, "this_is_not_declared");
    gb_problem_t bad = p;
    bad.m = 0;
    char m2[256] = "";
    CHECK_RC(gb_impl_prebuild(ctx, &configs[0], &bad, m2, sizeof m2), GB_EBADM);
    CHECK(m2[0] != '\0'); /* a check fails as gb_bench_run's does, in msg */
    CHECK(!strcmp(gb_context_errmsg(ctx), before));
    free(b);
    gb_context_close(ctx);
}

/* Past the bound the oldest program goes; a run prepared with it keeps it. */
static void test_bound(const gb_device_info_t *dev, const gb_registry_t *reg)
{
    char msg[16384];
    gb_context_t *ctx;
    gb_impl_t im[3];
    for (size_t i = 0; i < 3; i++)
        if (!CHECK(make_config(reg, i, &im[i]) == GB_OK))
            return;
    if (!CHECK(gb_context_open(&ctx, dev, msg, sizeof msg) == GB_OK))
        return;
    ctx->programs.max = 1;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 40, 24, 16);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb_impl_prebuild(ctx, &im[0], &p, msg, sizeof msg), GB_OK);
    CHECK(ctx->programs.n == 1);
    gb_result_t r;
    memset(&r, 0, sizeof r);
    void *state = NULL;
    CHECK_RC(im[0].ops->prepare(ctx, &im[0], &p, &state, &r), GB_OK);
    CHECK(r.cache_hit);
    CHECK_RC(gb_impl_prebuild(ctx, &im[1], &p, msg, sizeof msg), GB_OK);
    CHECK(ctx->programs.n == 1); /* im[0]'s went */
    size_t ea, eb, ec;
    gb_problem_buffer_elems(&p, &ea, &eb, &ec);
    float *a = calloc(ea, sizeof *a), *b = calloc(eb, sizeof *b), *c = calloc(ec, sizeof *c);
    float *out = calloc(ec, sizeof *out);
    double t[GB_PHASE_COUNT];
    if (state && a && b && c && out)
        CHECK_RC(im[0].ops->call(state, a, b, c, out, t), GB_OK);
    im[0].ops->release(state);
    free(a);
    free(b);
    free(c);
    free(out);

    gb_bench_options_t o = one_call();
    gb_validation_t v;
    int hit = 1;
    CHECK_RC(run(ctx, &im[0], &p, &o, &v, &hit), GB_OK);
    CHECK(!hit && v.passed); /* built again */
    CHECK_RC(run(ctx, &im[1], &p, &o, &v, &hit), GB_OK);
    CHECK(hit && v.passed);
    gb_context_close(ctx);
}

static void test_peers(const gb_device_info_t *dev, const gb_registry_t *reg)
{
    char msg[256];
    gb_context_t *ctx;
    if (!CHECK(gb_context_open(&ctx, dev, msg, sizeof msg) == GB_OK))
        return;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 32, 32, 32);
    for (size_t i = 0; i < gb_impl_count(reg); i++) {
        gb_impl_t im;
        CHECK_RC(gb_impl_at(reg, i, &im), GB_OK);
        if (!gb_impl_can(&im, GB_IS_LIBRARY))
            continue;
        /* GB_OK, or the reason it cannot run here (cuBLAS beside PoCL). */
        const int want = gb_impl_check(&im, dev, p.precision, &p, NULL, 0);
        CHECK_RC(gb_impl_prebuild(ctx, &im, &p, msg, sizeof msg), want);
    }
    CHECK(ctx->programs.n == 0);
    gb_context_close(ctx);
}

int main(void)
{
    setenv("GEMMBENCH_NO_CACHE", "1", 1);
    setenv("GEMMBENCH_ENERGY_MIN_S", "0", 1);
    char msg[512];
    gb_device_info_t *list;
    size_t n = 0, idx = 0;
    gb_registry_t *reg;
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    if (gb_device_list(&list, &n, msg, sizeof msg) != GB_OK || n == 0 ||
        gb_device_select(list, n, &sel, &idx, msg, sizeof msg) != GB_OK) {
        printf("no OpenCL device: %s\n", msg);
        return 1;
    }
    if (gb_registry_open(&reg, GB_FIXTURES_DIR "/build_error", msg, sizeof msg) != GB_OK) {
        printf("%s\n", msg);
        return 1;
    }
    gb_impl_t small;
    CHECK_RC(gb_impl_resolve(reg, "xgemm_small", NULL, &small, msg, sizeof msg), GB_OK);
    test_inputs(&list[idx], &small);
    test_prebuild(&list[idx], reg);
    test_bound(&list[idx], reg);
    test_peers(&list[idx], reg);
    gb_registry_close(reg);
    gb_device_list_free(list, n);
    return unit_finish();
}
