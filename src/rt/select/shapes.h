/* shapes.h: shape classes, the keys of the tuning database (shapes.c says how they are made). */
#ifndef GB_SHAPES_H
#define GB_SHAPES_H

#include <stddef.h>

/* "small", "large-k", "low-k", "tall", "wide" or "square" (static text). */
const char *gb_shape_kind(size_t m, size_t n, size_t k);
/* The power of two nearest (M N K)^(1/3). */
size_t gb_shape_size(size_t m, size_t n, size_t k);
/* "square-4096" into buf: the kind and the size of the dimension that makes it (shapes.c). */
const char *gb_shape_class(size_t m, size_t n, size_t k, char *buf, size_t len);
/* How far apart two shapes (M, N, K) are: the distance of their base-2 logarithms. */
double gb_shape_distance(const size_t a[3], const size_t b[3]);

#endif
