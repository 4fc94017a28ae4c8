/* unit_builders.c: a build process starts in the environment its tuner started with, not in
 * what the tuner's environment became: what loads with the OpenCL platforms may change the live
 * one (src/tool/tune/builders.c). The test starts itself as the build process, which answers the
 * ready line only when it sees the value the tuner started with. */
#include "unit.h"
#include "tool/tune/builders.h"

#define VAR "GB_UNIT_BUILDERS"
#define HELLO "gemmbench-builder 1"

int main(int argc, char **argv)
{
    const char *v = getenv(VAR);
    if (argc > 1 && !strcmp(argv[1], "worker")) {
        printf(v && !strcmp(v, "started") ? HELLO "\n" : "it saw " VAR "=%s\n", v ? v : "");
        return 0;
    }
    if (!v || strcmp(v, "started")) { /* start again with the value in the starting environment */
        setenv(VAR, "started", 1);
        execv("/proc/self/exe", argv);
        perror("execv");
        return 1;
    }
    setenv(VAR, "changed", 1);
    char *wargv[] = {argv[0], "worker", NULL};
    char msg[256] = "", why[64];
    gb_builder_t w;
    CHECK_RC(gb_builder_spawn(&w, wargv, msg, sizeof msg), GB_OK);
    const int rc = gb_builder_ready(&w, msg, sizeof msg);
    if (!CHECK_RC(rc, GB_OK))
        printf("    %s\n", msg);
    gb_builder_close(&w);
    gb_builder_reap(w.pid, why, sizeof why);
    CHECK_HAS(why, "exited with status 0");
    return unit_finish();
}
