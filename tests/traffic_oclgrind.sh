#!/bin/sh
# traffic_oclgrind.sh GEMMBENCH: every declared 'traffic' (docs/kernel-metadata.md, "Memory
# traffic") against what Oclgrind counts. `oclgrind --inst-counts` prints, per kernel launch,
# the bytes of the global loads and stores its work-items executed; a run of one call (-i 1,
# --warmup 0, --no-validate, so that nothing else launches the kernel) with beta != 0 (the case
# the declarations give) must show, summed over the main and remainder kernels (the helper
# passes gb_copy, gb_copy4, gb_transpose and gb_scale left out), exactly the read_bytes and
# write_bytes that `run --json` declares. vloadN and vstoreN are calls to Oclgrind, not load and store
# instructions: those on global pointers (address space 1 in their mangled names) are counted
# too, N elements of 4 (float) or 8 (double) bytes each. Sizes straddle tiles and vector widths (33 x 17 x 9 unless a case says
# otherwise), so edge tiles, padding and partial vectors are counted; xgemm_nv runs its strips
# (THIN), its split last wave (TAIL) and split-K on the simulator's one compute unit.
# Exit status: 0 all equal, 1 a difference or a failed run, 77 oclgrind is missing (skipped).
gb=$1
. "$(dirname "$0")/script_lib.sh"
requires oclgrind oclgrind
GEMMBENCH_NO_CACHE=1
export GEMMBENCH_NO_CACHE
pass=0
failed=0

