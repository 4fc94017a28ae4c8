#!/bin/sh
# once_more_test.sh: tests/once_more.sh runs a command once more only where it failed for one of
# the faults it names (PoCL's assertion in its program cache, LeakSanitizer's tracer), and then
# exits with the second run's status; any other failure, and a success, pass through at once.
# Prints one line per failure and 'N passed, M failed'.
. "$(dirname "$0")/script_lib.sh"
om="$(dirname "$0")/once_more.sh"
# fake FAULT RC2: prints FAULT and exits 23 on its first run (a file in $tmp remembers it), then
# exits RC2; its runs are counted in $tmp/runs.
fake() {
    rm -f "$tmp/ran" "$tmp/runs"
    sh "$om" sh -c 'echo x >>"$1/runs"; if [ -f "$1/ran" ]; then exit "$3"; fi
        : >"$1/ran"; echo "$2"; exit 23' fake "$tmp" "$1" "$2" >"$tmp/out" 2>&1
}
# expect WHAT RC RUNS: the last fake exited RC after RUNS runs.
expect() {
    rc=$1
    if [ "$rc" -eq "$3" ] && [ "$(wc -l <"$tmp/runs")" -eq "$4" ]; then ok; else
        bad "$2: exit $rc after $(wc -l <"$tmp/runs") runs, expected $3 after $4"
    fi
}
fake "pocl_release_dlhandle_cache: Assertion \`x' failed." 0
expect $? "PoCL's assertion, then a pass" 0 2
fake "==1==LeakSanitizer has encountered a fatal error." 0
expect $? "LeakSanitizer's tracer, then a pass" 0 2
fake "==1==LeakSanitizer has encountered a fatal error." 5
expect $? "LeakSanitizer's tracer twice" 5 2
fake "ERROR: LeakSanitizer: detected memory leaks" 0
expect $? "a leak found" 23 1
fake "some other failure" 0
expect $? "another failure" 23 1
finish
