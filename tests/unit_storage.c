/* unit_storage.c: the storage formats of src/rt/core/storage.c and the precisions that use them:
 * rounding to FP16 and bfloat16 (to nearest with ties to even, subnormals, overflow to infinity)
 * checked at chosen values and against every bit pattern; the facts the validation takes from
 * them (unit roundoff, the output rounding, the largest value); the names, sizes and build
 * options of h and b; and the overflow refusal in their ranges. */
#include "unit.h"

#include <stdint.h>

#include "rt/core/core.h"

#define CHECK_H(x, bits) check_bits(gb__fp16_bits(x), (bits), (x), "fp16", __LINE__)
#define CHECK_B(x, bits) check_bits(gb__bf16_bits(x), (bits), (x), "bf16", __LINE__)
static void check_bits(uint16_t got, uint16_t want, double x, const char *what, int line)
{
    if (!CHECK(got == want))
        printf("    line %d: %s(%a) = 0x%04x, want 0x%04x\n", line, what, x, got, want);
}

static void test_fp16(void)
{
    CHECK_H(0.0, 0x0000);
    CHECK_H(-0.0, 0x8000);
    CHECK_H(1.0, 0x3c00);
    CHECK_H(-2.0, 0xc000);
    CHECK_H(0.1, 0x2e66); /* 0.0999755859375 */
    /* Ties between 1 and 1 + 2^-10 go to the even one; a hair over goes up. */
    CHECK_H(1.0 + 0x1.0p-11, 0x3c00);
    CHECK_H(1.0 + 3 * 0x1.0p-11, 0x3c02);
    CHECK_H(1.0 + 0x1.0p-11 + 0x1.0p-30, 0x3c01);
    CHECK_H(1.0 + 0x1.0p-11 - 0x1.0p-30, 0x3c00);
    /* The top: 65504 is the largest; 65519.99 rounds to it, the tie 65520 to even, which is
     * 65536: infinity. */
    CHECK_H(65504.0, 0x7bff);
    CHECK_H(65519.99, 0x7bff);
    CHECK_H(65520.0, 0x7c00);
    CHECK_H(-65520.0, 0xfc00);
    CHECK_H(1e10, 0x7c00);
    CHECK_H(HUGE_VAL, 0x7c00);
    CHECK(isnan(gb__fp16_value(gb__fp16_bits((double)NAN))));
    /* Subnormals: multiples of 2^-24, ties to even, down to zero. */
    CHECK_H(0x1.0p-14, 0x0400);
    CHECK_H(0x1.0p-14 - 0x1.0p-24, 0x03ff);
    CHECK_H(0x1.0p-24, 0x0001);
    CHECK_H(0x1.0p-25, 0x0000);
    CHECK_H(0x1.0p-25 + 0x1.0p-40, 0x0001);
    CHECK_H(3 * 0x1.0p-25, 0x0002);
    CHECK_H(-5 * 0x1.0p-25, 0x8002);
    CHECK_H(0x1.0p-30, 0x0000);
    CHECK(gb__fp16_value(0x0001) == 0x1.0p-24 && gb__fp16_value(0x7bff) == 65504.0);
    CHECK(isinf(gb__fp16_value(0xfc00)) && gb__fp16_value(0xfc00) < 0);
}

static void test_bf16(void)
{
    CHECK_B(1.0, 0x3f80);
    CHECK_B(-1.0, 0xbf80);
    CHECK_B(0.1, 0x3dcd); /* 0.10009765625 */
    CHECK_B(1.0 + 0x1.0p-8, 0x3f80);
    CHECK_B(1.0 + 3 * 0x1.0p-8, 0x3f82);
    CHECK_B(1.0 + 0x1.0p-8 + 0x1.0p-40, 0x3f81);
    CHECK_B(0x1.fep127, 0x7f7f);
    CHECK_B(0x1.ffp127, 0x7f80); /* the tie past the largest: infinity */
    CHECK_B(0x1.fefp127, 0x7f7f);
    CHECK_B(-1e39, 0xff80);
    CHECK_B(0x1.0p-126, 0x0080);
    CHECK_B(0x1.0p-133, 0x0001);
    CHECK_B(0x1.0p-134, 0x0000);
    CHECK_B(3 * 0x1.0p-134, 0x0002);
    CHECK_B(0x1.0p-134 + 0x1.0p-150, 0x0001);
    const uint16_t nan = gb__bf16_bits((double)NAN);
    CHECK((nan & 0x7f80u) == 0x7f80u && (nan & 0x0040u));
    CHECK(gb__bf16_value(0x3f80) == 1.0 && gb__bf16_value(0x0001) == 0x1.0p-133);
}

