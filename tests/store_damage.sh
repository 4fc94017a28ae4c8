#!/bin/sh
# store_damage.sh GEMMBENCH STORE_ROUNDTRIP: files given as --store that are not gemmbench stores
# (another SQLite database, in rollback or WAL mode; a text file; an empty file; an empty SQLite
# database), and stores damaged by truncation or in the middle of a page of the points table,
# are refused with exit 2 and one line, by every command, before anything writes to them: each
# stays byte for byte as it was, with no side file left. An empty --store is refused; --out
# never replaces the store (through a link, another spelling or a hard link) or another SQLite
# database; a bad import creates no store; an export killed with SIGKILL leaves a temporary file
# that the next export of the same path removes; the advice to save a damaged store saves its
# tuned entries too. One damaged row of the tuning database (24 kinds of damage to one tuned
# entry: parameters not NAME=V, 2^64, a negative M, precision q, 1 MB of parameters, control
# characters, invalid UTF-8, a NUL, ...) hides nothing else: `store check` names it (exit 1),
# `store info` counts it, `tuned list|show|export`, `report` and `run -k auto` pass it over
# with a warning and use the others, an import or a tuning of its key replaces it. STORE_ROUNDTRIP
# makes stores (--make-many) and plain SQLite databases (--sql) without the sqlite3 program.
gb=$1
sr=$2
. "$(dirname "$0")/script_lib.sh"

# same FILE COPY: FILE is byte for byte COPY, and no SQLite side file is beside it.
same() {
    if cmp -s "$1" "$2" && [ ! -e "$1-wal" ] && [ ! -e "$1-shm" ] && [ ! -e "$1-journal" ]; then
        ok
    else
        bad "$1 was changed (or a side file left): $(ls -la "$1"*)"
    fi
}

small="-n 8 -i 1 --warmup 0"
# A valid export to import, from a small store of made-up points.
"$sr" --make-many "$tmp/src.db" 3 >/dev/null || bad "making a store"
"$gb" export --store "$tmp/src.db" --out "$tmp/good.json" >/dev/null 2>&1 || bad "export"

# Every command on a file that must be refused, which must be left unchanged.
every_command() {
    regex=$1
    db=$2
    cp "$db" "$tmp/orig"
    for c in "store info" "store list" "store check"; do
        # shellcheck disable=SC2086
        expect2 "$regex" $c --store "$db"
    done
    expect2 "$regex" export --store "$db"
    expect2 "$regex" export --store "$db" --out "$tmp/x.json"
    expect2 "$regex" report --store "$db"
    expect2 "$regex" replay 0123456789abcdef --store "$db"
    expect2 "$regex" import "$tmp/good.json" --store "$db"
    # shellcheck disable=SC2086
    expect2 "$regex" run -k naive $small --store "$db"
    # shellcheck disable=SC2086
    expect2 "$regex" explore -k naive $small --store "$db"
    same "$db" "$tmp/orig"
    [ ! -e "$tmp/x.json" ] || bad "an export of a refused store wrote its output"
}

# An SQLite database of another program, in rollback-journal and in WAL mode.
"$sr" --sql "$tmp/foreign.db" "CREATE TABLE t(x); INSERT INTO t VALUES(1);" || bad "sqlite"
every_command "foreign.db is an SQLite database but not a gemmbench results store \(left as it was\)" \
    "$tmp/foreign.db"
"$sr" --sql "$tmp/wal.db" "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES(1);" \
    >/dev/null || bad "sqlite"
every_command "wal.db is an SQLite database but not a gemmbench results store" "$tmp/wal.db"
# Not SQLite at all.
printf 'results: none yet\n' >"$tmp/text.db"
every_command "text.db is not an SQLite database, so not a gemmbench results store" "$tmp/text.db"

# Empty: refused by the commands that only read; a command that stores points adopts it
# (docs/results-store.md): an empty file holds nothing to lose.
: >"$tmp/zero.db"
for c in "store info" "store list" "store check"; do
    # shellcheck disable=SC2086
    expect2 "zero.db is an empty file, not a gemmbench results store" $c --store "$tmp/zero.db"
