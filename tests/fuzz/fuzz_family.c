/* fuzz_family.c: kernel family metadata (gb__family_parse, src/harness/metadata/family.c), as a
 * --kernel-path folder's JSON file reaches it: any bytes parse to GB_OK or GB_EMETADATA with a
 * message, and a family that parses has the fields the loader relies on. */
#include <string.h>

#include "rt/family/registry.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gb_family_t f;
    char msg[512] = "";
    int rc = gb__family_parse((const char *)data, size, "fuzz.json", &f, msg, sizeof msg);
    fuzz_assert(rc == GB_OK || rc == GB_EMETADATA);
    if (rc != GB_OK) {
        fuzz_assert(msg[0] != '\0' && f.name == NULL);
        return 0;
    }
    fuzz_assert(f.name && f.source_file && f.entry && f.global[0] && f.global[1]);
    fuzz_assert(strlen(f.name) < GB_NAME_MAX);
    for (size_t i = 0; i < f.nparams; i++) {
        const gb_param_t *p = &f.params[i];
        fuzz_assert(p->name && (p->values ? p->nvalues > 0 : p->lo <= p->hi));
    }
    for (size_t i = 0; i < f.npresets; i++)
        fuzz_assert(f.presets[i].name && (f.presets[i].nset == 0 || f.presets[i].set_names));
    gb__family_free(&f);
    return 0;
}
