/* geometry.c: what a planned route builds and launches (route_int.h): the build options, the
 * global and local sizes, the checks that a launch fits the device, and the declared traffic,
 * all from the family's metadata expressions over the problem as the kernel sees it; and the
 * pieces route.c plans with too (an expression's value, the route's text). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rt/core/core.h"
#include "rt/family/expr.h"
#include "rt/family/registry.h"
#include "route.h"
#include "route_int.h"

size_t gb__round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Where families may take NVIDIA-only paths: -DGB_NVIDIA=1, and NVIDIA = 1 in expressions. */
int gb__route_nvidia(const gb_device_info_t *dev)
{
    return strstr(dev->vendor, "NVIDIA") && !strcmp(dev->type_name, "gpu");
}

size_t gb__route_device_vars(const gb_device_info_t *dev, gb_var_t *vars)
{
    vars[0] = (gb_var_t){"NVIDIA", dev && gb__route_nvidia(dev)};
    vars[1] = (gb_var_t){"CUS", dev ? (long long)dev->compute_units : 1};
    return GB_DEVICE_VARS;
}

/* Evaluates the metadata expression expr (key what); a failure names the key. With positive,
 * the value must be at least 1 (sizes, multiples). */
int gb__route_eval(const gb_family_t *f, const gb_route_vars_t *vs, const char *what,
                   const char *expr, int positive, long long *out, char *msg, size_t msglen)
{
    char why[256];
    if (gb__expr_eval(expr, vs->v, vs->n, out, why, sizeof why) != GB_OK)
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: %s: %s", f->origin, what, why);
    if (positive && *out < 1)
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: %s '%s' is %lld, not positive", f->origin,
                        what, expr, *out);
    return GB_OK;
}

void gb__route_text_add(gb_route_t *r, const char *what)
{
    size_t used = strlen(r->text);
    snprintf(r->text + used, sizeof r->text - used, "%s%s", used ? ", " : "", what);
}

/* An optional key's expression evaluated (0 where the family has none). */
static int eval_or_zero(const gb_family_t *f, const gb_route_vars_t *vs, const char *what,
                        const char *expr, long long *out, char *msg, size_t msglen)
{
    *out = 0;
    return expr ? gb__route_eval(f, vs, what, expr, 0, out, msg, msglen) : GB_OK;
}

/* eval_or_zero for a size, which may not be negative; unit names what it counts (" bytes"). */
static int size_or_zero(const gb_family_t *f, const gb_route_vars_t *vs, const char *what,
                        const char *expr, const char *unit, long long *out, char *msg,
                        size_t msglen)
{
    int rc = eval_or_zero(f, vs, what, expr, out, msg, msglen);
    if (rc == GB_OK && *out < 0)
        rc = gb__fail(msg, msglen, GB_EMETADATA, "%s: %s '%s' is %lld%s, negative", f->origin, what,
                      expr, *out, unit);
    return rc;
}

/* A buffer of bytes, at least a token 16 where a kernel argument needs one. */
static size_t token_bytes(size_t bytes)
{
    return bytes > 16 ? bytes : 16;
}

/* The build options: precision, the layout the kernel sees, the vendor path, the register cap,
 * every parameter, and the lets that depend only on those and the device: constants the kernel
 * reads rather than computes again. */
