/* onem.c: the 1M method's passes and scalars (onem.h, route.h). */
#include "onem.h"

/* Whether the kernel's operand d is X, the real problem's A (else Y). */
static int is_x(const gb_onem_t *om, int d)
{
    return (d == 0) != (om->real_swapped != 0);
}

int gb__onem_made(const gb_onem_t *om, int d)
{
    return om && (is_x(om, d) ? om->pack : !om->expand_b);
}

gb_route_copy_t gb__onem_pass(const gb_onem_t *om, int d, const size_t outer[3],
                              const size_t ld_k[3], const gb_route_t *r)
{
    const gb_problem_t *q = &om->row;
    /* The row-major problem's A is the caller's B where making it row-major swapped them. */
    const gb_buf_t a = om->swapped ? GB_BUF_B : GB_BUF_A, b = om->swapped ? GB_BUF_A : GB_BUF_B;
    gb_route_copy_t c = {.trans = r->flip[d],
                         .dst = d ? GB_BUF_TB : GB_BUF_TA,
                         .d_outer = outer[d],
                         .d_inner = ld_k[d],
                         .d_ld = ld_k[d]};
    if (is_x(om, d)) {
        c.kind = GB_PASS_PACK;
        c.src = a;
        c.rows = q->m;
        c.cols = 2 * q->k;
        c.s_off = q->off_a;
        c.s_ld = q->lda;
        c.s_trans = q->trans_a == GB_TRANS;
    } else {
        c.kind = GB_PASS_EXPAND;
        c.src = b;
        c.rows = 2 * q->k;
        c.cols = 2 * q->n;
        c.s_off = q->off_b;
        c.s_ld = q->ldb;
        c.s_trans = q->trans_b == GB_TRANS;
        c.conj_a = q->conj_a;
        c.conj_b = q->conj_b;
    }
    return c;
}

gb_route_copy_t gb__onem_scale(const gb_onem_t *om)
{
    return (gb_route_copy_t){.kind = GB_PASS_SCALE,
                             .dst = GB_BUF_C,
                             .src = GB_BUF_C,
                             .d_outer = om->row.m,
                             .d_inner = om->row.n,
                             .d_off = om->row.off_c,
                             .d_ld = om->row.ldc};
}

void gb__route_scalars(const gb_route_t *r, const gb_problem_t *kp, double kernel[2],
                       double alpha[2], double beta[2])
{
    kernel[0] = kp->alpha;
    kernel[1] = kp->beta;
    alpha[0] = beta[0] = 1.0;
    alpha[1] = beta[1] = 0.0;
    if (!r->onem)
        return;
    if (kp->alpha_im != 0.0) {
        kernel[0] = 1.0;
        alpha[0] = kp->alpha;
        alpha[1] = kp->alpha_im;
    }
    if (kp->beta_im != 0.0) {
        kernel[1] = 1.0;
        beta[0] = kp->beta;
        beta[1] = kp->beta_im;
    }
}
