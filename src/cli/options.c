/* options.c: the options of the commands that measure (run, explore): one table, parsed once
 * into a plan (src/tool/explore/plan.c gives every value its meaning and checks it) and the few
 * settings that are not the plan's (device, kernel path, store, output). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

enum {
    O_PREC = 256,
    O_LWS,
    O_LWS_GRID,
    O_LWS_ITEMS,
    O_PARAM,
    O_WARMUP,
    O_REPEAT,
    O_SEED,
    O_DIST,
    O_TIMING,
    O_HOSTMEM,
    O_COLD,
    O_NOVAL,
    O_LAYOUT,
    O_TA,
    O_TB,
    O_ALPHA,
    O_BETA,
    O_LDA,
    O_LDB,
    O_LDC,
    O_OFFA,
    O_OFFB,
    O_OFFC,
    O_KPATH,
    O_STORE,
    O_PLAN,
    O_DRY,
    O_PAUSE,
    O_JSON,
    O_NOSTORE,
    O_SHAPES,
    O_SHARD,
    O_MPI,
    O_DEVMAP,
    O_MINTIME,
    O_MAXCI,
    O_PIPELINE,
    O_VERDICT,
    O_OBJECTIVE,
    O_ACCUM
};

static const struct option long_opts[] = {{"platform", required_argument, NULL, 'p'},
                                          {"type", required_argument, NULL, 't'},
                                          {"device", required_argument, NULL, 'd'},
                                          {"kernel", required_argument, NULL, 'k'},
                                          {"iterations", required_argument, NULL, 'i'},
                                          {"validate", no_argument, NULL, 'v'},
                                          {"no-validate", no_argument, NULL, O_NOVAL},
                                          {"precision", required_argument, NULL, O_PREC},
                                          {"accumulate", required_argument, NULL, O_ACCUM},
                                          {"lws", required_argument, NULL, O_LWS},
                                          {"lws-grid", required_argument, NULL, O_LWS_GRID},
                                          {"lws-items", required_argument, NULL, O_LWS_ITEMS},
                                          {"param", required_argument, NULL, O_PARAM},
                                          {"warmup", required_argument, NULL, O_WARMUP},
                                          {"repeat", required_argument, NULL, O_REPEAT},
                                          {"seed", required_argument, NULL, O_SEED},
                                          {"dist", required_argument, NULL, O_DIST},
                                          {"timing", required_argument, NULL, O_TIMING},
                                          {"host-mem", required_argument, NULL, O_HOSTMEM},
                                          {"cold", no_argument, NULL, O_COLD},
                                          {"pipeline", optional_argument, NULL, O_PIPELINE},
                                          {"layout", required_argument, NULL, O_LAYOUT},
                                          {"transA", required_argument, NULL, O_TA},
                                          {"transB", required_argument, NULL, O_TB},
                                          {"alpha", required_argument, NULL, O_ALPHA},
                                          {"beta", required_argument, NULL, O_BETA},
                                          {"lda", required_argument, NULL, O_LDA},
                                          {"ldb", required_argument, NULL, O_LDB},
                                          {"ldc", required_argument, NULL, O_LDC},
                                          {"offa", required_argument, NULL, O_OFFA},
                                          {"offb", required_argument, NULL, O_OFFB},
                                          {"offc", required_argument, NULL, O_OFFC},
                                          {"kernel-path", required_argument, NULL, O_KPATH},
                                          {"store", required_argument, NULL, O_STORE},
                                          {"plan", required_argument, NULL, O_PLAN},
                                          {"dry-run", no_argument, NULL, O_DRY},
                                          {"pause", required_argument, NULL, O_PAUSE},
                                          {"json", no_argument, NULL, O_JSON},
                                          {"no-store", no_argument, NULL, O_NOSTORE},
                                          {"shapes", required_argument, NULL, O_SHAPES},
                                          {"shard", required_argument, NULL, O_SHARD},
                                          {"mpi", no_argument, NULL, O_MPI},
                                          {"min-time", required_argument, NULL, O_MINTIME},
                                          {"max-rel-ci", required_argument, NULL, O_MAXCI},
                                          {"device-map", required_argument, NULL, O_DEVMAP},
                                          {"verdict", required_argument, NULL, O_VERDICT},
                                          {"objective", required_argument, NULL, O_OBJECTIVE},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};

/* The plan key each flag sets (NULL: not a plan key). */
static const char *plan_key(int c)
{
    static const struct {
        int c;
        const char *key;
    } keys[] = {{'k', "kernels"},
                {'n', "n"},
                {'M', "M"},
                {'N', "N"},
                {'K', "K"},
                {'i', "iterations"},
                {O_PREC, "precision"},
                {O_ACCUM, "accumulate"},
                {O_LWS, "lws"},
                {O_LWS_ITEMS, "lws_items"},
                {O_PARAM, "param"},
                {O_WARMUP, "warmup"},
                {O_REPEAT, "repeat"},
                {O_SEED, "seed"},
                {O_DIST, "dist"},
                {O_TIMING, "timing"},
                {O_HOSTMEM, "host_mem"},
                {O_PIPELINE, "pipeline"},
                {O_MINTIME, "min_time"},
                {O_MAXCI, "max_rel_ci"},
                {O_LAYOUT, "layout"},
                {O_TA, "transA"},
                {O_TB, "transB"},
                {O_ALPHA, "alpha"},
                {O_BETA, "beta"},
                {O_LDA, "lda"},
                {O_LDB, "ldb"},
                {O_LDC, "ldc"},
                {O_OFFA, "offa"},
                {O_OFFB, "offb"},
                {O_OFFC, "offc"},
                {O_SHARD, "shard"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (keys[i].c == c)
            return keys[i].key;
    return NULL;
}

/* --pipeline's count: --pipeline=N, --pipeline N (the next word, when it is a number: taken
 * here in both passes, so that getopt does not move it to the operands), or the default. */
static const char *pipeline_value(int argc, char **args, const char *arg)
{
    static char dflt[16];
    if (arg)
        return arg;
    if (optind < argc && args[optind][0] >= '0' && args[optind][0] <= '9')
        return args[optind++];
    snprintf(dflt, sizeof dflt, "%d", GB_PIPELINE_DEFAULT);
    return dflt;
}

/* Which command-specific option a flag is (0: a shared one). */
static unsigned extra_of(int c)
{
    switch (c) {
    case O_PLAN: return CLI_OPT_PLAN;
    case O_DRY: return CLI_OPT_DRY_RUN;
    case O_PAUSE: return CLI_OPT_PAUSE;
    case O_JSON: return CLI_OPT_JSON;
    case O_NOSTORE: return CLI_OPT_NO_STORE;
    case O_REPEAT: return CLI_OPT_REPEAT;
    case O_SHARD: return CLI_OPT_SHARD;
    case O_MPI:
    case O_DEVMAP: return CLI_OPT_MPI;
    case O_VERDICT: return CLI_OPT_VERDICT;
    default: return 0;
    }
}

/* "0", "00", " 0": a count of zero. */
static int is_zero(const char *s)
{
    s += strspn(s, " ");
    return *s && s[strspn(s, "0")] == '\0';
}

/* -i 0: what the Intel sample's -i 0 means ("no kernel invocation is performed, but all other
 * host stuff is created"): build every point's programs and call nothing. Only 'run' takes it;
 * a command that measures needs calls. 0 or the exit code. */
static int zero_iterations(const char *cmd, unsigned extra, cli_measure_t *o)
{
    if (!(extra & CLI_OPT_BUILD_ONLY))
        return cli_error(GB_EBADARG,
                         "-i 0 builds each point's programs and calls nothing ('gemmbench run -i "
                         "0'); '%s' measures: give -i from 1 to 100000",
                         cmd);
    o->build_only = 1;
    return 0;
}

static int set(gb_explore_plan_t *pl, const char *key, const char *value, const char *label)
{
    char msg[1024];
    int rc = gb_plan_set(pl, key, value, label, msg, sizeof msg);
    return rc == GB_OK ? 0 : cli_error(rc, "%s", msg);
}

/* One flag that is not a plan key. */
static int other(int c, const char *arg, const char *name, const char *cmd, cli_measure_t *o,
                 gb_explore_plan_t *pl)
{
    switch (c) {
    case 'p': o->sel.platform = arg; return 0;
    case 'd': o->sel.device = arg; return 0;
    case 't': return cli_device_type(arg, &o->sel.type);
    case 'v': pl->bench.validate = GB_VALIDATE_ON; return 0;
    case O_NOVAL: pl->bench.validate = GB_VALIDATE_OFF; return 0;
    case O_COLD: return set(pl, "cold", "on", "--cold");
    case O_LWS_GRID: {
        const char *semi = strchr(arg, ';');
        char x[512];
        if (!semi || (size_t)(semi - arg) >= sizeof x)
            return cli_error(GB_EBADARG,
                             "--lws-grid must be X;Y, two lists like "
                             "1:128:x2;1:128:x2, got '%s'",
                             arg);
        memcpy(x, arg, (size_t)(semi - arg));
        x[semi - arg] = '\0';
        int rc = set(pl, "lws_x", x, "--lws-grid");
        return rc ? rc : set(pl, "lws_y", semi + 1, "--lws-grid");
    }
    case O_SHAPES: {
        char *text, msg[1024];
        int rc = gb_plan_read_shapes(arg, &text, msg, sizeof msg);
        if (rc != GB_OK)
            return cli_error(rc == GB_EIO ? GB_EBADARG : rc, "--shapes: %s", msg);
        rc = set(pl, "shapes", text, "--shapes");
        free(text);
        return rc;
    }
    case O_KPATH: o->kpath = arg; return 0;
    case O_STORE: o->store = arg; return 0;
    case O_PLAN: return 0; /* read in the first pass */
    case O_DRY: o->dry_run = 1; return 0;
    case O_JSON: o->json = 1; return 0;
    case O_MPI: o->mpi = 1; return 0;
    case O_DEVMAP: o->device_map = arg; return 0;
    case O_NOSTORE: o->no_store = 1; return 0;
    case O_OBJECTIVE:
        if (!gb_tuned_objective_ok(arg))
            return cli_error(GB_EBADARG, "--objective must be time, energy or edp, got '%s'", arg);
        o->objective = arg;
        return 0;
    case O_VERDICT:
        if (gb_verdict_parse(arg, &o->verdict) != GB_OK)
            return cli_error(GB_EBADARG,
                             "--verdict: unknown verdict '%s'; use faithful (the default: "
                             "within the error bound and faithful to the precision) or bound "
                             "(the error bound alone)",
                             arg);
        return 0;
    case O_PAUSE: {
        char *end;
        o->pause_ms = strtol(arg, &end, 10);
        if (end == arg || *end || o->pause_ms < 0 || o->pause_ms > 3600000)
            return cli_error(GB_EBADARG,
                             "--pause must be milliseconds from 0 to 3600000, got "
                             "'%s'",
                             arg);
        return 0;
    }
    default: return cli_bad_option(c, name, cmd);
    }
}

int cli_measure_parse(int argc, char **argv, const char *cmd, unsigned extra, void (*usage)(void),
                      cli_measure_t *o, gb_explore_plan_t *pl)
{
    const char *short_opts = ":p:t:d:k:i:n:M:N:K:vh";
    char label[64];
    int c, rc = 0;
    memset(o, 0, sizeof *o);
    o->sel.type = GB_DEVTYPE_ALL;
    /* GEMMbench spells the work-group size -lws J,I; getopt would read it as -l -w -s. */
    char **args = malloc(((size_t)argc + 1) * sizeof *args);
    if (!args)
        return cli_error(GB_ENOMEM, "out of memory");
    for (int i = 0; i < argc; i++)
        args[i] = strcmp(argv[i], "-lws") ? argv[i] : (char *)"--lws";
    args[argc] = NULL;
    /* Two passes: the plan first (wherever --plan stands), then every flag over it. */
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, args, short_opts, long_opts, NULL)) != -1)
        if (c == O_PIPELINE) {
            pipeline_value(argc, args, optarg);
        } else if (c == O_PLAN && (extra & CLI_OPT_PLAN)) {
            o->plan = optarg;
        } else if (c == 'h') {
            usage();
            free(args);
            return -1;
        }
    char msg[1024];
    if (o->plan && (rc = gb_plan_load(pl, o->plan, msg, sizeof msg)) != GB_OK) {
        free(args);
        return cli_error(rc, "%s", msg);
    }
    rc = 0;
    optind = 1;
    int li = -1;
    while (rc == 0 && (c = getopt_long(argc, args, short_opts, long_opts, &li)) != -1) {
        const char *key = plan_key(c), *name = args[optind - 1];
        /* Messages name the flag as given: "--lws" or "-n". */
        if (li >= 0)
            snprintf(label, sizeof label, "--%s", long_opts[li].name);
        else
            snprintf(label, sizeof label, "-%c", c);
        li = -1;
        if (c == O_VERDICT && !(extra & CLI_OPT_VERDICT))
            rc = cli_error(GB_EBADARG,
                           "--verdict is not an option of '%s': a result that is not faithful "
                           "to its precision never wins a tuning",
                           cmd);
        else if (extra_of(c) && !(extra & extra_of(c)))
            rc = cli_error(GB_EBADARG, "%s is not an option of '%s'; see 'gemmbench %s --help'",
                           label, cmd, cmd);
        else if (c == 'i' && is_zero(optarg))
            rc = zero_iterations(cmd, extra, o);
        else if (c == O_PIPELINE)
            rc = set(pl, key, pipeline_value(argc, args, optarg), label);
        else if (key)
            rc = set(pl, key, optarg, label);
        else
            rc = other(c, optarg, name, cmd, o, pl);
    }
    if (rc == 0 && optind < argc)
        rc = cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench %s --help'",
                       args[optind], cmd);
    free(args);
    /* Options that do not go together, from flags and plan alike, before anything runs. */
    if (rc == 0 && gb_bench_options_check(&pl->bench, msg, sizeof msg) != GB_OK)
        rc = cli_error(GB_EBADARG, "%s", msg);
    if (rc == 0 && (rc = gb_plan_check_complex(pl, msg, sizeof msg)) != GB_OK)
        rc = cli_error(rc, "%s", msg);
    if (rc == 0 && (rc = gb_plan_apply_accumulate(pl, msg, sizeof msg)) != GB_OK)
        rc = cli_error(rc, "%s", msg);
    return rc;
}

