#!/bin/sh
# bench/wgmma.sh: the PTX program families (sgemm_wgmma and sgemm_wgmma_ct in s, hgemm_wgmma,
# hgemm_wgmma_nt and hgemm_wgmma_mn in h and b, the TMA presets of dgemm_dmma and dgemm_dmma_nn in
# d and sgemm_3xtf32 in s) on an NVIDIA sm_90 GPU: first every preset of the precisions asked at
# every row-major layout and at shapes that straddle its tiles (odd sizes, leading dimensions and
# offsets, alpha and beta; in s K >= 48, the family's constraint; few tiles and a long K, which
# the presets that split by the grid's need split; M >= 1024 with B's rows off 16 bytes, which a
# ring of B copies to aligned rows first), faithful on uniform data, and in s, sgemm_wgmma with
# TERMS=1 (plain TF32) on small integers, which TF32 holds exactly, exact; then the speed at the
# large squares beside the peers in the same run, every kernel and peer on one problem (row-major
# NN, through a kernel's passes where that is not its own layout). Every point is validated; a row
# that fails says so.
#   PRECS     precisions (default s; "s h b d" for all four)
#   BUILD     the build folder (default /tmp/gemmbench-build; configured and built if needed)
#   PLATFORM  the platform's name (default NVIDIA)
#   KERNELS   kernels of the speed table in s (default: sgemm_wgmma's presets,
#             sgemm_3xtf32_64x128); in h and b the family's presets of that precision and xgemm;
#             in d the TMA presets and dgemm_dmma_128x64x16
#   PEERS     peers of the speed table (default cublas; the ratio's denominator)
#   SIZES     orders of the speed table (default "4096 8192")
#   ITER      timed calls (default 20)
#   PRESETS   comma-separated presets to validate and time (default: every preset of the
#             precisions; a preset's first letter says its precision)
#   VALIDATE  0 skips the shape sweep
#   PARAMS    options added to every run of the sweep and the table, as "--param RUNSUM=1": a
#             variant of the presets validated and timed without a preset of its own
# bench/notes/wgmma.md#wgmma-first has what it measured.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-/tmp/gemmbench-build}
platform=${PLATFORM:-NVIDIA}
precs=${PRECS:-s}
peers=${PEERS:-cublas}
iter=${ITER:-20}
. "$root/bench/bench_lib.sh"
[ -x "$build/gemmbench" ] || bench_build "$root" "$build"
g=$build/gemmbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The presets of a precision (PRESETS: those alone).
presets() {
    [ -n "${PRESETS:-}" ] && { echo "$PRESETS" | tr ',' '\n' | grep "^$1" | tr '\n' ' '; return; }
    case $1 in
    s) echo "sgemm_wgmma_128x128 sgemm_wgmma_64x128 sgemm_wgmma_128x64" \
            "sgemm_wgmma_128x128x32_split sgemm_wgmma_64x64x32_split sgemm_wgmma_128x128x32_ring" \
            "sgemm_3xtf32_16x128_tma sgemm_wgmma_ct_64x64 sgemm_wgmma_ct_64x64_cols" \
            "sgemm_wgmma_ct_64x16" ;;
    h) echo "hgemm_wgmma_nt_64x128 hgemm_wgmma_nt_128x128 hgemm_wgmma_nt_128x128x64" \
            "hgemm_wgmma_nt_128x128x64_tma hgemm_wgmma_nt_128x192x64_tma" \
            "hgemm_wgmma_mn_64x128 hgemm_wgmma_mn_128x128x64" \
            "hgemm_wgmma_mn_128x128x64_tma hgemm_wgmma_128x128 hgemm_wgmma_128x256" ;;
    b) echo "bgemm_wgmma_nt_64x128 bgemm_wgmma_nt_128x128 bgemm_wgmma_nt_128x128x64" \
            "bgemm_wgmma_nt_128x128x64_tma bgemm_wgmma_nt_128x192x64_tma" \
            "bgemm_wgmma_mn_64x128 bgemm_wgmma_mn_128x128x64" \
            "bgemm_wgmma_mn_128x128x64_tma bgemm_wgmma_128x128" ;;
    d) echo "dgemm_dmma_128x64x16_tma dgemm_dmma_16x128x16_tma" \
            "dgemm_dmma_nn_128x64x32_tma" ;;
    esac
}
# row PREC NAME ARGS...: one validated run, one line: the verdicts, or why it failed.
row() {
    prec=$1
    name="$1 $2"
    shift 2
    if "$g" run -p "$platform" --precision "$prec" --no-store --json "$@" >"$tmp/run.json" 2>"$tmp/err"; then
        python3 - "$tmp/run.json" "$name" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    v = r.get("validation", {})
    print("%-58s %-22s %8.2f TFLOP/s  %s / %s" % (sys.argv[2], r["kernel"], r["gflops"] / 1e3,
          v.get("outcome", "-"), v.get("faithful", "-")))
PY
    else
        echo "$name: FAILED: $(grep -v '^$' "$tmp/err" | head -3 | tr '\n' ' ')"
    fi
}
if [ "${VALIDATE:-1}" != 0 ]; then
    for p in $precs; do
        for k in $(presets "$p"); do
            for ab in "N N" "N T" "T N" "T T"; do
                set -- $ab
                for shape in "1 5 48" "65 129 49" "130 70 64" "257 255 97" "1000 1001 999 --lda 1003 --offa 1 --ldc 1005 --offc 3 --alpha 1.5 --beta -0.5" \
                    "200 130 3000 --alpha 1.5 --beta -0.5" \
                    "1100 1001 300 --ldb 1003 --offb 1 --alpha 1.5 --beta -0.5"; do
                    # shellcheck disable=SC2086
                    row "$p" "$k $1$2 $shape" -k "$k" --transA "$1" --transB "$2" ${PARAMS:-} \
                        $(echo "$shape" | awk '{printf "-M %s -N %s -K %s", $1, $2, $3; for (i = 4; i <= NF; i++) printf " %s", $i}') -i 2
                done
                case $k in
                sgemm_wgmma*)
                    row s "$k $1$2 TERMS=1 int:4 520 300 77" -k "$k" ${PARAMS:-} --param TERMS=1 \
                        --dist int:4 --transA "$1" --transB "$2" -M 520 -N 300 -K 77 -i 2 ;;
                esac
            done
        done
    done
