#!/bin/sh
# tune_refresh.sh GEMMBENCH: `tune --refresh` on the default device. A store holds entries of
# this device and of a sibling (another name, the same family: the entries are made from what
# `gemmbench devices` says of the device, so that any CPU will do): myGEMM1 at 32^3 here, naive
# at 32^3 and myGEMM1 at 48^3 on the sibling. The plan (--count) has a run per class and kernel
# family, at this device's shape or else the sibling's, with the seeds of its family; the
# refresh measures each run's seeds first (the nearest shape first, this device's before the
# sibling's), makes an entry per class for this device and writes the tuning file; --classes
# keeps some classes; the user's tuning file's entries count; --time stops the refresh between
# runs. --no-shipped keeps the shipped entries of the device's family out of the classes (a
# machine's family may have some). Bad input is tune_cli.sh's. About 10 s.
gb=$1
. "$(dirname "$0")/script_lib.sh"
export GEMMBENCH_TUNED="$tmp/none.tuned" GEMMBENCH_STORE="$tmp/default.db"
export GEMMBENCH_CHOICES="$tmp/choices"
# no MESSAGE: bad, with the last command's output.
no() { bad "$1"; show "$tmp/out" "$tmp/err"; }
# run ARGS...: gemmbench ARGS into out and err; the exit status.
run() { "$gb" "$@" >"$tmp/out" 2>"$tmp/err"; }
has() { grep -Eq -- "$1" "$tmp/out"; }

run devices --json || fail "gemmbench devices --json"
field() { sed -n "s/^		\"$1\":	\"\(.*\)\",\$/\1/p" "$tmp/out" | head -n 1; }
name=$(field name)
platform=$(field platform)
driver=$(field driver)
family=$(field family)
[ -n "$name" ] && [ -n "$family" ] || fail "no device name or family in 'gemmbench devices --json'"
# entry DEVICE SHAPE KERNEL PARAMS: a tuned entry of the device's family, slow enough to replace.
entry() {
    printf '{"device": "%s", "platform": "%s", "driver": "%s", "vendor": "v", "type": "cpu",
  "family": "%s", "precision": "s", "layout": "col-NN", "shape": [%s], "kernel": "%s",
  "params": {%s}, "gflops": 0.001, "tuned_at": "2020-01-01T00:00:00Z"}' \
        "$1" "$platform" "$driver" "$family" "$2" "$3" "$4"
}
{
    echo '['
    entry "$name" "32, 32, 32" myGEMM1 '"TS": 8'
    echo ','
    entry "Sibling CPU" "32, 32, 32" naive '"LX": 8, "LY": 2'
    echo ','
    entry "Sibling CPU" "48, 48, 48" myGEMM1 '"TS": 4'
    echo ']'
} >"$tmp/e.json"
run tuned import "$tmp/e.json" --store "$tmp/a.db" || fail "tuned import of the entries"
opts="--no-shipped --strategy exhaustive --no-presets -i 2 --confirm 1 --budget 3"

# ---- the plan ---------------------------------------------------------------------------------
# shellcheck disable=SC2086
run tune --refresh $opts --count --store "$tmp/a.db" || no "--refresh --count"
has " s +col-NN small-32 +myGEMM1 +32x32x32 +7  2$" && has " s +col-NN small-32 +naive +32x32x32 .*  1$" &&
    has " s +col-NN small-64 +myGEMM1 +48x48x48 +7  2$" && has "^3 run\(s\) to refresh$" &&
    [ "$(grep -c 'col-NN' "$tmp/out")" -eq 3 ] && ok ||
    no "the plan: a run per class and kernel family, at this device's shape, else the sibling's"
run store info --store "$tmp/a.db" && has "^tuning runs: 0 " && ok || no "--count measures nothing"
# shellcheck disable=SC2086
run tune --refresh $opts --count --classes small-64 --store "$tmp/a.db" &&
    has "^1 run\(s\) to refresh$" && has "small-64 +myGEMM1" && ok || no "--classes CLASS"
# shellcheck disable=SC2086
run tune --refresh $opts --count --classes s/col-NN/small-32 --store "$tmp/a.db" &&
    has "^2 run\(s\) to refresh$" && ! has "small-64" && ok || no "--classes PRECISION/LAYOUT/CLASS"
