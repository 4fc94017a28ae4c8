/* kernel_impl.c: runs a kernel family configuration. It plans how the problem reaches the
 * kernel (directly, through the row/column-major operand swap, through transposition passes,
 * padded to the kernel's tile multiples, as an image over a packed copy), builds the kernel and
 * the helper passes, and launches them with the arguments in the order the metadata names. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/expr.h"
#include "../kernels/registry.h"
#include "impl.h"

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

static int native(const gb_family_t *f, gb_layout_t l, gb_trans_t ta, gb_trans_t tb)
{
    return (f->layouts >> gb_layout_index(l, ta, tb)) & 1u;
}

/* The cheapest way to a native layout: directly or swapped, then with the fewest operands
 * transposed by a helper pass. Sets *q (transpositions as the kernel will see them), *swapped
 * and the per-operand transposition flags. Returns 0 when the family has no native layout. */
static int choose_route(const gb_family_t *f, const gb_problem_t *p, gb_problem_t *q,
                        int *swapped, int *flip_a, int *flip_b)
{
    for (int cost = 0; cost <= 2; cost++)
        for (int s = 0; s < 2; s++) {
            const gb_problem_t base = s ? swap_operands(p) : *p;
            for (int fa = 0; fa < 2; fa++)
                for (int fb = 0; fb < 2; fb++) {
                    if (fa + fb != cost)
                        continue;
                    gb_trans_t ta = fa ? !base.trans_a : base.trans_a;
                    gb_trans_t tb = fb ? !base.trans_b : base.trans_b;
                    if (native(f, base.layout, ta, tb)) {
                        *q = base;
                        *swapped = s;
                        *flip_a = fa;
                        *flip_b = fb;
                        return 1;
                    }
                }
        }
    return 0;
}

static int has_arg(const gb_family_t *f, const char *name)
{
    for (size_t i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i], name))
            return 1;
    return 0;
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Outer and inner stored dimensions of a rows x cols matrix in p's layout. */
static void stored(const gb_problem_t *p, size_t rows, size_t cols, size_t *outer, size_t *inner)
{
    *outer = p->layout == GB_ROW_MAJOR ? rows : cols;
    *inner = p->layout == GB_ROW_MAJOR ? cols : rows;
}

/* Evaluates the metadata expression expr (key what) into *out; a failure names the key. */
static int eval_any(gb_impl_t *im, const gb_family_t *f, const char *what, const char *expr,
                    const gb_var_t *vars, size_t nv, long long *out)
{
    char why[256];
    if (gb__expr_eval(expr, vars, nv, out, why, sizeof why) != GB_OK)
        return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: %s: %s", f->origin, what, why);
    return GB_OK;
}

/* eval_any for sizes and multiples, which must be positive. */
static int eval(gb_impl_t *im, const gb_family_t *f, const char *what, const char *expr,
                const gb_var_t *vars, size_t nv, long long *out)
{
    int rc = eval_any(im, f, what, expr, vars, nv, out);
    if (rc == GB_OK && *out < 1)
        return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: %s '%s' is %lld, not positive",
                            f->origin, what, expr, *out);
    return rc;
}

/* Where families may take NVIDIA-only paths: -DGB_NVIDIA=1, and NVIDIA = 1 in size expressions. */
static int nvidia_gpu(const gb_device_info_t *dev)
{
    return strstr(dev->vendor, "NVIDIA") && !strcmp(dev->type_name, "gpu");
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
    /* Families may take an NVIDIA-only path (inline PTX) where the vendor allows it, and cap
     * the registers NVIDIA's compiler gives a work-item. */
    const gb_device_info_t *dev = im->ctx->dev;
    const gb_family_t *f = cfg->family;
    if (nvidia_gpu(dev)) {
        used += (size_t)snprintf(im->options + used, sizeof im->options - used, " -DGB_NVIDIA=1");
        if (f->nv_max_registers) {
            gb_var_t vars[GB_MAX_PARAMS + 8];
            size_t nv = gb__config_vars(cfg, p->precision, p, vars);
            long long regs;
            int rc = eval_any(im, f, "nvidia_max_registers", f->nv_max_registers, vars, nv, &regs);
            if (rc)
                return rc;
            if (regs > 0)
                used += (size_t)snprintf(im->options + used, sizeof im->options - used,
                                         " -cl-nv-maxrregcount=%lld", regs);
        }
    }
    for (size_t i = 0; i < cfg->params.count; i++) {
        int n = snprintf(im->options + used, sizeof im->options - used, " -D%s=%ld",
                         cfg->params.name[i], cfg->params.value[i]);
        if (n < 0 || (size_t)n >= sizeof im->options - used)
            return gb__ctx_fail(im->ctx, GB_EBADPARAM, "build options too long");
        used += (size_t)n;
    }
    return GB_OK;
}

