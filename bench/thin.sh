#!/bin/sh
# bench/thin.sh: GEMMs with a C of few rows or columns (decoding a few tokens through a layer),
# each shape's kernels and peers in one run, against the memory bound: the bytes the shape must
# move (A, B and C read once, C written) at the bandwidth 'gemmbench ceilings' measures on the
# device. Prints TFLOP/s, the fraction of that bound (three digits, so that 0.596 does not read
# as 0.60), the fraction of a read alone of the same bytes (the time ceilings' line of reads
# gives them over the row's time: a short stream's launch and ramp count there), and ours over
# the first peer.
#   BUILD     the build folder (default /tmp/gemmbench-build; configured and built if needed)
#   PLATFORM  the platform's name (default NVIDIA)
#   PRECS     precisions (default "s d"; c and z count 8MNK and their elements' bytes)
#   KERNELS   what to run besides the peers (default: thin_stream's, thin_cols' and thin_dot's presets
#             and auto; in c and z also the complex presets, beside the real ones by 1M)
#   PEERS     peers (default cublas; the first is the ratio's denominator)
#   SHAPES    "M N K[ options]" items separated by commas (default: the suite's thin shapes,
#             their transposes and a tile-straddling pair, bench/shapes.txt)
#   ITER      timed calls (default 20); every point is validated
# bench/notes/thin.md#thin-stream-h200 has what it measured.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gemmbench-build}
platform=${PLATFORM:-NVIDIA}
kernels=${KERNELS:-thin_stream_16,thin_stream_1,thin_stream_64,thin_cols_16,thin_cols_1,thin_dot_16,thin_dot_1,auto}
peers=${PEERS:-cublas}
iter=${ITER:-20}
shapes=${SHAPES:-"16 4096 4096,1 4096 4096,64 8192 8192,4096 16 4096,4096 1 4096,8192 64 8192,16 4096 4096 --transA T,16 4096 4096 --transB T,1 4096 4096 --transB T,64 8192 8192 --transB T,17 4099 1001,1 4097 4095,4099 17 1001"}
. "$root/bench/bench_lib.sh"
[ -x "$build/gemmbench" ] || bench_build "$root" "$build"
g=$build/gemmbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$g" ceilings -p "$platform" --no-store --json >"$tmp/ceil.json"
python3 - "$tmp/ceil.json" "$iter" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
print("memory bandwidth measured by gemmbench ceilings: %.1f GB/s; a read alone of b bytes: %.1f us"
      " + b at %.1f GB/s; %s calls after 2 warm-up, validated" % (
          c["bandwidth_gbs"], c["read_fixed_us"], c["read_gbs"], sys.argv[2]))
PY
for p in ${PRECS:-s d}; do
    ks=$kernels
    case $p in
    c | z)
        [ -n "${KERNELS:-}" ] || ks="thin_stream_16c,thin_stream_4c,thin_stream_1c,thin_dot_16c,thin_dot_1c,$ks"
        ;;
    esac
    echo "$shapes" | tr ',' '\n' | while read -r m n k opts; do
        # shellcheck disable=SC2086
        "$g" run -p "$platform" -k "$ks,$peers" --precision "$p" -M "$m" -N "$n" -K "$k" \
            $opts -i "$iter" --warmup 2 --no-store --json >"$tmp/run.json" 2>"$tmp/err" ||
            { echo "$p $m $n $k $opts: run failed: $(tail -1 "$tmp/err")"; continue; }
        python3 - "$tmp/run.json" "$tmp/ceil.json" "$p" "$m $n $k $opts" "${peers%%,*}" \
            "$root/bench" <<'PY'
import json, sys
rows, ceil = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
prec, shape, peer, bw = sys.argv[3], sys.argv[4], sys.argv[5], ceil["bandwidth_gbs"]
sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, sys.argv[6])
from thin_bytes import read_us, shape_bytes
m, n, k = (int(x) for x in shape.split()[:3])
ops = 8 if prec in "cz" else 2  # as gemmbench counts them
nbytes = shape_bytes(m, n, k, prec)
bound = ops * m * n * k / (nbytes / (bw * 1e9)) / 1e12
read = read_us(ceil, nbytes)
ref = next((r["gflops"] for r in rows if r["kernel"] == peer), None)
for r in rows:
    v = r.get("validation", {})
    ok = v.get("outcome", "-") + "/" + v.get("faithful", "-")[:4] if v else "-"
    tf = r["gflops"] / 1e3
    us = ops * m * n * k / (r["gflops"] * 1e3)
    name = ("auto:" if r.get("auto") else "") + r["kernel"]
    print("%s %-22s %-26s %8.2f TFLOP/s  %5.3f of bound %6.2f  %5.2f of a read  %s  %s" % (
        prec, shape, name, tf, tf / bound, bound, read / us,
        ("%5.2fx %s" % (r["gflops"] / ref, peer)) if ref else "", ok))
PY
    done
done
