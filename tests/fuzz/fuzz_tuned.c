/* fuzz_tuned.c: a file of tuned entries (gb_tuned_from_json, what `gemmbench tuned import` and
 * the shipped defaults read): any bytes are refused with a message naming the origin and a line
 * and nothing added, or accepted whole, each entry passing the store's own check (printable
 * text, the class its shape's) with no two of one key; accepted entries export and read back
 * the same, and a store in memory keeps them. The kernel check `tuned import` makes next
 * (gb_tuned_entry_check_kernel against the built-in kernels) names a line of the document. */
#include <string.h>

#include "tool/store/tuning.h"
#include "tool/tune/tuned.h"
#include "fuzz.h"

static int count_entry(const gb_tuned_entry_t *e, void *user)
{
    (void)e;
    ++*(size_t *)user;
    return GB_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char msg[1024] = "";
    gb_tuned_t t, back;
    gb_tuned_init(&t);
    gb_tuned_init(&back);
    gb_tuned_entry_t first;
    memset(&first, 0, sizeof first);
    int rc = gb_tuned_add(&t, &first); /* already there: a refusal must keep it alone */
    fuzz_assert(rc == GB_OK);
    rc = gb_tuned_from_json(&t, text, size, "fuzz.json", "store", msg, sizeof msg);
    fuzz_assert(rc == GB_OK || rc == GB_EBADARG || rc == GB_ENOMEM);
    if (rc != GB_OK) {
        fuzz_assert(t.n == 1 && !strncmp(msg, "fuzz.json:", 10) && msg[10] >= '1' &&
                    msg[10] <= '9');
        gb_tuned_free(&t);
        return 0;
    }
    static gb_registry_t *reg;
    if (!reg)
        fuzz_assert(gb_registry_open(&reg, NULL, msg, sizeof msg) == GB_OK);
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    for (size_t i = 1; i < t.n; i++) {
        fuzz_assert(gb_tuned_entry_check(&t.e[i], msg, sizeof msg) == GB_OK);
        fuzz_assert(!strcmp(t.e[i].source, "store"));
        rc = gb_tuned_entry_check_kernel(&t.e[i], reg, msg, sizeof msg);
        fuzz_assert(rc == GB_OK || ((rc == GB_ENOKERNEL || rc == GB_EBADPARAM) && msg[0]));
        if (rc != GB_OK) {
            const size_t line = gb_tuned_json_line(text, size, i - 1, "kernel");
            fuzz_assert(line >= 1 && line <= lines);
        }
    }
    /* Through JSON again: the same entries. */
    gb_tuned_t only = {t.e + 1, t.n - 1, t.n - 1, 0};
    char *json = gb_tuned_to_json(&only);
    fuzz_assert(json != NULL);
    fuzz_assert(gb_tuned_from_json(&back, json, strlen(json), "again.json", "store", msg,
                                   sizeof msg) == GB_OK);
    fuzz_assert(back.n == only.n);
    for (size_t i = 0; i < back.n; i++)
        fuzz_assert(!strcmp(back.e[i].device, only.e[i].device) &&
                    !strcmp(back.e[i].kernel, only.e[i].kernel) &&
                    back.e[i].params.count == only.e[i].params.count &&
                    back.e[i].nevidence == only.e[i].nevidence && back.e[i].m == only.e[i].m);
    free(json);
    /* Into a store: one row per entry (their keys differ). */
    gb_store_t *st = NULL;
    size_t n = 0;
    fuzz_assert(gb_store_open(&st, ":memory:", GB_STORE_CREATE, msg, sizeof msg) == GB_OK);
    for (size_t i = 0; i < only.n; i++)
        fuzz_assert(gb_store_tuned_put(st, &only.e[i]) == GB_OK);
    fuzz_assert(gb_store_tuned_foreach(st, count_entry, &n) == GB_OK && n == only.n);
    gb_store_close(st);
    gb_tuned_free(&back);
    gb_tuned_free(&t);
    return 0;
}
