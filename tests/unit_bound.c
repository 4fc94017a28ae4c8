/* unit_bound.c: the error test of src/harness/validate/: unit roundoff, gamma_n, when integer data makes
 * a GEMM exact, the double reference and gauge on small hand-made matrices, and gb__validate's
 * verdicts (within and just over the bound, NaN, touched canaries, exact mode), in row- and
 * column-major storage with leading-dimension padding and offsets; the faithful verdict on
 * integer data (no honest error) and where an honest computation's own error is large; and the
 * outcome of both under --verdict for implementations that do and do not declare a reduced
 * precision. For FP16 and bfloat16: the bound with the output's rounding, exact integer data, and
 * the faithful verdict telling FP32 accumulation from accumulation in the storage format. */
#include "unit.h"

#include "rt/core/core.h"
#include "harness/validate/validate.h"

#define M 3
#define N 4
#define K 5

static void test_roundoff_gamma(void)
{
    CHECK(gb__unit_roundoff(GB_PREC_S) == ldexp(1.0, -24));
    CHECK(gb__unit_roundoff(GB_PREC_D) == ldexp(1.0, -53));
    const double u = ldexp(1.0, -24);
    CHECK(gb__gamma(0, u) == 0.0);
    CHECK(gb__gamma(10, u) == 10.0 * u / (1.0 - 10.0 * u));
    CHECK(gb__gamma(7, ldexp(1.0, -53)) == 7.0 * ldexp(1.0, -53) / (1.0 - 7.0 * ldexp(1.0, -53)));
    /* n u >= 1: the bound says nothing, so it is infinite. */
    CHECK(isinf(gb__gamma((size_t)1 << 24, u)));
    CHECK(isinf(gb__gamma((size_t)1 << 30, u)));
    CHECK(isfinite(gb__gamma(((size_t)1 << 24) - 1, u)));
    CHECK(gb__gamma(((size_t)1 << 24) - 1, u) > 1e6);
}

static void test_exact_possible(void)
{
    gb_problem_t p;
    gb_dist_t d = {GB_DIST_INT, 0, 0, 2};
    gb_problem_init(&p, GB_PREC_S, 8, 8, 100);
    CHECK(gb__exact_possible(&p, &d)); /* 100 * 4 */
    p.alpha = -3.0;
    p.beta = 2.0;
    CHECK(gb__exact_possible(&p, &d)); /* 3*100*4 + 2*2 */
    p.alpha = 0.5;
    CHECK(!gb__exact_possible(&p, &d));
    p.alpha = 1.0;
    p.beta = 1.5;
    CHECK(!gb__exact_possible(&p, &d));
    p.beta = 0.0;

    /* |alpha| K R^2 against 2^24: at the edge and one past it. */
    d.range = 1;
    p.k = (size_t)1 << 24;
    CHECK(gb__exact_possible(&p, &d));
    p.k = ((size_t)1 << 24) + 1;
    CHECK(!gb__exact_possible(&p, &d));
    d.range = 4;
    p.k = (size_t)1 << 22; /* 2^26 */
    CHECK(!gb__exact_possible(&p, &d));
    p.precision = GB_PREC_D; /* 2^26 <= 2^53 */
    CHECK(gb__exact_possible(&p, &d));
    p.k = (size_t)1 << 50; /* 2^54 */
    CHECK(!gb__exact_possible(&p, &d));

    gb_dist_t uni = {GB_DIST_UNIFORM, -1.0, 1.0, 0};
    gb_dist_t nor = {GB_DIST_NORMAL, 0, 0, 0};
    p.k = 4;
    CHECK(!gb__exact_possible(&p, &uni));
    CHECK(!gb__exact_possible(&p, &nor));
}

/* Logical element (r, c) of stored op(X) as held: X is rows x cols in the problem's layout. */
static double stored(const gb_problem_t *p, const double *x, size_t ld, size_t off, int trans,
                     size_t r, size_t c)
{
    return trans ? x[off + gb__at(p->layout, ld, c, r)] : x[off + gb__at(p->layout, ld, r, c)];
}

