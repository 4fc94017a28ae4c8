/* cmd_run.c: `gemmbench run`: build, validate and time kernels on one device, over one or more
 * sizes, and print one comparison table (or JSON). Options follow the Intel SGEMM sample
 * (-p -t -d -M -K -N -i -k -v) and GEMMbench (-n, --lws). */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store/store.h"
#include "cli.h"

#define MAX_SIZES 64
#define MAX_KERNELS 128

typedef struct run_opts {
    gb_device_selector_t sel;
    size_t orders[MAX_SIZES], norders;
    size_t m, n, k;
    const char *kernels, *kpath;
    gb_params_t params;
    size_t lws[2];
    int has_lws, has_precision, has_layout, json;
    const char *store; /* --store PATH; NULL: the default store */
    int no_store;      /* --no-store */
    gb_problem_t base;
    gb_bench_options_t bench;
} run_opts_t;

/* One thing to run: a kernel name and the precision to run it in. */
typedef struct job {
    const char *name;
    gb_precision_t prec;
    int named; /* asked for by name (its errors are errors), not through 'all' */
} job_t;

/* What the energy column rests on, said once under the table. */
static char energy_note[320];
/* Measured peaks of the device from the store (0 where never measured). */
static const double *measured_peak;

static double measured_efficiency(const gb_problem_t *p, const gb_result_t *r)
{
    return measured_peak && measured_peak[p->precision] > 0
               ? r->gflops / measured_peak[p->precision] : -1.0;
}

static void usage(void)
{
    printf("usage: gemmbench run [options]\n"
           "  -p, --platform P      platform index or name substring\n"
           "  -t, --type T          device type: all, cpu, gpu, acc, default\n"
           "  -d, --device D        device index (within the platform) or name substring\n"
           "  -k, --kernel K[,K..]  kernel family or preset names, 'all' (default), and the\n"
           "                        library peers by name: -k all,clblast,cublas\n"
           "  -n ORDER[,ORDER..]    square sizes (default 256,512)\n"
           "  -M, -N, -K SIZE       one rectangular shape (missing ones take -n's first value)\n"
           "  -i, --iterations I    timed calls (default 10)\n"
           "      --warmup W        untimed calls first (default 1)\n"
           "  -v, --validate        validate at any size; --no-validate: never\n"
           "                        (default: validate when M*N*K <= 2^33)\n"
           "      --precision s|d   (default: each preset's own, s for families)\n"
           "      --layout row|col  --transA N|T  --transB N|T (default: row NN, or the\n"
           "                        kernel's own native layout when none is given; others\n"
           "                        are served through transposition passes)\n"
           "      --alpha A --beta B (default 1, 0)\n"
           "      --lda L --ldb L --ldc L  --offa O --offb O --offc O\n"
           "      --lws J,I         work-group size (kernels with LX/LY parameters)\n"
           "      --param NAME=V    set a kernel parameter (repeatable)\n"
           "      --seed S          input seed (default 42)\n"
           "      --dist D          uniform:LO:HI (default uniform:-1:1), normal, int:R\n"
           "      --timing T        what GFLOP/s counts: kernel (main kernel), ops (main +\n"
           "                        helper passes, default) or offload (+ host-device copies)\n"
           "      --kernel-path DIR add or override kernel families from DIR\n"
           "      --store PATH      record every point in this results store (default: the\n"
           "                        default store, 'gemmbench store path'); --no-store: don't\n"
           "      --json            print results as JSON\n");
}

static int parse_lws(const char *s, size_t lws[2])
{
    size_t v[2], n = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *end;
        long long x = strtoll(t, &end, 10);
        if (n == 2 || end == t || *end || x <= 0)
            return cli_error(GB_EBADLWS, "--lws must be two positive integers J,I, got '%s'", s);
        v[n++] = (size_t)x;
    }
    if (n != 2)
        return cli_error(GB_EBADLWS, "--lws must be two positive integers J,I, got '%s'", s);
    lws[0] = v[0];
    lws[1] = v[1];
    return 0;
}

