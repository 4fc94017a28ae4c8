/* blas_fallback.c: a tuned entry whose kernel does not build on the device (one made with another
 * driver, or moved over from another device of its family) is passed over, on the default device:
 * with the fixture family 'breaks' (BREAK=1 does not compile) among the handle's families and an
 * entry of it the table's choice, a call runs the next candidate, right, and its choice says what
 * was passed over and why; the refusal is kept for the handle's life (another shape of the class
 * takes the next candidate without building it again); measuring a portfolio passes over such a
 * candidate and refuses it too; the same family with BREAK=0 is taken;
 * a kernel set on the handle that does not build fails the call (the caller's word). Linked
 * against the static library, whose private symbols it reads, and the harness (the fixture's
 * metadata). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench.h"
#include "rt/blas/blas_int.h"
#include "blas_test.h"
#include "blas_check.h"

#define DIM 48

static gb_blas_t *h;
static cl_command_queue q;

/* An entry of this device for s at m x n x k in layout ("row-NN"): kernel 'breaks' with
 * BREAK=brk. */
static void plant(int brk, const char *layout, size_t m, size_t n, size_t k)
{
    gb_tuned_t t;
    gb_tuned_entry_t e;
    char msg[256];
    memset(&e, 0, sizeof e);
    gb__copy(e.device, sizeof e.device, h->dev.name);
    gb__copy(e.platform, sizeof e.platform, h->dev.platform_name);
    gb__copy(e.driver, sizeof e.driver, h->dev.driver);
    gb__copy(e.source, sizeof e.source, "file");
    gb__copy(e.layout, sizeof e.layout, layout);
    gb__copy(e.kernel, sizeof e.kernel, "breaks");
    e.precision = GB_PREC_S;
    e.m = m;
    e.n = n;
    e.k = k;
    gb_shape_class(m, n, k, e.shape_class, sizeof e.shape_class);
    e.gflops = 1;
    char ps[64];
    snprintf(ps, sizeof ps, "BREAK=%d", brk);
    CHECK(gb_params_parse(&e.params, ps, msg, sizeof msg) == GB_OK);
    gb_tuned_init(&t);
    CHECK(gb_tuned_add(&t, &e) == GB_OK);
    CHECK(gb_blas__add_tuned(h, &t) == GB_OK);
    gb_tuned_free(&t);
}

/* C = A B at m x n x k (row-major s, no transpositions) on the handle, every element checked
 * against the host's double-precision product by the library tests' bound (blas_test.h), and
 * nothing outside C written: whether the call succeeded and was right. */
static int gemm_right(size_t m, size_t n, size_t k)
{
    const gemm_case_t g = {.prec = 's',
                           .layout = GB_BLAS_ROW_MAJOR,
                           .ta = GB_BLAS_NO_TRANS,
                           .tb = GB_BLAS_NO_TRANS,
                           .m = m,
                           .n = n,
                           .k = k,
                           .alpha = 1.0};
    case_dims_t d;
    case_dims(&g, &d);
    double *a = malloc(d.sa * sizeof *a), *b = malloc(d.sb * sizeof *b),
           *c = calloc(d.sc, sizeof *c), *out = malloc(d.sc * sizeof *out);
    for (size_t i = 0; a && i < d.sa; i++)
        a[i] = (double)(float)uniform();
    for (size_t i = 0; b && i < d.sb; i++)
        b[i] = (double)(float)uniform();
    const cl_context ctx = gb_blas_context(h);
    cl_mem ma = a ? upload(ctx, a, d.sa, 4) : NULL, mb = b ? upload(ctx, b, d.sb, 4) : NULL;
    cl_mem mc = c ? upload(ctx, c, d.sc, 4) : NULL;
    size_t bad = 1, touched = 0;
    char first[256] = "";
    if (ma && mb && mc && out && case_call(h, q, &g, NULL, &d, ma, mb, mc, NULL) == GB_OK &&
        download(q, mc, out, d.sc, 4))
        case_verify(&g, &d, a, b, c, out, &bad, &touched, first, sizeof first);
    if (bad && first[0])
        fprintf(stderr, "%zux%zux%zu: %zu wrong; first: %s\n", m, n, k, bad, first);
    cl_mem ms[] = {ma, mb, mc};
    for (int i = 0; i < 3; i++)
        if (ms[i])
            clReleaseMemObject(ms[i]);
    free(a);
    free(b);
    free(c);
    free(out);
    return bad == 0 && touched == 0;
}

