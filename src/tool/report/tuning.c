/* tuning.c: the report's tuning view: the winners of the tuning database (the best
 * configuration per device, precision, layout and shape class, src/tool/store/tuning.h) as a table
 * in every format, and the tuning runs as a table and, in the HTML page, a plot of the best
 * GFLOP/s found against evaluations, one line per run coloured by its strategy. A store without
 * tuning data gives a report without the view, as before it existed. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define MAX_RUN_LINES 12 /* runs in the plot, the most recent; the table lists every one */

/* ---- taking the data ----------------------------------------------------------------------- */

/* A tuned entry or a run offered to the report: GB_EBADARG once it is finished; else counted,
 * and 1 where the filter takes it, GB_OK where it leaves it out. */
static int offered(gb_report_t *r, const char *device, const char *platform, gb_precision_t prec,
                   const char *kernel)
{
    if (r->finished)
        return GB_EBADARG;
    r->tuning_offered++;
    return gb_report__takes(r, device, platform, prec, kernel) ? 1 : GB_OK;
}

int gb_report_add_tuned(gb_report_t *r, const gb_tuned_entry_t *e)
{
    int rc = offered(r, e->device, e->platform, e->precision, e->kernel);
    if (rc == 1 &&
        (rc = gb__grow(&r->tuned, &r->tunedcap, r->ntuned + 1, sizeof *r->tuned)) == GB_OK)
        r->tuned[r->ntuned++] = *e;
    return rc;
}

int gb_report_add_run(gb_report_t *r, const gb_tune_run_t *run)
{
    int rc = offered(r, run->device, run->platform, run->precision, run->kernel);
    if (rc == 1 && (rc = gb__grow(&r->runs, &r->runcap, r->nruns + 1, sizeof *r->runs)) == GB_OK) {
        gb_report__run_t *k = &r->runs[r->nruns++];
        memset(k, 0, sizeof *k);
        k->run = *run;
        k->top = (double)NAN;
    }
    return rc;
}

int gb_report_add_eval(gb_report_t *r, const gb_tune_eval_t *ev)
{
    if (r->finished)
        return GB_EBADARG;
    size_t i = r->nruns;
    while (i > 0 && r->runs[i - 1].run.id != ev->run_id)
        i--;
    if (!i)
        return GB_OK; /* a run the filter left out */
    gb_report__run_t *k = &r->runs[i - 1];
    if (gb__grow(&k->best, &k->cap, k->nevals + 1, sizeof *k->best) != GB_OK)
        return GB_ENOMEM;
    /* The curve is the run's own record of its best so far (negative: nothing succeeded yet). */
    const double b = ev->best >= 0 && isfinite(ev->best) ? ev->best : (double)NAN;
    k->best[k->nevals++] = b;
    if (!isnan(b) && (isnan(k->top) || b > k->top))
        k->top = b;
    return gb_report__pareto_eval(k, ev);
}

static int add_tuned(const gb_tuned_entry_t *e, void *user)
{
    return gb_report_add_tuned(user, e);
}

static int add_run(const gb_tune_run_t *run, void *user)
{
    return gb_report_add_run(user, run);
}

static int add_eval(const gb_tune_eval_t *ev, void *user)
{
    return gb_report_add_eval(user, ev);
}

int gb_report__read_tuning(gb_report_t *r, gb_store_t *st)
{
    int rc = gb_store_tuned_foreach(st, add_tuned, r);
    if (rc == GB_OK)
        rc = gb_store_tune_runs(st, add_run, r);
    /* Evaluations once the runs are read: one statement open at a time. */
    for (size_t i = 0; rc == GB_OK && i < r->nruns; i++)
        rc = gb_store_tune_evals(st, r->runs[i].run.id, add_eval, r);
    return rc == GB_OK ? gb_report__pareto_read(r, st) : rc;
}

