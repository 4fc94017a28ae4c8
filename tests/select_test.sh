#!/bin/sh
# select_test.sh BLAS_CHOOSE GEMMBENCH: what the library chooses for a problem, on the default
# device, through an application of the shared library (blas_choose) and the command line:
# - a family sibling: the device renamed (GEMMBENCH_RENAME_DEVICE) takes an entry of the real
#   device through their family, and says so;
# - a planted slow entry (naive, for this device and the exact shape) is the table's choice;
#   measuring the portfolio passes over it, says by how much, and writes the choices file, which
#   the next process reads in the cached mode; off keeps the table's choice; -k auto measures;
#   two processes racing to measure one shape leave whole lines that the next one reads;
# - the capture file gets the shapes a program ran that the database has no class for; `tune
#   --shapes` on it makes an entry that the next library process uses, from the store's tuning
#   file, without a rebuild;
# - damaged tuning files: a bad line, another version, a kernel this build lacks: one warning
#   each, the entry skipped, the others used.
. "$(dirname "$0")/script_lib.sh"
choose=$1
gb=$2
export GEMMBENCH_CHOICES="$tmp/choices" GEMMBENCH_TUNED="$tmp/tuned" GEMMBENCH_STORE="$tmp/r.db"
unset GEMMBENCH_SELECT GEMMBENCH_CAPTURE GEMMBENCH_RENAME_DEVICE

"$gb" devices >"$tmp/devices.txt" 2>&1 || fail "gemmbench devices"
device=$(sed -n 's/^  device 0: //p' "$tmp/devices.txt" | head -n 1)
platform=$(sed -n 's/^platform 0: \(.*\) (.*/\1/p' "$tmp/devices.txt" | head -n 1)
family=$(sed -n 's/^    family //p' "$tmp/devices.txt" | head -n 1)
vendor=$(sed -n 's/^    vendor \(.*\), type .*/\1/p' "$tmp/devices.txt" | head -n 1)
type=$(sed -n 's/^    vendor .*, type \([a-z]*\), .*/\1/p' "$tmp/devices.txt" | head -n 1)
driver=$(sed -n 's/^    vendor .*, driver \(.*\), OpenCL .*/\1/p' "$tmp/devices.txt" | head -n 1)
[ -n "$device" ] && [ -n "$family" ] || fail "no device or family in gemmbench devices"

# entry KERNEL PARAMS M N K [PREC]: one tuning-file line for the default device (precision s
# where PREC is not given).
entry() {
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\trow-NN\t%s\t%s\t%s\t%s\t%s\t1\t2026-11-28T00:00:00Z\n' \
        "$device" "$platform" "$driver" "$vendor" "$type" "$family" "${6:-s}" "$3" "$4" "$5" "$1" \
        "$2"
}
header() { printf '# gemmbench tuning file %s\n' "${1:-1}"; }

# ---- a family sibling --------------------------------------------------------------------------
{ header; entry xgemm "MWG=32 NWG=32 KWG=16 MDIMC=8 NDIMC=8" 200 200 200; } >"$tmp/tuned"
GEMMBENCH_RENAME_DEVICE="Sibling Of The Default Device" "$choose" off s 200 200 200 \
    >"$tmp/family.txt" 2>&1 || fail "blas_choose as a sibling"
grep -q "^200 200 200: xgemm .*(tuned: family $family ($device), small-256)" "$tmp/family.txt" ||
    fail "the sibling did not take the device's entry through its family"
"$choose" off s 200 200 200 >"$tmp/own.txt" 2>&1 || fail "blas_choose"
grep -q "^200 200 200: xgemm .*(tuned: $device, small-256)" "$tmp/own.txt" ||
    fail "the device did not take its own entry from the tuning file"

# ---- a planted slow entry ----------------------------------------------------------------------
{ header; entry naive - 256 256 256; } >"$tmp/tuned"
"$choose" off s 256 256 256 >"$tmp/off.txt" 2>&1 || fail "blas_choose off"
grep -q "^256 256 256: naive .*(tuned: $device, small-256)" "$tmp/off.txt" ||
    fail "the planted entry is not the table's choice"
