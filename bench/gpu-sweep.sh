#!/bin/sh
# bench/gpu-sweep.sh GEMMBENCH PREC N CONFIGS: times the xgemm family at order N for every
# parameter set in CONFIGS (one per line: NAME=V NAME=V ...), on the NVIDIA platform, validated,
# and prints the sets sorted by GFLOP/s. Used to choose the xgemm_gpu presets.
set -u
gb=$1
prec=$2
n=$3
configs=$4
res=$(mktemp)
trap 'rm -f "$res"' EXIT
while read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    args=""
    for kv in $line; do args="$args --param $kv"; done
    # shellcheck disable=SC2086
    row=$("$gb" run -p NVIDIA -k xgemm --precision "$prec" -n "$n" -v -i 10 --warmup 2 \
          --timing kernel $args 2>&1 | awk '$1 == "xgemm" { print $8, ($0 ~ / pass / ? "pass" : "FAIL") }
                                            /^gemmbench: error/ { sub(/^gemmbench: error: /, ""); print 0, "error:", $0 }')
    echo "${row:-0 no-output} $line" | tee -a "$res"
done <"$configs"
echo "--- best first (GFLOP/s, verdict, parameters)"
sort -k1,1 -g -r "$res" | head -15