/* "square-4096": kind "square", size 4096; classes of one kind sort by size. */
static int cmp_class(const char *a, const char *b)
{
    const char *da = strrchr(a, '-'), *db = strrchr(b, '-');
    const size_t ka = da ? (size_t)(da - a) : strlen(a), kb = db ? (size_t)(db - b) : strlen(b);
    int c = strncmp(a, b, ka < kb ? ka : kb);
    if (c || ka != kb)
        return c ? c : (ka > kb) - (ka < kb);
    const double sa = da ? atof(da + 1) : 0, sb = db ? atof(db + 1) : 0;
    return (sa > sb) - (sa < sb);
}

static int cmp_tuned(const void *a, const void *b)
{
    const gb_tuned_entry_t *x = a, *y = b;
    int c;
    if ((c = cmp_class(x->shape_class, y->shape_class)) || (c = strcmp(x->device, y->device)) ||
        (c = (int)x->precision - (int)y->precision) || (c = strcmp(x->layout, y->layout)) ||
        (c = strcmp(x->platform, y->platform)))
        return c;
    return strcmp(x->driver, y->driver);
}

void gb_report__finish_tuning(gb_report_t *r)
{
    if (r->ntuned)
        qsort(r->tuned, r->ntuned, sizeof *r->tuned, cmp_tuned);
}

int gb_report__tuning_shown(const gb_report_t *r, unsigned tables)
{
    return (tables & GB_REPORT_TUNED) && (r->tuning_offered || tables == GB_REPORT_TUNED);
}

/* ---- tables ---------------------------------------------------------------------------------- */

int gb_report__tuned_grid(const gb_report_t *r, gb_report__grid_t *g)
{
    static const char *head[] = {"shape class", "device",     "prec",    "layout",   "shape",
                                 "kernel",      "parameters", "GFLOP/s", "evidence", "tuned at"};
    const size_t ncols = sizeof head / sizeof head[0];
    int rc = gb_report__grid_head(g, head, ncols);
    if (rc != GB_OK)
        return rc;
    g->right[4] = g->right[7] = g->right[8] = 1;
    for (size_t i = 0; i < r->ntuned; i++) {
        const gb_tuned_entry_t *e = &r->tuned[i];
        char buf[1024];
        if ((rc = gb_report__grid_row(g)) != GB_OK)
            return rc;
        rc = gb_report__grid_set(g, 0, "%s", e->shape_class);
        rc |= gb_report__grid_set(g, 1, "%s", e->device);
        rc |= gb_report__grid_set(g, 2, "%s", gb_precision_name(e->precision));
        rc |= gb_report__grid_set(g, 3, "%s", e->layout);
        rc |= gb_report__grid_set(g, 4, "%zux%zux%zu", e->m, e->n, e->k);
        rc |= gb_report__grid_set(g, 5, "%s", e->kernel);
        rc |= gb_report__grid_set(g, 6, "%s", gb_params_text(&e->params, buf, sizeof buf));
        rc |= gb_report__grid_set(g, 7, "%s", gb_report__num(e->gflops, buf, sizeof buf));
        rc |= gb_report__grid_set(g, 8, "%zu", e->nevidence);
        rc |= gb_report__grid_set(g, 9, "%s", e->tuned_at);
        if (rc != GB_OK)
            return GB_ENOMEM;
    }
    return GB_OK;
}

