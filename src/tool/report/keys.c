/* keys.c: what makes a row and a series: the row key (the definition without its repetition
 * index), the series key (without the size and work-group size either), the settings that are
 * neither columns nor the size, and the variant that tells rows of one kernel apart; and the
 * devices the rows name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_int.h"

/* The device's index, added when new. */
int gb_report__device(gb_report_t *r, const gb_point_device_t *d, size_t *out)
{
    for (size_t i = 0; i < r->ndevs; i++) {
        const gb_report__dev_t *e = &r->devs[i];
        if (!strcmp(e->name, d->name) && !strcmp(e->vendor, d->vendor) &&
            !strcmp(e->platform, d->platform) && !strcmp(e->driver, d->driver)) {
            *out = i;
            return GB_OK;
        }
    }
    if (gb__grow(&r->devs, &r->devcap, r->ndevs + 1, sizeof *r->devs) != GB_OK)
        return GB_ENOMEM;
    gb_report__dev_t *e = &r->devs[r->ndevs];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", d->name);
    snprintf(e->vendor, sizeof e->vendor, "%s", d->vendor);
    snprintf(e->platform, sizeof e->platform, "%s", d->platform);
    snprintf(e->platform_version, sizeof e->platform_version, "%s", d->platform_version);
    snprintf(e->driver, sizeof e->driver, "%s", d->driver);
    snprintf(e->type, sizeof e->type, "%s", d->type);
    /* The name without trademark signs, cut short; the header gives the whole of it. A label
     * another device has already gets that device's number. */
    size_t n = 0;
    for (const char *p = d->name; *p && n < 24; p++) {
        if (!strncmp(p, "(R)", 3) || !strncmp(p, "(TM)", 4) || !strncmp(p, "(tm)", 4)) {
            p = strchr(p, ')');
            continue;
        }
        if (*p == ' ' && (n == 0 || e->label[n - 1] == ' '))
            continue;
        e->label[n++] = *p;
    }
    while (n && e->label[n - 1] == ' ')
        n--;
    e->label[n] = '\0';
    for (size_t i = 0; i < r->ndevs; i++)
        if (!strcmp(r->devs[i].label, e->label)) {
            snprintf(e->label + n, sizeof e->label - n, " #%zu", r->ndevs + 1);
            break;
        }
    *out = r->ndevs++;
    return GB_OK;
}

/* Appends text to a growing string; 0 when out of memory. */
static int append(char **s, size_t *len, size_t *cap, const char *text)
{
    return gb__append(s, len, cap, text, strlen(text)) == GB_OK;
}

/* The settings that are neither table columns nor the size: parameters, alpha and beta,
 * leading-dimension padding, offsets, inputs, warm-up and iterations, the source's hash. */
char *gb_report__settings(const gb_point_t *pt)
{
    char *s = NULL, line[256];
    size_t len = 0, cap = 0;
    int ok = append(&s, &len, &cap, "");
    for (size_t i = 0; ok && i < pt->params.count; i++) {
        snprintf(line, sizeof line, "%s=%ld\n", pt->params.name[i], pt->params.value[i]);
        ok = append(&s, &len, &cap, line);
    }
    gb_problem_t min = pt->problem;
    min.lda = min.ldb = min.ldc = 0;
    char dist[96];
    const char *hash = strchr(pt->source_hash, ':');
    hash = hash ? hash + 1 : pt->source_hash;
    if (gb_problem_check(&min, NULL, 0) != GB_OK)
        min = pt->problem;
    snprintf(line, sizeof line, "alpha=%.15g\nbeta=%.15g\n", pt->problem.alpha, pt->problem.beta);
    ok = ok && append(&s, &len, &cap, line);
    snprintf(line, sizeof line, "lda_pad=%zu\nldb_pad=%zu\nldc_pad=%zu\n",
             pt->problem.lda - min.lda, pt->problem.ldb - min.ldb, pt->problem.ldc - min.ldc);
    ok = ok && append(&s, &len, &cap, line);
    snprintf(line, sizeof line, "off_a=%zu\noff_b=%zu\noff_c=%zu\n", pt->problem.off_a,
             pt->problem.off_b, pt->problem.off_c);
    ok = ok && append(&s, &len, &cap, line);
    snprintf(line, sizeof line, "seed=%llu\ndist=%s\nwarmup=%d\niterations=%d\nsource=%.8s\n",
             (unsigned long long)pt->seed, gb_dist_format(&pt->dist, dist, sizeof dist), pt->warmup,
             pt->iterations, hash);
    ok = ok && append(&s, &len, &cap, line);
    if (!ok) {
        free(s);
        return NULL;
    }
    return s;
}

/* The series key: device, kernel, problem kind, timing and settings, without LX/LY. */
char *gb_report__series_key(const gb_point_t *pt, const char *settings)
{
    char *s = NULL, head[1024], tag[16];
    size_t len = 0, cap = 0;
    snprintf(head, sizeof head, "%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n%s\n", pt->device.name,
             pt->device.vendor, pt->device.platform, pt->device.driver, pt->kernel, pt->family,
             pt->preset, gb_precision_name(pt->problem.precision),
             gb_problem_layout_tag(&pt->problem, tag, sizeof tag), gb_timing_name(pt->timing));
    int ok = append(&s, &len, &cap, head);
    for (const char *l = settings; ok && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);
        if (strncmp(l, "LX=", 3) && strncmp(l, "LY=", 3)) {
            char line[256];
            snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), l);
            ok = append(&s, &len, &cap, line);
        }
        l += n;
    }
    if (!ok) {
        free(s);
        return NULL;
    }
    return s;
}

