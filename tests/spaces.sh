#!/bin/sh
# spaces.sh GEMMBENCH TUNERS BENCH: every recorded space under bench/spaces opens under today's
# kernel metadata with every configuration of its file in the space (a family's parameters or
# constraints changed since the recording would refuse a line or leave one out), and the steady
# PoCL space is the median of its passes, as gemmbench-tuners --median makes it.
gb=$1
tuners=$2
bench=$3
. "$(dirname "$0")/script_lib.sh"

for f in "$bench"/spaces/*.space "$bench"/spaces/passes/*.space; do
    lines=$(sed '1,/^configurations$/d;/^#/d;/^[[:space:]]*$/d' "$f" | wc -l)
    "$gb" tune --simulate "$f" --strategy exhaustive >"$tmp/sim.txt" 2>&1 &&
        grep -q ": $lines configurations, best " "$tmp/sim.txt" ||
        fail "$f does not open as a space of its $lines configurations"
done

steady=$bench/spaces/xgemm-pocl-256-steady.space
src=$(sed -n 's/^source //p' "$steady")
"$tuners" --median "$src" "$bench"/spaces/passes/xgemm-pocl-256-pass*.space >"$tmp/m.space" \
    2>"$tmp/err.txt" || fail "gemmbench-tuners --median on the steady space's passes"
diff "$tmp/m.space" "$steady" >"$tmp/diff.txt" || fail "$steady is not the median of its passes"
echo "spaces: every recorded space opens; the steady space is its passes' median"
