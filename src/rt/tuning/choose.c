/* choose.c: what may run a problem: the tuning database's entries by tier (this device, its
 * family, its vendor and type) and nearness of shape, else a heuristic by vendor, type and
 * precision; the table's choice is the first of them, the portfolio the few worth measuring
 * (gemmbench_tuning.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "rt/util/util.h"
#include "select.h"

int gb_tuned_load_shipped(gb_tuned_t *t)
{
    return gb_tuned_merge_all(t, gb__shipped_entries, gb__shipped_entry_count);
}

/* Whether kernel with params can run p on dev. */
static int runs(const gb_registry_t *reg, const gb_device_info_t *dev, const gb_problem_t *p,
                const char *kernel, const gb_params_t *params)
{
    gb_config_t cfg;
    return gb_config_resolve(reg, kernel, params, &cfg, NULL, 0) == GB_OK &&
           gb_config_check(&cfg, dev, p->precision, p, NULL, 0) == GB_OK;
}

int gb_tuned_tier(const gb_tuned_entry_t *e, const gb_device_info_t *dev)
{
    if (!strcmp(e->device, dev->name) && !strcmp(e->platform, dev->platform_name))
        return GB_TIER_DEVICE;
    if (e->family[0] && !strcmp(e->family, dev->family))
        return GB_TIER_FAMILY;
    if (e->vendor[0] && !strcmp(e->vendor, dev->vendor) && !strcmp(e->type, dev->type_name))
        return GB_TIER_VENDOR;
    return -1;
}

/* How far e is from p on dev, within its tier: the shapes' distance; another layout only where
 * none of this one is tuned; the same driver first. */
static double distance(const gb_tuned_entry_t *e, const gb_device_info_t *dev,
                       const gb_problem_t *p)
{
    char tag[16];
    const size_t a[3] = {e->m, e->n, e->k}, b[3] = {p->m, p->n, p->k};
    double d = gb_shape_distance(a, b);
    if (strcmp(e->layout, gb_tuned_layout_key(p, tag, sizeof tag)))
        d += 100;
    if (strcmp(e->driver, dev->driver))
        d += 0.01;
    return d;
}

/* The row-major layouts a heuristic row serves, as a row-major kernel sees the problem: the bits
 * 1u << gb_layout_index(GB_ROW_MAJOR, ta, tb), as a family's native layouts are. */
enum { ROW_NN = 1, ROW_NT = 2, ROW_TN = 4, ROW_TT = 8, A_ALONG_K = ROW_NN | ROW_NT };
/* The arithmetics a heuristic row serves, as bits 1u << gb_precision_t. */
enum { S = 1u << GB_PREC_S, D = 1u << GB_PREC_D, SD = S | D };

/* The heuristic when nothing is tuned: the kernels measured best on such devices. A row serves
 * the precisions whose arithmetic is among its own (h, b and c single's, z double's), each kernel
 * taken only where its metadata declares the problem's precision (runs), so that a family that
 * gains one is chosen for it without a row of its own; naive, which has them all, ends each. A
 * row with max_rows or max_cols is a stream for a C of few rows or columns. */
