#!/bin/sh
# bench/nv-inspect.sh GEMMBENCH FAMILY PREC DIR [NAME=V ...]: builds one configuration of a kernel
# family on the NVIDIA platform (one small validated run), keeps the PTX NVIDIA's OpenCL compiler
# made, assembles it offline for its target (sm_90, or sm_90a for PTX programs) and writes to
# DIR: kernel.ptx, ptxas.txt (registers, spills, shared memory), kernel.sass, and opcodes.txt
# (SASS opcode counts, most frequent first). Needs the CUDA toolkit's ptxas and cuobjdump (PATH,
# /usr/local/cuda*/bin, or PTXAS=). SHAPE: the run's shape and layout (default "-n 256"); a family
# whose route builds another program at some shapes (SPLITK > 1 at a K too short to split builds
# the unsplit one, which run.txt notes) needs one where it builds the program to inspect.
set -eu
if [ $# -lt 4 ]; then
    echo "usage: $0 GEMMBENCH FAMILY PREC DIR [NAME=V ...]" >&2
    exit 2
fi
gb=$1 fam=$2 prec=$3 dir=$4
shift 4
args=""
for kv in "$@"; do args="$args --param $kv"; done
ptxas=${PTXAS:-$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -n 1 || true)}
if [ -z "$ptxas" ] || [ ! -x "$ptxas" ]; then
    echo "nv-inspect: ptxas not found; set PTXAS=/path/to/ptxas" >&2
    exit 2
fi
bindir=$(dirname "$ptxas")
mkdir -p "$dir"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
# shellcheck disable=SC2086
GEMMBENCH_CACHE_DIR=$cache "$gb" run -p NVIDIA --no-store -k "$fam" --precision "$prec" \
    ${SHAPE:--n 256} -i 1 $args >"$dir/run.txt" 2>&1 || true
if grep -q "unsplit build" "$dir/run.txt"; then
    echo "nv-inspect: the run built the unsplit program (SPLITK 1); give SHAPE a longer K" >&2
fi
# The cache holds one entry per program built (HASH.gbc: three header lines, the key up to a NUL,
# then the binary, its length on the header's bytes: line; src/rt/device/cache.c). For NVIDIA the
# binary is PTX text; the GEMM's own is the one with its entry point. It may end with a NUL,
# which ptxas reads as a premature end of file.
# The entry point: the family's own, or that of the family it extends (dgemm_dmma_nn's is
# dgemm_dmma's), else the family's name.
entry="" def=$fam
while [ -z "$entry" ] && [ -n "$def" ]; do
    entry=$(sed -n 's/^ *"entry": *"\([^"]*\)".*/\1/p' "kernels/$def.json" 2>/dev/null | head -n 1)
    def=$(sed -n 's/^ *"extends": *"\([^"]*\)".*/\1/p' "kernels/$def.json" 2>/dev/null | head -n 1)
done
[ -n "$entry" ] || entry=$fam
found=""
for ent in "$cache"/*.gbc; do
    [ -e "$ent" ] || continue
    n=$(sed -n '2s/^bytes: //p' "$ent")
    tail -c "$n" "$ent" | tr -d '\000' >"$dir/kernel.ptx"
    if grep -q "\.entry $entry\b\|\.entry $entry(" "$dir/kernel.ptx"; then found=1; break; fi
done
if [ -z "$found" ]; then
    echo "nv-inspect: no PTX with entry $entry was built; see $dir/run.txt" >&2
    exit 1
fi
# The PTX's own target: sm_90a for the PTX program families (wgmma), else sm_90.
arch=$(sed -n 's/^\.target[[:space:]]*\(sm_[0-9a-z]*\).*/\1/p' "$dir/kernel.ptx" | head -n 1)
# A kernel whose local arrays pass 48 KB (sm_90 allows 227 KB, which NVIDIA's OpenCL gives) fails
# ptxas's whole-program check ("uses too much shared data"); assembled as a relocatable object
# (-c) that check waits for a link that never comes, and the SASS is there to read.
if ! "$ptxas" -v -arch="${arch:-sm_90}" "$dir/kernel.ptx" -o "$dir/kernel.cubin" \
    >"$dir/ptxas.txt" 2>&1; then
    "$ptxas" -c -v -arch="${arch:-sm_90}" "$dir/kernel.ptx" -o "$dir/kernel.cubin" \
        >"$dir/ptxas.txt" 2>&1
fi
"$bindir/cuobjdump" -sass "$dir/kernel.cubin" >"$dir/kernel.sass"
# Opcode = the first word after the /*addr*/ column, predicate and modifiers stripped.
awk '/^ +\/\*[0-9a-f]+\*\// { s = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", s); sub(/^@!?U?P[0-9T] +/, "", s);
       split(s, w, /[ .;]/); n[w[1]]++ }
     END { for (o in n) print n[o], o }' "$dir/kernel.sass" | sort -rn >"$dir/opcodes.txt"
rm -f "$dir/kernel.cubin"
echo "$fam $*: $(grep -o 'Used [0-9]* registers.*' "$dir/ptxas.txt" | head -n 1)"
grep -i 'spill' "$dir/ptxas.txt" | head -n 2 || true
# ptxas's warnings, such as wgmma serialised ("Potential Performance Loss").
grep -i 'warning\|performance loss' "$dir/ptxas.txt" || true
