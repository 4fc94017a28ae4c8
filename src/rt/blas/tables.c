/* tables.c: what the handle keeps between calls (blas_int.h): plans per problem, a pool of
 * kernel objects of the programs the plans use, the queues served (at most GB_QUEUES_KEPT idle
 * ones) with their scratch buffers, each held by one call at a time, and the scale program. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "rt/core/core.h"
#include "blas_int.h"

static size_t bucket(const gb_blas_plan_key_t *k)
{
    return (size_t)(gb__fnv1a64(k, sizeof *k, GB_FNV_BASIS) % GB_PLAN_BUCKETS);
}

static void slot_free(gb_kslot_t *s)
{
    clReleaseKernel(s->kernel);
    clReleaseProgram(s->program);
    free(s);
}

/* Counts one more plan using program; under the lock. GB_OK or GB_ENOMEM. */
static int use_program(gb_blas_t *h, cl_program program)
{
    for (size_t i = 0; i < h->nuses; i++)
        if (h->uses[i].program == program) {
            h->uses[i].plans++;
            return GB_OK;
        }
    const int rc = gb__grow(&h->uses, &h->capuses, h->nuses + 1, sizeof *h->uses);
    if (rc == GB_OK)
        h->uses[h->nuses++] = (gb_prog_use_t){program, 1};
    return rc;
}

/* Counts one plan fewer using program; under the lock. Whether none is left. */
static int uncount_program(gb_blas_t *h, cl_program program)
{
    size_t at = 0;
    while (at < h->nuses && h->uses[at].program != program)
        at++;
    if (at == h->nuses || --h->uses[at].plans > 0)
        return 0;
    h->uses[at] = h->uses[--h->nuses];
    return 1;
}

/* uncount_program, and where no plan uses program any more, the pool's kernels of it leave the
 * pool: the idle ones into gone (*ngone of them, the caller frees them after the lock), the
 * busy ones when their calls put them back. */
static void unuse_program(gb_blas_t *h, cl_program program, gb_kslot_t **gone, size_t *ngone)
{
    if (!uncount_program(h, program))
        return;
    for (size_t i = 0; i < h->nslots;) {
        gb_kslot_t *s = h->slots[i];
        if (s->program != program) {
            i++;
        } else if (s->busy) {
            s->doomed = 1;
            i++;
        } else {
            gone[(*ngone)++] = s;
            h->slots[i] = h->slots[--h->nslots];
        }
    }
}

/* Frees plan p: its programs' counts, and the pool's kernels no plan needs any more. */
static void plan_free(gb_blas_t *h, gb_blas_plan_t *p)
{
    if (p->counted) {
        pthread_mutex_lock(&h->lock);
        size_t n = 0;
        for (size_t i = 0; i < h->nslots; i++)
            n += h->slots[i]->program == p->program || h->slots[i]->program == p->helpers;
        gb_kslot_t **gone = n ? malloc(n * sizeof *gone) : NULL;
        size_t ngone = 0;
        if (!n || gone) { /* else no room to collect them: they stay until the handle closes */
            unuse_program(h, p->program, gone, &ngone);
            if (p->helpers)
                unuse_program(h, p->helpers, gone, &ngone);
        }
        pthread_mutex_unlock(&h->lock);
        for (size_t i = 0; i < ngone; i++)
            slot_free(gone[i]);
        free(gone);
    }
    if (p->program)
        clReleaseProgram(p->program);
    if (p->helpers)
        clReleaseProgram(p->helpers);
    free(p);
}

void gb_blas__key(const gb_problem_t *p, gb_blas_plan_key_t *key)
{
    memset(key, 0, sizeof *key); /* the key is hashed and compared whole, padding included */
    key->precision = p->precision;
    key->layout = p->layout;
    key->trans_a = p->trans_a;
    key->trans_b = p->trans_b;
    key->m = p->m;
    key->n = p->n;
    key->k = p->k;
    key->lda = p->lda;
    key->ldb = p->ldb;
    key->ldc = p->ldc;
    key->off_a = p->off_a;
    key->off_b = p->off_b;
    key->off_c = p->off_c;
    key->beta_zero = gb__beta_zero(p);
    key->conj_a = p->conj_a;
    key->conj_b = p->conj_b;
}

