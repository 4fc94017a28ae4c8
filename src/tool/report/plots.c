/* plots.c: the report's plots, drawn by gnuplot as SVG: GFLOP/s against the matrix order with
 * the repetitions' standard deviation as error bars, one line per series (a kernel
 * configuration on a device; across work-group sizes, the best at each order); a heat map of
 * GFLOP/s over order and work-group size per work-group-size table; GFLOP/s per watt as bars
 * where energy was measured. One gnuplot run makes them all. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define MAX_LINES 12 /* series in the GFLOP/s plot; the tables list every one */
#define MAX_HEAT 8   /* heat maps */

typedef struct series {
    size_t first; /* a row of the series, for its labels */
    size_t *pts;  /* per size, the row with the highest mean, by x ascending */
    size_t npts, nlws;
    double peak;
    int shown;
    char title[600];
} series_t;

static double x_of(const gb_report_t *r, const gb_report__row_t *row)
{
    return r->all_square ? (double)row->n : cbrt((double)row->m * (double)row->n * (double)row->k);
}

static const gb_report_t *sort_report; /* qsort has no context argument */

static int cmp_x(const void *a, const void *b)
{
    double x = x_of(sort_report, &sort_report->rows[*(const size_t *)a]);
    double y = x_of(sort_report, &sort_report->rows[*(const size_t *)b]);
    return (x > y) - (x < y);
}

static void series_free(series_t *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        free(s[i].pts);
    free(s);
}

/* The series of the report: the rows of one plot key (rows of one configuration, whatever
 * their work-group size or number of calls), each size drawn by its row of the highest mean. */
static int build_series(const gb_report_t *r, series_t **out, size_t *count)
{
    series_t *s = calloc(r->nrows ? r->nrows : 1, sizeof *s);
    unsigned char *taken = calloc(r->nrows ? r->nrows : 1, 1);
    size_t n = 0;
    if (!s || !taken) {
        free(s);
        free(taken);
        return GB_ENOMEM;
    }
    for (size_t a = 0; a < r->nrows; a++) {
        if (taken[a])
            continue;
        series_t *e = &s[n++];
        e->first = a;
        if (!(e->pts = malloc((r->nrows - a) * sizeof *e->pts))) {
            series_free(s, n);
            free(taken);
            return GB_ENOMEM;
        }
        for (size_t i = a; i < r->nrows; i++) {
            const gb_report__row_t *row = &r->rows[i];
            if (taken[i] || strcmp(row->pkey, r->rows[a].pkey))
                continue;
            taken[i] = 1;
            if (!gb_report__plotted(row))
                continue;
            size_t j = 0, lws_seen = 0;
            for (size_t k = a; k < i; k++)
                lws_seen |= !strcmp(r->rows[k].pkey, row->pkey) &&
                            r->rows[k].lws[0] == row->lws[0] && r->rows[k].lws[1] == row->lws[1];
            e->nlws += !lws_seen;
            while (j < e->npts &&
                   (r->rows[e->pts[j]].m != row->m || r->rows[e->pts[j]].n != row->n ||
                    r->rows[e->pts[j]].k != row->k))
                j++;
            if (j == e->npts)
                e->pts[e->npts++] = i;
            else if (row->mean > r->rows[e->pts[j]].mean)
                e->pts[j] = i;
            e->peak = row->mean > e->peak ? row->mean : e->peak;
        }
        sort_report = r;
        qsort(e->pts, e->npts, sizeof *e->pts, cmp_x);
        char variant[256];
        gb_report__strip_variant(r->rows[a].variant, 1, variant, sizeof variant);
        size_t len =
            strlen(gb_report__series_title(r, &r->rows[a], variant, e->title, sizeof e->title));
        if (e->nlws > 1)
            snprintf(e->title + len, sizeof e->title - len, " (best of %zu work-groups)", e->nlws);
    }
    free(taken);
    *out = s;
    *count = n;
    return GB_OK;
}

