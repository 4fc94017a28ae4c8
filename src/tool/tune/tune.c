/* tune.c: one tuning run (tune.h): propose, build ahead, measure or look up, tell, record; then
 * the leaders re-measured (winner.c) and the winner kept. Candidates are told in the order they
 * were asked, whatever order their builds finish in, so a seed gives one sequence. Each
 * measurement is marked in flight in the store while it runs (src/tool/store/inflight.h), so
 * that a candidate that crashes the process is known to the next one, and watched: its build
 * and compile by one limit, its runs by another. A run taken up again goes on in its row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/util/util.h"
#include "tool/store/inflight.h"
#include "pool.h"
#include "gemmbench_tuning.h"
#include "strategy.h"
#include "tune.h"
#include "candidate.h"
#include "winner.h"

/* One candidate from being asked to being told. */
typedef struct cand {
    gb_space_cand_t c;
    gb_job_t job;
    gb_params_t params;
    gb_build_t build;
    int resolved; /* known without measuring: refused, or found in the store */
    int preset;   /* a seed or preset measured first, not asked of the strategy */
    int seed;     /* a seed: told to the strategy (a preset is not) */
    double score; /* what the strategy is told (objective.h), -1 for one that cannot win */
    /* The id of its definition's first repetition, under which its failures are kept (its job
     * may be a later repetition: objective.h's measurement with energy). */
    char id0[GB_POINT_ID_LEN + 1];
    gb_tune_eval_t ev;
} cand_t;

/* The state of one run. */
typedef struct tuner {
    const gb_tune_spec_t *spec;
    const gb_registry_t *reg;
    const gb_device_info_t *dev;
    gb_context_t *ctx;
    gb_store_t *st;
    const gb_tune_hooks_t *hooks;
    gb_space_t *sp;
    gb_strategy_t *strat;
    gb_pool_t *pool;
    gb_watchdog_t *dog;
    gb_tune_outcome_t *out;
    gb_leaders_t leaders;
    double t0, best;
    char best_params[512];
    size_t asked;
    /* The seeds, then the family's presets, that are in the space (each once), in order: the
     * first nseeds are seeds. */
    gb_space_cand_t *presets;
    size_t npresets, next_preset, nseeds;
    /* What the watchdog is on: the job built or measured and its parameters, and whether its
     * compile is over (its limit is then the runs'). */
    const gb_job_t *flight;
    char flight_params[512];
    volatile int compiled;
    size_t seq;     /* evaluations told */
    size_t resumed; /* evaluations an earlier process recorded in this run (told again) */
} tuner_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int gb_tune_space(const gb_tune_spec_t *spec, const gb_registry_t *reg, const gb_device_info_t *dev,
                  const gb_problem_t *problem, gb_space_t **sp, char *msg, size_t msglen)
{
    *sp = NULL;
    const gb_family_t *f;
    const gb_preset_t *preset;
    if (gb_registry_find(reg, spec->kernel, &f, &preset) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOKERNEL,
                        "unknown kernel '%s'; 'gemmbench kernels' lists the families to tune",
                        spec->kernel);
    if (!gb_family_param_count(f))
        return gb__fail(msg, msglen, GB_EBADPARAM,
                        "kernel family '%s' has no parameters: there is nothing to tune",
                        gb_family_name(f));
    return gb_space_open_for(sp, f, spec->precision, dev, spec->narrow, spec->nnarrow, problem, msg,
                             msglen);
}

