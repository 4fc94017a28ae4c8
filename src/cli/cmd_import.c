/* cmd_import.c: `gemmbench import FILE [--store PATH]`: merges a JSON export (from this machine
 * or another) into the results store. Points are recognised by id, so importing a file twice,
 * or a store's own export, adds nothing. A malformed file writes nothing, and creates no store. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/bundle/bundle.h"
#include "tool/store/store.h"
#include "rt/util/util.h"
#include "cli.h"

#define MAX_IMPORT_BYTES (256u << 20)

static void usage(void)
{
    printf("usage: gemmbench import FILE [--store PATH]\n"
           "  FILE          a JSON export ('gemmbench export --format json') or a bundle\n"
           "                ('export --bundle', verified first); '-' reads standard input\n"
           "  --store PATH  the store to merge into (default: 'gemmbench store path'; created\n"
           "                when missing)\n"
           "Points already in the store (same id: same device, driver, kernel, parameters,\n"
           "source, problem, inputs, iterations, timing and repetition) are left as they are.\n");
}

/* A bundle's points, verified first: GB_OK, or an error with msg (one that fails a check is
 * GB_EBADARG, its first failure named). */
static int bundle_points(const char *text, size_t len, const char *file, gb_store_import_t **im,
                         char *msg, size_t msglen)
{
    gb_bundle_check_t chk;
    const int rc = gb_bundle_verify(text, len, file, &chk, im, msg, msglen);
    if (rc != GB_OK || !chk.failures)
        return rc;
    gb_store_import_free(*im);
    *im = NULL;
    return gb__fail(msg, msglen, GB_EBADARG,
                    "%s fails verification (%zu of %zu checks), first: %s; see 'gemmbench verify "
                    "%s'",
                    file, chk.failures, chk.checks, chk.failure[0], file);
}

int cmd_import(int argc, char **argv)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *path = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's': path = optarg; break;
        case 'h': usage(); return EXIT_OK;
        default: return cli_bad_option(c, argv[optind - 1], "import");
        }
    }
    if (optind != argc - 1)
        return cli_error(GB_EBADARG,
                         "give one file to import: gemmbench import FILE [--store PATH]");
    const char *file = argv[optind];
    size_t len = 0;
    char *text;
    int rc = cli_read_file(file, MAX_IMPORT_BYTES, "export and import in parts", &text, &len);
    if (rc)
        return rc;
    /* The whole file is checked before the store is opened: a bad file creates no store. */
    char msg[1024];
    gb_store_import_t *im = NULL;
    rc = gb_bundle_is(text, len) ? bundle_points(text, len, file, &im, msg, sizeof msg)
                                 : gb_store_import_parse(text, len, file, &im, msg, sizeof msg);
    free(text);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    gb_store_t *st = NULL;
    if ((rc = cli_store_open(&st, path, 1))) {
        gb_store_import_free(im);
        return rc;
    }
    size_t added = 0, present = 0;
    rc = gb_store_import_commit(st, im, &added, &present);
    gb_store_import_free(im);
    if (rc != GB_OK) {
        rc = cli_error(rc, "%s", gb_store_errmsg(st));
    } else if (added == 0) {
        printf("nothing new: all %zu points in %s are already in %s (recognised by id)\n", present,
               file, gb_store_path(st));
    } else {
        printf("imported %zu new points from %s into %s; %zu already there (recognised by id)\n",
               added, file, gb_store_path(st), present);
    }
    gb_store_close(st);
    return rc;
}
