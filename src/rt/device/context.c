/* context.c: opening a device (context and profiling queue) and closing it with what it kept,
 * error helpers and program builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

#define CL_ERR(x)                                                                                  \
    {                                                                                              \
        x, #x                                                                                      \
    }
static const struct {
    cl_int code;
    const char *name;
} cl_errors[] = {
    CL_ERR(CL_DEVICE_NOT_FOUND),
    CL_ERR(CL_DEVICE_NOT_AVAILABLE),
    CL_ERR(CL_COMPILER_NOT_AVAILABLE),
    CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    CL_ERR(CL_OUT_OF_RESOURCES),
    CL_ERR(CL_OUT_OF_HOST_MEMORY),
    CL_ERR(CL_BUILD_PROGRAM_FAILURE),
    CL_ERR(CL_INVALID_VALUE),
    CL_ERR(CL_INVALID_DEVICE),
    CL_ERR(CL_INVALID_CONTEXT),
    CL_ERR(CL_INVALID_COMMAND_QUEUE),
    CL_ERR(CL_INVALID_MEM_OBJECT),
    CL_ERR(CL_INVALID_BUILD_OPTIONS),
    CL_ERR(CL_INVALID_PROGRAM),
    CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE),
    CL_ERR(CL_INVALID_KERNEL_NAME),
    CL_ERR(CL_INVALID_KERNEL),
    CL_ERR(CL_INVALID_ARG_INDEX),
    CL_ERR(CL_INVALID_ARG_VALUE),
    CL_ERR(CL_INVALID_ARG_SIZE),
    CL_ERR(CL_INVALID_KERNEL_ARGS),
    CL_ERR(CL_INVALID_WORK_DIMENSION),
    CL_ERR(CL_INVALID_WORK_GROUP_SIZE),
    CL_ERR(CL_INVALID_WORK_ITEM_SIZE),
    CL_ERR(CL_INVALID_GLOBAL_OFFSET),
    CL_ERR(CL_INVALID_EVENT),
    CL_ERR(CL_INVALID_BUFFER_SIZE),
    CL_ERR(CL_INVALID_GLOBAL_WORK_SIZE),
    CL_ERR(CL_PROFILING_INFO_NOT_AVAILABLE),
    CL_ERR(CL_INVALID_OPERATION),
    CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    CL_ERR(CL_INVALID_IMAGE_SIZE),
    CL_ERR(CL_IMAGE_FORMAT_NOT_SUPPORTED),
};
#undef CL_ERR

const char *gb__cl_errname(cl_int err)
{
    for (size_t i = 0; i < sizeof cl_errors / sizeof cl_errors[0]; i++)
        if (cl_errors[i].code == err)
            return cl_errors[i].name;
    return "unknown OpenCL error";
}

int gb__cl_check(gb_context_t *ctx, cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return GB_OK;
    return gb__ctx_fail(ctx, GB_EOPENCL, "%s failed: %s (%d)", what, gb__cl_errname(err), err);
}

int gb_context_open(gb_context_t **out, const gb_device_info_t *dev, char *msg, size_t msglen)
{
    *out = NULL;
    gb_context_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    ctx->dev = dev;
    if (gb__programs_init(&ctx->programs) != GB_OK) {
        free(ctx);
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    }
    cl_device_id d = (cl_device_id)dev->cl_device;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->cl_platform,
                                     0};
    cl_int err;
    ctx->cl = clCreateContext(props, 1, &d, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        gb__fail(msg, msglen, GB_EOPENCL, "clCreateContext on '%s' failed: %s", dev->name,
                 gb__cl_errname(err));
        gb__programs_free(&ctx->programs);
        free(ctx);
        return GB_EOPENCL;
    }
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    ctx->queue = clCreateCommandQueueWithProperties(ctx->cl, d, qp, &err);
    if (err != CL_SUCCESS) {
        gb__fail(msg, msglen, GB_EOPENCL, "clCreateCommandQueue on '%s' failed: %s", dev->name,
                 gb__cl_errname(err));
        clReleaseContext(ctx->cl);
        gb__programs_free(&ctx->programs);
        free(ctx);
        return GB_EOPENCL;
    }
    *out = ctx;
    return GB_OK;
}

int gb__context_wrap(gb_context_t **out, const gb_device_info_t *dev, cl_context cl)
{
    *out = NULL;
    gb_context_t *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return GB_ENOMEM;
    if (gb__programs_init(&ctx->programs) != GB_OK) {
        free(ctx);
        return GB_ENOMEM;
    }
    ctx->dev = dev;
    ctx->cl = cl;
    clRetainContext(cl);
    *out = ctx;
    return GB_OK;
}

void gb_context_close(gb_context_t *ctx)
{
    if (!ctx)
        return;
    gb__inputs_free(&ctx->inputs);
    gb__programs_free(&ctx->programs);
    if (ctx->queue)
        clReleaseCommandQueue(ctx->queue);
    if (ctx->cl)
        clReleaseContext(ctx->cl);
    free(ctx);
}

const char *gb_context_errmsg(const gb_context_t *ctx)
{
    return ctx->errmsg;
}

const gb_device_info_t *gb_context_device(const gb_context_t *ctx)
{
    return ctx->dev;
}

void gb_context_reload_built(gb_context_t *ctx, int on)
{
    ctx->reload_built = on != 0;
}

/* Mapped memory: the driver works in this allocation itself where it can (zero-copy), which
 * Intel's and PoCL's drivers do for a page-aligned one whose size is a multiple of 64 bytes. */
