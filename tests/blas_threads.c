/* blas_threads.c: one library handle (gemmbench_blas.h) used by 8 threads at once, each on its
 * own in-order queue of the handle's context, 50 calls each. The threads start together and
 * first run the same few problems in the same order, so that several threads make the plan of
 * one problem (and wait for, or build, the same programs) at the same time; then they mix their
 * own problems (both precisions, every layout and transposition, beta of 0 and not, padded
 * leading dimensions, offsets, batched and strided-batched calls) with the shared ones. Every
 * call must return GB_OK and every result is read back and checked against a double-precision
 * product on the host, element by element, with the bound gamma_(K+2) (|alpha| |A| |B| + |beta|
 * |C|) that tests/blas_calls.c uses; elements outside C must keep their value. What
 * gb_blas_chosen says on a thread must be what it said on the main thread before any call.
 *
 * The program cache is the test's own folder (GB_THREADS_CACHE_DIR), emptied at the start, so
 * that each run builds and stores its programs from several threads. Built for ThreadSanitizer
 * (GB_TSAN), this is the library's race check (.ci/run). */
#include <dirent.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemmbench_blas.h"

#define THREADS 8
#define CALLS 50

static gb_blas_t *h;
static cl_context ctx;
static cl_device_id dev;
static pthread_barrier_t start;

typedef struct gemm_case {
    char prec;
    gb_blas_layout_t layout;
    gb_blas_trans_t ta, tb;
    size_t m, n, k, pad, off; /* ld = minimum + pad; every operand at offset off */
    double alpha, beta;       /* exact in single precision */
    size_t count;             /* 1, or the items of a batch */
    int strided;              /* a strided batch, else a batch of offsets */
} gemm_case_t;

static const gb_blas_layout_t R = GB_BLAS_ROW_MAJOR, C = GB_BLAS_COL_MAJOR;
static const gb_blas_trans_t N = GB_BLAS_NO_TRANS, T = GB_BLAS_TRANS;

/* Every thread runs these, the same key each time: alpha 0 and K 0 take the scaling kernel. */
static const gemm_case_t shared[] = {
    {'s', R, N, N, 64, 64, 64, 0, 0, 1.0, 0.0, 1, 0},
    {'d', C, T, N, 33, 17, 9, 2, 3, -1.5, 0.5, 1, 0},
    {'s', C, N, T, 96, 31, 47, 1, 0, 0.75, 0.25, 1, 0},
    {'d', R, T, T, 5, 96, 70, 0, 7, 2.0, 0.0, 1, 0},
    {'s', R, N, N, 17, 9, 13, 3, 1, 0.0, -0.5, 1, 0},
    {'d', C, N, N, 40, 40, 0, 0, 0, 1.0, 2.0, 1, 0},
    {'s', C, T, T, 1, 1, 1, 0, 2, 1.0, 1.0, 1, 0},
    {'d', R, N, T, 23, 11, 96, 1, 5, 0.5, 0.0, 3, 1},
};
#define NSHARED (sizeof shared / sizeof shared[0])
static char shared_chosen[NSHARED][512];

typedef struct worker {
    int id;
    unsigned long long rng;
    cl_command_queue q;
    int calls_ok, chosen_ok, checks, failures;
} worker_t;

