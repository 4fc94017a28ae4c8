/* cmd_tune.c: `gemmbench tune`: tunes a kernel family's parameters on the device for each shape
 * (and precision) asked for, one tuning run each (src/tool/tune/tune.c), and keeps each winner in
 * the tuning database; `--count` sizes the spaces. The runs are checked in tune_runs.c, spread
 * over several devices and MPI ranks by the tuners (src/tool/tune/tuners.c) and shown by
 * tune_show.c; `--record` and `--simulate` (recorded spaces) are tune_spaces.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool/tune/refresh.h"
#include "tool/tune/strategy.h"
#include "tool/tune/tune.h"
#include "options.h"
#include "progress.h"
#include "tune_cli.h"
#include "tune_spaces.h"

#define MAX_FIX GB_MAX_PARAMS

static void usage(void)
{
    printf(
        "usage: gemmbench tune -k FAMILY [-n/-M/-N/-K LIST | --shapes FILE | --plan P] [options]\n"
        "       gemmbench tune --refresh [-p/-t/-d D] [--precision P,..] [--classes C,..]\n"
        "                                [--budget N] [--time T] [--no-shipped] [--count]\n"
        "       gemmbench tune --count -k FAMILY[,FAMILY..]|all [--precision P] [--param ..]\n"
        "       gemmbench tune --simulate SPACE [--strategy S] [--budget N] [--seed S]\n"
        "                                       [--threads 0]\n"
        "Searches FAMILY's valid configurations (its parameters' values under its constraints\n"
        "and the device's limits) for the fastest at each shape, measuring each candidate as\n"
        "'run' does and validating it; a candidate already in the store is not run again, so\n"
        "an interrupted tuning resumes. The leaders are measured again before the winner is\n"
        "declared and kept in the tuning database ('gemmbench tuned list'; -k auto uses it).\n"
        "  -k, --kernel FAMILY     the family to tune (a preset's family)\n"
        "  -n, -M, -N, -K LIST     shapes, as for explore; --shapes FILE: M N K per line;\n"
        "      --plan P            a plan's shapes: tune-square, tune-shapes, or a file\n"
        "      --precision P       s, d, h (FP16), b (bfloat16), c, z (complex single,\n"
        "                          double), a list (s,c) or all: one run per precision the\n"
        "                          family has, each it lacks or the device cannot run\n"
        "                          skipped in a line (default: single where the family has\n"
        "                          it, else its first); an entry is kept per precision, and\n"
        "                          a C transposition under T's (docs/tuning.md)\n"
        "      --refresh           tune again every class the device uses (the precision,\n"
        "                          layout and shape class of each tuned entry -k auto sees\n"
        "                          for it: its own and its family's, shipped, in the store\n"
        "                          and in the tuning file): each kernel family of a class's\n"
        "                          entries at its shape, seeded with the configurations of\n"
        "                          that family's entries (at most 8, nearest shape first),\n"
        "                          measured first; --budget per run (default 12), --time for\n"
        "                          the whole refresh (no run starts once it is spent);\n"
        "                          --precision s,c keeps those precisions\n"
        "      --classes C,..      with --refresh: only these classes (square-4096, or\n"
        "                          s/row-NN/square-4096)\n"
        "      --no-shipped        with --refresh: the classes of the store's and tuning\n"
        "                          file's entries only (the shipped entries still seed)\n"
        "      --objective O       what the winner minimises: time (default), energy (J per\n"
        "                          GEMM) or edp (J x s per GEMM); energy and edp measure\n"
        "                          each candidate's energy as 'run' does (its energy loop,\n"
        "                          GEMMBENCH_ENERGY_MIN_S seconds) and need an energy counter\n"
        "                          (NVML, RAPL); entries keep their objective, and\n"
        "                          'run -k auto --objective O' uses them\n"
        "      --strategy S        exhaustive, random, anneal, genetic, bayes (default bayes)\n"
        "      --budget N          evaluations per shape (default a tenth of the space, 20..300;\n"
        "                          exhaustive: all of it)\n"
        "      --no-presets        do not measure the family's presets first (by default they\n"
        "                          are, besides the budget: the winner is never worse than them)\n"
        "      --time DURATION     stop proposing after 90s, 15m, 2h (per shape)\n"
        "      --seed S            the strategy's seed (default 1; the data's stays 42)\n"
        "      --param NAME=LIST   tune NAME over LIST only; --fix NAME=V pins it\n"
        "      --builders P        build processes ahead of each kind of device (devices\n"
        "                          of one kind share them; default on a GPU: the cores this\n"
        "                          process may use but one, at most 15 on the host, shared\n"
        "                          by its kinds and MPI ranks, and at most 8 for a strategy\n"
        "                          that learns from the scores; 0 on a CPU device or with\n"
        "                          --threads); with no builder at all, candidates are asked\n"
        "                          one at a time\n"
        "      --threads T         build threads in this process instead (0 with processes or\n"
        "                          on a CPU device, else cores - 1, <= 16)\n"
        "      --candidate-timeout SECONDS  a candidate whose runs take longer is recorded as\n"
        "                          timed out and the tuning goes on in a new process (default\n"
        "                          60); its build, and on a CPU device its first call (where\n"
        "                          the driver compiles), have --compile-timeout SECONDS\n"
        "                          (default ten times as long). A candidate that crashes the\n"
        "                          process is recorded as crashed, and the tuning goes on in\n"
        "                          a new process too\n"
        "      --confirm N --confirm-reps R  re-measure the N best R more times (default 3, 2);\n"
        "                          with 0 the best first measurement wins\n"
        "      --no-siblings       the winner validated at the tuned shape only; by default\n"
        "                          also at a shorter and a longer K of its shape class, which\n"
        "                          its entry serves (a leader not valid there is passed over)\n"
        "      --record FILE       write every evaluation as a recorded space (for --simulate)\n"
        "      --count             print each family's valid space size and the time to count\n"
        "                          (with --refresh: the runs a refresh would make)\n"
        "      --simulate SPACE    run the strategy over a recorded space file, no device,\n"
        "                          asking ahead as a device with builders does (8 for a\n"
        "                          strategy that learns); with --threads 0 one at a time, as\n"
        "                          without builders (a CPU device)\n"
        "      --host-mem H        the operands' host memory (default pinned; pageable or\n"
        "                          mapped, as for 'run'); --cold, --pipeline as for 'run'\n"
        "  -i, --warmup, --max-rel-ci, --min-time, --dist, --timing, --layout, --transA,\n"
        "  --transB, --alpha, --beta,\n"
        "  --lda.. --offc, -p, -t, -d, --kernel-path, --store  as for 'run'\n"
        "  -d all, -d 0,2          tune on each device: devices of one kind share the shapes\n"
        "      --mpi, --device-map under mpirun: rank 0 hands out shapes and stores the results\n"
        "                          (docs/scale-out.md)\n"
        "strategies:\n");
    for (size_t i = 0; i < gb_strategy_count(); i++)
        printf("  %-11s %s\n", gb_strategy_name(i), gb_strategy_description(i));
    printf("exit: 0 done, 2 bad usage, 3 a failure of the device or the store, 128+N stopped by "
           "signal N\n");
}

/* "90", "90s", "15m", "2h" into seconds. */
static int parse_duration(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1
                  : !strcmp(end, "m")                   ? 60
                  : !strcmp(end, "h")                   ? 3600
                                                        : -1;
    if (end == s || unit < 0 || !(v > 0) || v * unit > 30 * 86400.0)
        return cli_error(GB_EBADARG,
                         "--time must be a positive duration like 90s, 15m or 2h (at most 30 "
                         "days), got '%s'",
                         s);
    *out = v * unit;
    return 0;
}

