/* cmd_replay.c: `gemmbench replay ID`: re-runs a stored point with the same everything (the
 * device by name and platform, kernel, parameters, problem, seed, distribution, warm-up,
 * iterations, timing) and says whether the new median of the headline phase falls inside the
 * stored 95% confidence interval of the mean. The replay is not stored. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool/job/job.h"
#include "cli.h"

static void usage(void)
{
    printf("usage: gemmbench replay ID [--store PATH] [--kernel-path DIR] [--verdict V]\n"
           "  ID                 a point id (16 hex digits) or a unique prefix of at least 4;\n"
           "                     'gemmbench store list' shows them\n"
           "  --store PATH       the store holding it (default: 'gemmbench store path')\n"
           "  --kernel-path DIR  where its kernel family is, when it is not built in (default:\n"
           "                     the folder the point's family came from, if it still exists)\n"
           "  --verdict V        faithful (default) or bound, as for 'run': a replay not\n"
           "                     faithful to its precision fails unless bound\n"
           "exit: 0 the replay ran (inside the CI or not: both medians are printed), 1 the\n"
           "      replay failed validation or is not faithful, 2 no such point or its device or\n"
           "      kernel is not here, 3 an OpenCL or build failure\n");
}

/* The folder of a family loaded with --kernel-path, from its recorded origin; NULL for
 * built-in families or a folder that is gone. */
static const char *origin_dir(const char *origin, char *buf, size_t len)
{
    struct stat sb;
    if (!gb_impl_origin_folder(origin, buf, len))
        return NULL;
    return stat(buf, &sb) == 0 && S_ISDIR(sb.st_mode) ? buf : NULL;
}

/* The definition keys whose values differ between two definition texts, into out. */
static void diff_keys(const char *a, const char *b, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    while (*a && *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la)) {
            size_t key = strcspn(a, "=");
            int n = snprintf(out + used, len - used, "%s%.*s", used ? ", " : "",
                             (int)(key < la ? key : la), a);
            used += n > 0 ? (size_t)n : 0;
            if (used >= len)
                return;
        }
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
    }
}

/* The device by name and platform; with several alike, the one with the point's driver. */
static const gb_device_info_t *find_device(const gb_device_info_t *list, size_t count,
                                           const gb_point_t *pt)
{
    const gb_device_info_t *di = NULL;
    for (size_t i = 0; i < count; i++)
        if (!strcmp(list[i].name, pt->device.name) &&
            !strcmp(list[i].platform_name, pt->device.platform) &&
            (!di || !strcmp(list[i].driver, pt->device.driver)))
            di = &list[i];
    return di;
}

/* What the stored point is, and whether this machine defines it the same way. */
static void print_point(const gb_point_t *pt, const gb_point_t *now, const gb_device_info_t *di,
                        const char *def_old, const char *def_new)
{
    char tag[16], dist[96], diff[512];
    const gb_problem_t *p = &pt->problem;
    printf("replay of point %s (stored %s by gemmbench %s (%s) on %s)\n", pt->id, pt->timestamp,
           pt->tool_version, pt->git_revision, pt->hostname);
    char pipe[48] = "";
    if (pt->pipeline)
        snprintf(pipe, sizeof pipe, ", pipeline of %d panels", pt->pipeline);
    printf("  %s %s %s %zux%zux%zu, alpha %g beta %g, seed %llu, data %s, %d warm-up + %d timed "
           "calls, timing %s, %s host memory%s%s\n",
           pt->kernel, gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag),
           p->m, p->n, p->k, p->alpha, p->beta, (unsigned long long)pt->seed,
           gb_dist_format(&pt->dist, dist, sizeof dist), pt->warmup, pt->iterations,
           gb_timing_name(pt->timing), gb_host_mem_name(pt->host_mem), pipe,
           pt->cold ? ", cold" : "");
    printf("  on %s (%s, driver %s)\n", di->name, di->platform_name, di->driver);
    diff_keys(def_old, def_new, diff, sizeof diff);
    if (!strcmp(now->id, pt->id))
        printf("  definition: identical here\n");
    else
        printf("  definition: differs here in %s (this machine would store it as %s)\n",
               diff[0] ? diff : "its id", now->id);
    if (strcmp(pt->tool_version, gb_version()) || strcmp(pt->git_revision, gb_store_git_revision()))
        printf("  note: stored by gemmbench %s (%s), replayed by %s (%s)\n", pt->tool_version,
               pt->git_revision, gb_version(), gb_store_git_revision());
    fflush(stdout);
}