static int parse(int argc, char **argv, run_opts_t *o)
{
    enum {
        O_PREC = 256, O_LAYOUT, O_TA, O_TB, O_ALPHA, O_BETA, O_LDA, O_LDB, O_LDC, O_OFFA,
        O_OFFB, O_OFFC, O_LWS, O_PARAM, O_WARMUP, O_SEED, O_DIST, O_JSON, O_NOVAL, O_KPATH,
        O_TIMING, O_STORE, O_NOSTORE
    };
    static const struct option opts[] = {
        {"platform", required_argument, NULL, 'p'}, {"type", required_argument, NULL, 't'},
        {"device", required_argument, NULL, 'd'},   {"kernel", required_argument, NULL, 'k'},
        {"iterations", required_argument, NULL, 'i'}, {"validate", no_argument, NULL, 'v'},
        {"no-validate", no_argument, NULL, O_NOVAL}, {"precision", required_argument, NULL, O_PREC},
        {"layout", required_argument, NULL, O_LAYOUT}, {"transA", required_argument, NULL, O_TA},
        {"transB", required_argument, NULL, O_TB},  {"alpha", required_argument, NULL, O_ALPHA},
        {"beta", required_argument, NULL, O_BETA},  {"lda", required_argument, NULL, O_LDA},
        {"ldb", required_argument, NULL, O_LDB},    {"ldc", required_argument, NULL, O_LDC},
        {"offa", required_argument, NULL, O_OFFA},  {"offb", required_argument, NULL, O_OFFB},
        {"offc", required_argument, NULL, O_OFFC},  {"lws", required_argument, NULL, O_LWS},
        {"param", required_argument, NULL, O_PARAM}, {"warmup", required_argument, NULL, O_WARMUP},
        {"seed", required_argument, NULL, O_SEED},  {"dist", required_argument, NULL, O_DIST},
        {"json", no_argument, NULL, O_JSON},        {"kernel-path", required_argument, NULL, O_KPATH},
        {"timing", required_argument, NULL, O_TIMING},
        {"store", required_argument, NULL, O_STORE}, {"no-store", no_argument, NULL, O_NOSTORE},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->sel.type = GB_DEVTYPE_ALL;
    o->kernels = "all";
    gb_problem_init(&o->base, GB_PREC_S, 0, 0, 0);
    gb_bench_options_init(&o->bench);
    char msg[512];
    int c, rc = 0;
    size_t v;
    optind = 1;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":p:t:d:k:i:n:M:N:K:vh", opts, NULL)) != -1) {
        switch (c) {
        case 'p': o->sel.platform = optarg; break;
        case 'd': o->sel.device = optarg; break;
        case 't':
            if (gb_device_type_parse(optarg, &o->sel.type) != GB_OK)
                rc = cli_error(GB_EBADARG, "unknown device type '%s'; use all, cpu, gpu, acc or default", optarg);
            break;
        case 'k': o->kernels = optarg; break;
        case 'i':
            if (!(rc = cli_parse_size("-i/--iterations", optarg, &v)))
                o->bench.iterations = v > 100000 ? 100000 : (int)v;
            break;
        case O_WARMUP: {
            char *end;
            long w = strtol(optarg, &end, 10);
            if (end == optarg || *end || w < 0 || w > 100000)
                rc = cli_error(GB_EBADARG, "--warmup must be an integer from 0 to 100000, got '%s'", optarg);
            o->bench.warmup = (int)w;
            break;
        }
        case 'n': rc = cli_parse_size_list("-n", optarg, o->orders, MAX_SIZES, &o->norders); break;
        case 'M': rc = cli_parse_size("-M", optarg, &o->m); break;
        case 'N': rc = cli_parse_size("-N", optarg, &o->n); break;
        case 'K': rc = cli_parse_size("-K", optarg, &o->k); break;
        case 'v': o->bench.validate = GB_VALIDATE_ON; break;
        case O_NOVAL: o->bench.validate = GB_VALIDATE_OFF; break;
        case O_PREC:
            if (gb_precision_parse(optarg, &o->base.precision) != GB_OK)
                rc = cli_error(GB_EBADPRECISION, "unknown precision '%s'; use s or d", optarg);
            o->has_precision = 1;
            break;
        case O_LAYOUT:
            if (gb_layout_parse(optarg, &o->base.layout) != GB_OK)
                rc = cli_error(GB_EBADLAYOUT, "unknown layout '%s'; use row or col", optarg);
            o->has_layout = 1;
            break;
        case O_TA:
        case O_TB:
            if (gb_trans_parse(optarg, c == O_TA ? &o->base.trans_a : &o->base.trans_b) != GB_OK)
                rc = cli_error(GB_EBADTRANS, "unknown transposition '%s' for --trans%c; use N or T",
                               optarg, c == O_TA ? 'A' : 'B');
            o->has_layout = 1;
            break;
        case O_ALPHA: rc = cli_parse_double("--alpha", optarg, &o->base.alpha); break;
        case O_BETA: rc = cli_parse_double("--beta", optarg, &o->base.beta); break;
        case O_LDA: rc = cli_parse_size("--lda", optarg, &o->base.lda); break;
        case O_LDB: rc = cli_parse_size("--ldb", optarg, &o->base.ldb); break;
        case O_LDC: rc = cli_parse_size("--ldc", optarg, &o->base.ldc); break;
        case O_OFFA:
        case O_OFFB:
        case O_OFFC: {
            char *end;
            long long off = strtoll(optarg, &end, 10);
            if (end == optarg || *end || off < 0 || off > (1LL << 30))
                rc = cli_error(GB_EBADARG, "--off%c must be an integer from 0 to 2^30, got '%s'",
                               "abc"[c - O_OFFA], optarg);
            *(c == O_OFFA ? &o->base.off_a : c == O_OFFB ? &o->base.off_b : &o->base.off_c) = (size_t)off;
            break;
        }
        case O_LWS:
            rc = parse_lws(optarg, o->lws);
            o->has_lws = 1;
            break;
        case O_PARAM:
            if (gb_params_parse(&o->params, optarg, msg, sizeof msg) != GB_OK)
                rc = cli_error(GB_EBADPARAM, "%s", msg);
            break;
        case O_SEED: {
            char *end;
            unsigned long long s = strtoull(optarg, &end, 10);
            if (end == optarg || *end || optarg[0] == '-')
                rc = cli_error(GB_EBADARG, "--seed must be a non-negative integer, got '%s'", optarg);
            o->bench.seed = s;
            break;
        }
        case O_DIST:
            if (gb_dist_parse(optarg, &o->bench.dist, msg, sizeof msg) != GB_OK)
                rc = cli_error(GB_EBADDIST, "%s", msg);
            break;
        case O_JSON: o->json = 1; break;
        case O_STORE: o->store = optarg; break;
        case O_NOSTORE: o->no_store = 1; break;
        case O_TIMING:
            if (gb_timing_parse(optarg, &o->bench.timing) != GB_OK)
                rc = cli_error(GB_EBADARG, "unknown --timing '%s'; use kernel, ops or offload", optarg);
            break;
        case O_KPATH: o->kpath = optarg; break;
        case 'h': usage(); return -1;
        case ':': rc = cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]); break;
        default: rc = cli_error(GB_EBADARG, "unknown option '%s'; see 'gemmbench run --help'", argv[optind - 1]); break;
        }
    }
    if (rc == 0 && optind < argc)
        rc = cli_error(GB_EBADARG, "unexpected argument '%s'; see 'gemmbench run --help'", argv[optind]);
    return rc;
}

