/* cmd_check.c: `gemmbench check -k KERNEL [--kernel-path DIR]`: a kernel under test, at shapes
 * that straddle tiles, in two ways: under Oclgrind, the OpenCL simulator, whose checkers see
 * out-of-bounds accesses, data races and reads of uninitialised memory that a CPU device hides
 * (a race needs work-items that truly run at once), and on the chosen device (PoCL by default)
 * through the normal validation. Oclgrind exits 0 whatever it finds, so its log is read: any
 * line in it is a finding. */
#include <errno.h>
#include <signal.h>
#include <time.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt/util/util.h"
#include "cli.h"

extern char **environ;

/* Seconds a run may take before it is killed (a kernel that corrupts memory can hang it). */
static long run_limit_s = 300;

/* Shapes that straddle tiles: one element, small odd sizes, a K of one step and of several. */
static const size_t shapes[][3] = {{1, 1, 1}, {33, 17, 9}, {33, 17, 45}, {65, 63, 67}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void usage(void)
{
    printf("usage: gemmbench check -k KERNEL [--kernel-path DIR]\n"
           "                       [--precision s|d|h|b|c|z]\n"
           "                       [--param NAME=V ..] [-p P] [-t T] [-d D] [--no-oclgrind]\n"
           "                       [--timeout S]\n"
           "Runs KERNEL (a family or preset) at shapes that straddle tiles (1x1x1, 33x17x9,\n"
           "33x17x45, 65x63x67; those the kernel's constraints refuse are skipped, and said),\n"
           "alpha -1.5, beta 0.5:\n"
           "  under Oclgrind (--data-races --uninitialized --check-api): out-of-bounds\n"
           "  accesses, data races and uninitialised reads that a CPU device hides;\n"
           "  on the device (default: the first, PoCL) with the normal validation.\n"
           "Each run is a process of its own, killed after --timeout seconds (default 300): a\n"
           "kernel that writes out of bounds can crash or hang it, which counts as a failure.\n"
           "exit: 0 both clean, 1 a finding or a failed validation, 2 bad usage,\n"
           "      3 an OpenCL, build or system failure\n");
}

typedef struct check_opts {
    const char *kernel, *kpath, *precision, *type;
    gb_params_t params;
    char param_args[GB_MAX_PARAMS][GB_NAME_MAX + 24]; /* as given, for the Oclgrind run */
    size_t nparam_args;
    gb_device_selector_t sel;
    int no_oclgrind;
} check_opts_t;

static int parse(int argc, char **argv, check_opts_t *o)
{
    enum { O_KPATH = 256, O_PREC, O_PARAM, O_NOOCL, O_TIMEOUT };
    static const struct option opts[] = {{"kernel", required_argument, NULL, 'k'},
                                         {"kernel-path", required_argument, NULL, O_KPATH},
                                         {"precision", required_argument, NULL, O_PREC},
                                         {"param", required_argument, NULL, O_PARAM},
                                         {"platform", required_argument, NULL, 'p'},
                                         {"type", required_argument, NULL, 't'},
                                         {"device", required_argument, NULL, 'd'},
                                         {"no-oclgrind", no_argument, NULL, O_NOOCL},
                                         {"timeout", required_argument, NULL, O_TIMEOUT},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->sel.type = GB_DEVTYPE_ALL;
    char msg[512];
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":k:p:t:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'k': o->kernel = optarg; break;
        case O_KPATH: o->kpath = optarg; break;
        case O_PREC: {
            gb_precision_t p;
            if (gb_precision_parse(optarg, &p) != GB_OK)
                return cli_error(GB_EBADPRECISION, "unknown precision '%s'; use " GB_PREC_NAMES,
                                 optarg);
            o->precision = optarg;
            break;
        }
        case O_PARAM:
            if (gb_params_parse(&o->params, optarg, msg, sizeof msg) != GB_OK)
                return cli_error(GB_EBADPARAM, "--param: %s", msg);
            snprintf(o->param_args[o->nparam_args++], sizeof o->param_args[0], "%s", optarg);
            break;
        case 'p': o->sel.platform = optarg; break;
        case 'd': o->sel.device = optarg; break;
        case 't':
            if ((rc = cli_device_type(optarg, &o->sel.type)) != 0)
                return rc;
            o->type = optarg;
            break;
        case O_NOOCL: o->no_oclgrind = 1; break;
        case O_TIMEOUT: {
            char *end;
            run_limit_s = strtol(optarg, &end, 10);
            if (end == optarg || *end || run_limit_s < 1 || run_limit_s > 86400)
                return cli_error(GB_EBADARG, "--timeout must be seconds from 1 to 86400, got '%s'",
                                 optarg);
            break;
        }
        case 'h': usage(); return -1;
        default: return cli_bad_option(c, argv[optind - 1], "check");
        }
    }
    if (!o->kernel || !o->kernel[0])
        return cli_error(GB_ENOKERNEL, "give the kernel to check: gemmbench check -k KERNEL");
    return cli_no_operands(argc, argv, "check");
}

