#!/bin/sh
# meta_current.sh GENERATED KEPT BUILD_DIR: the generator's output in this build (GENERATED, made
# by src/gen/metagen.c from kernels/) and the copy kept in the sources for the library built
# alone (KEPT, src/gen/gb_meta.c) must be the same file; where they differ the copy is stale, and
# `cmake --build BUILD_DIR --target update-meta` writes it again.
if cmp -s "$1" "$2"; then
    echo "meta_current: $2 is current"
    exit 0
fi
echo "FAIL: $2 is not what src/gen/metagen.c makes of kernels/ today;"
echo "      run: cmake --build $3 --target update-meta"
diff -u "$2" "$1" | head -n 40
exit 1
