/* unit_problem.c: the GEMM problem (src/rt/core/): which argument gb_problem_check rejects and why,
 * defaults, overflow, buffer sizes, data whose products and sums overflow the precision
 * (gb_problem_check_data), the text parsers, error names and the seeded generator. */
#include <limits.h>

#include "unit.h"

#include "rt/core/core.h"

static gb_problem_t make(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, size_t m, size_t n,
                         size_t k)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, m, n, k);
    p.layout = layout;
    p.trans_a = ta;
    p.trans_b = tb;
    return p;
}

static void test_init_defaults(void)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_D, 3, 4, 5);
    CHECK(p.precision == GB_PREC_D && p.layout == GB_ROW_MAJOR);
    CHECK(p.trans_a == GB_NOTRANS && p.trans_b == GB_NOTRANS);
    CHECK(p.alpha == 1.0 && p.beta == 0.0);
    CHECK(p.lda == 0 && p.ldb == 0 && p.ldc == 0);
    CHECK(p.off_a == 0 && p.off_b == 0 && p.off_c == 0);
    char msg[256] = "";
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    /* Row-major NN: A is M x K, B is K x N, C is M x N; ld is the column count. */
    CHECK(p.lda == 5 && p.ldb == 4 && p.ldc == 4);

    p = make(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    CHECK(p.lda == 3 && p.ldb == 5 && p.ldc == 3);

    p = make(GB_ROW_MAJOR, GB_TRANS, GB_TRANS, 3, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    CHECK(p.lda == 3 && p.ldb == 5 && p.ldc == 4);

    p = make(GB_COL_MAJOR, GB_TRANS, GB_TRANS, 3, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    CHECK(p.lda == 5 && p.ldb == 4 && p.ldc == 3);

    /* Given leading dimensions are kept. */
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    p.lda = 9;
    p.ldb = 8;
    p.ldc = 7;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    CHECK(p.lda == 9 && p.ldb == 8 && p.ldc == 7);
}

static void test_bad_sizes(void)
{
    char msg[256] = "";
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 0, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADM);
    CHECK_HAS(msg, "M");
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 0, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADN);
    CHECK_HAS(msg, "N");
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 0);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADK);
    CHECK_HAS(msg, "K");
    /* msg may be NULL. */
    CHECK_RC(gb_problem_check(&p, NULL, 0), GB_EBADK);

    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    p.precision = (gb_precision_t)7;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADPRECISION);
    p = make((gb_layout_t)2, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADLAYOUT);
    p = make(GB_ROW_MAJOR, GB_NOTRANS, (gb_trans_t)3, 3, 4, 5);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADTRANS);
}

/* Sets one leading dimension to need - 1 and need, expecting code then GB_OK. */
static void ld_case(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, char which, size_t need,
                    int code)
{
    char msg[256] = "";
    for (int ok = 0; ok < 2; ok++) {
        gb_problem_t p = make(layout, ta, tb, 3, 4, 5);
        size_t *ld = which == 'a' ? &p.lda : which == 'b' ? &p.ldb : &p.ldc;
        *ld = ok ? need : need - 1;
        int rc = gb_problem_check(&p, msg, sizeof msg);
        if (!CHECK_RC(rc, ok ? GB_OK : code))
            printf("    ld%c case: layout %d, trans %d%d, ld %zu\n", which, (int)layout, (int)ta,
                   (int)tb, *ld);
    }
}

static void test_leading_dimensions(void)
{
    /* M=3, N=4, K=5. A stored: NN M x K, T K x M; B stored: N K x N, T N x K. */
    ld_case(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 'a', 5, GB_EBADLDA);
    ld_case(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 'a', 3, GB_EBADLDA);
    ld_case(GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, 'a', 3, GB_EBADLDA);
    ld_case(GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, 'a', 5, GB_EBADLDA);
    ld_case(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 'b', 4, GB_EBADLDB);
    ld_case(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 'b', 5, GB_EBADLDB);
    ld_case(GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS, 'b', 5, GB_EBADLDB);
    ld_case(GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, 'b', 4, GB_EBADLDB);
    ld_case(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 'c', 4, GB_EBADLDC);
    ld_case(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 'c', 3, GB_EBADLDC);
    ld_case(GB_ROW_MAJOR, GB_TRANS, GB_TRANS, 'c', 4, GB_EBADLDC);
    ld_case(GB_COL_MAJOR, GB_TRANS, GB_TRANS, 'c', 3, GB_EBADLDC);

    char msg[256] = "";
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    p.lda = 4;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADLDA);
    CHECK_HAS(msg, "lda=4");
    CHECK_HAS(msg, "make lda 5 or more");
}

