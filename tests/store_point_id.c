/* store_point_id.c: what a point's id covers (src/tool/store/columns.c, point.c). Each field of
 * the definition, changed alone in the point itself, must give a new id, and the hand-written
 * list of those fields must match the columns the table marks as the definition; each column of
 * the table, changed alone through its own accessors, must give a new id where it is part of the
 * definition and keep the id where it is not. A column that lost its place in the definition, or
 * that reads another field than its name says, fails here rather than only in a fixture's ids. */
#include "unit.h"

#include "tool/store/store_int.h"

/* A point with every definition field away from its default where that does not change which
 * fields are hashed (host_mem, cold, the stops and the pipeline stay at theirs: a definition
 * column added later is hashed only away from its default). */
static void make_point(gb_point_t *pt)
{
    gb_point_init(pt);
    snprintf(pt->device.name, sizeof pt->device.name, "Test Device");
    snprintf(pt->device.vendor, sizeof pt->device.vendor, "Test Vendor");
    snprintf(pt->device.platform, sizeof pt->device.platform, "Test Platform");
    snprintf(pt->device.driver, sizeof pt->device.driver, "1.2.3");
    snprintf(pt->device.type, sizeof pt->device.type, "gpu");
    snprintf(pt->kernel, sizeof pt->kernel, "K_8x8");
    snprintf(pt->family, sizeof pt->family, "fam");
    snprintf(pt->preset, sizeof pt->preset, "K_8x8");
    gb_params_set(&pt->params, "AA", 4);
    gb_params_set(&pt->params, "BB", 8);
    snprintf(pt->source_hash, sizeof pt->source_hash, "sha256:0123456789abcdef/0123456789abcdef");
    gb_problem_init(&pt->problem, GB_PREC_S, 7, 11, 13);
    pt->problem.alpha = 1.5;
    pt->problem.beta = 0.5;
    pt->problem.lda = 20;
    pt->problem.ldb = 21;
    pt->problem.ldc = 22;
    pt->problem.off_a = 1;
    pt->problem.off_b = 2;
    pt->problem.off_c = 3;
    pt->seed = 42;
    pt->dist.kind = GB_DIST_UNIFORM;
    pt->dist.lo = -1.0;
    pt->dist.hi = 1.0;
    pt->warmup = 2;
    pt->iterations = 5;
    pt->timing = GB_TIMING_OPS;
    pt->rep = 1;
    pt->result.validation.done = pt->result.validation.passed = 1; /* valid_mode can change */
    gb_point_compute_id(pt);
}

/* The definition's fields, each changed alone in the point (not through the columns table). */
static const char *const fields[] = {"device.name",
                                     "device.vendor",
                                     "device.platform",
                                     "device.driver",
                                     "kernel",
                                     "family",
                                     "preset",
                                     "params",
                                     "source_hash",
                                     "precision",
                                     "layout",
                                     "trans_a",
                                     "trans_b",
                                     "m",
                                     "n",
                                     "k",
                                     "alpha",
                                     "beta",
                                     "lda",
                                     "ldb",
                                     "ldc",
                                     "off_a",
                                     "off_b",
                                     "off_c",
                                     "seed",
                                     "dist",
                                     "warmup",
                                     "iterations",
                                     "timing",
                                     "rep",
                                     "host_mem",
                                     "cold",
                                     "min_time",
                                     "max_rel_ci",
                                     "pipeline",
                                     "alpha_im",
                                     "beta_im",
                                     "conj_a",
                                     "conj_b"};
#define NFIELDS (sizeof fields / sizeof fields[0])

