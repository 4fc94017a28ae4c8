#!/bin/sh
# bench/space-median.sh SOURCE FILE.space FILE.space [...] > OUT.space: one recorded space from
# several exhaustive recordings of the same space, each configuration scored by the median of
# its recorded scores (the mean of the middle two for an even count). Where single measurements
# are noisy (a CPU device's, docs/methodology.md) the median of passes made apart in time is a
# steadier score than any one pass. A configuration that failed in any pass is recorded as failed:
# a candidate that was once wrong cannot win. The header is the first file's, with its `source`
# line replaced by SOURCE (before the `param` lines); the files must have the same header
# otherwise and list the same configurations. `gemmbench tune --simulate OUT.space` checks the
# result as it reads it.
set -eu
if [ $# -lt 3 ]; then
    echo "usage: bench/space-median.sh SOURCE FILE.space FILE.space [...] > OUT.space" >&2
    exit 2
fi
src=$1
shift
for f in "$@"; do
    [ -r "$f" ] || { echo "space-median: cannot read '$f'" >&2; exit 2; }
done
exec awk -v src="$src" -v nfiles=$# '
function fail(msg) { print "space-median: " msg > "/dev/stderr"; bad = 1; exit 2 }
FNR == 1 { file++; inconf = 0 }
/^#/ || /^[ \t]*$/ { next }
!inconf {
    if ($1 == "configurations") { inconf = 1 }
    if ($1 == "source") next
    if (file == 1) head[++nhead] = $0
    else if (head[++seen[file]] != $0)
        fail(FILENAME ":" FNR ": \"" $0 "\" differs from the first file'\''s header")
    next
}
{
    score = $NF
    if (score !~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/)
        fail(FILENAME ":" FNR ": the score \"" score "\" is not a number")
    $NF = ""
    conf = $0
    if (file == 1) order[++nconf] = conf
    else if (!(conf in count)) fail(FILENAME ":" FNR ": a configuration the first file lacks")
    count[conf]++
    scores[conf, count[conf]] = score + 0
    if (score + 0 < 0) failed[conf] = 1
}
END {
    if (bad) exit 2
    for (i = 1; i <= nconf; i++)
        if (count[order[i]] != nfiles)
            fail("configuration \"" order[i] "\" is in " count[order[i]] " of the " nfiles " files")
    for (i = 1; i <= nhead; i++) {
        if (head[i] ~ /^param / && !said) { print "source " src; said = 1 }
        print head[i]
    }
    for (i = 1; i <= nconf; i++) {
        c = order[i]
        n = count[c]
        for (j = 1; j <= n; j++) v[j] = scores[c, j]
        for (j = 2; j <= n; j++)                      # insertion sort: a few passes
            for (k = j; k > 1 && v[k - 1] > v[k]; k--) { t = v[k]; v[k] = v[k - 1]; v[k - 1] = t }
        m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        printf "%s%s\n", c, failed[c] ? "-1" : sprintf("%.6g", m)
    }
    printf "# %d configurations, each the median of %d recorded passes\n", nconf, nfiles
}' "$@"
