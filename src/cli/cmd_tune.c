/* cmd_tune.c: `gemmbench tune`: tunes a kernel family's parameters on the device for each shape
 * (and precision) asked for, one tuning run each (src/tune/tune.c), and keeps each winner in the
 * tuning database; `--count` sizes the spaces; `--record` and `--simulate` (recorded spaces)
 * are in tune_spaces.c. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tune/strategy.h"
#include "../tune/tune.h"
#include "../tune/tuned.h"
#include "../tune/winner.h"
#include "options.h"
#include "progress.h"
#include "tune_spaces.h"

#define MAX_FIX GB_MAX_PARAMS
#define MAX_BUILDERS 15 /* the default's cap on build processes per device */

/* The options only tune has (the rest are the measuring commands' own, options.c). */
typedef struct tune_opts {
    const char *strategy, *simulate, *record;
    uint64_t seed;
    size_t budget;
    double time_s, timeout_s;
    int count;
    int no_presets;
    long threads;  /* -1: one per core but one, at most 16, unless processes build */
    long builders; /* -1: processes on a GPU (one per core but one, at most the lookahead) */
    size_t confirm;
    unsigned reps;
    gb_params_t fix;
} tune_opts_t;

static void usage(void)
{
    printf(
        "usage: gemmbench tune -k FAMILY [-n/-M/-N/-K LIST | --shapes FILE | --plan P] [options]\n"
        "       gemmbench tune --count -k FAMILY[,FAMILY..]|all [--precision P] [--param ..]\n"
        "       gemmbench tune --simulate SPACE [--strategy S] [--budget N] [--seed S]\n"
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
        "      --builders P        build processes ahead of each device (default on a GPU:\n"
        "                          cores - 1 shared by the devices, at most 15, and 8 for a\n"
        "                          strategy that learns from the scores; 0 on a CPU device\n"
        "                          or with --threads)\n"
        "      --threads T         build threads in this process instead (0 with processes or\n"
        "                          on a CPU device, else cores - 1, <= 16)\n"
        "      --candidate-timeout SECONDS  a candidate still running after it is recorded as\n"
        "                          timed out and the tuning goes on in a new process (default 60)\n"
        "      --confirm N --confirm-reps R  re-measure the N best R more times (default 3, 2)\n"
        "      --record FILE       write every evaluation as a recorded space (for --simulate)\n"
        "      --count             print each family's valid space size and the time to count\n"
        "      --simulate SPACE    run the strategy over a recorded space file, no device\n"
        "      --host-mem H        the operands' host memory (default pinned); --cold as for\n"
        "                          'run'\n"
        "  -i, --warmup, --dist, --timing, --layout, --transA, --transB, --alpha, --beta,\n"
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

/* The narrowing of the space: the plan's --param lists, then --fix values. */
typedef struct narrowing {
    gb_space_values_t v[2 * GB_MAX_PARAMS];
    size_t n;
} narrowing_t;

static int narrowing(const gb_plan_t *pl, const tune_opts_t *t, narrowing_t *nw)
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
static int precision_of(const gb_plan_t *pl, const gb_registry_t *reg, const char *kernel,
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
static int kernel_space(const char *kernel, const gb_plan_t *pl, const narrowing_t *nw,
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

/* What the hooks draw with. */
typedef struct view {
    cli_progress_t pr;
    char now[512];
    char **argv; /* the whole command line, for a restart after a timeout */
    /* With several devices: each line starts with the device's label, and one thread at a time
     * prints (lock). */
    const char *label;
    pthread_mutex_t *lock;
    int mpi;      /* under MPI: a candidate past its limit ends the job, no restart */
    int not_kept; /* a rank other than 0: its database line is rank 0's to say */
} view_t;

static void view_lock(const view_t *v)
{
    if (v->lock)
        pthread_mutex_lock(v->lock);
}

static void view_unlock(const view_t *v)
{
    if (v->lock)
        pthread_mutex_unlock(v->lock);
}

/* "[label] " where lines carry the device's label, else "". */
static const char *view_head(const view_t *v, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", v->label ? "[" : "", v->label ? v->label : "",
             v->label ? "] " : "");
    return buf;
}

static void on_measuring(const char *desc, void *user)
{
    view_t *v = user;
    gb__copy(v->now, sizeof v->now, desc);
    view_lock(v);
    cli_progress_draw(&v->pr, v->now);
    view_unlock(v);
}

static void on_progress(const gb_tune_progress_t *p, void *user)
{
    view_t *v = user;
    v->pr.done = p->evals;
    v->pr.todo = p->planned ? p->planned : p->evals + 1;
    char line[1200], eta[48];
    cli_progress_eta(&v->pr, eta, sizeof eta);
    const gb_tune_eval_t *e = p->last;
    if (e->code == GB_OK)
        snprintf(line, sizeof line, "%.4g GFLOP/s%s; best %.4g (%s); %s", e->gflops,
                 e->cached ? " (stored)" : "", p->best, p->best_params, eta);
    else
        snprintf(line, sizeof line, "cannot win: %s: %.200s%s; best %.4g; %s", gb_errname(e->code),
                 e->reason, e->cached ? " (stored)" : "", p->best, eta);
    char head[64];
    snprintf(head, sizeof head, "%zu/%s", p->evals, p->planned ? "" : "?");
    if (p->planned)
        snprintf(head, sizeof head, "%zu/%zu", p->evals, p->planned);
    char who[200];
    view_lock(v);
    if (!v->pr.tty) {
        printf("%s[%s] %s: %s\n", view_head(v, who, sizeof who), head, e->params, line);
        fflush(stdout);
    } else {
        char now[600];
        snprintf(now, sizeof now, "best %.4g", p->best);
        cli_progress_draw(&v->pr, now);
    }
    view_unlock(v);
}

static void on_note(const char *msg, void *user)
{
    view_t *v = user;
    char who[200];
    view_lock(v);
    if (v->pr.tty)
        printf("\r\033[K");
    fflush(stdout);
    fprintf(stderr, "gemmbench: tune: %s%s\n", view_head(v, who, sizeof who), msg);
    view_unlock(v);
}

/* A candidate that does not end: recorded as timed out by the tuner; this process cannot get the
 * device back, so a new one takes over (the store holds everything measured). */
static void on_timed_out(const gb_tune_failure_t *f, void *user)
{
    view_t *v = user;
    const char *env = getenv("GEMMBENCH_TUNE_RESTARTS");
    const long restarts = env ? strtol(env, NULL, 10) : 0;
    cli_progress_end(&v->pr);
    fflush(stdout);
    if (restarts >= 100) {
        fprintf(stderr,
                "gemmbench: tune: %s %s ran past --candidate-timeout; recorded as timed "
                "out; 100 restarts already: stopping (run the same command again)\n",
                f->kernel, f->params);
        _exit(EXIT_RUNTIME);
    }
    if (v->mpi) {
        /* A new process would not be one of the MPI job's ranks. */
        fprintf(stderr,
                "gemmbench: tune: %s %s ran past --candidate-timeout; recorded as timed out; "
                "the MPI job ends: run the same command again to go on\n",
                f->kernel, f->params);
        _exit(EXIT_RUNTIME);
    }
    fprintf(stderr,
            "gemmbench: tune: %s %s ran past --candidate-timeout; recorded as timed out; "
            "going on in a new process\n",
            f->kernel, f->params);
    char n[32];
    snprintf(n, sizeof n, "%ld", restarts + 1);
    setenv("GEMMBENCH_TUNE_RESTARTS", n, 1);
    execv("/proc/self/exe", v->argv);
    fprintf(stderr, "gemmbench: tune: cannot restart: run the same command again\n");
    _exit(EXIT_RUNTIME);
}

/* The default budget: a tenth of the space, from 20 to 300, never more than the space. */
static size_t default_budget(uint64_t space)
{
    uint64_t b = space / 10;
    b = b < 20 ? 20 : b > 300 ? 300 : b;
    return (size_t)(b < space ? b : space);
}

/* The jobs of the command: each kernel x shape, in that order. */
typedef struct plan_runs {
    char **kernels;
    size_t nkernels;
    size_t (*shapes)[3], nshapes;
    int all;              /* -k all: families this device cannot run are skipped, not refused */
    gb_precision_t *prec; /* per kernel, set by check_runs */
    uint64_t *space;      /* per kernel: its valid configurations, set by check_runs */
} plan_runs_t;

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
static int count_spaces(const plan_runs_t *r, const gb_plan_t *pl, const narrowing_t *nw,
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

/* One tuning run, printed. */
static int tune_one(const gb_tune_spec_t *spec, const gb_registry_t *reg, gb_context_t *ctx,
                    gb_store_t *st, view_t *v, const char *record_path, gb_tune_outcome_t *outp)
{
    gb_tune_hooks_t hooks = {.measuring = on_measuring,
                             .progress = on_progress,
                             .note = on_note,
                             .timed_out = on_timed_out,
                             .stop = &cli_stop_signal,
                             .user = v};
    gb_tune_outcome_t local, *po = outp ? outp : &local;
    char msg[2048];
    cli_progress_start(&v->pr, spec->budget);
    if (v->label)
        v->pr.tty = 0; /* several devices or ranks: plain lines, each with its label */
    int rc = gb_tune_run(po, spec, reg, ctx, st, &hooks, msg, sizeof msg);
    cli_progress_end(&v->pr);
    char el[32], who[200];
    view_lock(v);
    view_head(v, who, sizeof who);
    if (rc != GB_OK) {
        rc = cli_error(rc == GB_ESTORE ? GB_EIO : rc, "%s%s", who, msg);
        view_unlock(v);
        return rc;
    }
    printf("%stune: %s %s %zux%zux%zu (%s): %zu evaluations (%zu measured, %zu from the store, "
           "%zu cannot win) in %s; run %lld %s\n",
           who, po->run.kernel, gb_precision_name(po->run.precision), po->run.m, po->run.n,
           po->run.k, po->run.shape_class, po->run.evals, po->measured, po->cached, po->failed,
           cli_hms(cli_now_s() - v->pr.start, el, sizeof el), (long long)po->run.id,
           po->run.status);
    if (po->have_winner) {
        printf("%s  winner: %s\n", who, po->verdict);
        if (!v->not_kept)
            printf("%s  tuning database: %s\n", who, po->kept_why);
    } else if (!strcmp(po->run.status, "done")) {
        printf("%s  no winner: no candidate passed validation with a faithful result\n", who);
    }
    fflush(stdout);
    view_unlock(v);
    if (record_path &&
        (rc = cli_tune_record(record_path, spec, reg, gb_context_device(ctx), st, &po->run)) != 0)
        return rc;
    return cli_stop_signal ? 128 + cli_stop_signal : EXIT_OK;
}

/* Checks every run can be made (kernel, precision, space, strategy) before anything is written. */
static int check_runs(plan_runs_t *r, const gb_plan_t *pl, const narrowing_t *nw,
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

/* ---- several devices: one tuner per device, each taking the next run its kind still lacks --- */

typedef struct tuner {
    gb_context_t *ctx;
    gb_store_t *st; /* the first tuner's is the command's; the others open their own */
    size_t kind;    /* devices of one kind (name, driver, platform) share their runs */
    char label[160];
    char devindex[32];
    char *wargv[10]; /* the build processes' command line: this device, these kernels */
    view_t v;
    int rc;
} tuner_t;

typedef struct tuners {
    const plan_runs_t *runs;
    const gb_plan_t *pl;
    const narrowing_t *nw;
    const tune_opts_t *t;
    const gb_registry_t *reg;
    const cli_measure_t *o;
    const char *cmdline;
    char **argv;
    tuner_t w[CLI_MAX_DEVICES];
    size_t n, nkinds;
    size_t next[CLI_MAX_DEVICES]; /* per kind: the next run (kernel-major) */
    pthread_mutex_t lock;         /* next[], failed, and the output */
    int failed;
    const gb_xp_mpi_t *mpi; /* --mpi: rank 0 also hands runs to the other ranks (kind 0) */
} tuners_t;

static int same_kind(const gb_device_info_t *a, const gb_device_info_t *b)
{
    return !strcmp(a->name, b->name) && !strcmp(a->driver, b->driver) &&
           !strcmp(a->platform_name, b->platform_name);
}

/* A tuner per device listed, each with its context and store; 0 or the exit code. */
static int tuners_open(tuners_t *tu, const cli_device_t *dev, gb_store_t *st)
{
    const gb_device_info_t *kinds[CLI_MAX_DEVICES];
    char msg[1024];
    for (size_t i = 0; i < dev->npicks; i++) {
        tuner_t *w = &tu->w[i];
        const gb_device_info_t *d = &dev->list[dev->picks[i]];
        tu->n = i + 1;
        w->kind = 0;
        while (w->kind < tu->nkinds && !same_kind(kinds[w->kind], d))
            w->kind++;
        if (w->kind == tu->nkinds)
            kinds[tu->nkinds++] = d;
        snprintf(w->label, sizeof w->label, "%zu: %s", i, d->name);
        if (tu->mpi->started)
            snprintf(w->label, sizeof w->label, "rank %d: %s", tu->mpi->rank, d->name);
        snprintf(w->devindex, sizeof w->devindex, "%zu", dev->picks[i]);
        char **a = w->wargv;
        int k = 0;
        a[k++] = (char *)"gemmbench";
        a[k++] = (char *)"__build-worker";
        a[k++] = (char *)"--device";
        a[k++] = w->devindex;
        a[k++] = (char *)"--device-name";
        a[k++] = (char *)d->name;
        if (cli_verbose)
            a[k++] = (char *)"--verbose";
        if (tu->o->kpath) {
            a[k++] = (char *)"--kernel-path";
            a[k++] = (char *)tu->o->kpath;
        }
        a[k] = NULL;
        w->v.argv = tu->argv;
        w->v.mpi = tu->mpi->started;
        if (dev->npicks > 1 || tu->mpi->size > 1) {
            w->v.label = w->label;
            w->v.lock = &tu->lock;
        }
        int rc;
        if (i == 0 || tu->mpi->rank > 0)
            w->st = st; /* a rank other than 0 tunes into a store in memory per run */
        else if ((rc = cli_store_open(&w->st, tu->o->store, 1)))
            return rc;
        if ((rc = gb_context_open(&w->ctx, d, msg, sizeof msg)) != GB_OK)
            return cli_error(rc, "%s%s%s", dev->npicks > 1 ? w->label : "",
                             dev->npicks > 1 ? ": " : "", msg);
    }
    return 0;
}

static void tuners_close(tuners_t *tu)
{
    for (size_t i = 0; i < tu->n; i++) {
        gb_context_close(tu->w[i].ctx);
        if (i && tu->w[i].st != tu->w[0].st)
            gb_store_close(tu->w[i].st);
    }
}

/* The next run for kind: 1 with its kernel and shape, 0 when none is left or all stop. */
static int next_run(tuners_t *tu, size_t kind, size_t *k, size_t *s)
{
    pthread_mutex_lock(&tu->lock);
    const size_t total = tu->runs->nkernels * tu->runs->nshapes, r = tu->next[kind];
    const int got = !tu->failed && !cli_stop_signal && r < total;
    if (got) {
        tu->next[kind]++;
        *k = r / tu->runs->nshapes;
        *s = r % tu->runs->nshapes;
    }
    pthread_mutex_unlock(&tu->lock);
    return got;
}

/* The tuning run of kernel k at shape s on tuner w. */
static void make_spec(const tuners_t *tu, const tuner_t *w, size_t k, size_t s,
                      gb_tune_spec_t *spec)
{
    const plan_runs_t *runs = tu->runs;
    const tune_opts_t *t = tu->t;
    *spec = (gb_tune_spec_t){.kernel = runs->kernels[k],
                             .precision = runs->prec[k],
                             .base = &tu->pl->base,
                             .has_layout = tu->pl->has_layout,
                             .m = runs->shapes[s][0],
                             .n = runs->shapes[s][1],
                             .k = runs->shapes[s][2],
                             .bench = tu->pl->bench,
                             .narrow = tu->nw->v,
                             .nnarrow = tu->nw->n,
                             .strategy = t->strategy,
                             .seed = t->seed,
                             .presets = !t->no_presets,
                             .budget = t->budget,
                             .time_s = t->time_s,
                             .threads = (unsigned)t->threads,
                             .builders = (unsigned)t->builders,
                             .builder_argv = w->wargv,
                             .candidate_timeout_s = t->timeout_s,
                             .confirm = t->confirm,
                             .confirm_reps = t->reps,
                             .command = tu->cmdline};
    spec->bench.validate = GB_VALIDATE_ON;
    if (!spec->budget && spec->time_s <= 0)
        spec->budget = default_budget(runs->space[k]);
}

static void stop_all(tuners_t *tu)
{
    pthread_mutex_lock(&tu->lock);
    tu->failed = 1; /* as on one device: a failure stops the tuning */
    pthread_mutex_unlock(&tu->lock);
}

static void *tuner_loop(tuner_t *w, tuners_t *tu)
{
    size_t k, s;
    while (next_run(tu, w->kind, &k, &s)) {
        gb_tune_spec_t spec;
        gb_tune_outcome_t out;
        make_spec(tu, w, k, s, &spec);
        if ((w->rc = tune_one(&spec, tu->reg, w->ctx, w->st, &w->v, tu->t->record, &out)) != 0 &&
            !cli_stop_signal)
            stop_all(tu);
    }
    return NULL;
}

/* ---- --mpi: rank 0 hands out runs; a rank tunes each into a store in memory and sends back
 * its points and its winner, which rank 0 stores and keeps as its own tuners' ------------- */

/* Rank 0: one run's result from rank `from`: "index\0rc\0points\0winner" (JSON exports). */
static int take_remote(tuners_t *tu, gb_store_t *st, const char *label, const char *buf, size_t len)
{
    size_t at = 0, added = 0, present = 0;
    gb_xp_mpi_field(buf, len, &at);
    const int rrc = atoi(gb_xp_mpi_field(buf, len, &at));
    const char *points = gb_xp_mpi_field(buf, len, &at), *winner = gb_xp_mpi_field(buf, len, &at);
    char msg[1024], who[200];
    int rc = GB_OK;
    gb_tuned_t t;
    gb_tuned_init(&t);
    gb_tune_outcome_t out;
    memset(&out, 0, sizeof out);
    if (points[0])
        rc = gb_store_import_json(st, points, strlen(points), label, &added, &present);
    if (rc == GB_OK && winner[0])
        rc = gb_tuned_from_json(&t, winner, strlen(winner), label, "store", msg, sizeof msg);
    if (rc == GB_OK && t.n == 1) {
        out.have_winner = 1;
        out.winner = t.e[0];
        rc = gb_leaders_keep(st, &out, msg, sizeof msg);
    }
    pthread_mutex_lock(&tu->lock);
    snprintf(who, sizeof who, "[%s] ", label);
    if (rc != GB_OK)
        rc = cli_error(GB_EIO, "%s%s", who, rc == GB_ESTORE || !t.n ? gb_store_errmsg(st) : msg);
    else if (out.have_winner)
        printf("%s  tuning database: %s\n", who, out.kept_why);
    fflush(stdout);
    pthread_mutex_unlock(&tu->lock);
    gb_tuned_free(&t);
    if (rrc && !cli_stop_signal)
        rc = rc ? rc : rrc;
    return rc;
}

/* The store's points at one shape and precision, as a JSON export (caller frees; NULL when
 * there are none or on failure): a rank's cache for the run it is handed. */
typedef struct shape_cache {
    gb_store_t *mem;
    size_t m, n, k;
    gb_precision_t prec;
    size_t count;
} shape_cache_t;

static int cache_one(const gb_point_t *pt, void *user)
{
    shape_cache_t *c = user;
    const gb_problem_t *p = &pt->problem;
    if (p->m == c->m && p->n == c->n && p->k == c->k && p->precision == c->prec)
        c->count += gb_store_insert(c->mem, pt) == GB_OK;
    return 0;
}

static char *shape_points(gb_store_t *st, const gb_tune_spec_t *spec)
{
    char msg[256], *text = NULL;
    size_t len = 0, n = 0;
    shape_cache_t c = {NULL, spec->m, spec->n, spec->k, spec->precision, 0};
    if (gb_store_open(&c.mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        return NULL;
    FILE *f = NULL;
    if (gb_store_foreach(st, 1, cache_one, &c) == GB_OK && c.count &&
        (f = open_memstream(&text, &len)) != NULL) {
        gb_store_export_json(c.mem, f, &n);
        fclose(f);
    }
    gb_store_close(c.mem);
    return text;
}

/* Rank 0's main thread: serves the other ranks until each was told to stop (its own devices
 * tune on threads meanwhile). After a stop request it waits 30 s for the runs in flight. */
static int serve_ranks(tuners_t *tu)
{
    gb_store_t *st = NULL;
    int rc = cli_store_open(&st, tu->o->store, 1);
    if (rc)
        return rc;
    char labels[CLI_MAX_DEVICES * 4][160];
    int live = tu->mpi->size - 1;
    double stop_since = 0;
    while (live > 0) {
        int from, tag;
        size_t len;
        char *buf = gb_xp_mpi_poll(&from, &tag, &len);
        if (!buf) {
            if (cli_stop_signal && !stop_since)
                stop_since = cli_now_s();
            if (stop_since && cli_now_s() - stop_since > 30)
                break;
            gb_xp_mpi_idle();
            continue;
        }
        const size_t slot = (size_t)from % (sizeof labels / sizeof labels[0]);
        if (tag == GB_XP_TAG_HELLO) {
            snprintf(labels[slot], sizeof labels[slot], "%s", buf);
        } else if (tag == GB_XP_TAG_ASK) {
            size_t k = 0, s = 0;
            const int work = next_run(tu, 0, &k, &s);
            gb_xp_mpi_answer(from, work, k * tu->runs->nshapes + s);
            live -= !work;
            if (work) {
                /* What the store already holds at that shape: the rank's cache, so that a
                 * candidate measured before is not measured again there either. */
                gb_tune_spec_t spec;
                make_spec(tu, &tu->w[0], k, s, &spec);
                char *cache = shape_points(st, &spec);
                const char *f[] = {cache ? cache : ""};
                gb_xp_mpi_send(f, 1, from, GB_XP_TAG_CHECK);
                free(cache);
            }
        } else if (tag == GB_XP_TAG_RESULT) {
            const int trc = take_remote(tu, st, labels[slot], buf, len);
            if (trc && !rc) {
                rc = trc;
                stop_all(tu);
            }
        }
        free(buf);
    }
    if (live > 0)
        fprintf(stderr,
                "gemmbench: tune: %d rank(s) stopped answering; what they sent is stored; "
                "run the same command again to go on\n",
                live);
    gb_store_close(st);
    return rc;
}

/* A rank other than 0: each run asked of rank 0 is tuned into a store in memory (no file is
 * written here), whose points and winner go back to rank 0. */
static int tune_remote(tuners_t *tu)
{
    tuner_t *w = &tu->w[0];
    const char *hello[] = {w->label};
    gb_xp_mpi_send(hello, 1, 0, GB_XP_TAG_HELLO);
    w->v.mpi = w->v.not_kept = 1;
    size_t r;
    int rc = 0;
    while (gb_xp_mpi_ask(&r)) {
        gb_store_t *mem = NULL;
        gb_tune_spec_t spec;
        gb_tune_outcome_t out;
        char msg[512], idx[32], code[16];
        if (gb_store_open(&mem, ":memory:", GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
            return cli_error(GB_EIO, "%s: %s", w->label, msg);
        make_spec(tu, w, r / tu->runs->nshapes, r % tu->runs->nshapes, &spec);
        int tag;
        size_t clen, added = 0, present = 0;
        char *cache = gb_xp_mpi_recv(0, &tag, &clen);
        if (cache && cache[0] &&
            gb_store_import_json(mem, cache, strlen(cache), "rank 0", &added, &present) != GB_OK)
            fprintf(stderr,
                    "gemmbench: tune: %s: rank 0's points did not read back (%s); "
                    "measuring them again\n",
                    w->label, gb_store_errmsg(mem));
        free(cache);
        memset(&out, 0, sizeof out);
        rc = tune_one(&spec, tu->reg, w->ctx, mem, &w->v, NULL, &out);
        char *points = NULL, *winner = NULL;
        size_t plen = 0, count = 0;
        FILE *f = open_memstream(&points, &plen);
        if (f) {
            gb_store_export_json(mem, f, &count);
            fclose(f);
        }
        gb_tuned_t t;
        gb_tuned_init(&t);
        if (out.have_winner && gb_tuned_add(&t, &out.winner) == GB_OK)
            winner = gb_tuned_to_json(&t);
        gb_tuned_free(&t);
        snprintf(idx, sizeof idx, "%zu", r);
        snprintf(code, sizeof code, "%d", rc);
        const char *fields[] = {idx, code, points ? points : "", winner ? winner : ""};
        gb_xp_mpi_send(fields, 4, 0, GB_XP_TAG_RESULT);
        free(points);
        free(winner);
        gb_store_close(mem);
    }
    return rc;
}

typedef struct tuner_arg {
    tuner_t *w;
    tuners_t *tu;
} tuner_arg_t;

static void *tuner_thread(void *p)
{
    tuner_arg_t *a = p;
    return tuner_loop(a->w, a->tu);
}

/* Every run on every kind of device: the first tuner on this thread, the others on their own. */
static int tuners_run(tuners_t *tu)
{
    if (tu->mpi && tu->mpi->rank > 0)
        return tune_remote(tu);
    const int serving = tu->mpi && tu->mpi->size > 1;
    pthread_t th[CLI_MAX_DEVICES];
    tuner_arg_t args[CLI_MAX_DEVICES];
    size_t nth = 0;
    for (size_t i = serving ? 0 : 1; i < tu->n; i++) {
        args[nth] = (tuner_arg_t){&tu->w[i], tu};
        if (pthread_create(&th[nth], NULL, tuner_thread, &args[nth]) != 0) {
            tu->failed = 1;
            break;
        }
        nth++;
    }
    int rc = 0;
    if (serving)
        rc = serve_ranks(tu);
    else
        tuner_loop(&tu->w[0], tu);
    for (size_t i = 0; i < nth; i++)
        pthread_join(th[i], NULL);
    for (size_t i = 0; i < tu->n && !rc; i++)
        rc = tu->w[i].rc;
    if (!rc && nth + (serving ? 0 : 1) < tu->n)
        rc = cli_error(GB_ENOMEM, "could not start a thread for every device");
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
    gb_plan_t pl;
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
        rc = known_strategy(t.strategy)
                 ? cli_tune_simulate(t.simulate, t.strategy, t.seed, t.budget, o.kpath)
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
    if ((rc = gb_registry_open(&reg, o.kpath, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
        goto done;
    }
    if (runs.nkernels == 1 && !strcmp(runs.kernels[0], "all")) {
        runs_free(&runs);
        memset(&runs, 0, sizeof runs);
        for (size_t i = 0; i < gb_registry_count(reg) && !rc; i++)
            rc = split_kernels(gb_family_name(gb_registry_family(reg, i)), &runs);
        if (rc)
            goto done;
        runs.all = 1;
    }
    if ((rc = cli_devices_open(&dev, &o.sel))) {
        cli_mpi_hint(&mpi);
        goto done;
    }
    if (mpi.started && !o.device_map)
        cli_mpi_device(&dev, &mpi);
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
     * than the lookahead would have nothing to build. Several devices share the cores. */
    const long cores = sysconf(_SC_NPROCESSORS_ONLN), ndev = (long)dev.npicks;
    const long spare = cores > ndev ? (cores - 1) / ndev : 1;
    /* At most 15: on 32 cores, 31 processes cost more in starting (each opens the device) than
     * they build ahead (bench/notes.md, 2026-11-26). */
    const long lookahead = (long)gb_tune_lookahead(t.strategy);
    const long ahead = lookahead < MAX_BUILDERS ? lookahead : MAX_BUILDERS;
    const int cpu = !strcmp(di->type_name, "cpu");
    if (t.builders < 0)
        t.builders = cpu || t.threads >= 0 ? 0 : spare < ahead ? spare : ahead;
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
    if ((rc = tuners_open(&tu, &dev, st)) == 0) {
        char on[1024];
        used = 0;
        gb__appendf(on, sizeof on, &used, "%s (%s)", di->name, di->platform_name);
        if (tu.n > 1) {
            used = 0;
            gb__appendf(on, sizeof on, &used, "%zu devices in %zu kind(s):", tu.n, tu.nkinds);
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
                   t.builders, t.threads, tu.n > 1 || mpi.size > 1 ? " per device" : "",
                   gb_store_path(st));
        fflush(stdout);
        rc = tuners_run(&tu);
        served = 1;
    }
    tuners_close(&tu);
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
