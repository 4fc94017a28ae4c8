/* cache.c: the persistent program binary cache. A built program's binary is kept on disk, keyed
 * by device, platform version, driver version, build options and the source, so a second
 * process building the same kernel only loads it. The directory is $GEMMBENCH_CACHE_DIR, else
 * $XDG_CACHE_HOME/gemmbench, else ~/.cache/gemmbench; GEMMBENCH_NO_CACHE=1 turns it off.
 *
 * Each entry is one file, HASH.gbc (HASH: FNV-1a 64 of the key text):
 *   gemmbench-program-cache 1\n
 *   bytes: N\n              the binary's size
 *   fnv1a64: HHHH...\n      FNV-1a 64 of the binary, 16 hex digits
 *   the key's full text (device, platform, driver, options, program, source hash), then a NUL,
 *   then the N bytes of the binary.
 * It is written to a temporary file in the same folder and renamed into place, so a reader never
 * sees half of one (a process killed while writing leaves only HASH.gbc.PID.N.tmp, never read, and
 * removed by `gemmbench cache clear`). Before a binary reaches the OpenCL driver (which may
 * overflow a buffer or abort on a damaged one), the entry's header, key, size and checksum are
 * verified; an entry that fails is removed, the program rebuilt and stored again, and a warning
 * goes to the handler set with gb_set_warning_handler (so does a folder in an entry's place,
 * removed where it is empty, else named at every use). A program missing from the cache is built
 * under its entry's lock (HASH.lck, flock): whoever wants it meanwhile, in this process or
 * another, waits, then loads what was stored. Entries of the earlier format (KEY.bin
 * with KEY.key, no checksum) are never read. gb__program_get looks first among the programs the
 * context keeps built (programs.c), under the same key text. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"

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

/* A whole cache file (NULL when missing, unreadable or over 1 GiB). */
static char *read_all(const char *path, size_t *len)
{
    char *buf;
    return gb__read_file(path, 1u << 30, &buf, len) == GB_OK ? buf : NULL;
}

#define ENTRY_MAGIC "gemmbench-program-cache 1\n"

/* Splits an entry's text: 1 with its key text (NUL-terminated, inside data) and binary when the
 * header is whole and the binary has the size and checksum it records; else 0 and why. */
static int entry_parse(const char *data, size_t len, const char **key, const unsigned char **bin,
                       size_t *binlen, char *why, size_t whylen)
{
    const size_t mlen = strlen(ENTRY_MAGIC);
    const char *nul = memchr(data, '\0', len);
    unsigned long long bytes = 0, sum = 0;
    int used = 0;
    if (len < mlen || memcmp(data, ENTRY_MAGIC, mlen) != 0 || !nul) {
        snprintf(why, whylen, "no entry header");
        return 0;
    }
    /* The header ends at the NUL, so the scan cannot run into the binary. */
    if (sscanf(data + mlen, "bytes: %llu\nfnv1a64: %16llx\n%n", &bytes, &sum, &used) != 2 ||
        used == 0) {
        snprintf(why, whylen, "damaged header");
        return 0;
    }
    *key = data + mlen + used;
    *bin = (const unsigned char *)nul + 1;
    *binlen = len - (size_t)(nul + 1 - data);
    if (*binlen != bytes) {
        snprintf(why, whylen, "%zu bytes of binary where it records %llu: truncated or extended",
                 *binlen, bytes);
        return 0;
    }
    const uint64_t got = gb__fnv1a64(*bin, *binlen, GB_FNV_BASIS);
    if (got != sum) {
        snprintf(why, whylen, "binary checksum %016llx where it records %016llx: changed",
                 (unsigned long long)got, sum);
        return 0;
    }
    return 1;
}

/* Writes data to path through a temporary file in the same folder and a rename, so readers
 * never see half. */
static void write_atomic(const char *path, const void *head, size_t hlen, const void *data,
                         size_t len)
{
    /* The process and a count: threads of one process building at once write files apart. */
    static _Atomic unsigned long writes;
    char tmp[1300];
    snprintf(tmp, sizeof tmp, "%s.%ld.%lu.tmp", path, (long)getpid(), (unsigned long)++writes);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    int ok = fwrite(head, 1, hlen, f) == hlen && fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0)
        remove(tmp);
}

/* Loads the entry at path for key: 1 with *out built from its binary, under those of options
 * that a binary's build still needs (NVIDIA's register cap); 0 when there is none or it cannot be
 * used, with *damaged set (and why) when a file was there but failed its checks. */
