/* offload.c: the offload decision's verdicts and its page: per size, the host BLAS against the
 * device with and without the copies, the break-even size per kind of host memory, and a
 * gnuplot SVG of the times against size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_int.h"

int gb_offload_winner(const gb_offload_row_t *r)
{
    int best = -1;
    double t = r->host_ms > 0 ? r->host_ms : 0;
    for (int hm = 0; hm < GB_HOST_KINDS; hm++)
        if (r->offload_ms[hm] > 0 && (t <= 0 || r->offload_ms[hm] < t)) {
            best = hm;
            t = r->offload_ms[hm];
        }
    return best;
}

size_t gb_offload_breakeven(const gb_offload_t *o, int hm)
{
    size_t at = 0;
    for (size_t i = o->n; i-- > 0;) {
        const gb_offload_row_t *r = &o->rows[i];
        if (!(r->offload_ms[hm] > 0 && r->host_ms > 0 && r->offload_ms[hm] < r->host_ms))
            break;
        at = r->n;
    }
    return at;
}

int gb_offload_measured(const gb_offload_t *o, int hm)
{
    for (size_t i = 0; i < o->n; i++)
        if (o->rows[i].offload_ms[hm] > 0)
            return 1;
    return 0;
}

static const char *who(int k)
{
    static const char *const device[GB_HOST_KINDS] = {"device (pageable)", "device (pinned)",
                                                      "device (mapped)"};
    return k < 0 ? "host" : device[k];
}

const char *gb_offload_verdict(const gb_offload_row_t *r, char *buf, size_t len)
{
    const int w = gb_offload_winner(r);
    /* The runner-up: the fastest of the others measured (-1 the host, -2 none). */
    int second = -2;
    double t = 0;
    if (w >= 0 && r->host_ms > 0) {
        second = -1;
        t = r->host_ms;
    }
    for (int hm = 0; hm < GB_HOST_KINDS; hm++)
        if (hm != w && r->offload_ms[hm] > 0 && (second == -2 || r->offload_ms[hm] < t)) {
            second = hm;
            t = r->offload_ms[hm];
        }
    const gb_offload_ci_t *a = w < 0 ? &r->host_ci : &r->offload_ci[w];
    const gb_offload_ci_t *b = second == -1  ? &r->host_ci
                               : second >= 0 ? &r->offload_ci[second]
                                             : NULL;
    if (!b || !(a->hi > 0) || !(b->hi > 0)) {
        snprintf(buf, len, "%s", who(w));
        return buf;
    }
    const double cover = a->coverage < b->coverage ? a->coverage : b->coverage;
    char c[48];
    if (cover >= 0.95)
        snprintf(c, sizeof c, "95%% CIs");
    else
        snprintf(c, sizeof c, "CIs of %.1f%% (too few calls for 95%%)", 100.0 * cover);
    const int beyond = a->lo <= a->hi && b->lo <= b->hi && a->hi < b->lo;
    snprintf(buf, len, "%s, %s: [%.4g, %.4g] ms against [%.4g, %.4g] ms for %s (%s of the median)",
             who(w), beyond ? "beyond the noise" : "within the noise", a->lo, a->hi, b->lo, b->hi,
             who(second), c);
    return buf;
}

/* A time for the plot's data, NaN (a gap) where there is none. */
static double or_nan(double ms)
{
    return ms > 0 ? ms : (double)NAN;
}