/* The jobs for -k: each name once per precision it runs in. */
static int plan_jobs(const run_opts_t *o, const gb_registry_t *reg, job_t *jobs, size_t *njobs,
                     char *names, size_t names_len)
{
    *njobs = 0;
    snprintf(names, names_len, "%s", o->kernels);
    const int all = !strcmp(o->kernels, "all") || !strncmp(o->kernels, "all,", 4);
    for (size_t fi = 0; all && fi < gb_registry_count(reg); fi++) {
        const gb_family_t *f = gb_registry_family(reg, fi);
        if (f->library)
            continue; /* peers are asked for by name: -k all,clblast */
        size_t count = f->npresets ? f->npresets : 1;
        for (size_t pi = 0; pi < count; pi++) {
            unsigned mask = f->npresets ? f->presets[pi].precisions : f->precisions;
            for (int p = 0; p < 2 && *njobs < MAX_KERNELS; p++) {
                if (!(mask & (1u << p)) || (o->has_precision && (gb_precision_t)p != o->base.precision))
                    continue;
                jobs[(*njobs)++] = (job_t){f->npresets ? f->presets[pi].name : f->name, (gb_precision_t)p, 0};
            }
        }
    }
    for (char *save = NULL, *t = strtok_r(names, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "all"))
            continue;
        const gb_family_t *f;
        const gb_preset_t *ps;
        if (gb_registry_find(reg, t, &f, &ps) != GB_OK)
            return cli_error(GB_ENOKERNEL, "unknown kernel '%s'; run 'gemmbench kernels' to list them", t);
        if (*njobs == MAX_KERNELS)
            return cli_error(GB_EBADARG, "more than %d kernels given", MAX_KERNELS);
        gb_precision_t prec = o->base.precision;
        if (!o->has_precision && ps && !(ps->precisions & 1u))
            prec = GB_PREC_D;
        jobs[(*njobs)++] = (job_t){t, prec, 1};
    }
    return 0;
}

