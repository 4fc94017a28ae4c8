/* unit_tuned.c: the tuning database in memory (src/tool/tune/tuned.h) without a device: what -k auto
 * chooses (gb_tuned_choose) among the user's entries ("store") and the shipped ones for the same
 * device, whatever their order and even at a farther shape; an entry whose kernel cannot
 * resolve, or of the other precision, passed over; a device of the same vendor and type only
 * when the device itself has nothing; the store's entries loaded (gb_tuned_load_store, none from
 * a store without the table, which stays without it) and carried through JSON unchanged; the
 * store's entries merged over the shipped ones of the same key; documents refused with the
 * line, entry and key named, adding nothing; the family tier (a sibling's entries after the
 * device's own, before its vendor's) and the portfolio (each configuration once, the table's
 * choice first, the family's and the heuristic's in it, at most the size asked); the tuning
 * file written and read back unchanged, with its damaged lines skipped and counted (19 kinds,
 * each between good lines: control characters, NUL, invalid UTF-8, sizes out of range, kernels
 * and parameters this build lacks, with the nearest name); gb_tuned_merge_all as merges one by
 * one; what an entry must be (printable text, a known type, the shape's class, each parameter
 * once) and its kernel checked as kernel metadata is ("did you mean", ranges, precision); and
 * documents refused for an unknown or doubled key, a type or class not the shape's, and strings
 * holding control characters (raw or escaped), NUL or invalid UTF-8; entries of h, b, c and z
 * keyed by their precision (a c entry serves no s or z problem; C on A takes the row-TN entry;
 * the heuristic picks a kernel that has the precision); tuning files of version 2 with h and c
 * lines read and written back, and of version 1 read as before, an h line in one skipped. */
#include "unit.h"

#include "gemmbench_tuning.h"
#include "tool/tune/tuned.h"

static gb_device_info_t device(const char *name)
{
    static char ext[] = "cl_khr_fp64";
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.platform_name, sizeof d.platform_name, "Test Platform");
    snprintf(d.vendor, sizeof d.vendor, "Test Vendor");
    snprintf(d.driver, sizeof d.driver, "1.0");
    snprintf(d.version, sizeof d.version, "OpenCL 3.0");
    d.type_name = "gpu";
    d.compute_units = 8;
    d.clock_mhz = 1000;
    d.global_mem = d.max_alloc = 1ull << 32;
    d.local_mem = d.local_mem_kernel = 65536;
    d.max_wg_size = 1024;
    d.max_wi_sizes[0] = d.max_wi_sizes[1] = d.max_wi_sizes[2] = 1024;
    d.pref_vec_float = d.native_vec_float = 4;
    d.pref_vec_double = d.native_vec_double = 2;
    d.fp64 = 1;
    d.extensions = ext;
    return d;
}

/* An NVIDIA GPU of family (or none) with the extension the tensor-core families need, whose
 * kernels may take local bytes of local memory. */
static gb_device_info_t nvidia(const char *family, size_t local)
{
    static char ext[] = "cl_khr_fp64 cl_nv_device_attribute_query";
    gb_device_info_t d = device("Card N");
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
    snprintf(d.family, sizeof d.family, "%s", family);
    d.extensions = ext;
    d.local_mem_kernel = local;
    return d;
}

static gb_tuned_entry_t entry(const char *dev, const char *source, const char *kernel,
                              gb_precision_t prec, size_t size)
{
    gb_tuned_entry_t e;
    memset(&e, 0, sizeof e);
    snprintf(e.device, sizeof e.device, "%s", dev);
    snprintf(e.platform, sizeof e.platform, "Test Platform");
    snprintf(e.driver, sizeof e.driver, "1.0");
    snprintf(e.vendor, sizeof e.vendor, "Test Vendor");
    snprintf(e.type, sizeof e.type, "gpu");
    e.precision = prec;
    snprintf(e.layout, sizeof e.layout, "row-NN");
    e.m = e.n = e.k = size;
    gb_shape_class(size, size, size, e.shape_class, sizeof e.shape_class);
    snprintf(e.kernel, sizeof e.kernel, "%s", kernel);
    e.gflops = 100;
    snprintf(e.tuned_at, sizeof e.tuned_at, "2026-11-24T00:00:00Z");
    snprintf(e.source, sizeof e.source, "%s", source);
    return e;
}

/* The kernel -k auto picks for an s-precision n^3 on dev from these entries ("" on error). */
static const char *choose(const gb_registry_t *reg, const gb_device_info_t *dev,
                          const gb_tuned_entry_t *es, size_t n, size_t size, char *why, size_t len)
{
    static gb_tuned_choice_t c;
    gb_tuned_t t;
    gb_problem_t p;
    char msg[200];
    gb_tuned_init(&t);
    for (size_t i = 0; i < n; i++)
        gb_tuned_add(&t, &es[i]);
    gb_problem_init(&p, GB_PREC_S, size, size, size);
    gb_problem_check(&p, NULL, 0);
    int rc = gb_tuned_choose(&t, reg, dev, &p, &c, msg, sizeof msg);
    snprintf(why, len, "%s", rc == GB_OK ? c.why : msg);
    gb_tuned_free(&t);
    return rc == GB_OK ? c.kernel : "";
}

/* The choice for p from es[0..n): its kernel ("" on error), why into why. */
static const char *choose_for(const gb_registry_t *reg, const gb_device_info_t *dev,
                              const gb_tuned_entry_t *es, size_t n, gb_problem_t *p, char *why,
                              size_t len)
{
    static gb_tuned_choice_t c;
    gb_tuned_t t;
    char msg[200];
    gb_tuned_init(&t);
    for (size_t i = 0; i < n; i++)
        gb_tuned_add(&t, &es[i]);
    int rc = gb_problem_check(p, msg, sizeof msg);
    if (rc == GB_OK)
        rc = gb_tuned_choose(&t, reg, dev, p, &c, msg, sizeof msg);
    snprintf(why, len, "%s", rc == GB_OK ? c.why : msg);
    gb_tuned_free(&t);
    return rc == GB_OK ? c.kernel : "";
}

/* Entries of h, b, c and z are keyed by their precision as s and d are: each serves its own
 * problems only; a conjugate transposition takes the entry of T (row-TN for C on A); with
 * nothing tuned the heuristic picks a kernel whose metadata has the precision. */
