/* refresh.c: tune --refresh's plan (refresh.h): the classes each device uses, the shape and the
 * kernel families to tune each at, and each run's seeds. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "refresh.h"

int gb_refresh_entries(gb_tuned_t *db, gb_store_t *st, const gb_registry_t *reg, char *warn,
                       size_t warnlen, char *msg, size_t msglen)
{
    warn[0] = '\0';
    int rc = gb_tuned_load_shipped(db);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "out of memory");
    char path[1100];
    size_t read = 0, skipped = 0;
    if (gb_tuned_file_default(path, sizeof path) &&
        (rc = gb_tuned_file_read(db, path, reg, "file", &read, &skipped, warn, warnlen, msg,
                                 msglen)) != GB_OK)
        return rc;
    return st ? gb_tuned_load_store(db, st, msg, msglen) : GB_OK;
}

/* " in FP16 precision" into buf where mask holds one precision, else "". */
static const char *only_precision(unsigned mask, char *buf, size_t len)
{
    buf[0] = '\0';
    for (int p = 0; p < GB_PREC_COUNT; p++)
        if (mask == 1u << p)
            snprintf(buf, len, " in %s precision", gb_precision_title((gb_precision_t)p));
    return buf;
}

/* ---- classes ---------------------------------------------------------------------------------- */

/* A class: precision, layout and shape class. */
typedef struct klass {
    gb_precision_t prec;
    char layout[8];
    char name[32];
} klass_t;

static int in_class(const klass_t *c, const gb_tuned_entry_t *e)
{
    return e->precision == c->prec && !strcmp(e->layout, c->layout) &&
           !strcmp(e->shape_class, c->name);
}

/* Classes in order: precision, layout, the shape class's kind, then its size. */
static int by_class(const void *a, const void *b)
{
    const klass_t *x = a, *y = b;
    if (x->prec != y->prec)
        return x->prec < y->prec ? -1 : 1;
    int d = strcmp(x->layout, y->layout);
    if (d)
        return d;
    const char *dx = strrchr(x->name, '-'), *dy = strrchr(y->name, '-');
    const size_t lx = dx ? (size_t)(dx - x->name) : strlen(x->name);
    const size_t ly = dy ? (size_t)(dy - y->name) : strlen(y->name);
    if ((d = strncmp(x->name, y->name, lx < ly ? lx : ly)) || lx != ly)
        return d ? d : lx < ly ? -1 : 1;
    const long sx = dx ? atol(dx + 1) : 0, sy = dy ? atol(dy + 1) : 0;
    return sx < sy ? -1 : sx > sy;
}

static const char *class_text(const klass_t *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s/%s", gb_precision_name(c->prec), c->layout, c->name);
    return buf;
}

/* ---- the plan --------------------------------------------------------------------------------- */

#define MAX_TOKENS 64

/* What planning works with. */
typedef struct plan {
    gb_tune_runs_t *runs;
    const gb_tuned_t *db;
    const gb_registry_t *reg;
    const gb_refresh_opts_t *o;
    char *tokens[MAX_TOKENS]; /* --classes, split (in one copy: tokens[0]) */
    int matched[MAX_TOKENS];
    size_t ntokens;
    klass_t *seen; /* every class of every device, for the message of an unknown one */
    size_t nseen, capseen;
    size_t entries; /* entries of the devices' classes met */
    char *msg;
    size_t msglen;
} plan_t;

/* Entry e's place for dev: 0 its own, 1 its family's, -1 neither. */
static int tier_of(const gb_tuned_entry_t *e, const gb_device_info_t *dev)
{
    if (!strcmp(e->device, dev->name) && !strcmp(e->platform, dev->platform_name))
        return 0;
    return e->family[0] && !strcmp(e->family, dev->family) ? 1 : -1;
}

static void note(const plan_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const plan_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gb__vnotify(p->o->note, p->o->user, fmt, ap);
    va_end(ap);
}

/* Whether --classes takes class c (every class when not given), marking the tokens that do. */
static int asked(plan_t *p, const klass_t *c)
{
    if (!p->ntokens)
        return 1;
    int any = 0;
    char full[64];
    class_text(c, full, sizeof full);
    for (size_t i = 0; i < p->ntokens; i++)
        if (!strcmp(p->tokens[i], strchr(p->tokens[i], '/') ? full : c->name))
            any = p->matched[i] = 1;
    return any;
}

