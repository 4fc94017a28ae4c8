#!/bin/sh
# bench/cpu.sh [N...]: on the default device (PoCL on the CPU), runs every built-in kernel,
# CLBlast, our library (-k gb: gb_sgemm/gb_dgemm with its tuning database's choice) and the
# host's OpenBLAS (-k openblas: cblas on the host, no transfers) at each order (default 256 512
# 1024), validated, in one run per order, and prints per order and precision (s, d, and complex c
# and z) our fastest kernel, CLBlast and its ratio to ours, the library and its ratio to ours,
# and OpenBLAS and its ratio to ours ('-' where a peer has no such precision).
set -eu
cd "$(dirname "$0")/.."
gb=${GEMMBENCH:-build/gemmbench}
[ -x "$gb" ] || scripts/build.sh >/dev/null
sizes=${*:-"256 512 1024"}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf "%-4s %6s  %-24s %10s %10s %8s %10s %8s %10s %8s\n" prec n "our fastest" "GFLOP/s" \
    "CLBlast" ratio "gb" "gb/ours" "OpenBLAS" "ob/ours"
for n in $sizes; do
    # --precision: the peers, named, would otherwise run in single precision only. A named peer
    # without a precision asked refuses the run, so c and z, which CLBlast and the library do
    # not have, are a run of their own.
    {
        "$gb" run -k all,clblast,gb,openblas --precision s,d -n "$n" -i 5 --no-store 2>&1 || true
        "$gb" run -k all,openblas --precision c,z -n "$n" -i 5 --no-store 2>&1 || true
    } >"$out"
    for p in s d c z; do
        # ratio: our fastest kernel over CLBlast; gb/ours and ob/ours: the library and OpenBLAS
        # over our fastest kernel.
        awk -v p="$p" -v n="$n" '
            $2 == p && $0 ~ / pass / {
                if ($1 == "clblast") c = $8
                else if ($1 == "gb") l = $8
                else if ($1 == "openblas") o = $8
                else if ($8 > best) { best = $8; name = $1 } }
            function col(v, r) {
                return v > 0 ? sprintf("%10.2f %8.2f", v, r) : sprintf("%10s %8s", "-", "-") }
            END { printf "%-4s %6s  %-24s %10.2f %s %s %s\n", p, n, name, best,
                         col(c, c > 0 ? best / c : 0), col(l, best > 0 ? l / best : 0),
                         col(o, best > 0 ? o / best : 0) }' "$out"
    done
    # Which kernels OpenBLAS ran: on a CPU it does not recognise, older ones unless
    # OPENBLAS_CORETYPE is set, which changes its column several times over
    # (bench/notes/cpu.md#cpu-rb).
    [ "$n" = "${sizes%% *}" ] && grep -m 1 '^openblas ' "$out" | sed 's/.*(library openblas (/OpenBLAS: (/'
done
