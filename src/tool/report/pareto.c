/* pareto.c: the time-energy Pareto front of a tuning run (docs/report.md, "Time and energy"):
 * the candidates the run measured with energy (under --objective energy or edp, every one),
 * each at its median time and energy per GEMM, and those that no other beats in both: the
 * choices between the time winner and the energy winner. A table per run in text and
 * Markdown, a list in JSON, and in the HTML page a scatter plot of time against energy with
 * the front drawn. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

size_t gb_report_pareto(const double *time, const double *energy, size_t n, unsigned char *on)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        on[i] = isfinite(time[i]) && isfinite(energy[i]);
        for (size_t j = 0; j < n && on[i]; j++) {
            if (j == i || !isfinite(time[j]) || !isfinite(energy[j]))
                continue;
            const int no_worse = time[j] <= time[i] && energy[j] <= energy[i];
            const int better = time[j] < time[i] || energy[j] < energy[i];
            /* Of two equal candidates, the first stays on the front. */
            if ((no_worse && better) || (time[j] == time[i] && energy[j] == energy[i] && j < i))
                on[i] = 0;
        }
        count += on[i];
    }
    return count;
}

/* ---- taking the data ----------------------------------------------------------------------- */

int gb_report__pareto_eval(gb_report__run_t *k, const gb_tune_eval_t *ev)
{
    if (ev->code != GB_OK || !ev->point_id[0])
        return GB_OK;
    for (size_t i = 0; i < k->ncands; i++)
        if (!strcmp(k->cands[i].id, ev->point_id))
            return GB_OK; /* told twice (a seed that is a preset too): once */
    if (gb__grow(&k->cands, &k->candcap, k->ncands + 1, sizeof *k->cands) != GB_OK)
        return GB_ENOMEM;
    gb_report__cand_t *c = &k->cands[k->ncands++];
    memset(c, 0, sizeof *c);
    memcpy(c->id, ev->point_id, sizeof c->id);
    gb__copy(c->params, sizeof c->params, ev->params);
    c->ms = c->joules = (double)NAN;
    return GB_OK;
}

int gb_report__pareto_read(gb_report_t *r, gb_store_t *st)
{
    for (size_t i = 0; i < r->nruns; i++) {
        gb_report__run_t *k = &r->runs[i];
        size_t kept = 0;
        for (size_t j = 0; j < k->ncands; j++) {
            gb_point_t pt;
            gb_point_init(&pt);
            const int rc = gb_store_get(st, k->cands[j].id, &pt);
            if (rc != GB_OK && rc != GB_ENOPOINT) {
                gb_point_free(&pt);
                return rc;
            }
            /* Only candidates with both: a time tuning's have no energy. */
            if (rc == GB_OK && pt.result.energy_j > 0) {
                gb_report__cand_t c = k->cands[j];
                c.ms = pt.result.time_ms[gb_timing_phase(pt.timing)].median;
                c.joules = pt.result.energy_j;
                c.gflops = pt.result.gflops;
                if (isfinite(c.ms) && c.ms > 0)
                    k->cands[kept++] = c;
            }
            gb_point_free(&pt);
        }
        k->ncands = kept;
        double *t = malloc((kept ? kept : 1) * sizeof *t),
               *e = malloc((kept ? kept : 1) * sizeof *e);
        unsigned char *on = malloc(kept ? kept : 1);
        if (!t || !e || !on) {
            free(t);
            free(e);
            free(on);
            return GB_ENOMEM;
        }
        for (size_t j = 0; j < kept; j++) {
            t[j] = k->cands[j].ms;
            e[j] = k->cands[j].joules;
        }
        k->nfront = gb_report_pareto(t, e, kept, on);
        for (size_t j = 0; j < kept; j++)
            k->cands[j].front = on[j];
        free(t);
        free(e);
        free(on);
    }
    return GB_OK;
}

static int by_time(const void *a, const void *b)
{
    const double x = (*(const gb_report__cand_t *const *)a)->ms;
    const double y = (*(const gb_report__cand_t *const *)b)->ms;
    return (x > y) - (x < y);
}

/* Run k's front, fastest first, into v (k->nfront entries). */
static void front_of(const gb_report__run_t *k, const gb_report__cand_t **v)
{
    size_t n = 0;
    for (size_t i = 0; i < k->ncands; i++)
        if (k->cands[i].front)
            v[n++] = &k->cands[i];
    qsort(v, n, sizeof *v, by_time);
}

/* ---- text, Markdown and JSON ---------------------------------------------------------------- */

