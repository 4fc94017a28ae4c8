/* fuzz_import.c: importing a JSON export (gb_store_import_json, src/store/exchange.c) into a
 * store in memory: any bytes are refused with a message (nothing written) or imported, and what
 * was imported exports again and passes the store's own check (ids against definitions,
 * statistics and samples). */
#include <string.h>

#include "../../src/store/store.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_store_t *st = NULL;
    char msg[1024];
    int rc = gb_store_open(&st, ":memory:", GB_STORE_CREATE, msg, sizeof msg);
    fuzz_assert(rc == GB_OK);
    size_t added = 0, present = 0, count = 0;
    rc = gb_store_import_json(st, (const char *)data, size, "fuzz.json", &added, &present);
    fuzz_assert(rc <= GB_OK && strcmp(gb_errname(rc), "GB_E?") != 0);
    if (rc != GB_OK) {
        fuzz_assert(gb_store_errmsg(st)[0] != '\0');
        fuzz_assert(gb_store_count(st, &count) == GB_OK && count == 0);
    } else {
        fuzz_assert(gb_store_count(st, &count) == GB_OK && count == added);
        size_t checked = 0, bad = 0, exported = 0;
        fuzz_assert(gb_store_check(st, &checked, &bad) == GB_OK && checked == added && bad == 0);
        FILE *sink = fopen("/dev/null", "wb");
        if (sink) {
            fuzz_assert(gb_store_export_json(st, sink, &exported) == GB_OK && exported == added);
            fuzz_assert(gb_store_export_csv(st, sink, &exported) == GB_OK && exported == added);
            fclose(sink);
        }
    }
    gb_store_close(st);
    return 0;
}
