/* gemm.c: the library's GEMM calls (gemmbench_blas.h) in every precision: arguments checked as
 * BLAS checks them (naming the argument, as xerbla does) before anything is enqueued, BLAS's
 * quick returns, and the plan's launch (src/rt/plan/launch.h) on the caller's queue, chained
 * after the caller's wait list, with the last command's event handed back. Nothing here waits.
 * One entry per form (single, batched, strided batched) takes the precision and the scalars
 * (blas_int.h); the public functions (calls.c) only convert their scalars. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "blas_int.h"

/* Where each argument sits in the entry point's list, for messages (xerbla's numbering). */
typedef struct argno {
    int layout, ta, tb, a, a_off, lda, b, b_off, ldb, c, c_off, ldc, queue, wait;
} argno_t;
static const argno_t plain = {2, 3, 4, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 21};
static const argno_t batched = {2, 3, 4, 9, 10, 11, 12, 13, 14, 16, 17, 18, 20, 22};
static const argno_t strided = {2, 3, 4, 9, 10, 11, 13, 14, 15, 18, 19, 20, 23, 25};

typedef gb_blas_scalar_t scalar_t;

static int is_zero(scalar_t x)
{
    return x.re == 0.0 && x.im == 0.0;
}

static scalar_t real_scalar(double x)
{
    return (scalar_t){x, 0.0};
}

gb_blas_scalar_t gb_blas__scalar_at(gb_precision_t prec, const void *v, size_t i)
{
    switch (prec) {
    case GB_PREC_D: return real_scalar(((const double *)v)[i]);
    case GB_PREC_C: {
        const cl_float2 x = ((const cl_float2 *)v)[i];
        return (scalar_t){(double)x.s[0], (double)x.s[1]};
    }
    case GB_PREC_Z: {
        const cl_double2 x = ((const cl_double2 *)v)[i];
        return (scalar_t){x.s[0], x.s[1]};
    }
    default: return real_scalar((double)((const float *)v)[i]);
    }
}

/* One GEMM as the caller gave it; conj_a (conj_b) with ta (tb) GB_TRANS: the C transposition
 * of a complex precision. */
typedef struct call {
    gb_precision_t prec;
    gb_layout_t layout;
    gb_trans_t ta, tb;
    int conj_a, conj_b;
    size_t m, n, k;
    scalar_t alpha, beta;
    cl_mem a, b, c;
    size_t a_off, b_off, c_off, lda, ldb, ldc;
} call_t;

/* Elements from a stored matrix's first to its last (0 when it has none). */
static size_t extent(gb_layout_t layout, size_t rows, size_t cols, size_t ld)
{
    if (!rows || !cols)
        return 0;
    return layout == GB_ROW_MAJOR ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
}

/* The shape arguments: layout, transpositions (GB_BLAS_CONJ_TRANS conjugates for c and z, and
 * is GB_BLAS_TRANS for the real precisions), leading dimensions, the queue and wait list. */
