/* fuzz_import.c: importing a JSON export (src/tool/store/exchange.c) into a store in memory: any
 * bytes are refused with a message (nothing written) or imported, and what was imported exports
 * again and passes the store's own check (ids against definitions, statistics and samples).
 * The two steps of gb_store_import_json are called apart (parse, then commit into a fresh store)
 * so that inputs the parser refuses, most of them, need no new store; those go through
 * gb_store_import_json too, into one store kept for the process, which must stay empty. */
#include <string.h>

#include "tool/store/store.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static gb_store_t *refuser; /* never closed: reachable until exit */
    const char *text = (const char *)data;
    char msg[1024] = "";
    size_t added = 0, present = 0, count = 0;
    gb_store_import_t *im = NULL;
    int rc = gb_store_import_parse(text, size, "fuzz.json", &im, msg, sizeof msg);
    fuzz_assert(rc <= GB_OK && strcmp(gb_errname(rc), "GB_E?") != 0);
    if (rc != GB_OK) {
        fuzz_assert(im == NULL && msg[0] != '\0');
        if (!refuser)
            fuzz_assert(gb_store_open(&refuser, ":memory:", GB_STORE_CREATE, msg, sizeof msg) ==
                        GB_OK);
        int again = gb_store_import_json(refuser, text, size, "fuzz.json", &added, &present);
        fuzz_assert(again == rc && gb_store_errmsg(refuser)[0] != '\0');
        fuzz_assert(gb_store_count(refuser, &count) == GB_OK && count == 0);
        return 0;
    }
    gb_store_t *st = NULL;
    fuzz_assert(gb_store_open(&st, ":memory:", GB_STORE_CREATE, msg, sizeof msg) == GB_OK);
    fuzz_assert(gb_store_import_commit(st, im, &added, &present) == GB_OK);
    fuzz_assert(added + present == gb_store_import_count(im));
    fuzz_assert(gb_store_count(st, &count) == GB_OK && count == added);
    size_t checked = 0, bad = 0, exported = 0;
    fuzz_assert(gb_store_check(st, &checked, &bad) == GB_OK && checked == added && bad == 0);
    FILE *sink = fopen("/dev/null", "wb");
    if (sink) {
        fuzz_assert(gb_store_export_json(st, sink, &exported) == GB_OK && exported == added);
        fuzz_assert(gb_store_export_csv(st, sink, &exported) == GB_OK && exported == added);
        fclose(sink);
    }
    gb_store_import_free(im);
    gb_store_close(st);
    return 0;
}
