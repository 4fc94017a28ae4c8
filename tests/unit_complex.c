/* unit_complex.c: the complex precisions c and z without a device: names, parsing and the
 * problem's refusals (C transposition and imaginary alpha or beta with a real precision), the
 * 8 M N K count, the bound's constants, the double reference and the element helpers on a
 * hand-computed case at N, T and C transpositions, and the verdicts on results that drop the
 * imaginary cross terms or conjugate the wrong operand. */
#include "unit.h"

#include "harness/validate/validate.h"
#include "rt/core/core.h"

static int near(double x, double y)
{
    return fabs(x - y) <= 1e-12 * (1.0 + fabs(y));
}

static void test_names(void)
{
    gb_precision_t p;
    CHECK(gb_precision_parse("c", &p) == GB_OK && p == GB_PREC_C);
    CHECK(gb_precision_parse("complex64", &p) == GB_OK && p == GB_PREC_C);
    CHECK(gb_precision_parse("z", &p) == GB_OK && p == GB_PREC_Z);
    CHECK(!strcmp(gb_precision_name(GB_PREC_C), "c") && !strcmp(gb_precision_name(GB_PREC_Z), "z"));
    CHECK(gb_precision_bytes(GB_PREC_C) == 8 && gb_precision_bytes(GB_PREC_Z) == 16);
    CHECK(gb_precision_parts(GB_PREC_C) == 2 && gb_precision_parts(GB_PREC_S) == 1);
    CHECK(gb_precision_arith(GB_PREC_C) == GB_PREC_S && gb_precision_arith(GB_PREC_Z) == GB_PREC_D);
    CHECK(gb__unit_roundoff(GB_PREC_C) == 0x1.0p-24 && gb__unit_roundoff(GB_PREC_Z) == 0x1.0p-53);
    gb_trans_t t;
    int conj;
    CHECK(gb_op_parse("C", &t, &conj) == GB_OK && t == GB_TRANS && conj);
    CHECK(gb_op_parse("T", &t, &conj) == GB_OK && t == GB_TRANS && !conj);
    CHECK(gb_op_parse("n", &t, &conj) == GB_OK && t == GB_NOTRANS && !conj);
    CHECK(gb_op_parse("X", &t, &conj) == GB_EBADTRANS);
    char opt[64];
    CHECK(!strcmp(gb__precision_options(GB_PREC_C, opt, sizeof opt),
                  "-DGB_PRECISION=32 -DGB_COMPLEX=1"));
    CHECK(!strcmp(gb__precision_options(GB_PREC_Z, opt, sizeof opt),
                  "-DGB_PRECISION=64 -DGB_COMPLEX=1"));
}

static void test_problem(void)
{
    gb_problem_t p;
    char msg[256], tag[16];
    gb_problem_init(&p, GB_PREC_S, 4, 5, 6);
    p.trans_a = GB_TRANS;
    p.conj_a = 1;
    CHECK(gb_problem_check(&p, msg, sizeof msg) == GB_EBADTRANS);
    CHECK(strstr(msg, "use T") != NULL);
    p.conj_a = 0;
    p.alpha_im = 1.0;
    CHECK(gb_problem_check(&p, msg, sizeof msg) == GB_EBADSCALAR);
    p.precision = GB_PREC_C;
    p.conj_a = 1;
    p.trans_b = GB_TRANS;
    CHECK(gb_problem_check(&p, msg, sizeof msg) == GB_OK);
    CHECK(!strcmp(gb_problem_layout_tag(&p, tag, sizeof tag), "row-CT"));
    CHECK(gb_problem_flops(&p) == 8.0 * 4 * 5 * 6);
    p.precision = GB_PREC_D;
    p.alpha_im = 0.0;
    p.conj_a = 0;
    CHECK(gb_problem_flops(&p) == 2.0 * 4 * 5 * 6);
}

