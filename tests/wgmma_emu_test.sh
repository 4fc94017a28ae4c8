#!/bin/sh
# wgmma_emu_test.sh GEMMBENCH KERNELS: sgemm_wgmma, the PTX program family of kernels/wgmma.cl,
# on the default device with EMU=1, where each wgmma.mma_async is computed in OpenCL C from the
# same A registers and B descriptor (its fields decoded, local memory read where they point) and
# the program is plain OpenCL C: so the A fragments, the k order A and B share, B's core-matrix
# layout with its paddings, the descriptors, the split, the staging and the edges are checked
# where there is no Hopper GPU (PoCL in CI); the instruction itself runs on sm_90 only
# (bench/wgmma.sh validates it there). Checked at tile-straddling sizes with alpha, beta other
# than 1, 0: the four row-major layouts and a column-major one, each tile width, K step and
# accumulation (running sums in registers or local memory), padded and odd leading dimensions
# and offsets, both prefetch depths, B through the ring of asynchronous copies, split-K (given
# pieces and the grid's need); exact integer data with plain TF32 (TERMS=1). And that the checks
# can fail: TERMS=1 on real data is caught as not faithful; a copy that reads B's slots in the
# wrong order fails the bound, and so does one that writes a split tile's piece over another's,
# one that reads B's ring (BRING) a slot off, one that stores BV4's columns in reverse and one
# that reads A in the wrong k order for KNAT;
# without EMU off sm_90 the family is refused in one line, as is a K below its constraint.
# hgemm_wgmma, the same source in h and b (wgmma .f16/.bf16 .m64nNk16 on the stored bits): the
# layouts, tile widths, K steps and accumulations, offsets and odd leading dimensions, split-K in
# both precisions, faithful to FP32 accumulation; and the broken copy caught in h. hgemm_wgmma_nt (A
# and B from local memory, the cp.async pipeline): layouts, tiles, stages, edges, the swizzled
# rows, split-K; a copy with A's k-blocks swapped caught, one that does not swizzle, and a piece of
# a split tile written over another's. hgemm_wgmma_mn (an operand stored MN-contiguous, copied
# MN-major and read transposed by the MMA: row-NN, TN, TT): the same, and B's copies unswizzled,
# two of its k rows exchanged, A's atoms of two warp groups exchanged, and the running sums in
# local memory overwritten instead of added, each caught. sgemm_wgmma_ct (C^T = B A^T written
# transposed, the stages by the emulated copy engine, B's fragments split in registers): edges,
# split-K, two warp groups, NN (row-TT as it sees it: the streaming operand landed MN-major),
# exact integers, C written as it is (CT=0), the pieces added in the kernel (FIXUP=1), the next
# stage landed during the MMAs (OVERLAP=1), pieces by the grid's need (SPLITK=0), tiles of 16
# and 32 columns; six faults caught.
# Prints one line per failure and 'N passed, M failed'.
# shellcheck disable=SC2086 # the option lists are split on purpose
gb=${1:?usage: wgmma_emu_test.sh GEMMBENCH KERNELS}
kernels=${2:?usage: wgmma_emu_test.sh GEMMBENCH KERNELS}
. "$(dirname "$0")/script_lib.sh"
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
GEMMBENCH_NO_CACHE=1
export XDG_DATA_HOME GEMMBENCH_STORE GEMMBENCH_NO_CACHE

fam=sgemm_wgmma
emu="-k $fam --param EMU=1"
ab="--alpha 1.5 --beta -0.5"
# Every run must exit 0 and print only rows that pass and are faithful.
check_run() { run_rows "^$fam .* faithful +pass( |\$)" $emu "$@"; }
# 1. The small tile (64x64) in every layout; the default 128x128 in one.
small="--param WGM=1 --param BN=64"
for lay in "" "--transB T" "--transA T" "--transA T --transB T" "--layout col --transB T"; do
    check_run $small $lay -M 133 -N 77 -K 97 $ab
done
check_run -M 130 -N 135 -K 64 $ab
# 2. Tile widths, K steps, accumulation, paddings, prefetch depth.
check_run --param WGM=2 --param BN=64 --param BK=32 --param KACC=1 -M 130 -N 70 -K 100 $ab
check_run --param WGM=1 --param BN=128 --param BK=8 --param PADS=0 --param PREFETCH=2 \
    --transB T -M 70 -N 130 -K 50 $ab
check_run --param WGM=1 --param BN=256 --param BK=8 --param KACC=0 --transA T -M 65 -N 260 \
    -K 48 $ab
check_run $small --param PADL=1 --param PADS=2 --param KACC=2 -M 97 -N 65 -K 120 $ab
check_run --param WGM=1 --param BN=128 --param KACC=2 --param RUNSUM=1 -M 70 -N 130 -K 200 $ab
# sgemm_wgmma_128x128x32: two warp groups' running sums in local memory, a last sum of 88 k.
check_run --param WGM=2 --param BN=128 --param BK=32 --param KACC=16 --param RUNSUM=1 \
    --param GROUPM=4 -M 130 -N 135 -K 600 $ab