/* Small integers in [-(mod/2), mod/2] that vary with (i, j). */
static double pattern(size_t i, size_t j, size_t si, size_t sj, size_t mod)
{
    return (double)((i * si + j * sj) % mod) - (double)(mod / 2);
}

typedef struct fixture {
    gb_problem_t p;
    size_t ea, eb, ec;
    double *a, *b, *c0, *cref, *gauge, *c;
    double canary;
} fixture_t;

/* Sets up the problem, small integer inputs (some negative), the reference through gb__reference
 * (checked against a plain triple loop) and a "device" C equal to it with canaries outside. */
static int fixture_init(fixture_t *f, gb_layout_t layout, gb_trans_t ta, gb_trans_t tb,
                        double alpha, double beta, double canary)
{
    memset(f, 0, sizeof *f);
    gb_problem_init(&f->p, GB_PREC_S, M, N, K);
    f->p.layout = layout;
    f->p.trans_a = ta;
    f->p.trans_b = tb;
    f->p.alpha = alpha;
    f->p.beta = beta;
    f->p.off_a = 1;
    f->p.off_b = 2;
    f->p.off_c = 3;
    char msg[256] = "";
    if (!CHECK(gb_problem_check(&f->p, msg, sizeof msg) == GB_OK))
        return 0;
    /* Pad every leading dimension by 2 past the minimum gb_problem_check filled in. */
    f->p.lda += 2;
    f->p.ldb += 2;
    f->p.ldc += 2;
    if (!CHECK(gb_problem_check(&f->p, msg, sizeof msg) == GB_OK))
        return 0;
    gb_problem_buffer_elems(&f->p, &f->ea, &f->eb, &f->ec);
    f->a = calloc(f->ea, sizeof *f->a);
    f->b = calloc(f->eb, sizeof *f->b);
    f->c0 = calloc(f->ec, sizeof *f->c0);
    f->cref = calloc(f->ec, sizeof *f->cref);
    f->gauge = calloc(f->ec, sizeof *f->gauge);
    f->c = calloc(f->ec, sizeof *f->c);
    if (!CHECK(f->a && f->b && f->c0 && f->cref && f->gauge && f->c))
        return 0;
    /* Padding gets values the reference must ignore. */
    for (size_t i = 0; i < f->ea; i++)
        f->a[i] = 1000.0;
    for (size_t i = 0; i < f->eb; i++)
        f->b[i] = -1000.0;
    size_t r, c;
    gb__stored_a(&f->p, &r, &c);
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            f->a[f->p.off_a + gb__at(layout, f->p.lda, i, j)] = pattern(i, j, 3, 7, 5);
    gb__stored_b(&f->p, &r, &c);
    for (size_t i = 0; i < r; i++)
        for (size_t j = 0; j < c; j++)
            f->b[f->p.off_b + gb__at(layout, f->p.ldb, i, j)] = pattern(i, j, 5, 2, 7);
    for (size_t i = 0; i < f->ec; i++)
        f->c0[i] = 500.0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++)
            f->c0[f->p.off_c + gb__at(layout, f->p.ldc, i, j)] = pattern(i, j, 1, 1, 3);
    if (!CHECK(gb__reference(&f->p, f->a, f->b, f->c0, f->ea, f->eb, f->ec, f->cref, f->gauge) ==
               GB_OK))
        return 0;

    int same = 1;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            double s = 0, g = 0;
            for (size_t l = 0; l < K; l++) {
                double x = stored(&f->p, f->a, f->p.lda, f->p.off_a, ta == GB_TRANS, i, l);
                double y = stored(&f->p, f->b, f->p.ldb, f->p.off_b, tb == GB_TRANS, l, j);
                s += x * y;
                g += fabs(x) * fabs(y);
            }
            const size_t idx = f->p.off_c + gb__at(layout, f->p.ldc, i, j);
            const double c0 = f->c0[idx];
            same &= f->cref[idx] == alpha * s + beta * c0;
            same &= f->gauge[idx] == fabs(alpha) * g + fabs(beta) * fabs(c0);
        }
    CHECK(same);

    f->canary = canary;
    for (size_t i = 0; i < f->ec; i++)
        f->c[i] = gb__c_is_logical(&f->p, i) ? f->cref[i] : canary;
    return 1;
}

