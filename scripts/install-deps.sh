#!/bin/sh
# install-deps.sh: installs the Debian packages gemmbench needs to build, run and test, and
# only those missing: on a machine that has them all it installs nothing and needs no network.
# gnuplot-nox draws the HTML report's plots; chromium and zlib1g-dev are for the test that
# renders that page and checks the picture; clang-format checks the sources' layout in CI;
# libopenmpi-dev and openmpi-bin build and test explore --mpi.
set -eu
pkgs="build-essential cmake ninja-build pkg-config ocl-icd-opencl-dev opencl-c-headers
pocl-opencl-icd libcjson-dev libsqlite3-dev libopenblas-dev libclblast-dev oclgrind clinfo
gnuplot-nox zlib1g-dev chromium clang-format libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: everything is installed"
    exit 0
fi
echo "install-deps: installing$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