static void test_overflow(void)
{
    char msg[256] = "";
    const size_t big = (size_t)1 << 40;
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, big, big, big);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);

    /* Fits size_t but not the kernels' 32-bit indexing. */
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 50000, 10, 50000);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
    CHECK_HAS(msg, "matrix a");
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 10, 50000, 50000);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
    CHECK_HAS(msg, "matrix b");
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 50000, 50000, 10);
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
    CHECK_HAS(msg, "matrix c");

    /* The offset counts: exactly INT_MAX elements pass, one more does not. */
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1, 1, 1);
    p.off_a = (size_t)INT_MAX - 1;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1, 1, 1);
    p.off_a = (size_t)INT_MAX;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1, 1, 1);
    p.off_c = SIZE_MAX;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
    p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 2, 1, 1);
    p.ldc = SIZE_MAX / 2 + 1;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EOVERFLOW);
}

static void test_scalars(void)
{
    char msg[256] = "";
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    p.alpha = (double)NAN;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADSCALAR);
    p.alpha = 1.0;
    p.beta = (double)INFINITY;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADSCALAR);
    p.beta = -(double)INFINITY;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_EBADSCALAR);
    p.beta = -2.5;
    CHECK_RC(gb_problem_check(&p, msg, sizeof msg), GB_OK);
}

static void test_buffer_elems(void)
{
    size_t a, b, c;
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 3, 4, 5);
    p.lda = 7;
    p.off_a = 2;
    p.off_b = 1;
    p.ldc = 6;
    p.off_c = 3;
    CHECK_RC(gb_problem_check(&p, NULL, 0), GB_OK);
    gb_problem_buffer_elems(&p, &a, &b, &c);
    CHECK(a == 2 + 7 * 3); /* 3 rows of 7 */
    CHECK(b == 1 + 4 * 5); /* 5 rows of 4 */
    CHECK(c == 3 + 6 * 3);

    p = make(GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, 3, 4, 5);
    p.off_a = 10;
    p.off_c = 1;
    CHECK_RC(gb_problem_check(&p, NULL, 0), GB_OK);
    gb_problem_buffer_elems(&p, &a, &b, &c);
    CHECK(a == 10 + 5 * 3); /* A stored K x M column-major: M columns of K */
    CHECK(b == 5 * 4);      /* B stored K x N: N columns of K */
    CHECK(c == 1 + 3 * 4);  /* C: N columns of M */
}

static void test_dist_parse(void)
{
    gb_dist_t d;
    char msg[256] = "", buf[64];
    CHECK_RC(gb_dist_parse("int:5", &d, msg, sizeof msg), GB_OK);
    CHECK(d.kind == GB_DIST_INT && d.range == 5);
    CHECK(!strcmp(gb_dist_format(&d, buf, sizeof buf), "int:5"));
    CHECK_RC(gb_dist_parse("normal", &d, msg, sizeof msg), GB_OK);
    CHECK(d.kind == GB_DIST_NORMAL);
    CHECK_RC(gb_dist_parse("uniform", &d, msg, sizeof msg), GB_OK);
    CHECK(d.kind == GB_DIST_UNIFORM && d.lo == -1.0 && d.hi == 1.0);
    CHECK_RC(gb_dist_parse("uniform:-2:3.5", &d, msg, sizeof msg), GB_OK);
    CHECK(d.kind == GB_DIST_UNIFORM && d.lo == -2.0 && d.hi == 3.5);
    CHECK_RC(gb_dist_parse("int:1048576", &d, msg, sizeof msg), GB_OK);

    static const char *const bad[] = {"uniform:1:0",
                                      "uniform:1:1",
                                      "uniform:1",
                                      "uniform:",
                                      "uniform:0:1x",
                                      "uniform:nan:1",
                                      "uniform:0:inf",
                                      "int:0",
                                      "int:-3",
                                      "int:",
                                      "int:5x",
                                      "int:1048577",
                                      "int:99999999999999999999",
                                      "bogus",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        if (!CHECK_RC(gb_dist_parse(bad[i], &d, msg, sizeof msg), GB_EBADDIST))
            printf("    input \"%s\"\n", bad[i]);
        CHECK(msg[0] != '\0');
    }
}

