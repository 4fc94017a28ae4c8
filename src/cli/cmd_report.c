/* cmd_report.c: `gemmbench report`: the results store as the GEMMbench paper's tables
 * (repetitions with mean and standard deviation; work-group sizes) in text, Markdown, CSV or
 * JSON, or as an HTML page with plots (src/tool/report/, docs/report.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool/report/report.h"
#include "cli.h"

static void usage(void)
{
    printf(
        "usage: gemmbench report [--store PATH] [--format text|md|csv|json|html] [--out FILE|DIR]\n"
        "                        [--table reps|lws|tuned|all] [--kernel K,...] [--device SUBSTR]\n"
        "                        [--precision s|d] [--timing kernel|ops|offload]\n"
        "                        [--kernel-path DIR]\n"
        "  --format F      text (default): aligned tables; md: Markdown; csv: one table, one line\n"
        "                  per row; json: both tables and the header; html: one self-contained\n"
        "                  page with gnuplot's SVG plots (needs gnuplot: Debian's gnuplot-nox)\n"
        "  --table T       reps: GFLOP/s of each repetition, mean and std (GEMMbench's Table 2);\n"
        "                  lws: mean GFLOP/s by order and work-group size (Table 3); tuned: the\n"
        "                  tuning view (the best configuration per shape class, the tuning runs\n"
        "                  and, in html, their best GFLOP/s against evaluations; needs tuning\n"
        "                  data, not points); all (the default, with the tuning view where the\n"
        "                  store has tuning data; csv takes reps unless told lws or tuned)\n"
        "  --out FILE|DIR  write FILE (atomically), or DIR/report.<format's extension>,\n"
        "                  instead of standard output\n"
        "  --store PATH    the store to read (default: 'gemmbench store path')\n"
        "  --kernel-path DIR  the kernel families the points were measured with from DIR too,\n"
        "                  for their declared memory traffic (the roofline)\n"
        "filters (a point must pass all of them; tuning data the first three):\n"
        "  -k, --kernel K,...   kernel, preset or family names, any case\n"
        "  -d, --device SUBSTR  part of the device's or platform's name, any case\n"
        "  --precision s|d      only this precision\n"
        "  --timing T           only points timed so: kernel, ops or offload\n"
        "A row is every stored repetition of one definition (device, driver, kernel, parameters,\n"
        "source, problem, inputs, iterations, timing); its GFLOP/s per repetition is 2*M*N*K\n"
        "over the median time of that repetition's timed calls.\n");
}

enum { O_PREC = 256, O_TIMING, O_TABLE, O_KPATH };

typedef struct ropts {
    const char *store, *out, *kpath;
    gb_report_format_t format;
    unsigned tables;
    int table_given;
    gb_report_filter_t filter;
} ropts_t;

/* --table: 0 or the exit code. */
static int set_table(ropts_t *o, const char *arg)
{
    o->table_given = 1;
    if (!strcmp(arg, "reps"))
        o->tables = GB_REPORT_REPS;
    else if (!strcmp(arg, "lws"))
        o->tables = GB_REPORT_LWS;
    else if (!strcmp(arg, "tuned"))
        o->tables = GB_REPORT_TUNED;
    else if (!strcmp(arg, "all"))
        o->tables = GB_REPORT_ALL;
    else
        return cli_error(GB_EBADARG, "unknown --table '%s'; use reps, lws, tuned or all", arg);
    return 0;
}

/* One of the filters (option c, its value arg): 0 or the exit code. */
static int set_filter(gb_report_filter_t *f, int c, const char *arg)
{
    gb_precision_t p;
    gb_timing_t t;
    switch (c) {
    case 'k':
        if (strlen(arg) > 1000)
            return cli_error(GB_EBADARG, "--kernel list is too long (1000 characters at most)");
        if (!arg[strspn(arg, ", ")])
            return cli_error(GB_EBADARG, "--kernel needs kernel, preset or family names, like "
                                         "SGEMM_NT_4x1,naive");
        f->kernels = arg;
        return 0;
    case 'd':
        if (!*arg)
            return cli_error(GB_EBADARG, "--device needs part of a device or platform name");
        f->device = arg;
        return 0;
    case O_PREC:
        if (gb_precision_parse(arg, &p) != GB_OK)
            return cli_error(GB_EBADARG, "unknown --precision '%s'; use " GB_PREC_NAMES, arg);
        f->precision = (int)p;
        return 0;
    default:
        if (gb_timing_parse(arg, &t) != GB_OK)
            return cli_error(GB_EBADARG, "unknown --timing '%s'; use kernel, ops or offload", arg);
        f->timing = (int)t;
        return 0;
    }
}

