#!/bin/sh
# transfers.sh GEMMBENCH: how the operands travel, on the default device (PoCL, which works in
# the host's memory). --host-mem mapped: zero-copy, validated, stored as a point of its own
# beside pinned, exported, imported and replayed; refused (exit 2, nothing stored) on a device
# that does not share host memory and for a library peer. --pipeline: odd sizes in both layouts,
# transposed, with helper passes, each validated and stored with its own id after the serial
# offload of the same point; more panels than rows clamped; replayed; explored and resumed; and
# refused without --timing offload, with 1 panel, with mapped memory, for a host library.
gb=$1
. "$(dirname "$0")/script_lib.sh"
db="$tmp/t.db"
ids() { sed -n 's/.*"id":[[:space:]]*"\([0-9a-f]*\)".*/\1/p' "$1"; }

# ---- mapped --------------------------------------------------------------------------------
"$gb" run -k xgemm -n 64 -i 2 --host-mem mapped --json --store "$db" >"$tmp/mapped.txt" 2>&1 ||
    fail "run --host-mem mapped"
grep -q '"host_mem":[[:space:]]*"mapped"' "$tmp/mapped.txt" &&
    grep -q '"verdict":[[:space:]]*"pass"' "$tmp/mapped.txt" &&
    grep -q '"route":[[:space:]]*"[^"]*zero-copy"' "$tmp/mapped.txt" ||
    fail "a mapped point validates and says it ran zero-copy"
"$gb" run -k xgemm -n 64 -i 2 --host-mem pinned --json --store "$db" >"$tmp/pinned.txt" 2>&1 ||
    fail "run --host-mem pinned"
mapped=$(ids "$tmp/mapped.txt")
pinned=$(ids "$tmp/pinned.txt")
[ -n "$mapped" ] && [ -n "$pinned" ] && [ "$mapped" != "$pinned" ] ||
    fail "mapped and pinned are two points ($mapped, $pinned)"
"$gb" run -k xgemm -n 64 -i 2 --host-mem mapped --no-store >"$tmp/table.txt" 2>&1 ||
    fail "run --host-mem mapped, table"
grep -q "^mapped: zero-copy" "$tmp/table.txt" && grep -q "(native; zero-copy)" "$tmp/table.txt" ||
    fail "the table says what mapped does"
"$gb" export --store "$db" --out "$tmp/t.json" >/dev/null 2>&1 || fail "export"
[ "$(grep -c '"host_mem":[[:space:]]*"mapped"' "$tmp/t.json")" -eq 1 ] ||
    fail "the export holds the mapped point as mapped"
"$gb" import "$tmp/t.json" --store "$tmp/back.db" >"$tmp/import.txt" 2>&1 &&
    "$gb" store check --store "$tmp/back.db" >"$tmp/check.txt" 2>&1 ||
    fail "the export imports into a consistent store"
"$gb" store list --store "$tmp/back.db" >"$tmp/list.txt" 2>&1
grep -q "^$mapped " "$tmp/list.txt" || fail "the imported mapped point keeps its id"
"$gb" replay "$mapped" --store "$db" >"$tmp/replay.txt" 2>&1 || fail "replay of the mapped point"
grep -q "mapped host memory" "$tmp/replay.txt" &&
    grep -q "definition: identical here" "$tmp/replay.txt" &&
    grep -q "validation: pass" "$tmp/replay.txt" || fail "the replay measures it mapped again"
# A device apart from the host's memory (a discrete GPU) refuses it before measuring.
GEMMBENCH_DISABLE_HOST_UNIFIED=1 "$gb" run -k xgemm -n 64 --host-mem mapped \
    --store "$tmp/apart.db" >"$tmp/apart.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "does not share host memory; use --host-mem pinned or pageable" \
    "$tmp/apart.txt" && [ ! -e "$tmp/apart.db" ] ||
    fail "mapped on a device that does not share host memory: exit 2, nothing stored ($rc)"
"$gb" run -k gb -n 64 --host-mem mapped --store "$tmp/peer.db" >"$tmp/peer.txt" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "k gb computes in buffers of its own" "$tmp/peer.txt" &&
    [ ! -e "$tmp/peer.db" ] || fail "mapped for the library peer: exit 2 ($rc)"

# ---- pipeline --------------------------------------------------------------------------------
# Odd sizes, both layouts, transposed operands: the serial offload, then the pipelined one.
for case in "xgemm --layout row" "xgemm --layout col" "xgemm --layout row --transA T" \
    "xgemm --layout col --transB T --beta 0.5" "myGEMM6_32x32x32 --layout row"; do
    # shellcheck disable=SC2086
    "$gb" run -k $case -M 131 -N 77 -K 65 -i 2 --timing offload --pipeline --json \
        --store "$db" >"$tmp/pipe.txt" 2>&1 || fail "run --pipeline -k $case"
    [ "$(grep -c '"verdict":[[:space:]]*"pass"' "$tmp/pipe.txt")" -eq 2 ] ||
        fail "-k $case: the serial and the pipelined offload validate"
    grep -q '"pipeline":[[:space:]]*4,' "$tmp/pipe.txt" &&
        grep -q '"panels":[[:space:]]*4,' "$tmp/pipe.txt" &&
        grep -q '"pipeline_speedup":' "$tmp/pipe.txt" ||
        fail "-k $case: 4 panels, and the ratio to the serial offload"
    [ "$(ids "$tmp/pipe.txt" | sort -u | wc -l)" -eq 2 ] ||
        fail "-k $case: the pipelined point has an id of its own"
