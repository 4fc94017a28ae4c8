/* data.c: the report's tables as data: CSV (one table per file, one line per row: every
 * repetition, or every size and work-group size) and JSON (both tables, with the header). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* A field and its separator: ',' or, after the last, a line break. */
static void csv_field(FILE *f, const char *s, int last)
{
    gb_store_csv_field(f, s);
    fputc(last ? '\n' : ',', f);
}

/* A number with 9 significant digits (GFLOP/s to well below their noise); empty when NaN. */
static void csv_num(FILE *f, double v, int last)
{
    char buf[32] = "";
    if (!isnan(v))
        snprintf(buf, sizeof buf, "%.9g", v);
    csv_field(f, buf, last);
}

static void csv_size(FILE *f, size_t v)
{
    fprintf(f, "%zu,", v);
}

static void csv_row_head(FILE *f, const gb_report_t *r, const gb_report__row_t *row,
                         const char *variant)
{
    const gb_report__dev_t *d = &r->devs[row->dev];
    csv_field(f, d->label, 0);
    csv_field(f, d->name, 0);
    csv_field(f, d->platform, 0);
    csv_field(f, d->driver, 0);
    csv_field(f, row->kernel, 0);
    csv_field(f, row->family, 0);
    csv_field(f, row->preset, 0);
    csv_field(f, gb_precision_name(row->precision), 0);
    csv_field(f, row->layout, 0);
    csv_field(f, gb_timing_name(row->timing), 0);
    csv_field(f, variant, 0);
}