static int check_shape(const char *fn, const argno_t *no, gb_blas_layout_t layout,
                       gb_blas_trans_t ta, gb_blas_trans_t tb, cl_command_queue queue,
                       cl_uint num_wait, const cl_event *wait, call_t *c)
{
    if (layout != GB_BLAS_ROW_MAJOR && layout != GB_BLAS_COL_MAJOR)
        return gb_blas__fail(GB_EBADLAYOUT,
                             "%s: argument %d (layout) is %d; use GB_BLAS_ROW_MAJOR or "
                             "GB_BLAS_COL_MAJOR",
                             fn, no->layout, (int)layout);
    const gb_blas_trans_t t[2] = {ta, tb};
    for (int i = 0; i < 2; i++)
        if (t[i] < GB_BLAS_NO_TRANS || t[i] > GB_BLAS_CONJ_TRANS)
            return gb_blas__fail(GB_EBADTRANS,
                                 "%s: argument %d (trans_%c) is %d; use GB_BLAS_NO_TRANS, "
                                 "GB_BLAS_TRANS or GB_BLAS_CONJ_TRANS",
                                 fn, i ? no->tb : no->ta, i ? 'b' : 'a', (int)t[i]);
    c->layout = layout == GB_BLAS_ROW_MAJOR ? GB_ROW_MAJOR : GB_COL_MAJOR;
    c->ta = ta == GB_BLAS_NO_TRANS ? GB_NOTRANS : GB_TRANS;
    c->tb = tb == GB_BLAS_NO_TRANS ? GB_NOTRANS : GB_TRANS;
    const int cplx = gb_precision_is_complex(c->prec);
    c->conj_a = cplx && ta == GB_BLAS_CONJ_TRANS;
    c->conj_b = cplx && tb == GB_BLAS_CONJ_TRANS;
    const int row = c->layout == GB_ROW_MAJOR;
    /* Stored rows and columns of A, B, C; the leading dimension spans a row (row-major) or a
     * column. */
    const size_t ar = c->ta ? c->k : c->m, ac = c->ta ? c->m : c->k;
    const size_t br = c->tb ? c->n : c->k, bc = c->tb ? c->k : c->n;
    const struct {
        size_t ld, need;
        int code, no;
        const char *name, *dim;
    } lds[3] = {{c->lda, row ? ac : ar, GB_EBADLDA, no->lda, "lda", row ? "columns" : "rows"},
                {c->ldb, row ? bc : br, GB_EBADLDB, no->ldb, "ldb", row ? "columns" : "rows"},
                {c->ldc, row ? c->n : c->m, GB_EBADLDC, no->ldc, "ldc", row ? "columns" : "rows"}};
    for (int i = 0; i < 3; i++) {
        const size_t need = lds[i].need > 1 ? lds[i].need : 1;
        if (lds[i].ld < need)
            return gb_blas__fail(lds[i].code,
                                 "%s: argument %d (%s) is %zu, less than max(1, the stored "
                                 "matrix's %s) = %zu",
                                 fn, lds[i].no, lds[i].name, lds[i].ld, lds[i].dim, need);
    }
    if (!queue)
        return gb_blas__fail(GB_EBADQUEUE, "%s: argument %d (queue) is NULL", fn, no->queue);
    if ((num_wait > 0) != (wait != NULL))
        return gb_blas__fail(GB_EBADARG,
                             "%s: argument %d (wait) is %s but num_wait is %u; pass both or "
                             "neither",
                             fn, no->wait, wait ? "given" : "NULL", num_wait);
    return GB_OK;
}

/* The most elements a kernel indexes from a buffer's start (32-bit int indexing). */
#define MAX_ELEMS ((size_t)INT_MAX)

/* What the call knows of one of its buffers. */
typedef struct bufarg {
    cl_mem m;
    size_t off, elems, outer, ld; /* elems: first to last element; outer: stored rows (row-major) */
    int used, write, read, no, no_off;
    const char *name;
    cl_mem root; /* the buffer a sub-buffer is of, else m */
    size_t at;   /* the byte where m starts in root */
} bufarg_t;

/* One buffer the call uses, checked against the handle: a buffer (not an image or a pipe) of the
 * handle's context, that lets the kernels read it where the call reads it and write it where
 * the call writes it, large enough for offset plus matrix, and within the kernels' indexing. */
