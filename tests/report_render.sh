#!/bin/sh
# report_render.sh GEMMBENCH PNG_NONBLANK: the HTML report of a store measured here (PoCL),
# rendered by headless Chromium to a PNG, must not be blank: enough pixels off the background,
# many colours, and the plots' coloured pixels (png_nonblank). A blank page rendered the same
# way must be found blank, so the check cannot pass vacuously. Skipped (exit 77) without
# chromium (Debian's chromium package; scripts/install-deps.sh installs it).
gb=$1
png=$2
. "$(dirname "$0")/script_lib.sh"
requires chromium chromium
db=$tmp/r.db
"$gb" explore -k SGEMM_NT_4x1,naive -n 16,32,48 -i 3 --warmup 0 --repeat 3 --store "$db" \
    >"$tmp/explore.txt" 2>&1 || fail "explore (repetitions)"
"$gb" explore -k SGEMM_NT_4x1_barrier -n 16,32 --lws '16,1;8,2;4,4;8,4' -i 3 --warmup 0 --repeat 2 \
    --store "$db" >"$tmp/explore.txt" 2>&1 || fail "explore (work-group sizes)"
"$gb" report --store "$db" --format html --out "$tmp/report.html" >"$tmp/report.txt" 2>&1 ||
    fail "report --format html"

# shot HTML PNG: Chromium's screenshot of the page, 1280 pixels wide, with a private profile.
shot() {
    HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --disable-background-networking --no-first-run --hide-scrollbars \
        --user-data-dir="$tmp/profile" --screenshot="$2" --window-size=1280,2400 "file://$1" \
        >"$tmp/chromium.txt" 2>&1
    [ -s "$2" ] || fail "chromium wrote no screenshot of $1"
}
shot "$tmp/report.html" "$tmp/report.png"
"$png" "$tmp/report.png" >"$tmp/png.txt" 2>&1 || fail "the rendered report is blank"
cat "$tmp/png.txt"
grep -q ": 1280x2400," "$tmp/png.txt" || fail "the screenshot must be 1280x2400"

printf '<!DOCTYPE html>\n<html><body style="background:#fff"></body></html>\n' >"$tmp/blank.html"
shot "$tmp/blank.html" "$tmp/blank.png"
"$png" "$tmp/blank.png" >"$tmp/png.txt" 2>&1
rc=$?
[ "$rc" -eq 1 ] || fail "a blank page must be found blank (png_nonblank exit $rc)"
echo "report rendered, not blank; a blank page found blank"
