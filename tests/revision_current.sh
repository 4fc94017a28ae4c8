#!/bin/sh
# revision_current.sh GEMMBENCH SRC BUILD_DIR: the revision the binary names (`gemmbench
# version`, and so every point's git_revision) is the sources' `git describe --always --dirty`
# now, not the one the build folder was configured at. Skipped (77) where SRC is not a git
# checkout. Fails, like meta_current, where the sources changed after the last build.
gb=$1
src=$2
command -v git >/dev/null 2>&1 || { echo "git missing; skipping"; exit 77; }
want=$(git -C "$src" describe --always --dirty 2>/dev/null) || {
    echo "$src is not a git checkout; skipping"
    exit 77
}
got=$("$gb" version)
case "$got" in
*"(revision $want)") echo "revision_current: $got" ;;
*)
    echo "FAIL: the binary says '$got', the sources are at $want;"
    echo "      run: cmake --build $3"
    exit 1
    ;;
esac
