#!/bin/sh
# tune_energy.sh GEMMBENCH ENERGY_TICKER: tune --objective energy and edp on the default device
# with a counter made by the test (GEMMBENCH_RAPL_FILE: a file ENERGY_TICKER adds joules to, as
# RAPL's energy_uj grows), so that the energy path runs on a machine without RAPL: the winner
# and its entry follow the objective (kept beside the time entry of the same class, with its
# joules; not in the tuning file the library reads); a second run finds its candidates in the store;
# a time tuning's candidates, stored without energy, are measured again with it for energy;
# -k auto --objective energy takes the energy entry; the report lists the run's time-energy
# Pareto front, in text and JSON.
gb=$1
ticker_bin=${2:?usage: tune_energy.sh GEMMBENCH ENERGY_TICKER}
. "$(dirname "$0")/script_lib.sh"
db=$tmp/e.db
counter=$tmp/energy_uj
echo 0 >"$counter"
# 20 mJ every 10 ms: 2 W, moving often enough for short energy loops (energy_ticker.c: one
# process, where a shell loop forking mv and sleep a tick could stall on a loaded machine).
"$ticker_bin" "$counter" &
ticker=$!
trap 'kill $ticker 2>/dev/null; rm -rf "$tmp"' EXIT
# Energy loops of 0.5 s, whose ends wait up to 0.5 s for the counter to move: the ticker above
# may be held up for a while on a busy machine, and a loop that saw no joules cannot win.
export GEMMBENCH_RAPL_FILE="$counter" GEMMBENCH_ENERGY_MIN_S=0.5
export GEMMBENCH_TUNED="$tmp/none.tuned"
small="-k naive -n 64 --budget 2 --no-presets --confirm 2 --confirm-reps 1 --store $db"

# A time tuning first: its candidates are stored without energy.
# shellcheck disable=SC2086
"$gb" tune $small >"$tmp/time.txt" 2>&1 || fail "tune --objective time failed"
grep -q "new entry for small-64 s row-NN on" "$tmp/time.txt" && ok || bad "no time entry kept"

# shellcheck disable=SC2086
"$gb" tune $small --objective energy >"$tmp/energy.txt" 2>&1 || fail "tune --objective energy failed"
grep -q "GFLOP/J" "$tmp/energy.txt" && ok || bad "energy run shows no GFLOP/J"
# (On a failure, the run's count and any candidate without energy, with its reason: a ticker held
# up past an energy loop's wait leaves a candidate without energy, which the runs below then see.)
why_none() { grep -h "evaluations\|no energy" "$@" | head -n 4; }
grep -q "2 evaluations (2 measured, 0 from the store" "$tmp/energy.txt" && ok ||
    bad "the time run's candidates were not measured again with energy: $(why_none "$tmp/energy.txt")"
grep -q "new entry for small-64 s row-NN, objective energy" "$tmp/energy.txt" && ok ||
    bad "no energy entry kept"

# Again: every candidate from the store.
# shellcheck disable=SC2086
"$gb" tune $small --objective energy >"$tmp/again.txt" 2>&1 || fail "second energy tune failed"
grep -q "2 evaluations (0 measured, 2 from the store" "$tmp/again.txt" && ok ||
    bad "second energy tune measured again: $(why_none "$tmp/again.txt")"

# The entries: time and energy of one class; the energy one with its joules; the tuning file
# (the library's) holds the time entry alone.
"$gb" tuned export --store "$db" --out "$tmp/tuned.json" >/dev/null 2>&1 || fail "tuned export"
[ "$(grep -c '"class":' "$tmp/tuned.json")" -eq 2 ] && ok || bad "not two entries exported"
grep -q '"objective":[[:space:]]*"energy"' "$tmp/tuned.json" && ok || bad "no objective energy"
grep -q '"joules":' "$tmp/tuned.json" && ok || bad "no joules"
[ "$(grep -vc '^#' "$db.tuned")" -eq 1 ] && ok || bad "the tuning file holds other than time"

# -k auto --objective energy runs the energy entry's parameters.
"$gb" run -k auto -n 64 --objective energy --store "$db" --no-store >"$tmp/auto.txt" 2>&1 ||
    fail "run -k auto --objective energy failed"
want=$(grep "winner:" "$tmp/energy.txt" | sed 's/.*winner: \(LX=[0-9]* LY=[0-9]*\) at.*/\1/')
grep -q "^auto -> naive $want " "$tmp/auto.txt" && ok ||
    bad "-k auto --objective energy ran $(grep '^auto' "$tmp/auto.txt"), not $want"

# The report: the energy runs' fronts.
"$gb" report --store "$db" >"$tmp/report.txt" 2>&1 || fail "report failed"
grep -q "Time and energy: the Pareto front of tuning run" "$tmp/report.txt" && ok ||
    bad "no Pareto front in the report"
"$gb" report --store "$db" --format json >"$tmp/report.json" 2>&1 || fail "report json failed"
grep -q '"pareto_front"' "$tmp/report.json" && ok || bad "no pareto_front in the JSON report"

# EDP: the energy run's measurements serve it, scored as GFLOP/s x GFLOP/J.
# shellcheck disable=SC2086
"$gb" tune $small --objective edp >"$tmp/edp.txt" 2>&1 || fail "tune --objective edp failed"
grep -q "GFLOP/s x GFLOP/J" "$tmp/edp.txt" && ok || bad "edp run shows no EDP score"
grep -q "2 evaluations (0 measured, 2 from the store" "$tmp/edp.txt" && ok ||
    bad "the energy run's candidates were measured again for edp"
grep -q "new entry for small-64 s row-NN, objective edp" "$tmp/edp.txt" && ok ||
    bad "no edp entry kept"
finish
