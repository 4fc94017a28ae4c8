/* winner.c: the leaders re-measured and the winner declared (winner.h). A leader's evidence is
 * its first measurement and confirm_reps more (stored as repetitions 1.. of their definitions,
 * so a second tuning finds them); its rate is the median of those measurements' medians. The
 * winner is the leader of the highest rate; it is faster than the runner-up "beyond the noise"
 * when the interval of its median time lies wholly below the runner-up's, else the verdict says
 * they are within the noise of each other. A leader's interval is the distribution-free one of
 * the median of all its timed calls (gb_median_ci: order statistics, whose bounds are times that
 * were measured): the 95% t-intervals of the means of 3 calls each that it replaces once gave a
 * negative bound, [-2.8, 5.9] ms, on a noisy host. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt/util/util.h"
#include "gemmbench_tuning.h"
#include "candidate.h"
#include "objective.h"
#include "tuned.h"
#include "winner.h"

void gb_leaders_init(gb_leaders_t *l)
{
    memset(l, 0, sizeof *l);
}

void gb_leaders_free(gb_leaders_t *l)
{
    free(l->v);
    gb_leaders_init(l);
}

int gb_leaders_add(gb_leaders_t *l, const gb_params_t *params, double score)
{
    if (gb__grow(&l->v, &l->cap, l->n + 1, sizeof *l->v) != GB_OK)
        return GB_ENOMEM;
    l->v[l->n].params = *params;
    l->v[l->n++].score = score;
    return GB_OK;
}

static int by_score(const void *a, const void *b)
{
    const double x = ((const gb_leader_t *)a)->score, y = ((const gb_leader_t *)b)->score;
    return x < y ? 1 : x > y ? -1 : 0;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* The median of x[0..n) (n >= 1), x sorted in place. */
