#!/bin/sh
# mma_emu_test.sh GEMMBENCH KERNELS: the families of kernels/mma_sync.cl, dgemm_dmma and
# sgemm_3xtf32, on the default device with EMU=1, which replaces each mma.sync by an emulation in
# local memory that follows the PTX fragment tables (and rounds to TF32 as cvt.rna does), so the
# kernels' indexing, register grouping, operand split, staging and edges are checked where there
# are no tensor cores (PoCL in CI); the real instructions run on NVIDIA GPUs only. Each family is
# copied to a temporary --kernel-path as NAME_emu, without its NVIDIA extension requirement (and
# with its presets renamed, so they do not shadow the built-in ones). The copies declare all four
# row-major layouts native, so that the source's own transposing paths are checked, not only the
# native one with the harness's transposition passes.
# Checked, with tile-straddling sizes and alpha, beta other than 1, 0: the four row-major layouts
# and two column-major ones (operand swap); padded leading dimensions and offsets, even (16-byte
# loads) and odd (scalar loads); exact integer data; every instruction shape (m8n8k4, m16n8k4,
# m16n8k8, m16n8k16) and the tiles of the presets dgemm_dmma_128, *_64x128x16 and *_16x128*;
# K-contiguous operands kept so in local memory (KCONT), a lane's rows and columns in pairs
# (PAIRS); split-K by a given number of pieces and by the grid's need (SPLITK=0, split only where
# the tiles are short of filling the device), in both families; a last partial wave's tiles split
# (TAIL) under every tile walk; the stages filled by the copy engine (TMA, emulated); a split
# tile's pieces added by the last of them (FIXUP), and a copy that leaves its counters non-zero
# failing on its second call; C written transposed (CT); 64-deep K steps in single. Also that
# the source stops at its #error without EMU off NVIDIA, and that a copy with one wrong
# fragment index fails validation.
# sgemm_3xtf32: the layouts, both instruction shapes, K steps, the in-core accumulation, odd
# leading dimensions, every point faithful; and a copy that drops the small parts (so computes in
# TF32) passes the bound but is caught as not faithful, which fails the run (exit 1).
# Prints one line per failure and 'N passed, M failed'.
# shellcheck disable=SC2086 # the option lists ($emu, $ab, $t128 ..) are split on purpose
gb=${1:?usage: mma_emu_test.sh GEMMBENCH KERNELS}
kernels=${2:?usage: mma_emu_test.sh GEMMBENCH KERNELS}
. "$(dirname "$0")/script_lib.sh"
# Results are not worth keeping (ctest also names a store). gemmbench's program cache is off:
# on PoCL, getting a program's binary to save costs a second compile (with it on, this test took
# twice as long), and PoCL's own cache already serves the runs that rebuild a program.
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
GEMMBENCH_NO_CACHE=1
export XDG_DATA_HOME GEMMBENCH_STORE GEMMBENCH_NO_CACHE

# The copies: the same source; metadata renamed and without "extensions" (its own line).
mkdir "$tmp/emu" || exit 1
cp "$kernels/mma_sync.cl" "$tmp/emu/" || exit 1
for fam in dgemm_dmma sgemm_3xtf32; do
    sed -e '/"extensions": *\[/d' -e "s/\"family\": *\"$fam\"/\"family\": \"${fam}_emu\"/" \
        -e "s/\"\\(${fam}_[0-9a-z_]*\\)\":/\"emu_\\1\":/" \
        -e 's/"layouts": *\[[^]]*\]/"layouts": ["row-NN", "row-NT", "row-TN", "row-TT"]/' \
        "$kernels/$fam.json" \
        >"$tmp/emu/${fam}_emu.json"
    if ! grep -q "\"family\": \"${fam}_emu\"" "$tmp/emu/${fam}_emu.json" ||
        grep -q '"extensions"' "$tmp/emu/${fam}_emu.json" ||
        ! grep -q '"row-NN", "row-NT"' "$tmp/emu/${fam}_emu.json" ||
        grep -q "\"${fam}_[0-9a-z_]*\":" "$tmp/emu/${fam}_emu.json"; then
        bad "could not rename $fam.json, its presets, drop its extensions or list the layouts; update the sed above"
    fi
done

