/* unit_refresh.c: tune --refresh's plan (src/tool/tune/refresh.h) without a device, on a
 * made-up H200 and H100 of one family: the classes of the device's and its family's entries (not
 * another family's), in order; a class holding two kernel families (the H200's xgemm_nv entry
 * and the H100's sgemm_3xtf32 preset) tuned in a run each, at this device's shape; a class only
 * the sibling has, at the sibling's shape; an entry whose kernel is not here passed over with a
 * note; the seeds (the family's configurations, the run's precision first, then the nearest
 * shape; a preset resolved to its values); --precision, --classes (a class, a full key, an
 * unknown one listing those there are), the user's entries only, nothing to refresh; two kinds
 * of device each with their own runs, two devices of one kind sharing them; and a run carried
 * to another rank as text and read back the same, its layout tag made a problem's layout. */
#include "unit.h"

#include "tool/tune/refresh.h"

static gb_device_info_t gpu(const char *name)
{
    static char ext[] = "cl_khr_fp64 cl_nv_device_attribute_query";
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "%s", name);
    snprintf(d.platform_name, sizeof d.platform_name, "NVIDIA CUDA");
    snprintf(d.vendor, sizeof d.vendor, "NVIDIA Corporation");
    snprintf(d.driver, sizeof d.driver, "580.159.04");
    snprintf(d.version, sizeof d.version, "OpenCL 3.0 CUDA");
    snprintf(d.family, sizeof d.family, "nvidia-sm_90");
    d.type_name = "gpu";
    d.compute_units = 132;
    d.clock_mhz = 1980;
    d.global_mem = d.max_alloc = 1ull << 34;
    d.local_mem = d.local_mem_kernel = 227 * 1024;
    d.max_wg_size = 1024;
    d.max_wi_sizes[0] = d.max_wi_sizes[1] = d.max_wi_sizes[2] = 1024;
    d.pref_vec_float = d.native_vec_float = 1;
    d.pref_vec_double = d.native_vec_double = 1;
    d.fp64 = 1;
    d.extensions = ext;
    return d;
}

static gb_tuned_entry_t entry(const char *dev, const char *source, gb_precision_t prec, size_t m,
                              size_t n, size_t k, const char *kernel, const char *param, long v)
{
    gb_tuned_entry_t e;
    memset(&e, 0, sizeof e);
    snprintf(e.device, sizeof e.device, "%s", dev);
    snprintf(e.platform, sizeof e.platform, "NVIDIA CUDA");
    snprintf(e.driver, sizeof e.driver, "580.159.04");
    snprintf(e.vendor, sizeof e.vendor, "NVIDIA Corporation");
    snprintf(e.type, sizeof e.type, "gpu");
    snprintf(e.family, sizeof e.family, "nvidia-sm_90");
    e.precision = prec;
    snprintf(e.layout, sizeof e.layout, "row-NN");
    e.m = m;
    e.n = n;
    e.k = k;
    gb_shape_class(m, n, k, e.shape_class, sizeof e.shape_class);
    snprintf(e.kernel, sizeof e.kernel, "%s", kernel);
    if (param)
        gb_params_set(&e.params, param, v);
    e.gflops = 1000;
    snprintf(e.source, sizeof e.source, "%s", source);
    return e;
}

/* What the notes said, one after the other. */
static char notes[2048];
static void on_note(const char *msg, void *user)
{
    (void)user;
    size_t used = strlen(notes);
    snprintf(notes + used, sizeof notes - used, "%s\n", msg);
}

/* The plan for devs into runs (freed first): the code. */
static int plan(gb_tune_runs_t *runs, const gb_tuned_t *db, const gb_registry_t *reg,
                const gb_device_info_t *const *devs, size_t n, unsigned precisions,
                const char *classes, int user_only, char *msg, size_t msglen)
{
    static gb_problem_t base;
    gb_problem_init(&base, GB_PREC_S, 1, 1, 1);
    gb_tune_runs_free(runs);
    notes[0] = '\0';
    const gb_refresh_opts_t o = {.precisions = precisions,
                                 .classes = classes,
                                 .user_only = user_only,
                                 .base = &base,
                                 .note = on_note};
    return gb_refresh_plan(runs, db, reg, devs, n, &o, msg, msglen);
}

