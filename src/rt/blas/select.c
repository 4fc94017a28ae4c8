/* select.c: the choice by measurement at first sight of a shape (gemmbench_blas.h,
 * gb_blas_set_select; docs/library.md, "How the kernel is chosen"). The tuning database gives a
 * new problem a portfolio of candidates (gb_tuned_portfolio); a choice measured before for the
 * same device, exact shape and portfolio is taken from the choices file; else, where the mode
 * says so, every candidate runs on buffers of the handle's own, in any precision (inputs made
 * on the device, which the host computes too), is checked on a sample of C's elements against
 * the validation's bound and faithful verdict (trial.c), and is timed in rounds within a budget;
 * the fastest that passed wins and is appended to the choices file. The caller's buffers are
 * never touched: its call then runs once, with the winner. Configurations refused on the handle
 * (they did not build or fit here: choose.c) are left out of every portfolio. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "trial.h"

#define ROUNDS 3          /* timed rounds; a candidate's time is its median */
#define DROP_AFTER 1.5    /* slower than this times the best after the first round: dropped */
#define CALLS_BUDGET 20.0 /* the budget in the shape's own calls, at least the floor below */
#define FLOOR_GPU_MS 100.0
#define FLOOR_CPU_MS 1000.0

/* One candidate as measured. */
typedef struct cand {
    gb_config_t cfg;
    int ready, passed, alive;
    double t1, times[ROUNDS], ms;
    char why[160]; /* why it was left out, where it was */
} cand_t;

int gb_blas__select_parse(const char *s, int *mode)
{
    static const struct {
        const char *name;
        int mode;
    } names[] = {{"off", GB_BLAS_SELECT_OFF},
                 {"cached", GB_BLAS_SELECT_CACHED},
                 {"measure", GB_BLAS_SELECT_MEASURE},
                 {"measure+build", GB_BLAS_SELECT_MEASURE | GB_BLAS_SELECT_BUILD}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(s, names[i].name)) {
            *mode = names[i].mode;
            return GB_OK;
        }
    return GB_EBADARG;
}

/* ---- timing ------------------------------------------------------------------------------------ */

/* reps calls of plan pl back to back, then a wait: the time of one, in ms, or -1 on failure. */
static double timed(gb_blas_trial_t *b, gb_blas_plan_t *pl, unsigned reps)
{
    const double t0 = gb__now_ms();
    for (unsigned r = 0; r < reps; r++)
        if (gb_blas__run(b->h, pl, (gb_blas_scalar_t){b->p->alpha, b->p->alpha_im},
                         (gb_blas_scalar_t){b->p->beta, b->p->beta_im}, b->buf, b->s, 0, NULL,
                         NULL) != GB_OK)
            return -1;
    if (clFinish(b->q) != CL_SUCCESS)
        return -1;
    return (gb__now_ms() - t0) / reps;
}