/* The replay's timing against the stored CI and both verdicts, and its outcome under verdict
 * for an implementation of capabilities caps; the exit code. */
static int print_comparison(const gb_point_t *pt, const gb_point_t *again, unsigned caps,
                            gb_verdict_t verdict)
{
    const gb_result_t *r = &again->result;
    const gb_phase_t ph = gb_timing_phase(pt->timing);
    const gb_stats_t *old = &pt->result.time_ms[ph], *cur = &r->time_ms[ph];
    const int inside = cur->median >= old->ci95_lo && cur->median <= old->ci95_hi;
    printf("  stored: median %.6g ms (%.4g GFLOP/s), 95%% CI of the mean [%.6g, %.6g] ms over %zu "
           "calls (phase %s)\n",
           old->median, pt->result.gflops, old->ci95_lo, old->ci95_hi, old->n, gb_phase_name(ph));
    printf("  replay: median %.6g ms (%.4g GFLOP/s), 95%% CI of the mean [%.6g, %.6g] ms over %zu "
           "calls\n",
           cur->median, r->gflops, cur->ci95_lo, cur->ci95_hi, cur->n);
    printf("  result: the replay's median is %s the stored 95%% CI (replay/stored median %.3f)%s\n",
           inside ? "INSIDE" : "OUTSIDE", old->median > 0 ? cur->median / old->median : 0.0,
           old->n < 2 ? "; the stored CI of one call is a single value" : "");
    char v_old[256], v_new[256], f_old[64], f_new[64];
    cli_verdict_text(&pt->result.validation, 1, v_old, sizeof v_old);
    cli_verdict_text(&r->validation, 1, v_new, sizeof v_new);
    printf("  validation: %s (stored: %s)\n", v_new, v_old);
    cli_faithful_text(&pt->result.validation, pt->problem.precision, f_old, sizeof f_old);
    cli_faithful_text(&r->validation, pt->problem.precision, f_new, sizeof f_new);
    printf("  faithful: %s (stored: %s)\n", f_new, f_old);
    const gb_outcome_t oc = gb_validation_outcome(&r->validation, caps, verdict);
    if (oc == GB_OUTCOME_UNFAITHFUL)
        printf("  outcome: FAIL: within the error bound but not faithful to its precision "
               "(--verdict bound accepts it)\n");
    return oc >= GB_OUTCOME_FAIL ? EXIT_INVALID : EXIT_OK;
}

/* The options: 0 with the path of --store and --kernel-path (NULL where not given) and the
 * verdict, -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, const char **path, const char **kpath,
                 gb_verdict_t *verdict)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"kernel-path", required_argument, NULL, 'k'},
                                         {"verdict", required_argument, NULL, 'V'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's': *path = optarg; break;
        case 'k': *kpath = optarg; break;
        case 'V':
            if (gb_verdict_parse(optarg, verdict) != GB_OK)
                return cli_error(GB_EBADARG,
                                 "--verdict: unknown verdict '%s'; use faithful or bound", optarg);
            break;
        case 'h': usage(); return -1;
        default: return cli_bad_option(c, argv[optind - 1], "replay");
        }
    }
    if (optind != argc - 1)
        return cli_error(GB_EBADARG, "give one point id: gemmbench replay ID; 'gemmbench store "
                                     "list' shows them");
    return 0;
}

/* What a replay works with, closed by close_replay. */
typedef struct replay {
    gb_store_t *st;
    gb_registry_t *reg;
    gb_device_info_t *list;
    size_t count;
    const gb_device_info_t *di;
    gb_context_t *ctx;
    gb_point_t pt, now, again; /* stored, as defined here, measured again */
    char *def_old, *def_new;
    gb_job_t job;
} replay_t;

