/* items.c: runs of their own (tuners.h's gb_tune_item_t, made by tune --refresh: refresh.c):
 * a layout tag made into a problem's layout, and an item as one line of text for another MPI
 * rank (tuners_mpi.c), which plans nothing itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "tuners.h"

int gb_tune_item_layout(gb_problem_t *p, const char *tag)
{
    /* Six characters, so that neither letter is the terminator strchr would find. */
    if (!tag || strlen(tag) != 6 || tag[3] != '-' || !strchr("NT", tag[4]) || !strchr("NT", tag[5]))
        return GB_EBADARG;
    if (!strncmp(tag, "row", 3))
        p->layout = GB_ROW_MAJOR;
    else if (!strncmp(tag, "col", 3))
        p->layout = GB_COL_MAJOR;
    else
        return GB_EBADARG;
    p->trans_a = tag[4] == 'T' ? GB_TRANS : GB_NOTRANS;
    p->trans_b = tag[5] == 'T' ? GB_TRANS : GB_NOTRANS;
    /* The key's T covers C (gb_tuned_layout_key): a conjugation is kept where its operand stays
     * transposed and the precision is complex, dropped elsewhere. */
    const int cplx = gb_precision_is_complex(p->precision);
    p->conj_a = cplx && p->trans_a == GB_TRANS && p->conj_a;
    p->conj_b = cplx && p->trans_b == GB_TRANS && p->conj_b;
    if (!cplx)
        p->alpha_im = p->beta_im = 0;
    return GB_OK;
}

/* The line: fields separated by tabs (no field holds one): kernel, precision, layout, M, N, K,
 * class, space, time left, device, driver, platform, then each seed as "NAME=V NAME=V" ("-":
 * a seed of the family's defaults). */
char *gb_tune_item_text(const gb_tune_item_t *it, double time_left)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "%s\t%s\t%s\t%zu\t%zu\t%zu\t%s\t%llu\t%.17g\t%s\t%s\t%s", it->kernel,
            gb_precision_name(it->precision), it->layout, it->m, it->n, it->k, it->shape_class,
            (unsigned long long)it->space, time_left, it->device, it->driver, it->platform);
    for (size_t i = 0; i < it->nseeds; i++) {
        char ps[2048];
        fprintf(f, "\t%s", it->seeds[i].count ? gb_params_text(&it->seeds[i], ps, sizeof ps) : "-");
    }
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* Field *at of text (tab-separated) into buf: GB_OK, or GB_EBADARG when it is missing or does
 * not fit. */
static int field(const char **at, char *buf, size_t len)
{
    if (!*at)
        return GB_EBADARG;
    const char *tab = strchr(*at, '\t');
    const size_t n = tab ? (size_t)(tab - *at) : strlen(*at);
    if (n >= len)
        return GB_EBADARG;
    memcpy(buf, *at, n);
    buf[n] = '\0';
    *at = tab ? tab + 1 : NULL;
    return GB_OK;
}

static int size_of(const char *s, size_t *out)
{
    char *end;
    const unsigned long long v = strtoull(s, &end, 10);
    *out = (size_t)v;
    return end != s && !*end && s[0] != '-' ? GB_OK : GB_EBADARG;
}

int gb_tune_item_parse(gb_tune_item_t *it, double *time_left, const char *text,
                       const gb_problem_t *base)
{
    memset(it, 0, sizeof *it);
    char prec[8], m[32], n[32], k[32], space[32], left[64], seed[1024], msg[128];
    const char *at = text;
    size_t sp = 0;
    if (field(&at, it->kernel, sizeof it->kernel) || field(&at, prec, sizeof prec) ||
        field(&at, it->layout, sizeof it->layout) || field(&at, m, sizeof m) ||
        field(&at, n, sizeof n) || field(&at, k, sizeof k) ||
        field(&at, it->shape_class, sizeof it->shape_class) || field(&at, space, sizeof space) ||
        field(&at, left, sizeof left) || field(&at, it->device, sizeof it->device) ||
        field(&at, it->driver, sizeof it->driver) ||
        field(&at, it->platform, sizeof it->platform) ||
        gb_precision_parse(prec, &it->precision) != GB_OK || size_of(m, &it->m) ||
        size_of(n, &it->n) || size_of(k, &it->k) || size_of(space, &sp))
        return GB_EBADARG;
    it->space = sp;
    char *end;
    *time_left = strtod(left, &end);
    if (end == left || *end)
        return GB_EBADARG;
    it->base = *base;
    if (gb_tune_item_layout(&it->base, it->layout) != GB_OK)
        return GB_EBADARG;
    while (at) {
        if (it->nseeds == GB_TUNE_SEEDS || field(&at, seed, sizeof seed))
            return GB_EBADARG;
        gb_params_t *ps = &it->seeds[it->nseeds++];
        char *save = NULL;
        for (char *t = strtok_r(seed, " ", &save); t && strcmp(t, "-");
             t = strtok_r(NULL, " ", &save))
            if (gb_params_parse(ps, t, msg, sizeof msg) != GB_OK)
                return GB_EBADARG;
    }
    return GB_OK;
}