/* Fills run's record from the spec and the problem the first job has. */
static void run_record(tuner_t *t, const gb_problem_t *p)
{
    gb_tune_run_t *run = &t->out->run;
    const gb_tune_spec_t *s = t->spec;
    memset(run, 0, sizeof *run);
    gb__copy(run->device, sizeof run->device, t->dev->name);
    gb__copy(run->platform, sizeof run->platform, t->dev->platform_name);
    gb__copy(run->driver, sizeof run->driver, t->dev->driver);
    gb__copy(run->kernel, sizeof run->kernel, gb_family_name(gb_space_family(t->sp)));
    run->precision = s->precision;
    gb_tuned_layout_key(p, run->layout, sizeof run->layout); /* the entry's key: C under T */
    run->m = s->m;
    run->n = s->n;
    run->k = s->k;
    gb_shape_class(s->m, s->n, s->k, run->shape_class, sizeof run->shape_class);
    gb__copy(run->strategy, sizeof run->strategy, s->strategy);
    run->seed = s->seed;
    run->budget = s->budget;
    run->time_s = s->time_s;
    run->space = gb_space_count(t->sp);
    snprintf(run->status, sizeof run->status, "running");
    gb__copy(run->command, sizeof run->command, s->command ? s->command : "");
}

/* Candidate c's evaluation from its stored point: its rate, and its score under the spec's
 * objective, or why it cannot win. */
static void score(const tuner_t *t, cand_t *c, const gb_point_t *pt)
{
    gb_tune_eval_t *ev = &c->ev;
    gb_objective_score(t->spec->objective, pt, &c->score, &ev->code, ev->reason, sizeof ev->reason);
    ev->gflops = ev->code == GB_OK ? pt->result.gflops : -1;
}

/* A stored point of candidate c's that counts under the spec's objective, into pt: under time
 * its first repetition; under energy or EDP the first of its repetitions that has energy, and
 * where none has, c's job made the first repetition not yet stored (to be measured). 1 found,
 * 0 not, or GB_ENOMEM. */
static int lookup(tuner_t *t, cand_t *c, gb_point_t *pt)
{
    if (!gb_objective_needs_energy(t->spec->objective))
        return gb_store_get(t->st, c->job.id, pt) == GB_OK;
    /* A bound on the repetitions looked through: a candidate measured that often without
     * energy is measured once more, stored beside them. */
    for (unsigned rep = 0; rep < 64; rep++) {
        gb_job_t job;
        if (rep && gb_tune__job(t->spec, t->reg, t->dev, &c->params, rep, &job) != GB_OK)
            return GB_ENOMEM;
        if (gb_store_get(t->st, rep ? job.id : c->job.id, pt) != GB_OK) {
            if (rep)
                c->job = job;
            return 0;
        }
        if (pt->result.gflops_per_watt > 0)
            return 1;
        gb_point_free(pt);
        gb_point_init(pt);
    }
    return 0;
}

/* A candidate refused before its point could be defined (a constraint on the problem's sizes,
 * checked before the route is planned) has no point id; its evaluation is still recorded, under
 * an id of its kernel, parameters and problem (FNV-1a, 16 hex digits like a point's; no point
 * has it). */
static void refused_id(const tuner_t *t, cand_t *c)
{
    const gb_problem_t *p = &c->job.problem;
    char key[1024];
    const int n = snprintf(key, sizeof key, "refused %s %s %d %zux%zux%zu %d%d%d",
                           t->out->run.kernel, c->ev.params, (int)p->precision, p->m, p->n, p->k,
                           (int)p->layout, (int)p->trans_a, (int)p->trans_b);
    const uint64_t h = gb__fnv1a64(key, n > 0 ? (size_t)n : 0, 14695981039346656037ull);
    snprintf(c->job.id, sizeof c->job.id, "%016llx", (unsigned long long)h);
}

/* Asks the strategy for one more candidate and makes its job; looks it up in the store; queues
 * its build when it must be measured. NULL when the strategy, the budget or the time is spent. */
