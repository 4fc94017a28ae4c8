#!/bin/sh
# report_tables.sh GEMMBENCH REPORT_JSON_CHECK: `gemmbench report` on a store measured here, on
# the default device (PoCL): two kernels at two orders with three repetitions, one kernel at
# three work-group sizes with two, and one point with another timing (25 points, 11 rows, one
# work-group-size table). Checks the text, Markdown, CSV, JSON and HTML outputs (the repetition
# columns, mean and std against the repetitions, the best work-group size), the filters, files
# written whole, and that every bad input gets exit 2 and one line naming the problem.
gb=$1
check=$2
. "$(dirname "$0")/script_lib.sh"
db=$tmp/r.db
# no MESSAGE: bad, with the last command's output; die MESSAGE: no, and nothing more to check.
no() { bad "$*"; show "$tmp/out" "$tmp/err"; }
die() { no "$@"; finish; }

"$gb" explore -k SGEMM_NT_4x1,naive -n 16,32 -i 3 --warmup 0 --repeat 3 --store "$db" \
    >"$tmp/out" 2>"$tmp/err" || die "explore (repetitions)"
"$gb" explore -k SGEMM_NT_4x1_barrier -n 16,32 --lws '16,1;8,2;4,4' -i 3 --warmup 0 --repeat 2 \
    --store "$db" >"$tmp/out" 2>"$tmp/err" || die "explore (work-group sizes)"
"$gb" run -k naive -n 16 -i 3 --warmup 0 --timing offload --store "$db" >"$tmp/out" 2>"$tmp/err" ||
    die "run --timing offload"

# ---- text: the header, three repetition columns, 11 rows; the work-group table marks one best
"$gb" report --store "$db" >"$tmp/out" 2>"$tmp/err" || die "report (text)"
grep -q "^store $db: 25 points, 25 selected (filters: none), 11 rows$" "$tmp/out" && ok || no "text header"
grep -q "^note: points with different timings (ops, offload)" "$tmp/out" && ok || no "mixed-timing note"
grep -q "^GFLOP/s with timing 'offload': " "$tmp/out" && ok || no "the timing is said"
grep -Eq "^device +kernel +prec +layout +n +settings +timing +rep0 +rep1 +rep2 +mean +std +valid$" "$tmp/out" &&
    ok || no "text header of the repetitions table"
[ "$(grep -c " row-N[NT] " "$tmp/out")" -eq 11 ] && ok || no "11 rows expected"
grep -Eq "SGEMM_NT_4x1_barrier +s +row-NT +32 +LX=8 LY=2 +ops +[0-9.]+ +[0-9.]+ +- +[0-9.]+ +[0-9.]+ +pass" \
    "$tmp/out" && ok || no "a two-repetition row with its settings"
grep -Eq "naive +s +row-NN +16 +offload +[0-9.]+ +- +- +[0-9.]+ +- +pass" "$tmp/out" && ok ||
    no "a one-repetition row has no std"
awk '/^ n +16x1 +8x2 +4x4$/ {t = 1; next} t && /^(16|32) / {n++; s += gsub(/\*/, "*")} END {exit !(n == 2 && s == 2)}' \
    "$tmp/out" && ok || no "the work-group table: rows 16 and 32, one best each"

# ---- Markdown: the rounded mean is the mean of the rounded repetitions (within rounding)
"$gb" report --store "$db" --format md --table reps >"$tmp/out" 2>"$tmp/err" || die "report (md)"
grep -q '^| device | kernel | prec | layout | n | settings | timing | rep0 | rep1 | rep2 | mean | std | valid |$' \
    "$tmp/out" && ok || no "Markdown header row"
grep -q '^|---|---|---|---|---:|---|---|---:|---:|---:|---:|---:|---|$' "$tmp/out" && ok || no "Markdown alignment row"
awk -F'|' '/^\|---/ {t = 1; next} !/^\|/ {t = 0} t {
        n = 0; s = 0
        for (i = 9; i <= 11; i++) if ($i !~ /-/) { s += $i; n++ }
        rows++
        if (n == 0 || (s / n - $12) > 0.011 || ($12 - s / n) > 0.011) bad++
    } END { exit !(rows == 11 && bad == 0) }' "$tmp/out" && ok || no "Markdown means against repetitions"
grep -q "Work-group sizes" "$tmp/out" && no "--table reps must leave the work-group table out" || ok

# ---- CSV: header, 11 lines, 9-digit means and sample stds that match the repetitions
"$gb" report --store "$db" --format csv >"$tmp/out.csv" 2>"$tmp/err" || die "report (csv)"
head -n 1 "$tmp/out.csv" | grep -q '^device,device_name,platform,driver,kernel,family,preset,precision,layout,timing,settings,params,m,n,k,rep0,rep1,rep2,reps,mean,std,min,max,gflops_per_watt,energy_j,verdict,validated,failed,ids$' &&
    ok || no "CSV header"
