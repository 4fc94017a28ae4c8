/* cmd_tune.c: `gemmbench tune`: tunes a kernel family's parameters on the device for each shape
 * (and precision) asked for, one tuning run each (src/tool/tune/tune.c), and keeps each winner in the
 * tuning database; `--count` sizes the spaces. A run's display is in tune_run.c, the runs over
 * several devices and MPI ranks in tune_devices.c, `--record` and `--simulate` (recorded spaces)
 * in tune_spaces.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
        "      --precision s|d     (default: single where the family has it)\n"
        "      --strategy S        exhaustive, random, anneal, genetic, bayes (default bayes)\n"
        "      --budget N          evaluations per shape (default a tenth of the space, 20..300)\n"
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
        "      --candidate-timeout SECONDS  a candidate still running after it is recorded as\n"
        "                          timed out and the tuning goes on in a new process (default 60)\n"
        "      --confirm N --confirm-reps R  re-measure the N best R more times (default 3, 2)\n"
        "      --record FILE       write every evaluation as a recorded space (for --simulate)\n"
        "      --count             print each family's valid space size and the time to count\n"
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
static int own_option(int argc, char **argv, int *i, tune_opts_t *t)
{
    static const char *const names[] = {
        "--strategy",          "--budget",       "--time",       "--seed",     "--fix",
        "--threads",           "--confirm",      "--record",     "--simulate", "--count",
        "--candidate-timeout", "--confirm-reps", "--no-presets", "--builders"};
    const char *a = argv[*i], *eq = strchr(a, '=');
    const size_t len = eq ? (size_t)(eq - a) : strlen(a);
    size_t k = 0;
    while (k < sizeof names / sizeof names[0] &&
           (strlen(names[k]) != len || strncmp(names[k], a, len)))
        k++;
    if (k == sizeof names / sizeof names[0])
        return 0;
    const char *name = names[k];
    if (!strcmp(name, "--count") || !strcmp(name, "--no-presets")) {
        *(name[2] == 'c' ? &t->count : &t->no_presets) = 1;
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
        if (cli_parse_double("--candidate-timeout", v, &t->timeout_s))
            return EXIT_USAGE;
        if (t->timeout_s < 0 || t->timeout_s > 86400)
            return cli_error(GB_EBADARG,
                             "--candidate-timeout must be seconds from 0 (none) to 86400, got "
                             "'%s'",
                             v);
    } else if (!strcmp(name, "--record")) {
        t->record = v;
    } else {
        t->simulate = v;
    }
    return rc ? rc : 1;
}

static int known_strategy(const char *name)
{
    for (size_t i = 0; i < gb_strategy_count(); i++)
        if (!strcmp(gb_strategy_name(i), name))
            return 1;
    size_t used = 0;
    char list[256];
    for (size_t i = 0; i < gb_strategy_count(); i++)
        gb__appendf(list, sizeof list, &used, "%s%s", i ? ", " : "", gb_strategy_name(i));
    cli_error(GB_EBADARG, "unknown strategy '%s'; use one of %s", name, list);
    return 0;
}

static int narrowing(const gb_explore_plan_t *pl, const tune_opts_t *t, narrowing_t *nw)
{
    nw->n = 0;
    for (size_t i = 0; i < pl->nparams; i++)
        nw->v[nw->n++] =
            (gb_space_values_t){pl->params[i].name, pl->params[i].values, pl->params[i].n};
    for (size_t i = 0; i < t->fix.count; i++) {
        for (size_t j = 0; j < pl->nparams; j++)
            if (!strcmp(pl->params[j].name, t->fix.name[i]))
                return cli_error(GB_EBADARG,
                                 "%s is given both by --param and by --fix; give one of them",
                                 t->fix.name[i]);
        nw->v[nw->n++] = (gb_space_values_t){t->fix.name[i], &t->fix.value[i], 1};
    }
    return 0;
}

/* The precision to tune kernel in: the plan's (one), else single where the family has it. */
static int precision_of(const gb_explore_plan_t *pl, const gb_registry_t *reg, const char *kernel,
                        gb_precision_t *out)
{
    const gb_family_t *f;
    const gb_preset_t *ps;
    if (gb_registry_find(reg, kernel, &f, &ps) != GB_OK)
        return cli_error(GB_ENOKERNEL,
                         "unknown kernel '%s'; 'gemmbench kernels' lists the families to tune",
                         kernel);
    const unsigned own = gb_family_precisions(f);
    if (pl->precisions && (pl->precisions & (pl->precisions - 1)))
        return cli_error(GB_EBADARG, "tune one precision at a time: give --precision s or d");
    const unsigned want = pl->precisions            ? pl->precisions
                          : own & (1u << GB_PREC_S) ? 1u << GB_PREC_S
                                                    : own;
    if (!(own & want))
        return cli_error(GB_EBADPRECISION, "kernel '%s' has no %s precision", kernel,
                         want & (1u << GB_PREC_S) ? "single" : "double");
    *out = want & (1u << GB_PREC_S) ? GB_PREC_S : GB_PREC_D;
    return 0;
}

