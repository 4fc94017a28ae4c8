#!/bin/sh
# adaptive.sh GEMMBENCH: the adaptive timed calls on the default device. --max-rel-ci stops once
# the CI is narrow enough, --min-time once the time is spent, each saying so; the stops are part
# of a point's definition (other ids than without them, and a replay measures with them) and
# stored with the stop that applied; bad values are refused before anything runs.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" run -k naive -n 32 -i 3 --max-rel-ci 0.5 --json --no-store >"$tmp/ci.txt" 2>&1 ||
    fail "run --max-rel-ci"
grep -q '"stop":	"ci"' "$tmp/ci.txt" || fail "--max-rel-ci 0.5 must stop on the CI"
"$gb" run -k naive -n 32 -i 2 --min-time 0.3 --json --no-store >"$tmp/time.txt" 2>&1 ||
    fail "run --min-time"
grep -q '"stop":	"time"' "$tmp/time.txt" || fail "--min-time 0.3 alone must stop on the time"
calls=$(sed -n 's/.*"timed_calls":	\([0-9]*\).*/\1/p' "$tmp/time.txt" | head -1)
[ "${calls:-0}" -gt 2 ] || fail "--min-time 0.3 must make more than the 2 calls asked ($calls)"
"$gb" run -k naive -n 32 -i 2 --min-time 0.3 --no-store >"$tmp/table.txt" 2>&1 ||
    fail "run --min-time, table"
grep -q "^adaptive: " "$tmp/table.txt" && grep -q "\[time: [0-9]* calls\]" "$tmp/table.txt" ||
    fail "the table must say the adaptive rule and which stop ended the calls"

# More fixed calls than the adaptive cap stay allowed, alone and with a stop.
"$gb" run -k naive -n 8 -i 10005 --warmup 0 --json --no-store >"$tmp/many.txt" 2>&1 ||
    fail "-i 10005 must run"
grep -q '"timed_calls":	10005' "$tmp/many.txt" || fail "-i 10005 makes 10005 calls"
"$gb" run -k naive -n 8 -i 10005 --warmup 0 --max-rel-ci 0.5 --json --store "$tmp/many.db" \
    >"$tmp/many2.txt" 2>&1 || fail "-i 10005 with --max-rel-ci must run"
"$gb" store check --store "$tmp/many.db" >"$tmp/check.txt" 2>&1 || fail "and store as a valid point"
grep -q '"timed_calls":	10005' "$tmp/many2.txt" || fail "-i 10005 with a stop makes 10005 calls"

# The stops are in the definition: other ids, stored with their stop, replayed with them.
"$gb" explore -k naive -n 16,32 -i 3 --store "$tmp/a.db" >"$tmp/plain.txt" 2>&1 || fail "explore"
"$gb" explore -k naive -n 16,32 -i 3 --max-rel-ci 0.5 --store "$tmp/a.db" >"$tmp/adapt.txt" 2>&1 ||
    fail "explore --max-rel-ci"
grep -q "explore: 2 measured and stored" "$tmp/adapt.txt" ||
    fail "the adaptive points are new points"
"$gb" export --store "$tmp/a.db" --out "$tmp/a.json" >/dev/null 2>&1 || fail "export"
[ "$(grep -c '"max_rel_ci":	0.5' "$tmp/a.json")" -eq 2 ] || fail "two points with the CI stop"
[ "$(grep -c '"stop":	"ci"' "$tmp/a.json")" -eq 2 ] || fail "both stored with the stop that applied"
[ "$(grep -c '"stop":	"count"' "$tmp/a.json")" -eq 2 ] || fail "the plain points stopped on the count"
id=$(sed -n 's/.* stored \([0-9a-f]*\) .*/\1/p' "$tmp/adapt.txt" | head -1)
"$gb" replay "$id" --store "$tmp/a.db" >"$tmp/replay.txt" 2>&1 || fail "replay of an adaptive point"
grep -q "definition: identical here" "$tmp/replay.txt" ||
    fail "the replay must define the point as stored, adaptive stop included"

# Bad values: one line, exit 2, no store made.
"$gb" run -k naive -n 32 --max-rel-ci -1 --store "$tmp/bad.db" >"$tmp/bad.txt" 2>&1
[ $? -eq 2 ] && grep -q "max-rel-ci must be from 0 (off) to 1" "$tmp/bad.txt" && [ ! -e "$tmp/bad.db" ] ||
    fail "--max-rel-ci -1 must be refused"
"$gb" run -k naive -n 32 --min-time soon --no-store >"$tmp/bad2.txt" 2>&1
[ $? -eq 2 ] && grep -q "min-time must be a finite number" "$tmp/bad2.txt" || fail "--min-time soon must be refused"
echo "adaptive: ok"