"$choose" measure+build s 256 256 256 >"$tmp/measure.txt" 2>&1 || fail "blas_choose measure"
grep -q "^256 256 256: naive " "$tmp/measure.txt" && fail "measuring chose the planted slow entry"
grep -q "measured " "$tmp/measure.txt" || fail "the choice does not say it was measured"
grep -q "	s	row-NN	256	256	256	" "$tmp/choices" || fail "no choice in the choices file"
winner=$(sed -n 's/^256 256 256: \([a-z_0-9]*\) .*/\1/p' "$tmp/measure.txt")
"$choose" cached s 256 256 256 >"$tmp/cached.txt" 2>&1 || fail "blas_choose cached"
grep -q "^256 256 256: $winner .*(measured 20[0-9-]*T[0-9:]*Z: best of [2-8] candidates" \
    "$tmp/cached.txt" || fail "the next process did not take the measured choice"
# Two processes racing to measure one shape: both append, whole lines, and the next reads one.
rm -f "$tmp/choices"
"$choose" measure+build s 192 192 192 >"$tmp/race1.txt" 2>&1 &
"$choose" measure+build s 192 192 192 >"$tmp/race2.txt" 2>&1 || fail "blas_choose racing"
wait $! || fail "blas_choose racing"
[ "$(grep -c '	s	row-NN	192	192	192	' "$tmp/choices")" -ge 1 ] &&
    [ "$(grep -vc '^# \|	s	row-NN	192	192	192	' "$tmp/choices")" -eq 0 ] ||
    fail "racing processes left a broken choices file"
"$choose" cached s 192 192 192 >"$tmp/race3.txt" 2>&1 || fail "blas_choose after the race"
grep -q "^192 192 192: .*(measured 20" "$tmp/race3.txt" || fail "the race's choice was not read"
"$choose" off s 256 256 256 >"$tmp/off2.txt" 2>&1 || fail "blas_choose off again"
grep -q "^256 256 256: naive " "$tmp/off2.txt" || fail "off did not keep the table's choice"
# The command line's -k auto measures too (by default, building what it needs): its line says
# when, and the choices file, removed first, has the shape again. Not which candidate won: on a
# CPU two of them can be within the noise of each other, so this run may pick the other.
rm -f "$tmp/choices"
"$gb" run -k auto -n 256 --no-store >"$tmp/auto.txt" 2>&1 || fail "gemmbench run -k auto"
grep -q "^auto -> .*(measured \(now\|20[0-9-]*T[0-9:]*Z\): best of [2-8] candidates" \
    "$tmp/auto.txt" && grep -q "	s	row-NN	256	256	256	" "$tmp/choices" ||
    fail "-k auto did not measure"
grep -q "^auto -> naive" "$tmp/auto.txt" && fail "-k auto chose the planted slow entry"

# ---- measurement in every precision ----------------------------------------------------------
# A planted slow entry in h (16-bit storage) and in c: each is measured, passed over, and its
# winner recorded under its precision, no candidate failing its check; c's portfolio takes an
# s entry at the shape of its real GEMM by 1M (96 x 192 x 192), which is measured too; a
# conjugate transposition of A takes T's choice.
rm -f "$tmp/choices"
{
    header 2
    entry naive - 96 96 96 h
    entry naive - 96 96 96 c
    entry cpu_rb "MR=4 NV=1 VW=8 KU=1 LX=2" 96 192 192 s
} >"$tmp/tuned"
for prec in h c; do
    "$choose" off $prec 96 96 96 >"$tmp/off_$prec.txt" 2>&1 || fail "blas_choose off $prec"
    grep -q "^96 96 96: naive .*(tuned: $device, small-128)" "$tmp/off_$prec.txt" ||
        fail "the planted $prec entry is not the table's choice"
    GEMMBENCH_SELECT_LOG="$tmp/log_$prec" "$choose" measure+build $prec 96 96 96 \
        >"$tmp/measure_$prec.txt" 2>&1 || fail "blas_choose measure $prec"
    grep -q "not measured" "$tmp/measure_$prec.txt" && fail "$prec was not measured"
    grep -q "^96 96 96: .*(measured now\|^96 96 96: .*(measured 20" "$tmp/measure_$prec.txt" ||
        fail "the $prec choice does not say it was measured"
    grep -q "^96 96 96: naive " "$tmp/measure_$prec.txt" &&
        fail "measuring $prec chose the planted slow entry"
    grep -q "	$prec	row-NN	96	96	96	" "$tmp/choices" || fail "no $prec choice in the choices file"
    grep -q "	$prec	row-NN	96	96	96	.*	won$" "$tmp/log_$prec" ||
        fail "no $prec candidate won in the measurement's log"
    grep "	$prec	row-NN	96	96	96	" "$tmp/log_$prec" | grep -q "wrong at\|not faithful" &&
        fail "a $prec candidate failed its check"
