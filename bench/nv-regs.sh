#!/bin/sh
# bench/nv-regs.sh CACHE_DIR [PROGRAM]: what ptxas makes of every NVIDIA program in a gemmbench
# program cache (GEMMBENCH_CACHE_DIR of earlier runs on the NVIDIA platform): one line per
# kernel of each program, registers, spill bytes and shared memory for the PTX's target (sm_90,
# sm_90a for PTX programs), then program:kernel
# and the build options. PROGRAM limits it to one family. Needs the CUDA toolkit's ptxas (PATH,
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
# Each cache entry HASH.gbc is a header of three lines, the key text up to a NUL, then the
# binary (src/rt/device/cache.c); for NVIDIA the binary is PTX text.
for ent in "$dir"/*.gbc; do
    [ -e "$ent" ] || continue
    # The key: the text after the header, up to the NUL.
    tail -n +4 "$ent" | tr '\000' '\n' | sed '/^source: /q' >"$tmp/key"
    grep -q '^platform: .*CUDA' "$tmp/key" || continue
    prog=$(sed -n 's/^program: //p' "$tmp/key")
    [ -z "$want" ] || [ "$prog" = "$want" ] || continue
    opts=$(sed -n 's/^options: //p' "$tmp/key" | sed 's/-DGB_PRECISION=[0-9]* -DGB_ROW_MAJOR=1 -DGB_TRANS_A=0 -DGB_TRANS_B=0 -DGB_NVIDIA=1 *//')
    # The binary: its last N bytes (the header's bytes: line), PTX text that may end in a NUL,
    # which ptxas reads as a premature end of file.
    n=$(sed -n '2s/^bytes: //p' "$ent")
    tail -c "$n" "$ent" | tr -d '\000' >"$tmp/k.ptx"
    # The PTX's own target: sm_90a for the PTX program families (wgmma), else sm_90.
    arch=$(sed -n 's/^\.target[[:space:]]*\(sm_[0-9a-z]*\).*/\1/p' "$tmp/k.ptx" | head -n 1)
    rep=$("$ptxas" -v -arch="${arch:-sm_90}" "$tmp/k.ptx" -o "$tmp/k.cubin" 2>&1 || true)
    # One line per kernel of the program (ptxas reports each entry function in turn).
    printf '%s\n' "$rep" | awk -v prog="$prog" -v opts="$opts" '
        function flush() { if (fn != "") printf "%4s regs %4s spill %6s smem  %s:%s  %s\n",
                               regs, spill, smem, prog, fn, opts }
        /Compiling entry function/ { flush(); fn = $0; sub(/.*function .\047?/, "", fn);
                                     sub(/\047.*/, "", fn); regs = "?"; spill = "?"; smem = 0 }
        /bytes spill stores/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == "spill") spill = $i }
        /Used [0-9]+ registers/ { for (i = 1; i < NF; i++) if ($i == "Used") regs = $(i + 1)
                                   for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == "smem") smem = $i }
        END { flush() }'
done | sort -k8
