#!/bin/sh
# bench/prebuild.sh [N [SIZE [THREADS [ROUNDS]]]]: the time a tuner's run of N configurations
# takes with and without the context's kept inputs and gb_impl_prebuild threads, as ratios
# measured in one run on the default OpenCL device. Builds and runs build/gemmbench-prebuild
# (bench/prebuild.c).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$root/build/build.ninja" ] || "$root/scripts/build.sh" >/dev/null
cmake --build "$root/build" --target gemmbench-prebuild >/dev/null
exec "$root/build/gemmbench-prebuild" "$@"
