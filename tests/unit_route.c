/* unit_route.c: the route planner (src/rt/plan/route.c) without a device: every layout and
 * transposition against families with one native layout, with and without tile multiples
 * (multiple_of), leading-dimension multiples (ld_multiple_of), avoided leading dimensions
 * (ld_avoid_multiple_of), leading-dimension arguments and images, each checked against the
 * properties a route must have; hand-computed routes checked field by field; and the program
 * identity (what gb_impl_program_id hashes). */
#include "unit.h"

#include "rt/plan/launch.h"
#include "rt/plan/route.h"
#include "rt/util/util.h"
#include "rt/family/registry.h"

/* A family from JSON written with ' for ". */
/* A row-NN family of s alone with tiles of 16x8x4 (the multiples it asks of M, N and K) and
 * every leading dimension and offset as arguments: the copies and padding planned for it. */
static const char tiles_16x8x4[] =
    "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'], 'layouts': ['row-NN'],"
    " 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', 'B', 'offB', 'ldb', 'beta', 'C',"
    " 'offC', 'ldc'], 'global': ['M / 2', 'N'], 'local': ['8', '2'],"
    " 'multiple_of': {'M': '16', 'N': '8', 'K': '4'}}";

/* A configuration of family f with no parameters set. */
static gb_config_t config_of(gb_family_t *f)
{
    gb_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.family = f;
    return cfg;
}

static int family(const char *json, gb_family_t *f)
{
    char buf[4096], msg[512] = "";
    snprintf(buf, sizeof buf, "%s", json);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    int rc = gb__family_parse(buf, strlen(buf), "route.json", f, msg, sizeof msg);
    if (!CHECK_RC(rc, GB_OK))
        printf("    %s\n", msg);
    else
        snprintf(f->program_digest, sizeof f->program_digest, "%064d", 0);
    if (rc == GB_OK && !(f->origin = gb__strdup("route.json")))
        rc = GB_ENOMEM;
    return rc;
}

static void device(gb_device_info_t *d, int nvidia, int images_view)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "test device");
    snprintf(d->vendor, sizeof d->vendor, "%s", nvidia ? "NVIDIA Corporation" : "Test");
    d->type_name = "gpu";
    d->compute_units = 132;
    d->max_wg_size = 1024;
    d->max_wi_sizes[0] = d->max_wi_sizes[1] = d->max_wi_sizes[2] = 1024;
    d->local_mem = d->local_mem_kernel = 48 * 1024;
    d->fp64 = 1;
    d->image_support = 1;
    d->image2d_from_buffer = images_view;
    d->image_pitch_align = images_view ? 32 : 0;
    d->image2d_max[0] = d->image2d_max[1] = 16384;
}

static const char *const layout_names[8] = {"row-NN", "row-NT", "row-TN", "row-TT",
                                            "col-NN", "col-NT", "col-TN", "col-TT"};

/* Stored outer and inner dimensions of op(X) of the kernel's problem. */
static void dims(const gb_problem_t *k, int d, size_t *outer, size_t *inner)
{
    size_t rows = d == 0 ? k->m : d == 1 ? k->k : k->m, cols = d == 0 ? k->k : d == 1 ? k->n : k->n;
    const int t = d == 0 ? k->trans_a == GB_TRANS : d == 1 ? k->trans_b == GB_TRANS : 0;
    if (t) {
        size_t x = rows;
        rows = cols;
        cols = x;
    }
    *outer = k->layout == GB_ROW_MAJOR ? rows : cols;
    *inner = k->layout == GB_ROW_MAJOR ? cols : rows;
}

/* What every route must hold, whatever the case. */
static void check_route(const gb_family_t *f, const gb_problem_t *p, const gb_route_t *r,
                        const size_t mult[3], const size_t ldm[3], const size_t avoid[3],
                        const char *what)
{
    const gb_problem_t *k = &r->kernel;
    const unsigned idx = gb_layout_index(k->layout, k->trans_a, k->trans_b);
    if (!CHECK((f->layouts >> idx) & 1u))
        printf("    %s: the kernel sees %s, not native\n", what, layout_names[idx]);
    /* The caller's problem, swapped where the route says, then padded. */
    const size_t m = r->swapped ? p->n : p->m, n = r->swapped ? p->m : p->n;
    CHECK(k->m % mult[0] == 0 && k->m >= m && k->m < m + mult[0]);
    CHECK(k->n % mult[1] == 0 && k->n >= n && k->n < n + mult[1]);
    CHECK(k->k % mult[2] == 0 && k->k >= p->k && k->k < p->k + mult[2]);
    CHECK(r->pad[0] == (k->m != m) && r->pad[1] == (k->n != n) && r->pad[2] == (k->k != p->k));
    CHECK(k->layout == (r->swapped ? !p->layout : p->layout));
    const gb_trans_t ta = r->swapped ? p->trans_b : p->trans_a,
                     tb = r->swapped ? p->trans_a : p->trans_b;
    CHECK(k->trans_a == (r->flip[0] ? !ta : ta) && k->trans_b == (r->flip[1] ? !tb : tb));
    /* At most the fewest transpositions any native layout needs. */
    CHECK(r->flip[0] + r->flip[1] <= 2);
    const size_t lds[3] = {k->lda, k->ldb, k->ldc}, offs[3] = {k->off_a, k->off_b, k->off_c};
    size_t ncopies_in = 0, ncopies_out = 0;
    for (int d = 0; d < 3; d++) {
        size_t outer, inner;
        dims(k, d, &outer, &inner);
        CHECK(lds[d] >= inner);
        /* What the kernel receives meets the family's rules, copied or not. */
        if (!CHECK(lds[d] % ldm[d] == 0 && offs[d] % ldm[d] == 0 &&
                   !(avoid[d] && lds[d] % avoid[d] == 0)))
            printf("    %s: operand %c ld %zu off %zu (multiple %zu, avoid %zu)\n", what, "ABC"[d],
                   lds[d], offs[d], ldm[d], avoid[d]);
        /* A kernel without an offset argument for the operand is handed offset 0: the
         * caller's offset goes through a copy, whatever the sizes. */
        static const char *const off_arg[3] = {"offA", "offB", "offC"};
        int has_off = 0;
        for (size_t i = 0; i < f->nargs; i++)
            has_off |= !strcmp(f->args[i], off_arg[d]);
        if (!has_off && !CHECK(offs[d] == 0))
            printf("    %s: operand %c handed offset %zu, and the kernel takes none\n", what,
                   "ABC"[d], offs[d]);
        if (r->copy[d]) {
            CHECK(offs[d] == 0 && r->temp_elems[d] == outer * lds[d]);
        } else {
            CHECK(r->temp_elems[d] == 0);
            /* Not copied: the caller's own leading dimension and offset (after the swap, the
             * kernel's A is the caller's B). */
            const size_t pl[3] = {r->swapped ? p->ldb : p->lda, r->swapped ? p->lda : p->ldb,
                                  p->ldc};
            const size_t po[3] = {r->swapped ? p->off_b : p->off_a,
                                  r->swapped ? p->off_a : p->off_b, p->off_c};
            CHECK(lds[d] == pl[d]);
            if (!CHECK(offs[d] == po[d]))
                printf("    %s: operand %c not copied, handed offset %zu for the caller's %zu\n",
                       what, "ABC"[d], offs[d], po[d]);
        }
        if (d < 2) {
            CHECK(!r->flip[d] || r->copy[d]);
            CHECK(!r->image[d] || r->copy[d]);
        }
    }
    CHECK(!(r->pad[0] || r->pad[2]) || r->copy[0]);
    CHECK(!(r->pad[1] || r->pad[2]) || r->copy[1]);
    CHECK(!(r->pad[0] || r->pad[1]) || r->copy[2]);
    for (size_t i = 0; i < r->ncopies; i++) {
        const gb_route_copy_t *c = &r->copies[i];
        if (c->post) {
            ncopies_out++;
            CHECK(c->dst == GB_BUF_C && c->src == GB_BUF_TC && c->s_ld == k->ldc);
        } else {
            ncopies_in++;
            CHECK(c->dst >= GB_BUF_TA && c->src <= GB_BUF_C);
            CHECK(c->d_ld == lds[c->dst - GB_BUF_TA] && c->d_off == 0);
            /* The kernel's A is the caller's B after the swap. */
            if (c->dst == GB_BUF_TA)
                CHECK(c->src == (r->swapped ? GB_BUF_B : GB_BUF_A) && c->trans == r->flip[0]);
            if (c->dst == GB_BUF_TB)
                CHECK(c->src == (r->swapped ? GB_BUF_A : GB_BUF_B) && c->trans == r->flip[1]);
        }
    }
    CHECK(ncopies_in == (size_t)(r->copy[0] + r->copy[1] + (r->copy[2] && p->beta != 0.0)));
    CHECK(ncopies_out == (size_t)r->copy[2]);
    CHECK((r->helper_options[0] != '\0') == (r->ncopies > 0));
    CHECK_HAS(r->options, k->layout == GB_ROW_MAJOR ? "-DGB_ROW_MAJOR=1" : "-DGB_ROW_MAJOR=0");
    CHECK(!strncmp(r->text, r->swapped ? "swap" : "native", r->swapped ? 4 : 6));
}

