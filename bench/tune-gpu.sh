#!/bin/sh
# bench/tune-gpu.sh STEP...: the tuner's measurements on an NVIDIA GPU through NVIDIA's OpenCL
# (../shared/GPU.md: `source .device/unpack.sh` first). Builds gemmbench into $BUILD, writes
# everything under $OUT_DIR, and prints a short table per step.
#   throughput  evaluations per minute of `tune -k xgemm_nv -n 4096` (random, 48 candidates, no
#               re-measurement) building serially (build, then measure), on 15 build threads, on
#               15 build processes and on 8 (the default on this machine: no more candidates
#               wait for a build), each as a ratio to serial; each from an empty program cache
#               and an empty CUDA JIT cache of its own (which then works within the run), into a
#               store of its own, so that all build and measure the same candidates
#   space       a recorded space, single precision, 4096^3: every configuration of a subspace
#               measured, as $OUT_DIR/$SPACE_NAME.space. SPACE=narrow (the default) is
#               bench/spaces/xgemm_nv-h100-4096.space's subspace of xgemm_nv (244
#               configurations on an H100, 3 minutes), SPACE=wide
#               bench/spaces/xgemm_nv-h100-4096-wide.space's (1128, 12.5 minutes), SPACE=xgemm
#               bench/spaces/xgemm-h100-4096.space's, of xgemm; SPACE_ARGS and SPACE_NAME give
#               another subspace of SPACE's family. Run again, it
#               measures only what its store lacks (so a time limit, --time in SPACE_ARGS, can
#               split it over calls)
#   defaults    tune-square and tune-shapes for xgemm_nv, tune-square for dgemm_dmma (double) and
#               xgemm (single), BUDGET evaluations per shape, on DEVICES (-d: 'all' spreads the
#               shapes over the GPUs), into $OUT_DIR/tuning.db; then the tuning database
#               exported as $OUT_DIR/tuned.json (kernels/tuned/'s format)
#   thin        sgemm_wgmma_ct's narrow tiles at the thin classes, each by `tune --strategy
#               exhaustive` over WGM, STAGES and SPLITK (and BCOPY where B is stored K x N) with
#               the rest fixed at the 64-wide entries' choices: BN 16 at wide-16 NN, NT and TN and
#               tall-16 NT and NN, BN 32 at wide-32 NN and NT; into $STORE, then exported as
#               $OUT_DIR/tuned.json (bench/notes/thin.md#thin-ct-tune16). The tune declares SPLITK
#               0 where it ties; at K under 2048 that runs unsplit, so compare its SPLITK 4
#               runner-up ('gemmbench tuned show') before shipping
#   dthin       dgemm_dmma_nn with TMA at tall-64 NN (8192 x 64 x 8192) and NT wide-64 (64 x 8192
#               x 8192), each by `tune --strategy exhaustive` over BK, STAGES, MINCTAS, SPLITK and
#               the warps (64 x 32 each), DTIME (150) seconds each, into $STORE, then
#               exported as $OUT_DIR/tuned.json (bench/notes/thin.md#thin-dmma-kc-tma);
#               DCLASSES (an extended regular expression) picks the classes
# Environment: CONFIGS (throughput's NAME:THREADS:BUILDERS list), TBUDGET (its candidates, 48),
# BUILD (default /tmp/gemmbench-build), OUT_DIR (default /tmp/tune-gpu), BUDGET
# (default 40), STORE (the tuning store; default $OUT_DIR/tuning.db), DEVICES (default 0: the
# first GPU), SPACE, SPACE_ARGS and SPACE_NAME (the space step's subspace and file name).
set -eu
cd "$(dirname "$0")/.."
build=${BUILD:-/tmp/gemmbench-build}
out=${OUT_DIR:-/tmp/tune-gpu}
budget=${BUDGET:-40}
store=${STORE:-$out/tuning.db}
devices=${DEVICES:-0}
# throughput's configurations, NAME:THREADS:BUILDERS, and its candidates per configuration
configs=${CONFIGS:-"serial:0:0 threads-15:15:0 processes-15:0:15 processes-8:0:8"}
tbudget=${TBUDGET:-48}
case ${SPACE:-narrow} in
    narrow)
        space_args="--fix EDGES=2 --fix THIN=4 --fix SLOTS=2 --fix GROUPM=8 --fix LANES=1
            --fix PIPE=1 --param TAIL=0,3 --fix MAXREG=0 --fix SPLITK=0"
        space_name=xgemm_nv-h100-4096 ;;
    wide)
        space_args="--fix EDGES=2 --fix THIN=4 --fix SLOTS=2 --param GROUPM=1,8 --param LANES=0,1
            --param PIPE=0,1 --fix TAIL=0 --param MAXREG=0,128,255 --fix SPLITK=0 --fix PADA=4
            --fix PADB=4"
        space_name=xgemm_nv-h100-4096-wide ;;
    xgemm)
        space_args="--param MWG=64,128 --param NWG=64,128 --param KWG=16,32 --param MDIMC=8,16
            --param NDIMC=8,16 --param VWM=1,2,4 --param VWN=1,2,4 --param VWK=1,4 --fix PADA=0
            --fix PADB=0 --param STAGES=1,2 --fix ACCMEM=0"
        space_name=xgemm-h100-4096 ;;
    *) echo "bench/tune-gpu.sh: SPACE is narrow, wide or xgemm" >&2; exit 2 ;;
