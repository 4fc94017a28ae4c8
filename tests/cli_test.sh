#!/bin/sh
# cli_test.sh GEMMBENCH FIXTURES: each bad input must give exit code 2 (or the documented
# code) and one line on stderr that names the problem.
gb=$1
fx=$2
. "$(dirname "$0")/script_lib.sh"

# expect CODE REGEX ARGS...: runs gemmbench ARGS, checks the exit code and that a line of stderr
# matches REGEX (extended, case-sensitive). Drivers may print their own diagnostics too.
expect() {
    code=$1
    regex=$2
    shift 2
    "$gb" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    first=$(head -n 1 "$tmp/err")
    if [ "$got" -eq "$code" ] && grep -Eq -- "$regex" "$tmp/err"; then
        ok
    else
        bad "gemmbench $*"
        echo "  expected exit $code and /$regex/, got exit $got: $first"
    fi
}

# expect_no_table: the last check printed nothing on stdout (no table header before the error).
expect_no_table() {
    if [ ! -s "$tmp/out" ]; then
        ok
    else
        bad "expected nothing on stdout, got:"
        head -n 3 "$tmp/out"
    fi
}

# expect_none_stored DB WHAT: the refused runs that named store DB stored nothing.
expect_none_stored() {
    if [ ! -e "$1" ] || "$gb" store info --store "$1" 2>&1 | grep -q "^points: 0"; then
        ok
    else
        bad "a refused $2 was stored"
        "$gb" store info --store "$1"
    fi
}

# expect_one_line: the last check printed exactly one line on stderr.
expect_one_line() {
    lines=$(wc -l <"$tmp/err")
    if [ "$lines" -eq 1 ]; then
        ok
    else
        bad "expected one line on stderr, got $lines:"
        cat "$tmp/err"
    fi
}

small="-n 8 -i 1 --warmup 0"
expect 2 "unknown kernel 'nope'.*gemmbench kernels" run -k nope $small
expect_one_line
expect 2 "no OpenCL device matches 'nosuchdevice'" run -d nosuchdevice -k naive $small
expect_one_line
expect 2 "no OpenCL platform matches 'nosuchplatform'" run -p nosuchplatform -k naive $small
expect 2 "-n: 'abc' is not a list" run -k naive -n abc
expect_one_line
expect 2 "-n: '0' must hold values of at least 1" run -k naive -n 0
expect 2 "-M: '-5' must hold values of at least 1" run -k naive -M -5
expect 2 "-K: '12x' is not a list" run -k naive -K 12x
# -i 0 is the Intel sample's "no kernel invocation": run builds each point's programs and calls
# nothing (exit 0, nothing stored); a command that measures refuses it.
"$gb" run -k naive,SGEMM_NT_4x1 -n 8 -i 0 --store "$tmp/i0.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^(naive|SGEMM_NT_4x1) .* built in [0-9.e+-]+ ms$' "$tmp/out")" -eq 2 ] &&
    ! grep -q "GFLOP/s" "$tmp/out" && [ ! -e "$tmp/i0.db" ]; then ok; else
    bad "run -i 0 builds and calls nothing"; cat "$tmp/out" "$tmp/err"; fi
"$gb" run -k broken --kernel-path "$fx/build_error" -n 8 -i 0 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "OpenCL build of 'broken' failed" "$tmp/err" && ok ||
    bad "run -i 0 of a kernel that does not build must fail (exit 3)"
expect 2 "-i 0 builds each point's programs and calls nothing \('gemmbench run -i 0'\); 'explore' measures" \
    explore -k naive -n 8 -i 0 --dry-run --store "$tmp/none.db"
expect_one_line
expect 2 "-i must be an integer from 1 to 100000, got '100001'" run -k naive -n 8 -i 100001
expect 2 "violates its constraint 'NWG / \(4 \* RN\) >= 8'" run -k xgemm_nv_k8 --param MWG=64 \
    --param NWG=64 --param RM=4 --param RN=4 --no-store $small