/* The options: 0, -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, ropts_t *o)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"table", required_argument, NULL, O_TABLE},
                                         {"kernel", required_argument, NULL, 'k'},
                                         {"device", required_argument, NULL, 'd'},
                                         {"precision", required_argument, NULL, O_PREC},
                                         {"timing", required_argument, NULL, O_TIMING},
                                         {"kernel-path", required_argument, NULL, O_KPATH},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c, rc = 0;
    memset(o, 0, sizeof *o);
    o->tables = GB_REPORT_ALL;
    o->filter.precision = -1;
    o->filter.timing = -1;
    optind = 1;
    opterr = 0;
    while (!rc && (c = getopt_long(argc, argv, ":f:o:k:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': o->store = optarg; break;
        case O_KPATH: o->kpath = optarg; break;
        case 'o':
            if (!*optarg)
                return cli_error(GB_EBADARG, "--out needs a file or folder name");
            o->out = optarg;
            break;
        case 'f':
            if (gb_report_format_parse(optarg, &o->format) != GB_OK)
                return cli_error(GB_EBADARG,
                                 "unknown --format '%s'; use text, md, csv, json or html", optarg);
            break;
        case O_TABLE: rc = set_table(o, optarg); break;
        case 'k':
        case 'd':
        case O_PREC:
        case O_TIMING: rc = set_filter(&o->filter, c, optarg); break;
        case 'h': usage(); return -1;
        default: return cli_bad_option(c, argv[optind - 1], "report");
        }
    }
    if (rc)
        return rc;
    if (optind < argc)
        return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench report --help'",
                         argv[optind]);
    if (o->format == GB_REPORT_CSV && !o->table_given)
        o->tables = GB_REPORT_REPS;
    if (o->format == GB_REPORT_CSV && o->tables == GB_REPORT_ALL)
        return cli_error(GB_EBADARG, "a CSV file holds one table; choose --table reps or --table "
                                     "lws (or --table tuned)");
    return 0;
}

/* The output's name, from --out: the file, or DIR/report.<ext> for a folder ("": standard
 * output). 0 or the exit code. */
static int out_name(const ropts_t *o, char *out, size_t len)
{
    struct stat sb;
    out[0] = '\0';
    if (!o->out)
        return 0;
    if (strlen(o->out) > 1000)
        return cli_error(GB_EBADARG, "--out path is too long (1000 characters at most)");
    if (stat(o->out, &sb) == 0 && S_ISDIR(sb.st_mode))
        snprintf(out, len, "%s/report.%s", o->out, gb_report_format_ext(o->format));
    else
        snprintf(out, len, "%s", o->out);
    return 0;
}

/* The tuning view alone needs tuning data, not points; the other tables need points, and some
 * must pass the filters. 0 or the exit code. */
