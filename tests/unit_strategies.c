/* unit_strategies.c: the tuner's search strategies (src/tool/tune/strategy.h) and recorded spaces
 * with simulation (src/tool/tune/recorded.h), on small families made from JSON text and synthetic
 * scores with a known optimum. For every strategy: the same seed gives the same sequence and
 * different seeds different ones (but exhaustive, which has no randomness); run to its end over
 * a small space, it proposes every valid configuration exactly once (exhaustive: in rank order),
 * also when some were told before being asked and when two asks precede their tells;
 * it ends at once on a space of one configuration; the guided strategies (anneal, genetic,
 * bayes) find the optimum of a smooth function with failures within 15% of a space of 1848
 * configurations, and of a deceptive one (a broad hill of 80 that nine tenths of the space
 * climb to, beside a narrower one of 100) within 40% of it, on every one of five seeds;
 * exhaustive finds the optimum at its rank, and random after half the space on average. A
 * recorded space written with gb_recorded_write_* reads back with its scores, and a simulation
 * over it gives exactly the trace of the same run on the scores in memory. Malformed recorded
 * files are refused with the file and line. */
#include "unit.h"

#include "rt/family/registry.h"
#include "tool/tune/recorded.h"
#include "tool/tune/strategy.h"
#include "tool/tune/tuners.h"
#include "rt/util/util.h"

/* Six parameters: MW and NW in {8..128} with MW * NW <= 4096, KW in {1..16} with VW <= KW,
 * VW in {1..8}, U in {0,1,2}, S in {0,1}: 22 * 14 * 6 = 1848 configurations. */
static const char mid_json[] =
    "{'family': 'tune_mid', 'source': 'tune_mid.cl', 'entry': 'k', 'precisions': ['s', 'd'], "
    "'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'], "
    "'global': ['M', 'N'], 'parameters': {"
    "'MW': {'default': 32, 'values': [8, 16, 32, 64, 128]}, "
    "'NW': {'default': 32, 'values': [8, 16, 32, 64, 128]}, "
    "'KW': {'default': 8, 'values': [1, 2, 4, 8, 16]}, "
    "'VW': {'default': 1, 'values': [1, 2, 4, 8]}, "
    "'U': {'default': 0, 'values': [0, 1, 2]}, "
    "'S': {'default': 0, 'values': [0, 1]}}, "
    "'constraints': ['MW * NW <= 4096', 'KW % VW == 0']}";

/* Four parameters, 33 * 4 * 2 = 264 configurations: A and B in {1..32} with A * B <= 256; A * B
 * * 16 bytes of local memory. */
static const char small_json[] =
    "{'family': 'tune_small', 'source': 'tune_small.cl', 'entry': 'k', 'precisions': ['s'], "
    "'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'], "
    "'global': ['M', 'N'], 'parameters': {"
    "'A': {'default': 1, 'values': [1, 2, 4, 8, 16, 32]}, "
    "'B': {'default': 1, 'values': [1, 2, 4, 8, 16, 32]}, "
    "'C': {'default': 0, 'values': [0, 1, 2, 3]}, "
    "'D': {'default': 0, 'values': [0, 1]}}, "
    "'constraints': ['A * B <= 256'], 'requires': {'local_memory': 'A * B * 16'}}";

static const char kernel_cl[] = "__kernel void k(void) {}\n";

/* JSON with single quotes made double. */
static char *json_text(const char *text)
{
    char *s = gb__strdup(text);
    for (char *p = s; p && *p; p++)
        if (*p == '\'')
            *p = '"';
    return s;
}

static int parse_family(const char *text, const char *origin, gb_family_t *f)
{
    char msg[256];
    char *json = json_text(text);
    int rc = gb__family_parse(json, strlen(json), origin, f, msg, sizeof msg);
    free(json);
    if (rc != GB_OK)
        printf("    %s\n", msg);
    else
        f->origin = gb__strdup(origin);
    return rc;
}

/* ---- synthetic scores ------------------------------------------------------------------------ */

typedef double (*score_fn)(const gb_space_t *sp, const gb_space_cand_t *c);

/* A parameter's index over its count of values less one, in [0, 1]. */
static double unit_of(const gb_space_t *sp, const gb_space_cand_t *c, const char *name)
{
    for (size_t i = 0; i < gb_space_nparams(sp); i++)
        if (!strcmp(gb_space_param(sp, i), name))
            return gb_space_nvalues(sp, i) > 1
                       ? (double)c->v[i] / (double)(gb_space_nvalues(sp, i) - 1)
                       : 0.0;
    return 0.0;
}

