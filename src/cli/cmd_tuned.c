/* cmd_tuned.c: `gemmbench tuned list|show|export|import|sync`: the tuning database (the best
 * configuration per device, driver, precision, layout and shape class that `gemmbench tune`
 * found, src/tool/store/tuning.h) read, shown with its evidence, and carried between stores in the
 * JSON format of the shipped defaults, kernels/tuned/ (docs/tuning.md); show is in
 * tuned_show.c. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "tool/store/tuning.h"
#include "tool/tune/tuned.h"
#include "rt/util/util.h"
#include "cli.h"

#define MAX_TUNED_BYTES (16u << 20)

static const struct sub {
    const char *name, *synopsis, *help;
} subs[] = {
    {"list", "tuned list [--device SUBSTR] [--family F] [--shipped] [--json] [--store PATH]",
     "  the store's tuned entries as a table: number, device, precision, layout, shape\n"
     "  class, kernel, parameters, GFLOP/s, when tuned, source (store or shipped)\n"
     "  --device SUBSTR  only entries whose device or platform name holds SUBSTR, any case\n"
     "  --family F       only entries of devices of family F (nvidia-sm_90: 'gemmbench\n"
     "                   devices' prints a device's)\n"
     "  --shipped        also the defaults shipped in gemmbench (kernels/tuned/), marked\n"
     "                   'shipped'; the store's entries override them for the same key\n"
     "                   (device, platform, driver, precision, layout, shape class)\n"
     "  --json           a JSON array instead (the export format, with 'source' and\n"
     "                   'number')\n"},
    {"show", "tuned show N|KEY [--store PATH]",
     "  one entry in full, with its evidence points looked up in the store (GFLOP/s,\n"
     "  validation verdict, 95% confidence interval), saying which are not stored\n"
     "  N    the number 'gemmbench tuned list' gives it\n"
     "  KEY  [DEVICE/]PRECISION/LAYOUT/CLASS, e.g. s/row-NN/square-4096 or\n"
     "       'H100/s/row-NN/square-4096' (DEVICE: part of the device's name, any case)\n"},
    {"export",
     "tuned export [--device SUBSTR] [--family F [--shipped]] [--out FILE] [--store PATH]",
     "  the store's entries as a JSON array, the format of kernels/tuned/*.json and of\n"
     "  'gemmbench tuned import'\n"
     "  --device SUBSTR  only entries whose device or platform name holds SUBSTR, any case\n"
     "                   (an error when none does)\n"
     "  --family F       only entries of devices of family F, any device of it (an error\n"
     "                   when none is)\n"
     "  --shipped        also the shipped entries the store does not override, all in the\n"
     "                   order of a shipped file: 'tuned export --family F --shipped --out\n"
     "                   kernels/tuned/F.json' makes the family's shipped file anew with the\n"
     "                   store's entries (after 'tune --refresh') in place of its own\n"
     "  --out FILE       write FILE (atomically; never the store) instead of standard output\n"},
    {"import", "tuned import FILE [--kernel-path DIR] [--store PATH]",
     "  entries from such a file ('-': standard input): every entry is checked first, its\n"
     "  keys, values and text as export writes them, and its kernel and parameters as kernel\n"
     "  metadata is (a kernel of this build or of --kernel-path, its precision, each\n"
     "  parameter one of its family's within its range); then all are written in one\n"
     "  transaction, replacing entries with the same key (device, platform, driver,\n"
     "  precision, layout, shape class), a damaged one too; a bad file writes nothing and\n"
     "  creates no store. An entry without tuned_at is stamped with the time of import.\n"
     "  --kernel-path DIR  the kernel families of DIR too (as tune read them)\n"},
    {"sync", "tuned sync [--store PATH]",
     "  writes the store's tuning file (PATH.tuned, beside the store) anew from its entries:\n"
     "  the library reads the user's tuning there without the store (GEMMBENCH_TUNED names\n"
     "  another). tune and tuned import write it after each change; sync is for a store\n"
     "  copied or edited otherwise\n"},
};
#define NSUBS (sizeof subs / sizeof subs[0])

/* The usage of one command, or of all (only NULL). */
static void usage(const struct sub *only)
{
    if (only) {
        printf("usage: gemmbench %s\n%s", only->synopsis, only->help);
    } else {
        printf("usage: gemmbench tuned list|show|export|import|sync [options]\n");
        for (size_t i = 0; i < NSUBS; i++)
            printf("\ngemmbench %s\n%s", subs[i].synopsis, subs[i].help);
        printf("\n");
    }
    printf("  --store PATH     the store (default: 'gemmbench store path'%s)\n",
           only && strcmp(only->name, "import") ? "" : "; import creates it when missing");
}

