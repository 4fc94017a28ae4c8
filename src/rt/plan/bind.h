/* bind.h: a routed problem's kernel arguments, set by the names the family's 'args' list (A, B,
 * C, WS, imgA, imgB, alpha, beta, M, N, K, lda, ldb, ldc, offA, offB, offC, CUS and the family's
 * lets), for the launch (launch.h) that the harness's kernel implementation and the library's
 * GEMM call share. */
#ifndef GB_BIND_H
#define GB_BIND_H

#include "rt/device/context.h"
#include "rt/family/registry.h"
#include "route.h"

/* The memory objects a route names, by gb_buf_t (the caller's A, B, C, then the temporaries),
 * the images of the kernel's A and B, the workspace; and the device's compute units (CUS). */
typedef struct gb_binding {
    cl_mem buf[6];
    cl_mem img[2];
    cl_mem ws;
    cl_mem cnt; /* the counters (argument CNT), zero between launches */
    unsigned compute_units;
} gb_binding_t;

/* What a kernel object's scalar arguments were last set to, so that a call that reuses the
 * object sets only those that changed: NVIDIA's clSetKernelArg costs a few tenths of a
 * microsecond, and a family has up to two dozen arguments. Zeroed: nothing set yet. */
#define GB_BIND_CACHED_ARGS 48
typedef struct gb_argcache {
    unsigned char size[GB_BIND_CACHED_ARGS]; /* bytes of the value last set; 0: unknown */
    unsigned char value[GB_BIND_CACHED_ARGS][8];
} gb_argcache_t;

/* Sets kernel's arguments (f's 'args' in order) for route r; the sizes and scalars are kp's
 * (r->kernel, or a copy with the call's alpha and beta). With cache (may be NULL: every argument
 * is set), those equal to what the kernel object already holds are left as they are. GB_OK, or
 * GB_EMETADATA with msg naming the argument the kernel refused. */
int gb__bind_args(cl_kernel kernel, const gb_family_t *f, const gb_route_t *r,
                  const gb_problem_t *kp, const gb_binding_t *b, gb_argcache_t *cache, char *msg,
                  size_t msglen);

#endif