int cli_mpi_start(cli_measure_t *o, const gb_explore_plan_t *pl, const char *cmd, int *argc,
                  char ***argv, gb_fleet_mpi_t *mpi)
{
    static char mine[128];
    char msg[512];
    if (!o->mpi)
        return o->device_map ? cli_error(GB_EBADARG, "%s: --device-map is for --mpi runs", cmd) : 0;
    if (pl->shards > 1)
        return cli_error(GB_EBADARG, "--mpi and --shard split a sweep two ways; give one");
    if (o->dry_run)
        return cli_error(GB_EBADARG, "--dry-run under --mpi: run the dry run alone, without "
                                     "mpirun");
    int rc = gb_fleet_mpi_init(argc, argv, mpi, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    /* Open MPI binds each of two ranks to one core, and what a rank starts inherits it: the
     * CPU reference's threads, tune's build processes (bench/notes/scale-out.md#tuning-start). */
    long online;
    const long usable = gb_fleet_usable_cores(&online);
    if (usable < online)
        fprintf(stderr,
                "gemmbench: %s: rank %d may run on %ld of the %ld cores (mpirun binds ranks to "
                "cores unless given --bind-to none): its CPU reference%s there only; give "
                "mpirun --bind-to none\n",
                cmd, mpi->rank, usable, online,
                strcmp(cmd, "tune") ? " runs" : " and build processes run");
    if (o->device_map) {
        if (gb_fleet_device_map(o->device_map, mpi->rank, mine, sizeof mine) != GB_OK)
            return gb_fleet_mpi_abort(mpi, cli_error(GB_EBADARG,
                                                     "--device-map '%s': each entry is "
                                                     "a device index or name",
                                                     o->device_map));
        o->sel.device = mine;
    }
    return 0;
}

int cli_measure_open(const cli_measure_t *o, gb_registry_t **reg, cli_device_t *dev,
                     const gb_device_info_t **di)
{
    int rc;
    if ((rc = cli_registry_open(reg, o->kpath)) || (rc = cli_device_open(dev, &o->sel)))
        return rc;
    *di = &dev->list[dev->index];
    return 0;
}

int cli_measure_devices_open(cli_device_t *dev, const cli_measure_t *o, const gb_fleet_mpi_t *mpi)
{
    const int rc = cli_devices_open(dev, &o->sel);
    if (rc && mpi->started)
        fprintf(stderr, "gemmbench: under mpirun a platform can go missing when mpirun's hwloc "
                        "lists OpenCL and cuts OCL_ICD_FILENAMES: run 'HWLOC_COMPONENTS=-opencl "
                        "mpirun ...' (docs/scale-out.md)\n");
    if (rc || !mpi->started || o->device_map)
        return rc;
    /* A rank's device: -d's devices taken in turn by the ranks of one host. */
    dev->picks[0] = dev->picks[gb_fleet_mpi_pick(mpi, dev->npicks)];
    dev->npicks = 1;
    dev->index = dev->picks[0];
    return 0;
}