typedef struct topts {
    const struct sub *sub;
    const char *store, *out, *arg, *device, *family, *kpath;
    int shipped, json;
} topts_t;

enum { O_SHIPPED = 256, O_JSON, O_KPATH };

/* The options only some commands take, and which. */
static const struct only {
    int opt;
    const char *name, *takes;
} only_opts[] = {{'o', "--out", "export"},
                 {'d', "--device", "list or export"},
                 {'f', "--family", "list or export"},
                 {O_SHIPPED, "--shipped", "list or export"},
                 {O_JSON, "--json", "list"},
                 {O_KPATH, "--kernel-path", "import"}};

/* Parses `tuned SUB [options] [ARG]`: 0, -1 after --help, or the exit code after an error. */
/* An option only some of the commands take (c as getopt_long gives it, with optarg), into o.
 * 0, or the exit code after an error. */
static int sub_option(topts_t *o, int c, const char *name)
{
    const struct only *on = NULL;
    for (size_t i = 0; i < sizeof only_opts / sizeof only_opts[0]; i++)
        if (only_opts[i].opt == c)
            on = &only_opts[i];
    if (on && !strstr(on->takes, name))
        return cli_error(GB_EBADARG,
                         "'tuned %s' takes no option %s (tuned %s does); see 'gemmbench "
                         "tuned %s --help'",
                         name, on->name, on->takes, name);
    if ((c == 'o' || c == 'd' || c == 'f' || c == O_KPATH) && !*optarg)
        return cli_error(GB_EBADARG, "%s needs %s", on->name,
                         c == 'o'       ? "a file name"
                         : c == O_KPATH ? "a folder of kernel families"
                         : c == 'd'     ? "part of a device or platform name"
                                        : "a device family, e.g. nvidia-sm_90 ('gemmbench "
                                          "devices' prints a device's)");
    if (c == O_KPATH)
        o->kpath = optarg;
    else if (c == 'o')
        o->out = optarg;
    else if (c == 'd')
        o->device = optarg;
    else if (c == 'f')
        o->family = optarg;
    else if (c == O_SHIPPED)
        o->shipped = 1;
    else
        o->json = 1;
    return 0;
}

static int parse(int argc, char **argv, topts_t *o)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"device", required_argument, NULL, 'd'},
                                         {"family", required_argument, NULL, 'f'},
                                         {"shipped", no_argument, NULL, O_SHIPPED},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"kernel-path", required_argument, NULL, O_KPATH},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc >= 2)
            return usage(NULL), -1;
        return cli_error(GB_EBADARG, "give a tuned command: list, show, export, import or sync "
                                     "(gemmbench tuned --help)");
    }
    for (size_t i = 0; i < NSUBS; i++)
        if (!strcmp(argv[1], subs[i].name))
            o->sub = &subs[i];
    if (!o->sub)
        return cli_error(GB_EBADARG,
                         "unknown tuned command '%s'; use list, show, export, import or sync",
                         argv[1]);
    const char *name = o->sub->name;
    int c;
    optind = 1;
    opterr = 0;
    argc--;
    argv++;
    while ((c = getopt_long(argc, argv, ":o:d:f:h", opts, NULL)) != -1) {
        const char *given = argv[optind - 1]; /* for the errors, where it is the option */
        switch (c) {
        case 's':
            if (!*optarg)
                return cli_error(GB_EBADARG, "the store path is empty; give --store a file name");
            o->store = optarg;
            continue;
        case 'h': usage(o->sub); return -1;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", given);
        case '?':
            return cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench tuned %s --help'",
                             given, name);
        default: break;
        }
        const int rc = sub_option(o, c, name);
        if (rc)
            return rc;
    }
    const int want = !strcmp(name, "show") || !strcmp(name, "import");
    if (argc - optind > want)
        return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench tuned %s --help'",
                         argv[optind + want], name);
    if (argc - optind < want)
        return cli_error(GB_EBADARG, "give %s: gemmbench %s",
                         strcmp(name, "show") ? "the file to import"
                                              : "the entry's number or key to show",
                         o->sub->synopsis);
    o->arg = want ? argv[optind] : NULL;
    return 0;
}