static long value_of(const gb_space_t *sp, const gb_space_cand_t *c, const char *name)
{
    for (size_t i = 0; i < gb_space_nparams(sp); i++)
        if (!strcmp(gb_space_param(sp, i), name))
            return gb_space_value(sp, i, c->v[i]);
    return 0;
}

/* One maximum of 100 at MW=64, NW=32, KW=8, VW=4, U=1, S=1 (a valid configuration), MW and NW
 * mattering most; MW * NW * KW > 16384 fails (as too much local memory would). */
static double smooth(const gb_space_t *sp, const gb_space_cand_t *c)
{
    if (value_of(sp, c, "MW") * value_of(sp, c, "NW") * value_of(sp, c, "KW") > 16384)
        return -1;
    const double d[6] = {unit_of(sp, c, "MW") - 0.75, unit_of(sp, c, "NW") - 0.5,
                         unit_of(sp, c, "KW") - 0.75, unit_of(sp, c, "VW") - 2.0 / 3,
                         unit_of(sp, c, "U") - 0.5,   unit_of(sp, c, "S") - 1.0};
    const double w[6] = {6, 5, 2, 1, 0.5, 0.3};
    double s = 0;
    for (int i = 0; i < 6; i++)
        s += w[i] * d[i] * d[i];
    return floor(100 * exp(-s) * 100 + 0.5) / 100; /* GFLOP/s to 0.01, as files keep them */
}

/* Deceptive: a broad hill of 80 at MW=NW=16, KW=4, VW=2, U=0 that most of the space climbs
 * to, and a narrow one of 100 far from it at MW=128, NW=32, KW=16, VW=8, U=2, S=0, which
 * only the configurations near it climb to. */
static double deceptive(const gb_space_t *sp, const gb_space_cand_t *c)
{
    const double u[6] = {unit_of(sp, c, "MW"), unit_of(sp, c, "NW"), unit_of(sp, c, "KW"),
                         unit_of(sp, c, "VW"), unit_of(sp, c, "U"),  unit_of(sp, c, "S")};
    const double hill_at[6] = {0.25, 0.25, 0.5, 1.0 / 3, 0, 0.5}, peak_at[6] = {1, 0.5, 1, 1, 1, 0};
    double dh = 0, dp = 0;
    for (int i = 0; i < 6; i++) {
        dh += (u[i] - hill_at[i]) * (u[i] - hill_at[i]);
        dp += (u[i] - peak_at[i]) * (u[i] - peak_at[i]);
    }
    const double hill = 80 * exp(-dh / 2), peak = 100 * exp(-dp / 0.6);
    return hill > peak ? hill : peak;
}

static double small_fn(const gb_space_t *sp, const gb_space_cand_t *c)
{
    if (value_of(sp, c, "A") * value_of(sp, c, "B") > 128)
        return -1;
    const double a = unit_of(sp, c, "A") - 0.6, b = unit_of(sp, c, "B") - 0.4,
                 cc = unit_of(sp, c, "C") - 1.0 / 3;
    return 10 * exp(-(4 * a * a + 3 * b * b + cc * cc)) + 0.5 * unit_of(sp, c, "D");
}

/* The best score over the whole space. */
static double space_best(const gb_space_t *sp, score_fn fn)
{
    double best = -1;
    for (uint64_t r = 0; r < gb_space_count(sp); r++) {
        gb_space_cand_t c;
        gb_space_unrank(sp, r, &c);
        const double s = fn(sp, &c);
        best = s > best ? s : best;
    }
    return best;
}

/* ---- running a strategy ---------------------------------------------------------------------- */

/* Runs name with seed for at most budget asks on scores fn (until a score of stop or more):
 * the ranks asked into ranks (may be NULL), the best so far after each into trace (may be
 * NULL). Returns how many were asked. */
static size_t run_until(const gb_space_t *sp, const char *name, uint64_t seed, size_t budget,
                        score_fn fn, uint64_t *ranks, double *trace, double stop)
{
    gb_strategy_t *st;
    char msg[256];
    if (!CHECK_RC(gb_strategy_open(&st, name, sp, seed, msg, sizeof msg), GB_OK))
        return 0;
    size_t n = 0;
    double best = 0;
    gb_space_cand_t c;
    while (n < budget && gb_strategy_ask(st, &c)) {
        const double s = fn(sp, &c);
        gb_strategy_tell(st, &c, s);
        if (ranks)
            ranks[n] = gb_space_rank(sp, &c);
        if (n == 0 || s > best)
            best = s;
        if (trace)
            trace[n] = best;
        n++;
        if (best >= stop)
            break;
    }
    gb_strategy_close(st);
    return n;
}

