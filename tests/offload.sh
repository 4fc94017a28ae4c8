#!/bin/sh
# offload.sh GEMMBENCH: `gemmbench offload` on the default device: per size the host's BLAS, the
# kernel and the device with its copies from pageable and pinned host memory, and zero-copy from
# mapped memory (PoCL's device shares the host's; a device that does not gets no such column),
# stored as points; the faster per size and the break-even lines; the page with its plot; bad
# input refused.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" offload -n 32,64 -i 2 --warmup 0 --store "$tmp/o.db" --out "$tmp/o.html" >"$tmp/out.txt" 2>&1 ||
    fail "offload"
num="[0-9.e+-]+"
[ "$(grep -cE "^ +(32|64)( +$num){5}  (host|device)" "$tmp/out.txt")" -eq 2 ] ||
    fail "a row per size with five times and the faster"
[ "$(grep -c "^break-even, \(pageable\|pinned\|mapped\) host memory: " "$tmp/out.txt")" -eq 3 ] ||
    fail "a break-even line per kind of host memory"
"$gb" store info --store "$tmp/o.db" >"$tmp/info.txt" 2>&1 || fail "store info"
grep -q "^points: 8" "$tmp/info.txt" ||
    fail "2 sizes x (host, pageable, pinned, mapped) = 8 points stored"
grep -q "<svg" "$tmp/o.html" && grep -q "break-even, pinned: " "$tmp/o.html" &&
    grep -q "zero-copy (mapped)" "$tmp/o.html" ||
    fail "the page must hold the plot, with the mapped line, and the break-even"
# A device that does not share host memory (a discrete GPU) has no mapped column.
GEMMBENCH_DISABLE_HOST_UNIFIED=1 "$gb" offload -n 32 -i 2 --warmup 0 --store "$tmp/apart.db" \
    >"$tmp/apart.txt" 2>&1 || fail "offload on a device apart"
grep -qE "^ +32( +$num){4} +-  (host|device)" "$tmp/apart.txt" &&
    grep -q "^mapped: not measured: .* does not share host memory" "$tmp/apart.txt" ||
    fail "no mapped time where the device does not share host memory"
"$gb" store info --store "$tmp/apart.db" >"$tmp/info2.txt" 2>&1
grep -q "^points: 3" "$tmp/info2.txt" || fail "host, pageable, pinned = 3 points stored"
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
