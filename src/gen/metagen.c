/* metagen.c: a build-time generator. It parses the built-in kernel families' metadata
 * (the JSON files of kernels/) and the shipped tuned defaults (those of kernels/tuned/) with the same parsers
 * the tool uses for users' files, and writes them out as C data (gb_meta.c), so that the runtime
 * library has its families and its tuning database without a JSON parser and without parsing
 * anything when a program starts. A malformed file fails the build with the parser's message.
 * Its output is kept in the sources too (src/gen/gb_meta.c), for the library built without
 * cJSON (GB_TOOL=OFF); the test meta_current checks that copy against what this writes.
 *
 *   metagen OUT.c PRELUDE.cl FAMILY.json... --tuned TUNED.json...
 *
 * Each family's .cl source is looked up beside its JSON; its program digest (what
 * gb_impl_program_id names) is computed here over the prelude and the source. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/family/registry.h"
#include "rt/util/util.h"
#include "tool/tune/tuned.h"

static FILE *out;

/* A C string literal of s, or NULL. */
static void str(const char *s)
{
    if (!s) {
        fputs("NULL", out);
        return;
    }
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p < 32 || *p > 126)
            fprintf(out, "\\%03o", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* static char *NAME[] = {...}; (nothing when n is 0: the field is then NULL) */
static void strings(const char *name, char **s, size_t n)
{
    if (!n)
        return;
    fprintf(out, "static char *%s[] = {", name);
    for (size_t i = 0; i < n; i++) {
        str(s[i]);
        fputs(i + 1 < n ? ", " : "};\n", out);
    }
}

static void longs(const char *name, const long *v, size_t n)
{
    if (!n)
        return;
    fprintf(out, "static long %s[] = {", name);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%ld%s", v[i], i + 1 < n ? ", " : "};\n");
}

static void field_strs(const char *field, const char *prefix, size_t i, const char *what, size_t n)
{
    if (n)
        fprintf(out, "    .%s = %s%zu_%s,\n", field, prefix, i, what);
}

static void family(size_t i, const gb_family_t *f)
{
    char name[64];
#define NAME(what) (snprintf(name, sizeof name, "f%zu_%s", i, what), name)
    strings(NAME("args"), f->args, f->nargs);
    strings(NAME("constraints"), f->constraints, f->nconstraints);
    strings(NAME("extensions"), f->extensions, f->nextensions);
    strings(NAME("let_names"), f->let_names, f->nlets);
    strings(NAME("let_exprs"), f->let_exprs, f->nlets);
    for (size_t j = 0; j < f->nparams; j++) {
        snprintf(name, sizeof name, "f%zu_p%zu_values", i, j);
        longs(name, f->params[j].values, f->params[j].nvalues);
    }
    if (f->nparams) {
        fprintf(out, "static gb_param_t f%zu_params[] = {\n", i);
        for (size_t j = 0; j < f->nparams; j++) {
            const gb_param_t *p = &f->params[j];
            fputs("    {", out);
            str(p->name);
            fputs(", ", out);
            str(p->doc);
            if (p->nvalues)
                fprintf(out, ", %ldL, f%zu_p%zu_values, %zu, %ldL, %ldL", p->def, i, j, p->nvalues,
                        p->lo, p->hi);
            else
                fprintf(out, ", %ldL, NULL, 0, %ldL, %ldL", p->def, p->lo, p->hi);
            fprintf(out, ", %d, %uu, %d, %ldL},\n", p->untuned, p->layouts, p->adaptive, p->adapts);
        }
        fputs("};\n", out);
    }
    for (size_t j = 0; j < f->npresets; j++) {
        snprintf(name, sizeof name, "f%zu_s%zu_names", i, j);
        strings(name, f->presets[j].set_names, f->presets[j].nset);
        snprintf(name, sizeof name, "f%zu_s%zu_values", i, j);
        longs(name, f->presets[j].set_values, f->presets[j].nset);
    }
    snprintf(name, sizeof name, "f%zu_unsplit_names", i);
    strings(name, f->unsplit_names, f->nunsplit);
    snprintf(name, sizeof name, "f%zu_unsplit_values", i);
    longs(name, f->unsplit_values, f->nunsplit);
    if (f->npresets) {
        fprintf(out, "static gb_preset_t f%zu_presets[] = {\n", i);
        for (size_t j = 0; j < f->npresets; j++) {
            const gb_preset_t *p = &f->presets[j];
            fputs("    {", out);
            str(p->name);
            fputs(", ", out);
            str(p->doc);
            if (p->nset)
                fprintf(out, ", %uu, %zu, f%zu_s%zu_names, f%zu_s%zu_values},\n", p->precisions,
                        p->nset, i, j, i, j);
            else
                fprintf(out, ", %uu, 0, NULL, NULL},\n", p->precisions);
        }
        fputs("};\n", out);
    }
#undef NAME
}

