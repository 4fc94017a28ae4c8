/* cmd_kernels.c: `gemmbench kernels [--json] [--device SEL]`: the registry of kernel families,
 * their presets, parameters and requirements and, with a device, whether each runs there; and
 * `gemmbench kernels --import-gemmbench FILE --out DIR`: kernels in the GEMMbench paper's
 * metadata form made families of ours (gb_paper_import). */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/util/util.h"
#include "cli.h"

/* The native layouts, then those native where an expression holds: "row-NT,row-TT, row-NN where
 * BCOPY". */
static void layouts_text(const gb_family_t *f, char *buf, size_t len)
{
    static const char *names[8] = {"row-NN", "row-NT", "row-TN", "row-TT",
                                   "col-NN", "col-NT", "col-TN", "col-TT"};
    const unsigned mask = gb_family_layouts(f);
    size_t used = 0;
    buf[0] = '\0';
    if (mask == 0xffu)
        gb__appendf(buf, len, &used, "any");
    else
        for (unsigned i = 0; i < 8; i++)
            if (mask & (1u << i))
                gb__appendf(buf, len, &used, "%s%s", used ? "," : "", names[i]);
    for (unsigned i = 0; i < 8; i++)
        if (gb_family_layout_where(f, i))
            gb__appendf(buf, len, &used, "%s%s where %s", used ? ", " : "", names[i],
                        gb_family_layout_where(f, i));
}

/* A kernel's own precisions, then those its real ones serve by the 1M method: "s,d +1M c,z". */
static void precisions_text(unsigned mask, char *buf, size_t len)
{
    gb_precision_mask_text(mask, buf, len);
    const unsigned more = gb_precisions_1m(mask) & ~mask;
    char extra[16];
    if (more && strlen(buf) + 5 + strlen(gb_precision_mask_text(more, extra, sizeof extra)) < len)
        strcat(strcat(buf, " +1M "), extra);
}

static void allowed_text(const gb_param_t *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    if (!p->values)
        gb__appendf(buf, len, &used, "%ld..%ld", p->lo, p->hi);
    for (size_t i = 0; p->values && i < p->nvalues; i++)
        gb__appendf(buf, len, &used, "%s%ld", i ? "," : "", p->values[i]);
}

/* Whether a kernel, preset or peer runs on dev in precision prec, and why not. */
static int runs(const char *name, const gb_registry_t *reg, const gb_device_info_t *dev,
                gb_precision_t prec, char *why, size_t len)
{
    gb_impl_t im;
    if (gb_impl_resolve(reg, name, NULL, &im, why, len) != GB_OK)
        return 0;
    return gb_impl_check(&im, dev, prec, NULL, why, len) == GB_OK;
}

/* "on_device": {"s": "runs" or why not, "d": ...} for the precisions in mask. */
static void on_device_json(cJSON *o, const char *name, unsigned mask, const gb_registry_t *reg,
                           const gb_device_info_t *dev)
{
    char buf[256];
    cJSON *on = cJSON_AddObjectToObject(o, "on_device");
    for (int p = 0; p < GB_PREC_COUNT; p++)
        if (mask & (1u << p))
            cJSON_AddStringToObject(
                on, gb_precision_name((gb_precision_t)p),
                runs(name, reg, dev, (gb_precision_t)p, buf, sizeof buf) ? "runs" : buf);
}