static size_t run(const gb_space_t *sp, const char *name, uint64_t seed, size_t budget, score_fn fn,
                  uint64_t *ranks, double *trace)
{
    return run_until(sp, name, seed, budget, fn, ranks, trace, HUGE_VAL);
}

/* Asks until the optimum (want) is found: how many evaluations it took (budget + 1: not). */
static size_t evals_to(const gb_space_t *sp, const char *name, uint64_t seed, size_t budget,
                       score_fn fn, double want)
{
    double *trace = malloc(budget * sizeof *trace);
    const size_t n = run_until(sp, name, seed, budget, fn, NULL, trace, want);
    size_t at = budget + 1;
    for (size_t i = 0; i < n && at > budget; i++)
        if (trace[i] >= want)
            at = i + 1;
    free(trace);
    return at;
}

/* ---- the tests ------------------------------------------------------------------------------ */

static void test_names(void)
{
    CHECK(gb_strategy_count() == 5);
    const char *want[] = {"exhaustive", "random", "anneal", "genetic", "bayes"};
    for (size_t i = 0; i < 5; i++) {
        CHECK(!strcmp(gb_strategy_name(i), want[i]));
        CHECK(strlen(gb_strategy_description(i)) > 10);
    }
    CHECK(gb_strategy_name(5) == NULL);
    /* Which learn from the scores decides how far ahead a tuning run asks (gb_tune_lookahead). */
    const int learns[] = {0, 0, 1, 1, 1};
    for (size_t i = 0; i < 5; i++)
        if (!CHECK(gb_strategy_learns(want[i]) == learns[i]))
            printf("    %s: learns should be %d\n", want[i], learns[i]);
    /* The default budget: a tenth of the space from 20 to 300, never past the space; all of it
     * for exhaustive, which promises every configuration. */
    CHECK(gb_strategy_whole("exhaustive") && !gb_strategy_whole("random") &&
          !gb_strategy_whole("bayes") && !gb_strategy_whole("nope") && !gb_strategy_whole(NULL));
    CHECK(gb_tune_default_budget(24, "bayes") == 20 && gb_tune_default_budget(24, "random") == 20);
    CHECK(gb_tune_default_budget(7, "anneal") == 7 &&
          gb_tune_default_budget(5000, "genetic") == 300);
    CHECK(gb_tune_default_budget(1000, NULL) == 100);
    CHECK(gb_tune_default_budget(24, "exhaustive") == 24 &&
          gb_tune_default_budget(5000, "exhaustive") == 5000);
}

/* Every strategy, run to its end, proposes every configuration once; seeds. */
static void test_small(const gb_space_t *sp)
{
    const uint64_t count = gb_space_count(sp);
    CHECK(count == 264);
    uint64_t *a = malloc((count + 1) * sizeof *a), *b = malloc((count + 1) * sizeof *b);
    unsigned char *seen = malloc(count);
    for (size_t s = 0; s < gb_strategy_count(); s++) {
        const char *name = gb_strategy_name(s);
        const size_t n = run(sp, name, 7, count + 1, small_fn, a, NULL);
        if (!CHECK(n == count))
            printf("    %s: %zu of %llu asked\n", name, n, (unsigned long long)count);
        memset(seen, 0, count);
        size_t twice = 0;
        for (size_t i = 0; i < n; i++) {
            if (a[i] >= count || seen[a[i]])
                twice++;
            else
                seen[a[i]] = 1;
        }
        if (!CHECK(twice == 0))
            printf("    %s: %zu configurations proposed twice\n", name, twice);
        if (!strcmp(name, "exhaustive"))
            for (size_t i = 0; i < n; i++)
                CHECK(a[i] == i);
        /* The same seed: the same sequence; another seed: another one. */
        const size_t m = run(sp, name, 7, count, small_fn, b, NULL);
        CHECK(m == n && !memcmp(a, b, n * sizeof *a));
        run(sp, name, 8, count, small_fn, b, NULL);
        const int differs = memcmp(a, b, n * sizeof *a) != 0;
        if (!CHECK(differs == !!strcmp(name, "exhaustive")))
            printf("    %s: seeds 7 and 8 give %s sequences\n", name,
                   differs ? "different" : "the same");
    }
    /* Configurations told before any ask (measured earlier) are never asked, and two asks before
     * their tells do not give the same one: every other configuration is asked once. */
    for (size_t s = 0; s < gb_strategy_count(); s++) {
        gb_strategy_t *st;
        char why[256];
        if (!CHECK_RC(gb_strategy_open(&st, gb_strategy_name(s), sp, 5, why, sizeof why), GB_OK))
            continue;
        memset(seen, 0, count);
        size_t before = 0;
        for (uint64_t r = 3; r < count; r += 29, before++) {
            gb_space_cand_t c;
            gb_space_unrank(sp, r, &c);
            gb_strategy_tell(st, &c, small_fn(sp, &c));
            gb_strategy_tell(st, &c, 1e9); /* a second score is ignored */
            seen[r] = 1;
        }
        size_t asked = 0, twice = 0;
        for (;;) {
            gb_space_cand_t c[2];
            int n = 0;
            while (n < 2 && gb_strategy_ask(st, &c[n]))
                n++;
            for (int i = 0; i < n; i++) {
                const uint64_t r = gb_space_rank(sp, &c[i]);
                twice += r >= count || seen[r];
                if (r < count)
                    seen[r] = 1;
                gb_strategy_tell(st, &c[i], small_fn(sp, &c[i]));
                asked++;
            }
            if (n < 2)
                break;
        }
        if (!CHECK(before == 9 && twice == 0 && asked == count - before))
            printf("    %s: %zu asked after %zu told, %zu twice\n", gb_strategy_name(s), asked,
                   before, twice);
        gb_strategy_close(st);
    }
    /* Unknown names are refused, listing the known ones. */
    gb_strategy_t *st;
    char msg[256];
    CHECK_RC(gb_strategy_open(&st, "simplex", sp, 1, msg, sizeof msg), GB_EBADARG);
    CHECK_HAS(msg, "exhaustive, random, anneal, genetic, bayes");
    CHECK(st == NULL);
    gb_strategy_close(NULL);
    free(a);
    free(b);
    free(seen);
}

