/* roofline.c: the report's memory traffic and roofline. A row's traffic is computed again from
 * the kernel registry (the store keeps a point's family, parameters and problem, not its
 * traffic) by the function `run` uses, gb_impl_traffic; the devices' measured ceilings come from
 * the store (gemmbench ceilings); the roofline places each row with traffic at its arithmetic
 * intensity and the GFLOP/s of its main kernel, under the roofs min(peak, bandwidth *
 * intensity) of its device and precision. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

#define MAX_GROUPS 12 /* kernels drawn as point series; the others are left out and counted */

/* The point's device as gb_impl_traffic and gb_impl_program_id read it: its vendor, type and
 * compute units; no limit, so that the route is planned as far as the expressions need. */
static void point_device(const gb_point_t *pt, gb_device_info_t *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", pt->device.name);
    snprintf(d->vendor, sizeof d->vendor, "%s", pt->device.vendor);
    snprintf(d->platform_version, sizeof d->platform_version, "%s", pt->device.platform_version);
    snprintf(d->driver, sizeof d->driver, "%s", pt->device.driver);
    d->type_name = pt->device.type;
    d->compute_units = pt->device.compute_units;
    d->local_mem = pt->device.local_mem;
    d->fp64 = pt->device.fp64;
    d->max_wg_size = SIZE_MAX;
    d->max_wi_sizes[0] = d->max_wi_sizes[1] = d->max_wi_sizes[2] = SIZE_MAX;
    d->image_support = 1;
    d->image2d_max[0] = d->image2d_max[1] = SIZE_MAX;
}

void gb_report__point_traffic(const gb_report_t *r, const gb_point_t *pt, gb_report__row_t *row)
{
    char msg[512], id[64];
    gb_impl_t im;
    gb_device_info_t dev;
    gb_traffic_t t;
    row->traffic = GB_TRAFFIC_NONE;
    if (!r->reg)
        return;
    row->traffic = GB_TRAFFIC_UNKNOWN;
    if (gb_impl_resolve(r->reg, pt->family, &pt->params, &im, msg, sizeof msg) != GB_OK)
        return;
    row->traffic = GB_TRAFFIC_UNDECLARED;
    if (!gb_impl_can(&im, GB_CAN_TRAFFIC))
        return;
    point_device(pt, &dev);
    /* The declaration is the registry's: a point measured with another source of the family
     * ("sha256:<program text>/<build>") may have moved other bytes. Older points, whose hash
     * is of another form, cannot be told apart and are taken. */
    row->traffic = GB_TRAFFIC_OTHER_SOURCE;
    const size_t prog = strlen("sha256:") + 16;
    if (!strncmp(pt->source_hash, "sha256:", 7) &&
        (gb_impl_program_id(&im, &dev, &pt->problem, id, sizeof id, msg, sizeof msg) != GB_OK ||
         strncmp(id, pt->source_hash, prog) != 0))
        return;
    row->traffic = GB_TRAFFIC_FAILED;
    if (gb_impl_traffic(&im, &dev, &pt->problem, &t, msg, sizeof msg) != GB_OK || !t.declared ||
        (double)t.read + (double)t.write <= 0)
        return;
    row->traffic = GB_TRAFFIC_DECLARED;
    row->bytes = (double)t.read + (double)t.write;
    row->intensity = t.intensity;
}

int gb_report__read_ceilings(gb_report_t *r, gb_store_t *st)
{
    for (size_t i = 0; i < r->ndevs; i++) {
        gb_report__dev_t *e = &r->devs[i];
        gb_device_info_t d;
        gb_ceilings_t c;
        memset(&d, 0, sizeof d);
        snprintf(d.name, sizeof d.name, "%s", e->name);
        snprintf(d.platform_version, sizeof d.platform_version, "%s", e->platform_version);
        snprintf(d.driver, sizeof d.driver, "%s", e->driver);
        int rc = gb_store_get_ceilings(st, &d, &c, e->ceilings_when);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            e->peak[GB_PREC_S] = c.peak_gflops[GB_PREC_S];
            e->peak[GB_PREC_D] = c.peak_gflops[GB_PREC_D];
            e->bandwidth = c.bandwidth_gbs;
        }
    }
    return GB_OK;
}

