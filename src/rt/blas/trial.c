/* trial.c: the inputs a measurement runs its candidates on and the check of each candidate's C
 * (trial.h), for every precision: A, B and C are made on the device by gb_fill (kernels/scale.cl)
 * in the precision's storage (a complex buffer as the reals of its parts), the host computes the
 * same values for a sample of C's rows and columns and what each sampled element must be, once
 * for every candidate, and each candidate's sampled elements are judged as the validation judges
 * them (rt/core/element.c): within the bound, and faithful. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt/core/core.h"
#include "trial.h"

enum { SEED_A = 0x51u, SEED_B = 0xb2u, SEED_C = 0xc3u };

/* The value gb_fill computes for element i of a buffer filled with seed, before its rounding to
 * a storage format. */
static double fill_value(uint32_t seed, size_t i)
{
    uint32_t x = (uint32_t)i * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return (double)((int32_t)(x >> 8) - (1 << 23)) * 0x1.0p-23;
}

/* Element e of a buffer of prec filled with seed, as the device holds it, in double: its value
 * rounded to the storage format (h, b), or its two parts (c, z). */
static void input(gb_precision_t prec, uint32_t seed, size_t e, double *out)
{
    if (gb_precision_is_complex(prec)) {
        out[0] = fill_value(seed, 2 * e);
        out[1] = fill_value(seed, 2 * e + 1);
    } else {
        out[0] = gb__round_to(prec, fill_value(seed, e));
    }
}

static int fill(gb_blas_trial_t *t, int which, uint32_t seed)
{
    gb_blas_t *h = t->h;
    const gb_precision_t prec = t->p->precision;
    cl_program prog;
    gb_kslot_t *slot;
    /* A complex buffer is filled as the reals of its parts, by its real precision's program. */
    int rc = gb_blas__scale_program(
        h, gb_precision_is_complex(prec) ? gb_precision_arith(prec) : prec, &prog);
    if (rc != GB_OK || (rc = gb_blas__kernel_get(h, prog, "gb_fill", &slot)) != GB_OK)
        return rc;
    const cl_uint n = (cl_uint)(t->elems[which] * gb_precision_parts(prec));
    cl_int err = clSetKernelArg(slot->kernel, 0, sizeof t->buf[which], &t->buf[which]);
    err |= clSetKernelArg(slot->kernel, 1, sizeof n, &n);
    err |= clSetKernelArg(slot->kernel, 2, sizeof seed, &seed);
    const size_t global = ((size_t)n + 255) / 256 * 256;
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(t->q, slot->kernel, 1, NULL, &global, NULL, 0, NULL, NULL);
    gb_blas__kernel_put(h, slot);
    return err == CL_SUCCESS ? GB_OK
                             : gb_blas__fail(GB_EOPENCL, "filling the measurement's inputs (%s)",
                                             gb__cl_errname(err));
}

int gb_blas__trial_fill_c(gb_blas_trial_t *t)
{
    return fill(t, 2, SEED_C);
}

int gb_blas__trial_check(gb_blas_trial_t *t, char *why, size_t len)
{
    const gb_problem_t *p = t->p;
    const size_t es = gb_precision_bytes(p->precision), parts = gb_precision_parts(p->precision);
    /* Every sampled element read in one go: the reads enqueued, then one wait. */
    cl_int err = CL_SUCCESS;
    for (size_t x = 0; x < t->ns_i && err == CL_SUCCESS; x++)
        for (size_t y = 0; y < t->ns_j && err == CL_SUCCESS; y++)
            err =
                clEnqueueReadBuffer(t->q, t->buf[2], CL_FALSE, gb__at_c(p, t->si[x], t->sj[y]) * es,
                                    es, t->raw + (x * t->ns_j + y) * es, 0, NULL, NULL);
    if (err != CL_SUCCESS || clFinish(t->q) != CL_SUCCESS) {
        snprintf(why, len, "its result could not be read");
        return 0;
    }
    gb__from_storage(p->precision, t->raw, t->ns_i * t->ns_j, t->got);
    gb_faithful_t f = {0, 0};
    for (size_t x = 0; x < t->ns_i; x++)
        for (size_t y = 0; y < t->ns_j; y++) {
            const gb_trial_expect_t *e = &t->expect[x * t->ns_j + y];
            const double *got = t->got + (x * t->ns_j + y) * parts;
            const int cplx = parts == 2;
            const double dist =
                cplx ? hypot(got[0] - e->ref[0], got[1] - e->ref[1]) : fabs(got[0] - e->ref[0]);
            const int judged =
                cplx ? gb__faithful_add(&f, p->precision, dist, 0.0, e->gauge, e->honest)
                     : gb__faithful_add(&f, p->precision, got[0], e->ref[0], e->gauge, e->honest);
            if (!judged || !(dist <= e->bound)) {
                snprintf(why, len, "wrong at C(%zu, %zu): %.3g from the reference, over %.3g",
                         t->si[x], t->sj[y], dist, e->bound);
                return 0;
            }
        }
    const double ratio = gb__faithful_of(f.worst, f.worst_honest);
    if (ratio > GB_FAITHFUL_LAMBDA) {
        snprintf(why, len, "not faithful: %.3g times an honest computation's error", ratio);
        return 0;
    }
    return 1;
}

