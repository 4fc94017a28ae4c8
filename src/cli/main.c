/* main.c: the gemmbench command line: dispatches to one file per subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gemmbench COMMAND [options]\n"
            "\n"
            "commands:\n"
            "  devices [--json]                 list OpenCL platforms and devices with peaks\n"
            "  kernels [--json] [-p P -t T -d D] list kernel families, presets, and with a device\n"
            "                                   whether each can run there\n"
            "  run [options]                    build, validate and time kernels (run --help)\n"
            "  cache list|clear                 the program binary cache\n"
            "  version                          print the version\n"
            "\n"
            "exit codes: 0 success, 1 a result failed validation, 2 bad usage or input,\n"
            "            3 OpenCL, build or system failure\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "devices"))
        return cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "kernels"))
        return cmd_kernels(argc - 1, argv + 1);
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "cache"))
        return cmd_cache(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("gemmbench %s\n", gb_version());
        return EXIT_OK;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        usage(stdout);
        return EXIT_OK;
    }
    return cli_error(GB_EBADARG, "unknown command '%s'; run 'gemmbench help' for the list", cmd);
}