# Every run must exit 0 and print only rows that pass (in single precision, faithful rows).
fam=dgemm_dmma_emu
emu="--kernel-path $tmp/emu -k $fam --precision d --param EMU=1"
check_run() { run_rows "^$fam .*  pass( |\$)" $emu "$@"; }
# planted DIR FAMILY SED ROWS WHAT ARGS...: a copy of mma_sync.cl changed by SED, with FAMILY's
# emulated metadata, must exit 1 with a row matching ROWS when run with ARGS (WHAT: the fault).
planted() {
    pdir=$tmp/$1 pfam=$2 psed=$3 prows=$4 pwhat=$5
    shift 5
    mkdir "$pdir" && cp "$tmp/emu/$pfam.json" "$pdir/" || exit 1
    sed "$psed" "$kernels/mma_sync.cl" >"$pdir/mma_sync.cl"
    if cmp -s "$kernels/mma_sync.cl" "$pdir/mma_sync.cl"; then
        bad "could not plant $pwhat in a copy of mma_sync.cl; update its sed"
        return
    fi
    out=$("$gb" run -i 1 --warmup 0 --kernel-path "$pdir" -k "$pfam" --param EMU=1 "$@" 2>&1)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -qE -- "$prows"; then ok; else
        bad "$pwhat was not caught (exit $rc): $(printf '%s\n' "$out" | tail -2)"
    fi
}

# 1. The default tile (128x64x8, m8n8k4) in every layout: 130 x 70 x 33 has an interior tile,
# edge tiles in M and N, and a partial last K step; 1 and 97 are edge tiles only.
ab="--alpha -1.5 --beta 0.5"
for lay in "--layout row" "--layout row --transB T" "--layout row --transA T" \
           "--layout row --transA T --transB T" "--layout col" "--layout col --transA T"; do
    check_run $lay -M 130 -N 70 -K 33 $ab
done
check_run -n 1,97 $ab
check_run --layout row --transA T --transB T -n 1,97 --beta 1
check_run -M 130 -N 70 -K 33 --dist int:3 --alpha 2 --beta 3
check_run --layout row --transA T -M 130 -N 70 -K 33 --dist int:3 --alpha 1 --beta 0
# Padded leading dimensions with even ld and offsets (16-byte loads), then odd (scalar loads).
check_run -M 130 -N 70 -K 33 --lda 36 --ldb 74 --ldc 72 --offa 2 --offb 4 --offc 6 $ab
check_run --transB T -M 130 -N 70 -K 33 --lda 37 --ldb 35 --ldc 71 --offa 1 --offb 3 \
    --offc 5 $ab

# 2. The other instruction shapes, each in another layout, and the tile of dgemm_dmma_128.
check_run --transB T --param MMAM=16 --param MMAK=4 -M 130 -N 70 -K 33 $ab
check_run --transA T --param MMAM=16 --param MMAK=8 -M 130 -N 70 -K 33 $ab
check_run --transA T --param MMAM=16 --param MMAK=8 -n 1,97 --dist int:3 --alpha 2 --beta 3
t16816="--param WGM=2 --param WGN=2 --param BK=16 --param MMAM=16 --param MMAK=16"
check_run --transA T --transB T $t16816 -M 130 -N 70 -K 33 $ab
# Column-major TT is row-major TT after the swap: the same program.
check_run --layout col --transA T --transB T $t16816 -M 97 -N 65 -K 40 --ldc 100 $ab
t128="--param WM=64 --param WN=32 --param WGM=2 --param WGN=4 --param BK=8 --param MMAM=16 \
--param MMAK=8 --param PAD=4 --param EDGES=1 --param GROUPM=8"
check_run $t128 -M 130 -N 135 -K 20 $ab
check_run $t128 -n 1,97 --dist int:3 --alpha 2 --beta 3
# Operands read per instruction (FRAG=1), in the two shapes that hold more than one k-quad.
check_run --transA T --param FRAG=1 --param MMAM=16 --param MMAK=8 -M 130 -N 70 -K 33 $ab
check_run $t128 --param FRAG=1 -M 130 -N 135 -K 20 $ab

# 2c. K-contiguous operands kept so in local memory (KCONT=1): A in NN, both in NT, B in TT;
# odd leading dimensions (scalar loads); the 128x64x16 tile (rows of 20; split-K in 2a), and a
# K step of 4 (rows of 4).
for lay in "" "--transB T" "--transA T --transB T"; do
    check_run $lay --param KCONT=1 -M 130 -N 70 -K 33 $ab
