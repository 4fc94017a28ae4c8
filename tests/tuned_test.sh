#!/bin/sh
# tuned_test.sh GEMMBENCH STORE_TUNING FIXTURES: `gemmbench tuned list|show|export|import|sync`
# without a device. A fixture of three entries (fixtures/tuned/entries.json) is imported, listed
# (text, JSON, with the shipped defaults), shown by number and by key, exported, re-imported
# (unchanged, then one replaced) and carried to a second store whose export is the same bytes;
# `store info` counts the tuning data and `store check` passes; `tuned show` on a store made by
# STORE_TUNING --make finds evidence points (GFLOP/s, verdict, interval) and says which are not
# stored; --device takes one device's entries; the report's tuning view (text, CSV, JSON, HTML,
# the summary line, a store of tuning data alone); read-only commands leave a store without
# tuning tables byte for byte as it was. Every bad input (malformed files with the line, entry
# and key named; entries checked as kernel metadata is: an unknown kernel or parameter with the
# nearest name, a value out of range, a precision the kernel lacks, an unknown key, type
# "quantum", class "weird"; strings with control characters, raw or escaped, NUL or invalid
# UTF-8) gets exit 2 and one line on stderr naming the problem, writes nothing and creates no
# store; UTF-8 names import, and a family of --kernel-path.
gb=$1
st=$2
fx=$3/tuned
. "$(dirname "$0")/script_lib.sh"
# no MESSAGE: bad, with the last command's output; die MESSAGE: no, and nothing more to check.
no() { bad "$*"; show "$tmp/out" "$tmp/err"; }
die() { no "$@"; finish; }
# run ARGS...: gemmbench ARGS into out and err; the exit status.
run() { "$gb" "$@" >"$tmp/out" 2>"$tmp/err"; }
# has REGEX: a line of the last output matches.
has() { grep -Eq -- "$1" "$tmp/out"; }

a=$tmp/a.db
# ---- import, list, show --------------------------------------------------------------------------
run tuned import "$fx/entries.json" --store "$a" || die "import of the fixture"
has "^imported 3 tuned entries from $fx/entries.json into $a: 3 new, 0 replaced, 0 unchanged$" &&
    ok || no "import says what it did"
run store info --store "$a" && has "^tuned entries: 3$" && has "^tuning runs: 0 \(0 evaluations\)$" &&
    ok || no "store info counts the tuned entries"
run store check --store "$a" && has "0 points checked, all consistent" && ok || no "store check"
run tuned list --store "$a" || die "list"
has "^  #  device +prec  layout  shape class  kernel +parameters +GFLOP/s  tuned at +source$" && ok ||
    no "list: the header"
[ "$(grep -c '^  [0-9]  ' "$tmp/out")" -eq 3 ] && ok || no "list: three numbered rows"
has "^  2  NVIDIA H100 80GB HBM3 +s +row-NN  square-4096  xgemm_nv +EDGES=2 GROUPM=8 KWG=8 MWG=128 NWG=128 PADA=4 PADB=4 SLOTS=2 TAIL=3 +47889.4  2026-11-24T10:00:00Z  store$" &&
    ok || no "list: an entry's row, parameters sorted"
has "^  1  NVIDIA H100 80GB HBM3 +d +row-NN  square-4096  dgemm_dmma_128_k4  \(defaults\) +32600.0" &&
    ok || no "list: an entry without parameters"
has "^3 tuned entries in $a$" && ok || no "list: the count"
run tuned list --store "$a" --shipped && has "tuned at +source$" && has "  store$" &&
    has "^3 tuned entries in $a, [0-9]+ shipped$" && ok || no "list --shipped"
run tuned list --store "$a" --json && grep -q '"number":	3' "$tmp/out" &&
    [ "$(grep -c '"source":	"store"' "$tmp/out")" -eq 3 ] && ok || no "list --json"
cp "$tmp/out" "$tmp/list.json"
run tuned show 2 --store "$a" || die "show 2"
has "^tuned entry 2 of 3 in $a$" && has "^kernel:      xgemm_nv$" &&
    has "^shape class: square-4096 \(tuned at 4096x4096x4096\)$" &&
    has "^device:      NVIDIA H100 80GB HBM3 \(NVIDIA Corporation, gpu\)$" &&
    has "^driver:      550.54.15$" && has "^evidence:    2 points$" &&
    [ "$(grep -c 'not in this store' "$tmp/out")" -eq 3 ] &&
    has "^2 of 2 evidence points are not in this store$" && ok || no "show N: the entry, evidence missing"
run tuned show 'd/row-NN/square-4096' --store "$a" && has "^tuned entry 1 of 3" && ok || no "show KEY"
run tuned show 'epyc/s/col-NT/tall-256' --store "$a" && has "^tuned entry 3 of 3" &&
    has "^evidence:    0 points$" && ok || no "show DEVICE/KEY, any case"

