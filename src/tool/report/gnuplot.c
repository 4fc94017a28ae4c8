/* gnuplot.c: gnuplot as a child process: a private temporary folder for the script, the data
 * and the SVGs gnuplot writes, one run, and each SVG made ready to inline into a page. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report_int.h"

extern char **environ;

#define MAX_SVG (64u << 20)

int gb_report__gp_open(gb_report__gp_t *gp, char *msg, size_t msglen)
{
    const char *tmp = getenv("TMPDIR");
    char path[1100];
    memset(gp, 0, sizeof *gp);
    if (!tmp || !*tmp || strlen(tmp) > 900)
        tmp = "/tmp";
    snprintf(gp->dir, sizeof gp->dir, "%s/gemmbench-report-XXXXXX", tmp);
    if (!mkdtemp(gp->dir)) {
        snprintf(msg, msglen,
                 "cannot make a temporary folder in %s for the plots (%s); set TMPDIR "
                 "to a writable folder",
                 tmp, strerror(errno));
        gp->dir[0] = '\0';
        return GB_EIO;
    }
    if (!(gp->script = gb_report__gp_file(gp, "plot.gp", path, sizeof path))) {
        snprintf(msg, msglen, "cannot write %s (%s)", path, strerror(errno));
        gb_report__gp_close(gp);
        return GB_EIO;
    }
    /* Outputs are named relative to the folder. */
    fputs("cd ", gp->script);
    gb_report__gp_quote(gp->script, gp->dir);
    fputc('\n', gp->script);
    return GB_OK;
}

void gb_report__gp_close(gb_report__gp_t *gp)
{
    if (gp->script)
        fclose(gp->script);
    gp->script = NULL;
    if (!gp->dir[0])
        return;
    /* The folder is ours (mkdtemp): everything in it was written by this run. */
    DIR *d = opendir(gp->dir);
    if (d) {
        const struct dirent *e;
        char path[1400];
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(path, sizeof path, "%s/%s", gp->dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(gp->dir);
    gp->dir[0] = '\0';
}

const char *gb_report__gp_terminal(char *buf, size_t len, int w, int h)
{
    snprintf(buf, len,
             "set terminal svg size %d,%d dynamic noenhanced font 'sans,12' "
             "background '#ffffff'\n",
             w, h);
    return buf;
}

FILE *gb_report__gp_file(gb_report__gp_t *gp, const char *name, char *path, size_t pathlen)
{
    snprintf(path, pathlen, "%s/%s", gp->dir, name);
    return fopen(path, "w");
}

void gb_report__gp_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("''", f);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
    fputc('\'', f);
}

const char *gb_report__tick_text(double v, char *buf, size_t len)
{
    char t[64];
    snprintf(t, sizeof t, "%g", v);
    char *e = strchr(t, 'e');
    if (!e) {
        snprintf(buf, len, "%s", t);
        return buf;
    }
    /* "1e-05" -> "1e-5", "2e+06" -> "2e6" */
    const char *x = e + 1;
    const int neg = *x == '-';
    x += *x == '-' || *x == '+';
    while (*x == '0' && x[1])
        x++;
    *e = '\0';
    snprintf(buf, len, "%se%s%s", t, neg ? "-" : "", x);
    return buf;
}

void gb_report__gp_log_tics(FILE *f, const char *axis, double lo, double hi)
{
    if (!(lo > 0) || !(hi >= lo) || !isfinite(hi))
        return;
    const int a = (int)ceil(log10(lo) - 1e-9), b = (int)floor(log10(hi) + 1e-9);
    if (a > b)
        return;
    const int step = (b - a) / 10 + 1;
    fprintf(f, "set %stics (", axis);
    for (int p = a; p <= b; p += step) {
        char t[32];
        fprintf(f, "%s'%s' 1e%d", p == a ? "" : ", ", gb_report__tick_text(pow(10, p), t, sizeof t),
                p);
    }
    fputs(")\n", f);
}

/* The last line of gnuplot's log that says something: its error, when it failed. */
static void last_message(const char *log, char *out, size_t len)
{
    FILE *f = fopen(log, "r");
    char line[512];
    out[0] = '\0';
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        const char *p = line;
        while (*p == ' ' || *p == '\t' || *p == '^')
            p++;
        if (*p)
            snprintf(out, len, "%s", p);
    }
    fclose(f);
}