/* Every layout x transposition against every single native layout, with every combination of
 * the rules, at shapes that straddle the multiples, with padded leading dimensions, offsets
 * and a leading dimension that is a multiple the family avoids; and at a shape of whole tiles
 * with the least leading dimensions and offsets of their own on each operand, where nothing but
 * an offset the kernel cannot take calls for a copy. */
static void test_grid(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    size_t cases = 0;
    for (int native = 0; native < 8; native++)
        for (int rules = 0; rules < 16; rules++) {
            const int mult = rules & 1, ldmul = rules & 2, avoid = rules & 4, noargs = rules & 8;
            char json[2048];
            snprintf(json, sizeof json,
                     "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s', 'd'],"
                     " 'layouts': ['%s'], 'args': ['M', 'N', 'K', 'alpha', 'A', %s 'B', %s 'beta',"
                     " 'C'%s], 'global': ['M', 'N'], 'local': ['4', '4']%s%s%s}",
                     layout_names[native], noargs ? "" : "'offA', 'lda',",
                     noargs ? "" : "'offB', 'ldb',", noargs ? "" : ", 'offC', 'ldc'",
                     mult ? ", 'multiple_of': {'M': '16', 'N': '8', 'K': '4'}" : "",
                     ldmul ? ", 'ld_multiple_of': {'A': '4', 'B': '4', 'C': '4'}" : "",
                     avoid ? ", 'ld_avoid_multiple_of': {'A': '64', 'B': '64', 'C': '64'}" : "");
            gb_family_t f;
            if (family(json, &f) != GB_OK)
                return;
            const size_t mults[3] = {mult ? 16u : 1u, mult ? 8u : 1u, mult ? 4u : 1u};
            const size_t ldms[3] = {ldmul ? 4u : 1u, ldmul ? 4u : 1u, ldmul ? 4u : 1u};
            const size_t avoids[3] = {avoid ? 64u : 0u, avoid ? 64u : 0u, avoid ? 64u : 0u};
            gb_config_t cfg = config_of(&f);
            for (int lay = 0; lay < 8; lay++)
                for (int shape = 0; shape < 4; shape++) {
                    gb_problem_t p;
                    const size_t s[4][3] = {{64, 64, 64}, {33, 17, 9}, {64, 40, 64}, {64, 32, 16}};
                    gb_problem_init(&p, shape == 1 ? GB_PREC_D : GB_PREC_S, s[shape][0],
                                    s[shape][1], s[shape][2]);
                    p.layout = (gb_layout_t)(lay / 4);
                    p.trans_a = (gb_trans_t)((lay / 2) % 2);
                    p.trans_b = (gb_trans_t)(lay % 2);
                    p.beta = shape == 2 ? 0.5 : 0.0;
                    if (shape == 1) { /* padding, offsets and odd leading dimensions */
                        p.off_a = 3;
                        p.off_b = 1;
                        p.off_c = 2;
                    }
                    if (shape == 3) { /* whole tiles, the least leading dimensions, offsets */
                        p.off_a = 8;
                        p.off_b = 4;
                        p.off_c = 12;
                    }
                    char msg[256];
                    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
                    if (shape == 1) {
                        p.lda += 5;
                        p.ldb += 2;
                        p.ldc += 7;
                    }
                    gb_route_t r;
                    char what[128];
                    snprintf(what, sizeof what, "native %s, rules %d, problem %s shape %d",
                             layout_names[native], rules, layout_names[lay], shape);
                    if (!CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK)) {
                        printf("    %s: %s\n", what, msg);
                        continue;
                    }
                    check_route(&f, &p, &r, mults, ldms, avoids, what);
                    cases++;
                    /* The native layout itself at the aligned shape: nothing to do. */
                    if (lay == native && shape == 0 && !avoid) {
                        CHECK(!r.swapped && !r.flip[0] && !r.flip[1] && r.ncopies == 0);
                        CHECK(!strcmp(r.text, "native"));
                    }
                    /* 64 is a multiple of 64: every operand with ld 64 is copied away from it. */
                    if (avoid && shape == 0)
                        CHECK(r.copy[0] && r.copy[1] && r.copy[2] && r.kernel.lda == 64 + ldms[0]);
                }
            gb__family_free(&f);
        }
    CHECK(cases == 8 * 16 * 8 * 4);
}

/* A family of row-major NN, NT and TT given a row-major TN problem transposes the smaller
 * operand: A at 16 x 4096 x 512 (8 K elements against B's 2 M), B where they are the same size
 * (the order before sizes counted), and a col-major problem swapped at no pass. */
static void test_smaller_pass(void)
{
    static const char nn_nt_tt[] =
        "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'], 'layouts': "
        "['row-NN', 'row-NT', 'row-TT'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', "
        "'B', 'offB', 'ldb', 'beta', 'C', 'offC', 'ldc'], 'global': ['M', 'N']}";
    static const struct {
        size_t m, n, k;
        gb_layout_t layout;
        int swapped, flip_a, flip_b;
    } cases[] = {{16, 4096, 512, GB_ROW_MAJOR, 0, 1, 0},
                 {4096, 16, 512, GB_ROW_MAJOR, 0, 0, 1},
                 {300, 300, 300, GB_ROW_MAJOR, 0, 0, 1},
                 {16, 4096, 512, GB_COL_MAJOR, 1, 0, 0}};
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    if (family(nn_nt_tt, &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_problem_t p;
        gb_problem_init(&p, GB_PREC_S, cases[i].m, cases[i].n, cases[i].k);
        p.layout = cases[i].layout;
        p.trans_a = GB_TRANS;
        gb_problem_check(&p, NULL, 0);
        gb_route_t r;
        char msg[256];
        if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK) &&
            !CHECK(r.swapped == cases[i].swapped && r.flip[0] == cases[i].flip_a &&
                   r.flip[1] == cases[i].flip_b))
            printf("    %zux%zux%zu: swapped %d, flips %d %d\n", cases[i].m, cases[i].n, cases[i].k,
                   r.swapped, r.flip[0], r.flip[1]);
    }
    gb__family_free(&f);
}

/* "layouts_where": a row-NT family whose row-NN is native where COPY is 1 takes a row-NN problem
 * as it is there, and through B's pass where COPY is 0; an expression that names no parameter
 * is refused, naming the key. */
static void test_layouts_where(void)
{
    static const char nt_where[] =
        "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'], 'layouts': "
        "['row-NT'], 'layouts_where': {'row-NN': 'COPY == 1'}, 'parameters': {'COPY': "
        "{'default': 0, 'values': [0, 1]}}, 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', "
        "'B', 'offB', 'ldb', 'beta', 'C', 'offC', 'ldc'], 'global': ['M', 'N']}";
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    if (family(nt_where, &f) != GB_OK)
        return;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 64, 48, 32);
    gb_problem_check(&p, NULL, 0);
    for (long copy = 0; copy < 2; copy++) {
        gb_config_t cfg = config_of(&f);
        gb_params_set(&cfg.params, "COPY", copy);
        gb_route_t r;
        char msg[256];
        if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK) &&
            !CHECK(!r.swapped && !r.flip[0] && r.flip[1] == !copy))
            printf("    COPY=%ld: swapped %d, flips %d %d\n", copy, r.swapped, r.flip[0],
                   r.flip[1]);
    }
    free(f.layout_where[gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS)]);
    f.layout_where[gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS)] = gb__strdup("NOPE");
    gb_config_t cfg = config_of(&f);
    gb_route_t r;
    char msg[256] = "";
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK(strstr(msg, "layouts_where") != NULL);
    gb__family_free(&f);
}

/* A C that is a vector, read as a row-major column (gb__problem_vector): a row-NN family given
 * y = x W^T (row-major 1 x N x K, B transposed) runs y^T = W x^T with no pass, W as its A at
 * W's leading dimension, x and y as columns of leading dimension 1; a column-major TN problem
 * of one column, the same; a complex problem under 1M never so. */
