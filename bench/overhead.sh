#!/bin/sh
# bench/overhead.sh: the library's host overhead against CLBlast's (gemmbench-overhead,
# bench/overhead.c), 64^3 SGEMM, row-major NN, on one OpenCL device:
#  1. enqueue: the host wall time of one call's enqueue with warm programs, median, p10 and p90
#     over 1000 calls of each library in one run on the same queue and buffers, beside the
#     floor: an empty kernel with as many arguments, set and enqueued the same way;
#  2. first call: from before the handle is opened to the first call's completion, in a fresh
#     process each time, five ways taking turns for ROUNDS rounds: the library with its program
#     cache warm (GEMMBENCH_CACHE_DIR populated by a run before), the library with it empty,
#     CLBlast (which builds in every process), and both again with the OpenCL driver's own
#     caches empty too (PoCL's POCL_CACHE_DIR, NVIDIA's CUDA_CACHE_PATH), for COLD_ROUNDS.
# Prints both tables and the issue's targets: enqueue under 10 us and under CLBlast's, first
# call with a warm cache within 20 ms.
#   PLATFORM     platform name substring (e.g. NVIDIA; default: the first with a device)
#   BUILD        the build folder (default build/, configured by scripts/build.sh if absent)
#   N            the order (default 64); CALLS, EVERY: enqueue's calls and clFinish period
#                (default 1000, 16)
#   ROUNDS       fresh processes per way with the driver's caches as they are (default 5)
#   COLD_ROUNDS  fresh processes per way with the driver's caches empty (default 3; on PoCL
#                each CLBlast run then takes about 25 s)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$root/build}
n=${N:-64}
calls=${CALLS:-1000}
every=${EVERY:-16}
rounds=${ROUNDS:-5}
cold_rounds=${COLD_ROUNDS:-3}
if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" --target gemmbench-overhead >/dev/null
bin="$build/gemmbench-overhead"
pargs=""
[ -n "${PLATFORM:-}" ] && pargs="-p $PLATFORM"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gb-overhead.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset GEMMBENCH_NO_CACHE

echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
# shellcheck disable=SC2086 # pargs is split on purpose
"$bin" enqueue $pargs -n "$n" -c "$calls" -e "$every" | tee "$tmp/enqueue"
have_clblast=1
grep -q '^CLBlastSgemm' "$tmp/enqueue" || have_clblast=0

# first WAY LIB VAR=VALUE...: one fresh process of LIB with those variables set, its line
# appended to $tmp/WAY.
first() {
    way=$1
    lib=$2
    shift 2
    # shellcheck disable=SC2086 # pargs is split on purpose
    env "$@" "$bin" first "$lib" $pargs -n "$n" >>"$tmp/$way" || echo "FAILED" >>"$tmp/$way"
}
# The warm cache: one run fills it.
mkdir "$tmp/warm"
first fill gb GEMMBENCH_CACHE_DIR="$tmp/warm"
ways="gb-warm gb-cold"
cold_ways=""
[ "$cold_rounds" -gt 0 ] && cold_ways="gb-all-cold"
if [ "$have_clblast" = 1 ]; then
    ways="$ways clblast"
    [ "$cold_rounds" -gt 0 ] && cold_ways="$cold_ways clblast-all-cold"
fi
i=0
while [ "$i" -lt "$rounds" ]; do
    i=$((i + 1))
    first gb-warm gb GEMMBENCH_CACHE_DIR="$tmp/warm"
    mkdir "$tmp/empty$i"
    first gb-cold gb GEMMBENCH_CACHE_DIR="$tmp/empty$i"
    if [ "$have_clblast" = 1 ]; then first clblast clblast; fi
done
i=0
while [ "$i" -lt "$cold_rounds" ]; do
    i=$((i + 1))
    d="$tmp/cold$i"
    mkdir -p "$d/gb" "$d/driver-gb" "$d/driver-clblast"
    first gb-all-cold gb GEMMBENCH_CACHE_DIR="$d/gb" POCL_CACHE_DIR="$d/driver-gb" \
        CUDA_CACHE_PATH="$d/driver-gb"
    if [ "$have_clblast" = 1 ]; then
        first clblast-all-cold clblast POCL_CACHE_DIR="$d/driver-clblast" \
            CUDA_CACHE_PATH="$d/driver-clblast"
    fi
done

echo
echo "first 64^3 call in a fresh process, ms from before the handle to the call's completion"
echo "(context, queue and buffers made before); median of the runs, min, max, and the median"
echo "run's parts: open (gb_blas_open), call (the enqueue, building included), finish (clFinish)"
printf "%-18s %-44s %5s %10s %10s %10s  %s\n" way "caches" runs median min max "open / call / finish"
for way in $ways $cold_ways; do
    case $way in
    gb-warm) what="gemmbench's warm, driver's as they are" ;;
    gb-cold) what="gemmbench's empty, driver's as they are" ;;
    clblast) what="driver's as they are (CLBlast keeps none)" ;;
    gb-all-cold) what="gemmbench's and the driver's empty" ;;
    clblast-all-cold) what="the driver's empty" ;;
    esac
    if grep -q FAILED "$tmp/$way"; then
        printf "%-18s %-44s  a run failed\n" "$way" "$what"
        continue
    fi
    # "first gb 4.472 ms (open 0.125, call 4.346, finish 0.001) on DEVICE": sorted by total.
    sort -g -k3,3 "$tmp/$way" | awk -v way="$way" -v what="$what" '
        { t[NR] = $3; o[NR] = $6; c[NR] = $8; f[NR] = $10 }
        END { m = int((NR + 1) / 2); sub(/,/, "", o[m]); sub(/,/, "", c[m]); sub(/\)/, "", f[m]);
              printf "%-18s %-44s %5d %10.2f %10.2f %10.2f  %s / %s / %s\n", way, what, NR,
                     t[m], t[1], t[NR], o[m], c[m], f[m] }'
done | tee "$tmp/first"

echo
gbus=$(awk '$1 == "gb_sgemm" { print $2 }' "$tmp/enqueue")
clus=$(awk '$1 == "CLBlastSgemm" { print $2 }' "$tmp/enqueue")
warm=$(sort -g -k3,3 "$tmp/gb-warm" | awk '{ t[NR] = $3 } END { print t[int((NR + 1) / 2)] }')
awk -v g="$gbus" -v c="${clus:-0}" -v w="${warm:-0}" 'BEGIN {
    printf "target: enqueue < 10 us and below CLBlast: %.2f us vs %s: %s\n", g,
           (c > 0 ? sprintf("%.2f us", c) : "no CLBlast"),
           (g < 10 && (c == 0 || g < c) ? "met" : "MISSED")
    printf "target: first call with a warm cache <= 20 ms: %.2f ms: %s\n", w,
           (w > 0 && w <= 20 ? "met" : "MISSED") }'
