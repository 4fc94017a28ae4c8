/* blas_precisions.c: the library's GEMM calls in h (FP16), b (bfloat16), c and z (complex) on the
 * default device: every layout and transposition (the C transposition of c and z among them) at
 * shapes that straddle tiles, leading-dimension padding and offsets, nonzero imaginary parts of
 * alpha and beta, beta = 0 over NaN, batched and strided-batched calls, BLAS's quick returns
 * (K = 0 and alpha = 0 over NaN in A scale C by beta), conjugation that a result ignoring it
 * fails, what gb_blas_choose gives each precision, a kernel set on the handle (for the
 * precisions it has), bad arguments named, and a device without double precision (the handle's
 * record of it changed) refusing z in one line. Every element of C is checked against the validation's double-precision reference and bound (src/rt/core:
 * gb__element_reference(_complex), gb__bound_factor, gb__bound_of; docs/methodology.md), and
 * nothing outside C may change. Linked against the static library for those. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/blas/blas_int.h"
#include "rt/core/core.h"
#include "blas_test.h"
#include "blas_check.h"

static gb_blas_t *h;
static cl_context ctx;
static cl_command_queue q;

/* A case with the imaginary parts of alpha and beta (c and z). */
typedef struct pcase {
    gemm_case_t g;
    double im[2];
} pcase_t;

static gb_precision_t prec_of(char c)
{
    gb_precision_t p = GB_PREC_S;
    const char name[2] = {c, '\0'};
    gb_precision_parse(name, &p);
    return p;
}

/* A buffer of elems elements of prec from v (parts doubles each), as the device holds them. */
static cl_mem upload_as(gb_precision_t prec, const double *v, size_t elems)
{
    const size_t bytes = elems * gb_precision_bytes(prec);
    void *buf = malloc(bytes);
    if (!buf)
        return NULL;
    gb__to_storage(prec, v, elems, buf);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, buf, &err);
    free(buf);
    return err == CL_SUCCESS ? m : NULL;
}

static int download_as(gb_precision_t prec, cl_mem m, double *v, size_t elems)
{
    const size_t bytes = elems * gb_precision_bytes(prec);
    void *buf = malloc(bytes);
    const int ok =
        buf && clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, buf, 0, NULL, NULL) == CL_SUCCESS;
    if (ok)
        gb__from_storage(prec, buf, elems, v);
    free(buf);
    return ok;
}

/* Elements of C judged: those off by more than the bound (the first described in first). conj_a,
 * conj_b: whether the reference conjugates op(A), op(B) (what g's transpositions ask, unless a
 * test asks otherwise). */
static size_t verify(const pcase_t *pc, const case_dims_t *d, const double *a, const double *b,
                     const double *c, const double *out, int conj_a, int conj_b, char *first,
                     size_t len)
{
    const gemm_case_t *g = &pc->g;
    const gb_precision_t prec = prec_of(g->prec);
    /* alpha = 0: BLAS reads neither A nor B (NaN there), and C = beta C. */
    const size_t parts = gb_precision_parts(prec), k = g->alpha == 0 && pc->im[0] == 0 ? 0 : g->k;
    gb_problem_t p;
    gb_problem_init(&p, prec, g->m, g->n, k ? k : 1);
    p.k = k;
    p.alpha = g->alpha;
    p.alpha_im = pc->im[0];
    p.beta = g->beta;
    p.beta_im = pc->im[1];
    p.conj_a = conj_a;
    p.conj_b = conj_b;
    const double factor = gb__bound_factor(&p);
    double *row = malloc((2 * k + 1) * parts * sizeof *row), *col = row + k * parts;
    size_t bad = 0;
    first[0] = '\0';
    for (size_t it = 0; row && it < d->items; it++) {
        const double *A = a + (it * d->sa + g->off) * parts, *B = b + (it * d->sb + g->off) * parts;
        const double *C0 = c + (it * d->sc + g->off) * parts;
        const double *O = out + (it * d->sc + g->off) * parts;
        for (size_t i = 0; i < g->m; i++)
            for (size_t j = 0; j < g->n; j++) {
                for (size_t l = 0; l < k; l++) {
                    const size_t ia = g->ta == GB_BLAS_NO_TRANS ? at(g->layout, d->lda, i, l)
                                                                : at(g->layout, d->lda, l, i);
                    const size_t ib = g->tb == GB_BLAS_NO_TRANS ? at(g->layout, d->ldb, l, j)
                                                                : at(g->layout, d->ldb, j, l);
                    memcpy(row + l * parts, A + ia * parts, parts * sizeof *row);
                    memcpy(col + l * parts, B + ib * parts, parts * sizeof *col);
                }
                const size_t ic = at(g->layout, d->ldc, i, j);
                const double zero[2] = {0, 0};
                const double *c0 = gb__beta_zero(&p) ? zero : C0 + ic * parts; /* NaN there */
                double ref[2], gauge, diff, mag;
                if (parts == 2) {
                    gb__element_reference_complex(&p, row, col, c0, ref, &gauge);
                    diff = hypot(O[2 * ic] - ref[0], O[2 * ic + 1] - ref[1]);
                    mag = hypot(ref[0], ref[1]);
                } else {
                    gb__element_reference(&p, row, col, c0[0], ref, &gauge);
                    diff = fabs(O[ic] - ref[0]);
                    mag = fabs(ref[0]);
                }
                const double bound = gb__bound_of(&p, factor, mag, gauge);
                if (!(diff <= bound) && bad++ == 0)
                    snprintf(first, len, "item %zu (%zu,%zu): off by %.3g, bound %.3g", it, i, j,
                             diff, bound);
            }
    }
    if (!row)
        bad = SIZE_MAX;
    free(row);
    return bad;
}