static void test_vector_form(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'], 'layouts': "
               "['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', 'B', 'offB', "
               "'ldb', 'beta', 'C', 'offC', 'ldc'], 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    gb_route_t r;
    char msg[256];
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 1, 300, 500);
    p.trans_b = GB_TRANS;
    p.lda = 510;
    p.ldb = 520;
    p.ldc = 330;
    p.off_a = 3;
    p.off_b = 5;
    p.off_c = 7;
    gb_problem_check(&p, NULL, 0);
    if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK)) {
        CHECK(r.vector && r.swapped && !r.flip[0] && !r.flip[1] && r.ncopies == 0);
        CHECK(r.kernel.layout == GB_ROW_MAJOR && r.kernel.trans_a == GB_NOTRANS &&
              r.kernel.trans_b == GB_NOTRANS);
        CHECK(r.kernel.m == 300 && r.kernel.n == 1 && r.kernel.k == 500);
        CHECK(r.kernel.lda == 520 && r.kernel.ldb == 1 && r.kernel.ldc == 1);
        CHECK(r.kernel.off_a == 5 && r.kernel.off_b == 3 && r.kernel.off_c == 7);
        CHECK(!strcmp(r.text, "C as a column"));
    }
    gb_problem_init(&p, GB_PREC_S, 300, 1, 500);
    p.layout = GB_COL_MAJOR;
    p.trans_a = GB_TRANS;
    p.lda = 510;
    gb_problem_check(&p, NULL, 0);
    if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK)) {
        CHECK(r.vector && !r.swapped && !r.flip[0] && !r.flip[1] && r.ncopies == 0);
        CHECK(r.kernel.trans_a == GB_NOTRANS && r.kernel.trans_b == GB_NOTRANS);
        CHECK(r.kernel.lda == 510 && r.kernel.ldb == 1 && r.kernel.ldc == 1);
    }
    /* A row-major column already: B, one row read transposed, as a column; C as it is. */
    gb_problem_init(&p, GB_PREC_S, 300, 1, 500);
    p.trans_b = GB_TRANS;
    p.ldb = 510;
    p.ldc = 4;
    gb_problem_check(&p, NULL, 0);
    if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK)) {
        CHECK(r.vector && !r.swapped && !r.flip[0] && !r.flip[1] && r.ncopies == 0);
        CHECK(r.kernel.trans_b == GB_NOTRANS && r.kernel.ldb == 1 && r.kernel.ldc == 4);
    }
    gb_problem_init(&p, GB_PREC_C, 1, 300, 500);
    p.trans_b = GB_TRANS;
    gb_problem_check(&p, NULL, 0);
    if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK))
        CHECK(r.onem && !r.vector);
    gb__family_free(&f);
}

/* Routes worked out by hand, field by field. */
static void test_cases(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    char msg[256];
    gb_route_t r;
    gb_config_t cfg = config_of(&f);

    /* Row-major NN only, tiles of 16x8x4: a col-major NT problem of 30x20x10 is the swap of a
     * row-major TN (A = the caller's B, 20x10 stored transposed) plus A transposed by a pass. */
    if (family(tiles_16x8x4, &f) != GB_OK)
        return;
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 30, 20, 10);
    p.layout = GB_COL_MAJOR;
    p.trans_b = GB_TRANS;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.swapped == 1 && r.flip[0] == 1 && r.flip[1] == 0);
    CHECK(r.kernel.layout == GB_ROW_MAJOR && r.kernel.trans_a == GB_NOTRANS &&
          r.kernel.trans_b == GB_NOTRANS);
    CHECK(r.kernel.m == 32 && r.kernel.n == 32 && r.kernel.k == 12);
    CHECK(r.pad[0] && r.pad[1] && r.pad[2] && r.copy[0] && r.copy[1] && r.copy[2]);
    CHECK(r.kernel.lda == 12 && r.kernel.ldb == 32 && r.kernel.ldc == 32);
    CHECK(r.temp_elems[0] == 32 * 12 && r.temp_elems[1] == 12 * 32 && r.temp_elems[2] == 32 * 32);
    /* beta 0: C is not copied in, only out. */
    CHECK(r.ncopies == 3 && r.copies[2].post && r.copies[2].dst == GB_BUF_C);
    /* The kernel's A (the caller's B: 20x10 col-major transposed, so stored 10 columns of 20)
     * transposed into 32 rows of 12. */
    CHECK(r.copies[0].dst == GB_BUF_TA && r.copies[0].src == GB_BUF_B && r.copies[0].trans == 1);
    CHECK(r.copies[0].d_outer == 32 && r.copies[0].d_inner == 12 && r.copies[0].s_ld == 20);
    CHECK(r.global[0] == 16 && r.global[1] == 32 && r.local[0] == 8 && r.local[1] == 2);
    CHECK(!strcmp(r.text, "swap, transpose B, pad to 32x32x12"));
    CHECK(!strcmp(r.options, "-DGB_PRECISION=32 -DGB_ROW_MAJOR=1 -DGB_TRANS_A=0 -DGB_TRANS_B=0"));
    CHECK(!strcmp(r.helper_options, "-DGB_PRECISION=32 -DGB_TT=32"));
    /* With beta: C copied in as well, before the kernel. */
    p.beta = 2.0;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.ncopies == 4 && !r.copies[2].post && r.copies[2].dst == GB_BUF_TC && r.copies[3].post);
    gb__family_free(&f);

    /* No leading-dimension arguments: a caller's padded A is repacked; its B is not. */
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'ldb', 'beta',"
               " 'C', 'ldc'], 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    gb_problem_init(&p, GB_PREC_S, 8, 8, 8);
    p.lda = 9;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.copy[0] && !r.copy[1] && !r.copy[2] && r.kernel.lda == 8 && r.ncopies == 1);
    CHECK(!strcmp(r.text, "native, repack"));
    CHECK(r.local_null && r.global[0] == 8 && r.global[1] == 8);
    gb__family_free(&f);

    /* Images: a view over the packed copy, its rows padded to the pitch alignment (32). */
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['col-NN'], 'args': ['M', 'N', 'K', 'alpha', 'imgA', 'imgB', 'beta',"
               " 'C'], 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    gb_problem_init(&p, GB_PREC_S, 40, 24, 10);
    p.layout = GB_COL_MAJOR;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.image[0] && r.image[1] && r.image_view && r.copy[0] && r.copy[1]);
    CHECK(r.kernel.lda == 64 && r.kernel.ldb == 32);
    CHECK(r.image_size[0][0] == 64 && r.image_size[0][1] == 10);
    CHECK(r.image_size[1][0] == 32 && r.image_size[1][1] == 24);
    CHECK(!strcmp(r.text, "native, image A, image B"));
    /* Without images over buffers: packed copies, then a copy into each image. */
    gb_device_info_t old;
    device(&old, 0, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &old, &r, msg, sizeof msg), GB_OK);
    CHECK(!r.image_view && r.kernel.lda == 40 && r.kernel.ldb == 10);
    CHECK(!strcmp(r.text, "native, A copied to image, B copied to image"));
    /* Over the device's 2D image limit: refused before anything is allocated. */
    old.image2d_max[0] = 16;
    CHECK_RC(gb__route_plan(&cfg, &p, &old, &r, msg, sizeof msg), GB_EUNSUPPORTED);
    CHECK_HAS(msg, "2D image limit");
    gb__family_free(&f);

    /* 1M: a c problem on a family of s alone (row-NN, tiles 16x8x4). Column-major 30x20x10 with
     * A^H is the row-major 20x30x10 of the caller's B times its A^T conjugated, so the real GEMM
     * is 20 x 60 x 20: X the caller's B read as reals (copied, being padded), Y made from the
     * caller's A (transposed, conjugated), the complex beta applied by a pass before C is
     * copied in; the kernel's operands are the caller's through both swaps. */
    if (family(tiles_16x8x4, &f) != GB_OK)
        return;
    gb_problem_init(&p, GB_PREC_C, 30, 20, 10);
    p.layout = GB_COL_MAJOR;
    p.trans_a = GB_TRANS;
    p.conj_a = 1;
    p.alpha = 2.0;
    p.beta = 0.5;
    p.beta_im = 1.0;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && r.swapped && !r.flip[0] && !r.flip[1] && !r.made[0] && r.made[1]);
    CHECK(r.kernel.precision == GB_PREC_S && r.kernel.m == 32 && r.kernel.n == 64 &&
          r.kernel.k == 20);
    CHECK(r.ncopies == 5);
    CHECK(r.copies[0].kind == GB_PASS_COPY && r.copies[0].src == GB_BUF_B &&
          r.copies[0].dst == GB_BUF_TA && r.copies[0].s_ld == 20);
    CHECK(r.copies[1].kind == GB_PASS_EXPAND && r.copies[1].src == GB_BUF_A &&
          r.copies[1].dst == GB_BUF_TB && r.copies[1].rows == 20 && r.copies[1].cols == 60 &&
          r.copies[1].s_trans && r.copies[1].conj_b && !r.copies[1].conj_a &&
          r.copies[1].d_outer == 20 && r.copies[1].d_inner == 64);
    CHECK(r.copies[2].kind == GB_PASS_SCALE && r.copies[2].dst == GB_BUF_C &&
          r.copies[2].d_outer == 20 && r.copies[2].d_inner == 30 && r.copies[2].d_ld == 30);
    CHECK(r.copies[3].dst == GB_BUF_TC && !r.copies[3].post && r.copies[4].post);
    CHECK(!strcmp(r.text, "1M (complex as real), swap, pad to 32x64x20"));
    CHECK(!strcmp(r.helper_options, "-DGB_PRECISION=32 -DGB_TT=32"));
    CHECK(!strcmp(gb__launch_copy_entry(&r.copies[1]), "gb_expand1m") &&
          !strcmp(gb__launch_copy_entry(&r.copies[2]), "gb_cscale"));
    /* The scalars: the real alpha stays the kernel's, the complex beta is the pass's. */
    double ks[2], pa[2], pb[2];
    gb__route_scalars(&r, &r.kernel, ks, pa, pb);
    CHECK(ks[0] == 2.0 && ks[1] == 1.0 && pa[0] == 1.0 && pa[1] == 0.0 && pb[0] == 0.5 &&
          pb[1] == 1.0);
    /* A stored transposed in the row-major problem is packed: row-major A^T. */
    gb_problem_init(&p, GB_PREC_C, 16, 8, 4);
    p.trans_a = GB_TRANS;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && !r.swapped && r.made[0] && r.made[1] && r.ncopies == 2);
    CHECK(r.copies[0].kind == GB_PASS_PACK && r.copies[0].src == GB_BUF_A &&
          r.copies[0].rows == 16 && r.copies[0].cols == 8 && r.copies[0].s_trans);
    CHECK(!strcmp(r.text, "1M (complex as real), native"));
    gb__family_free(&f);

    /* A family whose prologue packs B into panels of the workspace (as cpu_rb's PACKB): 1M's
     * EXPAND writes Y's panels there itself and the prologue does not run; where the workspace
     * is too small for them, Y goes to its temporary and the prologue runs. */
    static const char panels[] =
        "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
        " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C', 'WS'],"
        " 'global': ['M', 'N'], 'multiple_of': {'N': '8'}, 'workspace': 'K * N * ELEM / %d',"
        " 'prologue': {'entry': 'pack', 'global': ['N', 'K'], 'local': ['1', '1'],"
        " 'panels': '8'}}";
    for (int small = 0; small < 2; small++) {
        char json[512];
        snprintf(json, sizeof json, panels, small ? 2 : 1);
        if (family(json, &f) != GB_OK)
            return;
        gb_problem_init(&p, GB_PREC_C, 5, 6, 4);
        gb_problem_check(&p, NULL, 0);
        CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
        const gb_route_copy_t *y = &r.copies[0];
        for (size_t i = 0; i < r.ncopies && y->kind != GB_PASS_EXPAND; i++)
            y = &r.copies[i];
        CHECK(r.onem && r.made[1] && y->kind == GB_PASS_EXPAND && r.kernel.n == 16 &&
              r.kernel.k == 8 && y->d_outer == 8 && y->d_inner == 16);
        if (!small) {
            CHECK(r.b_panels && !r.copy[1] && !r.temp_elems[1] && y->dst == GB_BUF_WS &&
                  y->panel == 8 && !r.side_global[GB_SIDE_PROLOGUE][0]);
            CHECK(!strcmp(r.text, "1M (complex as real), native, pad to 5x16x8, B expanded into "
                                  "panels"));
        } else {
            CHECK(!r.b_panels && r.copy[1] && y->dst == GB_BUF_TB && !y->panel &&
                  r.side_global[GB_SIDE_PROLOGUE][0] == 16);
            CHECK(!strcmp(r.text, "1M (complex as real), native, pad to 5x16x8, prologue kernel"));
        }
        gb__family_free(&f);
    }
}