/* Builds what the plan needs: the main program, the helpers' where the route copies, and one
 * kernel to check the work-group the compiled kernel allows (register use). */
int gb_blas__plan_build(gb_blas_t *h, const gb_problem_t *p, const gb_config_t *cfg,
                        gb_blas_plan_t **out)
{
    char msg[16384];
    gb_blas_plan_t *pl = calloc(1, sizeof *pl);
    if (!pl)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    gb_blas__key(p, &pl->key);
    pl->refs = 1;
    pl->cfg = *cfg;
    int rc = gb__route_plan(&pl->cfg, p, &h->dev, &pl->route, msg, sizeof msg);
    if (rc != GB_OK)
        rc = gb_blas__fail(rc, "kernel '%s': %s", gb_config_name(&pl->cfg), msg);
    else if (pl->route.image[0] || pl->route.image[1])
        rc = gb_blas__fail(GB_EUNSUPPORTED,
                           "kernel '%s' would read images, which the library does not run",
                           gb_config_name(&pl->cfg));
    double ms;
    int hit;
    if (rc == GB_OK &&
        (rc = gb__launch_programs(h->ctx, &pl->cfg, &pl->route, 1, &pl->program, &pl->helpers, &ms,
                                  &hit, msg, sizeof msg)) != GB_OK)
        rc = gb_blas__fail(rc, "building kernel '%s': %s", gb_config_name(&pl->cfg), msg);
    if (rc == GB_OK) {
        /* The pool's kernels of these programs live while a plan uses them. */
        pthread_mutex_lock(&h->lock);
        rc = use_program(h, pl->program);
        if (rc == GB_OK && pl->helpers && (rc = use_program(h, pl->helpers)) != GB_OK)
            uncount_program(h, pl->program);
        pl->counted = rc == GB_OK;
        pthread_mutex_unlock(&h->lock);
        if (rc != GB_OK)
            rc = gb_blas__fail(GB_ENOMEM, "out of memory");
    }
    gb_kslot_t *slot;
    if (rc == GB_OK &&
        (rc = gb_blas__kernel_get(h, pl->program, pl->cfg.family->entry, &slot)) == GB_OK) {
        if ((rc = gb__launch_fits(slot->kernel, &h->dev, &pl->cfg, &pl->route,
                                  "another configuration (gb_blas_set_kernel)", msg, sizeof msg)) !=
            GB_OK)
            rc = gb_blas__fail(rc, "%s", msg);
        gb_blas__kernel_put(h, slot);
    }
    if (rc != GB_OK) {
        plan_free(h, pl);
        return rc;
    }
    *out = pl;
    return GB_OK;
}

/* The plan of key in bucket b, with a reference taken for the caller, or NULL; under the lock. */
static gb_blas_plan_t *take(gb_blas_t *h, size_t b, const gb_blas_plan_key_t *key)
{
    for (int w = 0; w < GB_PLAN_WAYS; w++) {
        gb_blas_plan_t *pl = h->plans[b][w];
        if (pl && !memcmp(&pl->key, key, sizeof *key)) {
            pl->refs++;
            return pl;
        }
    }
    return NULL;
}

int gb_blas__plan_find(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out)
{
    pthread_mutex_lock(&h->lock);
    *out = take(h, bucket(key), key);
    pthread_mutex_unlock(&h->lock);
    return *out != NULL;
}

void gb_blas__plan_keep(gb_blas_t *h, gb_blas_plan_t *made, gb_blas_plan_t **out)
{
    const size_t b = bucket(&made->key);
    pthread_mutex_lock(&h->lock);
    if ((*out = take(h, b, &made->key)) != NULL) {
        pthread_mutex_unlock(&h->lock);
        plan_free(h, made);
        return;
    }
    /* The newest first; the oldest leaves (freed once its last call is done with it). */
    gb_blas_plan_t *old = h->plans[b][GB_PLAN_WAYS - 1];
    memmove(&h->plans[b][1], &h->plans[b][0], (GB_PLAN_WAYS - 1) * sizeof made);
    h->plans[b][0] = made;
    made->refs++;
    const int free_old = old && --old->refs == 0;
    pthread_mutex_unlock(&h->lock);
    if (free_old)
        plan_free(h, old);
    *out = made;
}

