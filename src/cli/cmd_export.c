/* cmd_export.c: `gemmbench export --format json|csv [--store PATH] [--out FILE]`: the results
 * store as JSON (every field and raw sample; what `import` reads) or CSV (one line per point,
 * statistics but no raw samples); `--bundle FILE`: as a bundle others can verify
 * (src/tool/bundle). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/bundle/bundle.h"
#include "tool/store/store.h"
#include "cli.h"

static void usage(void)
{
    printf("usage: gemmbench export [--format json|csv] [--store PATH] [--out FILE]\n"
           "       gemmbench export --bundle FILE [--store PATH] [--kernel-path DIR]\n"
           "  --format json|csv  json (default): every field and raw sample, the format\n"
           "                     'gemmbench import' reads; csv: one line per point with\n"
           "                     per-phase statistics, no raw samples\n"
           "  --store PATH       the store to read (default: 'gemmbench store path')\n"
           "  --out FILE         write FILE (atomically) instead of standard output\n"
           "  --bundle FILE      one file others can check with 'gemmbench verify': the\n"
           "                     points as the JSON export holds them, the program text\n"
           "                     each was compiled from (where this build's family has the\n"
           "                     same text; else its hash alone), the tuning entries citing\n"
           "                     them, and a SHA-256 digest of the file (docs/bundles.md)\n"
           "  --kernel-path DIR  families beside the built-in ones, for --bundle's texts\n");
}

/* --bundle FILE: 0 or the exit code after a one-line error. */
static int export_bundle(const char *file, const char *path, const char *kpath)
{
    gb_store_t *st = NULL;
    gb_registry_t *reg = NULL;
    int rc = cli_store_open(&st, path, 0);
    if (rc || (rc = cli_registry_open(&reg, kpath))) {
        gb_store_close(st);
        return rc;
    }
    cli_out_t o;
    char msg[1024] = "";
    size_t n = 0, np = 0;
    if (!(rc = cli_out_open(&o, file, gb_store_path(st)))) {
        const int brc = gb_bundle_write(st, reg, o.f, &n, &np, msg, sizeof msg);
        if ((rc = cli_out_close(&o, brc)) <= 0 && brc != GB_OK)
            rc = cli_error(brc == GB_ENOPOINT ? GB_EBADARG : brc, "%s", msg);
        else if (rc < 0)
            rc = cli_error(rc, "writing the bundle failed");
        else if (rc == GB_OK)
            printf("bundled %zu points from %s into %s, with %zu program texts\n", n,
                   gb_store_path(st), file, np);
    }
    gb_registry_close(reg);
    gb_store_close(st);
    return rc > 0 ? rc : EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"store", required_argument, NULL, 's'},
                                         {"out", required_argument, NULL, 'o'},
                                         {"bundle", required_argument, NULL, 'b'},
                                         {"kernel-path", required_argument, NULL, 'k'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *format = NULL, *path = NULL, *out = NULL, *bundle = NULL, *kpath = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f': format = optarg; break;
        case 's': path = optarg; break;
        case 'o': out = optarg; break;
        case 'b': bundle = optarg; break;
        case 'k': kpath = optarg; break;
        case 'h': usage(); return EXIT_OK;
        default: return cli_bad_option(c, argv[optind - 1], "export");
        }
    }
    if (optind < argc)
        return cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench export --help'",
                         argv[optind]);
    if (bundle && (format || out))
        return cli_error(GB_EBADARG, "--bundle FILE names its own output and format; give it "
                                     "without --format or --out");
    if (!bundle && kpath)
        return cli_error(GB_EBADARG, "--kernel-path goes with --bundle alone");
    if (bundle)
        return export_bundle(bundle, path, kpath);
    if (!format)
        format = "json";
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