esac
space_kernel=xgemm_nv
[ "${SPACE:-narrow}" = xgemm ] && space_kernel=xgemm
space_args=${SPACE_ARGS:-$space_args}
space_name=${SPACE_NAME:-$space_name}
mkdir -p "$out"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" --target gemmbench-cli >/dev/null
gb="$build/gemmbench"
now() { date +%s.%N; }

throughput() {
    rm -f "$out/throughput.txt"
    for config in $configs; do
        name=${config%%:*}
        rest=${config#*:}
        set -- --threads "${rest%%:*}" --builders "${rest#*:}"
        d="$out/throughput-$name"
        rm -rf "$d"
        mkdir -p "$d/cache" "$d/cuda"
        t0=$(now)
        GEMMBENCH_CACHE_DIR="$d/cache" CUDA_CACHE_PATH="$d/cuda" "$gb" tune -p NVIDIA -k xgemm_nv \
            -n 4096 --strategy random --seed 3 --budget "$tbudget" --confirm-reps 0 "$@" \
            --store "$d/t.db" >"$d/log" 2>&1 || true
        t1=$(now)
        evals=$(sed -n 's/.*: \([0-9]*\) evaluations (\([0-9]*\) measured.*/\2/p' "$d/log")
        echo "$name ${evals:-0} $t0 $t1" >>"$out/throughput.txt"
        grep "^gemmbench: " "$d/log" | head -3 || true
        tail -3 "$d/log"
    done
    echo
    printf "%-14s %12s %10s %12s %9s\n" configuration evaluations seconds "evals/min" "x serial"
    awk '{ s = $4 - $3; r = s > 0 ? $2 * 60 / s : 0
           if (NR == 1) base = r
           printf "%-14s %12d %10.1f %12.1f %9.2f\n", $1, $2, s, r, (base > 0 ? r / base : 0) }' \
        "$out/throughput.txt"
}

space() {
    # shellcheck disable=SC2086
    "$gb" tune -p NVIDIA -k "$space_kernel" -n 4096 --strategy exhaustive --budget 100000 $space_args \
        --confirm-reps 0 --store "$out/space.db" --record "$out/$space_name.space" \
        >"$out/space.log" 2>&1 || true
    tail -4 "$out/space.log"
    grep -vc '^#' "$out/$space_name.space" || true
}

