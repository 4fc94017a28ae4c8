/* entries.c: the tuning database's entries in memory: what an entry must be, collections of
 * them, and the merge that lets the user's own tuning override the shipped defaults. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "select.h"

int gb_select__is_name(const char *s)
{
    /* A parameter becomes -D NAME=V and is kept as "NAME=V NAME=V": an identifier. */
    static const char first[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";
    return s[0] && strchr(first, s[0]) &&
           strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789") ==
               strlen(s);
}

int gb_select__is_id(const char *s)
{
    return strlen(s) == GB_TUNED_ID_LEN && strspn(s, "0123456789abcdef") == GB_TUNED_ID_LEN;
}

const char *gb_tuned_layout_key(const gb_problem_t *p, char *buf, size_t len)
{
    /* A conjugation is applied as a kernel loads its operand and costs nothing apart: C shares
     * T's entry (the problem's own tag would say C). */
    snprintf(buf, len, "%s-%c%c", p->layout == GB_ROW_MAJOR ? "row" : "col",
             p->trans_a == GB_TRANS ? 'T' : 'N', p->trans_b == GB_TRANS ? 'T' : 'N');
    return buf;
}

int gb_select__layout_ok(const char *s)
{
    return strlen(s) == 6 && (!strncmp(s, "row-", 4) || !strncmp(s, "col-", 4)) &&
           strchr("NT", s[4]) && strchr("NT", s[5]);
}

int gb_select__type_ok(const char *s)
{
    /* gb_device_info_t.type_name's values, or unknown */
    return !s[0] || !strcmp(s, "gpu") || !strcmp(s, "cpu") || !strcmp(s, "accelerator") ||
           !strcmp(s, "other");
}

const char *gb_tuned_objective(const gb_tuned_entry_t *e)
{
    return e->objective[0] ? e->objective : GB_OBJECTIVE_TIME;
}

int gb_tuned_objective_ok(const char *s)
{
    return !strcmp(s, GB_OBJECTIVE_TIME) || !strcmp(s, GB_OBJECTIVE_ENERGY) ||
           !strcmp(s, GB_OBJECTIVE_EDP);
}

const char *gb_tuned_entry_fault(const gb_tuned_entry_t *e, char *buf, size_t len)
{
    /* Every text field, checked where it is kept: a value filling its array (no NUL within it)
     * is refused before it is read as a string. */
    const struct {
        const char *name, *value;
        size_t size;
    } texts[] = {{"device", e->device, sizeof e->device},
                 {"platform", e->platform, sizeof e->platform},
                 {"driver", e->driver, sizeof e->driver},
                 {"vendor", e->vendor, sizeof e->vendor},
                 {"type", e->type, sizeof e->type},
                 {"family", e->family, sizeof e->family},
                 {"layout", e->layout, sizeof e->layout},
                 {"shape_class", e->shape_class, sizeof e->shape_class},
                 {"kernel", e->kernel, sizeof e->kernel},
                 {"tuned_at", e->tuned_at, sizeof e->tuned_at},
                 {"objective", e->objective, sizeof e->objective}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (!memchr(texts[i].value, '\0', texts[i].size)) {
            snprintf(buf, len, "bad %s (longer than %zu bytes)", texts[i].name, texts[i].size - 1);
            return buf;
        }
        if (!gb__text_ok(texts[i].value)) {
            snprintf(buf, len,
                     "bad %s (a control character or invalid UTF-8; it must be printable text)",
                     texts[i].name);
            return buf;
        }
    }
    char cls[32];
    const size_t most = (size_t)1 << 30;
    if (!e->device[0])
        return "bad device (empty)";
    if (!gb_select__type_ok(e->type))
        return "bad type (gpu, cpu, accelerator, other, or empty for unknown)";
    if ((unsigned)e->precision >= GB_PREC_COUNT)
        return "bad precision (" GB_PREC_NAMES ")";
    if (!gb_select__layout_ok(e->layout))
        return "bad layout (row-NN, row-NT, ..., col-TT)";
    if (!e->shape_class[0])
        return "bad shape_class (empty)";
    if (!e->m || !e->n || !e->k || e->m > most || e->n > most || e->k > most)
        return "bad m, n, k (each from 1 to 2^30)";
    /* The class is the shape's: the key names the shapes the entry is for. */
    if (strcmp(e->shape_class, gb_shape_class(e->m, e->n, e->k, cls, sizeof cls))) {
        snprintf(buf, len, "bad shape_class '%s' (the shape %zux%zux%zu is of class %s)",
                 e->shape_class, e->m, e->n, e->k, cls);
        return buf;
    }
    if (!e->kernel[0])
        return "bad kernel (empty)";
    if (!(e->gflops >= 0) || !isfinite(e->gflops))
        return "bad gflops (a finite number, 0 or more)";
    if (e->objective[0] && !gb_tuned_objective_ok(e->objective))
        return "bad objective (time, energy or edp)";
    if (!(e->joules >= 0) || !isfinite(e->joules))
        return "bad joules (a finite number, 0 or more; 0: not measured)";
    if (e->nevidence > GB_TUNED_EVIDENCE)
        return "bad nevidence (at most GB_TUNED_EVIDENCE)";
    if (e->params.count > GB_MAX_PARAMS)
        return "bad params (at most GB_MAX_PARAMS)";
    for (size_t i = 0; i < e->nevidence; i++)
        if (!memchr(e->evidence[i], '\0', sizeof e->evidence[i]) ||
            !gb_select__is_id(e->evidence[i]))
            return "bad evidence (point ids of 16 hex digits)";
    for (size_t i = 0; i < e->params.count; i++) {
        if (!memchr(e->params.name[i], '\0', sizeof e->params.name[i]) ||
            !gb_select__is_name(e->params.name[i]))
            return "bad params (names of letters, digits and _, not starting with a digit)";
        for (size_t j = 0; j < i; j++)
            if (!strcmp(e->params.name[i], e->params.name[j]))
                return "bad params (a name given twice)";
    }
    return NULL;
}