static int by_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Each ready candidate once on fresh inputs, checked; then the rounds within the budget. */
static void measure(gb_blas_trial_t *b, cand_t *c, size_t n, gb_blas_plan_t **plans)
{
    double best1 = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        if (!plans[i])
            continue;
        /* The first call warms up (a CPU device compiles for the work-group size at its
         * first launch) and is checked; the second is timed, to size the rounds. */
        if ((!gb__beta_zero(b->p) && gb_blas__trial_fill_c(b) != GB_OK) ||
            timed(b, plans[i], 1) < 0) {
            snprintf(c[i].why, sizeof c[i].why, "it failed to run");
            continue;
        }
        c[i].passed = gb_blas__trial_check(b, c[i].why, sizeof c[i].why);
        if (c[i].passed && (c[i].t1 = timed(b, plans[i], 1)) < 0) {
            c[i].passed = 0;
            snprintf(c[i].why, sizeof c[i].why, "it failed to run");
        }
        c[i].alive = c[i].passed;
        if (c[i].alive && c[i].t1 < best1)
            best1 = c[i].t1;
    }
    if (best1 == HUGE_VAL)
        return;
    const double floor = !strcmp(b->h->dev.type_name, "cpu") ? FLOOR_CPU_MS : FLOOR_GPU_MS;
    const double budget = CALLS_BUDGET * best1 > floor ? CALLS_BUDGET * best1 : floor;
    for (int r = 0; r < ROUNDS; r++) {
        size_t alive = 0;
        for (size_t i = 0; i < n; i++)
            alive += (size_t)c[i].alive;
        double best = HUGE_VAL;
        for (size_t i = 0; i < n; i++) {
            if (!c[i].alive)
                continue;
            const double share = budget / (ROUNDS * (double)alive);
            const double want = share / c[i].t1;
            const unsigned reps = want < 1 ? 1 : want > 1000 ? 1000 : (unsigned)want;
            c[i].times[r] = timed(b, plans[i], reps);
            if (c[i].times[r] < 0) {
                c[i].alive = 0;
                snprintf(c[i].why, sizeof c[i].why, "it failed to run");
            } else if (c[i].times[r] < best) {
                best = c[i].times[r];
            }
        }
        for (size_t i = 0; r == 0 && i < n; i++)
            if (c[i].alive && c[i].times[0] > DROP_AFTER * best) {
                c[i].alive = 0;
                c[i].ms = c[i].times[0];
                snprintf(c[i].why, sizeof c[i].why, "%.2fx the best's time", c[i].times[0] / best);
            }
    }
    for (size_t i = 0; i < n; i++)
        if (c[i].alive) {
            double t[ROUNDS];
            memcpy(t, c[i].times, sizeof t);
            qsort(t, ROUNDS, sizeof t[0], by_double);
            c[i].ms = t[ROUNDS / 2];
        }
}

/* ---- the background builds ----------------------------------------------------------------------- */

typedef struct build_job {
    gb_blas_t *h;
    gb_problem_t p;
    gb_blas_plan_key_t key;
    gb_config_t cfg[GB_PORTFOLIO_MAX];
    size_t n;
} build_job_t;

static void *build_main(void *arg)
{
    build_job_t *job = arg;
    for (size_t i = 0; i < job->n; i++) {
        gb_blas_plan_t *pl;
        if (gb_blas__plan_build(job->h, &job->p, &job->cfg[i], &pl) == GB_OK)
            gb_blas__plan_put(job->h, pl);
    }
    /* The shape's provisional plan goes: its next call measures again, with these built. */
    gb_blas__plan_drop(job->h, &job->key);
    free(job);
    return NULL;
}

/* Builds the candidates that were not ready on a thread of the handle's (joined by
 * gb_blas_close). Nothing when the thread cannot start. */
static void build_later(gb_blas_t *h, const gb_problem_t *p, const cand_t *c, size_t n)
{
    build_job_t *job = calloc(1, sizeof *job);
    if (!job)
        return;
    job->h = h;
    job->p = *p;
    gb_blas__key(p, &job->key);
    for (size_t i = 0; i < n; i++)
        if (!c[i].ready)
            job->cfg[job->n++] = c[i].cfg;
    pthread_mutex_lock(&h->lock);
    pthread_t t;
    if (gb__grow(&h->builders, &h->capbuilders, h->nbuilders + 1, sizeof *h->builders) == GB_OK &&
        pthread_create(&t, NULL, build_main, job) == 0) {
        h->builders[h->nbuilders++] = t;
        job = NULL;
    }
    pthread_mutex_unlock(&h->lock);
    free(job);
}

/* ---- the choice ---------------------------------------------------------------------------------- */

/* The portfolio's digest: a new set of candidates (new entries, a new build) measures anew. */
static void digest(const gb_tuned_choice_t *c, size_t n, char out[17])
{
    gb_sha256_t s;
    char hex[65];
    gb__sha256_init(&s);
    for (size_t i = 0; i < n; i++) {
        gb__sha256_update(&s, c[i].kernel, strlen(c[i].kernel) + 1);
        for (size_t j = 0; j < c[i].params.count; j++) {
            char kv[GB_NAME_MAX + 32];
            snprintf(kv, sizeof kv, "%s=%ld;", c[i].params.name[j], c[i].params.value[j]);
            gb__sha256_update(&s, kv, strlen(kv));
        }
    }
    gb__sha256_hex_final(&s, hex);
    memcpy(out, hex, 16);
    out[16] = '\0';
}

