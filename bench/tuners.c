/* tuners.c: the strategy benchmark (gemmbench-tuners, run by bench/tuners.sh). For each recorded
 * space and each strategy, runs the strategy over the space (gb_simulate) with several seeds
 * and prints, as one table, the fraction of the space's best score reached after 2%, 5%, 10%
 * and 25% of the space's configurations in evaluations: the mean and the worst over the seeds.
 * It also writes the synthetic recorded spaces of bench/synthetic.c (--synthesize) and joins
 * passes of a recorded space by median (--median, bench/median.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool/tune/recorded.h"
#include "tool/tune/strategy.h"
#include "tool/tune/tune.h"
#include "median.h"
#include "synthetic.h"

static const double PERCENTS[] = {2, 5, 10, 25};
#define NPERCENTS (sizeof PERCENTS / sizeof PERCENTS[0])

static void usage(FILE *to)
{
    fprintf(to,
            "usage: gemmbench-tuners [--seeds N] [--lookahead L] [--strategies LIST] "
            "[--kernel-path DIR]\n"
            "                        FILE...\n"
            "       gemmbench-tuners --synthesize MODEL OUT\n"
            "       gemmbench-tuners --median SOURCE FILE FILE... > OUT\n"
            "Simulates each strategy over each recorded space FILE with seeds 1..N (default 20)\n"
            "and prints the fraction of the space's best score reached after 2%%, 5%%, 10%% and\n"
            "25%% of its configurations in evaluations: mean and worst over the seeds.\n"
            "Candidates are asked L ahead of their scores (default as gemmbench tune asks on a\n"
            "device that builds ahead: %d, or %d for a strategy that does not learn).\n"
            "Strategies (default all):",
            GB_TUNE_LOOKAHEAD, GB_TUNE_LOOKAHEAD_BLIND);
    for (size_t i = 0; i < gb_strategy_count(); i++)
        fprintf(to, " %s", gb_strategy_name(i));
    fprintf(to, "\n--median writes one recorded space of passes of it, each configuration's score\n"
                "the median of its passes' (failed where one failed), its source line SOURCE.\n");
    fprintf(to, "\nSynthetic models (--synthesize writes one as a recorded space):\n");
    for (size_t i = 0; i < gb_synthetic_count(); i++)
        fprintf(to, "  %-14s %s\n", gb_synthetic_name(i), gb_synthetic_description(i));
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* --lookahead; 0: each strategy's, as gemmbench tune asks (gb_tune_lookahead). */
static size_t lookahead;

/* One space: every strategy listed, seeds 1..nseeds. Returns 0, or 1 when it cannot be read. */

