#!/bin/sh
# space_median.sh GEMMBENCH TUNERS: gemmbench-tuners --median makes one recorded space of several
# passes: each configuration's median (a failure in any pass fails it), a space that
# `tune --simulate` reads; passes of different spaces are refused with exit 2, one line on
# stderr and nothing written.
gb=$1
tuners=$2
. "$(dirname "$0")/script_lib.sh"

# pass FILE SOURCE SCORE4 SCORE8 SCORE16: a space of myGEMM1's TS 4, 8 and 16 at 32^3.
pass() {
    printf 'gemmbench-space 1\nfamily myGEMM1\nprecision s\nsize 32 32 32\n' >"$1"
    printf 'source %s\nparam TS 4 8 16\nconfigurations\n' "$2" >>"$1"
    printf '4 %s\n8 %s\n16 %s\n# 3 of the space'\''s 3 configurations recorded\n' "$3" "$4" \
        "$5" >>"$1"
}
pass "$tmp/a.space" "pass a" 1.5 10 7
pass "$tmp/b.space" "pass b" 2.5 60 -1
pass "$tmp/c.space" "pass c" 0.2 20 8
# scores FILE: each configuration and its score as a number, "TS=score;" in the file's order.
scores() { sed '1,/^configurations$/d;/^#/d' "$1" | awk '{ printf "%s=%g;", $1, $2 }'; }

# Three passes: the middle score (not the mean), and failed where one pass failed.
"$tuners" --median "median of three" "$tmp/a.space" "$tmp/b.space" "$tmp/c.space" \
    >"$tmp/m.txt" 2>"$tmp/err.txt" || fail "the median of three passes"
[ "$(scores "$tmp/m.txt")" = "4=1.5;8=20;16=-1;" ] &&
    grep -qx "source median of three" "$tmp/m.txt" &&
    [ "$(grep -c '^source' "$tmp/m.txt")" -eq 1 ] || fail "the median of three passes' lines"

# Two passes: the mean of the middle two.
"$tuners" --median "two" "$tmp/a.space" "$tmp/c.space" >"$tmp/m2.txt" 2>"$tmp/err.txt" &&
    [ "$(scores "$tmp/m2.txt")" = "4=0.85;8=15;16=7.5;" ] || fail "the median of two passes"

# The result is a space the tuner reads, whose best is the medians' best.
cp "$tmp/m.txt" "$tmp/m.space"
"$gb" tune --simulate "$tmp/m.space" --strategy exhaustive >"$tmp/sim.txt" 2>&1 &&
    grep -q ": 3 configurations, best 20$" "$tmp/sim.txt" &&
    grep -q "reached after 2 evaluations" "$tmp/sim.txt" || fail "the median space simulated"

# Passes of another problem, or with another configuration, are refused.
refused() {
    what=$1
    shift
    "$tuners" --median "x" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
    [ $? -eq 2 ] && grep -q -- "$what" "$tmp/err.txt" && [ "$(wc -l <"$tmp/err.txt")" -eq 1 ] &&
        [ ! -s "$tmp/out.txt" ] || fail "refused: $what"
}
sed 's/^size 32 32 32$/size 64 64 64/' "$tmp/a.space" >"$tmp/size.space"
refused "size.space: its 'size' differs from .*a.space's: not a pass of the same space" \
    "$tmp/a.space" "$tmp/size.space"
sed 's/^param TS 4 8 16$/param TS 4 8 16 32/' "$tmp/b.space" >"$tmp/param.space"
refused "param.space: its 'param' differs" "$tmp/a.space" "$tmp/param.space"
sed 's/^16 /32 /' "$tmp/b.space" >"$tmp/conf.space"
refused "conf.space:10: TS=32 is not among the values" "$tmp/a.space" "$tmp/conf.space"
sed '/^16 /d' "$tmp/b.space" >"$tmp/short.space"
refused "short.space records 2 of the space's 3 configurations" "$tmp/a.space" \
    "$tmp/short.space"
sed 's/^8 60$/8 fast/' "$tmp/b.space" >"$tmp/nan.space"
refused "nan.space:9: the score 'fast' is not a finite number" "$tmp/a.space" "$tmp/nan.space"
refused "cannot read .*none.space" "$tmp/a.space" "$tmp/none.space"
refused "--median needs a source line and two files or more" "$tmp/a.space"
echo "space_median: median, failures, refusals"