expect_one_line
expect_no_table
# In a named kernel's sweep, a parameter combination its constraints refuse is skipped with its
# reason on stderr and the others are measured; the exit status still says one could not run.
"$gb" run -k myGEMM3 --param TS=16 --param WPT=8,32 --no-store $small >"$tmp/out" 2>"$tmp/err"
got=$?
if [ $got -eq 2 ] && [ "$(grep -c '^myGEMM3 ' "$tmp/out")" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    grep -q "^gemmbench: skipped myGEMM3 s 8x8x8 TS=16 WPT=32 rep 0: .*violates its constraint" \
        "$tmp/err"; then
    ok
else
    bad "a sweep's refused combination skipped, the other measured (exit $got): $(cat "$tmp/err")"
fi
# Under 'all', a shape a kernel's constraints refuse is skipped alone (a row naming the shape),
# and its other shapes still run: capped_small (K <= 16) in h, where few built-in kernels run.
"$gb" run --kernel-path "$fx/capped" -k all --precision h -M 8 -N 8 -K 24,8 -i 1 --warmup 0 \
    --no-store >"$tmp/out" 2>"$tmp/err"
got=$?
if [ $got -eq 0 ] && grep -q "^capped_small  *h  *8x8x24 skipped: .*'CAP > 0 || K <= 16'" "$tmp/out" &&
    grep -q "^capped_small  *h  *row-NN  *8  *8  *8 " "$tmp/out"; then
    ok
else
    bad "-k all: capped_small's refused shape alone skipped, 8x8x8 measured (exit $got)"
fi
expect 2 "lda=3 is smaller than 8, the columns of row-major a" run -k naive -n 8 --lda 3
expect_one_line
expect 2 "ldb=4 is smaller than 8, the rows of column-major b" run -k naive -n 8 --layout col --ldb 4
expect 2 "ldc=2 is smaller than 8" run -k naive -n 8 --ldc 2
expect 2 "not valid JSON" run -k naive --kernel-path "$fx/bad_json" $small
expect_one_line
expect 2 "source file 'gone.cl' is missing" run -k gone --kernel-path "$fx/missing_cl" $small
# A metadata file holds one object: a second one after it is refused, not ignored.
mkdir "$tmp/trailing"
cp "$fx/fixed_wg/fixed.cl" "$tmp/trailing/"
{ cat "$fx/fixed_wg/fixed.json"; echo '{"family": "other"}'; } >"$tmp/trailing/fixed.json"
expect 2 "fixed.json: text after the JSON document at byte offset $(wc -c <"$fx/fixed_wg/fixed.json")" \
    run -k fixed --kernel-path "$tmp/trailing" $small
expect_one_line
expect_one_line
expect 2 "cannot open kernel path" run -k naive --kernel-path "$fx/does-not-exist" $small
# A family's geometry gone wrong is refused before any driver sees the launch (a driver may
# fault on it), naming the file: 2^31 - 1 work-items for an 8 x 8 C, and rows rounded up to
# 1024 x 16 where C has 8.
expect 2 "oversized.json: the global size is 2147483647 x 8 work-items for a problem of 8 x 8 x 8" \
    run -k oversized --kernel-path "$fx/geometry" $small
expect_one_line
expect 2 "unrounded.json: the global size is 8 x 16384 work-items.*'launch_factor'" \
    run -k unrounded --kernel-path "$fx/geometry" $small
# Local memory the metadata does not declare, over the device's: refused from what the kernel
# uses as compiled (PoCL asserts at the launch otherwise). 16 MiB is past every device's local
# memory; a device whose compiler refuses so much fails the build instead (exit 3).
"$gb" run -k undeclared --kernel-path "$fx/geometry" --param LOCALN=4194304 $small \
    >"$tmp/out" 2>"$tmp/err"
got=$?
if { [ $got -eq 2 ] &&
    grep -Eq "kernel 'undeclared' as compiled uses 16777216 bytes of local memory, over this device's [0-9]+ \(its metadata declares none\)" "$tmp/err"; } ||
    { [ $got -eq 3 ] && grep -q "OpenCL build of 'undeclared' failed" "$tmp/err"; }; then ok; else
    bad "undeclared local memory: exit $got"; cat "$tmp/err"; fi
export GEMMBENCH_DISABLE_FP64=1
expect 2 "no double precision \(cl_khr_fp64\); choose single precision" run -k naive --precision d $small
unset GEMMBENCH_DISABLE_FP64
expect 2 "kernel 'fixed' has no double-precision version" run -k fixed --precision d \
    --kernel-path "$fx/fixed_wg" $small
expect 2 "has no double-precision version" run -k SGEMM_NT_4x1 --precision d $small
# FP16 and bfloat16 run only in the families that declare them (naive, xgemm here): the others,
# and the peers, refuse with their own precisions; so does tune; offload refuses h and b, which
# the host's OpenBLAS cannot compute.
expect 2 "kernel 'SGEMM_NT_4x1' has no FP16-precision version; choose one of its precisions \(s,c\) or a kernel that has h" \
    run -k SGEMM_NT_4x1 --precision h --store "$tmp/half.db" $small
expect_one_line
expect_no_table
expect 2 "kernel 'myGEMM6' has no bfloat16-precision version; choose one of its precisions \(s,d,c,z\)" \
    run -k myGEMM6 --precision b --store "$tmp/half.db" $small
expect_one_line
expect 2 "kernel 'openblas' has no FP16-precision version" run -k openblas --precision h \
    --store "$tmp/half.db" $small
expect_one_line
expect_none_stored "$tmp/half.db" "precision"
expect 2 "unknown precision 'q'; use s, d, h, b, c, z, a list of them \(s,d\) or all" \
    run -k naive --precision q $small
expect_one_line
expect 2 "kernel 'myGEMM1' has no FP16 precision" tune -k myGEMM1 --precision h -n 64 --budget 2
expect_one_line
expect 2 "offload compares with the host's OpenBLAS, which has no FP16 or bfloat16 GEMM; give --precision s, d, c or z" \
    offload -k naive --precision b -n 64
expect_one_line
# Complex precisions: what only they have (the C transposition, alpha or beta RE,IM) is refused
# with a real precision, before anything runs or is stored; the peers and families with neither
# c or z nor the real precision that serves them by the 1M method refuse those, in run and tune.
expect 2 "conjugate transposition C needs a complex precision, and s is real; use T, or --precision c or z" \
    run -k naive --transA C --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "conjugate transposition C needs a complex precision, and d is real" \
    run -k naive --precision d,z --transB C --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "alpha and beta have no imaginary part in precision s; give one number, or --precision c or z" \
    run -k naive --alpha 1,2 --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "alpha and beta have no imaginary part in precision h" \
    run -k naive --precision h --beta 0,1 --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "--alpha must be a finite number, got .x." run -k naive --precision c --alpha 1,x --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "kernel 'clblast' has no bfloat16-precision version; choose one of its precisions \(s,d,h,c,z\)" \
    run -k clblast --precision b --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "kernel 'hgemm_wgmma' has no complex double-precision version" \
    run -k hgemm_wgmma --param EMU=1 --precision z --store "$tmp/cplx.db" $small
expect_one_line
expect 2 "kernel 'hgemm_wgmma' has no complex single precision" tune -k hgemm_wgmma --precision c -n 64 --budget 2
expect_one_line
expect_none_stored "$tmp/cplx.db" "complex problem"
# FP16 sums (--accumulate h, precision hh): refused with another precision, by -k auto and by a
# kernel without hh, before anything runs or is stored; naive's pass, faithful, stored as hh.
expect 2 "--accumulate h sums in FP16, which only FP16 storage has, and the precision asked is s; use --precision h" \
    run -k naive --precision s --accumulate h --store "$tmp/hh.db" $small
expect_one_line
expect 2 "-k auto chooses among the library's kernels, and FP16 sums \(hh, --accumulate h\) are none of its calls" \
    run -k auto --precision h --accumulate h --store "$tmp/hh.db" $small
expect_one_line
expect 2 "kernel 'myGEMM1' has no FP16 with FP16 sums-precision version; choose one of its precisions" \
    run -k myGEMM1 --precision h --accumulate h --store "$tmp/hh.db" $small
expect_one_line
expect 2 "unknown accumulation 'q'; use s \(FP32 sums, the default\) or h" \
    run -k naive --precision h --accumulate q --store "$tmp/hh.db" $small
expect_one_line
expect_none_stored "$tmp/hh.db" "FP16-sum problem"
"$gb" run -k naive --precision h --accumulate h -v $small --store "$tmp/hh2.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -Eq '^naive +hh +row-NN .* faithful +pass ' "$tmp/out" &&
    "$gb" store list --store "$tmp/hh2.db" | grep -Eq "naive +hh "; then ok; else
    bad "an FP16-sum run did not pass or store as it should"; cat "$tmp/out" "$tmp/err"; fi
# OpenBLAS's cgemm and zgemm as peers, with C on both operands and complex alpha and beta.
"$gb" run -k openblas --precision c,z --transA C --transB C --alpha 2,1 --beta 1,-1 $small \
    --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^openblas +[cz] +row-CC .* pass ' "$tmp/out")" -eq 2 ]; then ok; else
    bad "openblas did not pass in c and z"; cat "$tmp/out" "$tmp/err"; fi
# A complex run stores and lists its point: C transposition, alpha RE,IM, 8*M*N*K.
"$gb" run -k naive --precision c --transA C --alpha 1,-2 --beta 0.5,1 $small \
    --store "$tmp/cplx2.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -Eq '^naive +c +row-CN .* pass ' "$tmp/out" &&
    grep -q "complex GFLOP/s count 8\*M\*N\*K" "$tmp/out" && grep -q "alpha 1,-2, beta 0.5,1" "$tmp/out" &&
    "$gb" store list --store "$tmp/cplx2.db" | grep -Eq "naive +c "; then ok; else
    bad "a complex run did not pass, print or store as it should"; cat "$tmp/out" "$tmp/err"; fi
# --precision all: each precision a named kernel has, those the device cannot run skipped (here
# d and z, with fp64 hidden), one line each; rows and stored points carry h and b.
GEMMBENCH_DISABLE_FP64=1 "$gb" run -k naive --precision all $small --store "$tmp/all.db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^naive +[shbc] +row-NN .* pass ' "$tmp/out")" -eq 4 ] &&
    ! grep -Eq '^naive +hh ' "$tmp/out" &&
    grep -Eq "^naive +d +skipped: .*no double precision" "$tmp/out" &&
    grep -Eq "^naive +z +skipped: .*no double precision" "$tmp/out" &&
    "$gb" store list --store "$tmp/all.db" | grep -Eq "naive +h " &&
    "$gb" store list --store "$tmp/all.db" | grep -Eq "naive +b "; then ok; else
    bad "run --precision all"; cat "$tmp/out" "$tmp/err"; fi
