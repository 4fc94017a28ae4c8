#!/bin/sh
# format.sh [--check]: formats the C sources (src/, include/, tests/, bench/, examples/) with
# clang-format and the project's .clang-format; with --check, changes nothing and fails (listing
# the files) where a file is not formatted. The OpenCL kernels (kernels/*.cl) keep their own
# layout, and so does src/gen/gb_meta.c, which src/gen/metagen.c writes.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files 'src/*.c' 'src/*.h' 'include/*.h' 'tests/*.c' 'tests/*.h' 'bench/*.c' \
    'bench/*.h' 'examples/*.c' ':!src/gen/gb_meta.c')
if [ "${1:-}" = --check ]; then
    bad=""
    for f in $files; do
        clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
    done
    if [ -n "$bad" ]; then
        echo "format.sh: not formatted (run scripts/format.sh):$bad" >&2
        exit 1
    fi
    echo "format.sh: every C source is formatted"
else
    # shellcheck disable=SC2086
    clang-format -i $files
fi