static void test_bound_constants(void)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_C, 3, 3, 5);
    const double us = 0x1.0p-24, ud = 0x1.0p-53;
    /* sqrt(2) gamma_{2K+5} for the device and for the double reference: 2K + 5 = 15. */
    const double gs = 15 * us / (1 - 15 * us), gd = 15 * ud / (1 - 15 * ud);
    CHECK(near(gb__bound_factor(&p), sqrt(2.0) * (gs + gd)));
    p.precision = GB_PREC_Z;
    CHECK(near(gb__bound_factor(&p), sqrt(2.0) * 2.0 * gd));
    gb_problem_t pc;
    gb_problem_init(&pc, GB_PREC_C, 2, 2, 2);
    CHECK(gb__bound_of(&pc, 0.5, 3.0, 10.0) == 5.0);
}

/* A = [1+2i, 3-i] (1 x 2), B = [2-i; 1+i] (2 x 1), C0 = 1+i, alpha 2+i, beta 1-i:
 * A B = (4+3i) + (4+2i) = 8+5i; alpha (8+5i) = 11+18i; beta C0 = 2; C = 13+18i.
 * A^H stored (A as 2 x 1): conj(1+2i)(2-i) + conj(3-i)(1+i) = -5i + (2+4i) = 2-i.
 * B^H stored (B as 1 x 2): (1+2i) conj(2-i) + (3-i) conj(1+i) = 5i + (2-4i) = 2+i.
 * G = |alpha| (|1+2i||2-i| + |3-i||1+i|) + |beta||C0| = sqrt5 (5 + sqrt20) + 2 = 12 + 5 sqrt5. */
static const double A[4] = {1, 2, 3, -1}, B[4] = {2, -1, 1, 1}, C0[2] = {1, 1};

static void reference_case(gb_trans_t ta, int ca, gb_trans_t tb, int cb, double ar, double ai,
                           double br, double bi, double want_re, double want_im, double want_g)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_Z, 1, 1, 2);
    p.trans_a = ta;
    p.conj_a = ca;
    p.trans_b = tb;
    p.conj_b = cb;
    p.alpha = ar;
    p.alpha_im = ai;
    p.beta = br;
    p.beta_im = bi;
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    double cref[2], gauge[1];
    CHECK(gb__reference(&p, A, B, C0, 2, 2, 1, cref, gauge) == GB_OK);
    CHECK(near(cref[0], want_re) && near(cref[1], want_im));
    CHECK(near(gauge[0], want_g));
    /* The element helpers gather op(A)'s row and op(B)'s column as stored. */
    double row[4], col[4], ref[2], g, h[2];
    for (size_t l = 0; l < 2; l++) {
        const size_t ia = gb__at_a(&p, 0, l), ib = gb__at_b(&p, l, 0);
        row[2 * l] = A[2 * ia];
        row[2 * l + 1] = A[2 * ia + 1];
        col[2 * l] = B[2 * ib];
        col[2 * l + 1] = B[2 * ib + 1];
    }
    gb__element_reference_complex(&p, row, col, C0, ref, &g);
    CHECK(near(ref[0], want_re) && near(ref[1], want_im) && near(g, want_g));
    gb__element_honest_complex(&p, row, col, C0, h); /* exact on these integers */
    CHECK(h[0] == want_re && h[1] == want_im);
    p.precision = GB_PREC_C;
    gb__element_honest_complex(&p, row, col, C0, h);
    CHECK(h[0] == want_re && h[1] == want_im);
}

static void test_reference(void)
{
    const double g = 12.0 + 5.0 * sqrt(5.0);
    reference_case(GB_NOTRANS, 0, GB_NOTRANS, 0, 2, 1, 1, -1, 13, 18, g);
    reference_case(GB_NOTRANS, 0, GB_NOTRANS, 0, 1, 0, 0, 0, 8, 5, 5 + sqrt(20.0));
    reference_case(GB_TRANS, 1, GB_NOTRANS, 0, 1, 0, 0, 0, 2, -1, 5 + sqrt(20.0));
    reference_case(GB_NOTRANS, 0, GB_TRANS, 1, 1, 0, 0, 0, 2, 1, 5 + sqrt(20.0));
    /* T without conjugation is the plain product of the same stored values. */
    reference_case(GB_TRANS, 0, GB_TRANS, 0, 1, 0, 0, 0, 8, 5, 5 + sqrt(20.0));
}

