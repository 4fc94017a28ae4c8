#!/bin/sh
# fault_kill.sh GEMMBENCH STORE_ROUNDTRIP: processes killed with SIGKILL (no handler, no cleanup)
# in the middle of their work, then the same command run again. explore: the store stays
# consistent, the rerun measures only what is missing, and every point of the sweep ends stored
# exactly once; a point that crashes the process is recorded as crashed, and the sweep goes on.
# tune: the killed run is marked "died" by the next, and the same command goes on in its row.
# import: the kill leaves all of the file's points or none (one transaction), and the rerun
# completes it. (export --out killed: store_damage.sh.) Tiny sizes, the naive kernel, a store of
# the test's own.
gb=$1
sr=$2
. "$(dirname "$0")/script_lib.sh"
export GEMMBENCH_ENERGY_MIN_S=0
checked() { "$gb" store check --store "$1" >"$tmp/check" 2>&1 || { cat "$tmp/check"; return 1; }; }

# explore: 12 points (naive, 3 orders x 2 work-groups x 2 repetitions), killed after the
# first few are stored, three times in a row, then completed.
db=$tmp/explore.db
sweep="-k naive -n 16,24,32 --lws 4,4;8,2 --repeat 2 -i 2 --warmup 0 --store $db"
for round in 1 2 3; do
    : >"$tmp/out$round"
    # shellcheck disable=SC2086
    "$gb" explore $sweep --pause 200 >>"$tmp/out$round" 2>"$tmp/err$round" &
    pid=$!
    n=0
    while [ "$(stored "$tmp/out$round")" -lt 2 ] && [ "$n" -lt 600 ] && kill -0 "$pid" 2>/dev/null; do
        sleep 0.05
        n=$((n + 1))
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    checked "$db" && ok || bad "explore round $round: store inconsistent after SIGKILL"
    have=$(points "$db")
    [ "${have:-0}" -le 12 ] && ok || bad "explore round $round: $have points, more than the sweep"
done
before=$(points "$db")
# shellcheck disable=SC2086
"$gb" explore $sweep >"$tmp/out4" 2>"$tmp/err4" || bad "explore after the kills: $(cat "$tmp/err4")"
grep -q "12 points on .*: $((12 - before)) to measure, $before already in the store" "$tmp/out4" && ok ||
    bad "the rerun must plan exactly the missing points: $(head -n 2 "$tmp/out4")"
[ "$(points "$db")" = 12 ] && ok || bad "explore: $(points "$db") points stored, not 12"
checked "$db" && ok || bad "explore: store inconsistent after the rerun"
# shellcheck disable=SC2086
"$gb" explore $sweep >"$tmp/out5" 2>&1 && grep -q ": 0 to measure, 12 already in the store" "$tmp/out5" &&
    ok || bad "a complete sweep must measure nothing"

# explore over a point that crashes the process (PoCL asserts on FAULT=1's local array): the
# sweep starts again, names the point and records it as crashed, and measures the rest; run
# again, the point is not run (one killed by SIGKILL above was measured again: only a crash is
# recorded).
fx=$(dirname "$0")/fixtures/faults
db=$tmp/crash.db
crash="-k faults --kernel-path $fx -n 8,16 --lws 8,8 --param FAULT=0,1 -i 2 --warmup 0 --store $db"
# shellcheck disable=SC2086
"$gb" explore $crash >"$tmp/out6" 2>"$tmp/err6" && ok || bad "explore over a crash: $(cat "$tmp/err6")"
grep -q "explore: the process crashed (SIGSEGV); going on in a new process" "$tmp/err6" &&
    grep -q "FAULT=1: the process crashed (SIGSEGV) while it measured faults s 8x8x8 lws 8x8 FAULT=1 rep 0: not run again (GB_ECRASH)" "$tmp/err6" &&
    grep -q "cannot run: 1 x GB_ECRASH, e.g. faults s 8x8x8 lws 8x8 FAULT=1 rep 0: it crashed the process" "$tmp/out6" &&
    ok || bad "explore must name the point that crashed it: $(cat "$tmp/err6")"