int gb_report__write_csv(const gb_report_t *r, unsigned tables, FILE *f)
{
    if (tables == GB_REPORT_TUNED)
        return gb_report__write_tuning_csv(r, f);
    const char *head = "device,device_name,platform,driver,kernel,family,preset,precision,layout,"
                       "timing,settings,";
    if (tables == GB_REPORT_LWS) {
        fprintf(f, "%sm,n,k,lws_j,lws_i,reps,mean,std,best\n", head);
        for (size_t i = 0; i < r->nlws; i++) {
            const gb_report__lws_t *t = &r->lws[i];
            for (size_t s = 0; s < t->nsizes; s++)
                for (size_t c = 0; c < t->ncols; c++) {
                    size_t at = t->cell[s * t->ncols + c];
                    if (at == SIZE_MAX)
                        continue;
                    const gb_report__row_t *row = &r->rows[at];
                    csv_row_head(f, r, row, t->variant);
                    csv_size(f, row->m);
                    csv_size(f, row->n);
                    csv_size(f, row->k);
                    fprintf(f, "%ld,%ld,%zu,", t->cols[c][0], t->cols[c][1], row->nreps);
                    csv_num(f, row->mean, 0);
                    csv_num(f, row->std, 0);
                    fprintf(f, "%d\n", t->best[s] == c);
                }
        }
        return ferror(f) ? GB_EIO : GB_OK;
    }
    fprintf(f, "%sparams,m,n,k,", head);
    for (size_t i = 0; i < r->rep_cols; i++)
        fprintf(f, "rep%zu,", i);
    fputs("reps,mean,std,min,max,gflops_per_watt,energy_j,verdict,validated,failed,ids\n", f);
    for (size_t i = 0; i < r->nrows; i++) {
        const gb_report__row_t *row = &r->rows[i];
        char buf[512];
        csv_row_head(f, r, row, row->variant);
        csv_field(f, row->params_json, 0);
        csv_size(f, row->m);
        csv_size(f, row->n);
        csv_size(f, row->k);
        for (unsigned k = 0; k < r->rep_cols; k++) {
            const gb_report__rep_t *rep = gb_report__find_rep(row, k);
            csv_num(f, rep ? rep->gflops : (double)NAN, 0);
        }
        csv_size(f, row->nreps);
        csv_num(f, row->mean, 0);
        csv_num(f, row->std, 0);
        csv_num(f, row->min, 0);
        csv_num(f, row->max, 0);
        csv_num(f, row->nenergy ? row->gpw : (double)NAN, 0);
        csv_num(f, row->nenergy ? row->energy_j : (double)NAN, 0);
        csv_field(f, gb_report__verdict(row, buf, sizeof buf), 0);
        fprintf(f, "%zu,%zu,", row->nvalid, row->nfail);
        size_t n = 0;
        buf[0] = '\0';
        for (size_t k = 0; k < row->nreps && n + GB_POINT_ID_LEN + 2 < sizeof buf; k++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", k ? " " : "", row->reps[k].id);
        csv_field(f, buf, 1);
    }
    return ferror(f) ? GB_EIO : GB_OK;
}

/* ---- JSON ------------------------------------------------------------------------------------- */

static void header_line(const char *text, void *user)
{
    cJSON_AddItemToArray(user, cJSON_CreateString(text));
}

static cJSON *row_json(const gb_report_t *r, const gb_report__row_t *row)
{
    char buf[512];
    cJSON *o = cJSON_CreateObject(), *reps = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "device", r->devs[row->dev].label);
    cJSON_AddStringToObject(o, "kernel", row->kernel);
    cJSON_AddStringToObject(o, "family", row->family);
    cJSON_AddStringToObject(o, "preset", row->preset);
    gb_report__json_problem(o, row->precision, row->layout, row->m, row->n, row->k);
    cJSON_AddStringToObject(o, "timing", gb_timing_name(row->timing));
    cJSON_AddStringToObject(o, "settings", row->variant);
    cJSON *params = cJSON_Parse(row->params_json);
    cJSON_AddItemToObject(o, "params", params ? params : cJSON_CreateString(row->params_json));
    for (size_t k = 0; k < row->nreps; k++) {
        cJSON *rep = cJSON_CreateObject();
        cJSON_AddNumberToObject(rep, "rep", row->reps[k].rep);
        cJSON_AddItemToObject(rep, "gflops", gb_report__json_num(row->reps[k].gflops));
        cJSON_AddStringToObject(rep, "id", row->reps[k].id);
        cJSON_AddItemToArray(reps, rep);
    }
    cJSON_AddItemToObject(o, "reps", reps);
    cJSON_AddItemToObject(o, "mean", gb_report__json_num(row->mean));
    cJSON_AddItemToObject(o, "std", gb_report__json_num(row->std));
    cJSON_AddItemToObject(o, "min", gb_report__json_num(row->min));
    cJSON_AddItemToObject(o, "max", gb_report__json_num(row->max));
    cJSON_AddItemToObject(o, "gflops_per_watt",
                          gb_report__json_num(row->nenergy ? row->gpw : (double)NAN));
    cJSON_AddItemToObject(o, "energy_j",
                          gb_report__json_num(row->nenergy ? row->energy_j : (double)NAN));
    /* The memory traffic its family declares (recomputed from the registry), null where none. */
    if (row->traffic == GB_TRAFFIC_DECLARED) {
        cJSON *t = cJSON_AddObjectToObject(o, "traffic");
        cJSON_AddNumberToObject(t, "bytes", row->bytes);
        cJSON_AddNumberToObject(t, "intensity", row->intensity);
        cJSON_AddNumberToObject(t, "GBps", row->gbps);
        cJSON_AddNumberToObject(t, "gflops_kernel", row->kgflops);
    } else {
        cJSON_AddNullToObject(o, "traffic");
    }
    cJSON_AddStringToObject(o, "verdict", gb_report__verdict(row, buf, sizeof buf));
    cJSON_AddNumberToObject(o, "validated", (double)row->nvalid);
    cJSON_AddNumberToObject(o, "failed", (double)row->nfail);
    return o;
}