static double median_of(double *x, size_t n)
{
    qsort(x, n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* A leader's measurements summed up. */
typedef struct verdict {
    double score;                  /* the median of its measurements' scores */
    double gflops;                 /* the median of their rates */
    double joules;                 /* the median of their energies per GEMM (0: not measured) */
    double lo_ms, hi_ms, coverage; /* the interval of the median time over every timed call */
    size_t calls;
    double *times; /* the timed calls' headline times, pooled (calls of them) */
    size_t cap;
    size_t nids;
    char ids[GB_TUNED_EVIDENCE][GB_POINT_ID_LEN + 1];
    gb_job_t job; /* repetition 0 */
    int valid;    /* every repetition validated */
} verdict_t;

int gb_leaders_beyond_noise(double lo, double hi, double lo2, double hi2)
{
    return lo <= hi && lo2 <= hi2 && hi < lo2;
}

/* Repetition rep of leader ld: read from the store, refused where a failure is recorded for it
 * (it timed out or crashed the process before: its code), or measured and stored. */
static int repetition(const gb_leader_t *ld, unsigned rep, const gb_tune_spec_t *spec,
                      const gb_registry_t *reg, gb_context_t *ctx, gb_store_t *st,
                      gb_leaders_measure_fn measure, void *mu, gb_job_t *job, gb_point_t *pt,
                      char *msg, size_t msglen)
{
    int rc = gb_tune__job(spec, reg, gb_context_device(ctx), &ld->params, rep, job);
    if (rc != GB_OK || job->code != GB_OK)
        return rc != GB_OK ? rc : gb__fail(msg, msglen, job->code, "%s", job->why);
    if (gb_store_get(st, job->id, pt) == GB_OK)
        return GB_OK;
    gb_tune_failure_t f;
    if (gb_store_failure_get(st, job->id, &f) == GB_OK)
        return gb__fail(msg, msglen, f.code, "%s", f.reason);
    char params[512];
    gb_tune__params_text(&ld->params, params, sizeof params);
    rc = measure(mu, job, params, pt, msg, msglen);
    if (rc == 1)
        rc = gb_store_get(st, job->id, pt);
    return rc == GB_JOB_ESTORE ? GB_ESTORE : rc;
}

/* Leader ld's next measurement with energy, from repetition *rep on: a stored one that has
 * energy (those without are passed over), else the first repetition not yet stored, measured
 * (a failure recorded for its first repetition refuses it). *rep is left past it. As
 * repetition's codes. */
static int energy_repetition(const gb_leader_t *ld, unsigned *rep, const gb_tune_spec_t *spec,
                             const gb_registry_t *reg, gb_context_t *ctx, gb_store_t *st,
                             gb_leaders_measure_fn measure, void *mu, gb_job_t *job, gb_point_t *pt,
                             char *msg, size_t msglen)
{
    for (; *rep < 64; ++*rep) {
        int rc = gb_tune__job(spec, reg, gb_context_device(ctx), &ld->params, *rep, job);
        if (rc != GB_OK || job->code != GB_OK)
            return rc != GB_OK ? rc : gb__fail(msg, msglen, job->code, "%s", job->why);
        if (gb_store_get(st, job->id, pt) != GB_OK)
            break;
        if (pt->result.gflops_per_watt > 0) {
            ++*rep;
            return GB_OK;
        }
        gb_point_free(pt);
        gb_point_init(pt);
    }
    gb_job_t first;
    gb_tune_failure_t f;
    if (gb_tune__job(spec, reg, gb_context_device(ctx), &ld->params, 0, &first) != GB_OK)
        return GB_ENOMEM;
    if (gb_store_failure_get(st, first.id, &f) == GB_OK)
        return gb__fail(msg, msglen, f.code, "%s", f.reason);
    char params[512];
    gb_tune__params_text(&ld->params, params, sizeof params);
    int rc = measure(mu, job, params, pt, msg, msglen);
    if (rc == 1)
        rc = gb_store_get(st, job->id, pt);
    ++*rep;
    return rc == GB_JOB_ESTORE ? GB_ESTORE : rc;
}

/* Measures leader ld confirm_reps more times (none with --confirm 0) and sums its measurements
 * up into v. A failure of a repetition (it did not validate, or failed to run) disqualifies the
 * leader: GB_OK with v->valid 0. */
static int assess(const gb_leader_t *ld, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                  gb_context_t *ctx, gb_store_t *st, gb_leaders_measure_fn measure, void *mu,
                  const gb_tune_hooks_t *hooks, verdict_t *v, char *msg, size_t msglen)
{
    double scores[64], rates[64], joules[64];
    const unsigned more = spec->confirm ? spec->confirm_reps : 0;
    const unsigned reps = 1 + (more < 63 ? more : 63);
    const int energy = gb_objective_needs_energy(spec->objective);
    unsigned next = 0; /* under energy: the repetition looked at next */
    v->valid = 1;
    for (unsigned r = 0; r < reps && v->valid; r++) {
        if (hooks && hooks->stop && *hooks->stop)
            return GB_OK;
        gb_job_t job;
        gb_point_t pt;
        gb_point_init(&pt);
        int rc = energy
                     ? energy_repetition(ld, &next, spec, reg, ctx, st, measure, mu, &job, &pt, msg,
                                         msglen)
                     : repetition(ld, r, spec, reg, ctx, st, measure, mu, &job, &pt, msg, msglen);
        if (rc == GB_ENOMEM || rc == GB_ESTORE) {
            gb_point_free(&pt);
            return rc;
        }
        int code = rc;
        char why[512];
        double sc = -1;
        if (rc == GB_OK)
            gb_objective_score(spec->objective, &pt, &sc, &code, why, sizeof why);
        if (code != GB_OK) {
            v->valid = 0;
        } else {
            const gb_phase_t ph = gb_timing_phase(pt.timing);
            const size_t n = pt.result.time_ms[ph].n;
            const double *x = pt.result.samples_ms[ph];
            scores[r] = sc;
            rates[r] = pt.result.gflops;
            joules[r] = pt.result.energy_j > 0 ? pt.result.energy_j : 0;
            if (x && n && gb__grow(&v->times, &v->cap, v->calls + n, sizeof *v->times) != GB_OK) {
                gb_point_free(&pt);
                return GB_ENOMEM;
            }
            for (size_t i = 0; x && i < n; i++)
                v->times[v->calls++] = x[i];
            if (v->nids < GB_TUNED_EVIDENCE)
                memcpy(v->ids[v->nids++], pt.id, sizeof v->ids[0]);
            if (r == 0)
                v->job = job;
        }
        gb_point_free(&pt);
    }
    if (v->valid) {
        v->score = median_of(scores, reps);
        v->gflops = median_of(rates, reps);
        v->joules = median_of(joules, reps);
        if (!v->calls ||
            gb_median_ci(v->times, v->calls, &v->lo_ms, &v->hi_ms, &v->coverage) != GB_OK)
            v->lo_ms = v->hi_ms = v->coverage = 0; /* a store without samples: no interval */
    }
    return GB_OK;
}

/* The shapes of the tuned shape's class (gb_shape_class) that a class's entry serves and its
 * one tuned shape does not test: the first, of those below, with a shorter K, and the first
 * with a longer one, as the same work in other proportions; where a kernel's rounding depends
 * on K (sums of a fixed length in a tensor core), an entry that validated at its shape may not
 * at another of its class (bench/notes/wgmma.md#wgm2-bk32). Their count (0-2). */
static size_t siblings(const gb_tune_spec_t *spec, size_t out[2][3])
{
    /* m, n, k scaled by num / den each. */
    static const unsigned char scale[2][4][6] = {
        {{2, 1, 2, 1, 1, 4}, {1, 1, 2, 1, 1, 2}, {2, 1, 1, 1, 1, 2}, {1, 1, 1, 1, 1, 2}},
        {{1, 2, 1, 2, 4, 1}, {1, 1, 1, 2, 2, 1}, {1, 2, 1, 1, 2, 1}, {1, 1, 1, 1, 2, 1}},
    };
    char cls[64], c2[64];
    gb_shape_class(spec->m, spec->n, spec->k, cls, sizeof cls);
    const size_t dims[3] = {spec->m, spec->n, spec->k};
    size_t n = 0;
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i < 4; i++) {
            const unsigned char *f = scale[dir][i];
            size_t d[3];
            int ok = 1;
            for (int j = 0; j < 3; j++) {
                ok &= dims[j] % f[2 * j + 1] == 0;
                d[j] = dims[j] / f[2 * j + 1] * f[2 * j];
            }
            if (ok && d[0] && d[1] && d[2] &&
                !strcmp(gb_shape_class(d[0], d[1], d[2], c2, sizeof c2), cls)) {
                memcpy(out[n++], d, sizeof d);
                break;
            }
        }
    return n;
}

/* Whether leader ld validates at its class's siblings of the tuned shape (measured and stored
 * like any point, or read from the store): 1, or 0 with why. A sibling the configuration
 * cannot run (a constraint, a failure recorded) is passed over, not held against it. */
static int siblings_validate(const gb_leader_t *ld, const gb_tune_spec_t *spec,
                             const gb_registry_t *reg, gb_context_t *ctx, gb_store_t *st,
                             gb_leaders_measure_fn measure, void *mu, int *rc, char *why,
                             size_t whylen)
{
    size_t sh[2][3];
    const size_t ns = siblings(spec, sh);
    *rc = GB_OK;
    for (size_t i = 0; i < ns; i++) {
        gb_tune_spec_t sib = *spec;
        sib.m = sh[i][0];
        sib.n = sh[i][1];
        sib.k = sh[i][2];
        gb_job_t job;
        gb_point_t pt;
        gb_point_init(&pt);
        char msg[512] = "";
        int r = repetition(ld, 0, &sib, reg, ctx, st, measure, mu, &job, &pt, msg, sizeof msg);
        if (r == GB_ENOMEM || r == GB_ESTORE) {
            gb_point_free(&pt);
            *rc = r;
            return 0;
        }
        int code = r;
        char reason[400] = "";
        double sc;
        if (r == GB_OK)
            gb_leaders_score(&pt, &sc, &code, reason, sizeof reason);
        gb_point_free(&pt);
        if (code == GB_EVALIDATION) {
            char cls[64];
            snprintf(why, whylen, "at %zux%zux%zu, a shape of its class %s: %s", sib.m, sib.n,
                     sib.k, gb_shape_class(sib.m, sib.n, sib.k, cls, sizeof cls), reason);
            return 0;
        }
    }
    return 1;
}

/* The valid verdicts of the best and second score among v[0..n) (SIZE_MAX: none). */
static void rank_valid(const verdict_t *v, size_t n, size_t *best, size_t *second)
{
    *best = *second = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (!v[i].valid)
            continue;
        if (*best == SIZE_MAX || v[i].score > v[*best].score) {
            *second = *best;
            *best = i;
        } else if (*second == SIZE_MAX || v[i].score > v[*second].score) {
            *second = i;
        }
    }
}

