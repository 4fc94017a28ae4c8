/* fuzz_expr.c: the expression language of kernel metadata (gb__expr_eval, src/rt/family/expr.c):
 * any text, with the variables a family's expressions see, evaluates to GB_OK or GB_EMETADATA
 * with a message, never overflowing (long long) or reading past its text. */
#include <string.h>

#include "rt/family/expr.h"
#include "gemmbench.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* What a family's expressions see (src/rt/family/config.c: sizes, ELEM, DOUBLE, ROW, LX, LY,
     * the device's NVIDIA and CUS), every parameter and 'let' name of the built-in families
     * (so that their expressions in the corpus evaluate), and the extremes of long long. */
    static const gb_var_t vars[] = {
        {"M", 1000},
        {"N", 7},
        {"K", 9223372036854775807LL},
        {"ELEM", 4},
        {"DOUBLE", 0},
        {"ROW", 1},
        {"LX", 16},
        {"LY", 4},
        {"NVIDIA", 0},
        {"CUS", 132},
        {"NEG", -9223372036854775807LL - 1},
        {"ZERO", 0},
        {"ACCMEM", 8},
        {"ASYNC", 16},
        {"BARRIER", 4},
        {"BK", 2},
        {"DJ", 64},
        {"DK", 1},
        {"EDGES", 3},
        {"EMU", 32},
        {"EMULATE_BLOCK_READ", 8},
        {"FUSED", 16},
        {"GROUPM", 4},
        {"KB", 2},
        {"KWG", 64},
        {"LANES", 1},
        {"M1", 3},
        {"MAXREG", 32},
        {"MDIMC", 8},
        {"MMAK", 16},
        {"MMAM", 4},
        {"MWG", 2},
        {"N1", 64},
        {"NDIMC", 1},
        {"NWG", 3},
        {"P", 32},
        {"PAD", 8},
        {"PADA", 16},
        {"PADB", 4},
        {"PIPE", 2},
        {"R", 64},
        {"R0", 1},
        {"RK", 3},
        {"RM", 32},
        {"RN", 8},
        {"RX", 16},
        {"RY", 4},
        {"SG", 2},
        {"SLOTS", 64},
        {"STAGES", 1},
        {"STRIPS", 3},
        {"T", 32},
        {"TAIL", 8},
        {"THIN", 16},
        {"THREADSX", 4},
        {"THREADSY", 2},
        {"TM", 64},
        {"TN", 1},
        {"TS", 3},
        {"TSDK", 32},
        {"TSK", 8},
        {"TSM", 16},
        {"TSN", 4},
        {"VW", 2},
        {"VWK", 64},
        {"VWM", 1},
        {"VWN", 3},
        {"WGM", 32},
        {"WGN", 8},
        {"WIDTH", 16},
        {"WM", 4},
        {"WN", 2},
        {"WPT", 64},
        {"WPTM", 1},
        {"WPTN", 3},
    };
    char *text = malloc(size + 1), msg[256] = "";
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    long long v = 0;
    int rc = gb__expr_eval(text, vars, sizeof vars / sizeof vars[0], &v, msg, sizeof msg);
    fuzz_assert(rc == GB_OK || rc == GB_EMETADATA);
    fuzz_assert(rc == GB_OK || msg[0] != '\0');
    free(text);
    return 0;
}
