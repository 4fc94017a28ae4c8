#!/bin/sh
# roofline.sh GEMMBENCH: the declared memory traffic of a point (docs/kernel-metadata.md,
# "Memory traffic") on the default device (PoCL). run --json gives naive's "traffic" with its
# bytes counted by hand (32 x 32 x 32 in single precision: a row of A and a column of B per
# element of C, and C itself, read; C written), its intensity and rates, and null for a family
# without a declaration and for a library peer; the text row shows FLOP/B and GB/s, and a line
# says what they count.
gb=$1
. "$(dirname "$0")/script_lib.sh"

"$gb" run -k naive,intel_naive,openblas -n 32 -i 2 --warmup 0 --json --no-store \
    >"$tmp/json.txt" 2>&1 || fail "run --json"
# The three items in order: naive's traffic, then null twice.
awk '/"traffic":/ { n++; t[n] = $0 } END {
        exit !(n == 3 && t[1] ~ /\{/ && t[2] ~ /null/ && t[3] ~ /null/) }' "$tmp/json.txt" ||
    fail "run --json: traffic for naive, null for intel_naive and openblas"
read=$((4 * (2 * 32 * 32 * 32 + 32 * 32)))
grep -Eq "\"read_bytes\":[[:space:]]*$read,\$" "$tmp/json.txt" || fail "naive reads $read bytes"
grep -Eq '"write_bytes":[[:space:]]*4096,$' "$tmp/json.txt" || fail "naive writes 4096 bytes"
grep -Eq "\"bytes\":[[:space:]]*$((read + 4096)),\$" "$tmp/json.txt" || fail "bytes = read + write"
# intensity = 2*32^3 / 270336 = 0.2424...
grep -Eq '"intensity":[[:space:]]*0\.2424242' "$tmp/json.txt" || fail "naive's intensity"
for key in GBps gflops_kernel; do
    grep -Eq "\"$key\":[[:space:]]*[1-9][0-9]*(\.[0-9]+)?(e[-+]?[0-9]+)?,\$|\"$key\":[[:space:]]*0\.0*[1-9]" \
        "$tmp/json.txt" || fail "a positive $key"
done
grep -q '"model":.*not DRAM traffic' "$tmp/json.txt" || fail "the model is said"

"$gb" run -k naive,intel_naive -n 32 -i 2 --warmup 0 --no-store >"$tmp/run.txt" 2>&1 ||
    fail "run"
grep -Eq '^naive .*  traffic: 0\.242 FLOP/B [0-9.e+-]+ GB/s$' "$tmp/run.txt" ||
    fail "the row of naive shows its FLOP/B and GB/s"
grep -E '^intel_naive ' "$tmp/run.txt" | grep -q "traffic" && fail "intel_naive declares none"
grep -q '^traffic: FLOP/B = 2\*M\*N\*K / the bytes' "$tmp/run.txt" || fail "the traffic note"
echo "roofline: ok"