/* The candidates' configurations; whether each is ready to run now (built, or in the program
 * cache). */
static void resolve(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *tc, cand_t *c,
                    size_t n)
{
    const char *prelude = gb__embedded("prelude.cl")->data;
    for (size_t i = 0; i < n; i++) {
        memset(&c[i], 0, sizeof c[i]);
        gb_route_t r;
        char msg[512];
        if (gb_config_resolve(h->reg, tc[i].kernel, &tc[i].params, &c[i].cfg, NULL, 0) != GB_OK ||
            gb__route_plan(&c[i].cfg, p, &h->dev, &r, msg, sizeof msg) != GB_OK) {
            c[i].ready = 1; /* nothing to build: it is left out when it fails to plan */
            continue;
        }
        const gb_family_t *f = c[i].cfg.family;
        c[i].ready = gb__program_ready(h->ctx, f->name, prelude, f->source, r.options, r.ptx) &&
                     (!r.helper_options[0] ||
                      gb__program_ready(h->ctx, "helpers", prelude,
                                        gb__embedded("helpers.cl")->data, r.helper_options, ""));
    }
}

/* With GEMMBENCH_SELECT_LOG set, a line per candidate appended to that file: the device, the
 * problem, the candidate's tier, kernel and parameters, its time and rate, and whether it won,
 * or why it could not (the lab's record of a measurement; docs/library.md). */
static void log_candidates(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *tc,
                           const cand_t *c, size_t n, size_t win)
{
    const char *path = getenv("GEMMBENCH_SELECT_LOG");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    static const char *const tiers[] = {"device", "family", "vendor", "heuristic"};
    char tag[16];
    gb_problem_layout_tag(p, tag, sizeof tag);
    for (size_t i = 0; i < n; i++) {
        char ps[2048];
        gb_params_text(&tc[i].params, ps, sizeof ps);
        fprintf(f, "%s\t%s\t%s\t%zu\t%zu\t%zu\t%s\t%s\t%s", h->dev.name,
                gb_precision_name(p->precision), tag, p->m, p->n, p->k, tiers[tc[i].tier],
                tc[i].kernel, ps[0] ? ps : "-");
        const double gf = c[i].ms > 0 ? gb_problem_flops(p) / (c[i].ms * 1e6) : 0;
        fprintf(f, "\t%.4g\t%.4g\t%s\n", c[i].ms, gf,
                i == win      ? "won"
                : c[i].why[0] ? c[i].why
                : c[i].passed ? "passed"
                              : "not measured");
    }
    fclose(f);
}

/* Drops from tc[0..*n) the configurations refused for p on the handle; under select_lock. */
static void unrefused(gb_blas_t *h, const gb_problem_t *p, gb_tuned_choice_t *tc, size_t *n)
{
    char tag[16];
    gb_tuned_layout_key(p, tag, sizeof tag);
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        int refused = 0;
        for (size_t j = 0; j < h->nrefused && !refused; j++) {
            const gb_blas_refused_t *x = &h->refused[j];
            refused = x->precision == p->precision && !strcmp(x->layout, tag) &&
                      !strcmp(x->kernel, tc[i].kernel) &&
                      gb_params_equal(&x->params, &tc[i].params);
        }
        if (!refused)
            tc[kept++] = tc[i];
    }
    *n = kept;
}

int gb_blas__device_refuses(int rc)
{
    return rc == GB_EBUILD || rc == GB_EWGSIZE || rc == GB_ELOCALMEM;
}

/* gb_blas__refuse with select_lock held. */
static int refuse_locked(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *c)
{
    const int rc = gb__grow(&h->refused, &h->caprefused, h->nrefused + 1, sizeof *h->refused);
    if (rc == GB_OK) {
        gb_blas_refused_t *x = &h->refused[h->nrefused++];
        memset(x, 0, sizeof *x);
        gb__copy(x->kernel, sizeof x->kernel, c->kernel);
        x->params = c->params;
        x->precision = p->precision;
        gb_tuned_layout_key(p, x->layout, sizeof x->layout);
    }
    return rc == GB_OK ? GB_OK : gb_blas__fail(rc, "out of memory");
}

