/* job.c: a job made from what was asked or from a stored point, and measured and stored. */
#include <stdio.h>
#include <string.h>

#include "rt/util/util.h"
#include "job.h"

int gb_job_cannot_run(int code)
{
    switch (code) {
    case GB_EBADPARAM:
    case GB_ECONSTRAINT:
    case GB_EBADLWS:
    case GB_EUNSUPPORTED:
    case GB_ENOFP64:
    case GB_ENOEXT:
    case GB_EWGSIZE:
    case GB_ELOCALMEM:
    case GB_EOVERFLOW:
    case GB_EBADM:
    case GB_EBADN:
    case GB_EBADK:
    case GB_EBADLDA:
    case GB_EBADLDB:
    case GB_EBADLDC:
    case GB_EBADPRECISION:
    case GB_ENOIMAGES:
    case GB_EMETADATA:
    case GB_ERANGE: return 1;
    default: return 0;
    }
}

/* The checks once the implementation is known, then the id. */
static int finish(gb_job_t *job, const gb_device_info_t *dev)
{
    int rc = gb_problem_check(&job->problem, job->why, sizeof job->why);
    if (rc == GB_OK)
        rc = gb_problem_check_data(&job->problem, &job->bench.dist, job->why, sizeof job->why);
    if (rc == GB_OK)
        rc = gb_impl_check(&job->impl, dev, job->problem.precision, &job->problem, job->why,
                           sizeof job->why);
    /* The host memory and pipeline asked, on this device with this implementation. */
    if (rc == GB_OK)
        rc = gb_bench_check(dev, &job->impl, &job->problem, &job->bench, job->why, sizeof job->why);
    /* The route, planned once here: the point's id, the build, the run and its traffic take it. */
    if (rc == GB_OK)
        rc = gb_impl_plan(&job->impl, dev, &job->problem, job->why, sizeof job->why);
    gb_point_t pt;
    gb_point_init(&pt);
    if (rc == GB_OK)
        rc = gb_point_define(&pt, dev, &job->impl, &job->problem, &job->bench, job->rep, job->why,
                             sizeof job->why);
    memcpy(job->id, pt.id, sizeof job->id);
    gb_point_free(&pt);
    if (rc == GB_ENOMEM)
        return rc;
    job->code = rc;
    return GB_OK;
}

/* -k auto: the chooser picks the kernel and its parameters for the problem as asked, which it
 * then runs as asked (not in the chosen kernel's own layout: beside peers in one run, every row
 * must be the same problem). */
static int choose(gb_job_t *job, const gb_device_info_t *dev, const gb_job_spec_t *spec)
{
    if (!spec->chooser)
        return gb__fail(job->why, sizeof job->why, GB_ENOKERNEL,
                        "-k auto needs the tuning database, which this command does not read");
    if (spec->swept && spec->swept->count)
        return gb__fail(job->why, sizeof job->why, GB_EBADPARAM,
                        "-k auto chooses the parameters itself: drop --param");
    if (spec->lws)
        return gb__fail(job->why, sizeof job->why, GB_EBADLWS,
                        "-k auto chooses the work-group size itself: drop --lws");
    return spec->chooser->choose(spec->chooser->user, dev, &job->problem, job->chosen,
                                 sizeof job->chosen, &job->swept, job->chosen_why,
                                 sizeof job->chosen_why);
}

int gb_job_make(gb_job_t *job, const gb_registry_t *reg, const gb_device_info_t *dev,
                const gb_job_spec_t *spec)
{
    memset(job, 0, sizeof *job);
    job->kernel = spec->kernel;
    job->named = spec->named;
    job->rep = spec->rep;
    job->bench = *spec->bench;
    if (spec->swept)
        job->swept = *spec->swept;
    job->problem = *spec->base;
    job->problem.precision = spec->precision;
    job->problem.m = spec->m;
    job->problem.n = spec->n;
    job->problem.k = spec->k;
    const char *name = spec->kernel;
    const int is_auto = !strcmp(name, GB_AUTO);
    int rc = GB_OK;
    if (is_auto) {
        rc = choose(job, dev, spec);
        name = job->chosen;
        if (rc != GB_OK && !job->why[0]) { /* the chooser's reason */
            gb__copy(job->why, sizeof job->why, job->chosen_why);
            job->chosen[0] = job->chosen_why[0] = '\0';
        }
    }
    if (rc == GB_OK)
        rc = gb_impl_resolve(reg, name, &job->swept, &job->impl, job->why, sizeof job->why);
    if (rc == GB_OK && spec->lws) {
        job->has_lws = 1;
        job->lws[0] = spec->lws[0];
        job->lws[1] = spec->lws[1];
        rc = gb_impl_can(&job->impl, GB_CAN_LWS)
                 ? gb_config_set_lws(&job->impl.config, job->lws[0], job->lws[1], job->why,
                                     sizeof job->why)
                 : gb__fail(job->why, sizeof job->why, GB_EBADLWS,
                            "library peer '%s' takes no work-group size", spec->kernel);
    }
    if (rc != GB_OK) {
        job->code = rc;
        return rc == GB_ENOMEM ? rc : GB_OK;
    }
    if (!spec->has_layout && !is_auto)
        gb_impl_native_layout(&job->impl, &job->problem);
    return finish(job, dev);
}