const char *gb_report__traffic_left_out(const gb_report_t *r, char *buf, size_t len)
{
    const size_t *n = r->traffic_rows;
    const size_t out = r->nrows - n[GB_TRAFFIC_DECLARED];
    buf[0] = '\0';
    if (!out)
        return buf;
    size_t used = (size_t)snprintf(buf, len, "%zu of %zu rows %s left out of the roofline:", out,
                                   r->nrows, out == 1 ? "is" : "are");
    static const char *const why[GB_TRAFFIC_KINDS] = {
        [GB_TRAFFIC_NONE] = "without a kernel registry to compute their memory traffic from",
        [GB_TRAFFIC_UNDECLARED] = "whose family declares no memory traffic (library peers among "
                                  "them)",
        [GB_TRAFFIC_UNKNOWN] = "whose family or parameters are not in this kernel registry (a "
                               "family from --kernel-path needs it again)",
        [GB_TRAFFIC_OTHER_SOURCE] = "measured with another version of their family's source",
        [GB_TRAFFIC_FAILED] = "whose traffic could not be evaluated, or whose main kernel's time "
                              "was not recorded"};
    int first = 1;
    for (int k = 0; k < GB_TRAFFIC_KINDS && used < len; k++) {
        if (k == GB_TRAFFIC_DECLARED || !n[k])
            continue;
        used +=
            (size_t)snprintf(buf + used, len - used, "%s %zu %s", first ? "" : ";", n[k], why[k]);
        first = 0;
    }
    if (used < len)
        snprintf(buf + used, len - used, ".");
    return buf;
}

/* A kernel's points: the rows of one kernel, precision and device. */
typedef struct group {
    size_t first; /* a row of it, for its label */
    double best;  /* its highest main-kernel GFLOP/s, to choose the groups drawn */
} group_t;

static int same_group(const gb_report__row_t *a, const gb_report__row_t *b)
{
    return !strcmp(a->kernel, b->kernel) && a->precision == b->precision && a->dev == b->dev;
}

/* Writes the data (a block per group drawn) and returns how many groups were drawn; *lo and *hi
 * get the ranges of intensity and GFLOP/s of the points drawn. */
static size_t write_points(const gb_report_t *r, FILE *d, group_t *g, size_t ng, double lo[2],
                           double hi[2])
{
    size_t drawn = 0;
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = 0;
    for (size_t i = 0; i < ng; i++) {
        size_t higher = 0;
        for (size_t j = 0; j < ng; j++)
            higher += g[j].best > g[i].best || (g[j].best == g[i].best && j < i);
        if (higher >= MAX_GROUPS) {
            g[i].first = SIZE_MAX;
            continue;
        }
        const gb_report__row_t *f = &r->rows[g[i].first];
        fprintf(d, "# %s %s\n", f->kernel, gb_precision_name(f->precision));
        for (size_t k = 0; k < r->nrows; k++) {
            const gb_report__row_t *row = &r->rows[k];
            if (row->traffic != GB_TRAFFIC_DECLARED || !same_group(row, f) ||
                !gb_report__plotted(row))
                continue;
            fprintf(d, "%.9g %.9g\n", row->intensity, row->kgflops);
            lo[0] = fmin(lo[0], row->intensity);
            hi[0] = fmax(hi[0], row->intensity);
            lo[1] = fmin(lo[1], row->kgflops);
            hi[1] = fmax(hi[1], row->kgflops);
        }
        fprintf(d, "\n\n");
        drawn++;
    }
    return drawn;
}

/* The points drawn above the measured peak of their device and precision: a roof drawn below
 * what was observed, which the page must say (the ceilings' micro-benchmark ran short of what
 * kernels reach there). The sentence into buf ("" when there are none). */
static void above_peak(const gb_report_t *r, const group_t *g, size_t ng, char *buf, size_t len)
{
    size_t n = 0, used = 0;
    buf[0] = '\0';
    for (size_t v = 0; v < r->ndevs && v < 64; v++)
        for (int pr = 0; pr < 2; pr++) {
            const double peak = r->devs[v].peak[pr];
            size_t here = 0;
            double top = 0;
            for (size_t k = 0; peak > 0 && k < r->nrows; k++) {
                const gb_report__row_t *row = &r->rows[k];
                size_t i = 0;
                while (i < ng && (g[i].first == SIZE_MAX || !same_group(&r->rows[g[i].first], row)))
                    i++;
                if (row->traffic != GB_TRAFFIC_DECLARED || row->dev != v ||
                    (int)gb_precision_arith(row->precision) != pr || i == ng ||
                    row->kgflops <= peak)
                    continue;
                here++;
                top = fmax(top, row->kgflops);
            }
            if (!here)
                continue;
            gb__appendf(buf, len, &used, "%s%s %s: %.4g GFLOP/s measured, %zu point%s up to %.4g",
                        n ? "; " : "", r->devs[v].label, gb_precision_name((gb_precision_t)pr),
                        peak, here, here == 1 ? "" : "s", top);
            n += here;
        }
    if (n)
        gb__appendf(buf, len, &used,
                    ". %s above the measured peak of %s roof: the roof is drawn below what was "
                    "observed, so 'gemmbench ceilings' measured that peak short; measure it "
                    "again.",
                    n == 1 ? "That point lies" : "Those points lie", n == 1 ? "its" : "their");
}