# With fp64 (PoCL has it), all six; -k auto under all too, each from the table (nothing
# measured), each chosen kernel one that has the precision.
if "$gb" devices | grep -q "fp64 yes"; then six=6; else six=4; fi
"$gb" run -k naive --precision all $small --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^naive +[sdhbcz] +row-NN .* pass ' "$tmp/out")" -eq $six ]; then
    ok; else bad "run --precision all with fp64: $six rows wanted"; cat "$tmp/out" "$tmp/err"; fi
GEMMBENCH_SELECT=off GEMMBENCH_DISABLE_FP64=1 "$gb" run -k auto --precision all $small \
    --store "$tmp/auto-all.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -c '^auto -> ' "$tmp/out")" -eq 4 ] &&
    [ "$(grep -cE '^[a-z_0-9]+ +[shbc] +row-NN .* pass ' "$tmp/out")" -eq 4 ] &&
    grep -Eq "^auto +d +skipped: " "$tmp/out" && grep -Eq "^auto +z +skipped: " "$tmp/out"; then
    ok; else bad "run -k auto --precision all"; cat "$tmp/out" "$tmp/err"; fi
# offload in c: the host's side is OpenBLAS's cgemm (the openblas peer).
"$gb" offload -k naive --precision c -n 8 -i 1 --warmup 0 --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^offload: c GEMM, square orders; host: OpenBLAS" "$tmp/out" &&
    grep -Eq "^ +8 +[0-9.e+-]+ +[0-9.e+-]+ " "$tmp/out"; then ok; else
    bad "offload --precision c"; cat "$tmp/out" "$tmp/err"; fi