static void test_precisions(const gb_registry_t *reg)
{
    gb_device_info_t dev = device("Card A");
    char why[256], key[16];
    gb_tuned_entry_t es[3];
    es[0] = entry("Card A", "store", "naive", GB_PREC_C, 64);
    snprintf(es[0].layout, sizeof es[0].layout, "row-TN");
    es[0].params.count = 1;
    snprintf(es[0].params.name[0], sizeof es[0].params.name[0], "LX");
    es[0].params.value[0] = 8;
    es[1] = entry("Card A", "store", "xgemm_small", GB_PREC_H, 64);
    es[2] = entry("Card A", "store", "xgemm_small", GB_PREC_S, 64);
    for (size_t i = 0; i < 3; i++)
        CHECK_RC(gb_tuned_entry_check(&es[i], why, sizeof why), GB_OK);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_C, 64, 64, 64);
    p.trans_a = GB_TRANS;
    p.conj_a = 1;
    CHECK(!strcmp(gb_tuned_layout_key(&p, key, sizeof key), "row-TN"));
    CHECK(!strcmp(choose_for(reg, &dev, es, 3, &p, why, sizeof why), "naive"));
    CHECK_HAS(why, "tuned: Card A, small-64");
    /* The c entry is no s problem's, nor a z one's. */
    gb_problem_init(&p, GB_PREC_S, 64, 64, 64);
    p.trans_a = GB_TRANS;
    CHECK(!strcmp(choose_for(reg, &dev, es, 1, &p, why, sizeof why), "xgemm_gpu") ||
          strstr(why, "untuned"));
    CHECK(!strstr(why, "tuned: Card A"));
    gb_problem_init(&p, GB_PREC_Z, 64, 64, 64);
    CHECK(choose_for(reg, &dev, es, 1, &p, why, sizeof why)[0] != '\0');
    CHECK_HAS(why, "untuned");
    /* A c problem with no c entry of its own takes the s entry of the real GEMM that the 1M
     * method runs (32 x 64 x 64 for 32 x 32 x 32: the s entry's small-64). */
    gb_problem_init(&p, GB_PREC_C, 32, 32, 32);
    CHECK(!strcmp(choose_for(reg, &dev, es + 2, 1, &p, why, sizeof why), "xgemm_small"));
    CHECK_HAS(why, "tuned: Card A, small-64");
    CHECK_HAS(why, "its s entry, by 1M");
    /* h takes its own entry; b, untuned, a kernel that has b (xgemm's preset on a GPU). */
    gb_problem_init(&p, GB_PREC_H, 64, 64, 64);
    CHECK(!strcmp(choose_for(reg, &dev, es, 3, &p, why, sizeof why), "xgemm_small"));
    CHECK_HAS(why, "tuned: Card A, small-64");
    gb_problem_init(&p, GB_PREC_B, 64, 64, 64);
    const char *k = choose_for(reg, &dev, es, 3, &p, why, sizeof why);
    CHECK_HAS(why, "untuned");
    const gb_family_t *f;
    const gb_preset_t *ps;
    if (CHECK(gb_registry_find(reg, k, &f, &ps) == GB_OK))
        CHECK(((ps ? ps->precisions : gb_family_precisions(f)) & (1u << GB_PREC_B)) != 0);
    /* An entry of a precision its kernel lacks is refused as kernel metadata would be. */
    es[2].precision = GB_PREC_C;
    snprintf(es[2].kernel, sizeof es[2].kernel, "hgemm_wgmma");
    CHECK_RC(gb_tuned_entry_check_kernel(&es[2], reg, why, sizeof why), GB_EBADPARAM);
    CHECK_HAS(why, "kernel 'hgemm_wgmma' has no precision c");
    es[2].precision = (gb_precision_t)GB_PREC_COUNT;
    CHECK_RC(gb_tuned_entry_check(&es[2], why, sizeof why), GB_EBADARG);
    CHECK_HAS(why, "bad precision (s, d, h, b, c, z or hh)");
}

static void test_choose(const gb_registry_t *reg)
{
    gb_device_info_t dev = device("Card A");
    char why[256];
    gb_tuned_entry_t es[4];
    /* The user's entry over the shipped one, in either order, even at a farther shape. */
    es[0] = entry("Card A", "shipped", "naive", GB_PREC_S, 512);
    es[1] = entry("Card A", "store", "xgemm_small", GB_PREC_S, 4096);
    CHECK(!strcmp(choose(reg, &dev, es, 2, 512, why, sizeof why), "xgemm_small"));
    CHECK_HAS(why, "tuned: Card A, square-4096");
    CHECK(!strstr(why, "shipped"));
    es[2] = es[0];
    CHECK(!strcmp(choose(reg, &dev, es + 1, 2, 512, why, sizeof why), "xgemm_small"));
    /* A user's entry that cannot resolve here is passed over for the shipped one. */
    snprintf(es[1].kernel, sizeof es[1].kernel, "no_such_kernel");
    CHECK(!strcmp(choose(reg, &dev, es, 2, 512, why, sizeof why), "naive"));
    CHECK_HAS(why, "tuned: Card A, square-512, shipped");
    /* ... and so is one of the other precision. */
    es[1] = entry("Card A", "store", "xgemm_small", GB_PREC_D, 512);
    CHECK(!strcmp(choose(reg, &dev, es, 2, 512, why, sizeof why), "naive"));
    /* Among the user's entries, the nearest shape. */
    es[1] = entry("Card A", "store", "xgemm_small", GB_PREC_S, 4096);
    es[2] = entry("Card A", "store", "xgemm_cpu", GB_PREC_S, 256);
    CHECK(!strcmp(choose(reg, &dev, es, 3, 512, why, sizeof why), "xgemm_cpu"));
    CHECK(!strcmp(choose(reg, &dev, es, 3, 2048, why, sizeof why), "xgemm_small"));
    /* Another device of the same vendor and type: only when this one has nothing. */
    es[3] = entry("Card B", "store", "xgemm_gpu", GB_PREC_S, 512);
    CHECK(!strcmp(choose(reg, &dev, es, 4, 512, why, sizeof why), "xgemm_cpu"));
    CHECK(!strcmp(choose(reg, &dev, es + 3, 1, 512, why, sizeof why), "xgemm_gpu"));
    CHECK_HAS(why, "tuned: like Card B, square-512");
    /* Nothing tuned: the heuristic says so. */
    CHECK(choose(reg, &dev, es, 0, 512, why, sizeof why)[0] != '\0');
    CHECK_HAS(why, "untuned: the default for a");
}

/* The heuristic's choice for p (checked first) on dev with nothing tuned, into *c. */
static void untuned_choice(const gb_registry_t *reg, const gb_device_info_t *dev, gb_problem_t *p,
                           gb_tuned_choice_t *c)
{
    CHECK_RC(gb_problem_check(p, NULL, 0), GB_OK);
    gb_tuned_t t;
    gb_tuned_init(&t);
    char msg[200];
    memset(c, 0, sizeof *c);
    CHECK_RC(gb_tuned_choose(&t, reg, dev, p, c, msg, sizeof msg), GB_OK);
    CHECK(c->tier == GB_TIER_HEURISTIC);
    gb_tuned_free(&t);
}

/* That the heuristic chooses want for p (case i of a table) on dev with nothing tuned. */
static void expect_untuned(const gb_registry_t *reg, const gb_device_info_t *dev, gb_problem_t *p,
                           const char *want, size_t i)
{
    gb_tuned_choice_t c;
    untuned_choice(reg, dev, p, &c);
    if (strcmp(c.kernel, want))
        fprintf(stderr, "case %zu: %s\n", i, c.kernel);
    CHECK(!strcmp(c.kernel, want));
}

/* The heuristic on an NVIDIA GPU: a C of at most 4 rows with op(B) = B, as a row-major kernel
 * sees it, streams B with thin_stream_1, of 5 to 16 rows with thin_stream_16; one of a single
 * column (and more rows) streams A with thin_dot_1 where A is stored along K, else thin_cols_1,
 * of 2 to 16 with thin_dot_16 or thin_cols_16; a transposed B, or more rows and columns, gets
 * the tiled default, but where C is a vector its vector form (gb__problem_vector) is classed:
 * y = x W^T is the GEMV W x^T, thin_dot_1's. In c and z thin_stream's and thin_dot's are the
 * complex presets, and z streams 2 to 4 rows with the 4-row one. */
