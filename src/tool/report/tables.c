/* tables.c: the report's header and its two tables as grids (repetitions, the paper's Table 2;
 * work-group sizes, Table 3), and the text and Markdown output made of them. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* "gemmbench replay ID --store PATH" for the row's first repetition, the store's path made
 * absolute where it resolves and quoted for a POSIX shell where it needs to be. */
static const char *replay_text(const gb_report_t *r, const gb_report__row_t *row, char *buf,
                               size_t len)
{
    const gb_report__rep_t *first = &row->reps[0];
    for (size_t i = 1; i < row->nreps; i++)
        if (row->reps[i].rep < first->rep)
            first = &row->reps[i];
    char abs[PATH_MAX];
    const char *path = realpath(r->source, abs) ? abs : r->source;
    size_t n = (size_t)snprintf(buf, len, "gemmbench replay %s --store ", first->id);
    const int plain = path[0] && strspn(path, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789_./+-,:=@%") == strlen(path);
    if (plain || n >= len) {
        snprintf(buf + (n < len ? n : len - 1), len - (n < len ? n : len - 1), "%s", path);
        return buf;
    }
    buf[n++] = '\'';
    for (const char *p = path; *p && n + 5 < len; p++) {
        if (*p == '\'') { /* ' ends the quotes, \' is the quote, ' opens them again */
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else {
            buf[n++] = *p;
        }
    }
    snprintf(buf + n, len - n, "'");
    return buf;
}

/* The repetitions table; with replay (the HTML page) a last column of the command that runs
 * each row again. */
int gb_report__reps_grid(const gb_report_t *r, int replay, gb_report__grid_t *g)
{
    size_t ncols = 6 + (r->any_variant ? 1u : 0u) + r->rep_cols + 2 + (r->any_energy ? 1u : 0u) +
                   1 + (replay ? 1u : 0u);
    int rc = gb_report__grid_init(g, ncols);
    if (rc == GB_OK)
        rc = gb_report__grid_row(g);
    size_t c = 0;
    const char *fixed[] = {"device", "kernel", "prec", "layout", r->all_square ? "n" : "MxNxK"};
    for (size_t i = 0; rc == GB_OK && i < 5; i++)
        rc = gb_report__grid_set(g, c++, "%s", fixed[i]);
    if (rc == GB_OK && r->any_variant)
        rc = gb_report__grid_set(g, c++, "settings");
    if (rc == GB_OK)
        rc = gb_report__grid_set(g, c++, "timing");
    size_t first_rep = c;
    for (size_t i = 0; rc == GB_OK && i < r->rep_cols; i++)
        rc = gb_report__grid_set(g, c++, "rep%zu", i);
    if (rc == GB_OK)
        rc = gb_report__grid_set(g, c++, "mean");
    if (rc == GB_OK)
        rc = gb_report__grid_set(g, c++, "std");
    if (rc == GB_OK && r->any_energy)
        rc = gb_report__grid_set(g, c++, "GFLOP/s/W");
    const size_t valid = c;
    if (rc == GB_OK)
        rc = gb_report__grid_set(g, c++, "valid");
    if (rc == GB_OK && replay)
        rc = gb_report__grid_set(g, c++, "replay");
    if (rc != GB_OK)
        return rc;
    for (size_t i = first_rep; i < valid; i++)
        g->right[i] = 1;
    g->right[4] = 1;
    /* Long texts wrap in their cells rather than widen the table past the page. */
    if (r->any_variant)
        g->wrap[5] = 1;
    g->wrap[valid] = 1;
    if (replay)
        g->wrap[valid + 1] = 2;
    for (size_t i = 0; i < r->nrows; i++) {
        const gb_report__row_t *row = &r->rows[i];
        char buf[256];
        if ((rc = gb_report__grid_row(g)) != GB_OK)
            return rc;
        c = 0;
        rc = gb_report__grid_set(g, c++, "%s", r->devs[row->dev].label);
        rc |= gb_report__grid_set(g, c++, "%s", row->kernel);
        rc |= gb_report__grid_set(g, c++, "%s", gb_precision_name(row->precision));
        rc |= gb_report__grid_set(g, c++, "%s", row->layout);
        rc |= gb_report__grid_set(g, c++, "%s", gb_report__size_text(row, buf, sizeof buf));
        if (r->any_variant)
            rc |= gb_report__grid_set(g, c++, "%s", row->variant);
        rc |= gb_report__grid_set(g, c++, "%s", gb_timing_name(row->timing));
        for (unsigned k = 0; k < r->rep_cols; k++) {
            const gb_report__rep_t *rep = gb_report__find_rep(row, k);
            rc |= gb_report__grid_set(
                g, c++, "%s", gb_report__num(rep ? rep->gflops : (double)NAN, buf, sizeof buf));
        }
        rc |= gb_report__grid_set(g, c++, "%s", gb_report__num(row->mean, buf, sizeof buf));
        rc |= gb_report__grid_set(g, c++, "%s", gb_report__num(row->std, buf, sizeof buf));
        if (r->any_energy)
            rc |= gb_report__grid_set(
                g, c++, "%s",
                gb_report__num(row->nenergy ? row->gpw : (double)NAN, buf, sizeof buf));
        rc |= gb_report__grid_set(g, c++, "%s", gb_report__verdict(row, buf, sizeof buf));
        if (replay && row->nreps) {
            char cmd[PATH_MAX + 64];
            rc |= gb_report__grid_set(g, c++, "%s", replay_text(r, row, cmd, sizeof cmd));
        }
        if (rc != GB_OK)
            return GB_ENOMEM;
    }
    return GB_OK;
}

int gb_report__lws_grid(const gb_report_t *r, const gb_report__lws_t *t, gb_report__grid_t *g)
{
    int rc = gb_report__grid_init(g, t->ncols + 1);
    if (rc == GB_OK)
        rc = gb_report__grid_row(g);
    int square = 1;
    for (size_t s = 0; s < t->nsizes; s++)
        square &= t->sizes[s][0] == t->sizes[s][1] && t->sizes[s][1] == t->sizes[s][2];
    if (rc == GB_OK)
        rc = gb_report__grid_set(g, 0, "%s", square ? "n" : "MxNxK");
    for (size_t c = 0; rc == GB_OK && c < t->ncols; c++)
        rc = gb_report__grid_set(g, c + 1, "%ldx%ld", t->cols[c][0], t->cols[c][1]);
    if (rc != GB_OK)
        return rc;
    for (size_t c = 0; c <= t->ncols; c++)
        g->right[c] = 1;
    for (size_t s = 0; s < t->nsizes; s++) {
        char buf[64];
        if ((rc = gb_report__grid_row(g)) != GB_OK)
            return rc;
        if (square)
            rc = gb_report__grid_set(g, 0, "%zu", t->sizes[s][0]);
        else
            rc = gb_report__grid_set(g, 0, "%zux%zux%zu", t->sizes[s][0], t->sizes[s][1],
                                     t->sizes[s][2]);
        for (size_t c = 0; c < t->ncols; c++) {
            size_t i = t->cell[s * t->ncols + c];
            rc |= gb_report__grid_set(
                g, c + 1, "%s",
                gb_report__num(i == SIZE_MAX ? (double)NAN : r->rows[i].mean, buf, sizeof buf));
        }
        /* The best of one measured cell is no news: marked only where there was a choice. */
        size_t measured = 0;
        for (size_t c = 0; c < t->ncols; c++)
            measured += t->cell[s * t->ncols + c] != SIZE_MAX;
        if (measured > 1)
            g->mark[g->nrows * g->ncols + t->best[s] + 1] = 1;
        if (rc != GB_OK)
            return GB_ENOMEM;
    }
    return GB_OK;
}

void gb_report__header(const gb_report_t *r, void (*line)(const char *text, void *user), void *user)
{
    char buf[2048], filters[512];
    snprintf(buf, sizeof buf, "store %s: %zu points, %zu selected (filters: %s), %zu rows",
             r->source, r->offered, r->selected, gb_report_filter_text(r, filters, sizeof filters),
             r->nrows);
    line(buf, user);
    if (r->tuning_offered) {
        snprintf(buf, sizeof buf,
                 "tuning data: %zu tuned entr%s and %zu tuning run%s selected (of %zu)", r->ntuned,
                 r->ntuned == 1 ? "y" : "ies", r->nruns, r->nruns == 1 ? "" : "s",
                 r->tuning_offered);
        line(buf, user);
    }
    for (size_t i = 0; i < r->ndevs; i++) {
        const gb_report__dev_t *d = &r->devs[i];
        char named[200] = "";
        if (strcmp(d->label, d->name))
            snprintf(named, sizeof named, " (%s in the tables)", d->label);
        snprintf(buf, sizeof buf, "device %s%s: %s%s%s, platform %s%s%s%s, driver %s", d->name,
                 named, d->vendor, d->type[0] ? ", " : "", d->type, d->platform,
                 d->platform_version[0] ? " (" : "", d->platform_version,
                 d->platform_version[0] ? ")" : "", d->driver);
        line(buf, user);
    }
    /* The FLOPs of complex rows, where there are any (gb_problem_flops). */
    const char *flops = r->precisions & ((1u << GB_PREC_C) | (1u << GB_PREC_Z))
                            ? "2*M*N*K (8*M*N*K in c and z)"
                            : "2*M*N*K";
    for (int t = 0; t < 3; t++)
        if (r->timings & (1u << t)) {
            snprintf(buf, sizeof buf,
                     "GFLOP/s with timing '%s': %s over the median time of a "
                     "repetition's timed calls, counting %s",
                     gb_timing_name((gb_timing_t)t), flops, gb_report__timing_text((gb_timing_t)t));
            line(buf, user);
        }
    if (r->any_energy) {
        snprintf(
            buf, sizeof buf,
            "GFLOP/s/W: %s times the calls of the energy loop over its "
            "energy (NVML or RAPL), the loop running after the timed calls for "
            "GEMMBENCH_ENERGY_MIN_S seconds or more, 1 by default (device-only calls for timing "
            "kernel and ops, whole calls with copies for offload); mean over the repetitions "
            "that measured it",
            flops);
        line(buf, user);
    }
    if (r->ndevs > 1) {
        snprintf(buf, sizeof buf, "note: points from %zu devices: compare rows of one device",
                 r->ndevs);
        line(buf, user);
    }
    if (r->timings & (r->timings - 1)) {
        char list[32] = "";
        for (int t = 0; t < 3; t++)
            if (r->timings & (1u << t))
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                         list[0] ? ", " : "", gb_timing_name((gb_timing_t)t));
        snprintf(buf, sizeof buf,
                 "note: points with different timings (%s): their GFLOP/s count "
                 "different times; compare rows of one timing (--timing selects one)",
                 list);
        line(buf, user);
    }
    if (r->max_rep + 1u > r->rep_cols && r->nrows) {
        snprintf(buf, sizeof buf,
                 "note: repetitions rep%zu to rep%u are not shown as columns; mean "
                 "and std count every repetition",
                 r->rep_cols, r->max_rep);
        line(buf, user);
    }
}

static void text_line(const char *text, void *user)
{
    fprintf(user, "%s\n", text);
}

static void md_line(const char *text, void *user)
{
    fprintf(user, "- %s\n", text);
}

int gb_report__write_text(const gb_report_t *r, unsigned tables, int markdown, FILE *f)
{
    gb_report__grid_t g;
    int rc = GB_OK;
    fputs(markdown ? "# gemmbench report\n\n" : "gemmbench report\n", f);
    gb_report__header(r, markdown ? md_line : text_line, f);
    if (tables & GB_REPORT_REPS) {
        fprintf(
            f,
            "\n%sRepetitions (GEMMbench's Table 2)\n%sGFLOP/s of each repetition, their mean and "
            "sample standard deviation; valid: the worst validation verdict over repetitions\n\n",
            markdown ? "## " : "", markdown ? "\n" : "");
        if ((rc = gb_report__reps_grid(r, 0, &g)) == GB_OK)
            (markdown ? gb_report__grid_md : gb_report__grid_text)(&g, f);
        gb_report__grid_free(&g);
    }
    if (rc == GB_OK && (tables & GB_REPORT_LWS)) {
        fprintf(f,
                "\n%sWork-group sizes (GEMMbench's Table 3)\n%sMean GFLOP/s by size and work-group "
                "size J x I (LX x LY); %s marks the best of each size\n",
                markdown ? "## " : "", markdown ? "\n" : "", markdown ? "bold" : "*");
        if (!r->nlws)
            fprintf(f,
                    "\nNo work-group-size sweep in the selected points: a table needs one kernel "
                    "configuration measured at two or more work-group sizes (for example "
                    "'gemmbench explore --plan explore-n-lws').\n");
        for (size_t i = 0; rc == GB_OK && i < r->nlws; i++) {
            const gb_report__row_t *row = &r->rows[r->lws[i].first];
            fprintf(f, "\n%s%s%s%s%s (%s, %s, timing %s, device %s)%s\n\n", markdown ? "### " : "",
                    row->kernel, r->lws[i].variant[0] ? " [" : "", r->lws[i].variant,
                    r->lws[i].variant[0] ? "]" : "", gb_precision_name(row->precision), row->layout,
                    gb_timing_name(row->timing), r->devs[row->dev].label, markdown ? "" : ":");
            if ((rc = gb_report__lws_grid(r, &r->lws[i], &g)) == GB_OK)
                (markdown ? gb_report__grid_md : gb_report__grid_text)(&g, f);
            gb_report__grid_free(&g);
        }
    }
    if (rc == GB_OK && gb_report__tuning_shown(r, tables))
        rc = gb_report__write_tuning_text(r, markdown, f);
    return rc;
}
