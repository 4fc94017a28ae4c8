#!/bin/sh
# bench/nv-regs.sh CACHE_DIR [PROGRAM]: what ptxas makes of every NVIDIA program in a gemmbench
# program cache (GEMMBENCH_CACHE_DIR of earlier runs on the NVIDIA platform): one line per
# program, registers, spill bytes and shared memory for sm_90, then the program name and its
# build options. PROGRAM limits it to one family. Needs the CUDA toolkit's ptxas (PATH,
# /usr/local/cuda*/bin, or PTXAS=).
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 CACHE_DIR [PROGRAM]" >&2
    exit 2
fi
dir=$1 want=${2:-}
ptxas=${PTXAS:-$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -n 1 || true)}
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
    echo "nv-regs: ptxas not found; set PTXAS=/path/to/ptxas" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for key in "$dir"/*.key; do
    [ -e "$key" ] || continue
    grep -q '^platform: .*CUDA' "$key" || continue
    prog=$(sed -n 's/^program: //p' "$key")
    [ -z "$want" ] || [ "$prog" = "$want" ] || continue
    opts=$(sed -n 's/^options: //p' "$key" | sed 's/-DGB_PRECISION=32 -DGB_ROW_MAJOR=1 -DGB_TRANS_A=0 -DGB_TRANS_B=0 -DGB_NVIDIA=1 *//')
    # The binary is PTX text ending in a NUL, which ptxas reads as a premature end of file.
    tr -d '\000' <"${key%.key}.bin" >"$tmp/k.ptx"
    rep=$("$ptxas" -v -arch=sm_90 "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 || true)
    regs=$(printf '%s\n' "$rep" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -n 1)
    spill=$(printf '%s\n' "$rep" | sed -n 's/.* \([0-9]*\) bytes spill stores.*/\1/p' | head -n 1)
    smem=$(printf '%s\n' "$rep" | sed -n 's/.* \([0-9]*\) bytes smem.*/\1/p' | head -n 1)
    printf '%4s regs %4s spill %6s smem  %s  %s\n' "${regs:-?}" "${spill:-?}" "${smem:-0}" "$prog" "$opts"
done | sort -k8
