#!/bin/sh
# tune_run.sh GEMMBENCH FIXTURES: tune on the default device: a whole space searched, its winner
# (at least as fast as the runner-up) kept and used by -k auto; the same command again measures
# nothing; an interrupted tune resumes; a candidate that does not end is recorded as timed out and
# the tuning goes on without it, and so does one that crashes the process; the time limit covers
# a candidate's runs, not its compile; one that is not faithful cannot win; one that the
# problem's size refuses is not searched; shapes spread over two workers (-d 0,0), and over three
# that share one store connection and store what one device stores (-d 0,0,0); in c (C on A, kept
# under row-TN) and h, winners that -k auto runs in their precision and not in s or b, wrong
# complex candidates that cannot win, and --precision all.
gb=$1
fx=$2
. "$(dirname "$0")/script_lib.sh"
db=$tmp/t.db
# no MESSAGE: bad, with the last command's output.
no() { bad "$1"; cat "$tmp/out" "$tmp/err"; }

# myGEMM1's 7 configurations at 32^3, every one measured.
tune1() { "$gb" tune -k myGEMM1 -n 32 --strategy exhaustive --no-presets -i 3 --store "$db" "$@" >"$tmp/out" 2>"$tmp/err"; }
tune1
if [ $? -eq 0 ] && grep -q "7 evaluations (7 measured, 0 from the store, 0 cannot win)" "$tmp/out" &&
    grep -q "winner: TS=" "$tmp/out" && grep -q "new entry for small-32 s col-NN" "$tmp/out"; then
    ok
else no "a whole space tuned"; fi
winner=$(sed -n 's/^  winner: \(TS=[0-9]*\) .*/\1/p' "$tmp/out")
# The winner is the confirmed leader of the highest rate: at least the runner-up's.
rates=$(sed -n 's/^  winner: TS=[0-9]* at \([0-9.e+-]*\) GFLOP\/s: .* the runner-up TS=[0-9]* at \([0-9.e+-]*\) GFLOP\/s .*/\1 \2/p' "$tmp/out")
if [ -n "$rates" ] && echo "$rates" | awk '{ exit !($1 >= $2) }'; then ok; else
    no "the winner's rate must be at least the runner-up's: ${rates:-no verdict with a runner-up}"; fi

# The same command again: everything comes from the store.
tune1
if [ $? -eq 0 ] && grep -q "7 evaluations (0 measured, 7 from the store, 0 cannot win)" "$tmp/out" &&
    grep -q "tuning database: confirms the entry for small-32" "$tmp/out"; then
    ok
else no "the same tune again measured something"; fi

# The run recorded as a space (from the store) with the device's limits; the simulation opens the
# space under them: with a work-group limit of 256 only TS <= 16 is left.
tune1 --record "$tmp/m1.space"
if [ $? -eq 0 ] && grep -q "^limits type=cpu local_memory=[0-9]* work_group=[0-9]* work_items=" \
    "$tmp/m1.space" && [ "$(sed '1,/^configurations$/d;/^#/d' "$tmp/m1.space" | wc -l)" -eq 7 ] &&
    [ "$(tail -1 "$tmp/m1.space")" = "# 7 of the space's 7 configurations recorded" ] &&
    sed -e 's/work_group=[0-9]*/work_group=256/' -e '/^32 /d' -e '/^64 /d' "$tmp/m1.space" \
        >"$tmp/m256.space" &&
    "$gb" tune --simulate "$tmp/m1.space" --strategy exhaustive >"$tmp/out" 2>"$tmp/err" &&
    grep -q ": 7 configurations" "$tmp/out" &&
    "$gb" tune --simulate "$tmp/m256.space" --strategy exhaustive >"$tmp/out" 2>"$tmp/err"; then
    ok
else no "a tuning recorded and simulated"; fi
if grep -q ": 5 configurations" "$tmp/out"; then ok; else no "the limits ignored"; fi

# The database has the winner, and -k auto runs it (the table's choice: measuring would weigh
# it against the rest of its portfolio).
"$gb" tuned list --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep "myGEMM1" "$tmp/out" | grep -q "$winner"; then ok; else no "tuned list"; fi
GEMMBENCH_SELECT=off "$gb" run -k auto -n 32 --layout col --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "auto -> myGEMM1 $winner (tuned: " "$tmp/out" &&
    grep -q "^myGEMM1 .* pass " "$tmp/out"; then
    ok
else no "-k auto after tuning"; fi

