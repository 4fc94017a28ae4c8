#!/bin/sh
# bench/travel.sh WAY...: the shape suite (bench/shapes.sh, -k auto against the peers in the
# same run) with the tuning database set up each way named, on an NVIDIA GPU (bench/notes/
# selection.md). Ways:
#   table     the shipped entries as they are, the table's choice alone (GEMMBENCH_SELECT=off:
#             -k auto as it was before the choice by measurement)
#   family    this device's own shipped entries removed from a second build, so that what it
#             has is its family's (an H200 then has the H100's), measured at each shape's first
#             sight (measure+build)
#   all       every shipped entry, measured at each shape's first sight
# Each way starts with an empty choices file, so every shape is measured anew; the program
# cache is shared. The candidates each measurement timed go to $LOG/select-WAY.tsv
# (GEMMBENCH_SELECT_LOG), each way's suite output to $LOG/shapes-WAY.txt and each run's whole
# output to $LOG/WAY/; with OUT set (the device machine), the summaries are copied there and
# everything else is packed into $OUT/travel.tgz.
#   DEVICE   the device's name whose entries 'family' removes (default: the first GPU's)
#   BUILD    the build folder (default /tmp/gemmbench-build; 'family' builds BUILD-family)
#   LOG      where logs go (default /tmp/travel)
#   TAG      a suffix for the file names, so that several instances can share OUT (one per GPU
#            under CUDA_VISIBLE_DEVICES, with a BUILD and LOG of their own)
#   TGZ      0: no packed copy in OUT (which takes at most 8 files)
#   PRECS, PEERS, ONLY, ITER, WARMUP: as bench/shapes.sh (PEERS default cublas)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gemmbench-build}
log=${LOG:-/tmp/travel}
tag=${TAG:-}
mkdir -p "$log"
[ $# -gt 0 ] || { echo "usage: bench/travel.sh table|family|all ..." >&2; exit 2; }
export PEERS=${PEERS:-cublas}

. "$root/bench/bench_lib.sh"
bench_build "$root" "$build"
device=${DEVICE:-$("$build/gemmbench" devices | awk '
    /^  device [0-9]+: / { name = $0; sub(/^  device [0-9]+: /, "", name) }
    /^    vendor .*, type gpu,/ && name != "" { print name; exit }')}

for way in "$@"; do
    b=$build
    case $way in
    table) sel=off ;;
    all) sel=measure+build ;;
    family)
        sel=measure+build
        b=$build-family
        src=/tmp/gemmbench-src-family$tag
        rm -rf "$src"
        mkdir -p "$src"
        (cd "$root" && tar cf - --exclude=./.git --exclude=./.device --exclude='./build*' .) |
            tar xf - -C "$src"
        for f in "$src"/kernels/tuned/*.json; do
            python3 - "$f" "$device" <<'EOF'
import json, sys
path, device = sys.argv[1], sys.argv[2]
entries = json.load(open(path))
kept = [e for e in entries if e["device"] != device]
json.dump(kept, open(path, "w"), indent="\t")
print(f"{path}: {len(entries) - len(kept)} entries of {device} removed, {len(kept)} kept")
EOF
        done
        bench_build "$src" "$b"
        ;;
    *) echo "bench/travel.sh: unknown way '$way'; use table, family or all" >&2; exit 2 ;;
    esac
    rm -f "$log/select-$way$tag.tsv" "$log/choices-$way"
    echo "== $way: GEMMBENCH_SELECT=$sel, build $b"
    # The summary is written where it comes back even if the command is stopped (OUT).
    sum=${OUT:-$log}/shapes-$way$tag.txt
    GEMMBENCH_SELECT=$sel GEMMBENCH_SELECT_LOG="$log/select-$way$tag.tsv" \
        GEMMBENCH_CHOICES="$log/choices-$way" BUILD=$b LOG="$log/$way" \
        "$root/bench/shapes.sh" >"$sum" 2>&1 || true
    grep -E 'geometric mean|missing|run failed' "$sum" | grep -v '^row: ' || tail -5 "$sum"
    [ -z "${OUT:-}" ] || cp "$log/select-$way$tag.tsv" "$OUT/" 2>/dev/null || true
done
[ -z "${OUT:-}" ] || [ "${TGZ:-1}" = 0 ] ||
    tar czf "$OUT/travel$tag.tgz" -C "$(dirname "$log")" "$(basename "$log")"
