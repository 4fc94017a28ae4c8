/* cmd_explore.c: `gemmbench explore`: sweep kernels x precisions x parameter grids x work-group
 * sizes x sizes x repetitions from flags or a plan, storing every point as it is measured.
 * Resumable: points already in the store are skipped. SIGINT/SIGTERM finish the point being
 * measured, store it, and exit with 128+signal; nothing stored is lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "progress.h"
#include "run_show.h"

static void usage(void)
{
    printf(
        "usage: gemmbench explore [--plan NAME|FILE] [options]\n"
        "Sweeps the product of kernels, precisions, parameter values, work-group sizes, sizes\n"
        "and repetitions; stores each point as it is measured; skips points already stored,\n"
        "so the same command resumes an interrupted sweep. Flags override the plan's keys.\n"
        "  --plan NAME|FILE      a built-in plan or a JSON plan file (docs/explore.md)\n"
        "  -k, --kernel K[,K..]  kernel families or presets\n"
        "      --objective O     with -k auto: the tuned entries of objective O (time, energy,\n"
        "                        edp; default time) where a class has one\n"
        "  -n LIST               square orders: 64,128 or 64:1024:64 or 16:1024:x2\n"
        "  -M, -N, -K LIST       rectangular sizes (their product; a missing one follows -n)\n"
        "      --precision s,d   precisions: s, d, h, b, c, z, or all (default: each kernel's "
        "own)\n"
        "      --lws J,I[;J,I..] work-group sizes\n"
        "      --lws-grid X;Y    work-group grid: X and Y lists, like 1:128:x2;1:128:x2\n"
        "      --lws-items LIST  keep grid sizes whose J*I is in LIST, like 16,32,64,128\n"
        "      --param NAME=LIST a parameter's values (repeatable): DJ=1,2,4 or VW=1:16:x2\n"
        "  -i, --iterations I    timed calls per point (default 10)\n"
        "      --warmup W        untimed calls first (default 1)\n"
        "      --repeat R        store each point R times, as repetitions 0..R-1 (default 1)\n"
        "      --seed S --dist D --timing T --host-mem H --cold  as for 'run'\n"
        "      --pipeline [N]    with --timing offload: pipelined offloads, as for 'run'\n"
        "      --max-rel-ci X --min-time S  adaptive timed calls, as for 'run'\n"
        "  -v, --validate / --no-validate  as for 'run' (default: when M*N*K <= 2^33)\n"
        "      --verdict V       faithful (default) or bound, as for 'run': a point not\n"
        "                        faithful to its precision is a failure unless bound\n"
        "      --layout --transA --transB --alpha --beta --lda --ldb --ldc --offa --offb --offc\n"
        "      --shapes FILE     shapes from a file, one M N K per line (# comments), added\n"
        "                        to the sizes of -n/-M/-N/-K (docs/explore.md)\n"
        "  -p, -t, -d            platform, device type, device (as for 'run'); -d all or a\n"
        "                        list (-d 0,2) measures on each, one worker per device\n"
        "      --kernel-path DIR add or override kernel families from DIR\n"
        "      --store PATH      the results store (default: 'gemmbench store path')\n"
        "      --pause MS        sleep MS milliseconds after each point (device cool-down)\n"
        "      --dry-run         classify the points and list those to run; run nothing\n"
        "      --shard I/N       only the points whose index in the sweep is I modulo N\n"
        "                        (0 <= I < N): N shards, each with its own store, then\n"
        "                        'gemmbench import' merges them (docs/scale-out.md)\n"
        "      --mpi             under mpirun: rank 0 hands out points and stores them, every\n"
        "                        rank measures on its device (-d's devices by rank on a host)\n"
        "      --device-map D,.. under --mpi: rank r measures on device Dr\n"
        "built-in plans:\n");
    for (size_t i = 0; i < gb_plan_builtin_count(); i++)
        printf("  %-20s %s\n", gb_plan_builtin_name(i), gb_plan_builtin_description(i));
    printf(
        "exit: 0 done, 1 a point failed validation or is not faithful (it is stored), 2 bad\n"
        "      usage or plan,\n"
        "      3 a point failed to run (build or OpenCL error), 128+N interrupted by signal N\n");
}

/* Prints the classification of the sweep. */
static void print_plan(gb_explore_t *ex, const gb_explore_plan_t *pl, const gb_device_info_t *di,
                       const gb_xp_worker_t *w, size_t nw, int ranks, gb_store_t *st, int tty)
{
    char on[1024];
    size_t used = 0;
    gb__appendf(on, sizeof on, &used, "%s (%s)", di->name, di->platform_name);
    if (ranks > 1) {
        used = 0;
        gb__appendf(on, sizeof on, &used, "%d MPI ranks (rank 0: %s, %s)", ranks, di->name,
                    di->platform_name);
    }
    if (nw > 1) {
        used = 0;
        gb__appendf(on, sizeof on, &used, "%zu devices:", nw);
        for (size_t k = 0; k < nw; k++)
            gb__appendf(on, sizeof on, &used, "%s [%s]", k ? "," : "", w[k].label);
    }
    printf("explore: %s: %zu points on %s: %zu to measure, %zu already in the store, %zu "
           "cannot run here\n",
           pl->origin, gb_explore_total(ex), on, gb_explore_count(ex, GB_XP_TODO),
           gb_explore_count(ex, GB_XP_STORED), gb_explore_count(ex, GB_XP_SKIP));
    if (pl->shards > 1)
        printf("shard %zu of %zu (indices %zu modulo %zu): %zu points are the other shards'\n",
               pl->shard, pl->shards, pl->shard, pl->shards, gb_explore_count(ex, GB_XP_OTHER));
    if (gb_explore_one_layout(ex))
        cli_one_layout_note(pl);
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
            /* A job that could run is skipped for crashing a process before. */
            printf("skip: %s: %s\n", gb_job_describe(&job, desc, sizeof desc),
                   job.code != GB_OK ? job.why
                                     : "it crashed the process in an earlier run (GB_ECRASH): "
                                       "not run again");
        }
    }
    for (size_t r = 0; r < gb_explore_nreasons(ex); r++) {
        const gb_xp_reason_t *re = gb_explore_reason(ex, r);
        printf("cannot run: %zu x %s, e.g. %s\n", re->count, gb_errname(re->code), re->example);
    }
    fflush(stdout);
}