static int parse_count(const char *what, const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > hi)
        return cli_error(GB_EBADARG, "%s must be an integer from %ld to %ld, got '%s'", what, lo,
                         hi, s);
    *out = v;
    return 0;
}

/* One of tune's own options at argv[*i] (with its value), consumed; 0 when argv[*i] is not one,
 * 1 when it was, or the exit code after an error. */
/* A time limit in seconds up to 86400, from 0 (none) where zero_ok, else above 0. 0, or the
 * exit code after an error. */
static int parse_limit(const char *name, const char *v, int zero_ok, double *out)
{
    if (cli_parse_double(name, v, out))
        return EXIT_USAGE;
    if ((zero_ok ? *out < 0 : !(*out > 0)) || *out > 86400)
        return cli_error(GB_EBADARG, "%s must be seconds from %s to 86400, got '%s'", name,
                         zero_ok ? "0 (none)" : "more than 0", v);
    return 0;
}

static int own_option(int argc, char **argv, int *i, tune_opts_t *t)
{
    static const char *const names[] = {
        "--strategy",          "--budget",       "--time",       "--seed",      "--fix",
        "--threads",           "--confirm",      "--record",     "--simulate",  "--count",
        "--candidate-timeout", "--confirm-reps", "--no-presets", "--builders",  "--compile-timeout",
        "--refresh",           "--no-shipped",   "--classes",    "--objective", "--no-siblings"};
    const char *a = argv[*i], *eq = strchr(a, '=');
    const size_t len = eq ? (size_t)(eq - a) : strlen(a);
    size_t k = 0;
    while (k < sizeof names / sizeof names[0] &&
           (strlen(names[k]) != len || strncmp(names[k], a, len)))
        k++;
    if (k == sizeof names / sizeof names[0])
        return 0;
    const char *name = names[k];
    if (!strcmp(name, "--count") || !strcmp(name, "--no-presets") || !strcmp(name, "--refresh") ||
        !strcmp(name, "--no-shipped") || !strcmp(name, "--no-siblings")) {
        *(name[2] == 'c'                   ? &t->count
          : name[2] == 'r'                 ? &t->refresh
          : !strcmp(name, "--no-presets")  ? &t->no_presets
          : !strcmp(name, "--no-siblings") ? &t->no_siblings
                                           : &t->no_shipped) = 1;
        return 1;
    }
    const char *v = eq ? eq + 1 : *i + 1 < argc ? argv[++*i] : NULL;
    if (!v)
        return cli_error(GB_EBADARG, "option '%s' needs a value", name);
    long n = 0;
    int rc = 0;
    if (!strcmp(name, "--strategy")) {
        t->strategy = v;
    } else if (!strcmp(name, "--budget")) {
        if (!(rc = parse_count("--budget", v, 1, 100000000L, &n)))
            t->budget = (size_t)n;
    } else if (!strcmp(name, "--time")) {
        rc = parse_duration(v, &t->time_s);
    } else if (!strcmp(name, "--seed")) {
        char *end;
        unsigned long long s = strtoull(v, &end, 10);
        if (end == v || *end || v[0] == '-')
            return cli_error(GB_EBADARG, "--seed must be a non-negative integer, got '%s'", v);
        t->seed = s;
    } else if (!strcmp(name, "--fix")) {
        char msg[256];
        if (gb_params_parse(&t->fix, v, msg, sizeof msg) != GB_OK)
            return cli_error(GB_EBADARG, "--fix: %s; give NAME=VALUE", msg);
    } else if (!strcmp(name, "--threads")) {
        rc = parse_count("--threads", v, 0, 64, &t->threads);
    } else if (!strcmp(name, "--builders")) {
        rc = parse_count("--builders", v, 0, 64, &t->builders);
    } else if (!strcmp(name, "--confirm")) {
        if (!(rc = parse_count("--confirm", v, 0, 20, &n)))
            t->confirm = (size_t)n;
    } else if (!strcmp(name, "--confirm-reps")) {
        if (!(rc = parse_count("--confirm-reps", v, 0, 20, &n)))
            t->reps = (unsigned)n;
    } else if (!strcmp(name, "--candidate-timeout")) {
        rc = parse_limit(name, v, 1, &t->timeout_s);
    } else if (!strcmp(name, "--compile-timeout")) {
        rc = parse_limit(name, v, 0, &t->compile_timeout_s);
    } else if (!strcmp(name, "--record")) {
        t->record = v;
    } else if (!strcmp(name, "--classes")) {
        t->classes = v;
    } else if (!strcmp(name, "--objective")) {
        if (gb_objective_parse(v, &t->objective) != GB_OK)
            return cli_error(GB_EBADARG, "--objective must be time, energy or edp, got '%s'", v);
    } else {
        t->simulate = v;
    }
    return rc ? rc : 1;
}