done
check_run --transB T --param KCONT=1 -M 130 -N 70 -K 33 --lda 37 --ldb 35 --ldc 71 --offa 1 \
    --offb 3 --offc 5 $ab
t12864="--param WM=64 --param WN=32 --param WGM=2 --param WGN=2 --param BK=16 --param MMAM=16 \
--param MMAK=4 --param FRAG=1 --param KCONT=1"
check_run --transB T $t12864 -M 130 -N 135 -K 40 --dist int:3 --alpha 2 --beta 3
check_run --param KCONT=1 --param WGM=2 --param WGN=2 --param BK=4 -n 1,97 $ab
# Rows and columns of k-major tiles in neighbouring pairs (PAIRS=1): both tiles (TN), B only
# (NN with KCONT), m16n8k8 in TT, m8n8k4 at edge-only sizes, and split into pieces.
check_run --transA T $t12864 --param PAIRS=1 -M 130 -N 135 -K 40 $ab
check_run $t12864 --param PAIRS=1 -M 130 -N 135 -K 40 --ldc 137 --offc 1 $ab
check_run --transA T --transB T --param PAIRS=1 --param MMAM=16 --param MMAK=8 -M 130 -N 70 \
    -K 33 $ab
check_run --param PAIRS=1 -n 1,97 $ab

# 2a. Split-K: each tile's K cut into pieces (uneven, with a partial last K step, and with
# scalar loads), their sums added by the remainder kernel, which must have run.
check_split() {
    check_run "$@"
    if printf '%s\n' "$out" | grep "remainder kernel" | grep -vq "unsplit build"; then ok; else
        bad "split-K ($*): no remainder kernel, or no split code built: $(printf '%s\n' "$out" |
            tail -1)"
    fi
}
check_split --param SPLITK=3 --transA T -M 97 -N 65 -K 1030 --dist int:3 --alpha 2 --beta 3
check_split --param SPLITK=4 -M 130 -N 70 -K 1100 --lda 1103 --offa 1 --alpha -1.5 --beta 0
# SPLITK=0, the pieces the shape needs: two tiles are short of two work-groups a compute unit on
# a device of two or more, so K is split (also through the preset that sets it, under the copy's
# name), but not where the pieces would be under 1024 deep; 256 tiles of 16 x 16 are not short
# (up to 128 compute units), so K is not split.
check_split --param SPLITK=0 -M 97 -N 65 -K 2100 --alpha -1.5 --beta 0.5
check_split --transA T $t12864 --param PAIRS=1 --param SPLITK=3 -M 130 -N 135 -K 1100 $ab
check_split --param SPLITK=0 $t12864 -M 97 -N 65 -K 2100 $ab
run_rows "^emu_dgemm_dmma_128x64x16_split .*  pass .*remainder kernel" --kernel-path "$tmp/emu" \
    -k emu_dgemm_dmma_128x64x16_split --param EMU=1 --precision d -M 97 -N 65 -K 2100 $ab
# 2e. The stages filled by the copy engine (TMA=1, its emulation: the maps' numbers in the
# workspace's slots, the boxes copied through the 128-byte swizzle with zeros past M, N and K),
# read in pairs with the odd k-rows' swizzle step (bench/notes/dgemm.md#dmma-tma): TN only, with
# edges and a partial last K step, 1 and 97, 2-4 stages, m16n8k8, padded and odd leading
# dimensions and offsets (the operands copied to even ones, ld_multiple_of), split-K and TAIL
# (the maps after the pieces' sums), and exact integer data. In NN the route transposes A.
ttma="$t12864 --param KCONT=0 --param PAIRS=1 --param PAD=0 --param TMA=1"
check_run --transA T $ttma --param STAGES=3 -M 130 -N 135 -K 40 $ab
check_run --transA T $ttma --param STAGES=2 -n 1,97 --dist int:3 --alpha 2 --beta 3
check_run --transA T $ttma --param STAGES=4 -M 200 -N 64 -K 300 $ab
check_run --transA T $ttma --param MMAK=8 -M 130 -N 135 -K 33 --lda 132 --offa 2 --ldb 141 \
    --offb 1 --ldc 137 --offc 3 $ab