int gb_blas__refuse(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *c)
{
    pthread_mutex_lock(&h->select_lock);
    const int rc = refuse_locked(h, p, c);
    pthread_mutex_unlock(&h->select_lock);
    return rc;
}

/* Measures the portfolio tc[0..n) for p and appends the choice, *out (what it took, the table's
 * choice's time over the winner's); *win its winner (n where none passed). GB_OK, or the code of
 * what stopped the measurement (message recorded). */
static int choose_by_measuring(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *tc,
                               size_t n, const char *dig, size_t *win, gb_chosen_t *out)
{
    cand_t c[GB_PORTFOLIO_MAX];
    gb_blas_plan_t *plans[GB_PORTFOLIO_MAX] = {0};
    const int build_now = (h->select & GB_BLAS_SELECT_BUILD) != 0;
    resolve(h, p, tc, c, n);
    unsigned pending = 0;
    const double t0 = gb__now_ms();
    for (size_t i = 0; i < n; i++) {
        if (!c[i].ready && !build_now) {
            pending++;
            continue;
        }
        const int built = gb_blas__plan_build(h, p, &c[i].cfg, &plans[i]);
        if (built != GB_OK) {
            plans[i] = NULL;
            snprintf(c[i].why, sizeof c[i].why, "%.150s", gb_blas_errmsg());
            /* Not built here: no later choice of the handle tries it again (where memory
             * allows; without, it is only tried again). */
            if (gb_blas__device_refuses(built))
                (void)refuse_locked(h, p, &tc[i]);
        }
    }
    if (!h->measure_queue) {
        cl_int err;
        h->measure_queue = clCreateCommandQueueWithProperties(h->cl, h->device, NULL, &err);
        if (err != CL_SUCCESS)
            h->measure_queue = NULL;
    }
    const double t1 = gb__now_ms();
    gb_blas_trial_t b = {.h = h, .p = p, .q = h->measure_queue};
    int rc = b.q ? gb_blas__queue_take(h, b.q, &b.s)
                 : gb_blas__fail(GB_EOPENCL, "making the measurement's queue failed");
    if (rc == GB_OK) {
        if ((rc = gb_blas__trial_make(&b)) == GB_OK)
            measure(&b, c, n, plans);
        gb_blas__queue_put(h, b.s);
    }
    gb_blas__trial_free(&b);
    const double t2 = gb__now_ms();
    for (size_t i = 0; i < n; i++)
        if (plans[i])
            gb_blas__plan_put(h, plans[i]);
    if (rc != GB_OK)
        return rc;
    *win = n;
    unsigned measured = 0;
    for (size_t i = 0; i < n; i++) {
        measured += (unsigned)(c[i].ms > 0);
        if (c[i].passed && c[i].ms > 0 && (*win == n || c[i].ms < c[*win].ms))
            *win = i;
    }
    if (pending)
        build_later(h, p, c, n);
    log_candidates(h, p, tc, c, n, *win);
    if (*win == n)
        return GB_OK;
    memset(out, 0, sizeof *out);
    gb__copy(out->device, sizeof out->device, h->dev.name);
    gb__copy(out->platform, sizeof out->platform, h->dev.platform_name);
    gb__copy(out->driver, sizeof out->driver, h->dev.driver);
    out->precision = p->precision;
    gb_tuned_layout_key(p, out->layout, sizeof out->layout); /* C keyed as T */
    out->m = p->m;
    out->n = p->n;
    out->k = p->k;
    gb__copy(out->portfolio, sizeof out->portfolio, dig);
    gb__copy(out->kernel, sizeof out->kernel, tc[*win].kernel);
    out->params = tc[*win].params;
    out->gflops = gb_problem_flops(p) / (c[*win].ms * 1e6);
    out->measured = measured;
    out->pending = pending;
    out->table_ratio = c[0].ms > 0 ? c[0].ms / c[*win].ms : 0;
    out->measure_ms = t2 - t1;
    out->build_ms = t1 - t0;
    if (h->choices[0])
        gb_chosen_append(h->choices, out, NULL, 0);
    return GB_OK;
}