# check ARGS...: one call of run ARGS under Oclgrind; the counted bytes must equal the declared.
check() {
    oclgrind --inst-counts --local-mem-size 65536 "$gb" run --no-store --json -p Oclgrind \
        -i 1 --warmup 0 --no-validate --beta 1 "$@" </dev/null >"$tmp/run.txt" 2>&1 ||
        fail "run $* exited $?"
    # shellcheck disable=SC2016 # awk's own $0
    got=$(awk '
        /^Instructions executed for kernel / {
            k = $0; sub(/^[^'\'']*'\''/, "", k); sub(/'\''.*/, "", k)
            helper = k ~ /^gb_(copy4?|transpose|scale)$/
            next
        }
        / - (load|store) global \(/ && !helper {
            b = $0; sub(/.*\(/, "", b); sub(/ bytes.*/, "", b); gsub(/,/, "", b)
            if ($0 ~ / - load /) ld += b; else st += b
        }
        / - call _Z[0-9]+v(load|store)[0-9]+.*PU3AS1K?[fd]\(\)/ && !helper {
            n = $1; gsub(/,/, "", n)
            w = $0; sub(/.* - call _Z[0-9]+v(load|store)/, "", w); sub(/[^0-9].*/, "", w)
            e = $0 ~ /AS1K?f\(\)/ ? 4 : 8
            if ($0 ~ /vload/) ld += n * w * e; else st += n * w * e
        }
        /"read_bytes":/ { v = $0; gsub(/[^0-9]/, "", v); rd = v }
        /"write_bytes":/ { v = $0; gsub(/[^0-9]/, "", v); wr = v }
        END { printf "%s %s %s %s", ld + 0, st + 0, rd, wr }' "$tmp/run.txt")
    # shellcheck disable=SC2086 # four numbers
    set -- $got "$@"
    counted_r=$1 counted_w=$2 declared_r=$3 declared_w=$4
    shift 4
    if [ -z "$declared_r" ] || [ -z "$declared_w" ]; then
        failed=$((failed + 1))
        echo "FAIL: $*: no declared traffic in run --json"
    elif [ "$counted_r" = "$declared_r" ] && [ "$counted_w" = "$declared_w" ]; then
        pass=$((pass + 1))
        echo "ok    $*: read $declared_r, write $declared_w bytes"
    else
        failed=$((failed + 1))
        echo "FAIL: $*: declared read $declared_r, write $declared_w; Oclgrind counted read" \
            "$counted_r, write $counted_w"
    fi
}

s="-M 33 -N 17 -K 9"
# shellcheck disable=SC2086 # $s is a word list
{
    check -k naive $s
    check -k naive $s --precision d --layout col --transA T
    check -k gemmbench_nn $s
    check -k SGEMM_NN_1x1 $s
    check -k gemmbench_nt $s
    check -k SGEMM_NT_4x1_barrier -M 33 -N 17 -K 45
    check -k DGEMM_NT_2x1 $s --precision d
    for f in myGEMM1 myGEMM2 myGEMM3 myGEMM4 myGEMM5 myGEMM6 myGEMM7 myGEMM9 myGEMM10 myGEMM11; do
        check -k $f $s --layout col
    done
    check -k myGEMM10 -M 33 -N 17 -K 45 --layout col --param TSM=32 --param TSN=32 \
        --param TSK=8 --param WPTM=4 --param WPTN=4
    check -k xgemm $s
    check -k xgemm -M 33 -N 17 -K 45 --transA T --transB T
    check -k xgemm_cpu $s
    check -k xgemm_small $s --precision d --layout col
}
# xgemm_nv: a row strip of 1 and a column strip of 2 beside one whole tile, and strips of 3 and
# 6 (up to 4 and up to THIN lines at a time), in row-NN, the arrangement the declaration gives
# its strips (docs/kernel-metadata.md says what other transpositions change); four tiles' worth
# of partial edges without strips (THIN 0, 64 x 64 tiles, double); a last partial wave split along K (3 tiles on the
# simulator's 1 compute unit x 2 slots); split-K of a single tile.
check -k xgemm_nv -M 129 -N 130 -K 9
check -k xgemm_nv -M 131 -N 134 -K 9 --param THIN=8
check -k xgemm_nv -M 129 -N 130 -K 9 --param THIN=0 --param MWG=64 --param NWG=64 \
    --precision d
check -k xgemm_nv -M 128 -N 384 -K 40 --param TAIL=1
check -k xgemm_nv_splitk -M 128 -N 128 -K 512
# dgemm_dmma and sgemm_3xtf32 with their mma.sync emulation (EMU=1), from a copy of the metadata
# without the NVIDIA extension (the source is the built-in one), two warps of 16 x 16 (the
# default tile's scratch does not fit), in the native row-TN and in row-NN, whose pass of A is a
# helper (not counted).
mkdir "$tmp/mma" || fail "mkdir"
for f in dgemm_dmma sgemm_3xtf32; do
    sed -e '/"extensions": *\[/d' "$(dirname "$0")/../kernels/$f.json" >"$tmp/mma/$f.json" ||
        fail "copying $f.json"
done
mma="--kernel-path $tmp/mma --param EMU=1 --param WM=16 --param WGM=2 --param WGN=1"
# shellcheck disable=SC2086 # $mma and $s are word lists
{
    check -k dgemm_dmma $s --precision d $mma --param WN=16 --transA T
    check -k dgemm_dmma -M 40 -N 33 -K 19 --precision d $mma --param WN=16 --layout row
    check -k sgemm_3xtf32 -M 33 -N 17 -K 48 $mma --param WN=32 --transA T
    # split-K: three pieces' sums written and added by the remainder kernel (in single: the
    # same run in double makes Oclgrind 21.10's instruction counter corrupt its heap when the
    # context is released, a crash after the counts are out)
    check -k sgemm_3xtf32 -M 33 -N 17 -K 800 $mma --param WN=32 --transA T --param SPLITK=3
}
# The streams (thin_stream, thin_cols, thin_dot) get a B whose ld is a multiple of their vector:
# where it is not, they read B's rows by vloadn, and after a vloadn at an address not aligned to
# its vector Oclgrind 21.10's instruction counter corrupts its heap (plain Oclgrind and PoCL run
# those reads; kernels_oclgrind checks them).
# thin_stream: rows in blocks of MR (the last one partial), edge vectors, A transposed; with a
# split of K into three pieces (SLOTS) whose sums the remainder kernel adds.
check -k thin_stream_16 -M 33 -N 17 -K 9 --ldb 20
check -k thin_stream_1 -M 3 -N 19 -K 21 --precision d --transA T --ldb 20
check -k thin_stream -M 33 -N 17 -K 100 --param KG=1 --param SLOTS=16 --ldb 20
# thin_cols, its rows and columns exchanged: rows in blocks of TX RW (the last partial), an edge
# column block, A transposed, K split in the group and into pieces. (VW=1, thin_cols_1's, makes
# Oclgrind 21.10 stop at an LLVM intrinsic it lacks, llvm.experimental.noalias.scope.decl; PoCL
# runs it in device_kernels.)
check -k thin_cols_16 -M 33 -N 17 -K 9 --ldb 32
check -k thin_cols -M 19 -N 3 -K 21 --precision d --transA T --param VW=2 --param RW=4 --ldb 4
check -k thin_cols -M 40 -N 9 -K 100 --param VW=4 --param TX=32 --param KG=2 --param SLOTS=16 \
    --ldb 12
# thin_dot, its work-items along K: rows in blocks of RL RW (the last partial), an edge column
# block, a K tail shorter than a step, and K split into pieces.
check -k thin_dot_16 -M 70 -N 17 -K 9 --ldb 24
check -k thin_dot -M 19 -N 3 -K 100 --precision d --param VW=2 --param RW=2 --param KL=8 --param RL=2 --param KU=2 --ldb 4
check -k thin_dot -M 40 -N 9 -K 300 --param VW=4 --param KL=16 --param RL=4 --param KU=1 --param SLOTS=16 --ldb 12
echo "$pass equal, $failed different"
[ "$failed" -eq 0 ] || fail "declared traffic differs from Oclgrind's count"