/* A case's inputs on the host (rounded to the precision, so that the reference multiplies what
 * the device reads) and on the device, and its result. */
typedef struct run {
    case_dims_t d;
    gb_precision_t prec;
    size_t parts, na, nb, nc; /* elements */
    double *a, *b, *c, *out;
    cl_mem ma, mb, mc;
} run_t;

static void run_free(run_t *r)
{
    if (r->ma)
        clReleaseMemObject(r->ma);
    if (r->mb)
        clReleaseMemObject(r->mb);
    if (r->mc)
        clReleaseMemObject(r->mc);
    free(r->a);
    free(r->b);
    free(r->c);
    free(r->out);
}

/* Calls g on fresh inputs (NaN in C where beta is 0, in A where nan_a) into r: 1 when the call
 * went and its result was read. */
static int run_call(const pcase_t *pc, int nan_a, run_t *r)
{
    const gemm_case_t *g = &pc->g;
    memset(r, 0, sizeof *r);
    case_dims(g, &r->d);
    r->prec = prec_of(g->prec);
    r->parts = gb_precision_parts(r->prec);
    r->na = r->d.sa * r->d.items;
    r->nb = r->d.sb * r->d.items;
    r->nc = r->d.sc * r->d.items;
    r->a = malloc(r->na * r->parts * sizeof *r->a);
    r->b = malloc(r->nb * r->parts * sizeof *r->b);
    r->c = malloc(r->nc * r->parts * sizeof *r->c);
    r->out = malloc(r->nc * r->parts * sizeof *r->out);
    if (!r->a || !r->b || !r->c || !r->out)
        return 0;
    double *const v[3] = {r->a, r->b, r->c};
    const size_t n[3] = {r->na, r->nb, r->nc};
    for (int x = 0; x < 3; x++)
        for (size_t i = 0; i < n[x] * r->parts; i++)
            v[x][i] = gb__round_to(r->prec, uniform());
    if (g->beta == 0.0 && pc->im[1] == 0.0) /* C is not read, so NaN there must not come out */
        for (size_t i = 0; i < r->nc * r->parts; i++)
            r->c[i] = NAN;
    if (nan_a) /* alpha = 0: A and B are not read */
        for (size_t i = 0; i < r->na * r->parts; i++)
            r->a[i] = NAN;
    r->ma = upload_as(r->prec, r->a, r->na);
    r->mb = upload_as(r->prec, r->b, r->nb);
    r->mc = upload_as(r->prec, r->c, r->nc);
    if (!r->ma || !r->mb || !r->mc)
        return 0;
    const int rc = case_call(h, q, g, pc->im, &r->d, r->ma, r->mb, r->mc, NULL);
    CHECK(rc == GB_OK);
    return rc == GB_OK && download_as(r->prec, r->mc, r->out, r->nc);
}

/* Runs g and checks every element of C against the reference, and that nothing outside C was
 * written. */