/* The family of an entry's kernel (a family or a preset), NULL when reg has no such kernel. */
static const gb_family_t *family_of(const plan_t *p, const gb_tuned_entry_t *e)
{
    const gb_family_t *f;
    const gb_preset_t *ps;
    return gb_registry_find(p->reg, e->kernel, &f, &ps) == GB_OK ? f : NULL;
}

/* The shape to tune class c at on dev: this device's entry's (on its driver where it has one),
 * else that of the family entry nearest to the others (the first of those as near). */
static const gb_tuned_entry_t *shape_of(const plan_t *p, const gb_device_info_t *dev,
                                        const size_t *rel, size_t nrel, const klass_t *c)
{
    const gb_tuned_entry_t *at = NULL;
    for (size_t i = 0; i < nrel; i++) {
        const gb_tuned_entry_t *e = &p->db->e[rel[i]];
        if (in_class(c, e) && !tier_of(e, dev) &&
            (!at || (strcmp(at->driver, dev->driver) && !strcmp(e->driver, dev->driver))))
            at = e;
    }
    double best = 0;
    for (size_t i = 0; i < nrel && !at; i++) {
        const gb_tuned_entry_t *e = &p->db->e[rel[i]];
        if (!in_class(c, e))
            continue;
        double sum = 0;
        const size_t a[3] = {e->m, e->n, e->k};
        for (size_t j = 0; j < nrel; j++) {
            const gb_tuned_entry_t *o = &p->db->e[rel[j]];
            const size_t b[3] = {o->m, o->n, o->k};
            sum += in_class(c, o) ? gb_shape_distance(a, b) : 0;
        }
        if (!at || sum < best) {
            at = e;
            best = sum;
        }
    }
    return at;
}

/* A seed's candidate: an entry of the run's family, how near it is, its configuration. */
typedef struct seed {
    double key;
    size_t i;
    gb_params_t ps;
} seed_t;