/* Every finite pattern is its value's pattern, and gb__round_to gives the same values. */
static void test_every_pattern(void)
{
    size_t bad_h = 0, bad_b = 0;
    for (uint32_t i = 0; i < 0x10000u; i++) {
        const uint16_t b = (uint16_t)i;
        const double h = gb__fp16_value(b), f = gb__bf16_value(b);
        if (!isnan(h))
            bad_h += gb__fp16_bits(h) != b || gb__round_to(GB_PREC_H, h) != h;
        if (!isnan(f))
            bad_b += gb__bf16_bits(f) != b || gb__round_to(GB_PREC_B, f) != f;
        /* Half-way to the next pattern up (same sign, finite): a tie, to the even of the two. */
        const uint16_t up = (uint16_t)(b + 1);
        if ((b & 0x7c00u) != 0x7c00u && (up & 0x7c00u) != 0x7c00u && (b & 0x7fffu) != 0x7fffu) {
            const double mid = (h + gb__fp16_value(up)) / 2;
            bad_h += gb__fp16_bits(mid) != (b & 1u ? up : b);
        }
    }
    CHECK(bad_h == 0);
    CHECK(bad_b == 0);
    if (bad_h || bad_b)
        printf("    %zu FP16 and %zu bfloat16 patterns wrong\n", bad_h, bad_b);
}

static void test_facts(void)
{
    CHECK(gb__unit_roundoff(GB_PREC_H) == 0x1.0p-11 && gb__unit_roundoff(GB_PREC_B) == 0x1.0p-8);
    CHECK(gb__arith_roundoff(GB_PREC_H) == 0x1.0p-24 && gb__arith_roundoff(GB_PREC_B) == 0x1.0p-24);
    CHECK(gb__arith_roundoff(GB_PREC_D) == 0x1.0p-53);
    CHECK(gb__storage_max(GB_PREC_H) == 65504.0 && gb__storage_max(GB_PREC_B) == 0x1.fep127);
    /* Half the spacing of y's binade; below the normal range, of the subnormals. */
    CHECK(gb__output_rounding(GB_PREC_H, 1.0) == 0x1.0p-11);
    CHECK(gb__output_rounding(GB_PREC_H, -1.99) == 0x1.0p-11);
    CHECK(gb__output_rounding(GB_PREC_H, 1024.0) == 0.5);
    CHECK(gb__output_rounding(GB_PREC_H, 0x1.0p-20) == 0x1.0p-25);
    CHECK(gb__output_rounding(GB_PREC_H, 0.0) == 0x1.0p-25);
    CHECK(gb__output_rounding(GB_PREC_B, 1.0) == 0x1.0p-8);
    CHECK(gb__output_rounding(GB_PREC_B, 0.0) == 0x1.0p-134);
    CHECK(gb__output_rounding(GB_PREC_S, 1.0) == 0.0 && gb__output_rounding(GB_PREC_D, 1.0) == 0.0);
    CHECK(gb__round_to(GB_PREC_S, 0.1) == (double)0.1f);
    CHECK(gb__round_to(GB_PREC_D, 0.1) == 0.1);
}

static void test_names(void)
{
    gb_precision_t p = GB_PREC_S;
    CHECK(gb_precision_parse("h", &p) == GB_OK && p == GB_PREC_H);
    CHECK(gb_precision_parse("fp16", &p) == GB_OK && p == GB_PREC_H);
    CHECK(gb_precision_parse("half", &p) == GB_OK && p == GB_PREC_H);
    CHECK(gb_precision_parse("b", &p) == GB_OK && p == GB_PREC_B);
    CHECK(gb_precision_parse("bf16", &p) == GB_OK && p == GB_PREC_B);
    CHECK(gb_precision_parse("x", &p) == GB_EBADPRECISION);
    CHECK(!strcmp(gb_precision_name(GB_PREC_H), "h") && !strcmp(gb_precision_name(GB_PREC_B), "b"));
    CHECK(!strcmp(gb_precision_title(GB_PREC_H), "FP16"));
    CHECK(gb_precision_bytes(GB_PREC_H) == 2 && gb_precision_bytes(GB_PREC_B) == 2);
    CHECK(gb_precision_arith(GB_PREC_H) == GB_PREC_S && gb_precision_arith(GB_PREC_D) == GB_PREC_D);
    char buf[16];
    CHECK(!strcmp(gb_precision_mask_text(GB_PREC_ALL, buf, sizeof buf), "s,d,h,b,c,z"));
    CHECK(!strcmp(gb_precision_mask_text(1u << GB_PREC_B, buf, sizeof buf), "b"));
    char opt[64];
    CHECK(!strcmp(gb__precision_options(GB_PREC_S, opt, sizeof opt), "-DGB_PRECISION=32"));
    CHECK(!strcmp(gb__precision_options(GB_PREC_H, opt, sizeof opt),
                  "-DGB_PRECISION=32 -DGB_STORAGE=1"));
    CHECK(!strcmp(gb__precision_options(GB_PREC_B, opt, sizeof opt),
                  "-DGB_PRECISION=32 -DGB_STORAGE=2"));
    gb_problem_t pr;
    gb_problem_init(&pr, GB_PREC_B, 3, 4, 5);
    CHECK_RC(gb_problem_check(&pr, NULL, 0), GB_OK);
    pr.precision = (gb_precision_t)GB_PREC_COUNT;
    CHECK_RC(gb_problem_check(&pr, NULL, 0), GB_EBADPRECISION);
}

