/* energy_ticker.c COUNTER: a RAPL-like counter for tests (GEMMBENCH_RAPL_FILE): the microjoules
 * in COUNTER grow by 20000 every 10 ms (2 W), each value written whole and renamed over COUNTER,
 * so a reader never sees a partial file, until COUNTER is removed or the parent exits. One
 * process with no forks a tick: a shell loop of mv and sleep, on a machine short of memory and
 * cores, stalled past an energy loop's wait of 0.5 s (tune_energy.sh). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char tmp[4096];
    if (argc != 2 || snprintf(tmp, sizeof tmp, "%s.new", argv[1]) >= (int)sizeof tmp) {
        fprintf(stderr, "usage: energy_ticker COUNTER (a path under 4 KB)\n");
        return 2;
    }
    const pid_t parent = getppid();
    const struct timespec tick = {0, 10 * 1000 * 1000};
    unsigned long long uj = 0;
    while (access(argv[1], F_OK) == 0 && getppid() == parent) {
        uj += 20000;
        FILE *f = fopen(tmp, "w");
        if (!f)
            return 0; /* the test's folder is gone */
        const int ok = fprintf(f, "%llu\n", uj) > 0;
        if (fclose(f) != 0 || !ok || rename(tmp, argv[1]) != 0)
            return 0;
        nanosleep(&tick, NULL);
    }
    return 0;
}
