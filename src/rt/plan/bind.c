/* bind.c: the kernel arguments of a routed problem (bind.h). */
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
        const cl_mem m =
            d == 1 && r->b_panels ? b->ws : b->buf[r->copy[d] ? GB_BUF_TA + d : caller];
        return put_mem(kernel, cache, idx, &m);
    }
    if (!strcmp(n, "WS"))
        return put_mem(kernel, cache, idx, &b->ws);
    if (!strcmp(n, "CNT"))
        return put_mem(kernel, cache, idx, &b->cnt);
    if (!strcmp(n, "imgA") || !strcmp(n, "imgB"))
        return put_mem(kernel, cache, idx, &b->img[n[3] - 'A']);
    if (!strcmp(n, "alpha") || !strcmp(n, "beta") || !strcmp(n, "alphaRe") ||
        !strcmp(n, "alphaIm")) {
        /* alpha and beta as the kernel applies them; alphaRe and alphaIm what 1M's Y carries of
         * alpha, (1, 0) unless alpha is complex, for a kernel that stages Y from B itself
         * (expand_b) and so multiplies by it. */
        double ks[2], pa[2], pb[2];
        gb__route_scalars(r, p, ks, pa, pb);
        const int y = !strncmp(n, "alpha", 5) && n[5] != '\0';
        const double v = y ? pa[n[5] == 'R' ? 0 : 1] : ks[n[0] == 'a' ? 0 : 1];
        const float fv = (float)v;
        if (!y && gb_precision_is_complex(p->precision)) { /* a real2: real and imaginary parts */
            const double dv[2] = {v, n[0] == 'a' ? p->alpha_im : p->beta_im};
            const float sv[2] = {(float)dv[0], (float)dv[1]};
            return p->precision == GB_PREC_Z ? put(kernel, cache, idx, sizeof dv, dv)
                                             : put(kernel, cache, idx, sizeof sv, sv);
        }
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