static int item_is(const gb_tune_item_t *it, const char *device, const char *kernel,
                   gb_precision_t prec, const char *cls, size_t m, size_t n, size_t k)
{
    return !strcmp(it->device, device) && !strcmp(it->kernel, kernel) && it->precision == prec &&
           !strcmp(it->shape_class, cls) && !strcmp(it->layout, "row-NN") && it->m == m &&
           it->n == n && it->k == k && it->space > 0;
}

static void test_plan(const gb_registry_t *reg)
{
    gb_tuned_t db;
    gb_tuned_init(&db);
    const gb_tuned_entry_t es[] = {
        entry("NVIDIA H200", "shipped", GB_PREC_S, 256, 256, 16384, "xgemm_nv", "MWG", 256),
        entry("NVIDIA H100", "shipped", GB_PREC_S, 256, 256, 65536, "sgemm_3xtf32_128", NULL, 0),
        entry("NVIDIA H100", "shipped", GB_PREC_S, 16384, 64, 4096, "sgemm_3xtf32", "WM", 64),
        entry("NVIDIA H200", "store", GB_PREC_S, 4096, 4096, 4096, "xgemm_nv", "NWG", 256),
        entry("NVIDIA H100", "shipped", GB_PREC_D, 4096, 4096, 4096, "xgemm_nv", "MWG", 64),
        entry("NVIDIA H100", "shipped", GB_PREC_S, 4096, 4096, 4096, "no_such_kernel", NULL, 0),
        entry("Other GPU", "store", GB_PREC_S, 512, 512, 512, "xgemm_nv", NULL, 0),
    };
    for (size_t i = 0; i < sizeof es / sizeof es[0]; i++)
        CHECK_RC(gb_tuned_add(&db, &es[i]), GB_OK);
    snprintf(db.e[6].family, sizeof db.e[6].family, "amd-gfx90a"); /* not a sibling */
    const gb_device_info_t h200 = gpu("NVIDIA H200"), h100 = gpu("NVIDIA H100");
    const gb_device_info_t *one[] = {&h200}, *two[] = {&h200, &h100}, *same[] = {&h200, &h200};
    gb_tune_runs_t r;
    memset(&r, 0, sizeof r);
    char msg[2048];

    /* Every class, in order: precision, layout, the class's kind, then its size. */
    if (CHECK_RC(plan(&r, &db, reg, one, 1, 0, NULL, 0, msg, sizeof msg), GB_OK) &&
        CHECK(r.refresh && r.nitems == 5)) {
        const gb_tune_item_t *it = r.items;
        CHECK(
            item_is(&it[0], "NVIDIA H200", "xgemm_nv", GB_PREC_S, "large-k-256", 256, 256, 16384));
        /* The H100's entry of the class: its family tuned too, at the H200's shape. */
        CHECK(item_is(&it[1], "NVIDIA H200", "sgemm_3xtf32", GB_PREC_S, "large-k-256", 256, 256,
                      16384));
        CHECK(
            item_is(&it[2], "NVIDIA H200", "xgemm_nv", GB_PREC_S, "square-4096", 4096, 4096, 4096));
        /* Only the sibling has it: at its shape. */
        CHECK(
            item_is(&it[3], "NVIDIA H200", "sgemm_3xtf32", GB_PREC_S, "tall-64", 16384, 64, 4096));
        CHECK(
            item_is(&it[4], "NVIDIA H200", "xgemm_nv", GB_PREC_D, "square-4096", 4096, 4096, 4096));
        CHECK(!strcmp(it[0].driver, "580.159.04") && !strcmp(it[0].platform, "NVIDIA CUDA"));
        CHECK(it[0].base.layout == GB_ROW_MAJOR && it[0].base.trans_a == GB_NOTRANS &&
              it[4].base.precision == GB_PREC_D);
        CHECK_HAS(notes, "s/row-NN/square-4096 on NVIDIA H200: skipping the entry of NVIDIA "
                         "H100: no kernel 'no_such_kernel' here");
        /* Seeds: this precision first (the nearest shape first), then the other's. */
        long v = 0;
        CHECK(it[0].nseeds == 3 && gb_params_get(&it[0].seeds[0], "MWG", &v) && v == 256 &&
              gb_params_get(&it[0].seeds[1], "NWG", &v) && v == 256 &&
              gb_params_get(&it[0].seeds[2], "MWG", &v) && v == 64);
        CHECK(it[0].seeds[0].count == it[0].seeds[1].count && it[0].seeds[0].count > 1);
        /* A preset's entry seeds with the preset's values. */
        gb_config_t cfg;
        CHECK_RC(gb_config_resolve(reg, "sgemm_3xtf32_128", NULL, &cfg, NULL, 0), GB_OK);
        CHECK(it[1].nseeds == 2 && gb_params_equal(&it[1].seeds[0], &cfg.params) &&
              gb_params_get(&it[1].seeds[1], "WM", &v) && v == 64);
        CHECK(it[3].nseeds == 2 && gb_params_get(&it[3].seeds[0], "WM", &v) && v == 64);
    }

    /* --precision, --classes. */
    CHECK(plan(&r, &db, reg, one, 1, 1u << GB_PREC_D, NULL, 0, msg, sizeof msg) == GB_OK &&
          r.nitems == 1 && r.items[0].precision == GB_PREC_D);
    CHECK(plan(&r, &db, reg, one, 1, 0, "tall-64", 0, msg, sizeof msg) == GB_OK && r.nitems == 1 &&
          !strcmp(r.items[0].shape_class, "tall-64"));
    CHECK(plan(&r, &db, reg, one, 1, 0, "s/row-NN/square-4096,large-k-256", 0, msg, sizeof msg) ==
              GB_OK &&
          r.nitems == 3);
    CHECK_RC(plan(&r, &db, reg, one, 1, 0, "square-4096,nope", 0, msg, sizeof msg), GB_EBADARG);
    CHECK_HAS(msg, "--classes: no class 'nope' to refresh; the classes here: s/row-NN/large-k-256, "
                   "s/row-NN/square-4096, s/row-NN/tall-64, d/row-NN/square-4096");
    CHECK_RC(plan(&r, &db, reg, one, 1, 0, "d/row-NN/tall-64", 0, msg, sizeof msg), GB_EBADARG);
    CHECK_RC(plan(&r, &db, reg, one, 1, 0, "tall-64,", 0, msg, sizeof msg), GB_EBADARG);
    CHECK_HAS(msg, "has an empty class");

    /* The user's entries only: the store's class; its other entries (shipped) still seed. */
    CHECK(plan(&r, &db, reg, one, 1, 0, NULL, 1, msg, sizeof msg) == GB_OK && r.nitems == 1 &&
          !strcmp(r.items[0].shape_class, "square-4096") && r.items[0].nseeds == 3);
    const gb_device_info_t alone = gpu("NVIDIA B200");
    gb_device_info_t other = alone;
    snprintf(other.family, sizeof other.family, "nvidia-sm_100");
    const gb_device_info_t *lone[] = {&other};
    CHECK_RC(plan(&r, &db, reg, lone, 1, 0, NULL, 0, msg, sizeof msg), GB_ENOPOINT);
    CHECK_HAS(msg, "nothing to refresh: no tuned entry of 'NVIDIA B200' or of its family "
                   "nvidia-sm_100; 'gemmbench tune -k FAMILY -n SIZE' makes one");
    const gb_device_info_t *sib[] = {&alone}; /* of the family: its entries */
    CHECK(plan(&r, &db, reg, sib, 1, 0, NULL, 0, msg, sizeof msg) == GB_OK && r.nitems == 5);
    CHECK_RC(plan(&r, &db, reg, sib, 1, 0, NULL, 1, msg, sizeof msg), GB_OK); /* H200's store */

    /* Two kinds: each its own runs, from its own entries first; one kind twice: shared. */
    if (CHECK(plan(&r, &db, reg, two, 2, 1u << GB_PREC_S, NULL, 0, msg, sizeof msg) == GB_OK) &&
        CHECK(r.nitems == 8)) {
        CHECK(item_is(&r.items[4], "NVIDIA H100", "sgemm_3xtf32", GB_PREC_S, "large-k-256", 256,
                      256, 65536));
        CHECK(item_is(&r.items[5], "NVIDIA H100", "xgemm_nv", GB_PREC_S, "large-k-256", 256, 256,
                      65536));
    }
    CHECK(plan(&r, &db, reg, same, 2, 0, NULL, 0, msg, sizeof msg) == GB_OK && r.nitems == 5);
    gb_tune_runs_free(&r);
    gb_tuned_free(&db);
}

