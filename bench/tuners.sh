#!/bin/sh
# bench/tuners.sh [--seeds N] [--lookahead L] [--strategies LIST] [--kernel-path DIR]
# [FILE.space...]: the strategy benchmark. For each recorded space (default:
# bench/spaces/*.space) and each strategy, seeds 1..20: the fraction of the space's best score
# reached after 2%, 5%, 10% and 25% of its configurations in evaluations, mean and worst over
# the seeds, as one table. No device is used: the spaces were measured before (docs/tuning.md,
# "Recorded spaces"). It builds and runs build/gemmbench-tuners (bench/tuners.c), which also
# writes the synthetic spaces (--synthesize MODEL FILE; --help lists the models).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$root/build/build.ninja" ] || "$root/scripts/build.sh" >/dev/null
cmake --build "$root/build" --target gemmbench-tuners >/dev/null
# Files given? (Anything not an option or an option's value.)
files=0
skip=0
for a in "$@"; do
    if [ "$skip" = 1 ]; then
        skip=0
        continue
    fi
    case $a in
        --seeds|--strategies|--kernel-path|--lookahead) skip=1 ;;
        -*) ;;
        *) files=1 ;;
    esac
done
[ "$files" = 1 ] || set -- "$@" "$root"/bench/spaces/*.space
exec "$root/build/gemmbench-tuners" "$@"