# ---- evidence found in the store ----------------------------------------------------------------
"$st" --make "$tmp/m.db" || die "store_tuning --make"
run tuned show s/row-NN/square-1024 --store "$tmp/m.db" || die "show with evidence"
has "^  [0-9a-f]{16} +290.0  263.6-322.2 +pass 0.5/100 +xgemm row-NN 1024x1024x1024 ops timing$" &&
    has "^  ffffffffffffffff  not in this store" && has "^1 of 2 evidence points are not in this store$" &&
    ok || no "show: an evidence point's GFLOP/s, interval and verdict, and the one missing"
has "^tuning run:  none recorded in this store \(imported, or tuned elsewhere\)$" && ok ||
    no "show: no run won with this entry's evidence"
run tuned show 1 --store "$tmp/m.db" &&
    has "^tuning run:  2: bayes, seed 7, 6 evaluations \(budget 6\) of 120 configurations, done, best 140 GFLOP/s$" &&
    has "^run time:    20[0-9-]{8}T[0-9:]{8}Z to 20[0-9-]{8}T[0-9:]{8}Z$" &&
    has "^run command: gemmbench tune -k xgemm --strategy bayes$" && ok ||
    no "show: the latest run whose winner is in the evidence"
run store info --store "$tmp/m.db" && has "^tuning runs: 3 \(14 evaluations\)$" &&
    has "^tuning failures: 2$" && ok || no "store info: runs, evaluations and failures"

# ---- export, re-import, another store ---------------------------------------------------------
run tuned export --store "$a" && head -n 1 "$tmp/out" | grep -q '^\[' && ok || no "export to stdout"
cp "$tmp/out" "$tmp/e1.json"
run tuned export --store "$a" --out "$tmp/e1f.json" &&
    has "^exported 3 tuned entries from $a to $tmp/e1f.json$" && cmp -s "$tmp/e1.json" "$tmp/e1f.json" &&
    ok || no "export --out writes the same"
run tuned import "$tmp/e1.json" --store "$tmp/b.db" && has ": 3 new, 0 replaced, 0 unchanged$" &&
    ok || no "import of the export into a new store"
run tuned export --store "$tmp/b.db" --out "$tmp/e2.json" && cmp -s "$tmp/e1.json" "$tmp/e2.json" &&
    ok || no "the second store's export is the first's, byte for byte"
run tuned import "$fx/entries.json" --store "$a" && has ": 0 new, 0 replaced, 3 unchanged$" && ok ||
    no "importing again changes nothing"
run tuned import "$tmp/list.json" --store "$a" && has ": 0 new, 0 replaced, 3 unchanged$" && ok ||
    no "list --json reads back as an import"
sed 's/"gflops": 123.25/"gflops": 130/' "$fx/entries.json" >"$tmp/changed.json"
run tuned import "$tmp/changed.json" --store "$a" && has ": 0 new, 1 replaced, 2 unchanged$" &&
    run tuned list --store "$a" && has "^  3  pthread.* 130.0  " && ok || no "a changed entry replaces"
# An entry without tuned_at is stamped at import.
sed '/"tuned_at": "2026-11-20T09:30:00Z"/d; s/"evidence": \[\],/"evidence": []/' "$fx/entries.json" \
    >"$tmp/notime.json"
run tuned import "$tmp/notime.json" --store "$tmp/c.db" && run tuned show 3 --store "$tmp/c.db" &&
    has "^tuned at:    20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$" && ! has "2026-11-20T09:30" && ok ||
    no "tuned_at stamped at import"

# ---- --device: list and export one device's entries ----------------------------------------------
run tuned list --store "$a" --device EPYC && [ "$(grep -c '^  [0-9]  ' "$tmp/out")" -eq 1 ] &&
    has "^  3  pthread-haswell-AMD EPYC 7B13 " && has "^1 tuned entry matching --device 'EPYC' in $a$" &&
    ok || no "list --device keeps the store's numbers"
run tuned list --store "$a" --device nope && has "^no tuned entries matching --device 'nope' in $a; 'gemmbench tuned list' shows them all$" &&
    ok || no "list --device matching nothing"
run tuned export --store "$a" --device 'portable computing' --out "$tmp/epyc.json" &&
    has "^exported 1 tuned entry from $a to $tmp/epyc.json$" && [ "$(grep -c '"device":' "$tmp/epyc.json")" -eq 1 ] &&
    grep -q '"class":	"tall-256"' "$tmp/epyc.json" && ok || no "export --device, by platform, any case"
run tuned import "$tmp/epyc.json" --store "$tmp/epyc.db" && has ": 1 new, 0 replaced, 0 unchanged$" && ok ||
    no "a device's export imports"