/* Lets, the remainder launch, the workspace and the NVIDIA options (the register cap, and the
 * work-groups an SM asked of the compiler's PTX). */
static void test_geometry(void)
{
    gb_device_info_t dev, nv;
    device(&dev, 0, 1);
    device(&nv, 1, 1);
    gb_family_t f;
    char msg[256];
    gb_route_t r;
    if (family(
            "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
            " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C',"
            " 'WS', 'T'], 'let': {'T': 'ceil_div(M, 32) * ceil_div(N, 32)', 'R': 'M % 32 + N % 32',"
            " 'W': 'MAXREG / 2 + NVIDIA'},"
            " 'global': ['T * 64', '1'], 'local': ['64', '1'],"
            " 'remainder': {'entry': 'rem', 'global': ['R * NVIDIA', '1'], 'local': ['32', '1']},"
            " 'workspace': 'R * 4', 'nvidia_max_registers': 'MAXREG',"
            " 'nvidia_min_groups': 'MAXREG / 64',"
            " 'parameters': {'MAXREG': {'default': 128, 'values': [0, 128]}}}",
            &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    gb_params_set(&cfg.params, "MAXREG", 128);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 100, 64, 8);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.lets[0] == 8 && r.lets[1] == 4 && r.lets[2] == 64);
    CHECK(r.global[0] == 512 && r.local[0] == 64 && r.side_global[GB_SIDE_REMAINDER][0] == 0);
    CHECK(r.has_ws && r.ws_bytes == 16); /* 16 bytes, a token, below 16 */
    CHECK(!strstr(r.options, "GB_NVIDIA") && !strstr(r.options, "maxrregcount") && !r.ptx[0]);
    /* W names only a parameter and the device: a build option; T and R name M and N. */
    CHECK_HAS(r.options, "-DMAXREG=128 -DW=64");
    CHECK(!strstr(r.options, "-DT=") && !strstr(r.options, "-DR="));
    CHECK(!strcmp(r.text, "native"));
    CHECK_RC(gb__route_plan(&cfg, &p, &nv, &r, msg, sizeof msg), GB_OK);
    CHECK(r.side_global[GB_SIDE_REMAINDER][0] == 32 && r.side_local[GB_SIDE_REMAINDER][0] == 32);
    CHECK_HAS(r.options, "-DGB_NVIDIA=1 -cl-nv-maxrregcount=128");
    CHECK(!strcmp(r.ptx, "/2")); /* the compiler's PTX, two work-groups an SM asked of it */
    CHECK_HAS(r.options, "-DW=65");
    CHECK(!strcmp(r.text, "native, remainder kernel"));
    gb__family_free(&f);
    /* A prologue runs before the main kernel where its global size is positive. */
    if (family(
            "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
            " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C', 'WS'],"
            " 'global': ['N', 'M'], 'local': ['8', '1'], 'workspace': 'PACK * K * N * ELEM',"
            " 'prologue': {'entry': 'pack', 'global': ['PACK * N / 8', 'PACK * K'],"
            " 'local': ['2', '1']},"
            " 'parameters': {'PACK': {'default': 0, 'values': [0, 1]}}}",
            &f) == GB_OK) {
        cfg = config_of(&f);
        gb_params_set(&cfg.params, "PACK", 0);
        CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
        CHECK(r.side_global[GB_SIDE_PROLOGUE][0] == 0 && !strcmp(r.text, "native"));
        gb_params_set(&cfg.params, "PACK", 1);
        CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
        CHECK(r.side_global[GB_SIDE_PROLOGUE][0] == 8 && r.side_global[GB_SIDE_PROLOGUE][1] == 8);
        CHECK(r.side_local[GB_SIDE_PROLOGUE][0] == 2 && r.ws_bytes == 8 * 64 * 4);
        CHECK(!strcmp(r.text, "native, prologue kernel"));
        gb__family_free(&f);
    }
    /* A size expression that fails names its key. */
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'],"
               " 'global': ['M / (N - N)', '1']}",
               &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "global size");
    gb__family_free(&f);
    /* Launches the device cannot take are refused before any driver sees them: a global size
     * of 2^50, and a remainder work-group over the device's 1024 work-items. */
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'],"
               " 'global': ['1125899906842624', '1'], 'local': ['64', '1']}",
               &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EUNSUPPORTED);
    CHECK_HAS(msg, "route.json: the global size is 1125899906842624 work-items along dimension 0 "
                   "for this problem, over 2^32-1");
    gb__family_free(&f);
    if (family("{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C'],"
               " 'global': ['M', 'N'], 'local': ['8', '8'],"
               " 'remainder': {'entry': 'rem', 'global': ['M', '1'], 'local': ['2048', '1']}}",
               &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EWGSIZE);
    CHECK_HAS(msg, "remainder global size's work-group of 2048 x 1");
    gb__family_free(&f);
}

/* Plans cfg for p on dev where the configuration may run it there: a launch of the built-in
 * families must never be refused as larger than the problem. */
