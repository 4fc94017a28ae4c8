#!/bin/sh
# onem_test.sh GEMMBENCH: complex problems (c, z) on real kernels by the 1M method
# (docs/methodology.md): a family that has s (d) and no c (z) of its own computes C = alpha op(A)
# op(B) + beta C through X Y, X the real M x 2K matrix of op(A)'s parts and Y alpha op(B) as the
# real 2K x 2N matrix of 2x2 blocks, made by helper passes (gb_pack1m, gb_expand1m; gb_cscale
# for a complex beta). Each run must pass the complex bound and be faithful: row- and
# column-major families (cpu_rb, myGEMM1, gemmbench_nn), both layouts, every pair of N, T and C
# transpositions, complex and real alpha and beta, beta 0, offsets and padded leading
# dimensions, sizes that straddle tiles; the results row names the route. A family with no real
# precision of the complex one's kind refuses it in one line.
# Prints one line per failure and 'N passed, M failed'.
# shellcheck disable=SC2086 # the option lists are split on purpose
gb=${1:?usage: onem_test.sh GEMMBENCH}
. "$(dirname "$0")/script_lib.sh"
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
export XDG_DATA_HOME GEMMBENCH_STORE

# check_run KERNEL ARGS...: a row of KERNEL that passes and is faithful, through 1M.
check_run() {
    k=$1
    shift
    run_rows "^$k .* faithful +pass .*\(1M \(complex as real\)" --no-store -k "$k" "$@"
}
cab="--alpha 1.5,-0.5 --beta 0.25,0.75"
for p in c z; do
    for t in "N N" "T N" "C T" "N C" "C C"; do
        set -- $t
        check_run cpu_rb --precision $p --transA $1 --transB $2 -M 37 -N 29 -K 23 $cab \
            --lda 41 --offa 3 --offb 1 --offc 2
        check_run myGEMM1 --precision $p --layout col --transA $1 --transB $2 -M 33 -N 40 -K 19 \
            $cab --ldc 35 --offc 1
    done
    check_run gemmbench_nn --precision $p --layout col --transA T --transB C -M 65 -N 17 -K 30 $cab
    check_run cpu_rb --precision $p --layout col -M 21 -N 34 -K 45 --alpha 2 --beta -1
    check_run myGEMM1 --precision $p -M 20 -N 31 -K 9 --alpha 0.5,2
    check_run cpu_rb --precision $p --transB C -M 1 -N 7 -K 1 $cab
done
# A family of 16-bit storage only has no real precision to serve c.
out=$("$gb" run -i 1 --no-store -k hgemm_wgmma --param EMU=1 --precision c -n 64 2>&1)
rc=$?
if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    printf '%s\n' "$out" | grep -q "has no complex single-precision version"; then ok; else
    bad "hgemm_wgmma in c (exit $rc): $out"; fi
finish
