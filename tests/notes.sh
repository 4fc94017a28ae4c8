#!/bin/sh
# notes.sh SOURCE_DIR: the lab notes under bench/notes/ can be cited. Every section (a `## `
# heading) of a topic file has an anchor line `<a id="ID"></a>` just above it, its id used once
# in the folder and listed in bench/notes/README.md; every citation `bench/notes/FILE.md#ID` in
# the sources, kernels, docs, scripts, tests and the notes themselves (and every link of the
# index) names a file and an id that exist; no citation names a topic file without a section, and
# nothing names the single notes file the topic files were split from.
src=$1
. "$(dirname "$0")/script_lib.sh"
notes=$src/bench/notes
index=$notes/README.md
[ -f "$index" ] || fail "no $index"
[ -e "$notes.md" ] && fail "$notes.md is back: its sections belong in the topic files"

# The anchors, as FILE#ID, and the sections without one.
: >"$tmp/ids"
for f in "$notes"/*.md; do
    name=${f##*/}
    [ "$name" = README.md ] && continue
    awk -v f="$name" -v ids="$tmp/ids" '
        /^## / && prev !~ /^<a id="[a-z0-9-]+"><\/a>$/ { print f ": no anchor above \"" $0 "\""; bad = 1 }
        /^<a id="/ { id = $0; sub(/^<a id="/, "", id); sub(/".*$/, "", id); print f "#" id >>ids }
        { prev = $0 }
        END { exit bad }' "$f" >>"$tmp/errors.txt" || true
done
[ -s "$tmp/errors.txt" ] && fail "sections without an anchor"
[ -s "$tmp/ids" ] || fail "no anchors under $notes"
dup=$(sed 's/.*#//' "$tmp/ids" | sort | uniq -d)
[ -z "$dup" ] || fail "ids used twice: $dup"
while read -r fid; do
    grep -qF "(${fid})" "$index" || echo "$fid is not in the index" >>"$tmp/errors.txt"
done <"$tmp/ids"
[ -s "$tmp/errors.txt" ] && fail "sections missing from $index"

# Every citation resolves: bench/notes/FILE.md#ID anywhere, and FILE.md#ID links between notes.
for d in src include kernels docs bench tests scripts examples README.md; do
    [ -e "$src/$d" ] && grep -rHnoE 'bench/notes/[a-z0-9_.-]+\.md(#[a-z0-9-]+)?' "$src/$d"
done >"$tmp/cites"
# Links between notes: a file alone is enough (the index's table of files).
grep -noE '\]\([a-z0-9_.-]+\.md(#[a-z0-9-]+)?\)' "$notes"/*.md |
    sed 's|^\([^:]*:[0-9]*\):](\(.*\))$|\1:link:\2|' >>"$tmp/cites"
[ -s "$tmp/cites" ] || fail "no citations of the notes found under $src"
while IFS= read -r line; do
    cite=${line#*:*:}
    file=${cite%%#*}
    file=${file#bench/notes/}
    file=${file#link:}
    [ -f "$notes/$file" ] || { echo "$line: no such file" >>"$tmp/errors.txt"; continue; }
    case $cite in
    *'#'*) grep -qxF "$file#${cite#*#}" "$tmp/ids" ||
        echo "$line: no such section" >>"$tmp/errors.txt" ;;
    link:*) ;;
    *) [ "$file" = README.md ] || echo "$line: names no section" >>"$tmp/errors.txt" ;;
    esac
done <"$tmp/cites"
old='bench/notes[.]md'
for d in src include kernels docs bench tests scripts examples README.md; do
    [ -e "$src/$d" ] && grep -rn "$old" "$src/$d"
done >>"$tmp/errors.txt"
[ -s "$tmp/errors.txt" ] && fail "citations that do not resolve"
echo "notes: $(wc -l <"$tmp/ids") sections anchored and indexed, $(wc -l <"$tmp/cites") citations resolve"
