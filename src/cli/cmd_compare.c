/* cmd_compare.c: `gemmbench compare BASE NEW`: two results stores (or JSON exports) side by
 * side, point definition by definition (src/tool/report/compare.h), as text, Markdown or JSON;
 * with --fail-over PCT, exit 1 when a definition got slower beyond the noise by more than PCT
 * percent (for CI). */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "tool/report/compare.h"
#include "cli.h"

#define MAX_EXPORT_BYTES (256u << 20)

static void usage(void)
{
    printf(
        "usage: gemmbench compare BASE NEW [--format text|markdown|json|html] [--fail-over PCT]\n"
        "                                  [--out FILE]\n"
        "BASE and NEW are results stores or JSON exports ('gemmbench export'). Points of one\n"
        "definition (device, implementation, parameters, problem, data, timing; not the\n"
        "driver, the repetition or the provenance) are pooled per side: the medians of their\n"
        "timed calls, speedup = base median / new median, and a two-sided Mann-Whitney U test\n"
        "of the two sets of calls (exact where both have at most 50 calls and no ties, else\n"
        "the normal approximation with the tie correction): faster or slower where p < %g,\n"
        "else the same within the noise. Then a summary by device and implementation, and\n"
        "the definitions found on one side only.\n"
        "  --format F      text (default), markdown, json, or html (one page with a plot of\n"
        "                  the speedups; needs gnuplot)\n"
        "  --fail-over PCT exit 1 when a definition is slower beyond the noise by more than\n"
        "                  PCT percent (its new median over its base median above 1 + PCT/100)\n"
        "  --out FILE      write there instead of standard output\n"
        "exit: 0, 1 a definition slower than --fail-over allows, 2 bad usage or nothing in\n"
        "      common, 3 a store or system failure\n",
        GB_COMPARE_ALPHA);
}

/* Opens path as a store, or reads it as a JSON export into a store in memory. 0 or the exit
 * code after a one-line error. */
static int open_side(const char *path, gb_store_t **st)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cli_error(GB_EBADARG, "cannot read '%s'; give a results store or a JSON export",
                         path);
    char head[16] = "";
    const size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    if (got == sizeof head && !memcmp(head, "SQLite format 3", 16))
        return cli_store_open(st, path, 0);
    char *text = NULL;
    size_t len = 0;
    int rc = cli_read_file(path, MAX_EXPORT_BYTES, "compare stores instead", &text, &len);
    if (rc)
        return rc;
    char msg[1024];
    gb_store_import_t *im = NULL;
    rc = gb_store_import_parse(text, len, path, &im, msg, sizeof msg);
    free(text);
    if (rc != GB_OK)
        return cli_error(rc == GB_ENOMEM ? rc : GB_EBADARG,
                         "'%s' is neither a results store nor a JSON export: %s", path, msg);
    size_t added = 0, present = 0;
    if ((rc = gb_store_open(st, ":memory:", GB_STORE_CREATE, msg, sizeof msg)) == GB_OK &&
        (rc = gb_store_import_commit(*st, im, &added, &present)) != GB_OK)
        snprintf(msg, sizeof msg, "%s", gb_store_errmsg(*st));
    gb_store_import_free(im);
    if (rc != GB_OK) {
        gb_store_close(*st);
        *st = NULL;
        return cli_error(rc, "%s", msg);
    }
    return 0;
}