expect 2 "--lws: '0,4' is not a list of work-group sizes" run -k naive --lws 0,4 $small
expect_one_line
expect 2 "--lws: '16' is not a list of work-group sizes" run -k naive --lws 16 $small
# -lws 0,0 (GEMMbench's "the driver chooses"): a kernel whose source does not read LX and LY is
# launched with no work-group size (lws auto) and stored as LX=0 LY=0; one that needs its size
# refuses it.
"$gb" run -k naive,SGEMM_NT_4x1 -lws 0,0 -M 13 -N 9 -K 5 -i 2 --store "$tmp/lws0.db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -cE '^(naive|SGEMM_NT_4x1) .* auto .* pass ' "$tmp/out")" -eq 2 ] &&
    ! grep -q "warning" "$tmp/err" &&
    [ "$("$gb" export --format csv --store "$tmp/lws0.db" | grep -c '""LX"":0,""LY"":0')" -eq 2 ]; then ok
else bad "-lws 0,0: the driver chooses"; cat "$tmp/out" "$tmp/err"; fi
expect 2 "kernel 'intel_naive' needs the work-group size it is given \(its source reads LX and LY\)" \
    run -k intel_naive -lws 0,0 $small
expect_one_line
expect 2 "work-group size 2000,1 is not allowed" run -k naive --lws 2000,1 $small
expect 2 "needs a work-group of 1024 x 1024" run -k naive --lws 1024,1024 $small
expect 2 "fixes its own work-group size" run -k fixed --lws 4,4 --kernel-path "$fx/fixed_wg" $small
expect 2 "has no parameter NOPE" run -k SGEMM_NT_4x1 --param NOPE=1 $small
expect 2 "parameter DJ=3 of kernel 'SGEMM_NT_4x1' is not allowed" run -k SGEMM_NT_4x1 --param DJ=3 $small
expect 2 "--param: 'DJ' must be NAME=VALUES" run -k SGEMM_NT_4x1 --param DJ $small
expect 2 "unknown precision 'q'" run -k naive --precision q $small
expect 2 "unknown layout 'diagonal'" run -k naive --layout diagonal $small
expect 2 "--transA: unknown transposition 'X'; use N, T or C" run -k naive --transA X $small
expect 2 "--alpha must be a finite number, got 'nan'" run -k naive --alpha nan $small
expect 2 "unknown distribution 'zipf'" run -k naive --dist zipf $small
expect 2 "write int:R" run -k naive --dist int:0 $small
expect 2 "unknown option '--bogus'" run --bogus
expect 2 "option '--lda' needs a value" run --lda
expect 2 "unknown command 'frobnicate'" frobnicate
expect 2 "unknown device type 'fpga'" run -t fpga -k naive $small
expect 2 "unknown device type 'CL_DEVICE_TYPE_FPGA'; use all, cpu, gpu, acc or default, or the OpenCL constant" \
    run -t CL_DEVICE_TYPE_FPGA -k naive $small