/* ---- list ----------------------------------------------------------------------------------- */

static int contains_nocase(const char *hay, const char *needle)
{
    for (size_t n = strlen(needle); *hay; hay++)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return !*needle;
}

/* Do --device and --family (where given) take e: part of its device's or platform's name, its
 * device's family? */
static int takes(const topts_t *o, const gb_tuned_entry_t *e)
{
    return (!o->device || contains_nocase(e->device, o->device) ||
            contains_nocase(e->platform, o->device)) &&
           (!o->family || !strcmp(e->family, o->family));
}

/* " matching --device 'D' and --family F" for the filters given ("" for none), into buf. */
static const char *matching(const topts_t *o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (o->device)
        gb__appendf(buf, len, &used, " matching --device '%.200s'", o->device);
    if (o->family)
        gb__appendf(buf, len, &used, "%s --family %.100s", o->device ? " and" : " matching",
                    o->family);
    return buf;
}

/* The widest of a field over the entries shown, within [at_least, 60]. */
static int width(const topts_t *o, const gb_tuned_t *t, size_t off, size_t at_least)
{
    size_t w = at_least;
    for (size_t i = 0; i < t->n; i++) {
        const size_t n = takes(o, &t->e[i]) ? strlen((const char *)&t->e[i] + off) : 0;
        w = n > w ? n : w;
    }
    return (int)(w > 60 ? 60 : w);
}

static void list_text(const topts_t *o, const gb_tuned_t *t, size_t nstore)
{
    const int wd = width(o, t, offsetof(gb_tuned_entry_t, device), 6);
    const int wk = width(o, t, offsetof(gb_tuned_entry_t, kernel), 6);
    const int wc = width(o, t, offsetof(gb_tuned_entry_t, shape_class), 11);
    int wp = 10;
    for (size_t i = 0; i < t->n; i++) {
        if (!takes(o, &t->e[i]))
            continue;
        char p[1024];
        gb_tuned_params_text(&t->e[i].params, p, sizeof p);
        wp = (int)strlen(p) > wp ? (int)strlen(p) : wp;
    }
    printf("%3s  %-*s  %-4s  %-6s  %-*s  %-*s  %-*s  %9s  %-20s  source\n", "#", wd, "device",
           "prec", "layout", wc, "shape class", wk, "kernel", wp, "parameters", "GFLOP/s",
           "tuned at");
    for (size_t i = 0; i < t->n; i++) {
        const gb_tuned_entry_t *e = &t->e[i];
        char num[24], p[1024];
        if (!takes(o, e))
            continue; /* the store's keep their numbers, which 'tuned show' takes */
        if (i < nstore)
            snprintf(num, sizeof num, "%zu", i + 1);
        else
            snprintf(num, sizeof num, "-");
        gb_tuned_params_text(&e->params, p, sizeof p);
        printf("%3s  %-*.*s  %-4s  %-6s  %-*s  %-*s  %-*s  %9.1f  %-20s  %s\n", num, wd, wd,
               e->device, gb_precision_name(e->precision), e->layout, wc, e->shape_class, wk,
               e->kernel, wp, p, e->gflops, e->tuned_at[0] ? e->tuned_at : "-", e->source);
    }
}

/* The entries as gb_tuned_to_json writes them, each with its source and (the store's) number. */
static int list_json(const topts_t *o, const gb_tuned_t *t, size_t nstore)
{
    char *text = gb_tuned_to_json(t);
    cJSON *arr = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!arr)
        return cli_error(GB_ENOMEM, "out of memory");
    size_t i = 0;
    for (cJSON *e = arr->child, *next; e; e = next, i++) {
        next = e->next;
        if (!takes(o, &t->e[i])) {
            cJSON_Delete(cJSON_DetachItemViaPointer(arr, e));
            continue;
        }
        cJSON_AddStringToObject(e, "source", t->e[i].source);
        if (i < nstore)
            cJSON_AddNumberToObject(e, "number", (double)(i + 1));
    }
    text = cJSON_Print(arr);
    cJSON_Delete(arr);
    if (!text)
        return cli_error(GB_ENOMEM, "out of memory");
    printf("%s\n", text);
    free(text);
    return EXIT_OK;
}

