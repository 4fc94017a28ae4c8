/* choose.c: the configuration a call of the library runs: the handle's override
 * (gb_blas_set_kernel) where it has the problem's precision, else the tuning database's choice for
 * the problem on the handle's device (measured where the handle's mode says: select.c); checked
 * against the problem and built, the next candidate taken where the database's does not build
 * or fit here, and said in one line; an untuned problem appended to the capture file;
 * and a problem's plan, found in the handle's tables or chosen and built, and what a call of a
 * shape would run (gb_blas_choose, gb_blas_chosen). */
#include <stdio.h>
#include <string.h>

#include "blas_int.h"

/* Appends p to the capture file where the database has no entry for it: none of this device for
 * p's precision, layout and shape class. */
static void capture(gb_blas_t *h, const gb_problem_t *p, const gb_tuned_choice_t *c)
{
    char cls[32], tag[16];
    if (!h->capture[0])
        return;
    if (c->entry && c->tier == GB_TIER_DEVICE &&
        !strcmp(c->entry->shape_class, gb_shape_class(p->m, p->n, p->k, cls, sizeof cls)) &&
        !strcmp(c->entry->layout, gb_tuned_layout_key(p, tag, sizeof tag)))
        return;
    gb_capture_append(h->capture, &h->dev, p, NULL, 0);
}

/* Why nothing runs p here, in one line: the device's lack of double precision where p's
 * arithmetic needs it, else that no kernel of this build with p's precision runs on it. */
static int no_kernel(const gb_blas_t *h, const gb_problem_t *p)
{
    const char *name = gb_precision_name(p->precision), *title = gb_precision_title(p->precision);
    if (gb_precision_arith(p->precision) == GB_PREC_D && !h->dev.fp64)
        return gb_blas__fail(GB_ENOFP64,
                             "device '%s' has no double precision (cl_khr_fp64), which precision "
                             "%s (%s) needs; use %s or another device",
                             h->dev.name, name, title, p->precision == GB_PREC_Z ? "c" : "s");
    char tag[16];
    return gb_blas__fail(GB_ENOKERNEL,
                         "no kernel of this build runs precision %s (%s) %s %zux%zux%zu on "
                         "device '%s'",
                         name, title, gb_problem_layout_tag(p, tag, sizeof tag), p->m, p->n, p->k,
                         h->dev.name);
}

/* The line of a build's message that says what failed: the log's first line naming an error,
 * else the message's first line. */
static const char *first_error(const char *msg)
{
    const char *log = strstr(msg, "build log:");
    for (const char *l = log ? strchr(log, '\n') : NULL; l && *l; l = strchr(l, '\n')) {
        l++;
        const size_t len = strcspn(l, "\n");
        const char *e = strstr(l, "error");
        if (e && (size_t)(e - l) < len)
            return l;
    }
    return msg;
}

/* cfg checked against p and the device, named in out, and built into a plan (*plan, or let go). */
static int check_and_build(gb_blas_t *h, const gb_problem_t *p, const gb_config_t *cfg,
                           gb_blas_choice_t *out, gb_blas_plan_t **plan)
{
    char msg[1024];
    int rc = gb_config_check(cfg, &h->dev, p->precision, p, msg, sizeof msg);
    if (rc != GB_OK)
        return gb_blas__fail(rc, "kernel '%s': %s", gb_config_name(cfg), msg);
    if (cfg->family->images)
        return gb_blas__fail(GB_EUNSUPPORTED,
                             "kernel '%s' reads its operands as images, which the library does "
                             "not run",
                             gb_config_name(cfg));
    gb__copy(out->kernel, sizeof out->kernel, gb_config_name(cfg));
    gb_params_text(&cfg->params, out->params, sizeof out->params);
    gb_blas_plan_t *pl;
    if ((rc = gb_blas__plan_build(h, p, cfg, &pl)) != GB_OK)
        return rc;
    if (plan)
        *plan = pl;
    else
        gb_blas__plan_put(h, pl);
    return GB_OK;
}

