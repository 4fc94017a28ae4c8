/* kernel_impl.c: runs a kernel family configuration: build options from parameters, buffers,
 * arguments in the order the metadata names, and launch geometry from its expressions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/expr.h"
#include "../kernels/registry.h"
#include "impl.h"

int gb__config_layout_route(const gb_family_t *f, const gb_problem_t *p);

/* The row/column-major swap: C^T = op(B)^T op(A)^T, so the same memory read in the other
 * layout is the problem with A and B exchanged, M and N exchanged, transpositions exchanged. */
static gb_problem_t swap_operands(const gb_problem_t *p)
{
    gb_problem_t q = *p;
    q.layout = p->layout == GB_ROW_MAJOR ? GB_COL_MAJOR : GB_ROW_MAJOR;
    q.m = p->n;
    q.n = p->m;
    q.trans_a = p->trans_b;
    q.trans_b = p->trans_a;
    q.lda = p->ldb;
    q.ldb = p->lda;
    q.off_a = p->off_b;
    q.off_b = p->off_a;
    return q;
}

static int build_options(gb_impl_t *im, const gb_config_t *cfg)
{
    const gb_problem_t *p = &im->prob;
    size_t used = (size_t)snprintf(im->options, sizeof im->options,
                                   "-DGB_PRECISION=%d -DGB_ROW_MAJOR=%d -DGB_TRANS_A=%d "
                                   "-DGB_TRANS_B=%d",
                                   p->precision == GB_PREC_D ? 64 : 32,
                                   p->layout == GB_ROW_MAJOR, p->trans_a == GB_TRANS,
                                   p->trans_b == GB_TRANS);
    for (size_t i = 0; i < cfg->params.count; i++) {
        int n = snprintf(im->options + used, sizeof im->options - used, " -D%s=%ld",
                         cfg->params.name[i], cfg->params.value[i]);
        if (n < 0 || (size_t)n >= sizeof im->options - used)
            return gb__ctx_fail(im->ctx, GB_EBADPARAM, "build options too long");
        used += (size_t)n;
    }
    return GB_OK;
}

static int geometry(gb_impl_t *im, const gb_config_t *cfg)
{
    const gb_family_t *f = cfg->family;
    gb_var_t vars[GB_MAX_PARAMS + 8];
    size_t nv = gb__config_vars(cfg, im->prob.precision, &im->prob, vars);
    char why[256];
    long long g[2], l[2] = {1, 1};
    for (int d = 0; d < 2; d++) {
        if (gb__expr_eval(f->global[d], vars, nv, &g[d], why, sizeof why) != GB_OK)
            return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: global size: %s", f->origin, why);
        if (f->local[d] &&
            gb__expr_eval(f->local[d], vars, nv, &l[d], why, sizeof why) != GB_OK)
            return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: local size: %s", f->origin, why);
        if (g[d] < 1 || l[d] < 1)
            return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: launch size %lld/%lld is not positive",
                                f->origin, g[d], l[d]);
        /* Rounded up to whole work-groups: kernels guard their edges. */
        im->local[d] = (size_t)l[d];
        im->global[d] = ((size_t)g[d] + im->local[d] - 1) / im->local[d] * im->local[d];
    }
    im->local_null = f->local[0] == NULL;
    return GB_OK;
}

static int set_args(gb_impl_t *im, const gb_family_t *f)
{
    const gb_problem_t *p = &im->prob;
    cl_mem a = im->swapped ? im->b : im->a, b = im->swapped ? im->a : im->b;
    for (size_t i = 0; i < f->nargs; i++) {
        const char *n = f->args[i];
        cl_int err;
        cl_uint idx = (cl_uint)i;
        if (!strcmp(n, "A") || !strcmp(n, "B") || !strcmp(n, "C")) {
            cl_mem m = n[0] == 'A' ? a : n[0] == 'B' ? b : im->c;
            err = clSetKernelArg(im->kernel, idx, sizeof m, &m);
        } else if (!strcmp(n, "alpha") || !strcmp(n, "beta")) {
            double v = n[0] == 'a' ? p->alpha : p->beta;
            float fv = (float)v;
            err = p->precision == GB_PREC_D ? clSetKernelArg(im->kernel, idx, sizeof v, &v)
                                            : clSetKernelArg(im->kernel, idx, sizeof fv, &fv);
        } else {
            size_t v = !strcmp(n, "M")      ? p->m
                       : !strcmp(n, "N")    ? p->n
                       : !strcmp(n, "K")    ? p->k
                       : !strcmp(n, "lda")  ? p->lda
                       : !strcmp(n, "ldb")  ? p->ldb
                       : !strcmp(n, "ldc")  ? p->ldc
                       : !strcmp(n, "offA") ? p->off_a
                       : !strcmp(n, "offB") ? p->off_b
                                            : p->off_c;
            cl_int iv = (cl_int)v; /* gb_problem_check keeps every size below 2^31 */
            err = clSetKernelArg(im->kernel, idx, sizeof iv, &iv);
        }
        if (err != CL_SUCCESS)
            return gb__ctx_fail(im->ctx, GB_EMETADATA,
                                "%s: setting argument %zu '%s' failed (%s); the 'args' list must "
                                "match the kernel's parameters",
                                f->origin, i, n, gb__cl_errname(err));
    }
    return GB_OK;
}