static const struct heuristic {
    const char *vendor; /* substring of the device's vendor, or "" for any */
    const char *type;
    unsigned precs;  /* S, D or SD: the arithmetics it serves */
    size_t max_size; /* for shapes whose size (gb_shape_size) is at most this (0: any) */
    size_t max_rows; /* for a C of at most this many rows with op(B) = B, as a row-major kernel
                        sees the problem (thin_extent; 0: any) */
    size_t max_cols; /* for a C of at most this many columns with op(B) = B (thin_extent; 0: any) */
    unsigned layouts; /* ROW_* bits: only those layouts (0: any) */
    size_t max_m;     /* for a C of at most this many rows as a row-major kernel sees it (0: any) */
    size_t max_n;     /* for a C of at most this many columns as a row-major kernel sees it */
    int real;         /* 1: not for c or z, which 1M runs on the real kernels as a wider C */
    const char *kernel;
} heuristics[] = {
    /* A C of few rows streams B once (bench/notes/thin.md#thin-stream-h200): a member of the
     * portfolio beside the tuned tiles, for the layouts those were not tuned in. Complex
     * elements first, read as they are stored (the presets for c and z), where the real
     * presets would run by 1M and expand B, all of the traffic, to twice its size first. In z
     * the one-row preset for one row alone: at 4 rows the 16-row one ran 3.7 TFLOP/s on the
     * H200 against its 2.5, where in c it is the other way (5.6 against 6.0;
     * bench/notes/thin.md#thin-stream-complex-h200); and for 2 to 4 rows z's 16-row preset
     * with 4 rows, which does a quarter of its work there (bench/notes/thin.md#thin-stream-4c).
     * The portfolio measures each beside the tile. */
    {"NVIDIA", "gpu", S, .max_rows = 4, .kernel = "thin_stream_1c"},
    {"NVIDIA", "gpu", D, .max_rows = 1, .kernel = "thin_stream_1c"},
    {"NVIDIA", "gpu", D, .max_rows = 4, .kernel = "thin_stream_4c"},
    {"NVIDIA", "gpu", SD, .max_rows = 16, .kernel = "thin_stream_16c"},
    {"NVIDIA", "gpu", SD, .max_rows = 4, .kernel = "thin_stream_1"},
    {"NVIDIA", "gpu", SD, .max_rows = 16, .kernel = "thin_stream_16"},
    /* A C of few columns streams A once: where A is stored along K (row-major NN), thin_dot,
     * its work-items along K (bench/notes/thin.md#thin-dot; not yet measured on a GPU); where
     * it is stored K x M, thin_cols, thin_stream's stream with rows and columns exchanged, whose
     * loads in NN touch a cache line each (0.12-0.34 of the bound on the H200,
     * bench/notes/thin.md#thin-cols-h200). Members of the portfolio, which measures them. The
     * one-column presets for a single column alone: each further column block reads A again.
     * thin_dot's complex presets first, as the streams' above. */
    {"NVIDIA", "gpu", SD, .max_cols = 1, .layouts = A_ALONG_K, .kernel = "thin_dot_1c"},
    {"NVIDIA", "gpu", SD, .max_cols = 16, .layouts = A_ALONG_K, .kernel = "thin_dot_16c"},
    {"NVIDIA", "gpu", SD, .max_cols = 1, .layouts = A_ALONG_K, .kernel = "thin_dot_1"},
    {"NVIDIA", "gpu", SD, .max_cols = 16, .layouts = A_ALONG_K, .kernel = "thin_dot_16"},
    {"NVIDIA", "gpu", SD, .max_cols = 1, .kernel = "thin_cols_1"},
    {"NVIDIA", "gpu", SD, .max_cols = 16, .kernel = "thin_cols_16"},
    /* For a C of at most 16 rows, the 16-row tile: keeping K-contiguous operands so where one
     * is (with B transposed, B is all of the traffic, and the tuned tiles would transpose it
     * into local memory by scalar stores), and in TN the family whose layout that is, with no
     * pass of A (bench/notes/dgemm.md#dmma-16-rows). */
    {"NVIDIA", "gpu", S, .layouts = ROW_NN | ROW_NT | ROW_TT, .max_m = 16,
     .kernel = "sgemm_3xtf32_nn_16x128"},
    {"NVIDIA", "gpu", S, .layouts = ROW_TN, .max_m = 16, .kernel = "sgemm_3xtf32_16x128"},
    /* For at most 64 rows, one row of 64 x 128 tiles keeping K-contiguous operands so, K split
     * by the grid's need: c's 64 x 8192 x 8192 (Y staged) 26.6 -> 45.5 TFLOP/s on the H200, where
     * the portfolio had taken a tile that transposes (bench/notes/complex.md#complex-y-where). */
    {"NVIDIA", "gpu", S, .layouts = ROW_NN | ROW_NT | ROW_TT, .max_m = 64,
     .kernel = "sgemm_3xtf32_nn_64x128"},
    /* h and b on Hopper (the presets take only their own precision): the warp-group MMA
     * kernel, its sums of 256 k added in FP32, faithful at any K and on data of one sign
     * (bench/notes/wgmma.md#wgmma-zfill). */
    {"NVIDIA", "gpu", S, .kernel = "hgemm_wgmma_nt_64x128"},
    {"NVIDIA", "gpu", S, .kernel = "bgemm_wgmma_nt_64x128"},
    /* For at most 64 columns, the 64 x 64 tile in 8 pieces of K: 29.4 -> 48.2 TFLOP/s at 8192 x
     * 64 x 8192 and 34.7 -> 45.4 at 16384 x 64 x 4096 on the H200, where the 128-column tile
     * wastes half its columns, and 34.4 at 4096 x 64 x 4096, a size the small shapes' row would
     * take (bench/notes/wgmma.md#wgmma-thin64-h200). Not c: by 1M its C is twice as wide, which
     * the 128-column tile fits (74.3 against 56.8 at 8192 x 64 x 8192). */
    {"NVIDIA", "gpu", S, .max_n = 64, .real = 1, .kernel = "sgemm_wgmma_64x64x32_split"},
    {"NVIDIA", "gpu", S, .max_size = 1024, .kernel = "xgemm_nv_64x64"},
    /* s (and c by 1M) past 1024 on Hopper: 3xTF32 on the warp-group MMA, its 128-row tile with
     * 32-deep K steps, 85.0 TFLOP/s at 4096 on the H200 against the 64-row tile's 72.1 and
     * cuBLAS's 49-50 (bench/notes/wgmma.md#wgm2-bk32), so that the portfolio measures it beside
     * the tuned entries; K split where its tiles are short of the device (the same kernel
     * elsewhere; bench/notes/wgmma.md#wgmma-split). */
    {"NVIDIA", "gpu", S, .kernel = "sgemm_wgmma_128x128x32_split"},
    {"NVIDIA", "gpu", S, .kernel = "xgemm_nv_k8"},
    /* d: the 128x64x16 tile where the device allows its 50 KB of local memory (Hopper: 51-52
     * TFLOP/s at 4096 and 8192 on the H200 against 47-48; bench/notes/dgemm.md#dmma-past-48k),
     * K split where its tiles are short of the device and K long (the squares unsplit and
     * unchanged, 256 x 256 x 65536 2.4 -> 30 TFLOP/s; bench/notes/dgemm.md#dmma-split-h200),
     * else the 128x128x8 tile within 48 KB. Where A is stored along K, the same tile keeping
     * it so in local memory (60 KB), which needs no pass of A: 42.6-51.0 TFLOP/s at large K
     * and 45.1 at 8192 x 128 x 8192 on the H200 in row-NN, against 30.1-44.7 and 25.9
     * (bench/notes/dgemm.md#dmma-kmajor-h200). For a C of at most 64 rows, the same warps side
     * by side (64 x 128), where the 128-row tile idles half its warps and makes every tile an
     * edge tile (bench/notes/dgemm.md#dmma-64-rows), in every layout of the _nn family (in TT
     * too, where the tile that transposes A ran at 0.41 of its rate); for at most 16 rows, the
     * 16-row tiles as s's above. */
    {"NVIDIA", "gpu", D, .layouts = ROW_NN | ROW_NT | ROW_TT, .max_m = 16,
     .kernel = "dgemm_dmma_nn_16x128x16"},
    {"NVIDIA", "gpu", D, .layouts = ROW_TN, .max_m = 16, .kernel = "dgemm_dmma_16x128x16"},
    {"NVIDIA", "gpu", D, .layouts = ROW_NN | ROW_NT | ROW_TT, .max_m = 64,
     .kernel = "dgemm_dmma_nn_64x128x16"},
    {"NVIDIA", "gpu", D, .max_m = 64, .kernel = "dgemm_dmma_64x128x16_split"},
    {"NVIDIA", "gpu", D, .layouts = A_ALONG_K, .kernel = "dgemm_dmma_nn_128x64x16"},
    {"NVIDIA", "gpu", D, .kernel = "dgemm_dmma_128x64x16_split"},
    {"NVIDIA", "gpu", D, .kernel = "dgemm_dmma_128_k4"},
    {"", "gpu", S, .kernel = "xgemm_gpu"},
    {"", "gpu", D, .kernel = "xgemm_gpu_d"},
    {"", "cpu", S, .kernel = "xgemm_cpu"},
    {"", "cpu", D, .kernel = "xgemm_cpu_d"},
    {"", "", SD, .kernel = "xgemm_small"},
    {"", "", SD, .kernel = "naive"},
};

