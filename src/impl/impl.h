/* impl.h: an implementation computes one problem on one context: prepare (plan, build,
 * allocate), call (write inputs, run every kernel, read C, timed by phase), release. Kernel
 * families are one implementation. */
#ifndef GB_IMPL_H
#define GB_IMPL_H

#include "../device/context.h"

/* A, B, C in, C out, and a buffer-to-image copy for each of A and B. */
#define GB_MAX_PASSES 6

/* One helper pass: a gb_copy launch, or (kernel NULL) a copy of a packed operand into the
 * image a kernel reads it through, on devices that cannot create images over buffers. */
typedef struct gb_pass {
    cl_kernel kernel;
    size_t global[2], local[2]; /* gb_copy's geometry */
    int post;        /* runs after the main kernel */
    cl_mem src, image; /* buffer-to-image copy: not owned (the impl's temporaries and images) */
    size_t region[2];  /* that copy's width and height in pixels */
} gb_pass_t;

typedef struct gb_impl {
    gb_context_t *ctx;
    gb_problem_t prob;   /* the problem as the main kernel sees it: swapped, transposed, padded */
    int swapped;
    char route[128];
    cl_program program, helpers;
    cl_kernel kernel;
    cl_kernel rem_kernel; /* the family's remainder kernel, where this problem needs it */
    cl_mem a, b, c;      /* buffers of the caller's A, B, C */
    cl_mem ta, tb, tc;   /* temporaries the helper passes fill, or NULL */
    cl_mem img_a, img_b; /* image2d_t views of ta, tb for args imgA, imgB, or NULL */
    cl_mem ws;           /* the family's workspace (argument WS), or NULL */
    size_t ws_bytes;
    size_t bytes_a, bytes_b, bytes_c;
    size_t global[2], local[2];
    int local_null;
    size_t rem_global[2], rem_local[2];
    gb_pass_t passes[GB_MAX_PASSES];
    size_t npasses;
    double build_ms;
    int cache_hit;
    char options[512];
} gb_impl_t;

/* Plans and builds the configuration for problem p (already checked) and allocates its buffers.
 * On error the message is on ctx and *out is NULL. Release with gb__impl_release. */
int gb__impl_prepare(gb_context_t *ctx, const gb_config_t *cfg, const gb_problem_t *p,
                     gb_impl_t **out);
/* One call: writes the whole host buffers a, b, c (the problem's precision) to the device, runs
 * the helper passes and the main kernel (and its remainder kernel, timed with it), reads C into
 * c_out, and fills t[] per gb_phase_t. */
int gb__impl_call(gb_impl_t *im, const void *a, const void *b, const void *c, void *c_out,
                  double t[GB_PHASE_COUNT]);
void gb__impl_release(gb_impl_t *im);

/* Helper passes (passes.c). gb__pass_copy adds a gb_copy (or gb_copy4) pass, run before the main
 * kernel or (post) after it, writing dst (d_outer x d_inner at d_off, d_ld) from src, transposed
 * where trans; im->helpers must hold the built helpers program. gb__pass_image makes *img, a
 * width x height image2d_t over the packed temporary buf (a view where the device can, else an
 * image of its own with a copy pass); a device that cannot hold it fails with GB_EUNSUPPORTED,
 * naming operand. gb__image_ld is the leading dimension, in elements, of the packed copy an image
 * is made over, for rows of inner elements. */
int gb__pass_copy(gb_impl_t *im, int post, cl_mem dst, size_t d_outer, size_t d_inner,
                  size_t d_off, size_t d_ld, cl_mem src, size_t s_outer, size_t s_inner,
                  size_t s_off, size_t s_ld, int trans);
int gb__pass_image(gb_impl_t *im, cl_mem *img, cl_mem buf, size_t width, size_t height,
                   const char *operand);
size_t gb__image_ld(const gb_device_info_t *dev, size_t inner);

#endif