int gb_leaders_adaptive_of(const gb_family_t *f, const gb_params_t *a, const gb_params_t *b,
                           const char **name)
{
    for (size_t k = 0; f && k < gb_family_param_count(f); k++) {
        const gb_param_t *p = gb_family_param(f, k);
        long v;
        if (!p->adaptive || !gb_params_get(a, p->name, &v) || v == p->adapts)
            continue;
        gb_params_t x = *a;
        if (gb_params_set(&x, p->name, p->adapts) == GB_OK && gb_params_equal(&x, b)) {
            if (name)
                *name = p->name;
            return 1;
        }
    }
    return 0;
}

size_t gb_leaders_prefer_adaptive(const gb_family_t *f, const gb_params_t *const *params,
                                  const double *lo, const double *hi, const int *ok, size_t n,
                                  size_t best)
{
    if (best >= n || !(lo[best] <= hi[best]))
        return best;
    for (size_t j = 0; f && j < n; j++)
        if (j != best && ok[j] && lo[j] <= hi[j] &&
            gb_leaders_adaptive_of(f, params[best], params[j], NULL))
            return gb_leaders_beyond_noise(lo[best], hi[best], lo[j], hi[j]) ? best : j;
    return best;
}

/* The leader of l->v[0..n) that is leader i with a parameter at its adapting value
 * (gb_leaders_adaptive_of), SIZE_MAX if none. */
