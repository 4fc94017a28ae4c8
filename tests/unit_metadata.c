/* unit_metadata.c: kernel family metadata (src/harness/metadata/family.c) and the registry
 * (src/rt/family/registry.c): every field of a valid family, malformed families rejected with the
 * offending key named, the built-in families, --kernel-path directories that add, replace or
 * break families, and a replay of the checked-in corpus tests/corpus/metadata/. */
#include <sys/stat.h>

#include "unit.h"

#include "rt/family/registry.h"

#ifndef GB_CORPUS_DIR
#error "GB_CORPUS_DIR must name tests/corpus/metadata (set by tests/CMakeLists.txt)"
#endif

/* JSON is written here with ' for " to stay readable; jsonify turns it into real JSON. */
static const char base_family[] =
    "{"
    " 'family': 'testfam',"
    " 'description': 'a test family',"
    " 'source': 'testfam.cl',"
    " 'entry': 'gemm_test',"
    " 'precisions': ['s', 'd'],"
    " 'layouts': ['row-NT', 'col-TN'],"
    " 'args': ['M', 'N', 'K', 'alpha', 'A', 'lda', 'B', 'ldb', 'beta', 'C', 'ldc'],"
    " 'global': ['ceil_div(N, WPT)', 'M'],"
    " 'local': ['LX', 'LY'],"
    " 'constraints': ['WPT <= LX'],"
    " 'requires': {'extensions': ['cl_khr_fp64'], 'local_memory': 'LX * LY * ELEM'},"
    " 'parameters': {"
    "   'WPT': {'default': 4, 'values': [1, 2, 4, 8], 'adapts': 1, 'doc': 'work per item'},"
    "   'LX': {'default': 16, 'range': [1, 256]},"
    "   'LY': {'default': 2, 'range': [1, 64]}"
    " },"
    " 'presets': {"
    "   'TEST_D_8': {'precision': 'd', 'params': {'WPT': 8, 'LY': 4}, 'doc': 'eight'},"
    "   'TEST_ANY': {}"
    " }"
    "}";

/* base with the first occurrence of from replaced by to, quotes made real, into a static buffer. */
static const char *variant(const char *base, const char *from, const char *to)
{
    static char buf[4096];
    const char *at = from ? strstr(base, from) : NULL;
    if (from && !CHECK(at != NULL)) {
        printf("    variant: '%s' not in the base text\n", from);
        at = NULL;
    }
    if (at)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    else
        snprintf(buf, sizeof buf, "%s", base);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    return buf;
}

static const char *jsonify(const char *text)
{
    return variant(text, NULL, NULL);
}

static int parse(const char *json, gb_family_t *f, char *msg, size_t msglen)
{
    msg[0] = '\0';
    return gb__family_parse(json, strlen(json), "test.json", f, msg, msglen);
}