#define CHECK(w, cond)                                                                             \
    do {                                                                                           \
        (w)->checks++;                                                                             \
        if (!(cond)) {                                                                             \
            (w)->failures++;                                                                       \
            fprintf(stderr, "thread %d: %s:%d: CHECK failed: %s (%s)\n", (w)->id, __FILE__,        \
                    __LINE__, #cond, gb_blas_errmsg());                                            \
        }                                                                                          \
    } while (0)

static unsigned long long next(worker_t *w)
{
    w->rng ^= w->rng << 13;
    w->rng ^= w->rng >> 7;
    w->rng ^= w->rng << 17;
    return w->rng;
}

static double uniform(worker_t *w)
{
    return (double)(next(w) >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static size_t below(worker_t *w, size_t n)
{
    return (size_t)(next(w) % n);
}

/* A thread's own problem: dimensions 1..96, the rest drawn too; one in seven a batch. */
static gemm_case_t own_case(worker_t *w, int call)
{
    static const double alphas[] = {1.0, -0.5, 1.25}, betas[] = {0.0, 0.5, 1.0, -1.0};
    gemm_case_t g;
    g.prec = below(w, 2) ? 'd' : 's';
    g.layout = below(w, 2) ? R : C;
    g.ta = below(w, 2) ? T : N;
    g.tb = below(w, 2) ? T : N;
    g.m = 1 + below(w, 96);
    g.n = 1 + below(w, 96);
    g.k = 1 + below(w, 96);
    g.pad = below(w, 4);
    g.off = below(w, 3) ? 0 : 1 + below(w, 7);
    g.alpha = alphas[below(w, 3)];
    g.beta = betas[below(w, 4)];
    g.count = call % 7 == 3 ? 2 + below(w, 2) : 1;
    g.strided = call % 2;
    return g;
}

static size_t at(gb_blas_layout_t layout, size_t ld, size_t r, size_t c)
{
    return layout == R ? r * ld + c : c * ld + r;
}

/* Stored rows and columns of op^-1 of an rows x cols operand. */
static void stored(gb_blas_trans_t t, size_t rows, size_t cols, size_t *sr, size_t *sc)
{
    *sr = t == N ? rows : cols;
    *sc = t == N ? cols : rows;
}

static cl_mem upload(const double *v, size_t elems, size_t es)
{
    unsigned char *buf = malloc(elems * es);
    if (!buf)
        return NULL;
    for (size_t i = 0; i < elems; i++) {
        if (es == 4) {
            const float f = (float)v[i];
            memcpy(buf + 4 * i, &f, 4);
        } else {
            memcpy(buf + 8 * i, &v[i], 8);
        }
    }
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, elems * es, buf, &err);
    free(buf);
    return err == CL_SUCCESS ? m : NULL;
}

static int download(cl_command_queue q, cl_mem m, double *v, size_t elems, size_t es)
{
    unsigned char *buf = malloc(elems * es);
    if (!buf ||
        clEnqueueReadBuffer(q, m, CL_TRUE, 0, elems * es, buf, 0, NULL, NULL) != CL_SUCCESS) {
        free(buf);
        return 0;
    }
    for (size_t i = 0; i < elems; i++) {
        if (es == 4) {
            float f;
            memcpy(&f, buf + 4 * i, 4);
            v[i] = f;
        } else {
            memcpy(&v[i], buf + 8 * i, 8);
        }
    }
    free(buf);
    return 1;
}

/* Inputs rounded to the precision, so that the host's product is of what the device read. */
static void fill(worker_t *w, double *v, size_t n, size_t es)
{
    for (size_t i = 0; i < n; i++)
        v[i] = es == 4 ? (double)(float)uniform(w) : uniform(w);
}

/* The library call of g on w's queue, its last command's event into *ev when ev is not NULL. */
static int call(worker_t *w, const gemm_case_t *g, cl_mem ma, size_t lda, size_t sa, cl_mem mb,
                size_t ldb, size_t sb, cl_mem mc, size_t ldc, size_t sc, cl_event *ev)
{
    const int s = g->prec == 's';
    const float fa = (float)g->alpha, fb = (float)g->beta;
    if (g->count == 1)
        return s ? gb_sgemm(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fa, ma, g->off, lda, mb,
                            g->off, ldb, fb, mc, g->off, ldc, w->q, 0, NULL, ev)
                 : gb_dgemm(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha, ma, g->off, lda,
                            mb, g->off, ldb, g->beta, mc, g->off, ldc, w->q, 0, NULL, ev);
    if (g->strided)
        return s ? gb_sgemm_strided_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fa, ma,
                                            g->off, lda, sa, mb, g->off, ldb, sb, fb, mc, g->off,
                                            ldc, sc, g->count, w->q, 0, NULL, ev)
                 : gb_dgemm_strided_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, g->alpha,
                                            ma, g->off, lda, sa, mb, g->off, ldb, sb, g->beta, mc,
                                            g->off, ldc, sc, g->count, w->q, 0, NULL, ev);
    size_t ao[4], bo[4], co[4];
    float fas[4], fbs[4];
    double das[4], dbs[4];
    for (size_t i = 0; i < g->count; i++) {
        ao[i] = g->off + i * sa;
        bo[i] = g->off + i * sb;
        co[i] = g->off + i * sc;
        fas[i] = fa;
        fbs[i] = fb;
        das[i] = g->alpha;
        dbs[i] = g->beta;
    }
    return s ? gb_sgemm_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, fas, ma, ao, lda, mb,
                                bo, ldb, fbs, mc, co, ldc, g->count, w->q, 0, NULL, ev)
             : gb_dgemm_batched(h, g->layout, g->ta, g->tb, g->m, g->n, g->k, das, ma, ao, lda, mb,
                                bo, ldb, dbs, mc, co, ldc, g->count, w->q, 0, NULL, ev);
}

/* Runs g on w's queue and checks every element of C against the host's product, and that
 * nothing outside the items' C was written. with_event: the call hands back its event, which
 * is waited for before the read. */