static void family_entry(size_t i, const gb_family_t *f)
{
    const struct {
        const char *field;
        const char *value;
    } texts[] = {{"name", f->name},
                 {"description", f->description},
                 {"author", f->author},
                 {"license", f->license},
                 {"origin", f->origin},
                 {"source_file", f->source_file},
                 {"entry", f->entry},
                 {"program_digest", f->program_digest},
                 {"global[0]", f->global[0]},
                 {"global[1]", f->global[1]},
                 {"local[0]", f->local[0]},
                 {"local[1]", f->local[1]},
                 {"local_mem", f->local_mem},
                 {"multiple[0]", f->multiple[0]},
                 {"multiple[1]", f->multiple[1]},
                 {"multiple[2]", f->multiple[2]},
                 {"ld_multiple[0]", f->ld_multiple[0]},
                 {"ld_multiple[1]", f->ld_multiple[1]},
                 {"ld_multiple[2]", f->ld_multiple[2]},
                 {"ld_avoid[0]", f->ld_avoid[0]},
                 {"ld_avoid[1]", f->ld_avoid[1]},
                 {"ld_avoid[2]", f->ld_avoid[2]},
                 {"nv_max_registers", f->nv_max_registers},
                 {"nv_min_groups", f->nv_min_groups},
                 {"expand_b", f->expand_b},
                 {"expand_b_where", f->expand_b_where},
                 {"ptx_target", f->ptx_target},
                 {"ptx_unless", f->ptx_unless},
                 {"side[0].entry", f->side[0].entry},
                 {"side[0].global[0]", f->side[0].global[0]},
                 {"side[0].global[1]", f->side[0].global[1]},
                 {"side[0].local[0]", f->side[0].local[0]},
                 {"side[0].local[1]", f->side[0].local[1]},
                 {"side[0].panels", f->side[0].panels},
                 {"side[1].entry", f->side[1].entry},
                 {"side[1].global[0]", f->side[1].global[0]},
                 {"side[1].global[1]", f->side[1].global[1]},
                 {"side[1].local[0]", f->side[1].local[0]},
                 {"side[1].local[1]", f->side[1].local[1]},
                 {"workspace", f->workspace},
                 {"counters", f->counters},
                 {"transposed_c", f->transposed_c},
                 {"launch_factor", f->launch_factor},
                 {"traffic[0]", f->traffic[0]},
                 {"traffic[1]", f->traffic[1]}};
    fputs("  {\n", out);
    for (size_t j = 0; j < sizeof texts / sizeof texts[0]; j++)
        if (texts[j].value) {
            fprintf(out, "    .%s = ", texts[j].field);
            str(texts[j].value);
            fputs(",\n", out);
        }
    for (int l = 0; l < 8; l++)
        if (f->layout_where[l]) {
            fprintf(out, "    .layout_where[%d] = ", l);
            str(f->layout_where[l]);
            fputs(",\n", out);
        }
    fprintf(out, "    .precisions = %uu, .layouts = %uu,\n", f->precisions, f->layouts);
    fprintf(out, "    .nargs = %zu, .nconstraints = %zu, .nextensions = %zu, .nlets = %zu,\n",
            f->nargs, f->nconstraints, f->nextensions, f->nlets);
    fprintf(out, "    .nparams = %zu, .npresets = %zu,\n", f->nparams, f->npresets);
    field_strs("args", "f", i, "args", f->nargs);
    field_strs("constraints", "f", i, "constraints", f->nconstraints);
    field_strs("extensions", "f", i, "extensions", f->nextensions);
    field_strs("let_names", "f", i, "let_names", f->nlets);
    field_strs("let_exprs", "f", i, "let_exprs", f->nlets);
    field_strs("params", "f", i, "params", f->nparams);
    field_strs("presets", "f", i, "presets", f->npresets);
    if (f->nunsplit)
        fprintf(out, "    .nunsplit = %zu,\n", f->nunsplit);
    field_strs("unsplit_names", "f", i, "unsplit_names", f->nunsplit);
    field_strs("unsplit_values", "f", i, "unsplit_values", f->nunsplit);
    fprintf(out, "    .images = %d, .images_from_buffer = %d, .builtin = 1,\n  },\n", f->images,
            f->images_from_buffer);
}

static void tuned_entry(const gb_tuned_entry_t *e)
{
    fputs("  {.device = ", out);
    str(e->device);
    fputs(", .platform = ", out);
    str(e->platform);
    fputs(", .driver = ", out);
    str(e->driver);
    fputs(", .vendor = ", out);
    str(e->vendor);
    fputs(", .type = ", out);
    str(e->type);
    fputs(", .family = ", out);
    str(e->family);
    fprintf(out, ",\n   .precision = %d, .layout = ", (int)e->precision);
    str(e->layout);
    fputs(", .shape_class = ", out);
    str(e->shape_class);
    fprintf(out, ", .m = %zu, .n = %zu, .k = %zu, .kernel = ", e->m, e->n, e->k);
    str(e->kernel);
    fprintf(out, ",\n   .params = {.count = %zu, .name = {", e->params.count);
    for (size_t j = 0; j < e->params.count; j++) {
        str(e->params.name[j]);
        fputs(j + 1 < e->params.count ? ", " : "", out);
    }
    fputs("}, .value = {", out);
    for (size_t j = 0; j < e->params.count; j++)
        fprintf(out, "%ldL%s", e->params.value[j], j + 1 < e->params.count ? ", " : "");
    fprintf(out, "}},\n   .gflops = %.17g, .nevidence = %zu, .evidence = {", e->gflops,
            e->nevidence);
    for (size_t j = 0; j < e->nevidence; j++) {
        str(e->evidence[j]);
        fputs(j + 1 < e->nevidence ? ", " : "", out);
    }
    fputs("}, .tuned_at = ", out);
    str(e->tuned_at);
    fputs(", .source = \"shipped\"},\n", out);
}

