/* report_int.h: what the report's files share: the grouped points (rows, one per definition
 * without its repetition index; work-group-size tables; devices), the text grid that text,
 * Markdown and HTML tables are drawn from, and the gnuplot runner. */
#ifndef GB_REPORT_INT_H
#define GB_REPORT_INT_H

#include "report.h"
#include "tool/store/tuning.h"
#include "rt/util/util.h"

/* A device as the rows name it: a short label (its name, cut) and its full facts. */
typedef struct gb_report__dev {
    char label[32];
    char name[128], vendor[128], platform[128], platform_version[128], driver[64], type[16];
    /* Its measured ceilings (gemmbench ceilings), where the store has them: peak GFLOP/s by
     * precision and memory bandwidth in GB/s (0: not measured), and when ("": none stored). */
    double peak[2], bandwidth;
    char ceilings_when[32];
} gb_report__dev_t;

/* One repetition of a row: its stored point and headline GFLOP/s. */
typedef struct gb_report__rep {
    unsigned rep;
    double gflops;
    double kgflops; /* 2*M*N*K over the main kernel's median time (0: not recorded) */
    char id[GB_POINT_ID_LEN + 1];
} gb_report__rep_t;

/* One row of the repetitions table: every stored repetition of one definition. */
typedef struct gb_report__row {
    char *key;         /* the definition text without its rep line (owned) */
    char *skey;        /* the series: key without the size and the work-group size (owned) */
    char *pkey;        /* a plot's series: skey without the number of calls (owned) */
    char *settings;    /* "NAME=VALUE\n" lines: parameters, scalars, inputs, padding (owned) */
    char variant[256]; /* the settings that tell this row from others of its kernel */
    size_t dev;        /* index into devices */
    char kernel[2 * GB_NAME_MAX], family[2 * GB_NAME_MAX], preset[2 * GB_NAME_MAX];
    char *params_json; /* every parameter, {"NAME":VALUE,...} (owned) */
    gb_precision_t precision;
    char layout[16]; /* "row-NT" */
    gb_timing_t timing;
    size_t m, n, k;
    int has_lws; /* LX/LY parameters: the work-group size J x I */
    long lws[2];
    gb_report__rep_t *reps; /* sorted by rep index after finishing (owned) */
    size_t nreps, cap;
    double mean, std, min, max; /* over the reps' GFLOP/s; std NaN with one rep */
    size_t nvalid, nfail, nexact;
    double worst, bound;   /* the largest error ratio of a passing rep, and its bound */
    char fail_reason[160]; /* of the first failing rep */
    size_t nenergy;        /* reps with an energy measurement (the store's, schema version 2) */
    double energy_j, gpw;  /* means over those reps: joules per call of the energy loop, and
                              GFLOP/s per watt */
    /* Memory traffic (roofline.c), as the family declares it in the report's registry. */
    int traffic;      /* a gb_report__traffic_t */
    double bytes;     /* read + write bytes of the main kernel per call */
    double intensity; /* 2*M*N*K / bytes, FLOP per byte */
    double kgflops;   /* mean over reps of 2*M*N*K over the main kernel's median time */
    double gbps;      /* bytes over the same time: kgflops / intensity */
} gb_report__row_t;

/* Why a row has its memory traffic or not (counted per row in gb_report.traffic_rows). */
typedef enum gb_report__traffic {
    GB_TRAFFIC_NONE = 0,     /* not computed: the report has no registry */
    GB_TRAFFIC_DECLARED,     /* the family declares it */
    GB_TRAFFIC_UNDECLARED,   /* the family declares none, or a library peer */
    GB_TRAFFIC_UNKNOWN,      /* the family (or a parameter of the point) is not in the registry */
    GB_TRAFFIC_OTHER_SOURCE, /* measured with another version of the family's source */
    GB_TRAFFIC_FAILED,       /* its expressions failed for this problem */
    GB_TRAFFIC_KINDS
} gb_report__traffic_t;

/* One work-group-size table: a series (one kernel configuration on one device) measured at two
 * or more work-group sizes; rows are sizes, columns work-group sizes. */
typedef struct gb_report__lws {
    size_t first;      /* a row of the series, for its labels */
    char variant[256]; /* the series' variant without LX/LY */
    size_t ncols, nsizes;
    long (*cols)[2];    /* J x I, by items then J */
    size_t (*sizes)[3]; /* M, N, K, ascending */
    size_t *cell;       /* nsizes x ncols row indices, SIZE_MAX where not measured */
    size_t *best;       /* per size, the column with the highest mean */
} gb_report__lws_t;

