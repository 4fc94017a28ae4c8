#!/bin/sh
# explore_devices.sh GEMMBENCH: a sweep over several devices of one process (-d 0,0: the same
# device twice, two workers; -d all) stores exactly the points a one-device sweep stores, each
# once, each worker taking the points of one shape together; a second run finds them all stored; -d lists are refused where one device is measured.
gb=$1
. "$(dirname "$0")/script_lib.sh"
ids() { "$gb" export --format csv --store "$1" 2>/dev/null | tail -n +2 | cut -d, -f1 | sort; }
sweep="-k SGEMM_NT_4x1,naive -n 8,16,24 -i 2 --warmup 0 --repeat 2"

"$gb" explore $sweep --store "$tmp/one.db" >"$tmp/one.txt" 2>&1 || fail "one device"
"$gb" explore $sweep -d 0,0 --store "$tmp/two.db" >"$tmp/two.txt" 2>&1 || fail "-d 0,0"
grep -q "12 points on 2 devices: \[0: .*\], \[1: " "$tmp/two.txt" || fail "-d 0,0 must name two workers"
grep -q "^\[0: " "$tmp/two.txt" && grep -q "^\[1: " "$tmp/two.txt" ||
    fail "both workers must measure points"
ids "$tmp/one.db" >"$tmp/one.ids"
ids "$tmp/two.db" >"$tmp/two.ids"
[ "$(wc -l <"$tmp/two.ids")" -eq 12 ] || fail "-d 0,0 must store 12 points"
[ "$(uniq "$tmp/two.ids" | wc -l)" -eq 12 ] || fail "a point stored twice"
cmp -s "$tmp/one.ids" "$tmp/two.ids" || fail "-d 0,0 stored other points than one device"
"$gb" store check --store "$tmp/two.db" >"$tmp/check.txt" 2>&1 || fail "store inconsistent"
# Points on one data (shape) go to one worker together: in each worker's order, and in one
# device's, a shape once left never comes back (its inputs and reference are made once there).
# shellcheck disable=SC2016 # awk's own $ fields
grouped='
    /^\[/ { w = /^\[[0-9]+: / ? substr($1, 2) : "one"
            if (match($0, / [0-9]+x[0-9]+x[0-9]+ /)) s = substr($0, RSTART + 1, RLENGTH - 2); else next
            if (s != last[w]) { if ((w, s) in seen) bad = 1; seen[w, s] = 1; last[w] = s } }
    END { exit bad }'
awk "$grouped" "$tmp/two.txt" || fail "a worker came back to a shape it had left (-d 0,0)"
awk "$grouped" "$tmp/one.txt" || fail "one device came back to a shape it had left"
[ "$(grep -c '^\[' "$tmp/one.txt")" -eq 12 ] || fail "one device must print 12 points"

# Resumed: nothing left; and -d all takes every device there is (PoCL alone here).
"$gb" explore $sweep -d 0,0 --store "$tmp/two.db" >"$tmp/again.txt" 2>&1 || fail "second run"
grep -q "0 to measure, 12 already in the store" "$tmp/again.txt" || fail "the rerun must find all 12"
"$gb" explore $sweep -n 32 -d all --store "$tmp/two.db" >"$tmp/all.txt" 2>&1 || fail "-d all"
grep -q "explore: 4 measured and stored" "$tmp/all.txt" || fail "-d all must measure the 4 new points"

# One-device commands refuse a list, with a pointer to those that take one.
"$gb" run -k naive -n 8 -d 0,0 >"$tmp/run.txt" 2>&1
[ $? -eq 2 ] || fail "run -d 0,0 must exit 2"
grep -q "explore and tune" "$tmp/run.txt" || fail "run -d 0,0 must say which commands take lists"
"$gb" explore $sweep -d 0,7 --store "$tmp/bad.db" >"$tmp/bad.txt" 2>&1
[ $? -ne 0 ] || fail "-d 0,7 must fail: there is no device 7"
grep -q "no OpenCL device matches '7'" "$tmp/bad.txt" || fail "-d 0,7 must name the missing device"
echo "explore_devices: ok"