int gb_report__write_pareto_text(const gb_report_t *r, int markdown, FILE *f)
{
    static const char *head[] = {"parameters", "ms per GEMM", "J per GEMM",
                                 "GFLOP/s",    "GFLOP/J",     "point"};
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < r->nruns; i++) {
        const gb_report__run_t *k = &r->runs[i];
        if (!k->nfront)
            continue;
        const gb_tune_run_t *run = &k->run;
        fprintf(f,
                "\n%sTime and energy: the Pareto front of tuning run %lld\n%s%s %s %s %zux%zux%zu "
                "on %s: of %zu candidates measured with energy, the %zu that no other beats in "
                "both time and energy per GEMM, fastest first\n\n",
                markdown ? "## " : "", (long long)run->id, markdown ? "\n" : "", run->kernel,
                gb_precision_name(run->precision), run->layout, run->m, run->n, run->k, run->device,
                k->ncands, k->nfront);
        const gb_report__cand_t **v = malloc(k->nfront * sizeof *v);
        gb_report__grid_t g;
        memset(&g, 0, sizeof g);
        if (!v || (rc = gb_report__grid_head(&g, head, sizeof head / sizeof head[0])) != GB_OK) {
            free(v);
            return GB_ENOMEM;
        }
        g.right[1] = g.right[2] = g.right[3] = g.right[4] = 1;
        front_of(k, v);
        gb_problem_t shape; /* for its FLOPs: 8 M N K in a complex precision */
        gb_problem_init(&shape, run->precision, run->m, run->n, run->k);
        const double flop = gb_problem_flops(&shape);
        for (size_t j = 0; rc == GB_OK && j < k->nfront; j++) {
            char a[32], b[32], c[32], d[32];
            if ((rc = gb_report__grid_row(&g)) != GB_OK)
                break;
            /* Four significant digits: a small GEMM's joules are thousandths. */
            snprintf(a, sizeof a, "%.4g", v[j]->ms);
            snprintf(b, sizeof b, "%.4g", v[j]->joules);
            rc = gb_report__grid_set(&g, 0, "%s", v[j]->params);
            rc |= gb_report__grid_set(&g, 1, "%s", a);
            rc |= gb_report__grid_set(&g, 2, "%s", b);
            rc |= gb_report__grid_set(&g, 3, "%s", gb_report__num(v[j]->gflops, c, sizeof c));
            rc |= gb_report__grid_set(&g, 4, "%s",
                                      gb_report__num(flop / v[j]->joules * 1e-9, d, sizeof d));
            rc |= gb_report__grid_set(&g, 5, "%s", v[j]->id);
            if (rc != GB_OK)
                rc = GB_ENOMEM;
        }
        if (rc == GB_OK)
            (markdown ? gb_report__grid_md : gb_report__grid_text)(&g, f);
        gb_report__grid_free(&g);
        free(v);
    }
    return rc;
}

void gb_report__pareto_json(const gb_report__run_t *k, void *run)
{
    cJSON *o = run;
    cJSON_AddNumberToObject(o, "with_energy", (double)k->ncands);
    cJSON *front = cJSON_AddArrayToObject(o, "pareto_front");
    const gb_report__cand_t **v = k->nfront ? malloc(k->nfront * sizeof *v) : NULL;
    if (!front || !v)
        return;
    front_of(k, v);
    for (size_t j = 0; j < k->nfront; j++) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "point", v[j]->id);
        cJSON_AddStringToObject(c, "params", v[j]->params);
        cJSON_AddItemToObject(c, "ms", gb_report__json_num(v[j]->ms));
        cJSON_AddItemToObject(c, "joules", gb_report__json_num(v[j]->joules));
        cJSON_AddItemToObject(c, "gflops", gb_report__json_num(v[j]->gflops));
        cJSON_AddItemToArray(front, c);
    }
    free(v);
}

/* ---- the plot ------------------------------------------------------------------------------- */

int gb_report__pareto_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p)
{
    p->kind = GB_PLOT_PARETO;
    size_t at = SIZE_MAX; /* the most recent run with a front */
    for (size_t i = r->nruns; i-- > 0 && at == SIZE_MAX;)
        if (r->runs[i].nfront)
            at = i;
    if (at == SIZE_MAX) {
        snprintf(p->note, sizeof p->note,
                 "No tuning run in the selection measured energy: the time-energy plot needs "
                 "one ('gemmbench tune --objective energy').");
        return GB_OK;
    }
    const gb_report__run_t *k = &r->runs[at];
    char path[1100], term[200];
    FILE *d = gb_report__gp_file(gp, "pareto.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    const gb_report__cand_t **v = malloc(k->nfront * sizeof *v);
    if (!v) {
        fclose(d);
        return GB_ENOMEM;
    }
    for (size_t j = 0; j < k->ncands; j++) /* index 0: every candidate */
        fprintf(d, "%.9g %.9g\n", k->cands[j].ms, k->cands[j].joules);
    fprintf(d, "\n\n");
    front_of(k, v);
    for (size_t j = 0; j < k->nfront; j++) /* index 1: the front, fastest first */
        fprintf(d, "%.9g %.9g\n", v[j]->ms, v[j]->joules);
    free(v);
    if (fclose(d) != 0)
        return GB_EIO;
    p->width = 960;
    gb_report__gp_terminal(term, sizeof term, p->width, 520);
    fprintf(g,
            "%sset output 'pareto.svg'\nset title 'Tuning run %lld: time against energy per "
            "GEMM'\nset xlabel 'ms per GEMM (median)'\nset ylabel 'J per GEMM'\nset grid\n"
            "set key outside below\nplot ",
            term, (long long)k->run.id);
    gb_report__gp_quote(g, path);
    fprintf(g, " index 0 using 1:2 with points pt 7 ps 0.7 lc rgb '#9ca3af' title 'candidates', "
               "\\\n     ");
    gb_report__gp_quote(g, path);
    fprintf(g, " index 1 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#d62728' title "
               "'Pareto front'\nunset grid\nset key default\n");
    snprintf(p->caption, sizeof p->caption,
             "Tuning run %lld (%s %s %zux%zux%zu on %s): each candidate measured with energy at "
             "its median time and its energy per GEMM; the red line joins those no other beats "
             "in both, from the fastest to the most frugal.",
             (long long)k->run.id, k->run.kernel, gb_precision_name(k->run.precision), k->run.m,
             k->run.n, k->run.k, k->run.device);
    return GB_OK;
}