expect2 "no tuned entry in store $a \(of 3\) has a device or platform matching --device 'nope'" \
    tuned export --store "$a" --device nope
expect2 "--device needs part of a device or platform name" tuned export --store "$a" --device ''
expect2 "'tuned show' takes no option --device \(tuned list or export does\)" tuned show 1 --device x --store "$a"

# ---- --family: list and export one device family's entries, with the shipped ones ----------------
# Two H200 entries of family nvidia-sm_90 besides the fixture's (which name no family): one of a
# key the shipped file has (it overrides that shipped entry), one of a class it lacks.
h200() {
    printf '{"device": "NVIDIA H200", "platform": "NVIDIA CUDA", "driver": "580.159.04", "vendor": "NVIDIA Corporation", "type": "gpu", "family": "nvidia-sm_90", "precision": "s", "layout": "row-NN", "shape": [%s], "kernel": "xgemm_nv", "params": {"MWG": 128}, "gflops": %s, "tuned_at": "2026-12-01T00:00:00Z"}' "$1" "$2"
}
{ echo '['; h200 "4096, 4096, 4096" 99999; echo ','; h200 "32768, 32768, 32768" 12345; echo ']'; } >"$tmp/h200.json"
f=$tmp/f.db
run tuned import "$fx/entries.json" --store "$f" && run tuned import "$tmp/h200.json" --store "$f" ||
    die "import of the family's entries"
run tuned list --store "$f" --family nvidia-sm_90 && [ "$(grep -c '^  [0-9]  ' "$tmp/out")" -eq 2 ] &&
    has "^  [0-9]  NVIDIA H200 .* square-4096 .* 99999.0 " &&
    has "^2 tuned entries matching --family nvidia-sm_90 in $f$" && ok || no "list --family"
run tuned export --store "$f" --family nvidia-sm_90 && [ "$(grep -c '"device":' "$tmp/out")" -eq 2 ] &&
    [ "$(grep -c '"family":	"nvidia-sm_90"' "$tmp/out")" -eq 2 ] && ok || no "export --family: any device of it"
# With --shipped: the family's shipped entries, but the one the store overrides, in the order of
# a shipped file (device, precision, layout, class); read back by import.
nfam=$(grep -c '"class"' "$(dirname "$0")/../kernels/tuned/nvidia-sm_90.json" 2>/dev/null)
if [ "${nfam:-0}" -gt 0 ] && grep -q '"device": "NVIDIA H200"' "$(dirname "$0")/../kernels/tuned/nvidia-sm_90.json"; then
    run tuned export --store "$f" --family nvidia-sm_90 --shipped --out "$tmp/fam.json" &&
        has "^exported $((nfam + 1)) tuned entries from $f and the shipped entries to $tmp/fam.json$" &&
        [ "$(grep -c '"gflops":	99999' "$tmp/fam.json")" -eq 1 ] &&
        [ "$(grep -c '"gflops":	12345' "$tmp/fam.json")" -eq 1 ] &&
        ! grep -q '"device":	"pthread' "$tmp/fam.json" && ok ||
        no "export --family --shipped: the store's entries in place of the shipped ones of their key"
    sed -n 's/^		"\(device\|precision\|layout\|class\)":	"\(.*\)",$/\2/p' "$tmp/fam.json" |
        paste - - - - >"$tmp/keys.txt"
    LC_ALL=C sort -c -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 -k4,4 "$tmp/keys.txt" 2>/dev/null && ok ||
        no "export --shipped: in the order of a shipped file"
    run tuned import "$tmp/fam.json" --store "$tmp/fam.db" && has ": $((nfam + 1)) new, " && ok ||
        no "the family's file reads back"
    run tuned list --store "$tmp/none.db" --family nvidia-sm_90 --shipped &&
        has "^0 tuned entries matching --family nvidia-sm_90 \(no results store at $tmp/none.db\), $nfam shipped$" &&
        [ ! -e "$tmp/none.db" ] && ok || no "list --family --shipped without a store"
fi
expect2 "no tuned entry in store $f \(of 5\) has a device of family nope; 'gemmbench tuned list' shows them" \
    tuned export --store "$f" --family nope
expect2 "--family needs a device family" tuned export --store "$f" --family ''
expect2 "'tuned show' takes no option --family \(tuned list or export does\)" tuned show 1 --family x --store "$f"
expect2 "'tuned import' takes no option --shipped \(tuned list or export does\)" tuned import x --shipped --store "$f"

# ---- the report's tuning view -------------------------------------------------------------------
m=$tmp/m.db
run report --store "$m" && has "^store $m: 3 points, 3 selected \(filters: none\), 3 rows$" &&
    has "^tuning data: 2 tuned entries and 3 tuning runs selected \(of 5\)$" &&
    has "^Tuning: the best configuration per shape class$" && has "^Tuning runs$" &&
    has "^Repetitions" && ok || no "report: the tuning view after the tables"