/* p as a row-major kernel sees it: a column-major problem is its transpose, A and B exchanged. */
static gb_problem_t row_view(const gb_problem_t *p)
{
    return p->layout == GB_ROW_MAJOR ? *p : gb__problem_swapped(p);
}

/* The rows of C (cols: its columns) as a row-major kernel sees p. */
static size_t c_extent(const gb_problem_t *p, int cols)
{
    const gb_problem_t q = row_view(p);
    return cols ? q.n : q.m;
}

/* c_extent where that kernel's op(B) is B; else SIZE_MAX. */
static size_t thin_extent(const gb_problem_t *p, int cols)
{
    return row_view(p).trans_b != GB_NOTRANS ? SIZE_MAX : c_extent(p, cols);
}

/* p's layout as a row-major kernel sees it, as a ROW_* bit. */
static unsigned row_layout(const gb_problem_t *p)
{
    const gb_problem_t q = row_view(p);
    return 1u << gb_layout_index(GB_ROW_MAJOR, q.trans_a, q.trans_b);
}

/* The heuristic's choice for p on dev into *out (tiles: passing over the streams for a C of few
 * rows or columns), and into *stream whether it is such a stream: GB_OK or GB_ENOKERNEL. */
static int heuristic(const gb_registry_t *reg, const gb_device_info_t *dev, const gb_problem_t *p,
                     int tiles, gb_tuned_choice_t *out, int *stream)
{
    const size_t size = gb_shape_size(p->m, p->n, p->k);
    /* Where op(B) is not B and C is a vector, the thin rows see its vector form, which the
     * routes run (gb__problem_vector): y = x W^T is the GEMV W x^T. */
    gb_problem_t v;
    const gb_problem_t *thin =
        thin_extent(p, 0) == SIZE_MAX && gb__problem_vector(p, &v, NULL) ? &v : p;
    for (size_t i = 0; i < sizeof heuristics / sizeof heuristics[0]; i++) {
        const struct heuristic *h = &heuristics[i];
        if (!(h->precs & (1u << gb_precision_arith(p->precision))) ||
            (h->vendor[0] && !strstr(dev->vendor, h->vendor)) ||
            (h->type[0] && strcmp(h->type, dev->type_name)) ||
            (h->max_size && size > h->max_size) ||
            (h->max_rows && thin_extent(thin, 0) > h->max_rows) ||
            (h->max_cols && thin_extent(thin, 1) > h->max_cols) ||
            (h->layouts && !(h->layouts & row_layout(thin))) ||
            (h->max_m && c_extent(p, 0) > h->max_m) || (h->max_n && c_extent(p, 1) > h->max_n) ||
            (h->real && gb_precision_is_complex(p->precision)) ||
            (tiles && (h->max_rows || h->max_cols)))
            continue;
        gb_params_t none;
        memset(&none, 0, sizeof none);
        if (!runs(reg, dev, p, h->kernel, &none))
            continue;
        memset(out, 0, sizeof *out);
        snprintf(out->kernel, sizeof out->kernel, "%s", h->kernel);
        snprintf(out->why, sizeof out->why, "untuned: the default for a%s %s%s%s",
                 strchr("aeiou", dev->type_name[0]) ? "n" : "", h->vendor[0] ? h->vendor : "",
                 h->vendor[0] ? " " : "", dev->type_name);
        out->tier = GB_TIER_HEURISTIC;
        if (stream)
            *stream = h->max_rows || h->max_cols;
        return GB_OK;
    }
    return GB_ENOKERNEL;
}

