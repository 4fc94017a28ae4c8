#!/usr/bin/env bash
# bench/intel-subgroups.sh: validates every kernel of the Intel SGEMM sample families
# (intel_naive, intel_slm, intel_simd, intel_block_read; docs/intel-kernels.md) on one OpenCL
# platform, by default 'Portable Computing Language': PoCL 5 exposes cl_intel_subgroups on the
# CPU, so there the sub-group kernels can be checked on a machine without Intel graphics.
#
#   bench/intel-subgroups.sh GEMMBENCH [PLATFORM]
#
# Each preset runs column-major at sizes that straddle its tiles (1, 7, 63, 64, 65, 127, 97 and
# 130x70x33) with alpha and beta in {0, 1, other} on uniform data, with integer data (int:3, so
# the result must match exactly) for every integer alpha/beta pair, and through the operand swap
# (row-major), transposition passes with offsets, and a padded ldc. Every run is validated; the
# script prints one line per run and ends with 'N passed, M failed'. Exit status 0 only when
# nothing failed.
#
# The block_read kernels call intel_sub_group_block_read on images made over the operands'
# buffers. PoCL 5 has neither: it cannot make 2D images from buffers, and it links no image
# block reads. When the first block_read preset cannot run or build, the script says so once,
# counts those presets' own block reads as skipped, and checks them with EMULATE_BLOCK_READ=1
# instead, from a copy of the family (--kernel-path) that lets the harness copy each operand
# into an image: the kernels then read the same pixels with read_imageui, so their indexing, the
# images and the shuffles are checked, not the driver's block reads. EMULATE=0 or EMULATE=1 in
# the environment forces either way; JOBS sets how many presets run at once (default: the
# number of processors).
set -u
gb=${1:?usage: bench/intel-subgroups.sh GEMMBENCH [PLATFORM]}
kernels=$(cd "$(dirname "$0")/../kernels" && pwd) || exit 2
platform=${2:-Portable Computing Language}
emulate=${EMULATE:-auto}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
[ -x "$gb" ] || { echo "not an executable: $gb" >&2; exit 2; }

presets="intel_naive L3_SLM_8x8_8x16 L3_SLM_8x8_4x16 L3_SLM_8x8_16x16
L3_SIMD_32x2_1x8 L3_SIMD_16x2_1x8 L3_SIMD_16x2_4x8 L3_SIMD_8x4_1x8 L3_SIMD_8x4_8x8
L3_SIMD_8x4_8x8_barrier
block_read_32x2_1x8 block_read_32x2_4x8 block_read_32x2_8x8 block_read_16x2_1x8
block_read_16x2_4x8 block_read_16x2_8x8 block_read_16x4_1x8 block_read_16x4_4x8
block_read_16x4_8x8 block_read_32x1_1x8 block_read_4x1_1x8"

work=$(mktemp -d "${TMPDIR:-/tmp}/gb-intel.XXXXXX") || exit 3
trap 'rm -rf "$work"' EXIT
# These validation runs stay out of the user's result store.
export GEMMBENCH_STORE=${GEMMBENCH_STORE:-$work/results.db} XDG_DATA_HOME=$work

