#!/bin/sh
# explore_import.sh GEMMBENCH: points exported as JSON and imported into another store arrive
# whole; importing the same file twice adds nothing and says so; the export of the merged store
# equals the original's; CSV has a header and one line per point; a sweep in three shards (--shard),
# each into its own store, merged by import, equals the whole.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" explore -k SGEMM_NT_4x1,naive -n 8,16 -i 2 --warmup 0 --repeat 2 --store "$tmp/a.db" \
    >"$tmp/explore.txt" 2>&1 || fail "explore"
"$gb" run -k SGEMM_NT_1x1 -n 8 -i 2 --store "$tmp/a.db" >"$tmp/run.txt" 2>&1 || fail "run --store"
grep -q "stored 1 points in $tmp/a.db" "$tmp/run.txt" || fail "run did not say where it stored"
"$gb" export --store "$tmp/a.db" --out "$tmp/a.json" >"$tmp/export.txt" 2>&1 || fail "export"
grep -q "exported 9 points" "$tmp/export.txt" || fail "expected 9 points exported"

"$gb" import "$tmp/a.json" --store "$tmp/b.db" >"$tmp/import1.txt" 2>&1 || fail "first import"
grep -q "imported 9 new points" "$tmp/import1.txt" || fail "first import must add 9"
"$gb" import "$tmp/a.json" --store "$tmp/b.db" >"$tmp/import2.txt" 2>&1 || fail "second import"
grep -q "nothing new: all 9 points in .* are already in .*recognised by id" "$tmp/import2.txt" ||
    fail "the second import must add nothing and say so"
"$gb" import "$tmp/a.json" --store "$tmp/a.db" >"$tmp/import3.txt" 2>&1 || fail "self import"
grep -q "nothing new" "$tmp/import3.txt" || fail "importing a store's own export must add nothing"
"$gb" store check --store "$tmp/b.db" >"$tmp/check.txt" 2>&1 || fail "imported store inconsistent"

# The merged store exports the same points, field for field (only the export time differs).
"$gb" export --store "$tmp/b.db" --out "$tmp/b.json" >/dev/null 2>&1 || fail "second export"
grep -v '"exported"' "$tmp/a.json" >"$tmp/a.cmp"
grep -v '"exported"' "$tmp/b.json" >"$tmp/b.cmp"
cmp -s "$tmp/a.cmp" "$tmp/b.cmp" || fail "the imported points differ from the exported ones"

"$gb" export --format csv --store "$tmp/b.db" >"$tmp/b.csv" 2>"$tmp/csv.txt" || fail "csv export"
[ "$(wc -l <"$tmp/b.csv")" -eq 10 ] || fail "csv must have a header and 9 lines"
head -n 1 "$tmp/b.csv" | grep -q "^id,device_name," || fail "csv header"

# A malformed file writes nothing and gets one line naming the problem.
head -c 2000 "$tmp/a.json" >"$tmp/cut.json"
"$gb" import "$tmp/cut.json" --store "$tmp/c.db" >"$tmp/bad.txt" 2>"$tmp/bad_err.txt"
[ $? -eq 2 ] || fail "a truncated file must exit 2"
grep -q "is not valid JSON (line" "$tmp/bad_err.txt" || fail "truncated file message"
[ "$(wc -l <"$tmp/bad_err.txt")" -eq 1 ] || fail "one line on stderr"
# Two exports in one file: refused as a whole (the first is not imported alone), with the offset.
cat "$tmp/a.json" "$tmp/a.json" >"$tmp/ab.json"
first=$(wc -c <"$tmp/a.json")
"$gb" import "$tmp/ab.json" --store "$tmp/e.db" >"$tmp/ab.txt" 2>"$tmp/ab_err.txt"
[ $? -eq 2 ] || fail "two concatenated exports must exit 2"
grep -q "ab.json: text after the JSON document at byte offset $first (line" "$tmp/ab_err.txt" ||
    fail "concatenated exports message"
[ "$(wc -l <"$tmp/ab_err.txt")" -eq 1 ] || fail "one line on stderr for concatenated exports"
"$gb" export --format xml --store "$tmp/b.db" >/dev/null 2>"$tmp/fmt.txt"
[ $? -eq 2 ] && grep -q "unknown --format 'xml'" "$tmp/fmt.txt" || fail "bad --format"
"$gb" export --store "$tmp/none.db" >/dev/null 2>"$tmp/none.txt"
[ $? -eq 2 ] && grep -q "no results store at" "$tmp/none.txt" || fail "missing store"

# Shards: 0/3, 1/3 and 2/3, each into its own store, merged by import, equal the whole sweep;
# no point is in two shards; a shard that is not I/N, or --shard to run, is refused.
sweep="-k SGEMM_NT_4x1,naive -n 8,16,24 --precision s,d -i 2 --warmup 0"
# shellcheck disable=SC2086
"$gb" explore $sweep --store "$tmp/whole.db" >"$tmp/whole.txt" 2>&1 || fail "the whole sweep"
for i in 0 1 2; do
    # shellcheck disable=SC2086
    "$gb" explore $sweep --shard "$i/3" --store "$tmp/shard$i.db" >"$tmp/shard$i.txt" 2>&1 ||
        fail "shard $i/3"
    grep -q "shard $i of 3" "$tmp/shard$i.txt" || fail "shard $i/3 says which it is"
    "$gb" export --store "$tmp/shard$i.db" --out "$tmp/shard$i.json" >/dev/null 2>&1 ||
        fail "export of shard $i"
    "$gb" import "$tmp/shard$i.json" --store "$tmp/merged.db" >"$tmp/merge$i.txt" 2>&1 ||
        fail "import of shard $i"
    grep -q " 0 already there" "$tmp/merge$i.txt" || fail "shard $i shares a point with another"
done
for db in whole merged; do
    "$gb" export --format csv --store "$tmp/$db.db" | sed 1d | cut -d, -f1 | sort >"$tmp/$db.ids"
done
[ -s "$tmp/whole.ids" ] && cmp -s "$tmp/whole.ids" "$tmp/merged.ids" ||
    fail "the shards merged are not the whole sweep"
"$gb" explore $sweep --shard 3/3 --store "$tmp/x.db" >/dev/null 2>"$tmp/bad.txt"
[ $? -eq 2 ] && grep -q "'3/3' is not I/N" "$tmp/bad.txt" && [ ! -e "$tmp/x.db" ] ||
    fail "--shard 3/3"
"$gb" run -k naive -n 8 --shard 0/2 >/dev/null 2>"$tmp/bad.txt"
[ $? -eq 2 ] && grep -q "\-\-shard is not an option of 'run'" "$tmp/bad.txt" || fail "run --shard"
echo "import: 9 points exported, imported once, recognised the second time; 3 shards merged"
