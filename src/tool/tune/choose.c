/* choose.c: -k auto's chooser, a library handle per device (choose.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "choose.h"
#include "gemmbench_blas.h"

struct gb_auto_handle {
    void *device; /* cl_device_id */
    gb_blas_t *h;
};

/* The handle of dev, opened on first use on a context of its own. NULL with why on failure. */
static gb_blas_t *handle_of(gb_auto_t *a, const gb_device_info_t *dev, char *why, size_t wlen)
{
    for (size_t i = 0; i < a->nhandles; i++)
        if (a->handles[i].device == dev->cl_device)
            return a->handles[i].h;
    cl_device_id d = dev->cl_device;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->cl_platform,
                                     0};
    cl_int err;
    cl_context ctx = clCreateContext(props, 1, &d, NULL, NULL, &err);
    gb_blas_t *h = NULL;
    if (err != CL_SUCCESS) {
        snprintf(why, wlen, "auto: making a context on '%s' failed (OpenCL error %d)", dev->name,
                 (int)err);
        return NULL;
    }
    int rc = gb_blas_open(&h, ctx, d);
    clReleaseContext(ctx); /* the handle keeps its own reference */
    /* The store's entries this device's choices can take (its own, its family's, its vendor
     * and type's): a store of many devices' entries adds only those. */
    gb_tuned_t mine;
    gb_tuned_init(&mine);
    for (size_t i = 0; rc == GB_OK && i < a->db.n; i++)
        if (gb_tuned_tier(&a->db.e[i], dev) >= 0)
            rc = gb_tuned_add(&mine, &a->db.e[i]);
    if (rc == GB_OK && mine.n)
        rc = gb_blas__add_tuned(h, &mine);
    gb_tuned_free(&mine);
    if (rc == GB_OK)
        rc = gb_blas_set_select(h, a->select);
    if (rc == GB_OK)
        rc = gb__grow(&a->handles, &a->caphandles, a->nhandles + 1, sizeof *a->handles);
    if (rc != GB_OK) {
        snprintf(why, wlen, "auto: %s", gb_blas_errmsg());
        gb_blas_close(h);
        return NULL;
    }
    a->handles[a->nhandles++] = (gb_auto_handle_t){dev->cl_device, h};
    const char *w = gb_blas_warnings(h);
    if (w[0] && !strstr(a->warnings, w)) {
        size_t used = strlen(a->warnings);
        gb__appendf(a->warnings, sizeof a->warnings, &used, "%s%s", used ? "\n" : "", w);
    }
    return h;
}

static int choose(void *user, const gb_device_info_t *dev, const gb_problem_t *p, char *kernel,
                  size_t klen, gb_params_t *params, char *why, size_t wlen)
{
    gb_auto_t *a = user;
    gb_blas_choice_t c;
    if (p->precision == GB_PREC_HH) /* the library's calls have no FP16 sums to choose for */
        return gb__fail(why, wlen, GB_EUNSUPPORTED,
                        "-k auto chooses among the library's kernels, and FP16 sums (hh, "
                        "--accumulate h) are none of its calls; name a kernel that declares hh "
                        "(naive, xgemm)");
    pthread_mutex_lock(&a->lock);
    gb_blas_t *h = handle_of(a, dev, why, wlen);
    pthread_mutex_unlock(&a->lock);
    if (!h)
        return GB_EOPENCL;
    const gb_blas_layout_t layout =
        p->layout == GB_ROW_MAJOR ? GB_BLAS_ROW_MAJOR : GB_BLAS_COL_MAJOR;
    const gb_blas_trans_t ta = p->trans_a == GB_NOTRANS ? GB_BLAS_NO_TRANS
                               : p->conj_a              ? GB_BLAS_CONJ_TRANS
                                                        : GB_BLAS_TRANS;
    const gb_blas_trans_t tb = p->trans_b == GB_NOTRANS ? GB_BLAS_NO_TRANS
                               : p->conj_b              ? GB_BLAS_CONJ_TRANS
                                                        : GB_BLAS_TRANS;
    int rc =
        gb_blas_choose(h, gb_precision_name(p->precision)[0], layout, ta, tb, p->m, p->n, p->k, &c);
    if (rc != GB_OK) {
        gb__copy(why, wlen, gb_blas_errmsg());
        return rc;
    }
    memset(params, 0, sizeof *params);
    char *save = NULL;
    for (char *t = strtok_r(c.params, " ", &save); t && rc == GB_OK; t = strtok_r(NULL, " ", &save))
        rc = gb_params_parse(params, t, why, wlen);
    if (rc != GB_OK)
        return rc;
    gb__copy(kernel, klen, c.kernel);
    gb__copy(why, wlen, c.why);
    return GB_OK;
}

/* t's entries as the handles take them under objective (gb_auto_open): the time entries, and
 * over each the objective's entry of its key, made a time entry; under time the time entries
 * alone. GB_OK or GB_ENOMEM. */
static int for_objective(gb_tuned_t *t, const char *objective)
{
    gb_tuned_t mine;
    gb_tuned_init(&mine);
    int rc = GB_OK;
    const int passes = strcmp(objective, GB_OBJECTIVE_TIME) ? 2 : 1;
    for (int pass = 0; pass < passes && rc == GB_OK; pass++)
        for (size_t i = 0; i < t->n && rc == GB_OK; i++) {
            gb_tuned_entry_t e = t->e[i];
            if (strcmp(gb_tuned_objective(&e), pass ? objective : GB_OBJECTIVE_TIME))
                continue;
            snprintf(e.objective, sizeof e.objective, "%s", GB_OBJECTIVE_TIME);
            rc = gb_tuned_merge(&mine, &e);
        }
    gb_tuned_free(t);
    *t = mine;
    return rc;
}

int gb_auto_open(gb_auto_t *a, gb_store_t *st, int select, const char *objective, char *msg,
                 size_t msglen)
{
    memset(a, 0, sizeof *a);
    gb_tuned_init(&a->db);
    a->chooser.choose = choose;
    a->chooser.user = a;
    const char *env = getenv("GEMMBENCH_SELECT");
    a->select = select >= 0 ? select : GB_BLAS_SELECT_MEASURE | GB_BLAS_SELECT_BUILD;
    if (select < 0 && env && *env && gb_blas__select_parse(env, &a->select) != GB_OK)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "GEMMBENCH_SELECT is '%.60s'; use off, cached, measure or measure+build",
                        env);
    const int other = objective && strcmp(objective, GB_OBJECTIVE_TIME);
    if (other)
        a->select = GB_BLAS_SELECT_OFF;
    int rc = st ? gb_tuned_load_store(&a->db, st, msg, msglen) : GB_OK;
    if (rc == GB_OK && (rc = for_objective(&a->db, other ? objective : GB_OBJECTIVE_TIME)) != GB_OK)
        gb__fail(msg, msglen, rc, "out of memory");
    if (rc == GB_OK && pthread_mutex_init(&a->lock, NULL) != 0)
        rc = gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    if (rc != GB_OK)
        gb_tuned_free(&a->db);
    return rc;
}

void gb_auto_close(gb_auto_t *a)
{
    for (size_t i = 0; i < a->nhandles; i++)
        gb_blas_close(a->handles[i].h);
    free(a->handles);
    gb_tuned_free(&a->db);
    pthread_mutex_destroy(&a->lock);
    memset(a, 0, sizeof *a);
}