int gb_tuned_entry_check(const gb_tuned_entry_t *e, char *msg, size_t msglen)
{
    char buf[256];
    const char *bad = gb_tuned_entry_fault(e, buf, sizeof buf);
    if (!bad)
        return GB_OK;
    /* The key as it may be printed: a device name may be what is wrong. */
    char dev[160], layout[40], cls[80];
    gb__printable(memchr(e->device, '\0', sizeof e->device) ? e->device : "(too long)", dev,
                  sizeof dev);
    gb__printable(memchr(e->layout, '\0', sizeof e->layout) ? e->layout : "?", layout,
                  sizeof layout);
    gb__printable(memchr(e->shape_class, '\0', sizeof e->shape_class) ? e->shape_class : "?", cls,
                  sizeof cls);
    return gb__fail(msg, msglen, GB_EBADARG, "tuned entry for '%s' (%s, %s, %s): %s", dev,
                    (unsigned)e->precision < GB_PREC_COUNT ? gb_precision_name(e->precision) : "?",
                    layout, cls, bad);
}

int gb_tuned_same_key(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    return !strcmp(a->device, b->device) && !strcmp(a->platform, b->platform) &&
           !strcmp(a->driver, b->driver) && a->precision == b->precision &&
           !strcmp(a->layout, b->layout) && !strcmp(a->shape_class, b->shape_class) &&
           !strcmp(gb_tuned_objective(a), gb_tuned_objective(b));
}

void gb_tuned_init(gb_tuned_t *t)
{
    memset(t, 0, sizeof *t);
}

void gb_tuned_free(gb_tuned_t *t)
{
    if (!t)
        return;
    free(t->e);
    memset(t, 0, sizeof *t);
}

int gb_tuned_add(gb_tuned_t *t, const gb_tuned_entry_t *e)
{
    if (gb__grow(&t->e, &t->cap, t->n + 1, sizeof *t->e) != GB_OK)
        return GB_ENOMEM;
    t->e[t->n++] = *e;
    return GB_OK;
}

/* The user's entries (the store's, a tuning file's) over the shipped ones. */
static int rank(const gb_tuned_entry_t *e)
{
    return !strcmp(e->source, "store") || !strcmp(e->source, "file") ? 2
           : !strcmp(e->source, "shipped")                           ? 1
                                                                     : 0;
}

int gb_tuned_merge(gb_tuned_t *t, const gb_tuned_entry_t *e)
{
    for (size_t i = 0; i < t->n; i++) {
        if (!gb_tuned_same_key(&t->e[i], e))
            continue;
        t->overridden++;
        if (rank(e) >= rank(&t->e[i]))
            t->e[i] = *e;
        return GB_OK;
    }
    return gb_tuned_add(t, e);
}

/* ---- merging many ---------------------------------------------------------------------------- */

/* A key's hash: its seven fields, each ended by a NUL. */
static uint64_t key_hash(const gb_tuned_entry_t *e)
{
    const char prec = (char)('0' + (int)e->precision);
    const char *const f[] = {e->device, e->platform,    e->driver,
                             e->layout, e->shape_class, gb_tuned_objective(e)};
    uint64_t h = gb__fnv1a64(&prec, 1, 14695981039346656037ull);
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        h = gb__fnv1a64(f[i], strlen(f[i]) + 1, h);
    return h;
}

/* An open-addressing table of positions in t->e by key (power-of-two size, SIZE_MAX empty). */
typedef struct key_index {
    size_t *slot, mask;
} key_index_t;

/* The slot of e's key: the one holding it, or the empty one where it would go. */
static size_t *key_slot(const key_index_t *x, const gb_tuned_t *t, const gb_tuned_entry_t *e)
{
    for (size_t i = (size_t)key_hash(e) & x->mask;; i = (i + 1) & x->mask)
        if (x->slot[i] == SIZE_MAX || gb_tuned_same_key(&t->e[x->slot[i]], e))
            return &x->slot[i];
}

int gb_tuned_merge_all(gb_tuned_t *t, const gb_tuned_entry_t *e, size_t n)
{
    if (n < 8) { /* a few: the index costs more than it saves */
        int rc = GB_OK;
        for (size_t i = 0; rc == GB_OK && i < n; i++)
            rc = gb_tuned_merge(t, &e[i]);
        return rc;
    }
    key_index_t x;
    size_t size = 16;
    while (size < 2 * (t->n + n))
        size *= 2;
    if (!(x.slot = malloc(size * sizeof *x.slot)))
        return GB_ENOMEM;
    memset(x.slot, 0xff, size * sizeof *x.slot);
    x.mask = size - 1;
    for (size_t i = 0; i < t->n; i++) {
        size_t *at = key_slot(&x, t, &t->e[i]);
        if (*at == SIZE_MAX) /* a key held twice already: the first is the one merge finds */
            *at = i;
    }
    int rc = GB_OK;
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        size_t *at = key_slot(&x, t, &e[i]);
        if (*at == SIZE_MAX) {
            if ((rc = gb_tuned_add(t, &e[i])) == GB_OK)
                *at = t->n - 1;
            continue;
        }
        t->overridden++;
        if (rank(&e[i]) >= rank(&t->e[*at]))
            t->e[*at] = e[i];
    }
    free(x.slot);
    return rc;
}