/* Is oclgrind on PATH? */
static int have_oclgrind(void)
{
    const char *path = getenv("PATH");
    char dir[4096];
    for (const char *p = path ? path : ""; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(dir, sizeof dir, "%.*s/oclgrind", (int)n, p);
        if (access(dir, X_OK) == 0)
            return 1;
        p += n + (p[n] == ':');
    }
    return 0;
}

/* Runs argv with standard output and error into out_path; returns the exit status (128 + N for a
 * signal), -2 when it ran past run_limit_s (and was killed), or -1 when it could not start. */
static int spawn(char *const argv[], const char *out_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int status;
    for (long waited_ms = 0;; waited_ms += 20) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            break;
        if (got < 0 && errno != EINTR)
            return -1;
        if (waited_ms >= run_limit_s * 1000) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -2;
        }
        const struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The reports in a file: a report is a line that starts in column one (Oclgrind indents its
 * details with a tab), and its "At line" lines. The first report, with its lines, goes to buf
 * ("" when there is none); returns how many there are. */
static size_t reports(const char *path, char *buf, size_t len)
{
    char *text;
    size_t n, count = 0, used = 0;
    buf[0] = '\0';
    if (gb__read_file(path, 1u << 26, &text, &n) != GB_OK)
        return 0;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        const char *at = strstr(l, "At line ");
        if (l[0] != '\t' && l[0] != ' ' && l[0]) {
            if (count++ == 0)
                gb__appendf(buf, len, &used, "%s", l);
        } else if (count == 1 && at) {
            gb__appendf(buf, len, &used, "; line %.*s", (int)strcspn(at + 8, " "), at + 8);
        }
    }
    free(text);
    return count;
}

/* The 'run' of one shape, as argv for spawn(): this very program, with the options given. */
typedef struct run_argv {
    char self[4096], m[24], n[24], k[24];
    char *v[64];
    size_t n_args;
} run_argv_t;

static int run_argv(run_argv_t *r, const check_opts_t *o, const size_t *s, int oclgrind)
{
    ssize_t sl = readlink("/proc/self/exe", r->self, sizeof r->self - 1);
    if (sl <= 0)
        return 0;
    r->self[sl] = '\0';
    snprintf(r->m, sizeof r->m, "%zu", s[0]);
    snprintf(r->n, sizeof r->n, "%zu", s[1]);
    snprintf(r->k, sizeof r->k, "%zu", s[2]);
    size_t a = 0;
    r->v[a++] = r->self;
    const char *fixed[] = {"run",     "--no-store", "-v",     "-i",  "1",  "--warmup", "0",
                           "--alpha", "-1.5",       "--beta", "0.5", "-k", o->kernel,  "-M",
                           r->m,      "-N",         r->n,     "-K",  r->k};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        r->v[a++] = (char *)fixed[i];
    const char *opt[][2] = {{"--kernel-path", o->kpath},
                            {"--precision", o->precision},
                            {"-p", oclgrind ? "Oclgrind" : o->sel.platform},
                            {"-d", oclgrind ? NULL : o->sel.device},
                            {"-t", oclgrind ? NULL : o->type}};
    for (size_t i = 0; i < sizeof opt / sizeof opt[0]; i++)
        if (opt[i][1]) {
            r->v[a++] = (char *)opt[i][0];
            r->v[a++] = (char *)opt[i][1];
        }
    for (size_t i = 0; i < o->nparam_args; i++) {
        r->v[a++] = (char *)"--param";
        r->v[a++] = (char *)o->param_args[i];
    }
    r->v[a] = NULL;
    r->n_args = a;
    return 1;
}

#define ERROR_TAG "gemmbench: error: "

/* The verdict of a 'run' from its output (stdout and stderr together, in no reliable order:
 * stdout reaches the file when the run exits): the row's validation text (from 'pass' or
 * 'FAIL'); else the run's own error line, and after a failed build's "build log:" the log's
 * first line that names an error (not its last line, a caret under the source); else the last
 * line. 0 pass, 1 fail, 3 it did not finish. */
