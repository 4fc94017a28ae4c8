/* run_show.h: what `gemmbench run`'s two files share: cmd_run.c measures the points, and
 * run_show.c shows them, as a table (a header, a row per point, notes after the rows) or as
 * JSON. */
#ifndef GB_CLI_RUN_SHOW_H
#define GB_CLI_RUN_SHOW_H

#include <cjson/cJSON.h>

#include "options.h"

/* What the table says once, beside its rows. */
typedef struct run_table {
    double measured_peak[2]; /* gemmbench ceilings' peaks for the device (0: never measured) */
    double copy_ceiling[2];  /* and its copies' plateau to the device and back for the host
                                memory of the run (0: not measured) */
    char measured_when[32];  /* when they were measured ("": never) */
    char energy_note[320];   /* what the energy column rests on */
    int traffic_rows;        /* rows with the kernel's declared memory traffic */
    int over_measured;       /* rows above the measured peak (meas% over 100) */
} run_table_t;

/* The lines above the rows: the device, its peaks, what the columns count under the plan's
 * options, the layout every kernel takes where one_layout (gb_explore_one_layout) and what
 * --verdict holds results to; then the column heads. */
void cli_run_header(const run_table_t *tb, const gb_device_info_t *dev, const gb_explore_plan_t *o,
                    int one_layout, gb_verdict_t verdict);
/* Where the kernels' own layouts differ and none was given: the line saying that every one
 * takes the plan's layout, and how to choose another. */
void cli_one_layout_note(const gb_explore_plan_t *o);
/* One point's row (kernel as named, its problem and result, hm its host memory, serial_ms the
 * serial offload measured beside a pipelined point or 0, t its declared traffic, oc its outcome
 * under --verdict, caps its implementation's capabilities); what the notes after the rows need
 * is counted into tb. */
void cli_run_row(run_table_t *tb, const char *kernel, const gb_problem_t *p, const gb_result_t *r,
                 gb_host_mem_t hm, double serial_ms, const gb_traffic_t *t, gb_outcome_t oc,
                 unsigned caps);
/* The same point as one item of run --json, which the caller owns (cJSON_Delete, or added to
 * an array). */
cJSON *cli_run_json(const run_table_t *tb, const char *kernel, const gb_problem_t *p,
                    const gb_result_t *r, const gb_bench_options_t *b, double serial_ms,
                    const gb_traffic_t *t, gb_outcome_t oc, unsigned caps);
/* After the rows: the notes on energy, on rows above the measured peak and on traffic, where
 * the rows called for them. */
void cli_run_notes(const run_table_t *tb);
/* A row for a kernel the sweep skips (from 'all'), once per kernel and precision; or, with
 * shape, for one of its points (its shape) where others run. */
void cli_run_skipped(const gb_job_t *job, int shape, const char *why);

/* -i 0: the lines above the rows. */
void cli_run_build_header(const gb_device_info_t *di);
/* -i 0: a point's build time in ms (library: a library peer, with nothing to build), as a row,
 * or as an item added to out (run --json's array; NULL: the row). */
void cli_run_built(cJSON *out, const char *kernel, const gb_problem_t *p, double ms, int library);

#endif
