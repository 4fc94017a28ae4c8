/* builders.c: build processes (builders.h): starting one, the request and answer lines, and the
 * worker's loop.
 *
 * A request is one line of blank-separated fields: the request's number, the kernel as the job
 * names it (family or preset), the problem (precision, layout, transpositions, M N K, leading
 * dimensions, offsets, alpha and beta in C's exact hexadecimal notation), the work-group size
 * when the job sets one, and the job's parameters as NAME=V. The worker resolves the same
 * implementation from its own registry (the same --kernel-path) and answers one line: the
 * request's number, gb_impl_prebuild's code, and its message (the build log of a failed build)
 * with backslashes and newlines escaped; or, for a request it could not read or resolve (which
 * the tuner made from a job it could resolve: a mismatch, not a verdict on the candidate), the
 * number, '?' and why. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt/util/util.h"
#include "builders.h"

#define HELLO "gemmbench-builder 1"
/* The worker opens its context again after this many requests, which frees the programs it
 * keeps (up to 256 each, gb_impl_prebuild's table): a tuning can ask for thousands. */
#define RECYCLE 64

/* The environment this process started with, copied before any OpenCL call: what loads with
 * the platforms may change the live one. On an NVIDIA machine whose OCL_ICD_FILENAMES named
 * PoCL, then NVIDIA's library, the live value was cut to PoCL's once the platforms were listed,
 * and build processes given it saw no NVIDIA platform. NULL: it could not be copied (the live
 * one serves). */
static char **started_env;

__attribute__((constructor)) static void keep_started_env(void)
{
    extern char **environ;
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env && i < n; i++)
        if (!(env[i] = strdup(environ[i]))) {
            while (i)
                free(env[--i]);
            free(env);
            env = NULL;
        }
    started_env = env;
}

int gb_builder_spawn(gb_builder_t *w, char *const *argv, char *msg, size_t msglen)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return gb__fail(msg, msglen, GB_EIO, "no socket for a build process: %s", strerror(errno));
    sigset_t none;
    sigemptyset(&none);
    const pid_t parent = getpid();
    extern char **environ;
    char *const *env = started_env ? started_env : environ;
    const pid_t pid = fork();
    if (pid == 0) {
        /* Between fork and exec in a process with threads: system calls only. */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int s = sv[1];
        if (s < 2 && (s = fcntl(s, F_DUPFD, 3)) < 0)
            _exit(127);
        if (dup2(s, 0) < 0 || dup2(s, 1) < 0)
            _exit(127);
#ifdef SYS_close_range
        /* The tuner's other files (its store, the driver's) are none of the worker's business. */
        syscall(SYS_close_range, 3u, ~0u, 0u);
#endif
        execve("/proc/self/exe", argv, env);
        _exit(127);
    }
    const int err = errno;
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        return gb__fail(msg, msglen, GB_EIO, "cannot start a build process: %s", strerror(err));
    }
    w->pid = pid;
    w->fd = sv[0];
    if (!(w->in = fdopen(sv[0], "r"))) {
        char why[64];
        gb__fail(msg, msglen, GB_EIO, "cannot read from a build process: %s", strerror(errno));
        kill(pid, SIGKILL);
        close(sv[0]);
        gb_builder_reap(pid, why, sizeof why);
        w->pid = 0;
        w->fd = -1;
        return GB_EIO;
    }
    return GB_OK;
}

/* One line from the worker into *line (the caller frees it), without its newline; 0 when it
 * ended. */
static int read_line(gb_builder_t *w, char **line, size_t *cap)
{
    ssize_t n = getline(line, cap, w->in);
    if (n <= 0 || (*line)[n - 1] != '\n')
        return 0;
    (*line)[n - 1] = '\0';
    return 1;
}

int gb_builder_ready(gb_builder_t *w, char *msg, size_t msglen)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = GB_OK;
    if (!read_line(w, &line, &cap))
        rc = gb__fail(msg, msglen, GB_EIO, "it ended before it was ready");
    else if (strcmp(line, HELLO))
        rc = gb__fail(msg, msglen, GB_EIO, "it said '%.60s' instead of '" HELLO "'", line);
    free(line);
    return rc;
}

/* A name that a request can carry as one field. */
static int plain(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ')
            return 0;
    return 1;
}

static int send_all(int fd, const char *buf, size_t len)
{
    while (len) {
        const ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        buf += n;
        len -= (size_t)n;
    }
    return 1;
}