/* A space of one configuration: asked once, then nothing. */
static void test_single(const gb_family_t *f)
{
    const long one[] = {1}, zero[] = {0};
    const gb_space_values_t narrow[] = {
        {"A", one, 1}, {"B", one, 1}, {"C", zero, 1}, {"D", zero, 1}};
    gb_space_t *sp;
    char msg[256];
    if (!CHECK_RC(gb_space_open(&sp, f, GB_PREC_S, NULL, narrow, 4, msg, sizeof msg), GB_OK))
        return;
    CHECK(gb_space_count(sp) == 1);
    for (size_t s = 0; s < gb_strategy_count(); s++) {
        gb_strategy_t *st;
        gb_space_cand_t c;
        if (!CHECK_RC(gb_strategy_open(&st, gb_strategy_name(s), sp, 3, msg, sizeof msg), GB_OK))
            continue;
        CHECK(gb_strategy_ask(st, &c) == 1);
        gb_strategy_tell(st, &c, -1); /* failed */
        CHECK(gb_strategy_ask(st, &c) == 0);
        CHECK(gb_strategy_ask(st, &c) == 0);
        gb_strategy_close(st);
    }
    gb_space_close(sp);
}

/* The configurations whose steepest climb (to the best neighbour while one is better) ends at
 * the optimum of fn. */
static size_t basin(const gb_space_t *sp, score_fn fn, double optimum)
{
    size_t n = 0;
    for (uint64_t r = 0; r < gb_space_count(sp); r++) {
        gb_space_cand_t c, nb[2 * GB_MAX_PARAMS];
        gb_space_unrank(sp, r, &c);
        for (double here = fn(sp, &c);;) {
            const size_t k = gb_space_neighbours(sp, &c, nb, 2 * GB_MAX_PARAMS);
            size_t up = k;
            for (size_t i = 0; i < k; i++)
                if (fn(sp, &nb[i]) > here) {
                    here = fn(sp, &nb[i]);
                    up = i;
                }
            if (up == k)
                break;
            c = nb[up];
        }
        n += fn(sp, &c) == optimum;
    }
    return n;
}

/* The guided strategies find the known optimum well within the space's size: the smooth one
 * within 15% of it, the deceptive one (whose optimum's basin is a tenth of the space) within
 * 40%, on each of five seeds. Exhaustive and random find it where they must. */
