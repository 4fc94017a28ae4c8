#!/bin/sh
# bench/nv-ab.sh OLD_TREE: our kernels built from an older source tree (OLD_TREE, a copy made
# with `git archive REV | tar -x -C DIR`) against this one, on the NVIDIA platform, in the same
# run: builds both (gemmbench alone), runs KERNELS at SIZES alternately (old, new) ROUNDS times,
# each tree with its own program cache, then prints every round's TFLOP/s, the medians, new/old,
# and what ptxas makes of both trees' programs (bench/nv-regs.sh). Needs `source
# .device/unpack.sh` first.
#   KERNELS  comma-separated kernels or presets (default xgemm_nv_k8)
#   SIZES    square orders (default "4096 8192")
#   PREC     s or d (default s)
#   ROUNDS   alternations (default 3); ITER, WARMUP calls per run (default 20, 3)
#   TIMING   kernel|ops|offload (default ops)
#   OPTS     run options for both trees, as "--layout row --transB T": the problem; without them a
#            kernel runs its own layout, and a list whose own layouts differ runs row-major NN
#            (where a tree has that rule: give OPTS when the two trees may differ in it)
# The first round validates every point (-v); later rounds only time.
set -eu
old=${1:?usage: bench/nv-ab.sh OLD_TREE}
cd "$(dirname "$0")/.."
kernels=${KERNELS:-xgemm_nv_k8}
sizes=${SIZES:-"4096 8192"}
prec=${PREC:-s}
rounds=${ROUNDS:-3}
iter=${ITER:-20}
warmup=${WARMUP:-3}
timing=${TIMING:-ops}
opts=${OPTS:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in old new; do
    src=.
    [ "$t" = old ] && src=$old
    cmake -S "$src" -B "$work/build-$t" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DGB_BENCH_TUNERS=OFF >/dev/null
    cmake --build "$work/build-$t" --target gemmbench >/dev/null
done
: >"$work/rows"
r=1
while [ "$r" -le "$rounds" ]; do
    v=""
    [ "$r" -eq 1 ] && v="-v"
    for n in $sizes; do
        for t in old new; do
            # shellcheck disable=SC2086
            GEMMBENCH_CACHE_DIR=$work/cache-$t "$work/build-$t/gemmbench" run -p NVIDIA \
                -k "$kernels" --precision "$prec" -n "$n" $v -i "$iter" --warmup "$warmup" \
                --timing "$timing" $opts --no-store 2>&1 |
                awk -v t="$t" -v r="$r" -v n="$n" -v ks=",$kernels," '
                    index(ks, "," $1 ",") && $5 == n {
                        v = "-"; for (i = 8; i <= NF; i++) if ($i == "pass" || $i == "FAIL:") { v = $i; break }
                        print $1, n, t, r, $8 / 1000, v }
                    /^gemmbench: error/ { print "error", n, t, r, 0, $0 }' >>"$work/rows"
        done
    done
    r=$((r + 1))
done
printf "%-16s %6s %4s %s\n" kernel n tree "TFLOP/s by round (validation of round 1)"
awk '{ k = $1 " " $2 " " $3; line[k] = line[k] sprintf(" %.2f", $5); if ($4 == 1) val[k] = $6
       if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
     END { for (i = 1; i <= m; i++) { split(order[i], a, " ");
             printf "%-16s %6s %4s %s (%s)\n", a[1], a[2], a[3], line[order[i]], val[order[i]] } }' \
    "$work/rows"
echo
printf "%-16s %6s %10s %10s %8s\n" kernel n "old med" "new med" new/old
awk '{ k = $1 " " $2; x[k " " $3, ++c[k " " $3]] = $5; if (!(k in seen)) { seen[k] = 1; order[++m] = k } }
     function med(key, n,    i, j, t, v) { for (i = 1; i <= n; i++) v[i] = x[key, i]
         for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
         return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
     END { for (i = 1; i <= m; i++) { k = order[i]; o = med(k " old", c[k " old"]); w = med(k " new", c[k " new"])
             split(k, a, " "); printf "%-16s %6s %10.2f %10.2f %8.3f\n", a[1], a[2], o, w, (o > 0 ? w / o : 0) } }' \
    "$work/rows"
echo
for t in old new; do
    echo "registers ($t):"
    sh bench/nv-regs.sh "$work/cache-$t" | grep -v helpers || true
done
