#!/bin/sh
# bench/ptx-offline.sh SOURCE [-DNAME=VALUE ...]: a kernel source's NVIDIA path assembled without a
# GPU, to catch what only the GPU's build would: the prelude and SOURCE (kernels/NAME.cl) through
# clang's OpenCL C for nvptx64 with libclc's built-ins, the deferred '//@' instructions made
# instructions and the target raised to sm_90a (as src/rt/util/ptx.c does with the PTX NVIDIA's
# compiler makes), then ptxas: its errors, or each kernel's registers, spills and shared memory.
# NVIDIA's own compiler is not clang, so registers are a guide, not what the GPU's build uses.
# Needs clang, libclc (Debian: libclc-NN, /usr/lib/clc/nvptx64--nvidiacl.bc) and the CUDA
# toolkit's ptxas. The harness's own macros are to be given: e.g.
#   bench/ptx-offline.sh wgmma -DGB_PRECISION=32 -DGB_STORAGE=1 -DGB_ROW_MAJOR=1 -DGB_TRANS_A=0 \
#       -DGB_TRANS_B=1 -DGB_NVIDIA=1 -DBN=128 -DWGM=2 -DBK=16 -DSTAGES=4 -DINFLIGHT=0 -DKACC=0 \
#       -DGROUPM=8 -DEDGES=1 -DEMU=0
# (FP16 storage needs vload_half, which libclc lacks for nvptx: check the layout with GB_STORAGE=2.)
set -eu
[ $# -ge 1 ] || { echo "usage: $0 SOURCE [-DNAME=VALUE ...]" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
src=$1
shift
[ -f "$src" ] || src=$root/kernels/$src.cl
[ -f "$src" ] || { echo "ptx-offline: no kernel source $1" >&2; exit 2; }
clc=${LIBCLC:-$(ls /usr/lib/clc/nvptx64--nvidiacl.bc 2>/dev/null | head -n 1 || true)}
ptxas=${PTXAS:-$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -n 1 || true)}
command -v clang >/dev/null || { echo "ptx-offline: clang not found" >&2; exit 2; }
[ -n "$clc" ] || { echo "ptx-offline: libclc's nvptx64--nvidiacl.bc not found; set LIBCLC=" >&2; exit 2; }
[ -n "$ptxas" ] || { echo "ptx-offline: ptxas not found; set PTXAS=" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$root/kernels/prelude.cl" "$src" >"$tmp/k.cl"
clang -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -S -O2 -Xclang -finclude-default-header \
    -Xclang -mlink-builtin-bitcode -Xclang "$clc" -Wno-pass-failed -Wno-linker-warnings "$@" \
    "$tmp/k.cl" -o "$tmp/k.ptx"
# The deferred instructions: a line's '//@' after blanks removed; the target raised; a PTX
# version that ptxas takes for sm_90a and the tensor-map instructions (8.3).
sed -e 's|^\([[:space:]]*\)//@|\1|' -e 's|^\([[:space:]]*\.target[[:space:]]*\)sm_[0-9a-z]*|\1sm_90a|' \
    -e 's|^\([[:space:]]*\.version[[:space:]]*\).*|\18.3|' "$tmp/k.ptx" >"$tmp/r.ptx"
"$ptxas" -v -arch=sm_90a "$tmp/r.ptx" -o "$tmp/r.cubin" 2>&1 |
    grep -E "error|Compiling entry|Used|spill" | sed 's/^ptxas info *: //'
