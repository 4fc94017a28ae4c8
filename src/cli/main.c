/* main.c: the gemmbench command line: dispatches to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tool/store/store.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: gemmbench COMMAND [options]\n"
        "\n"
        "commands:\n"
        "  devices [--json]                 list OpenCL platforms and devices with peaks\n"
        "  kernels [--json] [-p P -t T -d D] list kernel families, presets, and with a device\n"
        "                                   whether each can run there\n"
        "  run [options]                    build, validate and time kernels (run --help)\n"
        "  explore [options]                sweep kernels x sizes x work-groups x parameters\n"
        "                                   into the results store, resumably (explore --help)\n"
        "  replay ID                        re-run a stored point and compare with it\n"
        "  compare BASE NEW                 two stores or exports side by side: speedups and\n"
        "                                   a Mann-Whitney test per point definition\n"
        "  tune -k FAMILY [shapes]          search a family's parameters for the fastest per\n"
        "                                   shape; keeps winners for -k auto (tune --help)\n"
        "  check -k KERNEL                  a kernel under test: Oclgrind's checkers and the\n"
        "                                   validation at shapes that straddle tiles\n"
        "  report [--format F]              the store as the GEMMbench paper's tables (text,\n"
        "                                   md, csv, json) or a page with plots (report --help)\n"
        "  export --format json|csv         write the results store out (export --help)\n"
        "  import FILE                      merge a JSON export or a bundle into the results\n"
        "                                   store\n"
        "  verify FILE                      check a bundle (export --bundle) as a stranger would\n"
        "  store info|list|check|path       what the results store holds\n"
        "  tuned list|show|export|import|sync  the tuning database: the best configuration\n"
        "                                   per device and shape class (tuned --help)\n"
        "  ceilings [-p P -t T -d D] [--json] peak FLOP/s and memory bandwidth, measured\n"
        "  offload -n LIST [--out F.html]   host BLAS or the device with its copies: which is\n"
        "                                   faster per size, and the break-even size\n"
        "  cache list|clear                 the program binary cache\n"
        "  version                          print the version\n"
        "\n"
        "--verbose (after any command): print the driver's build log of each program built\n"
        "\n"
        "exit codes: 0 success, 1 a result failed validation, 2 bad usage or input,\n"
        "            3 OpenCL, build or system failure\n");
}

int cli_verbose;

/* The library's warnings (a damaged program-cache entry rebuilt): one line each on stderr. */
static void print_warning(const char *msg, void *user)
{
    (void)user;
    fprintf(stderr, "gemmbench: warning: %s\n", msg);
}

/* --verbose: the driver's log of each program built, on stderr, apart from the tables on stdout. */
static void print_build_log(const char *program, const char *options, const char *log, void *user)
{
    (void)user;
    fprintf(stderr, "gemmbench: build log of '%s' (options '%s'):\n%s%s", program, options, log,
            log[strlen(log) - 1] == '\n' ? "" : "\n");
}

int main(int argc, char **argv)
{
    gb_set_warning_handler(print_warning, NULL);
    /* --verbose, anywhere after the command, is for every command: taken out here. */
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        if (i >= 2 && !strcmp(argv[i], "--verbose")) {
            gb_set_build_log_handler(print_build_log, NULL);
            cli_verbose = 1;
        } else
            argv[kept++] = argv[i];
    }
    argc = kept;
    argv[argc] = NULL;
    if (argc < 2)
        return cli_error(GB_EBADARG, "no command given; run 'gemmbench --help' for the list");
    /* "help CMD" is "CMD --help". */
    char *help_argv[3];
    if (argc == 3 && !strcmp(argv[1], "help")) {
        help_argv[0] = argv[0];
        help_argv[1] = argv[2];
        help_argv[2] = (char *)"--help";
        argv = help_argv;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "devices"))
        return cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "kernels"))
        return cmd_kernels(argc - 1, argv + 1);
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "ceilings"))
        return cmd_ceilings(argc - 1, argv + 1);
    if (!strcmp(cmd, "offload"))
        return cmd_offload(argc - 1, argv + 1);
    if (!strcmp(cmd, "cache"))
        return cmd_cache(argc - 1, argv + 1);
    if (!strcmp(cmd, "explore"))
        return cmd_explore(argc - 1, argv + 1);
    if (!strcmp(cmd, "replay"))
        return cmd_replay(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "verify"))
        return cmd_verify(argc - 1, argv + 1);
    if (!strcmp(cmd, "tune"))
        return cmd_tune(argc - 1, argv + 1);
    if (!strcmp(cmd, "__build-worker")) /* tune's build processes; not in the help */
        return cmd_build_worker(argc - 1, argv + 1);
    if (!strcmp(cmd, "check"))
        return cmd_check(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "export"))
        return cmd_export(argc - 1, argv + 1);
    if (!strcmp(cmd, "import"))
        return cmd_import(argc - 1, argv + 1);
    if (!strcmp(cmd, "store"))
        return cmd_store(argc - 1, argv + 1);
    if (!strcmp(cmd, "tuned"))
        return cmd_tuned(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("gemmbench %s (revision %s)\n", gb_version(), gb_store_git_revision());
        return EXIT_OK;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    return cli_error(GB_EBADARG, "unknown command '%s'; run 'gemmbench help' for the list", cmd);
}
