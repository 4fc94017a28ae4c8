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
#include "route_int.h"

static int native(unsigned natives, gb_layout_t l, gb_trans_t ta, gb_trans_t tb)
{
    return (natives >> gb_layout_index(l, ta, tb)) & 1u;
}

/* The configuration's native layouts: the family's, and each of its "layouts_where" whose
 * expression of the parameters (pv) is non-zero. */
static int native_layouts(const gb_family_t *f, const gb_route_vars_t *pv, unsigned *natives,
                          char *msg, size_t msglen)
{
    *natives = f->layouts;
    for (unsigned i = 0; i < 8; i++) {
        long long on;
        if (!f->layout_where[i])
            continue;
        const int rc =
            gb__route_eval(f, pv, "layouts_where", f->layout_where[i], 0, &on, msg, msglen);
        if (rc != GB_OK)
            return rc;
        if (on)
            *natives |= 1u << i;
    }
    return GB_OK;
}

/* The cheapest way to a native layout (natives: the configuration's, native_layouts): the
 * fewest elements transposed by helper passes (none where the layout is native), then the
 * fewest passes, then the first of: the problem, its operand swap, its vector form
 * (gb__problem_vector; not under 1M, whose passes read the caller's operands as the row-major
 * problem has them), and B's pass before A's. A family of NN, NT and TT given a TN problem of
 * 16 x 4096 x 4096 so transposes A (64 K elements), not B (16 M); a row-NN family given
 * y = x W^T (1 x N x K, B transposed) runs y^T = W x^T with no pass. Sets
 * *q (the caller's problem as the kernel's layout reads it), r->swapped (the kernel's A is the
 * caller's B) and r->flip. A kernel that writes C transposed (r->transposed_c) has one form,
 * gb__problem_transposed_c's. Returns 0 when no layout is native. */
static int choose_route(unsigned natives, const gb_problem_t *p, int vector_ok, gb_problem_t *q,
                        gb_route_t *r)
{
    gb_problem_t base[3];
    int swapped[3], nb = 0;
    if (r->transposed_c) {
        gb__problem_transposed_c(p, &base[nb]);
        swapped[nb++] = p->layout == GB_ROW_MAJOR;
    } else {
        base[nb] = *p;
        swapped[nb++] = 0;
        base[nb] = gb__problem_swapped(p);
        swapped[nb++] = 1;
        if (vector_ok && gb__problem_vector(p, &base[nb], &swapped[nb]))
            nb++;
    }
    int found = 0, best_passes = 0;
    size_t best_moved = 0;
    for (int s = 0; s < nb; s++) {
        const gb_problem_t *b = &base[s];
        for (int fa = 0; fa < 2; fa++)
            for (int fb = 0; fb < 2; fb++) {
                const gb_trans_t ta = fa ? !b->trans_a : b->trans_a;
                const gb_trans_t tb = fb ? !b->trans_b : b->trans_b;
                const size_t moved = (fa ? b->m * b->k : 0) + (fb ? b->k * b->n : 0);
                if (!native(natives, b->layout, ta, tb) ||
                    (found &&
                     (moved > best_moved || (moved == best_moved && fa + fb >= best_passes))))
                    continue;
                found = 1;
                best_moved = moved;
                best_passes = fa + fb;
                *q = *b;
                r->swapped = swapped[s];
                r->vector = s == 2;
                r->flip[0] = fa;
                r->flip[1] = fb;
            }
    }
    return found;
}

static int has_arg(const gb_family_t *f, const char *name)
{
    for (size_t i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i], name))
            return 1;
    return 0;
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
    const size_t ld = gb__round_up(inner, mult);
    return avoided(ld, avoid) ? ld + mult : ld;
}

size_t gb__image_ld(const gb_device_info_t *dev, size_t inner)
{
    size_t align = dev->image2d_from_buffer && dev->image_pitch_align ? dev->image_pitch_align : 1;
    return gb__round_up(inner, align);
}

static int is_cpu(const gb_device_info_t *dev)
{
    return dev->type_name && !strcmp(dev->type_name, "cpu");
}

void gb__route_device(const gb_device_info_t *dev, gb_route_device_t *out)
{
    memset(out, 0, sizeof *out);
    out->nvidia = gb__route_nvidia(dev);
    out->cpu = is_cpu(dev);
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
    const int facts = a->nvidia == b->nvidia && a->cpu == b->cpu &&
                      a->compute_units == b->compute_units &&
                      a->image2d_from_buffer == b->image2d_from_buffer &&
                      a->image_pitch_align == b->image_pitch_align;
    return facts &&
           (!limits ||
            (a->max_wg_size == b->max_wg_size && a->max_wi_sizes[0] == b->max_wi_sizes[0] &&
             a->max_wi_sizes[1] == b->max_wi_sizes[1] && a->image2d_max[0] == b->image2d_max[0] &&
             a->image2d_max[1] == b->image2d_max[1]));
}