# Split-K: pieces of a tile's K added by wgmma_sum; edges, odd leading dimensions and offsets,
# the sums of KACC steps and the running sums inside a piece, both prefetch depths. By the grid's
# need (SPLITK=0): one tile is short of any device, so K is split, also through the preset that
# sets it. K too short for pieces: the kernel built without the split code.
check_run $small --param SPLITK=4 -M 70 -N 65 -K 1100 $ab
check_run $small --param SPLITK=3 --param PREFETCH=2 --param KACC=2 --param RUNSUM=1 \
    --transA T --transB T -M 70 -N 65 -K 1030 --lda 73 --ldb 1031 --offa 1 --offb 3 $ab
check_run $small --param SPLITK=0 -M 60 -N 50 -K 2100 --dist int:3 $ab
run_rows "^$fam .* faithful +pass .*remainder kernel" $emu $small --param SPLITK=0 -M 60 -N 50 \
    -K 2100 $ab
run_rows "^${fam}_128x128x32_split .* faithful +pass .*remainder kernel" \
    -k ${fam}_128x128x32_split --param EMU=1 -M 97 -N 65 -K 2100 $ab
run_rows "^$fam .* faithful +pass .*unsplit build" $emu $small --param SPLITK=4 -M 70 -N 65 -K 200 \
    $ab
# B through the ring of cp.async copies (BRING): each depth, layouts with B either way round,
# edges, split-K pieces, and an odd leading dimension (copied by loads and stores where M is
# short of 1024).
check_run $small --param BRING=1 -M 133 -N 77 -K 197 $ab
check_run $small --param BRING=2 --transB T -M 133 -N 77 -K 197 $ab
check_run --param WGM=1 --param BN=128 --param BK=32 --param KACC=16 --param RUNSUM=1 \
    --param BRING=1 --transB T -M 70 -N 130 -K 600 $ab
check_run $small --param BRING=3 --param SPLITK=3 --param KACC=2 --param RUNSUM=1 --transA T \
    -M 70 -N 65 -K 1030 --ldb 1031 --offb 3 $ab
# B stored 16 bytes at a time: K x N four vectors a group (BV4, 16 vectors a work-item or more:
# BN 64 at BK 32, BN 128 at BK 16) in NN and TN, with the ring and split-K; row-TT in the MMA's
# own k order (KNAT), at PADL 0, which it takes as 1.
check_run --param WGM=1 --param BN=64 --param BK=32 --param BRING=2 -M 70 -N 130 -K 300 \
    --ldb 132 --offb 4 $ab
check_run --param WGM=1 --param BN=128 --param BK=16 --param SPLITK=3 --transA T -M 70 -N 130 \
    -K 1030 $ab
check_run --param WGM=2 --param BN=64 --param BK=32 --param PADL=0 --param BRING=1 --transA T \
    --transB T -M 130 -N 70 -K 300 $ab
# Rows of B off 16 bytes where M repays a copy (M >= 1024): B copied to aligned rows first.
run_rows "^$fam .* faithful +pass .*repack" $emu $small --param BRING=2 -M 1030 -N 9 -K 100 $ab
# 3. Leading dimensions and offsets: padded and aligned (vector loads), odd (scalar loads).
check_run $small -M 70 -N 65 -K 64 --lda 68 --ldb 72 --ldc 68 --offa 4 --offb 8 --offc 2 $ab
check_run $small --transA T --transB T -M 70 -N 65 -K 64 --lda 73 --ldb 67 --ldc 69 --offa 1 \
    --offb 3 --offc 5 $ab
# 4. Plain TF32 on small integers, which TF32 holds exactly: exact.
out=$("$gb" run -i 1 --warmup 0 $emu $small --param TERMS=1 --dist int:4 -M 70 -N 65 -K 64 2>&1)
if printf '%s\n' "$out" | grep -qE "^$fam .* pass exact"; then ok; else
    bad "TERMS=1 on integers was not exact: $(printf '%s\n' "$out" | tail -2)"; fi

