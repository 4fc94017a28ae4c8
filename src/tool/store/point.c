/* point.c: a measured point: defined from what a run is given, filled from its result, its
 * provenance (host, OS, environment, time), its definition text and id, and its checks. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "store_int.h"

extern char **environ;

void gb_point_init(gb_point_t *pt)
{
    memset(pt, 0, sizeof *pt);
}

void gb_point_free(gb_point_t *pt)
{
    if (!pt)
        return;
    gb_result_free(&pt->result);
    free(pt->env_json);
    memset(pt, 0, sizeof *pt);
}

static void copy_trunc(char *dst, size_t size, const char *s)
{
    snprintf(dst, size, "%s", s ? s : "");
}

int gb_point_define(gb_point_t *pt, const gb_device_info_t *dev, const gb_impl_t *im,
                    const gb_problem_t *problem, const gb_bench_options_t *opts, unsigned rep,
                    char *msg, size_t msglen)
{
    gb_point_free(pt);
    gb_point_device_t *d = &pt->device;
    copy_trunc(d->name, sizeof d->name, dev->name);
    copy_trunc(d->vendor, sizeof d->vendor, dev->vendor);
    copy_trunc(d->type, sizeof d->type, dev->type_name);
    copy_trunc(d->version, sizeof d->version, dev->version);
    copy_trunc(d->platform, sizeof d->platform, dev->platform_name);
    copy_trunc(d->platform_version, sizeof d->platform_version, dev->platform_version);
    copy_trunc(d->driver, sizeof d->driver, dev->driver);
    d->compute_units = dev->compute_units;
    d->clock_mhz = dev->clock_mhz;
    d->global_mem = dev->global_mem;
    d->local_mem = dev->local_mem;
    d->max_wg_size = dev->max_wg_size;
    d->fp64 = dev->fp64 != 0;
    for (int p = 0; p < 2; p++) {
        d->peak_gflops[p] = dev->peak_gflops[p];
        copy_trunc(d->peak_formula[p], sizeof d->peak_formula[p], dev->peak_formula[p]);
    }
    const gb_config_t *cfg = &im->config;
    copy_trunc(pt->kernel, sizeof pt->kernel, gb_impl_name(im));
    copy_trunc(pt->family, sizeof pt->family,
               gb_impl_can(im, GB_IS_LIBRARY) ? gb_impl_name(im) : gb_family_name(cfg->family));
    copy_trunc(pt->preset, sizeof pt->preset, cfg->preset ? cfg->preset->name : "");
    copy_trunc(pt->source_origin, sizeof pt->source_origin, gb_impl_origin(im));
    pt->params = cfg->params;
    gb_store__params_sort(&pt->params);
    pt->problem = *problem;
    gb_problem_check(&pt->problem, NULL, 0);
    /* What is compiled for this problem on this device, with its build options. */
    int rc = gb_impl_program_id(im, dev, &pt->problem, pt->source_hash, sizeof pt->source_hash, msg,
                                msglen);
    if (rc != GB_OK)
        return rc;
    if (pt->problem.alpha == 0.0)
        pt->problem.alpha = 0.0; /* no negative zero: the store could not keep it */
    if (pt->problem.beta == 0.0)
        pt->problem.beta = 0.0;
    if (pt->problem.alpha_im == 0.0)
        pt->problem.alpha_im = 0.0;
    if (pt->problem.beta_im == 0.0)
        pt->problem.beta_im = 0.0;
    pt->seed = opts->seed;
    pt->dist = opts->dist;
    /* Only the fields the kind uses, so that equal distributions compare equal. */
    if (pt->dist.kind != GB_DIST_UNIFORM)
        pt->dist.lo = pt->dist.hi = 0.0;
    if (pt->dist.kind != GB_DIST_INT)
        pt->dist.range = 0;
    if (pt->dist.lo == 0.0)
        pt->dist.lo = 0.0;
    if (pt->dist.hi == 0.0)
        pt->dist.hi = 0.0;
    pt->warmup = opts->warmup;
    pt->iterations = opts->iterations;
    pt->timing = opts->timing;
    pt->host_mem = opts->host_mem;
    pt->cold = opts->cold != 0;
    pt->min_time_s = opts->min_time_s;
    pt->max_rel_ci = opts->max_rel_ci;
    pt->pipeline = opts->pipeline;
    pt->validate = opts->validate;
    pt->rep = rep;
    pt->result.timing = opts->timing;
    pt->result.efficiency = -1.0;
    return gb_point_compute_id(pt);
}

