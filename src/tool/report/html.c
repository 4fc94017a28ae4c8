/* html.c: the report as one self-contained HTML page: the header, gnuplot's SVG plots inlined
 * (no scripts, no external resources), the work-group-size tables with their heat maps and the
 * repetitions table. Every plot is made before the first byte is written. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report_int.h"

static const char *const style =
    "body{font-family:'DejaVu Sans',sans-serif;margin:1.5em auto;max-width:1360px;padding:0 1em;"
    "color:#222;background:#fff;line-height:1.4}\n"
    "h1{font-size:1.6em;margin-bottom:.3em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
    "padding-bottom:.2em;margin-top:1.8em}h3{font-size:1.05em;margin-bottom:.3em}\n"
    "ul.header{font-size:.9em;padding-left:1.2em}p.made{font-size:.8em;color:#666}\n"
    "figure{margin:.6em 0 1em}figure svg{width:100%;height:auto;display:block}\n"
    "figcaption{font-size:.85em;color:#555}p.note{color:#7a4b00;font-size:.9em}\n"
    ".scroll{overflow-x:auto}table{border-collapse:collapse;font-size:.8em;margin:.4em 0 1.2em}\n"
    "th,td{border:1px solid #ddd;padding:.15em .45em;white-space:nowrap}th{background:#f2f2f2}\n"
    "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}\n"
    "td.best{font-weight:bold;background:#fdd9a8}\n"
    /* Long cells wrap, so that a wide table fits a 1400-pixel window; one that does not
     * scrolls inside its .scroll box, never the page. */
    "td.wrap{white-space:normal;min-width:8em;max-width:22em}\n"
    "td.cmd{white-space:normal;min-width:16em;max-width:30em;overflow-wrap:anywhere;"
    "font-family:'DejaVu Sans Mono',monospace;font-size:.92em;color:#333}\n";

const char *gb_report__html_style(void)
{
    return style;
}

static void li_line(const char *text, void *user)
{
    fputs("<li>", user);
    gb_report__html_escape(user, text);
    fputs("</li>\n", user);
}

static void para(FILE *f, const char *cls, const char *text)
{
    if (!text[0])
        return;
    fprintf(f, "<p class=\"%s\">", cls);
    gb_report__html_escape(f, text);
    fputs("</p>\n", f);
}

static void figure(FILE *f, const gb_report__plot_t *p)
{
    if (p->svg) {
        fprintf(f, "<figure style=\"max-width:%dpx\">\n", p->width);
        fputs(p->svg, f);
        fputs("<figcaption>", f);
        gb_report__html_escape(f, p->caption);
        fputs("</figcaption>\n</figure>\n", f);
    }
    para(f, "note", p->note);
}

static int grid_out(FILE *f, int rc, gb_report__grid_t *g)
{
    if (rc == GB_OK) {
        fputs("<div class=\"scroll\">\n", f);
        gb_report__grid_html(g, f);
        fputs("</div>\n", f);
    }
    gb_report__grid_free(g);
    return rc;
}

/* The tuning view: the winners per shape class, the runs' plot and the runs. */
static int tuning_section(const gb_report_t *r, const gb_report__plot_t *plot,
                          const gb_report__plot_t *pareto, FILE *f)
{
    gb_report__grid_t g;
    int rc = GB_OK;
    fputs("<h2>Tuning</h2>\n<p>The tuning database (<code>gemmbench tuned list</code>): per "
          "device, precision, layout and shape class, the kernel and parameters <code>gemmbench "
          "tune</code> found best, their median GFLOP/s at the shape tuned at, and how many "
          "points were kept as evidence (<code>gemmbench tuned show N</code> lists them).</p>\n",
          f);
    if (!r->tuning_offered)
        para(f, "note",
             "No tuning data in the store: 'gemmbench tune' makes it, 'gemmbench tuned import "
             "FILE' adds tuned entries.");
    else if (!r->ntuned)
        para(f, "note", "No tuned entry passes the filters.");
    else
        rc = grid_out(f, gb_report__tuned_grid(r, &g), &g);
    if (rc != GB_OK || !r->tuning_offered)
        return rc;
    fputs("<h3>Tuning runs</h3>\n", f);
    figure(f, plot);
    if (r->nruns)
        rc = grid_out(f, gb_report__runs_grid(r, &g), &g);
    if (rc != GB_OK || !pareto || !pareto->svg)
        return rc;
    fputs("<h3>Time and energy</h3>\n<p>The time-energy Pareto front of the most recent tuning "
          "run that measured energy (<code>gemmbench tune --objective energy</code> or "
          "<code>edp</code>); the text and JSON reports list each run's.</p>\n",
          f);
    figure(f, pareto);
    return rc;
}

