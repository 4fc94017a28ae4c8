/* unit_pipeline.c: how a pipelined offload splits C (src/harness/measure/pipeline.c), no device. For
 * odd sizes in both layouts, every transposition, padded leading dimensions and offsets: the
 * panels cover C's rows (row-major) or columns (column-major) once each, in panels of the size
 * said (a multiple of 8 above 8, fewer than asked where C is small: one row or column each);
 * each panel is a valid problem whose buffers lie within the whole problem's; and every element
 * of a panel's op(A), op(B) and C is the whole problem's element at the same address. And the
 * option checks that need no device (gb_bench_options_check). */
#include "unit.h"

#include "harness/measure/runner.h"

/* Where element (r, c) of an m x n matrix stored in layout with ld and off lies, transposed or
 * not (op(X)(r, c) = X(c, r)). */
static size_t at(gb_layout_t layout, gb_trans_t t, size_t ld, size_t off, size_t r, size_t c)
{
    if (t == GB_TRANS) {
        const size_t s = r;
        r = c;
        c = s;
    }
    return off + (layout == GB_ROW_MAJOR ? r * ld + c : r + c * ld);
}

static void check_split(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, size_t m, size_t n,
                        size_t k, int asked, size_t want_each, size_t want_n)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, m, n, k);
    p.layout = layout;
    p.trans_a = ta;
    p.trans_b = tb;
    p.off_a = 3;
    p.off_b = 5;
    p.off_c = 7;
    if (!CHECK(gb_problem_check(&p, NULL, 0) == GB_OK))
        return;
    p.lda += 2; /* padded */
    p.ldb += 1;
    p.ldc += 3;
    size_t each, np, ea, eb, ec;
    gb__pipeline_split(&p, asked, &each, &np);
    gb_problem_buffer_elems(&p, &ea, &eb, &ec);
    if (!CHECK(each == want_each && np == want_n))
        printf("    %zux%zux%zu %s, %d asked: %zu panels of %zu\n", m, n, k,
               layout == GB_ROW_MAJOR ? "row" : "col", asked, np, each);
    const int rows = layout == GB_ROW_MAJOR;
    size_t covered = 0;
    for (size_t i = 0; i < np; i++) {
        gb_problem_t q;
        gb__pipeline_panel(&p, each, i, &q);
        const size_t len = rows ? q.m : q.n, from = i * each;
        CHECK(len >= 1 && len <= each && (rows ? q.n == n : q.m == m) && q.k == k);
        covered += len;
        CHECK(gb_problem_check(&q, NULL, 0) == GB_OK);
        /* The panel's corners and middle are the whole problem's elements, inside its buffers
         * (a transposed panel's full lines would not be: its offset moves along them). */
        const size_t rs[3] = {0, (rows ? len : m) / 2, (rows ? len : m) - 1};
        const size_t cs[3] = {0, (rows ? n : len) / 2, (rows ? n : len) - 1};
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                const size_t r = rs[a], c = cs[b], gr = rows ? from + r : r,
                             gc = rows ? c : from + c, kk = (size_t)(a + b) % k;
                const size_t wc = at(layout, GB_NOTRANS, p.ldc, p.off_c, gr, gc),
                             wa = at(layout, ta, p.lda, p.off_a, gr, kk),
                             wb = at(layout, tb, p.ldb, p.off_b, kk, gc);
                CHECK(at(layout, GB_NOTRANS, q.ldc, q.off_c, r, c) == wc && wc < ec);
                CHECK(at(layout, ta, q.lda, q.off_a, r, kk) == wa && wa < ea);
                CHECK(at(layout, tb, q.ldb, q.off_b, kk, c) == wb && wb < eb);
            }
    }
    CHECK(covered == (rows ? m : n));
}

int main(void)
{
    for (int lay = 0; lay < 2; lay++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                const gb_layout_t l = (gb_layout_t)lay;
                const gb_trans_t a = (gb_trans_t)ta, b = (gb_trans_t)tb;
                const int row = l == GB_ROW_MAJOR;
                /* 131 rows in 4: ceil 33 -> 40 (a multiple of 8): 40, 40, 40, 11. */
                check_split(l, a, b, 131, 77, 65, 4, row ? 40 : 24, 4);
                /* 77 columns in 4: 20 -> 24: 24, 24, 24, 5. */
                check_split(l, a, b, 77, 131, 65, 4, row ? 24 : 40, 4);
                /* Small: panels of ceil(rows / asked), not rounded; more panels than rows: one
                 * row each. */
                check_split(l, a, b, 20, 20, 9, 4, 5, 4);
                check_split(l, a, b, 3, 3, 16, 8, 1, 3);
                check_split(l, a, b, 1, 1, 1, 2, 1, 1);
                check_split(l, a, b, 4096, 4096, 64, 4, 1024, 4);
                /* Rounding up may leave fewer than asked. */
                check_split(l, a, b, 130, 130, 8, 16, 16, 9);
            }

    /* The options that do not go together. */
    gb_bench_options_t o;
    char msg[512];
    gb_bench_options_init(&o);
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_OK);
    o.pipeline = GB_PIPELINE_DEFAULT;
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_EBADARG);
    CHECK(strstr(msg, "--timing offload") != NULL);
    o.timing = GB_TIMING_OFFLOAD;
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_OK);
    o.host_mem = GB_HOST_MAPPED;
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_EBADARG);
    CHECK(strstr(msg, "mapped makes none") != NULL);
    o.host_mem = GB_HOST_PINNED;
    o.pipeline = 1;
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_EBADARG);
    o.pipeline = GB_PIPELINE_MAX + 1;
    CHECK_RC(gb_bench_options_check(&o, msg, sizeof msg), GB_EBADARG);
    gb_host_mem_t hm;
    CHECK(gb_host_mem_parse("mapped", &hm) == GB_OK && hm == GB_HOST_MAPPED);
    CHECK(!strcmp(gb_host_mem_name(GB_HOST_MAPPED), "mapped"));
    CHECK(gb_host_mem_parse("locked", &hm) == GB_EBADARG);
    return unit_finish();
}