#define GB_HOSTBUF_ALIGN 4096

/* A buffer of bytes made with flags (over host, or NULL for none) and mapped whole into hb, which
 * then holds all but host: CL_SUCCESS, or the OpenCL error with what was made released and hb
 * zeroed (host stays the caller's). */
static cl_int map_buffer(gb_context_t *ctx, cl_mem_flags flags, size_t bytes, void *host,
                         gb_hostbuf_t *hb)
{
    cl_int err;
    hb->mem = clCreateBuffer(ctx->cl, flags | CL_MEM_READ_WRITE, bytes, host, &err);
    if (err == CL_SUCCESS)
        hb->ptr = clEnqueueMapBuffer(ctx->queue, hb->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                     bytes, 0, NULL, NULL, &err);
    /* A map of a CL_MEM_USE_HOST_PTR buffer is the host's own memory (OpenCL 1.2, 5.4.2). */
    if (err == CL_SUCCESS && host && hb->ptr != host)
        err = CL_INVALID_OPERATION;
    if (err != CL_SUCCESS) {
        if (hb->ptr)
            clEnqueueUnmapMemObject(ctx->queue, hb->mem, hb->ptr, 0, NULL, NULL);
        if (hb->mem) {
            clFinish(ctx->queue);
            clReleaseMemObject(hb->mem);
        }
        memset(hb, 0, sizeof *hb);
        return err;
    }
    hb->bytes = bytes;
    hb->queue = ctx->queue;
    return CL_SUCCESS;
}

static int mapped_alloc(gb_context_t *ctx, size_t bytes, gb_hostbuf_t *hb)
{
    const size_t whole = (bytes + GB_HOSTBUF_ALIGN - 1) / GB_HOSTBUF_ALIGN * GB_HOSTBUF_ALIGN;
    void *host = aligned_alloc(GB_HOSTBUF_ALIGN, whole);
    if (!host)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory for %zu bytes of host memory", bytes);
    const cl_int err = map_buffer(ctx, CL_MEM_USE_HOST_PTR, whole, host, hb);
    if (err != CL_SUCCESS) {
        free(host); /* after its buffer is released */
        return gb__ctx_fail(ctx, GB_EOPENCL,
                            "cannot share %zu bytes of host memory with %s (%s); use --host-mem "
                            "pinned or pageable",
                            bytes, ctx->dev->name, gb__cl_errname(err));
    }
    hb->host = host;
    return GB_OK;
}

