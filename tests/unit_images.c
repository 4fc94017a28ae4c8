/* unit_images.c: operands read as images (docs/kernel-metadata.md, "Images"): the args imgA and
 * imgB and requires.images in the metadata parser (src/harness/metadata/family.c), and the check that a
 * device without image support cannot run such a family (src/rt/family/config.c), with the
 * Intel SGEMM sample's block_read family and the sub-group families as the built-in cases. */
#include "unit.h"

#include "rt/family/registry.h"

/* An image family, ' for ": a variant replaces the first occurrence of one piece of it. */
static const char base_family[] =
    "{'family': 'imgfam', 'source': 'imgfam.cl', 'entry': 'k', 'precisions': ['s'],"
    " 'layouts': ['col-NN'], 'args': ['M', 'N', 'K', 'alpha', 'imgA', 'imgB', 'beta', 'C'],"
    " 'global': ['M', 'N']}";

static int parse(const char *from, const char *to, gb_family_t *f, char *msg, size_t msglen)
{
    char buf[2048];
    const char *at = from ? strstr(base_family, from) : NULL;
    if (from && !CHECK(at != NULL))
        return GB_EBADARG;
    if (at)
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - base_family), base_family, to,
                 at + strlen(from));
    else
        snprintf(buf, sizeof buf, "%s", base_family);
    for (char *p = buf; *p; p++)
        if (*p == '\'')
            *p = '"';
    msg[0] = '\0';
    return gb__family_parse(buf, strlen(buf), "imgfam.json", f, msg, msglen);
}

static void test_parse(void)
{
    gb_family_t f;
    char msg[512];
    CHECK_RC(parse(NULL, NULL, &f, msg, sizeof msg), GB_OK);
    CHECK(f.images == 1);
    gb__family_free(&f);

    /* Only imgB: still an image family. */
    CHECK_RC(parse("'imgA'", "'A'", &f, msg, sizeof msg), GB_OK);
    CHECK(f.images == 1);
    gb__family_free(&f);

    /* Plain buffers, with and without requires.images. */
    CHECK_RC(parse("'imgA', 'imgB'", "'A', 'B'", &f, msg, sizeof msg), GB_OK);
    CHECK(f.images == 0);
    gb__family_free(&f);
    CHECK_RC(parse("'imgA', 'imgB', 'beta', 'C']",
                   "'A', 'B', 'beta', 'C'], 'requires': {'images': true}", &f, msg, sizeof msg),
             GB_OK);
    CHECK(f.images == 1);
    gb__family_free(&f);
    CHECK_RC(parse("'imgA', 'imgB', 'beta', 'C']",
                   "'A', 'B', 'beta', 'C'], 'requires': {'images': false}", &f, msg, sizeof msg),
             GB_OK);
    CHECK(f.images == 0);
    gb__family_free(&f);

    /* requires.image2d_from_buffer implies images. */
    CHECK_RC(parse("'global'", "'requires': {'image2d_from_buffer': true}, 'global'", &f, msg,
                   sizeof msg),
             GB_OK);
    CHECK(f.images == 1 && f.images_from_buffer == 1);
    gb__family_free(&f);
    CHECK_RC(parse(NULL, NULL, &f, msg, sizeof msg), GB_OK);
    CHECK(f.images_from_buffer == 0);
    gb__family_free(&f);

    /* Both keys must be booleans. */
    CHECK_RC(parse("'global'", "'requires': {'images': 1}, 'global'", &f, msg, sizeof msg),
             GB_EMETADATA);
    CHECK_HAS(msg, "requires.images");
    CHECK_RC(parse("'global'", "'requires': {'image2d_from_buffer': 'yes'}, 'global'", &f, msg,
                   sizeof msg),
             GB_EMETADATA);
    CHECK_HAS(msg, "requires.image2d_from_buffer");

    /* Images hold 32-bit elements: single precision only. */
    CHECK_RC(parse("['s']", "['s', 'd']", &f, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "'precisions'");
    CHECK_RC(parse("['s']", "['d']", &f, msg, sizeof msg), GB_EMETADATA);

    /* An operand as a buffer and as an image, or an image twice. */
    CHECK_RC(parse("'imgA',", "'imgA', 'A',", &f, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "'args'");
    CHECK_RC(parse("'imgB',", "'imgB', 'imgB',", &f, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "twice");

    /* Names stay case-sensitive: 'imga' is no argument. */
    CHECK_RC(parse("'imgA'", "'imga'", &f, msg, sizeof msg), GB_EMETADATA);
    CHECK_HAS(msg, "imgA imgB");
}

static char ext_none[] = "cl_khr_fp64";
static char ext_intel[] = "cl_khr_fp64 cl_intel_subgroups cl_intel_required_subgroup_size";

static gb_device_info_t fake_device(void)
{
    gb_device_info_t d;
    memset(&d, 0, sizeof d);
    snprintf(d.name, sizeof d.name, "fake");
    d.type_name = "gpu";
    d.max_wg_size = 1024;
    d.max_wi_sizes[0] = d.max_wi_sizes[1] = 1024;
    d.max_wi_sizes[2] = 64;
    d.local_mem = d.local_mem_kernel = 65536;
    d.extensions = ext_intel;
    d.image_support = 1;
    d.image2d_from_buffer = 1;
    d.image2d_max[0] = d.image2d_max[1] = 16384;
    return d;
}

static void test_check(void)
{
    gb_registry_t *reg;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    gb_device_info_t dev = fake_device();
    gb_config_t c;

    /* The block_read family declares its images (args imgA, imgB) made over its buffers. */
    CHECK_RC(gb_config_resolve(reg, "block_read_32x2_1x8", NULL, &c, msg, sizeof msg), GB_OK);
    CHECK(c.family->images == 1 && c.family->images_from_buffer == 1);
    CHECK(c.family->precisions == 1u << GB_PREC_S);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_D, NULL, msg, sizeof msg), GB_EUNSUPPORTED);
    dev.image2d_from_buffer = 0;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_ENOIMAGES);
    CHECK_HAS(msg, "cl_khr_image2d_from_buffer");
    dev.image_support = 0;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_ENOIMAGES);
    CHECK_HAS(msg, "block_read_32x2_1x8");
    CHECK_HAS(msg, "fake");
    /* Without the extension, that is the reason given first. */
    dev.extensions = ext_none;
    CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_ENOEXT);
    CHECK_HAS(msg, "cl_intel_subgroups");

    /* The sub-group families need the extension, not images; the others need neither. */
    static const char *const simd[] = {"L3_SIMD_32x2_1x8", "L3_SIMD_16x2_1x8",
                                       "L3_SIMD_16x2_4x8", "L3_SIMD_8x4_1x8",
                                       "L3_SIMD_8x4_8x8",  "L3_SIMD_8x4_8x8_barrier"};
    for (size_t i = 0; i < sizeof simd / sizeof simd[0]; i++) {
        CHECK_RC(gb_config_resolve(reg, simd[i], NULL, &c, msg, sizeof msg), GB_OK);
        CHECK(c.family->images == 0);
        CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_ENOEXT);
    }
    dev.extensions = ext_intel;
    for (size_t i = 0; i < sizeof simd / sizeof simd[0]; i++) {
        CHECK_RC(gb_config_resolve(reg, simd[i], NULL, &c, msg, sizeof msg), GB_OK);
        CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    }
    static const char *const plain[] = {"intel_naive", "L3_SLM_8x8_8x16", "L3_SLM_8x8_4x16",
                                        "L3_SLM_8x8_16x16"};
    dev.extensions = ext_none;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        CHECK_RC(gb_config_resolve(reg, plain[i], NULL, &c, msg, sizeof msg), GB_OK);
        CHECK_RC(gb_config_check(&c, &dev, GB_PREC_S, NULL, msg, sizeof msg), GB_OK);
    }
    gb_registry_close(reg);
}

