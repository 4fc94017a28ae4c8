/* cmd_cache.c: `gemmbench cache list|clear`: the persistent program binary cache. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_entry(const char *key, uint64_t bytes, void *user)
{
    size_t *n = user;
    (*n)++;
    printf("--- %llu bytes\n%s", (unsigned long long)bytes, key);
}

int cmd_cache(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: gemmbench cache list|clear\n"
               "  list   every program in the binary cache: its key (device, driver, options,\n"
               "         program, source) and size\n"
               "  clear  remove every program\n");
        return EXIT_OK;
    }
    char dir[1024];
    const char *d = gb_cache_dir(dir, sizeof dir);
    if (argc == 2 && !strcmp(argv[1], "list")) {
        if (!d) {
            printf("program cache: off (GEMMBENCH_NO_CACHE or no home directory)\n");
            return EXIT_OK;
        }
        size_t n = 0;
        printf("program cache: %s\n", d);
        gb_cache_list(print_entry, &n);
        printf("%zu programs\n", n);
        return EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "clear")) {
        size_t removed = 0;
        gb_cache_clear(&removed);
        printf("program cache: removed %zu programs from %s\n", removed, d ? d : "(off)");
        return EXIT_OK;
    }
    return cli_error(GB_EBADARG, "give list or clear: gemmbench cache list|clear");
}