done
awk -F '\t' '$8 == "cpu_rb" && $9 ~ /MR=4/ && $9 ~ /VW=8/ && $10 > 0' "$tmp/log_c" | grep -q . ||
    fail "c's candidate from an s entry, by 1M, was not measured"
"$choose" measure+build cC 96 96 96 >"$tmp/conj.txt" 2>&1 || fail "blas_choose measure cC"
grep -q "	c	row-TN	96	96	96	" "$tmp/choices" || fail "c with A^H is not keyed as T"
for t in C T; do
    "$choose" cached c$t 96 96 96 >"$tmp/conj_$t.txt" 2>&1 || fail "blas_choose cached c$t"
    grep -q "^96 96 96: .*(measured 20" "$tmp/conj_$t.txt" ||
        fail "c with A^$t did not take the choice measured with A^H"
done

# ---- capture, tune, and the next process -------------------------------------------------------
: >"$tmp/tuned"
rm -f "$tmp/choices"
GEMMBENCH_CAPTURE="$tmp/capture" "$choose" off d 24 40 56 d 24 40 56 >"$tmp/cap.txt" 2>&1 ||
    fail "blas_choose with a capture file"
[ "$(grep -c '^24 40 56  # d row-NN ' "$tmp/capture")" -eq 1 ] ||
    fail "the capture file does not hold the shape once"
"$gb" tune -k myGEMM1 --shapes "$tmp/capture" --precision d --strategy exhaustive --no-presets \
    -i 2 --confirm 1 --store "$tmp/r.db" >"$tmp/tune.txt" 2>&1 || fail "tune --shapes"
[ -s "$tmp/r.db.tuned" ] || fail "tune wrote no tuning file beside the store"
GEMMBENCH_TUNED="$tmp/r.db.tuned" "$choose" off d 24 40 56 >"$tmp/deploy.txt" 2>&1 ||
    fail "blas_choose after tune"
grep -q "^24 40 56: myGEMM1 .*(tuned: $device, small-32)" "$tmp/deploy.txt" ||
    fail "the next process did not use the tuned entry"
"$gb" tuned sync --store "$tmp/r.db" >"$tmp/sync.txt" 2>&1 || fail "tuned sync"
grep -q "^wrote 1 tuned entry of " "$tmp/sync.txt" || fail "tuned sync did not say what it wrote"

# ---- damaged tuning files ----------------------------------------------------------------------
{
    header
    printf 'a line\twith too few fields\n'
    entry nokernel - 128 128 128
    entry xgemm "MWG=32 NWG=32 KWG=16 MDIMC=8 NDIMC=8" 200 200 200
} >"$tmp/tuned"
"$choose" off s 200 200 200 >"$tmp/damaged.txt" 2>&1 || fail "blas_choose with a damaged file"
grep -q "^warning: $tmp/tuned:2: entry skipped: it has not the 15 tab-separated fields" \
    "$tmp/damaged.txt" || fail "no warning for the damaged line"
grep -q "(and 1 more entries skipped)" "$tmp/damaged.txt" || fail "the second skip is not counted"
grep -q "^200 200 200: xgemm .*(tuned: $device, small-256)" "$tmp/damaged.txt" ||
    fail "the good entry of a damaged file was not used"
{ printf '# gemmbench tuning file 99\n'; entry xgemm "MWG=32" 200 200 200; } >"$tmp/tuned"
"$choose" off s 200 200 200 >"$tmp/version.txt" 2>&1 || fail "blas_choose with a newer file"
grep -q "^warning: $tmp/tuned: not a tuning file of this version" "$tmp/version.txt" ||
    fail "no warning for a file of another version"
# (The file's entry, not a shipped one that has MWG=32 too: PoCL's small-256 on an EPYC does.)
grep -q "^200 200 200: xgemm MWG=32 .*(tuned: $device, small-256)" "$tmp/version.txt" &&
    fail "a newer file's entry was used"
{ header; entry nokernel - 200 200 200; } >"$tmp/tuned"
"$gb" run -k auto -n 200 --no-store >"$tmp/warn.txt" 2>&1 || fail "run -k auto, unknown kernel"
[ "$(grep -c 'gemmbench: warning: .*names a kernel this build does not have' "$tmp/warn.txt")" \
    -eq 1 ] || fail "-k auto did not warn once of an unknown kernel"
echo "select: all checks passed"
