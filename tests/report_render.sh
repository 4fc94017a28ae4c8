#!/bin/sh
# report_render.sh GEMMBENCH PNG_NONBLANK: the HTML report of a store measured here (PoCL),
# looked at as a reader would: rendered by headless Chromium in a window 1400 pixels wide to a
# PNG that must not be blank (enough pixels off the background, many colours, and the plots'
# coloured pixels: png_nonblank), while a blank page rendered the same way must be found blank,
# so the check cannot pass vacuously. And the page itself: a replay command on every row of the
# repetitions table (the first of them run), one legend per kernel configuration whatever its
# number of calls, tick labels as people write them, a 1x1x1 GEMM left out of the plots and
# counted, every table in a box of its own that scrolls. Skipped (exit 77) without chromium
# (Debian's chromium package; scripts/install-deps.sh installs it).
gb=$1
png=$2
. "$(dirname "$0")/script_lib.sh"
requires chromium chromium
db=$tmp/r.db
"$gb" explore -k SGEMM_NT_4x1,naive -n 16,32,48 -i 3 --warmup 0 --repeat 3 --store "$db" \
    >"$tmp/explore.txt" 2>&1 || fail "explore (repetitions)"
"$gb" explore -k SGEMM_NT_4x1_barrier -n 16,32 --lws '16,1;8,2;4,4;8,4' -i 3 --warmup 0 --repeat 2 \
    --store "$db" >"$tmp/explore.txt" 2>&1 || fail "explore (work-group sizes)"
# naive again with other numbers of calls (one series of the plot, not two), and at 1x1x1.
"$gb" run -k naive -n 32,48 -i 2 --warmup 2 --store "$db" >"$tmp/run.txt" 2>&1 ||
    fail "run (other numbers of calls)"
"$gb" run -k naive -n 1 -i 2 --warmup 0 --store "$db" >"$tmp/run.txt" 2>&1 || fail "run 1x1x1"
"$gb" report --store "$db" --format html --out "$tmp/report.html" >"$tmp/report.txt" 2>&1 ||
    fail "report --format html"
html=$tmp/report.html

# A replay command on every row of the repetitions table, and the first of them runs.
rows=$(sed -n 's/^<li>store .*, \([0-9]*\) rows<\/li>$/\1/p' "$html")
cmds=$(grep -Eo '<td class="cmd">gemmbench replay [0-9a-f]{16} --store [^<]+</td>' "$html" | wc -l)
[ -n "$rows" ] && [ "$rows" -gt 0 ] && [ "$cmds" -eq "$rows" ] ||
    fail "a replay command per row: $cmds commands for ${rows:-?} rows"
cmd=$(grep -Eo '<td class="cmd">gemmbench replay [^<]+' "$html" | head -n 1 | sed 's/^<td class="cmd">//')
# shellcheck disable=SC2086 # the command as the page gives it
"$gb" ${cmd#gemmbench } >"$tmp/replay.txt" 2>&1 || fail "the page's command '$cmd' does not run"
# Legends and tick labels: one series per configuration, labels such as 100 and 0.1.
grep -o '<text[^>]*>[^<]*</text>' "$html" | sed 's/<[^>]*>//g' >"$tmp/labels.txt"
grep -q "^naive" "$tmp/labels.txt" || fail "no legend for naive"
grep -Eq "iterations=|warmup=" "$tmp/labels.txt" && fail "a legend splits a series by its calls"
[ "$(grep -c "^naive row-NN" "$tmp/labels.txt")" -eq 1 ] || fail "naive must be one series"
grep -q "000000" "$tmp/labels.txt" && fail "a tick label written as 0.000010 or 100.000000"
grep -q "1 row of fewer than 4096 multiply-adds" "$html" || fail "the 1x1x1 row is not counted"
# Every table scrolls inside a box of its own rather than widening the page.
[ "$(grep -c '^<table>' "$html")" -eq "$(grep -c '^<div class="scroll">' "$html")" ] ||
    fail "a table outside a .scroll box"

# shot HTML PNG: Chromium's screenshot of the page, 1400 pixels wide, with a private profile.
shot() {
    HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --disable-background-networking --no-first-run --hide-scrollbars \
        --user-data-dir="$tmp/profile" --screenshot="$2" --window-size=1400,2400 "file://$1" \
        >"$tmp/chromium.txt" 2>&1
    [ -s "$2" ] || fail "chromium wrote no screenshot of $1"
}
shot "$tmp/report.html" "$tmp/report.png"
"$png" "$tmp/report.png" >"$tmp/png.txt" 2>&1 || fail "the rendered report is blank"
cat "$tmp/png.txt"
grep -q ": 1400x2400," "$tmp/png.txt" || fail "the screenshot must be 1400x2400"

printf '<!DOCTYPE html>\n<html><body style="background:#fff"></body></html>\n' >"$tmp/blank.html"
shot "$tmp/blank.html" "$tmp/blank.png"
"$png" "$tmp/blank.png" >"$tmp/png.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a blank page must be found blank (png_nonblank exit $rc)"
echo "report rendered, not blank; a blank page found blank"