/* A candidate of a tuning run that may be on its time-energy front (pareto.c). */
typedef struct gb_report__cand {
    char id[GB_POINT_ID_LEN + 1];
    char params[512];
    double ms, joules, gflops; /* its point's median time, energy and rate per GEMM */
    int front;                 /* on the run's Pareto front */
} gb_report__cand_t;

/* A tuning run the report took, with its best-so-far curve (evaluations in order). */
typedef struct gb_report__run {
    gb_tune_run_t run;
    double *best; /* per evaluation, the best score so far; NaN before any success (owned) */
    size_t nevals, cap;
    double top; /* the best of the run, NaN when nothing succeeded */
    /* Its candidates that succeeded; once read, those measured with energy (owned). */
    gb_report__cand_t *cands;
    size_t ncands, candcap, nfront;
} gb_report__run_t;

struct gb_report {
    char *kernels, *device; /* the filter's strings (owned) */
    int precision, timing;
    char source[1024];
    size_t offered, selected;
    gb_report__dev_t *devs;
    size_t ndevs, devcap;
    gb_report__row_t *rows;
    size_t nrows, rowcap;
    size_t *slots; /* open-addressing hash of row keys (SIZE_MAX: empty) */
    size_t nslots;
    gb_report__lws_t *lws;
    size_t nlws;
    unsigned timings;    /* mask of 1u << gb_timing_t present */
    unsigned precisions; /* mask of 1u << gb_precision_t present */
    size_t rep_cols;     /* highest rep index + 1 over rows, at most GB_REPORT_MAX_REP_COLS */
    unsigned max_rep;    /* highest rep index over rows */
    int any_variant, any_energy, all_square, mixed_layouts, finished;
    char energy_why[128]; /* the first reason a selected point without energy gave (points
                               stored before schema version 2 give none), or "" */
    /* The tuning view (tuning.c): what the filter took of the tuning database, sorted by shape
     * class when finished, and of the tuning runs, oldest first. */
    gb_tuned_entry_t *tuned;
    size_t ntuned, tunedcap;
    gb_report__run_t *runs;
    size_t nruns, runcap;
    size_t tuning_offered; /* tuned entries and runs offered, before the filter */
    /* The kernel registry the rows' memory traffic is computed from (NULL: none), and the rows
     * of each gb_report__traffic_t once finished. */
    const gb_registry_t *reg;
    size_t traffic_rows[GB_TRAFFIC_KINDS];
};

/* The filter (filter.c). Does it take point pt (its precision, timing, device or platform, and
 * kernel, preset or family)? */
int gb_report__selects(const gb_report_t *r, const gb_point_t *pt);
/* Does it take a tuning row of this device (or platform), precision and kernel? The timing
 * filter does not apply: tuning data has no timing of its own. */
int gb_report__takes(const gb_report_t *r, const char *device, const char *platform,
                     gb_precision_t precision, const char *kernel);

/* ---- keys.c ---------------------------------------------------------------------------------- */

/* The index of the device in r->devs, added (with its label) when new. GB_ENOMEM on failure. */
int gb_report__device(gb_report_t *r, const gb_point_device_t *d, size_t *out);
/* Strings the caller frees with free(); NULL when out of memory. The row key: the point's
 * definition without its rep line. The settings: "NAME=VALUE\n" lines of the parameters, alpha,
 * beta, leading-dimension padding, offsets, seed, distribution, warm-up, iterations and the
 * source hash. The series key: device, kernel, precision, layout, timing and the settings but
 * LX/LY. The parameters as a JSON object. */
char *gb_report__row_key(const gb_point_t *pt);
char *gb_report__settings(const gb_point_t *pt);
char *gb_report__series_key(const gb_point_t *pt, const char *settings);
/* A plot's series key: the series key without the warm-up and iterations lines, so that a
 * configuration measured with other numbers of calls is one line of a plot, not several. */
char *gb_report__plot_key(const char *skey);
char *gb_report__params_json(const gb_params_t *ps);
/* Sets each row's variant: the settings whose values differ between the rows of its kernel. */
void gb_report__set_variants(gb_report_t *r);

/* ---- collect.c / lws.c ----------------------------------------------------------------------- */

