/* unit_util.c: the shared helpers (src/rt/util): SHA-256 against FIPS 180-2's vectors, whole and
 * in parts; FNV-1a 64; growth; whole-file reads at and over their limit. */
#include "rt/util/util.h"
#include "unit.h"

static void sha_parts(const char *data, size_t len, size_t step, char hex[65])
{
    gb_sha256_t s;
    gb__sha256_init(&s);
    for (size_t i = 0; i < len; i += step)
        gb__sha256_update(&s, data + i, len - i < step ? len - i : step);
    gb__sha256_hex_final(&s, hex);
}

static void test_sha256(void)
{
    char hex[65], parts[65];
    gb__sha256_hex("", 0, hex);
    CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    gb__sha256_hex("abc", 3, hex);
    CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    gb__sha256_hex(m, strlen(m), hex);
    CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    /* Around the padding's block boundary (55, 56, 64 bytes) and over several blocks. */
    static const struct {
        size_t n;
        const char *hex;
    } as_vec[] = {{55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
                  {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
                  {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
                  {1000, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"}};
    char as[1000];
    memset(as, 'a', sizeof as);
    for (size_t v = 0; v < sizeof as_vec / sizeof as_vec[0]; v++) {
        gb__sha256_hex(as, as_vec[v].n, hex);
        CHECK(!strcmp(hex, as_vec[v].hex));
        /* The same bytes fed in pieces that straddle blocks give the same digest. */
        for (size_t step = 1; step <= 65; step += 7) {
            sha_parts(as, as_vec[v].n, step, parts);
            CHECK(!strcmp(parts, as_vec[v].hex));
        }
    }
}

static void test_fnv(void)
{
    CHECK(gb__fnv1a64("", 0, GB_FNV_BASIS) == 0xcbf29ce484222325ull);
    CHECK(gb__fnv1a64("a", 1, GB_FNV_BASIS) == 0xaf63dc4c8601ec8cull);
    CHECK(gb__fnv1a64("foobar", 6, GB_FNV_BASIS) == 0x85944171f73967e8ull);
    /* Continued: "foo" then "bar" is "foobar". */
    CHECK(gb__fnv1a64("bar", 3, gb__fnv1a64("foo", 3, GB_FNV_BASIS)) == 0x85944171f73967e8ull);
}

static void test_grow(void)
{
    int *v = NULL;
    size_t cap = 0;
    CHECK_RC(gb__grow(&v, &cap, 1, sizeof *v), GB_OK);
    CHECK(v != NULL && cap >= 1);
    for (int i = 0; i < 1000; i++) {
        if (!CHECK_RC(gb__grow(&v, &cap, (size_t)i + 1, sizeof *v), GB_OK))
            break;
        v[i] = i;
    }
    CHECK(cap >= 1000 && v[999] == 999 && v[500] == 500);
    size_t before = cap;
    CHECK_RC(gb__grow(&v, &cap, SIZE_MAX / 2, sizeof *v), GB_ENOMEM);
    CHECK(cap == before && v[999] == 999);
    free(v);
}

static void test_read(void)
{
    char path[] = "/tmp/gb_unit_util_XXXXXX";
    int fd = mkstemp(path);
    if (!CHECK(fd >= 0))
        return;
    char data[10000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)('a' + i % 26);
    CHECK(write(fd, data, sizeof data) == (ssize_t)sizeof data);
    close(fd);
    char *buf;
    size_t len;
    CHECK_RC(gb__read_file(path, sizeof data, &buf, &len), GB_OK);
    CHECK(buf && len == sizeof data && !memcmp(buf, data, len) && buf[len] == '\0');
    free(buf);
    CHECK_RC(gb__read_file(path, sizeof data - 1, &buf, &len), GB_EOVERFLOW);
    CHECK(buf == NULL && len == 0);
    CHECK_RC(gb__read_file(path, 100, &buf, &len), GB_EOVERFLOW);
    remove(path);
    CHECK_RC(gb__read_file(path, 100, &buf, &len), GB_EIO);
    CHECK(buf == NULL);
}

static void test_appendf(void)
{
    char buf[16];
    size_t used = 0;
    CHECK(gb__appendf(buf, sizeof buf, &used, "%s=%d", "AB", 12) && used == 5);
    CHECK(!strcmp(buf, "AB=12"));
    /* Cut at the end, NUL-terminated, and every later append a no-op that says so. */
    CHECK(!gb__appendf(buf, sizeof buf, &used, " %s", "a long name that does not fit"));
    CHECK(used == sizeof buf - 1 && strlen(buf) == sizeof buf - 1 &&
          !strncmp(buf, "AB=12 a long", 12));
    CHECK(!gb__appendf(buf, sizeof buf, &used, "x") && used == sizeof buf - 1);
    CHECK(buf[sizeof buf - 1] == '\0');
}

static void test_append(void)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    CHECK_RC(gb__append(&s, &len, &cap, "ab", 2), GB_OK);
    CHECK(s && len == 2 && !strcmp(s, "ab"));
    for (int i = 0; i < 5000; i++)
        if (!CHECK_RC(gb__append(&s, &len, &cap, "xyz", (size_t)(i % 4)), GB_OK))
            break;
    CHECK(len == 2 + 1250 * 6 && strlen(s) == len && cap > len);
    CHECK_RC(gb__append(&s, &len, &cap, "q", SIZE_MAX), GB_ENOMEM);
    CHECK(len == 2 + 1250 * 6 && s[len] == '\0');
    free(s);
}

/* gb__ptx_raise: the .target line's architecture replaced (what follows it kept), "//@" lines
 * made instructions in place (columns kept), other comments and text untouched; a text with no
 * .target line, or two, refused. */
static void test_ptx_raise(void)
{
    static const char in[] = "//\n.version 9.0\n.target sm_90, texmode_independent\n"
                             "\t// begin inline asm\n\t//@wgmma.fence.sync.aligned;\n"
                             "\t// end inline asm\n  //@{ .reg .pred p; }\n\tbar.sync 0; //@x\n"
                             "//@last";
    static const char want[] = "//\n.version 9.0\n.target sm_90a, texmode_independent\n"
                               "\t// begin inline asm\n\t   wgmma.fence.sync.aligned;\n"
                               "\t// end inline asm\n     { .reg .pred p; }\n\tbar.sync 0; //@x\n"
                               "   last";
    char *out = NULL, msg[256];
    size_t len = 0, raised = 0;
    if (CHECK_RC(gb__ptx_raise(in, strlen(in), "sm_90a", 0, &out, &len, &raised, msg, sizeof msg),
                 GB_OK)) {
        CHECK(len == strlen(want) && !strcmp(out, want));
        CHECK(raised == 3);
    }
    free(out);
    static const char plain[] = ".target sm_80\n";
    if (CHECK_RC(
            gb__ptx_raise(plain, strlen(plain), "sm_90a", 0, &out, &len, &raised, msg, sizeof msg),
            GB_OK))
        CHECK(!strcmp(out, ".target sm_90a\n") && raised == 0);
    free(out);
    static const char none[] = "//@wgmma.fence.sync.aligned;\n",
                      two[] = ".target sm_90\n.target sm_90\n";
    out = NULL;
    CHECK_RC(gb__ptx_raise(none, strlen(none), "sm_90a", 0, &out, &len, &raised, msg, sizeof msg),
             GB_EBUILD);
    CHECK(out == NULL && strstr(msg, "not PTX"));
    CHECK_RC(gb__ptx_raise(two, strlen(two), "sm_90a", 0, &out, &len, &raised, msg, sizeof msg),
             GB_EBUILD);
    CHECK(out == NULL && strstr(msg, "two .target"));
    /* With a number of work-groups an SM: each kernel's .reqntid (or .maxntid) line followed by
     * .minnctapersm, the target kept where none is given; a text where no kernel states its
     * work-group size refused. */
    static const char kern[] =
        ".target sm_90\n.entry k(\n\t.param .u32 a\n)\n.reqntid 128, 1, 1\n{\n"
        "\tret;\n}\n.entry r(\n)\n\t.maxntid 32, 1, 1\n{\n\tret;\n}";
    static const char kwant[] =
        ".target sm_90\n.entry k(\n\t.param .u32 a\n)\n.reqntid 128, 1, 1\n.minnctapersm 3\n{\n"
        "\tret;\n}\n.entry r(\n)\n\t.maxntid 32, 1, 1\n.minnctapersm 3\n{\n\tret;\n}";
    if (CHECK_RC(gb__ptx_raise(kern, strlen(kern), "", 3, &out, &len, &raised, msg, sizeof msg),
                 GB_OK))
        CHECK(len == strlen(kwant) && !strcmp(out, kwant));
    free(out);
    out = NULL;
    CHECK_RC(gb__ptx_raise(plain, strlen(plain), "sm_90a", 2, &out, &len, &raised, msg, sizeof msg),
             GB_EBUILD);
    CHECK(out == NULL && strstr(msg, ".reqntid"));
}

/* gb__binary_options: of a build's options, only NVIDIA's back-end words (with a value that
 * follows one that has no '='); out ends before a word that does not fit. */
static void test_binary_options(void)
{
    char out[64];
    gb__binary_options(" -DTM=64 -cl-mad-enable -DGB_NVIDIA=1 -cl-nv-maxrregcount=128", out,
                       sizeof out);
    CHECK(!strcmp(out, "-cl-nv-maxrregcount=128"));
    gb__binary_options("-cl-nv-opt-level 3 -DX=1 -cl-nv-verbose", out, sizeof out);
    CHECK(!strcmp(out, "-cl-nv-opt-level 3 -cl-nv-verbose"));
    gb__binary_options("-DTM=64 -cl-fast-relaxed-math 3", out, sizeof out);
    CHECK(!strcmp(out, ""));
    gb__binary_options("", out, sizeof out);
    CHECK(!strcmp(out, ""));
    gb__binary_options("-cl-nv-verbose -cl-nv-maxrregcount=128", out, 12);
    CHECK(!strcmp(out, ""));
    gb__binary_options("-cl-nv-verbose -cl-nv-maxrregcount=128", out, 16);
    CHECK(!strcmp(out, "-cl-nv-verbose"));
    gb__binary_options("-cl-nv-opt-level 3", out, 8);
    CHECK(!strcmp(out, ""));
}

int main(void)
{
    test_ptx_raise();
    test_binary_options();
    test_sha256();
    test_fnv();
    test_grow();
    test_read();
    test_appendf();
    test_append();
    return unit_finish();
}
