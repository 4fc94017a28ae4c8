#!/bin/sh
# bench/gpu.sh: on a machine with an NVIDIA GPU, the CUDA toolkit and the carried Debian packages
# (see ../shared/GPU.md: `source .device/unpack.sh` first), builds gemmbench with its cuBLAS and
# CLBlast peers and runs ours, CLBlast, cuBLAS and our library (-k gb: gb_sgemm/gb_dgemm with
# its tuning database's choice, the gb column, with its ratio to ours) one after the other at
# each size, for S and D at 1024, 2048, 4096, 4097 and 8192, square row-major NN, each validated
# against the double-precision reference. Prints one table, ratios last.
#   OURS_S / OURS_D   our kernels or presets per precision, comma-separated (default xgemm_gpu,
#                     xgemm_gpu_d); with several, "ours" at each size is the fastest that passed
#   PARAMS_S / PARAMS_D  parameters for ours, "NAME=V NAME=V" (default: the preset's)
#   SIZES             orders (default "1024 2048 4096 4097 8192")
#   PRECS             precisions (default "s d")
#   ITER, WARMUP      timed and untimed calls per point (default 20, 3)
#   TIMING            kernel|ops|offload (default ops: every kernel of the GEMM, no copies)
#   LOG               a folder for the full output (default: none)
#   AUTO              1 (default): also -k auto, the tuning database's choice per size (the
#                     shipped entries, and STORE's own when given), as the auto column, with
#                     its ratio to ours (the best of OURS_* at that size); 0: no auto column
#   STORE             a results store whose tuning database -k auto reads too
set -eu
cd "$(dirname "$0")/.."
build=${BUILD:-/tmp/gemmbench-build}
ours_s=${OURS_S:-xgemm_gpu}
ours_d=${OURS_D:-xgemm_gpu_d}
sizes=${SIZES:-"1024 2048 4096 4097 8192"}
precs=${PRECS:-"s d"}
iter=${ITER:-20}
warmup=${WARMUP:-3}
timing=${TIMING:-ops}
log=${LOG:-}
auto=${AUTO:-1}
store=${STORE:-}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" >/dev/null
gb="$build/gemmbench"
out=$(mktemp)
trap 'rm -f "$out" "$out.run" "$out.all"' EXIT
"$gb" devices | sed -n '1,12p'
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); timing: $timing; $iter calls after $warmup warm-up"
for prec in $precs; do
    ours=$ours_s
    [ "$prec" = d ] && ours=$ours_d
    for n in $sizes; do
        params=${PARAMS_S:-}
        [ "$prec" = d ] && params=${PARAMS_D:-}
        pargs=""
        for kv in $params; do pargs="$pargs --param $kv"; done
        # shellcheck disable=SC2086
        { "$gb" run -p NVIDIA --layout row -k "$ours" $pargs --precision "$prec" -n "$n" -v -i "$iter" \
              --warmup "$warmup" --timing "$timing" --no-store 2>&1
          "$gb" run -p NVIDIA --layout row -k clblast,cublas --precision "$prec" -n "$n" -v -i "$iter" \
              --warmup "$warmup" --timing "$timing" --no-store 2>&1
          # The library on its own, so that a peer missing from the build does not take it along.
          "$gb" run -p NVIDIA --layout row -k gb --precision "$prec" -n "$n" -v -i "$iter" \
              --warmup "$warmup" --timing "$timing" --no-store 2>&1
          if [ "$auto" = 1 ]; then
              # -k auto reads STORE's tuning database (and writes nothing when none is given).
              sargs="--no-store"
              [ -n "$store" ] && sargs="--store $store"
              # shellcheck disable=SC2086
              "$gb" run -p NVIDIA --layout row -k auto --precision "$prec" -n "$n" -v -i "$iter" \
                  --warmup "$warmup" --timing "$timing" $sargs 2>&1 | sed '/^auto -> /{n;s/^/AUTO /}'
          fi; } >"$out.run" || true
        [ -n "$log" ] && { mkdir -p "$log"; cp "$out.run" "$log/$prec-$n.txt"; }
        cat "$out.run" >>"$out.all"
        # kernel prec layout M N K lws GFLOP/s ...; the verdict starts at the 'pass'/'FAIL' word.
        # Of our kernels, "ours" is the fastest that passed (if none passed, the first one).
        awk -v p="$prec" -v n="$n" -v ours=",$ours," '
            $1 == "auto" && $2 == "->" { chose = $3; for (i = 4; i <= NF && $i !~ /^\(/; i++) chose = chose (chose == $3 ? ":" : ",") $i; next }
            $1 == "AUTO" {
                v = "fail"; for (i = 9; i <= NF; i++) if ($i == "pass") { v = "pass"; break }
                print p, n, "auto", $9, v, chose; next }
            index(ours, "," $1 ",") || $1 == "clblast" || $1 == "cublas" || $1 == "gb" {
                v = "fail"; for (i = 8; i <= NF; i++) if ($i == "pass") { v = "pass"; break }
                if ($1 == "clblast" || $1 == "cublas" || $1 == "gb") { print p, n, $1, $8, v, "-"; next }
                if (best == "" || (v == "pass" && (bv != "pass" || $8 + 0 > bg + 0))) {
                    best = $1; bg = $8; bv = v
                }
            }
            /^gemmbench: error/ { print p, n, "error", 0, "error", "-" }
            END { if (best != "") print p, n, "ours", bg, bv, best }' "$out.run" >>"$out"
    done
done
echo
printf "%-4s %6s %12s %12s %12s %12s %12s %11s %11s %10s %10s  %-9s %s\n" prec n "ours TF/s" \
    "auto" "gb" "CLBlast" "cuBLAS" "ours/cuBLAS" "ours/CLBl." "auto/ours" "gb/ours" valid \
    "ours is; auto chose"
awk '{ g[$1" "$2" "$3] = $4 / 1000; v[$1" "$2] = v[$1" "$2] ($5 == "pass" ? "" : " " $3 ":" $5);
       if ($3 == "ours") who[$1" "$2] = $6;
       if ($3 == "auto") chose[$1" "$2] = $6;
       if (!($1" "$2 in seen)) { seen[$1" "$2] = 1; order[++k] = $1" "$2 } }
     END { for (i = 1; i <= k; i++) { key = order[i]; split(key, a, " ");
             o = g[key" ours"]; c = g[key" clblast"]; u = g[key" cublas"]; t = g[key" auto"];
             l = g[key" gb"];
             printf "%-4s %6s %12.2f %12.2f %12.2f %12.2f %12.2f %11.3f %11.3f %10.3f %10.3f  %-9s %s%s\n",
                    a[1], a[2], o, t, l, c, u, (u > 0 ? o / u : 0), (c > 0 ? o / c : 0),
                    (o > 0 ? t / o : 0), (o > 0 ? l / o : 0), (v[key] == "" ? "all pass" : v[key]),
                    who[key],
                    (key in chose ? "; " chose[key] : "") } }' "$out"
# The odd size against our own rate at the power of two below it (the issue's 4097 target).
awk '$3 == "ours" && $5 == "pass" { g[$1" "$2] = $4 }
     END { for (k in g) { split(k, a, " "); lo = a[2] - 1
             for (p2 = 1; p2 < lo; p2 *= 2) ;
             if ((a[1]" "lo) in g && p2 == lo)
                 printf "%s %d against ours at %d: %.3f\n", a[1], a[2], lo, g[k] / g[a[1]" "lo] } }' "$out"
# How many measured rows saw the GPU's clocks held down during their timed calls (NVML's reasons
# and violation counters; docs/methodology.md, "Clocks and throttling").
awk '/  (pass|FAIL)/ && $1 != "kernel" { n++; if (/  throttled: /) { t++; r = $0
         sub(/.*  throttled: /, "", r); sub(/ \(.*/, "", r); why[r]++ } }
     END { printf "throttled: %d of %d measured rows", t, n
           for (w in why) printf "; %s: %d", w, why[w]
           printf "\n" }' "$out.all"