fi
for p in $precs; do
    if [ "$p" = s ]; then
        kernels=${KERNELS:-sgemm_wgmma_128x128,sgemm_wgmma_64x128,sgemm_wgmma_128x64,sgemm_3xtf32_64x128}
    elif [ "$p" = d ]; then
        kernels=$(presets d | xargs | tr ' ' ','),dgemm_dmma_128x64x16
    else
        kernels=$(presets "$p" | xargs | tr ' ' ','),xgemm
    fi
    for n in ${SIZES:-4096 8192}; do
        # The kernels that take this size (a preset's constraints may refuse it): -i 0 builds
        # and checks, calls nothing.
        ok=
        for k in $(echo "$kernels" | tr ',' ' '); do
            "$g" run -p "$platform" -k "$k" --precision "$p" -n "$n" ${PARAMS:-} -i 0 --no-store >/dev/null 2>&1 &&
                ok=$ok$k,
        done
        "$g" run -p "$platform" -k "$ok$peers" --precision "$p" -n "$n" -i "$iter" ${PARAMS:-} \
            --warmup 2 --no-store --json >"$tmp/run.json" 2>"$tmp/err" ||
            { echo "$p $n: run failed: $(tail -1 "$tmp/err")"; continue; }
        python3 - "$tmp/run.json" "$p" "$n" "${peers%%,*}" <<'PY'
import json, sys
rows, p, n, peer = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4]
ref = next((r["gflops"] for r in rows if r["kernel"] == peer), None)
for r in rows:
    v = r.get("validation", {})
    print("%s %5s %-22s %8.2f TFLOP/s  %s  %s / %s" % (p, n, r["kernel"], r["gflops"] / 1e3,
          ("%5.2fx %s" % (r["gflops"] / ref, peer)) if ref else "", v.get("outcome", "-"),
          v.get("faithful", "-")))
PY
    done
done