static void from_entry(const gb_tuned_entry_t *e, int tr, gb_tuned_choice_t *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->kernel, sizeof out->kernel, "%s", e->kernel);
    out->params = e->params;
    out->entry = e;
    out->tier = (gb_tier_t)tr;
    const int shipped = !strcmp(e->source, "shipped");
    if (tr == GB_TIER_FAMILY)
        snprintf(out->why, sizeof out->why, "tuned: family %s (%s), %s%s", e->family, e->device,
                 e->shape_class, shipped ? ", shipped" : "");
    else
        snprintf(out->why, sizeof out->why, "tuned: %s%s, %s%s",
                 tr == GB_TIER_VENDOR ? "like " : "", e->device, e->shape_class,
                 shipped ? ", shipped" : "");
}

static int same_config(const gb_tuned_choice_t *a, const gb_tuned_choice_t *b)
{
    return !strcmp(a->kernel, b->kernel) && gb_params_equal(&a->params, &b->params);
}

/* Adds c to out[0..*n) unless a candidate of the same configuration is there. */
static void add(gb_tuned_choice_t *out, size_t *n, const gb_tuned_choice_t *c)
{
    for (size_t i = 0; i < *n; i++)
        if (same_config(&out[i], c))
            return;
    out[(*n)++] = *c;
}