# 5. The checks can fail. TERMS=1 on real data is TF32 arithmetic: not faithful, exit 1.
out=$("$gb" run -i 1 --warmup 0 $emu $small --param TERMS=1 -M 64 -N 64 -K 512 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE "^$fam .*not faithful"; then ok; else
    bad "plain TF32 was not caught (exit $rc): $(printf '%s\n' "$out" | tail -2)"; fi
# caught SED WHAT ARGS...: fam with wgmma.cl changed by SED (a fault, WHAT) fails the bound when
# run with ARGS under the emulation: the copy in a folder of its own beside the families' JSON
# copies in $tmp/broken (whose wgmma.cl, B's slots out of order, hgemm_wgmma's check uses too),
# in fam's precision and native layout (hgemm_wgmma_nt: h, B^T stored N x K; hgemm_wgmma_mn: h).
caught() {
    mkdir -p "$tmp/caught" && cp "$tmp/broken/"*.json "$tmp/caught/" &&
        sed "$1" "$kernels/wgmma.cl" >"$tmp/caught/wgmma.cl"
    what=$2
    shift 2
    if cmp -s "$kernels/wgmma.cl" "$tmp/caught/wgmma.cl"; then
        bad "could not make the copy with $what; update its sed"
        return
    fi
    case $fam in
    hgemm_wgmma_nt) native="--precision h --transB T" ;;
    hgemm_wgmma_mn) native="--precision h" ;;
    sgemm_wgmma_ct) native="--transB T" ;;
    *) native= ;;
    esac
    out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/caught" -k ${fam}_broken --param EMU=1 \
        $native "$@" 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE "^${fam}_broken .*FAIL: "; then ok; else
        bad "$fam: $what was not caught (exit $rc): $(printf '%s\n' "$out" | tail -2)"
    fi
}
# A copy whose B slots are stored one place off within a core-matrix row fails the bound.
mkdir "$tmp/broken" || exit 1
sed -e "s/\"family\": *\"$fam\"/\"family\": \"${fam}_broken\"/" \
    -e "s/\"\\(${fam}_[0-9a-z_]*\\)\":/\"broken_\\1\":/" "$kernels/$fam.json" \
    >"$tmp/broken/${fam}_broken.json"
sed 's|(n % 8) \* EPC + s % EPC;|(n % 8) * EPC + (s + 1) % EPC;|' "$kernels/wgmma.cl" >"$tmp/broken/wgmma.cl"
if cmp -s "$kernels/wgmma.cl" "$tmp/broken/wgmma.cl" ||
    ! grep -q "\"family\": \"${fam}_broken\"" "$tmp/broken/${fam}_broken.json"; then
    bad "could not make the broken copy; update the seds above"
else
    out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/broken" -k ${fam}_broken --param EMU=1 \
        $small -M 64 -N 64 -K 64 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE "^${fam}_broken .*FAIL: "; then ok; else
        bad "B's slots out of order were not caught (exit $rc): $(printf '%s\n' "$out" | tail -2)"
    fi
    # B's ring read at the wrong slot (the step after the one due); BV4's four columns of a
    # group stored in reverse order; KNAT's A read 1 apart (the other order's) where B is in the
    # MMA's own; the second piece of a split tile written over the first's sums.
    caught 's|ring + s % BRING \* |ring + (s + 1) % BRING * |' "B's ring read at the wrong slot" \
        $small --param BRING=2 -M 64 -N 64 -K 300
    caught 's|store_row4(row + i \* EPC, |store_row4(row + (3 - i) * EPC, |' \
        "BV4's columns stored in reverse" $small --param BK=32 -M 64 -N 64 -K 64
    caught 's|#define AK 4 |#define AK 1 |' "KNAT's A read in the other k order" $small \
        --transA T --transB T -M 64 -N 64 -K 64
    caught 's|WS + (size_t)slot \* (BM \* BN)|WS + (size_t)(slot / 2 * 2) * (BM * BN)|' \
        "a split-K piece written over another's" $small --param SPLITK=2 -M 64 -N 64 -K 600
fi
# 6. Refusals, one line each, exit 2: the PTX program off sm_90, and K below the constraint.
out=$("$gb" run -i 1 -k $fam -M 64 -N 64 -K 64 2>&1)
rc=$?
if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    printf '%s\n' "$out" | grep -q "is a PTX program for sm_90a, which device .* cannot load"; then
    ok
else
    bad "the PTX program off sm_90 (exit $rc): $out"