/* GFLOP/s against order: at most MAX_LINES series, those with the highest GFLOP/s. */
static int perf_plot(const gb_report_t *r, series_t *s, size_t ns, gb_report__gp_t *gp,
                     gb_report__plot_t *p)
{
    char path[1100], term[160];
    FILE *d = gb_report__gp_file(gp, "perf.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    size_t shown = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < ns; i++) {
        size_t higher = 0;
        for (size_t j = 0; j < ns; j++)
            higher += s[j].peak > s[i].peak || (s[j].peak == s[i].peak && j < i);
        s[i].shown = higher < MAX_LINES;
        if (!s[i].shown)
            continue;
        fprintf(d, "# %s\n", s[i].title);
        for (size_t k = 0; k < s[i].npts; k++) {
            const gb_report__row_t *row = &r->rows[s[i].pts[k]];
            fprintf(d, "%.9g %.9g %.9g\n", x_of(r, row), row->mean,
                    isnan(row->std) ? 0.0 : row->std);
            lo = fmin(lo, x_of(r, row));
            hi = fmax(hi, x_of(r, row));
        }
        fprintf(d, "\n\n");
        shown++;
    }
    int bad = fclose(d) != 0;
    p->width = 960;
    fprintf(g, "%sset output ", gb_report__gp_terminal(term, sizeof term, p->width, 560));
    fprintf(
        g,
        "'perf.svg'\nset title 'GFLOP/s against matrix order (mean and standard deviation over "
        "repetitions)'\nset xlabel '%s'\nset ylabel 'GFLOP/s'\nset grid\nset key outside below\n"
        "set yrange [0:*]\nset offsets 0, 0, graph 0.05, 0\n",
        r->all_square ? "matrix order n" : "size: cube root of M*N*K");
    /* The order axis where the data is, a margin each side but never below 0. */
    if (lo <= hi) {
        const double m = hi > lo ? 0.03 * (hi - lo) : 0.5 * lo + 1;
        fprintf(g, "set xrange [%.9g:%.9g]\n", fmax(0, lo - m), hi + m);
    }
    fputs("plot ", g);
    size_t idx = 0;
    for (size_t i = 0; i < ns; i++) {
        if (!s[i].shown)
            continue;
        fprintf(g, "%s", idx ? ", \\\n     " : "");
        gb_report__gp_quote(g, path);
        fprintf(g, " index %zu using 1:2:3 with yerrorlines lw 2 pt 7 ps 0.7 title ", idx++);
        gb_report__gp_quote(g, s[i].title);
    }
    fprintf(g,
            "\nunset offsets\nunset grid\nset key default\nset xrange [*:*]\nset yrange [*:*]\n");
    snprintf(
        p->caption, sizeof p->caption,
        "GFLOP/s against the matrix order; the error bars are "
        "the standard deviation over repetitions. A series measured at several work-group sizes "
        "or numbers of calls shows the best at each order.");
    if (shown < ns)
        snprintf(p->note, sizeof p->note,
                 "The plot shows the %zu of %zu series with the highest "
                 "GFLOP/s; the tables list every one.",
                 shown, ns);
    return bad ? GB_EIO : GB_OK;
}

