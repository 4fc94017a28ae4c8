/* run.c: a plan's launch on given buffers and scalars (blas_int.h, gb_blas__run): its kernels
 * taken from the handle's pool, bound and enqueued through the one launch (rt/plan/launch.c),
 * with the queue's scratch for the route's temporaries. The library's calls (gemm.c) and its
 * measurement of candidates (select.c) both run plans so. */
#include "blas_int.h"

/* Where a call's kernel objects sit in its slots: the main kernel, the side kernels (as the
 * launch's argument caches), the copies. */
enum { SLOT_MAIN = 0, SLOT_SIDE = 1, SLOT_COPY = SLOT_SIDE + GB_NSIDES };
#define NSLOTS (SLOT_COPY + GB_ROUTE_MAX_COPIES)

/* The kernel objects of pl's launch, taken from the pool into slots (the caller puts back those
 * taken, on failure too) and set in l. */
static int take_kernels(gb_blas_t *h, const gb_blas_plan_t *pl, gb_kslot_t *slots[NSLOTS],
                        gb_launch_t *l)
{
    const gb_route_t *r = &pl->route;
    const gb_family_t *f = pl->cfg.family;
    int rc = gb_blas__kernel_get(h, pl->program, f->entry, &slots[SLOT_MAIN]);
    for (int sd = 0; rc == GB_OK && sd < GB_NSIDES; sd++)
        if (r->side_global[sd][0])
            rc = gb_blas__kernel_get(h, pl->program, f->side[sd].entry, &slots[SLOT_SIDE + sd]);
    for (size_t i = 0; rc == GB_OK && i < r->ncopies; i++)
        rc = gb_blas__kernel_get(h, pl->helpers, gb__launch_copy_entry(&r->copies[i]),
                                 &slots[SLOT_COPY + i]);
    if (rc != GB_OK)
        return rc;
    l->main = slots[SLOT_MAIN]->kernel;
    for (int sd = 0; sd < GB_NSIDES; sd++)
        l->side[sd] = slots[SLOT_SIDE + sd] ? slots[SLOT_SIDE + sd]->kernel : NULL;
    for (size_t i = 0; i < r->ncopies; i++)
        l->copy[i] = slots[SLOT_COPY + i]->kernel;
    return GB_OK;
}

int gb_blas__run(gb_blas_t *h, gb_blas_plan_t *pl, gb_blas_scalar_t alpha, gb_blas_scalar_t beta,
                 const cl_mem abc[3], gb_scratch_t *s, cl_uint num_wait, const cl_event *wait,
                 cl_event *event)
{
    const gb_route_t *r = &pl->route;
    const size_t es = gb_precision_bytes(r->kernel.precision); /* the temporaries' elements */
    const size_t bytes[GB_SCRATCH_N] = {
        r->copy[0] ? r->temp_elems[0] * es : 0, r->copy[1] ? r->temp_elems[1] * es : 0,
        r->copy[2] ? r->temp_elems[2] * es : 0, r->has_ws ? r->ws_bytes : 0, r->cnt_bytes};
    const cl_command_queue q = s->queue;
    gb_kslot_t *slots[NSLOTS] = {0};
    gb_launch_t l = {.route = r};
    int rc = gb_blas__scratch_grow(h, s, bytes);
    if (rc == GB_OK)
        rc = take_kernels(h, pl, slots, &l);
    if (rc == GB_OK) {
        l.mem = (gb_binding_t){.buf = {abc[0], abc[1], abc[2], s->mem[0], s->mem[1], s->mem[2]},
                               .ws = s->mem[GB_SCRATCH_WS],
                               .cnt = s->mem[GB_SCRATCH_CNT],
                               .compute_units = h->dev.compute_units};
        gb_problem_t kp = r->kernel;
        kp.alpha = alpha.re;
        kp.alpha_im = alpha.im;
        kp.beta = beta.re;
        kp.beta_im = beta.im;
        gb_argcache_t *caches[SLOT_COPY];
        for (int i = 0; i < SLOT_COPY; i++)
            caches[i] = slots[i] ? &slots[i]->args : NULL;
        char msg[512];
        rc = gb__launch_bind(&l, pl->cfg.family, &kp, caches, msg, sizeof msg);
        if (rc == GB_OK)
            rc = gb__launch_enqueue(&l, &h->dev, q, num_wait, wait, NULL, event, msg, sizeof msg);
        if (rc != GB_OK)
            rc = gb_blas__fail(rc, "kernel '%s': %s", gb_config_name(&pl->cfg), msg);
    }
    for (size_t i = 0; i < NSLOTS; i++)
        if (slots[i])
            gb_blas__kernel_put(h, slots[i]);
    return rc;
}