int gb__route_options(const gb_config_t *cfg, const gb_device_info_t *dev,
                      const gb_route_vars_t *vs, gb_route_t *r, char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    const gb_problem_t *p = &r->kernel;
    char prec[64];
    size_t used = (size_t)snprintf(
        r->options, sizeof r->options, "%s -DGB_ROW_MAJOR=%d -DGB_TRANS_A=%d -DGB_TRANS_B=%d",
        gb__precision_options(p->precision, prec, sizeof prec), p->layout == GB_ROW_MAJOR,
        p->trans_a == GB_TRANS, p->trans_b == GB_TRANS);
    if (gb_precision_is_complex(p->precision))
        used += (size_t)snprintf(r->options + used, sizeof r->options - used,
                                 " -DGB_CONJ_A=%d -DGB_CONJ_B=%d", p->conj_a != 0, p->conj_b != 0);
    const char *ptx = gb__config_ptx(cfg, p->precision);
    if (ptx && gb__route_nvidia(dev))
        snprintf(r->ptx, sizeof r->ptx, "%s", ptx);
    if (gb__route_nvidia(dev)) {
        used += (size_t)snprintf(r->options + used, sizeof r->options - used, " -DGB_NVIDIA=1");
        long long regs, groups;
        int rc;
        if ((rc = eval_or_zero(f, vs, "nvidia_max_registers", f->nv_max_registers, &regs, msg,
                               msglen)) != GB_OK ||
            (rc = eval_or_zero(f, vs, "nvidia_min_groups", f->nv_min_groups, &groups, msg,
                               msglen)) != GB_OK)
            return rc;
        if (regs > 0)
            used += (size_t)snprintf(r->options + used, sizeof r->options - used,
                                     " -cl-nv-maxrregcount=%lld", regs);
        if (groups > 0) {
            const size_t tl = strlen(r->ptx);
            snprintf(r->ptx + tl, sizeof r->ptx - tl, "/%lld", groups > 64 ? 64 : groups);
        }
    }
    int fits = 1;
    for (size_t i = 0; i < cfg->params.count; i++)
        fits &= gb__appendf(r->options, sizeof r->options, &used, " -D%s=%ld", cfg->params.name[i],
                            cfg->params.value[i]);
    gb_route_vars_t cv;
    cv.n = gb__config_vars(cfg, p->precision, NULL, cv.v);
    cv.n += gb__route_device_vars(dev, cv.v + cv.n);
    for (size_t i = 0; i < f->nlets; i++) {
        long long v;
        if (gb__expr_eval(f->let_exprs[i], cv.v, cv.n, &v, NULL, 0) != GB_OK)
            continue; /* it names the problem's sizes */
        cv.v[cv.n++] = (gb_var_t){f->let_names[i], v};
        fits &= gb__appendf(r->options, sizeof r->options, &used, " -D%s=%lld", f->let_names[i], v);
    }
    if (!fits)
        return gb__fail(msg, msglen, GB_EBADPARAM, "%s: build options too long", f->origin);
    if (r->ncopies)
        gb__helper_options(p->precision, r->helper_options, sizeof r->helper_options);
    return GB_OK;
}

const char *gb__helper_options(gb_precision_t prec, char *buf, size_t len)
{
    char opts[64];
    snprintf(buf, len, "%s -DGB_TT=%d", gb__precision_options(prec, opts, sizeof opts),
             GB__TRANSPOSE_BLOCK);
    return buf;
}

/* The most work-items a launch may have along one dimension: 32 bits, the address space of the
 * smallest devices (sizes from metadata gone wrong, like 2^50, trip assertions in drivers). */
#define GB_MAX_GLOBAL 0xffffffffLL

/* Work-group and global sizes from a pair of expressions, rounded up to whole work-groups
 * (kernels guard their edges); no local pair, or one that comes to 0 x 0 (-lws 0,0), leaves the
 * work-group size to the driver, and the global size as it is (l_out 0 x 0). Where
 * optional, a global size of 0 or less in either dimension means no launch: both come out 0.
 * Sizes the device cannot launch are refused here, before any driver sees them. */