static void plan_builtin(const gb_config_t *cfg, gb_precision_t prec, const gb_problem_t *p,
                         const gb_device_info_t *dev, size_t *planned)
{
    char msg[1024];
    gb_route_t r;
    if (gb_config_check(cfg, dev, prec, p, msg, sizeof msg) != GB_OK)
        return;
    const int rc = gb__route_plan(cfg, p, dev, &r, msg, sizeof msg);
    if (!CHECK(rc != GB_EMETADATA))
        printf("    %s at %zux%zux%zu: %s\n", gb_config_name(cfg), p->m, p->n, p->k, msg);
    *planned += rc == GB_OK;
}

/* Every built-in family's presets and a sample of its tuning space, at shapes from 1 to a few
 * thousand, K up to 2^16 (the splits along K), on a GPU and on an NVIDIA GPU of 132 units:
 * none is refused by the launch's bound (launch_fits), which the split families meet with
 * their 'launch_factor'. */
static void test_builtin_bounds(void)
{
    gb_registry_t *reg;
    char msg[256];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    gb_device_info_t devs[2];
    device(&devs[0], 0, 1);
    device(&devs[1], 1, 1);
    static const size_t mn[] = {1, 7, 129, 1000}, ks[] = {1, 65, 4096, 65536};
    size_t planned = 0;
    for (size_t fi = 0; fi < gb_registry_count(reg); fi++) {
        const gb_family_t *f = gb_registry_family(reg, fi);
        for (int prec = 0; prec < 2; prec++) {
            if (!(gb_family_precisions(f) & (1u << prec)))
                continue;
            gb_config_t cfgs[64];
            size_t n = 0;
            for (size_t i = 0; i < gb_family_preset_count(f) && n < 32; i++)
                if (gb_config_resolve(reg, gb_family_preset(f, i)->name, NULL, &cfgs[n], msg,
                                      sizeof msg) == GB_OK)
                    n++;
            gb_space_t *sp;
            if (gb_space_open(&sp, f, (gb_precision_t)prec, &devs[1], NULL, 0, msg, sizeof msg) ==
                GB_OK) {
                const uint64_t count = gb_space_count(sp), step = count / 24 + 1;
                for (uint64_t r = 0; r < count && n < 64; r += step) {
                    gb_space_cand_t c;
                    gb_params_t ps;
                    if (gb_space_unrank(sp, r, &c) != GB_OK)
                        continue;
                    gb_space_params(sp, &c, &ps);
                    if (gb_config_resolve(reg, gb_family_name(f), &ps, &cfgs[n], msg, sizeof msg) ==
                        GB_OK)
                        n++;
                }
                gb_space_close(sp);
            }
            for (size_t i = 0; i < n; i++)
                for (size_t d = 0; d < 2; d++)
                    for (size_t a = 0; a < 4; a++)
                        for (size_t b = 0; b < 4; b++)
                            for (size_t k = 0; k < 4; k++) {
                                gb_problem_t p;
                                gb_problem_init(&p, (gb_precision_t)prec, mn[a], mn[b], ks[k]);
                                gb_family_native_layout(f, &p);
                                if (gb_problem_check(&p, NULL, 0) == GB_OK)
                                    plan_builtin(&cfgs[i], (gb_precision_t)prec, &p, &devs[d],
                                                 &planned);
                            }
        }
    }
    CHECK(planned > 10000);
    printf("    %zu routes of the built-in families planned\n", planned);
    gb_registry_close(reg);
}

/* A family whose sizes ask for more work-items than the problem has elements is refused before
 * any driver sees the launch: a global size of 2^31 - 1 for a 64 x 64 C; a remainder kernel
 * over far more than C; a prologue may cover the largest operand; and 'launch_factor' allows a
 * split along K its pieces. */
static void test_launch_bound(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    char msg[1024];
    gb_route_t r;
    gb_config_t cfg = config_of(&f);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 64, 64, 64);
    gb_problem_check(&p, NULL, 0);
    static const char head[] = "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': "
                               "['s'], 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', "
                               "'A', 'B', 'beta', 'C'], ";
    char json[1024];
    /* 2^31 - 1 work-items, the driver choosing the work-group, and in groups of 16 x 16. */
    snprintf(json, sizeof json, "%s'global': ['2147483647', '1']}", head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "route.json: the global size is 2147483647 x 1 work-items for a problem of "
                   "64 x 64 x 64");
    CHECK_HAS(msg, "more than 1 times the elements of C with a work-group's side (1) added");
    CHECK_HAS(msg, "'launch_factor'");
    gb__family_free(&f);
    snprintf(json, sizeof json,
             "%s'global': ['round_up(M, 1024) * 16', 'N'], 'local': ['16', "
             "'16']}",
             head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "the global size is 16384 x 64 work-items");
    gb__family_free(&f);
    /* At the margin: a work-group's side past C in each dimension is a rounding, not a fault
     * (M + 16 by N + 16, in groups of 16 x 16). */
    snprintf(json, sizeof json, "%s'global': ['M + 16', 'N + 16'], 'local': ['16', '16']}", head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.global[0] == 80 && r.global[1] == 80);
    gb__family_free(&f);
    snprintf(json, sizeof json, "%s'global': ['M + 17', 'N + 16'], 'local': ['16', '16']}", head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    gb__family_free(&f);
    /* A remainder kernel is held to C as well. */
    snprintf(json, sizeof json,
             "%s'global': ['M', 'N'], 'local': ['8', '8'], 'remainder': {'entry': 'rem', "
             "'global': ['M * N', 'K'], 'local': ['1', '1']}}",
             head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "the remainder global size is 4096 x 64");
    gb__family_free(&f);
    /* A split along K in P pieces: P times C, allowed by its factor, and by no less. */
    gb_problem_init(&p, GB_PREC_S, 64, 64, 4096);
    gb_problem_check(&p, NULL, 0);
    snprintf(json, sizeof json,
             "%s'let': {'P': 'K / 256'}, 'global': ['N', 'M * P'], 'local': ['16', '16'], "
             "'launch_factor': '%s'}",
             head, "P");
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.global[1] == 64 * 16);
    gb__family_free(&f);
    snprintf(json, sizeof json,
             "%s'let': {'P': 'K / 256'}, 'global': ['N', 'M * P'], 'local': ['16', '16'], "
             "'launch_factor': '%s'}",
             head, "P / 8");
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "more than 2 times the elements of C");
    gb__family_free(&f);
    snprintf(json, sizeof json,
             "%s'global': ['M', 'N'], 'local': ['16', '16'], 'launch_factor': 'K - K'}", head);
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "launch_factor 'K - K' is 0, not positive");
    gb__family_free(&f);
    /* A prologue that packs B (K x N) is measured by the largest operand, not by C. */
    gb_problem_init(&p, GB_PREC_S, 4, 64, 4096);
    gb_problem_check(&p, NULL, 0);
    snprintf(json, sizeof json,
             "{'family': 'r', 'source': 'r.cl', 'entry': 'k', 'precisions': ['s'],"
             " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C', "
             "'WS'], 'global': ['N', 'M'], 'local': ['8', '1'], 'workspace': 'K * N * ELEM',"
             " 'prologue': {'entry': 'pack', 'global': ['N', 'K'], 'local': ['8', '1']}}");
    if (family(json, &f) != GB_OK)
        return;
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.side_global[GB_SIDE_PROLOGUE][0] == 64 && r.side_global[GB_SIDE_PROLOGUE][1] == 4096);
    gb__family_free(&f);
}

/* The program identity: what is compiled (the family's digest of prelude and source), its build
 * options, and the helper program where the route copies. */