done
expect2 "zero.db is an empty file" export --store "$tmp/zero.db"
expect2 "zero.db is an empty file" report --store "$tmp/zero.db"
[ ! -s "$tmp/zero.db" ] && ok || bad "a refused empty file was written"
"$gb" import "$tmp/good.json" --store "$tmp/zero.db" >"$tmp/out" 2>&1 && ok ||
    bad "import into an empty file: $(cat "$tmp/out")"
"$gb" store info --store "$tmp/zero.db" 2>&1 | grep -q "^points: 3" && ok || bad "adopted empty file"
# An SQLite database without a table (what a creation killed before its schema leaves).
"$sr" --sql "$tmp/notable.db" "PRAGMA journal_mode=WAL" >/dev/null || bad "sqlite"
cp "$tmp/notable.db" "$tmp/orig"
expect2 "notable.db is an empty SQLite database, not a gemmbench results store" store info \
    --store "$tmp/notable.db"
same "$tmp/notable.db" "$tmp/orig"
"$gb" import "$tmp/good.json" --store "$tmp/notable.db" >"$tmp/out" 2>&1 && ok ||
    bad "import into an SQLite database without tables: $(cat "$tmp/out")"

# An empty store path: SQLite would make it a temporary database and keep nothing.
for c in "store info" "export" "report"; do
    # shellcheck disable=SC2086
    expect2 "the store path is empty; give --store a file name" $c --store ""
done
expect2 "the store path is empty" import "$tmp/good.json" --store ""
# shellcheck disable=SC2086
expect2 "the store path is empty" run -k naive $small --store ""
grep -q "stored" "$tmp/out" && bad "run said it stored into an empty path" || ok
# shellcheck disable=SC2086
expect2 "the store path is empty" explore -k naive $small --store ""

# Truncated stores: in the middle of a page, and at a page boundary.
"$sr" --make-many "$tmp/many.db" 40 >/dev/null || bad "making a store"
head -c 10000 "$tmp/many.db" >"$tmp/cut.db"
every_command "cut.db is damaged \(10000 bytes, not a whole number of 4096-byte pages: truncated\?\); save what can be read with 'gemmbench export" \
    "$tmp/cut.db"
head -c 81920 "$tmp/many.db" >"$tmp/cut2.db"
cp "$tmp/cut2.db" "$tmp/orig"
expect2 "cut2.db is damaged .*; save what can be read" store info --store "$tmp/cut2.db"
expect2 "cut2.db is damaged .*; save what can be read" import "$tmp/good.json" --store "$tmp/cut2.db"
same "$tmp/cut2.db" "$tmp/orig"

# Damaged in the middle of a page of the points table: its root page (2, the first table made)
# is an interior page; its right-most child, a leaf, is zeroed from its middle to its end, where
# the last row's cell starts. The file is still whole pages of SQLite; quick_check finds it.
cp "$tmp/many.db" "$tmp/hurt.db"
root=$(od -An -tu1 -j 4096 -N1 "$tmp/hurt.db" | tr -d ' ')
leaf=$(od -An -tu1 -j 4104 -N4 "$tmp/hurt.db" | awk '{print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4}')
ltype=$(od -An -tu1 -j $(((leaf - 1) * 4096)) -N1 "$tmp/hurt.db" | tr -d ' ')
if [ "$root" -eq 5 ] && [ "$ltype" -eq 13 ]; then
    ok
else
    bad "page 2 should be an interior table page (5) over a leaf (13), got $root and $ltype"
fi
dd if=/dev/zero of="$tmp/hurt.db" bs=1 seek=$(((leaf - 1) * 4096 + 2048)) count=2048 conv=notrunc \
    2>/dev/null