static int tuned_list(const topts_t *o, gb_store_t *st)
{
    gb_tuned_t t;
    char msg[1024];
    gb_tuned_init(&t);
    int rc = st ? gb_tuned_load_store(&t, st, msg, sizeof msg) : GB_OK;
    const size_t nstore = t.n;
    if (rc == GB_OK && o->shipped)
        if ((rc = gb_tuned_load_shipped(&t)) != GB_OK)
            snprintf(msg, sizeof msg, "out of memory");
    if (rc != GB_OK) {
        gb_tuned_free(&t);
        return cli_error(rc, "%s", msg);
    }
    char where[1100], def[1024];
    if (st)
        snprintf(where, sizeof where, "in %s", gb_store_path(st));
    else /* only with --shipped */
        snprintf(where, sizeof where, "(no results store at %s)",
                 o->store ? o->store : gb_store_default_path(def, sizeof def));
    size_t shown = 0, shown_store = 0;
    for (size_t i = 0; i < t.n; i++)
        if (takes(o, &t.e[i])) {
            shown++;
            shown_store += i < nstore;
        }
    char match[400];
    matching(o, match, sizeof match);
    if (o->json) {
        rc = list_json(o, &t, nstore);
    } else if (!shown) {
        printf("no tuned entries%s %s%s; %s\n", match, where, o->shipped ? ", none shipped" : "",
               (o->device || o->family) && t.n
                   ? "'gemmbench tuned list' shows them all"
                   : "'gemmbench tune' makes them, 'gemmbench tuned import FILE' "
                     "adds them");
    } else {
        list_text(o, &t, nstore);
        printf("%zu tuned entr%s%s %s", shown_store, shown_store == 1 ? "y" : "ies", match, where);
        if (o->shipped)
            printf(", %zu shipped", shown - shown_store);
        if (t.overridden) /* shipped entries of a key the store also holds */
            printf(" (%zu more overridden by the store's)", t.overridden);
        printf("\n");
    }
    gb_tuned_free(&t);
    return rc;
}

/* ---- export and import ---------------------------------------------------------------------- */

/* The order of the store's entries and of a shipped file: device, precision, layout, shape
 * class, platform, driver. */
static int by_key(const void *a, const void *b)
{
    const gb_tuned_entry_t *x = a, *y = b;
    int d = strcmp(x->device, y->device);
    if (!d)
        d = strcmp(gb_precision_name(x->precision), gb_precision_name(y->precision));
    if (!d)
        d = strcmp(x->layout, y->layout);
    if (!d)
        d = strcmp(x->shape_class, y->shape_class);
    if (!d)
        d = strcmp(x->platform, y->platform);
    return d ? d : strcmp(x->driver, y->driver);
}

static int tuned_export(const topts_t *o, gb_store_t *st)
{
    gb_tuned_t t;
    char msg[1024];
    cli_out_t out;
    gb_tuned_init(&t);
    int rc = st ? gb_tuned_load_store(&t, st, msg, sizeof msg) : GB_OK;
    if (rc == GB_OK && o->shipped && (rc = gb_tuned_load_shipped(&t)) != GB_OK)
        snprintf(msg, sizeof msg, "out of memory");
    const size_t all = t.n;
    size_t kept = 0;
    for (size_t i = 0; i < t.n; i++)
        if (takes(o, &t.e[i]))
            t.e[kept++] = t.e[i];
    t.n = kept;
    if (o->shipped) /* the store's and the shipped entries in one order, as a shipped file */
        qsort(t.e, t.n, sizeof *t.e, by_key);
    /* Where the entries come from, for the lines below: "store S", "store S and the shipped
     * entries", "the shipped entries". */
    char from[1200];
    snprintf(from, sizeof from, "%s%s%s%s", st ? "store " : "", st ? gb_store_path(st) : "",
             st && o->shipped ? " and " : "", o->shipped ? "the shipped entries" : "");
    /* A filter that takes nothing is a mistake, not an empty set of defaults to ship. */
    if (rc == GB_OK && (o->device || o->family) && !t.n) {
        char dev[300] = "a device";
        if (o->device)
            snprintf(dev, sizeof dev, "a device or platform matching --device '%.200s'", o->device);
        gb_tuned_free(&t);
        return cli_error(GB_ENOPOINT,
                         "no tuned entry in %s (of %zu) has %s%s%s; 'gemmbench tuned list%s' "
                         "shows them",
                         from, all, dev, o->family ? " of family " : "", o->family ? o->family : "",
                         o->shipped ? " --shipped" : "");
    }
    char *text = rc == GB_OK ? gb_tuned_to_json(&t) : NULL;
    if (rc == GB_OK && !text)
        snprintf(msg, sizeof msg, "out of memory"), rc = GB_ENOMEM;
    if (rc != GB_OK) {
        gb_tuned_free(&t);
        return cli_error(rc, "%s", msg);
    }
    /* The same refusal as export and report: --out never names the store. */
    if (!(rc = cli_out_open(&out, o->out, st ? gb_store_path(st) : NULL))) {
        const int wrote = fputs(text, out.f) < 0 || fputc('\n', out.f) == EOF ? GB_EIO : GB_OK;
        rc = cli_out_close(&out, wrote);
        if (rc == GB_OK && !o->out && fflush(stdout) != 0)
            rc = GB_EIO;
        if (rc < 0)
            rc = cli_error(rc, "writing %s failed", o->out ? o->out : "standard output");
        else if (rc == GB_OK && o->out)
            printf("exported %zu tuned entr%s from %s to %s\n", t.n, t.n == 1 ? "y" : "ies",
                   st ? from + strlen("store ") : from, o->out);
    }
    free(text);
    gb_tuned_free(&t);
    return rc;
}

