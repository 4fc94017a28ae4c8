#!/bin/sh
# bench/shapes.sh: the shape suite (bench/shapes.txt: squares, small sizes, tall-skinny and
# short-wide, low K, large K with small M and N, every transposition and column-major, shapes from
# real workloads), single and double precision. At each shape one run of ours (-k auto: the
# tuning database's choice, or the heuristic's), then the peers, all validated (-v) on the same
# inputs, operands in pinned host memory; prints per shape the GFLOP/s of each, ours against
# each peer, and every verdict, then per precision the geometric mean of ours against each peer,
# the worst shape, and the shapes where ours is below a peer.
#   BUILD      the build folder (default build/, configured by scripts/build.sh if absent)
#   PLATFORM   platform name substring (-p; default: the first with a device)
#   PEERS      comma-separated peers (default clblast,cublas where cuBLAS was built in, else
#              clblast)
#   OURS       our implementation (default auto)
#   PRECS      precisions (default "s d")
#   ONLY       shape names to run, blank-separated (default: the whole suite)
#   SUITE      the suite file (default bench/shapes.txt)
#   ITER, WARMUP  timed and untimed calls per point (default 10, 2)
#   LOG        a folder for each run's full output (default: none)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
[ -f "$build/build.ninja" ] || BUILD_DIR=$build "$root/scripts/build.sh" >/dev/null
cmake --build "$build" --target gemmbench >/dev/null
gb=$build/gemmbench
if [ -z "${PEERS:-}" ]; then
    PEERS=clblast
    "$gb" kernels 2>/dev/null | grep -q '^ *cublas ' && PEERS=clblast,cublas
fi
ours=${OURS:-auto}
precs=${PRECS:-"s d"}
suite=${SUITE:-$root/bench/shapes.txt}
iter=${ITER:-10}
warmup=${WARMUP:-2}
log=${LOG:-}
[ -z "$log" ] || mkdir -p "$log"
npeers=$(echo "$PEERS" | tr ',' '\n' | grep -c .)
out=$(mktemp)
trap 'rm -f "$out" "$out.run"' EXIT
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); ours: $ours; peers: $PEERS; $iter calls after $warmup" \
    "warm-up, validated, pinned host memory${PLATFORM:+; platform $PLATFORM}"
for prec in $precs; do
    grep -v '^ *#' "$suite" | grep . | while read -r name m n k opts; do
        case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
        # One problem for every row: row-major unless the shape says (a kernel named alone would
        # otherwise run in its own native layout).
        case " $opts " in *" --layout "*) ;; *) opts="--layout row $opts" ;; esac
        # shellcheck disable=SC2086
        if "$gb" run ${PLATFORM:+-p "$PLATFORM"} --precision "$prec" -M "$m" -N "$n" -K "$k" \
            $opts -k "$ours,$PEERS" -i "$iter" --warmup "$warmup" -v --host-mem pinned \
            --no-store >"$out.run" 2>&1; then :; fi
        [ -z "$log" ] || cp "$out.run" "$log/$name-$prec.txt"
        # The rows, in the order asked: ours first, then each peer. A shape where a row is
        # missing (refused, failed to run) says so instead.
        awk -v name="$name" -v prec="$prec" -v m="$m" -v n="$n" -v k="$k" -v want=$((npeers + 1)) '
            /^[A-Za-z_0-9]+ +[sd] +(row|col)-/ {
                r++; kern[r] = $1; g[r] = $8
                v[r] = ($0 ~ / pass /) ? "pass" : "FAIL"
                f[r] = ($0 ~ /not faithful/) ? "NF" : ($0 ~ / faithful /) ? "f" : "-"
            }
            END {
                if (r != want) { printf "%s %s %s %s %s missing\n", name, prec, m, n, k; exit }
                printf "%s %s %s %s %s %s", name, prec, m, n, k, kern[1]
                for (i = 1; i <= r; i++) printf " %s %s %s", g[i], v[i], f[i]
                printf "\n"
            }' "$out.run" >>"$out"
    done
done
echo
awk -v peers="$PEERS" '
    BEGIN { np = split(peers, pn, ",") }
    $6 == "missing" { printf "%-13s %s %6s %6s %6s  run failed or refused (LOG keeps why)\n", $1, $2, $3, $4, $5; next }
    {
        if (!hdr++) {
            printf "%-13s %-4s %6s %6s %6s %-18s %10s", "shape", "prec", "M", "N", "K", "ours", "GFLOP/s"
            for (i = 1; i <= np; i++) printf " %10s", pn[i]
            for (i = 1; i <= np; i++) printf " %9s", "/" pn[i]
            printf "  verdicts\n"
        }
        printf "%-13s %-4s %6s %6s %6s %-18.18s %10.0f", $1, $2, $3, $4, $5, $6, $7
        verd = $8 "/" $9
        for (i = 1; i <= np; i++) { printf " %10.0f", $(7 + 3 * i); verd = verd " " $(8 + 3 * i) "/" $(9 + 3 * i) }
        for (i = 1; i <= np; i++) {
            p = $(7 + 3 * i); ratio = p > 0 ? $7 / p : 0
            printf " %9.3f", ratio
            if (ratio > 0) { lg[$2, i] += log(ratio); cnt[$2, i]++ }
            if (ratio > 0 && (!((($2, i) in worst)) || ratio < worst[$2, i])) { worst[$2, i] = ratio; wname[$2, i] = $1 }
            if (ratio > 0 && ratio < 1) below[$2, i] = below[$2, i] " " $1
        }
        printf "  %s\n", verd
        precs[$2] = 1
    }
    END {
        print ""
        for (pr in precs)
            for (i = 1; i <= np; i++)
                if (cnt[pr, i])
                    printf "%s: ours/%s geometric mean %.3f over %d shapes, worst %.3f (%s); below it:%s\n",
                        pr, pn[i], exp(lg[pr, i] / cnt[pr, i]), cnt[pr, i], worst[pr, i], wname[pr, i],
                        below[pr, i] == "" ? " none" : below[pr, i]
    }' "$out"