fi
out=$("$gb" run -i 1 $emu -M 64 -N 64 -K 40 2>&1)
rc=$?
if [ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q "violates its constraint 'K >= 48'"; then ok; else
    bad "K below 48 (exit $rc): $out"; fi

# 7. hgemm_wgmma in h and b.
fam=hgemm_wgmma
emu="-k $fam --param EMU=1"
# Every layout in h; b differs only in how an element is read and in the instruction's type.
for lay in "" "--transB T" "--transA T" "--transA T --transB T" "--layout col --transB T"; do
    check_run --precision h $small --param BK=16 $lay -M 133 -N 77 -K 97 $ab
done
check_run --precision h --param WGM=1 --param BN=256 --param BK=64 --param KACC=0 \
    --param PREFETCH=2 --transA T -M 65 -N 260 -K 150 $ab
for p in h b; do
    check_run --precision $p -M 130 -N 135 -K 96 $ab
    check_run --precision $p $small --param PADL=1 --param PADS=2 --param KACC=1 \
        --transA T --transB T -M 70 -N 65 -K 64 --lda 73 --ldb 67 --ldc 69 --offa 1 --offb 3 \
        --offc 5 $ab
done
check_run --precision h $small --param BK=32 -M 70 -N 65 -K 64 --lda 72 --ldb 72 --ldc 68 \
    --offa 8 --offb 4 --offc 2 $ab
# Split-K: the pieces' FP32 sums rounded once to the storage format by wgmma_sum.
check_run --precision h $small --param BK=16 --param SPLITK=3 -M 70 -N 65 -K 1100 $ab
check_run --precision b $small --param BK=32 --param SPLITK=2 --param KACC=4 --transB T -M 133 \
    -N 77 -K 1030 $ab
# The copy extends sgemm_wgmma's copy (section 5), beside it with the changed wgmma.cl.
sed -e "s/\"family\": *\"$fam\"/\"family\": \"${fam}_broken\"/" \
    -e "s/\"extends\": *\"sgemm_wgmma\"/\"extends\": \"sgemm_wgmma_broken\"/" \
    -e "s/\"\\([hb]gemm_wgmma_[0-9a-z_]*\\)\":/\"broken_\\1\":/" "$kernels/$fam.json" \
    >"$tmp/broken/${fam}_broken.json"
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/broken" -k ${fam}_broken --param EMU=1 \
    --precision h $small --param BK=16 -M 64 -N 64 -K 64 2>&1)
rc=$?
if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE "^${fam}_broken .*FAIL: "; then ok; else
    bad "h: B's slots out of order were not caught (exit $rc): $(printf '%s\n' "$out" | tail -2)"
fi

# 8. hgemm_wgmma_nt: A and B both through descriptors, filled by the copy pipeline. Its native
# NT, and NN and TT through passes; tile widths, K steps, stages and the MMAs in flight; K not a
# multiple of 8 or of the step, K below the pipeline's depth; aligned leading dimensions and
# offsets (the 16-byte copies) and odd ones (the route's copies to aligned rows); the sums of KACC
# steps; b.
fam=hgemm_wgmma_nt
emu="-k $fam --param EMU=1"
# Core matrices without swizzling, padded (the default is the swizzled rows of 64 bytes).
core="--param SWZ=0 --param PADL=1"
for lay in "--transB T" "" "--transA T --transB T"; do
    check_run --precision h $small $core --param BK=16 --param STAGES=3 $lay -M 133 -N 77 -K 97 $ab
done
check_run --precision h --transB T -M 130 -N 135 -K 100 $ab
check_run --precision h --transB T $core --param BN=256 --param WGM=1 --param BK=64 \
    --param STAGES=2 --param KACC=0 -M 65 -N 260 -K 150 $ab
check_run --precision h --transB T $small $core --param BK=16 --param STAGES=6 --param INFLIGHT=1 \
    --param KACC=0 -M 70 -N 65 -K 120 --lda 128 --ldb 136 --ldc 68 --offa 8 --offb 16 --offc 2 $ab
check_run --precision h --transB T $small $core --param BK=32 --param STAGES=4 --param INFLIGHT=1 \
    --param KACC=0 -M 70 -N 65 -K 37 --lda 73 --ldb 67 --ldc 69 --offa 1 --offb 3 --offc 5 $ab
check_run --precision b --transB T $small $core --param BK=16 --param STAGES=2 -M 64 -N 64 -K 300 \
    $ab
# The tiles packed (PADL=0), K steps of 32 and 64.
check_run --precision h --transB T $small --param SWZ=0 --param PADL=0 --param BK=32 \
    --param STAGES=2 -M 70 -N 65 -K 100 $ab
check_run --precision b --transB T $small --param SWZ=0 --param PADL=0 --param BK=64 \
    --param STAGES=2 --param KACC=4 -M 70 -N 65 -K 150 $ab
# Chunks inside the matrix copied without the zero-fill operand (ZFILL=0), edges and a K tail.
check_run --precision h --transB T $small $core --param ZFILL=0 --param BK=16 --param STAGES=3 \
    -M 70 -N 65 -K 100 $ab
# Rows swizzled as the tensor core reads them (SWZ = 2 BK): each width, edges, K tails, b, and
# odd leading dimensions.
check_run --precision h --transB T $small --param SWZ=32 --param BK=16 --param PADL=0 \
    --param STAGES=3 -M 70 -N 65 -K 100 $ab
check_run --precision b --transB T --param SWZ=64 --param BK=32 --param PADL=0 --param STAGES=2 \
    -M 133 -N 135 -K 97 $ab
check_run --precision h --transB T --param BN=128 --param WGM=1 --param SWZ=128 --param BK=64 \
    --param PADL=0 --param STAGES=2 --param KACC=2 -M 70 -N 130 -K 150 $ab
check_run --precision h --transB T $small --param SWZ=64 --param BK=32 --param PADL=0 \
    --param STAGES=3 -M 70 -N 65 -K 37 --lda 73 --ldb 67 --offa 1 $ab
# Split-K: pieces of a tile's K added by the second kernel; edges, odd leading dimensions, the
# sums of KACC steps inside a piece, b.
check_run --precision h --transB T $small --param SWZ=64 --param BK=32 --param PADL=0 \
    --param SPLITK=4 -M 70 -N 65 -K 1100 $ab
check_run --precision b --transB T $small --param SWZ=64 --param BK=32 --param PADL=0 \
    --param SPLITK=2 --param KACC=4 -M 133 -N 77 -K 1030 --lda 1033 --offa 1 $ab
# SPLITK where K is too short for pieces (K / 256 = 0): nothing split, so the kernel is built
# without the split code (the family's "unsplit"), and the route says so.
run_rows "^$fam .* faithful +pass .*unsplit build" $emu --precision h --transB T $small \
    --param SWZ=64 --param BK=32 --param PADL=0 --param SPLITK=4 -M 70 -N 65 -K 200 $ab
# TMA=1: the stages filled by the copy engine, emulated (its maps in the workspace's slots, boxes
# through the swizzle, zeros past the matrix and K): each swizzle width, edges, K tails, odd
# leading dimensions (the route's aligned copies), b, and split-K (the maps after the sums).
tma="--param TMA=1 --param PADL=0"
check_run --precision h --transB T $small $tma --param SWZ=32 --param BK=16 --param STAGES=3 \
    -M 70 -N 65 -K 100 $ab
check_run --precision b --transB T $tma --param SWZ=64 --param BK=32 --param STAGES=2 \
    -M 133 -N 135 -K 97 --lda 99 --offa 1 $ab
check_run --precision h --transB T $tma --param BN=128 --param WGM=1 --param SWZ=128 --param BK=64 \
    --param STAGES=2 --param KACC=2 -M 70 -N 130 -K 150 $ab
check_run --precision h --transB T $small $tma --param SWZ=64 --param BK=32 --param SPLITK=4 \
    -M 70 -N 65 -K 1100 $ab
check_run --precision h --transB T $small $tma --param SWZ=64 --param BK=32 --param SPLITK=4 \
    --param STAGES=4 --param INFLIGHT=1 --param KACC=2 -M 70 -N 65 -K 1100 $ab
# B's tile with fewer chunks than work-items (64 x 16 against 256): half of them copy none of it.
check_run --precision h --transB T $core --param BN=64 --param WGM=2 --param BK=16 \
    --param STAGES=3 -M 140 -N 70 -K 77 $ab
# The sums of KACC steps added in FP32: a last group shorter than KACC, and KACC=1.
check_run --precision h --transB T $small $core --param BK=16 --param KACC=4 -M 70 -N 65 -K 300 \
    $ab
check_run --precision b --param BK=32 --param KACC=1 --param STAGES=3 -M 130 -N 70 -K 100 $ab
# With the MMAs in flight: the sums read only at a group's end, the last group shorter, and TMA.
check_run --precision h --transB T $small --param SWZ=64 --param BK=32 --param PADL=0 \
    --param STAGES=4 --param INFLIGHT=1 --param KACC=2 -M 70 -N 65 -K 270 $ab
check_run --precision b --transB T $small $tma --param SWZ=64 --param BK=32 --param STAGES=4 \
    --param INFLIGHT=1 --param KACC=4 -M 70 -N 65 -K 300 $ab
# The 192-wide tile (wgmma.m64n192k16), which with KACC needs TMA: two tiles of N, edges, K's tail.
check_run --precision h --transB T $tma --param BN=192 --param WGM=2 --param SWZ=128 --param BK=64 \
    --param STAGES=3 --param INFLIGHT=1 --param KACC=4 -M 140 -N 250 -K 300 $ab
# More than 256 k in the tensor core's own sums is refused, in one line: all of K past 256, and
# KACC steps of more than 256 k.
for bad_acc in "--param KACC=0 -K 300" "--param KACC=16 --param BK=32 -K 300"; do
    out=$("$gb" run -i 1 $emu --precision h -M 16 -N 16 $bad_acc 2>&1)
    rc=$?
    if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$out" |
        grep -qF "violates its constraint '(KACC > 0 && KACC * BK <= 256) || K <= 256'"; then
        ok
    else bad "nt: $bad_acc was not refused (exit $rc): $out"; fi
done
# The families as copies beside a changed wgmma.cl: FAM_broken, its presets broken_*, the NN
# twin extending the NT one's copy.
for f in hgemm_wgmma_nt hgemm_wgmma_mn; do
    sed -e "s/\"\\(family\|extends\)\": *\"\\(hgemm_wgmma_[mn][nt]\\)\"/\"\\1\": \"\\2_broken\"/" \
        -e "s/\"\\([hb]gemm_wgmma_[mn][nt]_[0-9a-z_]*\\)\":/\"broken_\\1\":/" "$kernels/$f.json" \
        >"$tmp/broken/${f}_broken.json"
done
# A's MMAs reading its two k-blocks of a step swapped (B's in order); the second piece of a split
# tile written over the first's sums; chunks copied to their rows unswizzled where the
# descriptors say swizzled.
caught 's|da0 + so + KB_STEP_A \* kb, db|da0 + so + KB_STEP_A * (kb ^ 1), db|' "A's k-blocks swapped" \
    $small --param BK=32 -M 64 -N 64 -K 64
caught 's|WS + (size_t)slot \* (BM \* BN)|WS + (size_t)(slot / 2 * 2) * (BM * BN)|' \
    "a split-K piece written over another's" $small --param SPLITK=2 -M 64 -N 64 -K 600
caught 's|\*at = GB_SWIZZLE(\*r \* SWZ + 16 \* \*kc, SWZ) / ES;|*at = (*r * SWZ + 16 * *kc) / ES;|' \
    "unswizzled copies" $small --param SWZ=64 --param BK=32 --param PADL=0 -M 64 -N 64 -K 64
# TMA=1's side, under its emulation: a box at the wrong rows, the maps over the split's sums, and
# no zeros past K.
tma64="$small --param TMA=1 --param PADL=0 --param SWZ=64 --param BK=32"
caught 's|k0, m0, BM, ANM, to|k0, n0, BM, ANM, to|' \
    "TMA: A's box at B's rows" $tma64 -M 70 -N 65 -K 100
caught 's|(tile_count(M, N) - D) \* BM \* BN : 0;|0 : 0;|' \
    "TMA: the maps over the split's sums" $tma64 --param SPLITK=4 -M 70 -N 65 -K 1100
caught 's|const bool in = c0 + i < d0 \&\& c1 + j < d1;|const bool in = c1 + j < d1;|' \
    "TMA: no zeros past K" $tma64 -M 70 -N 65 -K 100
# 9. hgemm_wgmma_mn: an operand stored MN-contiguous (B K x N in NN and TN, A K x M in TN and TT),
# copied MN-major (64-row x 8 k atoms, 128-byte swizzle) and read transposed by the MMA. Native
# NN: tile widths, K steps, stages, a partial chunk at N's end (N not a multiple of 8 at an
# aligned leading dimension), K tails, odd leading dimensions (through the route's copies), the
# copies without the zero-fill operand, split-K, KACC, b; NT through a pass; native TN and TT:
# two warp groups (A's two atoms; with a 64-deep K step too), M's partial chunk, b, split-K; the
# running sums in local memory.
fam=hgemm_wgmma_mn
emu="-k $fam --param EMU=1"
nn16="$small --param SWZ=32 --param BK=16"
check_run --precision h $nn16 --param STAGES=3 -M 133 -N 77 -K 97 --ldb 80 --ldc 81 $ab
check_run --precision h $nn16 --param STAGES=3 --transB T -M 70 -N 65 -K 40 $ab
check_run --precision b --param BN=128 --param WGM=1 --param STAGES=4 -M 70 -N 130 -K 150 $ab
check_run --precision h --param BN=256 --param WGM=1 --param SWZ=128 --param BK=64 \
    --param STAGES=2 --param KACC=0 -M 65 -N 260 -K 150 --lda 160 --ldb 264 --offb 8 $ab
check_run --precision h --param BN=64 --param WGM=2 --param STAGES=3 -M 140 -N 70 -K 77 \
    --lda 83 --ldb 71 --offa 1 --offb 3 $ab
check_run --precision h $nn16 --param ZFILL=0 --param STAGES=3 -M 70 -N 65 -K 100 --ldb 72 $ab
check_run --precision h $small --param SPLITK=4 -M 70 -N 65 -K 1100 --ldb 72 $ab
check_run --precision b $small --param SPLITK=2 --param KACC=4 -M 133 -N 77 -K 1030 $ab
check_run --precision h --transA T --param BN=64 --param WGM=2 --param STAGES=3 -M 133 -N 70 \
    -K 97 --lda 136 --ldb 72 $ab
check_run --precision b --transA T --transB T $nn16 --param STAGES=4 -M 70 -N 65 -K 100 \
    --lda 72 $ab
check_run --precision h --transA T --transB T --param BN=128 --param WGM=2 --param STAGES=3 \
    --param SPLITK=3 -M 140 -N 130 -K 900 $ab
check_run --precision h --transA T --param BN=128 --param WGM=2 --param BK=64 --param SWZ=128 \
    --param STAGES=4 --param KACC=4 -M 140 -N 130 -K 300 --lda 144 $ab
# MN-major copies unswizzled where the descriptor says swizzled; two k rows of their atoms
# exchanged; in TN, the atoms of A's two warp groups read by each other's MMAs.
place='k / 8 \* SBO_N(tr) + r / 64 \* LBO_N(tr) + k % 8 \* 128'
caught "s|GB_SWIZZLE(\\($place + r % 64 \\* ES\\), 128)|(\\1)|" "MN-major copies unswizzled" \
    $small -M 64 -N 64 -K 64
caught "s|$place|k / 8 * SBO_N(tr) + r / 64 * LBO_N(tr) + (k % 8 ^ 1) * 128|" "k rows exchanged" \
    $small -M 64 -N 64 -K 64
caught "s|tiles + wg \\* (LBO_N(BM) / ES)|tiles + (wg ^ 1) * (LBO_N(BM) / ES)|" "A's atoms swapped" \
    --transA T --param WGM=2 -M 128 -N 64 -K 64
# TMA=1 with MN-major tiles, under its emulation: a box for each 64 rows of the tile, its BK k's
# atoms one after another. NN (B MN-major; two boxes of B), TN (A too, two warp groups), TT, b,
# edges of M and N off the 64 rows, K tails, odd leading dimensions (the route's copies), split-K,
# the MMAs in flight with the sums of KACC steps. Caught: every box at the first 64 rows' place,
# and boxes landing unswizzled.
tmamn="--param TMA=1 --param SWZ=64 --param BK=32"
check_run --precision h $tmamn --param STAGES=3 -M 133 -N 150 -K 97 --ldb 152 $ab
check_run --precision b $tmamn --param STAGES=4 -M 70 -N 130 -K 300 --ldb 137 $ab
check_run --precision h --transA T $tmamn --param WGM=2 --param STAGES=3 -M 140 -N 130 -K 97 \
    --lda 144 $ab
check_run --precision h --transA T --transB T $tmamn --param STAGES=3 -M 70 -N 65 -K 100 \
    --lda 72 $ab
check_run --precision h --param TMA=1 --param SWZ=128 --param BK=64 --param STAGES=4 \
    --param INFLIGHT=1 --param KACC=4 -M 140 -N 130 -K 600 --ldb 136 $ab
check_run --precision b --transA T $tmamn --param SPLITK=3 -M 140 -N 130 -K 900 $ab
check_run --precision b $tmamn --param BN=192 --param WGM=1 --param STAGES=3 -M 70 -N 250 -K 100 \
    --ldb 256 $ab
caught 's|r0 + MN_ROWS \* g, k0, to|r0, k0, to|' "TMA: MN-major boxes all at the first rows" \
    --param WGM=1 --param BN=128 $tmamn -M 64 -N 128 -K 64
caught 's|GB_SWIZZLE((j \* b0 + i) \* ES, b0 \* ES)|(j * b0 + i) * ES|' "TMA: boxes unswizzled" \
    --param WGM=1 --param BN=128 $tmamn -M 64 -N 128 -K 64
# The running sums in local memory (RUNSUM=1), in TN with two warp groups and split-K; a group's
# sums stored over the earlier groups' is caught.
check_run --precision b --transA T --param WGM=2 --param BN=64 --param STAGES=3 --param KACC=2 \
    --param RUNSUM=1 --param SPLITK=2 -M 133 -N 70 -K 1100 --lda 136 $ab
caught "s|s >= KACC ? runs\\[i \\* NT + tid\\] + v : v|v|" "running sums overwritten" $small \
    --param KACC=2 --param RUNSUM=1 -M 64 -N 64 -K 200
# 10. sgemm_wgmma_ct: C^T = B A^T written transposed, the staged pipeline on TF32 (the copy engine
# emulated), B's fragments split in registers, A's big parts read from the stage and its small
# parts split into a buffer. Edges with a repacked leading dimension, split-K, two warp groups
# with BN 128 and the running sums in local memory, and BK 8 exact on integers with plain TF32.
# The caller's NN is row-TT as the kernel sees it, its streaming operand landed MN-major (boxes of
# 32 rows): edges with a repacked leading dimension, two warp groups, BK 16 in pieces, an offset
# operand. With CT=0 (C of few columns, written as it is) edges in NT and TT, NN with B's pass, and
# with BCOPY=1 NN and TN with B stored K x N, landed MN-major and copied K-major by the
# work-group (no pass): split-K, two warp
# groups, BK 8 exact on integers, and pieces added in the kernel with OVERLAP. FIXUP=1 in NT at
# edges and in NN with two warp groups and CT=0. OVERLAP=1 in NT in pieces added in the kernel, in
# NN with two warp groups, and on integers. SPLITK=0 at
# one tile with a long K (pieces on any device). Tiles of 16 and 32 columns (BN): edges, NN in
# pieces added in the kernel, CT=0 with two warp groups and OVERLAP, integers exact, and B stored
# K x N copied K-major at 16 columns. Caught: the fragments' two row halves exchanged, a step's
# MMAs reading the other buffer of small parts, small parts that are the words whole, MN-major
# fragments read without the swizzle, a last piece that adds all but one piece, with OVERLAP=1
# the next step's small parts split into this step's buffer, and B's K-major copy taking a wrong
# k or made into the buffer the step's MMAs do not read.
fam=sgemm_wgmma_ct
emu="-k $fam --param EMU=1"
sed -e "s/\"family\": *\"$fam\"/\"family\": \"${fam}_broken\"/" \
    -e "s/\"\\(${fam}_[0-9a-z_]*\\)\":/\"broken_\\1\":/" "$kernels/$fam.json" \
    >"$tmp/broken/${fam}_broken.json"
check_run --transB T -M 50 -N 130 -K 150 $ab
check_run --transB T --param SPLITK=4 -M 65 -N 70 -K 1100 $ab
check_run --transB T --param WGM=2 --param BN=128 --param RUNSUM=1 --param KACC=2 -M 130 -N 140 \
    -K 300 $ab
check_run --transB T --param BK=8 --param SWZ=32 --param TERMS=1 --dist int:3 -M 64 -N 200 -K 100
check_run --transB N -M 50 -N 130 -K 150 $ab
check_run --transB N --param WGM=2 --param BN=128 --param RUNSUM=1 --param KACC=2 -M 70 -N 300 \
    -K 200 $ab
check_run --transB N --param BK=16 --param SWZ=64 --param STAGES=3 --param SPLITK=3 -M 64 -N 100 \
    -K 1000 --ldb 104 --offb 4 $ab
check_run --transB N --param BK=8 --param SWZ=32 --param TERMS=1 --dist int:3 -M 64 -N 200 -K 100
check_run --transB T --param CT=0 -M 130 -N 50 -K 150 $ab
check_run --transA T --transB T --param CT=0 -M 130 -N 50 -K 150 $ab
check_run --transB N --param CT=0 --param SPLITK=2 -M 140 -N 40 -K 600 $ab
check_run --transA T --transB N --param CT=0 --param BCOPY=1 --param WGM=2 --param BN=128 \
    --param RUNSUM=1 --param KACC=2 -M 130 -N 70 -K 300 $ab
check_run --transB N --param CT=0 --param BCOPY=1 --param BK=8 --param SWZ=32 --param TERMS=1 \
    --dist int:3 -M 100 -N 70 -K 200
check_run --transB N --param CT=0 --param BCOPY=1 --param SPLITK=3 --param FIXUP=1 \
    --param OVERLAP=1 -M 100 -N 70 -K 900 $ab
check_run --transB T --param SPLITK=4 --param FIXUP=1 -M 65 -N 70 -K 1100 $ab
check_run --transB N --param SPLITK=3 --param FIXUP=1 --param WGM=2 --param BN=128 --param RUNSUM=1 \
    --param KACC=2 -M 70 -N 300 -K 900 $ab
check_run --transB N --param CT=0 --param SPLITK=2 --param FIXUP=1 -M 140 -N 40 -K 600 $ab
check_run --transB T --param OVERLAP=1 --param SPLITK=4 --param FIXUP=1 --param STAGES=3 -M 65 \
    -N 70 -K 1100 $ab
check_run --transB N --param OVERLAP=1 --param WGM=2 --param BN=128 --param RUNSUM=1 \
    --param KACC=2 -M 70 -N 300 -K 200 $ab
check_run --transB T --param OVERLAP=1 --param BK=8 --param SWZ=32 --param TERMS=1 --dist int:3 \
    -M 64 -N 200 -K 100
check_run --transB T --param SPLITK=0 -M 64 -N 64 -K 2100 $ab
check_run --transB T --param BN=16 -M 50 -N 40 -K 150 $ab
check_run --transB N --param BN=32 --param SPLITK=2 --param FIXUP=1 -M 40 -N 130 -K 600 $ab
check_run --transB T --param CT=0 --param BN=16 --param WGM=2 --param OVERLAP=1 --param STAGES=3 \
    -M 130 -N 20 -K 300 $ab
check_run --transB T --param BN=16 --param BK=8 --param SWZ=32 --param TERMS=1 --dist int:3 -M 16 \
    -N 200 -K 100
check_run --transB N --param CT=0 --param BCOPY=1 --param BN=16 -M 100 -N 20 -K 300 $ab
check_run --transB N --param CT=0 --param BCOPY=1 --param BN=16 --param SPLITK=3 --param FIXUP=1 \
    --param OVERLAP=1 -M 130 -N 16 -K 900 $ab
check_run --transB N --param CT=0 --param BCOPY=1 --param BN=16 --param BK=8 --param SWZ=32 \
    --param TERMS=1 --dist int:3 -M 64 -N 16 -K 100
caught 's|const int row = r0 + 8 \* (r % 2), k|const int row = r0 + 8 * (1 - r % 2), k|' \
    "the fragments' row halves exchanged" -M 64 -N 64 -K 64
caught 's|LO_AT(s % 2) - cur|LO_AT((s + 1) % 2) - cur|' "the other buffer's small parts" -M 64 \
    -N 64 -K 200
caught 's|return x - as_float4(as_uint4(x) \& 0xffffe000u);|return x;|' \
    "small parts that are the words whole" -M 64 -N 64 -K 64
caught 's|GB_SWIZZLE((k) \* 128 + (r) % MN_ROWS \* ES, 128) / ES|((k) * 128 + (r) % MN_ROWS * ES) / ES|' \
    "MN-major fragments read without the swizzle" --transB N -M 64 -N 64 -K 64
caught 's|(int)np, C, offC, ldc, m0, n0, M, N,|(int)np - 1, C, offC, ldc, m0, n0, M, N,|' \
    "a last piece that adds all but one" --param SPLITK=4 --param FIXUP=1 -M 64 -N 64 -K 1100
caught 's|LAND(cur, s + 1);|LAND(cur, s);|' "the next step's small parts in this step's buffer" \
    --param OVERLAP=1 -M 64 -N 64 -K 200
caught 's|st\[MN_AT(BN, n, k + 1)\]|st[MN_AT(BN, n, k + 2)]|' "B's K-major copy taking a wrong k" \
    --transB N --param CT=0 --param BCOPY=1 -M 64 -N 64 -K 64
caught 's|split_mn(tiles + HI_AT((s) % 2)|split_mn(tiles + HI_AT((s + 1) % 2)|' \
    "B's K-major copy into the other buffer" --transB N --param CT=0 --param BCOPY=1 -M 64 -N 64 \
    -K 200
finish
