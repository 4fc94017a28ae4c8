/* report.h: reports from the results store: the GEMMbench paper's tables (GFLOP/s of each
 * repetition with their mean and standard deviation, Table 2; GFLOP/s by work-group size,
 * Table 3) as text, Markdown, CSV and JSON, and a self-contained HTML page with gnuplot's SVG
 * plots. Reads the store only through store.h and prints nothing: the CLI (cmd_report.c) opens
 * the store and the output file. See docs/report.md.
 */
#ifndef GB_REPORT_H
#define GB_REPORT_H

#include <stdio.h>

#include "tool/store/tuning.h"

typedef enum gb_report_format {
    GB_REPORT_TEXT = 0,
    GB_REPORT_MD,
    GB_REPORT_CSV,
    GB_REPORT_JSON,
    GB_REPORT_HTML
} gb_report_format_t;

/* Which tables: repetitions (Table 2), work-group sizes (Table 3), the tuning view (the
 * winners per shape class from the tuning database, and the tuning runs), or all. */
enum { GB_REPORT_REPS = 1, GB_REPORT_LWS = 2, GB_REPORT_TUNED = 4, GB_REPORT_ALL = 7 };

/* Rep columns the tables show; a row's mean and std count every repetition. */
#define GB_REPORT_MAX_REP_COLS 16

/* Which points a report takes. Strings are copied by gb_report_open. */
typedef struct gb_report_filter {
    const char *kernels; /* comma-separated kernel, preset or family names (any case); NULL: all */
    const char *device;  /* substring of the device or platform name (any case); NULL: all */
    int precision;       /* a gb_precision_t, or -1 for all */
    int timing;          /* a gb_timing_t, or -1 for all */
} gb_report_filter_t;

typedef struct gb_report gb_report_t;

/* "text", "md", "csv", "json", "html" and back (GB_EBADARG for anything else); the file
 * extension a format's output takes ("txt", "md", ...). */
int gb_report_format_parse(const char *s, gb_report_format_t *out);
const char *gb_report_format_ext(gb_report_format_t fmt);

/* An empty report taking the points f lets through (f may be NULL: all). Free with
 * gb_report_close. GB_ENOMEM on failure. */
int gb_report_open(gb_report_t **out, const gb_report_filter_t *f);
void gb_report_close(gb_report_t *r);
/* The kernel registry (may be NULL: none) from which the rows' memory traffic is computed
 * (docs/kernel-metadata.md, "Memory traffic"): set before the first gb_report_add; it must
 * outlive the report. */
void gb_report_set_registry(gb_report_t *r, const gb_registry_t *reg);
/* Offers one point: counted, and kept when the filter lets it through (its rep joins the row
 * of its definition). GB_ENOMEM on failure; GB_EBADARG once the report is finished. */
int gb_report_add(gb_report_t *r, const gb_point_t *pt);
/* Groups, sorts and summarises what was added; source names where the points came from (the
 * store's path) in the header. Call once, after the last gb_report_add (GB_EBADARG after that);
 * GB_ENOMEM on failure. */
int gb_report_finish(gb_report_t *r, const char *source);
/* The tuning view's data: a tuned entry, a tuning run, and the run's evaluations in order (to
 * the run added last with ev->run_id; ignored when the filter did not take the run). The
 * filter's device, precision and kernel apply; timing does not. GB_ENOMEM on failure; GB_EBADARG
 * once the report is finished. */
int gb_report_add_tuned(gb_report_t *r, const gb_tuned_entry_t *e);
int gb_report_add_run(gb_report_t *r, const gb_tune_run_t *run);
int gb_report_add_eval(gb_report_t *r, const gb_tune_eval_t *ev);
/* The time-energy Pareto front of n candidates (pareto.c): on[i] 1 where no other candidate is
 * as fast and as frugal and strictly better in one (of equal ones, the first), 0 where one is
 * or where time[i] or energy[i] is not finite. Returns how many are on it. */
size_t gb_report_pareto(const double *time, const double *energy, size_t n, unsigned char *on);
/* Opens a report, adds every point of st and its tuning data and the devices' stored ceilings,
 * and finishes it; reg (may be NULL) as gb_report_set_registry. On error *out is NULL and msg
 * says why (the store's message, or out of memory). */