static cand_t *propose(tuner_t *t, int *rc)
{
    const gb_tune_spec_t *s = t->spec;
    *rc = GB_OK;
    const int preset = t->next_preset < t->npresets;
    if (!preset &&
        ((s->budget && t->asked >= s->budget) || (s->time_s > 0 && now_s() - t->t0 >= s->time_s)))
        return NULL;
    cand_t *c = calloc(1, sizeof *c);
    if (!c) {
        *rc = GB_ENOMEM;
        return NULL;
    }
    if (preset) {
        c->seed = t->next_preset < t->nseeds;
        c->c = t->presets[t->next_preset++];
        c->preset = 1;
    } else if (!gb_strategy_ask(t->strat, &c->c)) {
        free(c);
        return NULL;
    } else {
        t->asked++;
    }
    gb_space_params(t->sp, &c->c, &c->params);
    if ((*rc = gb_tune__job(s, t->reg, t->dev, &c->params, 0, &c->job)) != GB_OK) {
        free(c);
        return NULL;
    }
    gb_tune_eval_t *ev = &c->ev;
    c->score = -1;
    gb_tune__params_text(&c->params, ev->params, sizeof ev->params);
    if (c->job.code != GB_OK && !c->job.id[0])
        refused_id(t, c);
    memcpy(c->id0, c->job.id, sizeof c->id0);
    if (c->job.code != GB_OK) { /* refused before anything runs (a per-problem constraint) */
        memcpy(ev->point_id, c->job.id, sizeof ev->point_id);
        c->resolved = 1;
        ev->code = c->job.code;
        ev->gflops = -1;
        gb__copy(ev->reason, sizeof ev->reason, c->job.why);
        return c;
    }
    gb_point_t pt;
    gb_point_init(&pt);
    gb_tune_failure_t f;
    const int found = lookup(t, c, &pt);
    memcpy(ev->point_id, found == 1 ? pt.id : c->job.id, sizeof ev->point_id);
    if (found < 0) {
        *rc = found;
    } else if (found) {
        c->resolved = ev->cached = 1;
        score(t, c, &pt);
        if (ev->code == GB_OK && gb_leaders_add(&t->leaders, &c->params, c->score) != GB_OK)
            *rc = GB_ENOMEM;
    } else if (gb_store_failure_get(t->st, c->id0, &f) == GB_OK) {
        c->resolved = ev->cached = 1;
        ev->code = f.code;
        ev->gflops = -1;
        gb__copy(ev->reason, sizeof ev->reason, f.reason);
    } else if (t->pool) {
        c->build.job = &c->job;
        gb_pool_submit(t->pool, &c->build);
    }
    gb_point_free(&pt);
    return c;
}

/* Records a candidate that cannot win, so that no later tuning tries it again. Refusals that
 * the space or the job already know are not recorded: they cost nothing to find again. */
static int record_failure(tuner_t *t, const cand_t *c)
{
    /* A measurement without energy is not the candidate's fault: a later tuning may have it. */
    if (c->ev.code == GB_ENOENERGY)
        return GB_OK;
    gb_tune_failure_t f;
    memset(&f, 0, sizeof f);
    memcpy(f.id, c->id0, sizeof f.id);
    gb__copy(f.kernel, sizeof f.kernel, t->out->run.kernel);
    gb__copy(f.params, sizeof f.params, c->ev.params);
    f.code = c->ev.code;
    gb__copy(f.reason, sizeof f.reason, c->ev.reason);
    return gb_store_failure_put(t->st, &f);
}

/* The limit on a build and on a first call that compiles. */
static double compile_limit(const tuner_t *t)
{
    const gb_tune_spec_t *s = t->spec;
    return s->compile_timeout_s > 0 ? s->compile_timeout_s : 10 * s->candidate_timeout_s;
}

/* Does a candidate's first call compile? On a CPU device PoCL compiles a kernel's work-group
 * function at its first launch, seconds that once counted against --candidate-timeout (5 of 9
 * candidates timed out under load); without builders the program is built in the measurement. */
static int first_call_compiles(const tuner_t *t)
{
    return !t->pool || !strcmp(t->dev->type_name, "cpu");
}

/* The watchdog's alarm: the candidate is recorded as timed out and its mark cleared, then the
 * hook ends the process. Its run stays "running", marked in flight by this process image: the
 * next image, started by the hook, finds it dead and takes it up again. */