"$gb" explore --help | grep -q -- "--shapes FILE" && ok || bad "explore --help must list --shapes"
# The OpenCL constant as -t, as Intel's samples take it.
"$gb" run -t CL_DEVICE_TYPE_ALL -k naive $small --no-store >"$tmp/out" 2>"$tmp/err" &&
    "$gb" kernels -t cl_device_type_all >/dev/null 2>&1 && ok ||
    bad "-t CL_DEVICE_TYPE_ALL: $(cat "$tmp/err")"
# Not usage errors: a failing build prints its log (exit 3), a wrong result exits 1.
expect 3 "OpenCL build of 'broken' failed" run -k broken --kernel-path "$fx/build_error" $small
if grep -q "this_is_not_declared" "$tmp/err"; then ok; else
    bad "the build log did not reach stderr"; cat "$tmp/err"; fi
"$gb" run -k wrong_edge --kernel-path "$fx/wrong" $small >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "FAIL" "$tmp/out"; then ok; else
    bad "a wrong kernel must exit 1 with FAIL in the table"; fi
# Inputs rounded to TF32 pass the worst-case bound at K = 4096 but not the faithful verdict, which
# a plain FP32 kernel passes; both are stored. A result not faithful is a failure (exit 1, its
# row FAIL, a line on stderr that says why and what accepts it) ...
"$gb" run -k wrong_tf32,naive --kernel-path "$fx/wrong" -M 64 -N 64 -K 4096 -i 2 \
    --store "$tmp/faithful.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] &&
    grep -Eq "^wrong_tf32 .* not faithful: [0-9]+x FP32 +FAIL: not faithful \(within the bound: " \
        "$tmp/out" && grep -Eq "^naive .* faithful +pass " "$tmp/out" &&
    grep -q "^gemmbench: 1 result within the error bound but not faithful to its precision (exit 1)" \
        "$tmp/err"; then ok; else
    bad "a result not faithful must fail the run"; cat "$tmp/out" "$tmp/err"; fi