# The family's preset is measured first, besides the budget.
"$gb" tune -k myGEMM3 -n 32 --budget 2 -i 2 --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -m1 '^\[' "$tmp/out" | cut -d' ' -f2-3)" = "TS=32 WPT=8:" ] &&
    grep -q ": 3 evaluations" "$tmp/out"; then
    ok
else no "the preset first"; fi

# Interrupted after a few candidates, then resumed: nothing measured twice. The output is
# emptied first: the background tune empties it only when it starts, and the wait below read the
# last command's three lines, so SIGINT came before tune caught it (a background job of a script
# ignores it) and the tune ran to its end.
: >"$tmp/out"
# -i 100 at 96^3: a few seconds in all, so that the signal comes while candidates are left (at
# 16^3 with warm programs the whole tuning once ended before the signal came).
"$gb" tune -k naive -n 96 -i 100 --strategy random --budget 40 --threads 0 --store "$db" \
    >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while [ "$(grep -c '^\[' "$tmp/out")" -lt 3 ] && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
done_before=$(grep -c '^\[' "$tmp/out")
if [ $rc -eq 130 ] && grep -q "tune interrupted by SIGINT" "$tmp/err"; then ok; else
    no "tune interrupted: exit $rc"; fi
"$gb" tune -k naive -n 96 -i 100 --strategy random --budget 40 --threads 0 --store "$db" \
    >"$tmp/out" 2>"$tmp/err"
cached=$(sed -n 's/.*measured, \([0-9]*\) from the store.*/\1/p' "$tmp/out")
if [ $? -eq 0 ] && [ -n "$cached" ] && [ "$cached" -ge "$done_before" ]; then ok; else
    no "resume after SIGINT: $done_before measured before, ${cached:-none} from the store"; fi

# SPIN=1 runs for minutes from its first call, which on a CPU device is the compile's (PoCL
# compiles at the first launch): timed out after 10 s of --compile-timeout (SPIN=0's compile
# and runs have that long on a busy machine), recorded; a new process finishes the search.
"$gb" tune -k spin --kernel-path "$fx/spin" -n 8 --param LX=8 --param LY=8 \
    --strategy exhaustive --candidate-timeout 10 --compile-timeout 10 -i 2 --store "$db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "SPIN=1 ran past --compile-timeout (.*); recorded as timed out" "$tmp/err" &&
    grep -q "winner: LX=8 LY=8 SPIN=0" "$tmp/out" && grep -q "1 cannot win" "$tmp/out"; then
    ok
else no "a candidate past --compile-timeout"; fi

# FAULT=1 crashes the process (PoCL asserts on its local array): the tuning starts again, names
# it, records it as crashed, and ends with a winner; one tuning, one row in the history.
ft="-k faults --kernel-path $fx/faults -n 8 --param LX=8 --param LY=8 --strategy exhaustive -i 3"
"$gb" tune $ft --param FAULT=0,1 --store "$tmp/crash.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "tune: the process crashed (SIGSEGV); going on in a new process" "$tmp/err" &&
    grep -q "FAULT=1: the process crashed (SIGSEGV) while it measured faults .*: not run again (GB_ECRASH)" "$tmp/err" &&
    grep -q "FAULT=1: cannot win: GB_ECRASH: " "$tmp/out" && grep -q "winner: LX=8 LY=8 FAULT=0 " "$tmp/out" &&
    "$gb" store info --store "$tmp/crash.db" 2>&1 | grep -q "^tuning runs: 1 (2 evaluations)"; then
    ok
else no "a candidate that crashes the process"; fi
# Again: the crash is stored, nothing runs it.
"$gb" tune $ft --param FAULT=0,1 --store "$tmp/crash.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && ! grep -q "crashed (SIGSEGV);" "$tmp/err" &&
    grep -q "FAULT=1: cannot win: GB_ECRASH: .*(stored)" "$tmp/out" &&
    "$gb" store info --store "$tmp/crash.db" 2>&1 | grep -q "^tuning runs: 1 (2 evaluations)"; then
    ok
else no "a crashed candidate run again"; fi

