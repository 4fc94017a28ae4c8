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
    printf("usage: gemmbench replay ID [--store PATH] [--kernel-path DIR]\n"
           "  ID                 a point id (16 hex digits) or a unique prefix of at least 4;\n"
           "                     'gemmbench store list' shows them\n"
           "  --store PATH       the store holding it (default: 'gemmbench store path')\n"
           "  --kernel-path DIR  where its kernel family is, when it is not built in (default:\n"
           "                     the folder the point's family came from, if it still exists)\n"
           "exit: 0 the replay ran (inside the CI or not: both medians are printed), 1 the\n"
           "      replay failed validation, 2 no such point or its device or kernel is not here,\n"
           "      3 an OpenCL or build failure\n");
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
    if (strcmp(pt->tool_version, gb_version()))
        printf("  note: stored by gemmbench %s, replayed by %s\n", pt->tool_version, gb_version());
    fflush(stdout);
}

/* The replay's timing against the stored CI and both verdicts; the exit code. */
static int print_comparison(const gb_point_t *pt, const gb_point_t *again)
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
    char v_old[256], v_new[256];
    cli_verdict_text(&pt->result.validation, 1, v_old, sizeof v_old);
    cli_verdict_text(&r->validation, 1, v_new, sizeof v_new);
    printf("  validation: %s (stored: %s)\n", v_new, v_old);
    return r->validation.done && !r->validation.passed ? EXIT_INVALID : EXIT_OK;
}

int cmd_replay(int argc, char **argv)
{
    static const struct option opts[] = {{"store", required_argument, NULL, 's'},
                                         {"kernel-path", required_argument, NULL, 'k'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    const char *path = NULL, *kpath = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's': path = optarg; break;
        case 'k': kpath = optarg; break;
        case 'h': usage(); return EXIT_OK;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench replay --help'",
                             argv[optind - 1]);
        }
    }
    if (optind != argc - 1)
        return cli_error(GB_EBADARG, "give one point id: gemmbench replay ID; 'gemmbench store "
                                     "list' shows them");
    char msg[1024], id[GB_POINT_ID_LEN + 1], kdir[1024];
    gb_store_t *st = NULL;
    gb_registry_t *reg = NULL;
    gb_device_info_t *list = NULL;
    size_t count = 0;
    gb_context_t *ctx = NULL;
    gb_point_t pt, now, again;
    char *def_old = NULL, *def_new = NULL;
    gb_point_init(&pt);
    gb_point_init(&now);
    gb_point_init(&again);
    int rc = cli_store_open(&st, path, 0);
    if (rc)
        goto done;
    if ((rc = gb_store_resolve_id(st, argv[optind], id)) != GB_OK ||
        (rc = gb_store_get(st, id, &pt)) != GB_OK) {
        rc = cli_error(rc, "%s", gb_store_errmsg(st));
        goto done;
    }
    if (!kpath)
        kpath = origin_dir(pt.source_origin, kdir, sizeof kdir);
    if ((rc = gb_registry_open(&reg, kpath, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
        goto done;
    }
    /* The device by name and platform; with several alike, the one with the same driver. */
    if ((rc = gb_device_list(&list, &count, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    const gb_device_info_t *di = find_device(list, count, &pt);
    if (!di) {
        rc = cli_error(GB_ENODEVICE,
                       "point %s ran on device '%s' (platform '%s'), which is not "
                       "on this machine; 'gemmbench devices' lists the devices here",
                       pt.id, pt.device.name, pt.device.platform);
        goto done;
    }
    gb_job_t job;
    if ((rc = gb_job_from_point(&job, reg, di, &pt)) != GB_OK) {
        rc = cli_error(rc, "out of memory");
        goto done;
    }
    if (job.code == GB_ENOKERNEL || job.code == GB_EBADPARAM) {
        rc = cli_error(job.code, "point %s: %s; give --kernel-path DIR where its family is", pt.id,
                       job.why);
        goto done;
    }
    if (job.code != GB_OK) {
        rc = cli_error(job.code, "point %s cannot run here: %s", pt.id, job.why);
        goto done;
    }
    /* What this machine would define the point as, to name anything that differs. */
    if ((rc = gb_point_define(&now, di, &job.impl, &job.problem, &job.bench, job.rep, msg,
                              sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "point %s: %s", pt.id, msg);
        goto done;
    }
    if (gb_point_definition(&pt, &def_old) != GB_OK ||
        gb_point_definition(&now, &def_new) != GB_OK) {
        rc = cli_error(GB_ENOMEM, "out of memory");
        goto done;
    }
    print_point(&pt, &now, di, def_old, def_new);
    fflush(stdout);
    if ((rc = gb_context_open(&ctx, di, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    if ((rc = gb_job_measure(&job, ctx, NULL, GB_JOB_KEEP_NONE, &again, msg, sizeof msg)) !=
        GB_OK) {
        rc = cli_error(rc, "replay of %s could not run: %s", pt.id, msg);
        goto done;
    }
    rc = print_comparison(&pt, &again);
done:
    gb_point_free(&again);
    free(def_old);
    free(def_new);
    gb_context_close(ctx);
    gb_device_list_free(list, count);
    gb_registry_close(reg);
    gb_point_free(&pt);
    gb_point_free(&now);
    gb_store_close(st);
    return rc;
}