/* How a choice was measured: "measured now: best of 6 candidates in 180 ms (builds 9.1 s), 2.12x
 * the table's choice" (the table's choice itself where the ratio is 1), or with the date where
 * it was measured before. */
static void note_of(const gb_chosen_t *ch, int now, char *note, size_t len)
{
    size_t used = 0;
    note[0] = '\0';
    gb__appendf(note, len, &used, "measured %s: best of %u candidates in %.0f ms",
                now ? "now" : ch->chosen_at, ch->measured, ch->measure_ms);
    if (ch->build_ms >= 1)
        gb__appendf(note, len, &used, " (builds %.1f s)", ch->build_ms * 1e-3);
    if (ch->table_ratio > 1.005)
        gb__appendf(note, len, &used, ", %.2fx the table's choice", ch->table_ratio);
    if (ch->pending)
        gb__appendf(note, len, &used, ", %u more %s", ch->pending,
                    now ? "being built" : "to measure");
}

/* Index of the candidate a recorded choice names, or n. */
static size_t find_candidate(const gb_tuned_choice_t *tc, size_t n, const gb_chosen_t *ch)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(tc[i].kernel, ch->kernel) && gb_params_equal(&tc[i].params, &ch->params))
            return i;
    return n;
}

int gb_blas__select(gb_blas_t *h, const gb_problem_t *p, gb_tuned_choice_t *out, char *note,
                    size_t len)
{
    gb_tuned_choice_t tc[GB_PORTFOLIO_MAX];
    size_t n;
    char msg[512];
    note[0] = '\0';
    int rc =
        gb_tuned_portfolio(&h->db, h->reg, &h->dev, p, GB_PORTFOLIO_MAX, tc, &n, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "%s", msg);
    /* The digest is the whole portfolio's, as other processes of the device see it, so that
     * the choices they recorded are read here whatever this handle refused; only a mode that
     * reads them needs it. */
    const int mode = h->select & ~GB_BLAS_SELECT_BUILD;
    char dig[17] = "";
    if (mode != GB_BLAS_SELECT_OFF)
        digest(tc, n, dig);
    pthread_mutex_lock(&h->select_lock);
    unrefused(h, p, tc, &n);
    pthread_mutex_unlock(&h->select_lock);
    if (!n)
        return gb_blas__fail(GB_ENOKERNEL, "every candidate was refused on device '%s'",
                             h->dev.name);
    *out = tc[0];
    if (mode == GB_BLAS_SELECT_OFF || n == 1)
        return GB_OK;
    gb_chosen_t ch;
    pthread_mutex_lock(&h->select_lock);
    int have = h->choices[0] && gb_chosen_find(h->choices, &h->dev, p, dig, &ch) == GB_OK;
    size_t at = have ? find_candidate(tc, n, &ch) : n;
    /* A provisional choice is measured again once its candidates are built. */
    if (at < n && ch.pending && mode == GB_BLAS_SELECT_MEASURE) {
        cand_t c[GB_PORTFOLIO_MAX];
        resolve(h, p, tc, c, n);
        size_t ready = 0;
        for (size_t i = 0; i < n; i++)
            ready += (size_t)c[i].ready;
        if (ready == n)
            at = n;
    }
    size_t win = n;
    if (at == n && mode == GB_BLAS_SELECT_MEASURE &&
        (rc = choose_by_measuring(h, p, tc, n, dig, &win, &ch)) == GB_OK && win < n)
        at = win;
    if (at < n) {
        *out = tc[at];
        note_of(&ch, win == at, note, len);
    } else if (mode == GB_BLAS_SELECT_MEASURE) {
        if (rc != GB_OK) {
            snprintf(note, len, "not measured: %.200s", gb_blas_errmsg());
        } else {
            snprintf(note, len, "not measured: no candidate passed its check");
        }
        rc = GB_OK; /* the table's choice stands where measuring could not choose */
    }
    pthread_mutex_unlock(&h->select_lock);
    return rc;
}