int gb__hostbuf_alloc(gb_context_t *ctx, size_t bytes, gb_host_mem_t kind, gb_hostbuf_t *hb)
{
    memset(hb, 0, sizeof *hb);
    if (kind == GB_HOST_PAGEABLE) {
        if (!(hb->ptr = malloc(bytes ? bytes : 1)))
            return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory for %zu bytes of host memory",
                                bytes);
        hb->bytes = bytes;
        return GB_OK;
    }
    if (kind == GB_HOST_MAPPED)
        return mapped_alloc(ctx, bytes ? bytes : 1, hb);
    const cl_int err = map_buffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes ? bytes : 1, NULL, hb);
    if (err != CL_SUCCESS)
        return gb__ctx_fail(ctx, GB_EOPENCL,
                            "cannot pin %zu bytes of host memory on %s (%s); use --host-mem "
                            "pageable",
                            bytes, ctx->dev->name, gb__cl_errname(err));
    return GB_OK;
}

void gb__hostbuf_free(gb_hostbuf_t *hb)
{
    if (hb->mem) {
        if (!hb->unmapped)
            clEnqueueUnmapMemObject(hb->queue, hb->mem, hb->ptr, 0, NULL, NULL);
        clFinish(hb->queue);
        clReleaseMemObject(hb->mem);
        free(hb->host);
    } else if (!hb->borrowed) {
        free(hb->ptr);
    }
    memset(hb, 0, sizeof *hb);
}

void gb__inputs_free(gb_inputs_t *in)
{
    gb__hostbuf_free(&in->da);
    gb__hostbuf_free(&in->db);
    gb__hostbuf_free(&in->dc);
    gb__hostbuf_free(&in->out);
    gb__hostbuf_free(&in->poisoned);
    free(in->got);
    free(in->a);
    free(in->b);
    free(in->c);
    free(in->cref);
    free(in->gauge);
    memset(in, 0, sizeof *in);
}

/* prog built (err its clBuildProgram's status): GB_OK, or GB_EBUILD with the log in msg (and
 * prog released). what says which build: "" for the source, " as PTX (sm_90a)" for its
 * raised PTX. */
static int built(cl_program prog, cl_device_id d, cl_int err, const char *name, const char *what,
                 const char *options, char *msg, size_t msglen)
{
    if (err != CL_SUCCESS) {
        size_t len = 0, used = 0;
        char *log = NULL;
        if (msg && msglen) {
            gb__appendf(msg, msglen, &used,
                        "OpenCL build of '%s'%s failed (%s) with options '%s'; build log:\n", name,
                        what, gb__cl_errname(err), options);
            clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
            log = malloc(len + 1);
        }
        if (log &&
            clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
            log[len] = '\0';
            gb__appendf(msg, msglen, &used, "%s", log);
        }
        free(log);
        clReleaseProgram(prog);
        return GB_EBUILD;
    }
    size_t len = 0;
    if (clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) == CL_SUCCESS &&
        len > 1) {
        char *log = malloc(len + 1);
        if (log &&
            clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
            log[len] = '\0';
            gb__build_log(name, options, log);
        }
        free(log);
    }
    return GB_OK;
}

unsigned char *gb__program_binary(cl_program prog, size_t *len)
{
    *len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof *len, len, NULL) != CL_SUCCESS ||
        !*len)
        return NULL;
    unsigned char *bin = malloc(*len);
    unsigned char *bins[1] = {bin};
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        return bin;
    free(bin);
    return NULL;
}

/* With GEMMBENCH_PTX_DIR set, the raised PTX also written there, as NAME-TARGET-HASH.ptx, for
 * ptxas, cuobjdump and the CUDA profilers (bench/ptx-run.c); even when it fails to build. */