check_split --transA T $ttma --param SPLITK=3 -M 97 -N 65 -K 1030 $ab
run_rows "^emu_dgemm_dmma_128x64x16_tma .*  pass " --kernel-path "$tmp/emu" \
    -k emu_dgemm_dmma_128x64x16_tma --param EMU=1 --param MINCTAS=0 --precision d --transA T \
    -M 130 -N 135 -K 40 $ab
# The 16-row tile (m8n8k4, one slab of A) split along K, as its preset runs it.
check_split --transA T --param WM=16 --param WN=32 --param WGM=1 --param WGN=4 --param BK=16 \
    --param MMAM=8 --param MMAK=4 --param FRAG=1 --param PAIRS=1 --param PAD=0 --param TMA=1 \
    --param STAGES=4 --param SPLITK=16 -M 5 -N 130 -K 2100 $ab
# A copy whose odd k-rows read the unit the swizzle moved them from must fail.
planted broken_t dgemm_dmma_emu 's/A_TAT(KROW(1, t), a0) - ak,/16,/' \
    "^dgemm_dmma_emu .*FAIL: " "TMA's odd k-rows read from the wrong unit" --precision d \
    --transA T $ttma -M 130 -N 135 -K 40
# K-contiguous operands filled by the copy engine (KCONT=1; bench/notes/thin.md#thin-dmma-kc-tma):
# boxes of 16 k by the tile's rows, read in the k order that both kinds of tile share: A in NN
# beside B's k-major slabs, both in NT, B in TT; edges and a partial last K step, 1 and 97;
# 32-deep steps (two slabs a stage) over 3 stages with m16n8k8 and 32 x 32 warps, odd leading
# dimensions and offsets; a C of 64 rows under the 64 x 128 tile; split-K by the grid's need. A
# copy whose lanes all step 8 on for k-quads 2 and 3 (the swizzle moves half of them 8 back)
# must fail.
tkc="$t12864 --param PAIRS=1 --param PAD=0 --param TMA=1"
for lay in "" "--transB T" "--transA T --transB T"; do
    check_run $lay $tkc -M 130 -N 135 -K 40 $ab
done
check_run $tkc -n 1,97 --dist int:3 --alpha 2 --beta 3
check_run --transB T $tkc --param WM=32 --param BK=32 --param STAGES=3 --param MMAK=8 -M 200 \
    -N 70 -K 300 --lda 301 --offa 1 --ldb 303 --offb 2 $ab
check_run --transB T $tkc --param WGM=1 --param WGN=4 -M 64 -N 300 -K 100 $ab
check_split $tkc --param SPLITK=0 -M 97 -N 65 -K 2100 $ab
planted broken_kc dgemm_dmma_emu 's/A_TAT(KROW(2, t), a0) - ak,/8,/' \
    "^dgemm_dmma_emu .*FAIL: " "K-contiguous k-quads 2 and 3 read 8 on in every lane" \
    --precision d --transB T $tkc -M 130 -N 135 -K 40
# In single (sgemm_3xtf32: slabs of 16 columns through the 64-byte swizzle, its own k-row order):
# the 16-row preset split along K, a 32 x 64-warp tile with an odd ld, m16n8k4, 48 and 97.
s16="--param WM=16 --param WN=64 --param WGM=1 --param WGN=2 --param BK=16 --param MMAM=16 \
--param MMAK=8 --param FRAG=1 --param PAIRS=1 --param PAD=0 --param TMA=1"
fam=sgemm_3xtf32_emu
emu="--kernel-path $tmp/emu -k $fam --precision s --param EMU=1"
check_split --transA T $s16 --param STAGES=4 --param SPLITK=16 -M 16 -N 100 -K 2100 $ab
check_run --transA T $s16 --param STAGES=3 --param WM=32 --param WGM=2 -M 130 -N 135 -K 70 \
    --lda 131 --offa 1 $ab
check_run --transA T $s16 --param STAGES=2 --param MMAK=4 -n 48,97 $ab
fam=dgemm_dmma_emu
emu="--kernel-path $tmp/emu -k $fam --precision d --param EMU=1"
# Off sm_90a without EMU, TMA=1 is a PTX program the device cannot load: one line, exit 2.
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/emu" -k dgemm_dmma_emu --precision d \
    --transA T $ttma -n 64 2>&1)