int gb_point_set_result(gb_point_t *pt, const gb_result_t *r)
{
    gb_result_t copy = *r;
    memset(copy.samples_ms, 0, sizeof copy.samples_ms);
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++) {
        size_t n = r->time_ms[ph].n;
        if (!r->samples_ms[ph] || n == 0)
            continue;
        if (!(copy.samples_ms[ph] = malloc(n * sizeof(double)))) {
            gb_result_free(&copy);
            return GB_ENOMEM;
        }
        memcpy(copy.samples_ms[ph], r->samples_ms[ph], n * sizeof(double));
        /* As stored: SQLite keeps no negative zero. */
        for (size_t i = 0; i < n; i++)
            if (copy.samples_ms[ph][i] == 0.0)
                copy.samples_ms[ph][i] = 0.0;
        double *st[7] = {&copy.time_ms[ph].min,    &copy.time_ms[ph].max, &copy.time_ms[ph].median,
                         &copy.time_ms[ph].mean,   &copy.time_ms[ph].std, &copy.time_ms[ph].ci95_lo,
                         &copy.time_ms[ph].ci95_hi};
        for (int j = 0; j < 7; j++)
            if (*st[j] == 0.0)
                *st[j] = 0.0;
    }
    gb_result_free(&pt->result);
    pt->result = copy;
    return GB_OK;
}

/* Environment variables that change what a device does: the OpenCL implementations' own
 * (PoCL, ICD loader), device visibility, BLAS threads and gemmbench's. */
static int env_selected(const char *kv)
{
    static const char *const prefixes[] = {
        "POCL_", "OCL_ICD_", "OPENCL_", "GEMMBENCH_", "CUDA_",           "NEOReadDebugKeys",
        "ZE_",   "ROCR_",    "HIP_",    "GPU_",       "OMP_NUM_THREADS", "OPENBLAS_",
        "CL_"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(kv, prefixes[i], strlen(prefixes[i])))
            return 1;
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The selected variables as a JSON object with sorted keys (caller frees), or NULL. */
static char *env_json(void)
{
    size_t n = 0, cap = 0;
    const char **sel = NULL;
    for (char **e = environ; e && *e; e++) {
        if (!env_selected(*e) || !strchr(*e, '='))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            const char **grown = realloc(sel, cap * sizeof *sel);
            if (!grown) {
                free(sel);
                return NULL;
            }
            sel = grown;
        }
        sel[n++] = *e;
    }
    if (n)
        qsort(sel, n, sizeof *sel, cmp_str);
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < n; i++) {
        const char *eq = strchr(sel[i], '=');
        char name[256];
        size_t len = (size_t)(eq - sel[i]);
        if (len >= sizeof name || strlen(eq + 1) > 4096)
            continue;
        memcpy(name, sel[i], len);
        name[len] = '\0';
        cJSON_AddStringToObject(o, name, eq + 1);
    }
    free(sel);
    char *s = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    /* Keep it within what the store accepts back. */
    if (s && strlen(s) > 65536) {
        free(s);
        s = malloc(3);
        if (s)
            strcpy(s, "{}");
    }
    return s;
}

