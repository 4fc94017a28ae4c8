#!/bin/sh
# bench/cpu.sh [N...]: on the default device (PoCL on the CPU), runs every built-in kernel and
# CLBlast at each order (default 256 512 1024), validated, in one run per order, and prints per
# order and precision our fastest kernel, CLBlast, and their ratio.
set -eu
cd "$(dirname "$0")/.."
gb=${GEMMBENCH:-build/gemmbench}
[ -x "$gb" ] || scripts/build.sh >/dev/null
sizes=${*:-"256 512 1024"}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf "%-4s %6s  %-24s %10s %10s %8s\n" prec n "our fastest" "GFLOP/s" "CLBlast" ratio
for n in $sizes; do
    "$gb" run -k all,clblast -n "$n" -i 5 --no-store >"$out" 2>&1 || true
    for p in s d; do
        awk -v p="$p" -v n="$n" '
            $2 == p && $0 ~ / pass / {
                if ($1 == "clblast") c = $8
                else if ($8 > best) { best = $8; name = $1 } }
            END { printf "%-4s %6s  %-24s %10.2f %10.2f %8.2f\n", p, n, name, best, c,
                         (c > 0 ? best / c : 0) }' "$out"
    done
done