rc=$?
if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    printf '%s\n' "$out" | grep -q "is a PTX program for sm_90a, which device .* cannot load"; then
    ok
else
    bad "TMA=1 off sm_90a (exit $rc): $out"
fi

# The 64 x 128 tile (one row of four warps) for a C of at most 64 rows, K-contiguous A and B
# (NT), split: one tile of 64 rows, and one of 37 (an edge in M), with scalar loads of B.
t64128="--param WM=64 --param WN=32 --param WGM=1 --param WGN=4 --param BK=16 --param MMAM=16 \
--param MMAK=4 --param FRAG=1 --param KCONT=1"
check_split --param SPLITK=0 --transB T $t64128 -M 64 -N 100 -K 2100 $ab
check_split --param SPLITK=0 --transB T $t64128 -M 37 -N 120 -K 2100 --ldb 2101 --offb 1 $ab
# The 16 x 128 tile (m8n8k4) for a C of at most 16 rows, K in 8 pieces: K-contiguous A and B
# (NT), and A transposed (TN, as dgemm_dmma's native layout).
t16128="--param WM=16 --param WN=32 --param WGM=1 --param WGN=4 --param BK=16 --param MMAM=8 \
--param MMAK=4 --param FRAG=1 --param SPLITK=16"
check_split --transB T $t16128 --param KCONT=1 -M 16 -N 100 -K 2100 $ab
check_split --transB T $t16128 --param KCONT=1 -M 5 -N 130 -K 2100 $ab
check_split --transA T $t16128 -M 16 -N 100 -K 2100 $ab
# no_split WHAT ARGS..: the run passes, K is not split, and the kernel is built without the split
# code (the family's "unsplit" values).
no_split() {
    what=$1
    shift
    check_run "$@"
    if printf '%s\n' "$out" | grep -q "remainder kernel"; then
        bad "K split $what: $(printf '%s\n' "$out" | tail -1)"
    elif ! printf '%s\n' "$out" | grep -q "unsplit build"; then
        bad "K not split $what, but the split code built: $(printf '%s\n' "$out" | tail -1)"
    else ok; fi
}
no_split "by SPLITK=0 at K = 1030 into pieces under 1024 deep" --param SPLITK=0 -M 97 -N 65 \
    -K 1030 $ab
no_split "by SPLITK=0 over a grid of 256 tiles" --param SPLITK=0 --param WM=16 --param WN=16 \
    --param WGM=1 --param WGN=1 --param BK=4 -M 256 -N 256 -K 600 $ab

# 2c. TAIL: where the tiles end in a partial wave (two work-groups a compute unit), only that
# wave's tiles are cut along K; the sums of their pieces are added by the remainder kernel,
# which finds a tile's walk position from its place (gb_tile_id), so every walk is run: the
# edge tiles first, in grid order and last, rows grouped and not. 16 x 16 tiles, 2 rows of
# 2 CUS + 1 columns (the last partial): two tiles past whole waves. Not where the waves are
# whole, and not with SPLITK's split.
cus=$("$gb" devices 2>/dev/null | sed -n 's/^ *compute units \([0-9]*\),.*/\1/p' | head -1)
small="--param WM=16 --param WN=16 --param WGM=1 --param WGN=1 --param BK=4"
if [ "${cus:-0}" -ge 2 ]; then
    for e in 0 1 2; do
        for gm in 1 8; do
            check_split $small --param TAIL=2 --param EDGES=$e --param GROUPM=$gm -M 20 \
                -N $((32 * cus + 5)) -K 1030 $ab
        done
    done
    no_split "TAIL=2 with whole waves" $small --param TAIL=2 -M 32 -N $((32 * cus)) -K 1030 $ab
    no_split "TAIL=2 into pieces under 256 deep" $small --param TAIL=2 -M 20 \
        -N $((32 * cus + 5)) -K 300 $ab
else
    bad "no compute unit count from 'gemmbench devices' for the TAIL checks"
fi

