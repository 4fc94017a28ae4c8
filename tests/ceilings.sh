#!/bin/sh
# ceilings.sh GEMMBENCH: `gemmbench ceilings` on the default device measures the host-device
# copies for each kind of host memory over a sweep of sizes (for mapped memory, which PoCL's
# device shares, the unmap and map that hand it over), and reads alone of 4 MiB and up (a short
# stream's fixed cost and rate), prints the sweeps, and stores the
# plateaus beside the peak and bandwidth, where `run` still finds them. The FMA chains are as wide
# as the device's native vectors where those are wider than 256 bits, and a row above the
# measured peak is said.
gb=$1
. "$(dirname "$0")/script_lib.sh"
"$gb" ceilings --store "$tmp/c.db" >"$tmp/table.txt" 2>&1 || fail "ceilings"
grep -q "^host-device copies, GB/s" "$tmp/table.txt" || fail "the copies' section"
[ "$(grep -c "^ *[0-9]\{5,\}  " "$tmp/table.txt")" -ge 5 ] || fail "a sweep of at least 5 sizes"
grep -q "^ *ceiling .*(the plateau" "$tmp/table.txt" || fail "the plateau line"
"$gb" ceilings --json --no-store >"$tmp/json.txt" 2>&1 || fail "ceilings --json"
grep -q "mapped: unmap / map, us (no copy)" "$tmp/table.txt" ||
    fail "the mapped column says what it measures"
for kind in pageable pinned mapped; do
    grep -q "\"$kind\":" "$tmp/json.txt" || fail "JSON must have the $kind copies"
done
[ "$(grep -c '"bytes":' "$tmp/json.txt")" -ge 17 ] || fail "JSON must have the four sweeps"
# Reads alone at 4 MiB and up by 4, each timed, and the line through the two largest.
grep -q "^reads alone, us: 4 MiB [0-9.]*, 16 MiB [0-9.]*" "$tmp/table.txt" || fail "the reads' line"
python3 - "$tmp/json.txt" <<'PY' || fail "the reads in JSON"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["reads"]
assert len(r) >= 2 and r[0]["bytes"] == 4 << 20, r
assert all(b["bytes"] == 4 * a["bytes"] for a, b in zip(r, r[1:])), r
assert all(x["us"] > 0 for x in r), r
assert d["read_fixed_us"] >= 0, d["read_fixed_us"]
# The line passes through the largest read at a positive rate.
big = r[-1]
assert d["read_gbs"] > 0, d["read_gbs"]
assert abs(d["read_fixed_us"] + big["bytes"] / (d["read_gbs"] * 1e3) - big["us"]) <= 1e-6 * big["us"], d
assert "reads: float4 a work-item, 4 MiB to" in d["method"], d["method"]
PY
# Every rate in the JSON is positive.
if grep -E '"(h2d|d2h)":[[:space:]]*(0|-)' "$tmp/json.txt" >/dev/null; then
    fail "a copy rate of 0 or less"
fi
# The FMA chains follow the device's native vector width where it is wider than 256 bits (an
# AVX-512 CPU: 16 floats, 8 doubles), else 256 bits: 8 chains of that many lanes per work-item.
w=$("$gb" devices | sed -n 's/.* native float \([0-9]*\) double \([0-9]*\);.*/\1 \2/p' | head -n 1)
lanes() { if [ "$1" -gt "$2" ] && [ "$1" -le 16 ]; then echo $((8 * $1)); else echo $((8 * $2)); fi; }
want="FMA chains: $(lanes "${w% *}" 8) (S) or $(lanes "${w#* }" 4) (D) lanes per work-item"
grep -q "\"method\":.*$want" "$tmp/json.txt" || fail "the chains' width: want '$want'"
"$gb" run -k naive -n 32 -i 2 --store "$tmp/c.db" >"$tmp/run.txt" 2>&1 || fail "run on the store"
grep -q "^measured peak (gemmbench ceilings, " "$tmp/run.txt" &&
    grep -q "^copies' ceiling from pageable host memory (gemmbench ceilings): " "$tmp/run.txt" ||
    fail "run must read the stored ceilings, the copies' among them"
"$gb" run -k naive -n 32 -i 2 --host-mem mapped --store "$tmp/c.db" >"$tmp/run2.txt" 2>&1 ||
    fail "run mapped on the store"
! grep -q "^copies' ceiling from" "$tmp/run2.txt" || fail "mapped memory has no copies' ceiling"
# A row above the measured peak says so (the peak lowered in the store where sqlite3 is here).
if command -v sqlite3 >/dev/null 2>&1; then
    sqlite3 "$tmp/c.db" "UPDATE ceilings SET peak_s = 0.0001" || fail "lowering the stored peak"
    "$gb" run -k naive -n 32 -i 2 --store "$tmp/c.db" >"$tmp/run3.txt" 2>&1 || fail "run again"
    grep -q "^meas%: 1 row is above the peak 'gemmbench ceilings' measured" "$tmp/run3.txt" ||
        fail "a row above the measured peak must be said"
fi
echo "ceilings: ok"