/* Builds the work-group-size tables of a finished, sorted report. GB_ENOMEM on failure. */
int gb_report__build_lws(gb_report_t *r);
/* "512" for a square size, "300x200x77" otherwise. */
const char *gb_report__size_text(const gb_report__row_t *row, char *buf, size_t len);
/* The row's validation verdict over its reps: "pass 3.1/1.03e+03", "pass exact", "FAIL 1/3
 * (why)", "-" (none validated), with " (2 of 3 validated)" when only some were. */
const char *gb_report__verdict(const gb_report__row_t *row, char *buf, size_t len);
/* What a timing counts: "main kernel + helper passes", ... */
const char *gb_report__timing_text(gb_timing_t t);
/* The series' title: "SGEMM_NT_4x1_barrier s row-NT ops on cpu0 [variant]". */
const char *gb_report__series_title(const gb_report_t *r, const gb_report__row_t *row,
                                    const char *variant, char *buf, size_t len);
/* The rep of row with index rep, or NULL. */
const gb_report__rep_t *gb_report__find_rep(const gb_report__row_t *row, unsigned rep);
/* Natural comparison: digit runs compare as numbers ("LX=2" < "LX=16"). */
int gb_report__natcmp(const char *a, const char *b);

/* ---- grid.c: a table of text cells drawn as text, Markdown or HTML --------------------------- */

typedef struct gb_report__grid {
    size_t ncols, nrows;  /* rows after the header */
    char **cell;          /* (nrows + 1) x ncols, row 0 the header (owned) */
    unsigned char *mark;  /* per cell: 1 the best of its row (drawn with * or bold) */
    unsigned char *right; /* per column: 1 right-aligned (numbers) */
    unsigned char *wrap;  /* per column, in HTML: 1 text that may wrap, 2 a command to copy */
    size_t cap;
} gb_report__grid_t;