static cJSON *result_json(const char *kernel, const gb_problem_t *p, const gb_result_t *r,
                          const gb_bench_options_t *b)
{
    char buf[64];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", kernel);
    cJSON_AddStringToObject(o, "precision", gb_precision_name(p->precision));
    cJSON_AddStringToObject(o, "layout", gb_problem_layout_tag(p, buf, sizeof buf));
    cJSON_AddStringToObject(o, "route", r->route);
    cJSON_AddNumberToObject(o, "helper_kernels", (double)r->helpers);
    cJSON_AddNumberToObject(o, "M", (double)p->m);
    cJSON_AddNumberToObject(o, "N", (double)p->n);
    cJSON_AddNumberToObject(o, "K", (double)p->k);
    cJSON_AddNumberToObject(o, "alpha", p->alpha);
    cJSON_AddNumberToObject(o, "beta", p->beta);
    cJSON_AddNumberToObject(o, "lda", (double)p->lda);
    cJSON_AddNumberToObject(o, "ldb", (double)p->ldb);
    cJSON_AddNumberToObject(o, "ldc", (double)p->ldc);
    cJSON_AddNumberToObject(o, "seed", (double)b->seed);
    cJSON_AddStringToObject(o, "dist", gb_dist_format(&b->dist, buf, sizeof buf));
    cJSON_AddStringToObject(o, "build_options", r->build_options);
    cJSON_AddNumberToObject(o, "build_ms", r->build_ms);
    cJSON_AddBoolToObject(o, "program_cache_hit", r->cache_hit);
    cJSON *g = cJSON_AddArrayToObject(o, "global");
    cJSON *l = cJSON_AddArrayToObject(o, "local");
    for (int d = 0; d < 2; d++) {
        cJSON_AddItemToArray(g, cJSON_CreateNumber((double)r->global[d]));
        cJSON_AddItemToArray(l, r->local_null ? cJSON_CreateNull() : cJSON_CreateNumber((double)r->local[d]));
    }
    cJSON_AddStringToObject(o, "flops", "2*M*N*K");
    cJSON_AddStringToObject(o, "timing", gb_timing_name(r->timing));
    cJSON_AddNumberToObject(o, "gflops", r->gflops);
    cJSON_AddNumberToObject(o, "gflops_wall", r->gflops_wall);
    if (r->efficiency >= 0)
        cJSON_AddNumberToObject(o, "efficiency_formula_peak", r->efficiency);
    else
        cJSON_AddNullToObject(o, "efficiency_formula_peak");
    if (measured_efficiency(p, r) >= 0)
        cJSON_AddNumberToObject(o, "efficiency_measured_peak", measured_efficiency(p, r));
    else
        cJSON_AddNullToObject(o, "efficiency_measured_peak");
    /* Energy comes from its own loop after the timed calls (docs/methodology.md). */
    cJSON *en = cJSON_AddObjectToObject(o, "energy");
    if (r->energy_j >= 0) {
        cJSON_AddStringToObject(en, "source", r->energy_source);
        cJSON_AddNumberToObject(en, "joules_per_call", r->energy_j);
        cJSON_AddNumberToObject(en, "watts", r->energy_w);
        cJSON_AddNumberToObject(en, "gflops_per_watt", r->gflops_per_watt);
    } else {
        cJSON_AddStringToObject(en, "unavailable", r->energy_why);
    }
    if (r->energy_calls) {
        cJSON_AddStringToObject(en, "loop", r->energy_scope);
        cJSON_AddNumberToObject(en, "calls", (double)r->energy_calls);
        cJSON_AddNumberToObject(en, "seconds", r->energy_s);
    }
    cJSON *times = cJSON_AddObjectToObject(o, "time_ms");
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        const gb_stats_t *st = &r->time_ms[ph];
        cJSON *s = cJSON_AddObjectToObject(times, gb_phase_name((gb_phase_t)ph));
        cJSON_AddNumberToObject(s, "n", (double)st->n);
        cJSON_AddNumberToObject(s, "min", st->min);
        cJSON_AddNumberToObject(s, "median", st->median);
        cJSON_AddNumberToObject(s, "mean", st->mean);
        cJSON_AddNumberToObject(s, "max", st->max);
        cJSON_AddNumberToObject(s, "std", st->std);
        cJSON_AddNumberToObject(s, "ci95_lo", st->ci95_lo);
        cJSON_AddNumberToObject(s, "ci95_hi", st->ci95_hi);
        cJSON_AddItemToObject(s, "samples", cJSON_CreateDoubleArray(r->samples_ms[ph], (int)st->n));
    }
    cJSON *v = cJSON_AddObjectToObject(o, "validation");
    const gb_validation_t *val = &r->validation;
    cJSON_AddStringToObject(v, "verdict", !val->done ? "not validated" : val->passed ? "pass" : "fail");
    if (val->done) {
        cJSON_AddStringToObject(v, "mode", val->exact ? "exact integers" : "bound gamma_(K+2) * G");
        cJSON_AddNumberToObject(v, "max_ratio_u_G", isfinite(val->max_ratio) ? val->max_ratio : -1);
        cJSON_AddNumberToObject(v, "bound_ratio_u_G", val->bound_ratio);
        cJSON_AddNumberToObject(v, "worst_i", (double)val->worst_i);
        cJSON_AddNumberToObject(v, "worst_j", (double)val->worst_j);
        cJSON_AddNumberToObject(v, "elements_over_bound", (double)val->n_over);
        cJSON_AddNumberToObject(v, "elements_nonfinite", (double)val->n_nonfinite);
        cJSON_AddNumberToObject(v, "canaries_touched", (double)val->n_canary);
    }
    cJSON_AddStringToObject(v, "reason", val->reason);
    return o;
}

