#!/bin/sh
# phases.sh GEMMBENCH: what each timed call's ops phase is (docs/methodology.md), on the default
# device: the span of the call's device commands, so never less than the main kernel and the
# helper passes added (they run one after another on an in-order queue), more where there are
# gaps between them (there are on PoCL), and the main kernel's own time where the call is that
# one command.
gb=$1
. "$(dirname "$0")/script_lib.sh"

# The samples of the main, helpers and ops phases of the one point in JSON file $1, one line
# each: "main s1 s2 ...".
samples() {
    awk '
        /^\t\t\t"(main|helpers|ops)":\t\{/ { ph = $1; gsub(/[":]/, "", ph); next }
        /^\t\t\t"[a-z0-9_]+":\t\{/ { ph = "" }
        ph != "" && /"samples":/ {
            s = $0; sub(/.*\[/, "", s); sub(/\].*/, "", s); gsub(/,/, " ", s)
            print ph, s; ph = ""
        }' "$1"
}

# Padding passes before and after the main kernel (myGEMM6 pads 33 to its tiles).
"$gb" run -k myGEMM6 -n 33 -i 5 --json --no-store >"$tmp/padded.txt" 2>&1 || fail "run myGEMM6"
grep -q '"route":[[:space:]]*"native, pad to' "$tmp/padded.txt" || fail "myGEMM6 at 33 pads"
samples "$tmp/padded.txt" >"$tmp/padded-samples.txt"
awk '
    { n[$1] = NF - 1; for (i = 2; i <= NF; i++) v[$1, i] = $i }
    END {
        if (n["main"] != 5 || n["helpers"] != 5 || n["ops"] != 5) exit 1
        for (i = 2; i <= 6; i++) {
            if (v["helpers", i] <= 0) exit 1
            if (v["ops", i] < v["main", i] + v["helpers", i] - 1e-9) exit 1
            gaps += v["ops", i] > v["main", i] + v["helpers", i] + 1e-9
        }
        if (!gaps) exit 1 # the sum of the commands, not their span
    }' "$tmp/padded-samples.txt" ||
    fail "with helper passes, every ops sample is at least main + helpers, and some more (the gaps)"

# One command: ops is the main kernel's time.
"$gb" run -k xgemm -n 64 -i 5 --json --no-store >"$tmp/one.txt" 2>&1 || fail "run xgemm"
samples "$tmp/one.txt" >"$tmp/one-samples.txt"
awk '
    { n[$1] = NF - 1; for (i = 2; i <= NF; i++) v[$1, i] = $i }
    END {
        if (n["main"] != 5 || n["ops"] != 5) exit 1
        for (i = 2; i <= 6; i++)
            if (v["ops", i] != v["main", i] || v["main", i] <= 0) exit 1
    }' "$tmp/one-samples.txt" || fail "with one command, every ops sample is the main kernel's"
echo "ok"