/* Work-group and global sizes from a pair of expressions, rounded up to whole work-groups
 * (kernels guard their edges); no local pair leaves the work-group size to the driver. Where
 * optional, a global size of 0 or less in either dimension means no launch: both come out 0. */
static int launch_size(gb_impl_t *im, const gb_family_t *f, const char *what,
                       char *const global[2], char *const local[2], int optional,
                       const gb_var_t *vars, size_t nv, size_t g_out[2], size_t l_out[2])
{
    long long g[2], l[2] = {1, 1};
    int rc;
    for (int d = 0; d < 2; d++)
        if ((rc = optional ? eval_any(im, f, what, global[d], vars, nv, &g[d])
                           : eval(im, f, what, global[d], vars, nv, &g[d])))
            return rc;
    if (g[0] <= 0 || g[1] <= 0) {
        g_out[0] = g_out[1] = 0;
        return GB_OK;
    }
    for (int d = 0; d < 2; d++) {
        if (local[d] && (rc = eval(im, f, "local size", local[d], vars, nv, &l[d])))
            return rc;
        l_out[d] = (size_t)l[d];
        g_out[d] = ((size_t)g[d] + l_out[d] - 1) / l_out[d] * l_out[d];
    }
    return GB_OK;
}

static int geometry(gb_impl_t *im, const gb_config_t *cfg)
{
    const gb_family_t *f = cfg->family;
    gb_var_t vars[GB_MAX_PARAMS + 8 + GB_MAX_LETS];
    size_t nv = gb__config_vars(cfg, im->prob.precision, &im->prob, vars);
    vars[nv++] = (gb_var_t){"NVIDIA", nvidia_gpu(im->ctx->dev)};
    vars[nv++] = (gb_var_t){"CUS", (long long)im->ctx->dev->compute_units};
    for (size_t i = 0; i < f->nlets; i++) {
        long long v;
        char what[96];
        snprintf(what, sizeof what, "let.%s", f->let_names[i]);
        int rc = eval_any(im, f, what, f->let_exprs[i], vars, nv, &v);
        if (rc)
            return rc;
        vars[nv++] = (gb_var_t){f->let_names[i], v};
    }
    im->local_null = f->local[0] == NULL;
    int rc = launch_size(im, f, "global size", f->global, f->local, 0, vars, nv, im->global,
                         im->local);
    /* The remainder kernel runs where its global size is positive (0: nothing left over). */
    if (rc == GB_OK && f->rem_entry)
        rc = launch_size(im, f, "remainder global size", f->rem_global, f->rem_local, 1, vars,
                         nv, im->rem_global, im->rem_local);
    /* The workspace in bytes; a token buffer where it is 0, as a kernel argument needs one. */
    long long ws = 0;
    if (rc == GB_OK && f->workspace &&
        (rc = eval_any(im, f, "workspace", f->workspace, vars, nv, &ws)) == GB_OK && ws < 0)
        rc = gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: workspace '%s' is %lld bytes, negative",
                          f->origin, f->workspace, ws);
    im->ws_bytes = ws > 16 ? (size_t)ws : 16;
    return rc;
}

