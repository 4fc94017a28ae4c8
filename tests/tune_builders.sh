#!/bin/sh
# tune_builders.sh GEMMBENCH FIXTURES: tune with build processes (--builders) on the default
# device: the same candidates evaluated, with the same results, as building in the tuner itself
# (failed builds recorded with their log), over several shapes with the same processes; two
# devices of one kind (-d 0,0) served by one pool; a build process killed mid-run is started
# again and its candidate built again; Ctrl-C stops the tuning and its build processes; no build
# process outlives its tuner, none is left a zombie. Each run has a program cache (and PoCL
# cache) of the test's own, so that the builds really happen. About 30 s on 2 cores.
gb=$1
fx=$2
. "$(dirname "$0")/script_lib.sh"
export POCL_CACHE_DIR="$tmp/pocl"
# no MESSAGE: bad, with the last tuning's output.
no() { bad "$1"; cat "$tmp/out" "$tmp/err"; }

# The candidates as told, in order, each with its score's kind (a rate, or the code it failed
# with).
told() {
    sed -n 's/^\[[0-9]*\/[0-9]*\] \([^:]*\): \(cannot win: [A-Z_]*\)\{0,1\}.*/\1 \2/p' "$1"
}

# tune_bg NAME ARGS...: tune in the background into NAME's store and program cache; $pid.
tune_bg() {
    name=$1
    shift
    : >"$tmp/out" # now, not when the background process gets to it: a wait reads it at once
    GEMMBENCH_CACHE_DIR="$tmp/cache-$name" "$gb" tune --store "$tmp/$name.db" "$@" \
        >"$tmp/out" 2>"$tmp/err" &
    pid=$!
}

# Waits (a minute at most) for the first candidate to be told.
told_first() {
    i=0
    while ! grep -q '^\[1/' "$tmp/out" && [ $i -lt 1200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
}

# The build processes of $pid now.
workers() {
    ps -o pid=,args= --ppid "$pid" 2>/dev/null | awk '/__build-worker/ { print $1 }'
}

# Waits for $pid, noting its build processes meanwhile into $seen; $rc its exit status.
wait_noting() {
    while kill -0 "$pid" 2>/dev/null; do
        for w in $(workers); do
            case " $seen " in *" $w "*) ;; *) seen="$seen $w" ;; esac
        done
        sleep 0.05
    done
    wait "$pid"
    rc=$?
}

# same_as WANT GOT CHECK WHAT: the run exited 0 with two build processes seen, CHECK (a status)
# is 0, and GOT's candidates are WANT's.
same_as() {
    if [ "$rc" -eq 0 ] && [ "$3" -eq 0 ] && [ "$(echo "$seen" | wc -w)" -eq 2 ] && [ -s "$1" ] &&
        cmp -s "$1" "$2"; then
        ok
    else
        no "$4 (exit $rc; processes$seen)"
        diff "$1" "$2"
    fi
}

# None of $seen is left, as a process or as a zombie.
none_left() {
    for w in $seen; do
        if [ -n "$(ps -o stat= -p "$w")" ]; then
            echo "build process $w is left: $(ps -o stat=,args= -p "$w")"
            return 1
        fi
    done
    return 0
}

# ---- the same search built here and in two build processes ----------------------------------
# breaks: half the configurations do not compile (BREAK=1).
breaks="-k breaks --kernel-path $fx/breaks -n 16 --param LX=4,8,16 --param LY=4,8 --strategy random
    --budget 8 -i 2"
# shellcheck disable=SC2086
tune_bg here $breaks --builders 0 --threads 0
wait "$pid"
rc=$?
told "$tmp/out" >"$tmp/here"
if [ $rc -eq 0 ] && grep -q "0 build process(es), 0 build thread(s)" "$tmp/out" &&
    grep -q "BREAK=1: cannot win: GB_EBUILD" "$tmp/out"; then
    ok