static int chosen_tb(gb_blas_trans_t tb, size_t m, size_t n, size_t k, gb_blas_choice_t *c)
{
    const int rc = gb_blas_choose(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, tb, m, n, k, c);
    printf("%zux%zux%zu%s: %s %s (%s)\n", m, n, k, tb == GB_BLAS_TRANS ? " (B^T)" : "", c->kernel,
           c->params, c->why);
    return rc;
}

static int chosen(size_t m, size_t n, size_t k, gb_blas_choice_t *c)
{
    return chosen_tb(GB_BLAS_NO_TRANS, m, n, k, c);
}

int main(void)
{
    /* A choices file of the test's own, empty, so that the shape is measured, and no tuning
     * file: whatever runs it (ctest, CI's sanitized build), never the user's. */
    setenv("GEMMBENCH_CHOICES", GB_FALLBACK_CHOICES, 1);
    setenv("GEMMBENCH_TUNED", GB_FALLBACK_CHOICES ".none", 1);
    remove(GB_FALLBACK_CHOICES);
    int rc = gb_blas_open_device(&h, getenv("GB_TEST_PLATFORM"), getenv("GB_TEST_DEVICE"));
    if (rc != GB_OK) {
        fprintf(stderr, "no device: %s\n", gb_blas_errmsg());
        return 77;
    }
    q = gb_blas_queue(h);
    /* The fixture's family beside the built-in ones: the handle has no plan or entry yet. */
    char msg[1024];
    gb_registry_close(h->reg);
    if (gb_registry_open(&h->reg, GB_FIXTURES_DIR "/breaks", msg, sizeof msg) != GB_OK) {
        fprintf(stderr, "the fixture's family: %s\n", msg);
        return 1;
    }
    CHECK(gb_blas_set_select(h, GB_BLAS_SELECT_OFF) == GB_OK);

    /* An entry that does not build, the table's choice: passed over, said, and the call right. */
    plant(1, "row-NN", DIM, DIM, DIM);
    gb_blas_choice_t c;
    CHECK(chosen(DIM, DIM, DIM, &c) == GB_OK);
    CHECK(strcmp(c.kernel, "breaks") != 0);
    CHECK(strstr(c.why, "breaks ") == c.why && strstr(c.why, "BREAK=1") &&
          strstr(c.why, " did not build here (") && strstr(c.why, "not_declared_anywhere"));
    CHECK(h->nrefused == 1);
    CHECK(gemm_right(DIM, DIM, DIM));
    CHECK(gemm_right(DIM + 3, DIM - 5, DIM + 1)); /* the class's other shape: no build again */
    CHECK(h->nrefused == 1);
    CHECK(chosen(DIM + 3, DIM - 5, DIM + 1, &c) == GB_OK && strcmp(c.kernel, "breaks") != 0);
    CHECK(h->nrefused == 1);

    /* The same family where it builds: taken. */
    plant(0, "row-NN", 200, 200, 200);
    CHECK(chosen(200, 200, 200, &c) == GB_OK && !strcmp(c.kernel, "breaks") &&
          strstr(c.params, "BREAK=0") && !strstr(c.why, "did not build"));
    CHECK(gemm_right(200, 200, 200));

    /* Measuring the portfolio (B transposed, another layout: no refusal of it yet) passes over
     * the candidate that does not build, and keeps it refused. */
    CHECK(gb_blas_set_select(h, GB_BLAS_SELECT_MEASURE | GB_BLAS_SELECT_BUILD) == GB_OK);
    plant(1, "row-NT", 120, 120, 120);
    CHECK(chosen_tb(GB_BLAS_TRANS, 120, 120, 120, &c) == GB_OK && strcmp(c.kernel, "breaks") != 0);
    CHECK(strstr(c.why, "measured") != NULL);
    CHECK(h->nrefused == 2 && !strcmp(h->refused[1].layout, "row-NT"));
    CHECK(gb_blas_set_select(h, GB_BLAS_SELECT_OFF) == GB_OK); /* the table's next: BREAK=0 */
    CHECK(chosen_tb(GB_BLAS_TRANS, 120, 120, 120, &c) == GB_OK && !strstr(c.params, "BREAK=1") &&
          !strstr(c.why, "did not build"));
    CHECK(h->nrefused == 2);

    /* The caller's word: a kernel set on the handle that does not build fails the call. */
    CHECK(gb_blas_set_kernel(h, "breaks", "BREAK=1") == GB_OK);
    CHECK(chosen(40, 40, 40, &c) == GB_EBUILD);
    CHECK(!gemm_right(40, 40, 40));
    CHECK(strstr(gb_blas_errmsg(), "OpenCL build of 'breaks' failed") != NULL);
    CHECK(gb_blas_set_kernel(h, NULL, NULL) == GB_OK);
    CHECK(gemm_right(40, 40, 40));

    gb_blas_close(h);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