static int same_entry(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    int same = gb_tuned_same_key(a, b) && !strcmp(a->vendor, b->vendor) &&
               !strcmp(a->type, b->type) && !strcmp(a->family, b->family) && a->m == b->m &&
               a->n == b->n && a->k == b->k && !strcmp(a->kernel, b->kernel) &&
               gb_params_equal(&a->params, &b->params) && a->gflops == b->gflops &&
               !strcmp(a->tuned_at, b->tuned_at) && a->nevidence == b->nevidence;
    for (size_t i = 0; same && i < a->nevidence; i++)
        same = !strcmp(a->evidence[i], b->evidence[i]);
    return same;
}

typedef struct import_job {
    const gb_tuned_t *t;
    size_t added, replaced, unchanged, mended;
} import_job_t;

static int import_all(gb_store_t *st, void *user)
{
    import_job_t *job = user;
    for (size_t i = 0; i < job->t->n; i++) {
        const gb_tuned_entry_t *e = &job->t->e[i];
        gb_tuned_entry_t old;
        int rc = gb_store_tuned_get(st, e, &old);
        if (rc == GB_OK && same_entry(e, &old)) {
            job->unchanged++;
            continue;
        }
        /* A damaged row of the key is replaced like any other entry. */
        if (rc != GB_OK && rc != GB_ENOPOINT && rc != GB_ECORRUPT)
            return rc;
        if (rc == GB_OK || rc == GB_ECORRUPT)
            job->replaced++;
        else
            job->added++;
        job->mended += rc == GB_ECORRUPT;
        if ((rc = gb_store_tuned_put(st, e)) != GB_OK)
            return rc;
    }
    return GB_OK;
}

/* Each entry's kernel and parameters against the registry (the built-in families and those of
 * kpath), naming the file's line: 0, or the exit code after the error. */
static int check_kernels(const gb_tuned_t *t, const char *kpath, const char *origin,
                         const char *text, size_t len)
{
    gb_registry_t *reg = NULL;
    int rc = cli_registry_open(&reg, kpath);
    for (size_t i = 0; !rc && i < t->n; i++) {
        char why[1024];
        const int bad = gb_tuned_entry_check_kernel(&t->e[i], reg, why, sizeof why);
        if (bad == GB_OK)
            continue;
        /* The line of the key at fault: the kernel's, or where a parameter is, "params". */
        const char *key = bad == GB_ENOKERNEL || strstr(why, " precision ") ? "kernel" : "params";
        /* A name near none of this build's: perhaps a family of the user's own, which this
         * command reads where the library does not. */
        const int own = bad == GB_ENOKERNEL && !strstr(why, "did you mean") && !kpath;
        rc = cli_error(GB_EBADARG, "%s:%zu: entry %zu: %s%s", origin,
                       gb_tuned_json_line(text, len, i, key), i, why,
                       own ? "; a family of your own is read with --kernel-path DIR" : "");
    }
    gb_registry_close(reg);
    return rc;
}