/* tune's own options out first; the rest are the measuring commands' (options.c), into o and
 * pl. 0, -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, tune_opts_t *t, cli_measure_t *o, gb_explore_plan_t *pl)
{
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    if (!rest)
        return cli_error(GB_ENOMEM, "out of memory");
    int nrest = 0, rc = 0;
    for (int i = 0; i < argc && rc >= 0; i++) {
        if (i == 0 || !strcmp(argv[i], "--"))
            rest[nrest++] = argv[i];
        else if ((rc = own_option(argc, argv, &i, t)) == 0)
            rest[nrest++] = argv[i];
        else if (rc > 1) {
            free(rest);
            return rc;
        }
        rc = 0;
    }
    rest[nrest] = NULL;
    /* Pinned unless asked otherwise: each timed call copies the operands, and from pageable
     * memory those copies cost a GPU tuner more than the kernel (docs/tuning.md). */
    pl->bench.host_mem = GB_HOST_PINNED;
    rc = cli_measure_parse(nrest, rest, "tune", CLI_OPT_PLAN | CLI_OPT_MPI, usage, o, pl);
    free(rest);
    return rc;
}

/* --simulate: no device. */
static int simulate(const tune_opts_t *t, const cli_measure_t *o)
{
    /* Asked ahead as on a device that builds ahead, unless these options leave no builder (as
     * a CPU device's defaults do): then one at a time, as gb_tune_run asks. */
    const size_t ahead = t->threads == 0 && t->builders <= 0 ? 1 : gb_tune_lookahead(t->strategy);
    return cli_tune_known_strategy(t->strategy)
               ? cli_tune_simulate(t->simulate, t->strategy, t->seed, t->budget, ahead, o->kpath)
               : EXIT_USAGE;
}