/* kernel's precision (precision_of) and its space on the device into *sp: 0, the exit code of
 * a refused precision (said), or gb_tune_space's code with msg. */
static int kernel_space(const char *kernel, const gb_explore_plan_t *pl, const narrowing_t *nw,
                        const gb_registry_t *reg, const gb_device_info_t *di, gb_precision_t *prec,
                        gb_space_t **sp, char *msg, size_t msglen)
{
    *sp = NULL;
    int rc = precision_of(pl, reg, kernel, prec);
    if (rc)
        return rc;
    gb_tune_spec_t spec = {.kernel = kernel, .precision = *prec, .narrow = nw->v, .nnarrow = nw->n};
    return gb_tune_space(&spec, reg, di, sp, msg, msglen);
}

/* A family this device cannot run at all (an extension, double precision or images missing). */
static int device_lacks(int rc)
{
    return rc == GB_ENOEXT || rc == GB_ENOFP64 || rc == GB_ENOIMAGES;
}

static void runs_free(plan_runs_t *r)
{
    for (size_t i = 0; i < r->nkernels; i++)
        free(r->kernels[i]);
    free(r->kernels);
    free(r->shapes);
    free(r->prec);
    free(r->space);
}

static int split_kernels(const char *list, plan_runs_t *r)
{
    char *copy = gb__strdup(list ? list : "");
    size_t cap = 0;
    if (!copy)
        return cli_error(GB_ENOMEM, "out of memory");
    for (char *save = NULL, *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        if (gb__grow(&r->kernels, &cap, r->nkernels + 1, sizeof *r->kernels) != GB_OK ||
            !(r->kernels[r->nkernels] = gb__strdup(k))) {
            free(copy);
            return cli_error(GB_ENOMEM, "out of memory");
        }
        r->nkernels++;
    }
    free(copy);
    return 0;
}

/* --count: each family's space size and the time to count it. */
static int count_spaces(const plan_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                        const gb_registry_t *reg, const gb_device_info_t *di)
{
    printf("%-22s %4s %20s %10s  %s\n", "family", "prec", "valid configurations", "ms",
           "parameters");
    int bad = 0;
    for (size_t i = 0; i < r->nkernels; i++) {
        gb_precision_t prec = GB_PREC_S;
        gb_space_t *sp;
        char msg[1024];
        const double t0 = cli_now_s();
        int rc = kernel_space(r->kernels[i], pl, nw, reg, di, &prec, &sp, msg, sizeof msg);
        const double ms = 1e3 * (cli_now_s() - t0);
        if (rc > 0)
            return rc;
        if (rc != GB_OK) {
            if (r->nkernels == 1)
                return cli_error(rc, "%s", msg);
            printf("%-22s %4s %20s %10.1f  %s\n", r->kernels[i], gb_precision_name(prec), "-", ms,
                   msg);
            bad |= rc != GB_EBADPARAM && !device_lacks(rc);
            continue;
        }
        char params[512];
        size_t used = 0;
        params[0] = '\0';
        for (size_t p = 0; p < gb_space_nparams(sp); p++)
            gb__appendf(params, sizeof params, &used, "%s%s(%zu)", p ? " " : "",
                        gb_space_param(sp, p), gb_space_nvalues(sp, p));
        printf("%-22s %4s %20llu %10.1f  %s\n", r->kernels[i], gb_precision_name(prec),
               (unsigned long long)gb_space_count(sp), ms, params);
        gb_space_close(sp);
    }
    return bad ? EXIT_USAGE : EXIT_OK;
}