static cJSON *family_json(const gb_family_t *f, const gb_registry_t *reg,
                          const gb_device_info_t *dev)
{
    char buf[256];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "family", gb_family_name(f));
    cJSON_AddStringToObject(o, "description", gb_family_description(f));
    cJSON_AddStringToObject(o, "origin", gb_family_origin(f));
    cJSON_AddStringToObject(o, "entry", gb_family_entry(f));
    precisions_text(gb_family_precisions(f), buf, sizeof buf);
    cJSON_AddStringToObject(o, "precisions", buf);
    layouts_text(f, buf, sizeof buf);
    cJSON_AddStringToObject(o, "layouts", buf);
    cJSON *params = cJSON_AddArrayToObject(o, "parameters");
    for (size_t i = 0; i < gb_family_param_count(f); i++) {
        const gb_param_t *pa = gb_family_param(f, i);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", pa->name);
        cJSON_AddNumberToObject(p, "default", (double)pa->def);
        allowed_text(pa, buf, sizeof buf);
        cJSON_AddStringToObject(p, "allowed", buf);
        if (pa->adaptive) /* the value that fits itself to each shape */
            cJSON_AddNumberToObject(p, "adapts", (double)pa->adapts);
        cJSON_AddStringToObject(p, "doc", pa->doc ? pa->doc : "");
        cJSON_AddItemToArray(params, p);
    }
    cJSON *presets = cJSON_AddArrayToObject(o, "presets");
    for (size_t i = 0; i < gb_family_preset_count(f); i++) {
        const gb_preset_t *ps = gb_family_preset(f, i);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", ps->name);
        precisions_text(ps->precisions, buf, sizeof buf);
        cJSON_AddStringToObject(p, "precisions", buf);
        cJSON *set = cJSON_AddObjectToObject(p, "params");
        for (size_t j = 0; j < ps->nset; j++)
            cJSON_AddNumberToObject(set, ps->set_names[j], (double)ps->set_values[j]);
        if (dev) {
            gb_precision_t prec = (ps->precisions & 1u) ? GB_PREC_S : GB_PREC_D;
            int ok = runs(ps->name, reg, dev, prec, buf, sizeof buf);
            cJSON_AddBoolToObject(p, "runs", ok);
            if (!ok)
                cJSON_AddStringToObject(p, "why_not", buf);
        }
        cJSON_AddItemToArray(presets, p);
    }
    cJSON *req = cJSON_AddObjectToObject(o, "requires");
    cJSON *ext = cJSON_AddArrayToObject(req, "extensions");
    for (size_t i = 0; gb_family_extension(f, i); i++)
        cJSON_AddItemToArray(ext, cJSON_CreateString(gb_family_extension(f, i)));
    const char *lm = gb_family_local_memory(f);
    cJSON_AddStringToObject(req, "local_memory", lm ? lm : "0");
    if (gb_family_traffic(f, 0)) {
        cJSON *tr = cJSON_AddObjectToObject(o, "traffic");
        cJSON_AddStringToObject(tr, "read", gb_family_traffic(f, 0));
        cJSON_AddStringToObject(tr, "write", gb_family_traffic(f, 1));
    }
    if (dev)
        on_device_json(o, gb_family_name(f), gb_family_precisions(f), reg, dev);
    return o;
}

/* A library peer, listed like a family without parameters. */
static cJSON *peer_json(const gb_impl_t *im, const gb_registry_t *reg, const gb_device_info_t *dev)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "family", gb_impl_name(im));
    cJSON_AddStringToObject(o, "description", gb_impl_description(im));
    cJSON_AddStringToObject(o, "origin", gb_impl_origin(im));
    cJSON_AddBoolToObject(o, "library", 1);
    const unsigned mask = gb_impl_precisions(im);
    char precs[16];
    cJSON_AddStringToObject(o, "precisions", gb_precision_mask_text(mask, precs, sizeof precs));
    cJSON_AddStringToObject(o, "layouts", "any");
    cJSON_AddArrayToObject(o, "parameters");
    cJSON_AddArrayToObject(o, "presets");
    if (dev)
        on_device_json(o, gb_impl_name(im), mask, reg, dev);
    return o;
}

static void on_device_text(const char *name, unsigned mask, const gb_registry_t *reg,
                           const gb_device_info_t *dev)
{
    char buf[256];
    for (int p = 0; dev && p < GB_PREC_COUNT; p++)
        if (mask & (1u << p))
            printf("  on %s, %s: %s\n", dev->name, gb_precision_title((gb_precision_t)p),
                   runs(name, reg, dev, (gb_precision_t)p, buf, sizeof buf) ? "runs" : buf);
}