static int set_args(gb_impl_t *im, cl_kernel kernel, const gb_family_t *f, cl_mem a, cl_mem b,
                    cl_mem c)
{
    const gb_problem_t *p = &im->prob;
    for (size_t i = 0; i < f->nargs; i++) {
        const char *n = f->args[i];
        cl_int err;
        cl_uint idx = (cl_uint)i;
        if (!strcmp(n, "A") || !strcmp(n, "B") || !strcmp(n, "C")) {
            cl_mem m = n[0] == 'A' ? a : n[0] == 'B' ? b : c;
            err = clSetKernelArg(kernel, idx, sizeof m, &m);
        } else if (!strcmp(n, "WS")) {
            err = clSetKernelArg(kernel, idx, sizeof im->ws, &im->ws);
        } else if (!strcmp(n, "CUS")) {
            const cl_int cus = (cl_int)im->ctx->dev->compute_units;
            err = clSetKernelArg(kernel, idx, sizeof cus, &cus);
        } else if (!strcmp(n, "imgA") || !strcmp(n, "imgB")) {
            cl_mem m = n[3] == 'A' ? im->img_a : im->img_b;
            err = clSetKernelArg(kernel, idx, sizeof m, &m);
        } else if (!strcmp(n, "alpha") || !strcmp(n, "beta")) {
            double v = n[0] == 'a' ? p->alpha : p->beta;
            float fv = (float)v;
            err = p->precision == GB_PREC_D ? clSetKernelArg(kernel, idx, sizeof v, &v)
                                            : clSetKernelArg(kernel, idx, sizeof fv, &fv);
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
            err = clSetKernelArg(kernel, idx, sizeof iv, &iv);
        }
        if (err != CL_SUCCESS)
            return gb__ctx_fail(im->ctx, GB_EMETADATA,
                                "%s: setting argument %zu '%s' failed (%s); the 'args' list must "
                                "match the kernel's parameters",
                                f->origin, i, n, gb__cl_errname(err));
    }
    return GB_OK;
}

static cl_mem buffer(gb_impl_t *im, size_t elems, cl_mem_flags flags, const char *what, int *rc)
{
    cl_int err;
    cl_mem m = clCreateBuffer(im->ctx->cl, flags, elems * gb_precision_bytes(im->prob.precision),
                              NULL, &err);
    *rc = gb__cl_check(im->ctx, err, what);
    return m;
}

static void route_add(gb_impl_t *im, const char *what)
{
    size_t used = strlen(im->route);
    snprintf(im->route + used, sizeof im->route - used, "%s%s", used ? ", " : "", what);
}

/* Whether leading dimension ld is a multiple of avoid (0: nothing avoided). */
static int avoided(size_t ld, size_t avoid)
{
    return avoid && ld % avoid == 0;
}

/* The leading dimension of a copy whose rows hold inner elements: the next multiple of mult,
 * and one multiple more where that is a multiple of avoid. */
static size_t copy_ld(size_t inner, size_t mult, size_t avoid)
{
    const size_t ld = round_up(inner, mult);
    return avoided(ld, avoid) ? ld + mult : ld;
}