[ "$(wc -l <"$tmp/out.csv")" -eq 12 ] && ok || no "CSV: a header and 11 lines"
# Quoted fields (params) hold commas: replace them before splitting.
sed -E 's/"([^"]|"")*"/Q/g' "$tmp/out.csv" | awk -F, 'NR > 1 {
        n = 0; s = 0; ss = 0
        for (i = 16; i <= 18; i++) if ($i != "") { v[n++] = $i; s += $i }
        m = s / n
        for (i = 0; i < n; i++) ss += (v[i] - m) ^ 2
        d = m - $20; if (d < 0) d = -d
        if (n != $19 || d > 1e-6 * m) bad++
        if (n > 1) { e = sqrt(ss / (n - 1)) - $21; if (e < 0) e = -e; if (e > 1e-6 * m + 1e-9) bad++ }
        if (n == 1 && $21 != "") bad++
        rows++
    } END { exit !(rows == 11 && bad == 0) }' && ok || no "CSV means and stds against repetitions"
"$gb" report --store "$db" --format csv --table lws >"$tmp/out" 2>"$tmp/err" || die "report (csv lws)"
[ "$(wc -l <"$tmp/out")" -eq 7 ] && head -n 1 "$tmp/out" | grep -q ',m,n,k,lws_j,lws_i,reps,mean,std,best$' &&
    [ "$(grep -c ',1$' "$tmp/out")" -eq 2 ] && ok || no "CSV work-group table: 6 cells, 2 best"

# ---- JSON: parses; every mean, std and best consistent (report_json_check)
"$gb" report --store "$db" --format json >"$tmp/out.json" 2>"$tmp/err" || die "report (json)"
"$check" "$tmp/out.json" 25 11 1 >"$tmp/out" 2>&1 && ok || no "JSON check"

# ---- filters
"$gb" report --store "$db" --kernel NAIVE >"$tmp/out" 2>"$tmp/err" &&
    grep -q "25 points, 7 selected (filters: --kernel NAIVE), 3 rows" "$tmp/out" && ok || no "--kernel, any case"
"$gb" report --store "$db" --kernel gemmbench_nt --timing ops --format json >"$tmp/f.json" 2>"$tmp/err" &&
    "$check" "$tmp/f.json" 18 8 1 >"$tmp/out" 2>&1 && ok || no "--kernel by family, --timing"
"$gb" report --store "$db" --device PORTABLE --timing offload >"$tmp/out" 2>"$tmp/err" &&
    grep -q "1 selected" "$tmp/out" && ok || no "--device, --timing offload"
"$gb" report --store "$db" --precision s --table lws >"$tmp/out" 2>"$tmp/err" &&
    grep -q "SGEMM_NT_4x1_barrier (s, row-NT, timing ops" "$tmp/out" && ! grep -q rep0 "$tmp/out" &&
    ok || no "--table lws"

# ---- files: written whole and renamed; a folder gets report.<ext>; nothing left behind
"$gb" report --store "$db" --format md --out "$tmp/r.md" >"$tmp/out" 2>"$tmp/err" &&
    grep -q "^report: 25 points in 11 rows and 1 work-group-size table from $db written to $tmp/r.md (md)$" "$tmp/out" &&
    grep -q "^# gemmbench report" "$tmp/r.md" && ok || no "--out FILE"
mkdir "$tmp/dir"
"$gb" report --store "$db" --format json --out "$tmp/dir" >"$tmp/out" 2>"$tmp/err" &&
    [ -s "$tmp/dir/report.json" ] && [ "$(ls "$tmp/dir")" = "report.json" ] && ok || no "--out DIR"

# ---- HTML: self-contained, every plot inlined; gnuplot's temporary folder removed
mkdir "$tmp/t"
TMPDIR=$tmp/t "$gb" report --store "$db" --format html --out "$tmp/r.html" >"$tmp/out" 2>"$tmp/err" &&
    ok || no "report (html)"
[ "$(grep -c '<svg' "$tmp/r.html")" -eq 3 ] && ok || no "HTML: the GFLOP/s plot, the roofline and one heat map"
# The roofline: naive and gemmbench_nt declare their traffic; without ceilings, no roof.
grep -q "<h2>Roofline</h2>" "$tmp/r.html" && grep -q "Roofline: GFLOP/s of the main kernel" "$tmp/r.html" &&
    ok || no "HTML: the roofline"
grep -q "No ceilings stored for pthread" "$tmp/r.html" && ok || no "HTML: no ceilings stored, said"
grep -q "No energy measurements in the selected points" "$tmp/r.html" && ok || no "HTML: says there is no energy"
grep -Eiq '<script|<link|<img|src=|href="http|@import|url\(http' "$tmp/r.html" && no "HTML must not load anything" || ok
[ -z "$(grep -o "id='p[0-9]*-gpPt1'" "$tmp/r.html" | sort | uniq -d)" ] && ok || no "HTML: ids must be unique"
[ -z "$(ls -A "$tmp/t")" ] && ok || no "the temporary folder must be removed"
# With the device's ceilings measured into the store, the roofline has its roofs; the JSON gives
# each row's traffic (naive at 16: 4 * (2 * 16^3 + 2 * 16^2) bytes) and the device's ceilings.
"$gb" ceilings --store "$db" >"$tmp/out" 2>"$tmp/err" || die "ceilings"
"$gb" report --store "$db" --format html --out "$tmp/r.html" >"$tmp/out" 2>"$tmp/err" &&
    grep -q " s roof: [0-9.]* GFLOP/s, [0-9.]* GB/s" "$tmp/r.html" && ! grep -q "No ceilings stored" "$tmp/r.html" &&
    ok || no "HTML: the roofline's roofs from the stored ceilings"