static void change_field(gb_point_t *pt, size_t i)
{
    gb_problem_t *p = &pt->problem;
    switch (i) {
    case 0: pt->device.name[0] = 'X'; break;
    case 1: pt->device.vendor[0] = 'X'; break;
    case 2: pt->device.platform[0] = 'X'; break;
    case 3: pt->device.driver[0] = '9'; break;
    case 4: pt->kernel[0] = 'X'; break;
    case 5: pt->family[0] = 'X'; break;
    case 6: pt->preset[0] = 'X'; break;
    case 7: gb_params_set(&pt->params, "BB", 16); break;
    case 8: pt->source_hash[7] = 'f'; break;
    case 9: p->precision = GB_PREC_D; break;
    case 10: p->layout = GB_COL_MAJOR; break;
    case 11: p->trans_a = GB_TRANS; break;
    case 12: p->trans_b = GB_TRANS; break;
    case 13: p->m++; break;
    case 14: p->n++; break;
    case 15: p->k++; break;
    case 16: p->alpha = 2.5; break;
    case 17: p->beta = 0.25; break;
    case 18: p->lda++; break;
    case 19: p->ldb++; break;
    case 20: p->ldc++; break;
    case 21: p->off_a++; break;
    case 22: p->off_b++; break;
    case 23: p->off_c++; break;
    case 24: pt->seed++; break;
    case 25: pt->dist.hi = 2.0; break;
    case 26: pt->warmup++; break;
    case 27: pt->iterations++; break;
    case 28: pt->timing = GB_TIMING_KERNEL; break;
    case 29: pt->rep++; break;
    case 30: pt->host_mem = GB_HOST_PINNED; break;
    case 31: pt->cold = 1; break;
    case 32: pt->min_time_s = 0.5; break;
    case 33: pt->max_rel_ci = 0.02; break;
    case 34: pt->pipeline = 4; break;
    case 35: p->alpha_im = 0.5; break;
    case 36: p->beta_im = -1.0; break;
    case 37: p->conj_a = 1; break;
    case 38: p->conj_b = 1; break;
    default: break;
    }
}

static void test_fields(void)
{
    gb_point_t base;
    make_point(&base);
    size_t def_cols = 0;
    for (size_t c = 0; c < gb_store__ncols; c++)
        def_cols += (gb_store__cols[c].flags & GB_COLF_DEF) != 0;
    /* One field of the list per definition column: a column added to the definition needs a
     * case here. */
    if (!CHECK(def_cols == NFIELDS))
        printf("    %zu definition columns, %zu fields listed\n", def_cols, NFIELDS);
    for (size_t i = 0; i < NFIELDS; i++) {
        gb_point_t pt = base;
        change_field(&pt, i);
        CHECK_RC(gb_point_compute_id(&pt), GB_OK);
        if (!CHECK(strcmp(pt.id, base.id) != 0))
            printf("    changing %s kept the id %s\n", fields[i], base.id);
    }
}

/* A value of column c other than pt's, set through the column's own accessors: 1 where one was
 * found. */
static int change_column(gb_point_t *pt, const gb_store__col_t *c)
{
    char before[2048], after[2048], msg[256];
    snprintf(before, sizeof before, "%s", gb_store__text(pt, c, after, sizeof after));
    switch (gb_store__class(c)) {
    case GB_CLASS_INT: {
        const int64_t v = gb_store__get_int(pt, c);
        if (gb_store__set_int(pt, c, c->kind == GB_COL_BOOL ? !v : v + 1, msg, sizeof msg) != GB_OK)
            return 0;
        break;
    }
    case GB_CLASS_DBL: {
        const double v = gb_store__get_dbl(pt, c);
        gb_store__set_dbl(pt, c, isnan(v) ? 1.5 : v + 1.5);
        break;
    }
    default: {
        /* The first of these that the column takes and that differs from its value. */
        static const char *const texts[] = {
            "changed", "d",         "s",     "col",          "row",      "T",
            "N",       "kernel",    "ops",   "on",           "off",      "int:3",
            "normal",  "{\"Q\":1}", "{}",    "pinned",       "pageable", "pass",
            "fail",    "exact",     "bound", "{\"E\":\"x\"}"};
        for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
            gb_point_t trial = *pt;
            trial.env_json = NULL; /* set_text replaces it: the base's must stay the base's */
            if (gb_store__set_text(&trial, c, texts[t], msg, sizeof msg) == GB_OK &&
                strcmp(gb_store__text(&trial, c, after, sizeof after), before) != 0) {
                *pt = trial;
                return 1;
            }
            free(trial.env_json);
        }
        return 0;
    }
    }
    return strcmp(gb_store__text(pt, c, after, sizeof after), before) != 0;
}

static void test_columns(void)
{
    gb_point_t base;
    make_point(&base);
    for (size_t i = 0; i < gb_store__ncols; i++) {
        const gb_store__col_t *c = &gb_store__cols[i];
        gb_point_t pt = base;
        pt.env_json = NULL;
        if (!CHECK(change_column(&pt, c))) {
            printf("    column %s: no other value could be set\n", c->name);
            continue;
        }
        CHECK_RC(gb_point_compute_id(&pt), GB_OK);
        const int def = (c->flags & GB_COLF_DEF) != 0, changed = strcmp(pt.id, base.id) != 0;
        if (!CHECK(changed == def))
            printf("    column %s (%s the definition): changing it %s the id\n", c->name,
                   def ? "in" : "not in", changed ? "changed" : "kept");
        free(pt.env_json);
    }
}

int main(void)
{
    test_fields();
    test_columns();
    return unit_finish();
}
