/* cmd_store.c: `gemmbench store info|list|check|path`: what the results store holds, and the
 * helper every store-using subcommand opens it with. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool/store/tuning.h"
#include "cli.h"

int cli_store_open(struct gb_store **out, const char *path, int create)
{
    char msg[1024];
    int rc = gb_store_open(out, path, create ? GB_STORE_CREATE : 0, msg, sizeof msg);
    return rc == GB_OK ? 0 : cli_error(rc, "%s", msg);
}

int cli_store_creatable(const char *path)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    if (!path[0] || access(dir, W_OK | X_OK) != 0)
        return cli_error(GB_EBADARG,
                         "cannot create store '%s': its folder %s is missing or not "
                         "writable; give a --store in an existing folder",
                         path, dir);
    return 0;
}

static void usage(void)
{
    printf("usage: gemmbench store [info|list|check|path] [--store PATH]\n"
           "  info    where the store is, its schema version and how many points it holds\n"
           "          (the default), and its tuning data where there is some; a damaged store\n"
           "          (SQLite's quick_check) is an error\n"
           "  list    one line per point: id, time, kernel, problem, GFLOP/s, verdict\n"
           "  check   SQLite integrity, every id against its definition, every phase's\n"
           "          statistics and samples, every row of the tuning tables (each damaged\n"
           "          one named on a line); exit 1 when something is wrong\n"
           "  path    print the default store's path\n"
           "  --store PATH   the store (default: $GEMMBENCH_STORE, else\n"
           "                 $XDG_DATA_HOME/gemmbench/results.db, else\n"
           "                 ~/.local/share/gemmbench/results.db)\n");
}

static int count_damage(const gb_tuning_damage_t *d, void *user)
{
    (void)d;
    ++*(size_t *)user;
    return GB_OK;
}

/* A damaged row of the tuning tables, on a line of its own. */
static int print_damage(const gb_tuning_damage_t *d, void *user)
{
    ++*(size_t *)user;
    printf("damaged: %s (table %s, row %lld): %s%s\n", d->what, d->table, d->row, d->why,
           !strcmp(d->table, "tuned") && !d->key_whole
               ? "; its key is damaged too: no entry replaces it"
               : "");
    return GB_OK;
}

/* `store check`: the points, then the tuning tables. 0, 1 when something is damaged, or the
 * exit code after an error. */
static int check(gb_store_t *st)
{
    size_t n = 0, bad = 0, rows = 0, damaged = 0;
    gb_tuning_counts_t tc;
    int rc = gb_store_check(st, &n, &bad);
    char first[1024];
    snprintf(first, sizeof first, "%s", gb_store_errmsg(st));
    if (rc != GB_OK)
        return cli_error(rc, "%s", gb_store_errmsg(st));
    const char *path = gb_store_path(st);
    if ((rc = gb_store_tuning_counts(st, &tc)) == GB_OK)
        rc = gb_store_tuning_check(st, print_damage, &damaged, &rows);
    if (rc != GB_OK && bad) { /* a damaged file: what the points' check found is the news */
        printf("store %s: %zu points checked, %zu problems; the first: %s\n", path, n, bad, first);
        printf("tuning data: not read (%s)\n", gb_store_errmsg(st));
        return EXIT_INVALID;
    }
    if (rc != GB_OK)
        return cli_error(rc, "%s", gb_store_errmsg(st));
    if (bad)
        printf("store %s: %zu points checked, %zu problems; the first: %s\n", path, n, bad, first);
    else
        printf("store %s: %zu points checked, all consistent\n", path, n);
    if (tc.present && !damaged)
        printf("tuning data: %zu rows checked, all consistent\n", rows);
    else if (damaged)
        printf("tuning data: %zu rows checked, %zu damaged (above); the others are read as "
               "before. Tuning a class again or 'gemmbench tuned import' of an entry of its key "
               "replaces a damaged entry; else save what can be read with 'gemmbench export "
               "--store %s --out saved.json' and 'gemmbench tuned export --store %s --out "
               "tuned.json', then 'gemmbench import saved.json --store NEW' and 'gemmbench "
               "tuned import tuned.json --store NEW'\n",
               rows, damaged, path, path);
    return bad || damaged ? EXIT_INVALID : EXIT_OK;
}