static void test_valid(void)
{
    gb_family_t f;
    char msg[512];
    if (!CHECK_RC(parse(jsonify(base_family), &f, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    CHECK(!strcmp(f.name, "testfam"));
    CHECK(!strcmp(f.description, "a test family"));
    CHECK(!strcmp(f.source_file, "testfam.cl"));
    CHECK(!strcmp(f.entry, "gemm_test"));
    CHECK(f.source == NULL && f.origin == NULL); /* the loader's business */
    CHECK(f.precisions == ((1u << GB_PREC_S) | (1u << GB_PREC_D)));
    CHECK(f.layouts == ((1u << gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_TRANS)) |
                        (1u << gb_layout_index(GB_COL_MAJOR, GB_TRANS, GB_NOTRANS))));

    static const char *const args[] = {"M", "N",   "K",    "alpha", "A",  "lda",
                                       "B", "ldb", "beta", "C",     "ldc"};
    int args_ok = f.nargs == sizeof args / sizeof args[0];
    for (size_t i = 0; args_ok && i < f.nargs; i++)
        args_ok = !strcmp(f.args[i], args[i]);
    CHECK(args_ok);
    CHECK(!strcmp(f.global[0], "ceil_div(N, WPT)") && !strcmp(f.global[1], "M"));
    CHECK(f.local[0] && !strcmp(f.local[0], "LX") && f.local[1] && !strcmp(f.local[1], "LY"));
    CHECK(f.nconstraints == 1 && !strcmp(f.constraints[0], "WPT <= LX"));
    CHECK(f.nextensions == 1 && !strcmp(f.extensions[0], "cl_khr_fp64"));
    CHECK(f.local_mem && !strcmp(f.local_mem, "LX * LY * ELEM"));

    if (CHECK(f.nparams == 3)) {
        const gb_param_t *w = &f.params[0], *x = &f.params[1], *y = &f.params[2];
        CHECK(!strcmp(w->name, "WPT") && w->def == 4 && w->doc && !strcmp(w->doc, "work per item"));
        CHECK(w->nvalues == 4 && w->values && w->values[0] == 1 && w->values[1] == 2 &&
              w->values[2] == 4 && w->values[3] == 8);
        CHECK(w->adaptive && w->adapts == 1 && !x->adaptive && !y->adaptive);
        CHECK(!strcmp(x->name, "LX") && x->def == 16 && x->doc == NULL);
        CHECK(x->values == NULL && x->nvalues == 0 && x->lo == 1 && x->hi == 256);
        CHECK(!strcmp(y->name, "LY") && y->def == 2 && y->lo == 1 && y->hi == 64);
    }
    if (CHECK(f.npresets == 2)) {
        const gb_preset_t *d = &f.presets[0], *any = &f.presets[1];
        CHECK(!strcmp(d->name, "TEST_D_8") && d->doc && !strcmp(d->doc, "eight"));
        CHECK(d->precisions == (1u << GB_PREC_D));
        CHECK(d->nset == 2 && !strcmp(d->set_names[0], "WPT") && d->set_values[0] == 8 &&
              !strcmp(d->set_names[1], "LY") && d->set_values[1] == 4);
        CHECK(!strcmp(any->name, "TEST_ANY") && any->doc == NULL);
        CHECK(any->precisions == f.precisions && any->nset == 0);
    }
    gb__family_free(&f);
    CHECK(f.name == NULL && f.params == NULL); /* free leaves a zeroed family */
    gb__family_free(NULL);

    /* The least a family needs; "any" layout, one precision as a string, no local size. */
    const char *minimal = jsonify("{'family': 'm', 'source': 'm.cl', 'entry': 'e',"
                                  " 'precisions': 'd', 'layouts': ['any'], 'args': ['C'],"
                                  " 'global': ['M', 'N']}");
    if (CHECK_RC(parse(minimal, &f, msg, sizeof msg), GB_OK)) {
        CHECK(f.precisions == (1u << GB_PREC_D) && f.layouts == 0xffu);
        CHECK(f.local[0] == NULL && f.local[1] == NULL && f.local_mem == NULL);
        CHECK(f.nparams == 0 && f.npresets == 0 && f.nconstraints == 0 && f.nextensions == 0);
        CHECK(f.description == NULL && !f.traffic[0] && !f.traffic[1]);
        CHECK(!f.multiple[0] && !f.ld_multiple[0] && !f.ld_multiple[2] && !f.nv_max_registers);
        gb__family_free(&f);
    }

    /* Tile and leading-dimension multiples, each by its own letters. */
    const char *mults =
        jsonify("{'family': 'm', 'source': 'm.cl', 'entry': 'e',"
                " 'precisions': 's', 'layouts': ['any'], 'args': ['C', 'WS', 'CUS'],"
                " 'global': ['M', 'N'], 'multiple_of': {'K': '8'},"
                " 'ld_multiple_of': {'A': '4', 'C': 'VW'},"
                " 'ld_avoid_multiple_of': {'A': '4096'},"
                " 'nvidia_max_registers': 'REGS * 2', 'nvidia_min_groups': 'CTAS',"
                " 'remainder': {'entry': 'rest', 'global': ['32 * (M % 8)', '1'],"
                " 'local': ['32', '1']},"
                " 'prologue': {'entry': 'pack', 'global': ['N / 4', 'K'], 'local': ['4', '1'],"
                " 'panels': 'N / 4'},"
                " 'let': {'R': 'M % 8', 'G': '32 * R'}, 'workspace': 'G * CUS * 4',"
                " 'traffic': {'read': 'ELEM * (M * K * ceil_div(N, G + 1) + R * CUS * DOUBLE)',"
                " 'write': 'ELEM * M * N * ROW'}}");
    if (CHECK_RC(parse(mults, &f, msg, sizeof msg), GB_OK)) {
        CHECK(!f.multiple[0] && !f.multiple[1] && f.multiple[2] && !strcmp(f.multiple[2], "8"));
        CHECK(f.ld_multiple[0] && !strcmp(f.ld_multiple[0], "4") && !f.ld_multiple[1]);
        CHECK(f.ld_multiple[2] && !strcmp(f.ld_multiple[2], "VW"));
        CHECK(f.nv_max_registers && !strcmp(f.nv_max_registers, "REGS * 2"));
        CHECK(f.nv_min_groups && !strcmp(f.nv_min_groups, "CTAS"));
        CHECK(f.ld_avoid[0] && !strcmp(f.ld_avoid[0], "4096") && !f.ld_avoid[1] && !f.ld_avoid[2]);
        CHECK(f.side[GB_SIDE_REMAINDER].entry && !strcmp(f.side[GB_SIDE_REMAINDER].entry, "rest"));
        CHECK(f.side[GB_SIDE_REMAINDER].global[0] &&
              !strcmp(f.side[GB_SIDE_REMAINDER].global[0], "32 * (M % 8)"));
        CHECK(f.side[GB_SIDE_REMAINDER].local[1] &&
              !strcmp(f.side[GB_SIDE_REMAINDER].local[1], "1"));
        CHECK(f.side[GB_SIDE_PROLOGUE].entry && !strcmp(f.side[GB_SIDE_PROLOGUE].entry, "pack"));
        CHECK(f.side[GB_SIDE_PROLOGUE].panels &&
              !strcmp(f.side[GB_SIDE_PROLOGUE].panels, "N / 4") &&
              !f.side[GB_SIDE_REMAINDER].panels);
        CHECK(f.side[GB_SIDE_PROLOGUE].global[0] &&
              !strcmp(f.side[GB_SIDE_PROLOGUE].global[0], "N / 4"));
        CHECK(f.nlets == 2 && !strcmp(f.let_names[0], "R") && !strcmp(f.let_exprs[1], "32 * R"));
        CHECK(f.workspace && !strcmp(f.workspace, "G * CUS * 4"));
        CHECK(f.traffic[0] &&
              !strcmp(f.traffic[0], "ELEM * (M * K * ceil_div(N, G + 1) + R * CUS * DOUBLE)"));
        CHECK(f.traffic[1] && !strcmp(f.traffic[1], "ELEM * M * N * ROW"));
        CHECK(f.nargs == 3 && !strcmp(f.args[1], "WS") && !strcmp(f.args[2], "CUS"));
        gb__family_free(&f);
    }
}

typedef struct bad_case {
    const char *from, *to; /* edit of base_family; from NULL: to is the whole text */
    const char *key;       /* what the message must name */
} bad_case_t;

/* A PTX program's keys: the target and the expression that turns it off. */
static void test_ptx_keys(void)
{
    gb_family_t f;
    char msg[512];
    const char *json = variant(base_family, "'presets': {",
                               "'ptx_target': 'sm_90a', 'ptx_unless': 'WPT == 8', 'presets': {");
    if (!CHECK_RC(parse(json, &f, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    CHECK(f.ptx_target && !strcmp(f.ptx_target, "sm_90a"));
    CHECK(f.ptx_unless && !strcmp(f.ptx_unless, "WPT == 8"));
    gb__family_free(&f);
    CHECK_RC(parse(jsonify(base_family), &f, msg, sizeof msg), GB_OK);
    CHECK(!f.ptx_target && !f.ptx_unless);
    gb__family_free(&f);
}

/* "layouts_where": a layout native where an expression of the parameters holds, by its index;
 * the others NULL. */
static void test_layouts_where(void)
{
    gb_family_t f;
    char msg[512];
    const char *json = variant(base_family, "'presets': {",
                               "'layouts_where': {'row-NN': 'WPT == 2'}, 'presets': {");
    if (!CHECK_RC(parse(json, &f, msg, sizeof msg), GB_OK))
        return;
    const unsigned nn = gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS);
    for (unsigned i = 0; i < 8; i++)
        CHECK(i == nn ? f.layout_where[i] && !strcmp(f.layout_where[i], "WPT == 2")
                      : !f.layout_where[i]);
    CHECK(!((f.layouts >> nn) & 1u));
    gb__family_free(&f);
}

static void test_malformed(void)
{
    static const bad_case_t cases[] = {
        {NULL, "this is { not json", "not valid JSON"},
        {NULL, "", "not valid JSON"},
        {NULL, "['family']", "must be a JSON object"},
        {"'family': 'testfam',", "", "'family'"},
        {"'family': 'testfam'", "'family': 7", "'family'"},
        {"'family': 'testfam'", "'family': ''", "'family'"},
        {"'family': 'testfam'", "'family': 'abcdefghijabcdefghijabcdefghijabcdefghijabcdefghij'",
         "'family'"},
        {"'source': 'testfam.cl',", "", "'source'"},
        {"'entry': 'gemm_test',", "'entry': null,", "'entry'"},
        {"'precisions': ['s', 'd']", "'precisions': ['s', 'q']", "'precisions'"},
        {"'precisions': ['s', 'd']", "'precisions': []", "'precisions'"},
        {"'precisions': ['s', 'd'],", "", "'precisions'"},
        {"'row-NT'", "'row-XY'", "'layouts'"},
        {"'row-NT'", "'dia-NT'", "'layouts'"},
        {"'layouts': ['row-NT', 'col-TN']", "'layouts': 'row-NT'", "'layouts'"},
        {"'ldc']", "'ldc', 'gamma']", "'args'"},
        {"'args': [", "'args': [5, ", "'args'"},
        {"'global': ['ceil_div(N, WPT)', 'M']", "'global': ['M']", "'global'"},
        {"'global': ['ceil_div(N, WPT)', 'M'],", "", "'global'"},
        {"'local': ['LX', 'LY']", "'local': ['LX', 'LY', '1']", "'local'"},
        {"'constraints': ['WPT <= LX']", "'constraints': 'WPT <= LX'", "'constraints'"},
        {"'requires': {", "'requires': 3, 'x': {", "'requires'"},
        {"'extensions': ['cl_khr_fp64']", "'extensions': [1]", "'extensions'"},
        {"'local_memory': 'LX * LY * ELEM'", "'local_memory': 64", "'local_memory'"},
        {"'default': 4, 'values'", "'default': 3, 'values'", "'parameters.WPT'"},
        {"'default': 16, 'range': [1, 256]", "'default': 300, 'range': [1, 256]",
         "'parameters.LX'"},
        {"'default': 4, ", "", "'parameters.WPT.default'"},
        {"'default': 4, ", "'default': 4.5, ", "'parameters.WPT.default'"},
        {"'default': 4, ", "'default': 1e300, ", "'parameters.WPT.default'"},
        {"[1, 2, 4, 8]", "[1, 'two', 4]", "'parameters.WPT.values'"},
        /* "adapts": a value the parameter may take, an integer. */
        {"'adapts': 1", "'adapts': 3", "'parameters.WPT.adapts' must be one of"},
        {"'adapts': 1", "'adapts': 'grid'", "'parameters.WPT.adapts'"},
        {"'range': [1, 256]}", "'range': [1, 256], 'adapts': 0}", "'parameters.LX.adapts'"},
        {"[1, 2, 4, 8]", "[]", "'parameters.WPT.values'"},
        {"'range': [1, 256]", "'range': [256, 1]", "'parameters.LX.range'"},
        {"'range': [1, 256]", "'range': [1]", "'parameters.LX.range'"},
        {"'LY': {'default': 2, 'range': [1, 64]}", "'LY': 2", "'parameters.LY'"},
        {"'parameters': {", "'parameters': [], 'x': {", "'parameters'"},
        {"'WPT': 8, 'LY': 4", "'WPT': 8, 'LZ': 4", "'presets.TEST_D_8.params.LZ'"},
        {"'WPT': 8, 'LY': 4", "'WPT': 8, 'LY': 'four'", "'presets.TEST_D_8.params.LY'"},
        {"'precision': 'd'", "'precision': 'q'", "'presets.TEST_D_8.precision'"},
        {"'precisions': ['s', 'd']", "'precisions': ['s']", "'presets.TEST_D_8.precision'"},
        {"'params': {'WPT': 8, 'LY': 4}", "'params': [8]", "'presets.TEST_D_8.params' must be"},
        /* "unsplit": parameter values, with a launch factor whose 1 means nothing split. */
        {"'presets': {", "'unsplit': {'WPT': 1}, 'presets': {",
         "'unsplit' needs a 'launch_factor'"},
        {"'presets': {", "'launch_factor': 'WPT', 'unsplit': {'SPLITK': 1}, 'presets': {",
         "'unsplit.SPLITK' names no parameter of the family"},
        {"'presets': {", "'launch_factor': 'WPT', 'unsplit': {}, 'presets': {",
         "'unsplit' names no parameter"},
        {"'presets': {", "'launch_factor': 'WPT', 'unsplit': [1], 'presets': {",
         "'unsplit' must be an object"},
        /* "expand_b": Y staged from B, alpha's parts passed. */
        {"'presets': {", "'expand_b': {'macro': 'YB'}, 'presets': {",
         "'expand_b' needs the arguments alphaRe and alphaIm"},
        {"'presets': {", "'expand_b': 'YB', 'presets': {", "'expand_b' must be an object"},
        {"'presets': {", "'expand_b': {'where': 'M < 64'}, 'presets': {", "'macro' is missing"},
        /* "layouts_where": an object of layout names, not already native, to expressions. */
        {"'presets': {", "'layouts_where': 'row-NN', 'presets': {",
         "'layouts_where' must be an object"},
        {"'presets': {", "'layouts_where': {}, 'presets': {", "'layouts_where' must be an object"},
        {"'presets': {", "'layouts_where': {'row-XY': 'WPT'}, 'presets': {",
         "'layouts_where' must name layouts like"},
        {"'presets': {", "'layouts_where': {'row-NT': 'WPT'}, 'presets': {",
         "'layouts_where' names a layout that 'layouts' already holds"},
        {"'presets': {", "'layouts_where': {'row-NN': 2}, 'presets': {",
         "'layouts_where' must give each layout an expression"},
        {"'TEST_ANY': {}", "'TEST_ANY': 1", "'presets.TEST_ANY'"},
        {"'presets': {", "'presets': 'none', 'x': {", "'presets'"},
        {"'presets': {", "'multiple_of': {'A': '4'}, 'presets': {", "'multiple_of'"},
        {"'presets': {", "'ld_multiple_of': {'M': '4'}, 'presets': {", "'ld_multiple_of'"},
        {"'presets': {", "'ld_multiple_of': {'AB': '4'}, 'presets': {", "'ld_multiple_of'"},
        {"'presets': {", "'ld_multiple_of': ['4'], 'presets': {", "'ld_multiple_of'"},
        {"'presets': {", "'ld_multiple_of': {'A': 4}, 'presets': {", "'ld_multiple_of.A'"},
        {"'presets': {", "'nvidia_max_registers': 128, 'presets': {", "'nvidia_max_registers'"},
        {"'presets': {", "'nvidia_min_groups': 3, 'presets': {", "'nvidia_min_groups'"},
        {"'presets': {", "'ptx_target': 'sm90a', 'presets': {", "'ptx_target'"},
        {"'presets': {", "'ptx_target': 'sm_90b', 'presets': {", "'ptx_target'"},
        {"'presets': {", "'ptx_target': 'sm_', 'presets': {", "'ptx_target'"},
        {"'presets': {", "'ptx_target': 90, 'presets': {", "'ptx_target'"},
        {"'presets': {", "'ptx_unless': 'WPT', 'presets': {", "'ptx_unless'"},
        {"'presets': {", "'ld_avoid_multiple_of': {'K': '64'}, 'presets': {",
         "'ld_avoid_multiple_of'"},
        {"'presets': {", "'ld_avoid_multiple_of': {'B': 64}, 'presets': {",
         "'ld_avoid_multiple_of.B'"},
        {"'presets': {", "'nvidia_max_registers': '', 'presets': {", "'nvidia_max_registers'"},
        {"'presets': {", "'remainder': 'rest', 'presets': {", "'remainder'"},
        {"'presets': {", "'remainder': {'global': ['1', '1'], 'local': ['1', '1']}, 'presets': {",
         "object 'remainder': key 'entry'"},
        {"'presets': {",
         "'remainder': {'entry': 'r', 'global': ['1'], 'local': ['1', '1']}, 'presets': {",
         "object 'remainder': key 'global'"},
        {"'presets': {", "'remainder': {'entry': 'r', 'global': ['1', '1']}, 'presets': {",
         "object 'remainder': key 'local'"},
        /* Panels are the prologue's, in the workspace. */
        {"'presets': {",
         "'remainder': {'entry': 'r', 'global': ['1', '1'], 'local': ['1', '1'], 'panels': '4'}, "
         "'presets': {",
         "key 'remainder.panels' is unknown"},
        {"'presets': {",
         "'prologue': {'entry': 'p', 'global': ['1', '1'], 'local': ['1', '1'], 'panels': '4'}, "
         "'presets': {",
         "gives 'panels', which live in the workspace"},
        {"'presets': {", "'let': ['M'], 'presets': {", "'let'"},
        {"'presets': {", "'let': {'WPT': 'M'}, 'presets': {", "'let.WPT'"},
        {"'presets': {", "'let': {'NVIDIA': '1'}, 'presets': {", "'let.NVIDIA'"},
        {"'presets': {", "'let': {'CUS': '1'}, 'presets': {", "'let.CUS'"},
        {"'presets': {", "'let': {'REAL': '1'}, 'presets': {", "'let.REAL'"},
        {"'presets': {",
         "'let': {'A1': '1', 'A2': '1', 'A3': '1', 'A4': '1', 'A5': '1', 'A6': '1',"
         " 'A7': '1', 'A8': '1', 'A9': '1', 'B1': '1', 'B2': '1', 'B3': '1', 'B4': '1', 'B5': '1',"
         " 'B6': '1', 'B7': '1', 'B8': '1'}, 'presets': {",
         "more than 16 names"},
        /* The workspace and its argument WS come together. */
        {"'presets': {", "'workspace': 'M * 4', 'presets': {", "'workspace'"},
        {"'ldc']", "'ldc', 'WS']", "no 'workspace' size"},
        {"'ldc']", "'ldc', 'WS'], 'workspace': 7", "'workspace'"},
        {"'presets': {", "'let': {'X': 3}, 'presets': {", "'let.X'"},
        /* The traffic: both expressions, compiled against the names the family may use. */
        {"'presets': {", "'traffic': 'M * N', 'presets': {", "key 'traffic' must be an object"},
        {"'presets': {", "'traffic': {'read': 'M * K'}, 'presets': {", "key 'traffic.write'"},
        {"'presets': {", "'traffic': {'read': 'M * K * FOO', 'write': 'M'}, 'presets': {",
         "key 'traffic.read' is not an expression"},
        {"'presets': {", "'traffic': {'read': 'M * K * FOO', 'write': 'M'}, 'presets': {",
         "unknown name"},
        {"'presets': {", "'traffic': {'read': 'M', 'write': 'ELEM * (M +'}, 'presets': {",
         "key 'traffic.write' is not an expression"},
        {"'presets': {", "'traffic': {'read': 'M', 'write': 4}, 'presets': {", "'traffic.write'"},
        {"'presets': {", "'traffic': {'read': 'M', 'write': 'N', 'reads': 'K'}, 'presets': {",
         "key 'traffic.reads' is unknown; did you mean 'traffic.read'?"},
        /* Misspelled or unknown keys are named with the nearest known one; duplicates refused. */
        {"'constraints': [", "'constraint': [",
         "key 'constraint' is unknown; did you mean 'constraints'?"},
        {"'local_memory':", "'local_mem':",
         "key 'requires.local_mem' is unknown; did you mean 'requires.local_memory'?"},
        {"'values': [1, 2, 4, 8]", "'valeus': [1, 2, 4, 8]",
         "key 'parameters.WPT.valeus' is unknown; did you mean 'parameters.WPT.values'?"},
        {"'precision': 'd'", "'precison': 'd'", "did you mean 'presets.TEST_D_8.precision'?"},
        {"'presets': {",
         "'remainder': {'entry': 'r', 'global': ['1', '1'], 'local': ['1', '1'], 'lokal': 1}, "
         "'presets': {",
         "did you mean 'remainder.local'?"},
        {"'presets': {", "'colour': 'blue', 'presets': {",
         "key 'colour' is unknown (docs/kernel-metadata.md"},
        {"'presets': {", "'entry': 'again', 'presets': {", "key 'entry' appears twice"},
        {"'presets': {", "'let': {'X': 'M', 'X': 'N'}, 'presets': {", "key 'let.X' appears twice"},
        {"'default': 4, ", "'default': 4, 'default': 8, ",
         "key 'parameters.WPT.default' appears twice"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case_t *c = &cases[i];
        const char *json = c->from ? variant(base_family, c->from, c->to) : jsonify(c->to);
        gb_family_t f;
        char msg[512];
        int rc = parse(json, &f, msg, sizeof msg);
        int ok = CHECK_RC(rc, GB_EMETADATA);
        ok &= CHECK_HAS(msg, c->key);
        ok &= CHECK_HAS(msg, "test.json");
        if (!ok)
            printf("    case %zu: %s\n", i, json);
        if (rc == GB_OK)
            gb__family_free(&f);
        else
            CHECK(f.name == NULL); /* nothing left to free on failure */
    }
}

/* One document per file: whitespace may follow it, nothing else (a second object, a stray
 * character, a NUL byte), and the message names the file and the byte offset. */
static void test_trailing(void)
{
    static char buf[8192];
    const char *base = jsonify(base_family);
    const size_t n = strlen(base);
    gb_family_t f;
    char msg[512], want[64];
    snprintf(buf, sizeof buf, "%s \n\t\r\n", base);
    if (CHECK_RC(parse(buf, &f, msg, sizeof msg), GB_OK))
        gb__family_free(&f);
    static const char *const tails[] = {" {\"family\": \"u\"}", "\n,", "x", "  // comment"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        snprintf(buf, sizeof buf, "%s%s", base, tails[i]);
        const size_t at = n + strspn(tails[i], " \n");
        CHECK_RC(parse(buf, &f, msg, sizeof msg), GB_EMETADATA);
        CHECK_HAS(msg, "test.json");
        snprintf(want, sizeof want, "byte offset %zu", at);
        CHECK_HAS(msg, want);
        CHECK(f.name == NULL);
    }
    /* A NUL byte inside the given length is text after the document too. */
    memcpy(buf, base, n);
    buf[n] = '\0';
    buf[n + 1] = ' ';
    msg[0] = '\0';
    CHECK_RC(gb__family_parse(buf, n + 2, "nul.json", &f, msg, sizeof msg), GB_EMETADATA);
    snprintf(want, sizeof want, "byte offset %zu", n);
    CHECK_HAS(msg, want);
}

static void test_builtin_registry(void)
{
    gb_registry_t *reg = NULL;
    char msg[512] = "";
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK)) {
        printf("    %s\n", msg);
        return;
    }
    CHECK(gb_registry_count(reg) >= 3);
    const gb_family_t *f = NULL;
    const gb_preset_t *p = NULL;
    static const char *const names[] = {"naive", "gemmbench_nn", "gemmbench_nt"};
    static gb_preset_t junk;
    for (size_t i = 0; i < 3; i++) {
        f = NULL;
        p = &junk;
        CHECK_RC(gb_registry_find(reg, names[i], &f, &p), GB_OK);
        CHECK(f && !strcmp(f->name, names[i]) && p == NULL);
        CHECK(f && f->source && f->source[0] && f->origin && strstr(f->origin, names[i]));
    }
    CHECK_RC(gb_registry_find(reg, "SGEMM_NT_4x1", &f, &p), GB_OK);
    CHECK(f && !strcmp(f->name, "gemmbench_nt"));
    CHECK(p && !strcmp(p->name, "SGEMM_NT_4x1"));
    const gb_preset_t *exact = p;
    CHECK_RC(gb_registry_find(reg, "sgemm_nt_4x1", &f, &p), GB_OK);
    CHECK(p == exact); /* not SGEMM_NT_4x1_barrier */
    CHECK_RC(gb_registry_find(reg, "NAIVE", &f, &p), GB_OK);
    CHECK(f && !strcmp(f->name, "naive") && p == NULL);
    CHECK_RC(gb_registry_find(reg, "nope", &f, &p), GB_ENOKERNEL);
    CHECK_RC(gb_registry_find(reg, "", &f, &p), GB_ENOKERNEL);
    CHECK(gb_registry_family(reg, gb_registry_count(reg)) == NULL);
    size_t all = 1;
    for (size_t i = 0; i < gb_registry_count(reg); i++)
        all &= gb_registry_family(reg, i) != NULL;
    CHECK(all);
    gb_registry_close(reg);
    gb_registry_close(NULL);
}

/* Opens the registry over dir; returns its code and leaves the registry (or NULL) in *reg. */
static int open_dir(const char *dir, gb_registry_t **reg, char *msg, size_t msglen)
{
    static char junk;
    msg[0] = '\0';
    *reg = (gb_registry_t *)(void *)&junk;
    int rc = gb_registry_open(reg, dir, msg, msglen);
    if (rc != GB_OK)
        CHECK(*reg == NULL);
    return rc;
}

static void test_kernel_path(void)
{
    gb_registry_t *reg = NULL;
    char msg[512] = "", dir[64];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    const size_t builtin = gb_registry_count(reg);
    gb_registry_close(reg);

    /* A family whose .cl is neither beside it nor built in. */
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        const char *json = variant(base_family, "'source': 'testfam.cl'", "'source': 'lost.cl'");
        CHECK(unit_write_file(dir, "lost.json", json));
        CHECK_RC(open_dir(dir, &reg, msg, sizeof msg), GB_ENOSOURCE);
        CHECK_HAS(msg, "lost.cl");
        CHECK_HAS(msg, "lost.json");
        unit_remove_dir(dir);
    }

    /* Malformed metadata: the message names the file. */
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        CHECK(unit_write_file(dir, "broken.json", "{\"family\": "));
        CHECK(unit_write_file(dir, "broken.cl", "kernel void k(void) {}\n"));
        CHECK_RC(open_dir(dir, &reg, msg, sizeof msg), GB_EMETADATA);
        CHECK_HAS(msg, "broken.json");
        unit_remove_dir(dir);
    }

    /* A source given as a path, not a file name beside the JSON. */
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        const char *json = variant(base_family, "'source': 'testfam.cl'", "'source': '../x.cl'");
        CHECK(unit_write_file(dir, "pathy.json", json));
        CHECK_RC(open_dir(dir, &reg, msg, sizeof msg), GB_EMETADATA);
        CHECK_HAS(msg, "'source'");
        unit_remove_dir(dir);
    }

    /* A directory that is not there. */
    CHECK_RC(open_dir("/nonexistent/gemmbench/kernels", &reg, msg, sizeof msg), GB_EIO);
    CHECK_HAS(msg, "/nonexistent/gemmbench/kernels");

    /* A new family: one more, with its source and origin from the directory. Files not ending
     * in .json are ignored. */
    static const char cl[] = "/* test family */\nkernel void gemm_test(void) {}\n";
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        CHECK(unit_write_file(dir, "testfam.json", jsonify(base_family)));
        CHECK(unit_write_file(dir, "testfam.cl", cl));
        CHECK(unit_write_file(dir, "notes.txt", "not metadata"));
        CHECK(unit_write_file(dir, "x.json.bak", "{"));
        if (CHECK_RC(open_dir(dir, &reg, msg, sizeof msg), GB_OK)) {
            CHECK(gb_registry_count(reg) == builtin + 1);
            const gb_family_t *f = NULL;
            const gb_preset_t *p = NULL;
            CHECK_RC(gb_registry_find(reg, "testfam", &f, &p), GB_OK);
            char origin[128];
            snprintf(origin, sizeof origin, "%s/testfam.json", dir);
            CHECK(f && !strcmp(f->source, cl));
            CHECK(f && !strcmp(f->origin, origin));
            CHECK_RC(gb_registry_find(reg, "test_d_8", &f, &p), GB_OK);
            CHECK(p && !strcmp(p->name, "TEST_D_8"));
            CHECK_RC(gb_registry_find(reg, "naive", &f, &p), GB_OK);
            CHECK(f && !strcmp(f->origin, "kernels/naive.json"));
            gb_registry_close(reg);
        } else {
            printf("    %s\n", msg);
        }
        unit_remove_dir(dir);
    }

    /* A family named like a built-in replaces it. */
    static const char cl2[] = "/* my naive */\nkernel void gemm_test(void) {}\n";
    if (CHECK(unit_make_dir(dir, sizeof dir))) {
        const char *json = variant(base_family, "'family': 'testfam'", "'family': 'naive'");
        CHECK(unit_write_file(dir, "mine.json", json));
        CHECK(unit_write_file(dir, "testfam.cl", cl2));
        if (CHECK_RC(open_dir(dir, &reg, msg, sizeof msg), GB_OK)) {
            CHECK(gb_registry_count(reg) == builtin);
            const gb_family_t *f = NULL;
            const gb_preset_t *p = NULL;
            char origin[128];
            snprintf(origin, sizeof origin, "%s/mine.json", dir);
            CHECK_RC(gb_registry_find(reg, "naive", &f, &p), GB_OK);
            CHECK(f && !strcmp(f->origin, origin));
            CHECK(f && !strcmp(f->source, cl2) && !strcmp(f->entry, "gemm_test"));
            CHECK_RC(gb_registry_find(reg, "TEST_D_8", &f, &p), GB_OK);
            CHECK(f && !strcmp(f->name, "naive"));
            gb_registry_close(reg);
        } else {
            printf("    %s\n", msg);
        }
        unit_remove_dir(dir);
    }
}