"$gb" report --store "$db" --format json --kernel naive >"$tmp/out" 2>"$tmp/err" &&
    grep -Eq '"bytes":[[:space:]]*34816,' "$tmp/out" && grep -q '"bandwidth_gbs":' "$tmp/out" &&
    ! grep -q '"traffic":[[:space:]]*null' "$tmp/out" && ok || no "JSON: the rows' traffic and the device's ceilings"

# A 1x1x1 point: in the tables, left out of the plots and counted (its rate is a launch's
# overhead); the order axis starts where the plotted data does, not below 0.
cp "$db" "$tmp/one.db" || die "copy"
"$gb" run -k naive -n 1 -i 2 --store "$tmp/one.db" >"$tmp/out" 2>"$tmp/err" || die "run 1x1x1"
"$gb" report --store "$tmp/one.db" --format html --out "$tmp/one.html" >"$tmp/out" 2>"$tmp/err" &&
    grep -q "1 row of fewer than 4096 multiply-adds (M\*N\*K) is left out of the plots" "$tmp/one.html" &&
    ok || no "HTML: a 1x1x1 row left out of the plots, and said"
"$gb" report --store "$tmp/one.db" >"$tmp/out" 2>"$tmp/err" && grep -Eq "naive +s +row-NN +1 " "$tmp/out" &&
    ok || no "text: the 1x1x1 row stays in the tables"

# ---- bad input: exit 2 (3 for a missing program), one line, nothing written
expect_env() {
    var=$1
    code=$2
    regex=$3
    shift 3
    env "$var" "$gb" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq "$code" ] && grep -Eq -- "$regex" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
        ok
    else
        no "$var gemmbench $*: expected exit $code and one line /$regex/, got exit $rc"
    fi
}
expect() { expect_env GB_REPORT_TEST=1 "$@"; }
expect 2 "unknown --format 'pdf'; use text, md, csv, json or html" report --store "$db" --format pdf
expect 2 "unknown --table 'both'; use reps, lws, tuned or all" report --store "$db" --table both
expect 2 "unknown --precision 'q'; use s, d, h, b, c, z or hh" report --store "$db" --precision q
expect 2 "unknown --timing 'fast'; use kernel, ops or offload" report --store "$db" --timing fast
expect 2 "--kernel needs kernel, preset or family names" report --store "$db" --kernel ,
expect 2 "--device needs part of a device or platform name" report --store "$db" --device ''
expect 2 "a CSV file holds one table; choose --table reps or --table lws" report --store "$db" --format csv --table all
expect 2 "unknown option '--bogus'; see 'gemmbench report --help'" report --store "$db" --bogus
expect 2 "unexpected argument 'extra'" report --store "$db" extra
expect 2 "cannot open kernel path '$tmp/none'; give an existing directory" report --store "$db" \
    --kernel-path "$tmp/none"
expect 2 "option '--format' needs a value" report --store "$db" --format
expect 2 "none of the 25 points in store $db matches --precision d; 'gemmbench store list'" \
    report --store "$db" --precision d
expect 2 "none of the 25 points .* matches --kernel nope --device 'x'" report --store "$db" --kernel nope --device x
expect 2 "no results store at $tmp/none.db" report --store "$tmp/none.db"
printf '{"format":"gemmbench-results","version":1,"schema_version":1,"exported":"2025-01-01T00:00:00Z","tool_version":"0.1.0","points":[]}\n' \
    >"$tmp/empty.json"
"$gb" import "$tmp/empty.json" --store "$tmp/empty.db" >/dev/null 2>&1
expect 2 "store $tmp/empty.db holds no points; measure some with 'gemmbench run'" report --store "$tmp/empty.db"
expect 2 "cannot write '$tmp/no/such/r.txt'; check the path" report --store "$db" --out "$tmp/no/such/r.txt"
expect_env PATH=/nonexistent 3 "cannot run gnuplot .*install Debian's gnuplot-nox package" \
    report --store "$db" --format html --out "$tmp/nognuplot.html"
expect_env GEMMBENCH_GNUPLOT="$tmp/none" 3 "cannot run gnuplot '$tmp/none' \(GEMMBENCH_GNUPLOT\)" \
    report --store "$db" --format html --out "$tmp/nognuplot.html"
[ -z "$(ls "$tmp" | grep -e nognuplot -e '\.tmp')" ] && ok || no "a failed report must leave no file"
finish