static void run_case(worker_t *w, const gemm_case_t *g, int with_event)
{
    const size_t es = g->prec == 's' ? 4 : 8;
    size_t ar, ac, br, bc;
    stored(g->ta, g->m, g->k, &ar, &ac);
    stored(g->tb, g->k, g->n, &br, &bc);
    const int row = g->layout == R;
    const size_t lda = (row ? ac : ar) + g->pad + (ac == 0 || ar == 0),
                 ldb = (row ? bc : br) + g->pad + (bc == 0 || br == 0);
    const size_t ldc = (row ? g->n : g->m) + g->pad;
    const size_t sa = g->off + lda * (row ? ar : ac) + 3, sb = g->off + ldb * (row ? br : bc) + 3,
                 sc = g->off + ldc * (row ? g->m : g->n) + 3;
    const size_t na = sa * g->count, nb = sb * g->count, nc = sc * g->count;
    double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c = malloc(nc * sizeof *c);
    double *out = malloc(nc * sizeof *out);
    if (!a || !b || !c || !out) {
        CHECK(w, !"out of memory");
        goto done;
    }
    fill(w, a, na, es);
    fill(w, b, nb, es);
    fill(w, c, nc, es);
    if (g->beta == 0.0) /* beta = 0: C is not read, so NaN there must not come out */
        for (size_t i = 0; i < nc; i++)
            c[i] = NAN;
    cl_mem ma = upload(a, na, es), mb = upload(b, nb, es), mc = upload(c, nc, es);
    CHECK(w, ma && mb && mc);
    cl_event ev = NULL;
    const int rc = call(w, g, ma, lda, sa, mb, ldb, sb, mc, ldc, sc, with_event ? &ev : NULL);
    CHECK(w, rc == GB_OK);
    if (rc == GB_OK)
        w->calls_ok++;
    if (with_event) {
        CHECK(w, ev != NULL && clWaitForEvents(1, &ev) == CL_SUCCESS);
        if (ev)
            clReleaseEvent(ev);
    }
    const int read = mc && download(w->q, mc, out, nc, es);
    CHECK(w, read);
    if (!read)
        goto release;
    const double u = es == 4 ? ldexp(1.0, -24) : ldexp(1.0, -53);
    const double gamma = (double)(g->k + 2) * u / (1.0 - (double)(g->k + 2) * u);
    size_t bad = 0, touched = 0;
    for (size_t it = 0; it < g->count; it++) {
        const double *A = a + it * sa + g->off, *B = b + it * sb + g->off;
        const double *C0 = c + it * sc + g->off, *O = out + it * sc + g->off;
        for (size_t i = 0; i < g->m; i++)
            for (size_t j = 0; j < g->n; j++) {
                double s = 0, s_abs = 0;
                for (size_t p = 0; p < g->k; p++) {
                    const double x =
                        g->ta == N ? A[at(g->layout, lda, i, p)] : A[at(g->layout, lda, p, i)];
                    const double y =
                        g->tb == N ? B[at(g->layout, ldb, p, j)] : B[at(g->layout, ldb, j, p)];
                    s += x * y;
                    s_abs += fabs(x * y);
                }
                const double c0 = g->beta == 0.0 ? 0.0 : C0[at(g->layout, ldc, i, j)];
                const double ref = g->alpha * s + g->beta * c0;
                const double bound = gamma * (fabs(g->alpha) * s_abs + fabs(g->beta) * fabs(c0)) +
                                     (es == 4 ? 1e-30 : 1e-300);
                const double got = O[at(g->layout, ldc, i, j)];
                if (!(fabs(got - ref) <= bound)) {
                    if (!bad)
                        fprintf(stderr,
                                "thread %d: item %zu (%zu,%zu): %.17g, expected %.17g (bound "
                                "%.3g)\n",
                                w->id, it, i, j, got, ref, bound);
                    bad++;
                }
            }
    }
    /* Elements of the buffer outside every item's C keep their value. */
    for (size_t i = 0; i < nc; i++) {
        const size_t e = i % sc;
        int inside = 0;
        if (e >= g->off) {
            const size_t rel = e - g->off, outer = rel / ldc, inner = rel % ldc;
            inside = outer < (row ? g->m : g->n) && inner < (row ? g->n : g->m);
        }
        if (!inside && !(out[i] == c[i] || (isnan(out[i]) && isnan(c[i]))))
            touched++;
    }
    if (bad || touched)
        fprintf(stderr,
                "thread %d: case %c %s %c%c m=%zu n=%zu k=%zu pad=%zu off=%zu alpha=%g beta=%g "
                "x%zu%s: %zu wrong, %zu outside C written\n",
                w->id, g->prec, row ? "row" : "col", g->ta == N ? 'N' : 'T', g->tb == N ? 'N' : 'T',
                g->m, g->n, g->k, g->pad, g->off, g->alpha, g->beta, g->count,
                g->count > 1 && g->strided ? " strided" : "", bad, touched);
    CHECK(w, bad == 0);
    CHECK(w, touched == 0);
release:
    if (ma)
        clReleaseMemObject(ma);
    if (mb)
        clReleaseMemObject(mb);
    if (mc)
        clReleaseMemObject(mc);
done:
    free(a);
    free(b);
    free(c);
    free(out);
}