/* The rows with declared traffic, grouped (same_group) into g (r->nrows at most): how many
 * groups, each with its best GFLOP/s. */
static size_t group_rows(const gb_report_t *r, group_t *g)
{
    size_t ng = 0;
    for (size_t k = 0; k < r->nrows; k++) {
        const gb_report__row_t *row = &r->rows[k];
        if (row->traffic != GB_TRAFFIC_DECLARED || !gb_report__plotted(row))
            continue;
        size_t i = 0;
        while (i < ng && !same_group(&r->rows[g[i].first], row))
            i++;
        if (i == ng)
            g[ng++] = (group_t){k, 0};
        g[i].best = fmax(g[i].best, row->kgflops);
    }
    return ng;
}

/* The roofs to draw: per device, the precisions of its groups drawn (for the first 64 devices;
 * the points of others are drawn without one) into used; the ranges lo, hi widened to the
 * roofs measured; the devices drawn without a measured peak or bandwidth named in missing. */
static void roofs(const gb_report_t *r, const group_t *g, size_t ng, unsigned used[64],
                  double lo[2], double hi[2], char *missing, size_t len)
{
    for (size_t i = 0; i < ng; i++)
        if (g[i].first != SIZE_MAX && r->rows[g[i].first].dev < 64)
            /* FP16 and bfloat16 under single precision's roof: their arithmetic's. */
            used[r->rows[g[i].first].dev] |= 1u
                                             << gb_precision_arith(r->rows[g[i].first].precision);
    missing[0] = '\0';
    for (size_t v = 0; v < r->ndevs && v < 64; v++) {
        const gb_report__dev_t *e = &r->devs[v];
        int lacks = 0;
        for (int pr = 0; pr < 2; pr++) {
            if (!(used[v] & (1u << pr)))
                continue;
            if (e->peak[pr] > 0 && e->bandwidth > 0) {
                hi[1] = fmax(hi[1], e->peak[pr]);
                lo[0] = fmin(lo[0], e->peak[pr] / e->bandwidth);
                hi[0] = fmax(hi[0], e->peak[pr] / e->bandwidth);
            } else {
                lacks = 1;
            }
        }
        if (lacks) {
            size_t n = strlen(missing);
            snprintf(missing + n, len - n, "%s%s", n ? ", " : "", e->label);
        }
    }
}

/* The gnuplot commands: the axes over lo..hi, a line per roof of used, and the points of each
 * group from the data file at path. */
