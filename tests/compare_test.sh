#!/bin/sh
# compare_test.sh GEMMBENCH: `gemmbench compare BASE NEW` on stores made here: a store against
# itself is the same everywhere (p = 1) and passes any --fail-over; against an export of itself
# whose one definition took twice as long in every phase, that definition is slower and the
# others the same, --fail-over 50 fails (exit 1) and 150 passes; definitions on one side only are
# listed; markdown, JSON and the HTML page carry the same rows; bad input is one line and exit 2.
gb=$1
. "$(dirname "$0")/script_lib.sh"
sweep="-k naive,SGEMM_NN_4x1 -i 12 --warmup 1 --repeat 2"
# shellcheck disable=SC2086
"$gb" explore $sweep -n 16,24 --store "$tmp/a.db" >"$tmp/a.txt" 2>&1 || fail "explore A"
# shellcheck disable=SC2086
"$gb" explore $sweep -n 16,24,32 --store "$tmp/b.db" >"$tmp/b.txt" 2>&1 || fail "explore B"

"$gb" compare "$tmp/a.db" "$tmp/a.db" --fail-over 0 >"$tmp/self.txt" 2>&1 || fail "self: exit $?"
[ "$(grep -c 'row-NN .* same$' "$tmp/self.txt")" -eq 4 ] || fail "a store against itself: 4 the same"
grep -q "faster\$\|slower\$" "$tmp/self.txt" && fail "a store against itself: nothing faster or slower"
grep -q "0 faster, 0 slower, 2 the same" "$tmp/self.txt" || fail "the summary by implementation"

# NEW: A's export with the naive 24^3 points twice as slow (samples and statistics doubled).
"$gb" export --format json --store "$tmp/a.db" >"$tmp/a.json" 2>/dev/null || fail "export"
python3 - "$tmp/a.json" "$tmp/slow.json" <<'PY' || fail "making the slow export"
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["points"]:
    if p["kernel"] == "naive" and p["m"] == 24:
        for ph in p["phases"].values():
            for k in ("min", "max", "median", "mean", "std", "ci95_lo", "ci95_hi"):
                ph[k] *= 2
            ph["samples"] = [2 * x for x in ph["samples"]]
        p["gflops"] /= 2
json.dump(d, open(sys.argv[2], "w"))
PY
"$gb" compare "$tmp/a.db" "$tmp/slow.json" >"$tmp/slow.txt" 2>&1 || fail "slow: exit $?"
grep -q "naive s row-NN 24x24x24 .* slower\$" "$tmp/slow.txt" || fail "naive 24^3 must be slower"
[ "$(grep -c 'row-NN .* same$' "$tmp/slow.txt")" -eq 3 ] || fail "the other three must be the same"
grep -q "naive s row-NN 24x24x24 .* 24/24 .* 0\.500 " "$tmp/slow.txt" ||
    fail "naive 24^3: 24 calls a side, speedup 0.5"
"$gb" compare "$tmp/a.db" "$tmp/slow.json" --fail-over 50 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] || fail "--fail-over 50 must exit 1"
grep -q "slower by more than 50%: .*naive s row-NN 24x24x24 (0.500x)" "$tmp/err" ||
    fail "--fail-over must name the definition"
"$gb" compare "$tmp/a.db" "$tmp/slow.json" --fail-over 150 >/dev/null 2>&1 ||
    fail "--fail-over 150 must pass"
"$gb" compare "$tmp/a.db" "$tmp/slow.json" --format json >"$tmp/slow.jsn" || fail "json"
python3 - "$tmp/slow.jsn" <<'PY' || fail "the JSON rows"
import json, sys
d = json.load(open(sys.argv[1]))
v = sorted(r["verdict"] for r in d["rows"])
assert v == ["same", "same", "same", "slower"], v
assert all(r["exact"] is False or r["calls_base"] <= 50 for r in d["rows"])
assert d["only_base"] == [] and d["only_new"] == []
PY
"$gb" compare "$tmp/a.db" "$tmp/slow.json" --format markdown >"$tmp/slow.md" || fail "markdown"
[ "$(grep -c '^| .* | slower |$' "$tmp/slow.md")" -eq 1 ] || fail "markdown: one slower row"

# Repetitions stored apart (a second run adds rep 1 after every rep 0) are pooled all the same.
# shellcheck disable=SC2086
"$gb" explore $sweep -n 16,24 --repeat 1 --store "$tmp/r.db" >"$tmp/r1.txt" 2>&1 || fail "explore R"
# shellcheck disable=SC2086
"$gb" explore $sweep -n 16,24 --store "$tmp/r.db" >"$tmp/r2.txt" 2>&1 || fail "explore R again"
"$gb" compare "$tmp/r.db" "$tmp/r.db" >"$tmp/rr.txt" 2>&1 || fail "R against itself"
[ "$(grep -c 'row-NN .* 24/24 .* same$' "$tmp/rr.txt")" -eq 4 ] ||
    fail "repetitions stored apart must be pooled: 24 calls a side in each of 4 definitions"

# One side only: B has 32^3 besides A's sizes.
"$gb" compare "$tmp/a.db" "$tmp/b.db" >"$tmp/ab.txt" 2>&1 || fail "A against B"
grep -q "^only in NEW (2 definitions):" "$tmp/ab.txt" || fail "B's 32^3 definitions must be listed"
grep -q "only in BASE" "$tmp/ab.txt" && fail "A has nothing of its own"

# Bad input: one line, exit 2.
echo "not a store" >"$tmp/bad.txt"
"$gb" compare "$tmp/a.db" "$tmp/bad.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "a file that is neither: exit 2, one line"
"$gb" explore -k naive -n 8 -i 2 --store "$tmp/c.db" >/dev/null 2>&1 || fail "explore C"
"$gb" compare "$tmp/a.db" "$tmp/c.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no point definition in common" "$tmp/err" || fail "nothing in common: exit 2"
"$gb" compare "$tmp/a.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "one operand: exit 2"
"$gb" compare "$tmp/a.db" "$tmp/a.db" --format xml >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "--format xml: exit 2"

# The page: gnuplot's plot inlined, a row per definition, the slower one marked.
if command -v gnuplot >/dev/null 2>&1; then
    "$gb" compare "$tmp/a.db" "$tmp/slow.json" --format html --out "$tmp/c.html" ||
        fail "--format html"
    grep -q "<svg" "$tmp/c.html" || fail "the page must inline the plot"
    [ "$(grep -c '^<tr><td class="num">[0-9]*</td>' "$tmp/c.html")" -eq 4 ] ||
        fail "the page must have 4 rows"
    grep -q "naive s row-NN 24x24x24</td>.*<td>slower</td>" "$tmp/c.html" ||
        fail "the page must mark naive 24^3 slower"
fi
echo "compare_test: ok"
