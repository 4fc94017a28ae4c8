/* prebuild.c: what a tuner gains from a context's kept inputs and from gb_impl_prebuild
 * (gemmbench-prebuild, run by bench/prebuild.sh). N xgemm configurations of one problem are
 * measured one after another on a fresh context, as a tuner's candidates are, four ways:
 * inputs kept or not (not: another seed per configuration, so every run generates its inputs
 * and computes the reference as before the context kept them) times prebuild threads or not
 * (threads prebuild the configurations in order while this thread measures them). The disk
 * caches are off (gemmbench's, and PoCL's own), so every program is compiled. The four ways
 * take turns for a few rounds; prints each way's best time and its ratio to the first's,
 * measured in one run. Every run must validate. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gemmbench.h"

#define MAX_CONFIGS 36

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct builders {
    gb_context_t *ctx;
    const gb_impl_t *configs;
    size_t n;
    const gb_problem_t *p;
    atomic_size_t next;
    atomic_int failed;
} builders_t;

static void *prebuild_next(void *arg)
{
    builders_t *b = arg;
    char msg[4096];
    for (size_t i; (i = atomic_fetch_add(&b->next, 1)) < b->n;)
        if (gb_impl_prebuild(b->ctx, &b->configs[i], b->p, msg, sizeof msg) != GB_OK) {
            fprintf(stderr, "gemmbench-prebuild: %s\n", msg);
            atomic_store(&b->failed, 1);
        }
    return NULL;
}

/* Seconds to measure every configuration on a fresh context; -1 when one fails or does not
 * validate. */
static double measure_all(const gb_device_info_t *dev, const gb_impl_t *configs, size_t n,
                          const gb_problem_t *p, int keep, int threads)
{
    char msg[512];
    gb_context_t *ctx;
    if (gb_context_open(&ctx, dev, msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "gemmbench-prebuild: %s\n", msg);
        return -1;
    }
    gb_bench_options_t o;
    gb_bench_options_init(&o);
    o.iterations = 3;
    o.validate = GB_VALIDATE_ON;
    builders_t b = {ctx, configs, n, p, 0, 0};
    pthread_t th[8];
    int started = 0, ok = 1;
    const double t0 = now();
    for (; started < threads; started++)
        if (pthread_create(&th[started], NULL, prebuild_next, &b) != 0)
            break;
    for (size_t i = 0; ok && i < n; i++) {
        gb_result_t r;
        o.seed = keep ? 42 : 42 + i;
        if (gb_bench_run(ctx, &configs[i], p, &o, &r) != GB_OK) {
            fprintf(stderr, "gemmbench-prebuild: %s\n", gb_context_errmsg(ctx));
            ok = 0;
            break;
        }
        if (!r.validation.passed) {
            fprintf(stderr, "gemmbench-prebuild: %s did not validate\n", gb_impl_name(&configs[i]));
            ok = 0;
        }
        gb_result_free(&r);
    }
    atomic_store(&b.next, n); /* stops the builders after a failure */
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    const double s = now() - t0;
    gb_context_close(ctx);
    return ok && started == threads && !atomic_load(&b.failed) ? s : -1;
}

int main(int argc, char **argv)
{
    const long n_arg = argc > 1 ? atol(argv[1]) : 16, size = argc > 2 ? atol(argv[2]) : 512;
    const int threads = argc > 3 ? atoi(argv[3]) : 2, rounds = argc > 4 ? atoi(argv[4]) : 2;
    if (argc > 5 || n_arg < 1 || n_arg > MAX_CONFIGS || size < 1 || size > 8192 || threads < 1 ||
        threads > 8 || rounds < 1 || rounds > 10) {
        fprintf(stderr,
                "usage: gemmbench-prebuild [N 1..%d (16)] [SIZE (512)] [THREADS 1..8 (2)] "
                "[ROUNDS 1..10 (2)]\n",
                MAX_CONFIGS);
        return 2;
    }
    setenv("GEMMBENCH_NO_CACHE", "1", 1);
    setenv("POCL_KERNEL_CACHE", "0", 1);
    setenv("GEMMBENCH_ENERGY_MIN_S", "0", 1);
    char msg[512];
    gb_device_info_t *list;
    size_t ndev = 0, idx = 0;
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    gb_registry_t *reg;
    if (gb_device_list(&list, &ndev, msg, sizeof msg) != GB_OK || ndev == 0 ||
        gb_device_select(list, ndev, &sel, &idx, msg, sizeof msg) != GB_OK ||
        gb_registry_open(&reg, NULL, msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "gemmbench-prebuild: %s\n", msg);
        return 1;
    }
    const gb_device_info_t *dev = &list[idx];
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, (size_t)size, (size_t)size, (size_t)size);
    /* Tiles and vector widths: distinct programs, every one valid for xgemm's defaults. */
    static const long tiles[] = {16, 32, 64}, kwgs[] = {8, 16}, vws[] = {1, 2};
    gb_impl_t configs[MAX_CONFIGS];
    size_t n = 0;
    for (size_t v = 0; v < 2; v++)
        for (size_t k = 0; k < 2; k++)
            for (size_t i = 0; i < 3; i++)
                for (size_t j = 0; j < 3 && n < (size_t)n_arg; j++) {
                    gb_params_t ps = {0};
                    gb_params_set(&ps, "MWG", tiles[i]);
                    gb_params_set(&ps, "NWG", tiles[j]);
                    gb_params_set(&ps, "KWG", kwgs[k]);
                    gb_params_set(&ps, "VWN", vws[v]);
                    if (gb_impl_resolve(reg, "xgemm", &ps, &configs[n], msg, sizeof msg) == GB_OK &&
                        gb_impl_check(&configs[n], dev, p.precision, &p, NULL, 0) == GB_OK)
                        n++;
                }
    printf("device: %s; %zu xgemm configurations, SGEMM %ld^3, 3 timed calls each, validated; "
           "%d prebuild threads; best of %d rounds\n",
           dev->name, n, size, threads, rounds);
    static const char *const ways[] = {"inputs anew, no prebuild", "inputs kept, no prebuild",
                                       "inputs anew, prebuild", "inputs kept, prebuild"};
    double best[4] = {0, 0, 0, 0};
    int rc = 0;
    for (int round = 0; round < rounds && !rc; round++)
        for (int w = 0; w < 4 && !rc; w++) {
            const double s = measure_all(dev, configs, n, &p, w & 1, w & 2 ? threads : 0);
            if (s < 0)
                rc = 1;
            else if (round == 0 || s < best[w])
                best[w] = s;
        }
    for (int w = 0; w < 4 && !rc; w++)
        printf("%-26s %7.2f s  %5.3fx\n", ways[w], best[w], best[w] / best[0]);
    gb_registry_close(reg);
    gb_device_list_free(list, ndev);
    return rc;
}