static int bench_space(const char *path, const gb_registry_t *reg, const char **names,
                       size_t nnames, unsigned nseeds)
{
    gb_recorded_t *rec;
    gb_space_t *sp;
    char msg[1024];
    if (gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "gemmbench-tuners: %s\n", msg);
        return 1;
    }
    const uint64_t count = gb_space_count(sp);
    const double best = gb_recorded_best(rec);
    size_t evals[NPERCENTS];
    for (size_t p = 0; p < NPERCENTS; p++) {
        evals[p] = (size_t)ceil(PERCENTS[p] / 100 * (double)count);
        if (evals[p] < 1)
            evals[p] = 1;
    }
    const size_t budget = evals[NPERCENTS - 1];
    double *trace = malloc(budget * sizeof *trace);
    if (!trace) {
        fprintf(stderr, "gemmbench-tuners: out of memory\n");
        gb_recorded_close(rec);
        gb_space_close(sp);
        return 1;
    }
    size_t failed = 0;
    for (uint64_t r = 0; r < count; r++) {
        gb_space_cand_t c;
        gb_space_unrank(sp, r, &c);
        failed += gb_recorded_score(rec, sp, &c) < 0;
    }
    printf("\n%s: %s, %s %zux%zux%zu on %s\n", base_name(path), gb_recorded_info(rec)->family,
           gb_recorded_info(rec)->precision == GB_PREC_D ? "double" : "single",
           gb_recorded_info(rec)->m, gb_recorded_info(rec)->n, gb_recorded_info(rec)->k,
           gb_recorded_info(rec)->device);
    printf("%llu configurations (%zu recorded, %.0f%% failed or missing), best %.6g; "
           "evaluations:",
           (unsigned long long)count, gb_recorded_size(rec), 100.0 * (double)failed / (double)count,
           best);
    for (size_t p = 0; p < NPERCENTS; p++)
        printf(" %zu (%g%%)", evals[p], PERCENTS[p]);
    printf("\n%-11s", "strategy");
    for (size_t p = 0; p < NPERCENTS; p++)
        printf("  %6g%% mean/worst", PERCENTS[p]);
    printf("  %9s\n", "ms/run");
    for (size_t s = 0; s < nnames; s++) {
        double sum[NPERCENTS] = {0}, sumsq[NPERCENTS] = {0}, worst[NPERCENTS];
        for (size_t p = 0; p < NPERCENTS; p++)
            worst[p] = HUGE_VAL;
        const double t0 = now();
        int bad = 0;
        for (unsigned seed = 1; seed <= nseeds && !bad; seed++) {
            size_t done = 0;
            const size_t ahead = lookahead ? lookahead : gb_tune_lookahead(names[s]);
            if (gb_simulate(rec, sp, names[s], seed, budget, ahead, trace, &done, msg,
                            sizeof msg) != GB_OK) {
                fprintf(stderr, "gemmbench-tuners: %s\n", msg);
                bad = 1;
                break;
            }
            for (size_t p = 0; p < NPERCENTS; p++) {
                /* A run that ended early (the space told in full) keeps its last best. */
                const size_t at = evals[p] <= done ? evals[p] : done;
                double frac = at && best > 0 ? trace[at - 1] / best : 0;
                if (frac < 0)
                    frac = 0;
                sum[p] += frac;
                sumsq[p] += frac * frac;
                worst[p] = frac < worst[p] ? frac : worst[p];
            }
        }
        if (bad)
            continue;
        printf("%-11s", names[s]);
        for (size_t p = 0; p < NPERCENTS; p++)
            printf("  %8.3f / %6.3f", sum[p] / nseeds, worst[p]);
        printf("  %9.1f\n", 1e3 * (now() - t0) / nseeds);
        /* The standard error of each mean, under it: whether two strategies' means differ by
         * more than the seeds' spread (at 5% of a flat space they may not). */
        printf("%-11s", "  +-");
        for (size_t p = 0; p < NPERCENTS; p++) {
            const double m = sum[p] / nseeds, var = sumsq[p] / nseeds - m * m;
            const double se = nseeds > 1 && var > 0 ? sqrt(var / (nseeds - 1.0)) : 0;
            printf("  %8.3f%s", se, p + 1 < NPERCENTS ? "         " : "");
        }
        printf("\n");
        fflush(stdout);
    }
    free(trace);
    gb_recorded_close(rec);
    gb_space_close(sp);
    return 0;
}

/* The kernel registry (--kernel-path DIR, else the built-in one); NULL, said on stderr, when it
 * cannot be loaded. */
