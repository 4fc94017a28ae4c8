# bench_lib.sh, sourced by the bench scripts. bench_build SOURCE BUILD: BUILD configured from
# SOURCE (Release, without the peer tuners) and the command-line tool built there.
bench_build() {
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGB_BENCH_TUNERS=OFF >/dev/null
    cmake --build "$2" --target gemmbench-cli >/dev/null
}
