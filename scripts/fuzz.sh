#!/bin/sh
# fuzz.sh TARGET|all SECONDS: fuzzes a parser with clang's libFuzzer for SECONDS (each, for
# all), then merges into its checked-in corpus (tests/fuzz/corpus/TARGET/) the new inputs that
# reach code the corpus did not, so that the tests replay them from then on. Targets: family
# (kernel metadata), plan (explore plan files), import (JSON exports), expr (the expression
# language of kernel metadata), tuned (files of tuned entries), shapes (shapes files, --shapes),
# tuning_file (the runtime's tuning file, STORE.tuned). Builds into build-fuzz/ with CC=clang
# and GB_FUZZ=ON (needs Debian's clang); a crash is saved as
# build-fuzz/crash/TARGET-crash-<sha1> and ends the run with libFuzzer's report: fix it at its
# root, then copy the input into the corpus.
# Environment: FUZZ_JOBS (default 1) parallel fuzzing processes per target. The log of the last
# run of a target is build-fuzz/TARGET.log.
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: scripts/fuzz.sh family|plan|import|expr|tuned|shapes|tuning_file|all SECONDS" >&2; exit 2; }
target=$1
seconds=$2
case $target in
all) targets="family plan import expr tuned shapes tuning_file" ;;
family | plan | import | expr | tuned | shapes | tuning_file) targets=$target ;;
*) echo "fuzz.sh: unknown target '$target'; use family, plan, import, expr, tuned, shapes, tuning_file or all" >&2; exit 2 ;;
esac
command -v clang >/dev/null || { echo "fuzz.sh: clang is missing (apt-get install clang)" >&2; exit 2; }
CC=clang cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGB_FUZZ=ON >/dev/null
mkdir -p build-fuzz/crash
# The inputs' sizes: metadata files are capped at 1 MiB and expressions at 1024 characters, but
# small inputs find more per second; the corpus's largest decide otherwise.
for t in $targets; do
    cmake --build build-fuzz --target "fuzz_$t"
    case $t in
    expr) max=1100 ;;
    import) max=65536 ;;
    *) max=16384 ;;
    esac
    work=build-fuzz/work-$t
    rm -rf "$work"
    mkdir -p "$work"
    echo "fuzz.sh: $t for $seconds s"
    jobs=""
    [ "${FUZZ_JOBS:-1}" -gt 1 ] && jobs="-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS"
    # Leak detection stays on: the parsers must free what they allocate.
    # shellcheck disable=SC2086
    if ! build-fuzz/tests/fuzz_$t -max_total_time="$seconds" -max_len="$max" -timeout=10 \
        -rss_limit_mb=2048 $jobs -artifact_prefix="build-fuzz/crash/$t-" -print_final_stats=1 \
        "$work" "tests/fuzz/corpus/$t" >"build-fuzz/$t.log" 2>&1; then
        tail -n 60 "build-fuzz/$t.log"
        echo "fuzz.sh: $t found a crash (build-fuzz/crash/, log build-fuzz/$t.log)" >&2
        exit 1
    fi
    grep -E "^(stat::|#[0-9]+ +DONE)" "build-fuzz/$t.log" || tail -n 5 "build-fuzz/$t.log"
    # Only the inputs that add coverage join the checked-in corpus.
    before=$(ls "tests/fuzz/corpus/$t" | wc -l)
    build-fuzz/tests/fuzz_$t -merge=1 "tests/fuzz/corpus/$t" "$work" >/dev/null 2>&1
    after=$(ls "tests/fuzz/corpus/$t" | wc -l)
    echo "fuzz.sh: $t: corpus $before -> $after inputs"
done
