/* progress.h: what long commands (explore, tune) share: a progress bar with an ETA on a
 * terminal, plain lines elsewhere, SIGINT/SIGTERM turned into a request to stop after the
 * current step, and a crash turned into the same command started again. */
#ifndef GB_CLI_PROGRESS_H
#define GB_CLI_PROGRESS_H

#include <signal.h>
#include <stddef.h>

typedef struct cli_progress {
    int tty;
    size_t todo, done;
    double start; /* when work began: the ETA counts pauses and builds too */
} cli_progress_t;

/* Seconds on a monotonic clock. */
double cli_now_s(void);
/* s as m:ss or h:mm:ss in buf. */
const char *cli_hms(double s, char *buf, size_t len);
/* todo steps from now, drawn as a bar when stdout is a terminal. */
void cli_progress_start(cli_progress_t *pr, size_t todo);
/* "ETA m:ss" (or "ETA ?" before the first step). */
void cli_progress_eta(const cli_progress_t *pr, char *buf, size_t len);
/* The bar, redrawn in place: [#####.....] done/todo pct elapsed ETA and what runs now. */
void cli_progress_draw(const cli_progress_t *pr, const char *now);
/* A line above the bar (terminal) or a plain line; fmt takes two strings. */
void cli_progress_note(const cli_progress_t *pr, const char *fmt, const char *a, const char *b);
/* Ends the bar's line, on a terminal. */
void cli_progress_end(const cli_progress_t *pr);

/* From cli_stop_catch until cli_stop_release, SIGINT and SIGTERM set cli_stop_signal (a second
 * one kills at once). */
extern volatile sig_atomic_t cli_stop_signal;
void cli_stop_catch(void);
void cli_stop_release(void);
/* "SIGINT" or "SIGTERM". */
const char *cli_stop_name(void);
/* Sleeps ms milliseconds; a signal cuts it short. */
void cli_sleep_ms(long ms);

/* From cli_crash_catch until cli_crash_release, a crash of the process (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT: PoCL asserting on a kernel whose local array exceeds the device's
 * local memory, say) starts the command again in its place: argv (the whole command line,
 * which must outlive the catch) with GEMMBENCH_CRASHED set to the signal and the environment
 * variable `counter` one more, at most 100 times (then the crash takes its course). What was in
 * flight is marked in the store (src/tool/store/inflight.h), and the new process records it as
 * crashed (cli_crash_reap) and goes on. cmd names the command in the line said on stderr. */
void cli_crash_catch(char **argv, const char *counter, const char *cmd);
void cli_crash_release(void);
/* In a process started again after a crash: the signal, and GEMMBENCH_CRASHED unset (0 in any
 * other process). */
int cli_crash_signal(void);
/* What processes that are gone left in flight in st (a store open for writing), cleared before
 * a command measures: in a process started again after a crash, the points its predecessor
 * was measuring are recorded as crashed, each named on stderr (cmd says whose line it is). 0,
 * 128 + the signal when the predecessor crashed with nothing in flight (a crash of its own,
 * which a restart would only meet again), or the exit code of a store failure. */
struct gb_store;
int cli_crash_reap(struct gb_store *st, const char *cmd);

#endif