static void close_replay(replay_t *r)
{
    gb_point_free(&r->again);
    free(r->def_old);
    free(r->def_new);
    gb_context_close(r->ctx);
    gb_device_list_free(r->list, r->count);
    gb_registry_close(r->reg);
    gb_point_free(&r->pt);
    gb_point_free(&r->now);
    gb_store_close(r->st);
}

/* The stored point, its kernels (from --kernel-path, else where its family came from) and its
 * device. 0 or the exit code. */
static int open_point(replay_t *r, const char *path, const char *kpath, const char *arg)
{
    char msg[1024], id[GB_POINT_ID_LEN + 1], kdir[1024];
    int rc = cli_store_open(&r->st, path, 0);
    if (rc)
        return rc;
    if ((rc = gb_store_resolve_id(r->st, arg, id)) != GB_OK ||
        (rc = gb_store_get(r->st, id, &r->pt)) != GB_OK)
        return cli_error(rc, "%s", gb_store_errmsg(r->st));
    if (!kpath)
        kpath = origin_dir(r->pt.source_origin, kdir, sizeof kdir);
    if ((rc = gb_registry_open(&r->reg, kpath, msg, sizeof msg)) != GB_OK)
        return cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
    if ((rc = gb_device_list(&r->list, &r->count, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    if (!(r->di = find_device(r->list, r->count, &r->pt)))
        return cli_error(GB_ENODEVICE,
                         "point %s ran on device '%s' (platform '%s'), which is not "
                         "on this machine; 'gemmbench devices' lists the devices here",
                         r->pt.id, r->pt.device.name, r->pt.device.platform);
    return 0;
}

/* The point's job on this machine, and what this machine would define the point as, to name
 * anything that differs. 0 or the exit code. */
static int make_job(replay_t *r)
{
    char msg[1024];
    const gb_point_t *pt = &r->pt;
    gb_job_t *job = &r->job;
    int rc;
    if ((rc = gb_job_from_point(job, r->reg, r->di, pt)) != GB_OK)
        return cli_error(rc, "out of memory");
    if (job->code == GB_ENOKERNEL || job->code == GB_EBADPARAM)
        return cli_error(job->code, "point %s: %s; give --kernel-path DIR where its family is",
                         pt->id, job->why);
    if (job->code != GB_OK)
        return cli_error(job->code, "point %s cannot run here: %s", pt->id, job->why);
    if ((rc = gb_point_define(&r->now, r->di, &job->impl, &job->problem, &job->bench, job->rep, msg,
                              sizeof msg)) != GB_OK)
        return cli_error(rc, "point %s: %s", pt->id, msg);
    if (gb_point_definition(pt, &r->def_old) != GB_OK ||
        gb_point_definition(&r->now, &r->def_new) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    const char *path = NULL, *kpath = NULL;
    gb_verdict_t verdict = GB_VERDICT_FAITHFUL;
    int rc = parse(argc, argv, &path, &kpath, &verdict);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    char msg[1024];
    replay_t r;
    memset(&r, 0, sizeof r);
    gb_point_init(&r.pt);
    gb_point_init(&r.now);
    gb_point_init(&r.again);
    if ((rc = open_point(&r, path, kpath, argv[optind])) || (rc = make_job(&r)))
        goto done;
    print_point(&r.pt, &r.now, r.di, r.def_old, r.def_new);
    fflush(stdout);
    if ((rc = gb_context_open(&r.ctx, r.di, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    if ((rc = gb_job_measure(&r.job, r.ctx, NULL, GB_JOB_KEEP_NONE, &r.again, msg, sizeof msg)) !=
        GB_OK) {
        rc = cli_error(rc, "replay of %s could not run: %s", r.pt.id, msg);
        goto done;
    }
    rc = print_comparison(&r.pt, &r.again, gb_impl_caps(&r.job.impl), verdict);
done:
    close_replay(&r);
    return rc;
}
