#!/bin/sh
# bench/pipeline.sh: the pipelined offload (--pipeline, 4 panels) against the serial one on an
# NVIDIA GPU (written for the H200), from pinned and from pageable host memory, and the refusal
# of --host-mem mapped on a device that does not share host memory (../shared/GPU.md: `source
# .device/unpack.sh` first). Builds build-gpu (Release), keeps the points in
# build-gpu/pipeline.db, prints one table.
set -u
cd "$(dirname "$0")/.." || exit 1
# GB_BUILD, GB_PLATFORM, GB_KERNEL, GB_SIZES change what it runs (to try it elsewhere).
build=${GB_BUILD:-build-gpu}
platform=${GB_PLATFORM:-NVIDIA}
kernel=${GB_KERNEL:-xgemm_nv_k8}
sizes=${GB_SIZES:-1024 2048 4096 8192}
gb=$build/gemmbench
store=$build/pipeline.db
export GEMMBENCH_ENERGY_MIN_S=0 # no energy loop: a second less per point
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$build" >/dev/null || { echo "build failed"; exit 1; }
"$gb" devices 2>/dev/null | grep -m1 "device .*$platform" || true
echo "run -p $platform -k $kernel --timing offload --pipeline (4 panels) -i 10: each pipelined point"
echo "after the serial offload of the same point; ms are medians of the whole offload (events)"
printf '%-9s %6s %11s %13s %8s %7s  %s\n' host-mem n "serial ms" "pipelined ms" saving ratio \
    "valid (serial, pipelined)"
bad=0
for hm in pinned pageable; do
    for n in $sizes; do
        out=$("$gb" run -p "$platform" -k "$kernel" --timing offload --pipeline --host-mem "$hm" \
            -n "$n" -i 10 --store "$store" 2>&1)
        rc=$?
        # The pipelined row ends "pipelined P ms, serial S ms: Rx".
        nums=$(printf '%s\n' "$out" |
            sed -n 's/.*pipelined \([0-9.e+-]*\) ms, serial \([0-9.e+-]*\) ms: \([0-9.]*\)x.*/\2 \1 \3/p' |
            head -1)
        valid=$(printf '%s\n' "$out" | grep "^$kernel " |
            sed -n 's/.*  \(pass\|FAIL\|-\)\([^(]*\).*/\1/p' | tr '\n' ' ')
        if { [ $rc -ne 0 ] && [ $rc -ne 1 ]; } || [ -z "$nums" ]; then
            printf '%-9s %6s  failed (exit %d):\n' "$hm" "$n" "$rc"
            printf '%s\n' "$out" | tail -4 | sed 's/^/    /'
            bad=1
            continue
        fi
        [ $rc -eq 1 ] && bad=1 # a validation failed
        # shellcheck disable=SC2086
        set -- $nums
        printf '%-9s %6s %11s %13s %7s%% %6sx  %s\n' "$hm" "$n" "$1" "$2" \
            "$(awk -v s="$1" -v p="$2" 'BEGIN { printf "%.1f", 100 * (1 - p / s) }')" "$3" \
            "$valid"
    done
done
echo "(sizes above 2048 are not validated by default: M*N*K > 2^33; '-' in the last column)"

# --host-mem mapped on a discrete GPU: one line, exit 2, nothing stored.
refused="$build/mapped-refused.db"
rm -f "$refused"
msg=$("$gb" run -p "$platform" -k "$kernel" --host-mem mapped -n 1024 --store "$refused" 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s\n' "$msg" | grep -q "does not share host memory" &&
    [ "$(printf '%s\n' "$msg" | wc -l)" -eq 1 ] && [ ! -e "$refused" ]; then
    echo "--host-mem mapped refused as it should be (exit 2, nothing stored): $msg"
else
    echo "--host-mem mapped NOT refused as expected (exit $rc): $msg"
    bad=1
fi
exit $bad