cp "$tmp/hurt.db" "$tmp/hurt.orig"
regex="hurt.db is damaged \(SQLite quick_check: .*\); save what can be read with 'gemmbench export --store .*hurt.db --out saved.json'"
expect2 "$regex" import "$tmp/good.json" --store "$tmp/hurt.db"
# shellcheck disable=SC2086
expect2 "$regex" run -k naive $small --store "$tmp/hurt.db"
# shellcheck disable=SC2086
expect2 "$regex" explore -k naive $small --store "$tmp/hurt.db"
expect2 "$regex" store info --store "$tmp/hurt.db"
"$gb" store check --store "$tmp/hurt.db" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "SQLite integrity check failed" "$tmp/out" && ok ||
    bad "store check of a damaged store: $(cat "$tmp/out")"
same "$tmp/hurt.db" "$tmp/hurt.orig"

# --out never replaces the store, whatever the name it is given by, nor an SQLite database.
cp "$tmp/many.db" "$tmp/keep.db"
cp "$tmp/keep.db" "$tmp/keep.orig"
ln -s "$tmp/keep.db" "$tmp/link.db"
ln "$tmp/keep.db" "$tmp/hard.db"
mkdir "$tmp/sub"
for out in "$tmp/keep.db" "$tmp/sub/../keep.db" "$tmp/link.db" "$tmp/hard.db" "$tmp/keep.db-wal"; do
    expect2 "is the results store .*keep.db.*give another --out" export --store "$tmp/keep.db" --out "$out"
    expect2 "is the results store .*keep.db.*give another --out" report --store "$tmp/keep.db" --out "$out"
done
expect2 "is the results store" export --store "$tmp/link.db" --out "$tmp/keep.db"
expect2 "many.db' is an SQLite database \(a results store\?\); gemmbench does not replace one" \
    export --store "$tmp/keep.db" --out "$tmp/many.db"
expect2 "is an SQLite database" report --store "$tmp/keep.db" --format csv --out "$tmp/many.db"
"$gb" store info --store "$tmp/keep.db" | grep -q "^points: 40" && ok || bad "the store lost points"
cmp -s "$tmp/keep.db" "$tmp/keep.orig" && ok || bad "the store file was changed by a refused --out"

# A bad import creates no store.
head -c 300 "$tmp/good.json" >"$tmp/cut.json"
expect2 "cut.json is not valid JSON" import "$tmp/cut.json" --store "$tmp/new.db"
cat "$tmp/good.json" "$tmp/good.json" >"$tmp/twice.json"
expect2 "twice.json: text after the JSON document" import "$tmp/twice.json" --store "$tmp/new.db"
[ ! -e "$tmp/new.db" ] && ok || bad "a failed import created the store"

# An export killed with SIGKILL while it writes leaves PATH.gemmbench-tmp.PID (never PATH); the
# next export of the same path removes it once its process is gone, and writes PATH whole.
"$sr" --make-many "$tmp/big.db" 2000 >/dev/null || bad "making a store"
"$gb" export --store "$tmp/big.db" --out "$tmp/big.json" >/dev/null 2>&1 &
pid=$!
n=0
while [ ! -e "$tmp/big.json.gemmbench-tmp.$pid" ] && [ "$n" -lt 500 ] && kill -0 "$pid" 2>/dev/null; do
    sleep 0.01
    n=$((n + 1))
done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if [ -e "$tmp/big.json.gemmbench-tmp.$pid" ]; then
    ok
    [ ! -e "$tmp/big.json" ] && ok || bad "a killed export left its output name"
else
    echo "note: the export ended before the kill; a stale temporary file is made by hand"
    : >"$tmp/big.json.gemmbench-tmp.$pid"
    rm -f "$tmp/big.json"
fi
"$gb" export --store "$tmp/big.db" --out "$tmp/big.json" >"$tmp/out" 2>&1 || bad "export again"
grep -q "exported 2000 points" "$tmp/out" && ok || bad "second export: $(cat "$tmp/out")"
[ -z "$(ls "$tmp" | grep gemmbench-tmp)" ] && ok || bad "stale temporary files: $(ls "$tmp")"
"$gb" import "$tmp/big.json" --store "$tmp/big2.db" >"$tmp/out" 2>&1 &&
    grep -q "imported 2000 new points" "$tmp/out" && ok || bad "re-import: $(cat "$tmp/out")"