# On a CPU device a candidate's first call compiles (PoCL): FAULT=2 compiles for seconds and runs
# in microseconds, so --candidate-timeout 5, which covers the runs alone, lets it through (empty
# program caches: the compile happens here). FAULT=3 runs past it after its first call: timed
# out, and the new process goes on with the log where the old one left it (each evaluation and
# the heading once) in the same history row.
GEMMBENCH_CACHE_DIR=$tmp/cache POCL_CACHE_DIR=$tmp/pocl "$gb" tune $ft --param FAULT=0,2,3 \
    --candidate-timeout 5 --compile-timeout 300 --store "$tmp/limits.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^\[2/3\] LX=8 LY=8 FAULT=2: [0-9.e+-]* GFLOP/s" "$tmp/out" &&
    grep -q "FAULT=3 ran past --candidate-timeout (still running after --candidate-timeout 5 s); recorded as timed out; going on in a new process" "$tmp/err" &&
    grep -q "^\[3/3\] LX=8 LY=8 FAULT=3: cannot win: GB_ETIMEOUT" "$tmp/out" &&
    [ "$(grep -c '^\[1/3\] ' "$tmp/out")" -eq 1 ] && [ "$(grep -c '^\[2/3\] ' "$tmp/out")" -eq 1 ] &&
    [ "$(grep -c '^tune: 1 kernel' "$tmp/out")" -eq 1 ] && grep -q "1 cannot win" "$tmp/out" &&
    "$gb" store info --store "$tmp/limits.db" 2>&1 | grep -q "^tuning runs: 1 (3 evaluations)"; then
    ok
else no "--candidate-timeout on the runs, not the compile"; fi

# Inputs rounded to TF32 pass the bound at K = 4096 but are not faithful: they cannot win.
"$gb" tune -k wrong --kernel-path "$fx/wrong" --param WRONG=0,2 -M 64 -N 64 -K 4096 \
    --strategy exhaustive --no-presets -i 2 --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "WRONG=2: cannot win: GB_EVALIDATION: not faithful: " "$tmp/out" &&
    grep -q "no winner" "$tmp/out"; then
    ok
else no "a candidate that is not faithful cannot win"; fi

# A winner is validated at a shorter and a longer K of its shape class too (64^3, small-64: 128 x
# 128 x 16 and 64 x 32 x 128): WRONG=4, right at K = 64 and wrong below 32, is passed over and
# said, and no entry is made; with --no-siblings it wins, the tuned shape alone validated.
"$gb" tune -k wrong --kernel-path "$fx/wrong" --param WRONG=4 -n 64 --strategy exhaustive \
    --no-presets -i 2 --store "$tmp/sib.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "no winner" "$tmp/out" &&
    grep -q "leader WRONG=4 passed over: not valid at 128x128x16, a shape of its class small-64: " \
        "$tmp/out" "$tmp/err" &&
    "$gb" store list --store "$tmp/sib.db" 2>&1 | grep -q " 128x128x16 .* FAIL" &&
    "$gb" tune -k wrong --kernel-path "$fx/wrong" --param WRONG=4 -n 64 --strategy exhaustive \
        --no-presets -i 2 --no-siblings --store "$tmp/sib2.db" >"$tmp/out" 2>"$tmp/err" &&
    grep -q "winner: WRONG=4 " "$tmp/out"; then
    ok
else no "a winner not valid at a sibling shape of its class is passed over (exit $rc)"; fi

# A configuration that the problem's size refuses (capped: CAP=0 asks K <= 16) is not in the space
# a tuning at K = 24 searches: never proposed, no evaluation spent on it; the run goes to its
# winner. At K = 16 both are in it.
"$gb" tune -k capped --kernel-path "$fx/capped" -n 24 --fix LX=8 --fix LY=8 --strategy exhaustive \
    -i 2 --store "$tmp/capped.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && ! grep -q "CAP=0" "$tmp/out" && grep -q "0 cannot win" "$tmp/out" &&
    grep -q "winner: LX=8 LY=8 CAP=1 " "$tmp/out" &&
    "$gb" store info --store "$tmp/capped.db" 2>&1 | grep -q "^tuning runs: 1 (1 evaluations)" &&
    "$gb" tune -k capped --kernel-path "$fx/capped" -n 16 --fix LX=8 --fix LY=8 \
        --strategy exhaustive -i 2 --store "$tmp/capped.db" >"$tmp/out" 2>"$tmp/err" &&
    grep -q "LX=8 LY=8 CAP=0: " "$tmp/out" && grep -q "LX=8 LY=8 CAP=1: " "$tmp/out"; then
    ok
else no "a configuration the problem's size refuses: $(tail -1 "$tmp/err")"; fi