# The shipped entries of the family, where it has some, are classes too (without --no-shipped).
shipped=$("$gb" tuned list --shipped --family "$family" --store "$tmp/none.db" | grep -c '^  - ')
runs=3 # with --no-shipped, above
run tune --refresh --count --store "$tmp/a.db" &&
    all=$(sed -n 's/^\([0-9]*\) run(s) to refresh$/\1/p' "$tmp/out") &&
    if [ "$shipped" -gt 0 ]; then [ "$all" -gt "$runs" ]; else [ "$all" -eq "$runs" ]; fi && ok ||
    no "the shipped entries' classes besides the store's ($shipped shipped entries)"

# ---- the refresh ------------------------------------------------------------------------------
# shellcheck disable=SC2086
run tune --refresh $opts --store "$tmp/a.db" || no "tune --refresh"
cp "$tmp/out" "$tmp/refresh.txt"
# first RUN N: the parameters of the first N evaluations after the line opening RUN.
first() { sed -n "/refresh: s col-NN $1 at/,\$p" "$tmp/refresh.txt" | sed -n "2,$(($2 + 1))p" |
    sed 's/^\[[0-9]*\/[0-9]*\] \([^:]*\):.*/\1/' | tr '\n' ','; }
[ "$(first "small-32: myGEMM1" 2)" = "TS=8,TS=4," ] && ok ||
    no "the seeds first: this device's entry, then the sibling's of the same family"
[ "$(first "small-32: naive" 1)" = "LX=8 LY=2," ] && ok || no "a class's other kernel family, seeded"
[ "$(first "small-64: myGEMM1" 2)" = "TS=4,TS=8," ] && ok || no "the seeds nearest in shape first"
grep -q "refresh: s col-NN small-64: myGEMM1 at 48x48x48, 2 seed(s)" "$tmp/refresh.txt" &&
    [ "$(grep -c 'tune: myGEMM1 s 32x32x32 (small-32): 5 evaluations' "$tmp/refresh.txt")" -eq 1 ] &&
    [ "$(grep -c 'tune: naive s 32x32x32 (small-32): 4 evaluations' "$tmp/refresh.txt")" -eq 1 ] &&
    ok || no "each run: its seeds besides the budget of 3"
run tuned list --store "$tmp/a.db" --family "$family" &&
    [ "$(grep -cF "$name" "$tmp/out")" -eq 2 ] &&
    [ "$(grep -F "$name" "$tmp/out" | grep -c '2020-01-01')" -eq 0 ] &&
    grep -F "$name" "$tmp/out" | grep -q ' small-64 ' && ok ||
    no "an entry per class for this device, the old one replaced"
grep -qF "$(printf '\t48\t48\t48\tmyGEMM1\t')" "$tmp/a.db.tuned" 2>/dev/null && ok ||
    no "the tuning file written with the new entries"
run store info --store "$tmp/a.db" && has "^tuning runs: 3 " && ok || no "three runs recorded"

# ---- the user's tuning file -----------------------------------------------------------------------
{
    echo '['
    entry "Sibling CPU" "16, 16, 16" myGEMM1 '"TS": 2'
    echo ']'
} >"$tmp/f.json"
run tuned import "$tmp/f.json" --store "$tmp/f.db" || no "tuned import into a second store"
GEMMBENCH_TUNED=$tmp/f.db.tuned "$gb" tune --refresh --no-shipped --count --store "$tmp/empty.db" \
    >"$tmp/out" 2>"$tmp/err" && has "small-16 +myGEMM1 +16x16x16" && has "^1 run\(s\) to refresh$" && [ ! -e "$tmp/empty.db" ] &&
    ok || no "the tuning file's entries are refreshed, and the plan writes no store"

# ---- --time: no run starts once it is spent -------------------------------------------------------
run tuned import "$tmp/e.json" --store "$tmp/b.db" || no "tuned import"
# shellcheck disable=SC2086
run tune --refresh $opts --time 0.01 --store "$tmp/b.db" &&
    has "^tune --refresh: the 0.01 s of --time are spent: [23] of 3 run\(s\) not started; run the same command again" &&
    run store info --store "$tmp/b.db" && has "^tuning runs: [01] " && ok || no "--time stops the refresh"

finish