# ---- one damaged row of the tuning database hides nothing else ----------------------------------
# The fixture's three tuned entries; the second (row 2: the H100's, in double precision) damaged
# by one edit of its row. `store check` names it (exit 1) and says how to mend it; `store info`
# counts it; `tuned list`, `show`, `export` and `report` pass it over with a warning that names
# it and show and export the other two; an export of them imports into a new store; where the
# row's key is whole, `tuned import` of the fixture replaces it, and the store checks clean.
export GEMMBENCH_TUNED="$tmp/none.tuned" GEMMBENCH_CHOICES="$tmp/choices"
fx=$(dirname "$0")/fixtures/tuned/entries.json
esc=$(printf '\033')
# damaged SET SAYS KEY: the fixture's store with its row 2 set by SQL SET; SAYS (an extended
# regex) is what is wrong, KEY 1 where the damage leaves the key whole.
damaged() {
    db=$tmp/td.db
    rm -f "$db" "$db"-* "$db.tuned" "$tmp/td.json" "$tmp/td2.db"
    "$gb" tuned import "$fx" --store "$db" >/dev/null 2>&1 || bad "importing the fixture"
    "$sr" --sql "$db" "UPDATE tuned SET $1 WHERE rowid = 2" >/dev/null || bad "damaging: $1"
    what="tuned entry 'NVIDIA H100 80GB HBM3' \(d, row-NN, square-4096\)"
    case $1 in device* | precision* | layout* | shape_class*) what="tuned entry '.*' \(.*\)" ;; esac
    "$gb" store check --store "$db" >"$tmp/out" 2>&1
    if [ $? -eq 1 ] && grep -Eq "^damaged: $what \(table tuned, row 2\): .*$2" "$tmp/out" &&
        grep -Eq "^tuning data: 3 rows checked, 1 damaged \(above\); the others are read as before.*gemmbench tuned export --store .*td.db --out tuned.json" "$tmp/out" &&
        ! grep -q "$esc" "$tmp/out"; then ok; else bad "$1: store check: $(cat "$tmp/out")"; fi
    "$gb" store info --store "$db" >"$tmp/out" 2>&1 &&
        grep -q "^tuned entries: 3 (1 damaged: 'gemmbench store check' names it)$" "$tmp/out" && ok ||
        bad "$1: store info: $(cat "$tmp/out")"
    "$gb" tuned list --store "$db" >"$tmp/out" 2>"$tmp/err" &&
        [ "$(grep -c '^  [0-9]  ' "$tmp/out")" -eq 2 ] && grep -q "^2 tuned entries in " "$tmp/out" &&
        grep -Eq "^gemmbench: warning: store .*td.db: $what is damaged \(.*$2.*\) and passed over; .*'gemmbench store check --store .*td.db' names each damaged row$" "$tmp/err" &&
        ! grep -q "$esc" "$tmp/out" "$tmp/err" && ok || bad "$1: tuned list: $(cat "$tmp/out" "$tmp/err")"
    "$gb" tuned show 2 --store "$db" >"$tmp/out" 2>"$tmp/err" && grep -q "^tuned entry 2 of 2 in " "$tmp/out" &&
        grep -q "is damaged" "$tmp/err" && ok || bad "$1: tuned show: $(cat "$tmp/out" "$tmp/err")"
    "$gb" tuned export --store "$db" --out "$tmp/td.json" >"$tmp/out" 2>"$tmp/err" &&
        grep -q "^exported 2 tuned entries from .*td.db to " "$tmp/out" && grep -q "is damaged" "$tmp/err" &&
        "$gb" tuned import "$tmp/td.json" --store "$tmp/td2.db" >"$tmp/out" 2>&1 &&
        grep -q ": 2 new, 0 replaced, 0 unchanged$" "$tmp/out" && ok || bad "$1: tuned export and import: $(cat "$tmp/out" "$tmp/err")"
    "$gb" report --store "$db" --table tuned >"$tmp/out" 2>"$tmp/err" && grep -q "is damaged" "$tmp/err" &&
        grep -q "^tuning data: 2 tuned entries" "$tmp/out" && ok || bad "$1: report: $(cat "$tmp/out" "$tmp/err")"
    if [ "$3" = 1 ]; then
        grep -Eq "tuning its class again or 'gemmbench tuned import' of an entry of its key replaces it" "$tmp/err" &&
            ok || bad "$1: the warning says how to mend the entry: $(cat "$tmp/err")"
        "$gb" tuned import "$fx" --store "$db" >"$tmp/out" 2>&1 &&
            grep -q ": 0 new, 1 replaced (1 of them damaged), 2 unchanged$" "$tmp/out" &&
            "$gb" store check --store "$db" >"$tmp/out" 2>&1 && grep -q "^tuning data: 3 rows checked, all consistent$" "$tmp/out" &&
            ok || bad "$1: tuned import replaces the damaged entry: $(cat "$tmp/out")"
    else
        grep -q "its key is damaged too, so that no entry replaces it" "$tmp/err" && ok ||
            bad "$1: the warning says the key is damaged: $(cat "$tmp/err")"
    fi
}
damaged "params = 'MWG'" "column params: 'MWG' is not NAME=V NAME=V" 1
damaged "params = 'MWG=x'" "column params: 'MWG=x' is not NAME=V NAME=V" 1
damaged "params = 'MWG=1 MWG=2'" "column params: 'MWG=1 MWG=2' is not NAME=V NAME=V" 1
damaged "params = 'MWG=99999999999999999999'" "column params: 'MWG=99999999999999999999' is not" 1
damaged "params = printf('%.*c', 1048576, 'M') || '=1'" "column params: 'MMM.*' \(1048578 bytes\) is longer than gemmbench writes" 1
damaged "m = 18446744073709551616" "column m: 1.8446744073709552e\+19 is not a whole number from 1 to 1073741824" 1
damaged "m = -4096" "column m: -4096 is not a whole number" 1
damaged "m = 'abc'" "column m: abc is not a whole number" 1
damaged "precision = 'q'" "column precision: 'q' is not s, d, h, b, c, z or hh" 0
damaged "layout = 'row-XY'" "bad layout" 0
damaged "shape_class = 'weird'" "bad shape_class 'weird' \(the shape 4096x4096x4096 is of class square-4096\)" 0
damaged "device = ''" "bad device \(empty\)" 0
damaged "device = 'H100' || char(27) || '[2J'" "bad device \(a control character or invalid UTF-8" 0
damaged "device = CAST(X'48313030ff' AS TEXT)" "bad device \(a control character or invalid UTF-8" 0
damaged "device = CAST(X'4831003030' AS TEXT)" "column device: 'H1' holds a NUL byte" 0
damaged "kernel = ''" "bad kernel \(empty\)" 1
damaged "kernel = X'00'" "column kernel: a blob, not text" 1
damaged "type = 'quantum'" "bad type" 1
damaged "vendor = 'NVIDIA' || char(7)" "bad vendor \(a control character" 1
damaged "family = printf('%.64c', 'f')" "column family: 'fff.*' \(64 bytes\) is longer" 1
damaged "gflops = 'fast'" "column gflops: 'fast' is not a number" 1
damaged "gflops = -1" "bad gflops" 1
damaged "evidence = 'nothex'" "column evidence: 'nothex' is not at most 8 point ids" 1
damaged "tuned_at = printf('%.40c', 'T')" "column tuned_at: 'TTT.*' \(40 bytes\) is longer" 1