# run KERNEL WHAT ARGS..: one gemmbench invocation; prints a line per result row, "pass ..." or
# "FAIL ...", or one FAIL line with the error when the run could not happen.
run() {
    local k=$1 what=$2 out rc ef="$work/err.$BASHPID"
    shift 2
    out=$("$gb" run -p "$platform" -k "$k" -i 1 --warmup 0 "$@" 2> "$ef")
    rc=$?
    local rows
    rows=$(printf '%s\n' "$out" | awk -v what="$what" '
        $5 ~ /^[0-9]+$/ && $6 ~ /^[0-9]+$/ && (i = index($0, "  pass")) + (j = index($0, "  FAIL")) {
            v = substr($0, (i ? i : j) + 2)
            printf "%s %-24s %-7s %4sx%sx%s  %s  %s\n", (i ? "pass" : "FAIL"), $1, $3, $4, $5, $6, what, v
        }')
    if [ -n "$rows" ]; then
        printf '%s\n' "$rows"
    fi
    if [ $rc -ne 0 ] && [ $rc -ne 1 ] || [ -z "$rows" ]; then
        printf 'FAIL %-24s %s: exit %d: %s\n' "$k" "$what" "$rc" \
            "$(grep -v '^ *$' "$ef" | head -1 | cut -c1-300)"
    fi
    rm -f "$ef"
}

sizes="1,7,63,64,65,127,97"
check_preset() {
    local k=$1
    shift
    local extra=("$@") a b
    for a in 0 1 -1.5; do
        for b in 0 1 0.75; do
            run "$k" "alpha $a beta $b" "${extra[@]}" -n $sizes --alpha $a --beta $b
            run "$k" "alpha $a beta $b" "${extra[@]}" -M 130 -N 70 -K 33 --alpha $a --beta $b
        done
    done
    for a in 0 1 -2; do
        for b in 0 1 3; do
            run "$k" "alpha $a beta $b int:3" "${extra[@]}" -M 130 -N 70 -K 33 --dist int:3 \
                --alpha $a --beta $b
        done
    done
    run "$k" "alpha 2 beta 3 int:3" "${extra[@]}" -n $sizes --dist int:3 --alpha 2 --beta 3
    run "$k" "row-major (swap) beta 0.5" "${extra[@]}" --layout row -M 130 -N 70 -K 33 \
        --beta 0.5
    run "$k" "row-TT lda 140 offsets alpha -1 beta 2" "${extra[@]}" --layout row --transA T \
        --transB T --lda 140 --offa 3 --offb 1 --offc 5 -M 77 -N 45 -K 61 --alpha -1 --beta 2
    run "$k" "ldc 200 beta 0.5" "${extra[@]}" --ldc 200 -n 130 --beta 0.5
}

echo "gemmbench: $gb"
"$gb" devices 2>/dev/null | grep -i -A3 "$platform" | head -4
skipped=0
emu=()
if [ "$emulate" = auto ]; then
    probe=$("$gb" run -p "$platform" -k block_read_4x1_1x8 -n 64 -i 1 --warmup 0 2>&1)
    rc=$?
    if [ $rc -le 1 ]; then
        echo "note: the driver runs the block_read kernels as they are"
        emulate=0
    else
        echo "note: block_read_4x1_1x8 as it is: exit $rc: $(printf '%s\n' "$probe" | grep -m1 -iE 'symbol|undeclared|error' | cut -c1-240)"
        emulate=1
        skipped=11
    fi
fi
if [ "$emulate" = 1 ]; then
    # The family as built in, but allowed to copy operands into images (no image2d_from_buffer).
    mkdir -p "$work/emulated"
    cp "$kernels/intel_block_read.cl" "$work/emulated/" &&
        sed 's/"image2d_from_buffer": true/"image2d_from_buffer": false/' \
            "$kernels/intel_block_read.json" > "$work/emulated/intel_block_read.json" || exit 3
    # Whether the driver's own block reads would build and be right on copied images (a note,
    # not counted: the driver may still lack 2D images over buffers).
    probe=$("$gb" run -p "$platform" --kernel-path "$work/emulated" -k block_read_4x1_1x8 -n 64 \
        -i 1 --warmup 0 2>&1)
    rc=$?
    echo "note: the driver's block reads on copied images: exit $rc: $(printf '%s\n' "$probe" |
        grep -m1 -E '^block_read_4x1_1x8 |symbol|undeclared|error' | cut -c1-240)"
    echo "note: block_read kernels are checked with EMULATE_BLOCK_READ=1 (read_imageui per lane)"
    emu=(--kernel-path "$work/emulated" --param EMULATE_BLOCK_READ=1)
fi

i=0
for k in $presets; do
    args=()
    case $k in block_read_*) args=("${emu[@]}") ;; esac
    ( GEMMBENCH_CACHE_DIR="$work/cache-$k" check_preset "$k" "${args[@]}" > "$work/$i.$k.log" ) &
    i=$((i + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n 2>/dev/null || sleep 0.2; done
done
wait
i=0
for k in $presets; do
    cat "$work/$i.$k.log"
    i=$((i + 1))
done > "$work/all.log"
cat "$work/all.log"
passed=$(grep -c '^pass ' "$work/all.log")
failed=$(grep -c '^FAIL ' "$work/all.log")
if [ $skipped -gt 0 ]; then
    echo "$passed passed, $failed failed ($skipped presets' driver block reads skipped, emulated instead)"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