char *gb_report__plot_key(const char *skey)
{
    char *s = malloc(strlen(skey) + 1), *o = s;
    if (!s)
        return NULL;
    for (const char *l = skey; *l;) {
        const size_t n = strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n');
        if (strncmp(l, "warmup=", 7) && strncmp(l, "iterations=", 11)) {
            memcpy(o, l, n);
            o += n;
        }
        l += n;
    }
    *o = '\0';
    return s;
}

/* Every parameter as a JSON object, {"NAME":VALUE,...} (names are identifiers). */
char *gb_report__params_json(const gb_params_t *ps)
{
    char *s = NULL, item[GB_NAME_MAX + 32];
    size_t len = 0, cap = 0;
    int ok = append(&s, &len, &cap, "{");
    for (size_t i = 0; ok && i < ps->count; i++) {
        snprintf(item, sizeof item, "%s\"%s\":%ld", i ? "," : "", ps->name[i], ps->value[i]);
        ok = append(&s, &len, &cap, item);
    }
    if (!ok || !append(&s, &len, &cap, "}")) {
        free(s);
        return NULL;
    }
    return s;
}

/* The definition without its rep line: what the repetitions of one row share. */
char *gb_report__row_key(const gb_point_t *pt)
{
    char *def = NULL;
    if (gb_point_definition(pt, &def) != GB_OK)
        return NULL;
    char *rep = strstr(def, "\nrep=");
    if (rep) {
        char *end = strchr(rep + 1, '\n');
        memmove(rep + 1, end ? end + 1 : rep + strlen(rep), strlen(end ? end + 1 : "") + 1);
    }
    return def;
}

/* The value of setting key in a settings text into val; 0 when absent. */
static int setting(const char *settings, const char *key, size_t klen, char *val, size_t len)
{
    for (const char *l = settings; *l;) {
        const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
        if ((size_t)(end - l) > klen && l[klen] == '=' && !strncmp(l, key, klen)) {
            snprintf(val, len, "%.*s", (int)(end - l - (long)klen - 1), l + klen + 1);
            return 1;
        }
        l = nl ? nl + 1 : end;
    }
    return 0;
}

/* Does keys (text of "KEY\n" lines) hold this key? */
static int has_key(const char *keys, const char *key, size_t klen)
{
    for (const char *k = keys; *k;) {
        const char *nl = strchr(k, '\n');
        if ((size_t)(nl - k) == klen && !strncmp(k, key, klen))
            return 1;
        k = nl + 1;
    }
    return 0;
}

/* Adds to keys (text of "KEY\n" lines) every key of a whose value differs in b or is absent. */
static void diff_keys(const char *a, const char *b, char *keys, size_t len)
{
    char va[256], vb[256], key[128];
    for (const char *l = a; *l;) {
        const char *eq = strchr(l, '='), *nl = strchr(l, '\n');
        if (!eq || !nl || eq > nl)
            break;
        size_t klen = (size_t)(eq - l);
        if (klen + 2 > sizeof key) { /* names are short identifiers; a long one is skipped */
            l = nl + 1;
            continue;
        }
        setting(a, l, klen, va, sizeof va);
        if (!setting(b, l, klen, vb, sizeof vb) || strcmp(va, vb)) {
            snprintf(key, sizeof key, "%.*s\n", (int)klen, l);
            if (!has_key(keys, l, klen) && strlen(keys) + strlen(key) < len)
                strcat(keys, key);
        }
        l = nl + 1;
    }
}

/* For each kernel, the settings whose values differ between its rows become each row's
 * variant ("LX=16 LY=4"), so that rows that would otherwise read alike can be told apart. */
void gb_report__set_variants(gb_report_t *r)
{
    unsigned char *done = calloc(r->nrows ? r->nrows : 1, 1);
    char keys[2048];
    for (size_t i = 0; i < r->nrows; i++) {
        if (done && done[i])
            continue;
        keys[0] = '\0';
        for (size_t j = i; j < r->nrows; j++)
            if (!strcmp(r->rows[j].kernel, r->rows[i].kernel) &&
                strcmp(r->rows[j].settings, r->rows[i].settings)) {
                diff_keys(r->rows[i].settings, r->rows[j].settings, keys, sizeof keys);
                diff_keys(r->rows[j].settings, r->rows[i].settings, keys, sizeof keys);
            }
        for (size_t j = i; j < r->nrows; j++) {
            gb_report__row_t *row = &r->rows[j];
            if (strcmp(row->kernel, r->rows[i].kernel))
                continue;
            if (done)
                done[j] = 1;
            size_t len = 0;
            for (const char *k = keys; *k;) {
                const char *nl = strchr(k, '\n');
                char val[256];
                if (!setting(row->settings, k, (size_t)(nl - k), val, sizeof val))
                    snprintf(val, sizeof val, "-");
                if (len < sizeof row->variant)
                    len += (size_t)snprintf(row->variant + len, sizeof row->variant - len,
                                            "%s%.*s=%s", len ? " " : "", (int)(nl - k), k, val);
                k = nl + 1;
            }
            r->any_variant |= row->variant[0] != '\0';
        }
        if (!done)
            break; /* out of memory: the first kernel's variants only */
    }
    free(done);
}