/* The data check with the bound computed here from its documented formula:
 * S = max(1,|alpha|) (K X^2 + X) + max(1,|beta|) X against big / min(2, (1+u)^(K+2)). */
static int data_ok(const gb_problem_t *p, double x)
{
    const int dbl = p->precision == GB_PREC_D;
    const double big = dbl ? 1.7976931348623157e308 : 3.4028234663852886e38;
    const double u = dbl ? ldexp(1.0, -53) : ldexp(1.0, -24), k = (double)p->k;
    const double a = fabs(p->alpha) > 1 ? fabs(p->alpha) : 1,
                 b = fabs(p->beta) > 1 ? fabs(p->beta) : 1;
    double room = pow(1.0 + u, k + 2.0);
    room = room < 2.0 ? room : 2.0;
    return a * (k * x * x + x) + b * x <= big / room;
}

/* The largest magnitude a message suggests (--dist uniform:-X:X), or -1. */
static double suggested(const char *msg)
{
    const char *at = strstr(msg, "--dist uniform:-");
    double x = -1.0;
    if (!at || sscanf(at, "--dist uniform:-%lf", &x) != 1)
        return -1.0;
    return x;
}

static void test_data_range(void)
{
    char msg[512] = "";
    gb_dist_t uni = {GB_DIST_UNIFORM, -1.0, 1.0, 0}, big = {GB_DIST_UNIFORM, -1e39, 1e39, 0};
    gb_dist_t huge = {GB_DIST_UNIFORM, -1e300, 1e300, 0}, nor = {GB_DIST_NORMAL, 0, 0, 0};
    gb_dist_t ints = {GB_DIST_INT, 0, 0, 1 << 20};
    gb_problem_t p = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 16, 16, 16);
    CHECK_NEAR(gb_dist_max_abs(&uni), 1.0, 0.0);
    CHECK_NEAR(gb_dist_max_abs(&huge), 1e300, 0.0);
    CHECK_NEAR(gb_dist_max_abs(&ints), 1048576.0, 0.0);
    CHECK_NEAR(gb_dist_max_abs(&nor), 9.1202, 1e-4);
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_problem_check_data(&p, &nor, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_problem_check_data(&p, &ints, msg, sizeof msg), GB_OK);

    /* The findings: inputs that overflow single precision (1e39 is Inf as a float), and ones
     * whose products overflow double. */
    CHECK_RC(gb_problem_check_data(&p, &big, msg, sizeof msg), GB_ERANGE);
    CHECK_HAS(msg, "uniform:-1e+39:1e+39");
    CHECK_HAS(msg, "single precision");
    CHECK_HAS(msg, "--precision d");
    const double x = suggested(msg);
    CHECK(x > 0 && data_ok(&p, x) && !data_ok(&p, 4 * x));
    gb_dist_t fix = {GB_DIST_UNIFORM, -x, x, 0};
    CHECK_RC(gb_problem_check_data(&p, &fix, msg, sizeof msg), GB_OK);
    p.precision = GB_PREC_D;
    CHECK_RC(gb_problem_check_data(&p, &big, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_problem_check_data(&p, &huge, msg, sizeof msg), GB_ERANGE);
    CHECK_HAS(msg, "double precision");
    CHECK(strstr(msg, "--precision d") == NULL);
    CHECK(suggested(msg) > 0 && data_ok(&p, suggested(msg)));
    p.precision = GB_PREC_S;
    CHECK_RC(gb_problem_check_data(&p, &huge, msg, sizeof msg), GB_ERANGE);
    CHECK(strstr(msg, "--precision d") == NULL); /* 1e600 fits double no better */

    /* alpha 1e38 in single: the product sums overflow; the message offers the largest alpha. */
    p.alpha = 1e38;
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_ERANGE);
    const char *at = strstr(msg, "|alpha| <= ");
    double amax = -1;
    CHECK(at && sscanf(at, "|alpha| <= %lf", &amax) == 1);
    p.alpha = amax;
    CHECK(data_ok(&p, 1.0));
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_OK);
    p.alpha = -1e38;
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_ERANGE);
    p.precision = GB_PREC_D;
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_OK);
    p.precision = GB_PREC_S;
    p.alpha = 1.0;
    /* beta scales C0: |beta| X alone may overflow. */
    p.beta = 1e38;
    gb_dist_t ten = {GB_DIST_UNIFORM, -10.0, 10.0, 0};
    CHECK_RC(gb_problem_check_data(&p, &ten, msg, sizeof msg), GB_ERANGE);
    p.beta = 1e36;
    CHECK_RC(gb_problem_check_data(&p, &ten, msg, sizeof msg), GB_OK);
    p.beta = 0.0;

    /* At the edge: int:1, K=1, beta 0 gives S = 2 max(1,|alpha|) + 1, against FLT_MAX over
     * (1 + u)^3. */
    gb_dist_t one = {GB_DIST_INT, 0, 0, 1};
    gb_problem_t e = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1, 1, 1);
    const double edge = (3.4028234663852886e38 / pow(1.0 + ldexp(1.0, -24), 3.0) - 1.0) / 2.0;
    e.alpha = edge * (1.0 - 1e-12);
    CHECK(data_ok(&e, 1.0));
    CHECK_RC(gb_problem_check_data(&e, &one, msg, sizeof msg), GB_OK);
    e.alpha = edge * (1.0 + 1e-12);
    CHECK(!data_ok(&e, 1.0));
    CHECK_RC(gb_problem_check_data(&e, &one, msg, sizeof msg), GB_ERANGE);

    /* A long K in single: the rounding room is capped at 2, so an ordinary problem is valid even
     * where (1 + u)^K is astronomically large (e^128 at K = 2^31). */
    e = make(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1, 1, (size_t)INT_MAX);
    CHECK_RC(gb_problem_check_data(&e, &uni, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_problem_check_data(&e, &ints, msg, sizeof msg), GB_OK); /* 2^71 */
    e.alpha = 1e17; /* 2^31 * 1e17 * 2^40: over FLT_MAX */
    CHECK_RC(gb_problem_check_data(&e, &ints, msg, sizeof msg), GB_ERANGE);

    /* Not a distribution, or not finite scalars. */
    gb_dist_t bad = {(gb_dist_kind_t)7, 0, 0, 0};
    CHECK_RC(gb_problem_check_data(&p, &bad, msg, sizeof msg), GB_EBADDIST);
    gb_dist_t rev = {GB_DIST_UNIFORM, 1.0, -1.0, 0},
              inf = {GB_DIST_UNIFORM, -1.0, (double)INFINITY, 0};
    CHECK_RC(gb_problem_check_data(&p, &rev, msg, sizeof msg), GB_EBADDIST);
    CHECK_RC(gb_problem_check_data(&p, &inf, msg, sizeof msg), GB_EBADDIST);
    gb_dist_t zero = {GB_DIST_INT, 0, 0, 0};
    CHECK_RC(gb_problem_check_data(&p, &zero, msg, sizeof msg), GB_EBADDIST);
    p.alpha = (double)NAN;
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_EBADSCALAR);
    CHECK(!strcmp(gb_errname(GB_ERANGE), "GB_ERANGE"));
    CHECK(!strcmp(gb_strerror(GB_ERANGE), "inputs or scalars overflow the precision"));
}