static void test_program_id(void)
{
    gb_registry_t *reg;
    char msg[256];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    gb_impl_t im;
    CHECK_RC(gb_impl_resolve(reg, "naive", NULL, &im, msg, sizeof msg), GB_OK);
    /* The family digest is sha256(prelude, "\n#line 1\n", source): the text gb__program_get
     * compiles. */
    char want[65];
    gb_sha256_t s;
    gb__sha256_init(&s);
    gb__sha256_update(&s, gb__embedded("prelude.cl")->data, gb__embedded("prelude.cl")->len);
    gb__sha256_update(&s, "\n#line 1\n", 9);
    gb__sha256_update(&s, im.config.family->source, strlen(im.config.family->source));
    gb__sha256_hex_final(&s, want);
    CHECK(!strcmp(im.config.family->program_digest, want));
    gb_device_info_t dev, nv;
    device(&dev, 0, 1);
    device(&nv, 1, 1);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 32, 32, 32);
    gb_problem_check(&p, NULL, 0);
    char a[48], b[48], c[48], d[48];
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, a, sizeof a, msg, sizeof msg), GB_OK);
    CHECK(!strncmp(a, "sha256:", 7) && strlen(a) == 40 && a[23] == '/');
    CHECK(!strncmp(a + 7, want, 16)); /* the program text's part */
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, b, sizeof b, msg, sizeof msg), GB_OK);
    CHECK(!strcmp(a, b));
    /* Other build options (the NVIDIA path), another program. */
    CHECK_RC(gb_impl_program_id(&im, &nv, &p, c, sizeof c, msg, sizeof msg), GB_OK);
    CHECK(strcmp(a, c) != 0 && !strncmp(a, c, 23));
    /* A different source text: another program, same options. */
    gb_family_t *f = (gb_family_t *)im.config.family;
    char saved = f->program_digest[0];
    f->program_digest[0] = saved == '0' ? '1' : '0';
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, d, sizeof d, msg, sizeof msg), GB_OK);
    CHECK(strncmp(a, d, 23) != 0 && !strcmp(a + 23, d + 23));
    f->program_digest[0] = saved;
    /* A problem that needs no helper pass against one that does (xgemm_nv copies A at
     * lda = 4096, which it avoids): the helper program is part of what is compiled. */
    CHECK_RC(gb_impl_resolve(reg, "xgemm_nv_k8", NULL, &im, msg, sizeof msg), GB_OK);
    gb_problem_init(&p, GB_PREC_S, 128, 128, 4096);
    gb_problem_check(&p, NULL, 0);
    gb_route_t r;
    CHECK_RC(gb__route_plan(&im.config, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.copy[0] && r.helper_options[0]);
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, a, sizeof a, msg, sizeof msg), GB_OK);
    p.k = 4092; /* lda 4092: no copy, the same build options */
    p.lda = p.ldb = p.ldc = 0;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&im.config, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(!r.copy[0] && !r.helper_options[0]);
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, b, sizeof b, msg, sizeof msg), GB_OK);
    CHECK(!strncmp(a, b, 23) && strcmp(a + 23, b + 23) != 0);
    /* Peers compile nothing of ours. */
    for (size_t i = 0; i < gb_impl_count(reg); i++) {
        CHECK_RC(gb_impl_at(reg, i, &im), GB_OK);
        if (!gb_impl_can(&im, GB_IS_LIBRARY))
            continue;
        CHECK_RC(gb_impl_resolve(reg, gb_impl_name(&im), NULL, &im, msg, sizeof msg), GB_OK);
        CHECK_RC(gb_impl_program_id(&im, &dev, &p, a, sizeof a, msg, sizeof msg), GB_OK);
        CHECK(!strcmp(a, "none"));
    }
    gb_registry_close(reg);
}

/* A route planned once and kept on the implementation (gb_impl_plan): what the program id and
 * the traffic say with it is what they say planning anew, for the problem, device and
 * configuration it was planned for and for any other; a refused plan keeps nothing. */
static void test_kept_route(void)
{
    gb_registry_t *reg;
    char msg[256], m2[256];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    gb_device_info_t dev, nv;
    device(&dev, 0, 1);
    device(&nv, 1, 1);
    gb_impl_t fresh, im;
    CHECK_RC(gb_impl_resolve(reg, "xgemm_nv_k8", NULL, &fresh, msg, sizeof msg), GB_OK);
    gb_problem_t p, q;
    gb_problem_init(&p, GB_PREC_S, 128, 128, 4096); /* A copied: lda 4096 is avoided */
    gb_problem_check(&p, NULL, 0);
    q = p;
    q.k = 4092; /* no copy */
    q.lda = q.ldb = q.ldc = 0;
    gb_problem_check(&q, NULL, 0);
    im = fresh;
    CHECK_RC(gb_impl_plan(&im, &dev, &p, msg, sizeof msg), GB_OK);
    CHECK(im.plan.planned && !fresh.plan.planned);
    const gb_problem_t *problems[2] = {&p, &q};
    const gb_device_info_t *devs[2] = {&dev, &nv};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            char a[48], b[48];
            CHECK_RC(gb_impl_program_id(&im, devs[j], problems[i], a, sizeof a, msg, sizeof msg),
                     GB_OK);
            CHECK_RC(gb_impl_program_id(&fresh, devs[j], problems[i], b, sizeof b, msg, sizeof msg),
                     GB_OK);
            CHECK(!strcmp(a, b));
            gb_traffic_t ta, tb;
            CHECK_RC(gb_impl_traffic(&im, devs[j], problems[i], &ta, msg, sizeof msg), GB_OK);
            CHECK_RC(gb_impl_traffic(&fresh, devs[j], problems[i], &tb, msg, sizeof msg), GB_OK);
            CHECK(ta.declared == tb.declared && ta.read == tb.read && ta.write == tb.write);
        }
    /* The configuration changed after planning: the kept route is not its route. */
    char a[48], b[48];
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, a, sizeof a, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_params_set(&im.config.params, "KWG", 16), GB_OK);
    CHECK_RC(gb_params_set(&fresh.config.params, "KWG", 16), GB_OK);
    CHECK_RC(gb_impl_program_id(&im, &dev, &p, b, sizeof b, msg, sizeof msg), GB_OK);
    CHECK(strcmp(a, b) != 0);
    CHECK_RC(gb_impl_program_id(&fresh, &dev, &p, a, sizeof a, msg, sizeof msg), GB_OK);
    CHECK(!strcmp(a, b));
    /* A device whose limits refuse the route: the plan fails as the program id does. */
    gb_device_info_t small = dev;
    small.max_wg_size = 64;
    CHECK_RC(gb_impl_plan(&im, &small, &p, msg, sizeof msg), GB_EWGSIZE);
    CHECK(!im.plan.planned);
    CHECK_RC(gb_impl_program_id(&fresh, &small, &p, a, sizeof a, m2, sizeof m2), GB_EWGSIZE);
    CHECK(!strcmp(msg, m2));
    /* Planned on dev, asked on small: planned anew, and refused. */
    CHECK_RC(gb_impl_plan(&im, &dev, &p, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_impl_program_id(&im, &small, &p, a, sizeof a, msg, sizeof msg), GB_EWGSIZE);
    /* Peers have nothing to plan. */
    CHECK_RC(gb_impl_resolve(reg, "gb", NULL, &im, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_impl_plan(&im, &dev, &p, msg, sizeof msg), GB_OK);
    CHECK(!im.plan.planned);
    gb_registry_close(reg);
}

/* A family's "unsplit" values build its kernel where the launch splits nothing (launch factor
 * 1), the launch itself planned with the configuration's values; elsewhere, or where they are
 * the configuration's already, the configuration is built as it is. */
static void test_unsplit(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    char msg[256];
    gb_route_t r;
    if (family("{'family': 'u', 'source': 'u.cl', 'entry': 'k', 'precisions': ['s'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'B', 'beta', 'C',"
               " 'WS', 'P'], 'let': {'P': 'max(1, SPLITK * (K / 256))', 'W': 'SPLITK + 10'},"
               " 'global': ['M * P', 'N'], 'local': ['1', '1'], 'workspace': '(P > 1) * M * N',"
               " 'launch_factor': 'P', 'unsplit': {'SPLITK': 1, 'TAIL': 0},"
               " 'parameters': {'SPLITK': {'default': 2, 'values': [1, 2]},"
               " 'TAIL': {'default': 1, 'values': [0, 1]}}}",
               &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    gb_params_set(&cfg.params, "SPLITK", 2);
    gb_params_set(&cfg.params, "TAIL", 1);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 16, 16, 1024);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.factor == 8 && !r.unsplit && r.global[0] == 128);
    CHECK_HAS(r.options, "-DSPLITK=2 -DTAIL=1 -DW=12");
    CHECK(!strstr(r.text, "unsplit"));
    /* K = 100: one piece, so the kernel is built with SPLITK 1 and TAIL 0 (the let W with it). */
    gb_problem_init(&p, GB_PREC_S, 16, 16, 100);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.factor == 1 && r.unsplit && r.global[0] == 16);
    CHECK_HAS(r.options, "-DSPLITK=1 -DTAIL=0 -DW=11");
    CHECK_HAS(r.text, "unsplit build");
    long v = 0;
    CHECK(gb_params_get(&cfg.params, "SPLITK", &v) && v == 2); /* cfg unchanged */
    /* Values that are the configuration's already: nothing to say. */
    gb_params_set(&cfg.params, "SPLITK", 1);
    gb_params_set(&cfg.params, "TAIL", 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.factor == 1 && !r.unsplit && !strstr(r.text, "unsplit"));
    CHECK_HAS(r.options, "-DSPLITK=1 -DTAIL=0 -DW=11");
    gb__family_free(&f);
}

/* A 132-SM Hopper (sm_90, 227 KB of local memory a kernel) into *dev and the built-in families
 * into *reg; 0 where the registry would not open. */
static int hopper(gb_device_info_t *dev, gb_registry_t **reg)
{
    device(dev, 1, 1);
    snprintf(dev->family, sizeof dev->family, "nvidia-sm_90");
    dev->local_mem = dev->local_mem_kernel = 227 * 1024;
    char msg[256];
    return CHECK_RC(gb_registry_open(reg, NULL, msg, sizeof msg), GB_OK);
}