int gb_report__runs_grid(const gb_report_t *r, gb_report__grid_t *g)
{
    static const char *head[] = {"run",         "device",   "kernel", "prec",  "layout", "MxNxK",
                                 "shape class", "strategy", "seed",   "evals", "best",   "status"};
    const size_t ncols = sizeof head / sizeof head[0];
    int rc = gb_report__grid_head(g, head, ncols);
    if (rc != GB_OK)
        return rc;
    g->right[0] = g->right[5] = g->right[8] = g->right[9] = g->right[10] = 1;
    for (size_t i = 0; i < r->nruns; i++) {
        const gb_report__run_t *k = &r->runs[i];
        const gb_tune_run_t *run = &k->run;
        char buf[64];
        if ((rc = gb_report__grid_row(g)) != GB_OK)
            return rc;
        rc = gb_report__grid_set(g, 0, "%lld", (long long)run->id);
        rc |= gb_report__grid_set(g, 1, "%s", run->device);
        rc |= gb_report__grid_set(g, 2, "%s", run->kernel);
        rc |= gb_report__grid_set(g, 3, "%s", gb_precision_name(run->precision));
        rc |= gb_report__grid_set(g, 4, "%s", run->layout);
        rc |= gb_report__grid_set(g, 5, "%zux%zux%zu", run->m, run->n, run->k);
        rc |= gb_report__grid_set(g, 6, "%s", run->shape_class);
        rc |= gb_report__grid_set(g, 7, "%s", run->strategy);
        rc |= gb_report__grid_set(g, 8, "%llu", (unsigned long long)run->seed);
        /* The evaluations recorded: a run killed on the way never wrote its count. */
        rc |= gb_report__grid_set(g, 9, "%zu", k->nevals);
        rc |= gb_report__grid_set(g, 10, "%s", gb_report__num(k->top, buf, sizeof buf));
        rc |= gb_report__grid_set(g, 11, "%s", run->status);
        if (rc != GB_OK)
            return GB_ENOMEM;
    }
    return GB_OK;
}

int gb_report__write_tuning_text(const gb_report_t *r, int markdown, FILE *f)
{
    void (*draw)(const gb_report__grid_t *, FILE *) =
        markdown ? gb_report__grid_md : gb_report__grid_text;
    gb_report__grid_t g;
    int rc = GB_OK;
    memset(&g, 0, sizeof g);
    fprintf(f,
            "\n%sTuning: the best configuration per shape class\n%sThe tuning database "
            "('gemmbench tuned list'): per device, precision, layout and shape class, the "
            "kernel and parameters 'gemmbench tune' found best, their median GFLOP/s at the "
            "shape tuned at, and the points measured as evidence\n\n",
            markdown ? "## " : "", markdown ? "\n" : "");
    if (!r->tuning_offered)
        fprintf(f, "No tuning data in the store: 'gemmbench tune' makes it, 'gemmbench tuned "
                   "import FILE' adds tuned entries.\n");
    else if (!r->ntuned)
        fprintf(f, "No tuned entry passes the filters.\n");
    else if ((rc = gb_report__tuned_grid(r, &g)) == GB_OK)
        draw(&g, f);
    gb_report__grid_free(&g);
    if (rc != GB_OK || !r->nruns)
        return rc;
    fprintf(f,
            "\n%sTuning runs\n%sEach run of 'gemmbench tune': its strategy and seed, the "
            "evaluations recorded, the best GFLOP/s found and how it ended\n\n",
            markdown ? "## " : "", markdown ? "\n" : "");
    if ((rc = gb_report__runs_grid(r, &g)) == GB_OK)
        draw(&g, f);
    gb_report__grid_free(&g);
    return rc == GB_OK ? gb_report__write_pareto_text(r, markdown, f) : rc;
}

/* ---- data ----------------------------------------------------------------------------------- */

int gb_report__write_tuning_csv(const gb_report_t *r, FILE *f)
{
    fputs("shape_class,device,platform,driver,vendor,type,precision,layout,m,n,k,kernel,params,"
          "gflops,evidence,tuned_at\n",
          f);
    for (size_t i = 0; i < r->ntuned; i++) {
        const gb_tuned_entry_t *e = &r->tuned[i];
        const char *text[] = {e->shape_class,
                              e->device,
                              e->platform,
                              e->driver,
                              e->vendor,
                              e->type,
                              gb_precision_name(e->precision),
                              e->layout};
        for (size_t c = 0; c < sizeof text / sizeof text[0]; c++) {
            gb_store_csv_field(f, text[c]);
            fputc(',', f);
        }
        fprintf(f, "%zu,%zu,%zu,", e->m, e->n, e->k);
        gb_store_csv_field(f, e->kernel);
        char *params = gb_report__params_json(&e->params);
        if (!params)
            return GB_ENOMEM;
        fputc(',', f);
        gb_store_csv_field(f, params);
        free(params);
        char ev[GB_TUNED_EVIDENCE * (GB_POINT_ID_LEN + 1) + 1];
        size_t used = 0;
        ev[0] = '\0';
        for (size_t j = 0; j < e->nevidence; j++)
            gb__appendf(ev, sizeof ev, &used, "%s%s", j ? " " : "", e->evidence[j]);
        fprintf(f, ",%.9g,", e->gflops);
        gb_store_csv_field(f, ev);
        fputc(',', f);
        gb_store_csv_field(f, e->tuned_at);
        fputc('\n', f);
    }
    return ferror(f) ? GB_EIO : GB_OK;
}