static void fixture_free(fixture_t *f)
{
    free(f->a);
    free(f->b);
    free(f->c0);
    free(f->cref);
    free(f->gauge);
    free(f->c);
}

static size_t c_index(const fixture_t *f, size_t i, size_t j)
{
    return f->p.off_c + gb__at(f->p.layout, f->p.ldc, i, j);
}

/* The bound as docs/methodology.md states it, computed here independently. */
static double bound_factor(size_t k, double u)
{
    const double n = (double)(k + 2), ud = ldexp(1.0, -53);
    return n * u / (1.0 - n * u) + n * ud / (1.0 - n * ud);
}

static void validate_case(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, double alpha,
                          double beta)
{
    fixture_t f;
    gb_validation_t v;
    const double canary = -7777.25;
    if (!fixture_init(&f, layout, ta, tb, alpha, beta, canary)) {
        fixture_free(&f);
        return;
    }
    const double u = gb__unit_roundoff(GB_PREC_S), g = bound_factor(K, u);

    /* Equal to the reference: passes, nothing counted. */
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(v.done && v.passed && !v.exact);
    CHECK(v.n_over == 0 && v.n_nonfinite == 0 && v.n_canary == 0);
    CHECK(v.max_ratio == 0.0);
    CHECK_NEAR(v.bound_ratio, g / u, 1e-9);
    CHECK(v.reason[0] == '\0');

    /* One element just inside and just beyond the bound. */
    const size_t wi = 1, wj = 2, idx = c_index(&f, wi, wj);
    CHECK(f.gauge[idx] > 0);
    const double limit = g * f.gauge[idx];
    f.c[idx] = f.cref[idx] + limit * (1.0 - 1e-6);
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(v.passed && v.n_over == 0);
    CHECK(v.worst_i == wi && v.worst_j == wj);
    CHECK(v.max_ratio < v.bound_ratio);

    f.c[idx] = f.cref[idx] - limit * (1.0 + 1e-6);
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(!v.passed);
    CHECK(v.n_over == 1 && v.n_nonfinite == 0 && v.n_canary == 0);
    CHECK(v.worst_i == wi && v.worst_j == wj);
    CHECK(v.max_ratio > v.bound_ratio);
    CHECK_HAS(v.reason, "(1,2)");

    /* NaN and Inf where the reference is finite. */
    f.c[idx] = (double)NAN;
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(!v.passed && v.n_nonfinite == 1 && v.n_over == 0);
    CHECK(v.worst_i == wi && v.worst_j == wj);
    const size_t idx2 = c_index(&f, 2, 0);
    f.c[idx] = f.cref[idx];
    f.c[idx2] = -HUGE_VAL;
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(!v.passed && v.n_nonfinite == 1);
    CHECK(v.worst_i == 2 && v.worst_j == 0);
    f.c[idx2] = f.cref[idx2];

    /* A canary in the ld padding (just past the last logical element of the first outer row),
     * then one in the offset before C. */
    const size_t pad = f.p.off_c + (layout == GB_ROW_MAJOR ? N : M);
    CHECK(!gb__c_is_logical(&f.p, pad));
    f.c[pad] = 0.0;
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(!v.passed && v.n_canary == 1 && v.n_over == 0 && v.n_nonfinite == 0);
    f.c[pad] = canary;
    f.c[0] = canary + 1.0;
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(!v.passed && v.n_canary == 1);
    f.c[0] = canary;

    /* Exact mode: one ulp is a failure; the same ulp passes the bound. */
    const size_t idx3 = c_index(&f, 0, 3);
    CHECK(f.gauge[idx3] > 0);
    f.c[idx3] = nextafter(f.cref[idx3], HUGE_VAL);
    gb__validate(&f.p, 1, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(v.exact && !v.passed && v.n_over == 1);
    CHECK(v.worst_i == 0 && v.worst_j == 3);
    CHECK(v.bound_ratio == 0.0);
    gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(v.passed && v.n_over == 0);
    f.c[idx3] = f.cref[idx3];
    gb__validate(&f.p, 1, f.cref, f.gauge, f.c, f.ec, canary, &v);
    CHECK(v.passed);
    fixture_free(&f);
}

/* The faithful verdict: integer data make the honest computation exact, so an honest value
 * read from the wrong place (a layout, transposition, offset or leading dimension mishandled)
 * shows as an honest error; an element 20 u G off is not faithful, 5 u G off is. */
static void faithful_case(gb_layout_t layout, gb_trans_t ta, gb_trans_t tb, double beta)
{
    fixture_t f;
    gb_validation_t v;
    if (!fixture_init(&f, layout, ta, tb, 2.0, beta, -7777.25)) {
        fixture_free(&f);
        return;
    }
    const double u = gb__unit_roundoff(GB_PREC_S);
    gb__faithful(&f.p, f.a, f.b, f.c0, f.cref, f.gauge, f.c, &v);
    CHECK(!strcmp(v.faithful, "faithful") && v.faithful_worst == 0.0 && v.faithful_honest == 0.0);
    const size_t at = c_index(&f, 0, 0);
    f.c[at] = f.cref[at] + 20.0 * u * f.gauge[at];
    gb__faithful(&f.p, f.a, f.b, f.c0, f.cref, f.gauge, f.c, &v);
    CHECK(!strcmp(v.faithful, "not faithful"));
    CHECK_NEAR(v.faithful_worst, 20.0, 1e-6);
    f.c[at] = f.cref[at] + 5.0 * u * f.gauge[at];
    gb__faithful(&f.p, f.a, f.b, f.c0, f.cref, f.gauge, f.c, &v);
    CHECK(!strcmp(v.faithful, "faithful"));
    f.c[at] = (double)NAN; /* not judged */
    gb__faithful(&f.p, f.a, f.b, f.c0, f.cref, f.gauge, f.c, &v);
    CHECK(!v.faithful[0] && v.faithful_worst == -1.0);
    fixture_free(&f);
}

/* What a result's two verdicts make of it: over the bound fails whatever is asked; within it,
 * not faithful fails under the faithful verdict (the default) unless the implementation declares
 * a reduced precision, and passes under --verdict bound; not validated is neither. */
static void test_outcome(void)
{
    gb_validation_t v;
    memset(&v, 0, sizeof v);
    const unsigned plain = GB_CAN_TUNE | GB_CAN_LWS, reduced = GB_IS_LIBRARY | GB_IS_REDUCED;
    CHECK(gb_validation_outcome(&v, plain, GB_VERDICT_FAITHFUL) == GB_OUTCOME_UNVALIDATED);
    v.done = 1;
    v.passed = 1;
    snprintf(v.faithful, sizeof v.faithful, "faithful");
    for (int r = 0; r < 2; r++)
        for (int b = 0; b < 2; b++)
            CHECK(gb_validation_outcome(&v, r ? reduced : plain,
                                        b ? GB_VERDICT_BOUND : GB_VERDICT_FAITHFUL) ==
                  GB_OUTCOME_PASS);
    snprintf(v.faithful, sizeof v.faithful, "not faithful");
    CHECK(gb_validation_outcome(&v, plain, GB_VERDICT_FAITHFUL) == GB_OUTCOME_UNFAITHFUL);
    CHECK(gb_validation_outcome(&v, plain, GB_VERDICT_BOUND) == GB_OUTCOME_PASS);
    CHECK(gb_validation_outcome(&v, reduced, GB_VERDICT_FAITHFUL) == GB_OUTCOME_PASS);
    v.faithful[0] = '\0'; /* not judged (too small a sample, a non-finite element) */
    CHECK(gb_validation_outcome(&v, plain, GB_VERDICT_FAITHFUL) == GB_OUTCOME_PASS);
    v.passed = 0;
    for (int r = 0; r < 2; r++)
        for (int b = 0; b < 2; b++)
            CHECK(gb_validation_outcome(&v, r ? reduced : plain,
                                        b ? GB_VERDICT_BOUND : GB_VERDICT_FAITHFUL) ==
                  GB_OUTCOME_FAIL);
    gb_verdict_t vd;
    CHECK(gb_verdict_parse("bound", &vd) == GB_OK && vd == GB_VERDICT_BOUND);
    CHECK(gb_verdict_parse("faithful", &vd) == GB_OK && vd == GB_VERDICT_FAITHFUL);
    CHECK(gb_verdict_parse("loose", &vd) == GB_EBADARG);
    CHECK(!strcmp(gb_verdict_name(GB_VERDICT_BOUND), "bound"));
}

/* The faithful verdict where the honest computation's own error is large: single precision,
 * K = 65, a row of A of 1 and then 64 times 2^-25, B all ones. Summed in order, each 2^-25 is
 * lost against 1 (under half an ulp), so the honest value is 1 where the product is 1 + 2^-19:
 * 32 u G off. A device that makes the same error is as good as an honest computation, faithful
 * (its error over the honest one's is 1), though 32 u G is over the factor of 8; one 9 times
 * as far off is not. */
static void test_faithful_honest_error(void)
{
    enum { KK = 65 };
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 1, 2, KK);
    CHECK_RC(gb_problem_check(&p, NULL, 0), GB_OK);
    double a[KK], b[KK * 2], c0[2] = {0, 0}, cref[2], gauge[2], c[2];
    for (size_t l = 0; l < KK; l++) {
        a[l] = l == 0 ? 1.0 : ldexp(1.0, -25);
        b[2 * l] = b[2 * l + 1] = 1.0;
    }
    for (int j = 0; j < 2; j++) {
        cref[j] = 1.0 + ldexp(1.0, -19);
        gauge[j] = cref[j];
        c[j] = 1.0; /* the honest value: what an in-order FP32 sum gives */
    }
    const double u = gb__unit_roundoff(GB_PREC_S), err = ldexp(1.0, -19) / (u * gauge[0]);
    gb_validation_t v;
    gb__faithful(&p, a, b, c0, cref, gauge, c, &v);
    CHECK_NEAR(v.faithful_honest, err, 1e-9);
    CHECK_NEAR(v.faithful_worst, err, 1e-9);
    CHECK(err > 3 * GB_FAITHFUL_LAMBDA);
    if (!CHECK(!strcmp(v.faithful, "faithful")))
        printf("    the honest error itself judged '%s'\n", v.faithful);
    CHECK_NEAR(gb_faithful_ratio(&v), 1.0, 1e-9);
    /* An exact sum (the small terms first) is faithful too; 9 times the honest error is not. */
    c[1] = cref[1];
    gb__faithful(&p, a, b, c0, cref, gauge, c, &v);
    CHECK(!strcmp(v.faithful, "faithful"));
    c[1] = cref[1] - (1 + GB_FAITHFUL_LAMBDA) * err * u * gauge[1];
    gb__faithful(&p, a, b, c0, cref, gauge, c, &v);
    CHECK(!strcmp(v.faithful, "not faithful"));
    CHECK_NEAR(gb_faithful_ratio(&v), 1 + GB_FAITHFUL_LAMBDA, 1e-6);
}

