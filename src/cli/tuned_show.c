/* tuned_show.c: `gemmbench tuned show N|KEY` (cmd_tuned.c parses it): one entry of the tuning
 * database in full, the tuning run that chose it where the store recorded one, and its evidence
 * points as stored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tool/store/tuning.h"
#include "tool/tune/tuned.h"
#include "cli.h"

static int contains_nocase(const char *hay, const char *needle)
{
    for (size_t n = strlen(needle); *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return !*needle;
}

/* The index in t of the entry N or KEY names; the exit code after an error otherwise. */
static int find_entry(const gb_tuned_t *t, const char *arg, const char *store, size_t *at)
{
    if (arg[0] && arg[strspn(arg, "0123456789")] == '\0') {
        const unsigned long n = strtoul(arg, NULL, 10);
        if (n < 1 || n > t->n)
            return cli_error(GB_ENOPOINT,
                             "no tuned entry number %s: store %s holds %zu; 'gemmbench tuned "
                             "list' numbers them",
                             arg, store, t->n);
        *at = n - 1;
        return 0;
    }
    char key[512], *part[3];
    snprintf(key, sizeof key, "%s", arg);
    for (int i = 2; i >= 0; i--) {
        char *slash = strrchr(key, '/');
        if (!slash && i > 0)
            return cli_error(GB_EBADARG,
                             "bad entry key '%s'; give a number from 'gemmbench tuned list' or "
                             "[DEVICE/]PRECISION/LAYOUT/CLASS, e.g. s/row-NN/square-4096",
                             arg);
        part[i] = slash ? slash + 1 : key;
        if (slash)
            *slash = '\0';
    }
    const char *device = part[0] == key ? "" : key;
    gb_precision_t prec;
    if (gb_precision_parse(part[0], &prec) != GB_OK)
        return cli_error(GB_EBADARG, "bad precision '%s' in entry key '%s'; use " GB_PREC_NAMES,
                         part[0], arg);
    size_t found = 0;
    for (size_t i = 0; i < t->n; i++) {
        const gb_tuned_entry_t *e = &t->e[i];
        if (e->precision == prec && !strcmp(e->layout, part[1]) &&
            !strcmp(e->shape_class, part[2]) && contains_nocase(e->device, device) && !found++)
            *at = i;
    }
    if (found == 1)
        return 0;
    if (!found)
        return cli_error(GB_ENOPOINT,
                         "no tuned entry in store %s matches '%s'; 'gemmbench tuned list' shows "
                         "them",
                         store, arg);
    return cli_error(GB_EBADARG,
                     "'%s' matches %zu tuned entries (of several devices or drivers); give the "
                     "number from 'gemmbench tuned list'",
                     arg, found);
}

/* One evidence point: its rate with the 95% interval of the mean time turned into GFLOP/s. */
static void show_point(gb_store_t *st, const char *id)
{
    gb_point_t pt;
    gb_point_init(&pt);
    if (gb_store_exists(st, id) != 1 || gb_store_get(st, id, &pt) != GB_OK) {
        printf("  %-16s  not in this store (measured elsewhere, or the entry was imported "
               "without its points)\n",
               id);
        return;
    }
    const gb_problem_t *p = &pt.problem;
    const gb_stats_t *s = &pt.result.time_ms[gb_timing_phase(pt.timing)];
    const double flop = gb_problem_flops(p);
    char ci[64] = "-", verdict[256], tag[16];
    if (s->ci95_lo > 0 && s->ci95_hi > 0)
        snprintf(ci, sizeof ci, "%.4g-%.4g", flop / s->ci95_hi / 1e6, flop / s->ci95_lo / 1e6);
    cli_verdict_text(&pt.result.validation, 0, verdict, sizeof verdict);
    printf("  %-16s  %9.1f  %-19s  %-18s  %s %s %zux%zux%zu %s timing\n", pt.id, pt.result.gflops,
           ci, verdict, pt.kernel, gb_problem_layout_tag(p, tag, sizeof tag), p->m, p->n, p->k,
           gb_timing_name(pt.timing));
    gb_point_free(&pt);
}

/* The run that chose an entry: the latest of its key whose winner is one of its evidence. */
typedef struct chooser {
    const gb_tuned_entry_t *e;
    gb_tune_run_t run;
    int found;
    size_t of_key; /* runs of the entry's key */
} chooser_t;

