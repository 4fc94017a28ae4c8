/* compare_html.c: `gemmbench compare --format html`: the comparison as one page, its plot drawn
 * by gnuplot (gnuplot.c) and inlined. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "report_int.h"

/* The speedups by definition, one series per verdict, on a log scale around 1. */
static int plot(gb_report__gp_t *gp, const gb_compare_t *c)
{
    char path[1100];
    FILE *d = gb_report__gp_file(gp, "compare.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    for (size_t i = 0; i < c->nrows; i++)
        fprintf(d, "%zu %.9g %d\n", i + 1, c->rows[i].speedup, (int)c->rows[i].verdict);
    if (fclose(d) != 0)
        return GB_EIO;
    char term[160];
    fprintf(g,
            "%sset output 'compare.svg'\nset title 'NEW against BASE: the speedup of "
            "each definition (base median / new median)'\nset logscale y 2\nset format y "
            "'%%g'\nset xlabel "
            "'definition (its row in the table below)'\nset ylabel 'speedup'\nset xrange "
            "[0:%zu]\nset key outside below\nset grid ytics\n",
            gb_report__gp_terminal(term, sizeof term, 960, 480), c->nrows + 1);
    static const char *const style[] = {"pt 6 lc rgb '#777777'", "pt 7 lc rgb '#1a9850'",
                                        "pt 7 lc rgb '#d73027'"};
    fputs("plot ", g);
    for (int v = 0; v < 3; v++) {
        gb_report__gp_quote(g, path);
        fprintf(g, " using 1:($3 == %d ? $2 : 1/0) with points %s title '%s%s', ", v, style[v],
                gb_cmp_verdict_name((gb_cmp_verdict_t)v), v ? "" : " within the noise");
    }
    fputs("1 with lines dt 2 lc rgb '#000000' notitle\n", g);
    return GB_OK;
}

static void cell(FILE *f, const char *cls, const char *text)
{
    fprintf(f, "<td%s>", cls);
    gb_report__html_escape(f, text);
    fputs("</td>", f);
}

int gb_compare_html(FILE *f, const gb_compare_t *c, const gb_cmp_sum_t *s, size_t ns,
                    const char *base, const char *new_, char *msg, size_t msglen)
{
    gb_report__gp_t gp;
    int rc = gb_report__gp_open(&gp, msg, msglen);
    if (rc != GB_OK)
        return rc;
    char *svg = NULL;
    if ((rc = plot(&gp, c)) != GB_OK)
        snprintf(msg, msglen, "cannot write gnuplot's data in %s", gp.dir);
    else if ((rc = gb_report__gp_run(&gp, msg, msglen)) == GB_OK &&
             !(svg = gb_report__gp_svg(&gp, "compare.svg", "c-"))) {
        snprintf(msg, msglen, "gnuplot wrote no readable compare.svg");
        rc = GB_EIO;
    }
    gb_report__gp_close(&gp);
    if (rc != GB_OK)
        return rc;
    fprintf(f,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<title>gemmbench compare</title>\n<style>\n%s</style>\n</head>\n<body>\n"
            "<h1>gemmbench compare</h1>\n<ul class=\"header\"><li>BASE: ",
            gb_report__html_style());
    gb_report__html_escape(f, base);
    fputs("</li><li>NEW: ", f);
    gb_report__html_escape(f, new_);
    fprintf(f,
            "</li><li>%zu definitions on both sides, %zu only in BASE, %zu only in NEW</li></ul>\n"
            "<p>Points of one definition (device, implementation, parameters, problem, data, "
            "timing; not the driver, the repetition or the provenance) are pooled per side. "
            "Speedup = the median of BASE's timed calls over NEW's; p is a two-sided "
            "Mann-Whitney U test of the two sets of calls (exact where both have at most 50 "
            "calls and no ties, else the normal approximation, marked z); faster or slower "
            "where p &lt; %g (docs/compare.md).</p>\n<figure style=\"max-width:960px\">%s"
            "<figcaption>Each definition's speedup, by its row below; the dashed line is "
            "1.</figcaption></figure>\n<h2>Definitions</h2>\n<div class=\"scroll\"><table>\n"
            "<tr><th class=\"num\">#</th><th>definition</th><th class=\"num\">calls base/new"
            "</th><th class=\"num\">base ms</th><th class=\"num\">new ms</th><th class=\"num\">"
            "speedup</th><th class=\"num\">p</th><th>verdict</th></tr>\n",
            c->nrows, c->nonly[0], c->nonly[1], GB_COMPARE_ALPHA, svg);
    free(svg);
    for (size_t i = 0; i < c->nrows; i++) {
        const gb_cmp_row_t *r = &c->rows[i];
        fprintf(f, "<tr><td class=\"num\">%zu</td>", i + 1);
        cell(f, "", r->what);
        fprintf(f,
                "<td class=\"num\">%zu/%zu</td><td class=\"num\">%.4g</td><td class=\"num\">"
                "%.4g</td><td class=\"num\">%.3f</td><td class=\"num\">%.2g%s</td><td>%s</td>"
                "</tr>\n",
                r->n[0], r->n[1], r->median_ms[0], r->median_ms[1], r->speedup, r->p,
                r->exact ? "" : " z", gb_cmp_verdict_name(r->verdict));
    }
    fputs("</table></div>\n<h2>By device and implementation</h2>\n<div class=\"scroll\"><table>"
          "\n<tr><th>device</th><th>implementation</th><th class=\"num\">definitions</th>"
          "<th class=\"num\">speedup (geometric mean)</th><th class=\"num\">faster</th>"
          "<th class=\"num\">slower</th><th class=\"num\">same</th></tr>\n",
          f);
    for (size_t k = 0; k < ns; k++) {
        fputs("<tr>", f);
        cell(f, "", s[k].device);
        cell(f, "", s[k].kernel);
        fprintf(f,
                "<td class=\"num\">%zu</td><td class=\"num\">%.3f</td><td class=\"num\">%zu</td>"
                "<td class=\"num\">%zu</td><td class=\"num\">%zu</td></tr>\n",
                s[k].rows, s[k].geomean, s[k].faster, s[k].slower, s[k].same);
    }
    fputs("</table></div>\n", f);
    static const char *const side[2] = {"BASE", "NEW"};
    for (int d = 0; d < 2; d++) {
        if (!c->nonly[d])
            continue;
        fprintf(f, "<h2>Only in %s (%zu definitions)</h2>\n<ul>\n", side[d], c->nonly[d]);
        for (size_t i = 0; i < c->nonly[d]; i++) {
            fputs("<li>", f);
            gb_report__html_escape(f, c->only[d][i]);
            fputs("</li>\n", f);
        }
        fputs("</ul>\n", f);
    }
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? GB_EIO : GB_OK;
}