/* A NaN canary must stay that NaN; a different value (or a different NaN) is a touch. */
static void test_nan_canary(void)
{
    fixture_t f;
    gb_validation_t v;
    const double canary = (double)NAN;
    if (fixture_init(&f, GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1.0, 0.0, canary)) {
        gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
        CHECK(v.passed && v.n_canary == 0);
        f.c[f.p.off_c + N] = -(double)NAN;
        gb__validate(&f.p, 0, f.cref, f.gauge, f.c, f.ec, canary, &v);
        CHECK(!v.passed && v.n_canary == 1);
    }
    fixture_free(&f);
}

/* Zero gauge (all-zero inputs, beta 0): any difference is over the bound. */
static void test_zero_gauge(void)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_D, 1, 1, 1);
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    double cref = 0.0, gauge = 0.0, c = 0.0;
    gb_validation_t v;
    gb__validate(&p, 0, &cref, &gauge, &c, 1, -1.0, &v);
    CHECK(v.passed);
    c = 1e-300;
    gb__validate(&p, 0, &cref, &gauge, &c, 1, -1.0, &v);
    CHECK(!v.passed && v.n_over == 1 && isinf(v.max_ratio));
}

/* A non-finite result is never agreement, not even where the reference is not finite either
 * (data that overflow, which gb_problem_check_data refuses before a run): Inf against Inf, NaN
 * against NaN (an unwritten element against an overflowed reference), a finite result against
 * an infinite reference, and a finite reference whose gauge overflowed. */