int gb_job_from_point(gb_job_t *job, const gb_registry_t *reg, const gb_device_info_t *dev,
                      const gb_point_t *pt)
{
    memset(job, 0, sizeof *job);
    job->kernel = pt->kernel;
    job->named = 1;
    job->rep = pt->rep;
    job->problem = pt->problem;
    gb_bench_options_init(&job->bench);
    job->bench.warmup = pt->warmup;
    job->bench.iterations = pt->iterations;
    job->bench.seed = pt->seed;
    job->bench.dist = pt->dist;
    job->bench.timing = pt->timing;
    job->bench.host_mem = pt->host_mem;
    job->bench.cold = pt->cold;
    job->bench.min_time_s = pt->min_time_s;
    job->bench.max_rel_ci = pt->max_rel_ci;
    job->bench.pipeline = pt->pipeline;
    job->bench.validate = pt->validate;
    /* Every parameter the point recorded, the work-group size included. */
    int rc = gb_impl_resolve(reg, pt->kernel, &pt->params, &job->impl, job->why, sizeof job->why);
    if (rc != GB_OK) {
        job->code = rc;
        return rc == GB_ENOMEM ? rc : GB_OK;
    }
    return finish(job, dev);
}

int gb_job_measure(const gb_job_t *job, gb_context_t *ctx, gb_store_t *st, gb_job_store_t keep,
                   gb_point_t *pt, char *msg, size_t msglen)
{
    gb_result_t r;
    int rc = gb_point_define(pt, gb_context_device(ctx), &job->impl, &job->problem, &job->bench,
                             job->rep, msg, msglen);
    if (rc != GB_OK)
        return rc;
    if ((rc = gb_bench_run(ctx, &job->impl, &job->problem, &job->bench, &r)) != GB_OK)
        return gb__fail(msg, msglen, rc, "%s", gb_context_errmsg(ctx));
    rc = gb_point_set_result(pt, &r);
    gb_result_free(&r);
    if (rc == GB_OK)
        rc = gb_point_set_provenance(pt);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "out of memory recording the point");
    if (keep == GB_JOB_KEEP_NONE)
        return GB_OK;
    rc = keep == GB_JOB_KEEP_NEW ? gb_store_insert(st, pt) : gb_store_insert_next_rep(st, pt);
    if (rc < 0)
        return gb__fail(msg, msglen, GB_JOB_ESTORE, "%s", gb_store_errmsg(st));
    return rc;
}

const char *gb_job_chosen_text(const gb_job_t *job, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    gb__appendf(buf, len, &used, "%s", job->chosen);
    for (size_t i = 0; i < job->swept.count; i++)
        gb__appendf(buf, len, &used, " %s=%ld", job->swept.name[i], job->swept.value[i]);
    return buf;
}

const char *gb_job_describe(const gb_job_t *job, char *buf, size_t len)
{
    size_t used = 0;
    char chosen[512];
    if (job->chosen[0])
        gb__appendf(buf, len, &used, "auto -> %s (%s) ",
                    gb_job_chosen_text(job, chosen, sizeof chosen), job->chosen_why);
    else
        gb__appendf(buf, len, &used, "%s ", job->kernel ? job->kernel : "?");
    gb__appendf(buf, len, &used, "%s %zux%zux%zu", gb_precision_name(job->problem.precision),
                job->problem.m, job->problem.n, job->problem.k);
    if (job->has_lws)
        gb__appendf(buf, len, &used, " lws %zux%zu", job->lws[0], job->lws[1]);
    for (size_t i = 0; !job->chosen[0] && i < job->swept.count; i++)
        gb__appendf(buf, len, &used, " %s=%ld", job->swept.name[i], job->swept.value[i]);
    gb__appendf(buf, len, &used, " rep %u", job->rep);
    return buf;
}
