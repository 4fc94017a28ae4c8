#!/bin/sh
# spaces.sh GEMMBENCH BENCH: every recorded space under bench/spaces opens under today's kernel
# metadata with every configuration of its file in the space (a family's parameters or
# constraints changed since the recording would refuse a line or leave one out), and the steady
# PoCL space is the median of its passes, as bench/space-median.sh makes it.
gb=$1
bench=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
failed=0
ok() { pass=$((pass + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    cat "$tmp/out" "$tmp/err"
}

for f in "$bench"/spaces/*.space "$bench"/spaces/passes/*.space; do
    lines=$(sed '1,/^configurations$/d;/^#/d;/^[[:space:]]*$/d' "$f" | wc -l)
    if "$gb" tune --simulate "$f" --strategy exhaustive >"$tmp/out" 2>"$tmp/err" &&
        grep -q ": $lines configurations, best " "$tmp/out"; then
        ok
    else bad "$f does not open as a space of its $lines configurations"; fi
done

steady=$bench/spaces/xgemm-pocl-256-steady.space
src=$(sed -n 's/^source //p' "$steady")
if sh "$bench/space-median.sh" "$src" "$bench"/spaces/passes/xgemm-pocl-256-pass*.space \
    >"$tmp/m.space" 2>"$tmp/err" && cmp -s "$tmp/m.space" "$steady"; then
    ok
else
    diff "$tmp/m.space" "$steady" >"$tmp/out"
    bad "$steady is not the median of its passes"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