static void test_nonfinite_reference(void)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_S, 1, 4, 1);
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    const double inf = (double)INFINITY, nan = (double)NAN;
    double cref[4] = {inf, nan, -inf, 2.0}, gauge[4] = {inf, inf, inf, inf};
    double c[4] = {inf, nan, -inf, 2.0};
    gb_validation_t v;
    gb__validate(&p, 0, cref, gauge, c, 4, -1.0, &v);
    CHECK(v.done && !v.passed);
    CHECK(v.n_nonfinite == 4);
    CHECK_HAS(v.reason, "where the reference overflowed");
    CHECK_HAS(v.reason, "never a match");
    CHECK(isinf(v.max_ratio));
    /* One element at a time. */
    for (int i = 0; i < 4; i++) {
        double r1[4] = {1, 1, 1, 1}, g1[4] = {1, 1, 1, 1}, c1[4] = {1, 1, 1, 1};
        r1[i] = cref[i];
        g1[i] = gauge[i];
        c1[i] = c[i];
        gb__validate(&p, 0, r1, g1, c1, 4, -1.0, &v);
        CHECK(!v.passed && v.n_nonfinite == 1 && v.worst_i == 0 && v.worst_j == (size_t)i);
        gb__validate(&p, 1, r1, g1, c1, 4, -1.0, &v); /* exact mode alike */
        CHECK(!v.passed && v.n_nonfinite == 1);
    }
    /* Inf from the device where the reference is finite: a failure that is not the data's. */
    double r2[4] = {1, 1, 1, 1}, g2[4] = {1, 1, 1, 1}, c2[4] = {1, inf, 1, 1};
    gb__validate(&p, 0, r2, g2, c2, 4, -1.0, &v);
    CHECK(!v.passed && v.n_nonfinite == 1 && v.worst_j == 1);
    CHECK(strstr(v.reason, "reference") == NULL);
    CHECK_HAS(v.reason, "1 elements NaN/Inf");
}