int gb_builder_build(gb_builder_t *w, const gb_job_t *job, int *rc, char *msg, size_t msglen)
{
    const gb_problem_t *p = &job->problem;
    char req[4096];
    size_t used = 0;
    int fits = plain(job->kernel);
    fits &= gb__appendf(req, sizeof req, &used,
                        "%lu %s %d %d %d %d %zu %zu %zu %zu %zu %zu %zu %zu %zu %a %a %d %zu %zu "
                        "%zu",
                        ++w->seq, job->kernel, (int)p->precision, (int)p->layout, (int)p->trans_a,
                        (int)p->trans_b, p->m, p->n, p->k, p->lda, p->ldb, p->ldc, p->off_a,
                        p->off_b, p->off_c, p->alpha, p->beta, job->has_lws, job->lws[0],
                        job->lws[1], job->swept.count);
    for (size_t i = 0; i < job->swept.count; i++) {
        fits &= plain(job->swept.name[i]);
        fits &=
            gb__appendf(req, sizeof req, &used, " %s=%ld", job->swept.name[i], job->swept.value[i]);
    }
    fits &= gb__appendf(req, sizeof req, &used, "\n");
    if (!fits)
        return gb__fail(msg, msglen, GB_EBADARG,
                        "its kernel or parameters do not fit a build request");
    if (!send_all(w->fd, req, used))
        return gb__fail(msg, msglen, GB_EIO, "it no longer reads requests");
    char *line = NULL, *end;
    size_t cap = 0;
    if (!read_line(w, &line, &cap)) {
        free(line);
        return gb__fail(msg, msglen, GB_EIO, "it ended while building");
    }
    const unsigned long seq = strtoul(line, &end, 10);
    if (seq == w->seq && !strncmp(end, " ? ", 3)) {
        gb__fail(msg, msglen, GB_EBADARG, "it could not take the request: %.200s", end + 3);
        free(line);
        return GB_EBADARG;
    }
    const long code = *end == ' ' ? strtol(end + 1, &end, 10) : 1;
    if (seq != w->seq || *end != ' ' || code > 0 || code < -1000) {
        gb__fail(msg, msglen, GB_EIO, "it answered '%.60s' to request %lu", line, w->seq);
        free(line);
        return GB_EIO;
    }
    /* The message, unescaped. */
    size_t n = 0;
    for (const char *s = end + 1; *s && n + 1 < msglen; s++) {
        if (*s == '\\' && (s[1] == 'n' || s[1] == '\\'))
            msg[n++] = *++s == 'n' ? '\n' : '\\';
        else
            msg[n++] = *s;
    }
    if (msglen)
        msg[n] = '\0';
    free(line);
    *rc = (int)code;
    return GB_OK;
}

void gb_builder_close(gb_builder_t *w)
{
    if (w->in)
        fclose(w->in); /* and w->fd with it */
    w->in = NULL;
    w->fd = -1;
}