static void test_optimum(const gb_space_t *sp)
{
    const uint64_t count = gb_space_count(sp);
    CHECK(count == 1848);
    const double best_smooth = space_best(sp, smooth), best_deceptive = space_best(sp, deceptive);
    CHECK_NEAR(best_smooth, 100, 1e-9);
    CHECK_NEAR(best_deceptive, 100, 1e-9);
    const size_t trap = basin(sp, deceptive, best_deceptive);
    CHECK(trap >= 100 && trap <= 200);
    /* Exhaustive finds it at its rank; random, which no budget under the space's size can
     * promise, in (count + 1) / 2 evaluations on average over seeds (uniform without
     * repetition), here within a tenth of it over 40 seeds. */
    gb_params_t ps;
    gb_space_cand_t opt;
    memset(&ps, 0, sizeof ps);
    gb_params_set(&ps, "MW", 64);
    gb_params_set(&ps, "NW", 32);
    gb_params_set(&ps, "KW", 8);
    gb_params_set(&ps, "VW", 4);
    gb_params_set(&ps, "U", 1);
    gb_params_set(&ps, "S", 1);
    if (CHECK_RC(gb_space_find(sp, &ps, &opt), GB_OK)) {
        CHECK(smooth(sp, &opt) == best_smooth);
        CHECK(evals_to(sp, "exhaustive", 1, count, smooth, best_smooth) ==
              gb_space_rank(sp, &opt) + 1);
    }
    double mean = 0;
    for (uint64_t seed = 1; seed <= 40; seed++)
        mean += (double)evals_to(sp, "random", seed, count, smooth, best_smooth) / 40;
    if (!CHECK(fabs(mean - (double)(count + 1) / 2) < 0.1 * (double)count))
        printf("    random: %.1f evaluations to the optimum on average\n", mean);
    const char *guided[] = {"anneal", "genetic", "bayes"};
    const size_t budget_smooth = (size_t)(0.15 * (double)count),
                 budget_deceptive = (size_t)(0.4 * (double)count);
    const int verbose = getenv("GB_UNIT_VERBOSE") != NULL;
    if (verbose)
        printf("    the deceptive optimum's basin: %zu configurations\n", trap);
    for (size_t g = 0; g < 3; g++) {
        for (uint64_t seed = 1; seed <= 5; seed++) {
            const size_t a = evals_to(sp, guided[g], seed, budget_smooth, smooth, best_smooth);
            if (!CHECK(a <= budget_smooth))
                printf("    %s seed %llu: smooth optimum not found in %zu evaluations\n", guided[g],
                       (unsigned long long)seed, budget_smooth);
            const size_t b =
                evals_to(sp, guided[g], seed, budget_deceptive, deceptive, best_deceptive);
            if (!CHECK(b <= budget_deceptive))
                printf("    %s seed %llu: deceptive optimum not found in %zu evaluations\n",
                       guided[g], (unsigned long long)seed, budget_deceptive);
            if (verbose)
                printf("    %-8s seed %llu: smooth %zu, deceptive %zu evaluations\n", guided[g],
                       (unsigned long long)seed, a, b);
        }
    }
}

/* Writes sp's configurations (every keep-th, all for keep 1) with fn's scores to path. */
static int write_recorded(const char *path, const gb_space_t *sp, score_fn fn, uint64_t keep,
                          const char *family)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    gb_recorded_info_t info;
    memset(&info, 0, sizeof info);
    snprintf(info.family, sizeof info.family, "%s", family);
    info.precision = GB_PREC_D;
    info.m = 1024;
    info.n = 512;
    info.k = 256;
    snprintf(info.device, sizeof info.device, "Test GPU\nwith a line break");
    snprintf(info.source, sizeof info.source, "unit_strategies (synthetic)");
    int ok = gb_recorded_write_header(f, &info, sp) == GB_OK;
    for (uint64_t r = 0; ok && r < gb_space_count(sp); r += keep) {
        gb_space_cand_t c;
        gb_space_unrank(sp, r, &c);
        ok = gb_recorded_write_entry(f, sp, &c, fn(sp, &c)) == GB_OK;
    }
    return fclose(f) == 0 && ok;
}