/* gb__bound_of for a problem of prec with K = 100 and alpha 2. */
static double bound_of(gb_precision_t prec, double g, double ref, double gauge)
{
    gb_problem_t p;
    gb_problem_init(&p, prec, 1, 3, 100);
    p.alpha = 2.0;
    return gb__bound_of(&p, g, ref, gauge);
}

/* FP16 and bfloat16: the bound adds the output's rounding to the FP32 sum's gamma; integer data
 * are exact while the result fits the format's digits. */
static void test_half_bound(void)
{
    const double g = 0.001, us = 0x1.0p-11;
    CHECK(bound_of(GB_PREC_S, g, 3.0, 10.0) == g * 10.0);
    CHECK(bound_of(GB_PREC_H, g, -3.0, 10.0) == (1 + us) * g * 10.0 + us * 3.0 + 0x1.0p-25);
    CHECK(bound_of(GB_PREC_B, g, 3.0, 10.0) ==
          (1 + 0x1.0p-8) * g * 10.0 + 0x1.0p-8 * 3.0 + 0x1.0p-134);
    /* hh: also what K + 2 sums below FP16's normal range may lose, times |alpha|. */
    CHECK(bound_of(GB_PREC_HH, g, -3.0, 10.0) ==
          (1 + us) * g * 10.0 + (1 + us) * (102 * 0x1.0p-25 * 2.0) + us * 3.0 + 0x1.0p-25);
    /* hh's factor is FP16's gamma; its honest sums are rounded to FP16 at each step: 1 plus
     * twice 0.375 of FP16's spacing at 1 stays 1 there, where a sum in FP32 rounds to 1 + 2^-10. */
    gb_problem_t ph;
    gb_problem_init(&ph, GB_PREC_HH, 1, 1, 3);
    CHECK(gb__bound_factor(&ph) == gb__gamma(5, 0x1.0p-11) + gb__gamma(5, 0x1.0p-53));
    const double arow[3] = {1.0, 0x1.8p-12, 0x1.8p-12}, bcol[3] = {1.0, 1.0, 1.0};
    CHECK(gb__element_honest(&ph, arow, bcol, 0.0) == 1.0);
    ph.precision = GB_PREC_H;
    CHECK(gb__element_honest(&ph, arow, bcol, 0.0) == 1.0 + 0x1.0p-10);

    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_H, 1, 3, 100);
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    /* The factor is FP32's gamma, not FP16's. */
    CHECK(gb__bound_factor(&p) == gb__gamma(102, 0x1.0p-24) + gb__gamma(102, 0x1.0p-53));
    const double fg = gb__bound_factor(&p);
    double ref[3] = {1.5, -0.75, 0.0}, gauge[3] = {40, 30, 1e-9}, c[3];
    for (int i = 0; i < 3; i++)
        c[i] = ref[i] + (i == 1 ? -0.99 : 0.99) * gb__bound_of(&p, fg, ref[i], gauge[i]);
    gb_validation_t v;
    gb__validate(&p, 0, ref, gauge, c, 3, -1.0, &v);
    CHECK(v.passed);
    /* In units of FP16's u: 1 (the output's rounding) plus about 102 u_32 / u_16. */
    CHECK(v.bound_ratio > 1.012 && v.bound_ratio < 1.013);
    c[0] = ref[0] + 1.01 * gb__bound_of(&p, fg, ref[0], gauge[0]);
    gb__validate(&p, 0, ref, gauge, c, 3, -1.0, &v);
    CHECK(!v.passed && v.n_over == 1);
    /* An element near 0: half FP16's smallest subnormal is allowed, not more. */
    c[0] = ref[0];
    c[2] = 0x1.0p-24;
    gb__validate(&p, 0, ref, gauge, c, 3, -1.0, &v);
    CHECK(!v.passed && v.n_over == 1 && v.worst_j == 2);

    gb_dist_t d = {GB_DIST_INT, 0, 0, 2};
    CHECK(gb__exact_possible(&p, &d)); /* 100 * 4 <= 2^11 */
    p.k = 600;
    CHECK(!gb__exact_possible(&p, &d)); /* 2400 */
    p.precision = GB_PREC_B;
    p.k = 64;
    CHECK(gb__exact_possible(&p, &d)); /* 256 <= 2^8 */
    p.k = 65;
    CHECK(!gb__exact_possible(&p, &d));
}