int gb__impl_prepare(gb_context_t *ctx, const gb_config_t *cfg, const gb_problem_t *p,
                     gb_impl_t **out)
{
    *out = NULL;
    const gb_family_t *f = cfg->family;
    gb_impl_t *im = calloc(1, sizeof *im);
    if (!im)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    im->ctx = ctx;
    int route = gb__config_layout_route(f, p);
    if (route < 0) {
        free(im);
        return gb__ctx_fail(ctx, GB_EUNSUPPORTED, "kernel '%s' does not support this layout",
                            gb_config_name(cfg));
    }
    im->swapped = route == 1;
    im->prob = im->swapped ? swap_operands(p) : *p;
    int rc;
    if ((rc = build_options(im, cfg)) || (rc = geometry(im, cfg)))
        goto fail;
    const char *prelude = NULL;
    for (size_t i = 0; i < gb__embedded_count; i++)
        if (!strcmp(gb__embedded_files[i].name, "prelude.cl"))
            prelude = gb__embedded_files[i].data;
    size_t plen = prelude ? strlen(prelude) : 0, slen = strlen(f->source);
    char *src = malloc(plen + slen + 16);
    if (!src) {
        rc = gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
        goto fail;
    }
    memcpy(src, prelude ? prelude : "", plen);
    /* Keeps the family's line numbers in build logs. */
    memcpy(src + plen, "\n#line 1\n", 9);
    memcpy(src + plen + 9, f->source, slen + 1);
    rc = gb__program_build(ctx, f->name, src, im->options, &im->program, &im->build_ms);
    free(src);
    if (rc != GB_OK)
        goto fail;
    cl_int err;
    im->kernel = clCreateKernel(im->program, f->entry, &err);
    if (err != CL_SUCCESS) {
        rc = gb__ctx_fail(ctx, GB_EMETADATA, "%s: no kernel named '%s' in %s (%s); fix 'entry'",
                          f->origin, f->entry, f->source_file, gb__cl_errname(err));
        goto fail;
    }
    size_t ea, eb, ec, es = gb_precision_bytes(p->precision);
    gb_problem_buffer_elems(p, &ea, &eb, &ec);
    im->bytes_a = ea * es;
    im->bytes_b = eb * es;
    im->bytes_c = ec * es;
    im->a = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, im->bytes_a, NULL, &err);
    if ((rc = gb__cl_check(ctx, err, "clCreateBuffer(A)")))
        goto fail;
    im->b = clCreateBuffer(ctx->cl, CL_MEM_READ_ONLY, im->bytes_b, NULL, &err);
    if ((rc = gb__cl_check(ctx, err, "clCreateBuffer(B)")))
        goto fail;
    im->c = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, im->bytes_c, NULL, &err);
    if ((rc = gb__cl_check(ctx, err, "clCreateBuffer(C)")))
        goto fail;
    if ((rc = set_args(im, f)))
        goto fail;
    *out = im;
    return GB_OK;
fail:
    gb__impl_release(im);
    return rc;
}

int gb__impl_write(gb_impl_t *im, const void *a, const void *b, const void *c)
{
    cl_command_queue q = im->ctx->queue;
    int rc = GB_OK;
    if (a && !rc)
        rc = gb__cl_check(im->ctx, clEnqueueWriteBuffer(q, im->a, CL_TRUE, 0, im->bytes_a, a, 0,
                                                        NULL, NULL), "writing A");
    if (b && !rc)
        rc = gb__cl_check(im->ctx, clEnqueueWriteBuffer(q, im->b, CL_TRUE, 0, im->bytes_b, b, 0,
                                                        NULL, NULL), "writing B");
    if (c && !rc)
        rc = gb__cl_check(im->ctx, clEnqueueWriteBuffer(q, im->c, CL_TRUE, 0, im->bytes_c, c, 0,
                                                        NULL, NULL), "writing C");
    return rc;
}

int gb__impl_run(gb_impl_t *im, double *kernel_ms, double *wall_ms)
{
    cl_event ev;
    const double t0 = gb__now_ms();
    cl_int err = clEnqueueNDRangeKernel(im->ctx->queue, im->kernel, 2, NULL, im->global,
                                        im->local_null ? NULL : im->local, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return gb__ctx_fail(im->ctx, GB_EOPENCL,
                            "launching %zu x %zu work-items in groups of %zu x %zu failed: %s",
                            im->global[0], im->global[1], im->local[0], im->local[1],
                            gb__cl_errname(err));
    err = clFinish(im->ctx->queue);
    *wall_ms = gb__now_ms() - t0;
    cl_ulong start = 0, end = 0;
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return gb__cl_check(im->ctx, err, "running the kernel");
    *kernel_ms = (double)(end - start) * 1e-6;
    return GB_OK;
}

int gb__impl_read_c(gb_impl_t *im, void *c)
{
    return gb__cl_check(im->ctx, clEnqueueReadBuffer(im->ctx->queue, im->c, CL_TRUE, 0,
                                                     im->bytes_c, c, 0, NULL, NULL),
                        "reading C");
}

void gb__impl_release(gb_impl_t *im)
{
    if (!im)
        return;
    if (im->a)
        clReleaseMemObject(im->a);
    if (im->b)
        clReleaseMemObject(im->b);
    if (im->c)
        clReleaseMemObject(im->c);
    if (im->kernel)
        clReleaseKernel(im->kernel);
    if (im->program)
        clReleaseProgram(im->program);
    free(im);
}