static void run_case(const pcase_t *pc, int nan_a)
{
    const gemm_case_t *g = &pc->g;
    run_t r;
    char first[160] = "", text[200];
    const int went = run_call(pc, nan_a, &r);
    CHECK(went);
    if (went) {
        const size_t bad = verify(pc, &r.d, r.a, r.b, r.c, r.out, g->ta == GB_BLAS_CONJ_TRANS,
                                  g->tb == GB_BLAS_CONJ_TRANS, first, sizeof first);
        const size_t touched = case_touched(g, &r.d, r.parts, r.c, r.out);
        if (bad || touched)
            fprintf(stderr, "case %s (imaginary %g, %g): %zu wrong, %zu outside C written%s%s\n",
                    case_text(g, text, sizeof text), pc->im[0], pc->im[1], bad, touched,
                    bad ? "; first: " : "", first);
        CHECK(bad == 0);
        CHECK(touched == 0);
    }
    run_free(&r);
}

static const size_t dims[][3] = {{1, 1, 1},    {7, 5, 3},     {33, 31, 17},
                                 {65, 33, 47}, {31, 64, 129}, {64, 65, 16}};
#define NDIMS (sizeof dims / sizeof dims[0])

/* Every layout and transposition (N, T, and C for c and z) of each precision, at two shapes each,
 * with padding, offsets and general scalars. */
static void test_shapes(void)
{
    static const char precs[] = "hbcz";
    static const double scalars[][4] = {{1, 0, 0, 0}, {-1.5, 0.25, 0.5, -0.75}, {0.5, -1, 1, 0.5}};
    const gb_blas_layout_t layouts[] = {GB_BLAS_ROW_MAJOR, GB_BLAS_COL_MAJOR};
    const gb_blas_trans_t ops[] = {GB_BLAS_NO_TRANS, GB_BLAS_TRANS, GB_BLAS_CONJ_TRANS};
    size_t n = 0;
    for (int p = 0; p < 4; p++) {
        const int cplx = precs[p] == 'c' || precs[p] == 'z';
        for (int l = 0; l < 2; l++)
            for (int ta = 0; ta < (cplx ? 3 : 2); ta++)
                for (int tb = 0; tb < (cplx ? 3 : 2); tb++, n++) {
                    const double *s = scalars[n % 3];
                    pcase_t pc = {{precs[p], layouts[l], ops[ta], ops[tb], 0, 0, 0, n % 2 ? 3 : 0,
                                   n % 3 ? 5 : 0, s[0], s[2], 1, 0},
                                  {cplx ? s[1] : 0, cplx ? s[3] : 0}};
                    for (size_t shape = 0; shape < 2; shape++) {
                        const size_t *dm = dims[(n + 3 * shape) % NDIMS];
                        pc.g.m = dm[0];
                        pc.g.n = dm[1];
                        pc.g.k = dm[2];
                        run_case(&pc, 0);
                    }
                }
    }
}

/* Real precisions: GB_BLAS_CONJ_TRANS is GB_BLAS_TRANS. */
static void test_conj_real(void)
{
    const pcase_t pc = {{'h', GB_BLAS_COL_MAJOR, GB_BLAS_CONJ_TRANS, GB_BLAS_CONJ_TRANS, 9, 11, 13,
                         1, 2, 1, 0.5, 1, 0},
                        {0, 0}};
    run_case(&pc, 0);
}

/* The C transposition conjugates: a result that passes against the conjugating reference fails
 * against the plain transposition's (the check could not tell them apart otherwise). */
static void test_conjugation(void)
{
    for (int which = 0; which < 4; which++) {
        const int on_a = which % 2;
        const gb_blas_trans_t C = GB_BLAS_CONJ_TRANS;
        const gb_blas_layout_t lay = which / 2 ? GB_BLAS_ROW_MAJOR : GB_BLAS_COL_MAJOR;
        const gb_blas_trans_t ta = on_a ? C : GB_BLAS_NO_TRANS, tb = on_a ? GB_BLAS_NO_TRANS : C;
        const pcase_t pc = {{which < 2 ? 'c' : 'z', lay, ta, tb, 17, 9, 12, 0, 1, 1, 0, 1, 0},
                            {0.5, 0}};
        run_t r;
        char first[160];
        CHECK(run_call(&pc, 0, &r));
        if (r.out) {
            CHECK(verify(&pc, &r.d, r.a, r.b, r.c, r.out, on_a, !on_a, first, sizeof first) == 0);
            CHECK(verify(&pc, &r.d, r.a, r.b, r.c, r.out, 0, 0, first, sizeof first) > 0);
        }
        run_free(&r);
    }
}

