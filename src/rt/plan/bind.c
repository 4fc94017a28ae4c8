/* bind.c: kernel arguments of a routed problem and of its gb_copy passes (bind.h). */
#include <string.h>

#include "bind.h"

/* clSetKernelArg, unless cache says the kernel holds that value already. Memory objects are
 * always set: a released buffer's handle may come back for a new one, which the kernel must not
 * take for the old (their driver-side addresses differ). */
static cl_int put_mem(cl_kernel kernel, gb_argcache_t *cache, cl_uint idx, const cl_mem *m)
{
    if (cache && idx < GB_BIND_CACHED_ARGS)
        cache->size[idx] = 0;
    return clSetKernelArg(kernel, idx, sizeof *m, m);
}

static cl_int put(cl_kernel kernel, gb_argcache_t *cache, cl_uint idx, size_t size, const void *v)
{
    const int cached = cache && idx < GB_BIND_CACHED_ARGS && size <= sizeof cache->value[0];
    if (cached && cache->size[idx] == size && !memcmp(cache->value[idx], v, size))
        return CL_SUCCESS;
    const cl_int err = clSetKernelArg(kernel, idx, size, v);
    if (cached) {
        cache->size[idx] = err == CL_SUCCESS ? (unsigned char)size : 0;
        memcpy(cache->value[idx], v, size);
    }
    return err;
}

/* The value of argument n for the kernel: a buffer, a scalar, a problem size or one of the
 * family's lets. */
static cl_int set_arg(cl_kernel kernel, gb_argcache_t *cache, cl_uint idx, const char *n,
                      const gb_family_t *f, const gb_route_t *r, const gb_problem_t *p,
                      const gb_binding_t *b)
{
    if (!strcmp(n, "A") || !strcmp(n, "B") || !strcmp(n, "C")) {
        /* The kernel's operand: its temporary, else the caller's (after the swap the kernel's A
         * is the caller's B). */
        const int d = n[0] - 'A', caller = d < 2 && r->swapped ? 1 - d : d;
        const cl_mem m = b->buf[r->copy[d] ? GB_BUF_TA + d : caller];
        return put_mem(kernel, cache, idx, &m);
    }
    if (!strcmp(n, "WS"))
        return put_mem(kernel, cache, idx, &b->ws);
    if (!strcmp(n, "imgA") || !strcmp(n, "imgB"))
        return put_mem(kernel, cache, idx, &b->img[n[3] - 'A']);
    if (!strcmp(n, "alpha") || !strcmp(n, "beta")) {
        const double v = n[0] == 'a' ? p->alpha : p->beta;
        const float fv = (float)v;
        return p->precision == GB_PREC_D ? put(kernel, cache, idx, sizeof v, &v)
                                         : put(kernel, cache, idx, sizeof fv, &fv);
    }
    static const char *const names[] = {"M", "N", "K", "lda", "ldb", "ldc", "offA", "offB", "offC"};
    const size_t values[] = {p->m,   p->n,     p->k,     p->lda,  p->ldb,
                             p->ldc, p->off_a, p->off_b, p->off_c};
    long long v = -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(n, names[i]))
            v = (long long)values[i]; /* gb_problem_check keeps every size below 2^31 */
    if (!strcmp(n, "CUS"))
        v = (long long)b->compute_units;
    for (size_t i = 0; v < 0 && i < f->nlets; i++)
        if (!strcmp(n, f->let_names[i]))
            v = r->lets[i];
    const cl_int iv = (cl_int)v;
    return put(kernel, cache, idx, sizeof iv, &iv);
}

int gb__bind_args(cl_kernel kernel, const gb_family_t *f, const gb_route_t *r,
                  const gb_problem_t *kp, const gb_binding_t *b, gb_argcache_t *cache, char *msg,
                  size_t msglen)
{
    for (size_t i = 0; i < f->nargs; i++) {
        const cl_int err = set_arg(kernel, cache, (cl_uint)i, f->args[i], f, r, kp, b);
        if (err != CL_SUCCESS)
            return gb__fail(msg, msglen, GB_EMETADATA,
                            "%s: setting argument %zu '%s' failed (%s); the 'args' list must "
                            "match the kernel's parameters",
                            f->origin, i, f->args[i], gb__cl_errname(err));
    }
    return GB_OK;
}

void gb__copy_geometry(const gb_device_info_t *dev, const gb_route_copy_t *c, int *wide,
                       size_t global[2], size_t local[2])
{
    /* Four elements per work-item where the destination's rows are 4-aligned. */
    *wide = !c->trans && c->d_off % 4 == 0 && c->d_ld % 4 == 0;
    /* A straight copy reads and writes rows: 64 work-items along them give each warp or wave
     * whole 128-byte lines. A transposing copy reads across rows either way: square groups. */
    const size_t lx = c->trans ? 16 : 64, ly = c->trans ? 16 : 4;
    const size_t cols = *wide ? (c->d_inner + 3) / 4 : c->d_inner; /* work-items along a row */
    /* 0: the implementation chooses (a device that cannot run 256 work-items in a group). */
    const int fits = dev->max_wg_size >= lx * ly;
    local[0] = fits ? lx : 0;
    local[1] = fits ? ly : 0;
    global[0] = (cols + lx - 1) / lx * lx;
    global[1] = (c->d_outer + ly - 1) / ly * ly;
}

cl_int gb__copy_args(cl_kernel k, int wide, const gb_route_copy_t *c, cl_mem dst, cl_mem src)
{
    const cl_int v[] = {(cl_int)c->d_outer, (cl_int)c->d_inner, (cl_int)c->d_off,
                        (cl_int)c->d_ld,    (cl_int)c->s_outer, (cl_int)c->s_inner,
                        (cl_int)c->s_off,   (cl_int)c->s_ld,    c->trans};
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_int), &v[0]);
    err |= clSetKernelArg(k, 1, sizeof(cl_int), &v[1]);
    err |= clSetKernelArg(k, 2, sizeof dst, &dst);
    err |= clSetKernelArg(k, 3, sizeof(cl_int), &v[2]);
    err |= clSetKernelArg(k, 4, sizeof(cl_int), &v[3]);
    err |= clSetKernelArg(k, 5, sizeof(cl_int), &v[4]);
    err |= clSetKernelArg(k, 6, sizeof(cl_int), &v[5]);
    err |= clSetKernelArg(k, 7, sizeof src, &src);
    err |= clSetKernelArg(k, 8, sizeof(cl_int), &v[6]);
    err |= clSetKernelArg(k, 9, sizeof(cl_int), &v[7]);
    if (!wide)
        err |= clSetKernelArg(k, 10, sizeof(cl_int), &v[8]);
    return err;
}