/* The multiples the family asks of M, N, K and of A's, B's, C's leading dimensions and offsets,
 * and the leading-dimension multiples it avoids (0: none). */
static int multiples(const gb_family_t *f, const gb_route_vars_t *vs, size_t mult[3], size_t ldm[3],
                     size_t avoid[3], char *msg, size_t msglen)
{
    for (int d = 0; d < 3; d++) {
        long long v;
        int rc;
        mult[d] = ldm[d] = 1;
        avoid[d] = 0;
        if (f->multiple[d] && (rc = gb__route_eval(f, vs, "multiple_of", f->multiple[d], 1, &v, msg,
                                                   msglen)) != GB_OK)
            return rc;
        if (f->multiple[d])
            mult[d] = (size_t)v;
        if (f->ld_multiple[d] && (rc = gb__route_eval(f, vs, "ld_multiple_of", f->ld_multiple[d], 1,
                                                      &v, msg, msglen)) != GB_OK)
            return rc;
        if (f->ld_multiple[d])
            ldm[d] = (size_t)v;
        if (f->ld_avoid[d] && (rc = gb__route_eval(f, vs, "ld_avoid_multiple_of", f->ld_avoid[d], 1,
                                                   &v, msg, msglen)) != GB_OK)
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
    k->m = gb__round_up(q->m, mult[0]);
    k->n = gb__round_up(q->n, mult[1]);
    k->k = gb__round_up(q->k, mult[2]);
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

/* Under 1M, whether the kernel stages Y from B as stored (its family's expand_b): where the
 * family's expand_b.where holds (vs: the real problem's names), the kernel's B is Y, not
 * transposed by a pass nor padded, and B's twice leading dimension and offset meet the family's
 * rules as they are. B stored K x N is read as the real K x 2N matrix of its parts, Y itself;
 * B stored N x K (op(B) transposed), where the family takes B transposed in the kernel's layout,
 * as the real N x 2K matrix, Y's transpose. Then no pass makes Y, and the kernel's B is the
 * caller's at those (q, transposed as B is). */
static int expand_in_kernel(const gb_family_t *f, unsigned natives, const gb_route_vars_t *vs,
                            const size_t mult[3], const size_t ldm[3], const size_t avoid[3],
                            gb_onem_t *om, gb_problem_t *q, gb_route_t *r, char *msg, size_t msglen)
{
    const size_t ldb = 2 * om->row.ldb, offb = 2 * om->row.off_b;
    const int bt = om->row.trans_b == GB_TRANS;
    const gb_trans_t ta = r->flip[0] ? !q->trans_a : q->trans_a;
    if (!f->expand_b || om->real_swapped || r->flip[1] ||
        (bt && !native(natives, q->layout, ta, GB_TRANS)) || q->n % mult[1] || q->k % mult[2] ||
        ldb % ldm[1] || offb % ldm[1] || avoided(ldb, avoid[1]) || !has_arg(f, "ldb") ||
        !has_arg(f, "offB") || has_arg(f, "imgB"))
        return GB_OK;
    long long where = 1;
    const int rc = f->expand_b_where ? gb__route_eval(f, vs, "expand_b.where", f->expand_b_where, 0,
                                                      &where, msg, msglen)
                                     : GB_OK;
    if (rc != GB_OK || !where)
        return rc;
    om->expand_b = r->expand_b = 1;
    q->trans_b = bt ? GB_TRANS : GB_NOTRANS;
    q->ldb = ldb;
    q->off_b = offb;
    return GB_OK;
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
    for (size_t i = 0; i < r->ncopies; i++) {
        gb_route_copy_t *c = &r->copies[i];
        c->tiled = c->kind == GB_PASS_COPY && c->trans && !is_cpu(dev);
        c->wide = c->kind == GB_PASS_COPY && !c->trans && c->d_off % 4 == 0 && c->d_ld % 4 == 0 &&
                  !gb_precision_is_complex(q->precision);
    }
    return GB_OK;
}

/* "swap, transpose B, pad to 64x64x64, repack, image A": named as the caller knows them (after
 * the swap the kernel's A is the caller's B). */
static void describe(gb_route_t *r)
{
    const char *op[2] = {r->swapped ? "B" : "A", r->swapped ? "A" : "B"};
    char what[64];
    if (r->onem)
        gb__route_text_add(r, "1M (complex as real)");
    gb__route_text_add(r, r->vector         ? "C as a column"
                          : r->transposed_c ? "C written transposed"
                          : r->swapped      ? "swap"
                                            : "native");
    for (int d = 0; d < 2; d++)
        if (r->flip[d]) {
            snprintf(what, sizeof what, "transpose %s", op[d]);
            gb__route_text_add(r, what);
        }
    if (r->pad[0] || r->pad[1] || r->pad[2]) {
        snprintf(what, sizeof what, "pad to %zux%zux%zu", r->kernel.m, r->kernel.n, r->kernel.k);
        gb__route_text_add(r, what);
    }
    const int repack_a =
        r->copy[0] && !r->made[0] && !r->image[0] && !r->flip[0] && !r->pad[0] && !r->pad[2];
    const int repack_b =
        r->copy[1] && !r->made[1] && !r->image[1] && !r->flip[1] && !r->pad[1] && !r->pad[2];
    const int repack_c = r->copy[2] && !r->pad[0] && !r->pad[1];
    if (repack_a || repack_b || repack_c)
        gb__route_text_add(r, "repack");
    /* "image A" is a view of A's packed copy; "A copied to image" a second copy per call. */
    for (int d = 0; d < 2; d++)
        if (r->image[d]) {
            snprintf(what, sizeof what, r->image_view ? "image %s" : "%s copied to image", op[d]);
            gb__route_text_add(r, what);
        }
}

/* Where 1M's EXPAND makes the kernel's B and the family's prologue would pack B into panels of
 * the workspace, EXPAND writes those panels itself and the prologue does not run: one pass over
 * Y instead of two. Only where Y is not transposed, spans whole panels at its leading dimension
 * and fits the workspace. */
static int plan_panels(const gb_family_t *f, const gb_route_vars_t *vs, gb_route_t *r, char *msg,
                       size_t msglen)
{
    const char *panels = f->side[GB_SIDE_PROLOGUE].panels;
    if (!panels || !r->onem || !r->made[1] || r->flip[1] || !r->side_global[GB_SIDE_PROLOGUE][0])
        return GB_OK;
    long long p;
    const int rc = gb__route_eval(f, vs, "prologue's panels", panels, 1, &p, msg, msglen);
    if (rc != GB_OK)
        return rc;
    for (size_t i = 0; i < r->ncopies; i++) {
        gb_route_copy_t *c = &r->copies[i];
        if (c->kind != GB_PASS_EXPAND || c->d_inner != r->kernel.n || c->d_inner % (size_t)p ||
            c->d_outer * c->d_inner * gb_precision_bytes(r->kernel.precision) > r->ws_bytes)
            continue;
        c->dst = GB_BUF_WS;
        c->panel = (size_t)p;
        r->side_global[GB_SIDE_PROLOGUE][0] = r->side_global[GB_SIDE_PROLOGUE][1] = 0;
        r->b_panels = 1;
        r->copy[1] = 0;
        r->temp_elems[1] = 0;
        gb__route_text_add(r, "B expanded into panels");
    }
    return GB_OK;
}

/* The configuration whose build options r takes: cfg, or, where the launch splits nothing
 * (factor 1) and the family names values that build its kernel without the split tiles' code,
 * cfg with those values in *built (the same launch and results, without that code's cost:
 * bench/notes/dgemm.md#dmma-unsplit). */
static const gb_config_t *unsplit(const gb_config_t *cfg, gb_route_t *r, gb_config_t *built)
{
    const gb_family_t *f = cfg->family;
    if (!f->nunsplit || r->factor != 1)
        return cfg;
    *built = *cfg;
    int changed = 0;
    for (size_t i = 0; i < f->nunsplit; i++) {
        long was;
        changed |=
            !gb_params_get(&cfg->params, f->unsplit_names[i], &was) || was != f->unsplit_values[i];
        if (gb_params_set(&built->params, f->unsplit_names[i], f->unsplit_values[i]) != GB_OK)
            return cfg;
    }
    r->unsplit = changed;
    return changed ? built : cfg;
}

int gb__route_plan(const gb_config_t *cfg, const gb_problem_t *p, const gb_device_info_t *dev,
                   gb_route_t *r, char *msg, size_t msglen)
{
    const gb_family_t *f = cfg->family;
    memset(r, 0, sizeof *r);
    /* A complex problem on a real kernel: the real problem is routed, its operands made. */
    gb_onem_t om = {0};
    gb_problem_t real;
    r->onem = gb__config_1m(cfg, p->precision);
    if (r->onem) {
        gb__problem_1m(p, &real, &om.row, &om.swapped, &om.pack);
        p = &real;
    }
    gb_problem_t q;
    /* The parameters decide the native layouts and C's transposition, before the problem's form
     * is chosen. */
    gb_route_vars_t pv;
    pv.n = gb__config_vars(cfg, p->precision, p, pv.v);
    unsigned natives;
    int rc = native_layouts(f, &pv, &natives, msg, msglen);
    if (rc != GB_OK)
        return rc;
    if (f->transposed_c) {
        long long ct;
        rc = gb__route_eval(f, &pv, "transposed_c", f->transposed_c, 0, &ct, msg, msglen);
        if (rc != GB_OK)
            return rc;
        r->transposed_c = ct != 0;
        if (r->transposed_c && (r->onem || !gb__problem_transposed_c(p, &q)))
            return gb__fail(msg, msglen, GB_EBADPARAM,
                            "%s: C written transposed ('%s') serves real problems without "
                            "conjugation only; use the configuration without it",
                            f->origin, f->transposed_c);
    }
    if (!choose_route(natives, p, !r->onem, &q, r))
        return gb__fail(msg, msglen, GB_EMETADATA, "%s: no native layout", f->origin);
    /* The binding's swap, and the caller's operand each copy reads: the kernel's operands are
     * the caller's through both swaps. */
    om.real_swapped = r->swapped;
    if (r->onem)
        r->swapped ^= om.swapped;
    gb_route_vars_t vs;
    vs.n = gb__config_vars(cfg, q.precision, &q, vs.v);
    size_t mult[3], ldm[3], avoid[3];
    rc = multiples(f, &vs, mult, ldm, avoid, msg, msglen);
    if (rc == GB_OK && r->onem)
        rc = expand_in_kernel(f, natives, &vs, mult, ldm, avoid, &om, &q, r, msg, msglen);
    if (rc == GB_OK)
        rc = plan_copies(f, &q, r->onem ? &om : NULL, dev, mult, ldm, avoid, r, msg, msglen);
    if (rc == GB_OK && r->transposed_c && r->copy[2])
        rc = gb__fail(msg, msglen, GB_EBADPARAM,
                      "%s: C written transposed ('%s') cannot go through a copy of C; use the "
                      "configuration without it",
                      f->origin, f->transposed_c);
    if (rc != GB_OK)
        return rc;
    describe(r);
    /* Sizes and options see the problem as the kernel does (padded, transposed). */
    gb_config_t built;
    vs.n = gb__config_vars(cfg, r->kernel.precision, &r->kernel, vs.v);
    if ((rc = gb__route_geometry(f, dev, &vs, r, msg, msglen)) != GB_OK ||
        (rc = gb__route_options(unsplit(cfg, r, &built), dev, &vs, r, msg, msglen)) != GB_OK ||
        (rc = plan_panels(f, &vs, r, msg, msglen)) != GB_OK)
        return rc;
    if (r->unsplit)
        gb__route_text_add(r, "unsplit build");
    if (r->transposed_c) {
        size_t used = strlen(r->options);
        if (!gb__appendf(r->options, sizeof r->options, &used, " -DGB_TRANS_C=1"))
            return gb__fail(msg, msglen, GB_EBADPARAM, "%s: build options too long", f->origin);
    }
    if (r->expand_b) {
        /* The kernel's own form of gb_expand1m's arguments: the conjugations as built. */
        const char *y = f->expand_b;
        size_t used = strlen(r->options);
        if (!gb__appendf(r->options, sizeof r->options, &used,
                         " -D%s=1 -D%s_CONJA=%d -D%s_CONJB=%d", y, y, om.row.conj_a != 0, y,
                         om.row.conj_b != 0))
            return gb__fail(msg, msglen, GB_EBADPARAM, "%s: build options too long", f->origin);
        gb__route_text_add(r, "Y staged from B");
    }
    for (int s = 0; s < GB_NSIDES; s++)
        if (r->side_global[s][0]) {
            char what[64];
            snprintf(what, sizeof what, "%s kernel", gb_side_key(s));
            gb__route_text_add(r, what);
        }
    if (r->counters)
        gb__route_text_add(r, "pieces added in the kernel");
    return GB_OK;
}
