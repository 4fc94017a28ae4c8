#!/bin/bash
# bench/scale.sh STEP...: a sweep and a tuning spread over the devices of one host, against one
# device, on a machine with NVIDIA GPUs (../shared/GPU.md: `source .device/unpack.sh` first; an
# MPI's mpirun on the PATH for the mpi step). Builds gemmbench into $BUILD, writes under
# $OUT_DIR, prints a table per step: points (or evaluations) per minute and the ratio to one GPU.
#   explore  the same sweep (SWEEP) on GPU 0, on every GPU (-d all), and over one MPI rank per
#            GPU (mpirun -n NGPU ... --mpi); the programs are built once before, so that every
#            run measures; the stored points' ids compared with one GPU's
#   mpi      the explore step's MPI run alone
#   mixed    a sweep of small sizes (MIXED) on GPU 0 alone and on GPU 0 with PoCL's CPU device
#            (-d all under CUDA_VISIBLE_DEVICES=0): how many points each device took
#   tune     tune -k xgemm_nv over 4 shapes (TUNE) on GPU 0 and on every GPU, each from an
#            empty program cache: evaluations per minute
#   tunempi  the same tuning over one MPI rank per GPU (mpirun -n NGPU ... --mpi), from an empty
#            program cache, against the tune step's one-GPU run (run the tune step first)
# Environment: BUILD (default /tmp/gemmbench-scale), OUT_DIR (default /tmp/scale), SWEEP, MIXED,
# TUNE (the commands' arguments), MPIRUN (default: mpirun with hwloc's OpenCL component off, whose
# listing of the platforms inside mpirun cuts the NVIDIA library out of OCL_ICD_FILENAMES before
# the ranks inherit it, and with no binding: mpirun binds each of two ranks to one core, which
# its build processes inherit; docs/scale-out.md), PLATFORM (the GPUs' platform, NVIDIA),
# NDEV (their number; default nvidia-smi's count). Each tuning starts from empty caches, the
# program cache and NVIDIA's JIT cache (CUDA_CACHE_PATH) both, so that each pays its builds.
set -u
cd "$(dirname "$0")/.." || exit 1
build=${BUILD:-/tmp/gemmbench-scale}
out=${OUT_DIR:-/tmp/scale}
sweep=${SWEEP:-"-k xgemm_nv_k8,xgemm_nv_64,xgemm_nv_64x64,xgemm_nv_256 -n 1024:4096:512 --repeat 3 -i 20 --warmup 2 --host-mem pinned"}
mixed=${MIXED:-"-k xgemm_nv_k8,xgemm -n 64:768:64 --repeat 3 -i 5"}
tune=${TUNE:-"-k xgemm_nv -n 1024,2048,3072,4096 --budget 16 --strategy random --seed 1"}
mpirun=${MPIRUN:-env HWLOC_COMPONENTS=-opencl mpirun --bind-to none}
# Open MPI refuses to start as root unless told to (the GPU machine runs everything as root).
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out"
# shellcheck disable=SC2086
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${GB_MPI_CMAKE:-} >/dev/null
cmake --build "$build" --target gemmbench-cli >/dev/null || exit 1
gb="$build/gemmbench"
export GEMMBENCH_CACHE_DIR="$out/cache"
ngpu=${NDEV:-$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")}
pf=${PLATFORM:-NVIDIA}
now() { date +%s.%N; }
ids() { "$gb" export --format csv --store "$1" 2>/dev/null | tail -n +2 | cut -d, -f1 | sort; }
rows="$out/rows.txt"

# run NAME COMMAND...: times the command; counts what its log says it measured.
run() {
    local name=$1
    shift
    local t0 t1
    t0=$(now)
    "$@" >"$out/$name.log" 2>&1
    echo "rc $?" >>"$out/$name.log"
    t1=$(now)
    local n
    n=$(sed -n 's/^explore: \([0-9]*\) measured and stored.*/\1/p' "$out/$name.log" | tail -1)
    [ -n "$n" ] || n=$(sed -n 's/.* evaluations (\([0-9]*\) measured.*/\1/p' "$out/$name.log" |
        awk '{ s += $1 } END { print s + 0 }')
    echo "$name ${n:-0} $t0 $t1" >>"$rows"
    grep -E "^gemmbench: |^rc [^0]" "$out/$name.log" | head -3
}

table() {
    printf "%-24s %8s %9s %10s %8s\n" run measured seconds "per min" "x first"
    awk '{ s = $4 - $3; r = s > 0 ? $2 * 60 / s : 0
           if (NR == 1) base = r
           printf "%-24s %8d %9.1f %10.1f %8.2f\n", $1, $2, s, r, (base > 0 ? r / base : 0) }' "$rows"
}

# same NAME STORE: do STORE's ids equal the first run's?
same() {
    ids "$2" >"$out/$1.ids"
    if cmp -s "$out/$1.ids" "$out/first.ids"; then
        echo "$1: the same $(wc -l <"$out/first.ids") point ids as one GPU"
    else
        echo "$1: DIFFERENT points from one GPU ($(wc -l <"$out/$1.ids") against $(wc -l <"$out/first.ids"))"
    fi
    [ "$(uniq -d "$out/$1.ids" | wc -l)" -eq 0 ] || echo "$1: a point stored twice"
}