else no "built here: exit $rc"; fi
seen=
# shellcheck disable=SC2086
tune_bg procs $breaks --builders 2
wait_noting
told "$tmp/out" >"$tmp/procs"
if [ $rc -eq 0 ] && grep -q "2 build process(es), 0 build thread(s)" "$tmp/out" &&
    [ "$(echo "$seen" | wc -w)" -eq 2 ] && [ -s "$tmp/here" ] &&
    cmp -s "$tmp/here" "$tmp/procs" &&
    grep -A1 "BREAK=1: cannot win: GB_EBUILD: OpenCL build of 'breaks' failed.*build log:$" \
        "$tmp/out" | grep -q "^error: "; then
    ok
else
    no "built in processes (exit $rc; processes$seen)"
    diff "$tmp/here" "$tmp/procs"
fi
if none_left; then ok; else no "build processes left after the tuning"; fi
# The failed builds are in the store: the same command again measures nothing.
# shellcheck disable=SC2086
tune_bg procs $breaks --builders 2
wait "$pid"
if grep -q "(0 measured, [0-9]* from the store, [1-9][0-9]* cannot win)" "$tmp/out" &&
    [ "$(told "$tmp/out" | sed 's/ (stored)//')" = "$(cat "$tmp/here")" ]; then ok; else
    no "the failures of build processes were not stored"; fi

# Every precision's request is taken: h (2 in the request) was refused as malformed when the
# field allowed s and d alone, and the candidates were built in the tuner instead. With
# --confirm 0 the best first measurement wins (there was no winner at all).
tune_bg prec -k naive --precision h -n 16 --strategy random --budget 2 --no-presets -i 2 \
    --confirm 0 --builders 1
wait "$pid"
rc=$?
if [ $rc -eq 0 ] && grep -q "1 build process(es)" "$tmp/out" &&
    ! grep -q "could not take the request" "$tmp/out" "$tmp/err" &&
    grep -q "^  winner: LX=" "$tmp/out"; then ok; else
    no "an h request to a build process (exit $rc)"; fi

# ---- several shapes: the build processes start once, for every run -------------------------
shapes="-k breaks --kernel-path $fx/breaks -n 16,24,32 --param LX=4,8,16 --param LY=4,8
    --strategy random --budget 6 -i 2 --confirm 0"
# shellcheck disable=SC2086
tune_bg here3 $shapes --builders 0 --threads 0
wait "$pid"
told "$tmp/out" >"$tmp/here3"
seen=
# shellcheck disable=SC2086
tune_bg procs3 $shapes --builders 2
wait_noting
told "$tmp/out" >"$tmp/procs3"
[ "$(grep -c "^tune: breaks s .*: 6 evaluations" "$tmp/out")" -eq 3 ]
same_as "$tmp/here3" "$tmp/procs3" $? "three shapes on two build processes started once"
if none_left; then ok; else no "build processes left after three shapes"; fi

# ---- two devices of one kind (-d 0,0): one pool of build processes serves both ---------------
seen=
# shellcheck disable=SC2086
tune_bg shared $shapes --builders 2 -d 0,0
wait_noting
sed -n 's/^\[[0-9]*: [^]]*\] //p' "$tmp/out" >"$tmp/shared.out"
told "$tmp/shared.out" | sort >"$tmp/shared"
sort "$tmp/here3" >"$tmp/here3.sorted"
grep -q "2 build process(es), 0 build thread(s) per kind of device" "$tmp/out"
same_as "$tmp/here3.sorted" "$tmp/shared" $? "-d 0,0 with one pool of two build processes"
if none_left; then ok; else no "build processes left after -d 0,0"; fi

# ---- a build process killed mid-run --------------------------------------------------------
# breaks over 40 configurations, 20 asked: after the first is told, at least 12 more builds are
# asked for, so the killed process's thread meets its death, mid-build or at its next request;
# on a busy machine the victim may not be ready yet, and is started again all the same.
wide="-k breaks --kernel-path $fx/breaks -n 16 --param LX=1,2,4,8,16 --param LY=1,2,4,8
    --strategy random --budget 20 -i 2 --confirm 0"
