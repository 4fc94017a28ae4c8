/* cmd_run.c: `gemmbench run`: build, validate and time kernels on one device, over one or more
 * sizes, and print one comparison table (or JSON). A run is a sweep (src/tool/explore) measured once,
 * each point kept as the next repetition of its definition in the results store. Options follow
 * the Intel SGEMM sample (-p -t -d -M -K -N -i -k -v) and GEMMbench (-n, --lws), and are the
 * same as explore's (options.c). This file measures the points; run_show.c shows them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "run_show.h"

static void usage(void)
{
    printf("usage: gemmbench run [options]\n"
           "  -p, --platform P      platform index or name substring\n"
           "  -t, --type T          device type: all, cpu, gpu, acc, default, or the OpenCL\n"
           "                        constant (CL_DEVICE_TYPE_GPU)\n"
           "  -d, --device D        device index (within the platform) or name substring\n"
           "  -k, --kernel K[,K..]  kernel families, presets or library peers ('gemmbench\n"
           "                        kernels' lists them; gb is gemmbench's own library);\n"
           "                        'all' (default) is every family and preset in each\n"
           "                        precision it has: -k all,gb,clblast,cublas,openblas\n"
           "      --objective O     with -k auto: take the tuned entries of objective O\n"
           "                        (time, energy, edp; default time) where a class has one\n"
           "  -n LIST               square sizes (default 256,512): 64,128 or 64:1024:64\n"
           "  -M, -N, -K LIST       rectangular sizes, their product; a missing one follows -n\n"
           "                        (default 512)\n"
           "  -i, --iterations I    timed calls (default 10); 0: build each point's programs\n"
           "                        and call nothing (Intel's sample's -i 0), nothing stored\n"
           "      --warmup W        untimed calls first (default 1)\n"
           "  -v, --validate        validate at any size; --no-validate: never\n"
           "                        (default: validate when M*N*K <= 2^33)\n"
           "      --precision P     s, d, h (FP16), b (bfloat16), c, z (complex single,\n"
           "                        double), a list (s,h) or all: each precision a kernel\n"
           "                        has that the device can run (default: a named kernel's\n"
           "                        own, single where it has it; with -k all, each precision\n"
           "                        a kernel has); h and b are stored in 16 bits and\n"
           "                        accumulated in FP32; c and z count 8*M*N*K FLOPs\n"
           "      --accumulate s|h  h: FP16 sums for --precision h (each partial sum rounded\n"
           "                        to FP16, precision hh, judged by FP16's unit roundoff;\n"
           "                        kernels that declare hh: naive, xgemm); default s (FP32)\n"
           "      --layout row|col  --transA N|T|C  --transB N|T|C (default: row NN, or the\n"
           "                        kernel's own native layout when none is given, unless\n"
           "                        the run's kernels' own layouts differ: then row NN for\n"
           "                        all; others are served through transposition passes;\n"
           "                        C, the conjugate transpose, for c and z only)\n"
           "      --alpha A --beta B (default 1, 0; RE,IM for c and z)\n"
           "      --lda L --ldb L --ldc L  --offa O --offb O --offc O\n"
           "      --lws J,I[;J,I..] work-group sizes (kernels with LX/LY parameters; -lws too)\n"
           "      --lws-grid X;Y --lws-items LIST  a grid of them, as for explore\n"
           "      --param NAME=LIST set a parameter where a kernel has it (repeatable): VW=4,\n"
           "                        or several values, VW=1:8:x2\n"
           "      --seed S          input seed (default 42)\n"
           "      --dist D          uniform:LO:HI (default uniform:-1:1), normal, int:R\n"
           "      --timing T        what GFLOP/s counts: kernel (main kernel), ops (main +\n"
           "                        helper passes, default) or offload (+ host-device copies)\n"
           "      --host-mem H      the operands' host memory, which the copies read and\n"
           "                        write: pageable (default) or pinned; or mapped: no\n"
           "                        copies, the kernel works in host memory (zero-copy, on a\n"
           "                        device that shares it: a CPU, an integrated GPU)\n"
           "      --pipeline [N]    with --timing offload: C in N panels (default 4), whose\n"
           "                        copies overlap the other panels' kernels; each point's\n"
           "                        serial offload is measured first, for the ratio\n"
           "      --cold            write a buffer of four times the device's cache before\n"
           "                        every call, so that none finds its operands cached\n"
           "      --max-rel-ci X    after the -i calls, more until the 95%% CI of the mean is\n"
           "                        within X of it (0.01: 1%%)\n"
           "      --min-time S      ... or until S seconds of timed calls are spent (alone:\n"
           "                        at least S seconds); the row says which stop applied\n"
           "      --kernel-path DIR add or override kernel families from DIR\n"
           "      --store PATH      record every point in this results store (default: the\n"
           "                        default store, 'gemmbench store path'); --no-store: don't\n"
           "      --json            print results as JSON\n"
           "      --verdict V       what a validated result must meet to pass: faithful\n"
           "                        (default: within the error bound, and faithful to the\n"
           "                        precision unless its implementation declares a reduced\n"
           "                        one, as cublas_tf32) or bound (the error bound alone)\n"
           "exit: 0 done, 1 a result failed validation (over the bound, or not faithful),\n"
           "      2 bad usage or a named kernel that cannot run here (a point of its sweep\n"
           "      that cannot, beside others that can, is skipped with its reason and the\n"
           "      others measured), 3 an OpenCL, build or system failure\n");
}

/* The default sizes, where the plan has none: 256 and 512, or 512 for the dimensions -M, -N,
 * -K leave out. */
