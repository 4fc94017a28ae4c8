#!/bin/sh
# test.sh: installs what is missing, builds, and runs the test suite (ctest; the slow Oclgrind
# sweep of every kernel is left to `cd build && ctest -L slow`).
set -eu
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
cd build
exec ctest --output-on-failure -j2 -LE slow "$@"