static int find_chooser(const gb_tune_run_t *run, void *user)
{
    chooser_t *c = user;
    const gb_tuned_entry_t *e = c->e;
    if (strcmp(run->device, e->device) || strcmp(run->platform, e->platform) ||
        strcmp(run->driver, e->driver) || run->precision != e->precision ||
        strcmp(run->layout, e->layout) || strcmp(run->shape_class, e->shape_class))
        return GB_OK;
    c->of_key++;
    for (size_t i = 0; run->winner[0] && i < e->nevidence; i++)
        if (!strcmp(run->winner, e->evidence[i])) {
            c->run = *run; /* runs come oldest first: the last kept is the latest */
            c->found = 1;
        }
    return GB_OK;
}

static void show_chooser(const chooser_t *c)
{
    const gb_tune_run_t *r = &c->run;
    if (!c->found) {
        if (c->of_key)
            printf("tuning run:  none of the %zu run%s of this key won with an evidence point\n",
                   c->of_key, c->of_key == 1 ? "" : "s");
        else
            printf("tuning run:  none recorded in this store (imported, or tuned elsewhere)\n");
        return;
    }
    printf("tuning run:  %lld: %s, seed %llu, %zu evaluation%s", (long long)r->id, r->strategy,
           (unsigned long long)r->seed, r->evals, r->evals == 1 ? "" : "s");
    if (r->budget)
        printf(" (budget %zu)", r->budget);
    if (r->time_s > 0)
        printf(" (time limit %g s)", r->time_s);
    printf(" of %llu configurations, %s", (unsigned long long)r->space, r->status);
    if (!isnan(r->winner_gflops))
        printf(", best %.6g GFLOP/s", r->winner_gflops);
    printf("\nrun time:    %s to %s\n", r->started, r->finished[0] ? r->finished : "-");
    if (r->command[0])
        printf("run command: %s\n", r->command);
}

int cli_tuned_show(gb_store_t *st, const char *arg)
{
    gb_tuned_t t;
    char msg[1024], params[1024];
    size_t at = 0;
    gb_tuned_init(&t);
    int rc = gb_tuned_load_store(&t, st, msg, sizeof msg);
    if (rc != GB_OK) {
        gb_tuned_free(&t);
        return cli_error(rc, "%s", msg);
    }
    if ((rc = find_entry(&t, arg, gb_store_path(st), &at))) {
        gb_tuned_free(&t);
        return rc;
    }
    const gb_tuned_entry_t *e = &t.e[at];
    gb_tuned_params_text(&e->params, params, sizeof params);
    printf("tuned entry %zu of %zu in %s\n", at + 1, t.n, gb_store_path(st));
    printf("device:      %s (%s%s%s)\nfamily:      %s\nplatform:    %s\ndriver:      %s\n",
           e->device, e->vendor, e->vendor[0] && e->type[0] ? ", " : "", e->type,
           e->family[0] ? e->family : "unknown", e->platform, e->driver);
    printf("precision:   %s\nlayout:      %s\nshape class: %s (tuned at %zux%zux%zu)\n",
           gb_precision_name(e->precision), e->layout, e->shape_class, e->m, e->n, e->k);
    printf("kernel:      %s\nparameters:  %s\nGFLOP/s:     %.6g\ntuned at:    %s\n", e->kernel,
           params, e->gflops, e->tuned_at[0] ? e->tuned_at : "-");
    chooser_t ch = {.e = e};
    if ((rc = gb_store_tune_runs(st, find_chooser, &ch)) != GB_OK) {
        rc = cli_error(rc, "%s", gb_store_errmsg(st));
        gb_tuned_free(&t);
        return rc;
    }
    show_chooser(&ch);
    printf("evidence:    %zu point%s\n", e->nevidence, e->nevidence == 1 ? "" : "s");
    if (e->nevidence)
        printf("  %-16s  %9s  %-19s  %-18s  %s\n", "id", "GFLOP/s", "95% CI of GFLOP/s", "valid",
               "point");
    size_t missing = 0;
    for (size_t i = 0; i < e->nevidence; i++) {
        missing += gb_store_exists(st, e->evidence[i]) != 1;
        show_point(st, e->evidence[i]);
    }
    if (missing)
        printf("%zu of %zu evidence points are not in this store\n", missing, e->nevidence);
    gb_tuned_free(&t);
    return EXIT_OK;
}