static int verdict(const char *out, int rc, char *why, size_t len)
{
    char *text;
    size_t n, used = 0;
    int found = -1, error = 0, log = 0;
    why[0] = '\0';
    if (gb__read_file(out, 1u << 26, &text, &n) == GB_OK) {
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
            const char *p = strstr(l, "  pass"), *f = strstr(l, "  FAIL");
            const size_t ll = strlen(l), bl = strlen("build log:");
            if (p || f) {
                snprintf(why, len, "%s", (p ? p : f) + 2);
                found = p ? 0 : 1;
            } else if (found < 0 && !error && !strncmp(l, ERROR_TAG, strlen(ERROR_TAG))) {
                used = 0;
                why[0] = '\0';
                gb__appendf(why, len, &used, "%s", l + strlen(ERROR_TAG));
                error = 1;
                log = ll >= bl && !strcmp(l + ll - bl, "build log:");
            } else if (found < 0 && log && strstr(l, "error")) {
                gb__appendf(why, len, &used, " %s", l + strspn(l, " \t"));
                log = 0;
            } else if (found < 0 && !error) {
                snprintf(why, len, "%s", l);
            }
        }
        free(text);
    }
    if (rc == -2)
        return gb__fail(why, len, 1, "FAIL: the run did not finish in %ld s and was killed",
                        run_limit_s);
    /* A kernel that takes the process down is the kernel's fault, as a wrong result is. */
    if (rc > 128 && rc < 128 + 65)
        return gb__fail(why, len, 1, "FAIL: the run crashed (signal %d)", rc - 128);
    if (found >= 0 && (rc == 0 || rc == 1))
        return found;
    char last[512];
    snprintf(last, sizeof last, "%s", why);
    return gb__fail(why, len, rc == 2 ? 2 : 3, "exited %d: %s", rc, last);
}

/* One shape under Oclgrind: the simulator runs this very program's 'run'. 0 clean, 1 a finding
 * (why says it), 3 it could not run. */
static int under_oclgrind(const check_opts_t *o, const size_t *s, const char *dir, char *why,
                          size_t len)
{
    char log[1100], out[1100];
    run_argv_t r;
    if (!run_argv(&r, o, s, 1))
        return gb__fail(why, len, 3, "cannot find this program's path (/proc/self/exe)");
    snprintf(log, sizeof log, "%s/oclgrind.log", dir);
    snprintf(out, sizeof out, "%s/run.out", dir);
    for (int uninit = 1; uninit >= 0; uninit--) {
        char *argv[80];
        size_t a = 0;
        argv[a++] = (char *)"oclgrind";
        argv[a++] = (char *)"--data-races";
        if (uninit)
            argv[a++] = (char *)"--uninitialized";
        argv[a++] = (char *)"--check-api";
        argv[a++] = (char *)"--local-mem-size";
        argv[a++] = (char *)"65536";
        argv[a++] = (char *)"--log";
        argv[a++] = log;
        for (size_t i = 0; i <= r.n_args; i++)
            argv[a++] = r.v[i];
        remove(log);
        int rc = spawn(argv, out);
        char line[400];
        const size_t found = reports(log, line, sizeof line);
        if (found)
            return gb__fail(why, len, 1, "%zu reports from Oclgrind, the first: %s", found, line);
        /* Oclgrind 21.10's uninitialised-value checker crashes on some kernels: again without. */
        if (rc == 128 + 11 && uninit)
            continue;
        if (rc == -1)
            return gb__fail(why, len, 3, "oclgrind could not be started");
        rc = verdict(out, rc, why, len);
        if (rc == 0 && !uninit)
            gb__fail(why, len, 0,
                     "clean (without the uninitialised-value check, whose checker "
                     "crashed)");
        else if (rc == 0)
            gb__fail(why, len, 0, "clean");
        return rc;
    }
    return 3;
}

/* Whether the kernel's constraints refuse shape s (in the precision check runs, row-major NN),
 * with why: such a shape is skipped, not a problem (sgemm_wgmma's K >= 48). */
static int refused(const gb_impl_t *im, const check_opts_t *o, const size_t *s, char *why,
                   size_t len)
{
    gb_precision_t prec = gb_impl_precisions(im) & (1u << GB_PREC_S) ? GB_PREC_S : GB_PREC_D;
    if (o->precision)
        gb_precision_parse(o->precision, &prec);
    gb_problem_t p;
    gb_problem_init(&p, prec, s[0], s[1], s[2]);
    return gb_impl_check(im, NULL, prec, &p, why, len) == GB_ECONSTRAINT;
}

/* One shape on the device, through the normal validation, in a process of its own: a kernel
 * that writes out of bounds can take the process down. 0 pass, 1 fail, 2 or 3 an error. */
