/* cmd_export.c: `gemmbench export --format json|csv [--store PATH] [--out FILE]`: the results
 * store as JSON (every field and raw sample; what `import` reads) or CSV (one line per point,
 * statistics but no raw samples). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/store/store.h"
#include "cli.h"

static void usage(void)
{
    printf("usage: gemmbench export [--format json|csv] [--store PATH] [--out FILE]\n"
           "  --format json|csv  json (default): every field and raw sample, the format\n"
           "                     'gemmbench import' reads; csv: one line per point with\n"
           "                     per-phase statistics, no raw samples\n"
           "  --store PATH       the store to read (default: 'gemmbench store path')\n"
           "  --out FILE         write FILE (atomically) instead of standard output\n");
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"store", required_argument, NULL, 's'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *format = "json", *path = NULL, *out = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 's': path = optarg; break;
        case 'o': out = optarg; break;
        case 'h': usage(); return EXIT_OK;
        default: return cli_bad_option(c, argv[optind - 1], "export");
        }
    }
    if (optind < argc)
        return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench export --help'",
                         argv[optind]);
    int csv = !strcmp(format, "csv");
    if (!csv && strcmp(format, "json"))
        return cli_error(GB_EBADARG, "unknown --format '%s'; use json or csv", format);
    gb_store_t *st = NULL;
    int rc = cli_store_open(&st, path, 0);
    if (rc)
        return rc;
    cli_out_t o;
    if ((rc = cli_out_open(&o, out, gb_store_path(st))))
        goto done;
    size_t n = 0;
    rc = csv ? gb_store_export_csv(st, o.f, &n) : gb_store_export_json(st, o.f, &n);
    if ((rc = cli_out_close(&o, rc)) > 0)
        goto done;
    if (rc != GB_OK) {
        rc = cli_error(rc, "%s",
                       rc == GB_EIO && !gb_store_errmsg(st)[0] ? "writing the export failed"
                                                               : gb_store_errmsg(st));
        goto done;
    }
    if (out)
        printf("exported %zu points from %s to %s (%s)\n", n, gb_store_path(st), out, format);
    rc = EXIT_OK;
done:
    gb_store_close(st);
    return rc;
}