void gb_blas__plan_drop(gb_blas_t *h, const gb_blas_plan_key_t *key)
{
    const size_t b = bucket(key);
    gb_blas_plan_t *gone = NULL;
    pthread_mutex_lock(&h->lock);
    for (size_t w = 0; w < GB_PLAN_WAYS && !gone; w++)
        if (h->plans[b][w] && !memcmp(&h->plans[b][w]->key, key, sizeof *key)) {
            gone = h->plans[b][w];
            memmove(&h->plans[b][w], &h->plans[b][w + 1],
                    (GB_PLAN_WAYS - 1 - w) * sizeof h->plans[b][0]);
            h->plans[b][GB_PLAN_WAYS - 1] = NULL;
        }
    pthread_mutex_unlock(&h->lock);
    if (gone)
        gb_blas__plan_put(h, gone);
}

void gb_blas__plan_put(gb_blas_t *h, gb_blas_plan_t *plan)
{
    pthread_mutex_lock(&h->lock);
    const int last = --plan->refs == 0;
    pthread_mutex_unlock(&h->lock);
    if (last)
        plan_free(h, plan);
}

int gb_blas__kernel_get(gb_blas_t *h, cl_program program, const char *entry, gb_kslot_t **out)
{
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < h->nslots; i++) {
        gb_kslot_t *s = h->slots[i];
        if (!s->busy && s->program == program && !strcmp(s->entry, entry)) {
            s->busy = 1;
            *out = s;
            pthread_mutex_unlock(&h->lock);
            return GB_OK;
        }
    }
    pthread_mutex_unlock(&h->lock);
    /* None free: a new one, made outside the lock, joins the pool busy. */
    gb_kslot_t *s = calloc(1, sizeof *s);
    if (!s)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    cl_int err;
    s->kernel = clCreateKernel(program, entry, &err);
    if (err != CL_SUCCESS) {
        free(s);
        return gb_blas__fail(GB_EMETADATA, "no kernel named '%s' in its program (%s)", entry,
                             gb__cl_errname(err));
    }
    clRetainProgram(program); /* until no plan uses the program (plan_free) */
    s->program = program;
    s->entry = entry;
    s->busy = 1;
    pthread_mutex_lock(&h->lock);
    const int rc = gb__grow(&h->slots, &h->capslots, h->nslots + 1, sizeof *h->slots);
    if (rc == GB_OK)
        h->slots[h->nslots++] = s;
    pthread_mutex_unlock(&h->lock);
    if (rc != GB_OK) {
        clReleaseKernel(s->kernel);
        clReleaseProgram(program);
        free(s);
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    }
    *out = s;
    return GB_OK;
}

void gb_blas__kernel_put(gb_blas_t *h, gb_kslot_t *slot)
{
    pthread_mutex_lock(&h->lock);
    slot->busy = 0;
    const int gone = slot->doomed;
    for (size_t i = 0; gone && i < h->nslots; i++)
        if (h->slots[i] == slot) {
            h->slots[i] = h->slots[--h->nslots];
            break;
        }
    pthread_mutex_unlock(&h->lock);
    if (gone)
        slot_free(slot);
}

/* A queue's first use: of the handle's context and device, and in order. */
static int queue_ok(gb_blas_t *h, cl_command_queue q)
{
    cl_context c = NULL;
    cl_device_id d = NULL;
    cl_command_queue_properties props = 0;
    cl_int err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, NULL);
    if (err == CL_SUCCESS)
        err = clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_EBADQUEUE,
                             "the queue cannot be queried (%s); pass a valid "
                             "cl_command_queue",
                             gb__cl_errname(err));
    if (c != h->cl || d != h->device)
        return gb_blas__fail(GB_EBADQUEUE,
                             "the queue is not of the handle's %s; make it on "
                             "the context and device the handle was opened on",
                             c != h->cl ? "context" : "device");
    if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
        return gb_blas__fail(GB_EBADQUEUE, "the queue executes out of order; the library needs "
                                           "an in-order queue");
    return GB_OK;
}

