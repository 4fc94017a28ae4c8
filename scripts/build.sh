#!/bin/sh
# build.sh: configures and builds gemmbench into build/ (GB_WERROR=ON makes warnings errors).
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGB_WERROR="${GB_WERROR:-OFF}" >/dev/null
cmake --build build
