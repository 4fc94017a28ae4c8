/* inputs.c: the inputs of the last problem measured on a context, kept for the next call. A
 * tuner measures hundreds of configurations on one problem: generating the inputs each time,
 * and above all the double-precision reference (seconds at 4096^3), can cost more than
 * measuring on a GPU. The key is every field of the problem, the distribution and the seed, so
 * what a call gets is what it would have generated. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/validate/validate.h"
#include "inputs.h"

/* Bit for bit but for NaN: -0.0 and 0.0 are different scalars here. */
static int same_scalar(double x, double y)
{
    return x == y && signbit(x) == signbit(y);
}

static int same_problem(const gb_problem_t *x, const gb_problem_t *y)
{
    return x->precision == y->precision && x->layout == y->layout && x->trans_a == y->trans_a &&
           x->trans_b == y->trans_b && x->m == y->m && x->n == y->n && x->k == y->k &&
           same_scalar(x->alpha, y->alpha) && same_scalar(x->beta, y->beta) &&
           same_scalar(x->alpha_im, y->alpha_im) && same_scalar(x->beta_im, y->beta_im) &&
           x->conj_a == y->conj_a && x->conj_b == y->conj_b && x->lda == y->lda &&
           x->ldb == y->ldb && x->ldc == y->ldc && x->off_a == y->off_a && x->off_b == y->off_b &&
           x->off_c == y->off_c;
}

static int same_dist(const gb_dist_t *x, const gb_dist_t *y)
{
    return x->kind == y->kind && same_scalar(x->lo, y->lo) && same_scalar(x->hi, y->hi) &&
           x->range == y->range;
}

/* n doubles x into hb, in precision prec: x itself where double pageable memory will do,
 * else a copy in host memory of kind. */
static int in_precision(gb_context_t *ctx, double *x, size_t n, gb_precision_t prec,
                        gb_host_mem_t kind, gb_hostbuf_t *hb)
{
    if ((prec == GB_PREC_D || prec == GB_PREC_Z) && kind == GB_HOST_PAGEABLE) {
        *hb = (gb_hostbuf_t){.ptr = x, .borrowed = 1};
        return GB_OK;
    }
    int rc = gb__hostbuf_alloc(ctx, n * gb_precision_bytes(prec), kind, hb);
    if (rc != GB_OK)
        return rc;
    gb__to_storage(prec, x, n, hb->ptr);
    return GB_OK;
}

int gb__inputs_get(gb_context_t *ctx, const gb_problem_t *p, const gb_dist_t *d, uint64_t seed,
                   gb_host_mem_t host_mem, gb_inputs_t **out)
{
    gb_inputs_t *in = &ctx->inputs;
    *out = in;
    if (in->valid && same_problem(&in->p, p) && same_dist(&in->dist, d) && in->seed == seed &&
        in->host_mem == host_mem)
        return GB_OK;
    gb__inputs_free(in);
    size_t ea, eb, ec;
    gb_problem_buffer_elems(p, &ea, &eb, &ec);
    const size_t parts = gb_precision_parts(p->precision); /* complex: two doubles each */
    in->a = malloc(ea * parts * sizeof *in->a);
    in->b = malloc(eb * parts * sizeof *in->b);
    in->c = malloc(ec * parts * sizeof *in->c);
    in->got = malloc(ec * parts * sizeof *in->got);
    if (!in->a || !in->b || !in->c || !in->got) {
        gb__inputs_free(in);
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory for %zu+%zu+%zu elements", ea, eb, ec);
    }
    gb_rng_t rng;
    gb__rng_seed(&rng, seed);
    size_t rows, cols;
    gb__stored_a(p, &rows, &cols);
    gb__matrix_generate(in->a, ea, p->layout, p->lda, p->off_a, rows, cols, d, p->precision, &rng,
                        0.0);
    gb__stored_b(p, &rows, &cols);
    gb__matrix_generate(in->b, eb, p->layout, p->ldb, p->off_b, rows, cols, d, p->precision, &rng,
                        0.0);
    gb__matrix_generate(in->c, ec, p->layout, p->ldc, p->off_c, p->m, p->n, d, p->precision, &rng,
                        GB_CANARY);
    /* Mapped: the kernel works in A, B and out themselves; C is copied into out on the host
     * before each call (runner.c), from ordinary memory. */
    const gb_host_mem_t c_kind = host_mem == GB_HOST_MAPPED ? GB_HOST_PAGEABLE : host_mem;
    int rc = in_precision(ctx, in->a, ea, p->precision, host_mem, &in->da);
    if (rc == GB_OK)
        rc = in_precision(ctx, in->b, eb, p->precision, host_mem, &in->db);
    if (rc == GB_OK)
        rc = in_precision(ctx, in->c, ec, p->precision, c_kind, &in->dc);
    if (rc == GB_OK)
        rc = gb__hostbuf_alloc(ctx, ec * gb_precision_bytes(p->precision), host_mem, &in->out);
    if (rc != GB_OK) {
        gb__inputs_free(in);
        return rc;
    }
    in->valid = 1;
    in->p = *p;
    in->dist = *d;
    in->seed = seed;
    in->host_mem = host_mem;
    in->ea = ea;
    in->eb = eb;
    in->ec = ec;
    return GB_OK;
}

int gb__inputs_poisoned(gb_context_t *ctx, gb_inputs_t *in)
{
    if (in->poisoned.ptr)
        return GB_OK;
    const gb_problem_t *p = &in->p;
    const size_t parts = gb_precision_parts(p->precision);
    double *c = malloc(in->ec * parts * sizeof *c);
    if (!c)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory validating");
    /* With beta 0, C is output only: NaN in every element catches one never written, and a
     * kernel that reads C anyway (NaN * 0 is NaN). */
    memcpy(c, in->c, in->ec * parts * sizeof *c);
    if (gb__beta_zero(p))
        for (size_t i = 0; i < in->ec; i++)
            if (gb__c_is_logical(p, i))
                for (size_t q = 0; q < parts; q++)
                    c[i * parts + q] = (double)NAN;
    gb_hostbuf_t hb;
    int rc = in_precision(ctx, c, in->ec, p->precision,
                          in->host_mem == GB_HOST_MAPPED ? GB_HOST_PAGEABLE : in->host_mem, &hb);
    if (rc == GB_OK && hb.borrowed)
        hb.borrowed = 0; /* c itself: the inputs own it now */
    else
        free(c);
    if (rc == GB_OK)
        in->poisoned = hb;
    return rc;
}

int gb__inputs_reference(gb_context_t *ctx, gb_inputs_t *in)
{
    if (in->cref)
        return GB_OK;
    /* The reference holds complex elements as C does; the gauge is one real per element. */
    double *cref = malloc(in->ec * gb_precision_parts(in->p.precision) * sizeof *cref),
           *gauge = malloc(in->ec * sizeof *gauge);
    int rc = cref && gauge
                 ? gb__reference(&in->p, in->a, in->b, in->c, in->ea, in->eb, in->ec, cref, gauge)
                 : GB_ENOMEM;
    if (rc != GB_OK) {
        free(cref);
        free(gauge);
        return rc;
    }
    in->cref = cref;
    in->gauge = gauge;
    ctx->references++;
    return GB_OK;
}