static int load(gb_context_t *ctx, const char *path, const char *key, const char *options,
                cl_program *out, int *damaged, char *why, size_t whylen)
{
    size_t len = 0, binlen = 0;
    const char *stored_key = NULL;
    const unsigned char *bin = NULL;
    *damaged = 0;
    char *data = read_all(path, &len);
    if (!data)
        return 0;
    if (!entry_parse(data, len, &stored_key, &bin, &binlen, why, whylen)) {
        *damaged = 1;
    } else if (strcmp(stored_key, key) != 0) {
        /* A 64-bit hash collision, or another entry's file under this name. */
        snprintf(why, whylen, "it holds another program");
        *damaged = 1;
    }
    if (*damaged) {
        free(data);
        return 0;
    }
    cl_device_id d = (cl_device_id)ctx->dev->cl_device;
    cl_int status, err;
    const unsigned char *bins[1] = {bin};
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &d, &binlen, bins, &status, &err);
    free(data);
    if (err != CL_SUCCESS || status != CL_SUCCESS)
        return 0;
    char kept[256];
    gb__binary_options(options, kept, sizeof kept);
    if (clBuildProgram(prog, 1, &d, kept, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(prog);
        return 0;
    }
    *out = prog;
    return 1;
}

static void store(cl_program prog, const char *path, const char *key)
{
    size_t len = 0;
    unsigned char *bin = gb__program_binary(prog, &len);
    if (!bin)
        return;
    const size_t klen = strlen(key);
    char *head = malloc(klen + 128);
    if (head) {
        const int n = snprintf(head, klen + 128, ENTRY_MAGIC "bytes: %zu\nfnv1a64: %016llx\n%s",
                               len, (unsigned long long)gb__fnv1a64(bin, len, GB_FNV_BASIS), key);
        if (n > 0)
            write_atomic(path, head, (size_t)n + 1, bin, len); /* the NUL after the key too */
    }
    free(head);
    free(bin);
}

/* The entry at path, loaded and built on ctx: 1, or 0 when it is not there (a damaged one is
 * removed, with a warning). */
static int from_disk(gb_context_t *ctx, const char *path, const char *key, const char *name,
                     const char *options, cl_program *out)
{
    int damaged = 0;
    char why[160];
    /* Something other than a file under the entry's name (a folder) would be read as nothing and
     * block every store: removed if it can be (an empty folder), else said at every use. */
    static _Thread_local char said[1200]; /* the last one named: once, not at each look */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (remove(path) == 0)
            gb__warn("program cache entry %s of '%s' was not a file (a folder?): removed, and "
                     "the program is built again and stored",
                     path, name);
        else if (strcmp(said, path) != 0)
            gb__warn("program cache entry %s of '%s' is not a file (a folder?) and cannot be "
                     "removed (%s): the program is built at every use until it is removed",
                     path, name, strerror(errno));
        snprintf(said, sizeof said, "%s", path);
        return 0;
    }
    const int hit = load(ctx, path, key, options, out, &damaged, why, sizeof why);
    if (damaged) {
        remove(path);
        gb__warn("program cache entry %s of '%s' was damaged (%s): removed, and the program is "
                 "built again",
                 path, name, why);
    }
    return hit;
}

/* The entry's lock, its .lck file at lpath held with flock: waits while another process or
 * context builds the same program, so that a program is built once where several build it at
 * once (the tuner's build processes of two devices, or of two MPI ranks, ask for the same
 * candidates). The descriptor, or -1 (no lock: build anyway). */
