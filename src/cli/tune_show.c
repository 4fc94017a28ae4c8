/* tune_show.c: the tuning runs as `gemmbench tune` shows them, through the tuners' hooks
 * (src/tool/tune/tuners.h): each run's progress (a bar on a terminal, else a line per
 * evaluation, with the device's label where several devices or ranks print), its closing lines
 * and --record, the restart after a candidate that does not end, and what rank 0 hears from
 * the other ranks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tune_cli.h"
#include "tune_spaces.h"

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
    char unit[48] = "", score[64] = "";
    if (p->objective != GB_OBJ_TIME) {
        snprintf(unit, sizeof unit, " %s", gb_objective_unit(p->objective));
        snprintf(score, sizeof score, ", %.4g%s", p->score, unit);
    }
    if (e->code == GB_OK)
        snprintf(line, sizeof line, "%.4g GFLOP/s%s%s; best %.4g%s (%s); %s", e->gflops, score,
                 e->cached ? " (stored)" : "", p->best, unit, p->best_params, eta);
    else
        snprintf(line, sizeof line, "cannot win: %s: %.200s%s; best %.4g; %s", gb_errname(e->code),
                 e->reason, e->cached ? " (stored)" : "", p->best, eta);
    char head[64];
    snprintf(head, sizeof head, "%zu/%s", p->evals, p->planned ? "" : "?");
    if (p->planned)
        snprintf(head, sizeof head, "%zu/%zu", p->evals, p->planned);
    char who[200];
    /* Taken over from a process that stopped on a candidate past its limit or a crash: the
     * evaluations it recorded were shown by it. */
    const int shown = v->restarted && e->seq < p->resumed;
    view_lock(v);
    if (!v->pr.tty && !shown) {
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
    /* Which limit: its runs', or its build's and compile's. */
    const char *limit =
        strstr(f->reason, "--compile-timeout") ? "--compile-timeout" : "--candidate-timeout";
    cli_progress_end(&v->pr);
    fflush(stdout);
    if (restarts >= 100) {
        fprintf(stderr,
                "gemmbench: tune: %s %s ran past %s; recorded as timed out; 100 restarts "
                "already: stopping (run the same command again)\n",
                f->kernel, f->params, limit);
        _exit(EXIT_RUNTIME);
    }
    if (v->mpi) {
        /* A new process would not be one of the MPI job's ranks. */
        fprintf(stderr,
                "gemmbench: tune: %s %s ran past %s; recorded as timed out; the MPI job ends: "
                "run the same command again to go on\n",
                f->kernel, f->params, limit);
        _exit(EXIT_RUNTIME);
    }
    fprintf(stderr,
            "gemmbench: tune: %s %s ran past %s (%s); recorded as timed out; going on in a new "
            "process\n",
            f->kernel, f->params, limit, f->reason);
    char n[32];
    snprintf(n, sizeof n, "%ld", restarts + 1);
    setenv("GEMMBENCH_TUNE_RESTARTS", n, 1);
    execv("/proc/self/exe", v->argv);
    fprintf(stderr, "gemmbench: tune: cannot restart: run the same command again\n");
    _exit(EXIT_RUNTIME);
}

static void on_starting(const gb_tune_spec_t *spec, void *user)
{
    view_t *v = user;
    cli_progress_start(&v->pr, spec->budget);
    if (v->label)
        v->pr.tty = 0; /* several devices or ranks: plain lines, each with its label */
    if (!v->refresh)
        return;
    char who[200], cls[32], layout[16];
    view_lock(v);
    printf("%srefresh: %s %s %s: %s at %zux%zux%zu, %zu seed(s)\n", view_head(v, who, sizeof who),
           gb_precision_name(spec->precision),
           gb_problem_layout_tag(spec->base, layout, sizeof layout),
           gb_shape_class(spec->m, spec->n, spec->k, cls, sizeof cls), spec->kernel, spec->m,
           spec->n, spec->k, spec->nseeds);
    fflush(stdout);
    view_unlock(v);
}