int gb_point_set_provenance(gb_point_t *pt)
{
    char *env = env_json();
    if (!env)
        return GB_ENOMEM;
    free(pt->env_json);
    pt->env_json = env;
    copy_trunc(pt->tool_version, sizeof pt->tool_version, gb_version());
    copy_trunc(pt->git_revision, sizeof pt->git_revision, gb_store_git_revision());
    if (gethostname(pt->hostname, sizeof pt->hostname) != 0)
        copy_trunc(pt->hostname, sizeof pt->hostname, "unknown");
    pt->hostname[sizeof pt->hostname - 1] = '\0';
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(pt->os, sizeof pt->os, "%.60s %.60s %.80s %.40s", u.sysname, u.release, u.version,
                 u.machine);
    else
        copy_trunc(pt->os, sizeof pt->os, "unknown");
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(pt->timestamp, sizeof pt->timestamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return GB_OK;
}

/* Appends s to the growing buffer, escaping backslashes and newlines so that every value stays
 * on its line. */
static int append(char **buf, size_t *len, size_t *cap, const char *s, int escape)
{
    int rc = GB_OK;
    while (rc == GB_OK && *s) {
        const size_t run = escape ? strcspn(s, "\\\n") : strlen(s);
        rc = gb__append(buf, len, cap, s, run);
        s += run;
        if (rc == GB_OK && *s) {
            rc = gb__append(buf, len, cap, *s == '\n' ? "\\n" : "\\\\", 2);
            s++;
        }
    }
    return rc;
}

int gb_point_definition(const gb_point_t *pt, char **text)
{
    char *buf = NULL, val[2048];
    size_t len = 0, cap = 0;
    int rc = append(&buf, &len, &cap, "gemmbench-point-v1\n", 0);
    for (size_t i = 0; rc == GB_OK && i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        if (!(c->flags & GB_COLF_DEF) ||
            ((c->flags & GB_COLF_LATER) && gb_store__at_default(pt, c)))
            continue;
        if ((rc = append(&buf, &len, &cap, c->name, 0)) == GB_OK &&
            (rc = append(&buf, &len, &cap, "=", 0)) == GB_OK &&
            (rc = append(&buf, &len, &cap, gb_store__text(pt, c, val, sizeof val), 1)) == GB_OK)
            rc = append(&buf, &len, &cap, "\n", 0);
    }
    if (rc != GB_OK) {
        free(buf);
        buf = NULL;
    }
    *text = buf;
    return rc;
}

int gb_point_compute_id(gb_point_t *pt)
{
    char *def, hex[65];
    int rc = gb_point_definition(pt, &def);
    if (rc != GB_OK)
        return rc;
    gb__sha256_hex(def, strlen(def), hex);
    free(def);
    memcpy(pt->id, hex, GB_POINT_ID_LEN);
    pt->id[GB_POINT_ID_LEN] = '\0';
    return GB_OK;
}

int gb_point_check(const gb_point_t *pt, char *msg, size_t msglen)
{
    char buf[GB_POINT_ID_LEN + 1];
    gb_point_t tmp = *pt; /* shallow: only the id is recomputed */
    if (gb_point_compute_id(&tmp) != GB_OK)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory checking point %s", pt->id);
    memcpy(buf, tmp.id, sizeof buf);
    if (strcmp(buf, pt->id) != 0)
        return gb__fail(msg, msglen, GB_EBADPOINT,
                        "id '%s' does not match its definition (which hashes "
                        "to %s)",
                        pt->id, buf);
    if ((unsigned)pt->problem.precision >= GB_PREC_COUNT ||
        (unsigned)pt->problem.layout > GB_COL_MAJOR || (unsigned)pt->problem.trans_a > GB_TRANS ||
        (unsigned)pt->problem.trans_b > GB_TRANS || (unsigned)pt->timing > GB_TIMING_OFFLOAD ||
        (unsigned)pt->host_mem >= GB_HOST_KINDS || pt->result.timing != pt->timing)
        return gb__fail(msg, msglen, GB_EBADPOINT,
                        "point %s has an out-of-range precision, layout, "
                        "transposition, timing or host memory",
                        pt->id);
    gb_bench_options_t o;
    gb_bench_options_init(&o);
    o.timing = pt->timing;
    o.host_mem = pt->host_mem;
    o.pipeline = pt->pipeline;
    if (gb_bench_options_check(&o, msg, msglen) != GB_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", msg);
        return gb__fail(msg, msglen, GB_EBADPOINT, "point %s: %s", pt->id, why);
    }
    if (pt->iterations < 1 || pt->warmup < 0)
        return gb__fail(msg, msglen, GB_EBADPOINT,
                        "point %s: iterations must be at least 1 and warmup "
                        "at least 0",
                        pt->id);
    if (!pt->timestamp[0] || !pt->tool_version[0])
        return gb__fail(msg, msglen, GB_EBADPOINT, "point %s has no timestamp or tool version",
                        pt->id);
    /* One sample per timed call: the iterations asked, or with an adaptive stop at least those
     * and as many as the first phase (every phase is timed at every call). */
    const int adaptive = pt->min_time_s > 0 || pt->max_rel_ci > 0;
    const size_t calls = pt->result.time_ms[0].n;
    for (int ph = 0; ph < GB_PHASE_COUNT; ph++)
        if (!pt->result.samples_ms[ph] ||
            (adaptive ? pt->result.time_ms[ph].n != calls || calls < (size_t)pt->iterations ||
                            (calls > GB_BENCH_MAX_SAMPLES && calls != (size_t)pt->iterations)
                      : pt->result.time_ms[ph].n != (size_t)pt->iterations))
            return gb__fail(msg, msglen, GB_EBADPOINT,
                            "point %s: phase '%s' does not hold one sample "
                            "per timed call",
                            pt->id, gb_phase_name((gb_phase_t)ph));
    return GB_OK;
}