/* Every file of the corpus parses to GB_OK or GB_EMETADATA, never anything else. */
static void test_corpus(void)
{
    DIR *d = opendir(GB_CORPUS_DIR);
    if (!CHECK(d != NULL)) {
        printf("    cannot open %s\n", GB_CORPUS_DIR);
        return;
    }
    size_t files = 0;
    struct dirent *e;
    static char buf[(1u << 20) + 2];
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", GB_CORPUS_DIR, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        FILE *f = fopen(path, "rb");
        if (!CHECK(f != NULL))
            continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = '\0';
        gb_family_t fam;
        char msg[512] = "";
        int rc = gb__family_parse(buf, len, e->d_name, &fam, msg, sizeof msg);
        if (!CHECK(rc == GB_OK || rc == GB_EMETADATA))
            printf("    %s: %s (%s)\n", e->d_name, gb_errname(rc), msg);
        if (rc == GB_OK)
            gb__family_free(&fam);
        files++;
    }
    closedir(d);
    CHECK(files >= 10);
}

/* 'extends': the keys of a base beside the file that it does not give, but the base's name,
 * description and presets; refused without a directory, with a missing base, and two deep. */
static void test_extends(void)
{
    char dir[64], msg[512] = "";
    gb_family_t f;
    const char *twin = jsonify("{'family': 'twin', 'extends': 'testfam', 'description': 'the same',"
                               " 'layouts': ['row-NN']}");
    char twin_text[1024];
    snprintf(twin_text, sizeof twin_text, "%s", twin);
    if (!CHECK(unit_make_dir(dir, sizeof dir)))
        return;
    CHECK(unit_write_file(dir, "testfam.json", jsonify(base_family)));
    if (CHECK_RC(gb__family_parse_at(twin_text, strlen(twin_text), "twin.json", dir, &f, msg,
                                     sizeof msg),
                 GB_OK)) {
        CHECK(!strcmp(f.name, "twin") && !strcmp(f.description, "the same"));
        CHECK(!strcmp(f.entry, "gemm_test") && !strcmp(f.source_file, "testfam.cl"));
        CHECK(f.layouts == (1u << gb_layout_index(GB_ROW_MAJOR, GB_NOTRANS, GB_NOTRANS)));
        CHECK(f.nparams == 3 && f.nconstraints == 1 && f.npresets == 0);
        gb__family_free(&f);
    }
    CHECK_RC(gb__family_parse(twin_text, strlen(twin_text), "twin.json", &f, msg, sizeof msg),
             GB_EMETADATA);
    CHECK_HAS(msg, "key 'extends'");
    /* More constraints come on top of the base's. */
    const char *more =
        jsonify("{'family': 'more', 'extends': 'testfam', 'more_constraints': ['LX == LY']}");
    if (CHECK_RC(gb__family_parse_at(more, strlen(more), "more.json", dir, &f, msg, sizeof msg),
                 GB_OK)) {
        CHECK(f.nconstraints == 2);
        gb__family_free(&f);
    }
    const char *lost = jsonify("{'family': 'twin', 'extends': 'nobody'}");
    CHECK_RC(gb__family_parse_at(lost, strlen(lost), "twin.json", dir, &f, msg, sizeof msg),
             GB_EMETADATA);
    CHECK_HAS(msg, "nobody.json");
    CHECK(
        unit_write_file(dir, "middle.json", jsonify("{'family': 'middle', 'extends': 'testfam'}")));
    const char *deep = jsonify("{'family': 'deep', 'extends': 'middle'}");
    CHECK_RC(gb__family_parse_at(deep, strlen(deep), "deep.json", dir, &f, msg, sizeof msg),
             GB_EMETADATA);
    CHECK_HAS(msg, "one level only");
    unit_remove_dir(dir);
}

int main(void)
{
    test_valid();
    test_ptx_keys();
    test_layouts_where();
    test_malformed();
    test_builtin_registry();
    test_kernel_path();
    test_extends();
    test_trailing();
    test_corpus();
    return unit_finish();
}
