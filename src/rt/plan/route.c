/* route.c: the route planner (route.h): from a configuration, a problem and the device's facts
 * to everything the launch needs, by arithmetic on the family's metadata alone. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "rt/core/core.h"
#include "rt/family/expr.h"
#include "rt/family/registry.h"
#include "onem.h"
#include "route.h"

static int native(const gb_family_t *f, gb_layout_t l, gb_trans_t ta, gb_trans_t tb)
{
    return (f->layouts >> gb_layout_index(l, ta, tb)) & 1u;
}

/* The cheapest way to a native layout: directly or swapped, then with the fewest operands
 * transposed by a helper pass. Sets *q (the caller's problem, swapped where chosen), r->swapped
 * and r->flip. Returns 0 when the family has no native layout. */
static int choose_route(const gb_family_t *f, const gb_problem_t *p, gb_problem_t *q, gb_route_t *r)
{
    for (int cost = 0; cost <= 2; cost++)
        for (int s = 0; s < 2; s++) {
            const gb_problem_t base = s ? gb__problem_swapped(p) : *p;
            for (int fa = 0; fa < 2; fa++)
                for (int fb = 0; fb < 2; fb++) {
                    if (fa + fb != cost)
                        continue;
                    gb_trans_t ta = fa ? !base.trans_a : base.trans_a;
                    gb_trans_t tb = fb ? !base.trans_b : base.trans_b;
                    if (native(f, base.layout, ta, tb)) {
                        *q = base;
                        r->swapped = s;
                        r->flip[0] = fa;
                        r->flip[1] = fb;
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

size_t gb__image_ld(const gb_device_info_t *dev, size_t inner)
{
    size_t align = dev->image2d_from_buffer && dev->image_pitch_align ? dev->image_pitch_align : 1;
    return round_up(inner, align);
}

/* Where families may take NVIDIA-only paths: -DGB_NVIDIA=1, and NVIDIA = 1 in expressions. */
static int nvidia_gpu(const gb_device_info_t *dev)
{
    return strstr(dev->vendor, "NVIDIA") && !strcmp(dev->type_name, "gpu");
}

void gb__route_device(const gb_device_info_t *dev, gb_route_device_t *out)
{
    memset(out, 0, sizeof *out);
    out->nvidia = nvidia_gpu(dev);
    out->compute_units = dev->compute_units;
    out->image2d_from_buffer = dev->image2d_from_buffer;
    out->image_pitch_align = dev->image_pitch_align;
    out->max_wg_size = dev->max_wg_size;
    for (int d = 0; d < 2; d++) {
        out->max_wi_sizes[d] = dev->max_wi_sizes[d];
        out->image2d_max[d] = dev->image2d_max[d];
    }
}

int gb__route_device_same(const gb_route_device_t *a, const gb_route_device_t *b, int limits)
{
    const int facts = a->nvidia == b->nvidia && a->compute_units == b->compute_units &&
                      a->image2d_from_buffer == b->image2d_from_buffer &&
                      a->image_pitch_align == b->image_pitch_align;
    return facts &&
           (!limits ||
            (a->max_wg_size == b->max_wg_size && a->max_wi_sizes[0] == b->max_wi_sizes[0] &&
             a->max_wi_sizes[1] == b->max_wi_sizes[1] && a->image2d_max[0] == b->image2d_max[0] &&
             a->image2d_max[1] == b->image2d_max[1]));
}

/* The variables of one plan: the configuration's parameters, the problem as the kernel sees
 * it, the device's, and the family's lets once evaluated. */
typedef struct vars {
    gb_var_t v[GB_MAX_PARAMS + 8 + 2 + GB_MAX_LETS];
    size_t n;
} vars_t;

/* Evaluates the metadata expression expr (key what); a failure names the key. With positive,
 * the value must be at least 1 (sizes, multiples). */
static int eval(const gb_family_t *f, const vars_t *vs, const char *what, const char *expr,
                int positive, long long *out, char *msg, size_t msglen)
{
    char why[256];
    if (gb__expr_eval(expr, vs->v, vs->n, out, why, sizeof why) != GB_OK)
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: %s: %s", f->origin, what, why);
    if (positive && *out < 1)
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: %s '%s' is %lld, not positive", f->origin,
                        what, expr, *out);
    return GB_OK;
}

static void text_add(gb_route_t *r, const char *what)
{
    size_t used = strlen(r->text);
    snprintf(r->text + used, sizeof r->text - used, "%s%s", used ? ", " : "", what);
}

/* The multiples the family asks of M, N, K and of A's, B's, C's leading dimensions and offsets,
 * and the leading-dimension multiples it avoids (0: none). */
static int multiples(const gb_family_t *f, const vars_t *vs, size_t mult[3], size_t ldm[3],
                     size_t avoid[3], char *msg, size_t msglen)
{
    for (int d = 0; d < 3; d++) {
        long long v;
        int rc;
        mult[d] = ldm[d] = 1;
        avoid[d] = 0;
        if (f->multiple[d] &&
            (rc = eval(f, vs, "multiple_of", f->multiple[d], 1, &v, msg, msglen)) != GB_OK)
            return rc;
        if (f->multiple[d])
            mult[d] = (size_t)v;
        if (f->ld_multiple[d] &&
            (rc = eval(f, vs, "ld_multiple_of", f->ld_multiple[d], 1, &v, msg, msglen)) != GB_OK)
            return rc;
        if (f->ld_multiple[d])
            ldm[d] = (size_t)v;
        if (f->ld_avoid[d] &&
            (rc = eval(f, vs, "ld_avoid_multiple_of", f->ld_avoid[d], 1, &v, msg, msglen)) != GB_OK)
            return rc;
        if (f->ld_avoid[d])
            avoid[d] = (size_t)v;
    }
    return GB_OK;
}

/* The problem the kernel sees before any copy: M, N, K padded to the family's multiples mult,
 * the transpositions the passes make; and which operands it reads as images. */
static void kernel_problem(const gb_family_t *f, const gb_problem_t *q, const size_t mult[3],
                           gb_route_t *r)
{
    gb_problem_t *k = &r->kernel;
    *k = *q;
    k->m = round_up(q->m, mult[0]);
    k->n = round_up(q->n, mult[1]);
    k->k = round_up(q->k, mult[2]);
    k->trans_a = r->flip[0] ? !q->trans_a : q->trans_a;
    k->trans_b = r->flip[1] ? !q->trans_b : q->trans_b;
    r->pad[0] = k->m != q->m;
    r->pad[1] = k->n != q->n;
    r->pad[2] = k->k != q->k;
    r->image[0] = has_arg(f, "imgA");
    r->image[1] = has_arg(f, "imgB");
}

/* Whether operand d (A, B, C) goes through a temporary (r->copy[d], r->temp_elems[d]), and the
 * leading dimension *ld_k of that temporary; it spans outer x inner elements of the kernel's
 * problem. An image's size is checked against dev's limits. */
static int plan_operand(const gb_family_t *f, const gb_problem_t *q, const gb_device_info_t *dev,
                        int d, int force, size_t outer, size_t inner, size_t ldm, size_t avoid,
                        size_t *ld_k, gb_route_t *r, char *msg, size_t msglen)
{
    static const char *const ld_arg[3] = {"lda", "ldb", "ldc"}, *const off_arg[3] = {"offA", "offB",
                                                                                     "offC"};
    const size_t q_ld[3] = {q->lda, q->ldb, q->ldc}, q_off[3] = {q->off_a, q->off_b, q->off_c};
    /* The padded dimensions each operand spans: A M and K, B N and K, C M and N. */
    const int padded[3] = {r->pad[0] || r->pad[2], r->pad[1] || r->pad[2], r->pad[0] || r->pad[1]};
    const int img = d < 2 && r->image[d], flip = d < 2 && r->flip[d];
    r->copy[d] = force || img || flip || padded[d] ||
                 (!has_arg(f, ld_arg[d]) && q_ld[d] != inner) ||
                 (!has_arg(f, off_arg[d]) && q_off[d]) || q_ld[d] % ldm || q_off[d] % ldm ||
                 avoided(q_ld[d], avoid);
    *ld_k = img ? gb__image_ld(dev, inner) : copy_ld(inner, ldm, avoid);
    if (r->copy[d] && (!gb__mul_ok(outer, *ld_k, &r->temp_elems[d]) || r->temp_elems[d] > INT_MAX))
        return gb__fail(msg, msglen, GB_EOVERFLOW,
                        "the padded copy of an operand exceeds "
                        "2^31-1 elements; use a smaller problem");
    if (!img)
        return GB_OK;
    r->image_size[d][0] = *ld_k;
    r->image_size[d][1] = outer;
    if (*ld_k > dev->image2d_max[0] || outer > dev->image2d_max[1])
        return gb__fail(msg, msglen, GB_EUNSUPPORTED,
                        "%c as an image needs %zu x %zu "
                        "pixels, over device '%s''s 2D image limit of %zu x %zu; use a "
                        "smaller problem",
                        "AB"[d], *ld_k, outer, dev -> name, dev -> image2d_max[0],
                        dev -> image2d_max[1]);
    return GB_OK;
}

/* The passes: A and B into their temporaries (an image's copy zero-filled out to its pitch),
 * C into its temporary where the kernel reads it (beta != 0), and back after the kernel; the
 * temporaries span outer x inner elements of the kernel's problem at leading dimensions ld_k.
 * Under 1M (om) the real operands that are not the caller's memory are made by the 1M passes,
 * and a complex beta scales C first. */
static void plan_passes(const gb_problem_t *q, const gb_onem_t *om, const size_t outer[3],
                        const size_t inner[3], const size_t ld_k[3], gb_route_t *r)
{
    size_t rows, cols;
    for (int d = 0; d < 2; d++) {
        if (!r->copy[d])
            continue;
        if (r->made[d]) {
            r->copies[r->ncopies++] = gb__onem_pass(om, d, outer, ld_k, r);
            continue;
        }
        gb_problem_t src = *q;
        if (d == 0)
            gb__stored_a(&src, &rows, &cols);
        else
            gb__stored_b(&src, &rows, &cols);
        size_t so, si;
        stored(&src, rows, cols, &so, &si);
        const gb_buf_t from = (d == 0) != (r->swapped != 0) ? GB_BUF_A : GB_BUF_B;
        r->copies[r->ncopies++] = (gb_route_copy_t){.trans = r->flip[d],
                                                    .dst = d ? GB_BUF_TB : GB_BUF_TA,
                                                    .src = from,
                                                    .d_outer = outer[d],
                                                    .d_inner = ld_k[d],
                                                    .d_ld = ld_k[d],
                                                    .s_outer = so,
                                                    .s_inner = si,
                                                    .s_off = d ? q->off_b : q->off_a,
                                                    .s_ld = d ? q->ldb : q->lda};
    }
    /* Run whatever beta is (a real one leaves C to the kernel): the commands do not depend
     * on the call's scalars. */
    if (om && !gb__beta_zero(q))
        r->copies[r->ncopies++] = gb__onem_scale(om);
    if (r->copy[2]) {
        size_t so, si;
        stored(q, q->m, q->n, &so, &si);
        if (!gb__beta_zero(q))
            r->copies[r->ncopies++] = (gb_route_copy_t){.dst = GB_BUF_TC,
                                                        .src = GB_BUF_C,
                                                        .d_outer = outer[2],
                                                        .d_inner = inner[2],
                                                        .d_ld = ld_k[2],
                                                        .s_outer = so,
                                                        .s_inner = si,
                                                        .s_off = q->off_c,
                                                        .s_ld = q->ldc};
        r->copies[r->ncopies++] = (gb_route_copy_t){.post = 1,
                                                    .dst = GB_BUF_C,
                                                    .src = GB_BUF_TC,
                                                    .d_outer = so,
                                                    .d_inner = si,
                                                    .d_off = q->off_c,
                                                    .d_ld = q->ldc,
                                                    .s_outer = outer[2],
                                                    .s_inner = inner[2],
                                                    .s_ld = ld_k[2]};
    }
}

/* Which operands go through a temporary, and the problem the kernel sees. An operand is copied
 * when it must be transposed or padded, when the kernel takes no leading dimension or offset and
 * the caller's are not the minimum and zero, when they are not the multiples it asks for (the
 * copy's leading dimension is rounded up to one), or when the leading dimension is a multiple it
 * avoids (the copy's is one multiple more). An operand read as an image is always copied: the
 * image is made over the copy, with rows padded to the device's image pitch alignment. */
static int plan_copies(const gb_family_t *f, const gb_problem_t *q, const gb_onem_t *om,
                       const gb_device_info_t *dev, const size_t mult[3], const size_t ldm[3],
                       const size_t avoid[3], gb_route_t *r, char *msg, size_t msglen)
{
    kernel_problem(f, q, mult, r);
    gb_problem_t *k = &r->kernel;
    size_t rows, cols, outer[3], inner[3], ld_k[3];
    gb__stored_a(k, &rows, &cols);
    stored(k, rows, cols, &outer[0], &inner[0]);
    gb__stored_b(k, &rows, &cols);
    stored(k, rows, cols, &outer[1], &inner[1]);
    stored(k, k->m, k->n, &outer[2], &inner[2]);
    for (int d = 0; d < 3; d++) {
        /* Under 1M, Y is always made, and X where A is stored transposed. */
        if (d < 2)
            r->made[d] = gb__onem_made(om, d);
        const int rc = plan_operand(f, q, dev, d, d < 2 && r->made[d], outer[d], inner[d], ldm[d],
                                    avoid[d], &ld_k[d], r, msg, msglen);
        if (rc != GB_OK)
            return rc;
    }
    r->image_view = (r->image[0] || r->image[1]) && dev->image2d_from_buffer;
    if (r->copy[0]) {
        k->lda = ld_k[0];
        k->off_a = 0;
    }
    if (r->copy[1]) {
        k->ldb = ld_k[1];
        k->off_b = 0;
    }
    if (r->copy[2]) {
        k->ldc = ld_k[2];
        k->off_c = 0;
    }
    plan_passes(q, om, outer, inner, ld_k, r);
    return GB_OK;
}

/* "swap, transpose B, pad to 64x64x64, repack, image A": named as the caller knows them (after
 * the swap the kernel's A is the caller's B). */
static void describe(gb_route_t *r)
{
    const char *op[2] = {r->swapped ? "B" : "A", r->swapped ? "A" : "B"};
    char what[64];
    if (r->onem)
        text_add(r, "1M (complex as real)");
    text_add(r, r->swapped ? "swap" : "native");
    for (int d = 0; d < 2; d++)
        if (r->flip[d]) {
            snprintf(what, sizeof what, "transpose %s", op[d]);
            text_add(r, what);
        }
    if (r->pad[0] || r->pad[1] || r->pad[2]) {
        snprintf(what, sizeof what, "pad to %zux%zux%zu", r->kernel.m, r->kernel.n, r->kernel.k);
        text_add(r, what);
    }
    const int repack_a =
        r->copy[0] && !r->made[0] && !r->image[0] && !r->flip[0] && !r->pad[0] && !r->pad[2];
    const int repack_b =
        r->copy[1] && !r->made[1] && !r->image[1] && !r->flip[1] && !r->pad[1] && !r->pad[2];
    const int repack_c = r->copy[2] && !r->pad[0] && !r->pad[1];
    if (repack_a || repack_b || repack_c)
        text_add(r, "repack");
    /* "image A" is a view of A's packed copy; "A copied to image" a second copy per call. */
    for (int d = 0; d < 2; d++)
        if (r->image[d]) {
            snprintf(what, sizeof what, r->image_view ? "image %s" : "%s copied to image", op[d]);
            text_add(r, what);
        }
}

/* The build options: precision, the layout the kernel sees, the vendor path, the register cap,
 * every parameter, and the lets that depend only on those and the device: constants the kernel
 * reads rather than computes again. */
static int build_options(const gb_config_t *cfg, const gb_device_info_t *dev, const vars_t *vs,
                         gb_route_t *r, char *msg, size_t msglen)
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
    if (ptx && nvidia_gpu(dev))
        snprintf(r->ptx, sizeof r->ptx, "%s", ptx);
    if (nvidia_gpu(dev)) {
        used += (size_t)snprintf(r->options + used, sizeof r->options - used, " -DGB_NVIDIA=1");
        long long regs;
        int rc;
        if (f->nv_max_registers && (rc = eval(f, vs, "nvidia_max_registers", f->nv_max_registers, 0,
                                              &regs, msg, msglen)) != GB_OK)
            return rc;
        if (f->nv_max_registers && regs > 0)
            used += (size_t)snprintf(r->options + used, sizeof r->options - used,
                                     " -cl-nv-maxrregcount=%lld", regs);
    }
    int fits = 1;
    for (size_t i = 0; i < cfg->params.count; i++)
        fits &= gb__appendf(r->options, sizeof r->options, &used, " -D%s=%ld", cfg->params.name[i],
                            cfg->params.value[i]);
    vars_t cv;
    cv.n = gb__config_vars(cfg, p->precision, NULL, cv.v);
    cv.v[cv.n++] = (gb_var_t){"NVIDIA", nvidia_gpu(dev)};
    cv.v[cv.n++] = (gb_var_t){"CUS", (long long)dev->compute_units};
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
        gb__precision_options(p->precision, r->helper_options, sizeof r->helper_options);
    return GB_OK;
}

/* The most work-items a launch may have along one dimension: 32 bits, the address space of the
 * smallest devices (sizes from metadata gone wrong, like 2^50, trip assertions in drivers). */
#define GB_MAX_GLOBAL 0xffffffffLL

/* Work-group and global sizes from a pair of expressions, rounded up to whole work-groups
 * (kernels guard their edges); no local pair, or one that comes to 0 x 0 (-lws 0,0), leaves the
 * work-group size to the driver, and the global size as it is (l_out 0 x 0). Where
 * optional, a global size of 0 or less in either dimension means no launch: both come out 0.
 * Sizes the device cannot launch are refused here, before any driver sees them. */
static int launch_size(const gb_family_t *f, const gb_device_info_t *dev, const vars_t *vs,
                       const char *what, char *const global[2], char *const local[2], int optional,
                       size_t g_out[2], size_t l_out[2], char *msg, size_t msglen)
{
    long long g[2], l[2] = {1, 1};
    int rc;
    for (int d = 0; d < 2; d++)
        if ((rc = eval(f, vs, what, global[d], !optional, &g[d], msg, msglen)) != GB_OK)
            return rc;
    if (g[0] <= 0 || g[1] <= 0) {
        g_out[0] = g_out[1] = 0;
        return GB_OK;
    }
    for (int d = 0; d < 2; d++) {
        if (local[d] && (rc = eval(f, vs, "local size", local[d], 0, &l[d], msg, msglen)) != GB_OK)
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
        g_out[d] = l_out[d] ? round_up((size_t)g[d], l_out[d]) : (size_t)g[d];
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
static int geometry(const gb_family_t *f, const gb_device_info_t *dev, vars_t *vs, gb_route_t *r,
                    char *msg, size_t msglen)
{
    int rc;
    vs->v[vs->n++] = (gb_var_t){"NVIDIA", nvidia_gpu(dev)};
    vs->v[vs->n++] = (gb_var_t){"CUS", (long long)dev->compute_units};
    for (size_t i = 0; i < f->nlets; i++) {
        char what[96];
        snprintf(what, sizeof what, "let.%s", f->let_names[i]);
        if ((rc = eval(f, vs, what, f->let_exprs[i], 0, &r->lets[i], msg, msglen)) != GB_OK)
            return rc;
        vs->v[vs->n++] = (gb_var_t){f->let_names[i], r->lets[i]};
    }
    long long factor = 1;
    if (f->launch_factor &&
        (rc = eval(f, vs, "launch_factor", f->launch_factor, 1, &factor, msg, msglen)) != GB_OK)
        return rc;
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
        if (r->side_global[s][0]) {
            snprintf(what, sizeof what, "%s kernel", gb_side_key(s));
            text_add(r, what);
        }
    }
    /* The workspace in bytes; a token buffer where it is 0, as a kernel argument needs one. */
    long long ws = 0;
    if (f->workspace && (rc = eval(f, vs, "workspace", f->workspace, 0, &ws, msg, msglen)) != GB_OK)
        return rc;
    if (ws < 0)
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: workspace '%s' is %lld bytes, negative",
                        f->origin, f->workspace, ws);
    r->has_ws = f->workspace != NULL;
    r->ws_bytes = r->has_ws ? (ws > 16 ? (size_t)ws : 16) : 0;
    return GB_OK;
}

int gb__route_plan(const gb_config_t *cfg, const gb_problem_t *p, const gb_device_info_t *dev,
                   gb_route_t *r, char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    memset(r, 0, sizeof *r);
    /* A complex problem on a real kernel: the real problem is routed, its operands made. */
    gb_onem_t om;
    gb_problem_t real;
    r->onem = gb__config_1m(cfg, p->precision);
    if (r->onem) {
        gb__problem_1m(p, &real, &om.row, &om.swapped, &om.pack);
        p = &real;
    }
    gb_problem_t q;
    if (!choose_route(f, p, &q, r))
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: no native layout", f->origin);
    /* The binding's swap, and the caller's operand each copy reads: the kernel's operands are
     * the caller's through both swaps. */
    om.real_swapped = r->swapped;
    if (r->onem)
        r->swapped ^= om.swapped;
    vars_t vs;
    vs.n = gb__config_vars(cfg, q.precision, &q, vs.v);
    size_t mult[3], ldm[3], avoid[3];
    int rc = multiples(f, &vs, mult, ldm, avoid, msg, msglen);
    if (rc == GB_OK)
        rc = plan_copies(f, &q, r->onem ? &om : NULL, dev, mult, ldm, avoid, r, msg, msglen);
    if (rc != GB_OK)
        return rc;
    describe(r);
    /* Options and sizes see the problem as the kernel does (padded, transposed). */
    vs.n = gb__config_vars(cfg, r->kernel.precision, &r->kernel, vs.v);
    if ((rc = build_options(cfg, dev, &vs, r, msg, msglen)) != GB_OK)
        return rc;
    return geometry(f, dev, &vs, r, msg, msglen);
}

int gb__route_traffic(const gb_config_t *cfg, const gb_device_info_t *dev, const gb_route_t *r,
                      long long bytes[2], char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    bytes[0] = bytes[1] = -1;
    if (!f->traffic[0])
        return GB_OK;
    /* The names geometry() saw: the problem as the kernel sees it, the device's, the lets. */
    vars_t vs;
    vs.n = gb__config_vars(cfg, r->kernel.precision, &r->kernel, vs.v);
    vs.v[vs.n++] = (gb_var_t){"NVIDIA", nvidia_gpu(dev)};
    vs.v[vs.n++] = (gb_var_t){"CUS", (long long)dev->compute_units};
    for (size_t i = 0; i < f->nlets; i++)
        vs.v[vs.n++] = (gb_var_t){f->let_names[i], r->lets[i]};
    static const char *const what[2] = {"traffic.read", "traffic.write"};
    for (int d = 0; d < 2; d++) {
        int rc = eval(f, &vs, what[d], f->traffic[d], 0, &bytes[d], msg, msglen);
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
