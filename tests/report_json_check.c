/* report_json_check.c: report_json_check FILE POINTS ROWS LWS_TABLES
 *
 * Reads a `gemmbench report --format json` file and checks it is what it claims: it parses; it
 * selected POINTS points in ROWS rows and has LWS_TABLES work-group-size tables; the repetitions
 * of the rows add up to the points; each row's mean, sample standard deviation, min and max are
 * those of its repetitions' GFLOP/s; each work-group-size cell is the mean of the row with that
 * size and LX/LY, and each size's best is the highest cell. Exit 0, or 1 with the first problem. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static int fail(const char *fmt, ...)
{
    va_list ap;
    printf("report_json_check: ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    return 1;
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1.0, fmax(fabs(a), fabs(b)));
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : (double)NAN;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* The row of the repetitions table with this kernel, size and work-group size, or NULL. */
static const cJSON *find_row(const cJSON *rows, const cJSON *t, double m, double n, double k,
                             double lx, double ly)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(row, "params");
        if (!strcmp(str(row, "kernel"), str(t, "kernel")) &&
            !strcmp(str(row, "device"), str(t, "device")) &&
            !strcmp(str(row, "timing"), str(t, "timing")) &&
            !strcmp(str(row, "precision"), str(t, "precision")) && num(row, "m") == m &&
            num(row, "n") == n && num(row, "k") == k && num(params, "LX") == lx &&
            num(params, "LY") == ly)
            return row;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: report_json_check FILE POINTS ROWS LWS_TABLES\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    static char text[16 << 20];
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[len] = '\0';
    cJSON *root = cJSON_Parse(text);
    if (!root)
        return fail("%s does not parse as JSON", argv[1]);
    if (strcmp(str(root, "format"), "gemmbench-report") || num(root, "version") != 1)
        return fail("%s: format and version must be gemmbench-report 1", argv[1]);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "repetitions");
    const cJSON *tables = cJSON_GetObjectItemCaseSensitive(root, "work_group_sizes");
    double want_points = atof(argv[2]), want_rows = atof(argv[3]), want_tables = atof(argv[4]);
    if (num(root, "selected") != want_points)
        return fail("%g points selected, expected %g", num(root, "selected"), want_points);
    if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) != (int)want_rows)
        return fail("%d rows, expected %g", cJSON_GetArraySize(rows), want_rows);
    if (!cJSON_IsArray(tables) || cJSON_GetArraySize(tables) != (int)want_tables)
        return fail("%d work-group-size tables, expected %g", cJSON_GetArraySize(tables),
                    want_tables);
    double points = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const cJSON *reps = cJSON_GetObjectItemCaseSensitive(row, "reps"), *rep;
        double sum = 0, ss = 0, lo = (double)INFINITY, hi = -(double)INFINITY,
               n = cJSON_GetArraySize(reps);
        const char *kernel = str(row, "kernel");
        if (n < 1)
            return fail("row of %s has no repetitions", kernel);
        cJSON_ArrayForEach(rep, reps)
        {
            double g = num(rep, "gflops");
            if (!(g > 0) || strlen(str(rep, "id")) != 16)
                return fail("row of %s has a repetition without GFLOP/s or id", kernel);
            sum += g;
            lo = fmin(lo, g);
            hi = fmax(hi, g);
        }
        double mean = sum / n;
        cJSON_ArrayForEach(rep, reps) ss +=
            (num(rep, "gflops") - mean) * (num(rep, "gflops") - mean);
        if (!close_to(mean, num(row, "mean")))
            return fail("row of %s: mean %g is not the repetitions' average %g", kernel,
                        num(row, "mean"), mean);
        if (n > 1 && !close_to(sqrt(ss / (n - 1)), num(row, "std")))
            return fail("row of %s: std %g is not the repetitions' sample std %g", kernel,
                        num(row, "std"), sqrt(ss / (n - 1)));
        if (n == 1 && !cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row, "std")))
            return fail("row of %s: one repetition must have a null std", kernel);
        if (!close_to(lo, num(row, "min")) || !close_to(hi, num(row, "max")))
            return fail("row of %s: min %g or max %g is not the repetitions'", kernel,
                        num(row, "min"), num(row, "max"));
        points += n;
    }
    if (points != want_points)
        return fail("the rows hold %g repetitions, expected %g", points, want_points);
    const cJSON *t;
    cJSON_ArrayForEach(t, tables)
    {
        const cJSON *lws = cJSON_GetObjectItemCaseSensitive(t, "lws"),
                    *sizes = cJSON_GetObjectItemCaseSensitive(t, "sizes");
        const cJSON *mean = cJSON_GetObjectItemCaseSensitive(t, "mean"),
                    *best = cJSON_GetObjectItemCaseSensitive(t, "best");
        int nl = cJSON_GetArraySize(lws), ns = cJSON_GetArraySize(sizes);
        if (nl < 2 || ns < 1 || cJSON_GetArraySize(mean) != ns || cJSON_GetArraySize(best) != ns)
            return fail("work-group table of %s has inconsistent dimensions", str(t, "kernel"));
        for (int s = 0; s < ns; s++) {
            const cJSON *sz = cJSON_GetArrayItem(sizes, s), *line = cJSON_GetArrayItem(mean, s);
            double top = -(double)INFINITY, tl[2] = {0, 0};
            for (int c = 0; c < nl; c++) {
                const cJSON *cell = cJSON_GetArrayItem(line, c), *pair = cJSON_GetArrayItem(lws, c);
                double lx = cJSON_GetArrayItem(pair, 0)->valuedouble,
                       ly = cJSON_GetArrayItem(pair, 1)->valuedouble;
                const cJSON *r = find_row(rows, t, cJSON_GetArrayItem(sz, 0)->valuedouble,
                                          cJSON_GetArrayItem(sz, 1)->valuedouble,
                                          cJSON_GetArrayItem(sz, 2)->valuedouble, lx, ly);
                if (cJSON_IsNull(cell) != !r || (r && !close_to(cell->valuedouble, num(r, "mean"))))
                    return fail("work-group table of %s: a cell is not its row's mean (%g x %g)",
                                str(t, "kernel"), lx, ly);
                if (r && cell->valuedouble > top) {
                    top = cell->valuedouble;
                    tl[0] = lx;
                    tl[1] = ly;
                }
            }
            const cJSON *b = cJSON_GetArrayItem(best, s);
            if (cJSON_GetArrayItem(b, 0)->valuedouble != tl[0] ||
                cJSON_GetArrayItem(b, 1)->valuedouble != tl[1])
                return fail("work-group table of %s: best is not the highest cell %g x %g",
                            str(t, "kernel"), tl[0], tl[1]);
        }
    }
    printf(
        "report_json_check: %s: %g points in %g rows and %g work-group tables, every mean, std and "
        "best consistent\n",
        argv[1], points, want_rows, want_tables);
    cJSON_Delete(root);
    return 0;
}