/* Where a tuned entry or a run was measured. */
static void add_device(cJSON *o, const char *device, const char *platform, const char *driver)
{
    cJSON_AddStringToObject(o, "device", device);
    cJSON_AddStringToObject(o, "platform", platform);
    cJSON_AddStringToObject(o, "driver", driver);
}

static cJSON *tuned_json(const gb_tuned_entry_t *e)
{
    cJSON *o = cJSON_CreateObject(), *ps = cJSON_CreateObject(), *ev = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "class", e->shape_class);
    add_device(o, e->device, e->platform, e->driver);
    cJSON_AddStringToObject(o, "vendor", e->vendor);
    cJSON_AddStringToObject(o, "type", e->type);
    gb_report__json_problem(o, e->precision, e->layout, e->m, e->n, e->k);
    cJSON_AddStringToObject(o, "kernel", e->kernel);
    for (size_t j = 0; j < e->params.count; j++)
        cJSON_AddNumberToObject(ps, e->params.name[j], (double)e->params.value[j]);
    cJSON_AddItemToObject(o, "params", ps);
    cJSON_AddItemToObject(o, "gflops", gb_report__json_num(e->gflops));
    for (size_t j = 0; j < e->nevidence; j++)
        cJSON_AddItemToArray(ev, cJSON_CreateString(e->evidence[j]));
    cJSON_AddItemToObject(o, "evidence", ev);
    cJSON_AddStringToObject(o, "tuned_at", e->tuned_at);
    return o;
}

static cJSON *run_json(const gb_report__run_t *k)
{
    const gb_tune_run_t *run = &k->run;
    cJSON *o = cJSON_CreateObject(), *curve = cJSON_CreateArray();
    char seed[24];
    cJSON_AddNumberToObject(o, "id", (double)run->id);
    add_device(o, run->device, run->platform, run->driver);
    cJSON_AddStringToObject(o, "kernel", run->kernel);
    gb_report__json_problem(o, run->precision, run->layout, run->m, run->n, run->k);
    cJSON_AddStringToObject(o, "class", run->shape_class);
    cJSON_AddStringToObject(o, "strategy", run->strategy);
    /* A seed may pass 2^53: as text, exact, like a point's seed in an export. */
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)run->seed);
    cJSON_AddStringToObject(o, "seed", seed);
    cJSON_AddNumberToObject(o, "budget", (double)run->budget);
    cJSON_AddNumberToObject(o, "space", (double)run->space);
    cJSON_AddStringToObject(o, "started", run->started);
    cJSON_AddStringToObject(o, "finished", run->finished);
    cJSON_AddStringToObject(o, "status", run->status);
    cJSON_AddNumberToObject(o, "evaluations", (double)k->nevals);
    cJSON_AddItemToObject(o, "best", gb_report__json_num(k->top));
    cJSON_AddStringToObject(o, "winner", run->winner);
    for (size_t i = 0; i < k->nevals; i++)
        cJSON_AddItemToArray(curve, gb_report__json_num(k->best[i]));
    cJSON_AddItemToObject(o, "best_so_far", curve);
    gb_report__pareto_json(k, o);
    return o;
}

void gb_report__tuning_json(const gb_report_t *r, void *root)
{
    cJSON *tuned = cJSON_AddArrayToObject(root, "tuned");
    for (size_t i = 0; tuned && i < r->ntuned; i++)
        cJSON_AddItemToArray(tuned, tuned_json(&r->tuned[i]));
    cJSON *runs = cJSON_AddArrayToObject(root, "tuning_runs");
    for (size_t i = 0; runs && i < r->nruns; i++)
        cJSON_AddItemToArray(runs, run_json(&r->runs[i]));
}