explore() {
    rm -f "$rows" "$out"/explore-*.db
    # shellcheck disable=SC2086
    "$gb" explore $sweep -p "$pf" -d all -i 1 --warmup 0 --repeat 1 --store "$out/explore-prime.db" \
        >"$out/explore-prime.log" 2>&1
    # shellcheck disable=SC2086
    run explore-1gpu "$gb" explore $sweep -p "$pf" -d 0 --store "$out/explore-1.db"
    # shellcheck disable=SC2086
    run "explore-all-$ngpu" "$gb" explore $sweep -p "$pf" -d all --store "$out/explore-all.db"
    # shellcheck disable=SC2086
    command -v mpirun >/dev/null &&
        run "explore-mpi-$ngpu" $mpirun -n "$ngpu" "$gb" explore $sweep -p "$pf" -d all --mpi \
            --store "$out/explore-mpi.db"
    table
    ids "$out/explore-1.db" >"$out/first.ids"
    same "-d all" "$out/explore-all.db"
    command -v mpirun >/dev/null && same "--mpi" "$out/explore-mpi.db"
    for f in "$out/explore-all-$ngpu.log" "$out/explore-mpi-$ngpu.log"; do
        [ -f "$f" ] && echo "$(basename "$f"): $(grep -c '^\[0: \|^\[rank 0: ' "$f") points by the first device, $(grep -c '^\[1: \|^\[rank 1: ' "$f") by the second"
    done
}

# mpi: the explore step's MPI run alone (one GPU's run first where it is not there yet).
mpi() {
    rm -f "$rows" "$out/explore-mpi.db"
    if [ ! -f "$out/explore-1.db" ]; then
        # shellcheck disable=SC2086
        "$gb" explore $sweep -p "$pf" -d all -i 1 --warmup 0 --repeat 1 \
            --store "$out/explore-prime.db" >"$out/explore-prime.log" 2>&1
        # shellcheck disable=SC2086
        run explore-1gpu "$gb" explore $sweep -p "$pf" -d 0 --store "$out/explore-1.db"
    fi
    # shellcheck disable=SC2086
    run "explore-mpi-$ngpu" $mpirun -n "$ngpu" "$gb" explore $sweep -p "$pf" -d all --mpi \
        --store "$out/explore-mpi.db"
    table
    ids "$out/explore-1.db" >"$out/first.ids"
    same "--mpi" "$out/explore-mpi.db"
    f="$out/explore-mpi-$ngpu.log"
    echo "$(basename "$f"): $(grep -c '^\[rank 0: ' "$f") points by rank 0, $(grep -c '^\[rank 1: ' "$f") by rank 1"
}

mixed() {
    rm -f "$rows" "$out"/mixed-*.db
    # The programs for both devices, built before (PoCL alone: the default device).
    # shellcheck disable=SC2086
    "$gb" explore $mixed -n 64 -i 1 --repeat 1 --store "$out/mixed-prime.db" >/dev/null 2>&1
    # shellcheck disable=SC2086
    CUDA_VISIBLE_DEVICES=0 "$gb" explore $mixed -n 64 -i 1 --repeat 1 -p "$pf" \
        --store "$out/mixed-prime.db" >/dev/null 2>&1
    # shellcheck disable=SC2086
    CUDA_VISIBLE_DEVICES=0 run mixed-gpu "$gb" explore $mixed -p "$pf" --store "$out/mixed-1.db"
    # shellcheck disable=SC2086
    CUDA_VISIBLE_DEVICES=0 run mixed-gpu+pocl "$gb" explore $mixed -d all \
        --store "$out/mixed-2.db"
    table
    grep "points on" "$out/mixed-gpu+pocl.log" | head -1
    echo "GPU + PoCL: $(grep -c '^\[0: ' "$out/mixed-gpu+pocl.log") points by device 0, $(grep -c '^\[1: ' "$out/mixed-gpu+pocl.log") by device 1"
}

tune() {
    rm -f "$rows" "$out"/tune-*.db
    rm -rf "$out/cache-tune-1" "$out/cache-tune-all" "$out/jit-tune-1" "$out/jit-tune-all"
    # shellcheck disable=SC2086
    GEMMBENCH_CACHE_DIR="$out/cache-tune-1" CUDA_CACHE_PATH="$out/jit-tune-1" \
        run tune-1gpu "$gb" tune $tune -p "$pf" -d 0 --store "$out/tune-1.db"
    # shellcheck disable=SC2086
    GEMMBENCH_CACHE_DIR="$out/cache-tune-all" CUDA_CACHE_PATH="$out/jit-tune-all" \
        run "tune-all-$ngpu" "$gb" tune $tune -p "$pf" -d all --store "$out/tune-all.db"
    table
    grep -h "winner:" "$out/tune-1gpu.log" "$out/tune-all-$ngpu.log" | cut -c1-110
}

tunempi() {
    rm -rf "$out/cache-tune-mpi" "$out/jit-tune-mpi" "$out/tune-mpi.db"
    [ -f "$out/rows.txt" ] && grep "^tune-1gpu " "$out/rows.txt" >"$out/rows.1" && mv "$out/rows.1" "$rows"
    # shellcheck disable=SC2086
    GEMMBENCH_CACHE_DIR="$out/cache-tune-mpi" CUDA_CACHE_PATH="$out/jit-tune-mpi" \
        run "tune-mpi-$ngpu" $mpirun -n "$ngpu" -x GEMMBENCH_CACHE_DIR -x CUDA_CACHE_PATH \
        "$gb" tune $tune -p "$pf" -d all --mpi --store "$out/tune-mpi.db"
    table
    grep -h "winner:" "$out/tune-mpi-$ngpu.log" | cut -c1-110
}

for step in "$@"; do
    echo "== $step ($ngpu GPU(s))"
    "$step"
done
