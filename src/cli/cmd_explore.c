/* cmd_explore.c: `gemmbench explore`: sweep kernels x precisions x parameter grids x work-group
 * sizes x sizes x repetitions from flags or a plan, storing every point as it is measured.
 * Resumable: points already in the store are skipped. SIGINT/SIGTERM finish the point being
 * measured, store it, and exit with 128+signal; nothing stored is lost. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../explore/explore.h"
#include "cli.h"

static volatile sig_atomic_t stop_signal = 0;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static void usage(void)
{
    printf("usage: gemmbench explore [--plan NAME|FILE] [options]\n"
           "Sweeps the product of kernels, precisions, parameter values, work-group sizes, sizes\n"
           "and repetitions; stores each point as it is measured; skips points already stored,\n"
           "so the same command resumes an interrupted sweep. Flags override the plan's keys.\n"
           "  --plan NAME|FILE      a built-in plan or a JSON plan file (docs/explore.md)\n"
           "  -k, --kernel K[,K..]  kernel families or presets\n"
           "  -n LIST               square orders: 64,128 or 64:1024:64 or 16:1024:x2\n"
           "  -M, -N, -K LIST       rectangular sizes (their product; a missing one follows -n)\n"
           "      --precision s,d   precisions (default: each kernel's own)\n"
           "      --lws J,I[;J,I..] work-group sizes\n"
           "      --lws-grid X;Y    work-group grid: X and Y lists, like 1:128:x2;1:128:x2\n"
           "      --lws-items LIST  keep grid sizes whose J*I is in LIST, like 16,32,64,128\n"
           "      --param NAME=LIST a parameter's values (repeatable): DJ=1,2,4 or VW=1:16:x2\n"
           "  -i, --iterations I    timed calls per point (default 10)\n"
           "      --warmup W        untimed calls first (default 1)\n"
           "      --repeat R        store each point R times, as repetitions 0..R-1 (default 1)\n"
           "      --seed S --dist D --timing T  as for 'run'\n"
           "  -v, --validate / --no-validate  as for 'run' (default: when M*N*K <= 2^33)\n"
           "      --layout --transA --transB --alpha --beta --lda --ldb --ldc --offa --offb --offc\n"
           "  -p, -t, -d            platform, device type, device (as for 'run')\n"
           "      --kernel-path DIR add or override kernel families from DIR\n"
           "      --store PATH      the results store (default: 'gemmbench store path')\n"
           "      --pause MS        sleep MS milliseconds after each point (device cool-down)\n"
           "      --dry-run         classify the points and list those to run; run nothing\n"
           "built-in plans:\n");
    for (size_t i = 0; i < gb_plan_builtin_count(); i++)
        printf("  %-20s %s\n", gb_plan_builtin_name(i), gb_plan_builtin_description(i));
    printf("exit: 0 done, 1 a point failed validation (it is stored), 2 bad usage or plan,\n"
           "      3 a point failed to run (build or OpenCL error), 128+N interrupted by signal N\n");
}

typedef struct xopts {
    gb_device_selector_t sel;
    const char *kpath, *store, *plan;
    int dry_run;
    long pause_ms;
} xopts_t;

enum {
    O_PREC = 256, O_LWS, O_LWS_GRID, O_LWS_ITEMS, O_PARAM, O_WARMUP, O_REPEAT, O_SEED, O_DIST,
    O_TIMING, O_NOVAL, O_LAYOUT, O_TA, O_TB, O_ALPHA, O_BETA, O_LDA, O_LDB, O_LDC, O_OFFA, O_OFFB,
    O_OFFC, O_KPATH, O_STORE, O_PLAN, O_DRY, O_PAUSE
};

static const struct option long_opts[] = {
    {"platform", required_argument, NULL, 'p'}, {"type", required_argument, NULL, 't'},
    {"device", required_argument, NULL, 'd'}, {"kernel", required_argument, NULL, 'k'},
    {"iterations", required_argument, NULL, 'i'}, {"validate", no_argument, NULL, 'v'},
    {"no-validate", no_argument, NULL, O_NOVAL}, {"precision", required_argument, NULL, O_PREC},
    {"lws", required_argument, NULL, O_LWS}, {"lws-grid", required_argument, NULL, O_LWS_GRID},
    {"lws-items", required_argument, NULL, O_LWS_ITEMS}, {"param", required_argument, NULL, O_PARAM},
    {"warmup", required_argument, NULL, O_WARMUP}, {"repeat", required_argument, NULL, O_REPEAT},
    {"seed", required_argument, NULL, O_SEED}, {"dist", required_argument, NULL, O_DIST},
    {"timing", required_argument, NULL, O_TIMING}, {"layout", required_argument, NULL, O_LAYOUT},
    {"transA", required_argument, NULL, O_TA}, {"transB", required_argument, NULL, O_TB},
    {"alpha", required_argument, NULL, O_ALPHA}, {"beta", required_argument, NULL, O_BETA},
    {"lda", required_argument, NULL, O_LDA}, {"ldb", required_argument, NULL, O_LDB},
    {"ldc", required_argument, NULL, O_LDC}, {"offa", required_argument, NULL, O_OFFA},
    {"offb", required_argument, NULL, O_OFFB}, {"offc", required_argument, NULL, O_OFFC},
    {"kernel-path", required_argument, NULL, O_KPATH}, {"store", required_argument, NULL, O_STORE},
    {"plan", required_argument, NULL, O_PLAN}, {"dry-run", no_argument, NULL, O_DRY},
    {"pause", required_argument, NULL, O_PAUSE}, {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* The plan key each flag sets (NULL: not a plan key). */
