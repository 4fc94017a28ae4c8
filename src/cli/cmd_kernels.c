/* cmd_kernels.c: `gemmbench kernels [--json] [--device SEL]`: the registry of kernel families,
 * their presets, parameters and requirements and, with a device, whether each runs there. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void layouts_text(unsigned mask, char *buf, size_t len)
{
    static const char *names[8] = {"row-NN", "row-NT", "row-TN", "row-TT",
                                   "col-NN", "col-NT", "col-TN", "col-TT"};
    size_t used = 0;
    buf[0] = '\0';
    if (mask == 0xffu) {
        snprintf(buf, len, "any");
        return;
    }
    for (unsigned i = 0; i < 8; i++)
        if (mask & (1u << i))
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "," : "", names[i]);
}

static void precisions_text(unsigned mask, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", mask & 1u ? "s" : "", mask == 3u ? "," : "", mask & 2u ? "d" : "");
}

static void allowed_text(const gb_param_t *p, char *buf, size_t len)
{
    if (!p->values) {
        snprintf(buf, len, "%ld..%ld", p->lo, p->hi);
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < p->nvalues && used + 24 < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%ld", i ? "," : "", p->values[i]);
}

/* Whether a family (or preset) runs on dev in precision prec, and why not. */
static int runs(const gb_family_t *f, const gb_preset_t *ps, const gb_registry_t *reg,
                const gb_device_info_t *dev, gb_precision_t prec, char *why, size_t len)
{
    gb_config_t cfg;
    if (gb_config_resolve(reg, ps ? ps->name : f->name, NULL, &cfg, why, len) != GB_OK)
        return 0;
    return gb_config_check(&cfg, dev, prec, NULL, why, len) == GB_OK;
}

static cJSON *family_json(const gb_family_t *f, const gb_registry_t *reg,
                          const gb_device_info_t *dev)
{
    char buf[256];
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "family", f->name);
    cJSON_AddStringToObject(o, "description", f->description ? f->description : "");
    cJSON_AddStringToObject(o, "origin", f->origin);
    cJSON_AddStringToObject(o, "entry", f->entry);
    precisions_text(f->precisions, buf, sizeof buf);
    cJSON_AddStringToObject(o, "precisions", buf);
    layouts_text(f->layouts, buf, sizeof buf);
    cJSON_AddStringToObject(o, "layouts", buf);
    cJSON *params = cJSON_AddArrayToObject(o, "parameters");
    for (size_t i = 0; i < f->nparams; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", f->params[i].name);
        cJSON_AddNumberToObject(p, "default", (double)f->params[i].def);
        allowed_text(&f->params[i], buf, sizeof buf);
        cJSON_AddStringToObject(p, "allowed", buf);
        cJSON_AddStringToObject(p, "doc", f->params[i].doc ? f->params[i].doc : "");
        cJSON_AddItemToArray(params, p);
    }
    cJSON *presets = cJSON_AddArrayToObject(o, "presets");
    for (size_t i = 0; i < f->npresets; i++) {
        const gb_preset_t *ps = &f->presets[i];
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", ps->name);
        precisions_text(ps->precisions, buf, sizeof buf);
        cJSON_AddStringToObject(p, "precisions", buf);
        cJSON *set = cJSON_AddObjectToObject(p, "params");
        for (size_t j = 0; j < ps->nset; j++)
            cJSON_AddNumberToObject(set, ps->set_names[j], (double)ps->set_values[j]);
        if (dev) {
            gb_precision_t prec = (ps->precisions & 1u) ? GB_PREC_S : GB_PREC_D;
            int ok = runs(f, ps, reg, dev, prec, buf, sizeof buf);
            cJSON_AddBoolToObject(p, "runs", ok);
            if (!ok)
                cJSON_AddStringToObject(p, "why_not", buf);
        }
        cJSON_AddItemToArray(presets, p);
    }
    cJSON *req = cJSON_AddObjectToObject(o, "requires");
    cJSON *ext = cJSON_AddArrayToObject(req, "extensions");
    for (size_t i = 0; i < f->nextensions; i++)
        cJSON_AddItemToArray(ext, cJSON_CreateString(f->extensions[i]));
    cJSON_AddStringToObject(req, "local_memory", f->local_mem ? f->local_mem : "0");
    if (dev) {
        cJSON *on = cJSON_AddObjectToObject(o, "on_device");
        for (int p = 0; p < 2; p++) {
            if (!(f->precisions & (1u << p)))
                continue;
            int ok = runs(f, NULL, reg, dev, (gb_precision_t)p, buf, sizeof buf);
            cJSON_AddStringToObject(on, p ? "d" : "s", ok ? "runs" : buf);
        }
    }
    return o;
}

