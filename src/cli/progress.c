/* progress.c: the progress bar, the stop request and the restart after a crash that explore and
 * tune share. */
#include "progress.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool/store/inflight.h"
#include "cli.h"

double cli_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *cli_hms(double s, char *buf, size_t len)
{
    long t = s < 0 ? 0 : (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
    return buf;
}

void cli_progress_start(cli_progress_t *pr, size_t todo)
{
    pr->tty = isatty(STDOUT_FILENO);
    pr->todo = todo;
    pr->done = 0;
    pr->start = cli_now_s();
}

void cli_progress_eta(const cli_progress_t *pr, char *buf, size_t len)
{
    char t[32];
    if (pr->done == 0) {
        snprintf(buf, len, "ETA ?");
        return;
    }
    double per = (cli_now_s() - pr->start) / (double)pr->done;
    size_t left = pr->todo > pr->done ? pr->todo - pr->done : 0;
    snprintf(buf, len, "ETA %s", cli_hms(per * (double)left, t, sizeof t));
}

void cli_progress_draw(const cli_progress_t *pr, const char *now)
{
    if (!pr->tty)
        return;
    char eta[48], el[32], bar[31];
    const size_t width = 30, fill = pr->todo ? pr->done * width / pr->todo : width;
    for (size_t i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    cli_progress_eta(pr, eta, sizeof eta);
    printf("\r\033[K[%s] %zu/%zu %3.0f%% %s %s  %.40s", bar, pr->done, pr->todo,
           pr->todo ? 100.0 * (double)pr->done / (double)pr->todo : 100.0,
           cli_hms(cli_now_s() - pr->start, el, sizeof el), eta, now);
    fflush(stdout);
}

void cli_progress_note(const cli_progress_t *pr, const char *fmt, const char *a, const char *b)
{
    if (pr->tty)
        printf("\r\033[K");
    printf(fmt, a, b);
    fflush(stdout);
}

void cli_progress_end(const cli_progress_t *pr)
{
    if (pr->tty)
        printf("\n");
}

volatile sig_atomic_t cli_stop_signal = 0;
static struct sigaction old_int, old_term;

static void on_signal(int sig)
{
    cli_stop_signal = sig;
}

void cli_stop_catch(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = (int)(SA_RESETHAND | SA_RESTART); /* a second signal kills at once */
    cli_stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
}

void cli_stop_release(void)
{
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
}

const char *cli_stop_name(void)
{
    return cli_stop_signal == SIGINT ? "SIGINT" : "SIGTERM";
}

void cli_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* ---- a crash: the command started again ---------------------------------------------------- */

extern char **environ;

#define CRASH_MAX_ENV 4096
#define CRASH_RESTARTS 100

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define NCRASH (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction crash_old[NCRASH];
static int crash_caught;
/* All made before the crash: the handler only writes a digit or two and calls execve. */
static char **crash_argv;
static char *crash_envp[CRASH_MAX_ENV + 3];
static char crash_sig[32] = "GEMMBENCH_CRASHED=00", crash_count[96];
static char crash_going[CRASH_MAX_ENV], crash_stop[256];
static size_t crash_going_len, crash_stop_len;
static long crash_restarts;

static void crash_write(const char *s, size_t n)
{
    while (n) {
        const ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* strlen is not async-signal-safe by the letter of POSIX. */
static void crash_say(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    crash_write(s, n);
}

/* Set by the first thread to crash: the kernel of a CPU device runs on several of the driver's
 * threads, which fault together; the others wait in the handler for the execve that ends them
 * all (a handler reset to the default by the first would let the second kill the process). */
static atomic_flag crash_first = ATOMIC_FLAG_INIT;

static void on_crash(int sig)
{
    static const char *const names[NCRASH] = {"SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT"};
    if (atomic_flag_test_and_set(&crash_first))
        for (;;)
            pause();
    const char *name = "a signal";
    for (size_t i = 0; i < NCRASH; i++)
        if (crash_signals[i] == sig)
            name = names[i];
    if (crash_restarts >= CRASH_RESTARTS) {
        crash_write(crash_stop, crash_stop_len);
        crash_say(name);
        crash_say(")\n");
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    /* "GEMMBENCH_CRASHED=" then the signal in two digits. */
    crash_sig[18] = (char)('0' + sig / 10 % 10);
    crash_sig[19] = (char)('0' + sig % 10);
    crash_write(crash_going, crash_going_len);
    crash_say(name);
    crash_say("); going on in a new process\n");
    /* The thread that crashed may block signals (a driver's worker): the new process would
     * inherit its mask. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve("/proc/self/exe", crash_argv, crash_envp);
    crash_say("gemmbench: cannot start again: run the same command again\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

void cli_crash_catch(char **argv, const char *counter, const char *cmd)
{
    const char *env = getenv(counter);
    crash_restarts = env ? strtol(env, NULL, 10) : 0;
    snprintf(crash_count, sizeof crash_count, "%s=%ld", counter, crash_restarts + 1);
    const size_t clen = strlen(counter);
    size_t n = 0;
    for (char **e = environ; e && *e && n < CRASH_MAX_ENV; e++)
        if (strncmp(*e, "GEMMBENCH_CRASHED=", 18) &&
            (strncmp(*e, counter, clen) || (*e)[clen] != '='))
            crash_envp[n++] = *e;
    crash_envp[n++] = crash_sig;
    crash_envp[n++] = crash_count;
    crash_envp[n] = NULL;
    crash_argv = argv;
    crash_going_len = (size_t)snprintf(crash_going, sizeof crash_going,
                                       "gemmbench: %s: the process crashed (", cmd);
    crash_stop_len = (size_t)snprintf(crash_stop, sizeof crash_stop,
                                      "gemmbench: %s: %d restarts after crashes already: "
                                      "stopping (",
                                      cmd, CRASH_RESTARTS);
    if (crash_going_len >= sizeof crash_going)
        crash_going_len = sizeof crash_going - 1;
    if (crash_stop_len >= sizeof crash_stop)
        crash_stop_len = sizeof crash_stop - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_NODEFER;
    for (size_t i = 0; i < NCRASH; i++)
        sigaction(crash_signals[i], &sa, &crash_old[i]);
    crash_caught = 1;
}

void cli_crash_release(void)
{
    if (!crash_caught)
        return;
    for (size_t i = 0; i < NCRASH; i++)
        sigaction(crash_signals[i], &crash_old[i], NULL);
    crash_caught = 0;
}

int cli_crash_signal(void)
{
    const char *s = getenv("GEMMBENCH_CRASHED");
    const int sig = s ? atoi(s) : 0;
    if (s)
        unsetenv("GEMMBENCH_CRASHED");
    return sig > 0 ? sig : 0;
}

static void said_crashed(const gb_tune_failure_t *f, void *user)
{
    fprintf(stderr, "gemmbench: %s: %s %s: %s (%s)\n", (const char *)user, f->kernel, f->params,
            f->reason, gb_errname(f->code));
}

int cli_crash_reap(struct gb_store *st, const char *cmd)
{
    const int sig = cli_crash_signal();
    size_t n = 0;
    if (gb_store_inflight_reap(st, sig, said_crashed, (void *)cmd, &n) != GB_OK)
        return cli_error(GB_EIO, "%s", gb_store_errmsg(st));
    if (sig && !n) {
        fprintf(stderr,
                "gemmbench: %s: the process crashed (signal %d) with nothing being measured: "
                "stopping\n",
                cmd, sig);
        return 128 + sig;
    }
    return 0;
}