# ... unless --verdict bound holds results to the error bound alone.
"$gb" run -k wrong_tf32 --kernel-path "$fx/wrong" -M 64 -N 64 -K 4096 -i 2 --verdict bound \
    --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -Eq "^wrong_tf32 .* not faithful: [0-9]+x FP32 +pass " "$tmp/out" &&
    ! grep -q "not faithful to" "$tmp/err"; then ok; else
    bad "--verdict bound accepts a result within the bound"; cat "$tmp/out" "$tmp/err"; fi
"$gb" run -k wrong_tf32 --kernel-path "$fx/wrong" -M 64 -N 64 -K 4096 -i 1 --json --no-store \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q '"verdict":[[:space:]]*"pass"' "$tmp/out" &&
    grep -q '"outcome":[[:space:]]*"not faithful"' "$tmp/out" &&
    grep -q '"reduced_precision":[[:space:]]*false' "$tmp/out"; then ok; else
    bad "run --json says the outcome beside the bound's verdict"; cat "$tmp/out" "$tmp/err"; fi
expect 2 "--verdict: unknown verdict 'loose'; use faithful" run -k naive --verdict loose $small
expect_one_line
expect 2 "--verdict is not an option of 'tune': a result that is not faithful" tune -k naive \
    --verdict bound -n 8
# explore, offload and replay hold a point to the same verdict: wrong_bits (16 bits of mantissa)
# is within the bound at 64 x 64 x 64 but not faithful.
"$gb" explore -k wrong_bits --kernel-path "$fx/wrong" -n 64 -i 1 --store "$tmp/xf.db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "NOT FAITHFUL to its precision" "$tmp/out" &&
    grep -q "^explore: 1 measured and stored (0 failed validation, 1 not faithful)" "$tmp/out"
then ok; else bad "explore: a point not faithful fails the sweep"; cat "$tmp/out" "$tmp/err"; fi
id=$(sed -n 's/.* stored \([0-9a-f]\{16\}\) .*/\1/p' "$tmp/out" | head -n 1)
"$gb" explore -k wrong_bits --kernel-path "$fx/wrong" -n 64 -i 1 --store "$tmp/xb.db" \
    --verdict bound >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^explore: 1 measured and stored (0 failed validation)" "$tmp/out"
then ok; else bad "explore --verdict bound"; cat "$tmp/out" "$tmp/err"; fi
"$gb" replay "$id" --store "$tmp/xf.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "^  faithful: not faithful: [0-9]*x FP32 (stored: not faithful" "$tmp/out" &&
    grep -q "^  outcome: FAIL: within the error bound but not faithful" "$tmp/out"; then ok; else
    bad "replay of a point not faithful (id '$id')"; cat "$tmp/out" "$tmp/err"; fi
"$gb" replay "$id" --store "$tmp/xf.db" --verdict bound >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ]; then ok; else bad "replay --verdict bound"; cat "$tmp/out" "$tmp/err"; fi
"$gb" offload -k wrong_bits --kernel-path "$fx/wrong" -n 64 -i 1 --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "wrong_bits s 64x64x64 rep 0 is NOT FAITHFUL to its precision" "$tmp/err"
then ok; else bad "offload: a measurement not faithful fails"; cat "$tmp/out" "$tmp/err"; fi
"$gb" offload -k wrong_bits --kernel-path "$fx/wrong" -n 64 -i 1 --no-store --verdict bound \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ]; then ok; else bad "offload --verdict bound"; cat "$tmp/out" "$tmp/err"; fi
"$gb" export --format csv --store "$tmp/faithful.db" >"$tmp/csv" 2>"$tmp/err"
if grep -q ",wrong_tf32,.*,not faithful," "$tmp/csv" && grep -q ",naive,.*,faithful," "$tmp/csv"
then ok; else
    bad "the store keeps the faithful verdict"; cat "$tmp/csv"; fi
# And good input works: exit 0, a passing row.
"$gb" run -k naive,SGEMM_NT_4x1 -M 13 -N 9 -K 5 -i 2 --beta 0.5 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && [ "$(grep -c ' pass ' "$tmp/out")" -eq 2 ]; then ok; else
    bad "a good run"; cat "$tmp/out" "$tmp/err"; fi
# Their own layouts differ (row-NN, row-NT) and none was given: both ran row-NN, and a line says
# so; SGEMM_NT_4x1 alone runs its own row-NT, with no such line.
if grep -q "^layout: the kernels' own layouts differ, so every one runs row-NN" "$tmp/out" &&
    [ "$(grep -c '^[A-Za-z_0-9]* *s *row-NN .* pass ' "$tmp/out")" -eq 2 ]; then ok; else
    bad "kernels of different layouts in one run took one layout"; cat "$tmp/out"; fi