/* Checks every run can be made (kernel, precision, space, strategy) before anything is written. */
static int check_runs(plan_runs_t *r, const gb_explore_plan_t *pl, const narrowing_t *nw,
                      const tune_opts_t *t, const gb_registry_t *reg, const gb_device_info_t *di)
{
    if (!known_strategy(t->strategy))
        return EXIT_USAGE;
    if (pl->nlws || pl->lws_x.n || pl->lws_y.n || pl->lws_items.n)
        return cli_error(GB_EBADARG, "tune takes work-group sizes as parameters: give "
                                     "--param LX=LIST --param LY=LIST instead of --lws");
    if (pl->repeat > 1)
        return cli_error(GB_EBADARG, "tune takes no --repeat: the leaders are repeated "
                                     "(--confirm-reps)");
    if (!(r->prec = calloc(r->nkernels, sizeof *r->prec)) ||
        !(r->space = calloc(r->nkernels, sizeof *r->space)))
        return cli_error(GB_ENOMEM, "out of memory");
    for (size_t i = 0; i < r->nkernels; i++) {
        if (!strcmp(r->kernels[i], "auto"))
            return cli_error(GB_EBADARG, "-k auto picks a tuned kernel; tune a family instead");
        gb_space_t *sp;
        char msg[1024];
        int rc = kernel_space(r->kernels[i], pl, nw, reg, di, &r->prec[i], &sp, msg, sizeof msg);
        if (rc > 0)
            return rc;
        if (rc != GB_OK) {
            if (!r->all || !(device_lacks(rc) || rc == GB_EBADPARAM))
                return cli_error(rc == GB_EOVERFLOW ? GB_EBADARG : rc, "%s", msg);
            printf("tune: skipping %s: %s\n", r->kernels[i], msg);
            free(r->kernels[i]);
            memmove(r->kernels + i, r->kernels + i + 1, (r->nkernels - i - 1) * sizeof *r->kernels);
            r->nkernels--;
            i--;
            continue;
        }
        r->space[i] = gb_space_count(sp);
        gb_space_close(sp);
    }
    if (!r->nkernels)
        return cli_error(GB_EBADARG, "no family here has parameters to tune on this device");
    return 0;
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
    /* tune's own options out first; the rest are the measuring commands' (options.c). */
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    if (!rest)
        return cli_error(GB_ENOMEM, "out of memory");
    int nrest = 0, rc = 0;
    for (int i = 0; i < argc && rc >= 0; i++) {
        if (i == 0 || !strcmp(argv[i], "--"))
            rest[nrest++] = argv[i];
        else if ((rc = own_option(argc, argv, &i, &t)) == 0)
            rest[nrest++] = argv[i];
        else if (rc > 1) {
            free(rest);
            return rc;
        }
        rc = 0;
    }
    rest[nrest] = NULL;
    cli_measure_t o;
    gb_explore_plan_t pl;
    gb_plan_init(&pl);
    /* Pinned unless asked otherwise: each timed call copies the operands, and from pageable
     * memory those copies cost a GPU tuner more than the kernel (docs/tuning.md). */
    pl.bench.host_mem = GB_HOST_PINNED;
    rc = cli_measure_parse(nrest, rest, "tune", CLI_OPT_PLAN | CLI_OPT_MPI, usage, &o, &pl);
    free(rest);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    gb_xp_mpi_t mpi = {0};
    if (o.mpi && (t.simulate || t.count || t.record)) {
        gb_plan_free(&pl);
        return cli_error(GB_EBADARG, "--mpi tunes on devices: not with --simulate, --count or "
                                     "--record");
    }
    if ((rc = cli_mpi_start(&o, &pl, "tune", &argc, &argv, &mpi))) {
        gb_plan_free(&pl);
        return rc;
    }
    if (t.simulate) {
        /* Asked ahead as on a device that builds ahead, unless these options leave no builder
         * (as a CPU device's defaults do): then one at a time, as gb_tune_run asks. */
        const size_t ahead = t.threads == 0 && t.builders <= 0 ? 1 : gb_tune_lookahead(t.strategy);
        rc = known_strategy(t.strategy)
                 ? cli_tune_simulate(t.simulate, t.strategy, t.seed, t.budget, ahead, o.kpath)
                 : EXIT_USAGE;
        gb_plan_free(&pl);
        return rc;
    }
    char msg[1024];
    gb_registry_t *reg = NULL;
    cli_device_t dev = {0};
    gb_store_t *st = NULL;
    plan_runs_t runs = {0};
    narrowing_t nw;
    int catching = 0, served = 0;
    if (!pl.kernels || !pl.kernels[0]) {
        rc = cli_error(GB_EBADARG, "no kernel to tune: give -k FAMILY ('gemmbench kernels' "
                                   "lists them)");
        goto done;
    }
    if ((rc = split_kernels(pl.kernels, &runs)) || (rc = narrowing(&pl, &t, &nw)))
        goto done;
    if ((rc = cli_registry_open(&reg, o.kpath)))
        goto done;
    if (runs.nkernels == 1 && !strcmp(runs.kernels[0], "all")) {
        runs_free(&runs);
        memset(&runs, 0, sizeof runs);
        for (size_t i = 0; i < gb_registry_count(reg) && !rc; i++)
            rc = split_kernels(gb_family_name(gb_registry_family(reg, i)), &runs);
        if (rc)
            goto done;
        runs.all = 1;
    }
    if ((rc = cli_measure_devices_open(&dev, &o, &mpi)))
        goto done;
    const gb_device_info_t *di = &dev.list[dev.index];
    if (t.count) {
        rc = count_spaces(&runs, &pl, &nw, reg, di);
        goto done;
    }
    if (dev.npicks > 1 && t.record) {
        rc = cli_error(GB_EBADARG, "--record writes one device's evaluations: give one -d");
        goto done;
    }
    if ((rc = gb_plan_shapes(&pl, &runs.shapes, &runs.nshapes, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    if ((rc = check_runs(&runs, &pl, &nw, &t, reg, di)))
        goto done;
    /* Under MPI only rank 0 writes the store. */
    if (mpi.rank == 0 && (rc = cli_store_open(&st, o.store, 1)))
        goto done;
    /* Energy is not measured while tuning: its loop costs seconds per candidate. */
    setenv("GEMMBENCH_ENERGY_MIN_S", "0", 1);
    /* A CPU device compiles on the cores that would build ahead, and PoCL compiles one program
     * at a time and most of it at the first launch: builders would only make a candidate wait
     * for another's build (bench/notes.md). Elsewhere processes: NVIDIA's OpenCL builds one
     * program at a time per process, so threads queue where processes build side by side; more
     * than the lookahead would have nothing to build. Build processes share the host's cores,
     * and its driver, which opens one context at a time: one pool for each kind of device
     * listed (devices of one kind build the same programs), and under MPI one for each rank of
     * the host (each tunes on one device). The cores are those this process may run on:
     * mpirun binds each rank to one core unless told otherwise, and 15 build processes on one
     * core took minutes to build what 15 cores built in seconds (bench/notes.md). */
    const long cores = cli_usable_cores(NULL);
    const long pools =
        mpi.size > 1 && mpi.local_size > 1 ? mpi.local_size : (long)cli_kinds_among(&dev);
    const long spare = cli_spare_cores(cores, pools);
    const int cpu = !strcmp(di->type_name, "cpu");
    if (t.builders < 0)
        t.builders = cpu || t.threads >= 0
                         ? 0
                         : cli_builders_default(cores, pools, (long)gb_tune_lookahead(t.strategy));
    if (t.threads < 0)
        t.threads = cpu || t.builders ? 0 : spare < 16 ? spare : 16;
    char cdir[1024];
    if (t.builders && !gb_cache_dir(cdir, sizeof cdir)) {
        printf("tune: the program cache is off (GEMMBENCH_NO_CACHE), and build processes hand "
               "their programs over through it: %ld build thread(s) instead\n",
               t.threads + t.builders);
        t.threads += t.builders;
        t.builders = 0;
    }
    char cmdline[1024];
    size_t used = 0;
    cmdline[0] = '\0';
    for (int i = 0; i < argc; i++)
        gb__appendf(cmdline, sizeof cmdline, &used, "%s%s", i ? " " : "gemmbench ", argv[i]);
    tuners_t tu = {.runs = &runs,
                   .pl = &pl,
                   .nw = &nw,
                   .t = &t,
                   .reg = reg,
                   .o = &o,
                   .mpi = &mpi,
                   .cmdline = cmdline,
                   .argv = argv - 1};
    pthread_mutex_init(&tu.lock, NULL);
    cli_stop_catch();
    catching = 1;
    if ((rc = cli_tuners_open(&tu, &dev, st)) == 0) {
        char on[1024];
        used = 0;
        gb__appendf(on, sizeof on, &used, "%s (%s)", di->name, di->platform_name);
        if (tu.n > 1) {
            used = 0;
            gb__appendf(on, sizeof on, &used, "%zu devices in %zu kind(s):", tu.n, tu.kinds.n);
            for (size_t k = 0; k < tu.n; k++)
                gb__appendf(on, sizeof on, &used, "%s [%s]", k ? "," : "", tu.w[k].label);
        }
        if (mpi.size > 1) {
            used = 0;
            gb__appendf(on, sizeof on, &used, "%d MPI ranks (rank 0: %s, %s)", mpi.size, di->name,
                        di->platform_name);
        }
        if (mpi.rank == 0)
            printf("tune: %zu kernel(s) x %zu shape(s) on %s, strategy %s, seed %llu, %ld build "
                   "process(es), %ld build thread(s)%s; store %s\n",
                   runs.nkernels, runs.nshapes, on, t.strategy, (unsigned long long)t.seed,
                   t.builders, t.threads,
                   mpi.size > 1 ? " per rank"
                   : tu.n > 1   ? (t.builders ? " per kind of device" : " per device")
                                : "",
                   gb_store_path(st));
        fflush(stdout);
        rc = cli_tuners_run(&tu);
        served = 1;
    }
    cli_tuners_close(&tu);
    pthread_mutex_destroy(&tu.lock);
    if (cli_stop_signal && mpi.rank == 0)
        fprintf(stderr,
                "gemmbench: tune interrupted by %s; what was measured is stored: run the "
                "same command again to go on\n",
                cli_stop_name());
done:
    if (catching)
        cli_stop_release();
    gb_store_close(st);
    cli_device_close(&dev);
    gb_registry_close(reg);
    runs_free(&runs);
    gb_plan_free(&pl);
    /* A rank that failed before its part of the exchange would leave the others waiting. */
    if (mpi.started && rc && !served)
        return gb_xp_mpi_abort(&mpi, rc);
    gb_xp_mpi_finalize(&mpi);
    return rc;
}