# FAULT=1 at 16 crashes too: a second restart, then the two FAULT=0 points are stored.
[ "$(points "$db")" = 2 ] && ok || bad "explore over a crash: $(points "$db") points stored, not 2"
# shellcheck disable=SC2086
"$gb" explore $crash >"$tmp/out7" 2>"$tmp/err7" && ! grep -q "crashed (SIGSEGV);" "$tmp/err7" &&
    grep -q ": 0 to measure, 2 already in the store, 2 cannot run here" "$tmp/out7" && ok ||
    bad "a crashed point must not run again: $(head -n 1 "$tmp/out7")"

# tune killed with SIGKILL in its second shape: the run stays "running" until the next tuning
# begins, which marks it "died"; the same command again goes on in each shape's row: one tuning,
# one row, none left running.
db=$tmp/tune.db
tk="-k naive -n 128,160 -i 100 --strategy random --budget 6 --no-presets --store $db"
: >"$tmp/out8"
# shellcheck disable=SC2086
"$gb" tune $tk >"$tmp/out8" 2>&1 &
pid=$!
n=0
while ! sed -n '/ run 1 done$/,$p' "$tmp/out8" | grep -q '^\[1/6\] '; do
    [ "$n" -lt 600 ] && kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
    n=$((n + 1))
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
status() { "$gb" report --store "$db" 2>/dev/null | awk -v id="$1" '$1 == id { print $NF }'; }
[ "$(status 2)" = running ] && ok || bad "the killed tuning's run: $(status 2), not running"
"$gb" tune -k naive -n 64 -i 2 --strategy random --budget 2 --no-presets --store "$db" >/dev/null 2>&1
[ "$(status 2)" = died ] && [ "$(status 3)" = done ] && ok ||
    bad "the next tuning must mark the killed run died: $(status 2)"
# shellcheck disable=SC2086
"$gb" tune $tk >"$tmp/out9" 2>&1 || bad "tune again after the kill: $(cat "$tmp/out9")"
[ "$(status 1)" = done ] && [ "$(status 2)" = done ] && [ -z "$(status 4)" ] &&
    "$gb" store info --store "$db" | grep -q "^tuning runs: 3 (14 evaluations)" && ok ||
    bad "one row per tuning: $("$gb" store info --store "$db" | grep runs)"
grep -q "tune: naive s 160x160x160 .* run 2 done" "$tmp/out9" && ok || bad "the second shape in run 2"

# import: 1500 points in one file, killed at several moments, then imported again.
"$sr" --make-many "$tmp/src.db" 1500 >/dev/null || bad "making a store"
"$gb" export --store "$tmp/src.db" --out "$tmp/all.json" >/dev/null 2>&1 || bad "export"
for delay in 0.1 0.3 0.5 0.8; do
    db=$tmp/import-$delay.db
    "$gb" import "$tmp/all.json" --store "$db" >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    have=0
    # A kill before the store's tables are committed leaves nothing stored: an empty file (the
    # kill came before SQLite wrote its first page) or an empty SQLite database (after it, as
    # the switch to WAL writes the header). Read commands refuse both, saying so; the import
    # again below takes them. Anything else must be a consistent store.
    if [ -s "$db" ]; then
        if checked "$db"; then
            ok
            have=$(points "$db")
        elif grep -q "is an empty SQLite database, not a gemmbench results store" "$tmp/check"; then
            ok
        else
            bad "import killed at ${delay}s: store inconsistent"
        fi
    fi
    [ "${have:-0}" -eq 0 ] || [ "$have" -eq 1500 ] && ok ||
        bad "import killed at ${delay}s left $have points: all or none"
    "$gb" import "$tmp/all.json" --store "$db" >"$tmp/imp" 2>&1 || bad "import again: $(cat "$tmp/imp")"
    grep -Eq "imported $((1500 - have)) new points|nothing new: all 1500" "$tmp/imp" && ok ||
        bad "import again after ${delay}s: $(cat "$tmp/imp")"
    [ "$(points "$db")" = 1500 ] && checked "$db" && ok || bad "import at ${delay}s: not 1500 points"
done

finish
