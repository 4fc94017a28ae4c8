/* median.c: one recorded space from several passes of it (gemmbench-tuners --median). Where one
 * measurement of a configuration is a draw from a wide spread (a CPU device's: docs/methodology.md)
 * the median of passes made apart in time is a steadier score than any one pass. Each pass is read
 * by gb_recorded_load, with every check a simulation makes, and the result is written by
 * gb_recorded_write_header and _entry, so every score is one a pass recorded (or the mean of
 * two), written exactly. */
#include "median.h"

#include <stdlib.h>
#include <string.h>

#include "tool/tune/recorded.h"

/* The first header field in which b differs from a, or NULL where they describe one space on one
 * device (their sources aside). */
static const char *differs(const gb_recorded_info_t *a, const gb_space_t *sa,
                           const gb_recorded_info_t *b, const gb_space_t *sb)
{
    if (strcmp(a->family, b->family))
        return "family";
    if (a->precision != b->precision)
        return "precision";
    if (a->m != b->m || a->n != b->n || a->k != b->k)
        return "size";
    if (strcmp(a->device, b->device))
        return "device";
    if (a->has_limits != b->has_limits || strcmp(a->vendor, b->vendor))
        return "vendor";
    if (a->has_limits &&
        (strcmp(a->type_name, b->type_name) || a->local_mem != b->local_mem ||
         a->max_wg_size != b->max_wg_size || a->max_wi_sizes[0] != b->max_wi_sizes[0] ||
         a->max_wi_sizes[1] != b->max_wi_sizes[1] || a->compute_units != b->compute_units))
        return "limits";
    /* The same family: the same parameters in the same order; the 'param' lines list values. */
    for (size_t i = 0; i < gb_space_nparams(sa); i++) {
        if (gb_space_nvalues(sa, i) != gb_space_nvalues(sb, i))
            return "param";
        for (size_t j = 0; j < gb_space_nvalues(sa, i); j++)
            if (gb_space_value(sa, i, j) != gb_space_value(sb, i, j))
                return "param";
    }
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int gb_bench_median(const gb_registry_t *reg, const char *source, char *const *paths, int n,
                    FILE *out)
{
    gb_recorded_t **rec = calloc((size_t)n, sizeof *rec);
    gb_space_t **sp = calloc((size_t)n, sizeof *sp);
    double *v = malloc((size_t)n * sizeof *v);
    char msg[1024];
    int rc = 0;
    if (!rec || !sp || !v) {
        fprintf(stderr, "gemmbench-tuners: out of memory\n");
        rc = 3;
    }
    gb_recorded_info_t info;
    if (!rc && strlen(source) >= sizeof info.source) {
        fprintf(stderr, "gemmbench-tuners: --median's source is longer than %zu characters\n",
                sizeof info.source - 1);
        rc = 2;
    }
    for (int i = 0; !rc && i < n; i++) {
        const int lr = gb_recorded_load(&rec[i], &sp[i], paths[i], reg, msg, sizeof msg);
        if (lr != GB_OK) {
            fprintf(stderr, "gemmbench-tuners: %s\n", msg);
            rc = 2; /* a file that is not there is bad input, as for tune --simulate */
            break;
        }
        const char *field =
            differs(gb_recorded_info(rec[0]), sp[0], gb_recorded_info(rec[i]), sp[i]);
        const uint64_t count = gb_space_count(sp[i]);
        if (field) {
            fprintf(stderr,
                    "gemmbench-tuners: %s: its '%s' differs from %s's: not a pass of "
                    "the same space\n",
                    paths[i], field, paths[0]);
            rc = 2;
        } else if (gb_recorded_size(rec[i]) != count) {
            fprintf(stderr,
                    "gemmbench-tuners: %s records %zu of the space's %llu configurations: "
                    "join whole passes\n",
                    paths[i], gb_recorded_size(rec[i]), (unsigned long long)count);
            rc = 2;
        }
    }
    if (!rc) {
        info = *gb_recorded_info(rec[0]);
        snprintf(info.source, sizeof info.source, "%s", source);
        int wr = gb_recorded_write_header(out, &info, sp[0]);
        const uint64_t count = gb_space_count(sp[0]);
        for (uint64_t r = 0; wr == GB_OK && r < count; r++) {
            gb_space_cand_t c;
            gb_space_unrank(sp[0], r, &c);
            int failed = 0;
            for (int i = 0; i < n; i++) {
                v[i] = gb_recorded_score(rec[i], sp[i], &c);
                failed |= v[i] < 0; /* once wrong, it cannot win */
            }
            qsort(v, (size_t)n, sizeof *v, by_value);
            const double m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
            wr = gb_recorded_write_entry(out, sp[0], &c, failed ? -1 : m);
        }
        if (wr == GB_OK && (fprintf(out, "# %llu configurations, each the median of %d passes\n",
                                    (unsigned long long)count, n) < 0 ||
                            fflush(out) != 0))
            wr = GB_EIO;
        if (wr != GB_OK) {
            fprintf(stderr, "gemmbench-tuners: --median: cannot write the space\n");
            rc = 3;
        }
    }
    for (int i = 0; rec && sp && i < n; i++) {
        gb_recorded_close(rec[i]);
        gb_space_close(sp[i]);
    }
    free(rec);
    free(sp);
    free(v);
    return rc;
}
