#!/bin/sh
# explore_replay.sh GEMMBENCH STORE_ROUNDTRIP: a freshly stored point replays (exit 0, both
# medians and the verdict printed), and names the revision it was stored by where another
# replays it; a point from a device this machine lacks, or an unknown id, gets one clear line and
# exit 2.
gb=$1
helper=$2
. "$(dirname "$0")/script_lib.sh"
db=$tmp/r.db
"$gb" run -k SGEMM_NT_4x1 -M 24 -N 16 -K 8 -i 3 --warmup 1 --seed 7 --dist int:3 --store "$db" --json \
    >"$tmp/run.txt" 2>&1 || fail "run"
id=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$tmp/run.txt")
[ "${#id}" -eq 16 ] || fail "run --json must give the stored point's id"
"$gb" replay "$id" --store "$db" >"$tmp/replay.txt" 2>&1 || fail "replay of a fresh point must exit 0"
grep -q "replay of point $id" "$tmp/replay.txt" || fail "replay header"
grep -q "definition: identical here" "$tmp/replay.txt" || fail "a fresh point is defined identically"
grep -q "stored: median .* ms .*95% CI of the mean \[" "$tmp/replay.txt" || fail "stored median and CI"
grep -q "replay: median .* ms" "$tmp/replay.txt" || fail "replay median"
grep -Eq "result: the replay's median is (INSIDE|OUTSIDE) the stored 95% CI" "$tmp/replay.txt" ||
    fail "verdict on the CI"
grep -q "validation: pass exact (stored: pass exact)" "$tmp/replay.txt" || fail "validation of both"
grep -q "timing ops, pageable host memory" "$tmp/replay.txt" || fail "replay says the host memory"
# The point names the revision the binary was built from (`gemmbench version`'s); a replay by
# another revision says so.
rev=$("$gb" version | sed -n 's/.*(revision \(.*\))$/\1/p')
"$gb" export --store "$db" --format json >"$tmp/export.json" 2>&1 || fail "export --format json"
grep -q "\"git_revision\":[[:space:]]*\"$rev\"" "$tmp/export.json" || fail "the point's revision is $rev"
grep -q "note: stored by" "$tmp/replay.txt" && fail "a replay by the same revision needs no note"
if command -v sqlite3 >/dev/null 2>&1; then
    cp "$db" "$tmp/old.db"
    sqlite3 "$tmp/old.db" "UPDATE points SET git_revision = 'abc1234' WHERE id = '$id'" ||
        fail "an older revision written"
    "$gb" replay "$id" --store "$tmp/old.db" >"$tmp/replay-old.txt" 2>&1 || fail "replay, old point"
    grep -q "note: stored by gemmbench .* (abc1234), replayed by .* ($rev)" "$tmp/replay-old.txt" ||
        fail "a replay by another revision names both"
fi
# The same point from pinned host memory: another point (host_mem is in its definition), stored
# as pinned, and replayed from pinned memory.
"$gb" run -k SGEMM_NT_4x1 -M 24 -N 16 -K 8 -i 3 --warmup 1 --seed 7 --dist int:3 --store "$db" --json \
    --host-mem pinned >"$tmp/pinned.txt" 2>&1 || fail "run --host-mem pinned"
pid=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$tmp/pinned.txt")
grep -q '"host_mem":[[:space:]]*"pinned"' "$tmp/pinned.txt" || fail "run --json says pinned"
tr -d ' \t\n' <"$tmp/pinned.txt" | grep -Eq '"copy_GBps":\{"h2d":[0-9.e+-]+,"d2h":[0-9.e+-]+\}' ||
    fail "run --json gives the copies' GB/s"
[ "${#pid}" -eq 16 ] && [ "$pid" != "$id" ] || fail "a pinned point is another point"
"$gb" export --store "$db" --format csv >"$tmp/export.txt" 2>&1 || fail "export"
grep -q "^$pid,.*,pinned," "$tmp/export.txt" || fail "the store keeps pinned"
grep -q "^$id,.*,pageable," "$tmp/export.txt" || fail "the store keeps pageable"
"$gb" replay "$pid" --store "$db" >"$tmp/replay-pinned.txt" 2>&1 || fail "replay of a pinned point"
grep -q "pinned host memory" "$tmp/replay-pinned.txt" || fail "replay of a pinned point says so"
grep -q "definition: identical here" "$tmp/replay-pinned.txt" ||
    fail "a pinned point replays from pinned memory"
# --cold: another point again, replayed cold.
"$gb" run -k SGEMM_NT_4x1 -M 24 -N 16 -K 8 -i 3 --warmup 1 --seed 7 --dist int:3 --store "$db" --json \
    --cold >"$tmp/cold.txt" 2>&1 || fail "run --cold"
cid=$(sed -n 's/.*"id":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$tmp/cold.txt")
grep -q '"cold":[[:space:]]*true' "$tmp/cold.txt" || fail "run --json says cold"
[ "${#cid}" -eq 16 ] && [ "$cid" != "$id" ] && [ "$cid" != "$pid" ] || fail "a cold point is another point"
"$gb" replay "$cid" --store "$db" >"$tmp/replay-cold.txt" 2>&1 || fail "replay of a cold point"
grep -q "pageable host memory, cold" "$tmp/replay-cold.txt" &&
    grep -q "definition: identical here" "$tmp/replay-cold.txt" || fail "a cold point replays cold"
# A unique prefix works too.
prefix=$(printf '%.6s' "$id")
"$gb" replay "$prefix" --store "$db" >"$tmp/prefix.txt" 2>&1 || fail "replay by prefix"

# A device this machine does not have.
foreign=$("$helper" --make-foreign "$db") || fail "making the foreign point"
"$gb" replay "$foreign" --store "$db" >"$tmp/foreign.txt" 2>"$tmp/foreign_err.txt"
[ $? -eq 2 ] || fail "replay on an absent device must exit 2"
grep -q "ran on device 'No Such Device 9000' (platform 'Test Platform'), which is not on this machine" \
    "$tmp/foreign_err.txt" || fail "absent device message"
[ "$(wc -l <"$tmp/foreign_err.txt")" -eq 1 ] || fail "one line on stderr"
"$gb" replay 0123456789abcdef --store "$db" >/dev/null 2>"$tmp/unknown.txt"
[ $? -eq 2 ] && grep -q "no point 0123456789abcdef in store" "$tmp/unknown.txt" || fail "unknown id"
"$gb" replay --store "$db" >/dev/null 2>"$tmp/none.txt"
[ $? -eq 2 ] && grep -q "give one point id" "$tmp/none.txt" || fail "missing id"
echo "replay: $id replayed; absent device and unknown id refused"