/* What a tuning works with, opened by open_runs and closed by close_runs. */
typedef struct tuning {
    gb_registry_t *reg;
    cli_device_t dev;
    gb_store_t *st;
    gb_tune_runs_t runs;
    narrowing_t nw;
} tuning_t;

static void close_runs(tuning_t *g)
{
    gb_store_close(g->st);
    cli_device_close(&g->dev);
    gb_registry_close(g->reg);
    gb_tune_runs_free(&g->runs);
}

/* The kernels to tune (-k all: every family), the narrowing, the registry and the devices; with
 * --refresh the devices first, then the runs planned. 0 or the exit code. */
static int open_runs(tuning_t *g, const tune_opts_t *t, const cli_measure_t *o,
                     const gb_explore_plan_t *pl, const gb_fleet_mpi_t *mpi)
{
    int rc;
    if (t->refresh) {
        if ((rc = cli_tune_narrowing(pl, t, &g->nw)) ||
            (rc = cli_registry_open(&g->reg, o->kpath)) ||
            (rc = cli_measure_devices_open(&g->dev, o, mpi)))
            return rc;
        return cli_tune_refresh_plan(&g->runs, t, o, pl, &g->nw, g->reg, &g->dev, mpi);
    }
    if (!pl->kernels || !pl->kernels[0])
        return cli_error(GB_EBADARG, "no kernel to tune: give -k FAMILY ('gemmbench kernels' "
                                     "lists them)");
    if ((rc = cli_tune_split_kernels(pl->kernels, &g->runs)) ||
        (rc = cli_tune_narrowing(pl, t, &g->nw)) || (rc = cli_registry_open(&g->reg, o->kpath)))
        return rc;
    if (g->runs.nkernels == 1 && !strcmp(g->runs.kernels[0], "all")) {
        gb_tune_runs_free(&g->runs);
        for (size_t i = 0; i < gb_registry_count(g->reg) && !rc; i++)
            rc = cli_tune_split_kernels(gb_family_name(gb_registry_family(g->reg, i)), &g->runs);
        if (rc)
            return rc;
        g->runs.all = 1;
    }
    return cli_measure_devices_open(&g->dev, o, mpi);
}

/* An objective that needs energy, on devices that can measure it: every device picked has an
 * energy counter, and the energy loop is on. 0, or the exit code after one line naming the
 * problem and the fix (before the store is opened: nothing is written). */
static int check_energy(const tuning_t *g, const tune_opts_t *t)
{
    if (!gb_objective_needs_energy(t->objective))
        return 0;
    const char *name = gb_objective_name(t->objective);
    const char *env = getenv("GEMMBENCH_ENERGY_MIN_S");
    const double min_s = gb_energy_min_s();
    if (!(min_s > 0))
        return cli_error(GB_EBADARG,
                         "--objective %s measures energy, and GEMMBENCH_ENERGY_MIN_S='%s' turns "
                         "the energy loop off; unset it or give it seconds above 0",
                         name, env ? env : "");
    for (size_t i = 0; i < g->dev.npicks; i++) {
        const gb_device_info_t *d = &g->dev.list[g->dev.picks[i]];
        char source[64], why[160];
        if (!gb_energy_counter(d, source, sizeof source, why, sizeof why))
            return cli_error(GB_EBADARG,
                             "--objective %s needs an energy counter, and %s has none readable "
                             "(%s); tune with --objective time, or on a device with one (NVML "
                             "on an NVIDIA GPU, RAPL on a CPU)",
                             name, d->name, why);
    }
    return 0;
}