static gb_registry_t *open_registry(const char *kernel_path)
{
    gb_registry_t *reg;
    char msg[1024];
    if (gb_registry_open(&reg, kernel_path, msg, sizeof msg) == GB_OK)
        return reg;
    fprintf(stderr, "gemmbench-tuners: %s\n", msg);
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned nseeds = 20;
    const char *kernel_path = NULL, *list = NULL;
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        const char *a = argv[first];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--synthesize")) {
            if (first + 2 >= argc) {
                fprintf(stderr, "gemmbench-tuners: --synthesize needs a model and a file "
                                "(--help)\n");
                return 2;
            }
            size_t known = 0;
            while (known < gb_synthetic_count() &&
                   strcmp(gb_synthetic_name(known), argv[first + 1]))
                known++;
            if (known == gb_synthetic_count()) {
                fprintf(stderr,
                        "gemmbench-tuners: unknown synthetic model '%s' (--help lists "
                        "them)\n",
                        argv[first + 1]);
                return 2;
            }
            gb_registry_t *reg = open_registry(kernel_path);
            if (!reg)
                return 3;
            char msg[1024];
            FILE *out = fopen(argv[first + 2], "w");
            if (!out) {
                fprintf(stderr, "gemmbench-tuners: cannot write %s: %s\n", argv[first + 2],
                        strerror(errno));
                gb_registry_close(reg);
                return 3;
            }
            int rc = gb_synthetic_write(argv[first + 1], reg, out, msg, sizeof msg);
            if (fclose(out) != 0 && rc == GB_OK)
                rc = GB_EIO;
            gb_registry_close(reg);
            if (rc != GB_OK) {
                fprintf(stderr, "gemmbench-tuners: %s\n", msg);
                return rc == GB_EBADARG ? 2 : 3;
            }
            return 0;
        }
        if (!strcmp(a, "--median")) {
            if (first + 3 >= argc) {
                fprintf(stderr, "gemmbench-tuners: --median needs a source line and two files or "
                                "more (--help)\n");
                return 2;
            }
            gb_registry_t *reg = open_registry(kernel_path);
            if (!reg)
                return 3;
            const int rc =
                gb_bench_median(reg, argv[first + 1], argv + first + 2, argc - first - 2, stdout);
            gb_registry_close(reg);
            return rc;
        }
        if (first + 1 >= argc) {
            fprintf(stderr, "gemmbench-tuners: %s needs a value (--help)\n", a);
            return 2;
        }
        if (!strcmp(a, "--seeds")) {
            char *end;
            const long v = strtol(argv[++first], &end, 10);
            if (*end || v < 1 || v > 1000) {
                fprintf(stderr, "gemmbench-tuners: give --seeds from 1 to 1000\n");
                return 2;
            }
            nseeds = (unsigned)v;
        } else if (!strcmp(a, "--lookahead")) {
            char *end;
            const long v = strtol(argv[++first], &end, 10);
            if (*end || v < 1 || v > 64) {
                fprintf(stderr, "gemmbench-tuners: give --lookahead from 1 to 64\n");
                return 2;
            }
            lookahead = (size_t)v;
        } else if (!strcmp(a, "--strategies")) {
            list = argv[++first];
        } else if (!strcmp(a, "--kernel-path")) {
            kernel_path = argv[++first];
        } else {
            fprintf(stderr, "gemmbench-tuners: unknown option %s (--help)\n", a);
            return 2;
        }
    }
    if (first == argc) {
        usage(stderr);
        return 2;
    }
    const char *names[16];
    size_t nnames = 0;
    char *copy = NULL;
    if (list) {
        copy = malloc(strlen(list) + 1);
        if (!copy)
            return 3;
        strcpy(copy, list);
        for (char *t = strtok(copy, ","); t && nnames < 16; t = strtok(NULL, ","))
            names[nnames++] = t;
    } else {
        for (size_t i = 0; i < gb_strategy_count() && nnames < 16; i++)
            names[nnames++] = gb_strategy_name(i);
    }
    for (size_t i = 0; i < nnames; i++) {
        size_t k = 0;
        while (k < gb_strategy_count() && strcmp(gb_strategy_name(k), names[i]))
            k++;
        if (k == gb_strategy_count()) {
            fprintf(stderr, "gemmbench-tuners: unknown strategy '%s' (--help lists them)\n",
                    names[i]);
            free(copy);
            return 2;
        }
    }
    gb_registry_t *reg = open_registry(kernel_path);
    if (!reg) {
        free(copy);
        return 3;
    }
    printf("Fraction of each space's best score reached after 2%%, 5%%, 10%% and 25%% of its "
           "configurations in evaluations, mean and worst over seeds 1..%u (under each strategy, "
           "+- the standard error of its mean); candidates asked ",
           nseeds);
    if (lookahead)
        printf("%zu ahead of their scores.\n", lookahead);
    else
        printf("%d ahead of their scores (%d by strategies that do not learn).\n",
               GB_TUNE_LOOKAHEAD, GB_TUNE_LOOKAHEAD_BLIND);
    int bad = 0;
    for (int i = first; i < argc; i++)
        bad |= bench_space(argv[i], reg, names, nnames, nseeds);
    gb_registry_close(reg);
    free(copy);
    return bad ? 2 : 0;
}