/* A job's configuration: a named kernel takes the options' parameters and --lws. */
static int job_config(const gb_registry_t *reg, const run_opts_t *o, const job_t *job,
                      gb_config_t *cfg, char *msg, size_t msglen)
{
    int rc = gb_config_resolve(reg, job->name, job->named ? &o->params : NULL, cfg, msg, msglen);
    if (rc == GB_OK && o->has_lws && job->named)
        rc = gb_config_set_lws(cfg, o->lws[0], o->lws[1], msg, msglen);
    return rc;
}

/* Job j's problem at one shape: the options' problem in the job's precision, in the family's
 * native layout unless --layout was given. */
static gb_problem_t job_problem(const run_opts_t *o, const job_t *job, const gb_config_t *cfg,
                                const size_t shape[3])
{
    gb_problem_t p = o->base;
    p.precision = job->prec;
    if (!o->has_layout)
        gb_family_native_layout(cfg->family, &p);
    p.m = shape[0];
    p.n = shape[1];
    p.k = shape[2];
    gb_problem_check(&p, NULL, 0);
    return p;
}

static void print_header(const gb_device_info_t *dev, const run_opts_t *o, const char *measured_when)
{
    char dist[64];
    printf("device: %s (%s, %s)\n", dev->name, dev->platform_name, dev->driver);
    for (int p = 0; p < 2; p++)
        if (dev->peak_gflops[p] > 0)
            printf("peak %s: %.1f GFLOP/s = %s\n", p ? "D" : "S", dev->peak_gflops[p], dev->peak_formula[p]);
        else
            printf("peak %s: %s\n", p ? "D" : "S", dev->peak_formula[p]);
    if (measured_when[0])
        printf("measured peak (gemmbench ceilings, %s): S %.1f, D %.1f GFLOP/s; meas%% is against it\n",
               measured_when, measured_peak[0], measured_peak[1]);
    else
        printf("measured peak: none stored for this device and driver (run 'gemmbench ceilings'); "
               "meas%% shows -\n");
    printf("GFLOP/s = 2*M*N*K / median time of %s (OpenCL events) over %d calls after %d "
           "warm-up;\nCI = 95%% CI of the mean; helpers = transposition/padding passes (ms, in "
           "GFLOP/s unless --timing kernel);\ncopies = host-device copies (ms, not in GFLOP/s "
           "unless --timing offload); wall = 2*M*N*K / host time of the whole call\n",
           o->bench.timing == GB_TIMING_KERNEL ? "the main kernel"
           : o->bench.timing == GB_TIMING_OFFLOAD ? "copies + helper passes + main kernel"
                                                  : "the main kernel + helper passes",
           o->bench.iterations, o->bench.warmup);
    printf("alpha %g, beta %g, data %s, seed %llu; valid = max |C-Cref|/(u*G) / failing bound\n\n",
           o->base.alpha, o->base.beta, gb_dist_format(&o->bench.dist, dist, sizeof dist),
           (unsigned long long)o->bench.seed);
    printf("%-24s %-4s %-7s %6s %6s %6s %-7s %9s %-19s %6s %6s %8s %8s %9s  %s\n", "kernel",
           "prec", "layout", "M", "N", "K", "lws", "GFLOP/s", "95% CI", "eff%", "meas%",
           "helpers", "copies", "wall", "valid");
}


