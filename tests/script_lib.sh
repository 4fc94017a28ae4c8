# script_lib.sh: sourced by the script tests. It gives $tmp, a folder removed at exit, and two
# ways to fail:
#   fail MESSAGE     a test that stops at its first failure: prints the message and every log
#                    ($tmp/*.txt), and exits 1;
#   ok, bad MESSAGE, finish
#                    a test that counts its checks and goes on after a failure: ok counts one
#                    that passed, bad one that failed (printing "FAIL: MESSAGE"), and finish
#                    prints "N passed, M failed" and exits 0 where none failed, else 1.
# And helpers: requires (a program the test needs), show (a failure's logs), expect2, run_rows,
# points and stored; the last four run gemmbench as $gb, which the script sets from its first
# argument.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# requires PROGRAM PACKAGE: exit 77 (ctest: skipped) where PROGRAM is not installed; Debian's
# PACKAGE has it (scripts/install-deps.sh installs it).
requires() {
    command -v "$1" >/dev/null 2>&1 && return 0
    echo "$1 is not installed (Debian's $2 package; scripts/install-deps.sh installs it); skipping"
    exit 77
}
# show FILE...: each FILE that is not empty, under a line "--- FILE".
show() {
    for f in "$@"; do [ -s "$f" ] && { echo "--- $f"; cat "$f"; }; done
    return 0
}
fail() {
    echo "FAIL: $*"
    show "$tmp"/*.txt
    exit 1
}
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && exit 0
    exit 1
}

# expect2 REGEX ARGS...: gemmbench ARGS exits 2 with one line on stderr, which matches REGEX
# (extended); ok or bad. Its output stays in $tmp/out and $tmp/err.
expect2() {
    regex=$1
    shift
    "$gb" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -Eq -- "$regex" "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
        ok
    else
        bad "gemmbench $*: expected exit 2 and one line /$regex/, got exit $rc:"
        cat "$tmp/err"
    fi
}

# run_rows ROWS ARGS...: gemmbench run -i 1 --warmup 0 ARGS exits 0 and prints at least one row
# matching ROWS (extended) and none that fails its bound, is not faithful or was not validated
# ('  -' as its verdict); ok or bad.
run_rows() {
    rows=$1
    shift
    out=$("$gb" run -i 1 --warmup 0 "$@" 2>&1)
    rc=$?
    if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -qE -- "$rows" &&
        ! printf '%s\n' "$out" | grep -qE '  FAIL: |  -($| \()|not faithful'; then
        ok
    else
        bad "gemmbench run $* (exit $rc): $(printf '%s\n' "$out" | tail -2)"
    fi
}

# points STORE: how many points the results store STORE holds (nothing where it cannot be read).
points() { "$gb" store info --store "$1" 2>/dev/null | sed -n 's/^points: //p'; }
# stored FILE: how many points the output FILE of explore says it stored (0 while it is missing).
stored() { n=$(grep -c ', stored ' "$1" 2>/dev/null); echo "${n:-0}"; }
