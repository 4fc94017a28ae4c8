#!/bin/sh
# bench/energy.sh: what tuning for energy saves against tuning for time, on an NVIDIA GPU with
# NVML. For each precision and size, one kernel family is tuned at the square shape twice, with
# --objective time and --objective energy (docs/tuning.md, "Objectives"), into one store; then
# each winner is run as -k auto runs it (--objective time, then energy; the table's choice) with
# the energy loop, so both are measured the same way in the same session. Prints, per class, each
# winner's J per GEMM and ms per GEMM, and the ratios: the time winner's joules over the energy
# winner's (the saving), the energy winner's time over the time winner's (what it costs); a short
# table last. Measures; writes no note (bench/notes/README.md says how to record one).
#   BUILD     the build folder (default /tmp/gemmbench-build; configured and built if needed)
#   LOG       where the store and each command's output go (default /tmp/energy)
#   PLATFORM  the platform's name (default NVIDIA)
#   PRECS     precisions (default "s d")
#   SIZES     square orders (default "4096 8192")
#   KERNEL_S, KERNEL_D  the family tuned per precision (default xgemm_nv for both)
#   BUDGET    evaluations per tuning besides the presets (default 40)
#   MIN_S     the energy loop's seconds per measurement (GEMMBENCH_ENERGY_MIN_S, default 1)
#   ITER      timed calls per measurement (default 10)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gemmbench-build}
log=${LOG:-/tmp/energy}
platform=${PLATFORM:-NVIDIA}
precs=${PRECS:-"s d"}
sizes=${SIZES:-"4096 8192"}
budget=${BUDGET:-40}
iter=${ITER:-10}
export GEMMBENCH_ENERGY_MIN_S=${MIN_S:-1}
. "$root/bench/bench_lib.sh"
[ -x "$build/gemmbench" ] || bench_build "$root" "$build"
g=$build/gemmbench
mkdir -p "$log"
db=$log/energy.db
# The store's entries alone: no user's tuning file, no choice measured before.
export GEMMBENCH_TUNED="$log/none.tuned" GEMMBENCH_CHOICES="$log/none.choices"
export GEMMBENCH_SELECT=off
"$g" devices | grep -m 3 -i "$platform" || true
table=$log/table.tsv
: >"$table"
for p in $precs; do
    case $p in s) kernel=${KERNEL_S:-xgemm_nv} ;; *) kernel=${KERNEL_D:-xgemm_nv} ;; esac
    for n in $sizes; do
        for o in time energy; do
            cmd="$g tune -p $platform -k $kernel -n $n --precision $p --objective $o --budget $budget -i $iter --store $db"
            echo "\$ GEMMBENCH_ENERGY_MIN_S=$GEMMBENCH_ENERGY_MIN_S $cmd"
            $cmd >"$log/tune-$p-$n-$o.txt" 2>&1 || { tail -3 "$log/tune-$p-$n-$o.txt"; exit 3; }
            grep -E "winner:|tuning database:" "$log/tune-$p-$n-$o.txt"
        done
        for o in time energy; do
            cmd="$g run -p $platform -k auto -n $n --precision $p --objective $o -i $iter --store $db --no-store --json"
            echo "\$ GEMMBENCH_SELECT=off GEMMBENCH_ENERGY_MIN_S=$GEMMBENCH_ENERGY_MIN_S $cmd"
            $cmd >"$log/run-$p-$n-$o.json" 2>"$log/run-$p-$n-$o.err" ||
                { tail -3 "$log/run-$p-$n-$o.err"; exit 3; }
        done
        python3 - "$log/run-$p-$n-time.json" "$log/run-$p-$n-energy.json" "$p" "$n" >>"$table" <<'PY'
import json, sys
def winner(path):
    r = json.load(open(path))[0]
    e = r.get("energy", {})
    j = e.get("joules_per_call")
    if j is None:
        sys.exit("%s: energy unavailable (%s)" % (path, e.get("unavailable", "?")))
    flop = 2.0 * r["M"] * r["N"] * r["K"]
    params = [o[2:] for o in r.get("build_options", "").split()
              if o.startswith("-D") and not o.startswith("-DGB_")]
    return j, flop / r["gflops"] * 1e-6, r["kernel"], " ".join(params)
jt, mt, kt, pt = winner(sys.argv[1])
je, me, ke, pe = winner(sys.argv[2])
print("%s\t%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.3f\t%.3f\t%s %s\t%s %s" % (
    sys.argv[3], sys.argv[4], jt, mt, je, me, jt / je, me / mt, kt, pt, ke, pe))
PY
        tail -1 "$table" | awk -F'\t' '{ printf "%s %s: time winner %s J, %s ms (%s); energy winner %s J, %s ms (%s); saves %.1f%% of the joules at %.3fx the time\n", $1, $2, $3, $4, $9, $5, $6, $10, 100 * (1 - 1 / $7), $8 }'
    done
done
echo
echo "Per GEMM, each winner run by -k auto with the energy loop ($GEMMBENCH_ENERGY_MIN_S s); J_t/J_e: the saving, t_e/t_t: its cost in time"
printf '%-4s %-6s %12s %12s %12s %12s %8s %8s\n' prec order "J (time)" "ms (time)" "J (energy)" "ms (energy)" "J_t/J_e" "t_e/t_t"
awk -F'\t' '{ printf "%-4s %-6s %12s %12s %12s %12s %8s %8s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$table"
