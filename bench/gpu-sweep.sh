#!/bin/sh
# bench/gpu-sweep.sh GEMMBENCH PREC N CONFIGS: times the xgemm family at order N for every
# parameter set in CONFIGS (one per line: NAME=V NAME=V ...), on the NVIDIA platform, validated,
# and prints the sets sorted by GFLOP/s. Used to choose the xgemm_gpu presets; it is
# bench/nv-sweep.sh with the family fixed to xgemm (same variables: ITER, WARMUP, TIMING, LOG).
if [ $# -ne 4 ]; then
    echo "usage: $0 GEMMBENCH PREC N CONFIGS" >&2
    exit 2
fi
exec sh "$(dirname "$0")/nv-sweep.sh" "$1" xgemm "$2" "$3" "$4"