static void family_text(const gb_family_t *f, const gb_registry_t *reg,
                        const gb_device_info_t *dev)
{
    char prec[16], lay[96], buf[256];
    precisions_text(f->precisions, prec, sizeof prec);
    layouts_text(f->layouts, lay, sizeof lay);
    printf("%s  [%s]  native layouts: %s  (%s)\n", f->name, prec, lay, f->origin);
    if (f->description)
        printf("  %s\n", f->description);
    for (size_t i = 0; i < f->nparams; i++) {
        allowed_text(&f->params[i], buf, sizeof buf);
        printf("  param %-8s default %-5ld allowed %-16s %s\n", f->params[i].name,
               f->params[i].def, buf, f->params[i].doc ? f->params[i].doc : "");
    }
    for (size_t i = 0; i < f->nconstraints; i++)
        printf("  constraint %s\n", f->constraints[i]);
    for (size_t i = 0; i < f->nextensions; i++)
        printf("  requires %s\n", f->extensions[i]);
    if (f->local_mem)
        printf("  local memory bytes = %s\n", f->local_mem);
    for (size_t i = 0; i < f->npresets; i++) {
        const gb_preset_t *ps = &f->presets[i];
        size_t used = 0;
        buf[0] = '\0';
        for (size_t j = 0; j < ps->nset; j++)
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s=%ld", j ? " " : "",
                                     ps->set_names[j], ps->set_values[j]);
        precisions_text(ps->precisions, prec, sizeof prec);
        printf("  preset %-24s [%s] %s", ps->name, prec, buf);
        if (dev) {
            char why[256];
            gb_precision_t p = (ps->precisions & 1u) ? GB_PREC_S : GB_PREC_D;
            printf("  -> %s", runs(f, ps, reg, dev, p, why, sizeof why) ? "runs" : why);
        }
        printf("\n");
    }
    if (dev) {
        for (int p = 0; p < 2; p++) {
            if (!(f->precisions & (1u << p)))
                continue;
            printf("  on %s, %s: %s\n", dev->name, p ? "double" : "single",
                   runs(f, NULL, reg, dev, (gb_precision_t)p, buf, sizeof buf) ? "runs" : buf);
        }
    }
}

int cmd_kernels(int argc, char **argv)
{
    enum { OPT_JSON = 256, OPT_KPATH };
    static const struct option opts[] = {
        {"json", no_argument, NULL, OPT_JSON},        {"device", required_argument, NULL, 'd'},
        {"platform", required_argument, NULL, 'p'},   {"type", required_argument, NULL, 't'},
        {"kernel-path", required_argument, NULL, OPT_KPATH}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int json = 0, want_device = 0, c;
    const char *kpath = NULL;
    gb_device_selector_t sel = {NULL, GB_DEVTYPE_ALL, NULL};
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":p:t:d:h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON: json = 1; break;
        case OPT_KPATH: kpath = optarg; break;
        case 'p': sel.platform = optarg; want_device = 1; break;
        case 'd': sel.device = optarg; want_device = 1; break;
        case 't':
            if (gb_device_type_parse(optarg, &sel.type) != GB_OK)
                return cli_error(GB_EBADARG, "unknown device type '%s'; use all, cpu, gpu, acc or default", optarg);
            want_device = 1;
            break;
        case 'h':
            printf("usage: gemmbench kernels [--json] [--kernel-path DIR] [-p PLATFORM] [-t TYPE] "
                   "[-d|--device DEVICE]\n");
            return EXIT_OK;
        case ':': return cli_error(GB_EBADARG, "option '%s' needs a value", argv[optind - 1]);
        default: return cli_error(GB_EBADARG, "unknown option '%s' for kernels", argv[optind - 1]);
        }
    }
    char msg[1024];
    gb_registry_t *reg;
    int rc = gb_registry_open(&reg, kpath, msg, sizeof msg);
    if (rc != GB_OK)
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
    if (json) {
        cJSON *arr = cJSON_CreateArray();
        for (size_t i = 0; i < gb_registry_count(reg); i++)
            cJSON_AddItemToArray(arr, family_json(gb_registry_family(reg, i), reg, di));
        char *s = cJSON_Print(arr);
        printf("%s\n", s ? s : "[]");
        free(s);
        cJSON_Delete(arr);
    } else {
        for (size_t i = 0; i < gb_registry_count(reg); i++)
            family_text(gb_registry_family(reg, i), reg, di);
    }
    cli_device_close(&dev);
    gb_registry_close(reg);
    return EXIT_OK;
}
