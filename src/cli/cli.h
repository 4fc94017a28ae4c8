/* cli.h: what the subcommands share: exit codes, error printing, strict number parsing and
 * device selection from the -p/-t/-d options. */
#ifndef GB_CLI_H
#define GB_CLI_H

#include <stddef.h>
#include <stdio.h>
#include "gemmbench.h"

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

/* --verbose was given (main.c): build logs are printed, by tune's build processes too. */
extern int cli_verbose;

/* Prints "gemmbench: error: <message>" to stderr and returns the exit code for the error:
 * EXIT_RUNTIME for OpenCL, build and memory failures, EXIT_USAGE for everything else. */
int cli_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Parses a positive integer (what names the option in messages); 0 or a message printed. */
int cli_parse_size(const char *what, const char *s, size_t *out);
/* The whole of file ('-': standard input), at most max bytes, into *text (NUL-terminated; the
 * caller frees) and *len: 0, or the exit code after a one-line error naming the file (over: what
 * to do with a file larger than max). */
int cli_read_file(const char *file, size_t max, const char *over, char **text, size_t *len);
/* Parses a finite double. */
int cli_parse_double(const char *what, const char *s, double *out);
/* The first precision of a mask of 1u << gb_precision_t (single for none). */
gb_precision_t cli_first_precision(unsigned mask);
/* Parses a comma-separated list of positive sizes into out (up to cap). */
int cli_parse_size_list(const char *what, const char *s, size_t *out, size_t cap, size_t *n);

/* -t TYPE: the device type into *out; 0, or the exit code after a one-line error. */
int cli_device_type(const char *arg, gb_device_type_t *out);

#define CLI_MAX_DEVICES 32
/* The kernel registry, with the families of --kernel-path DIR (NULL: the built-in ones); 0, or
 * the exit code after a one-line error (a bad kernel path is bad usage). */
struct gb_registry;
int cli_registry_open(struct gb_registry **reg, const char *kpath);

typedef struct cli_device {
    gb_device_info_t *list;
    size_t count, index;
    size_t picks[CLI_MAX_DEVICES], npicks; /* cli_devices_open: the devices, index = picks[0] */
} cli_device_t;
/* Lists devices and picks one by sel; prints the error and returns the exit code on failure. A
 * list or 'all' in -d is refused with a pointer to explore and tune. */
int cli_device_open(cli_device_t *d, const gb_device_selector_t *sel);
/* As cli_device_open, where -d may also be 'all' (every device -p and -t allow, in listing order)
 * or a comma-separated list of indices or names, each picked as -d picks one (a device may be
 * listed twice: two workers on it). */
int cli_devices_open(cli_device_t *d, const gb_device_selector_t *sel);
void cli_device_close(cli_device_t *d);

/* A command's output: standard output, or a file written beside its final name
 * (PATH.gemmbench-tmp.PID) and renamed when complete, so that a failed or interrupted write
 * never leaves a partial file under that name; a temporary file left by a killed write is
 * removed by the next write of the same path (once its process is gone). */
typedef struct cli_out {
    FILE *f;
    const char *path;  /* NULL: standard output */
    const char *store; /* the results store the command reads (NULL: none) */
    char tmp[1200];
} cli_out_t;
/* Opens the output (path NULL: standard output). Refuses a path that is the store (its file or
 * SQLite's files beside it, through any link or spelling) or any existing SQLite database. 0,
 * or the exit code after a one-line error. */
int cli_out_open(cli_out_t *o, const char *path, const char *store);
/* Ends a file output: with rc GB_OK closes it and renames it into place (checking again that the
 * name is not the store or an SQLite database), otherwise removes it. Returns rc, GB_EIO when
 * closing failed, or (after the one-line error) the exit code when the rename failed or was
 * refused. Standard output is left as it is and rc returned. */
int cli_out_close(cli_out_t *o, int rc);

/* A validation verdict as the tables print it: "pass 3.1/1.03e+03", "pass exact", "FAIL: why",
 * and for a point not validated "-" or, with why_not, "not validated (why)". */
void cli_verdict_text(const gb_validation_t *v, int why_not, char *buf, size_t len);
/* A result's outcome under the verdict asked (gb_validation_outcome), as the tables print it:
 * as cli_verdict_text, and for a result within the bound but not faithful to its precision
 * "FAIL: not faithful (within the bound: 950/1.03e+03)". */
void cli_outcome_text(const gb_validation_t *v, gb_outcome_t oc, char *buf, size_t len);
/* The faithful verdict in words: "faithful", "not faithful: 88x FP32" (the worst error against
 * the honest computation's, or one u*G), or "-" where it was not judged. */
void cli_faithful_text(const gb_validation_t *v, gb_precision_t prec, char *buf, size_t len);

/* After getopt_long returned ':' (option name given without its value) or anything else that no
 * case took (an unknown option): the exit code after a one-line error, which points an unknown
 * option to cmd's --help. */
int cli_bad_option(int c, const char *name, const char *cmd);
/* After getopt: an error (the exit code) when argv holds operands from optind on, which cmd
 * (the subcommand, for the pointer to its --help) does not take; else 0. */
int cli_no_operands(int argc, char **argv, const char *cmd);

int cmd_devices(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_ceilings(int argc, char **argv);
int cmd_offload(int argc, char **argv);

/* The results store (src/tool/store/) for a subcommand: path NULL is the default store; create makes
 * the file when missing. Prints the error and returns the exit code on failure. */
struct gb_store;
int cli_store_open(struct gb_store **out, const char *path, int create);
/* Whether a store could be created at path (its folder exists and is writable): 0, or the exit
 * code after a one-line error. */
int cli_store_creatable(const char *path);
int cmd_store(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_explore(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_tune(int argc, char **argv);
/* tune's build process (src/tool/tune/builders.c), started by tune itself. */
int cmd_build_worker(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tuned(int argc, char **argv);
/* `tuned show ARG` on an open store (tuned_show.c): EXIT_OK, or the exit code after a one-line
 * error. */
int cli_tuned_show(struct gb_store *st, const char *arg);

#endif