static int heat_plot(const gb_report_t *r, size_t li, gb_report__gp_t *gp, gb_report__plot_t *p)
{
    const gb_report__lws_t *t = &r->lws[li];
    const gb_report__row_t *first = &r->rows[t->first];
    char name[64], path[1100], lab[1100], best[1100], term[160], title[600];
    snprintf(name, sizeof name, "heat%zu.dat", li);
    FILE *d = gb_report__gp_file(gp, name, path, sizeof path), *g = gp->script;
    snprintf(name, sizeof name, "heat%zu.lab", li);
    FILE *l = gb_report__gp_file(gp, name, lab, sizeof lab);
    snprintf(name, sizeof name, "heat%zu.best", li);
    FILE *b = gb_report__gp_file(gp, name, best, sizeof best);
    int bad = !d || !l || !b;
    /* One box per measured cell (not an image: gnuplot draws none for a single row), its value
     * on it; the best of a size marked *, where the size had a choice. */
    for (size_t s = 0; !bad && s < t->nsizes; s++) {
        size_t measured = 0;
        for (size_t c = 0; c < t->ncols; c++)
            measured += t->cell[s * t->ncols + c] != SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++) {
            size_t at = t->cell[s * t->ncols + c];
            if (at == SIZE_MAX)
                continue;
            fprintf(d, "%zu %zu %.9g\n", c, s, r->rows[at].mean);
            if (t->best[s] == c && measured > 1)
                fprintf(b, "%zu %zu \"%.3g*\"\n", c, s, r->rows[at].mean);
            else
                fprintf(l, "%zu %zu \"%.3g\"\n", c, s, r->rows[at].mean);
        }
    }
    FILE *files[] = {d, l, b};
    for (size_t i = 0; i < 3; i++) /* close all three, whatever the others did */
        if (files[i] && fclose(files[i]) != 0)
            bad = 1;
    if (bad)
        return GB_EIO;
    int square = 1;
    for (size_t s = 0; s < t->nsizes; s++)
        square &= t->sizes[s][0] == t->sizes[s][1] && t->sizes[s][1] == t->sizes[s][2];
    int w = 200 + 44 * (int)t->ncols, h = 200 + 34 * (int)t->nsizes;
    p->width = w < 640 ? 640 : w;
    fprintf(g, "%s", gb_report__gp_terminal(term, sizeof term, p->width, h < 360 ? 360 : h));
    snprintf(name, sizeof name, "heat%zu.svg", li);
    fprintf(g, "set output ");
    gb_report__gp_quote(g, name);
    gb_report__series_title(r, first, t->variant, title, sizeof title);
    fprintf(g, "\nset title ");
    gb_report__gp_quote(g, title);
    fprintf(g,
            "\nunset key\nset xlabel 'work-group size J x I (LX x LY)'\nset ylabel '%s'\n"
            "set cblabel 'GFLOP/s (mean over repetitions)'\nset palette defined (0 '#ffffe5', 0.5 "
            "'#fec44f', 1 '#cc4c02')\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\nset xtics "
            "rotate by 45 right (",
            square ? "matrix order n" : "size MxNxK", t->ncols - 1, t->nsizes - 1);
    for (size_t c = 0; c < t->ncols; c++)
        fprintf(g, "%s'%ldx%ld' %zu", c ? ", " : "", t->cols[c][0], t->cols[c][1], c);
    fprintf(g, ")\nset ytics (");
    for (size_t s = 0; s < t->nsizes; s++) {
        if (square)
            fprintf(g, "%s'%zu' %zu", s ? ", " : "", t->sizes[s][0], s);
        else
            fprintf(g, "%s'%zux%zux%zu' %zu", s ? ", " : "", t->sizes[s][0], t->sizes[s][1],
                    t->sizes[s][2], s);
    }
    fprintf(g, ")\nplot ");
    gb_report__gp_quote(g, path);
    fprintf(g, " using 1:2:(0.5):(0.5):3 with boxxyerror fillcolor palette fillstyle solid 1.0 "
               "noborder title 'GFLOP/s', ");
    gb_report__gp_quote(g, lab);
    fprintf(g, " using 1:2:3 with labels font 'sans,9' title 'values', ");
    gb_report__gp_quote(g, best);
    fprintf(g, " using 1:2:3 with labels font 'sans,10' title 'best'\nset xtics autofreq norotate\n"
               "set ytics autofreq\nset xrange [*:*]\nset yrange [*:*]\nunset cblabel\n");
    p->lws = li;
    snprintf(p->caption, sizeof p->caption,
             "Mean GFLOP/s of %.300s by matrix order and work-group size; "
             "the best of each order is marked *. Blank cells were not measured.",
             title);
    return GB_OK;
}

