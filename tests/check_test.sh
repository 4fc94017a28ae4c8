#!/bin/sh
# check_test.sh GEMMBENCH FIXTURES: 'gemmbench check' on kernels under test (fixtures/check):
# a correct one comes out clean (exit 0); one with a data race that PoCL hides (its results are
# right there) is caught by Oclgrind and passes on the device (exit 1); one without edge guards
# is caught by Oclgrind reading out of bounds, and its device runs fail or crash without taking
# 'check' down (exit 1); one that does not build says so on every row with the run's own error
# line (exit 3); shapes a kernel's constraints refuse are skipped, and said. Exit 77 (skipped)
# without oclgrind.
gb=$1
fx=$2
. "$(dirname "$0")/script_lib.sh"
requires oclgrind oclgrind
no() { bad "$*"; cat "$tmp/out"; }

"$gb" check -k naive >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^check naive: clean" "$tmp/out" && [ "$(grep -c ' oclgrind  clean' "$tmp/out")" -eq 4 ] &&
    [ "$(grep -c ' device    pass' "$tmp/out")" -eq 4 ] && ok || no "naive must be clean (exit $rc)"

# Shapes a kernel's constraints refuse are skipped and said, not problems: sgemm_wgmma (K >= 48,
# in its emulation) is checked at the one shape left.
"$gb" check -k sgemm_wgmma --param EMU=1 --param WGM=1 --param BN=64 --no-oclgrind >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q "^check sgemm_wgmma: clean" "$tmp/out" &&
    [ "$(grep -c "skipped: kernel 'sgemm_wgmma' violates its constraint 'K >= 48'" "$tmp/out")" -eq 3 ] &&
    [ "$(grep -c ' device    pass' "$tmp/out")" -eq 1 ] && ok ||
    no "sgemm_wgmma: the shapes below K = 48 skipped, the other clean (exit $rc)"

"$gb" check -k race --kernel-path "$fx/check" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^33x17x9 .*oclgrind  FOUND: .*Read-write data race at local memory" "$tmp/out" &&
    [ "$(grep -c ' device    pass' "$tmp/out")" -eq 4 ] && ok ||
    no "race: Oclgrind must find the race that the device hides (exit $rc)"

"$gb" check -k noguard --kernel-path "$fx/check" --timeout 20 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^65x63x67 .*oclgrind  FOUND: .*Invalid read" "$tmp/out" &&
    grep -Eq "^65x63x67 +device +(FAIL|pass)" "$tmp/out" && grep -q "^check noguard: problems found" "$tmp/out" &&
    ok || no "noguard: Oclgrind must find reads out of bounds, and check must finish (exit $rc)"

# A kernel that does not build: each row says so with the run's own line and the build log's
# first error, not the log's last line (a caret under the source) nor the table's header.
"$gb" check -k broken --kernel-path "$fx/build_error" --timeout 60 >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 3 ] &&
    [ "$(grep -c "^[0-9x]* *oclgrind  could not run: exited 3: broken: OpenCL build of 'broken' failed (CL_BUILD_PROGRAM_FAILURE) .*; build log: .*error.*this_is_not_declared" "$tmp/out")" -eq 4 ] &&
    [ "$(grep -c "^[0-9x]* *device    could not run: exited 3: broken: OpenCL build of 'broken' failed (CL_BUILD_PROGRAM_FAILURE) .*; build log: .*error.*this_is_not_declared" "$tmp/out")" -eq 4 ] &&
    ! grep -q "GFLOP/s" "$tmp/out" && ok || no "a kernel that fails to build (exit $rc)"

"$gb" check >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "give the kernel to check" "$tmp/out" && ok || no "check without -k"
"$gb" check -k clblast >"$tmp/out" 2>&1
rc=$?
{ [ $rc -eq 2 ] && grep -q "library peer" "$tmp/out"; } || { [ $rc -eq 2 ] && grep -q "unknown kernel" "$tmp/out"; } &&
    ok || no "check of a library peer"

finish
