/* cmd_verify.c: `gemmbench verify FILE`: a bundle checked as a stranger would check it
 * (src/tool/bundle): says what it checked and each failure, exit 1 on any. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt/util/util.h"
#include "tool/bundle/bundle.h"
#include "cli.h"

#define MAX_BUNDLE_BYTES (512u << 20)

static void usage(void)
{
    printf("usage: gemmbench verify FILE\n"
           "Checks a bundle ('gemmbench export --bundle'): its digest against the file; each\n"
           "point's id against its definition; its statistics against its timed calls, its\n"
           "GFLOP/s against them and its shape, its verdicts against the errors it recorded;\n"
           "each program text against its hash; each tuning entry's evidence against the\n"
           "points. Prints what it checked and every failure (docs/bundles.md).\n"
           "exit: 0 every check passed, 1 one failed, 2 not a bundle, 3 a system failure\n");
}

int cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') {
            usage();
            return EXIT_OK;
        }
        return cli_bad_option(c, argv[optind - 1], "verify");
    }
    if (optind != argc - 1)
        return cli_error(GB_EBADARG, "give one bundle: gemmbench verify FILE");
    const char *file = argv[optind];
    char *text = NULL, msg[1024];
    size_t len = 0;
    int rc =
        cli_read_file(file, MAX_BUNDLE_BYTES, "make the bundle from a store in parts", &text, &len);
    if (rc)
        return rc;
    gb_bundle_check_t chk;
    rc = gb_bundle_verify(text, len, file, &chk, NULL, msg, sizeof msg);
    free(text);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    printf("%s: %zu points, %zu program texts (%zu points with their program's hash alone), "
           "%zu tuning entries; %zu checks, %zu failed\n",
           file, chk.points, chk.programs, chk.unchecked, chk.tuned, chk.checks, chk.failures);
    const size_t shown = sizeof chk.failure / sizeof chk.failure[0];
    for (size_t i = 0; i < chk.failures && i < shown; i++)
        printf("FAILED: %s\n", chk.failure[i]);
    if (chk.failures > shown)
        printf("... and %zu more\n", chk.failures - shown);
    return chk.failures ? EXIT_INVALID : EXIT_OK;
}