"$gb" run -k SGEMM_NT_4x1 -M 13 -N 9 -K 5 -i 2 >"$tmp/out" 2>"$tmp/err"
if grep -q '^SGEMM_NT_4x1 *s *row-NT .* pass ' "$tmp/out" && ! grep -q "^layout:" "$tmp/out"
then ok; else
    bad "one kernel runs its own layout"; cat "$tmp/out"; fi

# A C that is a vector runs a row-NN kernel (thin_dot_1) through its vector form, with no pass:
# y = x W^T (1 x N x K, B transposed, padded leading dimensions and offsets), and a column-major
# C of one column with A transposed; validated, and the row says so.
for lay in "--transB T -M 1 -N 37 -K 53 --lda 60 --ldb 61 --ldc 40 --offa 1 --offb 2 --offc 3" \
           "--layout col --transA T -M 37 -N 1 -K 53"; do
    # shellcheck disable=SC2086 # the layout's options
    "$gb" run -k thin_dot_1 $lay -i 1 --beta 0.5 --no-store >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 0 ] && grep -q "^thin_dot_1 .* pass .*(C as a column)" "$tmp/out"; then ok; else
        bad "thin_dot_1 $lay through its vector form"; cat "$tmp/out" "$tmp/err"; fi
done

# A layout the kernel lacks is served through a transposition pass, and says so.
"$gb" run -k SGEMM_NT_4x1 --layout row -M 13 -N 9 -K 5 -i 2 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q " pass .*(native, transpose B)" "$tmp/out"; then ok; else
    bad "row-NN through a transposition pass"; cat "$tmp/out" "$tmp/err"; fi
expect 2 "--timing: unknown timing 'fast'" run -k naive --timing fast $small
expect 2 "--host-mem: unknown host memory 'locked'; use pageable, pinned or mapped" run -k naive \
    --host-mem locked $small
expect 2 "--pipeline must be a number of panels from 2 to 256" run -k naive --timing offload \
    --pipeline=many $small


# The command line's contract: no arguments, help, operands nobody takes, values out of range.
expect 2 "no command given; run 'gemmbench --help'" 
expect_one_line
"$gb" help run >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && head -n 1 "$tmp/out" | grep -q "^usage: gemmbench run"; then ok; else
    bad "gemmbench help run"; fi
"$gb" cache --help >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "^usage: gemmbench cache" "$tmp/out"; then ok; else
    bad "gemmbench cache --help"; fi
expect 2 "unexpected argument 'extra'" devices extra
expect 2 "unexpected argument 'extra'" kernels extra
expect 2 "unexpected argument 'extra'" ceilings extra --no-store
expect 2 "--seed must be a non-negative integer, got '18446744073709551616'" run -k naive \
    --seed 18446744073709551616 $small
expect 2 "no kernel given" run -k '' $small
expect 2 "--lws or with --param LX/LY, not both" run -k SGEMM_NT_4x1_barrier --lws 16,4 \
    --param LX=8 $small
expect 2 "unknown kernel 'dgemm_dmma_nope'" explore -k dgemm_dmma_nope -n 8 --dry-run
expect 2 "its folder /nonexistent-dir is missing" explore -k naive -n 8 --dry-run \
    --store /nonexistent-dir/x
# GEMMbench's own spelling of the work-group size.
"$gb" run -k SGEMM_NT_4x1_barrier -lws 8,2 -n 8 -i 1 --no-store >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q " 8x2 .* pass" "$tmp/out"; then ok; else
    bad "-lws 8,2"; cat "$tmp/out" "$tmp/err"; fi
# A preset setting 32 parameters with long names lists whole (it overflowed a buffer).
"$gb" kernels --kernel-path "$fx/many_params" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "preset many_preset .*A_PARAMETER_WITH_A_RATHER_LONG_NAME_NUMBER_31=1000000031" \
    "$tmp/out"; then ok; else
    bad "kernels with a preset of 32 long parameters"; fi
# A parameter's adapting value (SPLITK 0, the grid's need) is listed, in text and in JSON.
"$gb" kernels >"$tmp/out" 2>"$tmp/err" &&
    "$gb" kernels --json >"$tmp/out.json" 2>>"$tmp/err"