static int check_buffer(const char *fn, cl_context ctx, size_t es, bufarg_t *b, const char *at)
{
    if (!b->m)
        return gb_blas__fail(GB_EBADBUFFER, "%s: argument %d (%s) is NULL", fn, b->no, b->name);
    /* As gb_problem_check counts a matrix: its leading dimension times its stored rows (row-major)
     * or columns, from the offset on. */
    size_t span;
    if (!gb__mul_ok(b->ld, b->outer, &span) || !gb__add_ok(span, b->off, &span) || span > MAX_ELEMS)
        return gb_blas__fail(GB_EOVERFLOW,
                             "%s: argument %d (%s) is indexed past 2^31-1 elements: offset "
                             "(argument %d) %zu plus leading dimension %zu times %zu; the kernels "
                             "index with 32-bit integers%s",
                             fn, b->no, b->name, b->no_off, b->off, b->ld, b->outer, at);
    cl_mem_object_type type = 0;
    cl_context of = NULL;
    cl_mem_flags flags = 0;
    size_t size = 0;
    cl_int err = clGetMemObjectInfo(b->m, CL_MEM_TYPE, sizeof type, &type, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(b->m, CL_MEM_CONTEXT, sizeof of, &of, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(b->m, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    if (err == CL_SUCCESS)
        err = clGetMemObjectInfo(b->m, CL_MEM_SIZE, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_EBADBUFFER, "%s: argument %d (%s) is not a memory object (%s)", fn,
                             b->no, b->name, gb__cl_errname(err));
    if (type != CL_MEM_OBJECT_BUFFER)
        return gb_blas__fail(GB_EBADBUFFER, "%s: argument %d (%s) is %s, not a buffer", fn, b->no,
                             b->name, type == CL_MEM_OBJECT_PIPE ? "a pipe" : "an image");
    if (of != ctx)
        return gb_blas__fail(GB_EBADBUFFER,
                             "%s: argument %d (%s) is a buffer of another context than the "
                             "handle's; make it on the context the handle was opened on",
                             fn, b->no, b->name);
    if (b->read && (flags & CL_MEM_WRITE_ONLY))
        return gb_blas__fail(GB_EBADBUFFER,
                             "%s: argument %d (%s) was made CL_MEM_WRITE_ONLY, but the call reads "
                             "it%s",
                             fn, b->no, b->name, b->write ? " (beta is not 0)" : "");
    if (b->write && (flags & CL_MEM_READ_ONLY))
        return gb_blas__fail(GB_EBADBUFFER,
                             "%s: argument %d (%s) was made CL_MEM_READ_ONLY, but the call writes "
                             "it",
                             fn, b->no, b->name);
    const size_t need = b->off + b->elems;
    if (need < b->off || need > size / es)
        return gb_blas__fail(GB_EBADBUFFER,
                             "%s: argument %d (%s) holds %zu elements but offset (argument "
                             "%d) %zu and the matrix need %zu%s",
                             fn, b->no, b->name, size / es, b->no_off, b->off, need, at);
    /* Where it lies in memory: a sub-buffer is a range of its buffer. */
    cl_mem parent = NULL;
    b->root = b->m;
    b->at = 0;
    if (clGetMemObjectInfo(b->m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
            CL_SUCCESS &&
        parent && clGetMemObjectInfo(b->m, CL_MEM_OFFSET, sizeof b->at, &b->at, NULL) == CL_SUCCESS)
        b->root = parent;
    return GB_OK;
}

/* Whether the elements a and c span share a byte of one buffer. */
static int overlap(const bufarg_t *a, const bufarg_t *c, size_t es)
{
    if (a->root != c->root)
        return 0;
    const size_t a0 = a->at + a->off * es, a1 = a0 + a->elems * es;
    const size_t c0 = c->at + c->off * es, c1 = c0 + c->elems * es;
    return a0 < c1 && c0 < a1;
}

/* The buffers of one item (item >= 0 names the batch item): each that the call uses checked
 * (check_buffer), and C apart from the A and B it reads: the kernels read A and B while they
 * write C, and the route's copies of A and B may run before. */
static int check_buffers(const char *fn, const argno_t *no, cl_context ctx, const call_t *c,
                         long item)
{
    const int reads_ab = c->k > 0 && !is_zero(c->alpha), row = c->layout == GB_ROW_MAJOR;
    if (!c->m || !c->n)
        return GB_OK;
    const size_t es = gb_precision_bytes(c->prec);
    /* Stored rows and columns of A, B, C. */
    const size_t ar = c->ta ? c->k : c->m, ac = c->ta ? c->m : c->k;
    const size_t br = c->tb ? c->n : c->k, bc = c->tb ? c->k : c->n;
    bufarg_t bufs[3] = {{c->a, c->a_off, extent(c->layout, ar, ac, c->lda), row ? ar : ac, c->lda,
                         reads_ab, 0, 1, no->a, no->a_off, "a", NULL, 0},
                        {c->b, c->b_off, extent(c->layout, br, bc, c->ldb), row ? br : bc, c->ldb,
                         reads_ab, 0, 1, no->b, no->b_off, "b", NULL, 0},
                        {c->c, c->c_off, extent(c->layout, c->m, c->n, c->ldc), row ? c->m : c->n,
                         c->ldc, 1, 1, !is_zero(c->beta), no->c, no->c_off, "c", NULL, 0}};
    char at[48] = "";
    if (item >= 0)
        snprintf(at, sizeof at, " (batch item %ld)", item);
    for (int i = 0; i < 3; i++) {
        const int rc = bufs[i].used ? check_buffer(fn, ctx, es, &bufs[i], at) : GB_OK;
        if (rc != GB_OK)
            return rc;
    }
    for (int i = 0; reads_ab && i < 2; i++)
        if (overlap(&bufs[i], &bufs[2], es))
            return gb_blas__fail(GB_EBADBUFFER,
                                 "%s: argument %d (c) overlaps argument %d (%s): C must not share "
                                 "memory with the A or B the call reads%s",
                                 fn, no->c, bufs[i].no, bufs[i].name, at);
    return GB_OK;
}

/* C = beta * C with scale.cl, in s or d (the product vanishes: K = 0 or alpha = 0); C's sizes
 * are within 32-bit indexing (check_buffers). */
static int enqueue_scale(gb_blas_t *h, const call_t *c, cl_command_queue q, cl_uint num_wait,
                         const cl_event *wait, cl_event *event)
{
    cl_program prog;
    int rc = gb_blas__scale_program(h, c->prec, &prog);
    gb_kslot_t *slot;
    if (rc != GB_OK || (rc = gb_blas__kernel_get(h, prog, "gb_scale", &slot)) != GB_OK)
        return rc;
    const cl_kernel k = slot->kernel;
    const int row = c->layout == GB_ROW_MAJOR;
    const cl_int outer = (cl_int)(row ? c->m : c->n), inner = (cl_int)(row ? c->n : c->m);
    const cl_int off = (cl_int)c->c_off, ld = (cl_int)c->ldc;
    const double db = c->beta.re;
    const float fb = (float)db;
    cl_int err = clSetKernelArg(k, 0, sizeof outer, &outer);
    err |= clSetKernelArg(k, 1, sizeof inner, &inner);
    err |= clSetKernelArg(k, 2, sizeof c->c, &c->c);
    err |= clSetKernelArg(k, 3, sizeof off, &off);
    err |= clSetKernelArg(k, 4, sizeof ld, &ld);
    err |= c->prec == GB_PREC_D ? clSetKernelArg(k, 5, sizeof db, &db)
                                : clSetKernelArg(k, 5, sizeof fb, &fb);
    const size_t local[2] = {64, 4};
    const size_t global[2] = {((size_t)inner + 63) / 64 * 64, ((size_t)outer + 3) / 4 * 4};
    if (err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(
            q, k, 2, NULL, global, h->dev.max_wg_size >= 256 ? local : NULL, num_wait, wait, event);
    gb_blas__kernel_put(h, slot);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_EOPENCL, "enqueueing the scaling of C failed (%s)",
                             gb__cl_errname(err));
    return GB_OK;
}

/* The problem of call c as its plan is keyed (alpha aside). */
static void call_problem(const call_t *c, gb_problem_t *p)
{
    gb_problem_init(p, c->prec, c->m, c->n, c->k);
    p->layout = c->layout;
    p->trans_a = c->ta;
    p->trans_b = c->tb;
    p->conj_a = c->conj_a;
    p->conj_b = c->conj_b;
    p->beta = c->beta.re;
    p->beta_im = c->beta.im;
    p->lda = c->lda;
    p->ldb = c->ldb;
    p->ldc = c->ldc;
    p->off_a = c->a_off;
    p->off_b = c->b_off;
    p->off_c = c->c_off;
}

/* The plan of call c (checked) launched on the queue of s (the caller holds it). */
static int launch(gb_blas_t *h, const call_t *c, gb_scratch_t *s, cl_uint num_wait,
                  const cl_event *wait, cl_event *event)
{
    gb_problem_t p;
    call_problem(c, &p);
    gb_blas_plan_key_t key;
    gb_blas__key(&p, &key);
    gb_blas_plan_t *pl;
    int rc = gb_blas__plan_get(h, &key, &pl);
    if (rc != GB_OK)
        return rc;
    rc = gb_blas__run(h, pl, c->alpha, c->beta, (const cl_mem[3]){c->a, c->b, c->c}, s, num_wait,
                      wait, event);
    gb_blas__plan_put(h, pl);
    return rc;
}

/* C = beta * C where scale.cl has no version (h, b, c, z): through the one launch, as the GEMM
 * of K = 1 whose A and B are one buffer of max(M, N) zeros (the handle's), so that the caller's
 * A and B are not read (BLAS) and beta applies as the kernels apply it (rounded once to 16 bits;
 * complex beta). */
static int scale_by_gemm(gb_blas_t *h, const call_t *c, gb_scratch_t *s, cl_uint num_wait,
                         const cl_event *wait, cl_event *event)
{
    const size_t most = c->m > c->n ? c->m : c->n;
    cl_mem zeros;
    int rc = gb_blas__zeros(h, most * gb_precision_bytes(c->prec), &zeros);
    if (rc != GB_OK)
        return rc;
    const int row = c->layout == GB_ROW_MAJOR;
    call_t z = *c;
    z.ta = z.tb = GB_NOTRANS;
    z.conj_a = z.conj_b = 0;
    z.k = 1;
    z.alpha = real_scalar(0.0);
    z.a = z.b = zeros;
    z.a_off = z.b_off = 0;
    z.lda = row ? 1 : c->m; /* A is M x 1, B 1 x N, both dense */
    z.ldb = row ? c->n : 1;
    rc = launch(h, &z, s, num_wait, wait, event);
    clReleaseMemObject(zeros);
    return rc;
}

/* One GEMM whose arguments are checked, on the queue of s (the caller holds it): BLAS's quick
 * returns, else its plan launched. */
static int enqueue_gemm(gb_blas_t *h, const call_t *c, gb_scratch_t *s, cl_uint num_wait,
                        const cl_event *wait, cl_event *event)
{
    const cl_command_queue q = s->queue;
    const int vanishes = !c->k || is_zero(c->alpha);
    if (!c->m || !c->n || (vanishes && c->beta.re == 1.0 && c->beta.im == 0.0))
        return event ? (clEnqueueMarkerWithWaitList(q, num_wait, wait, event) == CL_SUCCESS
                            ? GB_OK
                            : gb_blas__fail(GB_EOPENCL, "enqueueing a marker failed"))
                     : GB_OK;
    if (vanishes)
        return c->prec == GB_PREC_S || c->prec == GB_PREC_D
                   ? enqueue_scale(h, c, q, num_wait, wait, event)
                   : scale_by_gemm(h, c, s, num_wait, wait, event);
    return launch(h, c, s, num_wait, wait, event);
}

/* The queue's entry for the whole call (gb_blas__queue_take), its refusal naming the
 * argument. */
static int take_queue(const char *fn, const argno_t *no, gb_blas_t *h, cl_command_queue queue,
                      gb_scratch_t **s)
{
    const int rc = gb_blas__queue_take(h, queue, s);
    if (rc == GB_OK)
        return rc;
    char why[1024];
    gb__copy(why, sizeof why, gb_blas_errmsg());
    return gb_blas__fail(rc, "%s: argument %d (queue): %s", fn, no->queue, why);
}

int gb_blas__gemm(const char *fn, gb_blas_t *h, gb_precision_t prec, gb_blas_layout_t layout,
                  gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m, size_t n, size_t k,
                  scalar_t alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b, size_t b_off,
                  size_t ldb, scalar_t beta, cl_mem c, size_t c_off, size_t ldc,
                  cl_command_queue queue, cl_uint num_wait, const cl_event *wait, cl_event *event)
{
    if (!h)
        return gb_blas__fail(GB_EBADARG, "%s: argument 1 (handle) is NULL", fn);
    call_t cl = {.prec = prec,
                 .m = m,
                 .n = n,
                 .k = k,
                 .alpha = alpha,
                 .beta = beta,
                 .a = a,
                 .b = b,
                 .c = c,
                 .a_off = a_off,
                 .b_off = b_off,
                 .c_off = c_off,
                 .lda = lda,
                 .ldb = ldb,
                 .ldc = ldc};
    gb_scratch_t *s;
    int rc = check_shape(fn, &plain, layout, ta, tb, queue, num_wait, wait, &cl);
    if (rc == GB_OK)
        rc = check_buffers(fn, &plain, h->cl, &cl, -1);
    if (rc != GB_OK || (rc = take_queue(fn, &plain, h, queue, &s)) != GB_OK)
        return rc;
    rc = enqueue_gemm(h, &cl, s, num_wait, wait, event);
    gb_blas__queue_put(h, s);
    return rc;
}

/* A batch: every item checked before any is enqueued; the items then go one GEMM each, the
 * first after the wait list, the last giving the event. item(i) fills item i's scalars and
 * offsets into the call. */
typedef void (*item_fn)(const void *args, size_t i, call_t *c);

static int batch(const char *fn, const argno_t *no, gb_blas_t *h, call_t *base,
                 gb_blas_layout_t layout, gb_blas_trans_t ta, gb_blas_trans_t tb, size_t count,
                 item_fn item, const void *args, cl_command_queue queue, cl_uint num_wait,
                 const cl_event *wait, cl_event *event)
{
    if (!h)
        return gb_blas__fail(GB_EBADARG, "%s: argument 1 (handle) is NULL", fn);
    int rc = check_shape(fn, no, layout, ta, tb, queue, num_wait, wait, base);
    for (size_t i = 0; rc == GB_OK && i < count; i++) {
        call_t c = *base;
        item(args, i, &c);
        rc = check_buffers(fn, no, h->cl, &c, (long)i);
    }
    gb_scratch_t *s;
    if (rc != GB_OK || (rc = take_queue(fn, no, h, queue, &s)) != GB_OK)
        return rc;
    if (!count && event && clEnqueueMarkerWithWaitList(queue, num_wait, wait, event) != CL_SUCCESS)
        rc = gb_blas__fail(GB_EOPENCL, "enqueueing a marker failed");
    for (size_t i = 0; rc == GB_OK && i < count; i++) {
        call_t c = *base;
        item(args, i, &c);
        rc = enqueue_gemm(h, &c, s, i == 0 ? num_wait : 0, i == 0 ? wait : NULL,
                          i + 1 == count ? event : NULL);
    }
    gb_blas__queue_put(h, s);
    return rc;
}

/* A batch's per-item arguments: arrays of the precision's scalars (gb_blas__scalar_at) and
 * offsets. */
typedef struct batched_args {
    const void *alphas, *betas;
    const size_t *a_offs, *b_offs, *c_offs;
} batched_args_t;

static void batched_item(const void *args, size_t i, call_t *c)
{
    const batched_args_t *ba = args;
    c->alpha = gb_blas__scalar_at(c->prec, ba->alphas, i);
    c->beta = gb_blas__scalar_at(c->prec, ba->betas, i);
    c->a_off = ba->a_offs[i];
    c->b_off = ba->b_offs[i];
    c->c_off = ba->c_offs[i];
}

int gb_blas__gemm_batched(const char *fn, gb_blas_t *h, gb_precision_t prec,
                          gb_blas_layout_t layout, gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m,
                          size_t n, size_t k, const void *alphas, cl_mem a, const size_t *a_offs,
                          size_t lda, cl_mem b, const size_t *b_offs, size_t ldb, const void *betas,
                          cl_mem c, const size_t *c_offs, size_t ldc, size_t count,
                          cl_command_queue queue, cl_uint num_wait, const cl_event *wait,
                          cl_event *event)
{
    const batched_args_t ba = {alphas, betas, a_offs, b_offs, c_offs};
    const struct {
        const void *p;
        int no;
        const char *name;
    } arrays[] = {{alphas, 8, "alphas"},
                  {a_offs, 10, "a_offs"},
                  {b_offs, 13, "b_offs"},
                  {betas, 15, "betas"},
                  {c_offs, 17, "c_offs"}};
    for (size_t i = 0; count && i < sizeof arrays / sizeof arrays[0]; i++)
        if (!arrays[i].p)
            return gb_blas__fail(GB_EBADARG, "%s: argument %d (%s) is NULL", fn, arrays[i].no,
                                 arrays[i].name);
    call_t base = {.prec = prec, .m = m, .n = n, .k = k, .a = a, .b = b, .c = c};
    base.lda = lda;
    base.ldb = ldb;
    base.ldc = ldc;
    return batch(fn, &batched, h, &base, layout, ta, tb, count, batched_item, &ba, queue, num_wait,
                 wait, event);
}

typedef struct strided_args {
    size_t a_off, b_off, c_off, a_stride, b_stride, c_stride;
} strided_args_t;

static void strided_item(const void *args, size_t i, call_t *c)
{
    const strided_args_t *sa = args;
    c->a_off = sa->a_off + i * sa->a_stride;
    c->b_off = sa->b_off + i * sa->b_stride;
    c->c_off = sa->c_off + i * sa->c_stride;
}

int gb_blas__gemm_strided(const char *fn, gb_blas_t *h, gb_precision_t prec,
                          gb_blas_layout_t layout, gb_blas_trans_t ta, gb_blas_trans_t tb, size_t m,
                          size_t n, size_t k, scalar_t alpha, cl_mem a, size_t a_off, size_t lda,
                          size_t a_stride, cl_mem b, size_t b_off, size_t ldb, size_t b_stride,
                          scalar_t beta, cl_mem c, size_t c_off, size_t ldc, size_t c_stride,
                          size_t count, cl_command_queue queue, cl_uint num_wait,
                          const cl_event *wait, cl_event *event)
{
    const strided_args_t sa = {a_off, b_off, c_off, a_stride, b_stride, c_stride};
    /* The last item's offsets must not wrap around. */
    const size_t last = count ? count - 1 : 0;
    const struct {
        size_t off, stride;
        int no;
        const char *name;
    } strides[3] = {{a_off, a_stride, 12, "a_stride"},
                    {b_off, b_stride, 16, "b_stride"},
                    {c_off, c_stride, 21, "c_stride"}};
    for (int i = 0; i < 3; i++)
        if (strides[i].stride && last > (SIZE_MAX - strides[i].off) / strides[i].stride)
            return gb_blas__fail(GB_EOVERFLOW,
                                 "%s: argument %d (%s) is %zu: the last of %zu items' offset "
                                 "overflows",
                                 fn, strides[i].no, strides[i].name, strides[i].stride, count);
    call_t base = {.prec = prec, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta};
    base.a = a;
    base.b = b;
    base.c = c;
    base.lda = lda;
    base.ldb = ldb;
    base.ldc = ldc;
    return batch(fn, &strided, h, &base, layout, ta, tb, count, strided_item, &sa, queue, num_wait,
                 wait, event);
}

/* The problem a call of this shape would make (dense, no offsets), checked. */
static int chosen_problem(const char *fn, gb_blas_t *h, char precision, gb_blas_layout_t layout,
                          gb_blas_trans_t trans_a, gb_blas_trans_t trans_b, size_t m, size_t n,
                          size_t k, gb_problem_t *p)
{
    if (!h)
        return gb_blas__fail(GB_EBADARG, "%s: argument 1 (handle) is NULL", fn);
    int prec = 0;
    while (prec < GB_PREC_COUNT && gb_precision_name((gb_precision_t)prec)[0] != precision)
        prec++;
    if (prec == GB_PREC_COUNT || !precision)
        return gb_blas__fail(GB_EBADPRECISION,
                             "%s: argument 2 (precision) is '%c'; use 's', 'd', 'h', 'b', 'c' or "
                             "'z'",
                             fn, precision ? precision : '0');
    /* Any leading dimensions will do: the shape arguments are what is checked here. */
    call_t c = {.prec = (gb_precision_t)prec,
                .m = m,
                .n = n,
                .k = k,
                .alpha = real_scalar(1.0),
                .lda = SIZE_MAX,
                .ldb = SIZE_MAX,
                .ldc = SIZE_MAX};
    static const argno_t no = {3, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    int rc = check_shape(fn, &no, layout, trans_a, trans_b, (cl_command_queue)h, 0, NULL, &c);
    if (rc != GB_OK)
        return rc;
    gb_problem_init(p, c.prec, m ? m : 1, n ? n : 1, k ? k : 1);
    p->layout = c.layout;
    p->trans_a = c.ta;
    p->trans_b = c.tb;
    p->conj_a = c.conj_a;
    p->conj_b = c.conj_b;
    char msg[512];
    if ((rc = gb_problem_check(p, msg, sizeof msg)) != GB_OK)
        return gb_blas__fail(rc, "%s: arguments 6 to 8 (m, n, k) are %zu x %zu x %zu: %s", fn, m, n,
                             k, msg);
    return GB_OK;
}

int gb_blas_choose(gb_blas_t *h, char precision, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                   gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, gb_blas_choice_t *out)
{
    if (!out)
        return gb_blas__fail(GB_EBADARG, "gb_blas_choose: argument 9 (out) is NULL");
    memset(out, 0, sizeof *out);
    gb_problem_t p;
    gb_config_t cfg;
    const int rc =
        chosen_problem("gb_blas_choose", h, precision, layout, trans_a, trans_b, m, n, k, &p);
    return rc == GB_OK ? gb_blas__choose(h, &p, &cfg, out, NULL) : rc;
}

int gb_blas_chosen(gb_blas_t *h, char precision, gb_blas_layout_t layout, gb_blas_trans_t trans_a,
                   gb_blas_trans_t trans_b, size_t m, size_t n, size_t k, char *buf, size_t len)
{
    if (!h || !buf || !len)
        return gb_blas__fail(GB_EBADARG, "gb_blas_chosen: argument %d (%s) is NULL or empty",
                             !h ? 1 : 9, !h ? "handle" : "buf");
    buf[0] = '\0';
    gb_problem_t p;
    gb_config_t cfg;
    gb_blas_choice_t c;
    int rc = chosen_problem("gb_blas_chosen", h, precision, layout, trans_a, trans_b, m, n, k, &p);
    if (rc == GB_OK && (rc = gb_blas__choose(h, &p, &cfg, &c, NULL)) == GB_OK) {
        const size_t need = gb_blas__choice_text(&c, buf, len);
        if (need >= len)
            rc = gb_blas__fail(GB_EBADARG,
                               "gb_blas_chosen: argument 10 (len) is %zu; the text needs %zu bytes "
                               "(buf holds what fits)",
                               len, need + 1);
    }
    return rc;
}
