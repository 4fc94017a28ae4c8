/* cmd_explore.c: `gemmbench explore`: sweep kernels x precisions x parameter grids x work-group
 * sizes x sizes x repetitions from flags or a plan, storing every point as it is measured.
 * Resumable: points already in the store are skipped. SIGINT/SIGTERM finish the point being
 * measured, store it, and exit with 128+signal; nothing stored is lost. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "options.h"

static volatile sig_atomic_t stop_signal = 0;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static void usage(void)
{
    printf(
        "usage: gemmbench explore [--plan NAME|FILE] [options]\n"
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
    printf(
        "exit: 0 done, 1 a point failed validation (it is stored), 2 bad usage or plan,\n"
        "      3 a point failed to run (build or OpenCL error), 128+N interrupted by signal N\n");
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
           "cannot run here\n",
           pl->origin, gb_explore_total(ex), di->name, di->platform_name,
           gb_explore_count(ex, GB_XP_TODO), gb_explore_count(ex, GB_XP_STORED),
           gb_explore_count(ex, GB_XP_SKIP));
    if (st)
        printf("store: %s\n", gb_store_path(st));
    else
        printf("store: none yet (a dry run creates none)\n");
    if (!tty) {
        for (size_t i = 0; i < gb_explore_total(ex); i++) {
            gb_job_t job;
            char desc[512];
            if (gb_explore_status(ex, i) != GB_XP_SKIP || gb_explore_job(ex, i, &job) != GB_OK)
                continue;
            printf("skip: %s: %s\n", gb_job_describe(&job, desc, sizeof desc), job.why);
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
    cli_measure_t o;
    gb_plan_t pl;
    gb_plan_init(&pl);
    int rc = cli_measure_parse(argc, argv, "explore",
                               CLI_OPT_PLAN | CLI_OPT_DRY_RUN | CLI_OPT_PAUSE | CLI_OPT_REPEAT,
                               usage, &o, &pl);
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
    /* A dry run writes nothing: with no store yet, every point is to run, provided the store
     * could be made where it was asked for. */
    char spath[1024];
    const char *want = o.store ? o.store : gb_store_default_path(spath, sizeof spath);
    if (o.dry_run && want && access(want, F_OK) != 0) {
        if (o.store && (rc = cli_store_creatable(o.store)))
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
            gb_job_t job;
            char desc[512];
            if (gb_explore_status(ex, i) == GB_XP_TODO && gb_explore_job(ex, i, &job) == GB_OK)
                printf("to run: %s (id %s)\n", gb_job_describe(&job, desc, sizeof desc), job.id);
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
        gb_job_t job;
        char desc[512], line[1600];
        if ((rc = gb_explore_job(ex, i, &job)) != GB_OK) {
            rc = cli_error(rc, "out of memory");
            goto done;
        }
        gb_job_describe(&job, desc, sizeof desc);
        if (pr.tty)
            draw_bar(&pr, desc);
        gb_point_t pt;
        gb_point_init(&pt);
        int mrc = gb_job_measure(&job, ctx, st, GB_JOB_KEEP_NEW, &pt, msg, sizeof msg);
        pr.done++;
        if (mrc == GB_OK) {
            const gb_validation_t *v = &pt.result.validation;
            measured++;
            invalid += v->done && !v->passed;
            char eta[48];
            eta_text(&pr, eta, sizeof eta);
            snprintf(line, sizeof line, "%.4g GFLOP/s, %s, stored %s (%s)", pt.result.gflops,
                     !v->done    ? "not validated"
                     : v->passed ? "pass"
                                 : "FAILED validation",
                     pt.id, eta);
            if (!pr.tty || (v->done && !v->passed))
                note(&pr, "[%s] %s\n", desc, line);
        } else if (mrc == 1) {
            raced++;
            if (!pr.tty)
                note(&pr, "[%s] %s\n", desc, "already stored by another process");
        } else if (gb_job_cannot_run(mrc)) {
            late_skip++;
            note(&pr, "skip: %s: %s\n", desc, msg);
        } else if (mrc == GB_ENOMEM || mrc == GB_JOB_ESTORE) {
            gb_point_free(&pt);
            if (pr.tty)
                printf("\n");
            rc = cli_error(mrc == GB_ENOMEM ? mrc : GB_EIO, "%s: %s", desc, msg);
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
           "cannot run, %zu failed to run; %s; store %s\n",
           measured, invalid, gb_explore_count(ex, GB_XP_STORED) + raced,
           gb_explore_count(ex, GB_XP_SKIP) + late_skip, failed,
           hms(now_s() - pr.start, el, sizeof el), gb_store_path(st));
    if (stop_signal && pr.done == pr.todo) {
        /* The signal came during the last point, which was stored: nothing is left. */
        fprintf(stderr,
                "gemmbench: explore: %s arrived as the last point finished; every point "
                "is measured\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
        rc = failed ? EXIT_RUNTIME : invalid ? EXIT_INVALID : EXIT_OK;
    } else if (stop_signal) {
        size_t left = pr.todo - pr.done;
        fprintf(stderr,
                "gemmbench: explore interrupted by %s with %zu points left to measure; "
                "run the same command again to resume\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", left);
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
