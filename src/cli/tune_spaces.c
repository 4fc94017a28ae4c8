/* tune_spaces.c: tune's recorded spaces on the command line: a run written as one (--record)
 * and a strategy run over one without a device (--simulate). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/tune/recorded.h"
#include "tool/tune/strategy.h"
#include "rt/util/util.h"
#include "options.h"
#include "tune_spaces.h"

int cli_tune_simulate(const char *path, const char *strategy, uint64_t seed, size_t budget_asked,
                      size_t lookahead, const char *kpath)
{
    char msg[1024];
    gb_registry_t *reg = NULL;
    gb_recorded_t *rec = NULL;
    gb_space_t *sp = NULL;
    double *trace = NULL;
    int rc = gb_registry_open(&reg, kpath, msg, sizeof msg);
    if (rc == GB_OK)
        rc = gb_recorded_load(&rec, &sp, path, reg, msg, sizeof msg);
    if (rc != GB_OK) {
        rc = cli_error(rc == GB_EIO || rc == GB_ENOKERNEL ? GB_EBADARG : rc, "%s", msg);
        goto done;
    }
    const uint64_t count = gb_space_count(sp);
    size_t budget = budget_asked ? budget_asked : (size_t)count;
    if (budget > count)
        budget = (size_t)count;
    const double best = gb_recorded_best(rec);
    size_t n = 0;
    if (!(trace = malloc((budget ? budget : 1) * sizeof *trace))) {
        rc = cli_error(GB_ENOMEM, "out of memory");
        goto done;
    }
    const gb_recorded_info_t *info = gb_recorded_info(rec);
    if ((rc = gb_simulate(rec, sp, strategy, seed, budget, lookahead, trace, &n, msg,
                          sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    printf("simulate: %s over %s (%s %s %zux%zux%zu on %s): %llu configurations, best %.6g\n",
           strategy, path, info->family, gb_precision_name(info->precision), info->m, info->n,
           info->k, info->device, (unsigned long long)count, best);
    printf("%12s %12s %10s\n", "evaluations", "best so far", "of best");
    size_t reached = 0;
    for (size_t i = 0; i < n; i++) {
        const int mark = i + 1 == n || (i + 1) % (n > 20 ? n / 20 : 1) == 0;
        if (!reached && best > 0 && trace[i] >= best)
            reached = i + 1;
        if (mark)
            printf("%12zu %12.6g %10.3f\n", i + 1, trace[i],
                   best > 0 && trace[i] > 0 ? trace[i] / best : 0.0);
    }
    if (reached)
        printf("the best configuration was reached after %zu evaluations (%.1f%% of the space)\n",
               reached, 100.0 * (double)reached / (double)count);
    else
        printf("the best configuration was not reached in %zu evaluations\n", n);
    rc = EXIT_OK;
done:
    free(trace);
    gb_recorded_close(rec);
    gb_space_close(sp);
    gb_registry_close(reg);
    return rc;
}

typedef struct rec_ctx {
    FILE *f;
    gb_space_t *sp;
    size_t n; /* configurations written */
    int rc;
} rec_ctx_t;

static int record_eval(const gb_tune_eval_t *ev, void *user)
{
    rec_ctx_t *r = user;
    gb_params_t ps = {0};
    char text[512];
    gb__copy(text, sizeof text, ev->params);
    for (char *save = NULL, *a = strtok_r(text, " ", &save); a; a = strtok_r(NULL, " ", &save))
        gb_params_parse(&ps, a, NULL, 0);
    gb_space_cand_t c;
    if (gb_space_find(r->sp, &ps, &c) != GB_OK)
        return 0;
    if (gb_recorded_write_entry(r->f, r->sp, &c, ev->gflops) != GB_OK)
        r->rc = GB_EIO;
    r->n++;
    return 0;
}

int cli_tune_record(const char *path, const gb_tune_spec_t *spec, const gb_registry_t *reg,
                    const gb_device_info_t *di, gb_store_t *st, const gb_tune_run_t *run)
{
    char msg[1024];
    rec_ctx_t r = {NULL, NULL, 0, GB_OK};
    int rc = gb_tune_space(spec, reg, di, NULL, &r.sp, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    cli_out_t out;
    if ((rc = cli_out_open(&out, path, gb_store_path(st))) != 0) {
        gb_space_close(r.sp);
        return rc;
    }
    r.f = out.f;
    gb_recorded_info_t info;
    memset(&info, 0, sizeof info);
    gb__copy(info.family, sizeof info.family, run->kernel);
    info.precision = run->precision;
    info.m = run->m;
    info.n = run->n;
    info.k = run->k;
    gb_recorded_set_device(&info, di);
    snprintf(info.source, sizeof info.source, "gemmbench tune run %lld (%s, %s), %s",
             (long long)run->id, run->strategy, run->status, run->started);
    rc = gb_recorded_write_header(r.f, &info, r.sp);
    if (rc == GB_OK)
        rc = gb_store_tune_evals(st, run->id, record_eval, &r);
    if (rc == GB_OK)
        rc = r.rc;
    /* A run stopped early (--time, --budget, Ctrl-C) is "done" or "stopped" without having
     * covered the space: say how much of it the file holds. */
    if (rc == GB_OK && fprintf(r.f, "# %zu of the space's %llu configurations recorded\n", r.n,
                               (unsigned long long)gb_space_count(r.sp)) < 0)
        rc = GB_EIO;
    gb_space_close(r.sp);
    rc = cli_out_close(&out, rc);
    return rc == GB_OK ? 0 : rc > 0 ? rc : cli_error(rc, "cannot write %s", path);
}
