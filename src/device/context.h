/* context.h: the OpenCL context and queue behind a gb_context_t, and program building. */
#ifndef GB_CONTEXT_H
#define GB_CONTEXT_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "../core/core.h"

struct gb_context {
    const gb_device_info_t *dev;
    cl_context cl;
    cl_command_queue queue;
    char errmsg[16384];
};

/* Formats the context's message and returns code. */
int gb__ctx_fail(gb_context_t *ctx, int code, const char *fmt, ...) GB_PRINTF(3, 4);
/* Checks an OpenCL status: on failure records "what failed (CL error name)" and returns
 * GB_EOPENCL, else GB_OK. */
int gb__cl_check(gb_context_t *ctx, cl_int err, const char *what);
const char *gb__cl_errname(cl_int err);

/* Builds source with options. On failure the message holds the build log and the result is
 * GB_EBUILD. *ms gets the build time. The caller releases *out. */
int gb__program_build(gb_context_t *ctx, const char *name, const char *source, const char *options,
                      cl_program *out, double *ms);

/* Builds prelude + source with options, or loads the binary from the on-disk cache (*hit).
 * *ms is the time either took. Errors as gb__program_build. */
int gb__program_get(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                    const char *options, cl_program *out, double *ms, int *hit);

#endif