static size_t adaptive_leader(const gb_family_t *f, const gb_leaders_t *l, size_t n, size_t i)
{
    for (size_t j = 0; f && j < n; j++)
        if (j != i && gb_leaders_adaptive_of(f, &l->v[i].params, &l->v[j].params, NULL))
            return j;
    return SIZE_MAX;
}

/* gb_leaders_prefer_adaptive over the verdicts: an entry serves its whole class, so SPLITK 0
 * (the grid's need: at the tuned shape often the same launch as the best's fixed count, at the
 * class's other shapes the fitting one; bench/notes/wgmma.md#wgmma-split-fill) wins where the
 * best is not faster beyond the noise. Under time only; the runner-up is then the best. */
static int prefer_adaptive(const gb_family_t *f, const gb_leaders_t *l, const verdict_t *v,
                           size_t n, const gb_tune_spec_t *spec, size_t *best, size_t *second)
{
    if (!f || *best == SIZE_MAX || gb_objective_needs_energy(spec->objective))
        return 0;
    int moved = 0;
    const gb_params_t **ps = malloc(n * sizeof *ps);
    double *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi);
    int *ok = malloc(n * sizeof *ok);
    if (ps && lo && hi && ok) {
        for (size_t i = 0; i < n; i++) {
            ps[i] = &l->v[i].params;
            ok[i] = v[i].valid;
            lo[i] = v[i].calls ? v[i].lo_ms : 1; /* no interval: lo > hi */
            hi[i] = v[i].calls ? v[i].hi_ms : 0;
        }
        const size_t b = gb_leaders_prefer_adaptive(f, ps, lo, hi, ok, n, *best);
        if (b != *best) {
            *second = *best;
            *best = b;
            moved = 1;
        }
    }
    free(ps);
    free(lo);
    free(hi);
    free(ok);
    return moved;
}