static void scratch_free(gb_scratch_t *s)
{
    for (int j = 0; j < GB_SCRATCH_N; j++)
        if (s->mem[j])
            clReleaseMemObject(s->mem[j]);
    clReleaseCommandQueue(s->queue);
    free(s);
}

/* queue's entry, or NULL; under the lock. */
static gb_scratch_t *find_queue(gb_blas_t *h, cl_command_queue queue)
{
    for (size_t i = 0; i < h->nscratch; i++)
        if (h->scratch[i]->queue == queue)
            return h->scratch[i];
    return NULL;
}

/* Takes s for the caller (busy), or refuses: another call holds it. Under the lock. */
static int take_queue(gb_blas_t *h, gb_scratch_t *s)
{
    if (s->busy)
        return gb_blas__fail(GB_EBADQUEUE,
                             "another thread's call is using this queue now; calls on one queue "
                             "must take turns (or use a queue per thread)");
    s->busy = 1;
    s->used = ++h->tick;
    return GB_OK;
}

int gb_blas__queue_take(gb_blas_t *h, cl_command_queue queue, gb_scratch_t **out)
{
    pthread_mutex_lock(&h->lock);
    gb_scratch_t *s = find_queue(h, queue);
    int rc = s ? take_queue(h, s) : GB_OK;
    pthread_mutex_unlock(&h->lock);
    if (s) {
        *out = s;
        return rc;
    }
    /* A queue not served yet: checked and its entry made outside the lock. */
    if ((rc = queue_ok(h, queue)) != GB_OK)
        return rc;
    gb_scratch_t *made = calloc(1, sizeof *made), *old = NULL;
    if (!made)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    clRetainCommandQueue(queue);
    made->queue = queue;
    pthread_mutex_lock(&h->lock);
    if ((s = find_queue(h, queue)) != NULL) {
        /* Another thread's call on the same queue made it meanwhile. */
        rc = take_queue(h, s);
    } else {
        /* Past the queues kept, the idle one used least recently leaves for it. */
        size_t at = h->nscratch;
        for (size_t i = 0; h->nscratch >= GB_QUEUES_KEPT && i < h->nscratch; i++)
            if (!h->scratch[i]->busy &&
                (at == h->nscratch || h->scratch[i]->used < h->scratch[at]->used))
                at = i;
        if (at < h->nscratch) {
            old = h->scratch[at];
            h->scratch[at] = h->scratch[--h->nscratch];
        }
        rc = gb__grow(&h->scratch, &h->capscratch, h->nscratch + 1, sizeof *h->scratch);
        if (rc == GB_OK) {
            h->scratch[h->nscratch++] = s = made;
            made = NULL;
            take_queue(h, s);
        } else {
            rc = gb_blas__fail(GB_ENOMEM, "out of memory");
        }
    }
    pthread_mutex_unlock(&h->lock);
    if (made) {
        clReleaseCommandQueue(queue);
        free(made);
    }
    if (old)
        scratch_free(old); /* its commands keep its buffers until they finish */
    *out = s;
    return rc;
}

void gb_blas__queue_put(gb_blas_t *h, gb_scratch_t *s)
{
    pthread_mutex_lock(&h->lock);
    s->busy = 0;
    pthread_mutex_unlock(&h->lock);
}

int gb_blas__scratch_grow(gb_blas_t *h, gb_scratch_t *s, const size_t bytes[GB_SCRATCH_N])
{
    /* Only the call that holds s touches it: no lock. A buffer replaced while earlier commands
     * still use it lives until they finish (clReleaseMemObject). */
    for (int i = 0; i < GB_SCRATCH_N; i++) {
        if (bytes[i] <= s->bytes[i])
            continue;
        if (s->mem[i])
            clReleaseMemObject(s->mem[i]);
        s->mem[i] = NULL;
        s->bytes[i] = 0;
        cl_int err;
        s->mem[i] = i == GB_SCRATCH_CNT
                        ? gb__launch_counters(h->cl, s->queue, bytes[i], &err)
                        : clCreateBuffer(h->cl, CL_MEM_READ_WRITE, bytes[i], NULL, &err);
        if (err != CL_SUCCESS)
            return gb_blas__fail(GB_EOPENCL, "allocating %zu bytes of scratch space failed (%s)",
                                 bytes[i], gb__cl_errname(err));
        s->bytes[i] = bytes[i];
    }
    return GB_OK;
}