# 2f. The pieces added in the kernel (FIXUP=1): the last of a tile's pieces to finish adds them
# (a counter a tile, which it leaves zero for the next call) and there is no remainder kernel.
# In single split by SPLITK (the 16-row TMA tile) and by TAIL behind whole tiles; in double with
# edges, an offset odd ld and TMA. A copy that leaves the counters non-zero passes its first
# call and must fail on the next (the harness checks the last timed call's C too).
check_fixup() {
    check_run "$@"
    if printf '%s\n' "$out" | grep -q "pieces added in the kernel" &&
        ! printf '%s\n' "$out" | grep -q "remainder kernel"; then ok; else
        bad "FIXUP ($*): the pieces were not added in the kernel: $(printf '%s\n' "$out" | tail -1)"
    fi
}
fam=sgemm_3xtf32_emu
emu="--kernel-path $tmp/emu -k $fam --precision s --param EMU=1"
check_fixup --transA T $s16 --param STAGES=4 --param SPLITK=16 --param FIXUP=1 -M 16 -N 100 \
    -K 2100 $ab
[ "${cus:-0}" -ge 2 ] && check_fixup --param WM=16 --param WN=16 --param WGM=1 --param WGN=1 \
    --param BK=8 --param TAIL=2 --param FIXUP=1 -M 20 -N $((32 * cus + 5)) -K 1030 $ab
fam=dgemm_dmma_emu
emu="--kernel-path $tmp/emu -k $fam --precision d --param EMU=1"
check_fixup --param SPLITK=4 --param FIXUP=1 -M 130 -N 70 -K 1100 --lda 1103 --offa 1 $ab
check_fixup --transA T $ttma --param SPLITK=3 --param FIXUP=1 -M 97 -N 65 -K 1030 $ab
planted broken_f $fam 's/\(WGS, alpha, beta)\);/\1, atomic_add(CNT + (at - (uint)D), np);/' \
    "^$fam .*FAIL: the last timed call" "counters left non-zero" --precision d \
    --param SPLITK=4 --param FIXUP=1 -M 130 -N 70 -K 1100 $ab

# 2g. C written transposed (CT=1): every problem served as C^T = op(B)^T op(A)^T, the kernel
# writing element (i, j) of its C at j ldc + i. Row-NN (the kernel's TT), A transposed with a
# padded, offset C, column-major, split with the remainder kernel and with the pieces added in
# the kernel; in single a C of 16 columns split into 16 pieces (4096 x 16's tile). A complex
# problem is refused with one line, exit 2.
check_ct() {
    check_run --param CT=1 "$@"
    if printf '%s\n' "$out" | grep -q "C written transposed"; then ok; else
        bad "CT=1 ($*): C not written transposed: $(printf '%s\n' "$out" | tail -1)"
    fi
}
check_ct -M 130 -N 70 -K 49 $ab
check_ct --transA T -M 70 -N 130 -K 49 --ldc 133 --offc 3 $ab
check_ct --layout col -M 97 -N 65 -K 33 --dist int:3 --alpha 2 --beta 3
check_ct --param SPLITK=3 -M 130 -N 70 -K 1030 $ab
check_ct --transB T --param SPLITK=3 --param FIXUP=1 -M 130 -N 70 -K 1030 $ab
out=$("$gb" run -i 1 --warmup 0 $emu --precision z --param CT=1 -n 40 2>&1)
rc=$?
if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] &&
    printf '%s\n' "$out" | grep -q "serves real problems without conjugation only"; then
    ok
else
    bad "CT=1 with a complex problem was not refused in one line, exit 2 (exit $rc): $out"
fi
fam=sgemm_3xtf32_emu
emu="--kernel-path $tmp/emu -k $fam --precision s --param EMU=1"
check_ct --param WM=16 --param WN=64 --param WGM=1 --param WGN=2 --param SPLITK=16 \
    --param FIXUP=1 -M 100 -N 16 -K 2100 $ab

# 2h. 64-deep K steps in single (BK 64, 46 KB of local memory at the 16-row tile): NN and NT
# with K-contiguous operands, split with the pieces added in the kernel.
w16="--param WM=16 --param WN=32 --param WGM=1 --param WGN=2 --param BK=64 --param MMAM=16 \
--param MMAK=8 --param KACC=2 --param KCONT=1 --param PAD=8"
check_fixup $w16 --param SPLITK=6 --param FIXUP=1 -M 17 -N 130 -K 1600 $ab
check_fixup --transB T $w16 --param SPLITK=6 --param FIXUP=1 -M 16 -N 100 -K 1601 $ab