seen=
# shellcheck disable=SC2086
tune_bg killed $wide --builders 2
told_first
victim=$(workers | head -1)
[ -n "$victim" ] && seen=$victim && kill -KILL "$victim"
wait_noting
told "$tmp/out" >"$tmp/killed"
# The same search built here.
# shellcheck disable=SC2086
GEMMBENCH_CACHE_DIR="$tmp/cache-here-wide" "$gb" tune --store "$tmp/here-wide.db" $wide \
    --builders 0 --threads 0 >"$tmp/out-here" 2>&1
told "$tmp/out-here" >"$tmp/here-wide"
lost='was lost \(.*: killed by signal 9\) building breaks .*'
unready='could not start \(.*killed by signal 9\)'
if [ $rc -eq 0 ] && [ -n "$victim" ] &&
    grep -Eq "a build process ($lost|$unready): started again" "$tmp/err" &&
    grep -q ": 20 evaluations" "$tmp/out" && [ -s "$tmp/here-wide" ] &&
    cmp -s "$tmp/here-wide" "$tmp/killed"; then
    ok
else
    no "a build process killed (exit $rc, victim ${victim:-none})"
    diff "$tmp/here-wide" "$tmp/killed"
fi
if none_left; then ok; else no "build processes left after one was killed"; fi

# ---- a build process killed as it starts -----------------------------------------------------
# Killed as soon as it is seen, mostly before it is ready (its runtime takes a while to load):
# started once more, or, where it was ready already, lost and started again; the same results.
seen=
# shellcheck disable=SC2086
tune_bg early $wide --builders 2
i=0
victim=
while [ -z "$victim" ] && [ $i -lt 1200 ]; do
    victim=$(workers | head -1)
    [ -n "$victim" ] || sleep 0.01
    i=$((i + 1))
done
[ -n "$victim" ] && seen=$victim && kill -KILL "$victim"
wait_noting
told "$tmp/out" >"$tmp/early"
if [ $rc -eq 0 ] && [ -n "$victim" ] &&
    grep -Eq "a build process ($lost|$unready): started again" "$tmp/err" &&
    cmp -s "$tmp/here-wide" "$tmp/early"; then
    ok
    if grep -Eq "$unready" "$tmp/err"; then echo "(killed before it was ready)"; else
        echo "(killed once ready)"; fi
else
    no "a build process killed as it starts (exit $rc, victim ${victim:-none})"
    diff "$tmp/here-wide" "$tmp/early"
fi
if none_left; then ok; else no "build processes left after one was killed as it started"; fi

# ---- Ctrl-C --------------------------------------------------------------------------------------
# myGEMM3 with a PoCL cache of its own, empty: builds of a second or so each.
gemm3="-k myGEMM3 -n 32 --strategy random --budget 8 -i 2"
export POCL_CACHE_DIR="$tmp/pocl-interrupted"
seen=
# shellcheck disable=SC2086
tune_bg interrupted $gemm3 --builders 2
told_first
seen=$(workers | tr '\n' ' ')
kill -INT "$pid"
wait_noting
if [ $rc -eq 130 ] && [ -n "$seen" ] && grep -q "tune interrupted by SIGINT" "$tmp/err"; then
    ok
else
    no "Ctrl-C with build processes: exit $rc, processes ${seen:-none}"; fi
if none_left; then ok; else no "build processes left after Ctrl-C"; fi

# ---- no program cache: threads instead, said once ------------------------------------------
GEMMBENCH_NO_CACHE=1 "$gb" tune -k myGEMM1 -n 32 --strategy exhaustive --no-presets -i 2 \
    --builders 2 --store "$tmp/nocache.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c "program cache is off" "$tmp/out")" -eq 1 ] &&
    grep -q "0 build process(es), 2 build thread(s)" "$tmp/out" &&
    grep -q "7 evaluations (7 measured" "$tmp/out"; then
    ok
else no "--builders without a cache"; fi

finish
