#!/bin/sh
# bundle_test.sh GEMMBENCH: `export --bundle`, `verify` and `import` of a bundle. A bundle of a
# store with a tuning holds its points, its program text and its tuning entry, verifies, its
# digest is the SHA-256 of the file with the digest read as zeros (recomputed here), and it
# imports into a new store, where its points replay. Each hand edit fails verify (exit 1), also with the digest made
# again for the edited file: a GFLOP/s changed, a verdict flipped, a faithful verdict flipped,
# the timed calls changed, a program text changed, a point's id changed, a tuning entry citing
# no point; and an edited bundle is refused by import (exit 2, no store made). A family's author
# and license go into the bundle with its program. Not a bundle, a truncated one, a newer
# version: one line, exit 2.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" tune -k gemmbench_nn -n 32 --budget 3 -i 3 --store "$tmp/s.db" >"$tmp/tune.txt" 2>&1 ||
    fail "tune"
"$gb" export --bundle "$tmp/b.json" --store "$tmp/s.db" >"$tmp/export.txt" 2>&1 || fail "export"
grep -q "^bundled [0-9]* points from .* with 1 program texts" "$tmp/export.txt" ||
    fail "export must say what it bundled"
"$gb" verify "$tmp/b.json" >"$tmp/verify.txt" 2>&1 || fail "verify of the bundle as made"
grep -q ", 1 program texts (0 points with their program's hash alone), 1 tuning entries; [0-9]* checks, 0 failed" \
    "$tmp/verify.txt" || fail "verify must count the points, the text and the tuning entry"

# edit FILE.json PYTHON-STATEMENTS [nodigest]: the bundle with d (the parsed JSON) edited, its
# digest made again unless the third argument says not to.
edit() {
    python3 - "$tmp/b.json" "$tmp/$1" "$2" "${3:-}" <<'PY'
import hashlib, json, re, sys
src, dst, stmt, nodigest = sys.argv[1:5]
d = json.load(open(src))
exec(stmt)
text = json.dumps(d, indent="\t")
if not nodigest:
    z = re.sub(r'("digest":\s*")[0-9a-f]{64}"', lambda m: m.group(1) + "0" * 64 + '"', text)
    h = hashlib.sha256(z.encode()).hexdigest()
    text = z.replace("0" * 64, h)
open(dst, "w").write(text + "\n")
PY
}
# The digest as anyone can compute it, on the file as made.
python3 - "$tmp/b.json" <<'PY' || fail "the digest must be the SHA-256 of the file with its digest as zeros"
import hashlib, re, sys
t = open(sys.argv[1]).read()
m = re.search(r'"digest":\s*"([0-9a-f]{64})"', t)
z = t[:m.start(1)] + "0" * 64 + t[m.end(1):]
assert hashlib.sha256(z.rstrip("\n").encode()).hexdigest() == m.group(1)
PY
# Re-made by Python with its own layout: still a bundle that verifies.
edit same.json "pass"
"$gb" verify "$tmp/same.json" >"$tmp/same.txt" 2>&1 || fail "a bundle laid out anew must verify"

# refused NAME PATTERN: verify exits 1 with a failure matching PATTERN.
refused() {
    "$gb" verify "$tmp/$1" >"$tmp/out" 2>&1
    rc=$?
    [ $rc -eq 1 ] && grep -q "^FAILED: .*$2" "$tmp/out" ||
        { cat "$tmp/out"; fail "$1: verify must exit 1 with /$2/ (exit $rc)"; }
}
p0='d["points"][0]'
edit gflops-nodigest.json "$p0[\"gflops\"] *= 1.5" nodigest
refused gflops-nodigest.json "the digest is not the file's"
edit gflops.json "$p0[\"gflops\"] *= 1.5"
refused gflops.json "GFLOP/s .* is not 2\*M\*N\*K over its median call"
edit verdict.json "$p0[\"verdict\"] = 'fail'"
refused verdict.json "its verdict does not follow from its errors"
edit faithful.json "$p0[\"faithful\"] = 'not faithful'"
refused faithful.json "its faithful verdict does not follow"
edit calls.json "ph = $p0[\"phases\"][\"ops\"]; ph[\"samples\"] = [2 * x for x in ph[\"samples\"]]"
refused calls.json "is not its timed calls'"
edit program.json "k = next(iter(d['programs'])); d['programs'][k]['text'] += '// edited\n'"
refused program.json "the program text under .* is not the text of that hash"
edit id.json "$p0[\"id\"] = '0123456789abcdef'"
refused id.json "id"
edit tuned.json "d['tuned'][0]['evidence'] = ['0123456789abcdef']"
refused tuned.json "a tuning entry cites no point of the bundle"