# -k auto reads the other entries and says what it passed over; a tuning of the damaged entry's
# class replaces it (the device's own entry, made by a first tuning).
db=$tmp/auto.db
"$gb" tune -k naive -n 64 --budget 2 -i 2 --store "$db" >"$tmp/out" 2>&1 || bad "tune: $(cat "$tmp/out")"
"$sr" --sql "$db" "UPDATE tuned SET params = 'LX=x'" >/dev/null || bad "damaging"
# shellcheck disable=SC2086
"$gb" run -k auto $small --store "$db" >"$tmp/out" 2>"$tmp/err" &&
    grep -q "^gemmbench: warning: store .*auto.db: tuned entry .* is damaged (column params: 'LX=x'" "$tmp/err" &&
    ok || bad "run -k auto on a store with a damaged entry: $(cat "$tmp/out" "$tmp/err")"
"$gb" tune -k naive -n 64 --budget 2 -i 2 --store "$db" >"$tmp/out" 2>&1 &&
    grep -q "tuning database: replaces the damaged entry for small-64 s row-NN on " "$tmp/out" &&
    "$gb" store check --store "$db" >"$tmp/out" 2>&1 && ok || bad "tune replaces a damaged entry: $(cat "$tmp/out")"

# Many damaged rows: the first three named, then how many more; the history's rows too.
"$gb" tuned import "$fx" --store "$tmp/many.db" >/dev/null 2>&1 || bad "import"
"$sr" --sql "$tmp/many.db" "UPDATE tuned SET gflops = 'x'" >/dev/null || bad "damaging"
"$gb" tuned list --store "$tmp/many.db" >"$tmp/out" 2>"$tmp/err" &&
    [ "$(grep -c "is damaged" "$tmp/err")" -eq 3 ] && grep -q "^no tuned entries in " "$tmp/out" && ok ||
    bad "three damaged entries: $(cat "$tmp/out" "$tmp/err")"
