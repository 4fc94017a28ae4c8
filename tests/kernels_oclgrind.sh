#!/bin/sh
# kernels_oclgrind.sh GEMMBENCH subset|all: runs kernel families under Oclgrind, the OpenCL
# device simulator, with its data-race, uninitialized-value and API checkers, and fails when
# gemmbench exits non-zero, a result fails validation, or Oclgrind reports anything. Oclgrind
# exits 0 even when it finds errors, so its log (--log FILE) and gemmbench's output are read:
# any line in the log is a failure.
#
# Covered: the tutorial families myGEMM* with their presets, and the built-in naive,
# gemmbench_nn, gemmbench_nt, xgemm, xgemm_nv, xgemm_nv_async, intel_naive, intel_slm and cpu_rb
# families with their presets, where present (the subgroup families need cl_intel_subgroups), and
# dgemm_dmma and sgemm_3xtf32 with their mma.sync emulation (EMU=1; small tiles, as the
# emulation's scratch takes local memory) from copies of their metadata without the NVIDIA
# requirement.
# Each run is
#   oclgrind --data-races --uninitialized --check-api --local-mem-size 65536 --log FILE \
#       GEMMBENCH run -p Oclgrind -k NAME -M 33 -N 17 -K 9 -i 1 --warmup 0 [ARGS]
# (odd sizes, so tiled families pad; 64 KiB of simulated local memory so GPU-sized presets fit),
# and again with -K 45: with K = 9 every tiled kernel makes a single step along K, so the
# barriers that guard the reuse of its local tiles (and double buffering) are never tested.
# The harness's gb_copy helper is covered by runs whose layout needs transposition passes
# (row-TN, col-NN on the col-NT myGEMM5, col-NT) with beta != 0, which also copies C into and
# out of a padded buffer.
#   subset: a representative handful, well under a minute on 2 cores (ctest label oclgrind);
#   all:    every name above at K = 9 and 45 in its own precision, every family also in double
#           precision with alpha, beta != 0, and through both transposition routes
#           (labels oclgrind;slow).
# Exit status: 0 all clean, 1 a failure, 2 bad usage, 77 oclgrind is missing (ctest: skipped).
#
# Oclgrind 21.10's --uninitialized checker itself crashes (SIGSEGV in
# oclgrind::Uninitialized::instructionExecuted) on some kernels (gemmbench_nt with VW >= 2, at
# the horizontal sum of its vector accumulators). When a run dies of SIGSEGV with nothing
# reported, it is run again without that checker; the row then says so ('no uninit check') and
# the summary counts it. A kernel that crashes without that checker too still fails.
gb=${1:-}
mode=${2:-}
if [ -z "$gb" ] || { [ "$mode" != subset ] && [ "$mode" != all ]; }; then
    echo "usage: $0 GEMMBENCH subset|all" >&2
    exit 2
fi
. "$(dirname "$0")/script_lib.sh"
requires oclgrind oclgrind
# Build every program from source under Oclgrind (no binary cache), and record nothing.
GEMMBENCH_NO_CACHE=1
export GEMMBENCH_NO_CACHE
nostore=
if "$gb" run --help 2>&1 | grep -q -- --no-store; then
    nostore=--no-store
fi
# The checkers, and the simulated device: 64 KiB of local memory so GPU-sized presets fit.
common="--check-api --local-mem-size 65536"
size="-M 33 -N 17 -i 1 --warmup 0"
nouninit=0

# Oclgrind's reports, wherever they went: the log file, or gemmbench's own output.
reported() {
    [ -s "$tmp/log" ] ||
        grep -Eqi 'oclgrind (fatal )?error|oclgrind - |invalid (read|write)|data race|uninitiali[sz]ed value|work-group divergence' "$tmp/out"
}