/* K = 0 and alpha = 0 scale C by beta (complex beta included) without reading A or B (NaN
 * there); beta = 1 leaves C as it was; M = 0 does nothing. */
static void test_quick_returns(void)
{
    const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR, C = GB_BLAS_COL_MAJOR;
    const gb_blas_trans_t N = GB_BLAS_NO_TRANS, T = GB_BLAS_TRANS, H = GB_BLAS_CONJ_TRANS;
    const pcase_t k0[] = {
        {{'h', R, N, N, 9, 7, 0, 1, 2, 1.0, 2.0, 1, 0}, {0, 0}},
        {{'b', C, T, N, 9, 7, 0, 0, 3, 1.0, 0.0, 1, 0}, {0, 0}},
        {{'c', C, H, N, 9, 7, 0, 2, 1, 1.0, -0.5, 1, 0}, {0, 0.75}},
        {{'z', R, N, H, 9, 7, 0, 0, 0, 1.0, 1.0, 1, 0}, {0, 0}},
    };
    for (size_t i = 0; i < sizeof k0 / sizeof k0[0]; i++)
        run_case(&k0[i], 0);
    const pcase_t a0[] = {
        {{'h', C, N, T, 9, 7, 5, 2, 1, 0.0, -0.5, 1, 0}, {0, 0}},
        {{'b', R, N, N, 33, 40, 5, 0, 0, 0.0, 0.0, 1, 0}, {0, 0}},
        {{'c', R, N, N, 9, 7, 5, 0, 4, 0.0, 0.5, 1, 0}, {0, -2.0}},
        {{'z', C, H, T, 9, 7, 5, 1, 0, 0.0, 0.0, 1, 0}, {0, 1.0}},
    };
    for (size_t i = 0; i < sizeof a0 / sizeof a0[0]; i++)
        run_case(&a0[i], 1);
    cl_event ev = NULL;
    cl_int err;
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
    const cl_double2 one = {{1, 0}};
    CHECK(gb_zgemm(h, R, N, N, 0, 4, 4, one, NULL, 0, 4, NULL, 0, 4, one, c, 0, 4, q, 0, NULL,
                   &ev) == GB_OK);
    CHECK(ev != NULL && clWaitForEvents(1, &ev) == CL_SUCCESS);
    if (ev)
        clReleaseEvent(ev);
    clReleaseMemObject(c);
}