static int launch_size(const gb_family_t *f, const gb_device_info_t *dev, const gb_route_vars_t *vs,
                       const char *what, char *const global[2], char *const local[2], int optional,
                       size_t g_out[2], size_t l_out[2], char *msg, size_t msglen)
{
    long long g[2], l[2] = {1, 1};
    int rc;
    for (int d = 0; d < 2; d++)
        if ((rc = gb__route_eval(f, vs, what, global[d], !optional, &g[d], msg, msglen)) != GB_OK)
            return rc;
    if (g[0] <= 0 || g[1] <= 0) {
        g_out[0] = g_out[1] = 0;
        return GB_OK;
    }
    for (int d = 0; d < 2; d++) {
        if (local[d] &&
            (rc = gb__route_eval(f, vs, "local size", local[d], 0, &l[d], msg, msglen)) != GB_OK)
            return rc;
        if (l[d] < 0)
            return gb__fail(msg, msglen, GB_EMETADATA, "%s: local size '%s' is %lld, negative",
                            f->origin, local[d], l[d]);
        if (g[d] > GB_MAX_GLOBAL - l[d])
            return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                            "%s: the %s is %lld work-items along "
                            "dimension %d for this problem, over 2^32-1; the problem is too large "
                            "for this kernel",
                            f->origin, what, g[d], d);
        l_out[d] = (size_t)l[d];
        g_out[d] = l_out[d] ? gb__round_up((size_t)g[d], l_out[d]) : (size_t)g[d];
    }
    if (local[0] && (l_out[0] == 0) != (l_out[1] == 0))
        return gb__fail(msg, msglen, GB_EBADLWS,
                        "%s: the %s's work-group of %zu x %zu: give both sizes, or 0 x 0 for "
                        "the driver's choice",
                        f->origin, what, l_out[0], l_out[1]);
    if (local[0] && (l_out[0] > dev->max_wi_sizes[0] || l_out[1] > dev->max_wi_sizes[1] ||
                     l_out[0] * l_out[1] > dev->max_wg_size))
        return gb__fail(msg, msglen, GB_EWGSIZE,
                        "%s: the %s's work-group of %zu x %zu is over "
                        "device '%s''s limit of %zu (%zu x %zu)",
                        f->origin, what, l_out[0], l_out[1], dev->name, dev->max_wg_size,
                        dev->max_wi_sizes[0], dev->max_wi_sizes[1]);
    return GB_OK;
}

/* a * b, or SIZE_MAX where that overflows. */
static size_t mul_sat(size_t a, size_t b)
{
    size_t out;
    return gb__mul_ok(a, b, &out) ? out : SIZE_MAX;
}

/* Whether a launch of global work-items in work-groups of local (local_null: the driver's
 * choice) fits the problem kp as the kernel sees it: at most factor times the elements of C
 * with a work-group's longest side added to each of its dimensions, the margin that rounding
 * each dimension of the launch up to whole work-groups may add. A prologue prepares an operand
 * (a packed copy of B, say): the largest of A, B and C is its measure. More than that is a
 * family's geometry gone wrong, which a driver would be handed as it is: refused here, as a
 * fault of the metadata. */
static int launch_fits(const gb_family_t *f, const gb_problem_t *kp, const char *what,
                       const size_t global[2], const size_t local[2], int local_null,
                       long long factor, int prologue, char *msg, size_t msglen)
{
    const size_t side = local_null ? 1 : local[0] > local[1] ? local[0] : local[1];
    const size_t m = kp->m + side, n = kp->n + side, k = kp->k + side;
    size_t base = mul_sat(m, n), other;
    if (prologue && (other = mul_sat(k, m > n ? m : n)) > base)
        base = other;
    const size_t limit = mul_sat(base, (size_t)factor);
    const unsigned long long items = (unsigned long long)global[0] * global[1];
    if (items <= limit)
        return GB_OK;
    return gb__fail(msg, msglen, GB_EMETADATA,
                    "%s: the %s is %zu x %zu work-items for a problem of %zu x %zu x %zu (M x N x "
                    "K as the kernel sees it), more than %lld times %s with a work-group's side "
                    "(%zu) added to each dimension; fix the family's sizes, or declare in "
                    "'launch_factor' how many times that it needs (docs/kernel-metadata.md)",
                    f->origin, what, global[0], global[1], kp->m, kp->n, kp->k, factor,
                    prologue ? "the elements of its largest operand" : "the elements of C", side);
}

/* The lets, the launch sizes of the main and side kernels, each checked against the problem
 * (launch_fits), and the workspace. */