static void test_text_parsers(void)
{
    gb_precision_t prec = GB_PREC_D;
    CHECK(gb_precision_parse("s", &prec) == GB_OK && prec == GB_PREC_S);
    CHECK(gb_precision_parse("double", &prec) == GB_OK && prec == GB_PREC_D);
    CHECK(gb_precision_parse("S", &prec) == GB_OK && prec == GB_PREC_S);
    CHECK(gb_precision_parse("64", &prec) == GB_OK && prec == GB_PREC_D);
    CHECK(gb_precision_parse("32", &prec) == GB_OK && prec == GB_PREC_S);
    CHECK(gb_precision_parse("q", &prec) == GB_EBADPRECISION);
    CHECK(gb_precision_parse("", &prec) == GB_EBADPRECISION);
    CHECK(!strcmp(gb_precision_name(GB_PREC_S), "s") && !strcmp(gb_precision_name(GB_PREC_D), "d"));
    CHECK(gb_precision_bytes(GB_PREC_S) == 4 && gb_precision_bytes(GB_PREC_D) == 8);

    gb_layout_t l = GB_ROW_MAJOR;
    CHECK(gb_layout_parse("col", &l) == GB_OK && l == GB_COL_MAJOR);
    CHECK(gb_layout_parse("Row", &l) == GB_OK && l == GB_ROW_MAJOR);
    CHECK(gb_layout_parse("column", &l) == GB_OK && l == GB_COL_MAJOR);
    CHECK(gb_layout_parse("diagonal", &l) == GB_EBADLAYOUT);

    gb_trans_t t = GB_NOTRANS;
    CHECK(gb_trans_parse("T", &t) == GB_OK && t == GB_TRANS);
    CHECK(gb_trans_parse("n", &t) == GB_OK && t == GB_NOTRANS);
    CHECK(gb_trans_parse("trans", &t) == GB_OK && t == GB_TRANS);
    CHECK(gb_trans_parse("C", &t) == GB_EBADTRANS);
    CHECK(gb_trans_parse("", &t) == GB_EBADTRANS);

    CHECK(gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS) == 0);
    CHECK(gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS) == 1);
    CHECK(gb_layout_index(GB_COL_MAJOR, GB_TRANS, GB_TRANS) == 7);
    char tag[16];
    gb_problem_t p = make(GB_COL_MAJOR, GB_TRANS, GB_NOTRANS, 1, 1, 1);
    CHECK(!strcmp(gb_problem_layout_tag(&p, tag, sizeof tag), "col-TN"));
}

