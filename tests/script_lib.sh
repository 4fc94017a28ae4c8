# script_lib.sh: sourced by the script tests: $tmp, a folder removed at exit, and fail MESSAGE,
# which prints the message and every log ($tmp/*.txt) and exits 1.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
    for f in "$tmp"/*.txt; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    exit 1
}