# Import: the bundle's points into a new store; an edited one refused before any store exists.
"$gb" import "$tmp/b.json" --store "$tmp/i.db" >"$tmp/import.txt" 2>&1 || fail "import of the bundle"
n=$("$gb" store info --store "$tmp/s.db" | sed -n 's/^points: //p')
grep -q "^imported $n new points" "$tmp/import.txt" || fail "import must add the $n points"
# Any imported point runs again on this machine, beside its stored figures.
id=$("$gb" store list --store "$tmp/i.db" 2>/dev/null | awk 'length($1) == 16 && $1 ~ /^[0-9a-f]+$/ {print $1; exit}')
[ -n "$id" ] || fail "no point id in 'store list' of the imported store"
"$gb" replay "$id" --store "$tmp/i.db" >"$tmp/replay.txt" 2>&1 ||
    fail "replay of an imported bundle's point $id"
grep -q "^  stored: median" "$tmp/replay.txt" && grep -q "^  replay: median" "$tmp/replay.txt" ||
    fail "the replay must print the stored and the new median"
"$gb" import "$tmp/verdict.json" --store "$tmp/j.db" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "fails verification" "$tmp/err" && [ ! -e "$tmp/j.db" ] ||
    fail "import of an edited bundle: exit 2, no store"

# A family's author and license travel with its program text (a family of --kernel-path).
mkdir "$tmp/k" || fail "mkdir"
cp "$(dirname "$0")/../kernels/naive.cl" "$tmp/k/" || fail "copying naive.cl"
python3 - "$(dirname "$0")/../kernels/naive.json" "$tmp/k/by.json" <<'PY' || fail "by.json"
import json, sys
d = json.load(open(sys.argv[1]))
d.update(family="naive_by", author="A. Writer", license="MIT")
d.pop("presets", None)
json.dump(d, open(sys.argv[2], "w"))
PY
"$gb" run -k naive_by --kernel-path "$tmp/k" -n 16 -i 2 --store "$tmp/by.db" >"$tmp/by.txt" 2>&1 ||
    fail "run naive_by"
"$gb" export --bundle "$tmp/by.json" --store "$tmp/by.db" --kernel-path "$tmp/k" \
    >"$tmp/by-export.txt" 2>&1 || fail "export naive_by"
python3 - "$tmp/by.json" <<'PY' || fail "the program must carry the family's author and license"
import json, sys
p = list(json.load(open(sys.argv[1]))["programs"].values())
assert len(p) == 1 and p[0]["author"] == "A. Writer" and p[0]["license"] == "MIT", p
PY
"$gb" verify "$tmp/by.json" >"$tmp/by-verify.txt" 2>&1 || fail "verify naive_by's bundle"

# Not a bundle, truncated, newer: one line, exit 2.
echo '{"format": "gemmbench-results", "version": 6, "points": []}' >"$tmp/export.json"
head -c 2000 "$tmp/b.json" >"$tmp/cut.json"
edit newer.json "d['bundle_version'] = 2"
for f in export.json cut.json newer.json; do
    "$gb" verify "$tmp/$f" >"$tmp/out" 2>"$tmp/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "verify $f: exit 2 with one line"
done
grep -q "a newer gemmbench may read this bundle" "$tmp/err" || fail "newer: say so"
echo "bundle_test: ok"