void gb_blas__trial_free(gb_blas_trial_t *t)
{
    for (int i = 0; i < 3; i++)
        if (t->buf[i])
            clReleaseMemObject(t->buf[i]);
    free(t->expect);
    free(t->got);
    free(t->raw);
}

/* What element (x, y) of the sample must be, from its row of op(A), column of op(B) and c0 (g the
 * bound's factor): the reference and its bound, the gauge, the honest computation. */
static void expect_of(const gb_problem_t *p, double g, const double *row, const double *col,
                      const double *c0, gb_trial_expect_t *e)
{
    if (gb_precision_is_complex(p->precision)) {
        /* The distance in the complex plane, against the moduli's gauge (as gb__validate). */
        double hon[2];
        gb__element_reference_complex(p, row, col, c0, e->ref, &e->gauge);
        gb__element_honest_complex(p, row, col, c0, hon);
        e->bound = gb__bound_of(p, g, hypot(e->ref[0], e->ref[1]), e->gauge);
        e->honest = hypot(hon[0] - e->ref[0], hon[1] - e->ref[1]);
        return;
    }
    gb__element_reference(p, row, col, c0[0], e->ref, &e->gauge);
    e->ref[1] = 0.0;
    e->bound = gb__bound_of(p, g, e->ref[0], e->gauge);
    e->honest = gb__element_honest(p, row, col, c0[0]);
}

/* The sample of C's rows and columns, and what each of its elements must be, from the rows of
 * op(A) and columns of op(B) as the device's buffers hold them (held in double only while the
 * expectations are computed: K elements each, two per complex element). */
static int sample(gb_blas_trial_t *t)
{
    const gb_problem_t *p = t->p;
    const size_t parts = gb_precision_parts(p->precision), kk = parts * p->k;
    t->ns_i = p->m < GB_TRIAL_SIDE ? p->m : GB_TRIAL_SIDE;
    t->ns_j = p->n < GB_TRIAL_SIDE ? p->n : GB_TRIAL_SIDE;
    const size_t n = t->ns_i * t->ns_j;
    t->expect = malloc(n * sizeof *t->expect);
    t->got = malloc(n * parts * sizeof *t->got);
    t->raw = malloc(n * gb_precision_bytes(p->precision));
    double *arow = malloc((t->ns_i + t->ns_j) * kk * sizeof *arow);
    if (!t->expect || !t->got || !t->raw || !arow) {
        free(arow);
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    }
    double *bcol = arow + t->ns_i * kk;
    for (size_t x = 0; x < t->ns_i; x++) {
        t->si[x] = gb__spread(x, t->ns_i, p->m);
        for (size_t l = 0; l < p->k; l++)
            input(p->precision, SEED_A, gb__at_a(p, t->si[x], l), arow + x * kk + parts * l);
    }
    for (size_t y = 0; y < t->ns_j; y++) {
        t->sj[y] = gb__spread(y, t->ns_j, p->n);
        for (size_t l = 0; l < p->k; l++)
            input(p->precision, SEED_B, gb__at_b(p, l, t->sj[y]), bcol + y * kk + parts * l);
    }
    const double g = gb__bound_factor(p);
    for (size_t x = 0; x < t->ns_i; x++)
        for (size_t y = 0; y < t->ns_j; y++) {
            double c0[2] = {0.0, 0.0};
            if (!gb__beta_zero(p))
                input(p->precision, SEED_C, gb__at_c(p, t->si[x], t->sj[y]), c0);
            expect_of(p, g, arow + x * kk, bcol + y * kk, c0, &t->expect[x * t->ns_j + y]);
        }
    free(arow);
    return GB_OK;
}

int gb_blas__trial_make(gb_blas_trial_t *t)
{
    const gb_problem_t *p = t->p;
    gb_problem_buffer_elems(p, &t->elems[0], &t->elems[1], &t->elems[2]);
    const size_t es = gb_precision_bytes(p->precision);
    const size_t bytes = (t->elems[0] + t->elems[1] + t->elems[2]) * es;
    for (int i = 0; i < 3; i++)
        if (t->elems[i] * gb_precision_parts(p->precision) > 0xffffffffu)
            return gb_blas__fail(GB_EOVERFLOW, "too large to measure");
    /* Never more than a quarter of the device's memory for the handle's own copies. */
    if (bytes > t->h->dev.global_mem / 4)
        return gb_blas__fail(GB_ENOMEM, "too large to measure (%zu MiB of inputs)", bytes >> 20);
    cl_int err = CL_SUCCESS;
    for (int i = 0; i < 3 && err == CL_SUCCESS; i++)
        t->buf[i] = clCreateBuffer(t->h->cl, CL_MEM_READ_WRITE, t->elems[i] * es, NULL, &err);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_ENOMEM, "allocating the measurement's buffers (%s)",
                             gb__cl_errname(err));
    int rc = sample(t);
    if (rc == GB_OK)
        rc = fill(t, 0, SEED_A);
    if (rc == GB_OK)
        rc = fill(t, 1, SEED_B);
    return rc;
}
