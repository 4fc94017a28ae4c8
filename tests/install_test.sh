#!/bin/sh
# install_test.sh SOURCE_DIR BUILD_DIR command|library: the library as an application meets it.
# BUILD_DIR is installed (`cmake --install`) into a new prefix, which must hold the library's
# headers, shared library (soname libgemmbench_blas.so.0.1, its links, exporting gb_* alone,
# needing the OpenCL loader and nothing beyond the C library, libm and libpthread), static
# library, pkg-config files and CMake package (of version 0.1.0, which find_package(gemmbench 1.0)
# refuses), and neither the harness's header nor its library; with `command` the gemmbench
# command too, with `library` (a build with GB_TOOL=OFF) not, and nothing of the tool's built or
# looked for (cJSON, OpenBLAS, SQLite, CLBlast, MPI, CUDA). examples/ is then built as a project
# of its own against the prefix, with the shared and with the static library, and
# examples/sgemm.c compiled by hand with the flags of the two pkg-config files (the shared
# library, the static one); each program runs on the default device and must print "ok", and the
# static ones must need no shared gemmbench library. Exit 77 (skipped) for a build under the
# sanitizers, whose library needs their runtime first in any program that loads it.
src=$1
build=$2
installed=$3
cc=${CC:-cc}
. "$(dirname "$0")/script_lib.sh"
prefix=$tmp/prefix
# badlog MESSAGE: bad, with the end of the failed command's output.
badlog() {
    bad "$1"
    tail -n 30 "$tmp/log"
}
# runs NAME PROGRAM: PROGRAM runs and says ok.
runs() {
    if "$2" >"$tmp/log" 2>&1 && tail -n 1 "$tmp/log" | grep -qx ok; then ok; else
        badlog "$1 did not run"
    fi
}
# linked_statically NAME PROGRAM: PROGRAM needs no shared gemmbench library, by its own entries
# and as the loader resolves them.
linked_statically() {
    if ! readelf -d "$2" | grep -q 'NEEDED.*gemmbench' && ldd "$2" >"$tmp/ldd" 2>&1 &&
        ! grep -q gemmbench "$tmp/ldd"; then
        ok
    else bad "$1 needs a shared gemmbench library: $(tr '\n' ' ' <"$tmp/ldd")"; fi
}
case $installed in
command | library) ;;
*)
    echo "usage: install_test.sh SOURCE_DIR BUILD_DIR command|library" >&2
    exit 2
    ;;
esac

if cmake --install "$build" --prefix "$prefix" >"$tmp/log" 2>&1; then ok; else
    badlog "cmake --install"
    finish
fi

# ---- what is installed ---------------------------------------------------------------------------
so=$(find "$prefix" -name libgemmbench_blas.so.0.1 | head -n 1)
if [ -z "$so" ]; then
    bad "no libgemmbench_blas.so.0.1 under the prefix"
    finish
fi
libdir=$(dirname "$so")
for f in include/gemmbench_blas.h include/gemmbench_base.h; do
    if [ -f "$prefix/$f" ]; then ok; else bad "$f is not installed"; fi
done
for f in libgemmbench_blas.a libgemmbench_blas.so.0.1.0 pkgconfig/gemmbench_blas.pc \
    pkgconfig/gemmbench_blas_static.pc cmake/gemmbench/gemmbench-config.cmake \
    cmake/gemmbench/gemmbench-config-version.cmake cmake/gemmbench/gemmbench-targets.cmake; do
    if [ -f "$libdir/$f" ]; then ok; else bad "$libdir/$f is not installed"; fi
done
if [ "$installed" = command ]; then
    if [ -f "$prefix/bin/gemmbench" ]; then ok; else bad "bin/gemmbench is not installed"; fi
else
    if [ ! -e "$prefix/bin" ]; then ok; else bad "the library alone installs $(ls "$prefix/bin")"; fi
    # Nothing of the tool built, or looked for by the configuration.
    if [ ! -e "$build/gemmbench" ] && [ ! -e "$build/gemmbench-metagen" ] &&
        [ ! -e "$build/libgemmbench.a" ]; then ok; else
        bad "the library alone built the command, the generator or the harness"
    fi
    looked=$(grep -Eo '^(CJSON|CBLAS|OPENBLAS|CLBLAST|SQLite3|MPI|CUDA|ZLIB)[A-Za-z]*' \
        "$build/CMakeCache.txt" | sort -u | tr '\n' ' ')
    if [ -z "$looked" ]; then ok; else bad "the library alone looked for $looked"; fi
fi
if [ "$(readlink "$libdir/libgemmbench_blas.so")" = libgemmbench_blas.so.0.1 ] &&
    [ "$(readlink "$so")" = libgemmbench_blas.so.0.1.0 ]; then ok; else
    bad "the links libgemmbench_blas.so -> .so.0.1 -> .so.0.1.0"