static cJSON *lws_json(const gb_report_t *r, const gb_report__lws_t *t)
{
    const gb_report__row_t *row = &r->rows[t->first];
    cJSON *o = cJSON_CreateObject(), *cols = cJSON_CreateArray(), *sizes = cJSON_CreateArray();
    cJSON *mean = cJSON_CreateArray(), *best = cJSON_CreateArray();
    cJSON_AddStringToObject(o, "device", r->devs[row->dev].label);
    cJSON_AddStringToObject(o, "kernel", row->kernel);
    cJSON_AddStringToObject(o, "precision", gb_precision_name(row->precision));
    cJSON_AddStringToObject(o, "layout", row->layout);
    cJSON_AddStringToObject(o, "timing", gb_timing_name(row->timing));
    cJSON_AddStringToObject(o, "settings", t->variant);
    for (size_t c = 0; c < t->ncols; c++) {
        int pair[2] = {(int)t->cols[c][0], (int)t->cols[c][1]};
        cJSON_AddItemToArray(cols, cJSON_CreateIntArray(pair, 2));
    }
    for (size_t s = 0; s < t->nsizes; s++) {
        double mnk[3] = {(double)t->sizes[s][0], (double)t->sizes[s][1], (double)t->sizes[s][2]};
        cJSON_AddItemToArray(sizes, cJSON_CreateDoubleArray(mnk, 3));
        cJSON *line = cJSON_CreateArray();
        for (size_t c = 0; c < t->ncols; c++) {
            size_t at = t->cell[s * t->ncols + c];
            cJSON_AddItemToArray(
                line, gb_report__json_num(at == SIZE_MAX ? (double)NAN : r->rows[at].mean));
        }
        cJSON_AddItemToArray(mean, line);
        int pair[2] = {(int)t->cols[t->best[s]][0], (int)t->cols[t->best[s]][1]};
        cJSON_AddItemToArray(best, cJSON_CreateIntArray(pair, 2));
    }
    cJSON_AddItemToObject(o, "lws", cols);
    cJSON_AddItemToObject(o, "sizes", sizes);
    cJSON_AddItemToObject(o, "mean", mean);
    cJSON_AddItemToObject(o, "best", best);
    return o;
}

int gb_report__write_json(const gb_report_t *r, unsigned tables, FILE *f)
{
    char filters[512];
    cJSON *root = cJSON_CreateObject(), *header = cJSON_CreateArray(), *devs = cJSON_CreateArray();
    cJSON_AddStringToObject(root, "format", "gemmbench-report");
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(root, "tool_version", gb_version());
    cJSON_AddStringToObject(root, "store", r->source);
    cJSON_AddNumberToObject(root, "points", (double)r->offered);
    cJSON_AddNumberToObject(root, "selected", (double)r->selected);
    cJSON_AddStringToObject(root, "filters", gb_report_filter_text(r, filters, sizeof filters));
    gb_report__header(r, header_line, header);
    cJSON_AddItemToObject(root, "header", header);
    for (size_t i = 0; i < r->ndevs; i++) {
        const gb_report__dev_t *d = &r->devs[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "label", d->label);
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddStringToObject(o, "vendor", d->vendor);
        cJSON_AddStringToObject(o, "type", d->type);
        cJSON_AddStringToObject(o, "platform", d->platform);
        cJSON_AddStringToObject(o, "platform_version", d->platform_version);
        cJSON_AddStringToObject(o, "driver", d->driver);
        if (d->ceilings_when[0]) {
            cJSON *c = cJSON_AddObjectToObject(o, "ceilings");
            cJSON_AddItemToObject(c, "peak_gflops_s",
                                  gb_report__json_num(d->peak[0] > 0 ? d->peak[0] : (double)NAN));
            cJSON_AddItemToObject(c, "peak_gflops_d",
                                  gb_report__json_num(d->peak[1] > 0 ? d->peak[1] : (double)NAN));
            cJSON_AddNumberToObject(c, "bandwidth_gbs", d->bandwidth);
            cJSON_AddStringToObject(c, "measured", d->ceilings_when);
        } else {
            cJSON_AddNullToObject(o, "ceilings");
        }
        cJSON_AddItemToArray(devs, o);
    }
    cJSON_AddItemToObject(root, "devices", devs);
    if (tables & GB_REPORT_REPS) {
        cJSON *rows = cJSON_AddArrayToObject(root, "repetitions");
        for (size_t i = 0; rows && i < r->nrows; i++)
            cJSON_AddItemToArray(rows, row_json(r, &r->rows[i]));
    }
    if (tables & GB_REPORT_LWS) {
        cJSON *lws = cJSON_AddArrayToObject(root, "work_group_sizes");
        for (size_t i = 0; lws && i < r->nlws; i++)
            cJSON_AddItemToArray(lws, lws_json(r, &r->lws[i]));
    }
    if (gb_report__tuning_shown(r, tables))
        gb_report__tuning_json(r, root);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    if (!text)
        return GB_ENOMEM;
    fputs(text, f);
    fputc('\n', f);
    free(text);
    return ferror(f) ? GB_EIO : GB_OK;
}