# Two workers on one device (-d 0,0): each shape is tuned once, by one of them, and every shape
# gets its entry, the largest shapes handed out first (the smallest run starts last: run 3); the
# same command again measures nothing.
tune2() {
    "$gb" tune -k myGEMM1 -n 24,40,56 -d 0,0 --strategy exhaustive --no-presets -i 2 \
        --confirm 1 --store "$tmp/d.db" >"$tmp/out" 2>"$tmp/err"
}
tune2
if [ $? -eq 0 ] && grep -q "on 2 devices in 1 kind(s)" "$tmp/out" &&
    [ "$(grep -c "^\[[01]: .*\] tune: myGEMM1 s" "$tmp/out")" -eq 3 ] &&
    grep -q "^\[0: " "$tmp/out" && grep -q "^\[1: " "$tmp/out" &&
    grep -q "tune: myGEMM1 s 24x24x24 .* run 3 done" "$tmp/out" &&
    [ "$(grep -c "tuning database: new entry for small-" "$tmp/out")" -ge 2 ]; then
    ok
else no "-d 0,0: three shapes over two workers"; fi
# The two workers each rewrite the tuning file as they keep a winner: the last one written holds
# every entry of the store, and no temporary file is left beside it.
if [ "$(grep -vc "^#" "$tmp/d.db.tuned")" -eq "$("$gb" tuned list --store "$tmp/d.db" | grep -c "myGEMM1")" ] &&
    ! ls "$tmp" | grep -q "\.tmp$"; then
    ok
else no "-d 0,0: the tuning file holds the store's entries"; fi
tune2
if [ $? -eq 0 ] && [ "$(grep -c "(0 measured, 7 from the store" "$tmp/out")" -eq 3 ]; then
    ok
else no "-d 0,0 again: everything from the store"; fi

# Three workers on one device (-d 0,0,0) store through the command's one connection: stopped
# while they tune, the process holds the store file open once (each SQLite connection opens it
# again). And the store comes out as one device's: the same runs, evaluations, points and
# entries, each candidate measured once (the strategy's seed fixes them; the winners' rates
# differ from run to run, so they are not compared).
t3="-k naive -n 48,64,80,96 -i 100 --strategy random --budget 4 --no-presets --confirm 1"
evaluated() { sed -n 's/.*\(\[[0-9]*\/4\] [^:]*\):.*/\1/p' "$1" | sort; }
"$gb" tune $t3 -d 0 --store "$tmp/one.db" >"$tmp/one.out" 2>"$tmp/err"
: >"$tmp/out"
# gemmbench itself in the background (not a function, whose subshell's pid $! would be).
"$gb" tune $t3 -d 0,0,0 --store "$tmp/three.db" >"$tmp/out" 2>"$tmp/err" &
pid=$!
i=0
while ! grep -q '^\[.*\] \[1/4\]' "$tmp/out" && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
opens=none
if [ -d /proc/$pid/fd ] && kill -STOP $pid 2>/dev/null; then
    opens=$(ls -l /proc/$pid/fd | grep -c '/three\.db$')
    kill -CONT $pid
fi
wait $pid
rc=$?
if [ $rc -eq 0 ] && [ "$opens" = 1 ] && grep -q "on 3 devices in 1 kind(s)" "$tmp/out"; then ok; else
    no "-d 0,0,0: exit $rc, the store file open $opens time(s) while tuning (want once)"; fi
# PoCL's own program cache has aborted once under a loaded machine with three threads building
# at once ("pocl_release_dlhandle_cache: Assertion ... failed"): the tuner then rightly records
# the candidates in flight as crashed, and the store is not one device's. Such a run of the
# driver's is tried once more in a fresh store; a second crash fails.
if grep -q "pocl_.*Assertion" "$tmp/err"; then
    echo "note: PoCL aborted during -d 0,0,0 ($(grep -m 1 "Assertion" "$tmp/err")); once more"
    rm -f "$tmp"/three.db*
    "$gb" tune $t3 -d 0,0,0 --store "$tmp/three.db" >"$tmp/out" 2>"$tmp/err"
fi
"$gb" store info --store "$tmp/one.db" | sed 1d >"$tmp/one.info"
"$gb" store info --store "$tmp/three.db" | sed 1d >"$tmp/three.info"
evaluated "$tmp/one.out" >"$tmp/one.evals"
evaluated "$tmp/out" >"$tmp/three.evals"
if cmp -s "$tmp/one.info" "$tmp/three.info" && grep -q "tuning runs: 4 (16 evaluations)" "$tmp/one.info" &&
    [ "$(wc -l <"$tmp/one.evals")" -eq 16 ] && cmp -s "$tmp/one.evals" "$tmp/three.evals" &&
    "$gb" store check --store "$tmp/three.db" >/dev/null; then
    ok
else
    no "-d 0,0,0 must store what one device stores"
    diff "$tmp/one.info" "$tmp/three.info"
    diff "$tmp/one.evals" "$tmp/three.evals"
fi

# h, b, c and z are tuned as s and d are. A c tuning with C on A keeps its winner under c
# row-TN (a conjugation shares the entry of T), which -k auto runs for c with C (the table's
# choice) and never for an s problem; an h winner serves h and not b. The precision 'all' tunes
# each precision the family has, those the device cannot run skipped in a line each.
pt="-k naive --param LX=4,8 --param LY=4 --strategy exhaustive --no-presets -i 2 --store $tmp/p.db"
"$gb" tune $pt -n 16 --precision c --transA C >"$tmp/out" 2>"$tmp/err"
rc=$?
cwin=$(sed -n 's/^  winner: \(LX=[0-9]* LY=[0-9]*\) .*/\1/p' "$tmp/out")
if [ $rc -eq 0 ] && [ -n "$cwin" ] && grep -q "new entry for small-16 c row-TN" "$tmp/out" &&
    "$gb" tuned list --store "$tmp/p.db" | grep -Eq " c +row-TN +small-16 +naive +$cwin "; then
    ok
else no "tune --precision c: an entry under c row-TN"; fi
GEMMBENCH_SELECT=off "$gb" run -k auto --precision c --transA C -n 16 -i 2 --store "$tmp/p.db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^auto -> naive $cwin (tuned: .*, small-16)$" "$tmp/out" &&
    grep -Eq "^naive +c +row-CN .* pass " "$tmp/out"; then
    ok
else no "-k auto in c takes the c entry"; fi
GEMMBENCH_SELECT=off "$gb" run -k auto --precision s --transA T -n 16 -i 2 --store "$tmp/p.db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^auto -> " "$tmp/out" && ! grep -q "^auto -> .*, small-16)$" "$tmp/out"; then
    ok
else no "-k auto in s took the c entry"; fi
"$gb" tune $pt -n 16 --precision h >"$tmp/out" 2>"$tmp/err"
rc=$?
hwin=$(sed -n 's/^  winner: \(LX=[0-9]* LY=[0-9]*\) .*/\1/p' "$tmp/out")
if [ $rc -eq 0 ] && [ -n "$hwin" ] && grep -q "new entry for small-16 h row-NN" "$tmp/out" &&
    GEMMBENCH_SELECT=off "$gb" run -k auto --precision h -n 16 -i 2 --store "$tmp/p.db" \
        >"$tmp/out" 2>"$tmp/err" &&
    grep -q "^auto -> naive $hwin (tuned: .*, small-16)$" "$tmp/out" &&
    grep -Eq "^naive +h +row-NN .* pass " "$tmp/out" &&
    GEMMBENCH_SELECT=off "$gb" run -k auto --precision b -n 16 -i 2 --store "$tmp/p.db" \
        >"$tmp/out" 2>"$tmp/err" &&
    grep -q "^auto -> " "$tmp/out" && ! grep -q "^auto -> .*, small-16)$" "$tmp/out"; then
    ok
else no "tune --precision h: used by -k auto in h, not in b"; fi
# Complex kernels that drop the cross terms (WRONG=1) or conjugate B for A (WRONG=2) cannot win.
"$gb" tune -k wrong_cplx --kernel-path "$fx/wrong" --precision c --transA C -n 16 \
    --strategy exhaustive --no-presets -i 2 --store "$tmp/p.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "WRONG=1: cannot win: GB_EVALIDATION" "$tmp/out" &&
    grep -q "WRONG=2: cannot win: GB_EVALIDATION" "$tmp/out" && grep -q "winner: WRONG=0 " "$tmp/out"; then
    ok
else no "a wrong complex candidate cannot win"; fi
GEMMBENCH_DISABLE_FP64=1 "$gb" tune $pt -n 8 --precision all >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^tune: skipping naive in d: .*no double precision" "$tmp/out" &&
    grep -q "^tune: skipping naive in z: .*no double precision" "$tmp/out" &&
    [ "$(grep -cE "new entry for small-8 [shbc] row-NN" "$tmp/out")" -eq 4 ]; then
    ok
else no "tune --precision all"; fi

finish