static void print_row(const char *kernel, const gb_problem_t *p, const gb_result_t *r)
{
    char tag[16], lws[24], ci[40], eff[16], meas[16], helpers[16], verdict[200];
    const double flop = 2.0 * (double)p->m * (double)p->n * (double)p->k;
    const gb_stats_t *head = &r->time_ms[gb_timing_phase(r->timing)];
    if (r->local_null)
        snprintf(lws, sizeof lws, "auto");
    else
        snprintf(lws, sizeof lws, "%zux%zu", r->local[0], r->local[1]);
    if (head->n > 1 && head->ci95_lo > 0)
        snprintf(ci, sizeof ci, "[%.4g, %.4g]", flop / (head->ci95_hi * 1e6),
                 flop / (head->ci95_lo * 1e6));
    else
        snprintf(ci, sizeof ci, "-");
    if (r->efficiency >= 0)
        snprintf(eff, sizeof eff, "%.1f", 100.0 * r->efficiency);
    else
        snprintf(eff, sizeof eff, "?");
    if (measured_efficiency(p, r) >= 0)
        snprintf(meas, sizeof meas, "%.1f", 100.0 * measured_efficiency(p, r));
    else
        snprintf(meas, sizeof meas, "-");
    if (r->helpers)
        snprintf(helpers, sizeof helpers, "%.3g", r->time_ms[GB_PHASE_HELPERS].median);
    else
        snprintf(helpers, sizeof helpers, "-");
    cli_verdict_text(&r->validation, 0, verdict, sizeof verdict);
    printf("%-24s %-4s %-7s %6zu %6zu %6zu %-7s %9.4g %-19s %6s %6s %8s %8.3g %9.4g  %s", kernel,
           gb_precision_name(p->precision), gb_problem_layout_tag(p, tag, sizeof tag), p->m, p->n,
           p->k, lws, r->gflops, ci, eff, meas, helpers,
           r->time_ms[GB_PHASE_H2D].median + r->time_ms[GB_PHASE_D2H].median, r->gflops_wall,
           verdict);
    if (strcmp(r->route, "native") != 0)
        printf(" (%s)", r->route);
    if (r->gflops_per_watt >= 0) {
        printf("  %.3g GFLOP/s/W %.4g W", r->gflops_per_watt, r->energy_w);
        snprintf(energy_note, sizeof energy_note, "energy: %s over a loop of %s after the timed "
                 "calls, lasting GEMMBENCH_ENERGY_MIN_S (default 1) s or more; GFLOP/s/W = "
                 "2*M*N*K * calls / joules, W = its average power", r->energy_source,
                 r->energy_scope);
    } else {
        snprintf(energy_note, sizeof energy_note, "energy: unavailable (%s)", r->energy_why);
    }
    printf("\n");
    fflush(stdout);
}