static void test_recorded(const gb_space_t *mem, const char *dir, const gb_registry_t *reg)
{
    char path[4096], msg[512];
    snprintf(path, sizeof path, "%s/mid.space", dir);
    if (!CHECK(write_recorded(path, mem, smooth, 1, "tune_mid")))
        return;
    size_t len = 0;
    char *text = unit_read_file(path, &len);
    /* Compact: 1848 configurations in under 40 KB. */
    CHECK(text && len < 40000);
    CHECK_HAS(text, "gemmbench-space 1\nfamily tune_mid\nprecision d\nsize 1024 512 256\n"
                    "device Test GPU with a line break\nsource unit_strategies (synthetic)\n");
    free(text);
    gb_recorded_t *rec;
    gb_space_t *sp;
    if (!CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    const gb_recorded_info_t *info = gb_recorded_info(rec);
    CHECK(!strcmp(info->family, "tune_mid") && info->precision == GB_PREC_D && info->m == 1024 &&
          info->n == 512 && info->k == 256);
    CHECK(!strcmp(info->device, "Test GPU with a line break"));
    CHECK(gb_space_count(sp) == gb_space_count(mem));
    CHECK(gb_recorded_size(rec) == gb_space_count(mem));
    CHECK(gb_recorded_best(rec) == space_best(mem, smooth));
    /* Every score reads back exactly. */
    size_t exact = 0;
    for (uint64_t r = 0; r < gb_space_count(sp); r++) {
        gb_space_cand_t c;
        gb_space_unrank(sp, r, &c);
        const double want = smooth(mem, &c);
        exact += gb_recorded_score(rec, sp, &c) == (want < 0 ? -1 : want);
    }
    CHECK(exact == gb_space_count(sp));
    /* The simulation gives the trace of the same run in memory. */
    enum { BUDGET = 150 };
    double want[BUDGET], got[BUDGET];
    for (size_t s = 0; s < gb_strategy_count(); s++) {
        const char *name = gb_strategy_name(s);
        const size_t n = run(mem, name, 11, BUDGET, smooth, NULL, want);
        size_t done = 0;
        CHECK_RC(gb_simulate(rec, sp, name, 11, BUDGET, 1, got, &done, msg, sizeof msg), GB_OK);
        if (!CHECK(done == n && n == BUDGET && !memcmp(want, got, n * sizeof *got)))
            printf("    %s: the simulation differs from the run in memory\n", name);
    }
    size_t done = 7;
    CHECK_RC(gb_simulate(rec, sp, "hill", 1, 10, 1, got, &done, msg, sizeof msg), GB_EBADARG);
    CHECK(done == 0);
    CHECK_HAS(msg, "unknown strategy 'hill'");
    /* A budget past the space's size stops at its size. */
    double *all = malloc(2000 * sizeof *all);
    CHECK_RC(gb_simulate(rec, sp, "random", 1, 2000, 8, all, &done, msg, sizeof msg), GB_OK);
    CHECK(done == 1848 && all[done - 1] == gb_recorded_best(rec));
    /* Asked 8 ahead, as a tuning run asks: the same seed gives the same trace; every strategy
     * still evaluates distinct configurations and its trace never falls. */
    for (size_t s = 0; s < gb_strategy_count(); s++) {
        const char *name = gb_strategy_name(s);
        size_t d1 = 0, d2 = 0;
        CHECK_RC(gb_simulate(rec, sp, name, 5, BUDGET, 8, want, &d1, msg, sizeof msg), GB_OK);
        CHECK_RC(gb_simulate(rec, sp, name, 5, BUDGET, 8, got, &d2, msg, sizeof msg), GB_OK);
        int falls = 0;
        for (size_t i = 1; i < d1; i++)
            falls |= want[i] < want[i - 1];
        if (!CHECK(d1 == BUDGET && d2 == d1 && !memcmp(want, got, d1 * sizeof *got) && !falls))
            printf("    %s: asked 8 ahead, not deterministic or not monotone\n", name);
    }
    free(all);
    gb_recorded_close(rec);
    gb_space_close(sp);
    /* A partial recording: configurations not recorded score as failures. */
    if (CHECK(write_recorded(path, mem, smooth, 3, "tune_mid")) &&
        CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_OK)) {
        CHECK(gb_recorded_size(rec) == 616);
        gb_space_cand_t c;
        gb_space_unrank(sp, 1, &c);
        CHECK(gb_recorded_score(rec, sp, &c) == -1);
        gb_recorded_close(rec);
        gb_space_close(sp);
    }
}