/* Plans the route and the padding, builds the programs and adds the helper passes. */
static int plan(gb_impl_t *im, const gb_config_t *cfg, const gb_problem_t *p)
{
    const gb_family_t *f = cfg->family;
    gb_problem_t q;
    int flip_a, flip_b, rc;
    if (!choose_route(f, p, &q, &im->swapped, &flip_a, &flip_b))
        return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: no native layout", f->origin);
    /* Tile multiples the kernel needs; the problem is zero-padded up to them. */
    size_t mult[3] = {1, 1, 1}, ldm[3] = {1, 1, 1}; /* and of A's, B's, C's ld and offset */
    size_t ld_avoid[3] = {0, 0, 0}; /* ld multiples to copy away from (0: none) */
    gb_var_t vars[GB_MAX_PARAMS + 8];
    size_t nv = gb__config_vars(cfg, q.precision, &q, vars);
    for (int d = 0; d < 3; d++) {
        long long v;
        if (f->multiple[d] && (rc = eval(im, f, "multiple_of", f->multiple[d], vars, nv, &v)))
            return rc;
        mult[d] = f->multiple[d] ? (size_t)v : 1;
        if (f->ld_multiple[d] &&
            (rc = eval(im, f, "ld_multiple_of", f->ld_multiple[d], vars, nv, &v)))
            return rc;
        ldm[d] = f->ld_multiple[d] ? (size_t)v : 1;
        if (f->ld_avoid[d] &&
            (rc = eval(im, f, "ld_avoid_multiple_of", f->ld_avoid[d], vars, nv, &v)))
            return rc;
        ld_avoid[d] = f->ld_avoid[d] ? (size_t)v : 0;
    }
    gb_problem_t k = q; /* what the kernel sees */
    k.m = round_up(q.m, mult[0]);
    k.n = round_up(q.n, mult[1]);
    k.k = round_up(q.k, mult[2]);
    k.trans_a = flip_a ? !q.trans_a : q.trans_a;
    k.trans_b = flip_b ? !q.trans_b : q.trans_b;
    const int pad_m = k.m != q.m, pad_n = k.n != q.n, pad_k = k.k != q.k;
    size_t ra, ca, rb, cb, oa, ia, ob, ib, oc, ic;
    gb__stored_a(&k, &ra, &ca);
    gb__stored_b(&k, &rb, &cb);
    stored(&k, ra, ca, &oa, &ia);
    stored(&k, rb, cb, &ob, &ib);
    stored(&k, k.m, k.n, &oc, &ic);
    /* An operand is copied when it must be transposed or padded, when the kernel takes no
     * leading dimension or offset and the caller's are not the minimum and zero, when they
     * are not the multiples it asks for (the copy's leading dimension is rounded up to one),
     * or when the leading dimension is a multiple it avoids (the copy's is one multiple more). */
    const int img_a = has_arg(f, "imgA"), img_b = has_arg(f, "imgB");
    /* An operand read as an image is always copied: the image is made over the copy, never
     * over the caller's buffer, with rows padded to the device's image pitch alignment. */
    const int copy_a = img_a || flip_a || pad_m || pad_k ||
                       (!has_arg(f, "lda") && q.lda != ia) || (!has_arg(f, "offA") && q.off_a) ||
                       q.lda % ldm[0] || q.off_a % ldm[0] || avoided(q.lda, ld_avoid[0]);
    const int copy_b = img_b || flip_b || pad_n || pad_k ||
                       (!has_arg(f, "ldb") && q.ldb != ib) || (!has_arg(f, "offB") && q.off_b) ||
                       q.ldb % ldm[1] || q.off_b % ldm[1] || avoided(q.ldb, ld_avoid[1]);
    const gb_device_info_t *dev = im->ctx->dev;
    const size_t lda_k = img_a ? gb__image_ld(dev, ia) : copy_ld(ia, ldm[0], ld_avoid[0]);
    const size_t ldb_k = img_b ? gb__image_ld(dev, ib) : copy_ld(ib, ldm[1], ld_avoid[1]);
    const size_t ldc_k = copy_ld(ic, ldm[2], ld_avoid[2]);
    size_t elems_ta = 0, elems_tb = 0;
    if ((copy_a && (!gb__mul_ok(oa, lda_k, &elems_ta) || elems_ta > INT_MAX)) ||
        (copy_b && (!gb__mul_ok(ob, ldb_k, &elems_tb) || elems_tb > INT_MAX)))
        return gb__ctx_fail(im->ctx, GB_EOVERFLOW, "the padded copy of an operand exceeds 2^31-1 "
                            "elements; use a smaller problem");
    const int copy_c = pad_m || pad_n || (!has_arg(f, "ldc") && q.ldc != ic) ||
                       (!has_arg(f, "offC") && q.off_c) || q.ldc % ldm[2] || q.off_c % ldm[2] ||
                       avoided(q.ldc, ld_avoid[2]);
    if (copy_a) {
        k.lda = lda_k;
        k.off_a = 0;
    }
    if (copy_b) {
        k.ldb = ldb_k;
        k.off_b = 0;
    }
    if (copy_c) {
        k.ldc = ldc_k;
        k.off_c = 0;
    }
    im->prob = k;
    im->route[0] = '\0';
    route_add(im, im->swapped ? "swap" : "native");
    /* Named as the caller knows them: after the swap the kernel's A is the caller's B. */
    if (flip_a)
        route_add(im, im->swapped ? "transpose B" : "transpose A");
    if (flip_b)
        route_add(im, im->swapped ? "transpose A" : "transpose B");
    if (pad_m || pad_n || pad_k) {
        char what[48];
        snprintf(what, sizeof what, "pad to %zux%zux%zu", k.m, k.n, k.k);
        route_add(im, what);
    }
    if ((copy_a && !img_a && !flip_a && !pad_m && !pad_k) ||
        (copy_b && !img_b && !flip_b && !pad_n && !pad_k) || (copy_c && !pad_m && !pad_n))
        route_add(im, "repack");
    /* "image A" is a view of A's packed copy; "A copied to image" a second copy per call. */
    const int view = dev->image2d_from_buffer;
    if (img_a)
        route_add(im, im->swapped ? (view ? "image B" : "B copied to image")
                                  : (view ? "image A" : "A copied to image"));
    if (img_b)
        route_add(im, im->swapped ? (view ? "image A" : "A copied to image")
                                  : (view ? "image B" : "B copied to image"));
    if ((rc = build_options(im, cfg)) || (rc = geometry(im, cfg)))
        return rc;

    const char *prelude = gb__embedded("prelude.cl")->data;
    const char *helpers = gb__embedded("helpers.cl")->data;
    double ms;
    int hit;
    if ((rc = gb__program_get(im->ctx, f->name, prelude, f->source, im->options, &im->program,
                              &im->build_ms, &im->cache_hit)))
        return rc;
    if (copy_a || copy_b || copy_c) {
        char opts[64];
        snprintf(opts, sizeof opts, "-DGB_PRECISION=%d", k.precision == GB_PREC_D ? 64 : 32);
        if ((rc = gb__program_get(im->ctx, "helpers", prelude, helpers, opts, &im->helpers, &ms,
                                  &hit)))
            return rc;
        im->build_ms += ms;
        im->cache_hit &= hit;
    }
    cl_int err;
    im->kernel = clCreateKernel(im->program, f->entry, &err);
    if (err != CL_SUCCESS)
        return gb__ctx_fail(im->ctx, GB_EMETADATA, "%s: no kernel named '%s' in %s (%s); fix 'entry'",
                            f->origin, f->entry, f->source_file, gb__cl_errname(err));
    /* The compiled kernel may allow fewer work-items per group than the device (registers):
     * refuse before launch, with the reason, rather than fail the launch. */
    size_t kmax = 0;
    if (!im->local_null &&
        clGetKernelWorkGroupInfo(im->kernel, (cl_device_id)im->ctx->dev->cl_device,
                                 CL_KERNEL_WORK_GROUP_SIZE, sizeof kmax, &kmax, NULL) == CL_SUCCESS &&
        kmax > 0 && im->local[0] * im->local[1] > kmax)
        return gb__ctx_fail(im->ctx, GB_EWGSIZE,
                            "kernel '%s' as compiled allows work-groups of at most %zu work-items "
                            "on this device (register use), but its parameters ask for %zu x %zu; "
                            "choose parameters with fewer work-items per group",
                            gb_config_name(cfg), kmax, im->local[0], im->local[1]);
    if (im->rem_global[0]) {
        im->rem_kernel = clCreateKernel(im->program, f->rem_entry, &err);
        if (err != CL_SUCCESS)
            return gb__ctx_fail(im->ctx, GB_EMETADATA,
                                "%s: no kernel named '%s' in %s (%s); fix 'remainder.entry'",
                                f->origin, f->rem_entry, f->source_file, gb__cl_errname(err));
        route_add(im, "remainder kernel");
    }

    /* Caller's buffers, then temporaries, then the passes between them. */
    size_t ea, eb, ec;
    gb_problem_buffer_elems(p, &ea, &eb, &ec);
    const size_t es = gb_precision_bytes(p->precision);
    im->bytes_a = ea * es;
    im->bytes_b = eb * es;
    im->bytes_c = ec * es;
    if (!(im->a = buffer(im, ea, CL_MEM_READ_ONLY, "clCreateBuffer(A)", &rc)) ||
        !(im->b = buffer(im, eb, CL_MEM_READ_ONLY, "clCreateBuffer(B)", &rc)) ||
        !(im->c = buffer(im, ec, CL_MEM_READ_WRITE, "clCreateBuffer(C)", &rc)))
        return rc;
    if (f->workspace) {
        im->ws = clCreateBuffer(im->ctx->cl, CL_MEM_READ_WRITE, im->ws_bytes, NULL, &err);
        if ((rc = gb__cl_check(im->ctx, err, "allocating the kernel's workspace")))
            return rc;
    }
    cl_mem qa = im->swapped ? im->b : im->a, qb = im->swapped ? im->a : im->b;
    size_t sr, sc, so, si;
    /* An image's copy is zero-filled out to its padded leading dimension (the pitch). */
    if (copy_a) {
        if (!(im->ta = buffer(im, elems_ta, CL_MEM_READ_WRITE, "allocating A's copy", &rc)))
            return rc;
        gb__stored_a(&q, &sr, &sc);
        stored(&q, sr, sc, &so, &si);
        if ((rc = gb__pass_copy(im, 0, im->ta, oa, lda_k, 0, lda_k, qa, so, si, q.off_a, q.lda,
                           flip_a)) ||
            (img_a && (rc = gb__pass_image(im, &im->img_a, im->ta, lda_k, oa, "A"))))
            return rc;
    }
    if (copy_b) {
        if (!(im->tb = buffer(im, elems_tb, CL_MEM_READ_WRITE, "allocating B's copy", &rc)))
            return rc;
        gb__stored_b(&q, &sr, &sc);
        stored(&q, sr, sc, &so, &si);
        if ((rc = gb__pass_copy(im, 0, im->tb, ob, ldb_k, 0, ldb_k, qb, so, si, q.off_b, q.ldb,
                           flip_b)) ||
            (img_b && (rc = gb__pass_image(im, &im->img_b, im->tb, ldb_k, ob, "B"))))
            return rc;
    }
    if (copy_c) {
        if (!(im->tc = buffer(im, oc * ldc_k, CL_MEM_READ_WRITE, "allocating C's copy", &rc)))
            return rc;
        stored(&q, q.m, q.n, &so, &si);
        /* With beta 0 the kernel does not read C, so nothing needs copying in. */
        if (p->beta != 0.0 &&
            (rc = gb__pass_copy(im, 0, im->tc, oc, ic, 0, ldc_k, im->c, so, si, q.off_c, q.ldc, 0)))
            return rc;
        if ((rc = gb__pass_copy(im, 1, im->c, so, si, q.off_c, q.ldc, im->tc, oc, ic, 0, ldc_k, 0)))
            return rc;
    }
    cl_mem ka = copy_a ? im->ta : qa, kb = copy_b ? im->tb : qb, kc = copy_c ? im->tc : im->c;
    if ((rc = set_args(im, im->kernel, f, ka, kb, kc)))
        return rc;
    return im->rem_kernel ? set_args(im, im->rem_kernel, f, ka, kb, kc) : GB_OK;
}