/* What gb_blas_chosen says of g: GB_OK and text, the main thread's for a shared problem. */
static void check_chosen(worker_t *w, const gemm_case_t *g, const char *expect)
{
    char buf[512];
    const int rc =
        gb_blas_chosen(h, g->prec, g->layout, g->ta, g->tb, g->m, g->n, g->k, buf, sizeof buf);
    CHECK(w, rc == GB_OK && buf[0] != '\0');
    if (expect && strcmp(buf, expect) != 0)
        fprintf(stderr, "thread %d: chosen '%s', on the main thread '%s'\n", w->id, buf, expect);
    CHECK(w, !expect || strcmp(buf, expect) == 0);
    if (rc == GB_OK && (!expect || strcmp(buf, expect) == 0))
        w->chosen_ok++;
}

static void *work(void *arg)
{
    worker_t *w = arg;
    cl_int err;
    w->q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    CHECK(w, err == CL_SUCCESS);
    pthread_barrier_wait(&start);
    if (err != CL_SUCCESS)
        return NULL;
    for (int i = 0; i < CALLS; i++) {
        /* The shared problems first, all threads in the same order; then one in three. */
        const int own = i >= (int)NSHARED && i % 3 != 0;
        const size_t s = i < (int)NSHARED ? (size_t)i : ((size_t)i / 3 + (size_t)w->id) % NSHARED;
        const gemm_case_t g = own ? own_case(w, i) : shared[s];
        check_chosen(w, &g, own ? NULL : shared_chosen[s]);
        run_case(w, &g, i % 4 == 1);
    }
    clReleaseCommandQueue(w->q);
    return NULL;
}

/* Empties dir of the program cache's files (the test's own folder, nothing else's). */
static void clear_cache(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const size_t n = strlen(e->d_name);
        if (n > 4 && (!strcmp(e->d_name + n - 4, ".gbc") || !strcmp(e->d_name + n - 4, ".tmp"))) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
    }
    closedir(d);
}

int main(void)
{
    setenv("GEMMBENCH_CACHE_DIR", GB_THREADS_CACHE_DIR, 1);
    clear_cache(GB_THREADS_CACHE_DIR);
    int rc = gb_blas_open_device(&h, getenv("GB_TEST_PLATFORM"), getenv("GB_TEST_DEVICE"));
    if (rc != GB_OK) {
        fprintf(stderr, "no device: %s\n", gb_blas_errmsg());
        return 77;
    }
    ctx = gb_blas_context(h);
    dev = gb_blas_device(h);
    int failures = 0;
    for (size_t s = 0; s < NSHARED; s++) {
        const gemm_case_t *g = &shared[s];
        if (gb_blas_chosen(h, g->prec, g->layout, g->ta, g->tb, g->m, g->n, g->k, shared_chosen[s],
                           sizeof shared_chosen[s]) != GB_OK) {
            fprintf(stderr, "gb_blas_chosen of shared problem %zu: %s\n", s, gb_blas_errmsg());
            failures++;
        }
    }
    worker_t ws[THREADS];
    pthread_t tid[THREADS];
    pthread_barrier_init(&start, NULL, THREADS);
    for (int t = 0; t < THREADS; t++) {
        ws[t] = (worker_t){.id = t, .rng = 88172645463325252ull + 7919ull * (unsigned)t};
        if (pthread_create(&tid[t], NULL, work, &ws[t]) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            return 1; /* the others wait at the barrier for ever: give up at once */
        }
    }
    int calls_ok = 0, chosen_ok = 0, checks = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        calls_ok += ws[t].calls_ok;
        chosen_ok += ws[t].chosen_ok;
        checks += ws[t].checks;
        failures += ws[t].failures;
    }
    pthread_barrier_destroy(&start);
    gb_blas_close(h);
    printf("%d threads x %d calls: %d returned GB_OK, %d gb_blas_chosen agreed; %d checks, %d "
           "failed\n",
           THREADS, CALLS, calls_ok, chosen_ok, checks, failures);
    return failures || calls_ok != THREADS * CALLS || chosen_ok != THREADS * CALLS ? 1 : 0;
}