static void on_timeout(void *user)
{
    tuner_t *t = user;
    const gb_job_t *job = t->flight;
    char msg[512];
    gb_store_t *st = NULL;
    gb_tune_failure_t f;
    memset(&f, 0, sizeof f);
    memcpy(f.id, job->id, sizeof f.id);
    gb__copy(f.kernel, sizeof f.kernel, t->out->run.kernel);
    gb__copy(f.params, sizeof f.params, t->flight_params);
    f.code = GB_ETIMEOUT;
    if (t->compiled)
        snprintf(f.reason, sizeof f.reason, "still running after --candidate-timeout %g s",
                 t->spec->candidate_timeout_s);
    else
        snprintf(f.reason, sizeof f.reason,
                 "still building or compiling (its first call) after --compile-timeout %g s",
                 compile_limit(t));
    /* A connection of its own: the measuring thread may hold the other one. */
    if (gb_store_open(&st, gb_store_path(t->st), 0, msg, sizeof msg) == GB_OK) {
        gb_store_failure_put(st, &f);
        gb_store_inflight_end(st, job->id);
        gb_store_close(st);
    }
    gb_pool_kill(t->pool); /* no build process outlives the exec, nor stays its zombie */
    t->hooks->timed_out(&f, t->hooks->user);
}

/* From the measuring thread, once the first call has ended: the runs' limit from here. */
static void first_call_done(void *user)
{
    tuner_t *t = user;
    t->compiled = 1;
    gb_watchdog_arm(t->dog, t->spec->candidate_timeout_s);
}

/* Measures job (a configuration whose parameters are params) and stores it, as gb_job_measure
 * with GB_JOB_KEEP_NEW, marked in flight meanwhile and watched: the compile's limit until the
 * end of a first call that compiles, the runs' after. gb_job_measure's codes. Also how the
 * leaders' repetitions are measured (gb_leaders_measure_fn). */
static int measure_job(void *user, const gb_job_t *job, const char *params, gb_point_t *pt,
                       char *msg, size_t msglen)
{
    tuner_t *t = user;
    char desc[512];
    gb_job_describe(job, desc, sizeof desc);
    if (t->hooks && t->hooks->measuring)
        t->hooks->measuring(desc, t->hooks->user);
    if (gb_store_inflight_begin(t->st, job->id, t->out->run.kernel, params, desc) != GB_OK)
        return gb__fail(msg, msglen, GB_JOB_ESTORE, "%s", gb_store_errmsg(t->st));
    gb_job_t watched = *job;
    t->flight = job;
    gb__copy(t->flight_params, sizeof t->flight_params, params);
    if (first_call_compiles(t)) {
        t->compiled = 0;
        watched.bench.first_call_done = first_call_done;
        watched.bench.first_call_user = t;
        gb_watchdog_arm(t->dog, compile_limit(t));
    } else {
        t->compiled = 1;
        gb_watchdog_arm(t->dog, t->spec->candidate_timeout_s);
    }
    int rc = gb_job_measure(&watched, t->ctx, t->st, GB_JOB_KEEP_NEW, pt, msg, msglen);
    gb_watchdog_disarm(t->dog);
    if (gb_store_inflight_end(t->st, job->id) != GB_OK && (rc == GB_OK || rc == 1))
        rc = gb__fail(msg, msglen, GB_JOB_ESTORE, "%s", gb_store_errmsg(t->st));
    return rc;
}

/* Measures a candidate that is not in the store (its build done or never queued). GB_OK with
 * its evaluation filled, or an error that ends the run. */