static void test_heuristic_thin(const gb_registry_t *reg)
{
    const gb_device_info_t dev = nvidia("", 65536);
    static const struct {
        size_t m, n;
        gb_layout_t layout;
        gb_trans_t ta, tb;
        const char *kernel; /* NULL: none of the thin families' */
    } cases[] = {
        {1, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_stream_1"},
        {4, 4096, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "thin_stream_1"},
        {5, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_stream_16"},
        {16, 4096, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "thin_stream_16"},
        {17, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, NULL},
        {1, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, "thin_dot_1"}, /* y = x W^T */
        {1, 4096, GB_ROW_MAJOR, GB_TRANS, GB_TRANS, "thin_dot_1"},
        {4096, 1, GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, "thin_stream_1"}, /* as B^T A^T */
        {4096, 16, GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_stream_16"},
        {4096, 1, GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, "thin_dot_1"},   /* A^T: rows of K */
        {1, 4096, GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_dot_1"}, /* as B^T A^T */
        {1, 4096, GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, "thin_cols_1"},  /* A^T stored K x 1 */
        {4096, 1, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_dot_1"},
        {4096, 1, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "thin_cols_1"},
        {4096, 1, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, "thin_dot_1"}, /* x given as a row */
        {4096, 2, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "thin_cols_16"},
        {4096, 2, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_dot_16"},
        {4096, 16, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_dot_16"},
        {16, 4096, GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, "thin_dot_16"},
        {16, 4096, GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, "thin_cols_16"},
        {4096, 17, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, NULL},
        {4096, 16, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, NULL},
        {16, 4096, GB_COL_MAJOR, GB_TRANS, GB_TRANS, NULL},
    };
    /* In c and z the streams and dots are the complex presets (the real ones would run by 1M,
     * an operand expanded first); the other cases are the real precisions' alone. */
    static const gb_precision_t precs[] = {GB_PREC_S, GB_PREC_D, GB_PREC_C, GB_PREC_Z};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t d = 0; d < 4; d++) {
            const int complex = gb_precision_is_complex(precs[d]);
            const char *k = cases[i].kernel;
            const size_t rows = cases[i].layout == GB_ROW_MAJOR ? cases[i].m : cases[i].n;
            if (precs[d] == GB_PREC_Z && k && !strcmp(k, "thin_stream_1") && rows > 1)
                k = "thin_stream_4";
            if (complex && (!k || (strncmp(k, "thin_stream", 11) && strncmp(k, "thin_dot", 8))))
                continue;
            char want[GB_NAME_MAX];
            snprintf(want, sizeof want, "%s%s", k ? k : "", complex ? "c" : "");
            gb_problem_t p;
            gb_problem_init(&p, precs[d], cases[i].m, cases[i].n, 4096);
            p.layout = cases[i].layout;
            p.trans_a = cases[i].ta;
            p.trans_b = cases[i].tb;
            gb_tuned_choice_t c;
            untuned_choice(reg, &dev, &p, &c);
            if (k && strcmp(c.kernel, want))
                fprintf(stderr, "case %zu (%s): %s\n", i, gb_precision_name(precs[d]), c.kernel);
            if (k)
                CHECK(!strcmp(c.kernel, want));
            else
                CHECK(strncmp(c.kernel, "thin_", 5) != 0);
        }
}

/* The heuristic in h and b on an NVIDIA GPU: on sm_90 the warp-group MMA preset of each that
 * runs any K (8192 included: past the K that a preset accumulating all of K in the tensor core
 * may take); on another architecture, which cannot load its PTX, a kernel in OpenCL C. */
static void test_heuristic_16bit(const gb_registry_t *reg)
{
    static const struct {
        const char *family;
        gb_precision_t prec;
        const char *kernel; /* NULL: any but the PTX presets */
    } cases[] = {
        {"nvidia-sm_90", GB_PREC_H, "hgemm_wgmma_nt_64x128"},
        {"nvidia-sm_90", GB_PREC_B, "bgemm_wgmma_nt_64x128"},
        {"nvidia-sm_80", GB_PREC_H, NULL},
        {"nvidia-sm_80", GB_PREC_B, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gb_device_info_t dev = nvidia(cases[i].family, 65536);
        gb_problem_t p;
        gb_problem_init(&p, cases[i].prec, 8192, 8192, 8192);
        gb_tuned_choice_t c;
        untuned_choice(reg, &dev, &p, &c);
        if (cases[i].kernel)
            CHECK(!strcmp(c.kernel, cases[i].kernel));
        else
            CHECK(!strstr(c.kernel, "wgmma"));
    }
}

/* The heuristic in d on an NVIDIA GPU: the 128x64x16 tile (K split by the grid's need) where a
 * kernel may take its 50 KB of local memory, and where A is stored along K (row-NN) that tile
 * keeping A K-contiguous where it may take 60 KB (the metadata counts both operands so); the
 * 128x128x8 tile (33 KB) where 48 KB is all it may take. For a C of at most 64 rows as a
 * row-major kernel sees it (B transposed or not), the 64 x 128 tile of the same local memory. */
static void test_heuristic_local(const gb_registry_t *reg)
{
    static const struct {
        size_t local, m, n;
        gb_layout_t layout;
        gb_trans_t ta, tb;
        const char *kernel;
    } cases[] = {
        {232448, 4096, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_nn_128x64x16"},
        {61440, 4096, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_nn_128x64x16"},
        {61439, 4096, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_128x64x16_split"},
        {232448, 4096, 4096, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "dgemm_dmma_128x64x16_split"},
        {51200, 4096, 4096, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "dgemm_dmma_128x64x16_split"},
        {51199, 4096, 4096, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_128_k4"},
        {49152, 4096, 4096, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "dgemm_dmma_128_k4"},
        {232448, 64, 8192, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, "dgemm_dmma_nn_64x128x16"},
        {232448, 64, 8192, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_nn_64x128x16"},
        {232448, 65, 8192, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, "dgemm_dmma_nn_128x64x16"},
        {232448, 64, 8192, GB_ROW_MAJOR, GB_TRANS, GB_TRANS, "dgemm_dmma_nn_64x128x16"},
        {232448, 64, 8192, GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, "dgemm_dmma_64x128x16_split"},
        {61439, 64, 8192, GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, "dgemm_dmma_64x128x16_split"},
        {232448, 8192, 64, GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, "dgemm_dmma_nn_64x128x16"},
        {232448, 64, 8192, GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, "dgemm_dmma_nn_128x64x16"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_device_info_t dev = nvidia("", cases[i].local);
        gb_problem_t p;
        gb_problem_init(&p, GB_PREC_D, cases[i].m, cases[i].n, 4096);
        p.layout = cases[i].layout;
        p.trans_a = cases[i].ta;
        p.trans_b = cases[i].tb;
        expect_untuned(reg, &dev, &p, cases[i].kernel, i);
    }
}

/* The heuristic on an NVIDIA GPU for a C of at most 16 rows where no stream takes it (B
 * transposed): in s and d the 16-row tile keeping K-contiguous operands so, in NT and TT; of 17
 * to 64 rows the 64 x 128 tile, in NN too; of 65 another. In TN a stream (thin_stream_16) is its
 * choice, and the portfolio also takes the 16-row tile of the family native in TN (no pass of
 * A), where a square's portfolio takes one kernel of the heuristic's. */
static void test_heuristic_rows(const gb_registry_t *reg)
{
    static const struct {
        size_t m;
        gb_trans_t ta, tb;
        const char *s, *d; /* the heuristic's choice; NULL: not a 16-row preset */
        int tile;          /* the portfolio also takes the 16-row tile native in TN */
    } cases[] = {
        {16, GB_NOTRANS, GB_TRANS, "sgemm_3xtf32_nn_16x128", "dgemm_dmma_nn_16x128x16", 0},
        {2, GB_NOTRANS, GB_TRANS, "sgemm_3xtf32_nn_16x128", "dgemm_dmma_nn_16x128x16", 0},
        {16, GB_TRANS, GB_TRANS, "sgemm_3xtf32_nn_16x128", "dgemm_dmma_nn_16x128x16", 0},
        {17, GB_NOTRANS, GB_TRANS, "sgemm_3xtf32_nn_64x128", "dgemm_dmma_nn_64x128x16", 0},
        {64, GB_NOTRANS, GB_NOTRANS, "sgemm_3xtf32_nn_64x128", "dgemm_dmma_nn_64x128x16", 0},
        {64, GB_TRANS, GB_TRANS, "sgemm_3xtf32_nn_64x128", "dgemm_dmma_nn_64x128x16", 0},
        {65, GB_NOTRANS, GB_TRANS, NULL, "dgemm_dmma_nn_128x64x16", 0},
        {16, GB_TRANS, GB_NOTRANS, "thin_stream_16", "thin_stream_16", 1},
        {4096, GB_NOTRANS, GB_NOTRANS, NULL, "dgemm_dmma_nn_128x64x16", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int d = 0; d < 2; d++) {
            gb_device_info_t dev = nvidia("nvidia-sm_90", 232448);
            gb_problem_t p;
            gb_problem_init(&p, d ? GB_PREC_D : GB_PREC_S, cases[i].m, 4096, 4096);
            p.trans_a = cases[i].ta;
            p.trans_b = cases[i].tb;
            gb_tuned_choice_t c;
            untuned_choice(reg, &dev, &p, &c);
            const char *want = d ? cases[i].d : cases[i].s;
            if (want ? strcmp(c.kernel, want) != 0 : strstr(c.kernel, "16x128") != NULL)
                fprintf(stderr, "case %zu (%s): %s\n", i, d ? "d" : "s", c.kernel);
            if (want)
                CHECK(!strcmp(c.kernel, want));
            else
                CHECK(!strstr(c.kernel, "16x128"));
            /* The portfolio with nothing tuned: the heuristic's members alone. */
            gb_tuned_t t;
            gb_tuned_init(&t);
            gb_tuned_choice_t pf[GB_PORTFOLIO_MAX];
            size_t n = 0;
            char msg[200];
            CHECK_RC(
                gb_tuned_portfolio(&t, reg, &dev, &p, GB_PORTFOLIO_MAX, pf, &n, msg, sizeof msg),
                GB_OK);
            CHECK(n == (cases[i].tile ? 2u : 1u));
            if (cases[i].tile && n == 2) {
                const char *tile = d ? "dgemm_dmma_16x128x16" : "sgemm_3xtf32_16x128";
                if (strcmp(pf[1].kernel, tile))
                    fprintf(stderr, "case %zu (%s): second member %s\n", i, d ? "d" : "s",
                            pf[1].kernel);
                CHECK(!strcmp(pf[0].kernel, "thin_stream_16") && !strcmp(pf[1].kernel, tile));
                CHECK(pf[1].tier == GB_TIER_HEURISTIC);
            }
            gb_tuned_free(&t);
        }
}

/* The heuristic in s on Hopper for a C of at most 64 columns as a row-major kernel sees it (B
 * transposed or not, or column-major with at most 64 rows): the 64 x 64 warp-group tile split
 * in K, before the small shapes' row (8192 x 64 x 4096 is of size 1024); of 65 the 128 x 128
 * one; d keeps its tiles; a C of at most 64 rows keeps the 64 x 128 tile (rows first); c, whose
 * C 1M makes twice as wide, the 128 x 128 one. */
static void test_heuristic_cols(const gb_registry_t *reg)
{
    static const struct {
        gb_precision_t prec;
        size_t m, n;
        gb_layout_t layout;
        gb_trans_t tb;
        const char *kernel;
    } cases[] = {
        {GB_PREC_S, 8192, 64, GB_ROW_MAJOR, GB_NOTRANS, "sgemm_wgmma_64x64x32_split"},
        {GB_PREC_S, 16384, 17, GB_ROW_MAJOR, GB_TRANS, "sgemm_wgmma_64x64x32_split"},
        {GB_PREC_S, 64, 8192, GB_COL_MAJOR, GB_NOTRANS, "sgemm_wgmma_64x64x32_split"},
        {GB_PREC_S, 4096, 64, GB_ROW_MAJOR, GB_NOTRANS, "sgemm_wgmma_64x64x32_split"},
        {GB_PREC_S, 8192, 65, GB_ROW_MAJOR, GB_NOTRANS, "sgemm_wgmma_128x128x32_split"},
        {GB_PREC_S, 64, 64, GB_ROW_MAJOR, GB_TRANS, "sgemm_3xtf32_nn_64x128"},
        {GB_PREC_D, 8192, 64, GB_ROW_MAJOR, GB_NOTRANS, "dgemm_dmma_nn_128x64x16"},
        {GB_PREC_C, 8192, 64, GB_ROW_MAJOR, GB_NOTRANS, "sgemm_wgmma_128x128x32_split"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_device_info_t dev = nvidia("nvidia-sm_90", 232448);
        gb_problem_t p;
        gb_problem_init(&p, cases[i].prec, cases[i].m, cases[i].n, 8192);
        p.layout = cases[i].layout;
        p.trans_b = cases[i].tb;
        expect_untuned(reg, &dev, &p, cases[i].kernel, i);
    }
}

static void test_family(const gb_registry_t *reg)
{
    gb_device_info_t dev = device("Card A");
    snprintf(dev.family, sizeof dev.family, "test-arch-1");
    char why[256];
    gb_tuned_entry_t es[5];
    /* A sibling's entry (Card S, same family) before a vendor-only one (Card B), even farther;
     * the device's own before both. */
    es[0] = entry("Card B", "store", "xgemm_gpu", GB_PREC_S, 512);
    es[1] = entry("Card S", "shipped", "xgemm_small", GB_PREC_S, 4096);
    snprintf(es[1].family, sizeof es[1].family, "test-arch-1");
    CHECK(!strcmp(choose(reg, &dev, es, 2, 512, why, sizeof why), "xgemm_small"));
    CHECK_HAS(why, "tuned: family test-arch-1 (Card S), square-4096, shipped");
    es[2] = entry("Card A", "shipped", "naive", GB_PREC_S, 64);
    CHECK(!strcmp(choose(reg, &dev, es, 3, 512, why, sizeof why), "naive"));
    /* Another family is not a sibling. */
    snprintf(es[1].family, sizeof es[1].family, "test-arch-2");
    snprintf(es[1].vendor, sizeof es[1].vendor, "Other Vendor");
    CHECK(!strcmp(choose(reg, &dev, es, 2, 512, why, sizeof why), "xgemm_gpu"));
    snprintf(es[1].family, sizeof es[1].family, "test-arch-1");

    /* The portfolio: the table's choice first, then the device's next, the family's, the
     * vendor's and the heuristic's, each configuration once. */
    es[3] = entry("Card A", "store", "naive", GB_PREC_S, 128); /* naive again: once */
    es[4] = entry("Card A", "store", "xgemm_cpu", GB_PREC_S, 1024);
    es[0] = entry("Card B", "store", "myGEMM1", GB_PREC_S, 512); /* not the heuristic's */
    gb_tuned_t t;
    gb_tuned_init(&t);
    for (size_t i = 0; i < 5; i++)
        gb_tuned_add(&t, &es[i]);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 512, 512, 512);
    gb_problem_check(&p, NULL, 0);
    gb_tuned_choice_t c[GB_PORTFOLIO_MAX];
    size_t n = 0;
    char msg[256];
    CHECK_RC(gb_tuned_portfolio(&t, reg, &dev, &p, GB_PORTFOLIO_MAX, c, &n, msg, sizeof msg),
             GB_OK);
    CHECK(n == 5);
    if (n == 5) {
        CHECK(!strcmp(c[0].kernel, "xgemm_cpu") && c[0].tier == GB_TIER_DEVICE); /* the user's */
        CHECK(!strcmp(c[1].kernel, "naive") && c[1].tier == GB_TIER_DEVICE);
        CHECK(!strcmp(c[2].kernel, "xgemm_small") && c[2].tier == GB_TIER_FAMILY);
        CHECK(!strcmp(c[3].kernel, "myGEMM1") && c[3].tier == GB_TIER_VENDOR);
        CHECK(c[4].tier == GB_TIER_HEURISTIC && !c[4].entry);
    }
    CHECK_RC(gb_tuned_portfolio(&t, reg, &dev, &p, 2, c, &n, msg, sizeof msg), GB_OK);
    CHECK(n == 2);
    gb_tuned_free(&t);
}

static int same_entry(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    int same = !strcmp(a->device, b->device) && !strcmp(a->platform, b->platform) &&
               !strcmp(a->driver, b->driver) && !strcmp(a->vendor, b->vendor) &&
               !strcmp(a->type, b->type) && a->precision == b->precision &&
               !strcmp(a->layout, b->layout) && !strcmp(a->shape_class, b->shape_class) &&
               a->m == b->m && a->n == b->n && a->k == b->k && !strcmp(a->kernel, b->kernel) &&
               a->gflops == b->gflops && a->nevidence == b->nevidence &&
               !strcmp(a->tuned_at, b->tuned_at) && a->params.count == b->params.count;
    for (size_t i = 0; same && i < a->nevidence; i++)
        same = !strcmp(a->evidence[i], b->evidence[i]);
    for (size_t i = 0; same && i < a->params.count; i++)
        same = !strcmp(a->params.name[i], b->params.name[i]) &&
               a->params.value[i] == b->params.value[i];
    return same;
}

/* The store's entries: loaded as "store", preferred over shipped ones, through JSON unchanged. */
static void test_store(const gb_registry_t *reg)
{
    char dir[64], path[256], msg[1024];
    gb_store_t *st = NULL;
    gb_tuned_t t, back;
    gb_tuned_init(&t);
    gb_tuned_init(&back);
    if (!unit_make_dir(dir, sizeof dir))
        return;
    snprintf(path, sizeof path, "%s/t.db", dir);
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        goto done;
    CHECK_RC(gb_tuned_load_store(&t, st, msg, sizeof msg), GB_OK);
    CHECK(t.n == 0);
    gb_tuning_counts_t c;
    CHECK_RC(gb_store_tuning_counts(st, &c), GB_OK);
    CHECK(!c.present); /* loading wrote nothing */

    gb_tuned_entry_t e = entry("Card A", "", "xgemm_small", GB_PREC_S, 1024);
    gb_params_set(&e.params, "MWG", 32);
    gb_params_set(&e.params, "KWG", 16);
    gb_params_set(&e.params, "PADA", 3);
    snprintf(e.evidence[0], sizeof e.evidence[0], "0123456789abcdef");
    snprintf(e.evidence[1], sizeof e.evidence[1], "fedcba9876543210");
    e.nevidence = 2;
    e.gflops = 1234.5678901234567;
    CHECK_RC(gb_store_tuned_put(st, &e), GB_OK);
    gb_tuned_entry_t d = entry("Card A", "", "xgemm_cpu", GB_PREC_D, 64);
    d.m = 64;
    d.n = 300;
    d.k = 77;
    gb_shape_class(d.m, d.n, d.k, d.shape_class, sizeof d.shape_class);
    CHECK_RC(gb_store_tuned_put(st, &d), GB_OK);
    if (!CHECK_RC(gb_tuned_load_store(&t, st, msg, sizeof msg), GB_OK) || !CHECK(t.n == 2))
        goto done;
    CHECK(!strcmp(t.e[0].source, "store") && !strcmp(t.e[1].source, "store"));
    const gb_tuned_entry_t *s = t.e[0].precision == GB_PREC_S ? &t.e[0] : &t.e[1];
    CHECK(s->params.count == 3 && !strcmp(s->params.name[0], "KWG") &&
          !strcmp(s->params.name[2], "PADA") && s->params.value[2] == 3);

    /* Preferred over a shipped entry for the same device and shape. */
    gb_tuned_entry_t shipped = entry("Card A", "shipped", "naive", GB_PREC_S, 1024);
    CHECK_RC(gb_tuned_add(&t, &shipped), GB_OK);
    gb_device_info_t dev = device("Card A");
    gb_problem_t p;
    gb_tuned_choice_t ch;
    gb_problem_init(&p, GB_PREC_S, 1024, 1024, 1024);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb_tuned_choose(&t, reg, &dev, &p, &ch, msg, sizeof msg), GB_OK);
    CHECK(!strcmp(ch.kernel, "xgemm_small") && ch.entry && !strcmp(ch.entry->source, "store"));
    long v = 0;
    CHECK(gb_params_get(&ch.params, "MWG", &v) && v == 32);
    t.n--; /* the shipped entry out again */

    /* Through JSON (export, then import as tuned import reads it): every field the same. */
    char *json = gb_tuned_to_json(&t);
    CHECK(json != NULL);
    if (json) {
        CHECK_RC(gb_tuned_from_json(&back, json, strlen(json), "x.json", "store", msg, sizeof msg),
                 GB_OK);
        CHECK(back.n == 2);
        for (size_t i = 0; i < back.n && i < 2; i++)
            CHECK(same_entry(&t.e[i], &back.e[i]));
        free(json);
    }
done:
    gb_tuned_free(&t);
    gb_tuned_free(&back);
    gb_store_close(st);
    unit_remove_dir(dir);
}

/* The shipped defaults and the store's entries merged: the store's entry takes the key's place
 * whichever was loaded first; another key is kept beside it; between two shipped entries of one
 * key, the later. */
static void test_merge(void)
{
    char dir[64], path[256], msg[1024];
    gb_store_t *st = NULL;
    gb_tuned_t t;
    gb_tuned_init(&t);
    if (!unit_make_dir(dir, sizeof dir))
        return;
    snprintf(path, sizeof path, "%s/m.db", dir);
    if (!CHECK_RC(gb_store_open(&st, path, GB_STORE_CREATE, msg, sizeof msg), GB_OK))
        goto done;
    gb_tuned_entry_t mine = entry("Card A", "store", "xgemm_small", GB_PREC_S, 1024);
    CHECK_RC(gb_store_tuned_put(st, &mine), GB_OK);
    /* Shipped first (as -k auto loads them), then the store's. */
    gb_tuned_entry_t shipped = entry("Card A", "shipped", "naive", GB_PREC_S, 1024);
    gb_tuned_entry_t other = entry("Card A", "shipped", "naive", GB_PREC_S, 64);
    CHECK_RC(gb_tuned_merge(&t, &shipped), GB_OK);
    CHECK_RC(gb_tuned_merge(&t, &other), GB_OK);
    CHECK_RC(gb_tuned_load_store(&t, st, msg, sizeof msg), GB_OK);
    CHECK(t.n == 2 && t.overridden == 1);
    CHECK(t.n == 2 && !strcmp(t.e[0].kernel, "xgemm_small") && !strcmp(t.e[0].source, "store"));
    CHECK(t.n == 2 && !strcmp(t.e[1].kernel, "naive") &&
          !strcmp(t.e[1].shape_class, other.shape_class));
    /* The store's first: a shipped entry of its key does not replace it. */
    gb_tuned_free(&t);
    CHECK_RC(gb_tuned_load_store(&t, st, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_tuned_merge(&t, &shipped), GB_OK);
    CHECK(t.n == 1 && t.overridden == 1 && !strcmp(t.e[0].source, "store"));
    /* Another driver is another key. */
    snprintf(shipped.driver, sizeof shipped.driver, "2.0");
    CHECK_RC(gb_tuned_merge(&t, &shipped), GB_OK);
    CHECK(t.n == 2);
    /* Two shipped entries of one key: the later. */
    snprintf(shipped.kernel, sizeof shipped.kernel, "xgemm_cpu");
    CHECK_RC(gb_tuned_merge(&t, &shipped), GB_OK);
    CHECK(t.n == 2 && !strcmp(t.e[1].kernel, "xgemm_cpu"));
    /* The shipped defaults load (there may be none) and keep the store's entry. */
    CHECK_RC(gb_tuned_load_shipped(&t), GB_OK);
    CHECK(t.n >= 2 && !strcmp(t.e[0].kernel, "xgemm_small"));
done:
    gb_tuned_free(&t);
    gb_store_close(st);
    unit_remove_dir(dir);
}

/* A document refused names ORIGIN:LINE, the entry and the key, and adds nothing. */
static void test_refusals(void)
{
    static const struct {
        const char *doc, *says;
    } bad[] = {
        {"[\n  {\"device\": \"D\",\n   \"platform\": \"P\",\n   \"precision\": \"s\",\n"
         "   \"layout\": \"row-NN\",\n   \"shape\": [1, 2, 3],\n   \"kernel\": \"k\"},\n"
         "  {\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\",\n"
         "   \"layout\": \"row-NN\",\n   \"shape\": [1, 2],\n   \"kernel\": \"k\"}\n]",
         "f.json:10: entry 1: bad value for 'shape': it must be [M, N, K]"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3]}]",
         "f.json:1: entry 0: missing key 'kernel'"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3], \"kernel\": \"k\", \"params\": {\"A\": 1},\n\"gflops\": 1,\n"
         "\"evidence\": [\"x\"]}]",
         "f.json:4: entry 0: bad value for 'evidence'"},
        {"[]\n\n[]", "f.json:3: text after the JSON document (byte 4); remove it"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3], \"kernal\": \"k\"}]",
         "f.json:2: entry 0: key 'kernal' is unknown; did you mean 'kernel'?"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3], \"kernel\": \"k\",\n\"kernel\": \"j\"}]",
         "f.json:2: entry 0: key 'kernel' appears twice; keep one"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3], \"kernel\": \"k\", \"type\": \"quantum\"}]",
         "f.json:2: entry 0: bad value for 'type': it must be the device's type: gpu, cpu"},
        {"[{\"device\": \"D\", \"platform\": \"P\", \"precision\": \"s\", \"layout\": \"row-NN\","
         "\n\"shape\": [1, 2, 3], \"kernel\": \"k\", \"class\": \"weird\"}]",
         "f.json:2: entry 0: bad value for 'class': it must be small-2, the class of its shape "
         "[1, 2, 3]"},
        {"[{\"device\": \"D\\u0000E\", \"platform\": \"P\"}]",
         "f.json:1: a string holds a control character (escaped as \\u0000) at byte 14"},
        {"[\n{\"device\": \"D\x1b[2J\", \"platform\": \"P\"}]",
         "f.json:2: a string holds a control character (byte 0x1b) at byte 15"},
        {"[{\"device\": \"D\xc3\", \"platform\": \"P\"}]",
         "f.json:1: a string holds invalid UTF-8 (byte 0xc3) at byte 14"},
        {"[{\"device\": \"D\\n\", \"platform\": \"P\"}]",
         "f.json:1: a string holds a control character (escaped as \\n) at byte 14"},
        {"[\n{,}]", "f.json:2: not valid JSON (byte "},
        {"\n\n{}", "f.json:3: not a JSON array of tuned entries"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb_tuned_t t;
        char msg[1024] = "";
        gb_tuned_init(&t);
        gb_tuned_entry_t keep = entry("Card A", "shipped", "naive", GB_PREC_S, 64);
        gb_tuned_add(&t, &keep);
        CHECK_RC(gb_tuned_from_json(&t, bad[i].doc, strlen(bad[i].doc), "f.json", "store", msg,
                                    sizeof msg),
                 GB_EBADARG);
        CHECK_HAS(msg, bad[i].says);
        CHECK(t.n == 1); /* nothing of the document, not even its good first entry */
        gb_tuned_free(&t);
    }
}

/* Every shipped entry names its device's family (kernels/tuned/FAMILY.json, through the
 * generator): else an H200 would not find the H100's entries as its family's. */
static void test_shipped_families(void)
{
    gb_tuned_t t;
    gb_tuned_init(&t);
    CHECK_RC(gb_tuned_load_shipped(&t), GB_OK);
    CHECK(t.n > 0);
    size_t named = 0;
    for (size_t i = 0; i < t.n; i++)
        named += t.e[i].family[0] != '\0';
    CHECK(named == t.n);
    gb_tuned_free(&t);
}

/* The tuning file: what is written is read back the same; damaged lines and kernels this build
 * lacks are skipped, counted, and the first named with its line. */
/* path read as a tuning file into t, which this initialises (the caller frees it): the entries
 * read and skipped, and the warnings, into the caller's. */
static void read_file(const char *path, const gb_registry_t *reg, gb_tuned_t *t, size_t *read,
                      size_t *skipped, char *warn, size_t wlen)
{
    char msg[256];
    gb_tuned_init(t);
    *read = *skipped = 0;
    if (!CHECK_RC(
            gb_tuned_file_read(t, path, reg, "file", read, skipped, warn, wlen, msg, sizeof msg),
            GB_OK))
        printf("  %s: %s\n", path, msg);
}

static void test_file(const gb_registry_t *reg)
{
    char path[] = "/tmp/unit_tuned_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    gb_tuned_t t, back;
    gb_tuned_init(&t);
    gb_tuned_entry_t e = entry("Card A", "store", "xgemm_small", GB_PREC_S, 512);
    gb_params_set(&e.params, "MWG", 32);
    snprintf(e.family, sizeof e.family, "test-arch-1");
    gb_tuned_add(&t, &e);
    gb_tuned_entry_t d = entry("Card A", "shipped", "naive", GB_PREC_D, 64); /* not written */
    gb_tuned_add(&t, &d);
    char msg[256], warn[256];
    size_t read, skipped;
    CHECK_RC(gb_tuned_file_write(&t, path, msg, sizeof msg), GB_OK);
    read_file(path, reg, &back, &read, &skipped, warn, sizeof warn);
    CHECK(read == 1 && skipped == 0 && back.n == 1);
    if (back.n == 1) {
        snprintf(e.source, sizeof e.source, "file");
        CHECK(same_entry(&back.e[0], &e) && !strcmp(back.e[0].family, "test-arch-1") &&
              !strcmp(back.e[0].source, "file"));
    }
    FILE *f = fopen(path, "a");
    CHECK(f != NULL);
    if (f) {
        fputs("Card A\tonly four\tfields\there\n", f);
        fputs("Card A\tTest Platform\t1.0\tTest Vendor\tgpu\t\ts\trow-NN\t8\t8\t8\tno_kernel\t-\t1"
              "\t-\n",
              f);
        fclose(f);
    }
    gb_tuned_free(&back);
    read_file(path, reg, &back, &read, &skipped, warn, sizeof warn);
    CHECK(read == 1 && skipped == 2 && back.n == 1);
    CHECK_HAS(warn, ":4: entry skipped: it has not the 15 tab-separated fields");
    gb_tuned_free(&back);
    gb_tuned_free(&t);
    unlink(path);
}

/* gb_tuned_merge_all gives what a merge of each in turn gives: the same entries in the same
 * places, the same count of those met with a key already held. */
static void test_merge_all(void)
{
    static const char *const sources[] = {"store", "shipped", "file", "heuristic"};
    gb_tuned_t one, all;
    gb_tuned_init(&one);
    gb_tuned_init(&all);
    gb_tuned_entry_t es[60];
    for (size_t i = 0; i < 60; i++) {
        char dev[32];
        snprintf(dev, sizeof dev, "Card %zu", i % 13);
        es[i] = entry(dev, sources[(i * 7) % 4], i % 2 ? "naive" : "xgemm", GB_PREC_S,
                      (size_t)64 << (i % 3));
        es[i].gflops = (double)i;
    }
    /* Some held before, one key twice among them. */
    for (size_t i = 0; i < 6; i++) {
        gb_tuned_entry_t e = es[(i * 11) % 60];
        e.gflops = -1.0 - (double)i;
        CHECK_RC(gb_tuned_add(&one, &e), GB_OK);
        CHECK_RC(gb_tuned_add(&all, &e), GB_OK);
    }
    CHECK_RC(gb_tuned_add(&one, &one.e[0]), GB_OK);
    CHECK_RC(gb_tuned_add(&all, &all.e[0]), GB_OK);
    for (size_t i = 0; i < 60; i++)
        CHECK_RC(gb_tuned_merge(&one, &es[i]), GB_OK);
    CHECK_RC(gb_tuned_merge_all(&all, es, 60), GB_OK);
    CHECK(one.n == all.n && one.overridden == all.overridden && one.overridden > 0);
    for (size_t i = 0; i < one.n && i < all.n; i++)
        CHECK(same_entry(&one.e[i], &all.e[i]) && !strcmp(one.e[i].source, all.e[i].source));
    gb_tuned_free(&one);
    gb_tuned_free(&all);
}

/* What an entry must be, and its kernel checked as kernel metadata is: named, with the nearest
 * name where one is misspelt. */
static void test_checks(const gb_registry_t *reg)
{
    char msg[512];
    gb_tuned_entry_t e = entry("Card A", "store", "xgemm", GB_PREC_S, 512);
    gb_params_set(&e.params, "MWG", 32);
    CHECK_RC(gb_tuned_entry_check(&e, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_tuned_entry_check_kernel(&e, reg, msg, sizeof msg), GB_OK);
    static const struct {
        const char *what, *says;
    } bad[] = {
        {"esc", "tuned entry for 'Card\\x1b[2J' (s, row-NN, square-512): bad device (a control "
                "character or invalid UTF-8"},
        {"utf8", "bad platform (a control character or invalid UTF-8"},
        {"c1", "bad kernel (a control character"},
        {"long", "bad vendor (longer than 127 bytes)"},
        {"type", "bad type (gpu, cpu, accelerator, other"},
        {"class", "bad shape_class 'square-64' (the shape 512x512x512 is of class square-512)"},
        {"big", "bad m, n, k (each from 1 to 2^30)"},
        {"twice", "bad params (a name given twice)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gb_tuned_entry_t x = e;
        const char *w = bad[i].what;
        if (!strcmp(w, "esc"))
            snprintf(x.device, sizeof x.device, "Card\x1b[2J");
        else if (!strcmp(w, "utf8"))
            snprintf(x.platform, sizeof x.platform, "P\xc3\x28");
        else if (!strcmp(w, "c1"))
            snprintf(x.kernel, sizeof x.kernel, "xgemm\xc2\x9b");
        else if (!strcmp(w, "long"))
            memset(x.vendor, 'v', sizeof x.vendor);
        else if (!strcmp(w, "type"))
            snprintf(x.type, sizeof x.type, "quantum");
        else if (!strcmp(w, "class"))
            snprintf(x.shape_class, sizeof x.shape_class, "square-64");
        else if (!strcmp(w, "big"))
            x.k = ((size_t)1 << 30) + 1;
        else { /* gb_params_set would set the first: a name twice is damage */
            x.params.count = 2;
            snprintf(x.params.name[1], sizeof x.params.name[1], "MWG");
        }
        CHECK_RC(gb_tuned_entry_check(&x, msg, sizeof msg), GB_EBADARG);
        CHECK_HAS(msg, bad[i].says);
    }
    /* UTF-8 is text: a device named in it is fine. */
    gb_tuned_entry_t u = e;
    snprintf(u.device, sizeof u.device, "Carte graphique \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80");
    CHECK_RC(gb_tuned_entry_check(&u, msg, sizeof msg), GB_OK);

    static const struct {
        const char *kernel, *param;
        long value;
        gb_precision_t prec;
        int code;
        const char *says;
    } kbad[] = {
        {"xgem", "MWG", 32, GB_PREC_S, GB_ENOKERNEL,
         "unknown kernel 'xgem'; did you mean 'xgemm'? ('gemmbench kernels' lists them)"},
        {"zzzzzzzzzzzz", "MWG", 32, GB_PREC_S, GB_ENOKERNEL,
         "unknown kernel 'zzzzzzzzzzzz' ('gemmbench kernels' lists them)"},
        {"xgemm", "MWX", 32, GB_PREC_S, GB_EBADPARAM,
         "kernel 'xgemm' has no parameter MWX; did you mean MWG?"},
        {"xgemm", "ZZZZZZZZZZ", 32, GB_PREC_S, GB_EBADPARAM,
         "kernel 'xgemm' has no parameter ZZZZZZZZZZ"},
        {"xgemm", "MWG", 7, GB_PREC_S, GB_EBADPARAM,
         "parameter MWG=7 of kernel 'xgemm' is not allowed; use one of"},
        {"dgemm_dmma", "", 0, GB_PREC_S, GB_EBADPARAM, "kernel 'dgemm_dmma' has no precision s"},
    };
    for (size_t i = 0; i < sizeof kbad / sizeof kbad[0]; i++) {
        gb_tuned_entry_t x = e;
        snprintf(x.kernel, sizeof x.kernel, "%s", kbad[i].kernel);
        memset(&x.params, 0, sizeof x.params);
        if (kbad[i].param[0])
            gb_params_set(&x.params, kbad[i].param, kbad[i].value);
        x.precision = kbad[i].prec;
        CHECK_RC(gb_tuned_entry_check_kernel(&x, reg, msg, sizeof msg), kbad[i].code);
        CHECK_HAS(msg, kbad[i].says);
        if (!strcmp(kbad[i].param, "ZZZZZZZZZZ"))
            CHECK(!strstr(msg, "did you mean"));
    }
}

/* The tuning file: each kind of damaged line, between two good ones, is skipped, counted and
 * named with its line; the good lines are read. Never a crash, never the whole file lost. */
static void test_file_damage(const gb_registry_t *reg)
{
    static const char good1[] =
        "Card A\tTest Platform\t1.0\tTest Vendor\tgpu\t\ts\trow-NN\t512\t512"
        "\t512\txgemm\tMWG=32\t10\t2026-11-24T00:00:00Z";
    static const char good2[] =
        "Card B\tTest Platform\t1.0\tTest Vendor\tgpu\t\ts\trow-NN\t512\t512"
        "\t512\txgemm\tMWG=64\t20\t-";
    static const struct {
        const char *from, *to, *says;
        size_t tolen; /* to's length, where it holds a NUL (0: strlen) */
    } kinds[] = {
        {"Card A", "Card\x1b[2J", "a device field is too long or holds a control character", 0},
        {"Card A", "Card \xff", "bad device (a control character or invalid UTF-8", 0},
        {"Card A", "Card\0A", "it holds a NUL byte", 6},
        {"\ts\t", "\tq\t", "the precision is not s, d, h, b, c, z or hh", 0},
        {"row-NN", "row-XY", "the layout is not row-NN ... col-TT", 0},
        {"\t512\t512\t512\t", "\t0\t512\t512\t", "M, N and K are not whole numbers from 1 to 2^30",
         0},
        {"\t512\t512\t512\t", "\t2147483648\t512\t512\t", "M, N and K are not whole numbers", 0},
        {"\t512\t512\t512\t", "\t-5\t512\t512\t", "M, N and K are not whole numbers", 0},
        {"xgemm", "xgem", "unknown kernel 'xgem'; did you mean 'xgemm'?", 0},
        {"MWG=32", "MWG=7", "parameter MWG=7 of kernel 'xgemm' is not allowed", 0},
        {"MWG=32", "MWX=32", "kernel 'xgemm' has no parameter MWX; did you mean MWG?", 0},
        {"MWG=32", "MWG=32 MWG=64", "the kernel or its parameters", 0},
        {"MWG=32", "MWG=x", "the kernel or its parameters", 0},
        {"\t10\t", "\tnan\t", "bad gflops", 0},
        {"\t10\t", "\t1e999\t", "the GFLOP/s or the time is malformed", 0},
        {"\tgpu\t", "\tquantum\t", "bad type", 0},
        {"2026-11-24T00:00:00Z", "2026-11-24T00:00:00Z\r", "the GFLOP/s or the time", 0},
        {"\tMWG=32\t", "\tMWG=32\textra\t", "it has not the 15 tab-separated fields", 0},
        {"xgemm\t", "dgemm_dmma\t", "kernel 'dgemm_dmma' has no precision s", 0},
    };
    char path[] = "/tmp/unit_tuned_XXXXXX";
    const int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        /* The damaged line: good1 with from replaced by to (which may hold a NUL). */
        const char *at = strstr(good1, kinds[i].from);
        const size_t tolen = kinds[i].tolen ? kinds[i].tolen : strlen(kinds[i].to);
        FILE *f = fopen(path, "wb");
        if (!CHECK(f && at))
            continue;
        fprintf(f, "# gemmbench tuning file %d\n# a comment\n%s\n", 1 + (int)(i % 2), good2);
        fwrite(good1, 1, (size_t)(at - good1), f);
        fwrite(kinds[i].to, 1, tolen, f);
        fprintf(f, "%s\n%s\n", at + strlen(kinds[i].from),
                "Card C\tTest Platform\t1.0\tTest Vendor\tgpu\t\ts\trow-NN\t64\t64\t64\txgemm\t-"
                "\t5\t-");
        fclose(f);
        gb_tuned_t t;
        char warn[512];
        size_t read, skipped;
        read_file(path, reg, &t, &read, &skipped, warn, sizeof warn);
        if (!CHECK(read == 2 && skipped == 1 && t.n == 2))
            printf("  damage: '%s' for '%s'\n", kinds[i].to, kinds[i].from);
        CHECK_HAS(warn, ":4: entry skipped: ");
        CHECK_HAS(warn, kinds[i].says);
        gb_tuned_free(&t);
    }
    /* Version 2 holds every precision; a version 1 file (s and d alone, as this line's
     * precisions were written before) is read as it was, and an h line in it is skipped. */
    FILE *f = fopen(path, "wb");
    if (CHECK(f != NULL)) {
        fprintf(f, "# gemmbench tuning file 2\n%s\n", good2);
        fprintf(f, "Card D\tTest Platform\t1.0\tTest Vendor\tgpu\t\th\trow-TN\t64\t64\t64\t"
                   "xgemm_small\t-\t5\t-\n");
        fprintf(f, "Card D\tTest Platform\t1.0\tTest Vendor\tgpu\t\tc\trow-TN\t64\t64\t64\t"
                   "naive\tLX=8\t5\t-\n");
        fclose(f);
        gb_tuned_t t;
        char warn[512], msg[256];
        size_t read, skipped;
        read_file(path, reg, &t, &read, &skipped, warn, sizeof warn);
        CHECK(read == 3 && skipped == 0 && t.n == 3);
        CHECK(t.n == 3 && t.e[1].precision == GB_PREC_H && t.e[2].precision == GB_PREC_C &&
              !strcmp(t.e[2].layout, "row-TN"));
        /* Written back, the file reads the same. */
        CHECK_RC(gb_tuned_file_write(&t, path, msg, sizeof msg), GB_OK);
        gb_tuned_t back;
        read_file(path, reg, &back, &read, &skipped, warn, sizeof warn);
        CHECK(read == 3 && back.n == 3 && back.e[2].precision == GB_PREC_C);
        gb_tuned_free(&back);
        gb_tuned_free(&t);
    }
    f = fopen(path, "wb");
    if (CHECK(f != NULL)) {
        fprintf(f, "# gemmbench tuning file 1\n%s\n", good2);
        fprintf(f, "Card D\tTest Platform\t1.0\tTest Vendor\tgpu\t\th\trow-NN\t64\t64\t64\t"
                   "xgemm_small\t-\t5\t-\n");
        fclose(f);
        gb_tuned_t t;
        char warn[512];
        size_t read, skipped;
        read_file(path, reg, &t, &read, &skipped, warn, sizeof warn);
        CHECK(read == 1 && skipped == 1 && t.n == 1 && t.e[0].precision == GB_PREC_S);
        CHECK_HAS(warn, ":3: entry skipped: the precision is not s or d, the only ones of a "
                        "version 1 file");
        gb_tuned_free(&t);
    }
    /* Written by another version, or not a tuning file at all: skipped once, said once. */
    f = fopen(path, "wb");
    if (CHECK(f != NULL)) {
        fprintf(f, "# gemmbench tuning file 3\n%s\n", good2);
        fclose(f);
        gb_tuned_t t;
        char warn[512];
        size_t read, skipped;
        read_file(path, reg, &t, &read, &skipped, warn, sizeof warn);
        CHECK(read == 0 && skipped == 1 && t.n == 0);
        CHECK_HAS(warn, "not a tuning file of this version");
        gb_tuned_free(&t);
    }
    unlink(path);
}

int main(void)
{
    gb_registry_t *reg = NULL;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return unit_finish();
    test_choose(reg);
    test_precisions(reg);
    test_store(reg);
    test_merge();
    test_refusals();
    test_family(reg);
    test_heuristic_thin(reg);
    test_heuristic_16bit(reg);
    test_heuristic_local(reg);
    test_heuristic_rows(reg);
    test_heuristic_cols(reg);
    test_file(reg);
    test_file_damage(reg);
    test_merge_all();
    test_checks(reg);
    test_shipped_families();
    gb_registry_close(reg);
    return unit_finish();
}
