/* trial.c: the inputs a measurement runs its candidates on and the check of each candidate's C
 * (trial.h), for every precision: A, B and C are made on the device by gb_fill (kernels/scale.cl)
 * in the precision's storage (a complex buffer as the reals of its parts), the host computes the
 * same values for a sample of C's rows and columns, and each sampled element is judged as the
 * validation judges it (rt/core/element.c): within the bound, and faithful. */
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

/* C's element at buffer index at, in double (two parts for c and z): 1, or 0 where it could not
 * be read. */
static int read_element(gb_blas_trial_t *t, size_t at, double *got)
{
    const size_t es = gb_precision_bytes(t->p->precision);
    unsigned char raw[16]; /* the largest element, z's */
    if (clEnqueueReadBuffer(t->q, t->buf[2], CL_TRUE, at * es, es, raw, 0, NULL, NULL) !=
        CL_SUCCESS)
        return 0;
    gb__from_storage(t->p->precision, raw, 1, got);
    return 1;
}

/* Element got of C, from its row of op(A), column of op(B) and c0: its distance from the
 * reference and the bound on it (*dist, *bound; g the bound's factor), the faithful verdict's
 * errors added to f. 0 where anything is not finite (nothing can be judged: a failure). */
static int judge(const gb_problem_t *p, double g, const double *row, const double *col,
                 const double *c0, const double *got, gb_faithful_t *f, double *dist, double *bound)
{
    double ref[2], gauge;
    if (gb_precision_is_complex(p->precision)) {
        /* The distance in the complex plane, against the moduli's gauge (as gb__validate). */
        double hon[2];
        gb__element_reference_complex(p, row, col, c0, ref, &gauge);
        gb__element_honest_complex(p, row, col, c0, hon);
        *dist = hypot(got[0] - ref[0], got[1] - ref[1]);
        *bound = gb__bound_of(p->precision, g, hypot(ref[0], ref[1]), gauge);
        return gb__faithful_add(f, p->precision, *dist, 0.0, gauge,
                                hypot(hon[0] - ref[0], hon[1] - ref[1]));
    }
    gb__element_reference(p, row, col, c0[0], ref, &gauge);
    *dist = fabs(got[0] - ref[0]);
    *bound = gb__bound_of(p->precision, g, ref[0], gauge);
    return gb__faithful_add(f, p->precision, got[0], ref[0], gauge,
                            gb__element_honest(p, row, col, c0[0]));
}

int gb_blas__trial_check(gb_blas_trial_t *t, char *why, size_t len)
{
    const gb_problem_t *p = t->p;
    const size_t kk = gb_precision_parts(p->precision) * p->k;
    const double g = gb__bound_factor(p);
    gb_faithful_t f = {0, 0};
    for (size_t x = 0; x < t->ns_i; x++)
        for (size_t y = 0; y < t->ns_j; y++) {
            const size_t at = gb__at_c(p, t->si[x], t->sj[y]);
            double got[2], c0[2] = {0.0, 0.0}, dist, bound;
            if (!read_element(t, at, got)) {
                snprintf(why, len, "its result could not be read");
                return 0;
            }
            if (!gb__beta_zero(p))
                input(p->precision, SEED_C, at, c0);
            if (!judge(p, g, t->arow + x * kk, t->bcol + y * kk, c0, got, &f, &dist, &bound) ||
                !(dist <= bound)) {
                snprintf(why, len, "wrong at C(%zu, %zu): %.3g from the reference, over %.3g",
                         t->si[x], t->sj[y], dist, bound);
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
    free(t->arow);
}

/* The sampled rows of op(A) and columns of op(B), as the device's buffers hold them. */
static int sample(gb_blas_trial_t *t)
{
    const gb_problem_t *p = t->p;
    const size_t parts = gb_precision_parts(p->precision), kk = parts * p->k;
    t->ns_i = p->m < GB_TRIAL_SIDE ? p->m : GB_TRIAL_SIDE;
    t->ns_j = p->n < GB_TRIAL_SIDE ? p->n : GB_TRIAL_SIDE;
    t->arow = malloc((t->ns_i + t->ns_j) * kk * sizeof *t->arow);
    if (!t->arow)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    t->bcol = t->arow + t->ns_i * kk;
    for (size_t x = 0; x < t->ns_i; x++) {
        t->si[x] = gb__spread(x, t->ns_i, p->m);
        for (size_t l = 0; l < p->k; l++)
            input(p->precision, SEED_A, gb__at_a(p, t->si[x], l), t->arow + x * kk + parts * l);
    }
    for (size_t y = 0; y < t->ns_j; y++) {
        t->sj[y] = gb__spread(y, t->ns_j, p->n);
        for (size_t l = 0; l < p->k; l++)
            input(p->precision, SEED_B, gb__at_b(p, l, t->sj[y]), t->bcol + y * kk + parts * l);
    }
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