/* Malformed files: each refused with the file and the line at fault. */
static void test_malformed(const char *dir, const gb_registry_t *reg)
{
    static const char head[] = "gemmbench-space 1\nfamily tune_small\nprecision s\n"
                               "size 64 64 64\ndevice Test\nsource by hand\n"
                               "param A 1 2 4\nparam B 1 2 4\nparam C 0 1\nparam D 0\n";
    static const struct {
        const char *body, *want;
        int rc;
    } cases[] = {
        {"configurations\n1 1 0 0 10\n2 2 1 0 -1\n# a comment\n\n4 4 1 0 12.5\n", NULL, GB_OK},
        {"configurations\n1 1 0 0 10\n3 1 0 0 5\n", "bad.space:13: A=3 is not among", 0},
        {"configurations\n1 1 0 0 10\n2 1 0 0 5\n1 1 0 0 7\n",
         "bad.space:14: the same configuration as line 12", 0},
        {"configurations\n1 1 0 0\n", "bad.space:12: expected 4 values and a score", 0},
        {"configurations\n1 1 0 0 fast\n", "bad.space:12: the score 'fast' is not a finite", 0},
        {"configurations\n1 1 0 0 5 6\n", "bad.space:12: more than 4 values and a score", 0},
        {"configurations\n1 x 0 0 5\n", "bad.space:12: B's value 'x' is not an integer", 0},
        {"colour blue\nconfigurations\n", "bad.space:11: unknown header key 'colour'", 0},
        {"param A 8\nconfigurations\n",
         "bad.space:11: parameter A is listed twice (first on "
         "line 7)",
         0},
        {"", "bad.space: the header does not end with a 'configurations' line", 0},
    };
    char path[4096], text[2048], msg[512];
    snprintf(path, sizeof path, "%s/bad.space", dir);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, cases[i].body);
        if (!CHECK(unit_write_file(dir, "bad.space", text)))
            continue;
        gb_recorded_t *rec;
        gb_space_t *sp;
        const int rc = gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg);
        if (!cases[i].want) {
            if (CHECK_RC(rc, GB_OK)) {
                CHECK(gb_recorded_size(rec) == 3 && gb_recorded_best(rec) == 12.5);
                CHECK(gb_space_count(sp) == 3 * 3 * 2);
                gb_recorded_close(rec);
                gb_space_close(sp);
            } else {
                printf("    %s\n", msg);
            }
            continue;
        }
        CHECK_RC(rc, GB_EBADARG);
        CHECK(rec == NULL && sp == NULL);
        CHECK_HAS(msg, path);
        CHECK_HAS(msg, cases[i].want);
    }
    /* Header faults. */
    static const struct {
        const char *text, *want;
        int rc;
    } heads[] = {
        {"gemmbench-results 1\n", "bad.space:1: not a recorded space", GB_EBADARG},
        {"# made by hand\ngemmbench-space 2\n",
         "bad.space:2: version 2 of the recorded-space "
         "format is not known",
         GB_EBADARG},
        {"gemmbench-space 1\nfamily tune_small\nprecision s\nparam A 1\nconfigurations\n",
         "bad.space:5: the header lacks its 'size' line", GB_EBADARG},
        {"gemmbench-space 1\nfamily nosuch\nprecision s\nsize 1 1 1\nparam A 1\n"
         "configurations\n",
         "no kernel family 'nosuch'", GB_ENOKERNEL},
        {"gemmbench-space 1\nfamily tune_small\nprecision s\nsize 1 1 1\nparam A 1\n"
         "configurations\n",
         "parameter B of family 'tune_small' is not listed", GB_EBADARG},
        {"gemmbench-space 1\nfamily tune_small\nprecision s\nsize 1 1 1\nparam A 1 3\n"
         "param B 1\nparam C 0\nparam D 0\nconfigurations\n",
         "A=3 is not allowed", GB_EBADARG},
        {"gemmbench-space 1\nfamily tune_small\nprecision s\nsize 1 1 1\nparam A 32\n"
         "param B 32\nparam C 0\nparam D 0\nconfigurations\n",
         "constraint 'A * B <= 256'", GB_EBADARG},
        {"gemmbench-space 1\nsize 1 1\n", "bad.space:2: give the size as three positive",
         GB_EBADARG},
        {"gemmbench-space 1\nfamily tune_small\nprecision q\n", "bad.space:3: the precision",
         GB_EBADARG},
        {"", "bad.space: empty: not a recorded space", GB_EBADARG},
        {"gemmbench-space 1\nfamily a\0b\n", "bad.space:2: a NUL byte", GB_EBADARG},
    };
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        FILE *f = fopen(path, "wb");
        if (!CHECK(f))
            continue;
        /* The NUL case: write through to the end of its second line. */
        const char *t = heads[i].text;
        size_t n = strlen(t);
        if (strstr(heads[i].want, "NUL"))
            n = strlen(t) + 1 + strlen(t + strlen(t) + 1);
        fwrite(t, 1, n, f);
        fclose(f);
        gb_recorded_t *rec;
        gb_space_t *sp;
        CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), heads[i].rc);
        CHECK_HAS(msg, heads[i].want);
    }
    gb_recorded_t *rec;
    gb_space_t *sp;
    /* Limits, and a limits line with a word missing or repeated. */
    static const char *const bad_limits[] = {
        "limits type=gpu local_memory=1024 work_group=256 work_items=256,256\n",
        "limits type=gpu type=cpu local_memory=1024 work_group=256 work_items=256,256 "
        "compute_units=4\n",
        "limits type=fpga local_memory=1024 work_group=256 work_items=256,256 compute_units=4\n",
        "limits type=gpu local_memory=1024 work_group=256 work_items=256 compute_units=4\n",
    };
    for (size_t i = 0; i < sizeof bad_limits / sizeof bad_limits[0]; i++) {
        snprintf(text, sizeof text, "%s%sconfigurations\n", head, bad_limits[i]);
        if (CHECK(unit_write_file(dir, "bad.space", text)) &&
            CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_EBADARG))
            CHECK_HAS(msg, "bad.space:11: give the limits as type=");
    }
    snprintf(text, sizeof text,
             "%svendor Test Corp\nlimits compute_units=4 type=gpu local_memory=128 "
             "work_group=256 work_items=256,128\nconfigurations\n1 1 0 0 10\n2 4 0 0 11\n",
             head);
    if (CHECK(unit_write_file(dir, "bad.space", text)) &&
        CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_OK)) {
        const gb_recorded_info_t *info = gb_recorded_info(rec);
        CHECK(info->has_limits && !strcmp(info->vendor, "Test Corp") &&
              !strcmp(info->type_name, "gpu") && info->local_mem == 128 &&
              info->max_wg_size == 256 && info->max_wi_sizes[0] == 256 &&
              info->max_wi_sizes[1] == 128 && info->compute_units == 4);
        /* The space of that device, what a tuning run there would have asked for: A * B <= 8,
         * 4 x 4 out. */
        CHECK(gb_space_count(sp) == 8 * 2);
        /* Written again, the header reads back as the same space. */
        char again[4096];
        snprintf(again, sizeof again, "%s/again.space", dir);
        FILE *f = fopen(again, "w");
        if (CHECK(f)) {
            CHECK(gb_recorded_write_header(f, info, sp) == GB_OK);
            fclose(f);
            size_t len = 0;
            char *t = unit_read_file(again, &len);
            CHECK_HAS(t, "device Test\nvendor Test Corp\nlimits type=gpu local_memory=128 "
                         "work_group=256 work_items=256,128 compute_units=4\nsource by hand\n");
            free(t);
            gb_recorded_t *rec2;
            gb_space_t *sp2;
            if (CHECK_RC(gb_recorded_load(&rec2, &sp2, again, reg, msg, sizeof msg), GB_OK)) {
                CHECK(gb_space_count(sp2) == 8 * 2 && gb_recorded_info(rec2)->has_limits);
                gb_recorded_close(rec2);
                gb_space_close(sp2);
            }
        }
        gb_recorded_close(rec);
        gb_space_close(sp);
    }
    /* A configuration over the device's local memory is not of its space. */
    snprintf(text, sizeof text,
             "%svendor Test Corp\nlimits type=gpu local_memory=128 work_group=256 "
             "work_items=256,256 compute_units=4\nconfigurations\n4 4 0 0 10\n",
             head);
    if (CHECK(unit_write_file(dir, "bad.space", text)) &&
        CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_EBADARG))
        CHECK_HAS(msg, "bad.space:14: this configuration is not in the space: it");
    snprintf(path, sizeof path, "%s/missing.space", dir);
    CHECK_RC(gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg), GB_EIO);
    CHECK_HAS(msg, "missing.space");
}