/* ---- the plot ------------------------------------------------------------------------------- */

static const struct {
    const char *strategy, *colour;
} colours[] = {{"exhaustive", "#7f7f7f"}, {"random", "#1f77b4"}, {"anneal", "#ff7f0e"},
               {"genetic", "#2ca02c"},    {"bayes", "#d62728"},  {"", "#9467bd"}};

static size_t colour_of(const char *strategy)
{
    size_t i = 0;
    while (colours[i].strategy[0] && strcmp(colours[i].strategy, strategy))
        i++;
    return i;
}

int gb_report__tuning_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p)
{
    /* The most recent runs that found something: a run without a success has no line. */
    size_t drawn[MAX_RUN_LINES], nd = 0, drawable = 0;
    for (size_t i = r->nruns; i-- > 0;)
        if (!isnan(r->runs[i].top) && drawable++ < MAX_RUN_LINES)
            drawn[nd++] = i;
    p->kind = GB_PLOT_TUNING;
    if (!nd) {
        snprintf(p->note, sizeof p->note,
                 r->nruns ? "No tuning run in the selection has a successful evaluation: there "
                            "is no best so far to plot."
                          : "No tuning runs in the selection: the plot of the best GFLOP/s "
                            "against evaluations needs one ('gemmbench tune').");
        return GB_OK;
    }
    char path[1100], term[200];
    FILE *d = gb_report__gp_file(gp, "tuning.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    for (size_t j = nd; j-- > 0;) { /* oldest first */
        const gb_report__run_t *k = &r->runs[drawn[j]];
        fprintf(d, "# run %lld %s\n", (long long)k->run.id, k->run.strategy);
        for (size_t e = 0; e < k->nevals; e++)
            if (!isnan(k->best[e]))
                fprintf(d, "%zu %.9g\n", e + 1, k->best[e]);
        fprintf(d, "\n\n");
    }
    if (fclose(d) != 0)
        return GB_EIO;
    p->width = 960;
    gb_report__gp_terminal(term, sizeof term, p->width, 520);
    fprintf(g,
            "%sset output 'tuning.svg'\nset title 'Tuning runs: the best GFLOP/s found against "
            "evaluations'\nset xlabel 'evaluations'\nset ylabel 'best GFLOP/s so far'\nset grid\n"
            "set key outside below\nset yrange [0:*]\nset xrange [0:*]\nplot ",
            term);
    unsigned titled = 0; /* strategies already in the key: one entry per strategy */
    for (size_t j = nd, idx = 0; j-- > 0; idx++) {
        const gb_tune_run_t *run = &r->runs[drawn[j]].run;
        const size_t c = colour_of(run->strategy);
        fprintf(g, "%s", idx ? ", \\\n     " : "");
        gb_report__gp_quote(g, path);
        fprintf(g, " index %zu using 1:2 with linespoints lw 2 pt 7 ps 0.5 lc rgb '%s' ", idx,
                colours[c].colour);
        if (titled & (1u << c)) {
            fprintf(g, "notitle");
        } else {
            titled |= 1u << c;
            fprintf(g, "title ");
            gb_report__gp_quote(g, colours[c].strategy[0] ? run->strategy : "other strategies");
        }
    }
    fprintf(g, "\nunset grid\nset key default\nset xrange [*:*]\nset yrange [*:*]\n");
    snprintf(p->caption, sizeof p->caption,
             "The best GFLOP/s each tuning run had found after each evaluation (failed "
             "candidates count as evaluations), one line per run, coloured by strategy%s.",
             drawable > nd ? "; the most recent runs only" : "");
    if (drawable > nd)
        snprintf(p->note, sizeof p->note,
                 "The plot shows the %zu most recent of %zu runs with a success; the table lists "
                 "every run.",
                 nd, drawable);
    return GB_OK;
}