# 2b. sgemm_3xtf32 (K >= 48, where its split's error is inside FP32's bound): its default tile (64x128x16, m16n8k8, K steps added in FP32) in every
# layout, the other instruction shape, other K steps, accumulation in the tensor core, padded
# and odd leading dimensions, a 64x64 tile, and exact integer data.
fam=sgemm_3xtf32_emu
emu="--kernel-path $tmp/emu -k $fam --precision s --param EMU=1"
for lay in "--layout row" "--layout row --transB T" "--layout row --transA T" \
           "--layout row --transA T --transB T" "--layout col --transB T"; do
    check_run $lay -M 130 -N 135 -K 49 $ab
done
check_run -n 48,97 $ab
check_run --transB T --param MMAK=4 -M 130 -N 70 -K 49 $ab
check_run --transA T --param BK=16 --param KACC=0 -M 130 -N 70 -K 48 $ab
check_run --param BK=32 --param WM=32 --param WN=32 --param WGM=2 --param WGN=2 -M 97 -N 65 \
    -K 70 $ab
check_run --layout row -M 130 -N 70 -K 49 --lda 52 --ldb 76 --ldc 72 --offa 4 --offb 8 --offc 2 $ab
check_run --transA T -M 130 -N 70 -K 49 --lda 133 --ldb 73 --ldc 71 --offa 1 --offb 3 \
    --offc 5 $ab
check_run -M 130 -N 70 -K 49 --dist int:3 --alpha 2 --beta 3
# The other splits (both parts rounded; big rounded), operands held for a whole K step, the
# sums of two steps in a second set of accumulators, and a tile without the column swizzle.
check_run --transA T --param SPLIT=0 -M 130 -N 70 -K 49 $ab
check_run --transB T --param SPLIT=1 --param FRAG=0 -M 130 -N 70 -K 49 $ab
check_run --param KACC=2 --param WM=16 --param WGM=4 -M 130 -N 70 -K 70 $ab
check_split --param SPLITK=4 --param KACC=2 --param WM=16 --param WGM=4 -M 130 -N 70 -K 1100 $ab
check_split --param SPLITK=0 -M 97 -N 65 -K 2100 $ab
[ "${cus:-0}" -ge 2 ] && check_split --param WM=16 --param WN=16 --param WGM=1 --param WGN=1 \
    --param BK=8 --param TAIL=2 -M 20 -N $((32 * cus + 5)) -K 1030 $ab
# K-contiguous operands kept so (KCONT=1) in NN and NT, and with 32-deep K steps (rows of 36).
check_run --param KCONT=1 -M 130 -N 135 -K 49 $ab
check_run --transB T --param KCONT=1 -M 130 -N 70 -K 49 --lda 133 --ldb 73 --ldc 71 --offa 1 \
    --offb 3 --offc 5 $ab
check_run --transB T --param KCONT=1 --param BK=32 --param WM=32 --param WN=32 --param WGM=2 \
    --param WGN=2 -M 97 -N 65 -K 70 $ab
check_run --transA T --param PAIRS=1 -M 130 -N 70 -K 49 $ab
# The 16 x 128 tile for a C of at most 16 rows, K in 8 pieces: K-contiguous A and B (NT), and
# A transposed (TN).
check_split --transB T --param WM=16 --param WN=64 --param WGM=1 --param WGN=2 --param KCONT=1 \
    --param SPLITK=16 -M 16 -N 100 -K 2100 $ab
check_split --transA T --param WM=16 --param WN=64 --param WGM=1 --param WGN=2 --param SPLITK=16 \
    -M 16 -N 100 -K 2100 $ab

# The split is what makes it FP32-accurate: a copy that drops the small parts multiplies TF32
# inputs, passes the error bound, and must be caught by the faithful verdict at K = 2048: its row
# FAIL, the run's exit 1 (--verdict bound would pass it).
planted broken_s sgemm_3xtf32_emu 's/\*small = tf32_rna(x - as_float(\*big));/*small = 0u;/' \
    '^sgemm_3xtf32_emu .*not faithful: [0-9]+x FP32 +FAIL: not faithful \(within the bound' \
    "TF32 inputs (not faithful)" --param SPLIT=0 -M 64 -N 64 -K 2048

