/* entries.c: the tuning database's entries in memory: what an entry must be, collections of
 * them, and the merge that lets the user's own tuning override the shipped defaults. */
#include <math.h>
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

int gb_select__layout_ok(const char *s)
{
    return strlen(s) == 6 && (!strncmp(s, "row-", 4) || !strncmp(s, "col-", 4)) &&
           strchr("NT", s[4]) && strchr("NT", s[5]);
}

int gb_tuned_entry_check(const gb_tuned_entry_t *e, char *msg, size_t msglen)
{
    const char *bad = NULL;
    if (!e->device[0])
        bad = "device (empty)";
    else if ((unsigned)e->precision > GB_PREC_D)
        bad = "precision";
    else if (!gb_select__layout_ok(e->layout))
        bad = "layout (row-NN, row-NT, ..., col-TT)";
    else if (!e->shape_class[0])
        bad = "shape_class (empty)";
    else if (!e->m || !e->n || !e->k)
        bad = "m, n, k (each 1 or more)";
    else if (!e->kernel[0])
        bad = "kernel (empty)";
    else if (!(e->gflops >= 0) || !isfinite(e->gflops))
        bad = "gflops (a finite number, 0 or more)";
    else if (e->nevidence > GB_TUNED_EVIDENCE)
        bad = "nevidence (at most GB_TUNED_EVIDENCE)";
    for (size_t i = 0; !bad && i < e->nevidence; i++)
        if (!gb_select__is_id(e->evidence[i]))
            bad = "evidence (point ids of 16 hex digits)";
    for (size_t i = 0; !bad && i < e->params.count && i < GB_MAX_PARAMS; i++)
        if (!gb_select__is_name(e->params.name[i]))
            bad = "params (names of letters, digits and _, not starting with a digit)";
    if (bad)
        return gb__fail(msg, msglen, GB_EBADARG, "tuned entry for '%s' (%s, %s, %s): bad %s",
                        e->device, gb_precision_name(e->precision), e->layout, e->shape_class, bad);
    return GB_OK;
}

int gb_tuned_same_key(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    return !strcmp(a->device, b->device) && !strcmp(a->platform, b->platform) &&
           !strcmp(a->driver, b->driver) && a->precision == b->precision &&
           !strcmp(a->layout, b->layout) && !strcmp(a->shape_class, b->shape_class);
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