/* What became of the points measured, and how to show them. */
typedef struct tally {
    size_t measured, invalid, unfaithful, failed, late_skip, raced;
    cli_progress_t *pr;
    size_t nworkers;
    gb_explore_t *ex;     /* the sweep: a point's implementation, for what it declares */
    gb_verdict_t verdict; /* --verdict */
} tally_t;

/* Point o's outcome under the verdict asked (its implementation's capabilities from the sweep,
 * which every rank of an MPI sweep expands alike). */
static gb_outcome_t outcome(const tally_t *t, const gb_xp_outcome_t *o)
{
    gb_job_t job;
    const unsigned caps =
        gb_explore_job(t->ex, o->index, &job) == GB_OK ? gb_impl_caps(&job.impl) : 0u;
    return gb_validation_outcome(&o->pt->result.validation, caps, t->verdict);
}

static void on_measuring(const gb_xp_worker_t *w, const char *desc, void *user)
{
    tally_t *t = user;
    char now[640];
    snprintf(now, sizeof now, "%s%s%s", t->nworkers > 1 ? w->label : "",
             t->nworkers > 1 ? ": " : "", desc);
    cli_progress_draw(t->pr, now);
}

/* Says how point o went (called under the queue's lock). */
static void on_measured(const gb_xp_outcome_t *o, void *user)
{
    tally_t *t = user;
    cli_progress_t *pr = t->pr;
    char desc[700], line[1600];
    snprintf(desc, sizeof desc, "%s%s%s", t->nworkers > 1 ? o->worker->label : "",
             t->nworkers > 1 ? ": " : "", o->desc);
    pr->done++;
    if (o->rc == GB_OK) {
        const gb_outcome_t oc = outcome(t, o);
        static const char *const said[] = {
            [GB_OUTCOME_PASS] = "pass",
            [GB_OUTCOME_UNVALIDATED] = "not validated",
            [GB_OUTCOME_FAIL] = "FAILED validation",
            [GB_OUTCOME_UNFAITHFUL] = "NOT FAITHFUL to its precision (--verdict bound accepts it)"};
        t->measured++;
        t->invalid += oc == GB_OUTCOME_FAIL;
        t->unfaithful += oc == GB_OUTCOME_UNFAITHFUL;
        char eta[48];
        cli_progress_eta(pr, eta, sizeof eta);
        snprintf(line, sizeof line, "%.4g GFLOP/s, %s, stored %s (%s)", o->pt->result.gflops,
                 said[oc], o->pt->id, eta);
        if (!pr->tty || oc >= GB_OUTCOME_FAIL)
            cli_progress_note(pr, "[%s] %s\n", desc, line);
    } else if (o->rc == 1) {
        t->raced++;
        if (!pr->tty)
            cli_progress_note(pr, "[%s] %s\n", desc, "already stored by another process");
    } else if (gb_job_cannot_run(o->rc)) {
        t->late_skip++;
        cli_progress_note(pr, "skip: %s: %s\n", desc, o->msg);
    } else {
        t->failed++;
        snprintf(line, sizeof line, "%s: %s", gb_errname(o->rc), o->msg);
        cli_progress_note(pr, "failed: %s: %s\n", desc, line);
    }
    cli_progress_draw(pr, "");
}