int gb_report__grid_init(gb_report__grid_t *g, size_t ncols);
void gb_report__grid_free(gb_report__grid_t *g);
/* gb_report__grid_init with the header row made of head's ncols texts; GB_ENOMEM on failure. */
int gb_report__grid_head(gb_report__grid_t *g, const char *const *head, size_t ncols);
/* Appends a row of empty cells (the first call makes the header); GB_ENOMEM on failure. */
int gb_report__grid_row(gb_report__grid_t *g);
/* Sets a cell of the last row (a copy of the formatted text); GB_ENOMEM on failure. */
int gb_report__grid_set(gb_report__grid_t *g, size_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A number cell: v with two decimals, "-" for NaN (nothing measured); returns buf. */
const char *gb_report__num(double v, char *buf, size_t len);
void gb_report__grid_text(const gb_report__grid_t *g, FILE *f);
void gb_report__grid_md(const gb_report__grid_t *g, FILE *f);
void gb_report__grid_html(const gb_report__grid_t *g, FILE *f);
/* Writes s with &, <, >, " and ' escaped. */
void gb_report__html_escape(FILE *f, const char *s);
/* Rows of fewer multiply-adds than this (M*N*K) are left out of the plots (their rate is a
 * launch's overhead, a point far below every other on a log axis) and counted in the caption;
 * the tables keep them. */
#define GB_REPORT_PLOT_MIN_MNK 4096.0
static inline int gb_report__plotted(const gb_report__row_t *row)
{
    return (double)row->m * (double)row->n * (double)row->k >= GB_REPORT_PLOT_MIN_MNK;
}

/* The report page's style sheet (html.c), for the other pages of the report module. */
const char *gb_report__html_style(void);

/* ---- tables.c: the two tables as grids, and the text and Markdown output --------------------- */

/* The repetitions table; with replay (HTML) a column of each row's `gemmbench replay` command. */
int gb_report__reps_grid(const gb_report_t *r, int replay, gb_report__grid_t *g);
int gb_report__lws_grid(const gb_report_t *r, const gb_report__lws_t *t, gb_report__grid_t *g);
/* The header lines (store, points, devices, what GFLOP/s means, notes on mixed devices and
 * timings), each passed to line(). */
void gb_report__header(const gb_report_t *r, void (*line)(const char *text, void *user),
                       void *user);
int gb_report__write_text(const gb_report_t *r, unsigned tables, int markdown, FILE *f);

/* ---- tuning.c: the tuning view -------------------------------------------------------------- */

/* Adds the store's tuning database and runs with their evaluations (nothing from a store without
 * them). GB_ENOMEM, or the store's error with its message on st. */
int gb_report__read_tuning(gb_report_t *r, gb_store_t *st);
/* Sorts the tuned entries by shape class (kind, then size), device, precision and layout. */
void gb_report__finish_tuning(gb_report_t *r);
/* Whether the tuning view is written for this choice of tables: asked for, and there is tuning
 * data (or only the tuning view was asked for, which then says there is none). */
int gb_report__tuning_shown(const gb_report_t *r, unsigned tables);
/* The winners (one row per tuned entry) and the runs as grids. */
int gb_report__tuned_grid(const gb_report_t *r, gb_report__grid_t *g);
int gb_report__runs_grid(const gb_report_t *r, gb_report__grid_t *g);
/* The tuning view as text or Markdown, CSV (the winners) and JSON (both, added to root). */
int gb_report__write_tuning_text(const gb_report_t *r, int markdown, FILE *f);
int gb_report__write_tuning_csv(const gb_report_t *r, FILE *f);
void gb_report__tuning_json(const gb_report_t *r, void *root);

/* ---- data.c ---------------------------------------------------------------------------------- */

int gb_report__write_csv(const gb_report_t *r, unsigned tables, FILE *f);
int gb_report__write_json(const gb_report_t *r, unsigned tables, FILE *f);
/* JSON pieces the tables and the tuning view share: a number, null where it is not finite (NaN:
 * nothing measured); and a problem's "precision", "layout", "m", "n" and "k" added to object o. */
struct cJSON;
struct cJSON *gb_report__json_num(double v);
void gb_report__json_problem(struct cJSON *o, gb_precision_t prec, const char *layout, size_t m,
                             size_t n, size_t k);

/* ---- gnuplot.c: running gnuplot in a temporary folder ----------------------------------------- */

typedef struct gb_report__gp {
    char dir[1024]; /* the temporary folder ("" when none) */
    FILE *script;   /* dir/plot.gp, open until gb_report__gp_run */
} gb_report__gp_t;

/* Makes the temporary folder (under $TMPDIR, else /tmp) and opens the script in it. GB_EIO with
 * msg on failure. Close with gb_report__gp_close, which removes the folder and all in it. */
int gb_report__gp_open(gb_report__gp_t *gp, char *msg, size_t msglen);
void gb_report__gp_close(gb_report__gp_t *gp);
/* The plots' terminal line, "set terminal svg size W,H ..." with the page's font and background,
 * in buf (returned). */
const char *gb_report__gp_terminal(char *buf, size_t len, int w, int h);
/* Opens dir/name for writing (the caller closes it); path gets the full path. NULL on failure. */
FILE *gb_report__gp_file(gb_report__gp_t *gp, const char *name, char *path, size_t pathlen);
/* Writes s as a gnuplot single-quoted string ('' for a quote, control characters dropped). */
void gb_report__gp_quote(FILE *f, const char *s);
/* A tick label as people write one: %g with the exponent trimmed ("100", "0.5", "1e-5",
 * "2e6"); returns buf. */
const char *gb_report__tick_text(double v, char *buf, size_t len);
/* "set {axis}tics (...)": a tick at each power of ten from lo to hi (every other, or fewer, where
 * there are more than 10), labelled by gb_report__tick_text: gnuplot's own labels on a log axis
 * that spans decades below 1 read "0.010000" and "100.000000". Nothing when lo..hi is empty. A
 * plot that uses it sets "{axis}tics autofreq" after. */
void gb_report__gp_log_tics(FILE *f, const char *axis, double lo, double hi);
/* Closes the script and runs it: gnuplot (or $GEMMBENCH_GNUPLOT) with the script as argument,
 * its output into dir/gnuplot.log. GB_EIO with msg naming the gnuplot-nox package when gnuplot
 * cannot be started, or with gnuplot's last message when it fails. */
int gb_report__gp_run(gb_report__gp_t *gp, char *msg, size_t msglen);
/* dir/name (an SVG gnuplot wrote) as an <svg> element to inline in HTML: the XML prolog and
 * gnuplot's <title> dropped, every id and reference to one prefixed with prefix so that several
 * plots can share a page. Caller frees with free(); NULL when unreadable or not SVG. */
char *gb_report__gp_svg(gb_report__gp_t *gp, const char *name, const char *prefix);

/* Copies variant without its LX=... and LY=... settings, and with calls also without warmup=...
 * and iterations=... (what a plot's series leaves out), into out (labels.c). */
void gb_report__strip_variant(const char *variant, int calls, char *out, size_t len);

/* ---- plots.c: gnuplot's SVG plots ------------------------------------------------------------ */

typedef enum gb_report__plot_kind {
    GB_PLOT_PERF = 0,
    GB_PLOT_HEAT,
    GB_PLOT_ENERGY,
    GB_PLOT_TUNING,
    GB_PLOT_ROOFLINE,
    GB_PLOT_PARETO
} gb_report__plot_kind_t;

/* One plot, made or not: svg (owned) holds an <svg> element ready to inline, or is NULL and
 * note says why there is none; caption says what it shows. */
typedef struct gb_report__plot {
    gb_report__plot_kind_t kind;
    size_t lws; /* for a heat map: its table */
    int width;  /* the SVG's natural width in pixels (the page draws it no wider) */
    char *svg;
    char caption[1024], note[1024];
} gb_report__plot_t;

/* Makes every plot of the report with one gnuplot run in a temporary folder (removed after).
 * *plots (free with gb_report__plots_free) gets the perf plot, a heat map per work-group-size
 * table (when tables has GB_REPORT_LWS), the energy plot and, when the tuning view is shown, the
 * tuning runs' plot. GB_EIO with msg naming the gnuplot-nox package when gnuplot cannot be run,
 * or with gnuplot's first error line when it fails. */
int gb_report__make_plots(const gb_report_t *r, unsigned tables, gb_report__plot_t **plots,
                          size_t *n, char *msg, size_t msglen);
void gb_report__plots_free(gb_report__plot_t *plots, size_t n);
/* The plot of this kind (the first), or NULL. */
const gb_report__plot_t *gb_report__plot_of(const gb_report__plot_t *plots, size_t n,
                                            gb_report__plot_kind_t kind);
/* Best GFLOP/s so far against evaluations, a line per tuning run coloured by strategy (tuning.c):
 * writes its data and script lines; leaves p->caption empty and says why in p->note when there
 * is nothing to draw. GB_EIO when the data cannot be written. */
int gb_report__tuning_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p);