int gb_report_read(gb_report_t **out, gb_store_t *st, const gb_report_filter_t *f,
                   const gb_registry_t *reg, char *msg, size_t msglen);

/* Points offered, points kept, and table rows (definitions without the repetition index). */
size_t gb_report_offered(const gb_report_t *r);
size_t gb_report_selected(const gb_report_t *r);
size_t gb_report_rows(const gb_report_t *r);
/* Rows whose family declares its memory traffic (the roofline's points). */
size_t gb_report_traffic_rows(const gb_report_t *r);
/* Work-group-size tables: series measured at two or more work-group sizes. */
size_t gb_report_lws_tables(const gb_report_t *r);
/* Tuned entries and tuning runs kept, and tuning rows offered (0: the store has no tuning). */
size_t gb_report_tuned(const gb_report_t *r);
size_t gb_report_tune_runs(const gb_report_t *r);
size_t gb_report_tuning_offered(const gb_report_t *r);
/* The filters as text ("--kernel naive --precision s"), or "none". */
const char *gb_report_filter_text(const gb_report_t *r, char *buf, size_t len);

/* Writes the report in fmt to f: the tables asked for (GB_REPORT_REPS, _LWS, _TUNED or _ALL;
 * CSV holds one table, so it takes one of the first three). The tuning view is written when
 * the report holds tuning data, or when it alone is asked for (HTML then draws no point). HTML
 * runs gnuplot first (every plot is made before the first byte is written): GB_EIO with msg
 * naming the package when gnuplot is missing or fails. GB_EBADARG for a table choice the format
 * cannot hold, GB_EIO when writing fails. */
int gb_report_write(const gb_report_t *r, gb_report_format_t fmt, unsigned tables, FILE *f,
                    char *msg, size_t msglen);

/* ---- the offload decision (gemmbench offload) ---------------------------------------------- */

/* A median time's distribution-free confidence interval (gb_median_ci) and its coverage; all 0
 * where there is none. */
typedef struct gb_offload_ci {
    double lo, hi, coverage;
} gb_offload_ci_t;

/* One size: the host BLAS, the device's kernel (with its helper passes) and the device with the
 * copies from each kind of host memory (indexed by gb_host_mem_t; mapped: zero-copy, where the
 * device shares the host's memory), medians in ms (0: failed or not measured), and the
 * intervals of the host's and the offloads' medians. */
typedef struct gb_offload_row {
    size_t n;
    double host_ms, kernel_ms, offload_ms[GB_HOST_KINDS];
    gb_offload_ci_t host_ci, offload_ci[GB_HOST_KINDS];
} gb_offload_row_t;

typedef struct gb_offload {
    const char *device, *host, *kernel; /* the device, the host's BLAS, the device's kernel */
    gb_precision_t precision;
    const gb_offload_row_t *rows; /* by size, ascending */
    size_t n;
} gb_offload_t;

/* Which wins at row i: -1 the host, else the host memory kind whose offload is the fastest. */
int gb_offload_winner(const gb_offload_row_t *r);
/* The same in words ("host", "device (pinned)", "device (pageable)", "device (mapped)"), and
 * whether it is faster than the runner-up beyond the noise, its interval of the median wholly
 * below the runner-up's, or within it, with both intervals: "device (pinned), beyond the noise:
 * [0.2, 0.25] ms against [0.5, 0.6] ms for host (95% CIs of the median)", into buf. */
const char *gb_offload_verdict(const gb_offload_row_t *r, char *buf, size_t len);
/* The break-even size for host memory kind hm: the smallest size from which the offload beats
 * the host at that and every larger size; 0 when it does not at the largest. */
/* Was kind hm measured at any size (mapped is not, on a device that does not share memory)? */
int gb_offload_measured(const gb_offload_t *o, int hm);
size_t gb_offload_breakeven(const gb_offload_t *o, int hm);
/* A self-contained HTML page: time against size (log-log) for each, the break-even sizes
 * marked, and the table. GB_EIO with msg naming gnuplot-nox when gnuplot cannot be run. */
int gb_report_offload_html(const gb_offload_t *o, FILE *f, char *msg, size_t msglen);
/* GB_OK when gnuplot (or GEMMBENCH_GNUPLOT) runs, else GB_EIO with how to get it in msg: for
 * commands that measure first and plot last, to refuse before measuring. */
int gb_report_gnuplot_check(char *msg, size_t msglen);

#endif