static void family_text(const gb_family_t *f, const gb_registry_t *reg, const gb_device_info_t *dev)
{
    char prec[32], lay[256], buf[256];
    precisions_text(gb_family_precisions(f), prec, sizeof prec);
    layouts_text(f, lay, sizeof lay);
    printf("%s  [%s]  native layouts: %s  (%s)\n", gb_family_name(f), prec, lay,
           gb_family_origin(f));
    if (gb_family_description(f)[0])
        printf("  %s\n", gb_family_description(f));
    for (size_t i = 0; i < gb_family_param_count(f); i++) {
        const gb_param_t *pa = gb_family_param(f, i);
        allowed_text(pa, buf, sizeof buf);
        char adapts[32] = "";
        if (pa->adaptive)
            snprintf(adapts, sizeof adapts, "adapts %ld; ", pa->adapts);
        printf("  param %-8s default %-5ld allowed %-16s %s%s\n", pa->name, pa->def, buf, adapts,
               pa->doc ? pa->doc : "");
    }
    for (size_t i = 0; gb_family_constraint(f, i); i++)
        printf("  constraint %s\n", gb_family_constraint(f, i));
    for (size_t i = 0; gb_family_extension(f, i); i++)
        printf("  requires %s\n", gb_family_extension(f, i));
    if (gb_family_local_memory(f))
        printf("  local memory bytes = %s\n", gb_family_local_memory(f));
    if (gb_family_traffic(f, 0))
        printf("  traffic bytes read = %s\n  traffic bytes written = %s\n", gb_family_traffic(f, 0),
               gb_family_traffic(f, 1));
    for (size_t i = 0; i < gb_family_preset_count(f); i++) {
        const gb_preset_t *ps = gb_family_preset(f, i);
        precisions_text(ps->precisions, prec, sizeof prec);
        printf("  preset %-24s [%s] ", ps->name, prec);
        for (size_t j = 0; j < ps->nset; j++)
            printf("%s%s=%ld", j ? " " : "", ps->set_names[j], ps->set_values[j]);
        if (dev) {
            gb_precision_t p = (ps->precisions & 1u) ? GB_PREC_S : GB_PREC_D;
            printf("  -> %s", runs(ps->name, reg, dev, p, buf, sizeof buf) ? "runs" : buf);
        }
        printf("\n");
    }
    on_device_text(gb_family_name(f), gb_family_precisions(f), reg, dev);
}

static void peer_text(const gb_impl_t *im, const gb_registry_t *reg, const gb_device_info_t *dev)
{
    const unsigned mask = gb_impl_precisions(im);
    char precs[16];
    printf("%s  [%s]  native layouts: any  (%s)\n  %s\n", gb_impl_name(im),
           gb_precision_mask_text(mask, precs, sizeof precs), gb_impl_origin(im),
           gb_impl_description(im));
    on_device_text(gb_impl_name(im), mask, reg, dev);
}

/* Every implementation, families then peers, as JSON or text. */
static void list(const gb_registry_t *reg, const gb_device_info_t *di, int json)
{
    cJSON *arr = json ? cJSON_CreateArray() : NULL;
    for (size_t i = 0; i < gb_impl_count(reg); i++) {
        gb_impl_t im;
        if (gb_impl_at(reg, i, &im) != GB_OK)
            continue;
        const int peer = gb_impl_can(&im, GB_IS_LIBRARY);
        if (json)
            cJSON_AddItemToArray(arr, peer ? peer_json(&im, reg, di)
                                           : family_json(im.config.family, reg, di));
        else if (peer)
            peer_text(&im, reg, di);
        else
            family_text(im.config.family, reg, di);
    }
    if (json) {
        char *s = cJSON_Print(arr);
        printf("%s\n", s ? s : "[]");
        free(s);
        cJSON_Delete(arr);
    }
}