static int on_device(const check_opts_t *o, const size_t *s, const char *dir, char *why, size_t len)
{
    char out[1100];
    run_argv_t r;
    if (!run_argv(&r, o, s, 0))
        return gb__fail(why, len, 3, "cannot find this program's path (/proc/self/exe)");
    snprintf(out, sizeof out, "%s/run.out", dir);
    int rc = spawn(r.v, out);
    if (rc == -1)
        return gb__fail(why, len, 3, "could not start '%s run'", r.self);
    return verdict(out, rc, why, len);
}

/* Every shape, under Oclgrind (ocl) and on the device, a line each; the worst exit code. */
static int check_shapes(const check_opts_t *o, const gb_impl_t *im, int ocl, const char *dir)
{
    int worst = EXIT_OK;
    size_t skipped = 0;
    for (size_t i = 0; i < NSHAPES; i++) {
        const size_t *s = shapes[i];
        char shape[48], why[1024];
        snprintf(shape, sizeof shape, "%zux%zux%zu", s[0], s[1], s[2]);
        if (refused(im, o, s, why, sizeof why)) {
            printf("%-12s %-9s skipped: %s\n", shape, "-", why);
            skipped++;
            continue;
        }
        if (ocl) {
            int r = under_oclgrind(o, s, dir, why, sizeof why);
            printf("%-12s %-9s %s%s\n", shape, "oclgrind",
                   r == 1 ? "FOUND: "
                   : r    ? "could not run: "
                          : "",
                   why);
            worst = r == 3 ? EXIT_RUNTIME : r && worst != EXIT_RUNTIME ? EXIT_INVALID : worst;
        }
        int r = on_device(o, s, dir, why, sizeof why);
        printf("%-12s %-9s %s%s\n", shape, "device", r == 1 ? "" : r ? "could not run: " : "", why);
        worst = r == 3                            ? EXIT_RUNTIME
                : r == 2 && worst == EXIT_OK      ? EXIT_USAGE
                : r == 1 && worst != EXIT_RUNTIME ? EXIT_INVALID
                                                  : worst;
        fflush(stdout);
    }
    if (skipped == NSHAPES) {
        printf("no shape satisfies the kernel's constraints: nothing was checked\n");
        worst = EXIT_USAGE;
    }
    return worst;
}

int cmd_check(int argc, char **argv)
{
    check_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    char msg[1024], dir[] = "/tmp/gemmbench-check.XXXXXX";
    gb_registry_t *reg = NULL;
    cli_device_t dev = {0};
    int worst = EXIT_OK, ocl = !o.no_oclgrind && have_oclgrind(), made = 0;
    if ((rc = cli_registry_open(&reg, o.kpath)))
        goto done;
    gb_impl_t im;
    if ((rc = gb_impl_resolve(reg, o.kernel, &o.params, &im, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s; run 'gemmbench kernels' to list them", msg);
        goto done;
    }
    if (!gb_impl_can(&im, GB_CAN_CHECK)) {
        rc = cli_error(GB_EBADARG,
                       "'%s' is a library peer: check takes kernel families and presets", o.kernel);
        goto done;
    }
    if ((rc = cli_device_open(&dev, &o.sel)))
        goto done;
    const gb_device_info_t *di = &dev.list[dev.index];
    if (!(made = mkdtemp(dir) != NULL)) {
        rc = cli_error(GB_EIO, "cannot make a temporary folder: %s", strerror(errno));
        goto done;
    }
    printf("check %s: %zu shapes, alpha -1.5, beta 0.5\n", o.kernel, NSHAPES);
    printf("  under Oclgrind: %s\n",
           ocl             ? "data races, uninitialised reads, API misuse, and "
                             "accesses out of bounds"
           : o.no_oclgrind ? "skipped (--no-oclgrind)"
                           : "skipped: oclgrind is not installed (Debian package oclgrind)");
    printf("  on %s (%s): the normal validation\n\n", di->name, di->platform_name);
    printf("%-12s %-9s %s\n", "shape", "where", "result");
    worst = check_shapes(&o, &im, ocl, dir);
    printf("\ncheck %s: %s\n", o.kernel, worst == EXIT_OK ? "clean" : "problems found (above)");
    rc = worst;
done:
    if (made) {
        char path[1100];
        snprintf(path, sizeof path, "%s/oclgrind.log", dir);
        remove(path);
        snprintf(path, sizeof path, "%s/run.out", dir);
        remove(path);
        rmdir(dir);
    }
    cli_device_close(&dev);
    gb_registry_close(reg);
    return rc;
}
