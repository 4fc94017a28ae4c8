#!/bin/sh
# explore_mpi.sh GEMMBENCH: a sweep over 3 MPI ranks on one device (PoCL) stores exactly the
# points of a one-process sweep, each once; a worker rank killed mid-sweep costs at most its
# point in flight: what arrived is stored, and the same command then measures the rest. A tuning
# over 3 ranks measures the candidates one process measures, keeps a winner per shape class, and
# run again takes everything from the store; a rank killed during a tuning loses its run in flight
# and the same command goes on from the store. Over ranks on two kinds of device, each kind tunes
# every shape, and a refresh over them gives each kind its own runs. A rank that mpirun bound to
# fewer cores than the host has says so.
# Skipped (77) where mpirun is missing or gemmbench was built without MPI.
gb=$1
. "$(dirname "$0")/script_lib.sh"
requires mpirun openmpi-bin
"$gb" explore -k naive -n 8 --mpi --store "$tmp/probe.db" >"$tmp/probe.txt" 2>&1
if grep -q "built without MPI" "$tmp/probe.txt"; then echo "built without MPI; skipping"; exit 77; fi
# Root in containers and CI; more ranks than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { mpirun --oversubscribe -n 3 "$gb" "$@" --mpi; }
ids() { "$gb" export --format csv --store "$1" 2>/dev/null | tail -n +2 | cut -d, -f1 | sort; }
sweep="-k SGEMM_NT_4x1,naive -n 8,16,24 -i 2 --warmup 0 --repeat 2"
# kill_rank2 PATTERN TRIES READY: SIGKILL to rank 2 of the processes whose command line matches
# PATTERN once the command READY succeeds, polling every 0.1 s at most TRIES times.
kill_rank2() {
    victim=""
    for _ in $(seq 1 "$2"); do
        for p in $(pgrep -f "$1" 2>/dev/null); do
            tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=2" &&
                victim=$p
        done
        [ -n "$victim" ] && "$3" && break
        sleep 0.1
    done
    [ -n "$victim" ] || fail "no rank 2 to kill"
    kill -9 "$victim"
}

"$gb" explore $sweep --store "$tmp/one.db" >"$tmp/one.txt" 2>&1 || fail "one process"
# A pause after each point (not part of a point's id): rank 0 alone would need 6 s for the 12,
# so the other ranks, however slowly they start on a busy machine, get some of them.
mpi explore $sweep --pause 500 --store "$tmp/mpi.db" >"$tmp/mpi.txt" 2>&1 || fail "mpirun -n 3"
grep -q "explore: 12 measured and stored" "$tmp/mpi.txt" || fail "12 points must be measured"
grep -q "rank [12]: " "$tmp/mpi.txt" || fail "the worker ranks must measure points"
ids "$tmp/one.db" >"$tmp/one.ids"
ids "$tmp/mpi.db" >"$tmp/mpi.ids"
[ "$(uniq "$tmp/mpi.ids" | wc -l)" -eq 12 ] || fail "a point stored twice or missing"
cmp -s "$tmp/one.ids" "$tmp/mpi.ids" || fail "the ranks stored other points than one process"
"$gb" store check --store "$tmp/mpi.db" >"$tmp/check.txt" 2>&1 || fail "store inconsistent"
mpi explore $sweep --store "$tmp/mpi.db" >"$tmp/again.txt" 2>&1 || fail "second mpirun"
grep -q "0 to measure, 12 already in the store" "$tmp/again.txt" || fail "the rerun must find all 12"

# A worker rank killed with SIGKILL while points are measured (each point pauses 300 ms).
long="-k SGEMM_NT_4x1,naive -n 8:96:8 -i 2 --warmup 0 --pause 300"
mpi explore $long --store "$tmp/kill.db" >"$tmp/kill.txt" 2>&1 &
job=$!
enough() { [ "$(ids "$tmp/kill.db" | wc -l)" -ge 3 ]; }
kill_rank2 "gemmbench explore .*kill.db" 100 enough
wait $job && fail "mpirun must fail when a rank is killed"
got=$(ids "$tmp/kill.db" | wc -l)
[ "$got" -ge 3 ] && [ "$got" -lt 24 ] || fail "expected some of the 24 points stored, got $got"
mpi explore $long --pause 0 --store "$tmp/kill.db" >"$tmp/resume.txt" 2>&1 || fail "the resume"
grep -q "24 points .* $((24 - got)) to measure, $got already in the store" "$tmp/resume.txt" ||
    fail "the resume must measure only what was not stored"
