#!/bin/sh
# bench/thin-lines.sh: a kernel's fixed cost and rate on a memory-bound shape. Runs each
# configuration at K, 2K and 4K (everything else the same) and prints, per configuration, its
# times, the line through the first and last (us fixed + GB/s past it, over the bytes the shape
# must move: A, B and C read once, C written), where there are helper passes the main kernel's
# line apart from them and their times, and the line of `gemmbench ceilings`' reads alone
# beside it. One time says how fast a call is; the line says whether a change moved its start
# and end or its stream (bench/notes/thin.md#thin-lines).
#   BUILD     the build folder (default /tmp/gemmbench-build; configured and built if needed)
#   PLATFORM  the platform's name (default NVIDIA)
#   PREC      the precision (default s)
#   M N K     the shape at its smallest K (default 16 4096 4096)
#   KERNEL    what to run (default auto), and ARGS more run options: --param lists make several
#             configurations, each drawn apart (--param SPLITK=6,12 --param FIXUP=0,1)
#   ITER      timed calls (default 20); every point is validated
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gemmbench-build}
platform=${PLATFORM:-NVIDIA}
prec=${PREC:-s}
m=${M:-16} n=${N:-4096} k=${K:-4096}
. "$root/bench/bench_lib.sh"
[ -x "$build/gemmbench" ] || bench_build "$root" "$build"
g=$build/gemmbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$g" ceilings -p "$platform" --no-store --json >"$tmp/ceil.json"
# shellcheck disable=SC2086
"$g" run -p "$platform" -k "${KERNEL:-auto}" --precision "$prec" -M "$m" -N "$n" \
    -K "$k,$((2 * k)),$((4 * k))" ${ARGS:-} -i "${ITER:-20}" --warmup 2 --no-store --json \
    >"$tmp/run.json"
python3 - "$tmp/run.json" "$tmp/ceil.json" "$prec" "$root/bench" <<'PY'
import collections, json, sys
rows, ceil, prec = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, sys.argv[4])
from thin_bytes import shape_bytes
print("reads alone (gemmbench ceilings): %.1f us + %.0f GB/s; the bound's bandwidth: %.0f GB/s" % (
    ceil["read_fixed_us"], ceil["read_gbs"], ceil["bandwidth_gbs"]))
by = collections.defaultdict(list)
for r in rows:  # a configuration: its kernel and build options, the sizes apart
    by[(r["kernel"], r.get("build_options") or "")].append(r)
for (kernel, opts), rs in by.items():
    rs.sort(key=lambda r: r["K"])
    bytes_ = [shape_bytes(r["M"], r["N"], r["K"], prec) for r in rs]
    med = lambda r, what: r["time_ms"][what]["median"] * 1e3 if r["time_ms"].get(what) else 0.0

    def line(ts):  # through the first and last point: us fixed + GB/s past it
        (b0, t0), (b1, t1) = (bytes_[0], ts[0]), (bytes_[-1], ts[-1])
        rate = (b1 - b0) / (t1 - t0) if len(ts) > 1 and t1 > t0 else 0  # bytes a us
        return "%.1f us + %.0f GB/s" % (t0 - b0 / rate, rate / 1e3) if rate else "none"
    ops = [med(r, "ops") for r in rs]
    times = "  ".join("K %d %.1f us %s" % (r["K"], t, r.get("validation", {}).get("outcome", "-"))
                      for r, t in zip(rs, ops))
    # The helper passes are commands of their own: the main kernel's line apart from them.
    helpers = [med(r, "helpers") for r in rs]
    apart = ("; main kernel %s, helpers %s us" % (line([med(r, "main") for r in rs]),
             "/".join("%.1f" % h for h in helpers))) if any(helpers) else ""
    print("%s %s\n    %s  line %s%s" % (kernel, opts, times, line(ops), apart))
PY