static int measure(tuner_t *t, cand_t *c)
{
    gb_tune_eval_t *ev = &c->ev;
    /* The compile's limit covers waiting for the candidate's build: a compiler can take
     * minutes. */
    t->flight = &c->job;
    gb__copy(t->flight_params, sizeof t->flight_params, ev->params);
    t->compiled = 0;
    gb_watchdog_arm(t->dog, compile_limit(t));
    gb_pool_wait(t->pool, &c->build);
    char msg[2048];
    if (gb_pool_note(t->pool, msg, sizeof msg) && t->hooks && t->hooks->note)
        t->hooks->note(msg, t->hooks->user);
    if (t->pool && c->build.rc != GB_OK) {
        gb_watchdog_disarm(t->dog);
        if (c->build.rc == GB_ENOMEM)
            return GB_ENOMEM;
        ev->code = c->build.rc;
        ev->gflops = -1;
        gb__copy(ev->reason, sizeof ev->reason, c->build.msg);
        return record_failure(t, c);
    }
    gb_point_t pt;
    gb_point_init(&pt);
    int rc = measure_job(t, &c->job, ev->params, &pt, msg, sizeof msg);
    if (rc == GB_OK || rc == 1) {
        if (rc == 1) /* another process stored it meanwhile: take the stored one */
            gb_store_get(t->st, c->job.id, &pt);
        score(t, c, &pt);
        rc = ev->code == GB_OK ? gb_leaders_add(&t->leaders, &c->params, c->score) : GB_OK;
        if (rc == GB_OK && ev->code != GB_OK)
            rc = record_failure(t, c);
    } else if (rc == GB_ENOMEM || rc == GB_JOB_ESTORE) {
        gb__copy(ev->reason, sizeof ev->reason, msg);
        rc = rc == GB_ENOMEM ? GB_ENOMEM : GB_ESTORE;
    } else {
        ev->code = rc;
        ev->gflops = -1;
        gb__copy(ev->reason, sizeof ev->reason, msg);
        rc = record_failure(t, c);
    }
    gb_point_free(&pt);
    return rc;
}

/* Tells the strategy, records the evaluation, reports progress. */
static int conclude(tuner_t *t, cand_t *c)
{
    gb_tune_eval_t *ev = &c->ev;
    gb_tune_outcome_t *out = t->out;
    if (!c->preset || c->seed) /* a seed tells the strategy where good configurations are */
        gb_strategy_tell(t->strat, &c->c, c->score);
    if (c->score > t->best) {
        t->best = c->score;
        gb__copy(t->best_params, sizeof t->best_params, ev->params);
    }
    ev->run_id = out->run.id;
    ev->seq = t->seq++;
    ev->best = t->best;
    ev->elapsed_s = now_s() - t->t0;
    if (ev->cached)
        out->cached++;
    else if (ev->code == GB_OK)
        out->measured++;
    if (ev->code != GB_OK)
        out->failed++;
    /* A run taken up again has its first evaluations recorded already: told again here from
     * the store (the same seed, the same scores, the same sequence), not recorded twice. */
    out->run.evals = t->seq > t->resumed ? t->seq : t->resumed;
    if (ev->seq >= t->resumed && gb_store_tune_eval_add(t->st, ev) != GB_OK)
        return GB_ESTORE;
    if (t->hooks && t->hooks->progress) {
        gb_tune_progress_t p = {.run = &out->run,
                                .last = ev,
                                .evals = t->seq,
                                .resumed = t->resumed,
                                .best = t->best,
                                .score = c->score,
                                .objective = t->spec->objective,
                                .elapsed_s = ev->elapsed_s};
        const uint64_t space = gb_space_count(t->sp);
        /* The presets come besides the strategy's evaluations, the whole space's too. */
        p.planned = t->spec->budget && t->spec->budget < space ? t->spec->budget + t->npresets
                    : t->spec->time_s > 0                      ? 0
                                                               : (size_t)space + t->npresets;
        gb__copy(p.best_params, sizeof p.best_params, t->best_params);
        t->hooks->progress(&p, t->hooks->user);
    }
    return GB_OK;
}

static int stopped(const tuner_t *t)
{
    return t->hooks && t->hooks->stop && *t->hooks->stop;
}