static void print_text(FILE *f, const gb_compare_t *c, const gb_cmp_sum_t *s, size_t ns,
                       const char *sep)
{
    const int md = sep[0] == '|';
    if (md)
        fprintf(f, "| definition | calls base/new | base ms | new ms | speedup | p | verdict "
                   "|\n|---|---|---|---|---|---|---|\n");
    else
        fprintf(f, "%-60s %13s %10s %10s %8s %9s  %s\n", "definition", "calls b/n", "base ms",
                "new ms", "speedup", "p", "verdict");
    for (size_t i = 0; i < c->nrows; i++) {
        const gb_cmp_row_t *r = &c->rows[i];
        char calls[32];
        snprintf(calls, sizeof calls, "%zu/%zu", r->n[0], r->n[1]);
        if (md)
            fprintf(f, "| %s | %s | %.4g | %.4g | %.3f | %.2g%s | %s |\n", r->what, calls,
                    r->median_ms[0], r->median_ms[1], r->speedup, r->p, r->exact ? "" : " (z)",
                    gb_cmp_verdict_name(r->verdict));
        else
            fprintf(f, "%-60s %13s %10.4g %10.4g %8.3f %9.2g%s %s\n", r->what, calls,
                    r->median_ms[0], r->median_ms[1], r->speedup, r->p, r->exact ? " " : "z",
                    gb_cmp_verdict_name(r->verdict));
    }
    fprintf(f, "\n%s",
            md ? "| device | implementation | definitions | speedup (geometric "
                 "mean) | faster | slower | same |\n|---|---|---|---|---|---|---|\n"
               : "by device and implementation:\n");
    for (size_t k = 0; k < ns; k++)
        fprintf(f,
                md ? "| %s | %s | %zu | %.3f | %zu | %zu | %zu |\n"
                   : "  %s, %s: %zu definitions, speedup %.3f (geometric mean), %zu faster, "
                     "%zu slower, %zu the same\n",
                s[k].device, s[k].kernel, s[k].rows, s[k].geomean, s[k].faster, s[k].slower,
                s[k].same);
    static const char *const side[2] = {"BASE", "NEW"};
    for (int d = 0; d < 2; d++) {
        if (!c->nonly[d])
            continue;
        fprintf(f, "\nonly in %s (%zu definitions):\n", side[d], c->nonly[d]);
        for (size_t i = 0; i < c->nonly[d]; i++)
            fprintf(f, "%s%s\n", md ? "- " : "  ", c->only[d][i]);
    }
}

static int print_json(FILE *f, const gb_compare_t *c, const gb_cmp_sum_t *s, size_t ns,
                      const char *base, const char *new_)
{
    cJSON *o = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(o, "rows");
    cJSON_AddStringToObject(o, "base", base);
    cJSON_AddStringToObject(o, "new", new_);
    cJSON_AddStringToObject(o, "test", "Mann-Whitney U, two-sided");
    cJSON_AddNumberToObject(o, "alpha", GB_COMPARE_ALPHA);
    for (size_t i = 0; i < c->nrows; i++) {
        const gb_cmp_row_t *r = &c->rows[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "definition", r->what);
        cJSON_AddStringToObject(j, "device", r->device);
        cJSON_AddStringToObject(j, "kernel", r->kernel);
        cJSON_AddNumberToObject(j, "points_base", (double)r->points[0]);
        cJSON_AddNumberToObject(j, "points_new", (double)r->points[1]);
        cJSON_AddNumberToObject(j, "calls_base", (double)r->n[0]);
        cJSON_AddNumberToObject(j, "calls_new", (double)r->n[1]);
        cJSON_AddNumberToObject(j, "median_ms_base", r->median_ms[0]);
        cJSON_AddNumberToObject(j, "median_ms_new", r->median_ms[1]);
        cJSON_AddNumberToObject(j, "speedup", r->speedup);
        cJSON_AddNumberToObject(j, "p", r->p);
        cJSON_AddBoolToObject(j, "exact", r->exact);
        cJSON_AddStringToObject(j, "verdict", gb_cmp_verdict_name(r->verdict));
        cJSON_AddItemToArray(rows, j);
    }
    cJSON *sum = cJSON_AddArrayToObject(o, "summary");
    for (size_t k = 0; k < ns; k++) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "device", s[k].device);
        cJSON_AddStringToObject(j, "kernel", s[k].kernel);
        cJSON_AddNumberToObject(j, "definitions", (double)s[k].rows);
        cJSON_AddNumberToObject(j, "speedup_geomean", s[k].geomean);
        cJSON_AddNumberToObject(j, "faster", (double)s[k].faster);
        cJSON_AddNumberToObject(j, "slower", (double)s[k].slower);
        cJSON_AddNumberToObject(j, "same", (double)s[k].same);
        cJSON_AddItemToArray(sum, j);
    }
    static const char *const key[2] = {"only_base", "only_new"};
    for (int d = 0; d < 2; d++) {
        cJSON *a = cJSON_AddArrayToObject(o, key[d]);
        for (size_t i = 0; i < c->nonly[d]; i++)
            cJSON_AddItemToArray(a, cJSON_CreateString(c->only[d][i]));
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return GB_ENOMEM;
    fprintf(f, "%s\n", text);
    free(text);
    return GB_OK;
}