/* The plot's data and script. */
static int plot(const gb_offload_t *o, gb_report__gp_t *gp)
{
    char path[1100];
    FILE *d = gb_report__gp_file(gp, "offload.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    for (size_t i = 0; i < o->n; i++) {
        const gb_offload_row_t *r = &o->rows[i];
        fprintf(d, "%zu %.9g %.9g %.9g %.9g %.9g\n", r->n, or_nan(r->host_ms), or_nan(r->kernel_ms),
                or_nan(r->offload_ms[0]), or_nan(r->offload_ms[1]), or_nan(r->offload_ms[2]));
    }
    if (fclose(d) != 0)
        return GB_EIO;
    char term[160];
    fprintf(g, "%sset output 'offload.svg'\nset title ",
            gb_report__gp_terminal(term, sizeof term, 960, 540));
    char title[512];
    snprintf(title, sizeof title, "%s GEMM: %s against %s (%s)", gb_precision_name(o->precision),
             o->host, o->device, o->kernel);
    gb_report__gp_quote(g, title);
    /* %g: gnuplot's own labels on a log axis read "0.010000". */
    fprintf(g, "\nset logscale xy\nset format x '%%g'\nset format y '%%g'\nset xlabel 'order n (M "
               "= N = K)'\nset ylabel 'time per "
               "call, ms (median)'\nset grid\nset key outside below\nset datafile missing "
               "'nan'\n");
    static const char *const colour[GB_HOST_KINDS] = {"#ff7f0e", "#d62728", "#9467bd"};
    for (int hm = 0; hm < GB_HOST_KINDS; hm++) {
        const size_t be = gb_offload_breakeven(o, hm);
        if (be)
            fprintf(g,
                    "set arrow from %zu, graph 0 to %zu, graph 1 nohead dt 2 lc rgb '%s'\n"
                    "set label 'break-even, %s: %zu' at %zu, graph %.2f offset 0.5,0 tc rgb "
                    "'%s'\n",
                    be, be, colour[hm], gb_host_mem_name((gb_host_mem_t)hm), be, be,
                    0.90 + 0.05 * hm - (hm == 2 ? 0.15 : 0), colour[hm]);
    }
    fprintf(g, "plot ");
    gb_report__gp_quote(g, path);
    fprintf(g, " using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'host BLAS', \\\n  ");
    gb_report__gp_quote(g, path);
    fprintf(g, " using 1:3 with linespoints lw 2 pt 5 lc rgb '#2ca02c' title 'device, kernel "
               "only', \\\n  ");
    gb_report__gp_quote(g, path);
    fprintf(g, " using 1:4 with linespoints lw 2 pt 9 lc rgb '#ff7f0e' title 'device + copies, "
               "pageable', \\\n  ");
    gb_report__gp_quote(g, path);
    fprintf(g, " using 1:5 with linespoints lw 2 pt 11 lc rgb '#d62728' title 'device + copies, "
               "pinned'");
    if (gb_offload_measured(o, GB_HOST_MAPPED)) {
        fprintf(g, ", \\\n  ");
        gb_report__gp_quote(g, path);
        fprintf(g, " using 1:6 with linespoints lw 2 pt 13 lc rgb '#9467bd' title 'device, "
                   "zero-copy (mapped)'");
    }
    fprintf(g, "\n");
    return GB_OK;
}

int gb_report_offload_html(const gb_offload_t *o, FILE *f, char *msg, size_t msglen)
{
    gb_report__gp_t gp;
    int rc = gb_report__gp_open(&gp, msg, msglen);
    if (rc != GB_OK)
        return rc;
    char *svg = NULL;
    if ((rc = plot(o, &gp)) != GB_OK)
        snprintf(msg, msglen, "cannot write the plot's data in %s", gp.dir);
    else if ((rc = gb_report__gp_run(&gp, msg, msglen)) == GB_OK &&
             !(svg = gb_report__gp_svg(&gp, "offload.svg", "off")))
        rc = gb__fail(msg, msglen, GB_EIO, "gnuplot made no plot (%s)", gp.dir);
    gb_report__gp_close(&gp);
    if (rc != GB_OK)
        return rc;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gemmbench offload"
               "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:1em auto}"
               "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;"
               "text-align:right}</style></head><body>\n<h1>Offload: ");
    gb_report__html_escape(f, o->host);
    fprintf(f, " or ");
    gb_report__html_escape(f, o->device);
    fprintf(f,
            "</h1>\n<p>Median time per call of a square %s GEMM of order n: the host's BLAS; "
            "the device's kernel ",
            gb_precision_name(o->precision));
    gb_report__html_escape(f, o->kernel);
    fprintf(f,
            " (and its helper passes) alone; and the device with the copies of A, B and C to "
            "it and C back, from pageable or pinned host memory, and (where the device shares "
            "the host's memory) zero-copy on mapped host memory. Offloading pays from the "
            "break-even size on (dashed).</p>\n%s\n<table><tr><th>n</th><th>host ms</th>"
            "<th>kernel ms</th><th>offload ms, pageable</th><th>offload ms, pinned</th>"
            "<th>offload ms, mapped</th><th>faster</th></tr>\n",
            svg);
    for (size_t i = 0; i < o->n; i++) {
        const gb_offload_row_t *r = &o->rows[i];
        fprintf(f, "<tr><td>%zu</td><td>%.4g</td><td>%.4g</td><td>%.4g</td><td>%.4g</td>", r->n,
                r->host_ms, r->kernel_ms, r->offload_ms[0], r->offload_ms[1]);
        if (r->offload_ms[2] > 0)
            fprintf(f, "<td>%.4g</td>", r->offload_ms[2]);
        else
            fprintf(f, "<td>-</td>");
        char v[400];
        fprintf(f, "<td>");
        gb_report__html_escape(f, gb_offload_verdict(r, v, sizeof v));
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</table>\n");
    for (int hm = 0; hm < GB_HOST_KINDS; hm++) {
        if (hm == GB_HOST_MAPPED && !gb_offload_measured(o, hm))
            continue;
        const size_t be = gb_offload_breakeven(o, hm);
        fprintf(f, "<p>break-even, %s: ", gb_host_mem_name((gb_host_mem_t)hm));
        if (be)
            fprintf(f, "n = %zu</p>\n", be);
        else
            fprintf(f, "none: the host is faster at the largest size</p>\n");
    }
    fprintf(f, "</body></html>\n");
    free(svg);
    return GB_OK;
}
