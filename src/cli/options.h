/* options.h: the options of the commands that measure (run, explore), parsed once (options.c). */
#ifndef GB_CLI_OPTIONS_H
#define GB_CLI_OPTIONS_H

#include "tool/explore/explore.h"
#include "tool/tune/choose.h"
#include "cli.h"

/* What a measuring command is told besides its plan. */
typedef struct cli_measure {
    gb_device_selector_t sel;
    const char *kpath; /* --kernel-path DIR */
    const char *store; /* --store PATH (NULL: the default store) */
    const char *plan;  /* --plan NAME|FILE */
    int no_store, json, dry_run;
    long pause_ms;
    int mpi;                /* --mpi: one rank's part of a sweep over MPI ranks */
    const char *device_map; /* --device-map D0,D1,..: rank r's -d is Dr */
    gb_verdict_t verdict;   /* --verdict: what a validated result must meet to pass */
    int build_only;         /* -i 0: build every point's programs, call nothing (run) */
    const char *objective;  /* --objective: whose tuned entries -k auto takes (NULL: time) */
} cli_measure_t;

/* The options only some commands take. */
enum {
    CLI_OPT_PLAN = 1u,        /* --plan */
    CLI_OPT_DRY_RUN = 2u,     /* --dry-run */
    CLI_OPT_PAUSE = 4u,       /* --pause MS */
    CLI_OPT_JSON = 8u,        /* --json */
    CLI_OPT_NO_STORE = 16u,   /* --no-store */
    CLI_OPT_REPEAT = 32u,     /* --repeat R */
    CLI_OPT_SHARD = 64u,      /* --shard I/N */
    CLI_OPT_MPI = 128u,       /* --mpi, --device-map */
    CLI_OPT_VERDICT = 256u,   /* --verdict faithful|bound */
    CLI_OPT_BUILD_ONLY = 512u /* -i 0: build only, as Intel's sample means it */
};

/* Parses argv for command cmd: the shared options (the plan's keys: -k -n -M -N -K -i --warmup
 * --precision --layout --transA --transB --alpha --beta --lda --ldb --ldc --offa --offb --offc
 * --lws --lws-grid --lws-items --param --seed --dist --timing -v --no-validate --shapes FILE; and -p -t -d
 * --kernel-path --store) and those of extra. A --plan is loaded first, and flags override its
 * keys. Returns 0; -1 after --help (usage printed); or the exit code after a one-line error. */
int cli_measure_parse(int argc, char **argv, const char *cmd, unsigned extra, void (*usage)(void),
                      cli_measure_t *o, gb_explore_plan_t *pl);

/* --mpi (explore, tune): starts MPI and checks what does not go with it (--shard, --dry-run);
 * with --device-map, sets this rank's -d; says on stderr when mpirun bound the rank to fewer
 * cores than the host has. 0, or the exit code after an error. */
int cli_mpi_start(cli_measure_t *o, const gb_explore_plan_t *pl, const char *cmd, int *argc,
                  char ***argv, gb_fleet_mpi_t *mpi);
/* The devices -d lists (cli_devices_open); under MPI (without --device-map), this rank's one:
 * the devices taken in turn by the ranks of one host. When they cannot be opened under MPI, the
 * likely cause and its fix on stderr. 0, or the exit code after an error. */
int cli_measure_devices_open(cli_device_t *dev, const cli_measure_t *o, const gb_fleet_mpi_t *mpi);
/* For a command that measures on one device: the registry (--kernel-path) and the device -p, -t
 * and -d pick, *di its facts. 0, or the exit code after an error. */
int cli_measure_open(const cli_measure_t *o, gb_registry_t **reg, cli_device_t *dev,
                     const gb_device_info_t **di);

/* The tuning database, read when the plan's kernels name auto (auto.c). */
typedef struct cli_auto {
    gb_auto_t db;
    int open;
} cli_auto_t;
/* Loads the store's entries (store: the --store path, NULL for the default; read even with
 * --no-store) for -k auto's library handles when pl asks for auto, objective's entries over
 * the time ones (NULL: time; gb_auto_open); 0, or the exit code after an error (an objective
 * without -k auto too). cli_auto_close prints what reading tuning files skipped, as one
 * warning. */
int cli_auto_open(cli_auto_t *a, const gb_explore_plan_t *pl, const char *store,
                  const char *objective);
/* The chooser for gb_explore_open: NULL when auto is not asked for. */
const gb_chooser_t *cli_auto_chooser(const cli_auto_t *a);
void cli_auto_close(cli_auto_t *a);

#endif