/* Every preset name the sample uses, each in the family of its technique. */
static void test_names(void)
{
    static const char *const names[][2] = {
        {"L3_SLM_8x8_8x16", "intel_slm"},
        {"L3_SLM_8x8_4x16", "intel_slm"},
        {"L3_SLM_8x8_16x16", "intel_slm"},
        {"L3_SIMD_32x2_1x8", "intel_simd"},
        {"L3_SIMD_16x2_1x8", "intel_simd"},
        {"L3_SIMD_16x2_4x8", "intel_simd"},
        {"L3_SIMD_8x4_1x8", "intel_simd"},
        {"L3_SIMD_8x4_8x8", "intel_simd"},
        {"L3_SIMD_8x4_8x8_barrier", "intel_simd"},
        {"block_read_32x2_1x8", "intel_block_read"},
        {"block_read_32x2_4x8", "intel_block_read"},
        {"block_read_32x2_8x8", "intel_block_read"},
        {"block_read_16x2_1x8", "intel_block_read"},
        {"block_read_16x2_4x8", "intel_block_read"},
        {"block_read_16x2_8x8", "intel_block_read"},
        {"block_read_16x4_1x8", "intel_block_read"},
        {"block_read_16x4_4x8", "intel_block_read"},
        {"block_read_16x4_8x8", "intel_block_read"},
        {"block_read_32x1_1x8", "intel_block_read"},
        {"block_read_4x1_1x8", "intel_block_read"},
    };
    gb_registry_t *reg;
    char msg[512];
    if (!CHECK_RC(gb_registry_open(&reg, NULL, msg, sizeof msg), GB_OK))
        return;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const gb_family_t *f = NULL;
        const gb_preset_t *p = NULL;
        if (CHECK_RC(gb_registry_find(reg, names[i][0], &f, &p), GB_OK) && CHECK(p != NULL)) {
            CHECK(!strcmp(p->name, names[i][0]));
            CHECK(!strcmp(f->name, names[i][1]));
        }
    }
    const gb_family_t *f = NULL;
    const gb_preset_t *p = NULL;
    CHECK_RC(gb_registry_find(reg, "intel_naive", &f, &p), GB_OK);
    CHECK(p == NULL);
    /* The existing family 'naive' is still the one that name finds. */
    CHECK_RC(gb_registry_find(reg, "naive", &f, &p), GB_OK);
    CHECK(f && !strcmp(f->name, "naive") && p == NULL);
    gb_registry_close(reg);
}

int main(void)
{
    test_parse();
    test_check();
    test_names();
    return unit_finish();
}