static void test_text(const gb_registry_t *reg)
{
    gb_tuned_t db;
    gb_tuned_init(&db);
    const gb_tuned_entry_t es[] = {
        entry("NVIDIA H200", "store", GB_PREC_S, 256, 256, 16384, "xgemm_nv", "MWG", 256),
        entry("NVIDIA H200", "store", GB_PREC_S, 4096, 4096, 4096, "xgemm_nv", "NWG", 64),
    };
    for (size_t i = 0; i < 2; i++)
        gb_tuned_add(&db, &es[i]);
    snprintf(db.e[1].layout, sizeof db.e[1].layout, "col-TN");
    const gb_device_info_t h200 = gpu("NVIDIA H200");
    const gb_device_info_t *one[] = {&h200};
    gb_tune_runs_t r;
    memset(&r, 0, sizeof r);
    char msg[1024];
    if (!CHECK(plan(&r, &db, reg, one, 1, 0, NULL, 0, msg, sizeof msg) == GB_OK && r.nitems == 2))
        return;
    const gb_tune_item_t *it = &r.items[0]; /* col-TN sorts first */
    CHECK(!strcmp(it->layout, "col-TN") && it->base.layout == GB_COL_MAJOR &&
          it->base.trans_a == GB_TRANS && it->base.trans_b == GB_NOTRANS && it->nseeds == 2);
    gb_problem_t base;
    gb_problem_init(&base, GB_PREC_S, 1, 1, 1);
    base.alpha = 2;
    char *text = gb_tune_item_text(it, 12.5);
    gb_tune_item_t back;
    double left = 0;
    if (CHECK(text != NULL) && CHECK_RC(gb_tune_item_parse(&back, &left, text, &base), GB_OK)) {
        CHECK(!strcmp(back.kernel, it->kernel) && back.precision == it->precision &&
              !strcmp(back.layout, it->layout) && back.m == it->m && back.n == it->n &&
              back.k == it->k && !strcmp(back.shape_class, it->shape_class) &&
              back.space == it->space && !strcmp(back.device, it->device) &&
              !strcmp(back.driver, it->driver) && !strcmp(back.platform, it->platform) &&
              left == 12.5);
        CHECK(back.nseeds == it->nseeds && gb_params_equal(&back.seeds[0], &it->seeds[0]) &&
              gb_params_equal(&back.seeds[1], &it->seeds[1]));
        CHECK(back.base.layout == GB_COL_MAJOR && back.base.trans_a == GB_TRANS &&
              back.base.alpha == 2); /* the receiver's problem, in the run's layout */
    }
    free(text);
    /* A seed of the family's defaults travels as "-". */
    gb_tune_item_t bare = *it;
    bare.nseeds = 1;
    memset(&bare.seeds[0], 0, sizeof bare.seeds[0]);
    text = gb_tune_item_text(&bare, 0);
    CHECK(text && strstr(text, "\t-") && gb_tune_item_parse(&back, &left, text, &base) == GB_OK &&
          back.nseeds == 1 && back.seeds[0].count == 0);
    free(text);
    CHECK_RC(gb_tune_item_parse(&back, &left, "xgemm_nv\ts\trow-NN\t1\t2", &base), GB_EBADARG);
    CHECK_RC(gb_tune_item_parse(&back, &left, "", &base), GB_EBADARG);
    gb_problem_t p = base;
    CHECK_RC(gb_tune_item_layout(&p, "row-NT"), GB_OK);
    CHECK(p.layout == GB_ROW_MAJOR && p.trans_a == GB_NOTRANS && p.trans_b == GB_TRANS);
    CHECK_RC(gb_tune_item_layout(&p, "row-NX"), GB_EBADARG);
    CHECK_RC(gb_tune_item_layout(&p, "rowNN"), GB_EBADARG);
    CHECK_RC(gb_tune_item_layout(&p, "tab-NN"), GB_EBADARG);
    gb_tune_runs_free(&r);
    gb_tuned_free(&db);
}

int main(void)
{
    gb_registry_t *reg = NULL;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return unit_finish();
    test_plan(reg);
    test_text(reg);
    gb_registry_close(reg);
    return unit_finish();
}
