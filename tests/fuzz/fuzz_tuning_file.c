/* fuzz_tuning_file.c: the runtime's tuning file (gb_tuned_file_read, what the library reads at
 * STORE.tuned or $GEMMBENCH_TUNED): any bytes, written to a file, are read without an error (a
 * damaged line is skipped and counted, the first described in the warning with the file and
 * its line), and what is read holds to what an entry must be: each entry passes
 * gb_tuned_entry_check and names a kernel of this build with parameters it allows, one entry
 * per key, each marked "file". Written again by gb_tuned_file_write, the entries read back the
 * same with nothing skipped. An entry held before the read (of a key no line can have) stays. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gemmbench_tuning.h"
#include "fuzz.h"

static gb_registry_t *registry(void)
{
    static gb_registry_t *reg;
    char msg[1024];
    if (!reg)
        fuzz_assert(gb_registry_open(&reg, NULL, msg, sizeof msg) == GB_OK);
    return reg;
}

static int same(const gb_tuned_entry_t *a, const gb_tuned_entry_t *b)
{
    return gb_tuned_same_key(a, b) && !strcmp(a->vendor, b->vendor) && !strcmp(a->type, b->type) &&
           !strcmp(a->family, b->family) && a->m == b->m && a->n == b->n && a->k == b->k &&
           !strcmp(a->kernel, b->kernel) && gb_params_equal(&a->params, &b->params) &&
           a->gflops == b->gflops && !strcmp(a->tuned_at, b->tuned_at);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64], again[80];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/gb-fuzz-tuning-%ld", (long)getpid());
        snprintf(again, sizeof again, "%s.again", path);
    }
    FILE *f = fopen(path, "wb");
    fuzz_assert(f != NULL);
    fuzz_assert(size == 0 || fwrite(data, 1, size, f) == size);
    fclose(f);

    gb_tuned_t t, back;
    gb_tuned_init(&t);
    gb_tuned_init(&back);
    /* One entry held before, of a key no line can have (no layout). */
    gb_tuned_entry_t held;
    memset(&held, 0, sizeof held);
    snprintf(held.device, sizeof held.device, "held before");
    snprintf(held.source, sizeof held.source, "shipped");
    fuzz_assert(gb_tuned_add(&t, &held) == GB_OK);

    size_t read = 0, skipped = 0;
    char warn[1024], msg[1024];
    int rc = gb_tuned_file_read(&t, path, registry(), "file", &read, &skipped, warn, sizeof warn,
                                msg, sizeof msg);
    unlink(path);
    fuzz_assert(rc == GB_OK || rc == GB_ENOMEM);
    if (rc != GB_OK) {
        gb_tuned_free(&t);
        return 0;
    }
    size_t lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    fuzz_assert(read + skipped <= lines + 1);
    fuzz_assert(!skipped == !warn[0]);
    fuzz_assert(!skipped || !strncmp(warn, path, strlen(path)));
    fuzz_assert(t.n >= 1 && t.n <= read + 1);
    fuzz_assert(!strcmp(t.e[0].device, "held before") && !strcmp(t.e[0].source, "shipped"));
    for (size_t i = 1; i < t.n; i++) {
        fuzz_assert(!strcmp(t.e[i].source, "file"));
        fuzz_assert(gb_tuned_entry_check(&t.e[i], msg, sizeof msg) == GB_OK);
        fuzz_assert(gb_tuned_entry_check_kernel(&t.e[i], registry(), msg, sizeof msg) == GB_OK);
        for (size_t j = 0; j < i && t.n < 64; j++)
            fuzz_assert(!gb_tuned_same_key(&t.e[i], &t.e[j]));
    }
    /* Written and read again: the same entries (the held one is "shipped": not written). */
    gb_tuned_t only = {t.e + 1, t.n - 1, t.n - 1, 0};
    fuzz_assert(gb_tuned_file_write(&only, again, msg, sizeof msg) == GB_OK);
    rc = gb_tuned_file_read(&back, again, registry(), "file", &read, &skipped, warn, sizeof warn,
                            msg, sizeof msg);
    unlink(again);
    fuzz_assert(rc == GB_OK && skipped == 0 && back.n == only.n);
    for (size_t i = 0; i < back.n; i++)
        fuzz_assert(same(&back.e[i], &only.e[i]));
    gb_tuned_free(&back);
    gb_tuned_free(&t);
    return 0;
}