static int default_sizes(gb_explore_plan_t *pl)
{
    char msg[256];
    if (pl->orders.n)
        return GB_OK;
    const int any_dim = pl->dim[0].n || pl->dim[1].n || pl->dim[2].n;
    return gb_plan_set(pl, "n", any_dim ? "512" : "256,512", "-n", msg, sizeof msg);
}

/* The first reason a named kernel cannot run at any point of its sweep, as the error of the
 * whole run; or, when no point at all can run, the first reason. 0 when the run can go ahead
 * (a named kernel's points that cannot run beside others that can are said as they come). */
static int refuse(gb_explore_t *ex)
{
    gb_job_t first;
    int have = 0;
    for (size_t i = 0; i < gb_explore_total(ex); i++) {
        if (gb_explore_status(ex, i) != GB_XP_SKIP)
            continue;
        gb_job_t job;
        if (gb_explore_job(ex, i, &job) != GB_OK)
            return cli_error(GB_ENOMEM, "out of memory");
        if (job.named && !gb_explore_entry_runnable(ex, i))
            return cli_error(job.code, "%s", job.why);
        if (!have)
            first = job;
        have = 1;
    }
    if (have && gb_explore_count(ex, GB_XP_SKIP) == gb_explore_total(ex))
        return cli_error(first.code, "nothing can run here: %s", first.why);
    return 0;
}

/* What a run works with, closed by close_run. */
typedef struct run {
    gb_registry_t *reg;
    cli_device_t dev;
    const gb_device_info_t *di;
    gb_context_t *ctx;
    gb_store_t *st;
    gb_explore_t *ex;
    cli_auto_t autodb;
    cJSON *out; /* --json: the rows */
    run_table_t tb;
    size_t stored;
    int exit_code;
    gb_verdict_t verdict; /* --verdict */
    size_t unfaithful;    /* rows that failed for not being faithful */
    /* The entry (kernel, precision) skipped last: its other points are skipped silently. */
    const char *skipped;
    gb_precision_t skipped_prec;
} run_t;

static void close_run(run_t *u)
{
    gb_store_close(u->st);
    cJSON_Delete(u->out);
    gb_context_close(u->ctx);
    gb_explore_close(u->ex);
    cli_auto_close(&u->autodb);
    cli_device_close(&u->dev);
    gb_registry_close(u->reg);
}

/* The results store: an explicit --store must open; the default one that cannot is only a
 * warning, since the measurements still print. Then efficiency against the measured peak,
 * where 'gemmbench ceilings' measured this device. 0 or the exit code. */
