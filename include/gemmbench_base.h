/* gemmbench_base.h: what both of gemmbench's public headers share: the version, the error
 * codes and their names. Included by gemmbench_blas.h (the GEMM library applications link) and
 * gemmbench.h (the benchmark harness). */
#ifndef GEMMBENCH_BASE_H
#define GEMMBENCH_BASE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Marks what the shared library exports; everything else in it is hidden. */
#if defined(__GNUC__)
#define GB_API __attribute__((visibility("default")))
#else
#define GB_API
#endif

#define GB_VERSION_MAJOR 0
#define GB_VERSION_MINOR 1
#define GB_VERSION_PATCH 0
#define GB_VERSION_STRING "0.1.0"

/* The version of the library actually linked, e.g. "0.1.0". */
GB_API const char *gb_version(void);

/* ---- errors ---------------------------------------------------------------------------------- */

/* X(name, value, description): the codes the GEMM library (gemmbench_blas.h) returns, behind
 * gb_error_t. The harness (gemmbench.h) has codes of its own besides these, in
 * GB_HARNESS_ERROR_TABLE (a problem's sizes, data, validation, the results store), whose values
 * these leave free; gb_strerror() and gb_errname() know both. */
#define GB_ERROR_TABLE(X)                                                                          \
    X(GB_OK, 0, "success")                                                                         \
    X(GB_ENOMEM, -1, "out of memory")                                                              \
    X(GB_EOVERFLOW, -2, "matrix size overflows")                                                   \
    X(GB_EBADLDA, -6, "lda is smaller than the stored A needs")                                    \
    X(GB_EBADLDB, -7, "ldb is smaller than the stored B needs")                                    \
    X(GB_EBADLDC, -8, "ldc is smaller than the stored C needs")                                    \
    X(GB_EBADPRECISION, -9, "unknown precision")                                                   \
    X(GB_EBADLAYOUT, -10, "unknown layout")                                                        \
    X(GB_EBADTRANS, -11, "unknown transposition")                                                  \
    X(GB_EBADARG, -14, "invalid argument")                                                         \
    X(GB_EBADBUFFER, -16, "a buffer is missing, unusable or too small for its matrix")             \
    X(GB_EBADQUEUE, -17, "the queue cannot be used for this call")                                 \
    X(GB_ENOPLATFORM, -20, "no such OpenCL platform")                                              \
    X(GB_ENODEVICE, -21, "no such OpenCL device")                                                  \
    X(GB_EOPENCL, -22, "an OpenCL call failed")                                                    \
    X(GB_EBUILD, -23, "OpenCL program build failed")                                               \
    X(GB_ENOKERNEL, -30, "unknown kernel")                                                         \
    X(GB_EMETADATA, -31, "malformed kernel metadata")                                              \
    X(GB_EBADPARAM, -33, "unknown kernel parameter or value not allowed")                          \
    X(GB_ECONSTRAINT, -34, "kernel parameter constraint violated")                                 \
    X(GB_EBADLWS, -35, "invalid work-group size")                                                  \
    X(GB_EUNSUPPORTED, -36, "kernel does not support this problem")                                \
    X(GB_ENOFP64, -37, "device has no double precision")                                           \
    X(GB_ENOEXT, -38, "device lacks a required OpenCL extension")                                  \
    X(GB_EWGSIZE, -39, "work-group too large for the device")                                      \
    X(GB_ELOCALMEM, -40, "local memory too large for the device")                                  \
    X(GB_ENOIMAGES, -41, "device lacks the image support a kernel needs")

typedef enum gb_error {
#define GB_X_ENUM(name, value, text) name = value,
    GB_ERROR_TABLE(GB_X_ENUM)
#undef GB_X_ENUM
} gb_error_t;

/* A static description of an error code (the library's or the harness's); never NULL. */
GB_API const char *gb_strerror(int code);
/* The enum constant's name ("GB_EBADLDA"); never NULL. */
GB_API const char *gb_errname(int code);

#ifdef __cplusplus
}
#endif
#endif
