#!/bin/sh
# fault_cache.sh GEMMBENCH: damaged program-cache entries never reach the OpenCL driver. With a
# cache of its own ($GEMMBENCH_CACHE_DIR), the test builds two programs (naive in single and double precision), then
# damages an entry (truncated to half; one byte flipped in the middle of the binary; one byte of
# its header; the two entries' files swapped; emptied; replaced by text) and runs again: the run
# must succeed and validate, warn once on stderr, and the entry be rebuilt (the run after it
# loads it from the cache without a warning). Then runs killed with SIGKILL at several moments
# while building and writing entries: whatever they leave, the next run succeeds and nothing
# half-written is ever loaded. A program that another process is building is waited for, then
# loaded. A folder in an entry's place is removed where it can be, else named at every run.
gb=$1
. "$(dirname "$0")/script_lib.sh"
# The cache of its own: from ctest, a folder in the build tree; else a temporary one. Emptied first.
export GEMMBENCH_CACHE_DIR="${GEMMBENCH_CACHE_DIR:-$tmp/cache}"
unset GEMMBENCH_NO_CACHE
"$gb" cache clear >/dev/null
export GEMMBENCH_ENERGY_MIN_S=0

# run PREC: one validated naive run in precision PREC, JSON on $tmp/out, stderr on $tmp/err.
run() {
    "$gb" run -k naive -M 19 -N 13 -K 7 -i 1 --warmup 0 --precision "$1" --no-store --json \
        >"$tmp/out" 2>"$tmp/err"
}
hit() { grep -Eq '"program_cache_hit":[[:space:]]*true' "$tmp/out"; }
validated() { grep -Eq '"verdict":[[:space:]]*"pass"' "$tmp/out"; }
warned() { grep -q "gemmbench: warning: program cache entry .* was damaged" "$tmp/err"; }
# entry PREC: the naive program's entry in precision PREC.
entry() {
    for f in "$GEMMBENCH_CACHE_DIR"/*.gbc; do
        grep -q "GB_PRECISION=$1 " "$f" && grep -q "^program: naive$" "$f" && echo "$f"
    done
}

run 32 && run 64 || bad "the first runs: $(cat "$tmp/err")"
[ "$(ls "$GEMMBENCH_CACHE_DIR"/*.gbc | wc -l)" -eq 2 ] && ok || bad "expected 2 entries: $(ls "$GEMMBENCH_CACHE_DIR")"
run 32 && hit && ! warned && ok || bad "a cached program must load without a warning"

# damage MODE FILE OTHER: damages FILE (OTHER: the other entry, for swap).
damage() {
    size=$(wc -c <"$2")
    case $1 in
    truncate) head -c $((size / 2)) "$2" >"$tmp/t" && cat "$tmp/t" >"$2" ;;
    flip | header)
        at=$((size / 2))
        [ "$1" = header ] && at=30
        b=$(od -An -tu1 -j "$at" -N1 "$2" | tr -d ' ')
        # shellcheck disable=SC2059
        printf "$(printf '\\%03o' $(((b + 1) % 256)))" | dd of="$2" bs=1 seek="$at" conv=notrunc 2>/dev/null
        ;;
    swap) mv "$2" "$tmp/t" && mv "$3" "$2" && mv "$tmp/t" "$3" ;;
    empty) : >"$2" ;;
    text) echo "not a program" >"$2" ;;
    esac
}

for mode in truncate flip header swap empty text; do
    s=$(entry 32)
    d=$(entry 64)
    cp "$s" "$tmp/before"
    damage "$mode" "$s" "$d"
    cmp -s "$s" "$tmp/before" && bad "$mode: the entry was not damaged"
    if run 32 && validated && ! hit && warned && [ "$(grep -c warning "$tmp/err")" -eq 1 ]; then
        ok
    else
        bad "$mode: the run after the damage must rebuild, validate and warn once:"
        cat "$tmp/err"
    fi
    run 32 && validated && hit && ! warned && ok || bad "$mode: the rebuilt entry must load: $(cat "$tmp/err")"
    # After a swap the other entry holds the wrong program too: rebuilt the same way.
    run 64 && validated || bad "$mode: the double-precision run: $(cat "$tmp/err")"
    run 64 && validated && hit && ! warned && ok || bad "$mode: the double entry must load"
done

# SIGKILL while building and writing: each kill leaves nothing that a later run loads damaged.
for delay in 0.05 0.1 0.15 0.2 0.3 0.4; do
    "$gb" cache clear >/dev/null
    "$gb" run -k naive,SGEMM_NT_4x1,SGEMM_NN_1x1 -n 16 -i 1 --warmup 0 --no-store >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    "$gb" run -k naive,SGEMM_NT_4x1,SGEMM_NN_1x1 -n 16 -i 1 --warmup 0 --no-store >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 0 ] && [ "$(grep -c ' pass ' "$tmp/out")" -eq 3 ] && ! warned; then
        ok
    else
        bad "after a SIGKILL at ${delay}s the next run must pass without loading a damaged entry"
        cat "$tmp/out" "$tmp/err"
    fi
done
# A program that another process is building: the run waits on the entry's lock (HASH.lck),
# then loads what that process stored instead of building it again; the lock file goes after.
s=$(entry 32)
cp "$s" "$tmp/built"
rm -f "$s"
lck=${s%.gbc}.lck
flock "$lck" sh -c ': >"$1/held"; sleep 2; cp "$1/built" "$2"' sh "$tmp" "$s" &
holder=$!
i=0
while [ ! -e "$tmp/held" ] && [ $i -lt 200 ]; do
    sleep 0.05
    i=$((i + 1))
done
run 32 && validated && hit && ! warned && ok ||
    bad "a run must wait on the entry's lock and load what the lock's holder stored"
wait "$holder"
[ ! -e "$lck" ] && ok || bad "the entry's lock file must go once the entry is stored"
# A half-written entry under its final name (what a writer without the rename would leave)
# is refused, and a temporary file is never read.
s=$(entry 32)
head -c 1000 "$s" >"$s.999999.tmp"
damage truncate "$s"
run 32 && validated && ! hit && warned && ok || bad "a half-written entry must be rebuilt"
# An entry replaced by a folder: an empty one is removed with a warning and the entry stored
# again; one that cannot be removed is named once on every run, which still builds and passes.
s=$(entry 32)
rm -f "$s" && mkdir "$s"
if run 32 && validated && ! hit && [ -f "$s" ] &&
    grep -q "warning: program cache entry $s of 'naive' was not a file (a folder?): removed" \
        "$tmp/err"; then ok; else bad "an empty folder in an entry's place: $(cat "$tmp/err")"; fi
run 32 && validated && hit && ! grep -q warning "$tmp/err" && ok ||
    bad "the entry stored after the folder must load: $(cat "$tmp/err")"
rm -f "$s" && mkdir "$s" && : >"$s/kept"
for again in 1 2; do
    if run 32 && validated && ! hit &&
        [ "$(grep -c "warning: program cache entry $s of 'naive' is not a file (a folder?) and cannot be removed" "$tmp/err")" -eq 1 ]
    then ok; else bad "a folder that cannot be removed, run $again: $(cat "$tmp/err")"; fi
done
rm -r "$s"
"$gb" cache clear >"$tmp/out" && [ -z "$(ls "$GEMMBENCH_CACHE_DIR")" ] && ok ||
    bad "cache clear must remove entries and temporary files: $(ls "$GEMMBENCH_CACHE_DIR")"

finish