static int refuse_empty(gb_report_t *rep, gb_store_t *st, int tuned_only)
{
    char filters[600];
    if (tuned_only && !gb_report_tuning_offered(rep))
        return cli_error(GB_EBADARG,
                         "store %s holds no tuning data; 'gemmbench tune' makes it, 'gemmbench "
                         "tuned import FILE' adds tuned entries",
                         gb_store_path(st));
    if (tuned_only && gb_report_tuned(rep) + gb_report_tune_runs(rep) == 0)
        return cli_error(GB_EBADARG,
                         "none of the %zu tuned entries and tuning runs in store %s matches %s; "
                         "'gemmbench tuned list' shows the entries",
                         gb_report_tuning_offered(rep), gb_store_path(st),
                         gb_report_filter_text(rep, filters, sizeof filters));
    if (!tuned_only && gb_report_offered(rep) == 0)
        return cli_error(GB_EBADARG,
                         gb_report_tuning_offered(rep)
                             ? "store %s holds no points, only tuning data: 'gemmbench report "
                               "--table tuned' shows it; measure points with 'gemmbench run' or "
                               "'gemmbench explore'"
                             : "store %s holds no points; measure some with 'gemmbench run' or "
                               "'gemmbench explore'",
                         gb_store_path(st));
    if (!tuned_only && gb_report_selected(rep) == 0)
        return cli_error(GB_EBADARG,
                         "none of the %zu points in store %s matches %s; 'gemmbench store "
                         "list' shows what is stored",
                         gb_report_offered(rep), gb_store_path(st),
                         gb_report_filter_text(rep, filters, sizeof filters));
    return 0;
}

/* The report written to out ("": standard output). 0 or the exit code. */
static int write_report(gb_report_t *rep, gb_store_t *st, const ropts_t *o, const char *out)
{
    char msg[1400];
    cli_out_t w;
    int rc = cli_out_open(&w, out[0] ? out : NULL, gb_store_path(st));
    if (rc)
        return rc;
    const int wrote = gb_report_write(rep, o->format, o->tables, w.f, msg, sizeof msg);
    if ((rc = cli_out_close(&w, wrote)) > 0)
        return rc;
    if (out[0] && wrote == GB_OK && rc == GB_EIO) {
        snprintf(msg, sizeof msg, "writing '%s' failed", out);
    } else if (!out[0] && rc == GB_OK && fflush(stdout) != 0) {
        rc = GB_EIO;
        snprintf(msg, sizeof msg, "writing the report to standard output failed");
    }
    return rc != GB_OK ? cli_error(rc, "%s", msg) : 0;
}

/* What a report written to a file holds. */
static void say_written(gb_report_t *rep, gb_store_t *st, const ropts_t *o, const char *out,
                        int tuned_only)
{
    char tuning[128] = "";
    const size_t nt = gb_report_tuned(rep), nr = gb_report_tune_runs(rep);
    /* Only a store with tuning data says anything of it: others read as before. */
    if (gb_report_tuning_offered(rep))
        snprintf(tuning, sizeof tuning, "%s%zu tuned entr%s and %zu tuning run%s",
                 tuned_only ? "" : ", ", nt, nt == 1 ? "y" : "ies", nr, nr == 1 ? "" : "s");
    if (tuned_only)
        printf("report: %s from %s written to %s (%s)\n", tuning, gb_store_path(st), out,
               gb_report_format_ext(o->format));
    else
        printf("report: %zu points in %zu rows and %zu work-group-size table%s%s from %s "
               "written to %s (%s)\n",
               gb_report_selected(rep), gb_report_rows(rep), gb_report_lws_tables(rep),
               gb_report_lws_tables(rep) == 1 ? "" : "s", tuning, gb_store_path(st), out,
               gb_report_format_ext(o->format));
}

int cmd_report(int argc, char **argv)
{
    ropts_t o;
    char out[1100], msg[1400];
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    /* The output's name first: a bad --out is reported before the store is read. */
    if ((rc = out_name(&o, out, sizeof out)))
        return rc;
    gb_store_t *st = NULL;
    gb_report_t *rep = NULL;
    gb_registry_t *reg = NULL;
    /* The families, for the memory traffic they declare (the roofline). */
    if ((rc = cli_registry_open(&reg, o.kpath)))
        return rc;
    const int tuned_only = o.tables == GB_REPORT_TUNED;
    if ((rc = cli_store_open(&st, o.store, 0)))
        goto done;
    if ((rc = gb_report_read(&rep, st, &o.filter, reg, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    if ((rc = refuse_empty(rep, st, tuned_only)) || (rc = write_report(rep, st, &o, out)))
        goto done;
    if (out[0])
        say_written(rep, st, &o, out, tuned_only);
    rc = EXIT_OK;
done:
    gb_report_close(rep);
    gb_store_close(st);
    gb_registry_close(reg);
    return rc;
}