/* "[0.91, 1.02] ms (95%, 30 calls in 3 measurements)" into buf: v's interval, how sure, and
 * over what. */
static const char *interval_text(const verdict_t *v, char *buf, size_t len)
{
    char cover[16];
    if (v->coverage >= 0.95)
        snprintf(cover, sizeof cover, "95%%");
    else
        snprintf(cover, sizeof cover, "%.1f%%", 100.0 * v->coverage);
    snprintf(buf, len, "[%.4g, %.4g] ms (%s, %zu calls in %zu measurements)", v->lo_ms, v->hi_ms,
             cover, v->calls, v->nids);
    return buf;
}

/* The database entry of the winner's measurements. */
static void entry_of(const verdict_t *v, const gb_leader_t *ld, const gb_device_info_t *dev,
                     const gb_tune_run_t *run, gb_objective_t objective, gb_tuned_entry_t *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->device, sizeof e->device, "%s", dev->name);
    snprintf(e->platform, sizeof e->platform, "%s", dev->platform_name);
    snprintf(e->driver, sizeof e->driver, "%s", dev->driver);
    snprintf(e->vendor, sizeof e->vendor, "%s", dev->vendor);
    snprintf(e->type, sizeof e->type, "%s", dev->type_name);
    snprintf(e->family, sizeof e->family, "%s", dev->family);
    e->precision = run->precision;
    snprintf(e->layout, sizeof e->layout, "%s", run->layout);
    snprintf(e->shape_class, sizeof e->shape_class, "%s", run->shape_class);
    e->m = run->m;
    e->n = run->n;
    e->k = run->k;
    snprintf(e->kernel, sizeof e->kernel, "%s", run->kernel);
    e->params = ld->params;
    e->gflops = v->gflops;
    e->joules = v->joules;
    snprintf(e->objective, sizeof e->objective, "%s", gb_objective_name(objective));
    memcpy(e->evidence, v->ids, sizeof e->evidence);
    e->nevidence = v->nids;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(e->tuned_at, sizeof e->tuned_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(e->source, sizeof e->source, "store");
}

/* The verdict under energy or EDP: the winner's score, energy and time per GEMM beside the
 * runner-up's (r NULL: none). Energy comes from one loop per measurement, so it has no interval
 * of the kind time's verdict gives. */
static void verdict_energy(gb_tune_outcome_t *out, gb_objective_t o, const char *ps,
                           const verdict_t *w, const gb_params_t *rparams, const verdict_t *r)
{
    gb_problem_t shape; /* for the FLOPs a GEMM counts: 8 M N K in a complex precision */
    gb_problem_init(&shape, out->run.precision, out->run.m, out->run.n, out->run.k);
    const double flop = gb_problem_flops(&shape);
    const size_t len = sizeof out->verdict;
    size_t used = 0;
    out->verdict[0] = '\0';
    gb__appendf(out->verdict, len, &used, "%s at %.4g %s (%.4g J, %.4g ms per GEMM)", ps, w->score,
                gb_objective_unit(o), w->joules, flop / w->gflops * 1e-6);
    if (!r) {
        gb__appendf(out->verdict, len, &used,
                    " over %zu measurements; no other leader to "
                    "compare with",
                    w->nids);
        return;
    }
    char ps2[400];
    gb_tune__params_text(rparams, ps2, sizeof ps2);
    gb__appendf(out->verdict, len, &used,
                ": ahead of the runner-up %s at %.4g %s (%.4g J, %.4g ms per GEMM), medians of "
                "%zu and %zu measurements with energy",
                ps2, r->score, gb_objective_unit(o), r->joules, flop / r->gflops * 1e-6, w->nids,
                r->nids);
}