/* Rank 0 asked to stop: mpirun sends SIGTERM when a rank dies, and what came is already stored. */
static void on_stopping(int signal)
{
    fprintf(stderr,
            "gemmbench: explore --mpi: stopping on signal %d; every point received is stored; run "
            "the same command again to resume\n",
            signal);
}

/* The closing line and the exit code, an interruption's included. */
static int finish(gb_explore_t *ex, gb_store_t *st, const cli_progress_t *pr, const tally_t *t)
{
    char el[32], unfaithful[48] = "";
    if (t->unfaithful)
        snprintf(unfaithful, sizeof unfaithful, ", %zu not faithful", t->unfaithful);
    printf("explore: %zu measured and stored (%zu failed validation%s), %zu already stored, %zu "
           "cannot run, %zu failed to run; %s; store %s\n",
           t->measured, t->invalid, unfaithful, gb_explore_count(ex, GB_XP_STORED) + t->raced,
           gb_explore_count(ex, GB_XP_SKIP) + t->late_skip, t->failed,
           cli_hms(cli_now_s() - pr->start, el, sizeof el), gb_store_path(st));
    const int rc = t->failed ? EXIT_RUNTIME : t->invalid || t->unfaithful ? EXIT_INVALID : EXIT_OK;
    if (!cli_stop_signal)
        return rc;
    if (pr->done == pr->todo) {
        /* The signal came during the last point, which was stored: nothing is left. */
        fprintf(stderr,
                "gemmbench: explore: %s arrived as the last point finished; every point "
                "is measured\n",
                cli_stop_name());
        return rc;
    }
    fprintf(stderr,
            "gemmbench: explore interrupted by %s with %zu points left to measure; run the "
            "same command again to resume\n",
            cli_stop_name(), pr->todo - pr->done);
    return 128 + cli_stop_signal;
}

/* Lists the points a dry run would measure. */
static void list_todo(gb_explore_t *ex)
{
    for (size_t i = 0; i < gb_explore_total(ex); i++) {
        gb_job_t job;
        char desc[512];
        if (gb_explore_status(ex, i) == GB_XP_TODO && gb_explore_job(ex, i, &job) == GB_OK)
            printf("to run: %s (id %s)\n", gb_job_describe(&job, desc, sizeof desc), job.id);
    }
}