/* A c problem of uniform data judged three ways: an honest FP32 result passes, one that
 * multiplies parts element-wise (the cross terms dropped) and one that conjugates B where A
 * was asked fail the bound. */
static void test_wrong_results(void)
{
    gb_problem_t p;
    gb_problem_init(&p, GB_PREC_C, 6, 7, 40);
    p.trans_a = GB_TRANS;
    p.conj_a = 1;
    p.alpha_im = 0.5;
    p.beta = 1.0;
    CHECK(gb_problem_check(&p, NULL, 0) == GB_OK);
    size_t ea, eb, ec;
    gb_problem_buffer_elems(&p, &ea, &eb, &ec);
    gb_dist_t d = {GB_DIST_UNIFORM, -1, 1, 0};
    gb_rng_t rng;
    gb__rng_seed(&rng, 7);
    double *a = malloc(2 * ea * sizeof *a), *b = malloc(2 * eb * sizeof *b);
    double *c0 = malloc(2 * ec * sizeof *c0), *cref = malloc(2 * ec * sizeof *cref);
    double *gauge = malloc(ec * sizeof *gauge), *got = malloc(2 * ec * sizeof *got);
    size_t r, c;
    gb__stored_a(&p, &r, &c);
    gb__matrix_generate(a, ea, p.layout, p.lda, p.off_a, r, c, &d, p.precision, &rng, 0.0);
    gb__stored_b(&p, &r, &c);
    gb__matrix_generate(b, eb, p.layout, p.ldb, p.off_b, r, c, &d, p.precision, &rng, 0.0);
    gb__matrix_generate(c0, ec, p.layout, p.ldc, p.off_c, p.m, p.n, &d, p.precision, &rng, 0.0);
    CHECK(a[1] != 0.0 && a[1] == (double)(float)a[1]); /* imaginary parts drawn, in single */
    CHECK(gb__reference(&p, a, b, c0, ea, eb, ec, cref, gauge) == GB_OK);
    double row[80], col[80];
    for (int way = 0; way < 3; way++) {
        gb_problem_t q = p;
        if (way == 2) { /* conjugates B instead of A */
            q.conj_a = 0;
            q.conj_b = 1;
        }
        for (size_t i = 0; i < p.m; i++)
            for (size_t j = 0; j < p.n; j++) {
                for (size_t l = 0; l < p.k; l++) {
                    const size_t ia = gb__at_a(&p, i, l), ib = gb__at_b(&p, l, j);
                    row[2 * l] = a[2 * ia];
                    row[2 * l + 1] = a[2 * ia + 1];
                    col[2 * l] = b[2 * ib];
                    col[2 * l + 1] = b[2 * ib + 1];
                }
                const size_t at = gb__at_c(&p, i, j);
                if (way == 1) { /* (ar br, ai bi) summed: no cross terms, alpha, beta real */
                    double re = 0, im = 0;
                    for (size_t l = 0; l < p.k; l++) {
                        re += row[2 * l] * col[2 * l];
                        im += -row[2 * l + 1] * col[2 * l + 1];
                    }
                    got[2 * at] = p.alpha * re + c0[2 * at];
                    got[2 * at + 1] = p.alpha * im + c0[2 * at + 1];
                } else {
                    gb__element_honest_complex(&q, row, col, c0 + 2 * at, got + 2 * at);
                }
            }
        gb_validation_t v;
        gb__validate(&p, 0, cref, gauge, got, ec, 0.0, &v);
        gb__faithful(&p, a, b, c0, cref, gauge, got, &v);
        if (way == 0) {
            CHECK(v.passed);
            CHECK(!strcmp(v.faithful, "faithful"));
        } else {
            CHECK(!v.passed && v.n_over > 0);
            CHECK(gb_validation_outcome(&v, 0, GB_VERDICT_FAITHFUL) == GB_OUTCOME_FAIL);
        }
    }
    free(a);
    free(b);
    free(c0);
    free(cref);
    free(gauge);
    free(got);
}

int main(void)
{
    test_names();
    test_problem();
    test_bound_constants();
    test_reference();
    test_wrong_results();
    return unit_finish();
}