/* The faithful verdict in FP16 and bfloat16, on a 6 x 5 x 512 product of uniform data: a result
 * summed in FP32 in any order and rounded once is faithful, one summed in the storage format is
 * not (nor within the bound). */
static void faithful_half(gb_precision_t prec)
{
    enum { FM = 6, FN = 5, FK = 512 };
    gb_problem_t p;
    gb_problem_init(&p, prec, FM, FN, FK);
    p.beta = 0.5;
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    static double a[FM * FK], b[FK * FN], c0[FM * FN], cref[FM * FN], gauge[FM * FN];
    static double good[FM * FN], bad[FM * FN];
    const gb_dist_t uni = {GB_DIST_UNIFORM, -1.0, 1.0, 0};
    gb_rng_t rng;
    gb__rng_seed(&rng, 7);
    gb__matrix_generate(a, FM * FK, GB_ROW_MAJOR, FK, 0, FM, FK, &uni, prec, &rng, 0.0);
    gb__matrix_generate(b, FK * FN, GB_ROW_MAJOR, FN, 0, FK, FN, &uni, prec, &rng, 0.0);
    gb__matrix_generate(c0, FM * FN, GB_ROW_MAJOR, FN, 0, FM, FN, &uni, prec, &rng, 0.0);
    CHECK(gb__reference(&p, a, b, c0, FM * FK, FK * FN, FM * FN, cref, gauge) == GB_OK);
    for (size_t i = 0; i < FM; i++)
        for (size_t j = 0; j < FN; j++) {
            float up = 0.0f, narrow = 0.0f;
            for (size_t l = FK; l-- > 0;) /* backwards: another order than the honest one */
                up = fmaf((float)a[i * FK + l], (float)b[l * FN + j], up);
            for (size_t l = 0; l < FK; l++)
                narrow = (float)gb__round_to(
                    prec, (double)fmaf((float)a[i * FK + l], (float)b[l * FN + j], narrow));
            const float cj = 0.5f * (float)c0[i * FN + j];
            good[i * FN + j] = gb__round_to(prec, (double)(up + cj));
            bad[i * FN + j] = gb__round_to(prec, (double)(narrow + cj));
        }
    gb_validation_t v;
    gb__validate(&p, 0, cref, gauge, good, FM * FN, -1.0, &v);
    gb__faithful(&p, a, b, c0, cref, gauge, good, &v);
    CHECK(v.passed && !strcmp(v.faithful, "faithful"));
    gb__validate(&p, 0, cref, gauge, bad, FM * FN, -1.0, &v);
    gb__faithful(&p, a, b, c0, cref, gauge, bad, &v);
    CHECK(!v.passed && !strcmp(v.faithful, "not faithful") && gb_faithful_ratio(&v) > 100);
    printf("%s: summed in the format: %.0fx FP32, %s\n", gb_precision_name(prec),
           gb_faithful_ratio(&v), v.reason);
}

int main(void)
{
    test_roundoff_gamma();
    test_half_bound();
    faithful_half(GB_PREC_H);
    faithful_half(GB_PREC_B);
    test_exact_possible();
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 4; t++)
            faithful_case(l ? GB_COL_MAJOR : GB_ROW_MAJOR, t & 1 ? GB_TRANS : GB_NOTRANS,
                          t & 2 ? GB_TRANS : GB_NOTRANS, t == 3 ? 0.0 : 3.0);
    validate_case(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS, 1.0, 0.0);
    validate_case(GB_COL_MAJOR, GB_NOTRANS, GB_NOTRANS, 1.0, 0.0);
    validate_case(GB_ROW_MAJOR, GB_TRANS, GB_NOTRANS, 2.0, -1.0);
    validate_case(GB_COL_MAJOR, GB_NOTRANS, GB_TRANS, -1.0, 3.0);
    validate_case(GB_COL_MAJOR, GB_TRANS, GB_TRANS, 1.0, 1.0);
    test_faithful_honest_error();
    test_nan_canary();
    test_zero_gauge();
    test_nonfinite_reference();
    test_outcome();
    return unit_finish();
}