size_t gb_tune_lookahead(const char *strategy)
{
    return gb_strategy_learns(strategy) ? GB_TUNE_LOOKAHEAD : GB_TUNE_LOOKAHEAD_BLIND;
}

/* The search: candidates asked up to the strategy's lookahead ahead, told in order. Without
 * builders (no pool: the default on a CPU device) nothing is built ahead, so a candidate asked
 * ahead would only have been chosen without the latest scores: each is asked once the one
 * before it is told. */
static int search(tuner_t *t)
{
    cand_t *ring[GB_TUNE_LOOKAHEAD_BLIND];
    const size_t ahead = t->pool ? gb_tune_lookahead(t->spec->strategy) : 1;
    size_t head = 0, count = 0;
    int rc = GB_OK, spent = 0, ready = 0;
    while (rc == GB_OK && !stopped(t)) {
        while (!spent && count < ahead) {
            cand_t *c = propose(t, &rc);
            if (!c) {
                spent = 1;
                break;
            }
            ring[(head + count++) % ahead] = c;
        }
        if (rc != GB_OK || !count)
            break;
        cand_t *c = ring[head];
        /* The inputs and their reference (a second at 4096) while the first builds run; the
         * measurement makes them itself, and says why, if this could not. */
        if (!c->resolved && !ready++)
            gb_bench_inputs_ready(t->ctx, &c->job.problem, &c->job.bench);
        if (!c->resolved)
            rc = measure(t, c);
        if (rc == GB_OK && !stopped(t))
            rc = conclude(t, c);
        else if (rc == GB_OK)
            break; /* stopped while measuring: the point is stored, not told */
        head = (head + 1) % ahead;
        count--;
        free(c);
    }
    /* This run's builds still queued are cancelled, those running finish, before their jobs
     * go; the builders of the caller's pool stay for its next run (and may be building another
     * device's candidates meanwhile). */
    for (size_t i = 0; i < count; i++)
        gb_pool_cancel(t->pool, &ring[(head + i) % ahead]->build);
    if (!t->spec->pool) {
        gb_pool_close(t->pool);
        t->pool = NULL;
    }
    for (size_t i = 0; i < count; i++)
        free(ring[(head + i) % ahead]);
    return rc;
}

/* Adds configuration ps to the starting points unless it is not one of the space or is there
 * already. */
static void add_start(tuner_t *t, const gb_params_t *ps)
{
    gb_space_cand_t c;
    if (gb_space_find(t->sp, ps, &c) != GB_OK || gb_space_rank(t->sp, &c) == UINT64_MAX)
        return;
    for (size_t k = 0; k < t->npresets; k++)
        if (gb_space_rank(t->sp, &t->presets[k]) == gb_space_rank(t->sp, &c))
            return;
    t->presets[t->npresets++] = c;
}

/* The starting points, measured before the strategy's candidates: the spec's seeds, then the
 * family's presets for the precision (the hand-picked configurations, unless spec->presets is
 * 0), each that is a valid configuration of the (narrowed) space, so that a tuning never keeps
 * worse than the best of them. */
static int collect_presets(tuner_t *t)
{
    const gb_family_t *f;
    const gb_preset_t *unused;
    if (gb_registry_find(t->reg, t->spec->kernel, &f, &unused) != GB_OK)
        return GB_OK;
    const size_t n = (t->spec->presets ? gb_family_preset_count(f) : 0) + t->spec->nseeds;
    if (!n || !(t->presets = calloc(n, sizeof *t->presets)))
        return n ? GB_ENOMEM : GB_OK;
    for (size_t i = 0; i < t->spec->nseeds; i++)
        add_start(t, &t->spec->seeds[i]);
    t->nseeds = t->out->seeds = t->npresets;
    for (size_t i = 0; t->spec->presets && i < gb_family_preset_count(f); i++) {
        const gb_preset_t *p = gb_family_preset(f, i);
        if (!(p->precisions & (1u << t->spec->precision)))
            continue;
        gb_params_t ps;
        memset(&ps, 0, sizeof ps);
        int ok = 1;
        for (size_t j = 0; j < p->nset && ok; j++)
            ok = gb_params_set(&ps, p->set_names[j], p->set_values[j]) == GB_OK;
        if (ok)
            add_start(t, &ps);
    }
    return GB_OK;
}