"$sr" --sql "$tmp/many.db" "UPDATE tuned SET gflops = 1 WHERE rowid = 1" >/dev/null || bad "mending"
"$gb" tuned export --store "$tmp/many.db" >"$tmp/out" 2>"$tmp/err" &&
    [ "$(grep -c '"device":' "$tmp/out")" -eq 1 ] && [ "$(grep -c "is damaged" "$tmp/err")" -eq 2 ] && ok ||
    bad "export of one good entry among damaged ones: $(cat "$tmp/out" "$tmp/err")"

# The advice of a damaged store saves the tuned entries too, and is followed: the store of the
# damaged points page above, with the fixture's entries, exports and imports them.
cp "$tmp/many.db" "$tmp/saved.db"
"$gb" tuned import "$fx" --store "$tmp/saved.db" >/dev/null 2>&1 || bad "import"
dd if=/dev/zero of="$tmp/saved.db" bs=1 seek=$(((leaf - 1) * 4096 + 2048)) count=2048 conv=notrunc \
    2>/dev/null
"$gb" store check --store "$tmp/saved.db" >"$tmp/out" 2>&1
[ $? -eq 1 ] && grep -q "SQLite integrity check failed" "$tmp/out" &&
    grep -q "^tuning data: 3 rows checked, all consistent$" "$tmp/out" && ok ||
    bad "store check of a damaged store with tuning data: $(cat "$tmp/out")"
"$gb" tuned export --store "$tmp/saved.db" --out "$tmp/saved.json" >"$tmp/out" 2>&1 &&
    "$gb" tuned import "$tmp/saved.json" --store "$tmp/saved2.db" >"$tmp/out" 2>&1 &&
    grep -q ": 3 new, 0 replaced, 0 unchanged$" "$tmp/out" && ok ||
    bad "the tuned entries of a damaged store saved: $(cat "$tmp/out")"
expect2 "hurt.db is damaged .*; save what can be read with 'gemmbench export --store .*hurt.db --out saved.json' and 'gemmbench tuned export --store .*hurt.db --out tuned.json', then 'gemmbench import saved.json --store NEW' and 'gemmbench tuned import tuned.json --store NEW', or restore a copy" \
    store info --store "$tmp/hurt.db"

finish