# check NAME K [ARGS...]: one gemmbench run of kernel NAME, 33 x 17 x K, under Oclgrind.
check() {
    name=$1
    k=$2
    shift 2
    what="$name -K $k"
    [ $# -gt 0 ] && what="$what $*"
    start=$(date +%s)
    : >"$tmp/log"
    # shellcheck disable=SC2086 # $common, $size and $nostore are word lists
    oclgrind --data-races --uninitialized $common --log "$tmp/log" "$gb" run $nostore \
        -p Oclgrind -k "$name" $size -K "$k" "$@" </dev/null >"$tmp/out" 2>&1
    rc=$?
    note=
    if [ "$rc" -eq 139 ] && ! reported; then
        note=" (no uninit check: Oclgrind's checker crashed)"
        : >"$tmp/log"
        # shellcheck disable=SC2086
        oclgrind --data-races $common --log "$tmp/log" "$gb" run $nostore \
            -p Oclgrind -k "$name" $size -K "$k" "$@" </dev/null >"$tmp/out" 2>&1
        rc=$?
    fi
    secs=$(($(date +%s) - start))
    if [ "$rc" -ne 0 ] || reported || ! grep -q "^$name .* pass" "$tmp/out"; then
        bad "${secs}s $what: gemmbench exit $rc$note"
        sed -n '/^kernel /,$p' "$tmp/out" | head -n 5 | sed 's/^/  /'
        grep -i 'error' "$tmp/out" | head -n 3 | sed 's/^/  /'
        head -n 20 "$tmp/log" | sed 's/^/  log: /'
    else
        ok
        [ -n "$note" ] && nouninit=$((nouninit + 1))
        echo "ok   ${secs}s $what$note"
    fi
}

# The names to check: families (with their precisions) and presets, from 'gemmbench kernels'.
"$gb" kernels >"$tmp/kernels" 2>&1 || {
    echo "FAIL: '$gb kernels' exited non-zero"
    cat "$tmp/kernels"
    exit 1
}
awk '
    /^[A-Za-z_]/ { fam = $1; prec = $2 }
    fam ~ /^(myGEMM[0-9]+|naive|gemmbench_nn|gemmbench_nt|xgemm|xgemm_nv|xgemm_nv_async|intel_naive|intel_slm|cpu_rb)$/ {
        if (/^[A-Za-z_]/) print "family", fam, prec
        else if ($1 == "preset") print "preset", $2, fam
    }' "$tmp/kernels" >"$tmp/names"
# have FAMILY: FAMILY is built in. Optional families are checked only when present; a missing
# myGEMM name fails its check (no 'pass' row).
have() { grep -q "^[a-z]* $1 " "$tmp/names"; }

# mma FAMILY K [ARGS...]: dgemm_dmma (double) or sgemm_3xtf32 (single) with EMU=1, as
# FAMILY_emu: a copy of its metadata without the NVIDIA extension (the source is the built-in
# one), with 2 warps of 16x16 unless ARGS set other parameters (the default tile's scratch alone
# is 128 KiB).
kdir="$(dirname "$0")/../kernels"
have_mma() { [ -f "$kdir/$1.json" ] && grep -q "^$1 " "$tmp/kernels"; }
mma() {
    fam=$1
    k=$2
    shift 2
    if [ ! -f "$tmp/mma/${fam}_emu.json" ]; then
        mkdir -p "$tmp/mma"
        sed -e '/"extensions": *\[/d' -e "s/\"family\": *\"$fam\"/\"family\": \"${fam}_emu\"/" \
            -e "s/\"\\(${fam}_[0-9a-z_]*\\)\":/\"emu_\\1\":/" "$kdir/$fam.json" \
            >"$tmp/mma/${fam}_emu.json"
    fi
    prec=d
    wn=16
    [ "$fam" = sgemm_3xtf32 ] && prec=s && wn=32
    check "${fam}_emu" "$k" --kernel-path "$tmp/mma" --precision $prec --param EMU=1 \
        --param WM=16 --param WN=$wn --param WGM=2 --param WGN=1 "$@"
}

if [ "$mode" = subset ]; then
    check naive 9 --layout col --transA T --beta 0.5
    have gemmbench_nn && check SGEMM_NN_4x1 9
    have gemmbench_nt && check SGEMM_NT_4x1_barrier 45
    have xgemm && check xgemm_small 45
    have xgemm_nv && check xgemm_nv_256 45
    # A thin last row and column of tiles: xgemm_nv_rem's strips, past their unrolled loads.
    have xgemm_nv && check xgemm_nv_64 260 -M 65 -N 129 --transB T --beta 0.5
    # A last partial wave of tiles split along K (TAIL; one compute unit, two slots: 9 tiles,
    # the last in six pieces) and the remainder kernel adding the pieces.
    have xgemm_nv && check xgemm_nv_k8 20 -M 300 -N 300 --transA T --beta 0.5
    have xgemm_nv_async && check xgemm_nv_async_3 45
    # The streams' rows of B read by vloadn where its ld or offset is not a multiple of the
    # vector (no repack): whole vectors and the edge's, a transposed A, in single and double.
    check thin_stream_16 45 -M 5 -N 130 --ldb 133 --offb 1 --beta 0.5
    check thin_stream_1 45 -M 3 -N 70 --ldb 71 --precision d --transA T
    check thin_dot_16 45 -M 70 -N 9 --ldb 11 --offb 1 --beta 0.5
    have cpu_rb && check cpu_rb_14x32 45 --beta 0.5 -M 30 -N 70
    have cpu_rb && check cpu_rb_8x48 45 --beta 0.5 -M 30 -N 70
    # B packed into panels by the prologue kernel (PACKB), from a B with an odd ld and offset.
    have cpu_rb && check cpu_rb_8x48 45 --beta 0.5 -M 30 -N 70 --param PACKB=1 --ldb 75 --offb 3
    have cpu_rb && check cpu_rb_8x24_d 37 --precision d -M 17 -N 50 --param PACKB=1
    have_mma dgemm_dmma && mma dgemm_dmma 45 --param MMAM=16 --param MMAK=8 --transB T \
        --alpha -2 --beta 0.5
    have_mma sgemm_3xtf32 && mma sgemm_3xtf32 49 --transA T --alpha -2 --beta 0.5
    check myGEMM1 9
    check myGEMM2 45
    check myGEMM4_W8 45
    check myGEMM5 45 --layout col --beta 0.5
    check myGEMM6_32x32x32 45 --layout row --transA T --beta 0.5
    check myGEMM9_64x128x16_W8 45
    check myGEMM10 9 --precision d --alpha -2 --beta 0.5
    check myGEMM11 9
else
    while read -r kind name precs; do
        check "$name" 9
        check "$name" 45
        [ "$kind" = family ] || continue
        # xgemm_nv's default double tile (128x128x16) needs 66 KiB, over the simulator's 64.
        dparams=""
        [ "$name" = xgemm_nv ] && dparams="--param KWG=8"
        # shellcheck disable=SC2086
        case "$precs" in *d*) check "$name" 9 --precision d --alpha -2 --beta 0.5 $dparams ;; esac
        check "$name" 9 --layout row --transA T --beta 0.5
        check "$name" 9 --layout col --transB T --beta -1
    done <"$tmp/names"
    if have_mma dgemm_dmma; then
        mma dgemm_dmma 9
        mma dgemm_dmma 45 --alpha -2 --beta 0.5
        mma dgemm_dmma 45 --param MMAM=16 --param MMAK=4 --layout row --transA T
        mma dgemm_dmma 45 --param MMAM=16 --param MMAK=8 --transB T --alpha -2 --beta 0.5
        mma dgemm_dmma 45 --param WGN=2 --param BK=16 --param MMAM=16 --param MMAK=16 \
            --layout col --beta 1
    fi
    if have_mma sgemm_3xtf32; then
        mma sgemm_3xtf32 48
        mma sgemm_3xtf32 49 --layout row --transB T --alpha -2 --beta 0.5
        mma sgemm_3xtf32 49 --param MMAK=4 --param KACC=0 --layout col --beta 1
    fi
fi
echo "oclgrind $mode: $passed clean ($nouninit without the uninitialized-value check), $failed failed"
[ "$failed" -eq 0 ]
