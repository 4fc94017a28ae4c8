/* cache.c: the persistent program binary cache. A built program's binary is kept on disk, keyed
 * by device, platform version, driver version, build options and the source, so a second
 * process building the same kernel only loads it. The directory is $GEMMBENCH_CACHE_DIR, else
 * $XDG_CACHE_HOME/gemmbench, else ~/.cache/gemmbench; GEMMBENCH_NO_CACHE=1 turns it off. Each
 * entry is KEY.bin plus KEY.key, the key's full text, compared on load so that a hash collision
 * can only cost a rebuild. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"

static uint64_t fnv1a(const char *s, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int mkdir_p(const char *path)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

const char *gb_cache_dir(char *buf, size_t len)
{
    const char *off = getenv("GEMMBENCH_NO_CACHE");
    if (off && *off && strcmp(off, "0") != 0)
        return NULL;
    const char *dir = getenv("GEMMBENCH_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (dir && *dir)
        snprintf(buf, len, "%s", dir);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/gemmbench", xdg);
    else if (home && *home)
        snprintf(buf, len, "%s/.cache/gemmbench", home);
    else
        return NULL;
    return buf;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long n = ftell(f);
        if (n >= 0 && n < (1L << 30) && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1))) {
            *len = fread(buf, 1, (size_t)n, f);
            buf[*len] = '\0';
            if (*len != (size_t)n) {
                free(buf);
                buf = NULL;
            }
        }
    }
    fclose(f);
    return buf;
}

/* Writes data to path through a temporary file and a rename, so readers never see half. */
static void write_atomic(const char *path, const void *data, size_t len)
{
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0)
        remove(tmp);
}

static int load(gb_context_t *ctx, const char *bin_path, cl_program *out)
{
    size_t len = 0;
    unsigned char *bin = (unsigned char *)read_all(bin_path, &len);
    if (!bin)
        return 0;
    cl_device_id d = (cl_device_id)ctx->dev->cl_device;
    cl_int status, err;
    const unsigned char *bins[1] = {bin};
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &d, &len, bins, &status, &err);
    free(bin);
    if (err != CL_SUCCESS || status != CL_SUCCESS)
        return 0;
    if (clBuildProgram(prog, 1, &d, "", NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(prog);
        return 0;
    }
    *out = prog;
    return 1;
}

static void store(gb_context_t *ctx, cl_program prog, const char *bin_path, const char *key_path,
                  const char *key)
{
    size_t len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        len == 0)
        return;
    unsigned char *bin = malloc(len);
    unsigned char *bins[1] = {bin};
    (void)ctx;
    if (bin && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS) {
        write_atomic(bin_path, bin, len);
        write_atomic(key_path, key, strlen(key));
    }
    free(bin);
}

int gb__program_get(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                    const char *options, cl_program *out, double *ms, int *hit)
{
    *hit = 0;
    const size_t plen = prelude ? strlen(prelude) : 0, slen = strlen(source);
    char *src = malloc(plen + slen + 16);
    if (!src)
        return gb__ctx_fail(ctx, GB_ENOMEM, "out of memory");
    memcpy(src, prelude ? prelude : "", plen);
    /* Keeps the family's own line numbers in build logs. */
    memcpy(src + plen, "\n#line 1\n", 9);
    memcpy(src + plen + 9, source, slen + 1);
    const size_t total = plen + 9 + slen;
    const gb_device_info_t *dev = ctx->dev;
    char dir[1024], key[2048], bin_path[1200], key_path[1200];
    const char *cdir = gb_cache_dir(dir, sizeof dir);
    int rc;
    const double t0 = gb__now_ms();
    if (cdir) {
        snprintf(key, sizeof key,
                 "device: %s\nplatform: %s\ndriver: %s\noptions: %s\nprogram: %s\nsource: "
                 "%016llx%016llx\n",
                 dev->name, dev->platform_version, dev->driver, options, name,
                 (unsigned long long)fnv1a(src, total, 0xcbf29ce484222325ull),
                 (unsigned long long)fnv1a(src, total, 0x84222325cbf29ce4ull));
        const uint64_t h = fnv1a(key, strlen(key), 0xcbf29ce484222325ull);
        snprintf(bin_path, sizeof bin_path, "%s/%016llx.bin", cdir, (unsigned long long)h);
        snprintf(key_path, sizeof key_path, "%s/%016llx.key", cdir, (unsigned long long)h);
        size_t klen = 0;
        char *stored_key = read_all(key_path, &klen);
        int same = stored_key && !strcmp(stored_key, key);
        free(stored_key);
        if (same && load(ctx, bin_path, out)) {
            *ms = gb__now_ms() - t0;
            *hit = 1;
            free(src);
            return GB_OK;
        }
    }
    rc = gb__program_build(ctx, name, src, options, out, ms);
    free(src);
    if (rc == GB_OK && cdir && mkdir_p(cdir) == 0)
        store(ctx, *out, bin_path, key_path, key);
    *ms = gb__now_ms() - t0;
    return rc;
}

int gb_cache_list(void (*fn)(const char *key_text, uint64_t bytes, void *user), void *user)
{
    char dir[1024];
    if (!gb_cache_dir(dir, sizeof dir))
        return GB_OK;
    DIR *d = opendir(dir);
    if (!d)
        return GB_OK; /* nothing cached yet */
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".key"))
            continue;
        char path[1400], bin[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(bin, sizeof bin, "%s/%.*s.bin", dir, (int)(n - 4), e->d_name);
        size_t len = 0;
        char *key = read_all(path, &len);
        struct stat st;
        uint64_t bytes = stat(bin, &st) == 0 ? (uint64_t)st.st_size : 0;
        if (key)
            fn(key, bytes, user);
        free(key);
    }
    closedir(d);
    return GB_OK;
}

int gb_cache_clear(size_t *removed)
{
    char dir[1024];
    *removed = 0;
    if (!gb_cache_dir(dir, sizeof dir))
        return GB_OK;
    DIR *d = opendir(dir);
    if (!d)
        return GB_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || (strcmp(e->d_name + n - 4, ".key") && strcmp(e->d_name + n - 4, ".bin") &&
                      strcmp(e->d_name + n - 4, ".tmp")))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (remove(path) == 0 && !strcmp(e->d_name + n - 4, ".bin"))
            (*removed)++;
    }
    closedir(d);
    return GB_OK;
}