static void test_errors(void)
{
    CHECK(!strcmp(gb_errname(GB_OK), "GB_OK"));
    CHECK(!strcmp(gb_errname(GB_EBADLDA), "GB_EBADLDA"));
    CHECK(!strcmp(gb_errname(GB_EIO), "GB_EIO"));
    CHECK(!strcmp(gb_errname(-999), "GB_E?"));
    CHECK(!strcmp(gb_strerror(GB_OK), "success"));
    CHECK(!strcmp(gb_strerror(GB_EBADLDA), "lda is smaller than the stored A needs"));
    CHECK(!strcmp(gb_strerror(GB_ENOFP64), "device has no double precision"));
    CHECK(!strcmp(gb_strerror(12345), "unknown error"));
    CHECK(!strcmp(gb_version(), GB_VERSION_STRING));
    /* Every code is negative and has a name and text of its own, the library's and the
     * harness's, and no value is in both tables. */
    int distinct = 1;
#define GB_X_CHECK(name, value, text)                                                              \
    distinct &=                                                                                    \
        (value) <= 0 && !strcmp(gb_errname(value), #name) && !strcmp(gb_strerror(value), text);
    GB_ERROR_TABLE(GB_X_CHECK)
    GB_HARNESS_ERROR_TABLE(GB_X_CHECK)
#undef GB_X_CHECK
    CHECK(distinct);
    static const int library[] =
        {
#define GB_X_VALUE(name, value, text) value,
            GB_ERROR_TABLE(GB_X_VALUE)},
                     harness[] = {GB_HARNESS_ERROR_TABLE(GB_X_VALUE)};
#undef GB_X_VALUE
    for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
        for (size_t j = 0; j < sizeof harness / sizeof harness[0]; j++)
            CHECK(library[i] != harness[j]);
    /* The harness's codes for sizes the library takes as BLAS's quick returns are not the
     * library's. */
    for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
        CHECK(library[i] != GB_EBADM && library[i] != GB_EBADN && library[i] != GB_EBADK);
}

static int integral_in(double v, long r)
{
    return v == floor(v) && v >= -(double)r && v <= (double)r;
}

static void test_generator(void)
{
    enum { ROWS = 5, COLS = 7, LD = 9, OFF = 3, ELEMS = OFF + ROWS * LD + 4 };
    static double x[ELEMS], y[ELEMS], z[ELEMS];
    const double pad = -7777.25;
    gb_rng_t r1, r2, r3;
    gb_dist_t d;
    CHECK_RC(gb_dist_parse("uniform:-1:1", &d, NULL, 0), GB_OK);

    gb__rng_seed(&r1, 42);
    gb__rng_seed(&r2, 42);
    gb__rng_seed(&r3, 43);
    gb__matrix_generate(x, ELEMS, GB_ROW_MAJOR, LD, OFF, ROWS, COLS, &d, GB_PREC_S, &r1, pad);
    gb__matrix_generate(y, ELEMS, GB_ROW_MAJOR, LD, OFF, ROWS, COLS, &d, GB_PREC_S, &r2, pad);
    gb__matrix_generate(z, ELEMS, GB_ROW_MAJOR, LD, OFF, ROWS, COLS, &d, GB_PREC_S, &r3, pad);
    CHECK(memcmp(x, y, sizeof x) == 0);
    CHECK(memcmp(x, z, sizeof x) != 0);

    /* Logical elements in range and exact in float; every other element is the pad. */
    int in_range = 1, exact = 1, padded = 1, distinct = 0;
    for (size_t i = 0; i < ELEMS; i++) {
        const size_t rel = i - OFF;
        const int logical = i >= OFF && rel / LD < ROWS && rel % LD < COLS;
        if (!logical) {
            padded &= x[i] == pad;
            continue;
        }
        in_range &= x[i] >= -1.0 && x[i] <= 1.0;
        exact &= (double)(float)x[i] == x[i];
        distinct += x[i] != z[i];
    }
    CHECK(in_range && exact && padded);
    CHECK(distinct > ROWS * COLS / 2);

    /* int:R in column-major: integers within [-R, R], and over enough draws both ends. */
    CHECK_RC(gb_dist_parse("int:3", &d, NULL, 0), GB_OK);
    gb__rng_seed(&r1, 7);
    gb__matrix_generate(x, ELEMS, GB_COL_MAJOR, LD, OFF, COLS, ROWS, &d, GB_PREC_D, &r1, pad);
    int ints = 1, lo = 0, hi = 0;
    padded = 1;
    for (size_t i = 0; i < ELEMS; i++) {
        const size_t rel = i - OFF;
        const int logical = i >= OFF && rel / LD < ROWS && rel % LD < COLS;
        if (!logical) {
            padded &= x[i] == pad;
            continue;
        }
        ints &= integral_in(x[i], 3);
        lo |= x[i] == -3.0;
        hi |= x[i] == 3.0;
    }
    CHECK(ints && padded);
    CHECK(lo && hi);

    /* Normal values are finite; the stream is the same for the same seed. */
    CHECK_RC(gb_dist_parse("normal", &d, NULL, 0), GB_OK);
    gb__rng_seed(&r1, 1);
    gb__rng_seed(&r2, 1);
    gb__matrix_generate(x, ELEMS, GB_ROW_MAJOR, LD, OFF, ROWS, COLS, &d, GB_PREC_D, &r1, pad);
    gb__matrix_generate(y, ELEMS, GB_ROW_MAJOR, LD, OFF, ROWS, COLS, &d, GB_PREC_D, &r2, pad);
    int finite = 1;
    for (size_t i = 0; i < ELEMS; i++)
        finite &= isfinite(x[i]) != 0;
    CHECK(finite && memcmp(x, y, sizeof x) == 0);

    /* The generator itself: splitmix64-seeded xoshiro256**, the same stream on every platform
     * (values from an independent implementation of the published algorithms). */
    gb__rng_seed(&r1, 42);
    CHECK(gb__rng_next(&r1) == 0x15780b2e0c2ec716ull);
    CHECK(gb__rng_next(&r1) == 0x6104d9866d113a7eull);
    CHECK(gb__rng_next(&r1) == 0xae17533239e499a1ull);
    gb__rng_seed(&r1, 0);
    CHECK(gb__rng_next(&r1) == 0x99ec5f36cb75f2b4ull);

    /* Uniform draws lie in [0, 1). */
    gb__rng_seed(&r1, 0);
    gb__rng_seed(&r2, 0);
    int same = 1, unit = 1;
    for (int i = 0; i < 1000; i++) {
        same &= gb__rng_next(&r1) == gb__rng_next(&r2);
        double u = gb__rng_uniform(&r1);
        unit &= u >= 0.0 && u < 1.0;
        (void)gb__rng_uniform(&r2);
    }
    CHECK(same && unit);
}

int main(void)
{
    test_init_defaults();
    test_bad_sizes();
    test_leading_dimensions();
    test_overflow();
    test_scalars();
    test_buffer_elems();
    test_dist_parse();
    test_data_range();
    test_text_parsers();
    test_errors();
    test_generator();
    return unit_finish();
}