int gb_blas__choose(gb_blas_t *h, const gb_problem_t *p, gb_config_t *cfg, gb_blas_choice_t *out,
                    gb_blas_plan_t **plan)
{
    char msg[1024];
    memset(out, 0, sizeof *out);
    /* A kernel set on the handle runs its own precisions and the complex ones its real ones
     * serve by the 1M method; it is the caller's word, so its failures are not passed over. */
    if (h->has_override &&
        (gb_precisions_1m(h->override.family->precisions) & (1u << p->precision))) {
        *cfg = h->override;
        gb__copy(out->why, sizeof out->why, "set on the handle");
        return check_and_build(h, p, cfg, out, plan);
    }
    /* The database's choice, and where it does not build or fit here (an entry made with
     * another driver, or moved over from another device of its family), the next candidate:
     * each one passed over is said before the why. The portfolio shrinks by one a turn. */
    char passed[480] = "";
    size_t used = 0;
    for (int first = 1;; first = 0) {
        gb_tuned_choice_t c;
        char note[256];
        int rc = gb_blas__select(h, p, &c, note, sizeof note);
        if (rc != GB_OK && passed[0])
            return gb_blas__fail(rc, "no candidate for this problem builds on device '%s': %s",
                                 h->dev.name, passed);
        if (rc != GB_OK)
            return rc == GB_ENOKERNEL ? no_kernel(h, p) : rc;
        if ((rc = gb_config_resolve(h->reg, c.kernel, &c.params, cfg, msg, sizeof msg)) != GB_OK)
            return gb_blas__fail(rc, "%s", msg);
        size_t wused = 0; /* as much as fits: what was passed over first */
        out->why[0] = '\0';
        gb__appendf(out->why, sizeof out->why, &wused, "%s%s%s%s", passed, note,
                    note[0] ? "; " : "", c.why);
        if (first)
            capture(h, p, &c);
        if ((rc = check_and_build(h, p, cfg, out, plan)) == GB_OK || !gb_blas__device_refuses(rc))
            return rc;
        /* out names it already (check_and_build). */
        const char *err = first_error(gb_blas_errmsg());
        const size_t line = strcspn(err, "\n");
        gb__appendf(passed, sizeof passed, &used, "%s%s%s did not %s here (%.*s); ", out->kernel,
                    out->params[0] ? " " : "", out->params, rc == GB_EBUILD ? "build" : "fit",
                    (int)(line < 120 ? line : 120), err);
        if ((rc = gb_blas__refuse(h, p, &c)) != GB_OK)
            return rc;
    }
}

size_t gb_blas__choice_text(const gb_blas_choice_t *c, char *buf, size_t len)
{
    const int n =
        snprintf(buf, len, "%s%s%s (%s)", c->kernel, c->params[0] ? " " : "", c->params, c->why);
    return n > 0 ? (size_t)n : 0;
}

/* The problem a key stands for, checked: the route depends only on whether C is read. */
static int key_problem(const gb_blas_plan_key_t *k, gb_problem_t *p)
{
    gb_problem_init(p, k->precision, k->m, k->n, k->k);
    p->layout = k->layout;
    p->trans_a = k->trans_a;
    p->trans_b = k->trans_b;
    p->beta = k->beta_zero ? 0.0 : 1.0;
    p->conj_a = k->conj_a;
    p->conj_b = k->conj_b;
    p->lda = k->lda;
    p->ldb = k->ldb;
    p->ldc = k->ldc;
    p->off_a = k->off_a;
    p->off_b = k->off_b;
    p->off_c = k->off_c;
    char msg[512];
    const int rc = gb_problem_check(p, msg, sizeof msg);
    return rc == GB_OK ? GB_OK : gb_blas__fail(rc, "%s", msg);
}

/* The plan of key's problem with the configuration the handle chooses for it. */
static int plan_make(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out)
{
    gb_problem_t p;
    gb_config_t cfg;
    gb_blas_choice_t c;
    int rc = key_problem(key, &p);
    if (rc == GB_OK && (rc = gb_blas__choose(h, &p, &cfg, &c, out)) == GB_OK)
        gb_blas__choice_text(&c, (*out)->chosen, sizeof(*out)->chosen);
    return rc;
}

int gb_blas__plan_get(gb_blas_t *h, const gb_blas_plan_key_t *key, gb_blas_plan_t **out)
{
    if (gb_blas__plan_find(h, key, out))
        return GB_OK;
    /* Made outside the lock (it may build for seconds); a thread that made the same plan
     * meanwhile wins, and this one goes. */
    gb_blas_plan_t *made;
    const int rc = plan_make(h, key, &made);
    if (rc == GB_OK)
        gb_blas__plan_keep(h, made, out);
    return rc;
}

int gb_blas__commands(gb_blas_t *h, const gb_problem_t *p, size_t *n)
{
    gb_blas_plan_key_t key;
    gb_blas_plan_t *pl;
    gb_blas__key(p, &key);
    const int rc = gb_blas__plan_get(h, &key, &pl);
    if (rc != GB_OK)
        return rc;
    *n = 1 + pl->route.ncopies;
    for (int s = 0; s < GB_NSIDES; s++)
        *n += pl->route.side_global[s][0] ? 1 : 0;
    gb_blas__plan_put(h, pl);
    return GB_OK;
}
