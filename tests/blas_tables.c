/* blas_tables.c: what the library's handle keeps between calls (src/rt/blas/tables.c), seen from
 * inside, on the default device: the kernel pool holds kernels only of programs that a plan
 * uses (the plans dropped by gb_blas_set_kernel, and those a measurement of candidates built and
 * let go, take their kernels with them); the queues served stay at most GB_QUEUES_KEPT; and a
 * call that finds its queue held by another call is refused with GB_EBADQUEUE, nothing
 * enqueued, where the documentation forbids two threads' calls on one queue at once. Linked
 * against the static library, whose private symbols it reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/blas/blas_int.h"
#include "blas_check.h"

static gb_blas_t *h;
static cl_context ctx;
static cl_command_queue q;
static cl_mem a, b, c;

/* How many pooled kernels are of a program that no plan uses and that is not the scale
 * program (which the handle keeps). */
static size_t strays(void)
{
    size_t n = 0;
    for (size_t i = 0; i < h->nslots; i++) {
        const cl_program p = h->slots[i]->program;
        int used = p == h->scale[0] || p == h->scale[1];
        for (size_t u = 0; u < h->nuses; u++)
            used |= h->uses[u].program == p && h->uses[u].plans > 0;
        n += !used;
    }
    return n;
}

static int call(cl_command_queue on, size_t m, size_t n, size_t k, gb_blas_trans_t tb)
{
    const size_t ldb = tb == GB_BLAS_NO_TRANS ? n : k;
    return gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, tb, m, n, k, 1.0f, a, 1, k, b, 0, ldb,
                    0.5f, c, 0, n, on, 0, NULL, NULL);
}

static void test_pool(void)
{
    /* Plans of one kernel, with copies (an offset on A), then another kernel set: the first's
     * plans go, and so do their kernels. */
    CHECK(gb_blas_set_kernel(h, "naive", NULL) == GB_OK);
    CHECK(call(q, 33, 17, 9, GB_BLAS_NO_TRANS) == GB_OK);
    CHECK(call(q, 40, 24, 16, GB_BLAS_TRANS) == GB_OK);
    clFinish(q);
    const size_t with_naive = h->nslots;
    CHECK(with_naive >= 2 && h->nuses >= 1 && strays() == 0);
    CHECK(gb_blas_set_kernel(h, "xgemm", "MWG=32 NWG=32 KWG=16 MDIMC=8 NDIMC=8") == GB_OK);
    CHECK(h->nuses == 0 && strays() == 0); /* every plan dropped, its kernels too */
    CHECK(call(q, 33, 17, 9, GB_BLAS_NO_TRANS) == GB_OK);
    clFinish(q);
    CHECK(h->nuses >= 1 && strays() == 0);
    CHECK(gb_blas_set_kernel(h, NULL, NULL) == GB_OK);
    CHECK(h->nuses >= 1); /* set_kernel(NULL) keeps the plans made under it... */
    CHECK(gb_blas_set_select(h, GB_BLAS_SELECT_MEASURE | GB_BLAS_SELECT_BUILD) == GB_OK);
    CHECK(h->nuses == 0 && strays() == 0); /* ...set_select does not */
    /* A new shape measured: every candidate built into a plan of its own, run and let go; the
     * pool keeps the kernels of the winner's plan only. */
    CHECK(call(q, 48, 40, 32, GB_BLAS_NO_TRANS) == GB_OK);
    clFinish(q);
    char why[1400];
    CHECK(gb_blas_chosen(h, 's', GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 48, 40, 32,
                         why, sizeof why) == GB_OK);
    printf("after a measured call: %zu pooled kernels, %zu programs used; %s\n", h->nslots,
           h->nuses, why);
    CHECK(strays() == 0);
    CHECK(gb_blas_set_select(h, GB_BLAS_SELECT_CACHED) == GB_OK);
}

static void test_queues(void)
{
    cl_int err;
    cl_device_id dev = gb_blas_device(h);
    int ok = 1;
    for (int i = 0; i < 3 * GB_QUEUES_KEPT && ok; i++) {
        cl_command_queue qi = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
        ok = err == CL_SUCCESS && call(qi, 33, 17, 9, GB_BLAS_TRANS) == GB_OK &&
             clFinish(qi) == CL_SUCCESS;
        if (err == CL_SUCCESS)
            clReleaseCommandQueue(qi);
        CHECK(h->nscratch <= GB_QUEUES_KEPT);
    }
    CHECK(ok);
    /* The handle's own queue, left for a while, is served again (a new entry where it went). */
    CHECK(call(q, 33, 17, 9, GB_BLAS_TRANS) == GB_OK);
    clFinish(q);
}

static void test_held_queue(void)
{
    /* As if another thread's call held q: this call is refused and enqueues nothing. */
    gb_scratch_t *s;
    CHECK(gb_blas__queue_take(h, q, &s) == GB_OK);
    cl_event ev = NULL;
    CHECK(gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 8, 8, 8, 1.0f, a, 0, 8,
                   b, 0, 8, 0.0f, c, 0, 8, q, 0, NULL, &ev) == GB_EBADQUEUE);
    CHECK(strstr(gb_blas_errmsg(), "gb_sgemm: argument 19 (queue): another thread's call") != NULL);
    CHECK(ev == NULL);
    CHECK(gb_sgemm_strided_batched(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 4, 4,
                                   4, 1.0f, a, 0, 4, 16, b, 0, 4, 16, 0.0f, c, 0, 4, 16, 2, q, 0,
                                   NULL, NULL) == GB_EBADQUEUE);
    CHECK(strstr(gb_blas_errmsg(), "argument 23 (queue)") != NULL);
    gb_blas__queue_put(h, s);
    CHECK(gb_sgemm(h, GB_BLAS_ROW_MAJOR, GB_BLAS_NO_TRANS, GB_BLAS_NO_TRANS, 8, 8, 8, 1.0f, a, 0, 8,
                   b, 0, 8, 0.0f, c, 0, 8, q, 0, NULL, &ev) == GB_OK);
    if (ev) {
        CHECK(clWaitForEvents(1, &ev) == CL_SUCCESS);
        clReleaseEvent(ev);
    }
}

int main(void)
{
    /* A choices file of the test's own, empty, so that the shape is measured. */
    setenv("GEMMBENCH_CHOICES", GB_TABLES_CHOICES, 1);
    remove(GB_TABLES_CHOICES);
    int rc = gb_blas_open_device(&h, getenv("GB_TEST_PLATFORM"), getenv("GB_TEST_DEVICE"));
    if (rc != GB_OK) {
        fprintf(stderr, "no device: %s\n", gb_blas_errmsg());
        return 77;
    }
    ctx = gb_blas_context(h);
    q = gb_blas_queue(h);
    cl_int err;
    a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 4, NULL, &err);
    b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 4, NULL, &err);
    c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * 64 * 4, NULL, &err);
    float zero = 0;
    clEnqueueFillBuffer(q, a, &zero, sizeof zero, 0, 64 * 64 * 4, 0, NULL, NULL);
    clEnqueueFillBuffer(q, b, &zero, sizeof zero, 0, 64 * 64 * 4, 0, NULL, NULL);
    clEnqueueFillBuffer(q, c, &zero, sizeof zero, 0, 64 * 64 * 4, 0, NULL, NULL);
    test_pool();
    test_queues();
    test_held_queue();
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
    gb_blas_close(h);
    printf("%d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