/* `--import-gemmbench FILE --out DIR`: what was written, and how to run it. */
static int import_paper(const char *file, const char *dir)
{
    char msg[1024];
    gb_paper_kernel_t *k = NULL;
    size_t n = 0;
    const int rc = gb_paper_import(file, dir, &k, &n, msg, sizeof msg);
    if (rc != GB_OK)
        return cli_error(rc, "%s", msg);
    for (size_t i = 0; i < n; i++)
        printf("imported %s (%s, %s, %ld x %ld elements of C per work-item) into %s\n", k[i].name,
               k[i].precision == GB_PREC_D ? "double" : "single", k[i].layout, k[i].dj, k[i].di,
               k[i].json);
    printf("run with: gemmbench run --kernel-path %s -k ", dir);
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? "," : "", k[i].name);
    printf("\n");
    free(k);
    return EXIT_OK;
}

/* The options: 0, -1 after --help, or the exit code after an error. */
static int parse(int argc, char **argv, int *json, int *want_device, const char **kpath,
                 gb_device_selector_t *sel, const char **import, const char **out)
{
    enum { OPT_JSON = 256, OPT_KPATH, OPT_IMPORT, OPT_OUT };
    static const struct option opts[] = {{"json", no_argument, NULL, OPT_JSON},
                                         {"device", required_argument, NULL, 'd'},
                                         {"platform", required_argument, NULL, 'p'},
                                         {"type", required_argument, NULL, 't'},
                                         {"kernel-path", required_argument, NULL, OPT_KPATH},
                                         {"import-gemmbench", required_argument, NULL, OPT_IMPORT},
                                         {"out", required_argument, NULL, OPT_OUT},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:t:d:h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: *json = 1; break;
        case OPT_KPATH: *kpath = optarg; break;
        case OPT_IMPORT: *import = optarg; break;
        case OPT_OUT: *out = optarg; break;
        case 'p':
            sel->platform = optarg;
            *want_device = 1;
            break;
        case 'd':
            sel->device = optarg;
            *want_device = 1;
            break;
        case 't':
            if ((rc = cli_device_type(optarg, &sel->type)) != 0)
                return rc;
            *want_device = 1;
            break;
        case 'h':
            printf("usage: gemmbench kernels [--json] [--kernel-path DIR] [-p PLATFORM] [-t TYPE] "
                   "[-d|--device DEVICE]\n"
                   "       gemmbench kernels --import-gemmbench FILE --out DIR\n"
                   "  --import-gemmbench FILE  kernels described in the GEMMbench paper's metadata "
                   "form\n"
                   "                           (name, file, type, transA, transB, dj, di): writes "
                   "our\n"
                   "                           metadata and the sources into DIR, for "
                   "--kernel-path DIR\n");
            return -1;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]);
        default: return cli_error(GB_EBADARG, "unknown option '%s' for kernels", argv[optind - 1]);
        }
    }
    if (cli_no_operands(argc, argv, "kernels"))
        return EXIT_USAGE;
    if (*import && (!*out || *json || *want_device || *kpath))
        return cli_error(GB_EBADARG,
                         *out ? "--import-gemmbench takes only --out DIR; list the kernels "
                                "afterwards with --kernel-path DIR"
                              : "--import-gemmbench needs --out DIR, the folder to write our "
                                "metadata into (not the paper's own folder)");
    if (*out && !*import)
        return cli_error(GB_EBADARG, "--out is for --import-gemmbench FILE");
    return 0;
}

int cmd_kernels(int argc, char **argv)
{
    int json = 0, want_device = 0;
    const char *kpath = NULL, *import = NULL, *out = NULL;
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    int rc = parse(argc, argv, &json, &want_device, &kpath, &sel, &import, &out);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (import)
        return import_paper(import, out);
    char msg[1024];
    gb_registry_t *reg;
    if ((rc = gb_registry_open(&reg, kpath, msg, sizeof msg)) != GB_OK)
        return cli_error(rc == GB_EIO ? GB_EBADARG : rc, "%s", msg);
    cli_device_t dev = {0};
    const gb_device_info_t *di = NULL;
    if (want_device) {
        if ((rc = cli_device_open(&dev, &sel)) != 0) {
            gb_registry_close(reg);
            return rc;
        }
        di = &dev.list[dev.index];
    }
    list(reg, di, json);
    cli_device_close(&dev);
    gb_registry_close(reg);
    return EXIT_OK;
}