int gb_tune_run(gb_tune_outcome_t *out, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                gb_context_t *ctx, gb_store_t *st, const gb_tune_hooks_t *hooks, char *msg,
                size_t msglen)
{
    memset(out, 0, sizeof *out);
    msg[0] = '\0';
    tuner_t t = {.spec = spec,
                 .reg = reg,
                 .dev = gb_context_device(ctx),
                 .ctx = ctx,
                 .st = st,
                 .hooks = hooks,
                 .out = out,
                 .best = -1};
    gb_leaders_init(&t.leaders);
    /* The problem as the jobs will have it (the family's layout unless one was given); the space
     * bound to it, so that the strategy never proposes what its sizes refuse. */
    gb_job_t probe;
    gb_params_t none = {0};
    int rc = gb_tune__job(spec, reg, t.dev, &none, 0, &probe);
    if (rc != GB_OK)
        gb__fail(msg, msglen, rc, "out of memory");
    if (rc == GB_OK)
        rc = gb_tune_space(spec, reg, t.dev, &probe.problem, &t.sp, msg, msglen);
    if (rc == GB_OK)
        rc = gb_strategy_open(&t.strat, spec->strategy, t.sp, spec->seed, msg, msglen);
    if (rc == GB_OK && (spec->presets || spec->nseeds) && (rc = collect_presets(&t)) != GB_OK)
        gb__fail(msg, msglen, rc, "out of memory");
    if (rc == GB_OK && spec->pool)
        t.pool = spec->pool;
    else if (rc == GB_OK)
        rc = gb_pool_open(&t.pool, ctx, spec->threads, spec->builders, spec->builder_argv, msg,
                          msglen);
    if (rc == GB_OK && spec->candidate_timeout_s > 0 && hooks && hooks->timed_out &&
        gb_watchdog_open(&t.dog, on_timeout, &t) != GB_OK)
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    if (rc == GB_OK) {
        run_record(&t, &probe.problem);
        if (gb_store_tune_run_take(st, &out->run, &t.resumed, out->resumed_status,
                                   sizeof out->resumed_status) != GB_OK)
            rc = gb__fail(msg, msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
        out->resumed = t.resumed;
        out->run.evals = t.resumed;
    }
    if (rc != GB_OK)
        goto done;
    t.t0 = now_s();
    rc = search(&t);
    if (rc == GB_OK && !stopped(&t))
        rc = gb_leaders_confirm(&t.leaders, spec, reg, ctx, st, measure_job, &t, hooks, out, msg,
                                msglen);
    if (rc == GB_OK && !stopped(&t) && out->have_winner)
        rc = gb_leaders_keep(st, out, msg, msglen);
    snprintf(out->run.status, sizeof out->run.status, "%s",
             rc != GB_OK   ? "failed"
             : stopped(&t) ? "interrupted"
                           : "done");
    if (gb_store_tune_run_end(st, &out->run) != GB_OK && rc == GB_OK)
        rc = gb__fail(msg, msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
    if (rc == GB_ESTORE && !msg[0])
        gb__fail(msg, msglen, rc, "%s", gb_store_errmsg(st));
    else if (rc == GB_ENOMEM && !msg[0])
        gb__fail(msg, msglen, rc, "out of memory");
done:
    if (!spec->pool)
        gb_pool_close(t.pool);
    gb_watchdog_close(t.dog);
    gb_leaders_free(&t.leaders);
    free(t.presets);
    gb_strategy_close(t.strat);
    gb_space_close(t.sp);
    return rc;
}