/* Batches of offsets and strided batches in each precision. */
static void test_batches(void)
{
    const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR, C = GB_BLAS_COL_MAJOR;
    const gb_blas_trans_t N = GB_BLAS_NO_TRANS, T = GB_BLAS_TRANS, H = GB_BLAS_CONJ_TRANS;
    const pcase_t cases[] = {
        {{'h', R, N, T, 17, 23, 9, 1, 3, 0.75, 0.25, 1, 0}, {0, 0}},
        {{'b', C, T, N, 33, 8, 40, 0, 2, 1.0, 0.0, 1, 0}, {0, 0}},
        {{'c', R, H, N, 17, 23, 9, 1, 3, 0.75, 0.25, 1, 0}, {-0.5, 0.5}},
        {{'z', C, T, H, 16, 33, 20, 2, 0, 1.0, 0.0, 1, 0}, {0.25, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pcase_t pc = cases[i];
        pc.g.count = 4;
        run_case(&pc, 0);
        pc.g.count = 3;
        pc.g.strided = 1;
        run_case(&pc, 0);
    }
}

/* What the library would run for each precision: a kernel that has it. */
static void test_choose(void)
{
    static const char precs[] = "hbcz";
    for (int p = 0; p < 4; p++) {
        gb_blas_choice_t c;
        CHECK(gb_blas_choose(h, precs[p], GB_BLAS_COL_MAJOR, GB_BLAS_CONJ_TRANS, GB_BLAS_NO_TRANS,
                             100, 60, 70, &c) == GB_OK);
        CHECK(c.kernel[0] != '\0');
        char buf[1024];
        CHECK(gb_blas_chosen(h, precs[p], GB_BLAS_COL_MAJOR, GB_BLAS_CONJ_TRANS, GB_BLAS_NO_TRANS,
                             100, 60, 70, buf, sizeof buf) == GB_OK);
        CHECK(c.kernel[0] && !strncmp(buf, c.kernel, strlen(c.kernel)));
    }
    char buf[256];
    CHECK(gb_blas_chosen(h, 'q', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 4, 4, 4,
                         buf, sizeof buf) == GB_EBADPRECISION);
    CHECK(strstr(gb_blas_errmsg(), "argument 2 (precision)") != NULL);
}

/* Bad arguments: each refused with its code, the message naming the function and argument. */
static void test_bad_arguments(void)
{
    cl_int err;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 16, NULL, &err);
    cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * 16, NULL, &err); /* 256 z elements */
    cl_mem small = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * 2, NULL, &err);
    const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR;
    const gb_blas_trans_t N = GB_BLAS_NO_TRANS;
    const cl_float2 c1 = {{1, 0}};
    const cl_double2 z1 = {{1, 0}};
    CHECK(gb_cgemm(h, R, N, N, 4, 4, 5, c1, a, 0, 4, a, 0, 4, c1, c, 0, 4, q, 0, NULL, NULL) ==
          GB_EBADLDA);
    CHECK(strstr(gb_blas_errmsg(), "gb_cgemm: argument 11 (lda)") != NULL);
    CHECK(gb_zgemm(h, R, N, (gb_blas_trans_t)114, 4, 4, 4, z1, a, 0, 4, a, 0, 4, z1, c, 0, 4, q, 0,
                   NULL, NULL) == GB_EBADTRANS);
    CHECK(strstr(gb_blas_errmsg(), "gb_zgemm: argument 4 (trans_b)") != NULL);
    /* 16 FP16 elements hold 4 x 4 but not from offset 1. */
    CHECK(gb_hgemm(h, R, N, N, 4, 4, 4, 1.0f, small, 1, 4, a, 0, 4, 0.0f, c, 0, 4, q, 0, NULL,
                   NULL) == GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "gb_hgemm: argument 9 (a)") != NULL);
    CHECK(gb_bgemm(h, R, N, N, 4, 4, 4, 1.0f, small, 0, 4, a, 0, 4, 0.0f, c, 0, 4, q, 0, NULL,
                   NULL) == GB_OK);
    const size_t offs[2] = {0, 0};
    const float f1[2] = {1, 1};
    CHECK(gb_hgemm_batched(h, R, N, N, 2, 2, 2, NULL, a, offs, 2, a, offs, 2, f1, c, offs, 2, 2, q,
                           0, NULL, NULL) == GB_EBADARG);
    CHECK(strstr(gb_blas_errmsg(), "gb_hgemm_batched: argument 8 (alphas)") != NULL);
    const cl_float2 cs[2] = {{{1, 0}}, {{1, 0}}};
    CHECK(gb_cgemm_batched(h, R, N, N, 2, 2, 2, cs, a, offs, 2, a, offs, 2, NULL, c, offs, 2, 2, q,
                           0, NULL, NULL) == GB_EBADARG);
    CHECK(strstr(gb_blas_errmsg(), "gb_cgemm_batched: argument 15 (betas)") != NULL);
    CHECK(gb_zgemm_strided_batched(h, R, N, N, 4, 4, 4, z1, a, 0, 4, 16, a, 0, 4, 16, z1, c, 0, 4,
                                   16, 20, q, 0, NULL, NULL) == GB_EBADBUFFER);
    CHECK(strstr(gb_blas_errmsg(), "gb_zgemm_strided_batched: argument 18 (c)") != NULL);
    CHECK(strstr(gb_blas_errmsg(), "batch item 16") != NULL);
    CHECK(gb_bgemm_strided_batched(h, R, N, N, 4, 4, 4, 1.0f, a, 0, 4, 0, a, 0, 3, 0, 1.0f, c, 0, 4,
                                   0, 2, q, 0, NULL, NULL) == GB_EBADLDB);
    CHECK(strstr(gb_blas_errmsg(), "gb_bgemm_strided_batched: argument 15 (ldb)") != NULL);
    clFinish(q);
    clReleaseMemObject(a);
    clReleaseMemObject(c);
    clReleaseMemObject(small);
}