done
grep -q '"route":[[:space:]]*"[^"]*; 4 row panels of 40"' "$tmp/pipe.txt" ||
    fail "the route names the panels"
piped=$(ids "$tmp/pipe.txt" | tail -1)
"$gb" replay "$piped" --store "$db" >"$tmp/replay2.txt" 2>&1 || fail "replay of a pipelined point"
grep -q "pipeline of 4 panels" "$tmp/replay2.txt" &&
    grep -q "definition: identical here" "$tmp/replay2.txt" &&
    grep -q "validation: pass" "$tmp/replay2.txt" || fail "the replay pipelines it again"
"$gb" run -k xgemm -n 64 -i 2 --timing offload --pipeline 3 --no-store >"$tmp/ptable.txt" 2>&1 ||
    fail "run --pipeline 3, table"
grep -q "^pipeline: C in 3 panels" "$tmp/ptable.txt" &&
    grep -q "pipelined [0-9.e+-]* ms, serial [0-9.e+-]* ms: [0-9.]*x$" "$tmp/ptable.txt" ||
    fail "the table says the pipelined and serial times and their ratio"
# More panels than rows (or columns): one each.
"$gb" run -k naive -M 3 -N 16 -K 16 -i 2 --timing offload --pipeline 8 --json --no-store \
    >"$tmp/clamp.txt" 2>&1 || fail "run --pipeline 8 on 3 rows"
grep -q '"pipeline":[[:space:]]*8,' "$tmp/clamp.txt" && grep -q '"panels":[[:space:]]*3,' "$tmp/clamp.txt" &&
    [ "$(grep -c '"verdict":[[:space:]]*"pass"' "$tmp/clamp.txt")" -eq 2 ] ||
    fail "8 panels asked of 3 rows: 3 panels of one row, validated"
"$gb" run -k naive -M 16 -N 2 -K 16 --layout col -i 2 --timing offload --pipeline --json \
    --no-store >"$tmp/clamp2.txt" 2>&1 || fail "run --pipeline on 2 columns"
grep -q '"panels":[[:space:]]*2,' "$tmp/clamp2.txt" || fail "4 panels asked of 2 columns: 2"
# A sweep: stored once, found again by id.
"$gb" explore -k naive -n 16,33 -i 2 --timing offload --pipeline 2 --store "$tmp/x.db" \
    >"$tmp/x1.txt" 2>&1 && grep -q "explore: 2 measured and stored" "$tmp/x1.txt" ||
    fail "explore --pipeline"
"$gb" explore -k naive -n 16,33 -i 2 --timing offload --pipeline 2 --store "$tmp/x.db" \
    >"$tmp/x2.txt" 2>&1 && grep -q "2 already stored" "$tmp/x2.txt" ||
    fail "explore --pipeline again finds the points stored"
printf '{"kernels": ["naive"], "n": [16], "iterations": 2, "timing": "offload", "pipeline": 3}\n' \
    >"$tmp/plan.json"
"$gb" explore --plan "$tmp/plan.json" --store "$tmp/x.db" >"$tmp/x3.txt" 2>&1 &&
    grep -q "explore: 1 measured and stored" "$tmp/x3.txt" || fail "a plan file's pipeline"

# Refused before anything runs: one line, exit 2, no store.
refuse() { # refuse MESSAGE ARGS...: exit 2, the message, no store made
    want=$1
    shift
    "$gb" "$@" --store "$tmp/none.db" >"$tmp/bad.txt" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$want" "$tmp/bad.txt" && [ "$(wc -l <"$tmp/bad.txt")" -eq 1 ] &&
        [ ! -e "$tmp/none.db" ] || fail "'$*' must be refused with '$want' (exit $rc)"
}
refuse "pipeline overlaps the copies with the kernels, which only --timing offload times" \
    run -k naive -n 32 --pipeline
refuse "pipeline overlaps the copies with the kernels" explore -k naive -n 32 --pipeline 4
refuse "1 would overlap nothing" run -k naive -n 32 --timing offload --pipeline 1
refuse "host-mem mapped makes none" run -k naive -n 32 --timing offload --pipeline --host-mem mapped
refuse "k openblas computes on the host, with no copies to overlap" \
    run -k openblas -n 32 --timing offload --pipeline
refuse "k gb is a library call" run -k gb -n 32 --timing offload --pipeline
echo "transfers: ok"