int gb__impl_prepare(gb_context_t *ctx, const gb_config_t *cfg, const gb_problem_t *p,
                     gb_impl_t **out)
{
    *out = NULL;
    gb_impl_t *im = calloc(1, sizeof *im);
    if (!im)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    im->ctx = ctx;
    int rc = plan(im, cfg, p);
    if (rc != GB_OK) {
        gb__impl_release(im);
        return rc;
    }
    *out = im;
    return GB_OK;
}

static double event_ms(cl_event ev, cl_int *err)
{
    cl_ulong start = 0, end = 0;
    if (*err == CL_SUCCESS)
        *err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
    if (*err == CL_SUCCESS)
        *err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
    return end > start ? (double)(end - start) * 1e-6 : 0.0;
}

static cl_int enqueue_pass(cl_command_queue q, const gb_pass_t *ps, cl_event *ev)
{
    if (ps->kernel)
        return clEnqueueNDRangeKernel(q, ps->kernel, 2, NULL, ps->global,
                                      ps->local[0] ? ps->local : NULL, 0, NULL, ev);
    const size_t origin[3] = {0, 0, 0}, region[3] = {ps->region[0], ps->region[1], 1};
    return clEnqueueCopyBufferToImage(q, ps->src, ps->image, 0, origin, region, 0, NULL, ev);
}

