#!/bin/sh
# peers_test.sh GEMMBENCH: the library peers through the command line on the default device.
# gemmbench's own library (-k gb) in single and double precision at tile-straddling sizes, in
# both layouts and every transposition, with padded leading dimensions, offsets, alpha and beta
# other than 1 and 0, and exact integer data: every run exits 0 and prints only rows that pass;
# its JSON names the library's choice in the route and a build time; it is listed by `gemmbench
# kernels`, and refuses parameters. CLBlast (-k clblast), where it was built in: listed with its
# precisions, s and d at one size, c and z in both layouts with every op (C on either operand),
# complex alpha and beta, padding and offsets, every row passing and faithful; h refused in one
# line where the device has no cl_khr_fp16, and b refused. cuBLAS, where built in, is listed with
# every precision (it runs only beside an NVIDIA GPU, not on this device). The host's OpenBLAS
# (-k openblas, always built in) is listed, and passes in single and double precision (and
# complex: c and z with C and complex alpha, beta) at two shapes, in both layouts, with a
# transposition and with padding, offsets, alpha and beta; its JSON names its threads and kernels
# in the route and zero copy times. Prints one line per failure and 'N passed, M failed'.
gb=${1:?usage: peers_test.sh GEMMBENCH}
. "$(dirname "$0")/script_lib.sh"
# Results are not worth keeping (ctest also names a store); no energy loop.
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
GEMMBENCH_ENERGY_MIN_S=0
export XDG_DATA_HOME GEMMBENCH_STORE GEMMBENCH_ENERGY_MIN_S

# check_run ROWS ARGS...: the run exits 0 and prints ROWS rows, every one passing.
check_run() {
    want=$1
    shift
    out=$("$gb" run -i 2 --warmup 1 --no-store "$@" 2>&1)
    rc=$?
    rows=$(printf '%s\n' "$out" | grep -cE '  pass( |$)')
    wrong=$(printf '%s\n' "$out" | grep -cE '  FAIL: |  -($| \()')
    if [ $rc -ne 0 ] || [ "$rows" -ne "$want" ] || [ "$wrong" -ne 0 ]; then
        bad "gemmbench run $* (exit $rc, $rows of $want rows pass): $(printf '%s\n' "$out" | tail -2)"
    else
        ok
    fi
}

# refused CODE REGEX ARGS...: the run exits CODE with one line on stderr that matches REGEX.
refused() {
    code=$1
    regex=$2
    shift 2
    "$gb" run -i 1 --no-store "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ $rc -eq "$code" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$regex" "$tmp/err"; then
        ok
    else
        bad "gemmbench run $* (exit $rc, expected $code and one line /$regex/): $(head -n 2 "$tmp/err")"
    fi
}

list=$("$gb" kernels 2>&1)
if printf '%s\n' "$list" | grep -q '^gb  \[s,d\]'; then ok; else bad "gemmbench kernels does not list gb"; fi