int gb_report__write_html(const gb_report_t *r, unsigned tables, FILE *f, char *msg, size_t msglen)
{
    gb_report__plot_t *plots;
    size_t np;
    const int lws = (tables & GB_REPORT_LWS) != 0,
              points = (tables & (GB_REPORT_REPS | GB_REPORT_LWS)) != 0;
    int rc = gb_report__make_plots(r, tables, &plots, &np, msg, msglen);
    if (rc != GB_OK)
        return rc;
    char when[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>gemmbench report</title>\n<style>\n",
          f);
    fputs(style, f);
    fputs("</style>\n</head>\n<body>\n<h1>gemmbench report</h1>\n<ul class=\"header\">\n", f);
    gb_report__header(r, li_line, f);
    fprintf(
        f,
        "</ul>\n<p class=\"made\">Made by gemmbench %s on %s from the results store; every "
        "number can be traced to its stored points with <code>gemmbench report --format "
        "json</code> and re-run with <code>gemmbench replay ID</code> (the repetitions table gives "
        "each row's command).</p>\n",
        gb_version(), when);

    if (points) {
        fputs("<h2>GFLOP/s against matrix order</h2>\n", f);
        figure(f, gb_report__plot_of(plots, np, GB_PLOT_PERF));
    }
    if (points) {
        fputs("<h2>Roofline</h2>\n<p>Where a kernel's family declares the global-memory traffic "
              "of its main kernel (<code>traffic</code> in its metadata), each row at its "
              "arithmetic intensity and the GFLOP/s of its main kernel, under the measured "
              "ceilings of its device (<code>gemmbench ceilings</code>).</p>\n",
              f);
        figure(f, gb_report__plot_of(plots, np, GB_PLOT_ROOFLINE));
    }
    if (lws) {
        fputs("<h2>Work-group sizes (GEMMbench's Table 3)</h2>\n<p>Mean GFLOP/s over repetitions "
              "by matrix order (rows) and work-group size J x I, the kernel's LX x LY (columns); "
              "the best of each order is marked.</p>\n",
              f);
        if (!r->nlws)
            para(f, "note",
                 "No work-group-size sweep in the selected points: the heat map and "
                 "table need one kernel configuration measured at two or more work-group sizes "
                 "(for example 'gemmbench explore --plan explore-n-lws').");
        for (size_t i = 0; rc == GB_OK && i < r->nlws; i++) {
            const gb_report__row_t *row = &r->rows[r->lws[i].first];
            char title[700];
            snprintf(title, sizeof title, "%s%s%s%s (%s, %s, timing %s, device %s)", row->kernel,
                     r->lws[i].variant[0] ? " [" : "", r->lws[i].variant,
                     r->lws[i].variant[0] ? "]" : "", gb_precision_name(row->precision),
                     row->layout, gb_timing_name(row->timing), r->devs[row->dev].label);
            fputs("<h3>", f);
            gb_report__html_escape(f, title);
            fputs("</h3>\n", f);
            for (size_t k = 0; k < np; k++)
                if (plots[k].kind == GB_PLOT_HEAT && plots[k].lws == i)
                    figure(f, &plots[k]);
            gb_report__grid_t g;
            rc = grid_out(f, gb_report__lws_grid(r, &r->lws[i], &g), &g);
        }
    }
    if (points) {
        fputs("<h2>Energy</h2>\n", f);
        figure(f, gb_report__plot_of(plots, np, GB_PLOT_ENERGY));
    }
    if (rc == GB_OK && gb_report__tuning_shown(r, tables))
        rc = tuning_section(r, gb_report__plot_of(plots, np, GB_PLOT_TUNING),
                            gb_report__plot_of(plots, np, GB_PLOT_PARETO), f);
    if (rc == GB_OK && (tables & GB_REPORT_REPS)) {
        gb_report__grid_t g;
        fputs("<h2>Repetitions (GEMMbench's Table 2)</h2>\n<p>GFLOP/s of each repetition (one "
              "stored point each, its GFLOP/s from the median of its timed calls), their mean and "
              "sample standard deviation; <em>valid</em> is the worst validation verdict over the "
              "repetitions (error ratio / bound, in units of u&middot;G).</p>\n",
              f);
        rc = grid_out(f, gb_report__reps_grid(r, 1, &g), &g);
    }
    fputs("</body>\n</html>\n", f);
    gb_report__plots_free(plots, np);
    return gb_report__written(f, rc, msg, msglen);
}