static void plot_script(const gb_report_t *r, FILE *s, const group_t *g, size_t ng,
                        const unsigned used[64], const char *path, const double lo[2],
                        const double hi[2])
{
    char term[160];
    fprintf(s, "%sset output 'roofline.svg'\n",
            gb_report__gp_terminal(term, sizeof term, 960, 600));
    fprintf(s,
            "set title 'Roofline: GFLOP/s of the main kernel against arithmetic intensity'\n"
            "set xlabel 'arithmetic intensity: 2*M*N*K / declared bytes (FLOP/byte)'\n"
            "set ylabel 'GFLOP/s (main kernel, mean over repetitions)'\nset logscale xy\n"
            "set grid\nset key outside below\nset samples 400\n"
            "set xrange [%.6g:%.6g]\nset yrange [%.6g:%.6g]\n",
            lo[0] / 4, hi[0] * 4, lo[1] / 4, hi[1] * 2);
    gb_report__gp_log_tics(s, "x", lo[0] / 4, hi[0] * 4);
    gb_report__gp_log_tics(s, "y", lo[1] / 4, hi[1] * 2);
    fputs("plot ", s);
    size_t idx = 0, line = 0;
    for (size_t v = 0; v < r->ndevs && v < 64; v++)
        for (int pr = 0; pr < 2; pr++) {
            const gb_report__dev_t *e = &r->devs[v];
            if (!(used[v] & (1u << pr)) || !(e->peak[pr] > 0 && e->bandwidth > 0))
                continue;
            char title[256];
            snprintf(title, sizeof title, "%s %s roof: %.4g GFLOP/s, %.4g GB/s", e->label,
                     gb_precision_name((gb_precision_t)pr), e->peak[pr], e->bandwidth);
            fprintf(s,
                    "%s(x * %.9g < %.9g ? x * %.9g : %.9g) with lines lw 2 dt %d lc rgb '#555555' "
                    "title ",
                    line ? ", \\\n     " : "", e->bandwidth, e->peak[pr], e->bandwidth, e->peak[pr],
                    pr ? 2 : 1);
            gb_report__gp_quote(s, title);
            line++;
        }
    for (size_t i = 0; i < ng; i++) {
        if (g[i].first == SIZE_MAX)
            continue;
        const gb_report__row_t *f = &r->rows[g[i].first];
        char title[256];
        snprintf(title, sizeof title, "%s %s%s%s", f->kernel, gb_precision_name(f->precision),
                 r->ndevs > 1 ? " on " : "", r->ndevs > 1 ? r->devs[f->dev].label : "");
        fprintf(s, "%s", line ? ", \\\n     " : "");
        gb_report__gp_quote(s, path);
        fprintf(s, " index %zu using 1:2 with points pt 7 ps 1 title ", idx++);
        gb_report__gp_quote(s, title);
        line++;
    }
    fprintf(s, "\nunset logscale\nunset grid\nset key default\nset xrange [*:*]\n"
               "set yrange [*:*]\nset xtics autofreq\nset ytics autofreq\n");
}

/* The plot's caption, and its note: the rows left out, the devices without ceilings (missing),
 * and how many of the ng groups were drawn. */
static void caption(gb_report__plot_t *p, const char *left, const char *missing, const char *above,
                    size_t drawn, size_t ng)
{
    snprintf(p->caption, sizeof p->caption,
             "Each row whose family declares its memory traffic, at its arithmetic intensity "
             "(2*M*N*K over the bytes its main kernel's global loads and stores name, per "
             "work-item: requests, not DRAM traffic) and the GFLOP/s of its main kernel's "
             "median time; the roofs are min(measured peak, measured bandwidth x intensity) "
             "of 'gemmbench ceilings'. Loads that caches serve count, so a point can lie above "
             "the bandwidth roof.");
    size_t n = (size_t)snprintf(p->note, sizeof p->note, "%.600s", left);
    if (missing[0] && n < sizeof p->note)
        n += (size_t)snprintf(p->note + n, sizeof p->note - n,
                              "%sNo ceilings stored for %s: 'gemmbench ceilings' measures them.",
                              n ? " " : "", missing);
    if (above[0] && n < sizeof p->note)
        n += (size_t)snprintf(p->note + n, sizeof p->note - n, "%sAbove the peak: %s", n ? " " : "",
                              above);
    if (drawn < ng && n < sizeof p->note)
        snprintf(p->note + n, sizeof p->note - n,
                 "%sThe plot shows the %zu of %zu kernels with the highest GFLOP/s.", n ? " " : "",
                 drawn, ng);
}

int gb_report__roofline_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p)
{
    char left[1024];
    gb_report__traffic_left_out(r, left, sizeof left);
    if (!r->traffic_rows[GB_TRAFFIC_DECLARED]) {
        snprintf(p->note, sizeof p->note,
                 "No roofline: no selected row has declared memory traffic (a family's 'traffic' "
                 "metadata, docs/kernel-metadata.md). %.600s",
                 left);
        return GB_OK;
    }
    group_t *g = calloc(r->nrows, sizeof *g);
    if (!g)
        return GB_ENOMEM;
    const size_t ng = group_rows(r, g);
    char path[1100];
    double lo[2], hi[2];
    FILE *d = gb_report__gp_file(gp, "roofline.dat", path, sizeof path);
    if (!d) {
        free(g);
        return GB_EIO;
    }
    const size_t drawn = write_points(r, d, g, ng, lo, hi);
    const int bad = fclose(d) != 0;
    unsigned used[64] = {0};
    char missing[512];
    roofs(r, g, ng, used, lo, hi, missing, sizeof missing);
    p->width = 960;
    plot_script(r, gp->script, g, ng, used, path, lo, hi);
    char above[512];
    above_peak(r, g, ng, above, sizeof above);
    caption(p, left, missing, above, drawn, ng);
    free(g);
    return bad ? GB_EIO : GB_OK;
}