run report --store "$m" --table tuned || die "report --table tuned"
! has "^Repetitions" && has "^small-256 +Tuning Test Device +s +row-NN +256x256x256 +xgemm +KWG=16 MWG=32 +140.00 +2 +2026-11-24T10:00:00Z$" &&
    has "^  2 +Tuning Test Device +xgemm +s +row-NN +256x256x256 +small-256 +bayes +7 +6 +140.00 +done$" &&
    has "^  3  .* anneal  +3  +2  +45.00  interrupted$" && ok || no "report --table tuned: winners and runs"
run report --store "$m" --table tuned --format csv && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
    head -n 1 "$tmp/out" | grep -q '^shape_class,device,platform,driver,vendor,type,precision,layout,m,n,k,kernel,params,gflops,evidence,tuned_at$' &&
    has '^square-1024,Tuning Test Device,.*,300,[0-9a-f]{16} ffffffffffffffff,2026-11-25T10:00:00Z$' &&
    ok || no "report --table tuned --format csv"
run report --store "$m" --format json && has '"tuned":	\[' && has '"tuning_runs":	\[' &&
    has '"best_so_far":	\[60, 100, 130, 130, 130, 140\]' && ok || no "report --format json: the tuning view"

expect2 "none of the 5 tuned entries and tuning runs in store $m matches --precision d; 'gemmbench tuned list'" \
    report --store "$m" --table tuned --precision d
run report --store "$m" --table tuned --out "$tmp/tuned.md" --format md &&
    has "^report: 2 tuned entries and 3 tuning runs from $m written to $tmp/tuned.md \(md\)$" &&
    grep -q '^## Tuning runs$' "$tmp/tuned.md" && ok || no "report --table tuned --out: the summary line"
run report --store "$m" --out "$tmp/all.txt" &&
    has "^report: 3 points in 3 rows and 0 work-group-size tables, 2 tuned entries and 3 tuning runs from $m written to $tmp/all.txt \(txt\)$" &&
    ok || no "report --out: the summary line counts the tuning data"
if command -v gnuplot >/dev/null 2>&1; then
    run report --store "$m" --table tuned --format html --out "$tmp/t.html" &&
        [ "$(grep -c '<svg' "$tmp/t.html")" -eq 1 ] && grep -q '<h3>Tuning runs</h3>' "$tmp/t.html" &&
        ! grep -q '<h2>Energy' "$tmp/t.html" && ok || no "report --table tuned --format html: the runs' plot alone"
fi
# Only tuning data: the other tables have nothing to show, and say where the tuning data is.
expect2 "store $a holds no points, only tuning data: 'gemmbench report --table tuned' shows it" report --store "$a"
run report --store "$a" --table tuned && has "^NVIDIA H100 80GB HBM3|^square-4096 +NVIDIA H100" && ok ||
    no "report --table tuned on a store of tuned entries alone"

# ---- a store without tuning tables: read, not written ----------------------------------------------
printf '{"format":"gemmbench-results","version":2,"schema_version":2,"exported":"2025-01-01T00:00:00Z","tool_version":"0.1.0","points":[]}\n' \
    >"$tmp/empty.json"
"$gb" import "$tmp/empty.json" --store "$tmp/p.db" >/dev/null 2>&1 || die "an empty store"
run tuned list --store "$tmp/p.db" && has "^no tuned entries in $tmp/p.db; 'gemmbench tune' makes them" &&
    ok || no "list on a store without tuning"
run tuned export --store "$tmp/p.db" && [ "$(cat "$tmp/out")" = "[]" ] && ok || no "export of no entries: []"
expect2 "no tuned entry number 1: store $tmp/p.db holds 0" tuned show 1 --store "$tmp/p.db"
run store info --store "$tmp/p.db" && ! has "tun" && ok || no "store info without tuning says nothing of it"
# Every read-only command leaves a store of points without tuning tables as it was, byte for byte.
"$st" --points "$tmp/q.db" || die "store_tuning --points"
cp "$tmp/q.db" "$tmp/q.copy"
for c in "tuned list" "tuned list --shipped" "tuned list --json" "tuned list --device x" "tuned export" \
    "tuned export --out $tmp/q.json" "tuned show 1" "tuned show s/row-NN/small-256" "store info" "store check" \
    "store list" "report" "report --table tuned" "report --format json" "report --format csv --table tuned"; do
    # shellcheck disable=SC2086
    "$gb" $c --store "$tmp/q.db" >"$tmp/out" 2>"$tmp/err"
    cmp -s "$tmp/q.db" "$tmp/q.copy" && [ -z "$(ls "$tmp" | grep '^q\.db-')" ] && ok ||
        no "'gemmbench $c' wrote to a store without tuning tables"
