#!/bin/sh
# run.sh: installs what is missing, builds, and runs the main job on the default device (PoCL):
# every built-in kernel the device can run, at a few sizes, validated, as one table.
set -eu
cd "$(dirname "$0")"
scripts/install-deps.sh
scripts/build.sh
exec build/gemmbench run -k all "$@"