void gb_builder_reap(pid_t pid, char *why, size_t whylen)
{
    int status = 0;
    pid_t got;
    while ((got = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (got < 0)
        snprintf(why, whylen, "its end is unknown: %s", strerror(errno));
    else if (WIFSIGNALED(status))
        snprintf(why, whylen, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(why, whylen, "exited with status %d", WEXITSTATUS(status));
}

/* ---- the worker's side --------------------------------------------------------------------- */

/* The next blank-separated field of a request, as an unsigned number no larger than max. */
static int field_num(char **save, unsigned long long max, unsigned long long *out)
{
    const char *t = strtok_r(NULL, " ", save);
    char *end;
    if (!t || *t == '-')
        return 0;
    errno = 0;
    *out = strtoull(t, &end, 10);
    return end != t && !*end && !errno && *out <= max;
}

/* The next field as a double (hexadecimal notation is exact). */
static int field_real(char **save, double *out)
{
    const char *t = strtok_r(NULL, " ", save);
    char *end;
    if (!t)
        return 0;
    *out = strtod(t, &end);
    return end != t && !*end;
}

/* A request into its number, implementation and problem. GB_OK, or GB_EBADARG with why (*seq
 * is set as soon as it is read). */
static int parse_request(char *line, const gb_registry_t *reg, unsigned long *seq, gb_impl_t *im,
                         gb_problem_t *p, char *why, size_t whylen)
{
    char *save = NULL;
    const char *t = strtok_r(line, " ", &save);
    *seq = t ? strtoul(t, NULL, 10) : 0;
    const char *kernel = strtok_r(NULL, " ", &save);
    unsigned long long prec, layout, ta, tb, dims[9], has_lws, lws[2], count;
    int ok = kernel && field_num(&save, GB_PREC_COUNT - 1, &prec) && field_num(&save, 1, &layout) &&
             field_num(&save, 1, &ta) && field_num(&save, 1, &tb);
    for (int i = 0; i < 9 && ok; i++) /* m n k, lda ldb ldc, off_a off_b off_c */
        ok = field_num(&save, SIZE_MAX, &dims[i]);
    memset(p, 0, sizeof *p);
    ok = ok && field_real(&save, &p->alpha) && field_real(&save, &p->beta) &&
         field_num(&save, 1, &has_lws) && field_num(&save, SIZE_MAX, &lws[0]) &&
         field_num(&save, SIZE_MAX, &lws[1]) && field_num(&save, GB_MAX_PARAMS, &count);
    if (!ok)
        return gb__fail(why, whylen, GB_EBADARG, "malformed build request");
    gb_params_t ps;
    memset(&ps, 0, sizeof ps);
    for (unsigned long long i = 0; i < count; i++) {
        const char *a = strtok_r(NULL, " ", &save);
        if (!a || gb_params_parse(&ps, a, why, whylen) != GB_OK)
            return gb__fail(why, whylen, GB_EBADARG, "malformed build request: parameter %llu",
                            i + 1);
    }
    if (strtok_r(NULL, " ", &save))
        return gb__fail(why, whylen, GB_EBADARG, "malformed build request: extra fields");
    p->precision = (gb_precision_t)prec;
    p->layout = (gb_layout_t)layout;
    p->trans_a = (gb_trans_t)ta;
    p->trans_b = (gb_trans_t)tb;
    size_t *const to[9] = {&p->m,   &p->n,     &p->k,     &p->lda,  &p->ldb,
                           &p->ldc, &p->off_a, &p->off_b, &p->off_c};
    for (int i = 0; i < 9; i++)
        *to[i] = (size_t)dims[i];
    int rc = gb_impl_resolve(reg, kernel, &ps, im, why, whylen);
    if (rc == GB_OK && has_lws)
        rc = gb_impl_can(im, GB_CAN_LWS)
                 ? gb_config_set_lws(&im->config, (size_t)lws[0], (size_t)lws[1], why, whylen)
                 : gb__fail(why, whylen, GB_EBADLWS, "library peer '%s' takes no work-group size",
                            kernel);
    return rc;
}

/* The answer line: number, code (NULL: '?', the request refused), and the message escaped. 0
 * when out is closed. */
static int answer(FILE *out, unsigned long seq, const int *code, const char *msg)
{
    if (code)
        fprintf(out, "%lu %d ", seq, *code);
    else
        fprintf(out, "%lu ? ", seq);
    for (const char *s = msg; *s; s++) {
        if (*s == '\n')
            fputs("\\n", out);
        else if (*s == '\\')
            fputs("\\\\", out);
        else
            fputc(*s, out);
    }
    fputc('\n', out);
    return fflush(out) == 0 && !ferror(out);
}

/* The worker's context, which loads what it builds once more from the disk cache (where there
 * is one: gb_builder_serve says why). */
static int open_context(const gb_device_info_t *dev, gb_context_t **ctx, char *msg, size_t msglen)
{
    const int rc = gb_context_open(ctx, dev, msg, msglen);
    if (rc == GB_OK)
        gb_context_reload_built(*ctx, 1);
    return rc;
}

int gb_builder_serve(const gb_registry_t *reg, const gb_device_info_t *dev, FILE *in, FILE *out,
                     char *msg, size_t msglen)
{
    /* One context, which also loads each program it built from the disk cache, as the tuner
     * will: on NVIDIA's OpenCL that load compiles the binary's PTX into CUDA's JIT cache (the
     * build from source does not fill it), so the tuner's load takes milliseconds instead of
     * most of a second. That load was on a second context, and the driver opens one context at
     * a time: 15 build processes were all ready in 8.2 s with two contexts each, 3.6-4.0 s with
     * one, and a tuning's first shape took 19-20 s instead of 23, the tuner's loads still 2.4 ms
     * (H100; bench/notes/scale-out.md#tuning-start). */
    gb_context_t *ctx = NULL;
    int rc = open_context(dev, &ctx, msg, msglen);
    if (rc == GB_OK && (fputs(HELLO "\n", out) == EOF || fflush(out) != 0))
        rc = gb__fail(msg, msglen, GB_EIO, "the tuner is gone");
    char *line = NULL, why[2048];
    size_t cap = 0;
    unsigned long served = 0;
    while (rc == GB_OK && getline(&line, &cap, in) > 0) {
        if (served && served % RECYCLE == 0) {
            gb_context_close(ctx);
            ctx = NULL;
            if ((rc = open_context(dev, &ctx, msg, msglen)) != GB_OK)
                break;
        }
        line[strcspn(line, "\n")] = '\0';
        unsigned long seq;
        gb_impl_t im;
        gb_problem_t p;
        why[0] = '\0';
        const int taken = parse_request(line, reg, &seq, &im, &p, why, sizeof why) == GB_OK;
        const int code = taken ? gb_impl_prebuild(ctx, &im, &p, why, sizeof why) : GB_EBADARG;
        if (!answer(out, seq, taken ? &code : NULL, why))
            rc = gb__fail(msg, msglen, GB_EIO, "the tuner is gone");
        served++;
    }
    free(line);
    gb_context_close(ctx);
    return rc;
}