done
expect2 "store $tmp/q.db holds no tuning data; 'gemmbench tune' makes it" report --store "$tmp/q.db" --table tuned
# Without a store, --shipped lists the entries embedded from kernels/tuned/ (as many as its files
# hold) and creates no store.
nshipped=$(cat "$(dirname "$0")"/../kernels/tuned/*.json 2>/dev/null | grep -c '"class"')
run tuned list --store "$tmp/none.db" --shipped &&
    if [ "$nshipped" -eq 0 ]; then has "^no tuned entries \(no results store at $tmp/none.db\)"
    else has "^0 tuned entries \(no results store at $tmp/none.db\), $nshipped shipp" &&
        [ "$(grep -c '^  - .*  shipped$' "$tmp/out")" -eq "$nshipped" ]; fi &&
    [ ! -e "$tmp/none.db" ] && ok || no "list --shipped without a store"

# ---- --out never replaces the store ----------------------------------------------------------------
cp "$a" "$tmp/a.copy"
expect2 "is the results store $a" tuned export --store "$a" --out "$a"
expect2 "is the results store" tuned export --store "$a" --out "$a-wal"
expect2 "is an SQLite database" tuned export --store "$a" --out "$tmp/b.db"
cmp -s "$a" "$tmp/a.copy" && ok || no "the store is unchanged"

# ---- bad input: exit 2, one line, nothing written, no store created --------------------------------
new=$tmp/new.db
expect2 "give a tuned command: list, show, export, import or sync" tuned
expect2 "unknown tuned command 'frob'; use list, show, export, import or sync" tuned frob
expect2 "unknown option '--bogus'; see 'gemmbench tuned list --help'" tuned list --bogus
expect2 "'tuned list' takes no option --out \(tuned export does\)" tuned list --out x --store "$a"
expect2 "'tuned show' takes no option --json \(tuned list does\)" tuned show 1 --json --store "$a"
expect2 "option '--store' needs a value" tuned list --store
expect2 "the store path is empty" tuned list --store ''
expect2 "give the entry's number or key to show" tuned show --store "$a"
expect2 "unexpected argument '2'; see 'gemmbench tuned show --help'" tuned show 1 2 --store "$a"
expect2 "unexpected argument 'x'; see 'gemmbench tuned list --help'" tuned list x --store "$a"
expect2 "give the file to import" tuned import --store "$new"
expect2 "no tuned entry number 0: store $a holds 3" tuned show 0 --store "$a"
expect2 "no tuned entry number 9: store $a holds 3" tuned show 9 --store "$a"
expect2 "bad entry key 'row-NN/square-4096'; give a number .* or \[DEVICE/\]PRECISION/LAYOUT/CLASS" \
    tuned show row-NN/square-4096 --store "$a"
expect2 "bad precision 'q' in entry key 'q/row-NN/square-4096'; use s, d, h, b, c, z or hh" tuned show q/row-NN/square-4096 --store "$a"
expect2 "no tuned entry in store $a matches 's/row-NN/square-64'" tuned show s/row-NN/square-64 --store "$a"
sed 's/"device": "pthread-haswell-AMD EPYC 7B13"/"device": "NVIDIA H100 PCIe"/; s/"layout": "col-NT"/"layout": "row-NN"/; s/"shape": \[2048, 256, 256\]/"shape": [4096, 4096, 4096]/; s/"tall-256"/"square-4096"/' \
    "$fx/entries.json" >"$tmp/two.json"
"$gb" tuned import "$tmp/two.json" --store "$tmp/two.db" >/dev/null 2>&1 || no "import of two H100s"
expect2 "'s/row-NN/square-4096' matches 2 tuned entries .*give the number" tuned show s/row-NN/square-4096 --store "$tmp/two.db"
expect2 "no results store at $tmp/none.db" tuned list --store "$tmp/none.db"
expect2 "no results store at $tmp/none.db" tuned export --store "$tmp/none.db"
# Malformed files: the entry and the key named; neither a new store nor an existing one written.
cp "$a" "$tmp/a.copy"
# refused_import REGEX WHAT: importing $tmp/bad.json (made by WHAT) is refused with REGEX into a
# new store, which is not created, and into $a.
refused_import() {
    expect2 "$1" tuned import "$tmp/bad.json" --store "$new"
    [ ! -e "$new" ] && ok || no "a bad import created a store ($2)"
    expect2 "$1" tuned import "$tmp/bad.json" --store "$a"
}
# badtext REGEX TEXT: a file holding TEXT.
badtext() {
    printf '%s\n' "$2" >"$tmp/bad.json"
    refused_import "$1" "$2"
}
expect2 "cannot read '$tmp/nofile.json'; check the path" tuned import "$tmp/nofile.json" --store "$new"
badtext "bad.json:1: not valid JSON \(byte 12\); a file of tuned entries is what 'gemmbench tuned export' writes" \
    '[{"device": '
badtext "bad.json:1: not a JSON array of tuned entries" '{"device": "x"}'
badtext "bad.json:1: text after the JSON document \(byte 3\); remove it" '[] []'
one='{"device":"D","platform":"P","driver":"1","vendor":"V","type":"gpu","precision":"s","layout":"row-NN","shape":[64,64,64],"kernel":"xgemm","params":{"MWG":32},"gflops":10,"evidence":[],"tuned_at":"2026-01-01T00:00:00Z"}'
# with FROM TO: the entry above with FROM replaced (sed, | as separator).
with() { printf '%s' "$one" | sed "s|$1|$2|"; }
badtext "bad.json:1: entry 1: bad value for 'layout': it must be row-NN, row-NT, .* or col-TT \(a conjugate transposition C is keyed as T\)$" \
    "[$one,$(with row-NN row-XX)]"
badtext "bad.json:1: entry 0: bad value for 'layout'" "[$(with '"s"' '"c"' | sed 's|row-NN|row-CN|')]"
badtext "bad.json:1: entry 0: kernel 'hgemm_wgmma' has no precision c" \
    "[$(with '"s"' '"c"' | sed 's|"kernel":"xgemm"|"kernel":"hgemm_wgmma"|')]"
badtext "bad.json:1: entry 0: missing key 'platform': it must be the platform's name" '[{"device":"D"}]'
badtext "bad.json:1: entry 0: bad value for 'precision': it must be \"s\", \"d\", \"h\", \"b\", \"c\" or \"z\"" "[$(with '"s"' '"q"')]"
badtext "bad.json:1: entry 0: bad value for 'shape': it must be \[M, N, K\]" "[$(with '64,64,64' '64,0,64')]"
badtext "bad.json:1: entry 0: bad value for 'evidence': it must be an array of at most 8 point ids" \
    "[$(with '"evidence":\[\]' '"evidence":["0123456789ABCDEF"]')]"
badtext "bad.json:1: entry 0: bad value for 'params': it must be an object of parameter names \(letters, digits, _\) and whole numbers" \
    "[$(with '"MWG":32' '"MWG":1.5')]"
badtext "bad.json:1: entry 0: bad value for 'params'" "[$(with '"MWG":32' '"M WG":32')]"
badtext "bad.json:1: entry 0: bad value for 'params'" "[$(with '"MWG":32' '"1MWG":32')]"
badtext "bad.json:1: entry 0: bad value for 'gflops': it must be a finite number, 0 or more" \
    "[$(with '"gflops":10' '"gflops":-1')]"
badtext "bad.json:1: entry 0: bad value for 'gflops'" "[$(with '"gflops":10' '"gflops":1e999')]"
badtext "bad.json:1: entry 0: bad value for 'device': it must be the device's name, a non-empty string" \
    "[$(with '"D"' '""')]"
badtext "bad.json:1: entry 0: bad value for 'kernel'" "[$(with '"xgemm"' '7')]"
badtext "bad.json:1: entry 1 is not an object" "[$one, 3]"
badtext "bad.json:1: entry 1 has the key of entry 0 \(line 1\): .*; keep one" "[$one,$one]"
# The line of the key at fault in a file laid out as the export writes it (fixtures/tuned).
# badfile REGEX SED: the fixture edited by SED.
badfile() {
    sed "$2" "$fx/entries.json" >"$tmp/bad.json"
    refused_import "$1" "$2"
}
badfile "bad.json:41: entry 2: bad value for 'layout'" 's/"col-NT"/"col-XY"/'
badfile "bad.json:27: entry 1: bad value for 'shape'" '27s/4096, 4096, 4096/4096, 4096/'
badfile "bad.json:45: entry 2: bad value for 'params'" 's/"NDIMC": 4/"NDIMC": "4"/'
badfile "bad.json:18: entry 1: missing key 'kernel'" '/"dgemm_dmma_128_k4"/d'
badfile "bad.json:31: entry 1: bad value for 'evidence'" 's/"00000000000000aa"/"00000000000000a"/'
badfile "bad.json:34: entry 2 has the key of entry 0 \(line 2\)" \
    's/"pthread-haswell-AMD EPYC 7B13"/"NVIDIA H100 80GB HBM3"/; s/"Portable Computing Language"/"NVIDIA CUDA"/; s/"3.1+debian"/"550.54.15"/; s/"col-NT"/"row-NN"/; s/\[2048, 256, 256\]/[4096, 4096, 4096]/; s/"tall-256"/"square-4096"/'
badfile "bad.json:52: text after the JSON document \(byte [0-9]+\); remove it" '$s/$/\n\n  # a comment/'
badfile "bad.json:15: not valid JSON" '14s/47889.4,/47889.4/'
badfile "bad.json:14: not valid JSON" '14s/47889.4/47889.4.1/'
# Entries checked as kernel metadata is: the kernel (the nearest name where misspelt), its
# precision, each parameter (the nearest name) and its range; every key (the nearest one); the
# type; the class, the shape's; and strings, text without control characters, raw or escaped,
# NUL or invalid UTF-8. Each refused with the line, the entry and what is wrong.
badtext "bad.json:1: entry 0: unknown kernel 'xgem'; did you mean 'xgemm'\? \('gemmbench kernels' lists them\)$" \
    "[$(with '"xgemm"' '"xgem"')]"
badtext "bad.json:1: entry 0: unknown kernel 'nosuchkernel' \('gemmbench kernels' lists them\); a family of your own is read with --kernel-path DIR$" \
    "[$(with '"xgemm"' '"nosuchkernel"')]"
badtext "bad.json:1: entry 0: kernel 'xgemm' has no parameter MWX; did you mean MWG\?$" \
    "[$(with '"MWG":32' '"MWX":32')]"
badtext "bad.json:1: entry 0: parameter MWG=7 of kernel 'xgemm' is not allowed; use one of 8,16," \
    "[$(with '"MWG":32' '"MWG":7')]"
badtext "bad.json:1: entry 0: kernel 'dgemm_dmma' has no precision s$" "[$(with '"xgemm"' '"dgemm_dmma"')]"
badtext "bad.json:1: entry 0: key 'tuned_on' is unknown; did you mean 'tuned_at'\?$" \
    "[$(with '"tuned_at"' '"tuned_on"')]"
badtext "bad.json:1: entry 0: key 'qqqqqqqqqq' is unknown \(docs/tuning.md lists an entry's keys\)$" \
    "[$(with '"gflops"' '"qqqqqqqqqq":1,"gflops"')]"
badtext "bad.json:1: entry 0: key 'kernel' appears twice; keep one$" "[$(with '"kernel"' '"kernel":"naive","kernel"')]"
badtext "bad.json:1: entry 0: bad value for 'type': it must be the device's type: gpu, cpu, accelerator or other$" \
    "[$(with '"gpu"' '"quantum"')]"
badtext "bad.json:1: entry 0: bad value for 'class': it must be small-64, the class of its shape \[64, 64, 64\] \(or left out\)$" \
    "[$(with '"kernel"' '"class":"weird","kernel"')]"
badtext "bad.json:1: entry 0: bad value for 'source'" "[$(with '"kernel"' '"source":5,"kernel"')]"
badtext "bad.json:1: a string holds a control character \(escaped as .u0000\) at byte 13; names and values must be printable text$" \
    "[$(with '"D"' '"D\\u0000x"')]"
badtext "bad.json:1: a string holds a control character \(escaped as .u001b\) at byte 13" "[$(with '"D"' '"D\\u001b[2J"')]"
badtext "bad.json:1: a string holds a control character \(escaped as .n\) at byte 13" "[$(with '"D"' '"D\\n"')]"
badtext "bad.json:1: a string holds a control character \(escaped as .u009b\) at byte 13" "[$(with '"D"' '"D\\u009b"')]"
badtext "bad.json:1: a string holds a control character \(byte 0x1b\) at byte 13" "[$(with '"D"' "\"D$(printf '\033')[2J\"")]"
badtext "bad.json:1: a string holds a control character \(byte 0x09\) at byte 13" "[$(with '"D"' "\"D$(printf '\t')\"")]"
badtext "bad.json:1: a string holds invalid UTF-8 \(byte 0xff\) at byte 13" "[$(with '"D"' "\"D$(printf '\377')\"")]"
badtext "bad.json:1: a string holds invalid UTF-8 \(byte 0xc0\) at byte 13" "[$(with '"D"' "\"D$(printf '\300\257')\"")]"
# A NUL byte itself in a string (not an escape): refused too, not read as the end of the name.
{ printf '[{"device":"D'; printf '\000'; printf 'x"%s]\n' "$(printf '%s' "$one" | sed 's/^{"device":"D"//')"; } >"$tmp/bad.json"
refused_import "bad.json:1: a string holds a control character \(byte 0x00\) at byte 13" "a NUL byte"
# In a file laid out as export writes it: the line of the kernel, or of the parameters.
badfile "bad.json:12: entry 0: unknown kernel 'xgemm_nx'; did you mean 'xgemm_nv'\?" 's/"xgemm_nv"/"xgemm_nx"/'
badfile "bad.json:45: entry 2: kernel 'xgemm' has no parameter NDIMX; did you mean NDIMC\?" 's/"NDIMC": 4/"NDIMX": 4/'
badfile "bad.json:10: entry 0: bad value for 'class': it must be square-4096" '10s/square-4096/square-2048/'
# UTF-8 text is fine, and a kernel family of one's own with --kernel-path.
printf '[%s]\n' "$(with '"D"' '"Carte \\u00e9t\\u00e9 \\ud83d\\ude00 \xc3\xa9"')" >"$tmp/utf8.json"
run tuned import "$tmp/utf8.json" --store "$tmp/u.db" && has ": 1 new, " && run tuned list --store "$tmp/u.db" &&
    has "Carte été 😀 é" && ok || no "UTF-8 names import"
printf '[%s]\n' "$(with '"xgemm"' '"fixed"' | sed 's/"params":{"MWG":32}/"params":{}/')" >"$tmp/own.json"
expect2 "own.json:1: entry 0: unknown kernel 'fixed' .*--kernel-path DIR" tuned import "$tmp/own.json" --store "$tmp/own.db"
run tuned import "$tmp/own.json" --kernel-path "$3/fixed_wg" --store "$tmp/own.db" && has ": 1 new, " && ok ||
    no "import of an entry of a family of --kernel-path"
expect2 "--kernel-path needs a folder of kernel families" tuned import "$tmp/own.json" --kernel-path '' --store "$tmp/own.db"
expect2 "'tuned list' takes no option --kernel-path \(tuned import does\)" tuned list --kernel-path x --store "$a"
cmp -s "$a" "$tmp/a.copy" && [ ! -e "$a-journal" ] && ok || no "a refused import left the store as it was"
run tuned import "$tmp/empty.json" --store "$new"
[ $? -eq 2 ] && [ ! -e "$new" ] && ok || no "a points export is not a file of tuned entries"
printf '[]\n' >"$tmp/none.json"
run tuned import "$tmp/none.json" --store "$new" && has "^nothing to import: $tmp/none.json holds no tuned entries$" &&
    [ ! -e "$new" ] && ok || no "an empty array imports nothing and creates no store"
printf 'not a store\n' >"$tmp/text.db"
expect2 "is not an SQLite database" tuned import "$fx/entries.json" --store "$tmp/text.db"
expect2 "is not an SQLite database" tuned list --store "$tmp/text.db"

# ---- every precision -------------------------------------------------------------------------------
# Entries of h and c (with C keyed as T) import, list, show by key, export the same and go to the
# tuning file (version 2); an old tuning file (version 1) still reads as before.
hc="[$(with '"s"' '"h"'),$(with '"xgemm"' '"naive"' | sed -e 's/"s"/"c"/' -e 's/row-NN/row-TN/' \
    -e 's/"params":{"MWG":32}/"params":{"LX":8}/')]"
printf '%s\n' "$hc" >"$tmp/hc.json"
run tuned import "$tmp/hc.json" --store "$tmp/hc.db" && has ": 2 new, " && ok || no "h and c entries import"
run tuned list --store "$tmp/hc.db" && has "^  2  D +h +row-NN +small-64 +xgemm +MWG=32 " &&
    has "^  1  D +c +row-TN +small-64 +naive +LX=8 " && ok || no "h and c entries listed"
run tuned show c/row-TN/small-64 --store "$tmp/hc.db" && has "^precision:   c$" && ok ||
    no "tuned show of a c entry by key"
run tuned export --store "$tmp/hc.db" && grep -q '"precision":	"h"' "$tmp/out" &&
    grep -q '"precision":	"c"' "$tmp/out" && ok || no "h and c entries export"
run tuned sync --store "$tmp/hc.db" && head -1 "$tmp/hc.db.tuned" | grep -q "^# gemmbench tuning file 2$" &&
    grep -q "	h	row-NN	64	64	64	xgemm	MWG=32	" "$tmp/hc.db.tuned" &&
    grep -q "	c	row-TN	64	64	64	naive	LX=8	" "$tmp/hc.db.tuned" && ok ||
    no "h and c entries in the tuning file"

# ---- help -----------------------------------------------------------------------------------------
run tuned --help && has "^usage: gemmbench tuned list\|show\|export\|import\|sync" &&
    [ "$(grep -c '^gemmbench tuned ' "$tmp/out")" -eq 5 ] && ok || no "tuned --help"
for c in list show export import sync; do
    run tuned $c --help && has "^usage: gemmbench tuned $c" && has "--store PATH" && ok || no "tuned $c --help"
done
run help tuned && has "^usage: gemmbench tuned" && ok || no "help tuned"
run --help && has "^  tuned list\|show\|export\|import\|sync" && ok || no "the command list names tuned"
finish