static char *slurp(const char *path, size_t *len)
{
    char *text = NULL;
    if (gb__read_file(path, 16u << 20, &text, len) != GB_OK) {
        fprintf(stderr, "metagen: cannot read %s\n", path);
        exit(1);
    }
    return text;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: metagen OUT.c PRELUDE.cl FAMILY.json... --tuned TUNED.json...\n");
        return 2;
    }
    char msg[4096];
    size_t plen;
    char *prelude = slurp(argv[2], &plen);
    gb_family_t *fams = calloc((size_t)argc, sizeof *fams);
    size_t nfam = 0;
    gb_tuned_t tuned;
    gb_tuned_init(&tuned);
    int in_tuned = 0;
    for (int a = 3; a < argc; a++) {
        if (!strcmp(argv[a], "--tuned")) {
            in_tuned = 1;
            continue;
        }
        size_t len;
        char *json = slurp(argv[a], &len), origin[512];
        if (in_tuned) {
            gb_tuned_t file;
            gb_tuned_init(&file);
            snprintf(origin, sizeof origin, "kernels/tuned/%s", base(argv[a]));
            if (gb_tuned_from_json(&file, json, len, origin, "shipped", msg, sizeof msg) != GB_OK) {
                fprintf(stderr, "metagen: %s\n", msg);
                return 1;
            }
            for (size_t j = 0; j < file.n; j++)
                if (gb_tuned_merge(&tuned, &file.e[j]) != GB_OK)
                    return 1;
            gb_tuned_free(&file);
            free(json);
            continue;
        }
        snprintf(origin, sizeof origin, "kernels/%s", base(argv[a]));
        gb_family_t *f = &fams[nfam];
        char dir[4096];
        snprintf(dir, sizeof dir, "%.*s.", (int)(base(argv[a]) - argv[a]), argv[a]);
        if (gb__family_parse_at(json, len, origin, dir, f, msg, sizeof msg) != GB_OK) {
            fprintf(stderr, "metagen: %s\n", msg);
            return 1;
        }
        free(json);
        if (!(f->origin = strdup(origin)))
            return 1;
        /* The source beside the JSON, and the digest of the text gb__program_get compiles. */
        char path[4096];
        snprintf(path, sizeof path, "%.*s%s", (int)(base(argv[a]) - argv[a]), argv[a],
                 f->source_file);
        if (strchr(f->source_file, '/')) {
            fprintf(stderr, "metagen: %s: key 'source' must be a file name beside the JSON\n",
                    origin);
            return 1;
        }
        size_t slen;
        char *src = slurp(path, &slen);
        gb__program_text(prelude, src, NULL, NULL, f->program_digest);
        free(src);
        for (size_t j = 0; j < nfam; j++)
            if (!strcmp(fams[j].name, f->name)) {
                fprintf(stderr, "metagen: %s: family '%s' is also defined in %s\n", origin, f->name,
                        fams[j].origin);
                return 1;
            }
        nfam++;
    }
    if (!(out = fopen(argv[1], "w"))) {
        fprintf(stderr, "metagen: cannot write %s\n", argv[1]);
        return 1;
    }
    fputs("/* Generated by src/gen/metagen.c from the JSON files of kernels/ and kernels/tuned/: "
          "do not edit.\n * A copy is kept as src/gen/gb_meta.c for the library built alone "
          "(GB_TOOL=OFF); `cmake\n * --build BUILD --target update-meta` writes it there. */\n"
          "#include <stddef.h>\n\n#include \"rt/family/registry.h\"\n#include "
          "\"rt/tuning/select.h\"\n\n",
          out);
    for (size_t i = 0; i < nfam; i++)
        family(i, &fams[i]);
    fputs("\ngb_family_t gb__builtin_families[] = {\n", out);
    for (size_t i = 0; i < nfam; i++)
        family_entry(i, &fams[i]);
    fprintf(out, "};\nconst size_t gb__builtin_family_count = %zu;\n\n", nfam);
    fprintf(out, "const gb_tuned_entry_t gb__shipped_entries[%zu] = {\n", tuned.n ? tuned.n : 1);
    for (size_t i = 0; i < tuned.n; i++)
        tuned_entry(&tuned.e[i]);
    fprintf(out, "};\nconst size_t gb__shipped_entry_count = %zu;\n", tuned.n);
    if (fclose(out) != 0)
        return 1;
    for (size_t i = 0; i < nfam; i++)
        gb__family_free(&fams[i]);
    free(fams);
    gb_tuned_free(&tuned);
    free(prelude);
    return 0;
}
