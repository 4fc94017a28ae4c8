#!/bin/sh
# explore_resume.sh GEMMBENCH: an explore of 20 tiny points is killed with SIGTERM after a few
# are stored; the store must be consistent and hold exactly the points reported stored, and the
# same command must then measure only the missing ones, leaving exactly 20.
gb=$1
. "$(dirname "$0")/script_lib.sh"
db=$tmp/results.db
sweep="-k SGEMM_NT_4x1 -n 8:160:8 -i 2 --warmup 0 --store $db"

# The pause between points gives the kill time to land in the middle of the sweep. The output
# file exists before the background process starts, so the first count cannot race its creation.
: >"$tmp/out1.txt"
# shellcheck disable=SC2086
"$gb" explore $sweep --pause 250 >>"$tmp/out1.txt" 2>"$tmp/err1.txt" &
pid=$!
waited=0
while [ "$(stored "$tmp/out1.txt")" -lt 3 ]; do
    kill -0 "$pid" 2>/dev/null || fail "explore ended before it could be interrupted"
    waited=$((waited + 1))
    [ "$waited" -le 600 ] || { kill -KILL "$pid"; fail "no 3 points stored within 60 s"; }
    sleep 0.1
done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "an interrupted explore must exit 143 (128+SIGTERM), got $rc"
grep -q "interrupted by SIGTERM" "$tmp/err1.txt" || fail "no interruption message"
"$gb" store check --store "$db" >"$tmp/out_check.txt" 2>&1 || fail "store inconsistent after the kill"
reported=$(stored "$tmp/out1.txt")
first=$(points "$db")
[ "$first" -eq "$reported" ] || fail "store holds $first points, explore reported $reported"
[ "$first" -ge 3 ] && [ "$first" -lt 20 ] || fail "expected 3..19 points after the kill, got $first"

# Resume: only the missing ones run.
left=$((20 - first))
# shellcheck disable=SC2086
"$gb" explore $sweep >"$tmp/out2.txt" 2>"$tmp/err2.txt" || fail "the resumed explore failed"
grep -q "20 points on .*: $left to measure, $first already in the store, 0 cannot run" "$tmp/out2.txt" ||
    fail "the resumed explore did not plan exactly the $left missing points"
grep -q "^explore: $left measured and stored" "$tmp/out2.txt" || fail "did not measure exactly $left"
[ "$(stored "$tmp/out2.txt")" -eq "$left" ] || fail "stored lines differ from $left"
[ "$(points "$db")" -eq 20 ] || fail "the store must hold exactly 20 points, got $(points "$db")"
"$gb" store check --store "$db" >"$tmp/out_check.txt" 2>&1 || fail "store inconsistent after resuming"

# Once complete, the same command measures nothing.
# shellcheck disable=SC2086
"$gb" explore $sweep >"$tmp/out3.txt" 2>"$tmp/err3.txt" || fail "the third explore failed"
grep -q ": 0 to measure, 20 already in the store" "$tmp/out3.txt" || fail "a complete sweep ran again"
echo "explore resume: killed after $first, resumed $left, 20 in the store"