fi
if [ -z "$(find "$prefix" -name gemmbench.h -o -name libgemmbench.a)" ]; then ok; else
    bad "the harness's gemmbench.h or libgemmbench.a is installed"
fi

readelf -d "$so" >"$tmp/dyn" 2>&1
if grep -Eq 'NEEDED.*\[lib(a|ub)san' "$tmp/dyn"; then
    echo "skipped: the library is built under the sanitizers"
    exit 77
fi
if grep -q 'SONAME.*\[libgemmbench_blas\.so\.0\.1\]' "$tmp/dyn"; then ok; else
    bad "SONAME is not libgemmbench_blas.so.0.1"
fi
needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$tmp/dyn" | tr '\n' ' ')
if echo "$needed" | grep -q 'libOpenCL\.so'; then ok; else
    bad "the library does not need libOpenCL ($needed)"
fi
# ld-linux is glibc's too: thread-local storage in a shared library is resolved there.
for lib in $needed; do
    case $lib in
    libOpenCL.so* | libc.so* | libm.so* | libpthread.so* | ld-linux*.so*) ok ;;
    *) bad "the library needs $lib" ;;
    esac
done
if ldd "$so" >"$tmp/ldd" 2>&1 &&
    ! grep -Eqi 'not found|sqlite|openblas|cjson|clblast|cuda' "$tmp/ldd"; then
    ok
else bad "ldd: $(tr '\n' ' ' <"$tmp/ldd")"; fi
others=$(nm -D --defined-only "$so" | awk '$3 !~ /^gb_/ { print $3 }' | tr '\n' ' ')
if [ -z "$others" ]; then ok; else bad "the library exports $others"; fi

# ---- examples/ as a project of its own -----------------------------------------------------------
for kind in shared static; do
    static=OFF
    [ $kind = static ] && static=ON
    ex=$tmp/example-$kind
    if cmake -S "$src/examples" -B "$ex" -DCMAKE_PREFIX_PATH="$prefix" -DSGEMM_STATIC=$static \
        >"$tmp/log" 2>&1 && cmake --build "$ex" >"$tmp/log" 2>&1; then
        ok
        runs "examples/ built by CMake ($kind)" "$ex/sgemm"
    else badlog "examples/ does not build against the prefix ($kind)"; fi
done
if ldd "$tmp/example-shared/sgemm" | grep -q "=> $libdir/libgemmbench_blas.so.0.1 "; then ok; else
    bad "examples/ (shared) does not load the prefix's library"
fi
linked_statically "examples/ (static)" "$tmp/example-static/sgemm"

# The version file: 0.1 is found, 1.0 is not (SameMinorVersion, like the soname).
mkdir "$tmp/version"
cat >"$tmp/version/CMakeLists.txt" <<'END'
cmake_minimum_required(VERSION 3.18)
project(version LANGUAGES C)
find_package(gemmbench 0.1 REQUIRED)
find_package(gemmbench 1.0 QUIET)
if(gemmbench_FOUND)
  message(FATAL_ERROR "find_package(gemmbench 1.0) found ${gemmbench_VERSION}")
endif()
END
if cmake -S "$tmp/version" -B "$tmp/version/build" -DCMAKE_PREFIX_PATH="$prefix" \
    >"$tmp/log" 2>&1; then
    ok
else badlog "find_package(gemmbench 0.1) and not 1.0"; fi

# ---- examples/sgemm.c by hand with pkg-config ----------------------------------------------------
export PKG_CONFIG_PATH="$libdir/pkgconfig"
# shellcheck disable=SC2086 # $flags is a list of words
if flags=$(pkg-config --cflags --libs gemmbench_blas) &&
    $cc -std=c11 -o "$tmp/sgemm-pc" "$src/examples/sgemm.c" $flags >"$tmp/log" 2>&1; then
    ok
    LD_LIBRARY_PATH=$libdir
    export LD_LIBRARY_PATH
    runs "sgemm.c linked by pkg-config" "$tmp/sgemm-pc"
    unset LD_LIBRARY_PATH
else badlog "sgemm.c does not build with pkg-config's flags"; fi
# The static library's file names the archive by its path: the shared library beside it is not
# taken instead.
# shellcheck disable=SC2086
if flags=$(pkg-config --cflags --libs gemmbench_blas_static) &&
    $cc -std=c11 -o "$tmp/sgemm-pc-static" "$src/examples/sgemm.c" $flags >"$tmp/log" 2>&1; then
    ok
    runs "sgemm.c linked by pkg-config (static)" "$tmp/sgemm-pc-static"
    linked_statically "sgemm.c linked by pkg-config (static)" "$tmp/sgemm-pc-static"
else badlog "sgemm.c does not build with gemmbench_blas_static's flags"; fi
finish
