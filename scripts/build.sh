#!/bin/sh
# build.sh: configures and builds gemmbench into BUILD_DIR (default build/; GB_WERROR=ON makes
# warnings errors).
set -eu
cd "$(dirname "$0")/.."
dir=${BUILD_DIR:-build}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGB_WERROR="${GB_WERROR:-OFF}" >/dev/null
cmake --build "$dir"
