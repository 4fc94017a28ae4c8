#!/bin/sh
# offload.sh GEMMBENCH: `gemmbench offload` on the default device: per size the host's BLAS, the
# kernel and the device with its copies from both kinds of host memory, stored as points; the
# faster per size and the break-even lines; the page with its plot; bad input refused.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" offload -n 32,64 -i 2 --warmup 0 --store "$tmp/o.db" --out "$tmp/o.html" >"$tmp/out.txt" 2>&1 ||
    fail "offload"
[ "$(grep -cE "^ +(32|64) +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+ +[0-9.e+-]+  (host|device)" "$tmp/out.txt")" -eq 2 ] ||
    fail "a row per size with four times and the faster"
[ "$(grep -c "^break-even, \(pageable\|pinned\) host memory: " "$tmp/out.txt")" -eq 2 ] ||
    fail "a break-even line per kind of host memory"
"$gb" store info --store "$tmp/o.db" >"$tmp/info.txt" 2>&1 || fail "store info"
grep -q "^points: 6" "$tmp/info.txt" || fail "2 sizes x (host, pageable, pinned) = 6 points stored"
grep -q "<svg" "$tmp/o.html" && grep -q "break-even, pinned: " "$tmp/o.html" ||
    fail "the page must hold the plot and the break-even"
"$gb" offload -n 64 -M 32 --no-store >"$tmp/bad.txt" 2>&1
[ $? -eq 2 ] && grep -q "square orders" "$tmp/bad.txt" || fail "a non-square shape must be refused"
"$gb" offload -n 64 -k naive,xgemm --no-store >"$tmp/bad2.txt" 2>&1
[ $? -eq 2 ] && grep -q "one kernel in one precision" "$tmp/bad2.txt" || fail "two kernels must be refused"
# Without gnuplot, --out is refused before anything is measured: nothing stored, no page.
GEMMBENCH_GNUPLOT="$tmp/no-gnuplot" "$gb" offload -n 32 --store "$tmp/none.db" \
    --out "$tmp/none.html" >"$tmp/bad3.txt" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "cannot run gnuplot" "$tmp/bad3.txt" && [ ! -e "$tmp/none.db" ] &&
    [ ! -e "$tmp/none.html" ] && ! grep -q "^ *32 " "$tmp/bad3.txt" ||
    fail "a missing gnuplot must be refused before measuring (exit $rc)"
echo "offload: ok"