static int energy_plot(const gb_report_t *r, series_t *s, size_t ns, gb_report__gp_t *gp,
                       gb_report__plot_t *p)
{
    char path[1100], term[160];
    double xs[256];
    size_t nx = 0, nseries = 0;
    for (size_t i = 0; i < ns; i++) {
        s[i].shown = 0;
        for (size_t k = 0; k < s[i].npts; k++) {
            const gb_report__row_t *row = &r->rows[s[i].pts[k]];
            if (!row->nenergy)
                continue;
            s[i].shown = 1;
            size_t j = 0;
            while (j < nx && xs[j] != x_of(r, row))
                j++;
            if (j == nx && nx < sizeof xs / sizeof xs[0])
                xs[nx++] = x_of(r, row);
        }
        nseries += s[i].shown && nseries < MAX_LINES;
    }
    if (!nseries) {
        snprintf(
            p->note, sizeof p->note,
            "No energy measurements in the selected points%s%s%s: "
            "energy comes from NVML on NVIDIA GPUs and from RAPL on CPUs where it is readable, "
            "and points stored before schema version 2 did not record it.",
            r->energy_why[0] ? " (the first says: " : "", r->energy_why,
            r->energy_why[0] ? ")" : "");
        return GB_OK;
    }
    for (size_t i = 1; i < nx; i++) /* a few dozen orders at most: insertion sort */
        for (size_t j = i; j > 0 && xs[j - 1] > xs[j]; j--) {
            double t = xs[j];
            xs[j] = xs[j - 1];
            xs[j - 1] = t;
        }
    FILE *d = gb_report__gp_file(gp, "energy.dat", path, sizeof path), *g = gp->script;
    if (!d)
        return GB_EIO;
    for (size_t j = 0; j < nx; j++) {
        fprintf(d, "\"%.4g\"", xs[j]);
        for (size_t i = 0, used = 0; i < ns && used < MAX_LINES; i++) {
            if (!s[i].shown)
                continue;
            used++;
            double v = (double)NAN;
            for (size_t k = 0; k < s[i].npts; k++) {
                const gb_report__row_t *row = &r->rows[s[i].pts[k]];
                if (x_of(r, row) == xs[j] && row->nenergy)
                    v = row->gpw;
            }
            fprintf(d, isnan(v) ? " ?" : " %.9g", v);
        }
        fputc('\n', d);
    }
    if (fclose(d) != 0)
        return GB_EIO;
    fprintf(
        g,
        "%sset output 'energy.svg'\nset title 'Energy efficiency: GFLOP/s per watt'\n"
        "set style data histograms\nset style histogram clustered gap 1\nset style fill solid "
        "0.85 border -1\nset datafile missing '?'\nset xlabel '%s'\nset ylabel 'GFLOP/s per watt "
        "(mean over repetitions)'\nset key outside below\nset yrange [0:*]\nplot ",
        gb_report__gp_terminal(term, sizeof term, p->width = 960, 520),
        r->all_square ? "matrix order n" : "size: cube root of M*N*K");
    for (size_t i = 0, col = 2; i < ns && col - 2 < nseries; i++) {
        if (!s[i].shown)
            continue;
        fprintf(g, "%s", col > 2 ? ", " : "");
        gb_report__gp_quote(g, path);
        fprintf(g, col == 2 ? " using %zu:xtic(1) title " : " using %zu title ", col);
        gb_report__gp_quote(g, s[i].title);
        col++;
    }
    fprintf(g, "\n");
    p->svg = NULL;
    snprintf(
        p->caption, sizeof p->caption,
        "GFLOP/s per watt: 2*M*N*K times the calls of the "
        "energy loop (calls after the timed ones for GEMMBENCH_ENERGY_MIN_S seconds or more, 1 "
        "by default: device-only for timing kernel and ops, whole calls with copies for "
        "offload) over the energy the device's counter gave for it; mean over the "
        "repetitions that measured it.");
    return GB_OK;
}

void gb_report__plots_free(gb_report__plot_t *plots, size_t n)
{
    for (size_t i = 0; plots && i < n; i++)
        free(plots[i].svg);
    free(plots);
}

const gb_report__plot_t *gb_report__plot_of(const gb_report__plot_t *plots, size_t n,
                                            gb_report__plot_kind_t kind)
{
    for (size_t i = 0; i < n; i++)
        if (plots[i].kind == kind)
            return &plots[i];
    return NULL;
}