int gb_blas__scale_program(gb_blas_t *h, gb_precision_t prec, cl_program *out)
{
    assert((size_t)prec < sizeof h->scale / sizeof h->scale[0]);
    pthread_mutex_lock(&h->lock);
    *out = h->scale[prec];
    pthread_mutex_unlock(&h->lock);
    if (*out)
        return GB_OK;
    char msg[16384], options[64];
    double ms;
    int hit;
    cl_program p;
    gb__precision_options(prec, options, sizeof options);
    int rc = gb__program_get(h->ctx, "scale", gb__embedded("prelude.cl")->data,
                             gb__embedded("scale.cl")->data, options, "", 1, &p, &ms, &hit, msg,
                             sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "building the scaling kernel: %s", msg);
    pthread_mutex_lock(&h->lock);
    if (h->scale[prec])
        clReleaseProgram(p); /* another thread's came first */
    else
        h->scale[prec] = p;
    *out = h->scale[prec];
    pthread_mutex_unlock(&h->lock);
    return GB_OK;
}

int gb_blas__zeros(gb_blas_t *h, size_t bytes, cl_mem *out)
{
    pthread_mutex_lock(&h->lock);
    if (h->zeros && h->zeros_bytes >= bytes) {
        *out = h->zeros;
        clRetainMemObject(*out);
        pthread_mutex_unlock(&h->lock);
        return GB_OK;
    }
    pthread_mutex_unlock(&h->lock);
    void *host = calloc(1, bytes);
    if (!host)
        return gb_blas__fail(GB_ENOMEM, "out of memory");
    cl_int err;
    cl_mem m = clCreateBuffer(h->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    free(host);
    if (err != CL_SUCCESS)
        return gb_blas__fail(GB_EOPENCL, "allocating %zu bytes of zeros failed (%s)", bytes,
                             gb__cl_errname(err));
    pthread_mutex_lock(&h->lock);
    if (h->zeros_bytes < bytes) { /* else another thread's larger one came first */
        if (h->zeros)
            clReleaseMemObject(h->zeros);
        h->zeros = m;
        h->zeros_bytes = bytes;
        clRetainMemObject(m);
    }
    pthread_mutex_unlock(&h->lock);
    *out = m;
    return GB_OK;
}

void gb_blas__tables_free(gb_blas_t *h)
{
    gb_blas_plan_t *gone[GB_PLAN_BUCKETS * GB_PLAN_WAYS];
    size_t n = 0;
    pthread_mutex_lock(&h->lock);
    for (size_t b = 0; b < GB_PLAN_BUCKETS; b++)
        for (int w = 0; w < GB_PLAN_WAYS; w++) {
            gb_blas_plan_t *pl = h->plans[b][w];
            h->plans[b][w] = NULL;
            if (pl && --pl->refs == 0)
                gone[n++] = pl;
        }
    pthread_mutex_unlock(&h->lock);
    for (size_t i = 0; i < n; i++) /* plan_free takes the lock */
        plan_free(h, gone[i]);
}

void gb_blas__pools_free(gb_blas_t *h)
{
    for (size_t i = 0; i < h->nslots; i++)
        slot_free(h->slots[i]);
    free(h->slots);
    free(h->uses);
    for (size_t i = 0; i < h->nscratch; i++)
        scratch_free(h->scratch[i]);
    free(h->scratch);
    for (size_t p = 0; p < sizeof h->scale / sizeof h->scale[0]; p++)
        if (h->scale[p])
            clReleaseProgram(h->scale[p]);
    if (h->zeros)
        clReleaseMemObject(h->zeros);
}
