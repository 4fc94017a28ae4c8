/* progress.c: the progress bar and the stop request that explore and tune share. */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
