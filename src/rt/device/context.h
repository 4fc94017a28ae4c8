/* context.h: the OpenCL context and queue behind a gb_context_t, what it keeps between calls
 * (built programs, the last problem's inputs), and program building. */
#ifndef GB_CONTEXT_H
#define GB_CONTEXT_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include "rt/core/core.h"

/* Programs the context keeps built (gb_impl_prebuild), by their cache key text (cache.c). */
#define GB_PROGRAMS_MAX 256
typedef struct gb_kept_program {
    char *key;
    cl_program program; /* NULL while a thread builds it */
    uint64_t seq;       /* order of arrival: the oldest is released first */
} gb_kept_program_t;

/* The only part of a context that several threads share (gb_impl_prebuild's, and the one
 * measuring): everything in it is read and written under lock. */
typedef struct gb_programs {
    pthread_mutex_t lock;
    pthread_cond_t settled; /* a build in flight ended */
    gb_kept_program_t *e;   /* n of them, in a capacity of cap */
    size_t n, cap;
    size_t max; /* built programs kept, GB_PROGRAMS_MAX (tests lower it) */
    uint64_t seq;
} gb_programs_t;

/* The last problem's inputs, kept on the context by the harness's measuring loop for its next
 * call on the same problem: a tuner measures hundreds of configurations of one problem, and
 * regenerating them, and above all the reference, can cost more than measuring on a GPU. */
/* Host memory the calls copy from and to: malloc'd, or pinned (a buffer made with
 * CL_MEM_ALLOC_HOST_PTR, mapped at ptr until it is freed); or host memory the device works in
 * (mapped: a buffer made with CL_MEM_USE_HOST_PTR over a page-aligned allocation, mapped at ptr
 * while the host owns it, unmapped while the device does). */
typedef struct gb_hostbuf {
    void *ptr;
    cl_mem mem;             /* pinned, mapped: the buffer at ptr; NULL: malloc'd or borrowed */
    cl_command_queue queue; /* where it was mapped */
    void *host;             /* mapped: the allocation under the buffer (ptr while mapped) */
    size_t bytes;
    int borrowed; /* ptr is another buffer's (not freed) */
    int unmapped; /* mapped: the device owns it now (ptr must not be touched) */
} gb_hostbuf_t;

/* bytes of host memory of kind on ctx's device: malloc'd, pinned, or mapped (shared with the
 * device, which reads and writes it in place). GB_OK, or GB_ENOMEM / GB_EOPENCL with the
 * message on ctx. */
int gb__hostbuf_alloc(gb_context_t *ctx, size_t bytes, gb_host_mem_t kind, gb_hostbuf_t *hb);
void gb__hostbuf_free(gb_hostbuf_t *hb);

typedef struct gb_inputs {
    int valid;
    gb_problem_t p; /* checked; with dist, seed and host memory, the key */
    gb_dist_t dist;
    uint64_t seed;
    gb_host_mem_t host_mem;
    size_t ea, eb, ec;       /* elements of A, B, C */
    double *a, *b, *c;       /* as generated */
    gb_hostbuf_t da, db, dc; /* in the problem's precision, as the calls read them (pageable
                                double: the generated buffers themselves) */
    gb_hostbuf_t out;        /* C as a call gives it back */
    gb_hostbuf_t poisoned;   /* the validating call's C (inputs.c); NULL ptr until it is made */
    double *got;             /* out in double, for the check */
    double *cref, *gauge;    /* the reference and its gauge, NULL until a run is validated */
} gb_inputs_t;

struct gb_context {
    const gb_device_info_t *dev;
    cl_context cl;
    cl_command_queue queue;
    gb_programs_t programs;
    gb_inputs_t inputs;
    unsigned long references;     /* references computed on this context (tests read it) */
    _Atomic unsigned long builds; /* programs compiled from source on it, on any thread (tests) */
    char errmsg[16384];           /* the measuring thread's, never gb_impl_prebuild's */
    /* After a build from source is stored in the disk cache, load the stored binary once more
     * on this context: on NVIDIA's OpenCL that load compiles the binary's PTX into CUDA's JIT
     * cache, which the build from source does not fill (the tune's build processes set it). */
    int reload_built;
};

/* Fills di with the facts of device d of platform pf (di->extensions is allocated: free it). */
void gb__device_fill(gb_device_info_t *di, cl_platform_id pf, cl_device_id d);
/* Sets di->family from the facts gb__device_fill read of device d (family.c). */
void gb__device_family(gb_device_info_t *di, cl_device_id d);
/* A context over the caller's cl_context (retained until gb_context_close) on dev, with no queue
 * of its own: its kept programs serve the library's GEMM call. GB_OK or GB_ENOMEM. */
int gb__context_wrap(gb_context_t **out, const gb_device_info_t *dev, cl_context cl);

/* Formats the context's message and returns code: gb__fail on ctx's message. */
#define gb__ctx_fail(ctx, code, ...) gb__fail((ctx)->errmsg, sizeof(ctx)->errmsg, code, __VA_ARGS__)
/* Checks an OpenCL status: on failure records "what failed (CL error name)" and returns
 * GB_EOPENCL, else GB_OK. */
int gb__cl_check(gb_context_t *ctx, cl_int err, const char *what);
const char *gb__cl_errname(cl_int err);

/* Builds source with options; with ptx not "" (a recipe: a PTX target, "sm_90a", and after a
 * "/" the kernels' .minnctapersm, as gb_route_t's ptx) the program is then the compiler's PTX
 * made so (gb__ptx_raise) and loaded as a binary. On failure msg
 * holds the build log and the result is GB_EBUILD. *ms gets the build time. The caller releases
 * *out. Any thread. */
int gb__program_build(gb_context_t *ctx, const char *name, const char *source, const char *options,
                      const char *ptx, cl_program *out, double *ms, char *msg, size_t msglen);

/* prog's binary (for its one device): a new buffer of *len bytes the caller frees, or NULL
 * (none, or it cannot be read). */
unsigned char *gb__program_binary(cl_program prog, size_t *len);

/* Builds prelude + source with options, or takes it from the programs the context keeps, or
 * loads its binary from the on-disk cache (*hit: nothing was built; a program that another
 * thread is building is waited for). keep: the context keeps it too (gb_impl_prebuild). *ms is
 * the time it all took. The caller releases *out. Errors into msg, as gb__program_build. Any
 * thread. */
int gb__program_get(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                    const char *options, const char *ptx, int keep, cl_program *out, double *ms,
                    int *hit, char *msg, size_t msglen);
/* Whether gb__program_get would find that program without building it: the context keeps it,
 * or the disk cache holds its entry. Never waits, never builds. */
int gb__program_ready(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                      const char *options, const char *ptx);

/* The kept programs (programs.c). gb__programs_take: the program kept under key, retained into
 * *out, waiting while another thread builds it; else *out NULL and, with claim, an entry that
 * says this thread builds it (*claimed), which the thread must settle: with the built program
 * (which the table retains; past its max the oldest built one is released) or NULL (failed,
 * the entry goes). GB_OK, or GB_ENOMEM when a claim cannot be recorded. */
int gb__programs_init(gb_programs_t *t);
void gb__programs_free(gb_programs_t *t);
int gb__programs_take(gb_programs_t *t, const char *key, int claim, cl_program *out, int *claimed);
void gb__programs_settle(gb_programs_t *t, const char *key, cl_program prog);
/* Whether t keeps a built program under key (never waits). */
int gb__programs_has(gb_programs_t *t, const char *key);

/* Frees the kept inputs' buffers and forgets them. */
void gb__inputs_free(gb_inputs_t *in);

#endif