if [ $? -eq 0 ] && grep -q "param SPLITK .* adapts 0; " "$tmp/out" &&
    python3 -c 'import json, sys
f = [f for f in json.load(open(sys.argv[1])) if f["family"] == "sgemm_wgmma"][0]
p = {p["name"]: p for p in f["parameters"]}
sys.exit(not (p["SPLITK"].get("adapts") == 0 and "adapts" not in p["BN"]))' "$tmp/out.json"
then ok; else bad "kernels lists SPLITK's adapting value"; cat "$tmp/err"; fi

# Data whose products and sums overflow the precision make no valid problem: refused before the
# table (a non-finite reference used to make any non-finite result a pass, even from a kernel
# that writes nothing), and nothing is stored.
range="--store $tmp/range.db"
expect 2 "data uniform:-1e\+300:1e\+300 with K=8, alpha 1, beta 0 can reach beyond 1.8e\+308, over the 3.4e\+38 single precision holds; use data of magnitude <= " \
    run -k naive --dist uniform:-1e300:1e300 $small $range
expect_one_line
expect_no_table
expect 2 "data uniform:-1e\+39:1e\+39 with K=8.*single precision holds; use data of magnitude <= .* or --precision d" \
    run -k naive --dist uniform:-1e39:1e39 $small $range
expect_one_line
expect_no_table
expect 2 "data uniform:-1e\+39:1e\+39" run -k wrong_edge --kernel-path "$fx/wrong" \
    --dist uniform:-1e39:1e39 $small $range
expect 2 "data uniform:-1:1 with K=8, alpha 1e\+38, beta 0 can reach .* single precision holds; use \|alpha\| <= " \
    run -k naive --alpha 1e38 $small $range
expect_one_line
expect_no_table
expect 2 "double precision holds" run -k naive --precision d --dist uniform:-1e300:1e300 $small $range
# FP16 holds 65504: uniform(-1,1) at K=4096 fits, uniform(-4,4) can reach 65544 and is refused
# (the fix: smaller data, or single precision); bfloat16 has single's range.
expect 2 "data uniform:-4:4 with K=4096, alpha 1, beta 0 can reach 65544, over the 65504 FP16 precision holds; use data of magnitude <= .* or --precision s" \
    run -k naive --precision h --dist uniform:-4:4 -M 8 -N 8 -K 4096 -i 1 $range
expect_one_line
expect_no_table
expect 2 "bfloat16 precision holds.* or --precision d" \
    run -k naive --precision b --dist uniform:-1e20:1e20 $small $range
expect_one_line
# Refused before anything is opened: no store is made (or, where one existed, nothing added).
if [ ! -e "$tmp/range.db" ] || "$gb" store info $range 2>&1 | grep -q "^points: 0"; then
    ok; else
    bad "a refused problem was stored"; "$gb" store info $range; fi
# The same data in double precision are fine.
"$gb" run -k naive --precision d --dist uniform:-1e39:1e39 $small $range >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q " pass " "$tmp/out"; then ok; else
    bad "uniform:-1e39:1e39 in double"; cat "$tmp/out" "$tmp/err"; fi

# --verbose: a build's warnings come as the driver's build log on stderr, never in the table on stdout.
# (A program from either cache is not built: both caches are off here.)
mkdir -p "$tmp/warned"
sed 's/^kernel void gemm_naive(/#warning "deliberate warning"\nkernel void gemm_naive(/' \
    "$fx/../../kernels/naive.cl" >"$tmp/warned/naive.cl"
cp "$fx/../../kernels/naive.json" "$tmp/warned/"
for v in "" --verbose; do
    GEMMBENCH_NO_CACHE=1 POCL_KERNEL_CACHE=0 "$gb" run -k naive --kernel-path "$tmp/warned" \
        $small --no-store $v >"$tmp/out" 2>"$tmp/err"
    want=0
    [ -n "$v" ] && want=1
    logged=$(grep -c "build log of 'naive'" "$tmp/err")
    if grep -q " pass " "$tmp/out" && ! grep -q "deliberate" "$tmp/out" &&
        [ "$logged" -eq "$want" ]; then
        ok; else
        bad "build log with '$v'"; cat "$tmp/out" "$tmp/err"; fi
done

finish