/* The shapes, and every run checked; then (rank 0) the store. 0 or the exit code. */
static int check_runs(tuning_t *g, const tune_opts_t *t, const cli_measure_t *o,
                      const gb_explore_plan_t *pl, const gb_fleet_mpi_t *mpi)
{
    char msg[1024];
    const gb_device_info_t *di = &g->dev.list[g->dev.index];
    int rc;
    if (g->dev.npicks > 1 && t->record)
        return cli_error(GB_EBADARG, "--record writes one device's evaluations: give one -d");
    if ((rc = check_energy(g, t)))
        return rc;
    if (t->refresh) /* its runs are planned and checked */
        return mpi->rank == 0 ? cli_store_open(&g->st, o->store, 1) : 0;
    if ((rc = gb_plan_shapes(pl, &g->runs.shapes, &g->runs.nshapes, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    if ((rc = cli_tune_check_runs(&g->runs, pl, &g->nw, t, g->reg, di)))
        return rc;
    /* Under MPI only rank 0 writes the store. */
    return mpi->rank == 0 ? cli_store_open(&g->st, o->store, 1) : 0;
}

/* The build threads and processes (tuners.h's defaults where left to us): without a program
 * cache, through which build processes hand over their programs, threads instead. */
static void helpers(tune_opts_t *t, const gb_device_info_t *const *devs, size_t n,
                    const gb_fleet_mpi_t *mpi)
{
    gb_tune_helpers_default(&t->threads, &t->builders, devs, n, mpi, t->strategy);
    char cdir[1024];
    if (t->builders && !gb_cache_dir(cdir, sizeof cdir)) {
        printf("tune: the program cache is off (GEMMBENCH_NO_CACHE), and build processes hand "
               "their programs over through it: %ld build thread(s) instead\n",
               t->threads + t->builders);
        t->threads += t->builders;
        t->builders = 0;
    }
}

/* Every run's spec but its kernel, shape and builders (tuners.h). */
static gb_tune_spec_t base_spec(const tune_opts_t *t, const gb_explore_plan_t *pl,
                                const narrowing_t *nw, const char *cmdline)
{
    return (gb_tune_spec_t){.base = &pl->base,
                            .has_layout = pl->has_layout,
                            .bench = pl->bench,
                            .narrow = nw->v,
                            .nnarrow = nw->n,
                            .strategy = t->strategy,
                            .seed = t->seed,
                            .presets = !t->no_presets,
                            /* A refresh's runs are many: a small budget each, and --time
                             * bounds them all (tuners.h). */
                            .budget = t->budget || !t->refresh ? t->budget : GB_REFRESH_BUDGET,
                            .time_s = t->refresh ? 0 : t->time_s,
                            .threads = (unsigned)t->threads,
                            .builders = (unsigned)t->builders,
                            .candidate_timeout_s = t->timeout_s,
                            .compile_timeout_s = t->compile_timeout_s,
                            .confirm = t->confirm,
                            .confirm_reps = t->reps,
                            .no_siblings = t->no_siblings,
                            .command = cmdline,
                            .objective = t->objective};
}

/* A device's build processes' command line: this device, these kernels. */
typedef struct builder_cmd {
    char index[32];
    char *argv[10];
} builder_cmd_t;

static void builder_cmd(builder_cmd_t *b, size_t index, const gb_device_info_t *d,
                        const char *kpath)
{
    snprintf(b->index, sizeof b->index, "%zu", index);
    char **a = b->argv;
    int k = 0;
    a[k++] = (char *)"gemmbench";
    a[k++] = (char *)"__build-worker";
    a[k++] = (char *)"--device";
    a[k++] = b->index;
    a[k++] = (char *)"--device-name";
    a[k++] = (char *)d->name;
    if (cli_verbose)
        a[k++] = (char *)"--verbose";
    if (kpath) {
        a[k++] = (char *)"--kernel-path";
        a[k++] = (char *)kpath;
    }
    a[k] = NULL;
}

/* The line that opens a tuning: what, on which devices or ranks, how built, into which store. */
static void say_tuning(const gb_tuners_t *tu, const tuning_t *g, const tune_opts_t *t,
                       const gb_fleet_mpi_t *mpi)
{
    const gb_device_info_t *di = &g->dev.list[g->dev.index];
    const size_t n = gb_tuners_count(tu);
    char on[1024];
    size_t used = 0;
    gb__appendf(on, sizeof on, &used, "%s (%s)", di->name, di->platform_name);
    if (n > 1) {
        used = 0;
        gb__appendf(on, sizeof on, &used, "%zu devices in %zu kind(s):", n, gb_tuners_kinds(tu));
        for (size_t k = 0; k < n; k++)
            gb__appendf(on, sizeof on, &used, "%s [%s]", k ? "," : "", gb_tuners_label(tu, k));
    }
    if (mpi->size > 1) {
        used = 0;
        gb__appendf(on, sizeof on, &used, "%d MPI ranks (rank 0: %s, %s)", mpi->size, di->name,
                    di->platform_name);
    }
    /* A process started again after a candidate past its limit or a crash goes on with the
     * log where its predecessor left it. */
    const int restarted = getenv("GEMMBENCH_TUNE_RESTARTS") != NULL;
    if (mpi->rank == 0 && !restarted && t->refresh) {
        char limit[64] = "";
        if (t->time_s > 0)
            snprintf(limit, sizeof limit, ", %g s in all", t->time_s);
        printf("tune --refresh: %zu run(s) on %s, strategy %s, seed %llu, budget %zu per run "
               "besides the seeds%s%s, %ld build process(es), %ld build thread(s); store %s\n",
               g->runs.nitems, on, t->strategy, (unsigned long long)t->seed,
               t->budget ? t->budget : (size_t)GB_REFRESH_BUDGET,
               t->no_presets ? "" : " and presets", limit, t->builders, t->threads,
               gb_store_path(g->st));
    } else if (mpi->rank == 0 && !restarted)
        printf("tune: %zu kernel(s) x %zu shape(s) on %s, strategy %s, seed %llu, %ld build "
               "process(es), %ld build thread(s)%s; store %s\n",
               g->runs.nkernels, g->runs.nshapes, on, t->strategy, (unsigned long long)t->seed,
               t->builders, t->threads,
               mpi->size > 1 ? " per rank"
               : n > 1       ? (t->builders ? " per kind of device" : " per device")
                             : "",
               gb_store_path(g->st));
    fflush(stdout);
}

/* The runs on the devices (and ranks): the tuners opened, the tuning said, run and shown. 0 or
 * the exit code; *served once this rank took part in the exchange. */
static int tune_runs(tuning_t *g, tune_opts_t *t, const cli_measure_t *o,
                     const gb_explore_plan_t *pl, const gb_fleet_mpi_t *mpi, int argc, char **argv,
                     int *served)
{
    const cli_device_t *dev = &g->dev;
    const gb_device_info_t *devs[CLI_MAX_DEVICES];
    for (size_t i = 0; i < dev->npicks; i++)
        devs[i] = &dev->list[dev->picks[i]];
    /* Energy is measured only for an objective that needs it: its loop costs seconds per
     * candidate. */
    if (!gb_objective_needs_energy(t->objective))
        setenv("GEMMBENCH_ENERGY_MIN_S", "0", 1);
    helpers(t, devs, dev->npicks, mpi);
    char cmdline[1024], msg[1024];
    size_t used = 0;
    cmdline[0] = '\0';
    for (int i = 0; i < argc; i++)
        gb__appendf(cmdline, sizeof cmdline, &used, "%s%s", i ? " " : "gemmbench ", argv[i]);
    const gb_tune_spec_t base = base_spec(t, pl, &g->nw, cmdline);
    builder_cmd_t cmds[CLI_MAX_DEVICES];
    gb_tuner_dev_t tdevs[CLI_MAX_DEVICES];
    for (size_t i = 0; i < dev->npicks; i++) {
        builder_cmd(&cmds[i], dev->picks[i], devs[i], o->kpath);
        tdevs[i] = (gb_tuner_dev_t){devs[i], cmds[i].argv};
    }
    const gb_tuners_spec_t spec = {&g->runs, &base, g->reg, tdevs, dev->npicks, mpi};
    gb_tuners_t *tu = NULL;
    int rc = gb_tuners_open(&tu, &spec, g->st, msg, sizeof msg);
    if (rc != GB_OK) {
        rc = cli_error(rc, "%s", msg);
    } else {
        tune_show_t show;
        gb_tuners_hooks_t hooks;
        cli_tune_show(&show, tu, mpi, argv - 1, t->record, g->reg, &hooks);
        for (size_t i = 0; i < gb_tuners_count(tu) && i < CLI_MAX_DEVICES; i++)
            show.v[i].refresh = t->refresh;
        say_tuning(tu, g, t, mpi);
        rc = gb_tuners_run(tu, &hooks);
        *served = 1;
        const size_t left =
            t->refresh && t->time_s > 0 && mpi->rank == 0 ? gb_tuners_unstarted(tu) : 0;
        if (!rc && left && !cli_stop_signal)
            printf("tune --refresh: the %g s of --time are spent: %zu of %zu run(s) not started; "
                   "run the same command again to go on (what was measured is stored)\n",
                   t->time_s, left, g->runs.nitems);
        cli_tune_show_done(&show);
    }
    gb_tuners_close(tu);
    return rc;
}

/* The tuning: the runs checked, then tuned on the devices (and ranks). */
static int tune(tune_opts_t *t, const cli_measure_t *o, const gb_explore_plan_t *pl,
                gb_fleet_mpi_t *mpi, int argc, char **argv)
{
    tuning_t g;
    memset(&g, 0, sizeof g);
    int catching = 0, served = 0;
    int rc = open_runs(&g, t, o, pl, mpi);
    if (!rc && t->count && t->refresh)
        rc = cli_tune_refresh_print(&g.runs);
    else if (!rc && t->count)
        rc = cli_tune_count(&g.runs, pl, &g.nw, g.reg, &g.dev.list[g.dev.index]);
    else if (!rc && !(rc = check_runs(&g, t, o, pl, mpi)) &&
             !(rc = g.st ? cli_crash_reap(g.st, "tune") : 0)) {
        cli_stop_catch();
        /* A crash starts the tuning again, which records the candidate as crashed (not under
         * MPI: a new process would not be one of the job's ranks). */
        if (!mpi->started)
            cli_crash_catch(argv - 1, "GEMMBENCH_TUNE_RESTARTS", "tune");
        catching = 1;
        rc = tune_runs(&g, t, o, pl, mpi, argc, argv, &served);
        if (cli_stop_signal && mpi->rank == 0)
            fprintf(stderr,
                    "gemmbench: tune interrupted by %s; what was measured is stored: run the "
                    "same command again to go on\n",
                    cli_stop_name());
    }
    if (catching) {
        cli_crash_release();
        cli_stop_release();
    }
    close_runs(&g);
    /* A rank that failed before its part of the exchange would leave the others waiting. */
    if (mpi->started && rc && !served)
        return gb_fleet_mpi_abort(mpi, rc);
    gb_fleet_mpi_finalize(mpi);
    return rc;
}

int cmd_tune(int argc, char **argv)
{
    tune_opts_t t = {.strategy = "bayes",
                     .seed = 1,
                     .threads = -1,
                     .builders = -1,
                     .timeout_s = 60,
                     .confirm = 3,
                     .reps = 2};
    cli_measure_t o;
    gb_explore_plan_t pl;
    gb_plan_init(&pl);
    int rc = parse(argc, argv, &t, &o, &pl);
    gb_fleet_mpi_t mpi = {0};
    if (rc)
        rc = rc < 0 ? EXIT_OK : rc;
    else if (!t.refresh && (t.classes || t.no_shipped))
        rc = cli_error(GB_EBADARG, "%s is for tune --refresh",
                       t.classes ? "--classes" : "--no-shipped");
    else if (t.refresh && t.simulate)
        rc = cli_error(GB_EBADARG, "--simulate runs one recorded space: not with --refresh");
    else if (o.mpi && (t.simulate || t.count || t.record))
        rc = cli_error(GB_EBADARG, "--mpi tunes on devices: not with --simulate, --count or "
                                   "--record");
    else if (!(rc = cli_mpi_start(&o, &pl, "tune", &argc, &argv, &mpi)))
        rc = t.simulate ? simulate(&t, &o) : tune(&t, &o, &pl, &mpi, argc, argv);
    gb_plan_free(&pl);
    return rc;
}