# 2d. Complex through 1M with Y staged from B as stored (EXPANDB): z on dgemm_dmma, c on
# sgemm_3xtf32 (the route says "Y staged from B"): B K x N, and B transposed or conjugate
# transposed (read N x K as Y's transpose, K-contiguous slices kept so or not), with A
# transposed or conjugated (a pass packs X; conjugating A flips Y's odd rows), complex and real
# alpha and beta, beta 0, offsets (even: 16-byte loads; an odd leading dimension in c: scalar
# loads), edges, the 16-row tile and split-K, two rows of tiles; where C has more rows than two
# rows of tiles (the families' expand_b.where), Y is made by its pass, as before. Each faithful,
# as 1M's sums are the same.
check_y() {
    run_rows "^$fam .* faithful +pass .*Y staged from B" $emu "$@"
}
cab="--alpha 1.5,-0.5 --beta 0.25,0.75"
for f in "dgemm_dmma_emu z 200" "sgemm_3xtf32_emu c 120"; do
    set -- $f
    fam=$1
    rows2=$3 # two rows of the default tile (128 and 64 rows), less a partial one
    emu="--kernel-path $tmp/emu -k $fam --precision $2 --param EMU=1"
    for t in "N N" "C N" "T N" "N T" "C C"; do
        set -- $t
        check_y --transA $1 --transB $2 -M 37 -N 29 -K 49 $cab --lda 53 --offa 3 --offb 2 --offc 1
    done
    check_y --layout col --transA N --transB C -M 37 -N 29 -K 49 --alpha 2 --beta -1
    check_y -M 16 -N 100 -K 64 --param WM=16 --param WGM=1 --param WGN=2 --param KCONT=1 $cab
    check_y --transB C --param KCONT=1 -M 16 -N 100 -K 64 --param WM=16 --param WGM=1 \
        --param WGN=2 $cab
    check_y --param SPLITK=3 -M 60 -N 65 -K 1030 --alpha 0.5,2 --beta 0
    check_y --transB T --param SPLITK=3 -M 60 -N 65 -K 1030 --alpha 0.5,2 --beta 0
    check_y -M "$rows2" -N 29 -K 49 $cab
    run_rows "^$fam .* faithful +pass .*\(1M \(complex as real\), native\)" $emu \
        -M 260 -N 29 -K 49 $cab
done
check_y -M 37 -N 29 -K 50 --ldb 31 --offb 1 $cab
check_y --transB C -M 37 -N 29 -K 50 --ldb 51 --offb 1 $cab
fam=dgemm_dmma_emu

# 3. Off NVIDIA without EMU, the source stops at its #error.
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/emu" -k dgemm_dmma_emu --precision d -n 8 2>&1)
rc=$?
case $out in
    *"needs inline PTX mma.sync"*) if [ $rc -ne 0 ]; then ok; else bad "EMU=0 exited 0"; fi ;;
    *) bad "EMU=0 built off NVIDIA (exit $rc): $(printf '%s\n' "$out" | tail -2)" ;;
esac

# 4. A family with only a double-precision version runs in double when no precision is given,
# in run as in explore (they once chose differently).
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/emu" -k dgemm_dmma_emu --param EMU=1 -n 16 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qE '^dgemm_dmma_emu +d .* pass'; then ok; else
    bad "run without --precision (exit $rc): $(printf '%s\n' "$out" | tail -2)"; fi
out=$("$gb" explore --dry-run --store "$tmp/none.db" --kernel-path "$tmp/emu" -k dgemm_dmma_emu \
    --param EMU=1 -n 16 2>&1)
if printf '%s\n' "$out" | grep -q '^to run: dgemm_dmma_emu d 16x16x16 EMU=1 rep 0'; then ok; else
    bad "explore without --precision: $(printf '%s\n' "$out" | tail -2)"; fi

# 5. The checks can fail: m16n8k8 with the second k-quad's registers taken from the first.
planted broken dgemm_dmma_emu \
    's/const int slot = kb \* (MMAK \/ 4) + jj - j0;/const int slot = kb * (MMAK \/ 4) - j0;/' \
    '^dgemm_dmma_emu .*  FAIL: ' "a wrong fragment index" --precision d --param MMAM=16 \
    --param MMAK=8 -M 130 -N 70 -K 33

finish
