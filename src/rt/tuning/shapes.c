/* shapes.c: shape classes, the keys of the tuning database (docs/tuning.md, "Shape classes"):
 * what a GEMM's M, N and K say about the kernel that suits it. A class is a kind and a size:
 *   small     M N K <= 384^3 (the work is too small to fill a device; one launch matters)
 *   large-k   K >= 8 max(M, N): few outputs, long dot products (split-K territory)
 *   low-k     K <= 256 and M N >= 1024^2: many outputs, short dot products
 *   tall      M >= 4 N; wide: N >= 4 M (one dimension much smaller, whatever its size)
 *   square    everything else
 * in the order large-k, then tall or wide where the small side is at most 16 (a C of a few rows
 * or columns, as in decoding a few tokens, GEMV at 1, is streamed, not tiled like a small cube,
 * whatever its work), then small, low-k, tall or wide, square.
 * and a size, the power of two nearest the dimension that makes the kind: the output's side
 * (M N)^(1/2) for large-k (how many tiles there are to share K among), K for low-k, the small
 * side for tall (N) and wide (M), and the geometric mean (M N K)^(1/3) for small and square:
 * "square-4096", "tall-128", "large-k-256". Two shapes are near when their logarithms are. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemmbench_tuning.h"

const char *gb_shape_kind(size_t m, size_t n, size_t k)
{
    const double mnk = (double)m * (double)n * (double)k;
    const size_t mn_max = m > n ? m : n, mn_min = m < n ? m : n;
    if (k >= 8 * mn_max)
        return "large-k";
    if (mn_min <= 16 && mn_max >= 4 * mn_min)
        return m > n ? "tall" : "wide";
    if (mnk <= 384.0 * 384.0 * 384.0)
        return "small";
    if (k <= 256 && (double)m * (double)n >= 1024.0 * 1024.0)
        return "low-k";
    if (m >= 4 * n)
        return "tall";
    if (n >= 4 * m)
        return "wide";
    return "square";
}

/* The power of two nearest g, by the ratio. */
static size_t nearest_pow2(double g)
{
    size_t p = 1;
    while (p < ((size_t)1 << 40) && (double)p * 1.41421356237 < g)
        p *= 2;
    return p;
}

size_t gb_shape_size(size_t m, size_t n, size_t k)
{
    return nearest_pow2(cbrt((double)m * (double)n * (double)k));
}

const char *gb_shape_class(size_t m, size_t n, size_t k, char *buf, size_t len)
{
    const char *kind = gb_shape_kind(m, n, k);
    size_t size;
    if (!strcmp(kind, "large-k"))
        size = nearest_pow2(sqrt((double)m * (double)n));
    else if (!strcmp(kind, "low-k"))
        size = nearest_pow2((double)k);
    else if (!strcmp(kind, "tall"))
        size = nearest_pow2((double)n);
    else if (!strcmp(kind, "wide"))
        size = nearest_pow2((double)m);
    else
        size = gb_shape_size(m, n, k);
    snprintf(buf, len, "%s-%zu", kind, size);
    return buf;
}

double gb_shape_distance(const size_t a[3], const size_t b[3])
{
    double d = 0;
    for (int i = 0; i < 3; i++) {
        const double x = log2((double)a[i]) - log2((double)b[i]);
        d += x * x;
    }
    return sqrt(d);
}