static void keep_ptx(const char *name, const char *target, const char *ptx, size_t len)
{
    const char *dir = getenv("GEMMBENCH_PTX_DIR");
    if (!dir || !*dir)
        return;
    char path[1200];
    snprintf(path, sizeof path, "%s/%s-%s-%016llx.ptx", dir, name, target,
             (unsigned long long)gb__fnv1a64(ptx, len, GB_FNV_BASIS));
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(ptx, 1, len, f) != len)
        gb__warn("GEMMBENCH_PTX_DIR: cannot write %s", path);
    if (f)
        fclose(f);
}

/* prog's binary (the PTX NVIDIA's OpenCL made of the source) made as recipe says and built:
 * the new program in *out. recipe: the target it is raised to ("sm_90a"), then optionally "/"
 * and the work-groups an SM its kernels must fit (.minnctapersm); "/3" keeps the target. */
static int build_ptx(gb_context_t *ctx, cl_program prog, const char *name, const char *recipe,
                     const char *options, cl_program *out, char *msg, size_t msglen)
{
    cl_device_id d = (cl_device_id)ctx->dev->cl_device;
    char target[32];
    const char *slash = strchr(recipe, '/');
    const size_t tl = slash ? (size_t)(slash - recipe) : strlen(recipe);
    snprintf(target, sizeof target, "%.*s", (int)(tl < sizeof target ? tl : sizeof target - 1),
             recipe);
    const unsigned groups = slash ? (unsigned)strtoul(slash + 1, NULL, 10) : 0;
    size_t len = 0;
    unsigned char *bin = gb__program_binary(prog, &len);
    if (!bin)
        return gb__fail(msg, msglen, GB_EBUILD, "'%s': the compiler gave no binary to make PTX of",
                        name);
    char *ptx = NULL;
    size_t plen = 0, raised = 0;
    int rc = gb__ptx_raise((const char *)bin, strnlen((const char *)bin, len), target, groups, &ptx,
                           &plen, &raised, msg, msglen);
    free(bin);
    if (rc != GB_OK)
        return rc;
    keep_ptx(name, target[0] ? target : "as-made", ptx, plen);
    const unsigned char *text[1] = {(const unsigned char *)ptx};
    cl_int status, err;
    cl_program p = clCreateProgramWithBinary(ctx->cl, 1, &d, &plen, text, &status, &err);
    free(ptx);
    if (err != CL_SUCCESS || status != CL_SUCCESS)
        return gb__fail(msg, msglen, GB_EBUILD,
                        "'%s': its PTX (%s) was refused (%s, binary status %s)", name, recipe,
                        gb__cl_errname(err), gb__cl_errname(status));
    char what[64], kept[256];
    snprintf(what, sizeof what, " as PTX (%s)", recipe);
    gb__binary_options(options, kept, sizeof kept); /* the PTX does not carry the register cap */
    if ((rc = built(p, d, clBuildProgram(p, 1, &d, kept, NULL, NULL), name, what, kept, msg,
                    msglen)) == GB_OK)
        *out = p;
    return rc;
}

int gb__program_build(gb_context_t *ctx, const char *name, const char *source, const char *options,
                      const char *ptx, cl_program *out, double *ms, char *msg, size_t msglen)
{
    cl_int err;
    const double t0 = gb__now_ms();
    ctx->builds++;
    cl_program prog = clCreateProgramWithSource(ctx->cl, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return gb__fail(msg, msglen, GB_EOPENCL, "clCreateProgramWithSource failed: %s (%d)",
                        gb__cl_errname(err), err);
    cl_device_id d = (cl_device_id)ctx->dev->cl_device;
    int rc = built(prog, d, clBuildProgram(prog, 1, &d, options, NULL, NULL), name, "", options,
                   msg, msglen);
    if (rc == GB_OK && ptx[0]) {
        cl_program raised = NULL;
        rc = build_ptx(ctx, prog, name, ptx, options, &raised, msg, msglen);
        clReleaseProgram(prog);
        prog = raised;
    }
    *ms = gb__now_ms() - t0;
    if (rc == GB_OK)
        *out = prog;
    return rc;
}