static int list_one(const gb_point_t *pt, void *user)
{
    size_t *n = user;
    char lws[32], tag[16];
    const gb_problem_t *p = &pt->problem;
    const gb_validation_t *v = &pt->result.validation;
    if (pt->result.local_null)
        snprintf(lws, sizeof lws, "auto");
    else
        snprintf(lws, sizeof lws, "%zux%zu", pt->result.local[0], pt->result.local[1]);
    if (*n == 0)
        printf("%-16s %-20s %-24s %-4s %-7s %-16s %-7s %3s %9s  %s\n", "id", "time (UTC)", "kernel",
               "prec", "layout", "MxNxK", "lws", "rep", "GFLOP/s", "valid");
    char mnk[48];
    snprintf(mnk, sizeof mnk, "%zux%zux%zu", p->m, p->n, p->k);
    printf("%-16s %-20s %-24s %-4s %-7s %-16s %-7s %3u %9.4g  %s\n", pt->id, pt->timestamp,
           pt->kernel, gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag),
           mnk, lws, pt->rep, pt->result.gflops,
           !v->done    ? "-"
           : v->passed ? "pass"
                       : "FAIL");
    (*n)++;
    return GB_OK;
}

/* Parses `--store PATH` (and nothing else) after the sub-subcommand; -1 after --help. */
static int parse_opts(int argc, char **argv, const char **path)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's': *path = optarg; break;
        case 'h': usage(); return -1;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench store --help'",
                             argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench store --help'",
                         argv[optind]);
    return 0;
}

int cmd_store(int argc, char **argv)
{
    const char *what = "info", *path = NULL;
    if (argc > 1 && argv[1][0] != '-') {
        what = argv[1];
        argc--;
        argv++;
    }
    int rc = parse_opts(argc, argv, &path);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!strcmp(what, "path")) {
        char buf[1024];
        const char *d = path ? path : gb_store_default_path(buf, sizeof buf);
        if (!d)
            return cli_error(GB_EBADARG, "no default store: set HOME, XDG_DATA_HOME or "
                                         "GEMMBENCH_STORE");
        printf("%s\n", d);
        return EXIT_OK;
    }
    if (strcmp(what, "info") && strcmp(what, "list") && strcmp(what, "check"))
        return cli_error(GB_EBADARG, "unknown store command '%s'; use info, list, check or path",
                         what);
    gb_store_t *st = NULL;
    if ((rc = cli_store_open(&st, path, 0)))
        return rc;
    size_t n = 0, damaged = 0;
    if (!strcmp(what, "check")) {
        rc = check(st);
        gb_store_close(st);
        return rc;
    }
    if (!strcmp(what, "info")) {
        /* A damaged store is not reported as fine: quick_check first (tens of ms per 10 MB). */
        gb_tuning_counts_t tc;
        if ((rc = gb_store_quick_check(st)) == GB_OK && (rc = gb_store_count(st, &n)) == GB_OK &&
            (rc = gb_store_tuning_counts(st, &tc)) == GB_OK &&
            (rc = gb_store_tuned_scan(st, NULL, count_damage, &damaged)) == GB_OK) {
            printf("store: %s\nschema version: %d\npoints: %zu\n", gb_store_path(st),
                   GB_STORE_SCHEMA_VERSION, n);
            /* Only where `gemmbench tune` or `tuned import` wrote: other stores read as before. */
            char note[128] = "";
            if (damaged)
                snprintf(note, sizeof note, " (%zu damaged: 'gemmbench store check' names %s)",
                         damaged, damaged == 1 ? "it" : "them");
            if (tc.present)
                printf("tuned entries: %zu%s\ntuning runs: %zu (%zu evaluations)\ntuning "
                       "failures: %zu\n",
                       tc.tuned, note, tc.runs, tc.evals, tc.failures);
        }
    } else {
        rc = gb_store_foreach(st, 0, list_one, &n);
        if (rc == GB_OK)
            printf("%zu points in %s\n", n, gb_store_path(st));
    }
    if (rc != GB_OK)
        rc = cli_error(rc, "%s", gb_store_errmsg(st));
    gb_store_close(st);
    return rc;
}
