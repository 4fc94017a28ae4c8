#!/bin/sh
# dmma_emu_test.sh GEMMBENCH KERNELS: the dgemm_dmma family (kernels/dgemm_dmma.cl) on the default
# device with EMU=1, which replaces each mma.sync by an emulation in local memory that follows
# the PTX fragment tables, so the kernel's indexing, register grouping, staging and edges are
# checked where there are no tensor cores (PoCL in CI); the real instructions run on NVIDIA GPUs
# only. The family is copied to a temporary --kernel-path as dgemm_dmma_emu, without its NVIDIA
# extension requirement (and with its presets renamed, so they do not shadow the built-in ones).
# Checked, with tile-straddling sizes and alpha, beta other than 1, 0: the four row-major layouts
# and two column-major ones (operand swap); padded leading dimensions and offsets, even (16-byte
# loads) and odd (scalar loads); exact integer data; every instruction shape (m8n8k4, m16n8k4,
# m16n8k8, m16n8k16) and the tile of the preset dgemm_dmma_128. Also that the source stops at its
# #error without EMU off NVIDIA, and that a copy with one wrong fragment index fails validation.
# Prints one line per failure and 'N passed, M failed'.
# shellcheck disable=SC2086 # the option lists ($emu, $ab, $t128 ..) are split on purpose
gb=${1:?usage: dmma_emu_test.sh GEMMBENCH KERNELS}
kernels=${2:?usage: dmma_emu_test.sh GEMMBENCH KERNELS}
passed=0
failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gb-dmma-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Results are not worth keeping (ctest also names a store). gemmbench's program cache is off:
# on PoCL, getting a program's binary to save costs a second compile (with it on, this test took
# twice as long), and PoCL's own cache already serves the runs that rebuild a program.
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
GEMMBENCH_NO_CACHE=1
export XDG_DATA_HOME GEMMBENCH_STORE GEMMBENCH_NO_CACHE
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
ok() { passed=$((passed + 1)); }

# The copy: the same source; metadata renamed and without "extensions" (its own line).
mkdir "$tmp/emu" "$tmp/broken" || exit 1
cp "$kernels/dgemm_dmma.cl" "$tmp/emu/" || exit 1
sed -e '/"extensions": *\[/d' -e 's/"family": *"dgemm_dmma"/"family": "dgemm_dmma_emu"/' \
    -e 's/"\(dgemm_dmma_[0-9]*\)":/"emu_\1":/' "$kernels/dgemm_dmma.json" >"$tmp/emu/dgemm_dmma_emu.json"
if ! grep -q '"family": "dgemm_dmma_emu"' "$tmp/emu/dgemm_dmma_emu.json" ||
    grep -q '"extensions"' "$tmp/emu/dgemm_dmma_emu.json"; then
    fail "could not rename dgemm_dmma.json or drop its extensions; update the sed above"
fi

# Every run must exit 0 and print only rows that pass.
emu="--kernel-path $tmp/emu -k dgemm_dmma_emu --precision d --param EMU=1"
check_run() {
    out=$("$gb" run -i 1 --warmup 0 $emu "$@" 2>&1)
    rc=$?
    rows=$(printf '%s\n' "$out" | grep -cE '^dgemm_dmma_emu .*  pass( |$)')
    bad=$(printf '%s\n' "$out" | grep -cE '  FAIL: |  -($| \()')
    if [ $rc -ne 0 ] || [ "$rows" -eq 0 ] || [ "$bad" -ne 0 ]; then
        fail "gemmbench run $emu $* (exit $rc): $(printf '%s\n' "$out" | tail -2)"
    else
        ok
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

# 3. Off NVIDIA without EMU, the source stops at its #error.
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/emu" -k dgemm_dmma_emu --precision d -n 8 2>&1)
rc=$?
case $out in
    *"needs inline PTX mma.sync"*) if [ $rc -ne 0 ]; then ok; else fail "EMU=0 exited 0"; fi ;;
    *) fail "EMU=0 built off NVIDIA (exit $rc): $(printf '%s\n' "$out" | tail -2)" ;;
esac

# 4. A family with only a double-precision version runs in double when no precision is given,
# in run as in explore (they once chose differently).
out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/emu" -k dgemm_dmma_emu --param EMU=1 -n 16 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qE '^dgemm_dmma_emu +d .* pass'; then ok; else
    fail "run without --precision (exit $rc): $(printf '%s\n' "$out" | tail -2)"; fi
out=$("$gb" explore --dry-run --store "$tmp/none.db" --kernel-path "$tmp/emu" -k dgemm_dmma_emu \
    --param EMU=1 -n 16 2>&1)
if printf '%s\n' "$out" | grep -q '^to run: dgemm_dmma_emu d 16x16x16 EMU=1 rep 0'; then ok; else
    fail "explore without --precision: $(printf '%s\n' "$out" | tail -2)"; fi

# 5. The checks can fail: m16n8k8 with A's second k-quad register taken from the first.
cp "$tmp/emu/dgemm_dmma_emu.json" "$tmp/broken/" || exit 1
sed 's/= AF(MMAM \/ 8 \* i2 + h, kb \* (MMAK \/ 4) + jj);/= AF(MMAM \/ 8 * i2 + h, kb * (MMAK \/ 4));/' \
    "$kernels/dgemm_dmma.cl" >"$tmp/broken/dgemm_dmma.cl"
if cmp -s "$kernels/dgemm_dmma.cl" "$tmp/broken/dgemm_dmma.cl"; then
    fail "could not break the copy of dgemm_dmma.cl; update the sed above"
else
    out=$("$gb" run -i 1 --warmup 0 --kernel-path "$tmp/broken" -k dgemm_dmma_emu --precision d \
        --param EMU=1 --param MMAM=16 --param MMAK=8 -M 130 -N 70 -K 33 2>&1)
    rc=$?
    if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -qE '^dgemm_dmma_emu .*  FAIL: '; then
        ok
    else
        fail "a wrong fragment index was not caught (exit $rc): $(printf '%s\n' "$out" | tail -1)"
    fi
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