/* sgemm_wgmma's split by the grid's need on a 132-SM Hopper: pieces that fill one wave of the
 * work-groups an SM holds (one for the 128 x 128 tile, two for 64 x 128), so that 512 x 512 x
 * 32768 runs 16 tiles in 8 pieces each, the 64-tile shapes in 2, and 98 tiles none
 * (bench/notes/wgmma.md#wgmma-split-fill); hgemm_wgmma's the same. */
static void test_wgmma_pieces(void)
{
    gb_device_info_t dev;
    gb_registry_t *reg;
    char msg[256];
    if (!hopper(&dev, &reg))
        return;
    static const struct {
        const char *kernel;
        int wgm;
        gb_precision_t prec;
        size_t m, n, k;
        long long pieces;
    } cases[] = {
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 512, 512, 32768, 8},
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 1024, 1024, 16384, 2},
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 8192, 128, 8192, 2},
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 256, 256, 65536, 32},
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 384, 768, 16384, 7},
        {"sgemm_wgmma_128x128x32_split", 2, GB_PREC_S, 6272, 256, 2304, 1},
        {"sgemm_wgmma_128x128x32_split", 1, GB_PREC_S, 512, 512, 32768, 8}, /* 32 tiles, 2 an SM */
        {"hgemm_wgmma", 2, GB_PREC_H, 512, 512, 32768, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_config_t cfg;
        if (!CHECK_RC(gb_config_resolve(reg, cases[i].kernel, NULL, &cfg, msg, sizeof msg), GB_OK))
            continue;
        gb_params_set(&cfg.params, "SPLITK", 0);
        gb_params_set(&cfg.params, "WGM", cases[i].wgm);
        gb_params_set(&cfg.params, "BN", 128);
        gb_problem_t p;
        gb_problem_init(&p, cases[i].prec, cases[i].m, cases[i].n, cases[i].k);
        gb_problem_check(&p, NULL, 0);
        gb_route_t r;
        if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK) &&
            !CHECK(r.factor == cases[i].pieces))
            printf("    %s WGM %d %zu x %zu x %zu: %lld pieces, want %lld\n", cases[i].kernel,
                   cases[i].wgm, cases[i].m, cases[i].n, cases[i].k, r.factor, cases[i].pieces);
    }
    gb_registry_close(reg);
}

/* A row-major problem of h (M x N x K, B transposed by tb) into *p. */
static void problem_h(size_t m, size_t n, size_t k, gb_trans_t tb, gb_problem_t *p)
{
    gb_problem_init(p, GB_PREC_H, m, n, k);
    p->trans_b = tb;
    gb_problem_check(p, NULL, 0);
}

/* The same, planned with cfg on dev into r; whether it was. */
static int plan_h(const gb_config_t *cfg, const gb_device_info_t *dev, size_t m, size_t n, size_t k,
                  gb_trans_t tb, gb_problem_t *p, gb_route_t *r)
{
    char msg[256];
    problem_h(m, n, k, tb, p);
    return CHECK_RC(gb__route_plan(cfg, p, dev, r, msg, sizeof msg), GB_OK);
}

/* hgemm_wgmma_nt with TMA=1: the workspace gains 256 bytes a work-group (its two tensor maps),
 * after the split's sums where it splits; hgemm_wgmma_mn the same; tiles without the swizzle
 * (SWZ 0) refuse it, and the 192-wide tile with KACC needs it. */
static void test_tma_workspace(void)
{
    gb_device_info_t dev;
    gb_registry_t *reg;
    char msg[256];
    if (!hopper(&dev, &reg))
        return;
    static const struct {
        size_t m, n, k;
        long long splitk;
        size_t tma0, tma1; /* the workspace's bytes without and with TMA */
    } cases[] = {
        {4096, 4096, 4096, 1, 0, 1024 * 256}, /* 32 x 32 tiles */
        {4000, 4000, 4096, 1, 0, 1024 * 256}, /* 32 x 32, the last ragged */
        {512, 512, 32768, 8, 8 * 16 * 128 * 128 * 4, 8 * 16 * 128 * 128 * 4 + 8 * 16 * 256},
    };
    gb_config_t cfg, mn, nt;
    if (!CHECK_RC(gb_config_resolve(reg, "hgemm_wgmma_nt_128x128x64", NULL, &cfg, msg, sizeof msg),
                  GB_OK) ||
        !CHECK_RC(gb_config_resolve(reg, "hgemm_wgmma_mn_128x128x64", NULL, &mn, msg, sizeof msg),
                  GB_OK) ||
        !CHECK_RC(gb_config_resolve(reg, "hgemm_wgmma_nt_128x128", NULL, &nt, msg, sizeof msg),
                  GB_OK)) {
        gb_registry_close(reg);
        return;
    }
    gb_problem_t p;
    gb_route_t r;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int tma = 0; tma < 2; tma++) {
            gb_params_set(&cfg.params, "TMA", tma);
            gb_params_set(&cfg.params, "SPLITK", cases[i].splitk);
            const size_t want = tma ? cases[i].tma1 : cases[i].tma0;
            if (plan_h(&cfg, &dev, cases[i].m, cases[i].n, cases[i].k, GB_TRANS, &p, &r) &&
                !CHECK(r.ws_bytes == want || (want == 0 && r.ws_bytes <= 16)))
                printf("    %zu x %zu x %zu TMA %d: %zu bytes of workspace, want %zu\n", cases[i].m,
                       cases[i].n, cases[i].k, tma, r.ws_bytes, want);
        }
    /* hgemm_wgmma_mn (row-NN) takes TMA too, with the same slots. */
    gb_params_set(&mn.params, "TMA", 1);
    if (plan_h(&mn, &dev, 4096, 4096, 4096, GB_NOTRANS, &p, &r))
        CHECK(r.ws_bytes == 1024 * 256);
    /* Without the swizzle (SWZ 0) TMA is refused. */
    problem_h(4096, 4096, 4096, GB_TRANS, &p);
    gb_params_set(&nt.params, "TMA", 1);
    gb_params_set(&nt.params, "SWZ", 0);
    gb_params_set(&nt.params, "PADL", 1);
    CHECK(gb_config_check(&nt, &dev, GB_PREC_H, &p, msg, sizeof msg) != GB_OK);
    CHECK_HAS(msg, "TMA == 0 || SWZ > 0");
    /* The 192-wide tile with the sums of KACC steps takes TMA's registers: cp.async is refused,
     * TMA taken. */
    gb_params_set(&nt.params, "SWZ", 64);
    gb_params_set(&nt.params, "PADL", 0);
    gb_params_set(&nt.params, "BN", 192);
    gb_params_set(&nt.params, "TMA", 0);
    CHECK(gb_config_check(&nt, &dev, GB_PREC_H, &p, msg, sizeof msg) != GB_OK);
    CHECK_HAS(msg, "BN == 192 && TMA == 1");
    gb_params_set(&nt.params, "TMA", 1);
    CHECK_RC(gb_config_check(&nt, &dev, GB_PREC_H, &p, msg, sizeof msg), GB_OK);
    gb_registry_close(reg);
}

/* hgemm_wgmma_nt's rows on whole 128-byte lines where the problem repays the copy: a large
 * problem whose K (the rows' length in row-NT) is a multiple of 8 but not of 64 has A and B
 * copied to rows of 64 multiples; one of K a multiple of 64, a small or thin one, or one of
 * short K (whose time is C's), is not copied. */
static void test_row_lines(void)
{
    gb_device_info_t dev;
    gb_registry_t *reg;
    char msg[256];
    if (!hopper(&dev, &reg))
        return;
    static const struct {
        size_t m, n, k;
        size_t ld; /* the kernel's A and B leading dimension; 0: the caller's, not copied */
    } cases[] = {
        {4096, 4096, 7000, 7040}, {5000, 3000, 7000, 7040}, {4096, 4096, 7168, 0},
        {512, 512, 7000, 0},      {16, 4096, 7000, 0},      {8192, 8192, 1000, 0},
    };
    gb_config_t cfg;
    if (!CHECK_RC(
            gb_config_resolve(reg, "hgemm_wgmma_nt_128x128x64_tma", NULL, &cfg, msg, sizeof msg),
            GB_OK)) {
        gb_registry_close(reg);
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_problem_t p;
        gb_route_t r;
        if (!plan_h(&cfg, &dev, cases[i].m, cases[i].n, cases[i].k, GB_TRANS, &p, &r))
            continue;
        const size_t ld = cases[i].ld;
        if (!CHECK(r.copy[0] == (ld != 0) && r.copy[1] == (ld != 0) &&
                   (!ld ||
                    (r.temp_elems[0] == cases[i].m * ld && r.temp_elems[1] == cases[i].n * ld))))
            printf("    %zu x %zu x %zu: copies %d %d of %zu and %zu elements, want rows of %zu\n",
                   cases[i].m, cases[i].n, cases[i].k, r.copy[0], r.copy[1], r.temp_elems[0],
                   r.temp_elems[1], ld);
    }
    gb_registry_close(reg);
}

