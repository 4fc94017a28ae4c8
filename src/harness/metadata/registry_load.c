/* registry_load.c: kernel families from their JSON metadata: gb_registry_open gives the
 * built-in families (registry.c) and those a user drops into --kernel-path DIR, which add to or
 * replace built-ins by family name. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rt/core/core.h"
#include "rt/family/registry.h"

#define GB_FILE_MAX (4u << 20) /* bytes of one metadata or source file */

/* Parses metadata, attaches the source (from dir when given, else built in) and adds it. */
static int load_family(gb_registry_t *reg, const char *json, size_t len, const char *origin,
                       const char *dir, char *msg, size_t msglen)
{
    gb_family_t fam;
    int rc = gb__family_parse_at(json, len, origin, dir, &fam, msg, msglen);
    if (rc != GB_OK)
        return rc;
    if (strchr(fam.source_file, '/')) {
        rc = gb__fail(msg, msglen, GB_EMETADATA,
                      "%s: key 'source' must be a file name beside the JSON, not a path", origin);
        goto fail;
    }
    char path[4096];
    size_t slen = 0;
    if (dir) {
        snprintf(path, sizeof path, "%s/%s", dir, fam.source_file);
        rc = gb__read_file(path, GB_FILE_MAX, &fam.source, &slen);
        if (rc == GB_ENOMEM)
            goto fail;
        if (rc == GB_EOVERFLOW) {
            rc = gb__fail(msg, msglen, GB_EIO, "%s is over 4 MiB", path);
            goto fail;
        }
    }
    if (!fam.source) {
        const gb_embedded_file_t *e = gb__embedded(fam.source_file);
        if (!e) {
            rc = gb__fail(msg, msglen, GB_ENOSOURCE,
                          "%s: source file '%s' is missing; put it beside the JSON", origin,
                          fam.source_file);
            goto fail;
        }
        if (!(fam.source = gb__memdup(e->data, e->len))) {
            rc = GB_ENOMEM;
            goto fail;
        }
    }
    if (!(fam.origin = gb__memdup(origin, strlen(origin)))) {
        rc = GB_ENOMEM;
        goto fail;
    }
    /* The digest of the text gb__program_get compiles. */
    gb__program_text(gb__embedded("prelude.cl")->data, fam.source, NULL, NULL, fam.program_digest);
    if ((rc = gb__registry_add(reg, &fam)) == GB_OK)
        return GB_OK;
fail:
    gb__family_free(&fam);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(gb_registry_t *reg, const char *dir, char *msg, size_t msglen)
{
    DIR *d = opendir(dir);
    if (!d)
        return gb__fail(msg, msglen, GB_EIO,
                        "cannot open kernel path '%s'; give an existing directory", dir);
    /* Sorted, so that loading order (and so which duplicate wins) does not depend on readdir. */
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = GB_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) {
                rc = GB_ENOMEM;
                break;
            }
            names = grown;
        }
        if (!(names[n] = gb__memdup(e->d_name, len))) {
            rc = GB_ENOMEM;
            break;
        }
        n++;
    }
    closedir(d);
    if (names)
        qsort(names, n, sizeof *names, cmp_names);
    for (size_t i = 0; rc == GB_OK && i < n; i++) {
        char path[4096], *json = NULL;
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        rc = gb__read_file(path, GB_FILE_MAX, &json, &len);
        if (rc == GB_EIO || rc == GB_EOVERFLOW)
            rc = gb__fail(msg, msglen, GB_EIO, "cannot read '%s' (over 4 MiB or unreadable)", path);
        if (rc == GB_OK)
            rc = load_family(reg, json, len, path, dir, msg, msglen);
        free(json);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return rc;
}

int gb_registry_open(gb_registry_t **out, const char *kernel_path, char *msg, size_t msglen)
{
    *out = NULL;
    gb_registry_t *reg;
    int rc = gb__registry_builtin(&reg);
    if (rc != GB_OK)
        return gb__fail(msg, msglen, rc, "out of memory");
    if (kernel_path && (rc = load_dir(reg, kernel_path, msg, msglen)) != GB_OK) {
        gb_registry_close(reg);
        return rc;
    }
    *out = reg;
    return GB_OK;
}