int gb_report_gnuplot_check(char *msg, size_t msglen)
{
    /* An empty script: only whether gnuplot starts and exits cleanly. */
    gb_report__gp_t gp;
    int rc = gb_report__gp_open(&gp, msg, msglen);
    if (rc == GB_OK)
        rc = gb_report__gp_run(&gp, msg, msglen);
    gb_report__gp_close(&gp);
    return rc;
}

int gb_report__gp_run(gb_report__gp_t *gp, char *msg, size_t msglen)
{
    char script[1100], log[1100];
    snprintf(script, sizeof script, "%s/plot.gp", gp->dir);
    snprintf(log, sizeof log, "%s/gnuplot.log", gp->dir);
    int bad = ferror(gp->script);
    bad |= fclose(gp->script) != 0;
    gp->script = NULL;
    if (bad) {
        snprintf(msg, msglen, "cannot write %s", script);
        return GB_EIO;
    }
    const char *env = getenv("GEMMBENCH_GNUPLOT");
    char prog[1024], arg0[] = "gnuplot";
    snprintf(prog, sizeof prog, "%s", env && *env ? env : "gnuplot");
    char *argv[] = {arg0, script, NULL};
    posix_spawn_file_actions_t fa;
    pid_t pid;
    if (posix_spawn_file_actions_init(&fa) != 0) {
        snprintf(msg, msglen, "out of memory");
        return GB_ENOMEM;
    }
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        if (env && *env)
            snprintf(msg, msglen,
                     "cannot run gnuplot '%s' (GEMMBENCH_GNUPLOT): %s; point "
                     "GEMMBENCH_GNUPLOT at gnuplot or unset it",
                     prog, strerror(rc));
        else
            snprintf(
                msg, msglen,
                "cannot run gnuplot (%s): the html format draws its plots with it; "
                "install Debian's gnuplot-nox package (scripts/install-deps.sh does), or choose "
                "--format text, md, csv or json",
                strerror(rc));
        return GB_EIO;
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(msg, msglen, "waiting for gnuplot failed: %s", strerror(errno));
            return GB_EIO;
        }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char last[512];
        last_message(log, last, sizeof last);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            snprintf(msg, msglen,
                     "cannot run gnuplot: install Debian's gnuplot-nox package "
                     "(scripts/install-deps.sh does), or choose --format text, md, csv or json");
        else
            snprintf(msg, msglen, "gnuplot failed on the report's plots%s%s", last[0] ? ": " : "",
                     last);
        return GB_EIO;
    }
    return GB_OK;
}

/* Appends n bytes to a growing buffer; 0 when out of memory. */
static int put(char **b, size_t *len, size_t *cap, const char *s, size_t n)
{
    return gb__append(b, len, cap, s, n) == GB_OK;
}

char *gb_report__gp_svg(gb_report__gp_t *gp, const char *name, const char *prefix)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s", gp->dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL, *out = NULL, chunk[8192];
    size_t len = 0, cap = 0, n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (len + n > MAX_SVG || !put(&text, &len, &cap, chunk, n)) {
            fclose(f);
            free(text);
            return NULL;
        }
    fclose(f);
    const char *p = text ? strstr(text, "<svg") : NULL;
    size_t olen = 0, ocap = 0, plen = strlen(prefix);
    int ok = p != NULL;
    static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
    while (ok && *p) {
        if (!strncmp(p, "<title>Gnuplot</title>", 22)) {
            p += 22;
            continue;
        }
        size_t hit = 0;
        for (size_t i = 0; !hit && i < sizeof refs / sizeof refs[0]; i++)
            if (!strncmp(p, refs[i], strlen(refs[i])) &&
                (refs[i][0] == 'u' || isspace((unsigned char)p[-1]) || p[-1] == ':'))
                hit = strlen(refs[i]);
        if (hit) {
            ok = put(&out, &olen, &ocap, p, hit) && put(&out, &olen, &ocap, prefix, plen);
            p += hit;
        } else {
            ok = put(&out, &olen, &ocap, p, 1);
            p++;
        }
    }
    free(text);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}