[ "$(ids "$tmp/kill.db" | uniq | wc -l)" -eq 24 ] || fail "after the resume: 24 points, each once"
# tune --mpi: four shapes over three ranks.
tsweep="-k myGEMM1 -n 24,40,56,72 --strategy exhaustive --no-presets -i 2 --confirm 1"
# The candidates' first measurements at the tuned (cubic) shapes; a winner's checks at other
# shapes of its class (never cubic) depend on which leader won, which the timings decide.
rep0() { "$gb" export --format csv --store "$1" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "rep") r = i; if ($i == "m") m = i; if ($i == "n") n = i; if ($i == "k") k = i }; next } $r == 0 && $m == $n && $n == $k { print $1 }' | sort; }
"$gb" tune $tsweep --store "$tmp/tone.db" >"$tmp/tone.txt" 2>&1 || fail "tune, one process"
mpi tune $tsweep --store "$tmp/tmpi.db" >"$tmp/tmpi.txt" 2>&1 || fail "tune under mpirun -n 3"
[ "$(grep -c "\] tune: myGEMM1 s .* 7 evaluations (7 measured" "$tmp/tmpi.txt")" -eq 4 ] ||
    fail "each of the 4 shapes must be tuned once"
[ "$(grep -c "\]   tuning database: " "$tmp/tmpi.txt")" -eq 4 ] ||
    fail "rank 0 must say what became of each winner"
grep -q "^\[rank [12]: .*\] tune: " "$tmp/tmpi.txt" || fail "the other ranks must tune shapes"
rep0 "$tmp/tone.db" >"$tmp/tone.ids"
rep0 "$tmp/tmpi.db" >"$tmp/tmpi.ids"
[ -s "$tmp/tone.ids" ] && cmp -s "$tmp/tone.ids" "$tmp/tmpi.ids" ||
    fail "the ranks must measure the candidates one process measures"
# Every run's record (its evaluations too), whichever rank made it, is in rank 0's store.
[ "$("$gb" report --store "$tmp/tmpi.db" | grep -cE " myGEMM1 .* exhaustive +1 +7 .* done *\$")" -eq 4 ] ||
    fail "rank 0's store must hold the 4 tuning runs, each with its 7 evaluations"
[ "$("$gb" tuned list --store "$tmp/tmpi.db" | grep -c "myGEMM1")" -eq 2 ] ||
    fail "two shape classes, two entries"
mpi tune $tsweep --store "$tmp/tmpi.db" >"$tmp/tmpi2.txt" 2>&1 || fail "second tune --mpi"
[ "$(grep -c "(0 measured, 7 from the store" "$tmp/tmpi2.txt")" -eq 4 ] ||
    fail "run again, every rank must find its candidates in the store"
# tune --mpi with a worker rank killed during its run: mpirun fails; what rank 0 stored stays
# (its own runs, the runs the ranks sent), the killed rank's run in flight is lost, and the same
# command then goes on, taking every candidate measured before from the store.
tlong="-k myGEMM1 -n 24,40,56,72,88,104 --strategy exhaustive --no-presets -i 300 --confirm 1"
mpi tune $tlong --store "$tmp/tkill.db" >"$tmp/tkill.txt" 2>&1 &
job=$!
# A run stored by rank 0 and rank 2 in the middle of one. Rank 0 says what became of a winner
# once the run is stored; a rank's own "tune:" line comes before rank 0 has what it sent (the
# test once killed rank 2 right after such a line and found nothing stored).
midrun() { grep -q "^\[rank 2: .*\] \[[1-9]/" "$tmp/tkill.txt" && grep -q "\]   tuning database: " "$tmp/tkill.txt"; }
kill_rank2 "gemmbench tune .*tkill.db" 300 midrun
wait $job && fail "mpirun must fail when a rank of tune is killed"
runs() { "$gb" report --store "$1" | grep -cE " myGEMM1 .* exhaustive +1 +[0-9]+ .* done *\$"; }
before=$(runs "$tmp/tkill.db")
[ "$before" -ge 1 ] && [ "$before" -lt 6 ] || fail "expected some of the 6 runs stored, got $before"
"$gb" store check --store "$tmp/tkill.db" >"$tmp/tcheck.txt" 2>&1 || fail "store inconsistent after the kill"
mpi tune $tlong --store "$tmp/tkill.db" >"$tmp/tresume.txt" 2>&1 || fail "the tuning's resume"
[ "$(grep -c "\] tune: myGEMM1 s " "$tmp/tresume.txt")" -eq 6 ] || fail "the resume must tune the 6 shapes"
from=$(sed -n 's/.* evaluations ([0-9]* measured, \([0-9]*\) from the store.*/\1/p' "$tmp/tresume.txt" |
    awk '{ s += $1 } END { print s + 0 }')