/* Reads and checks the whole file into t before any store is opened. */
static int read_entries(const char *file, const char *kpath, gb_tuned_t *t)
{
    FILE *f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
    if (!f)
        return cli_error(GB_EBADARG, "cannot read '%s'; check the path", file);
    size_t len = 0;
    char *text = NULL, msg[1024];
    int rc = gb__read_stream(f, MAX_TUNED_BYTES, &text, &len);
    if (f != stdin)
        fclose(f);
    if (rc == GB_ENOMEM)
        return cli_error(rc, "out of memory reading '%s'", file);
    if (rc != GB_OK)
        return cli_error(GB_EBADARG,
                         rc == GB_EOVERFLOW ? "'%s' is over 16 MiB: not a file of tuned entries"
                                            : "cannot read '%s'",
                         file);
    /* The whole file is checked here, lines named, before a store is opened. */
    const char *origin = strcmp(file, "-") ? file : "standard input";
    rc = gb_tuned_from_json(t, text, len, origin, "store", msg, sizeof msg);
    if (rc != GB_OK) {
        free(text);
        return cli_error(rc, "%s", msg);
    }
    rc = check_kernels(t, kpath, origin, text, len);
    free(text);
    if (rc)
        return rc;
    char now[32] = "";
    const time_t clock = time(NULL);
    struct tm tm;
    if (gmtime_r(&clock, &tm))
        strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    for (size_t i = 0; i < t->n; i++)
        if (!t->e[i].tuned_at[0])
            snprintf(t->e[i].tuned_at, sizeof t->e[i].tuned_at, "%s", now);
    return 0;
}

static int tuned_import(const topts_t *o)
{
    gb_tuned_t t;
    gb_tuned_init(&t);
    int rc = read_entries(o->arg, o->kpath, &t);
    if (rc || !t.n) {
        if (!rc)
            printf("nothing to import: %s holds no tuned entries\n", o->arg);
        gb_tuned_free(&t);
        return rc;
    }
    gb_store_t *st = NULL;
    if ((rc = cli_store_open(&st, o->store, 1))) {
        gb_tuned_free(&t);
        return rc;
    }
    import_job_t job = {&t, 0, 0, 0, 0};
    rc = gb_store_transaction(st, import_all, &job);
    size_t n;
    char msg[1024];
    if (rc != GB_OK)
        rc = cli_error(rc, "%s", gb_store_errmsg(st));
    else if ((rc = gb_tuned_sync_file(st, &n, msg, sizeof msg)) != GB_OK)
        rc = cli_error(rc, "%s", msg);
    else {
        char mended[64] = "";
        if (job.mended)
            snprintf(mended, sizeof mended, " (%zu of them damaged)", job.mended);
        printf("imported %zu tuned entr%s from %s into %s: %zu new, %zu replaced%s, %zu "
               "unchanged\n",
               t.n, t.n == 1 ? "y" : "ies", o->arg, gb_store_path(st), job.added, job.replaced,
               mended, job.unchanged);
    }
    gb_store_close(st);
    gb_tuned_free(&t);
    return rc;
}

int cmd_tuned(int argc, char **argv)
{
    topts_t o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!strcmp(o.sub->name, "import"))
        return tuned_import(&o);
    gb_store_t *st = NULL;
    char msg[1024];
    rc = gb_store_open(&st, o.store, 0, msg, sizeof msg);
    /* The shipped defaults need no store: list them even before anything is measured. */
    if (rc == GB_ENOSTORE && o.shipped)
        rc = GB_OK;
    else if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    size_t n;
    if (!strcmp(o.sub->name, "list"))
        rc = tuned_list(&o, st);
    else if (!strcmp(o.sub->name, "sync") &&
             (rc = gb_tuned_sync_file(st, &n, msg, sizeof msg)) != GB_OK)
        rc = cli_error(rc, "%s", msg);
    else if (!strcmp(o.sub->name, "sync"))
        printf("wrote %zu tuned entr%s of %s into %s.tuned\n", n, n == 1 ? "y" : "ies",
               gb_store_path(st), gb_store_path(st));
    else if (!strcmp(o.sub->name, "show"))
        rc = cli_tuned_show(st, o.arg);
    else
        rc = tuned_export(&o, st);
    gb_store_close(st);
    return rc;
}
