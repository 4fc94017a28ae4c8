/* cmd_offload.c: `gemmbench offload`: is offloading a GEMM to the device worth it once the data
 * travels? Per square size, the host's BLAS, the device's kernel alone and the device with the
 * copies from pageable and from pinned host memory, and zero-copy from mapped host memory where
 * the device shares it, each measured as `run` measures and stored;
 * then the faster per size and the break-even size per host memory kind, as a table and (--out)
 * an HTML page with the plot (src/tool/report/offload.c). docs/offload.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/report/report.h"
#include "options.h"

static void usage(void)
{
    printf("usage: gemmbench offload [-p P -t T -d D] -n LIST [options]\n"
           "Per square size n: the host's BLAS (OpenBLAS, threads as configured), the device's\n"
           "kernel alone, and the device with the copies of A, B and C to it and C back from\n"
           "pageable and from pinned host memory, and with no copies from mapped host memory\n"
           "where the device shares it (a CPU, an integrated GPU); which is faster, and the\n"
           "break-even size from which offloading wins. Every measurement is validated and\n"
           "stored as 'run' does.\n"
           "  -n LIST               square orders: 64:4096:x2, or 256,1024\n"
           "  -k KERNEL             the device's kernel (default auto: the tuning database's)\n"
           "      --precision P     s (default), d, c or z (the host's cgemm and zgemm; complex\n"
           "                        GFLOP/s count 8*M*N*K); h and b are refused: OpenBLAS\n"
           "                        has no FP16 or bfloat16 GEMM to compare with\n"
           "  -i, --warmup          timed and untimed calls per measurement (as for 'run')\n"
           "      --out FILE.html   also a page with the plot of time against size (gnuplot)\n"
           "      --store PATH      the results store; --no-store: keep nothing\n"
           "      --verdict V       faithful (default) or bound, as for 'run': a measurement\n"
           "                        not faithful to its precision fails unless bound\n"
           "  -p, -t, -d            platform, device type, device (as for 'run')\n"
           "exit: 0 done, 1 a measurement failed validation (or was not faithful), 2 bad\n"
           "      usage, 3 a failure to run\n");
}

/* What offload works with, closed by close_offload. */
typedef struct offload {
    gb_registry_t *reg;
    cli_device_t dev;
    const gb_device_info_t *di;
    gb_store_t *st;
    gb_context_t *ctx;
    cli_auto_t autodb;
    size_t (*shapes)[3], nshapes;
    gb_offload_row_t *rows;
    const char *kernel;
    gb_verdict_t verdict; /* --verdict */
    int invalid;          /* a measurement failed validation, or was not faithful */
} offload_t;

/* Measures kernel on shape n with bench, storing it; the median of phase ph1 into *ms1 and its
 * interval into *ci1, that of ph2 into *ms2 (0 when it failed, with the reason printed: over the
 * error bound, or not faithful under --verdict faithful). */