static int by_key(const void *a, const void *b)
{
    const seed_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The seeds of item it (family f): the configurations of the entries of f among rel (this
 * device's and its family's, every class), those of its precision first, then of its layout,
 * then the nearest in shape (this device's before its family's), each once, at most
 * GB_TUNE_SEEDS. GB_OK or GB_ENOMEM. */
static int seeds_of(const plan_t *p, const gb_device_info_t *dev, const gb_family_t *f,
                    const size_t *rel, size_t nrel, gb_tune_item_t *it)
{
    seed_t *s = calloc(nrel ? nrel : 1, sizeof *s);
    if (!s)
        return GB_ENOMEM;
    size_t n = 0;
    const size_t shape[3] = {it->m, it->n, it->k};
    for (size_t i = 0; i < nrel; i++) {
        const gb_tuned_entry_t *e = &p->db->e[rel[i]];
        gb_config_t cfg;
        if (family_of(p, e) != f ||
            gb_config_resolve(p->reg, e->kernel, &e->params, &cfg, NULL, 0) != GB_OK)
            continue;
        const size_t at[3] = {e->m, e->n, e->k};
        s[n].key = 1000.0 * (e->precision != it->precision) +
                   100.0 * (strcmp(e->layout, it->layout) != 0) + gb_shape_distance(at, shape) +
                   0.001 * tier_of(e, dev);
        s[n].i = i;
        s[n++].ps = cfg.params;
    }
    qsort(s, n, sizeof *s, by_key);
    for (size_t i = 0; i < n && it->nseeds < GB_TUNE_SEEDS; i++) {
        int dup = 0;
        for (size_t j = 0; j < it->nseeds && !dup; j++)
            dup = gb_params_equal(&it->seeds[j], &s[i].ps);
        if (!dup)
            it->seeds[it->nseeds++] = s[i].ps;
    }
    free(s);
    return GB_OK;
}

/* The runs of class c on dev: one per kernel family of its entries (this device's first), each
 * that can be tuned there. GB_OK or GB_ENOMEM. */
static int plan_class(plan_t *p, const gb_device_info_t *dev, const size_t *rel, size_t nrel,
                      const klass_t *c)
{
    const gb_tuned_entry_t *at = shape_of(p, dev, rel, nrel, c);
    const gb_family_t *done[64];
    size_t ndone = 0;
    char ctext[64];
    class_text(c, ctext, sizeof ctext);
    for (int tier = 0; tier < 2; tier++)
        for (size_t i = 0; i < nrel; i++) {
            const gb_tuned_entry_t *e = &p->db->e[rel[i]];
            if (!in_class(c, e) || tier_of(e, dev) != tier)
                continue;
            const gb_family_t *f = family_of(p, e);
            int seen = 0;
            for (size_t j = 0; j < ndone && !seen; j++)
                seen = done[j] == f;
            if (seen || ndone == sizeof done / sizeof done[0])
                continue;
            if (!f) {
                note(p, "%s on %s: skipping the entry of %s: no kernel '%s' here", ctext, dev->name,
                     e->device, e->kernel);
                continue;
            }
            done[ndone++] = f;
            gb_tune_item_t it;
            memset(&it, 0, sizeof it);
            gb__copy(it.kernel, sizeof it.kernel, gb_family_name(f));
            it.precision = c->prec;
            gb__copy(it.layout, sizeof it.layout, c->layout);
            it.base = *p->o->base;
            it.base.precision = c->prec;
            if (gb_tune_item_layout(&it.base, c->layout) != GB_OK)
                continue; /* an entry's layout is checked when read */
            it.m = at->m;
            it.n = at->n;
            it.k = at->k;
            gb__copy(it.shape_class, sizeof it.shape_class, c->name);
            gb__copy(it.device, sizeof it.device, dev->name);
            gb__copy(it.driver, sizeof it.driver, dev->driver);
            gb__copy(it.platform, sizeof it.platform, dev->platform_name);
            gb_tune_spec_t spec = {.kernel = it.kernel, .precision = c->prec};
            gb_space_t *sp;
            char why[1024];
            const int rc = gb_tune_space(&spec, p->reg, dev, NULL, &sp, why, sizeof why);
            if (rc == GB_ENOMEM)
                return rc;
            if (rc != GB_OK) {
                note(p, "%s on %s: skipping %s: %s", ctext, dev->name, it.kernel, why);
                continue;
            }
            it.space = gb_space_count(sp);
            gb_space_close(sp);
            if (seeds_of(p, dev, f, rel, nrel, &it) != GB_OK ||
                gb_tune_runs_add(p->runs, &it) != GB_OK)
                return GB_ENOMEM;
        }
    return GB_OK;
}

/* The runs of dev: its classes (the entries of it and its family, in the precisions asked;
 * with user_only, those of the user's entries), each asked for planned. GB_OK or GB_ENOMEM. */
static int plan_device(plan_t *p, const gb_device_info_t *dev)
{
    const gb_tuned_t *db = p->db;
    const unsigned mask = p->o->precisions;
    size_t *rel = calloc(db->n ? db->n : 1, sizeof *rel), nrel = 0;
    klass_t *cl = calloc(db->n ? db->n : 1, sizeof *cl);
    size_t ncl = 0;
    int rc = rel && cl ? GB_OK : GB_ENOMEM;
    for (size_t i = 0; i < db->n && rc == GB_OK; i++) {
        const gb_tuned_entry_t *e = &db->e[i];
        if (tier_of(e, dev) < 0 || (mask && !(mask & (1u << e->precision))))
            continue;
        rel[nrel++] = i;
        if (p->o->user_only && !strcmp(e->source, "shipped"))
            continue;
        int have = 0;
        for (size_t j = 0; j < ncl && !have; j++)
            have = in_class(&cl[j], e);
        if (!have) {
            cl[ncl].prec = e->precision;
            gb__copy(cl[ncl].layout, sizeof cl[ncl].layout, e->layout);
            gb__copy(cl[ncl].name, sizeof cl[ncl].name, e->shape_class);
            ncl++;
        }
        p->entries++;
    }
    if (rc == GB_OK)
        qsort(cl, ncl, sizeof *cl, by_class);
    for (size_t j = 0; j < ncl && rc == GB_OK; j++) {
        int have = 0;
        for (size_t k = 0; k < p->nseen && !have; k++)
            have = !by_class(&p->seen[k], &cl[j]);
        if (!have && gb__grow(&p->seen, &p->capseen, p->nseen + 1, sizeof *p->seen) != GB_OK)
            rc = GB_ENOMEM;
        else if (!have)
            p->seen[p->nseen++] = cl[j];
        if (rc == GB_OK && asked(p, &cl[j]))
            rc = plan_class(p, dev, rel, nrel, &cl[j]);
    }
    free(rel);
    free(cl);
    return rc;
}

/* --classes split into p->tokens: GB_OK, GB_EBADARG (an empty or too many), GB_ENOMEM. */
static int split_classes(plan_t *p)
{
    if (!p->o->classes)
        return GB_OK;
    char *copy = gb__strdup(p->o->classes);
    if (!copy)
        return gb__fail(p->msg, p->msglen, GB_ENOMEM, "out of memory");
    p->tokens[0] = copy;
    for (char *at = copy;; at++) {
        if (p->ntokens == MAX_TOKENS)
            return gb__fail(p->msg, p->msglen, GB_EBADARG,
                            "--classes: more than %d classes; refresh them in turns", MAX_TOKENS);
        p->tokens[p->ntokens++] = at;
        char *comma = strchr(at, ',');
        if (comma)
            *comma = '\0';
        if (!*at)
            return gb__fail(p->msg, p->msglen, GB_EBADARG,
                            "--classes '%s' has an empty class; give CLASS or "
                            "PRECISION/LAYOUT/CLASS, comma-separated",
                            p->o->classes);
        if (!comma)
            return GB_OK;
        at = comma;
    }
}

/* The classes the devices use, into msg after its text so far. */
static void list_seen(const plan_t *p)
{
    size_t used = strlen(p->msg);
    char c[64];
    for (size_t i = 0; i < p->nseen; i++)
        gb__appendf(p->msg, p->msglen, &used, "%s%s", i ? ", " : "",
                    class_text(&p->seen[i], c, sizeof c));
}

int gb_refresh_plan(gb_tune_runs_t *runs, const gb_tuned_t *db, const gb_registry_t *reg,
                    const gb_device_info_t *const *devs, size_t ndevs, const gb_refresh_opts_t *o,
                    char *msg, size_t msglen)
{
    plan_t p = {.runs = runs, .db = db, .reg = reg, .o = o, .msg = msg, .msglen = msglen};
    msg[0] = '\0';
    runs->refresh = 1;
    int rc = split_classes(&p);
    for (size_t i = 0; i < ndevs && rc == GB_OK; i++) {
        int again = 0; /* devices of one kind share their runs */
        for (size_t j = 0; j < i && !again; j++)
            again = !strcmp(devs[j]->name, devs[i]->name) &&
                    !strcmp(devs[j]->driver, devs[i]->driver) &&
                    !strcmp(devs[j]->platform_name, devs[i]->platform_name);
        if (!again && (rc = plan_device(&p, devs[i])) != GB_OK)
            gb__fail(msg, msglen, rc, "out of memory");
    }
    for (size_t i = 0; i < p.ntokens && rc == GB_OK; i++)
        if (!p.matched[i]) {
            rc = gb__fail(msg, msglen, GB_EBADARG, "--classes: no class '%s' to refresh%s%s",
                          p.tokens[i], p.nseen ? "; the classes here: " : "",
                          p.nseen ? "" : " (the devices use none)");
            list_seen(&p);
        }
    const gb_device_info_t *d = devs[0];
    char one[48];
    if (rc == GB_OK && !p.entries)
        rc = gb__fail(msg, msglen, GB_ENOPOINT,
                      "nothing to refresh: no tuned entry of '%s' or of its family %s%s%s%s; "
                      "'gemmbench tune -k FAMILY -n SIZE' makes one",
                      d->name, d->family[0] ? d->family : "(unknown)",
                      only_precision(o->precisions, one, sizeof one),
                      o->user_only ? " among the user's (--no-shipped)" : "",
                      ndevs > 1 ? " nor of the other devices" : "");
    else if (rc == GB_OK && !runs->nitems)
        rc = gb__fail(msg, msglen, GB_ENOPOINT,
                      "nothing to refresh: no kernel of the classes asked can be tuned on '%s'",
                      d->name);
    free(p.tokens[0]);
    free(p.seen);
    return rc;
}