/* A run's closing lines, and --record. */
static int on_finished(const gb_tune_spec_t *spec, int rc, const char *msg,
                       const gb_tune_outcome_t *po, gb_store_t *st, const gb_device_info_t *dev,
                       void *user)
{
    view_t *v = user;
    cli_progress_end(&v->pr);
    char el[32], who[200];
    view_lock(v);
    view_head(v, who, sizeof who);
    if (rc != GB_OK) {
        rc = cli_error(rc == GB_ESTORE ? GB_EIO : rc, "%s%s", who, msg);
        view_unlock(v);
        return rc;
    }
    /* A run its predecessor ended (before a candidate past its limit or a crash) was shown by
     * it: gone over again from the store, it says nothing new. */
    const int shown = v->restarted && !strcmp(po->resumed_status, "done");
    if (shown) {
        view_unlock(v);
        return cli_stop_signal ? 128 + cli_stop_signal : EXIT_OK;
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
        printf("%s  no winner: no candidate passed validation with a faithful result (at the tuned "
               "shape and, for a leader, its class's other shapes)\n",
               who);
    }
    fflush(stdout);
    view_unlock(v);
    if (v->record && (rc = cli_tune_record(v->record, spec, v->reg, dev, st, &po->run)) != 0)
        return rc;
    return cli_stop_signal ? 128 + cli_stop_signal : EXIT_OK;
}

/* ---- rank 0 under MPI: what the other ranks send --------------------------------------------- */

static void on_new_kind(const char *label, const char *driver, const char *platform, void *user)
{
    tune_show_t *s = user;
    pthread_mutex_lock(&s->lock);
    printf("[%s] a kind of its own (%s, %s): tunes every run\n", label, driver, platform);
    fflush(stdout);
    pthread_mutex_unlock(&s->lock);
}

static int on_stored(const char *label, int rc, const char *msg, const gb_tune_outcome_t *out,
                     void *user)
{
    tune_show_t *s = user;
    char who[200];
    pthread_mutex_lock(&s->lock);
    snprintf(who, sizeof who, "[%s] ", label);
    if (rc != GB_OK)
        rc = cli_error(GB_EIO, "%s%s", who, msg);
    else if (out->have_winner)
        printf("%s  tuning database: %s\n", who, out->kept_why);
    fflush(stdout);
    pthread_mutex_unlock(&s->lock);
    return rc;
}

static void on_warn(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "gemmbench: tune: %s\n", msg);
}

static int on_fail(int code, const char *msg, void *user)
{
    (void)user;
    return cli_error(code, "%s", msg);
}

void cli_tune_show(tune_show_t *s, const gb_tuners_t *tu, const gb_fleet_mpi_t *mpi, char **argv,
                   const char *record, const gb_registry_t *reg, gb_tuners_hooks_t *hooks)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    const size_t n = gb_tuners_count(tu);
    for (size_t i = 0; i < n && i < CLI_MAX_DEVICES; i++) {
        view_t *v = &s->v[i];
        v->argv = argv;
        v->mpi = mpi->started;
        v->restarted = getenv("GEMMBENCH_TUNE_RESTARTS") != NULL;
        v->not_kept = mpi->rank > 0;
        v->record = record;
        v->reg = reg;
        if (n > 1 || mpi->size > 1) {
            v->label = gb_tuners_label(tu, i);
            v->lock = &s->lock;
        }
        s->users[i] = v;
    }
    *hooks = (gb_tuners_hooks_t){.run = {.measuring = on_measuring,
                                         .progress = on_progress,
                                         .note = on_note,
                                         .timed_out = on_timed_out,
                                         .stop = &cli_stop_signal},
                                 .users = s->users,
                                 .starting = on_starting,
                                 .finished = on_finished,
                                 .new_kind = on_new_kind,
                                 .stored = on_stored,
                                 .warn = on_warn,
                                 .fail = on_fail,
                                 .user = s};
}

void cli_tune_show_done(tune_show_t *s)
{
    pthread_mutex_destroy(&s->lock);
}