defaults() {
    for job in "xgemm_nv --plan tune-square" "xgemm_nv --plan tune-shapes" \
        "dgemm_dmma --precision d --plan tune-square" "xgemm --precision s --plan tune-square"; do
        # shellcheck disable=SC2086
        "$gb" tune -p NVIDIA -d "$devices" -k $job --budget "$budget" --store "$store" \
            >>"$out/defaults.log" 2>&1 || true
    done
    grep -E "^tune: |winner:" "$out/defaults.log" | tail -60
    "$gb" tuned export --store "$store" >"$out/tuned.json" || true
    "$gb" tuned list --store "$store" || true
}

# tune_classes STEP KERNEL ARGS: an exhaustive tune of KERNEL (ARGS: what is fixed and searched)
# for each line of the input: name, shape, layout, then what else is fixed or searched; logs
# $out/STEP-NAME.log; then the store exported and listed.
tune_classes() {
    step=$1 kernel=$2 args=$3
    while read -r name m n k ta tb rest; do
        # shellcheck disable=SC2086
        "$gb" tune -p NVIDIA -k "$kernel" --strategy exhaustive --no-presets $args \
            -M "$m" -N "$n" -K "$k" --transA "$ta" --transB "$tb" $rest --store "$store" \
            >"$out/$step-$name.log" 2>&1 || true
        grep -A1 "winner:" "$out/$step-$name.log" | head -2
    done
    "$gb" tuned export --store "$store" >"$out/tuned.json" || true
    "$gb" tuned list --store "$store" || true
}

thin() {
    tune_classes thin sgemm_wgmma_ct "--fix BK=32 --fix SWZ=128 --fix TERMS=3 --fix RUNSUM=0
        --fix TMA=1 --fix FIXUP=1 --fix OVERLAP=1 --fix GROUPM=4 --fix EDGES=1 --fix EMU=0
        --param WGM=1,2 --param STAGES=3,4,6,8 --param SPLITK=0,2,3,4,6,8" <<CLASSES
wide-16-nn 16 4096 4096 N N --fix BN=16 --fix CT=1 --fix BCOPY=0 --param KACC=8,16
wide-16-nt 16 4096 4096 N T --fix BN=16 --fix CT=1 --fix BCOPY=0 --param KACC=8,16
wide-16-tn 16 4096 4096 T N --fix BN=16 --fix CT=1 --fix KACC=8 --param BCOPY=0,1
tall-16-nt 4096 16 4096 N T --fix BN=16 --fix CT=0 --fix BCOPY=0 --param KACC=8,16
tall-16-nn 4096 16 4096 N N --fix BN=16 --fix CT=0 --fix KACC=8 --param BCOPY=0,1
wide-32-nn 32 4096 4096 N N --fix BN=32 --fix CT=1 --fix BCOPY=0 --fix KACC=8
wide-32-nt 32 4096 4096 N T --fix BN=32 --fix CT=1 --fix BCOPY=0 --fix KACC=8
CLASSES
}

dthin() {
    grep -E "^(${DCLASSES:-tall-64-nn|wide-64-nt}) " <<CLASSES |
tall-64-nn 8192 64 8192 N N --param WGM=2,4 --param WGN=1,2
wide-64-nt 64 8192 8192 N T --fix WGM=1 --param WGN=2,4
CLASSES
        tune_classes dthin dgemm_dmma_nn "--precision d --time ${DTIME:-150}s --fix WM=64
            --fix WN=32 --fix MMAM=16 --fix MMAK=4 --fix EDGES=1 --fix GROUPM=8 --fix FRAG=1
            --fix KCONT=1 --fix CT=0 --fix FIXUP=0 --fix TAIL=0 --fix MAXREG=0 --fix EMU=0
            --fix TMA=1 --fix PAD=0 --fix PAIRS=1 --param BK=16,32 --param STAGES=2,3,4
            --param MINCTAS=0,2 --param SPLITK=0,4"
}

for step in "$@"; do
    echo "== $step"
    "$step"
done
