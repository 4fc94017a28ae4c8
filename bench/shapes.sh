#!/bin/sh
# bench/shapes.sh: the shape suite (bench/shapes.txt: squares, small sizes, tall-skinny and
# short-wide, low K, large K with small M and N, every transposition and column-major, shapes from
# real workloads), single and double precision by default, or any of s d h b c z. At each shape
# one run of ours (-k auto: the tuning database's choice, or the heuristic's), then the peers, all
# validated (-v) on the same inputs, operands in pinned host memory; prints per precision a table:
# per shape the GFLOP/s of each (8*M*N*K for c and z), ours against each peer, and every verdict;
# then per precision the geometric mean of ours against each peer, the worst shape, and the
# shapes where ours is below a peer. Each shape's row also goes to stderr as soon as it is
# measured ('row: NAME PREC M N K' then name, GFLOP/s, verdict, faithful of each), so that a run
# cut short by a time limit keeps what it measured.
# Each precision runs with the peers that run it here: a small run of each first, and one that is
# refused (exit 2: it has no such precision, as CLBlast has no b and OpenBLAS no h or b, or the
# device cannot run it, as CLBlast's h without cl_khr_fp16 or cuBLAS beside no NVIDIA GPU) is
# left out of that precision with its one-line reason; a precision that ours refuses there (at
# 8 x 8 x 8) is skipped so, and a shape whose run is refused or fails says why. CLBlast's h accumulates in FP16, where h asks FP32 sums, so its verdicts there read FAIL.
#   BUILD      the build folder (default build/, configured by scripts/build.sh if absent)
#   PLATFORM   platform name substring (-p; default: the first with a device)
#   PEERS      comma-separated peers (default clblast,cublas where cuBLAS was built in, else
#              clblast; e.g. clblast,openblas on a CPU)
#   OURS       our implementation (default auto)
#   PRECS      precisions, blank-separated (default "s d"; e.g. "h b c z")
#   ONLY       shape names to run, blank-separated (default: the whole suite)
#   SUITE      the suite file (default bench/shapes.txt)
#   ITER, WARMUP  timed and untimed calls per point (default 10, 2)
#   MINTIME    seconds of timed calls every point takes at least (run's --min-time; default
#              none): a call of 15 us (256^3 on a GPU) is then timed over thousands of calls,
#              where ITER alone gave ratios that moved 3x between runs
#              (bench/notes/shapes.md#suite-h200-bring-2)
#   DIST       the operands' distribution (--dist; default uniform(-1,1)): uniform:0:1 puts
#              every product of one sign, where sums that do not round to nearest show
#              (bench/notes/wgmma.md#wgmma-zfill); without it, h's rows of K past 65504 run
#              on uniform(-0.499,0.499), said under the tables
#   LOG        a folder for each run's full output (default: none)
#   BW         memory bandwidth in GB/s, or 'measure' (gemmbench ceilings on the platform): then
#              each precision's thin shapes (M or N at most 64) are also tabled against the
#              memory bound, the bytes M K + K N + 2 M N of the precision moved at BW (as
#              bench/thin.sh counts them), counted at 0.6 of it and against the peers, and
#              each mean is also given without them (default: none)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
# A relative BUILD is from the working directory: absolute before scripts/build.sh cds to the root.
case $build in /*) ;; *) build=$PWD/$build ;; esac
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
mintime=${MINTIME:-}
log=${LOG:-}
[ -z "$log" ] || mkdir -p "$log"
bw=${BW:-}
if [ "$bw" = measure ]; then
    bw=$("$gb" ceilings ${PLATFORM:+-p "$PLATFORM"} --no-store --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["bandwidth_gbs"])')
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.run" "$out.why" "$out.data"' EXIT
: >"$out.data"
# refused IMPL PREC: whether a small run of IMPL in PREC is refused here (exit 2), its reason in
# $out.why; a run that fails validation still counts as running.
refused() {
    if "$gb" run ${PLATFORM:+-p "$PLATFORM"} --precision "$2" -k "$1" -n 8 -i 1 --warmup 0 \
        --no-store >/dev/null 2>"$out.why"; then return 1; else [ $? -eq 2 ]; fi
}
why() { head -n 1 "$out.why" | sed 's/^gemmbench: error: //'; }
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); ours: $ours; peers: $PEERS; $iter calls$(
    )${mintime:+ and at least $mintime s of them} after $warmup" \
    "warm-up, validated, pinned host memory${PLATFORM:+; platform $PLATFORM}${DIST:+; data $DIST}$(
    )${bw:+; memory bandwidth $bw GB/s}"
for prec in $precs; do
    if refused "$ours" "$prec"; then
        echo "$prec: skipped, $ours refuses it: $(why)"
        continue
    fi
    peers=
    for peer in $(echo "$PEERS" | tr ',' ' '); do
        if refused "$peer" "$prec"; then
            echo "$prec: $peer left out: $(why)"
        else
            peers=$peers${peers:+,}$peer
        fi
    done
    npeers=$(echo "$peers" | tr ',' '\n' | grep -c . || true)
    grep -v '^ *#' "$suite" | grep . | while read -r name m n k opts; do
        case " ${ONLY:-$name} " in *" $name "*) ;; *) continue ;; esac
        # One problem for every row: row-major unless the shape says (a kernel named alone would
        # otherwise run in its own native layout).
        case " $opts " in *" --layout "*) ;; *) opts="--layout row $opts" ;; esac
        # FP16's output holds sums up to 65504: past that K, uniform(-1,1) data could overflow
        # it and every implementation is refused, so such a row of h runs on half the range.
        dist=${DIST:-}
        if [ -z "$dist" ] && [ "$prec" = h ] && [ "$k" -gt 65504 ]; then
            dist=uniform:-0.499:0.499
            echo "$name $prec: data $dist (K = $k, past what FP16 holds for uniform(-1,1))" >>"$out.data"
        fi
        # shellcheck disable=SC2086
        if "$gb" run ${PLATFORM:+-p "$PLATFORM"} --precision "$prec" -M "$m" -N "$n" -K "$k" \
            $opts -k "$ours${peers:+,$peers}" -i "$iter" --warmup "$warmup" -v --host-mem pinned \
            ${dist:+--dist "$dist"} ${mintime:+--min-time "$mintime"} --no-store >"$out.run" \
            2>&1; then :; fi
        [ -z "$log" ] || cp "$out.run" "$log/$name-$prec.txt"
        # The rows, in the order asked: ours first, then each peer, each as its name, GFLOP/s,
        # verdict and faithful verdict. A shape where a row is missing (refused, failed to run)
        # says so instead.
        awk -v name="$name" -v prec="$prec" -v m="$m" -v n="$n" -v k="$k" \
            -v peers="$peers" -v want=$((npeers + 1)) '
            BEGIN { split(peers, pn, ",") }
            /^gemmbench: error: / && why == "" { why = substr($0, 19) }
            /^[A-Za-z_0-9]+ +[sdhbcz] +(row|col)-/ {
                r++; kern[r] = r == 1 ? $1 : pn[r - 1]; g[r] = $8
                v[r] = ($0 ~ / pass /) ? "pass" : "FAIL"
                f[r] = ($0 ~ /not faithful/) ? "NF" : ($0 ~ / faithful /) ? "f" : "-"
            }
            END {
                if (r != want) {
                    printf "%s %s %s %s %s missing %s\n", name, prec, m, n, k, why; exit
                }
                printf "%s %s %s %s %s", name, prec, m, n, k
                for (i = 1; i <= r; i++) printf " %s %s %s %s", kern[i], g[i], v[i], f[i]
                printf "\n"
            }' "$out.run" >>"$out"
        # Each row as it is made, on stderr: a run cut short (a time limit) keeps what it measured.
        echo "row: $(tail -n 1 "$out")" >&2
    done
done
# Per precision a table with its own peers (columns 6.. of a row: name, GFLOP/s, verdict,
# faithful, for ours and then each peer), then with BW the thin shapes against the memory bound,
# then the geometric means (with BW also over the shapes that are not thin).
awk -v bw="$bw" '
    $6 == "missing" {
        why = $0; for (i = 0; i < 6; i++) sub(/^[^ ]+ */, "", why)
        printf "%-13s %-4s %6s %6s %6s  run failed or refused: %s\n", $1, $2, $3, $4, $5,
            why == "" ? "(LOG keeps why)" : why
        next
    }
    {
        np = (NF - 9) / 4
        if ($2 != shown) {
            shown = $2
            printf "\n%-13s %-4s %6s %6s %6s %-18s %10s", "shape", "prec", "M", "N", "K", "ours", "GFLOP/s"
            for (i = 1; i <= np; i++) printf " %10.10s", $(6 + 4 * i)
            for (i = 1; i <= np; i++) printf " %9.9s", "/" $(6 + 4 * i)
            printf "  verdicts\n"
        }
        printf "%-13s %-4s %6s %6s %6s %-18.18s %10.0f", $1, $2, $3, $4, $5, $6, $7
        thin = bw != "" && ($3 <= 64 || $4 <= 64)
        if (thin) {
            # The bound: A, B and C (C read and written) in the precision, moved at bw GB/s.
            el = $2 == "z" ? 16 : $2 == "d" || $2 == "c" ? 8 : $2 == "s" ? 4 : 2
            ops = $2 == "c" || $2 == "z" ? 8 : 2
            bound = ops * $3 * $4 * $5 * bw / (($3 * $5 + $5 * $4 + 2 * $3 * $4) * el)
            # Rows of one precision come together: a header before the first thin one.
            if (!($2 in thinhead)) {
                thinhead[$2] = 1
                tprec[++ntp] = $2
                thintab = thintab sprintf("\n%s: thin shapes (M or N at most 64) against the" \
                    " memory bound at %s GB/s, its fraction\n%-13s %-4s %6s %6s %6s %10s %6s", $2,
                    bw, "shape", "prec", "M", "N", "K", "bound", "ours")
                for (i = 1; i <= np; i++) thintab = thintab sprintf(" %9.9s", $(6 + 4 * i))
                thintab = thintab "\n"
            }
            thintab = thintab sprintf("%-13s %-4s %6s %6s %6s %10.0f %6.3f", $1, $2, $3, $4, $5,
                bound, $7 / bound)
            ahead = 1
            for (i = 1; i <= np; i++) {
                thintab = thintab sprintf(" %9.3f", $(7 + 4 * i) / bound)
                if ($(7 + 4 * i) > $7) ahead = 0
            }
            thintab = thintab "\n"
            # The target for thin shapes: 0.6 of the bound, and no peer faster.
            nthin[$2]++; if ($7 >= 0.6 * bound) near[$2]++; if (ahead) above[$2]++
        }
        verd = $8 "/" $9
        for (i = 1; i <= np; i++) { printf " %10.0f", $(7 + 4 * i); verd = verd " " $(8 + 4 * i) "/" $(9 + 4 * i) }
        for (i = 1; i <= np; i++) {
            pe = $(6 + 4 * i); p = $(7 + 4 * i); ratio = p > 0 ? $7 / p : 0
            printf " %9.3f", ratio
            if (!(($2, pe) in cnt)) { order[++no] = $2 SUBSEP pe; cnt[$2, pe] = 0 }
            if (ratio > 0) { lg[$2, pe] += log(ratio); cnt[$2, pe]++ }
            if (ratio > 0 && !thin) { lgw[$2, pe] += log(ratio); cntw[$2, pe]++ }
            if (ratio > 0 && (!((($2, pe) in worst)) || ratio < worst[$2, pe])) { worst[$2, pe] = ratio; wname[$2, pe] = $1 }
            if (ratio > 0 && ratio < 1) below[$2, pe] = below[$2, pe] " " $1
        }
        printf "  %s\n", verd
    }
    END {
        printf "%s", thintab
        for (j = 1; j <= ntp; j++)
            printf "%s: %d of %d thin shapes at 0.6 of the bound or more, %d with no peer faster\n",
                tprec[j], near[tprec[j]] + 0, nthin[tprec[j]], above[tprec[j]] + 0
        print ""
        for (j = 1; j <= no; j++) {
            split(order[j], key, SUBSEP)
            if (cnt[order[j]])
                printf "%s: ours/%s geometric mean %.3f over %d shapes, worst %.3f (%s); under 1:%s\n",
                    key[1], key[2], exp(lg[order[j]] / cnt[order[j]]), cnt[order[j]], worst[order[j]],
                    wname[order[j]], below[order[j]] == "" ? " none" : below[order[j]]
            if (bw != "" && cntw[order[j]])
                printf "%s: ours/%s geometric mean %.3f over the %d shapes that are not thin\n",
                    key[1], key[2], exp(lgw[order[j]] / cntw[order[j]]), cntw[order[j]]
        }
    }' "$out"
cat "$out.data"