static int lock_entry(const char *lpath)
{
    const int fd = open(lpath, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    int rc;
    while ((rc = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
        ;
    if (rc != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Releases the lock taken by lock_entry (its file removed: the entry is stored, or failed to
 * build, and the next one to want it finds the entry, or builds it anew). Accepts -1. */
static void unlock_entry(int fd, const char *lpath)
{
    if (fd < 0)
        return;
    unlink(lpath);
    close(fd);
}

/* The text compiled (prelude, a #line, the source; caller frees) and the key that names the
 * program in the context's table as well as on disk; NULL when out of memory. */
static char *program_key(const gb_context_t *ctx, const char *name, const char *prelude,
                         const char *source, const char *options, const char *ptx, char *key,
                         size_t keylen)
{
    /* The source as compiled, and its SHA-256, as a point's program identity has it. */
    char *src, sha[65];
    if (gb__program_text(prelude, source, &src, NULL, sha) != GB_OK)
        return NULL;
    const gb_device_info_t *dev = ctx->dev;
    snprintf(
        key, keylen,
        "device: %s\nplatform: %s\ndriver: %s\noptions: %s\nprogram: %s\nsource: sha256:%s\n%s%s%s",
        dev->name, dev->platform_version, dev->driver, options, name, sha, ptx[0] ? "ptx: " : "",
        ptx, ptx[0] ? "\n" : "");
    return src;
}

/* The disk cache's entry and lock files for key, or 0 where there is no cache. */
static int entry_paths(const char *key, char *dir, size_t dirlen, char *path, char *lpath,
                       size_t len)
{
    if (!gb_cache_dir(dir, dirlen))
        return 0;
    const uint64_t h = gb__fnv1a64(key, strlen(key), GB_FNV_BASIS);
    snprintf(path, len, "%s/%016llx.gbc", dir, (unsigned long long)h);
    snprintf(lpath, len, "%s/%016llx.lck", dir, (unsigned long long)h);
    return 1;
}

int gb__program_ready(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                      const char *options, const char *ptx)
{
    char key[2048], dir[1024], path[1200], lpath[1200];
    char *src = program_key(ctx, name, prelude, source, options, ptx, key, sizeof key);
    if (!src)
        return 0;
    free(src);
    return gb__programs_has(&ctx->programs, key) ||
           (entry_paths(key, dir, sizeof dir, path, lpath, sizeof path) && access(path, R_OK) == 0);
}

int gb__program_get(gb_context_t *ctx, const char *name, const char *prelude, const char *source,
                    const char *options, const char *ptx, int keep, cl_program *out, double *ms,
                    int *hit, char *msg, size_t msglen)
{
    *hit = 0;
    *out = NULL;
    char dir[1024], key[2048], path[1200], lpath[1200];
    const double t0 = gb__now_ms();
    char *src = program_key(ctx, name, prelude, source, options, ptx, key, sizeof key);
    if (!src)
        return gb__fail(msg, msglen, GB_ENOMEM, "out of memory");
    const int cached = entry_paths(key, dir, sizeof dir, path, lpath, sizeof path);
    const char *cdir = cached ? dir : NULL;
    int claimed, rc = gb__programs_take(&ctx->programs, key, keep, out, &claimed);
    if (rc != GB_OK || *out) {
        free(src);
        *ms = gb__now_ms() - t0;
        *hit = rc == GB_OK;
        return rc == GB_OK ? GB_OK : gb__fail(msg, msglen, rc, "out of memory");
    }
    int lock = -1, writable = 0;
    if (cdir) {
        *hit = from_disk(ctx, path, key, name, options, out);
        /* Not there: build it under the entry's lock, unless whoever held the lock built it. */
        writable = !*hit && gb__mkdir_p(cdir) == 0;
        if (writable && (lock = lock_entry(lpath)) >= 0)
            *hit = from_disk(ctx, path, key, name, options, out);
    }
    if (!*hit) {
        rc = gb__program_build(ctx, name, src, options, ptx, out, ms, msg, msglen);
        if (rc == GB_OK && writable) {
            store(*out, path, key);
            cl_program again;
            int damaged;
            char why[160];
            if (ctx->reload_built &&
                load(ctx, path, key, options, &again, &damaged, why, sizeof why))
                clReleaseProgram(again);
        }
    }
    unlock_entry(lock, lpath);
    free(src);
    if (claimed)
        gb__programs_settle(&ctx->programs, key, rc == GB_OK ? *out : NULL);
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
        if (n < 5 || strcmp(e->d_name + n - 4, ".gbc"))
            continue;
        char path[1400], why[160];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0, binlen = 0;
        const char *key = NULL;
        const unsigned char *bin = NULL;
        char *data = read_all(path, &len);
        if (data && entry_parse(data, len, &key, &bin, &binlen, why, sizeof why))
            fn(key, (uint64_t)binlen, user);
        else if (data)
            fn("(damaged: removed and rebuilt at its next use)\n", (uint64_t)len, user);
        free(data);
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
        /* .gbc entries, their .tmp and .lck files, and the earlier format's .bin and .key
         * files. */
        if (n < 5 || (strcmp(e->d_name + n - 4, ".gbc") && strcmp(e->d_name + n - 4, ".key") &&
                      strcmp(e->d_name + n - 4, ".bin") && strcmp(e->d_name + n - 4, ".tmp") &&
                      strcmp(e->d_name + n - 4, ".lck")))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (remove(path) == 0 &&
            (!strcmp(e->d_name + n - 4, ".gbc") || !strcmp(e->d_name + n - 4, ".bin")))
            (*removed)++;
    }
    closedir(d);
    return GB_OK;
}