int main(void)
{
    char dir[64];
    if (!CHECK(unit_make_dir(dir, sizeof dir)))
        return unit_finish();
    /* The two families as files too, for the registry that recorded spaces are read against. */
    char *mid = json_text(mid_json), *small = json_text(small_json);
    CHECK(unit_write_file(dir, "tune_mid.json", mid) &&
          unit_write_file(dir, "tune_mid.cl", kernel_cl));
    CHECK(unit_write_file(dir, "tune_small.json", small) &&
          unit_write_file(dir, "tune_small.cl", kernel_cl));
    free(mid);
    free(small);
    gb_registry_t *reg = NULL;
    char msg[512];
    gb_family_t fmid, fsmall;
    gb_space_t *spmid = NULL, *spsmall = NULL;
    if (!CHECK_RC(gb_registry_open(&reg, dir, msg, sizeof msg), GB_OK) ||
        !CHECK_RC(parse_family(mid_json, "tune_mid.json", &fmid), GB_OK))
        goto out;
    if (!CHECK_RC(parse_family(small_json, "tune_small.json", &fsmall), GB_OK)) {
        gb__family_free(&fmid);
        goto out;
    }
    if (CHECK_RC(gb_space_open(&spmid, &fmid, GB_PREC_S, NULL, NULL, 0, msg, sizeof msg), GB_OK) &&
        CHECK_RC(gb_space_open(&spsmall, &fsmall, GB_PREC_S, NULL, NULL, 0, msg, sizeof msg),
                 GB_OK)) {
        test_names();
        test_small(spsmall);
        test_single(&fsmall);
        test_optimum(spmid);
        test_recorded(spmid, dir, reg);
        test_malformed(dir, reg);
    }
    gb_space_close(spmid);
    gb_space_close(spsmall);
    gb__family_free(&fmid);
    gb__family_free(&fsmall);
out:
    gb_registry_close(reg);
    unit_remove_dir(dir);
    return unit_finish();
}
