#!/bin/sh
# intel_kernels_test.sh GEMMBENCH FIXTURES: the Intel SGEMM sample families on the default device
# through the command line (tests/device_kernels.c runs every preset the device can run through
# the library). Checks that `gemmbench kernels -d 0` lists every preset of the sample and that
# the sub-group ones run exactly where the device has cl_intel_subgroups; that intel_naive and
# the L3_SLM presets print 'pass' and exit 0 at tile-straddling sizes, with exact integer data,
# through the operand swap and with a padded ldc; and that operands read as images reach a
# kernel right (fixtures/images: packed with a pitch, padded, swapped, transposed). Prints one
# line per failure and 'N passed, M failed'.
gb=${1:?usage: intel_kernels_test.sh GEMMBENCH FIXTURES}
fixtures=${2:?usage: intel_kernels_test.sh GEMMBENCH FIXTURES}
. "$(dirname "$0")/script_lib.sh"
# Results of these runs are not worth keeping in the user's store (ctest also names one).
XDG_DATA_HOME=$tmp
GEMMBENCH_STORE=${GEMMBENCH_STORE:-$tmp/results.db}
export XDG_DATA_HOME GEMMBENCH_STORE

# Every run must exit 0 and print only rows that pass.
check_run() { run_rows '  pass( |$)' "$@"; }

# 1. The list: every preset named as in the sample; sub-group presets run only with the extension.
list=$("$gb" kernels -d 0 2>&1) || bad "gemmbench kernels -d 0 exited $?"
if printf '%s\n' "$list" | grep -q '^intel_naive  '; then ok; else bad "no family intel_naive"; fi
# The sub-group kernels need both extensions of the default device (platform 0, device 0).
has_sg=0
ext=$("$gb" devices 2>/dev/null | awk '/^platform 0/{p=1} /^platform 1/{p=0} p' | grep -m1 extensions:)
case $ext in *cl_intel_subgroups*cl_intel_required_subgroup_size* | \
             *cl_intel_required_subgroup_size*cl_intel_subgroups*) has_sg=1 ;; esac
for k in L3_SLM_8x8_8x16 L3_SLM_8x8_4x16 L3_SLM_8x8_16x16; do
    line=$(printf '%s\n' "$list" | grep "preset $k ")
    case $line in *"-> runs") ok ;; *) bad "$k should run here: ${line:-not listed}" ;; esac
done
for k in L3_SIMD_32x2_1x8 L3_SIMD_16x2_1x8 L3_SIMD_16x2_4x8 L3_SIMD_8x4_1x8 L3_SIMD_8x4_8x8 \
         L3_SIMD_8x4_8x8_barrier block_read_32x2_1x8 block_read_32x2_4x8 block_read_32x2_8x8 \
         block_read_16x2_1x8 block_read_16x2_4x8 block_read_16x2_8x8 block_read_16x4_1x8 \
         block_read_16x4_4x8 block_read_16x4_8x8 block_read_32x1_1x8 block_read_4x1_1x8; do
    line=$(printf '%s\n' "$list" | grep "preset $k ")
    if [ -z "$line" ]; then
        bad "$k is not listed"
    elif [ $has_sg -eq 0 ]; then
        case $line in *"needs cl_intel_"*) ok ;; *) bad "$k: $line" ;; esac
    else
        case $k in
            L3_SIMD*) case $line in *"-> runs") ok ;; *) bad "$k: $line" ;; esac ;;
            *) case $line in *"-> runs" | *image*) ok ;; *) bad "$k: $line" ;; esac ;;
        esac
    fi
done

# 2. The kernels without extensions, as the sample's users would run them.
for k in intel_naive L3_SLM_8x8_8x16 L3_SLM_8x8_4x16 L3_SLM_8x8_16x16; do
    check_run -k $k -M 130 -N 70 -K 33 --alpha -2 --beta 0.5
    check_run -k $k -n 1,7,63,64,65,127,97 --alpha 1.5 --beta 1
    check_run -k $k -n 1,7,63,64,65,127,97 --alpha 0 --beta 0.75
    check_run -k $k -n 1,7,63,64,65,127,97 --dist int:3 --alpha -2 --beta 3
    check_run -k $k -M 130 -N 70 -K 33 --dist int:3 --alpha 1 --beta 0
    check_run -k $k --layout row -M 130 -N 70 -K 33 --beta 1
    check_run -k $k --layout row --transA T --lda 150 --offa 3 --offc 5 -M 77 -N 45 -K 61 \
        --alpha -1 --beta 2
    check_run -k $k --ldc 200 -n 130 --beta 0.5
done

# 3. Operands as images: every layout, straddling sizes, leading dimensions and offsets.
img="--kernel-path $fixtures/images -k image_naive"
if printf '%s\n' "$("$gb" kernels -d 0 --kernel-path "$fixtures/images" 2>&1)" |
    grep -A3 '^image_naive' | grep -q 'single: runs'; then
    for lay in "--layout col" "--layout row" "--layout col --transA T" "--layout row --transB T" \
               "--layout col --transA T --transB T"; do
        check_run $img $lay -M 67 -N 45 -K 33 --alpha 1.5 --beta -0.5
        check_run $img $lay -n 1,7,65 --dist int:3 --alpha 2 --beta 3
    done
    check_run $img --lda 90 --ldb 70 --ldc 100 --offa 3 --offb 1 --offc 7 -M 67 -N 45 -K 33 \
        --beta 1
    route=$("$gb" run $img -n 9 -i 1 2>&1 | grep '^image_naive')
    case $route in
        *"image A, image B"* | *"A copied to image, B copied to image"*) ok ;;
        *) bad "image_naive's route does not name its images: $route" ;;
    esac
else
    echo "note: the default device has no images; fixtures/images not run"
fi

finish