/* The comparison in format into out_path (NULL: standard output), and on standard error the
 * definitions slower than fail_over percent allows (negative: no limit). The exit code. */
static int write_out(const gb_compare_t *cmp, const char *format, const char *out_path,
                     const char *base, const char *new_, double fail_over)
{
    gb_cmp_sum_t *sum = NULL;
    size_t nsum = 0;
    char msg[1024] = "";
    int grc = gb_compare_summary(cmp, &sum, &nsum), rc;
    if (grc != GB_OK)
        return cli_error(grc, "out of memory");
    cli_out_t out;
    if ((rc = cli_out_open(&out, out_path, NULL)) != 0) {
        free(sum);
        return rc;
    }
    if (!strcmp(format, "json"))
        grc = print_json(out.f, cmp, sum, nsum, base, new_);
    else if (!strcmp(format, "html"))
        grc = gb_compare_html(out.f, cmp, sum, nsum, base, new_, msg, sizeof msg);
    else
        print_text(out.f, cmp, sum, nsum, strcmp(format, "markdown") ? " " : "|");
    free(sum);
    size_t over = 0;
    for (size_t i = 0; fail_over >= 0 && i < cmp->nrows; i++)
        if (gb_compare_slower_over(&cmp->rows[i], fail_over)) {
            if (!over++)
                fprintf(stderr, "gemmbench: compare: slower by more than %g%%:", fail_over);
            fprintf(stderr, "%s %s (%.3fx)", over > 1 ? "," : "", cmp->rows[i].what,
                    cmp->rows[i].speedup);
        }
    if (over)
        fprintf(stderr, "\n");
    if ((rc = cli_out_close(&out, grc)) > 0)
        return rc;
    if (grc != GB_OK)
        return cli_error(grc, "%s", grc == GB_ENOMEM ? "out of memory" : msg);
    if (rc != GB_OK || (!out_path && fflush(stdout) != 0))
        return cli_error(GB_EIO, "writing the comparison failed");
    return over ? EXIT_INVALID : EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
    enum { O_FORMAT = 256, O_FAIL, O_OUT };
    static const struct option opts[] = {{"format", required_argument, NULL, O_FORMAT},
                                         {"fail-over", required_argument, NULL, O_FAIL},
                                         {"out", required_argument, NULL, O_OUT},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *format = "text", *out_path = NULL;
    double fail_over = -1;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_FORMAT: format = optarg; break;
        case O_FAIL:
            if (cli_parse_double("--fail-over", optarg, &fail_over) || fail_over < 0)
                return cli_error(GB_EBADARG,
                                 "--fail-over: '%s' is not a percentage of 0 or "
                                 "more; give e.g. --fail-over 5",
                                 optarg);
            break;
        case O_OUT: out_path = optarg; break;
        case 'h': usage(); return EXIT_OK;
        default: return cli_bad_option(c, argv[optind - 1], "compare");
        }
    }
    if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") &&
        strcmp(format, "html"))
        return cli_error(GB_EBADARG, "--format: '%s' is not text, markdown, json or html", format);
    if (optind != argc - 2)
        return cli_error(GB_EBADARG, "give two results stores or exports: gemmbench compare "
                                     "BASE NEW");
    gb_store_t *st[2] = {NULL, NULL};
    int rc = open_side(argv[optind], &st[0]);
    if (rc || (rc = open_side(argv[optind + 1], &st[1]))) {
        gb_store_close(st[0]);
        return rc;
    }
    gb_compare_t cmp;
    char msg[1024];
    int grc = gb_compare_stores(st[0], st[1], &cmp, msg, sizeof msg);
    gb_store_close(st[0]);
    gb_store_close(st[1]);
    if (grc != GB_OK)
        return cli_error(grc == GB_ENOPOINT ? GB_EBADARG : grc, "%s", msg);
    rc = write_out(&cmp, format, out_path, argv[optind], argv[optind + 1], fail_over);
    gb_compare_free(&cmp);
    return rc;
}