int gb_leaders_confirm(gb_leaders_t *l, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                       gb_context_t *ctx, gb_store_t *st, gb_leaders_measure_fn measure, void *mu,
                       const gb_tune_hooks_t *hooks, gb_tune_outcome_t *out, char *msg,
                       size_t msglen)
{
    qsort(l->v, l->n, sizeof *l->v, by_score);
    /* --confirm 0: every leader, none measured again (assess): the best first measurement wins. */
    size_t n = spec->confirm && spec->confirm < l->n ? spec->confirm : l->n;
    const gb_family_t *fam = NULL;
    const gb_preset_t *preset = NULL;
    if (gb_registry_find(reg, spec->kernel, &fam, &preset) != GB_OK)
        fam = NULL;
    /* The first leader's adapting sibling is confirmed beside the others (prefer_adaptive). */
    const size_t a = adaptive_leader(fam, l, l->n, 0);
    if (spec->confirm && a != SIZE_MAX && a >= n) {
        const gb_leader_t t = l->v[n];
        l->v[n] = l->v[a];
        l->v[a] = t;
        n++;
    }
    verdict_t *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    int rc = GB_OK;
    size_t best = SIZE_MAX, second = SIZE_MAX;
    for (size_t i = 0; i < n && rc == GB_OK; i++)
        rc = assess(&l->v[i], spec, reg, ctx, st, measure, mu, hooks, &v[i], msg, msglen);
    rank_valid(v, n, &best, &second);
    int preferred = prefer_adaptive(fam, l, v, n, spec, &best, &second);
    /* The best must validate at its class's other shapes too; one that does not is passed
     * over, and said, for the next. */
    while (rc == GB_OK && best != SIZE_MAX && !spec->no_siblings &&
           !(hooks && hooks->stop && *hooks->stop)) {
        char why[700] = "", ps[400];
        if (siblings_validate(&l->v[best], spec, reg, ctx, st, measure, mu, &rc, why, sizeof why))
            break;
        if (rc != GB_OK)
            break;
        v[best].valid = 0;
        if (hooks && hooks->note) {
            char line[1200];
            gb_tune__params_text(&l->v[best].params, ps, sizeof ps);
            snprintf(line, sizeof line, "leader %s passed over: not valid %s", ps, why);
            hooks->note(line, hooks->user);
        }
        rank_valid(v, n, &best, &second);
        preferred = prefer_adaptive(fam, l, v, n, spec, &best, &second);
    }
    if (rc == GB_ENOMEM && !msg[0])
        gb__fail(msg, msglen, rc, "out of memory");
    if (rc == GB_OK && best != SIZE_MAX && !(hooks && hooks->stop && *hooks->stop)) {
        const verdict_t *w = &v[best];
        out->have_winner = 1;
        entry_of(w, &l->v[best], gb_context_device(ctx), &out->run, spec->objective, &out->winner);
        memcpy(out->run.winner, w->ids[0], sizeof out->run.winner);
        out->run.winner_gflops = w->gflops;
        char ps[400], ps2[400], wi[160], ri[160];
        gb_tune__params_text(&l->v[best].params, ps, sizeof ps);
        if (gb_objective_needs_energy(spec->objective)) {
            verdict_energy(out, spec->objective, ps, w,
                           second == SIZE_MAX ? NULL : &l->v[second].params,
                           second == SIZE_MAX ? NULL : &v[second]);
        } else if (second == SIZE_MAX) {
            snprintf(out->verdict, sizeof out->verdict,
                     "%s at %.4g GFLOP/s over %zu measurements; no other leader to compare "
                     "with",
                     ps, w->gflops, w->nids);
        } else {
            const verdict_t *r = &v[second];
            gb_tune__params_text(&l->v[second].params, ps2, sizeof ps2);
            const int clear = w->calls && r->calls &&
                              gb_leaders_beyond_noise(w->lo_ms, w->hi_ms, r->lo_ms, r->hi_ms);
            snprintf(out->verdict, sizeof out->verdict,
                     "%s at %.4g GFLOP/s: %s the runner-up %s at %.4g GFLOP/s (distribution-free "
                     "CIs of the median time: %s and %s)",
                     ps, w->gflops, clear ? "faster beyond the noise than" : "within the noise of",
                     ps2, r->gflops, interval_text(w, wi, sizeof wi),
                     interval_text(r, ri, sizeof ri));
            const char *adapting = NULL;
            size_t used = strlen(out->verdict);
            long value = 0;
            if (preferred &&
                gb_leaders_adaptive_of(fam, &l->v[second].params, &l->v[best].params, &adapting) &&
                gb_params_get(&l->v[best].params, adapting, &value))
                gb__appendf(out->verdict, sizeof out->verdict, &used,
                            "; declared over the runner-up's faster median for %s=%ld, which fits "
                            "itself to each shape of the class",
                            adapting, value);
        }
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].times);
    free(v);
    return rc;
}