static int measure(offload_t *f, const gb_explore_plan_t *pl, const char *kernel, size_t n,
                   const gb_bench_options_t *bench, gb_phase_t ph1, double *ms1,
                   gb_offload_ci_t *ci1, gb_phase_t ph2, double *ms2)
{
    gb_job_t job;
    const gb_job_spec_t spec = {kernel,
                                1,
                                cli_first_precision(pl->precisions),
                                NULL,
                                NULL,
                                &pl->base,
                                pl->has_layout,
                                n,
                                n,
                                n,
                                bench,
                                0,
                                cli_auto_chooser(&f->autodb)};
    *ms1 = 0;
    memset(ci1, 0, sizeof *ci1);
    if (ms2)
        *ms2 = 0;
    if (gb_job_make(&job, f->reg, f->di, &spec) != GB_OK)
        return cli_error(GB_ENOMEM, "out of memory");
    char desc[512], msg[1024];
    gb_job_describe(&job, desc, sizeof desc);
    if (job.code != GB_OK) {
        fprintf(stderr, "gemmbench: offload: %s cannot run here: %s\n", desc, job.why);
        return 0;
    }
    gb_point_t pt;
    gb_point_init(&pt);
    const int rc = gb_job_measure(
        &job, f->ctx, f->st, f->st ? GB_JOB_KEEP_NEXT_REP : GB_JOB_KEEP_NONE, &pt, msg, sizeof msg);
    if (rc == GB_OK) {
        const gb_validation_t *v = &pt.result.validation;
        const gb_outcome_t oc = gb_validation_outcome(v, gb_impl_caps(&job.impl), f->verdict);
        f->invalid |= oc >= GB_OUTCOME_FAIL;
        if (oc < GB_OUTCOME_FAIL) {
            *ms1 = pt.result.time_ms[ph1].median;
            if (pt.result.samples_ms[ph1] && pt.result.time_ms[ph1].n &&
                gb_median_ci(pt.result.samples_ms[ph1], pt.result.time_ms[ph1].n, &ci1->lo,
                             &ci1->hi, &ci1->coverage) != GB_OK)
                memset(ci1, 0, sizeof *ci1);
            if (ms2)
                *ms2 = pt.result.time_ms[ph2].median;
        } else if (oc == GB_OUTCOME_UNFAITHFUL) {
            fprintf(stderr,
                    "gemmbench: offload: %s is NOT FAITHFUL to its precision (its worst error "
                    "%.3g times an honest computation's; --verdict bound accepts it)\n",
                    desc, gb_faithful_ratio(v));
        } else {
            fprintf(stderr, "gemmbench: offload: %s FAILED validation: %s\n", desc, v->reason);
        }
    } else {
        fprintf(stderr, "gemmbench: offload: %s: %s: %s\n", desc, gb_errname(rc), msg);
    }
    gb_point_free(&pt);
    return rc == GB_JOB_ESTORE ? cli_error(GB_EIO, "%s: %s", desc, msg) : 0;
}

/* --out is offload's own; the rest are the measuring commands' (options.c), into o and pl. 0,
 * -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, const char **out_path, cli_measure_t *o,
                 gb_explore_plan_t *pl)
{
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    if (!rest)
        return cli_error(GB_ENOMEM, "out of memory");
    int nrest = 0;
    for (int i = 0; i < argc; i++) {
        if (i > 0 && !strcmp(argv[i], "--out")) {
            if (i + 1 >= argc) {
                free(rest);
                return cli_error(GB_EBADARG, "option '--out' needs a value");
            }
            *out_path = argv[++i];
        } else if (i > 0 && !strncmp(argv[i], "--out=", 6)) {
            *out_path = argv[i] + 6;
        } else {
            rest[nrest++] = argv[i];
        }
    }
    rest[nrest] = NULL;
    const int rc =
        cli_measure_parse(nrest, rest, "offload", CLI_OPT_NO_STORE | CLI_OPT_VERDICT, usage, o, pl);
    free(rest);
    return rc;
}

static void close_offload(offload_t *f)
{
    free(f->rows);
    free(f->shapes);
    gb_context_close(f->ctx);
    cli_auto_close(&f->autodb);
    gb_store_close(f->st);
    cli_device_close(&f->dev);
    gb_registry_close(f->reg);
}

/* One kernel in one precision, serial offloads, at square orders (sorted, smallest first, as
 * the break-even reads them); gnuplot where a page is asked for. 0 or the exit code. */