[ "$from" -ge $((before * 7)) ] || fail "the resume must take the $before stored runs' candidates from the store (took $from)"
# One tuning, one row: each run of the resume goes on in (or replaces) the row its shape had.
[ "$(runs "$tmp/tkill.db")" -eq 6 ] || fail "the store must hold one run per shape, the resume's 6"
# tune --mpi over two kinds of device: PoCL's basic and pthread drivers make devices of other
# names. Rank 0 on the basic device, a kind alone, tunes every shape; ranks 1 and 2 on pthread
# devices share the shapes between them; each kind keeps its own entries.
POCL_DEVICES="basic pthread" mpirun --oversubscribe -n 3 "$gb" tune $tsweep \
    --device-map basic,pthread,pthread --mpi --store "$tmp/tkinds.db" >"$tmp/tkinds.txt" 2>&1 ||
    fail "tune --mpi over two kinds of device"
[ "$(grep -c "^\[rank 0: basic-.*\] tune: myGEMM1 s .* 7 evaluations" "$tmp/tkinds.txt")" -eq 4 ] ||
    fail "the basic device, a kind alone, must tune the 4 shapes"
[ "$(grep -c "^\[rank [12]: pthread-.*\] tune: myGEMM1 s .* 7 evaluations" "$tmp/tkinds.txt")" -eq 4 ] ||
    fail "the two pthread ranks must tune the 4 shapes between them, each once"
[ "$(grep -c "\] a kind of its own " "$tmp/tkinds.txt")" -eq 1 ] ||
    fail "rank 0 must say once that a rank is of another kind"
[ "$("$gb" tuned list --store "$tmp/tkinds.db" | grep -c "myGEMM1")" -eq 4 ] ||
    fail "two shape classes on two kinds of device, four entries"
[ "$("$gb" report --store "$tmp/tkinds.db" | grep -cE " myGEMM1 .* exhaustive +1 +7 .* done *\$")" -eq 8 ] ||
    fail "rank 0's store must hold the 8 tuning runs"
# tune --refresh --mpi over the same two kinds: rank 0 plans for both (their entries are of one
# family), each kind refreshes its two classes, and the pthread ranks, which plan nothing, get
# their runs (shape, seeds) from rank 0.
POCL_DEVICES="basic pthread" mpirun --oversubscribe -n 3 "$gb" tune --refresh --no-shipped \
    --strategy exhaustive --no-presets -i 2 --confirm 1 --budget 2 \
    --device-map basic,pthread,pthread --mpi --store "$tmp/tkinds.db" >"$tmp/trefresh.txt" 2>&1 ||
    fail "tune --refresh --mpi over two kinds of device"
[ "$(grep -c "^\[rank 0: basic-.*\] tune: myGEMM1 s " "$tmp/trefresh.txt")" -eq 2 ] &&
    [ "$(grep -c "^\[rank [12]: pthread-.*\] tune: myGEMM1 s " "$tmp/trefresh.txt")" -eq 2 ] ||
    fail "each kind must refresh its two classes, the pthread ranks theirs as rank 0 sent them"
grep -q "^\[rank [12]: pthread-.*\] refresh: s col-NN small-[0-9]*: myGEMM1 at .*, [1-4] seed(s)$" \
    "$tmp/trefresh.txt" || fail "a rank's run must come with its seeds"
[ "$("$gb" report --store "$tmp/tkinds.db" | grep -cE " myGEMM1 .* exhaustive +1 +[0-9]+ .* done *\$")" -eq 12 ] ||
    fail "rank 0's store must hold the 4 refresh runs besides the 8"
# Ranks bound to one core each (Open MPI's default for two ranks) say so, with the fix; unbound,
# they say nothing of it.
if [ "$(nproc)" -ge 2 ]; then
    rm -f "$tmp/bind.db"
    mpirun -n 2 --bind-to core "$gb" explore -k naive -n 8 -i 1 --mpi --store "$tmp/bind.db" \
        >"$tmp/bind.txt" 2>&1 || fail "explore --mpi bound to cores"
    [ "$(grep -c "rank [01] may run on 1 of the $(nproc) cores .*give mpirun --bind-to none" \
        "$tmp/bind.txt")" -eq 2 ] || fail "each bound rank must say that it runs on one core"
    rm -f "$tmp/bind.db"
    mpirun -n 2 --bind-to none "$gb" explore -k naive -n 8 -i 1 --mpi --store "$tmp/bind.db" \
        >"$tmp/bind.txt" 2>&1 || fail "explore --mpi unbound"
    grep -q "may run on" "$tmp/bind.txt" && fail "unbound ranks must not speak of binding"
fi
echo "explore_mpi: ok"
