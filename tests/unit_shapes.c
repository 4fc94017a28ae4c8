/* unit_shapes.c: shape classes, the tuning database's keys: each kind at and past its boundary,
 * the size rounding, and the distance between shapes. */
#include "gemmbench_tuning.h"
#include "unit.h"

static void check_class(size_t m, size_t n, size_t k, const char *want)
{
    char buf[64];
    gb_shape_class(m, n, k, buf, sizeof buf);
    if (!CHECK(!strcmp(buf, want)))
        printf("  %zux%zux%zu: got %s, want %s\n", m, n, k, buf, want);
}

int main(void)
{
    /* The plan tune-shapes: a shape of each kind. */
    check_class(64, 64, 65536, "large-k-64");
    check_class(256, 256, 16384, "large-k-256");
    check_class(1024, 1024, 32768, "large-k-1024");
    check_class(4096, 4096, 64, "low-k-64");
    check_class(8192, 8192, 256, "low-k-256");
    check_class(8192, 256, 4096, "tall-256");
    check_class(16384, 1024, 1024, "tall-1024");
    check_class(256, 8192, 4096, "wide-256");
    check_class(1024, 16384, 1024, "wide-1024");
    check_class(128, 128, 128, "small-128");
    check_class(2048, 1024, 4096, "square-2048");
    check_class(1000, 1000, 1000, "square-1024");
    /* Boundaries: small up to 384^3; large-k from K = 8 max(M, N) (before small); low-k needs
     * K <= 256 and M N >= 1024^2; tall and wide from a ratio of 4. */
    check_class(384, 384, 384, "small-512");
    check_class(385, 384, 384, "square-512");
    check_class(16, 16, 128, "large-k-16");
    check_class(16, 16, 127, "small-32");
    /* A C of at most 16 rows or columns is wide or tall whatever its work (GEMV at 1). */
    check_class(1, 4096, 4096, "wide-1");
    check_class(4096, 1, 4096, "tall-1");
    check_class(16, 1024, 1024, "wide-16");
    check_class(8, 64, 64, "wide-8");
    check_class(17, 1024, 1024, "small-256");
    check_class(1024, 1024, 256, "low-k-256");
    check_class(1024, 1024, 257, "square-512");
    check_class(1024, 1023, 256, "square-512");
    check_class(4096, 1024, 1024, "tall-1024");
    check_class(4095, 1024, 1024, "square-2048");
    check_class(1024, 4096, 1024, "wide-1024");
    /* Shapes one class held before the size followed the kind's own dimension: large K over
     * 4 and 16 tiles, tall over 64 and 128 columns, low K of 64 and 128. */
    check_class(512, 512, 32768, "large-k-512");
    check_class(256, 256, 65536, "large-k-256");
    check_class(1024, 1024, 16384, "large-k-1024");
    check_class(16384, 64, 4096, "tall-64");
    check_class(8192, 128, 8192, "tall-128");
    check_class(128, 8192, 8192, "wide-128");
    check_class(8192, 8192, 64, "low-k-64");
    check_class(8192, 8192, 128, "low-k-128");
    /* The size is the power of two nearest the geometric mean, by the ratio. */
    CHECK(gb_shape_size(1, 1, 1) == 1);
    CHECK(gb_shape_size(2, 2, 2) == 2);
    CHECK(gb_shape_size(724, 724, 724) == 512);
    CHECK(gb_shape_size(725, 725, 725) == 1024);
    CHECK(gb_shape_size(1u << 20, 1u << 20, 1u << 20) == 1u << 20);
    /* Distance: zero to itself, symmetric, one per doubling of one dimension. */
    const size_t a[3] = {1024, 1024, 1024}, b[3] = {2048, 1024, 1024}, c[3] = {2048, 2048, 2048};
    CHECK(gb_shape_distance(a, a) == 0);
    CHECK(fabs(gb_shape_distance(a, b) - 1) < 1e-12);
    CHECK(gb_shape_distance(a, c) == gb_shape_distance(c, a));
    CHECK(fabs(gb_shape_distance(a, c) - sqrt(3)) < 1e-12);
    CHECK(gb_shape_distance(a, b) < gb_shape_distance(a, c));
    return unit_finish();
}