/* sgemm_wgmma's ring of B (BRING) copies 16-byte runs of B's rows, so where they are off 16
 * bytes (ldb or offB not a multiple of 4) and M repays a copy of B (M >= 1024), B is copied to
 * rows of a multiple of 4; the register-staged tile (BRING 0), an aligned B and a short M are
 * not copied (bench/notes/wgmma.md#wgmma-bring-entries). */
static void test_ring_rows(void)
{
    gb_device_info_t dev;
    gb_registry_t *reg;
    char msg[256];
    if (!hopper(&dev, &reg))
        return;
    static const struct {
        const char *kernel;
        size_t m, n, k, off_b;
        size_t ld; /* the kernel's B leading dimension; 0: the caller's, not copied */
    } cases[] = {
        {"sgemm_wgmma_128x128x32_ring", 4097, 4097, 4097, 0, 4100},
        {"sgemm_wgmma_128x128x32_ring", 4096, 4096, 4096, 2, 4096},
        {"sgemm_wgmma_128x128x32_ring", 4096, 4096, 4096, 0, 0},
        {"sgemm_wgmma_128x128x32_ring", 512, 4097, 4096, 0, 0},
        {"sgemm_wgmma_128x128x32", 4097, 4097, 4097, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gb_config_t cfg;
        gb_problem_t p;
        gb_route_t r;
        if (!CHECK_RC(gb_config_resolve(reg, cases[i].kernel, NULL, &cfg, msg, sizeof msg), GB_OK))
            continue;
        gb_problem_init(&p, GB_PREC_S, cases[i].m, cases[i].n, cases[i].k);
        p.off_b = cases[i].off_b;
        gb_problem_check(&p, NULL, 0);
        const size_t ld = cases[i].ld;
        if (CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK) &&
            !CHECK(!r.copy[0] && r.copy[1] == (ld != 0) &&
                   (!ld || (r.temp_elems[1] == cases[i].k * ld && r.kernel.off_b == 0))))
            printf("    %s %zu x %zu x %zu offB %zu: copies %d %d, B's %zu elements, want rows "
                   "of %zu\n",
                   cases[i].kernel, cases[i].m, cases[i].n, cases[i].k, cases[i].off_b, r.copy[0],
                   r.copy[1], r.temp_elems[1], ld);
    }
    gb_registry_close(reg);
}

/* A family that stages 1M's Y from B itself (expand_b): B K x N is not expanded by a pass; the
 * kernel reads the caller's B at twice its leading dimension and offset, built with the macro
 * and the conjugation of A the route names, and gets alpha's parts (alphaRe, alphaIm) that a
 * pass would have multiplied Y by. Where its 'where' does not hold, B transposed, or a family
 * without it, the pass makes Y. */
static void test_expand_b(void)
{
    gb_device_info_t dev;
    device(&dev, 0, 1);
    gb_family_t f;
    char msg[256];
    gb_route_t r;
    if (family("{'family': 'y', 'source': 'y.cl', 'entry': 'k', 'precisions': ['d'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', 'B',"
               " 'offB', 'ldb', 'beta', 'C', 'offC', 'ldc', 'alphaRe', 'alphaIm'],"
               " 'expand_b': {'macro': 'YB', 'where': 'M <= 16'}, 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_Z, 16, 40, 24);
    p.trans_a = GB_TRANS;
    p.conj_a = 1;
    p.ldb = 50;
    p.off_b = 3;
    p.alpha = 0.5;
    p.alpha_im = 2.0;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && r.expand_b && r.made[0] && !r.made[1] && !r.copy[1] && r.ncopies == 1);
    CHECK(r.copies[0].kind == GB_PASS_PACK);
    CHECK(r.kernel.n == 80 && r.kernel.k == 48 && r.kernel.ldb == 100 && r.kernel.off_b == 6);
    CHECK_HAS(r.options, "-DYB=1 -DYB_CONJA=1 -DYB_CONJB=0");
    CHECK(!strcmp(r.text, "1M (complex as real), native, Y staged from B"));
    double ks[2], pa[2], pb[2];
    gb__route_scalars(&r, &r.kernel, ks, pa, pb);
    CHECK(ks[0] == 1.0 && pa[0] == 0.5 && pa[1] == 2.0);
    /* Where the family's 'where' does not hold (17 rows), Y is made by its pass. */
    p.m = 17;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && !r.expand_b && r.made[1] && r.copies[1].kind == GB_PASS_EXPAND);
    p.m = 16;
    /* B transposed, in a family of row-NN alone: Y is made by its pass, as before. */
    p.trans_b = GB_TRANS;
    p.ldb = 24;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && !r.expand_b && r.made[1] && r.ncopies == 2 &&
          r.copies[1].kind == GB_PASS_EXPAND && !strstr(r.options, "-DYB"));
    gb__family_free(&f);
    /* ... and in one that also takes B transposed, the kernel reads B^H as stored, as Y's
     * transpose (the real N x 2K matrix), its conjugation built in. */
    if (family("{'family': 'y', 'source': 'y.cl', 'entry': 'k', 'precisions': ['d'],"
               " 'layouts': ['row-NN', 'row-NT'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA',"
               " 'lda', 'B', 'offB', 'ldb', 'beta', 'C', 'offC', 'ldc', 'alphaRe', 'alphaIm'],"
               " 'expand_b': {'macro': 'YB'}, 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    cfg = config_of(&f);
    gb_problem_init(&p, GB_PREC_Z, 16, 40, 24);
    p.trans_b = GB_TRANS;
    p.conj_b = 1;
    p.ldb = 30;
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && r.expand_b && !r.made[1] && r.ncopies == 0 && r.kernel.trans_b == GB_TRANS &&
          r.kernel.n == 80 && r.kernel.k == 48 && r.kernel.ldb == 60);
    CHECK_HAS(r.options, "-DGB_TRANS_B=1");
    CHECK_HAS(r.options, "-DYB=1 -DYB_CONJA=0 -DYB_CONJB=1");
    gb__family_free(&f);
    /* A family that does not say it stages Y. */
    if (family("{'family': 'n', 'source': 'n.cl', 'entry': 'k', 'precisions': ['d'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'offA', 'lda', 'B',"
               " 'offB', 'ldb', 'beta', 'C', 'offC', 'ldc'], 'global': ['M', 'N']}",
               &f) != GB_OK)
        return;
    cfg = config_of(&f);
    gb_problem_init(&p, GB_PREC_Z, 16, 40, 24);
    gb_problem_check(&p, NULL, 0);
    CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
    CHECK(r.onem && !r.expand_b && r.made[1] && r.copies[0].kind == GB_PASS_EXPAND);
    gb__family_free(&f);
}

/* A straight copy into 4-aligned rows moves four elements a work-item (gb_copy4) for real
 * elements, and one (gb_copy) for complex ones, which gb_copy4 does not take. */
static void test_wide_copy(void)
{
    gb_device_info_t dev;
    device(&dev, 1, 1);
    gb_family_t f;
    char msg[256];
    gb_route_t r;
    if (family("{'family': 'w', 'source': 'w.cl', 'entry': 'k', 'precisions': ['s', 'c'],"
               " 'layouts': ['row-NN'], 'args': ['M', 'N', 'K', 'alpha', 'A', 'lda', 'B', 'ldb',"
               " 'beta', 'C', 'ldc'], 'global': ['M', 'N'], 'ld_multiple_of': {'B': '2'}}",
               &f) != GB_OK)
        return;
    gb_config_t cfg = config_of(&f);
    static const gb_precision_t precs[] = {GB_PREC_S, GB_PREC_C};
    for (int i = 0; i < 2; i++) {
        gb_problem_t p;
        gb_problem_init(&p, precs[i], 7, 7, 7);
        gb_problem_check(&p, NULL, 0);
        CHECK_RC(gb__route_plan(&cfg, &p, &dev, &r, msg, sizeof msg), GB_OK);
        CHECK(r.ncopies == 1 && r.copies[0].d_ld == 8 && !r.onem);
        CHECK(!strcmp(gb__launch_copy_entry(&r.copies[0]), i ? "gb_copy" : "gb_copy4"));
    }
    gb__family_free(&f);
}

int main(void)
{
    test_grid();
    test_cases();
    test_smaller_pass();
    test_layouts_where();
    test_vector_form();
    test_geometry();
    test_unsplit();
    test_wgmma_pieces();
    test_tma_workspace();
    test_row_lines();
    test_ring_rows();
    test_wide_copy();
    test_expand_b();
    test_launch_bound();
    test_builtin_bounds();
    test_program_id();
    test_kept_route();
    return unit_finish();
}