/* What a sweep works with, closed by close_sweep. */
typedef struct sweep {
    gb_registry_t *reg;
    cli_device_t dev;
    gb_store_t *st;
    gb_explore_t *ex;
    gb_xp_worker_t w[CLI_MAX_DEVICES];
    size_t nw;
    const gb_device_info_t *kinds[CLI_MAX_DEVICES];
    size_t nkinds;
    cli_auto_t autodb;
    int catching, served;
    char **argv; /* the whole command line, to start again after a crash */
} sweep_t;

static void close_sweep(sweep_t *s)
{
    /* The store closes (and its last commit is already durable) before the process exits. */
    gb_xp_workers_close(s->w, s->nw);
    gb_explore_close(s->ex);
    cli_auto_close(&s->autodb);
    gb_store_close(s->st);
    cli_device_close(&s->dev);
    gb_registry_close(s->reg);
    if (s->catching) {
        cli_crash_release();
        cli_stop_release();
    }
}

/* The registry, the devices and a worker per device. 0 or the exit code. */
static int open_sweep(sweep_t *s, const cli_measure_t *o, const gb_fleet_mpi_t *mpi)
{
    int rc;
    if ((rc = cli_registry_open(&s->reg, o->kpath)) ||
        (rc = cli_measure_devices_open(&s->dev, o, mpi)))
        return rc;
    const gb_device_info_t *devs[CLI_MAX_DEVICES];
    for (size_t i = 0; i < s->dev.npicks; i++)
        devs[i] = &s->dev.list[s->dev.picks[i]];
    s->nw = s->dev.npicks;
    gb_xp_workers_init(s->w, devs, s->nw, mpi, s->kinds, &s->nkinds);
    return 0;
}

