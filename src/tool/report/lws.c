/* lws.c: the work-group-size tables (the GEMMbench paper's Table 3): for each series (one kernel
 * configuration on one device, everything fixed but the size and the work-group size J x I
 * that the LX/LY parameters set) measured at two or more work-group sizes, a grid of sizes by
 * work-group sizes whose cells are the rows' mean GFLOP/s, with the best of each size marked. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

static int cmp_lws(const void *a, const void *b)
{
    const long *x = a, *y = b;
    long ix = x[0] * x[1], iy = y[0] * y[1];
    if (ix != iy)
        return ix < iy ? -1 : 1;
    return (x[0] < y[0]) - (x[0] > y[0]); /* wider J first, as J x I reads */
}

static int cmp_sz(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    for (int d = 0; d < 3; d++)
        if (x[d] != y[d])
            return x[d] < y[d] ? -1 : 1;
    return 0;
}

/* One table from the rows [a, b) of one series, when they hold two or more work-group sizes. */
static int build_one(gb_report_t *r, size_t a, size_t b)
{
    size_t nrows = b - a, ncols = 0, nsizes = 0;
    long(*cols)[2] = malloc(nrows * sizeof *cols);
    size_t(*sizes)[3] = malloc(nrows * sizeof *sizes);
    gb_report__lws_t t = {0};
    if (!cols || !sizes)
        goto oom;
    for (size_t i = a; i < b; i++) {
        const gb_report__row_t *row = &r->rows[i];
        size_t c = 0, s = 0;
        while (c < ncols && (cols[c][0] != row->lws[0] || cols[c][1] != row->lws[1]))
            c++;
        if (c == ncols) {
            cols[ncols][0] = row->lws[0];
            cols[ncols++][1] = row->lws[1];
        }
        while (s < nsizes &&
               (sizes[s][0] != row->m || sizes[s][1] != row->n || sizes[s][2] != row->k))
            s++;
        if (s == nsizes) {
            sizes[nsizes][0] = row->m;
            sizes[nsizes][1] = row->n;
            sizes[nsizes++][2] = row->k;
        }
    }
    if (ncols < 2) {
        free(cols);
        free(sizes);
        return GB_OK;
    }
    qsort(cols, ncols, sizeof *cols, cmp_lws);
    qsort(sizes, nsizes, sizeof *sizes, cmp_sz);
    t.first = a;
    t.cols = cols;
    t.sizes = sizes;
    t.ncols = ncols;
    t.nsizes = nsizes;
    t.cell = malloc(nsizes * ncols * sizeof *t.cell);
    t.best = malloc(nsizes * sizeof *t.best);
    if (!t.cell || !t.best)
        goto oom;
    for (size_t i = 0; i < nsizes * ncols; i++)
        t.cell[i] = SIZE_MAX;
    for (size_t i = a; i < b; i++) {
        const gb_report__row_t *row = &r->rows[i];
        size_t key[3] = {row->m, row->n, row->k};
        long lws[2] = {row->lws[0], row->lws[1]};
        const size_t(*sp)[3] = bsearch(key, sizes, nsizes, sizeof *sizes, cmp_sz);
        const long(*cp)[2] = bsearch(lws, cols, ncols, sizeof *cols, cmp_lws);
        t.cell[(size_t)(sp - sizes) * ncols + (size_t)(cp - cols)] = i;
    }
    for (size_t s = 0; s < nsizes; s++) {
        t.best[s] = SIZE_MAX;
        for (size_t c = 0; c < ncols; c++) {
            size_t i = t.cell[s * ncols + c];
            if (i != SIZE_MAX && (t.best[s] == SIZE_MAX ||
                                  r->rows[i].mean > r->rows[t.cell[s * ncols + t.best[s]]].mean))
                t.best[s] = c;
        }
    }
    gb_report__strip_variant(r->rows[a].variant, 0, t.variant, sizeof t.variant);
    gb_report__lws_t *grown = realloc(r->lws, (r->nlws + 1) * sizeof *grown);
    if (!grown)
        goto oom;
    r->lws = grown;
    r->lws[r->nlws++] = t;
    return GB_OK;
oom:
    free(t.cell);
    free(t.best);
    free(cols);
    free(sizes);
    return GB_ENOMEM;
}

int gb_report__build_lws(gb_report_t *r)
{
    /* Rows are sorted by series first, so each series is one run of rows. */
    for (size_t a = 0; a < r->nrows;) {
        size_t b = a + 1;
        while (b < r->nrows && !strcmp(r->rows[b].skey, r->rows[a].skey))
            b++;
        int all = 1;
        for (size_t i = a; i < b; i++)
            all &= r->rows[i].has_lws;
        if (all && b - a > 1) {
            int rc = build_one(r, a, b);
            if (rc != GB_OK)
                return rc;
        }
        a = b;
    }
    return GB_OK;
}