/* An entry in the order of fit: its tier, then on this device the user's entries before the
 * shipped ones, then the distance. */
typedef struct ranked {
    size_t i;
    int tier, onem, shipped;
    double d;
} ranked_t;

static int by_rank(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->tier != y->tier)
        return x->tier < y->tier ? -1 : 1;
    if (x->onem != y->onem)
        return x->onem - y->onem;
    if (x->tier == GB_TIER_DEVICE && x->shipped != y->shipped)
        return x->shipped - y->shipped;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

int gb_tuned_portfolio(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                       const gb_problem_t *p, size_t max, gb_tuned_choice_t *out, size_t *n,
                       char *msg, size_t msglen)
{
    *n = 0;
    if (max > GB_PORTFOLIO_MAX)
        max = GB_PORTFOLIO_MAX;
    ranked_t *r = t->n ? malloc(t->n * sizeof *r) : NULL;
    if (t->n && !r)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    /* A complex problem also takes, after its own entries of a tier, the entries of its real
     * precision at the shape of the real GEMM the 1M method runs (gb__problem_1m). */
    gb_problem_t real = *p;
    if (gb_precision_is_complex(p->precision))
        gb__problem_1m(p, &real, NULL, NULL, NULL);
    size_t nr = 0;
    for (size_t i = 0; i < t->n; i++) {
        const int tr = gb_tuned_tier(&t->e[i], dev);
        const int own = t->e[i].precision == p->precision;
        const int onem =
            !own && real.precision != p->precision && t->e[i].precision == real.precision;
        if (tr >= 0 && (own || onem))
            r[nr++] = (ranked_t){i, tr, onem, !strcmp(t->e[i].source, "shipped"),
                                 distance(&t->e[i], dev, onem ? &real : p)};
    }
    if (nr)
        qsort(r, nr, sizeof *r, by_rank); /* r is NULL when the table is empty */
    /* The table's choice, then per tier as many as it is given, then the heuristic; then the
     * nearest of what is left, to fill the portfolio. */
    static const size_t quota[GB_TIER_HEURISTIC] = {3, 2, 1};
    size_t taken[GB_TIER_HEURISTIC] = {0};
    unsigned char *used = nr ? calloc(nr, 1) : NULL;
    if (nr && !used) {
        free(r);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t j = 0; j < nr && *n < max; j++) {
            if (used[j] || (pass == 0 && taken[r[j].tier] >= quota[r[j].tier]))
                continue;
            const gb_tuned_entry_t *e = &t->e[r[j].i];
            used[j] = 1;
            if (!runs(reg, dev, p, e->kernel, &e->params))
                continue;
            gb_tuned_choice_t c;
            from_entry(e, r[j].tier, &c);
            if (r[j].onem) {
                const size_t used_len = strlen(c.why);
                snprintf(c.why + used_len, sizeof c.why - used_len, "; its %s entry, by 1M",
                         gb_precision_name(e->precision));
            }
            const size_t before = *n;
            add(out, n, &c);
            taken[r[j].tier] += *n > before;
        }
        /* The heuristic's kernel; where that is a stream for a C of few rows or columns, also
         * its tile for the shape, so that the two kinds are measured side by side. */
        gb_tuned_choice_t h;
        int stream = 0;
        if (pass == 0 && *n < max && heuristic(reg, dev, p, 0, &h, &stream) == GB_OK) {
            add(out, n, &h);
            if (stream && *n < max && heuristic(reg, dev, p, 1, &h, NULL) == GB_OK)
                add(out, n, &h);
        }
    }
    free(used);
    free(r);
    if (!*n)
        return gb__fail(msg, msglen, GB_ENOKERNEL, "no kernel can run this problem on device '%s'",
                        dev->name);
    return GB_OK;
}

int gb_tuned_choose(const gb_tuned_t *t, const gb_registry_t *reg, const gb_device_info_t *dev,
                    const gb_problem_t *p, gb_tuned_choice_t *out, char *msg, size_t msglen)
{
    size_t n;
    return gb_tuned_portfolio(t, reg, dev, p, 1, out, &n, msg, msglen);
}
