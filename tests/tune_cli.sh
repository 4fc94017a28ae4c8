#!/bin/sh
# tune_cli.sh GEMMBENCH FIXTURES: each bad tune command gets exit 2, one line on stderr naming
# the problem and the fix, and writes no store; tune --refresh's too (nothing to refresh, an
# unknown class, options it does not take); and --objective energy or edp on a device whose
# energy counter cannot be read (GEMMBENCH_RAPL_FILE naming no file stands in for a machine
# without RAPL, whatever this one has), or with the energy loop turned off.
gb=$1
fx=$2
. "$(dirname "$0")/script_lib.sh"
db=$tmp/r.db
# No user's tuning file: a refresh of the user's entries (--no-shipped) has nothing to refresh.
export GEMMBENCH_TUNED="$tmp/none.tuned"
printf '64 64\n' >"$tmp/short.txt"
printf '64 64 64\n8 0 8\n' >"$tmp/zero.txt"

expect() {
    regex=$1
    shift
    "$gb" tune "$@" --store "$db" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -Eq -- "$regex" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        [ ! -e "$db" ]; then
        ok
    else
        bad "gemmbench tune $*"
        echo "  expected exit 2, one line /$regex/ and no store, got exit $rc:"
        cat "$tmp/err"
        ls "$db" 2>/dev/null
        rm -f "$db"
    fi
}
expect "unknown strategy 'nope'; use one of exhaustive, random, anneal, genetic, bayes" \
    -k naive -n 64 --strategy nope
expect "--budget must be an integer from 1 to" -k naive -n 64 --budget 0
expect "--time must be a positive duration" -k naive -n 64 --time 0
expect "--candidate-timeout must be seconds from 0" -k naive -n 64 --candidate-timeout -1
expect "--threads must be an integer from 0 to 64" -k naive -n 64 --threads 100000
expect "--builders must be an integer from 0 to 64" -k naive -n 64 --builders -1
expect "--seed must be a non-negative integer" -k naive -n 64 --seed x
expect "no kernel to tune: give -k FAMILY" -n 64
expect "unknown kernel 'nope'" -k nope -n 64
expect "-k auto picks a tuned kernel; tune a family instead" -k auto -n 64
expect "LX=3000 is not allowed for kernel 'naive'" -k naive -n 64 --param LX=3000
expect "no configuration of kernel 'naive' passes its work-group size limit" \
    -k naive -n 64 --param LX=1000 --param LY=1000
expect "passes its constraint 'TS % WPT == 0' and its work-group size limit on this device together" \
    -k myGEMM3 -n 64 --param TS=4 --param WPT=8
expect "passes its constraint 'MWG % MDIMC == 0'; widen the values given" \
    -k xgemm -n 64 --fix MWG=16 --fix MDIMC=32
expect "kernel family 'fixed' has no parameters: there is nothing to tune" \
    -k fixed --kernel-path "$fx/fixed_wg" -n 64
expect "tune takes work-group sizes as parameters" -k myGEMM1 -n 64 --lws 8,8
expect "--repeat is not an option of .tune." -k naive -n 64 --repeat 3
expect "no sizes given" -k naive
expect "cannot read the shapes file" -k naive --shapes "$tmp/none.txt"
expect "short.txt.*line 1" -k naive --shapes "$tmp/short.txt"
expect "zero.txt.*line 2" -k naive --shapes "$tmp/zero.txt"
expect "needs cl_nv_device_attribute_query" -k dgemm_dmma -n 64
expect "cannot read .*none.space: No such file" --simulate "$tmp/none.space"
expect "nothing to refresh: no tuned entry of .* or of its family .* among the user's \(--no-shipped\)" \
    --refresh --no-shipped
expect "nothing to refresh: no tuned entry of .* in double precision among the user's" \
    --refresh --no-shipped --precision d
expect "--refresh tunes the kernels of each class's entries: give no -k" --refresh -k naive
expect "--refresh tunes each class at its entries' shape: give no -n" --refresh -n 64
expect "--classes: no class 'nope' to refresh" --refresh --classes nope
expect "--classes '.*' has an empty class" --refresh --classes square-64,,
expect "--param and --fix narrow one family's space: not with --refresh" --refresh --fix TS=8
expect "--refresh tunes each class in its own layout: give no --layout" --refresh --layout col
expect "--classes is for tune --refresh" -k naive -n 64 --classes small-64
expect "--no-shipped is for tune --refresh" -k naive -n 64 --no-shipped
expect "--simulate runs one recorded space: not with --refresh" --refresh --simulate "$tmp/none.space"
expect "--objective must be time, energy or edp, got 'watts'" -k naive -n 64 --objective watts
# No counter: refused before the store is opened, naming the device, why and the fix.
GEMMBENCH_RAPL_FILE=$tmp/no-rapl/energy_uj
export GEMMBENCH_RAPL_FILE
expect "--objective energy needs an energy counter, and .* has none readable \(GEMMBENCH_RAPL_FILE .* holds no counter\); tune with --objective time, or on a device with one" \
    -k naive -n 64 --objective energy
expect "--objective edp needs an energy counter" -k naive -n 64 --objective edp
# A counter, but the energy loop turned off.
echo 123456 >"$tmp/energy_uj"
GEMMBENCH_RAPL_FILE=$tmp/energy_uj GEMMBENCH_ENERGY_MIN_S=0 expect \
    "--objective energy measures energy, and GEMMBENCH_ENERGY_MIN_S='0' turns the energy loop off; unset it" \
    -k naive -n 64 --objective energy
unset GEMMBENCH_RAPL_FILE GEMMBENCH_ENERGY_MIN_S
# --objective chooses among -k auto's entries: with other kernels it is a mistake.
"$gb" run -k naive -n 8 --objective energy --store "$db" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- "--objective says which tuned entries -k auto takes" "$tmp/err" &&
    [ ! -e "$db" ]; then
    ok
else
    bad "gemmbench run -k naive --objective energy: exit $rc, $(cat "$tmp/err")"
fi

# A precision the family lacks, asked alone, is refused; in a list it is skipped in a line, and
# --precision all counts each the family has, those the device cannot run (fp64 hidden) said.
# (myGEMM1 has s and d, and c and z by the 1M method; SGEMM_NT_4x1 has s, and c by 1M.)
expect "kernel 'SGEMM_NT_4x1' has no complex double precision" -k SGEMM_NT_4x1 -n 64 --precision z
"$gb" tune --count -k myGEMM1 --precision s,c --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -Eq "^myGEMM1 +c +7 " "$tmp/out" && grep -Eq "^myGEMM1 +s +7 " "$tmp/out" &&
    [ ! -e "$db" ]; then ok; else
    bad "tune --count --precision s,c"; cat "$tmp/out" "$tmp/err"; fi
"$gb" tune --count -k SGEMM_NT_4x1 --precision s,d --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^tune: skipping SGEMM_NT_4x1 in d: the family has no double precision$" \
    "$tmp/out" && grep -Eq "^SGEMM_NT_4x1 +s " "$tmp/out" && [ ! -e "$db" ]; then ok; else
    bad "tune --count --precision s,d"; cat "$tmp/out" "$tmp/err"; fi
GEMMBENCH_DISABLE_FP64=1 "$gb" tune --count -k naive --precision all --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^naive +[shbc] +85 ' "$tmp/out")" -eq 4 ] &&
    grep -Eq "^naive +d +- .*no double precision" "$tmp/out" &&
    grep -Eq "^naive +z +- .*no double precision" "$tmp/out"; then ok; else
    bad "tune --count --precision all"; cat "$tmp/out" "$tmp/err"; fi

finish
