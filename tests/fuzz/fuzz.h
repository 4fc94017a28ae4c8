/* fuzz.h: what every fuzz target shares. Each target defines LLVMFuzzerTestOneInput, the entry
 * point libFuzzer calls with one input; built with GB_FUZZ=ON (clang) it runs under libFuzzer
 * (scripts/fuzz.sh), and built normally it is linked with replay.c, which calls it once per file
 * of the target's corpus (tests/fuzz/corpus/<target>/): a ctest test with label unit, so that CI
 * replays every corpus under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * An input is copied into a buffer of exactly its size (no terminating NUL unless the target
 * adds one), so that a read past its end is a sanitizer error, as it would be in a file read
 * whole. A target returns 0; a crash, a sanitizer report or a failed invariant (fuzz_assert,
 * which aborts) is the finding. */
#ifndef GB_FUZZ_H
#define GB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the code under test: abort (the fuzzer's finding) when it does not hold. */
#define fuzz_assert(cond)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);           \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