/* A kernel set on the handle runs the precisions it has; the others keep the database's choice. */
static void test_override(void)
{
    CHECK(gb_blas_set_kernel(h, "xgemm", "MWG=16 NWG=16 KWG=8 MDIMC=8 NDIMC=8") == GB_OK);
    gb_blas_choice_t c;
    CHECK(gb_blas_choose(h, 'b', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 20, 30, 40,
                         &c) == GB_OK);
    CHECK(!strcmp(c.kernel, "xgemm") && !strcmp(c.why, "set on the handle"));
    const pcase_t cases[] = {
        {{'b', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 20, 30, 40, 1, 2, 1, 0.5, 1, 0},
         {0, 0}},
        {{'z', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_CONJ_TRANS, 20, 30, 40, 1, 2, 1, 0.5, 1,
          0},
         {0.5, -1}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_case(&cases[i], 0);
    /* cpu_rb has s and d: c and z run on it by the 1M method (conjugations, a complex alpha and
     * beta, both layouts); b keeps the database's choice. */
    CHECK(gb_blas_set_kernel(h, "cpu_rb", NULL) == GB_OK);
    CHECK(gb_blas_choose(h, 'b', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_TRANS, 20, 30, 40,
                         &c) == GB_OK);
    CHECK(strcmp(c.why, "set on the handle") != 0);
    CHECK(gb_blas_choose(h, 'c', GB_BLAS_COL_MAJOR, GB_BLAS_CONJ_TRANS, GB_BLAS_TRANS, 20, 30, 40,
                         &c) == GB_OK);
    CHECK(!strcmp(c.kernel, "cpu_rb") && !strcmp(c.why, "set on the handle"));
    const pcase_t onem[] = {
        {{'c', GB_BLAS_COL_MAJOR, GB_BLAS_CONJ_TRANS, GB_BLAS_TRANS, 20, 30, 40, 1, 2, 1, 0.5, 1,
          0},
         {0.5, -1}},
        {{'z', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_CONJ_TRANS, 33, 17, 9, 1, 2, 1, 0.5, 1,
          0},
         {0, 0.25}},
        {{'z', GB_BLAS_ROW_MAJOR, GB_BLAS_TRANS, GB_BLAS_NO_TRANS, 7, 5, 3, 1, 2, 1, 0.5, 1, 0},
         {0, 0}},
    };
    for (size_t i = 0; i < sizeof onem / sizeof onem[0]; i++)
        run_case(&onem[i], 0);
    CHECK(gb_blas_set_kernel(h, NULL, NULL) == GB_OK);
}

/* A handle whose device lacks double precision (its record says so) refuses z, and says why. */
static void test_no_fp64(void)
{
    gb_blas_t *h2;
    CHECK(gb_blas_open(&h2, ctx, gb_blas_device(h)) == GB_OK);
    if (!h2)
        return;
    h2->dev.fp64 = 0;
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 16 * 16 * 16, NULL, &err);
    const cl_double2 one = {{1, 0}};
    CHECK(gb_zgemm(h2, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 4, 4, 4, one, m, 0, 4,
                   m, 0, 4, one, m, 64, 4, q, 0, NULL, NULL) == GB_ENOFP64);
    CHECK(strstr(gb_blas_errmsg(), "has no double precision (cl_khr_fp64), which precision z") !=
          NULL);
    CHECK(strchr(gb_blas_errmsg(), '\n') == NULL);
    gb_blas_choice_t c;
    CHECK(gb_blas_choose(h2, 'c', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 4, 4, 4,
                         &c) == GB_OK);
    clFinish(q);
    clReleaseMemObject(m);
    gb_blas_close(h2);
}

int main(void)
{
    int rc = gb_blas_open_device(&h, getenv("GB_TEST_PLATFORM"), getenv("GB_TEST_DEVICE"));
    if (rc != GB_OK) {
        fprintf(stderr, "no device: %s\n", gb_blas_errmsg());
        return 77;
    }
    ctx = gb_blas_context(h);
    q = gb_blas_queue(h);
    test_bad_arguments();
    test_choose();
    test_shapes();
    test_conj_real();
    test_conjugation();
    test_quick_returns();
    test_batches();
    test_override();
    test_no_fp64();
    gb_blas_close(h);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
