#!/bin/sh
# bench/nv-sweep.sh GEMMBENCH FAMILY PREC N CONFIGS: times kernel family FAMILY at order N (or a
# list, 4096,4097) for every parameter set in CONFIGS (one per line: NAME=V NAME=V ..., '#'
# comments), on the NVIDIA platform, validated, and prints the sets sorted by GFLOP/s
# (bench/gpu-sweep.sh is this with the family xgemm).
#   KPATH          a folder passed as --kernel-path (families that are not built in)
#   ITER, WARMUP   timed and untimed calls per point (default 10, 2)
#   TIMING         kernel|ops|offload (default kernel: the main kernel alone)
#   LOG            a file to which every run's full output is appended (default: none)
# Output rows: GFLOP/s, verdict (pass/FAIL/error), order, parameters.
set -u
if [ $# -ne 5 ]; then
    echo "usage: $0 GEMMBENCH FAMILY PREC N CONFIGS" >&2
    exit 2
fi
gb=$1
fam=$2
prec=$3
n=$4
configs=$5
iter=${ITER:-10}
warmup=${WARMUP:-2}
timing=${TIMING:-kernel}
log=${LOG:-}
kp=""
[ -n "${KPATH:-}" ] && kp="--kernel-path $KPATH"
res=$(mktemp)
out=$(mktemp)
trap 'rm -f "$res" "$out"' EXIT
while read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    args=""
    for kv in $line; do args="$args --param $kv"; done
    # shellcheck disable=SC2086
    "$gb" run -p NVIDIA $kp -k "$fam" --precision "$prec" -n "$n" -v -i "$iter" \
        --warmup "$warmup" --timing "$timing" $args >"$out" 2>&1
    [ -n "$log" ] && { echo "### $fam $prec $n $line"; cat "$out"; } >>"$log"
    # kernel prec layout M N K lws GFLOP/s ...; the verdict is the word 'pass' or 'FAIL...'.
    rows=$(awk -v f="$fam" '
        $1 == f { v = "FAIL"; for (i = 8; i <= NF; i++) if ($i == "pass") { v = "pass"; break }
                  print $8, v, $4 }
        /^gemmbench: error/ { sub(/^gemmbench: error: /, ""); print 0, "error", "-", $0 }' "$out")
    [ -z "$rows" ] && rows="0 no-output -"
    echo "$rows" | while read -r row; do echo "$row $line"; done | tee -a "$res"
done <"$configs"
echo "--- best first (GFLOP/s, verdict, order, parameters)"
sort -k1,1 -g -r "$res" | head -20