/* The same kernel and parameter values, whatever the parameters' order. */
static int same_config(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    if (strcmp(a->kernel, b->kernel) || a->params.count != b->params.count)
        return 0;
    for (size_t i = 0; i < a->params.count; i++) {
        long v;
        if (!gb_params_get(&b->params, a->params.name[i], &v) || v != a->params.value[i])
            return 0;
    }
    return 1;
}

typedef struct keep_job {
    gb_tune_outcome_t *out;
    char *msg;
    size_t msglen;
} keep_job_t;

static int keep_fn(gb_store_t *st, void *user)
{
    keep_job_t *j = user;
    gb_tune_outcome_t *out = j->out;
    gb_tuned_entry_t old;
    const gb_tuned_entry_t *w = &out->winner;
    gb_objective_t o = GB_OBJ_TIME;
    gb_objective_parse(gb_tuned_objective(w), &o);
    int rc = gb_store_tuned_get(st, w, &old);
    const double was = rc == GB_OK ? gb_objective_entry_score(o, &old) : -1;
    if (rc == GB_OK && was > gb_objective_entry_score(o, w) && !same_config(&old, w)) {
        snprintf(out->kept_why, sizeof out->kept_why,
                 "the database keeps %s (%.4g %s, tuned %s) for %s %s %s%s%s", old.kernel, was,
                 gb_objective_unit(o), old.tuned_at, w->shape_class,
                 gb_precision_name(w->precision), w->layout, o ? ", objective " : "",
                 o ? gb_objective_name(o) : "");
        return GB_OK;
    }
    /* A damaged row of the key (edited by hand, say) holds nothing to keep: the winner
     * replaces it. */
    if (rc != GB_OK && rc != GB_ENOPOINT && rc != GB_ECORRUPT)
        return gb__fail(j->msg, j->msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
    if (gb_store_tuned_put(st, w) != GB_OK)
        return gb__fail(j->msg, j->msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
    out->kept = 1;
    const int same = rc == GB_OK && same_config(&old, w);
    snprintf(out->kept_why, sizeof out->kept_why, "%s for %s %s %s%s%s on %s",
             rc == GB_ENOPOINT   ? "new entry"
             : rc == GB_ECORRUPT ? "replaces the damaged entry"
             : same              ? "confirms the entry"
                                 : "replaces the entry",
             w->shape_class, gb_precision_name(w->precision), w->layout, o ? ", objective " : "",
             o ? gb_objective_name(o) : "", w->device);
    return GB_OK;
}

int gb_leaders_keep(gb_store_t *st, gb_tune_outcome_t *out, char *msg, size_t msglen)
{
    /* Read, compare and write in one write transaction: two tunings of one shape class at once
     * (several devices of a kind, or two processes) keep the better winner. Tuners sharing a
     * connection hold its lock from BEGIN to COMMIT (gb_store_transaction), so no other
     * tuner's statement falls between the read and the write. */
    keep_job_t j = {out, msg, msglen};
    msg[0] = '\0';
    const int rc = gb_store_transaction(st, keep_fn, &j);
    if (rc != GB_OK && !msg[0])
        return gb__fail(msg, msglen, GB_ESTORE, "%s", gb_store_errmsg(st));
    if (rc != GB_OK)
        return GB_ESTORE;
    /* The library reads the entries from the store's tuning file: written anew at each one. */
    size_t n;
    return out->kept ? gb_tuned_sync_file(st, &n, msg, msglen) : GB_OK;
}