static int check_plan(offload_t *f, gb_explore_plan_t *pl, const char *out_path)
{
    char msg[1024];
    int rc;
    if (pl->bench.pipeline)
        return cli_error(GB_EBADARG, "offload compares serial offloads; measure a pipeline with "
                                     "'gemmbench run --timing offload --pipeline'");
    if ((pl->precisions & (pl->precisions - 1)) || strchr(f->kernel, ','))
        return cli_error(GB_EBADARG, "offload compares one kernel in one precision: give one -k "
                                     "and one --precision");
    /* The host's side is OpenBLAS (the openblas peer: s, d, c, z); Debian's has no FP16 or
     * bfloat16 GEMM, so there is nothing to compare an h or b device run with. */
    if (pl->precisions & GB_PREC_STORAGE16)
        return cli_error(GB_EBADPRECISION,
                         "offload compares with the host's OpenBLAS, which has no FP16 or "
                         "bfloat16 GEMM; give --precision s, d, c or z, or measure %s on the "
                         "device alone with 'gemmbench run --timing offload'",
                         gb_precision_name(cli_first_precision(pl->precisions)));
    if (!pl->kernels && gb_plan_set(pl, "kernels", GB_AUTO, "-k", msg, sizeof msg) != GB_OK)
        return cli_error(GB_ENOMEM, "%s", msg);
    if ((rc = gb_plan_shapes(pl, &f->shapes, &f->nshapes, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s (give the orders with -n)", msg);
    size_t(*sh)[3] = f->shapes;
    for (size_t i = 0; i < f->nshapes; i++)
        if (sh[i][0] != sh[i][1] || sh[i][1] != sh[i][2])
            return cli_error(GB_EBADARG, "offload takes square orders (-n); %zux%zux%zu is not",
                             sh[i][0], sh[i][1], sh[i][2]);
    /* The page is drawn last: a missing gnuplot is refused before anything is measured. */
    if (out_path && (rc = gb_report_gnuplot_check(msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    for (size_t i = 1; i < f->nshapes; i++)
        for (size_t j = i; j > 0 && sh[j][0] < sh[j - 1][0]; j--) {
            size_t t[3];
            memcpy(t, sh[j], sizeof t);
            memcpy(sh[j], sh[j - 1], sizeof t);
            memcpy(sh[j - 1], t, sizeof t);
        }
    return 0;
}

/* The registry, the device, the store, the tuning database, a context and the rows. 0 or the
 * exit code. */
static int open_offload(offload_t *f, const cli_measure_t *o, const gb_explore_plan_t *pl)
{
    char msg[1024];
    int rc;
    if ((rc = cli_measure_open(o, &f->reg, &f->dev, &f->di)) ||
        (!o->no_store && (rc = cli_store_open(&f->st, o->store, 1))) ||
        (rc = cli_auto_open(&f->autodb, pl, o->store, o->objective)))
        return rc;
    if ((rc = gb_context_open(&f->ctx, f->di, msg, sizeof msg)) != GB_OK)
        return cli_error(rc, "%s", msg);
    if (!(f->rows = calloc(f->nshapes, sizeof *f->rows)))
        return cli_error(GB_ENOMEM, "out of memory");
    return 0;
}

/* The table: per order, the host's BLAS and the device from each kind of host memory (mapped
 * only where the device works in the host's memory). 0 or the exit code. */
static int measure_rows(offload_t *f, const gb_explore_plan_t *pl, int kinds)
{
    printf("%8s %12s %12s %16s %14s %14s  %s\n", "n", "host ms", "kernel ms", "+copies pageable",
           "+copies pinned", "mapped", "faster");
    int rc = 0;
    for (size_t i = 0; i < f->nshapes && !rc; i++) {
        gb_offload_row_t *r = &f->rows[i];
        r->n = f->shapes[i][0];
        gb_bench_options_t b = pl->bench;
        b.timing = GB_TIMING_OPS;
        b.host_mem = GB_HOST_PAGEABLE;
        rc = measure(f, pl, "openblas", r->n, &b, GB_PHASE_OPS, &r->host_ms, &r->host_ci,
                     GB_PHASE_OPS, NULL);
        for (int hm = 0; !rc && hm < kinds; hm++) {
            b.timing = GB_TIMING_OFFLOAD;
            b.host_mem = (gb_host_mem_t)hm;
            double kernel_ms;
            rc = measure(f, pl, f->kernel, r->n, &b, GB_PHASE_OFFLOAD, &r->offload_ms[hm],
                         &r->offload_ci[hm], GB_PHASE_OPS, &kernel_ms);
            if (hm == GB_HOST_PINNED || !r->kernel_ms)
                r->kernel_ms = kernel_ms;
        }
        char mapped[32] = "-", verdict[400];
        if (r->offload_ms[GB_HOST_MAPPED] > 0)
            snprintf(mapped, sizeof mapped, "%.4g", r->offload_ms[GB_HOST_MAPPED]);
        printf("%8zu %12.4g %12.4g %16.4g %14.4g %14s  %s\n", r->n, r->host_ms, r->kernel_ms,
               r->offload_ms[0], r->offload_ms[1], mapped,
               gb_offload_verdict(r, verdict, sizeof verdict));
        fflush(stdout);
    }
    return rc;
}

/* The break-even order per kind of host memory measured. */
static void say_breakeven(const gb_offload_t *off, const gb_device_info_t *di, int kinds)
{
    if (kinds < GB_HOST_KINDS)
        printf("mapped: not measured: %s does not share host memory (zero-copy needs a device "
               "that does)\n",
               di->name);
    for (int hm = 0; hm < kinds; hm++) {
        const size_t be = gb_offload_breakeven(off, hm);
        if (be)
            printf("break-even, %s host memory: n = %zu (the device with its copies is faster "
                   "from there up)\n",
                   gb_host_mem_name((gb_host_mem_t)hm), be);
        else
            printf("break-even, %s host memory: none (the host is faster at the largest size)\n",
                   gb_host_mem_name((gb_host_mem_t)hm));
    }
}

/* --out: the page with the plot. 0 or the exit code. */
static int write_page(const gb_offload_t *off, const char *out_path, gb_store_t *st)
{
    char msg[1024];
    cli_out_t out;
    int rc = cli_out_open(&out, out_path, st ? gb_store_path(st) : NULL);
    if (rc)
        return rc;
    rc = gb_report_offload_html(off, out.f, msg, sizeof msg);
    if (rc != GB_OK)
        cli_error(rc, "%s", msg);
    rc = cli_out_close(&out, rc);
    if (rc == GB_OK)
        printf("page: %s\n", out_path);
    else
        rc = rc == GB_EIO ? EXIT_RUNTIME : rc;
    return rc;
}

int cmd_offload(int argc, char **argv)
{
    const char *out_path = NULL;
    cli_measure_t o;
    gb_explore_plan_t pl;
    gb_plan_init(&pl);
    int rc = parse(argc, argv, &out_path, &o, &pl);
    if (rc) {
        gb_plan_free(&pl);
        return rc < 0 ? EXIT_OK : rc;
    }
    offload_t f;
    memset(&f, 0, sizeof f);
    f.kernel = pl.kernels ? pl.kernels : GB_AUTO;
    f.verdict = o.verdict;
    if ((rc = check_plan(&f, &pl, out_path)) || (rc = open_offload(&f, &o, &pl)))
        goto done;
    const gb_device_info_t *di = f.di;
    const gb_precision_t prec = cli_first_precision(pl.precisions);
    printf("offload: %s GEMM, square orders; host: OpenBLAS; device: %s (%s), kernel %s; "
           "median of %d calls after %d warm-up; every measurement validated where M*N*K <= "
           "2^33 and stored%s\n",
           gb_precision_name(prec), di->name, di->platform_name, f.kernel, pl.bench.iterations,
           pl.bench.warmup, f.st ? "" : " (not: --no-store)");
    /* Zero-copy only where the device works in the host's memory. */
    const int kinds = di->host_unified ? GB_HOST_KINDS : 2;
    if ((rc = measure_rows(&f, &pl, kinds)))
        goto done;
    const gb_offload_t off = {di->name, "OpenBLAS", f.kernel, prec, f.rows, f.nshapes};
    say_breakeven(&off, di, kinds);
    if (out_path)
        rc = write_page(&off, out_path, f.st);
    if (!rc && f.invalid)
        rc = EXIT_INVALID;
done:
    close_offload(&f);
    gb_plan_free(&pl);
    return rc;
}