static int open_store(run_t *u, const cli_measure_t *o, const gb_explore_plan_t *pl)
{
    char msg[1024];
    int rc;
    if (!o->no_store && o->store && (rc = cli_store_open(&u->st, o->store, 1)))
        return rc;
    if (!o->no_store && !o->store &&
        gb_store_open(&u->st, NULL, GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        fprintf(stderr, "gemmbench: warning: results not stored: %s\n", msg);
    gb_ceilings_t ceil;
    if (u->st && gb_store_get_ceilings(u->st, u->di, &ceil, u->tb.measured_when) == 1) {
        memcpy(u->tb.measured_peak, ceil.peak_gflops, sizeof u->tb.measured_peak);
        u->tb.copy_ceiling[0] = ceil.h2d_gbs[pl->bench.host_mem];
        u->tb.copy_ceiling[1] = ceil.d2h_gbs[pl->bench.host_mem];
    } else {
        u->tb.measured_when[0] = '\0';
    }
    return 0;
}

/* Every point made and checked before anything is opened on the device (a named kernel that
 * cannot run a shape here fails before the table starts); then the store and a context. 0 or
 * the exit code. */
static int open_run(run_t *u, const cli_measure_t *o, const gb_explore_plan_t *pl)
{
    char msg[1024];
    int rc;
    if ((rc = cli_measure_open(o, &u->reg, &u->dev, &u->di)) ||
        (rc = cli_auto_open(&u->autodb, pl, o->store, o->objective)))
        return rc;
    if ((rc = gb_explore_open(&u->ex, pl, u->reg, u->di, NULL, cli_auto_chooser(&u->autodb), msg,
                              sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    if ((rc = refuse(u->ex)) || (rc = open_store(u, o, pl)))
        return rc;
    if ((rc = gb_context_open(&u->ctx, u->di, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    return 0;
}

/* Point i, which cannot run here. A named kernel's, where others of its sweep can run, is said
 * on stderr with its parameters, the rest are measured, and the exit status is 2 (a named kernel
 * that cannot run). Under 'all' one refused before it runs, where others of its kernel's sweep
 * can (a shape its constraints refuse), is a row of its own; else its kernel is skipped with
 * the reason, its other points silently. */
static void skip(run_t *u, const gb_job_t *job, size_t i, const char *why)
{
    if (job->named) {
        char desc[512];
        fprintf(stderr, "gemmbench: skipped %s: %s\n", gb_job_describe(job, desc, sizeof desc),
                why);
        if (!u->exit_code)
            u->exit_code = EXIT_USAGE;
        return;
    }
    const int point = job->code != GB_OK && gb_explore_entry_runnable(u->ex, i);
    if (!u->out)
        cli_run_skipped(job, point, why);
    if (point)
        return;
    u->skipped = job->kernel;
    u->skipped_prec = job->problem.precision;
}

/* Whether point i, refused with rc once built (registers limit the work-group, ...), is skipped
 * rather than the run's error: under 'all', or where its named kernel's sweep has others. */
static int skipped_once_built(const run_t *u, const gb_job_t *job, size_t i, int rc)
{
    return gb_job_cannot_run(rc) && (!job->named || gb_explore_entry_points(u->ex, i) > 1);
}

/* One measurement of job (jb: it, or its serial twin), as a row or a JSON item. */
static void show(run_t *u, const gb_job_t *job, const gb_job_t *jb, int headline, gb_point_t *pt,
                 int mrc, const char *msg, double serial_ms)
{
    /* The family's declared memory traffic (docs/kernel-metadata.md), where it has one. */
    gb_traffic_t traffic;
    char why[512];
    if (gb_impl_traffic(&jb->impl, u->di, &jb->problem, &traffic, why, sizeof why) != GB_OK)
        fprintf(stderr, "gemmbench: warning: %s: no memory traffic: %s\n", job->kernel, why);
    const gb_result_t *r = &pt->result;
    const unsigned caps = gb_impl_caps(&jb->impl);
    const gb_outcome_t oc = gb_validation_outcome(&r->validation, caps, u->verdict);
    if (oc >= GB_OUTCOME_FAIL)
        u->exit_code = EXIT_INVALID;
    u->unfaithful += oc == GB_OUTCOME_UNFAITHFUL;
    if (mrc == GB_JOB_ESTORE) {
        u->exit_code = cli_error(GB_EIO, "%s: not stored: %s", job->kernel, msg);
        pt->id[0] = '\0';
    } else if (u->st) {
        u->stored++;
    }
    const char *name = job->chosen[0] ? job->chosen : job->kernel;
    char chosen[512];
    if (job->chosen[0] && !u->out && headline)
        printf("auto -> %s (%s)\n", gb_job_chosen_text(job, chosen, sizeof chosen),
               job->chosen_why);
    if (u->out) {
        cJSON *item =
            cli_run_json(&u->tb, name, &jb->problem, r, &jb->bench, serial_ms, &traffic, oc, caps);
        if (job->chosen[0])
            cJSON_AddStringToObject(item, "auto", job->chosen_why);
        if (u->st && pt->id[0])
            cJSON_AddStringToObject(item, "id", pt->id);
        cJSON_AddItemToArray(u->out, item);
    } else {
        cli_run_row(&u->tb, name, &jb->problem, r, jb->bench.host_mem, serial_ms, &traffic, oc,
                    caps);
    }
}

/* Point i measured and shown: a pipelined point comes after the serial offload of the same
 * point, for the ratio. 0 or the exit code. */
static int measure_point(run_t *u, size_t i)
{
    gb_job_t job;
    char msg[1024];
    if (gb_explore_job(u->ex, i, &job) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    if (u->skipped && u->skipped == job.kernel && u->skipped_prec == job.problem.precision)
        return 0;
    if (job.code != GB_OK) { /* a named kernel's only where others of its sweep can run */
        skip(u, &job, i, job.why);
        return 0;
    }
    gb_job_t twin = job;
    twin.bench.pipeline = 0;
    double serial_ms = 0;
    const int first = job.bench.pipeline ? 0 : 1;
    for (int pass = first; pass < 2; pass++) {
        const gb_job_t *jb = pass ? &job : &twin;
        gb_point_t pt;
        gb_point_init(&pt);
        const int mrc =
            gb_job_measure(jb, u->ctx, u->st, u->st ? GB_JOB_KEEP_NEXT_REP : GB_JOB_KEEP_NONE, &pt,
                           msg, sizeof msg);
        /* Found only once compiled, and skipped as the checks before skip. */
        if (skipped_once_built(u, &job, i, mrc)) {
            skip(u, &job, i, msg);
            gb_point_free(&pt);
            break;
        }
        if (mrc != GB_OK && mrc != GB_JOB_ESTORE) {
            gb_point_free(&pt);
            return cli_error(mrc, "%s: %s", job.kernel, msg);
        }
        show(u, &job, jb, pass == first, &pt, mrc, msg, serial_ms);
        const gb_outcome_t oc =
            gb_validation_outcome(&pt.result.validation, gb_impl_caps(&jb->impl), u->verdict);
        if (pass == 0 && oc < GB_OUTCOME_FAIL)
            serial_ms = pt.result.time_ms[GB_PHASE_OFFLOAD].median;
        gb_point_free(&pt);
    }
    return 0;
}

/* -i 0 (Intel's sample: "no kernel invocation is performed, but all other host stuff is
 * created"): point i's programs built, or loaded from the program cache, on the context, and
 * the time that took; nothing is called, timed, validated or stored. 0 or the exit code. */
static int build_point(run_t *u, size_t i)
{
    gb_job_t job;
    char msg[16384];
    if (gb_explore_job(u->ex, i, &job) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    if (u->skipped && u->skipped == job.kernel && u->skipped_prec == job.problem.precision)
        return 0;
    if (job.code != GB_OK) {
        skip(u, &job, i, job.why);
        return 0;
    }
    const double t0 = cli_now_s();
    const int rc = gb_impl_prebuild(u->ctx, &job.impl, &job.problem, msg, sizeof msg);
    const double ms = (cli_now_s() - t0) * 1e3;
    if (skipped_once_built(u, &job, i, rc)) {
        skip(u, &job, i, msg);
        return 0;
    }
    if (rc != GB_OK)
        return cli_error(rc, "%s: %s", job.kernel, msg);
    cli_run_built(u->out, job.chosen[0] ? job.chosen : job.kernel, &job.problem, ms,
                  gb_impl_can(&job.impl, GB_IS_LIBRARY));
    return 0;
}

/* After the rows: the notes on energy and traffic, and where the points went; or the JSON. */
static void finish_run(const run_t *u)
{
    if (!u->out)
        cli_run_notes(&u->tb);
    if (u->out) {
        char *s = cJSON_Print(u->out);
        printf("%s\n", s ? s : "[]");
        free(s);
    } else if (u->st) {
        printf("\nstored %zu points in %s ('gemmbench store list' shows them)\n", u->stored,
               gb_store_path(u->st));
    }
    if (u->unfaithful)
        fprintf(stderr,
                "gemmbench: %zu result%s within the error bound but not faithful to %s precision "
                "(exit 1); an implementation that computes in a reduced precision on purpose "
                "declares it, and --verdict bound holds results to the bound alone\n",
                u->unfaithful, u->unfaithful == 1 ? "" : "s", u->unfaithful == 1 ? "its" : "their");
}

int cmd_run(int argc, char **argv)
{
    cli_measure_t o;
    gb_explore_plan_t pl;
    char msg[1024];
    gb_plan_init(&pl);
    int rc = gb_plan_set(&pl, "kernels", "all", "-k", msg, sizeof msg);
    if (rc == GB_OK)
        rc = cli_measure_parse(
            argc, argv, "run",
            CLI_OPT_JSON | CLI_OPT_NO_STORE | CLI_OPT_VERDICT | CLI_OPT_BUILD_ONLY, usage, &o, &pl);
    if (rc == 0)
        rc = default_sizes(&pl);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    run_t u;
    memset(&u, 0, sizeof u);
    u.verdict = o.verdict;
    o.no_store |= o.build_only; /* nothing to keep */
    if ((rc = open_run(&u, &o, &pl)) == 0) {
        if (o.json)
            u.out = cJSON_CreateArray();
        else if (o.build_only)
            cli_run_build_header(u.di);
        else
            cli_run_header(&u.tb, u.di, &pl, gb_explore_one_layout(u.ex), o.verdict);
        for (size_t i = 0; i < gb_explore_total(u.ex) && !rc; i++)
            rc = o.build_only ? build_point(&u, i) : measure_point(&u, i);
        if (!rc) {
            finish_run(&u);
            rc = u.exit_code;
        }
    }
    close_run(&u);
    gb_plan_free(&pl);
    return rc;
}