/* A rank other than 0: no store, its one device, points from rank 0. */
static int mpi_worker(sweep_t *s, const gb_explore_plan_t *pl, const cli_measure_t *o)
{
    char msg[1024];
    gb_xp_worker_t *w = &s->w[0];
    int rc = cli_auto_open(&s->autodb, pl, o->store, o->objective);
    if (rc)
        return rc;
    cli_stop_catch(); /* rank 0 says when to stop; the point in flight is finished */
    s->catching = 1;
    if ((rc = gb_explore_open_on(&s->ex, pl, s->reg, s->kinds, 1, NULL,
                                 cli_auto_chooser(&s->autodb), msg, sizeof msg)) != GB_OK ||
        (rc = gb_xp_workers_open(w, s->kinds, 1, msg, sizeof msg)) != GB_OK ||
        (rc = gb_xp_mpi_work(s->ex, w, o->pause_ms, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s: %s", w->label, msg);
    return 0;
}

/* The store (a dry run writes nothing: with no store yet, every point is to run, provided the
 * store could be made where it was asked for), the tuning database for -k auto, and the sweep
 * expanded and said. 0 or the exit code. */
static int open_plan(sweep_t *s, const gb_explore_plan_t *pl, const cli_measure_t *o,
                     const gb_fleet_mpi_t *mpi, cli_progress_t *pr)
{
    char msg[1024], spath[1024];
    int rc;
    const char *want = o->store ? o->store : gb_store_default_path(spath, sizeof spath);
    if (o->dry_run && want && access(want, F_OK) != 0) {
        if (o->store && (rc = cli_store_creatable(o->store)))
            return rc;
    } else if ((rc = cli_store_open(&s->st, o->store, 1))) {
        return rc;
    } else if (!o->dry_run && (rc = cli_crash_reap(s->st, "explore"))) {
        return rc; /* what a process that is gone left in flight: crashed, or measured again */
    }
    if ((rc = cli_auto_open(&s->autodb, pl, o->store, o->objective)))
        return rc;
    if ((rc = gb_explore_open_on(&s->ex, pl, s->reg, s->kinds, s->nkinds, s->st,
                                 cli_auto_chooser(&s->autodb), msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    cli_progress_start(pr, gb_explore_count(s->ex, GB_XP_TODO));
    if (mpi->started)
        pr->tty = 0; /* mpirun's output is a log, even through its terminal */
    print_plan(s->ex, pl, s->kinds[0], s->w, s->nw, mpi->size, s->st, pr->tty);
    return 0;
}

/* The points measured on the workers (and ranks), each stored as it comes, then the closing
 * line. The exit code. */
static int measure(sweep_t *s, const cli_measure_t *o, const gb_fleet_mpi_t *mpi,
                   cli_progress_t *pr)
{
    char msg[1024];
    int rc;
    /* From here a signal only asks the workers to stop after the points being measured, and a
     * crash starts the sweep again, which records the point as crashed (not under MPI: a new
     * process would not be one of the job's ranks). */
    cli_stop_catch();
    if (!mpi->started)
        cli_crash_catch(s->argv, "GEMMBENCH_EXPLORE_RESTARTS", "explore");
    s->catching = 1;
    const gb_device_info_t *devs[CLI_MAX_DEVICES];
    for (size_t i = 0; i < s->nw; i++)
        devs[i] = &s->dev.list[s->dev.picks[i]];
    if (pr->todo && (rc = gb_xp_workers_open(s->w, devs, s->nw, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    tally_t t = {0};
    t.pr = pr;
    t.ex = s->ex;
    t.verdict = o->verdict;
    cli_progress_start(pr, pr->todo);
    if (mpi->started)
        pr->tty = 0;
    t.nworkers = s->nw + (mpi->started ? (size_t)mpi->size - 1 : 0);
    const gb_xp_hooks_t hooks = {on_measuring, on_measured, &cli_stop_signal, o->pause_ms, &t};
    gb_xp_mpi_coord_t coord = {mpi, &cli_stop_signal, 30.0, 0, msg, sizeof msg, on_stopping};
    const gb_xp_remote_t remote = {gb_xp_mpi_coordinate, &coord};
    /* Under MPI the other ranks ask even when nothing is left, to be told to stop. */
    if ((pr->todo || mpi->started) &&
        (rc = gb_explore_measure(s->ex, s->w, s->nw, s->st, &hooks, mpi->started ? &remote : NULL,
                                 msg, sizeof msg)) != GB_OK) {
        cli_progress_end(pr);
        return cli_error(rc == GB_ENOMEM ? rc : GB_EIO, "%s", msg);
    }
    s->served = 1;
    cli_progress_end(pr);
    if (coord.lost)
        fprintf(stderr,
                "gemmbench: explore: %zu rank(s) stopped answering; what they sent is stored; "
                "run the same command again to measure the rest\n",
                coord.lost);
    return finish(s->ex, s->st, pr, &t);
}

int cmd_explore(int argc, char **argv)
{
    cli_measure_t o;
    gb_explore_plan_t pl;
    gb_plan_init(&pl);
    int rc = cli_measure_parse(argc, argv, "explore",
                               CLI_OPT_PLAN | CLI_OPT_DRY_RUN | CLI_OPT_PAUSE | CLI_OPT_REPEAT |
                                   CLI_OPT_SHARD | CLI_OPT_MPI | CLI_OPT_VERDICT,
                               usage, &o, &pl);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    gb_fleet_mpi_t mpi = {0};
    if ((rc = cli_mpi_start(&o, &pl, "explore", &argc, &argv, &mpi))) {
        gb_plan_free(&pl);
        return rc;
    }
    sweep_t s;
    memset(&s, 0, sizeof s);
    s.argv = argv - 1;
    cli_progress_t pr;
    if ((rc = open_sweep(&s, &o, &mpi)) == 0) {
        if (mpi.rank > 0)
            s.served = (rc = mpi_worker(&s, &pl, &o)) == 0;
        else if ((rc = open_plan(&s, &pl, &o, &mpi, &pr)) == 0)
            rc = o.dry_run ? (list_todo(s.ex), EXIT_OK) : measure(&s, &o, &mpi, &pr);
    }
    close_sweep(&s);
    gb_plan_free(&pl);
    /* A rank that failed before its part of the exchange would leave the others waiting. */
    if (mpi.started && rc && !s.served)
        return gb_fleet_mpi_abort(&mpi, rc);
    gb_fleet_mpi_finalize(&mpi);
    return rc;
}