/* ---- pareto.c: the time-energy Pareto front of tuning runs -------------------------------- */

/* Keeps ev (a successful evaluation of run k) as a candidate. GB_OK or GB_ENOMEM. */
int gb_report__pareto_eval(gb_report__run_t *k, const gb_tune_eval_t *ev);
/* Reads every run's candidates' points from st, keeps those with energy and marks the front.
 * GB_OK, or the store's or memory's error. */
int gb_report__pareto_read(gb_report_t *r, gb_store_t *st);
/* A table per run with a front (text or Markdown); its front as JSON, added to run (a cJSON
 * object); the scatter plot of the most recent run with a front (as gb_report__tuning_plot). */
int gb_report__write_pareto_text(const gb_report_t *r, int markdown, FILE *f);
void gb_report__pareto_json(const gb_report__run_t *k, void *run);
int gb_report__pareto_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p);

/* ---- roofline.c: memory traffic, ceilings and the roofline --------------------------------- */

/* The row's memory traffic (row->traffic, bytes, intensity) from pt, the row's first point: its
 * family and parameters resolved in r->reg, the family's declaration evaluated for its problem
 * on its device (gb_impl_traffic), where the point was measured with the same source. */
void gb_report__point_traffic(const gb_report_t *r, const gb_point_t *pt, gb_report__row_t *row);
/* The stored ceilings of every device of r. GB_OK, or the store's error (message on st). */
int gb_report__read_ceilings(gb_report_t *r, gb_store_t *st);
/* GFLOP/s of the main kernel against arithmetic intensity, log-log, each row with declared
 * traffic a point, under the roofs of its device's measured peak and bandwidth where stored:
 * writes its data and script lines; leaves p->caption empty and says why in p->note when there
 * is nothing to draw. GB_EIO when the data cannot be written. */
int gb_report__roofline_plot(const gb_report_t *r, gb_report__gp_t *gp, gb_report__plot_t *p);
/* "2 of 5 rows are left out: ..." for the rows without traffic, into buf ("" when none). */
const char *gb_report__traffic_left_out(const gb_report_t *r, char *buf, size_t len);

/* ---- write.c --------------------------------------------------------------------------------- */

/* The end of writing a report to f: rc, or GB_EIO where f holds a write error; on failure msg
 * says so ("out of memory" or "writing the report failed"). */
int gb_report__written(FILE *f, int rc, char *msg, size_t msglen);

/* ---- html.c ---------------------------------------------------------------------------------- */

int gb_report__write_html(const gb_report_t *r, unsigned tables, FILE *f, char *msg, size_t msglen);

#endif