int gb__route_geometry(const gb_family_t *f, const gb_device_info_t *dev, gb_route_vars_t *vs,
                       gb_route_t *r, char *msg, size_t msglen)
{
    int rc;
    vs->n += gb__route_device_vars(dev, vs->v + vs->n);
    for (size_t i = 0; i < f->nlets; i++) {
        char what[96];
        snprintf(what, sizeof what, "let.%s", f->let_names[i]);
        if ((rc = gb__route_eval(f, vs, what, f->let_exprs[i], 0, &r->lets[i], msg, msglen)) !=
            GB_OK)
            return rc;
        vs->v[vs->n++] = (gb_var_t){f->let_names[i], r->lets[i]};
    }
    long long factor = 1;
    if (f->launch_factor && (rc = gb__route_eval(f, vs, "launch_factor", f->launch_factor, 1,
                                                 &factor, msg, msglen)) != GB_OK)
        return rc;
    r->factor = factor;
    if ((rc = launch_size(f, dev, vs, "global size", f->global, f->local, 0, r->global, r->local,
                          msg, msglen)) != GB_OK)
        return rc;
    r->local_null = f->local[0] == NULL || r->local[0] == 0;
    if ((rc = launch_fits(f, &r->kernel, "global size", r->global, r->local, r->local_null, factor,
                          0, msg, msglen)) != GB_OK)
        return rc;
    /* A side kernel runs where its global size is positive (0: nothing to do, e.g. nothing
     * left over). */
    for (int s = 0; s < GB_NSIDES; s++) {
        char what[64];
        snprintf(what, sizeof what, "%s global size", gb_side_key(s));
        if (f->side[s].entry &&
            ((rc = launch_size(f, dev, vs, what, f->side[s].global, f->side[s].local, 1,
                               r->side_global[s], r->side_local[s], msg, msglen)) != GB_OK ||
             (rc = launch_fits(f, &r->kernel, what, r->side_global[s], r->side_local[s], 0, factor,
                               s == GB_SIDE_PROLOGUE, msg, msglen)) != GB_OK))
            return rc;
    }
    /* The workspace in bytes and the 32-bit counters; a token buffer where either is 0. */
    long long ws, cnt;
    if ((rc = size_or_zero(f, vs, "workspace", f->workspace, " bytes", &ws, msg, msglen)) ||
        (rc = size_or_zero(f, vs, "counters", f->counters, "", &cnt, msg, msglen)))
        return rc;
    r->has_ws = f->workspace != NULL;
    r->ws_bytes = r->has_ws ? token_bytes((size_t)ws) : 0;
    r->counters = (size_t)cnt;
    r->cnt_bytes = f->counters ? token_bytes(4 * (size_t)cnt) : 0;
    return GB_OK;
}

int gb__route_traffic(const gb_config_t *cfg, const gb_device_info_t *dev, const gb_route_t *r,
                      long long bytes[2], char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    bytes[0] = bytes[1] = -1;
    if (!f->traffic[0])
        return GB_OK;
    /* The names geometry() saw: the problem as the kernel sees it, the device's, the lets. */
    gb_route_vars_t vs;
    vs.n = gb__config_vars(cfg, r->kernel.precision, &r->kernel, vs.v);
    vs.n += gb__route_device_vars(dev, vs.v + vs.n);
    for (size_t i = 0; i < f->nlets; i++)
        vs.v[vs.n++] = (gb_var_t){f->let_names[i], r->lets[i]};
    static const char *const what[2] = {"traffic.read", "traffic.write"};
    for (int d = 0; d < 2; d++) {
        int rc = gb__route_eval(f, &vs, what[d], f->traffic[d], 0, &bytes[d], msg, msglen);
        if (rc == GB_OK && bytes[d] < 0)
            rc = gb__fail(msg, msglen, GB_EMETADATA, "%s: %s '%s' is %lld bytes, negative",
                          f->origin, what[d], f->traffic[d], bytes[d]);
        if (rc != GB_OK) {
            bytes[0] = bytes[1] = -1;
            return rc;
        }
    }
    return GB_OK;
}