check_run 3 -k gb --precision s -n 1,17,100
check_run 2 -k gb --precision d -n 33,65
for lay in row col; do
    for t in NN NT TN TT; do
        ta=${t%?}
        tb=${t#?}
        check_run 1 -k gb --precision s --layout $lay --transA "$ta" --transB "$tb" -M 33 -N 65 -K 17
        check_run 1 -k gb --precision d --layout $lay --transA "$ta" --transB "$tb" -M 65 -N 33 -K 9
    done
done
check_run 1 -k gb --precision s --layout col --transA T -M 33 -N 65 -K 17 --lda 40 --ldb 70 \
    --ldc 80 --offa 3 --offb 5 --offc 7 --alpha 1.5 --beta 0.5
check_run 1 -k gb --precision d --transB T -M 31 -N 47 -K 70 --ldc 50 --offc 2 --alpha -2 \
    --beta 0.25
out=$("$gb" run -k gb --precision s -n 64 -i 1 --no-store --dist int:3 2>&1)
if printf '%s\n' "$out" | grep -q '  pass exact'; then ok; else
    bad "gb with integer data must match exactly: $(printf '%s\n' "$out" | tail -2)"
fi

# The JSON: the library's choice as the route, the first call's time as the build time.
json=$("$gb" run -k gb -n 48 -i 1 --no-store --json 2>/dev/null)
if printf '%s\n' "$json" | grep -q '"route":[[:space:]]*"library gb: [a-z]' &&
    printf '%s\n' "$json" | grep -Eq '"build_ms":[[:space:]]*[0-9.]*[1-9]'; then
    ok
else
    bad "gb's JSON must give its route and build time: $(printf '%s\n' "$json" | grep -E 'route|build_ms')"
fi

"$gb" run -k gb --param MWG=64 -n 8 --no-store >"$tmp/out" 2>&1
rc=$?
if [ $rc -eq 2 ] && grep -q "'gb' has no parameter MWG" "$tmp/out"; then ok; else
    bad "gb with a parameter must be refused (exit $rc): $(head -n 1 "$tmp/out")"
fi

if printf '%s\n' "$list" | grep -q '^clblast  '; then
    if printf '%s\n' "$list" | grep -q '^clblast  \[s,d,h,c,z\]'; then ok; else
        bad "gemmbench kernels does not list clblast with s, d, h, c and z"
    fi
    check_run 1 -k clblast --precision s -n 100
    check_run 1 -k clblast --precision d -n 65
    # CGEMM and ZGEMM in both layouts with every op, C on either operand and both, complex
    # alpha and beta; then padding and offsets. Every row passes and is faithful.
    for lay in row col; do
        for t in NN CN NC CC TC CT; do
            check_run 2 -k clblast --precision c,z --layout $lay --transA "${t%?}" \
                --transB "${t#?}" -M 33 -N 65 -K 17 --alpha 1.5,-1 --beta 0.5,2
        done
    done
    check_run 2 -k clblast --precision c,z --layout col --transA C --transB T -M 65 -N 31 -K 40 \
        --lda 70 --ldb 50 --ldc 80 --offa 3 --offb 5 --offc 7 --alpha -2,0.5 --beta 0,1
    check_run 4 -k clblast --precision c,z -n 1,100
    # HGEMM needs cl_khr_fp16: refused in one line where the device lacks it; no bfloat16.
    if ! printf '%s\n' "$("$gb" devices 2>/dev/null)" | grep -q 'cl_khr_fp16 is not used'; then
        refused 2 "CLBlast's HGEMM needs cl_khr_fp16, which device '.*' lacks" \
            -k clblast --precision h -n 16
    fi
    refused 2 "kernel 'clblast' has no bfloat16-precision version; choose one of its precisions \(s,d,h,c,z\)" \
        -k clblast --precision b -n 16
fi
if printf '%s\n' "$list" | grep -q '^cublas  '; then
    if printf '%s\n' "$list" | grep -q '^cublas  \[s,d,h,b,c,z\]'; then ok; else
        bad "gemmbench kernels does not list cublas with every precision"
    fi
fi

if printf '%s\n' "$list" | grep -q '^openblas  \[s,d,c,z\]'; then ok; else
    bad "gemmbench kernels does not list openblas"
fi
check_run 4 -k openblas --precision s,d -n 17,100
for lay in row col; do
    check_run 1 -k openblas --precision s --layout $lay --transA T -M 33 -N 65 -K 17
    check_run 1 -k openblas --precision d --layout $lay --transB T -M 65 -N 33 -K 9
done
check_run 1 -k openblas --precision s --layout col --transA T -M 33 -N 65 -K 17 --lda 40 \
    --ldb 70 --ldc 80 --offa 3 --offb 5 --offc 7 --alpha 1.5 --beta 0.5
check_run 1 -k openblas --precision d --transB T -M 31 -N 47 -K 70 --ldc 50 --offc 2 --alpha -2 \
    --beta 0.25
# Complex (cgemm, zgemm): the C transposition, complex alpha and beta, padding and offsets.
check_run 2 -k openblas --precision c,z --layout col --transA C --transB T -M 33 -N 65 -K 17 \
    --lda 40 --ldb 70 --ldc 80 --offa 3 --offb 5 --offc 7 --alpha 1.5,-1 --beta 0.5,2
json=$("$gb" run -k openblas -n 48 -i 1 --no-store --json 2>/dev/null | tr -d '[:space:]')
# The route names the threads and the kernels OpenBLAS chose ("SkylakeX", "Prescott" with a
# hint where those predate the CPU's AVX).
if printf '%s\n' "$json" | grep -Eq '"route":"libraryopenblas(\([0-9]+threads,[A-Za-z0-9]+kernels[^")]*\))?"' &&
    printf '%s\n' "$json" | grep -q '"h2d":{"n":1,"min":0,"median":0,"mean":0,"max":0,' &&
    printf '%s\n' "$json" | grep -q '"d2h":{"n":1,"min":0,"median":0,"mean":0,"max":0,'; then
    ok
else
    bad "openblas's JSON must name its threads and kernels and have no copies: $(printf '%s' "$json" |
        cut -c1-300)"
fi

finish
