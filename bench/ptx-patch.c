/* ptx-patch.c: adds a PTX directive to a kernel in gemmbench's program cache, so that the next
 * run loads the changed PTX through NVIDIA's OpenCL (clCreateProgramWithBinary) and validates and
 * times it as any other point: for what OpenCL C cannot say, as `.minnctapersm 3` or `.maxnreg
 * 168` (the register budget for three work-groups an SM; -cl-nv-maxrregcount is ignored for a
 * kernel with reqd_work_group_size, docs/kernel-metadata.md).
 *
 *   cc -O2 -o ptx-patch bench/ptx-patch.c
 *   ptx-patch CACHEDIR ENTRY LINE
 *
 * In every entry (HASH.gbc, the format of src/rt/device/cache.c) whose PTX has ".entry
 * ENTRY(", LINE goes before the body's "{", and the entry's size and checksum are written again.
 * Exit 0 when one was patched. Work on a copy of the cache: the entry no longer holds what its
 * key says was built. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ptx-patch CACHEDIR ENTRY LINE\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d)
        return perror(argv[1]), 2;
    char pat[300];
    snprintf(pat, sizeof pat, ".entry %s(", argv[2]);
    int patched = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t nl = strlen(e->d_name);
        if (nl < 5 || strcmp(e->d_name + nl - 4, ".gbc"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        rewind(f);
        char *buf = malloc((size_t)len + 1);
        if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
            fclose(f);
            free(buf);
            continue;
        }
        fclose(f);
        buf[len] = 0;
        char *nul = memchr(buf, 0, (size_t)len);
        char *key = strstr(buf, "\nfnv1a64: ");
        key = key ? strchr(key + 1, '\n') : NULL;
        if (!nul || !key) {
            free(buf);
            continue;
        }
        key++;
        char *bin = nul + 1;
        size_t binlen = (size_t)(buf + len - bin);
        char *ent = memmem(bin, binlen, pat, strlen(pat));
        char *body = ent ? memmem(ent, (size_t)(buf + len - ent), "\n{", 2) : NULL;
        if (!body) {
            free(buf);
            continue;
        }
        body++;
        size_t ll = strlen(argv[3]);
        size_t nb = binlen + ll + 1;
        char *nbin = malloc(nb);
        size_t pre = (size_t)(body - bin);
        memcpy(nbin, bin, pre);
        memcpy(nbin + pre, argv[3], ll);
        nbin[pre + ll] = '\n';
        memcpy(nbin + pre + ll + 1, body, binlen - pre);
        f = fopen(path, "wb");
        fprintf(f, "gemmbench-program-cache 1\nbytes: %zu\nfnv1a64: %016llx\n", nb,
                (unsigned long long)fnv((unsigned char *)nbin, nb));
        fwrite(key, 1, (size_t)(nul - key) + 1, f);
        fwrite(nbin, 1, nb, f);
        fclose(f);
        printf("patched %s\n", e->d_name);
        patched++;
        free(nbin);
        free(buf);
    }
    closedir(d);
    return patched ? 0 : 1;
}