static const char *plan_key(int c)
{
    switch (c) {
    case 'k': return "kernels";
    case 'n': return "n";
    case 'M': return "M";
    case 'N': return "N";
    case 'K': return "K";
    case 'i': return "iterations";
    case O_PREC: return "precision";
    case O_LWS: return "lws";
    case O_LWS_ITEMS: return "lws_items";
    case O_PARAM: return "param";
    case O_WARMUP: return "warmup";
    case O_REPEAT: return "repeat";
    case O_SEED: return "seed";
    case O_DIST: return "dist";
    case O_TIMING: return "timing";
    case O_LAYOUT: return "layout";
    case O_TA: return "transA";
    case O_TB: return "transB";
    case O_ALPHA: return "alpha";
    case O_BETA: return "beta";
    case O_LDA: return "lda";
    case O_LDB: return "ldb";
    case O_LDC: return "ldc";
    case O_OFFA: return "offa";
    case O_OFFB: return "offb";
    case O_OFFC: return "offc";
    default: return NULL;
    }
}

/* Two passes: the plan first (wherever --plan stands), then every flag over it. */
static int parse(int argc, char **argv, xopts_t *o, gb_plan_t *pl)
{
    const char *short_opts = ":p:t:d:k:i:n:M:N:K:vh";
    char msg[1024], label[64];
    int c, rc = 0;
    memset(o, 0, sizeof *o);
    o->sel.type = GB_DEVTYPE_ALL;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
        if (c == O_PLAN)
            o->plan = optarg;
        else if (c == 'h') {
            usage();
            return -1;
        }
    if (o->plan && (rc = gb_plan_load(pl, o->plan, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    optind = 1;
    int li = -1;
    while (rc == 0 && (c = getopt_long(argc, argv, short_opts, long_opts, &li)) != -1) {
        const char *key = plan_key(c);
        const char *name = argv[optind - 1];
        if (key) {
            /* Messages name the flag: "--lws" or "-n". */
            if (li >= 0)
                snprintf(label, sizeof label, "--%s", long_opts[li].name);
            else
                snprintf(label, sizeof label, "-%c", c);
            li = -1;
            if ((rc = gb_plan_set(pl, key, optarg, label, msg, sizeof msg)) != GB_OK)
                rc = cli_error(rc, "%s", msg);
            continue;
        }
        switch (c) {
        case 'p': o->sel.platform = optarg; break;
        case 'd': o->sel.device = optarg; break;
        case 't':
            if (gb_device_type_parse(optarg, &o->sel.type) != GB_OK)
                rc = cli_error(GB_EBADARG, "unknown device type '%s'; use all, cpu, gpu, acc or default", optarg);
            break;
        case 'v': pl->bench.validate = GB_VALIDATE_ON; break;
        case O_NOVAL: pl->bench.validate = GB_VALIDATE_OFF; break;
        case O_LWS_GRID: {
            const char *semi = strchr(optarg, ';');
            char x[512];
            if (!semi || (size_t)(semi - optarg) >= sizeof x) {
                rc = cli_error(GB_EBADARG, "--lws-grid must be X;Y, two lists like 1:128:x2;1:128:x2, "
                               "got '%s'", optarg);
                break;
            }
            memcpy(x, optarg, (size_t)(semi - optarg));
            x[semi - optarg] = '\0';
            if ((rc = gb_plan_set(pl, "lws_x", x, "--lws-grid", msg, sizeof msg)) == GB_OK)
                rc = gb_plan_set(pl, "lws_y", semi + 1, "--lws-grid", msg, sizeof msg);
            if (rc != GB_OK)
                rc = cli_error(rc, "%s", msg);
            break;
        }
        case O_KPATH: o->kpath = optarg; break;
        case O_STORE: o->store = optarg; break;
        case O_PLAN: break;
        case O_DRY: o->dry_run = 1; break;
        case O_PAUSE: {
            char *end;
            o->pause_ms = strtol(optarg, &end, 10);
            if (end == optarg || *end || o->pause_ms < 0 || o->pause_ms > 3600000)
                rc = cli_error(GB_EBADARG, "--pause must be milliseconds from 0 to 3600000, got '%s'",
                               optarg);
            break;
        }
        case ':': rc = cli_error(GB_EBADARG, "option '%s' needs a value", name); break;
        default:
            rc = cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench explore --help'", name);
            break;
        }
    }
    if (rc == 0 && optind < argc)
        rc = cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench explore --help'",
                       argv[optind]);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *hms(double s, char *buf, size_t len)
{
    long t = s < 0 ? 0 : (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
    return buf;
}

typedef struct progress {
    int tty;
    size_t todo, done;
    double start; /* when measuring began: the ETA counts pauses and builds too */
} progress_t;

static void eta_text(const progress_t *pr, char *buf, size_t len)
{
    char t[32];
    if (pr->done == 0) {
        snprintf(buf, len, "ETA ?");
        return;
    }
    double per = (now_s() - pr->start) / (double)pr->done;
    snprintf(buf, len, "ETA %s", hms(per * (double)(pr->todo - pr->done), t, sizeof t));
}

/* The bar, redrawn in place: [#####.....] done/todo pct elapsed ETA and what runs now. */
static void draw_bar(const progress_t *pr, const char *now)
{
    char eta[48], el[32], bar[31];
    const size_t width = 30, fill = pr->todo ? pr->done * width / pr->todo : width;
    for (size_t i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    eta_text(pr, eta, sizeof eta);
    printf("\r\033[K[%s] %zu/%zu %3.0f%% %s %s  %.40s", bar, pr->done, pr->todo,
           pr->todo ? 100.0 * (double)pr->done / (double)pr->todo : 100.0,
           hms(now_s() - pr->start, el, sizeof el), eta, now);
    fflush(stdout);
}

/* A line above the bar (tty) or a plain line. */
static void note(const progress_t *pr, const char *fmt, const char *a, const char *b)
{
    if (pr->tty)
        printf("\r\033[K");
    printf(fmt, a, b);
    fflush(stdout);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    /* A signal cuts the pause short, and the loop then stops. */
    nanosleep(&ts, NULL);
}

/* Prints the classification of the sweep. */
static void print_plan(gb_explore_t *ex, const gb_plan_t *pl, const gb_device_info_t *di,
                       gb_store_t *st, int tty)
{
    printf("explore: %s: %zu points on %s (%s): %zu to measure, %zu already in the store, %zu "
           "cannot run here\n", pl->origin, gb_explore_total(ex), di->name, di->platform_name,
           gb_explore_count(ex, GB_XP_TODO), gb_explore_count(ex, GB_XP_STORED),
           gb_explore_count(ex, GB_XP_SKIP));
    if (strcmp(gb_store_path(st), ":memory:"))
        printf("store: %s\n", gb_store_path(st));
    else
        printf("store: none yet (a dry run creates none)\n");
    if (!tty) {
        for (size_t i = 0; i < gb_explore_total(ex); i++) {
            gb_xp_point_t xp;
            char desc[512];
            if (gb_explore_status(ex, i) != GB_XP_SKIP || gb_explore_point(ex, i, &xp) != GB_OK)
                continue;
            printf("skip: %s: %s\n", gb_explore_describe(&xp, desc, sizeof desc), xp.why);
        }
    }
    for (size_t r = 0; r < gb_explore_nreasons(ex); r++) {
        const gb_xp_reason_t *re = gb_explore_reason(ex, r);
        printf("cannot run: %zu x %s, e.g. %s\n", re->count, gb_errname(re->code), re->example);
    }
    fflush(stdout);
}

int cmd_explore(int argc, char **argv)
{
    xopts_t o;
    gb_plan_t pl;
    gb_plan_init(&pl);
    int rc = parse(argc, argv, &o, &pl);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    char msg[1024];
    gb_registry_t *reg = NULL;
    cli_device_t dev = {0};
    gb_store_t *st = NULL;
    gb_explore_t *ex = NULL;
    gb_context_t *ctx = NULL;
    struct sigaction sa, old_int, old_term;
    int handlers = 0;
    if ((rc = gb_registry_open(&reg, o.kpath, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
        goto done;
    }
    if ((rc = cli_device_open(&dev, &o.sel)))
        goto done;
    const gb_device_info_t *di = &dev.list[dev.index];
    /* A dry run writes nothing: with no store yet, every point is to run. */
    char spath[1024];
    const char *want = o.store ? o.store : gb_store_default_path(spath, sizeof spath);
    if (o.dry_run && want && access(want, F_OK) != 0) {
        if ((rc = cli_store_open(&st, ":memory:", 1)))
            goto done;
    } else if ((rc = cli_store_open(&st, o.store, 1))) {
        goto done;
    }
    if ((rc = gb_explore_open(&ex, &pl, reg, di, st, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    progress_t pr = {isatty(STDOUT_FILENO), gb_explore_count(ex, GB_XP_TODO), 0, now_s()};
    print_plan(ex, &pl, di, st, pr.tty);
    if (o.dry_run) {
        for (size_t i = 0; i < gb_explore_total(ex); i++) {
            gb_xp_point_t xp;
            char desc[512];
            if (gb_explore_status(ex, i) == GB_XP_TODO && gb_explore_point(ex, i, &xp) == GB_OK)
                printf("to run: %s (id %s)\n", gb_explore_describe(&xp, desc, sizeof desc), xp.id);
        }
        rc = EXIT_OK;
        goto done;
    }
    /* From here a signal only asks the loop to stop after the point being measured. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = (int)(SA_RESETHAND | SA_RESTART); /* a second signal kills at once */
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    handlers = 1;
    if (pr.todo && (rc = gb_context_open(&ctx, di, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    pr.start = now_s();
    size_t measured = 0, invalid = 0, failed = 0, late_skip = 0, raced = 0;
    for (size_t i = 0; i < gb_explore_total(ex) && !stop_signal; i++) {
        if (gb_explore_status(ex, i) != GB_XP_TODO)
            continue;
        gb_xp_point_t xp;
        char desc[512], line[1600];
        if ((rc = gb_explore_point(ex, i, &xp)) != GB_OK) {
            rc = cli_error(rc, "%s", xp.why);
            goto done;
        }
        gb_explore_describe(&xp, desc, sizeof desc);
        if (pr.tty)
            draw_bar(&pr, desc);
        gb_point_t pt;
        gb_point_init(&pt);
        int mrc = gb_explore_measure(ex, ctx, &xp, &pt, msg, sizeof msg);
        pr.done++;
        if (mrc == GB_OK) {
            const gb_validation_t *v = &pt.result.validation;
            measured++;
            invalid += v->done && !v->passed;
            char eta[48];
            eta_text(&pr, eta, sizeof eta);
            snprintf(line, sizeof line, "%.4g GFLOP/s, %s, stored %s (%s)", pt.result.gflops,
                     !v->done ? "not validated" : v->passed ? "pass" : "FAILED validation", pt.id, eta);
            if (!pr.tty || (v->done && !v->passed))
                note(&pr, "[%s] %s\n", desc, line);
        } else if (mrc == 1) {
            raced++;
            if (!pr.tty)
                note(&pr, "[%s] %s\n", desc, "already stored by another process");
        } else if (gb_explore_cannot_run(mrc)) {
            late_skip++;
            note(&pr, "skip: %s: %s\n", desc, msg);
        } else if (mrc == GB_ENOMEM || mrc == GB_EIO) {
            gb_point_free(&pt);
            if (pr.tty)
                printf("\n");
            rc = cli_error(mrc, "%s: %s", desc, msg);
            goto done;
        } else {
            failed++;
            snprintf(line, sizeof line, "%s: %s", gb_errname(mrc), msg);
            note(&pr, "failed: %s: %s\n", desc, line);
        }
        gb_point_free(&pt);
        if (pr.tty)
            draw_bar(&pr, "");
        if (o.pause_ms && !stop_signal)
            sleep_ms(o.pause_ms);
    }
    if (pr.tty)
        printf("\n");
    char el[32];
    printf("explore: %zu measured and stored (%zu failed validation), %zu already stored, %zu "
           "cannot run, %zu failed to run; %s; store %s\n", measured, invalid,
           gb_explore_count(ex, GB_XP_STORED) + raced, gb_explore_count(ex, GB_XP_SKIP) + late_skip,
           failed, hms(now_s() - pr.start, el, sizeof el), gb_store_path(st));
    if (stop_signal) {
        size_t left = pr.todo - pr.done;
        fprintf(stderr, "gemmbench: explore interrupted by %s with %zu points left to measure; "
                "run the same command again to resume\n", stop_signal == SIGINT ? "SIGINT" : "SIGTERM",
                left);
        rc = 128 + stop_signal;
    } else {
        rc = failed ? EXIT_RUNTIME : invalid ? EXIT_INVALID : EXIT_OK;
    }
done:
    /* The store closes (and its last commit is already durable) before the process exits. */
    gb_context_close(ctx);
    gb_explore_close(ex);
    gb_store_close(st);
    cli_device_close(&dev);
    gb_registry_close(reg);
    gb_plan_free(&pl);
    if (handlers) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    return rc;
}