int gb__impl_call(gb_impl_t *im, const void *a, const void *b, const void *c, void *c_out,
                  double t[GB_PHASE_COUNT])
{
    enum { W_A, W_B, W_C, PRE, MAIN = PRE + GB_MAX_PASSES, REM, POST, READ = POST + GB_MAX_PASSES,
           NEV };
    cl_event ev[NEV] = {0};
    cl_command_queue q = im->ctx->queue;
    cl_int err = CL_SUCCESS;
    const char *what = "writing A";
    memset(t, 0, GB_PHASE_COUNT * sizeof *t);
    const double t0 = gb__now_ms();
    if (a)
        err = clEnqueueWriteBuffer(q, im->a, CL_FALSE, 0, im->bytes_a, a, 0, NULL, &ev[W_A]);
    if (b && err == CL_SUCCESS && (what = "writing B"))
        err = clEnqueueWriteBuffer(q, im->b, CL_FALSE, 0, im->bytes_b, b, 0, NULL, &ev[W_B]);
    if (c && err == CL_SUCCESS && (what = "writing C"))
        err = clEnqueueWriteBuffer(q, im->c, CL_FALSE, 0, im->bytes_c, c, 0, NULL, &ev[W_C]);
    for (size_t i = 0; i < im->npasses && err == CL_SUCCESS; i++)
        if (!im->passes[i].post && (what = "a helper pass"))
            err = enqueue_pass(q, &im->passes[i], &ev[PRE + i]);
    if (err == CL_SUCCESS && (what = "the main kernel"))
        err = clEnqueueNDRangeKernel(q, im->kernel, 2, NULL, im->global,
                                     im->local_null ? NULL : im->local, 0, NULL, &ev[MAIN]);
    if (im->rem_kernel && err == CL_SUCCESS && (what = "the remainder kernel"))
        err = clEnqueueNDRangeKernel(q, im->rem_kernel, 2, NULL, im->rem_global, im->rem_local,
                                     0, NULL, &ev[REM]);
    for (size_t i = 0; i < im->npasses && err == CL_SUCCESS; i++)
        if (im->passes[i].post && (what = "a helper pass"))
            err = enqueue_pass(q, &im->passes[i], &ev[POST + i]);
    if (c_out && err == CL_SUCCESS && (what = "reading C"))
        err = clEnqueueReadBuffer(q, im->c, CL_FALSE, 0, im->bytes_c, c_out, 0, NULL, &ev[READ]);
    cl_int fin = clFinish(q);
    t[GB_PHASE_WALL] = gb__now_ms() - t0;
    if (err == CL_SUCCESS && fin != CL_SUCCESS && (what = "finishing the call"))
        err = fin;
    for (int i = 0; i < NEV; i++) {
        if (!ev[i])
            continue;
        const double ms = event_ms(ev[i], &err);
        const gb_phase_t ph = i <= W_C ? GB_PHASE_H2D : i == MAIN || i == REM ? GB_PHASE_MAIN
                              : i == READ ? GB_PHASE_D2H : GB_PHASE_HELPERS;
        t[ph] += ms;
        clReleaseEvent(ev[i]);
    }
    if (err != CL_SUCCESS)
        return gb__ctx_fail(im->ctx, GB_EOPENCL,
                            "%s failed: %s (global %zu x %zu, work-group %zu x %zu)", what,
                            gb__cl_errname(err), im->global[0], im->global[1], im->local[0],
                            im->local[1]);
    t[GB_PHASE_OPS] = t[GB_PHASE_MAIN] + t[GB_PHASE_HELPERS];
    t[GB_PHASE_OFFLOAD] = t[GB_PHASE_OPS] + t[GB_PHASE_H2D] + t[GB_PHASE_D2H];
    return GB_OK;
}

void gb__impl_release(gb_impl_t *im)
{
    if (!im)
        return;
    /* Images before the buffers they may be views of. */
    cl_mem mems[] = {im->img_a, im->img_b, im->a, im->b, im->c, im->ta, im->tb, im->tc, im->ws};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++)
        if (mems[i])
            clReleaseMemObject(mems[i]);
    for (size_t i = 0; i < im->npasses; i++)
        if (im->passes[i].kernel)
            clReleaseKernel(im->passes[i].kernel);
    if (im->kernel)
        clReleaseKernel(im->kernel);
    if (im->rem_kernel)
        clReleaseKernel(im->rem_kernel);
    if (im->program)
        clReleaseProgram(im->program);
    if (im->helpers)
        clReleaseProgram(im->helpers);
    free(im);
}