int cmd_run(int argc, char **argv)
{
    run_opts_t o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    /* Shapes: -M/-N/-K make one, completed from -n's first value; else the -n list. */
    size_t shapes[MAX_SIZES][3], nshapes = 0;
    if (o.m || o.n || o.k) {
        size_t d = o.norders ? o.orders[0] : 512;
        shapes[0][0] = o.m ? o.m : d;
        shapes[0][1] = o.n ? o.n : d;
        shapes[0][2] = o.k ? o.k : d;
        nshapes = 1;
    } else {
        if (o.norders == 0) {
            o.orders[o.norders++] = 256;
            o.orders[o.norders++] = 512;
        }
        for (size_t i = 0; i < o.norders; i++, nshapes++)
            shapes[i][0] = shapes[i][1] = shapes[i][2] = o.orders[i];
    }
    char msg[1024];
    /* Check every shape before opening anything, so bad input fails fast and cleanly. */
    for (size_t s = 0; s < nshapes; s++) {
        gb_problem_t p = o.base;
        p.m = shapes[s][0];
        p.n = shapes[s][1];
        p.k = shapes[s][2];
        if ((rc = gb_problem_check(&p, msg, sizeof msg)) != GB_OK)
            return cli_error(rc, "%s", msg);
    }
    gb_registry_t *reg = NULL;
    if ((rc = gb_registry_open(&reg, o.kpath, msg, sizeof msg)) != GB_OK)
        return cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
    static job_t jobs[MAX_KERNELS];
    size_t njobs = 0;
    char names[1024];
    cli_device_t dev = {0};
    gb_context_t *ctx = NULL;
    gb_store_t *st = NULL;
    size_t stored = 0;
    cJSON *out = NULL;
    int exit_code = EXIT_OK;
    if ((rc = plan_jobs(&o, reg, jobs, &njobs, names, sizeof names)))
        goto done;
    /* Resolve every named kernel with its parameters before touching the device. */
    for (size_t j = 0; j < njobs; j++) {
        gb_config_t cfg;
        if (jobs[j].named && (rc = job_config(reg, &o, &jobs[j], &cfg, msg, sizeof msg))) {
            rc = cli_error(rc, "%s", msg);
            goto done;
        }
    }
    if ((rc = cli_device_open(&dev, &o.sel)))
        goto done;
    const gb_device_info_t *di = &dev.list[dev.index];
    if ((rc = gb_context_open(&ctx, di, msg, sizeof msg)) != GB_OK) {
        rc = cli_error(rc, "%s", msg);
        goto done;
    }
    /* The results store: an explicit --store must open; the default one that cannot is only
     * a warning, since the measurements still print. */
    if (!o.no_store && o.store && (rc = cli_store_open(&st, o.store, 1)))
        goto done;
    if (!o.no_store && !o.store && gb_store_open(&st, NULL, GB_STORE_CREATE, msg, sizeof msg) != GB_OK)
        fprintf(stderr, "gemmbench: warning: results not stored: %s\n", msg);
    /* Efficiency against the measured peak, where 'gemmbench ceilings' measured this device. */
    gb_ceilings_t ceil;
    char ceil_when[32] = "";
    if (!st || gb_store_get_ceilings(st, di, &ceil, ceil_when) != 1)
        memset(&ceil, 0, sizeof ceil);
    measured_peak = ceil.peak_gflops;
    /* A named kernel that cannot run a shape on this device fails before the table starts. */
    for (size_t j = 0; j < njobs; j++) {
        gb_config_t cfg;
        if (!jobs[j].named || job_config(reg, &o, &jobs[j], &cfg, msg, sizeof msg))
            continue; /* unnamed, or refused above already */
        for (size_t s = 0; s < nshapes; s++) {
            gb_problem_t p = job_problem(&o, &jobs[j], &cfg, shapes[s]);
            int crc = gb_config_check(&cfg, di, p.precision, &p, msg, sizeof msg);
            if (crc == GB_OK)
                crc = gb_problem_check_data(&p, &o.bench.dist, msg, sizeof msg);
            if (crc != GB_OK) {
                rc = cli_error(crc, "%s", msg);
                goto done;
            }
        }
    }
    if (o.json)
        out = cJSON_CreateArray();
    else
        print_header(di, &o, ceil_when);
    for (size_t j = 0; j < njobs; j++) {
        gb_config_t cfg;
        const int named = jobs[j].named;
        int crc = job_config(reg, &o, &jobs[j], &cfg, msg, sizeof msg);
        for (size_t s = 0; crc == GB_OK && s < nshapes; s++) {
            gb_problem_t p = job_problem(&o, &jobs[j], &cfg, shapes[s]);
            crc = gb_config_check(&cfg, di, p.precision, &p, msg, sizeof msg);
            if (crc != GB_OK) { /* only unnamed kernels get here: named ones were checked */
                if (!o.json)
                    printf("%-24s %-4s skipped: %s\n", jobs[j].name, gb_precision_name(p.precision), msg);
                break;
            }
            gb_result_t r;
            crc = gb_bench_run(ctx, &cfg, &p, &o.bench, &r);
            /* Found only once compiled (e.g. registers limit the work-group): under 'all' a
             * kernel that cannot run here is skipped with its reason, like the checks above. */
            if (!named && (crc == GB_EWGSIZE || crc == GB_ELOCALMEM || crc == GB_EUNSUPPORTED)) {
                if (!o.json)
                    printf("%-24s %-4s skipped: %s\n", jobs[j].name, gb_precision_name(p.precision),
                           gb_context_errmsg(ctx));
                break;
            }
            if (crc != GB_OK) {
                rc = cli_error(crc, "%s: %s", jobs[j].name, gb_context_errmsg(ctx));
                goto done;
            }
            if (r.validation.done && !r.validation.passed)
                exit_code = EXIT_INVALID;
            gb_point_t pt;
            gb_point_init(&pt);
            if (st) {
                /* Every measured point, a failed validation included, as the next repetition
                 * of its definition. */
                int src;
                gb_point_define(&pt, di, &cfg, &p, &o.bench, 0);
                if ((src = gb_point_set_result(&pt, &r)) == GB_OK &&
                    (src = gb_point_set_provenance(&pt)) == GB_OK)
                    src = gb_store_insert_next_rep(st, &pt);
                if (src == GB_OK) {
                    stored++;
                } else {
                    exit_code = cli_error(src, "%s: not stored: %s", jobs[j].name,
                                          src == GB_ENOMEM ? "out of memory" : gb_store_errmsg(st));
                    pt.id[0] = '\0';
                }
            }
            if (out) {
                cJSON *item = result_json(jobs[j].name, &p, &r, &o.bench);
                if (pt.id[0])
                    cJSON_AddStringToObject(item, "id", pt.id);
                cJSON_AddItemToArray(out, item);
            } else {
                print_row(jobs[j].name, &p, &r);
            }
            gb_point_free(&pt);
            gb_result_free(&r);
        }
    }
    if (!out && energy_note[0])
        printf("%s\n", energy_note);
    if (out) {
        char *s = cJSON_Print(out);
        printf("%s\n", s ? s : "[]");
        free(s);
    } else if (st) {
        printf("\nstored %zu points in %s ('gemmbench store list' shows them)\n", stored,
               gb_store_path(st));
    }
    rc = exit_code;
done:
    gb_store_close(st);
    cJSON_Delete(out);
    gb_context_close(ctx);
    cli_device_close(&dev);
    gb_registry_close(reg);
    return rc;
}