/* Buffers to the device's elements and back, and generated data already in the format. */
static void test_buffers(void)
{
    const double x[5] = {1.0, -0.5, 65504.0, 0x1.0p-24, 3.0};
    uint16_t h[5];
    double back[5];
    gb__to_storage(GB_PREC_H, x, 5, h);
    gb__from_storage(GB_PREC_H, h, 5, back);
    CHECK(h[0] == 0x3c00 && h[2] == 0x7bff && h[3] == 0x0001);
    CHECK(!memcmp(back, x, sizeof x));
    gb__to_storage(GB_PREC_B, x, 2, h);
    gb__from_storage(GB_PREC_B, h, 2, back);
    CHECK(h[0] == 0x3f80 && h[1] == 0xbf00 && back[0] == 1.0 && back[1] == -0.5);

    /* Every element the generator draws is a value of the format, whatever the distribution. */
    const gb_dist_t dists[3] = {
        {GB_DIST_UNIFORM, -3.0, 7.0, 0}, {GB_DIST_NORMAL, 0, 0, 0}, {GB_DIST_INT, 0, 0, 3000}};
    double buf[200];
    for (int p = GB_PREC_H; p <= GB_PREC_B; p++)
        for (int d = 0; d < 3; d++) {
            gb_rng_t rng;
            gb__rng_seed(&rng, 42);
            gb__matrix_generate(buf, 200, GB_ROW_MAJOR, 20, 0, 10, 20, &dists[d], (gb_precision_t)p,
                                &rng, 0.0);
            size_t off = 0, distinct = 0;
            for (size_t i = 0; i < 200; i++) {
                off += gb__round_to((gb_precision_t)p, buf[i]) != buf[i];
                distinct += i && buf[i] != buf[i - 1];
            }
            CHECK(off == 0 && distinct > 100);
        }
}

/* The overflow refusal in the storage format's range: FP16's 65504. */
static void test_range(void)
{
    char msg[512];
    gb_problem_t p;
    gb_dist_t uni = {GB_DIST_UNIFORM, -1.0, 1.0, 0};
    gb_problem_init(&p, GB_PREC_H, 64, 64, 4096);
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_OK); /* S = 4098 */
    uni.lo = -4.0;
    uni.hi = 4.0; /* S = 65544 */
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_ERANGE);
    CHECK_HAS(msg, "can reach 65544, over the 65504 FP16 precision holds");
    CHECK_HAS(msg, "or --precision s");
    p.precision = GB_PREC_B; /* bfloat16 has single's range */
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_OK);
    uni.lo = -1e18;
    uni.hi = 1e18; /* 4096e36: over single's range too, not double's */
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_ERANGE);
    CHECK_HAS(msg, "bfloat16 precision holds");
    CHECK_HAS(msg, "or --precision d");
    /* normal data reach 9.12: 83 K, within FP16 up to K = 786 */
    gb_dist_t nor = {GB_DIST_NORMAL, 0, 0, 0};
    p.precision = GB_PREC_H;
    p.k = 780;
    CHECK_RC(gb_problem_check_data(&p, &nor, msg, sizeof msg), GB_OK);
    p.k = 800;
    CHECK_RC(gb_problem_check_data(&p, &nor, msg, sizeof msg), GB_ERANGE);
    /* alpha scales the sums in FP32 before they are stored */
    uni.lo = -1.0;
    uni.hi = 1.0;
    p.k = 64;
    p.alpha = 2000.0;
    CHECK_RC(gb_problem_check_data(&p, &uni, msg, sizeof msg), GB_ERANGE);
    CHECK_HAS(msg, "use |alpha| <= ");
}

int main(void)
{
    test_fp16();
    test_bf16();
    test_every_pattern();
    test_facts();
    test_names();
    test_buffers();
    test_range();
    return unit_finish();
}