int gb_report__make_plots(const gb_report_t *r, unsigned tables, gb_report__plot_t **plots,
                          size_t *n, char *msg, size_t msglen)
{
    const int lws = (tables & GB_REPORT_LWS) != 0, tuning = gb_report__tuning_shown(r, tables);
    /* The tuning view alone draws no point: neither the GFLOP/s nor the energy plot. */
    const int points = (tables & (GB_REPORT_REPS | GB_REPORT_LWS)) != 0;
    size_t nheat = lws ? (r->nlws < MAX_HEAT ? r->nlws : MAX_HEAT) : 0, ns = 0;
    const size_t np = nheat + 3 + (tuning ? 2u : 0u);
    gb_report__plot_t *p = calloc(np, sizeof *p);
    series_t *s = NULL;
    gb_report__gp_t gp;
    *plots = NULL;
    *n = 0;
    if (!p || build_series(r, &s, &ns) != GB_OK) {
        free(p);
        snprintf(msg, msglen, "out of memory");
        return GB_ENOMEM;
    }
    int rc = gb_report__gp_open(&gp, msg, msglen);
    if (rc != GB_OK)
        goto done;
    p[0].kind = GB_PLOT_PERF;
    if (points)
        rc = perf_plot(r, s, ns, &gp, &p[0]);
    size_t left = 0;
    for (size_t i = 0; i < r->nrows; i++)
        left += !gb_report__plotted(&r->rows[i]);
    if (left && p[0].caption[0]) {
        const size_t at = strlen(p[0].caption);
        snprintf(p[0].caption + at, sizeof p[0].caption - at,
                 " %zu row%s of fewer than %.0f multiply-adds (M*N*K) %s left out of the plots "
                 "(such a rate is a launch's overhead, not the GEMM's); the tables list %s.",
                 left, left == 1 ? "" : "s", GB_REPORT_PLOT_MIN_MNK, left == 1 ? "is" : "are",
                 left == 1 ? "it" : "them");
    }
    for (size_t i = 0; rc == GB_OK && i < nheat; i++) {
        p[1 + i].kind = GB_PLOT_HEAT;
        rc = heat_plot(r, i, &gp, &p[1 + i]);
    }
    p[1 + nheat].kind = GB_PLOT_ENERGY;
    if (rc == GB_OK && points)
        rc = energy_plot(r, s, ns, &gp, &p[1 + nheat]);
    p[2 + nheat].kind = GB_PLOT_ROOFLINE;
    if (rc == GB_OK && points)
        rc = gb_report__roofline_plot(r, &gp, &p[2 + nheat]);
    if (rc == GB_OK && tuning) {
        p[3 + nheat].kind = GB_PLOT_TUNING;
        rc = gb_report__tuning_plot(r, &gp, &p[3 + nheat]);
        p[4 + nheat].kind = GB_PLOT_PARETO;
        if (rc == GB_OK)
            rc = gb_report__pareto_plot(r, &gp, &p[4 + nheat]);
    }
    if (rc != GB_OK) {
        snprintf(msg, msglen, "cannot write gnuplot's data in %s", gp.dir);
        goto done;
    }
    size_t drawn = 0;
    for (size_t i = 0; i < np; i++)
        drawn += p[i].caption[0] != '\0';
    /* Nothing to draw (the tuning view alone, without a run to plot): no gnuplot needed. */
    if (drawn && (rc = gb_report__gp_run(&gp, msg, msglen)) != GB_OK)
        goto done;
    for (size_t i = 0; i < np; i++) {
        static const char *const names[] = {"perf", "", "energy", "tuning", "roofline", "pareto"};
        char name[64], prefix[32];
        /* A plot with nothing to draw has a note instead, and no caption. */
        if (!p[i].caption[0])
            continue;
        if (p[i].kind == GB_PLOT_HEAT)
            snprintf(name, sizeof name, "heat%zu.svg", p[i].lws);
        else
            snprintf(name, sizeof name, "%s.svg", names[p[i].kind]);
        snprintf(prefix, sizeof prefix, "p%zu-", i);
        if (!(p[i].svg = gb_report__gp_svg(&gp, name, prefix))) {
            snprintf(msg, msglen, "gnuplot wrote no readable %s", name);
            rc = GB_EIO;
            goto done;
        }
    }
    if (nheat < r->nlws && lws)
        snprintf(p[nheat].note, sizeof p[nheat].note,
                 "Heat maps are drawn for the first %d of %zu "
                 "work-group-size tables; the tables below list every one.",
                 MAX_HEAT, r->nlws);
done:
    gb_report__gp_close(&gp);
    series_free(s, ns);
    if (rc != GB_OK) {
        gb_report__plots_free(p, np);
        return rc;
    }
    *plots = p;
    *n = np;
    return GB_OK;
}
