#!/bin/sh
# paper_import.sh GEMMBENCH FIXTURES: `gemmbench kernels --import-gemmbench FILE --out DIR` on
# kernels written in the GEMMbench paper's manner (fixtures/paper: a float NN kernel with 4 x 2
# elements of C per work-item in the paper's own metadata form, and a list that adds a double
# NT kernel with its arguments in another order, named like a built-in preset). The imported
# kernels run validated on the default device through --kernel-path, at the paper's
# work-group and at the driver's; their limits (beta 0, sizes the grid does not divide) are
# refused or caught; and every bad input gets exit 2, one line, and nothing written.
gb=$1
fx=$2/paper
. "$(dirname "$0")/script_lib.sh"
db=$tmp/r.db
no() { bad "$*"; show "$tmp/out" "$tmp/err"; }

# ---- one kernel in the paper's form
"$gb" kernels --import-gemmbench "$fx/sgemm_nn_4x2.json" --out "$tmp/k" >"$tmp/out" 2>"$tmp/err" &&
    ok || no "import of sgemm_nn_4x2.json"
grep -q "^imported sgemm_nn_4x2 (single, row-NN, 4 x 2 elements of C per work-item) into $tmp/k/sgemm_nn_4x2.json$" \
    "$tmp/out" && ok || no "the import says what it wrote"
grep -q "^run with: gemmbench run --kernel-path $tmp/k -k sgemm_nn_4x2$" "$tmp/out" && ok ||
    no "the import says how to run it"
cmp -s "$fx/sgemm_nn_4x2.cl" "$tmp/k/sgemm_nn_4x2.cl" && ok || no "the source copied beside the metadata"
[ "$(ls "$tmp/k" | wc -l)" -eq 2 ] && ok || no "two files written"
"$gb" kernels --kernel-path "$tmp/k" >"$tmp/out" 2>"$tmp/err" && ok || no "kernels --kernel-path loads it"
grep -q "^sgemm_nn_4x2  \[s +1M c\]  native layouts: row-NN" "$tmp/out" && ok || no "kernels lists it"

# Run as the paper ran it (beta not 0, its work-group 8 x 8) and at the driver's work-group.
"$gb" run --kernel-path "$tmp/k" -k sgemm_nn_4x2 -n 64,96 --alpha 0.5 --beta 2 --lws 8,8 -i 2 \
    --warmup 0 --store "$db" >"$tmp/out" 2>"$tmp/err" && ok || no "run at the paper's work-group"
[ "$(grep -Ec "^sgemm_nn_4x2 +s +row-NN +(64|96) .* 8x8 .* pass " "$tmp/out")" -eq 2 ] && ok ||
    no "both sizes validated at 8x8"
"$gb" run --kernel-path "$tmp/k" -k sgemm_nn_4x2 -n 128 --beta 1 --lws 0,0 -i 2 --warmup 0 \
    --store "$db" >"$tmp/out" 2>"$tmp/err" && ok || no "run at the driver's work-group"
grep -Eq "^sgemm_nn_4x2 +s +row-NN +128 .* auto .* pass " "$tmp/out" && ok || no "validated at 0,0"
# The paper's kernels read C whatever beta is: at beta 0 the NaN the validation puts in C shows.
"$gb" run --kernel-path "$tmp/k" -k sgemm_nn_4x2 -n 64 -i 2 --warmup 0 --store "$db" \
    >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "FAIL: .*NaN" "$tmp/out" && ok || no "beta 0: reading C is caught (exit 1)"
expect2 "violates its constraint 'N % 4 == 0 && M % 2 == 0'" run --kernel-path "$tmp/k" \
    -k sgemm_nn_4x2 -n 66 --beta 1 -i 2 --store "$db"
expect2 "violates its constraint 'M == N && N == K'" run --kernel-path "$tmp/k" -k sgemm_nn_4x2 \
    -M 64 -N 32 -K 64 --beta 1 -i 2 --store "$db"
expect2 "violates its constraint '\(N / 4\) % max\(LX, 1\) == 0'" run --kernel-path "$tmp/k" \
    -k sgemm_nn_4x2 -n 64 --lws 32,1 --beta 1 -i 2 --store "$db"
expect2 "exists; remove it or choose another output folder" kernels --import-gemmbench \
    "$fx/sgemm_nn_4x2.json" --out "$tmp/k"

# ---- a list: a second kernel with its own entry and argument order, named like the built-in
# preset DGEMM_NT_1x1, which the family of --kernel-path stands in for.
"$gb" kernels --import-gemmbench "$fx/list.json" --out "$tmp/l" >"$tmp/out" 2>"$tmp/err" &&
    ok || no "import of list.json"
[ "$(grep -c "^imported " "$tmp/out")" -eq 2 ] && ok || no "two kernels imported"
grep -q '"args":.*"N", "alpha", "A", "B", "beta", "C"' "$tmp/l/DGEMM_NT_1x1.json" && ok ||
    no "the signature mapped to our names, in order"
"$gb" run --kernel-path "$tmp/l" -k DGEMM_NT_1x1 -n 32,48 --alpha 2 --beta -1 -i 2 --warmup 0 \
    --json --store "$db" >"$tmp/out" 2>"$tmp/err" && ok || no "run DGEMM_NT_1x1 (imported)"
[ "$(grep -c '"verdict":[[:space:]]*"pass"' "$tmp/out")" -eq 2 ] && ok || no "both validated"
grep -q '"layout":[[:space:]]*"row-NT"' "$tmp/out" && ok || no "its layout, row-NT"
grep -q -- '-DVW=' "$tmp/out" && no "the built-in preset ran, not the imported kernel" || ok
"$gb" run --kernel-path "$tmp/l" -k DGEMM_NT_1x1 -n 32 --transB N --beta 1 -i 2 --warmup 0 \
    --store "$db" >"$tmp/out" 2>"$tmp/err" && grep -Eq " pass " "$tmp/out" && ok ||
    no "another transposition, through a pass"

# ---- bad input: exit 2, one line naming the problem and the fix, nothing written
cp "$fx/sgemm_nn_4x2.cl" "$tmp/"
# try NAME REGEX JSON: the paper's metadata JSON (in $tmp/NAME.json) refused with REGEX.
try() {
    printf '%s\n' "$3" >"$tmp/$1.json"
    expect2 "$2" kernels --import-gemmbench "$tmp/$1.json" --out "$tmp/bad"
    [ ! -e "$tmp/bad" ] && ok || { bad "$1: something was written"; rm -rf "$tmp/bad"; }
}
good='"name": "x", "file": "sgemm_nn_4x2.cl", "type": "S", "transA": "N", "transB": "N"'
try notjson "not valid JSON near offset [0-9]+; fix the file" '{"name": "x",'
try empty "the list is empty" '[]'
try scalar "is an object .* or a list of them" '42'
try noname "key 'name' is missing" '{"file": "sgemm_nn_4x2.cl", "type": "S"}'
try nofile "key 'file' is missing" '{"name": "x", "type": "S"}'
try notype "key 'type' is missing; give \"S\" \(float\) or \"D\" \(double\)" \
    '{"name": "x", "file": "sgemm_nn_4x2.cl"}'
try complex "key 'type' is complex" '{"name": "x", "file": "sgemm_nn_4x2.cl", "type": "Z"}'
try badtype "key 'type' must be \"S\" \(float\) or \"D\" \(double\)" \
    '{"name": "x", "file": "sgemm_nn_4x2.cl", "type": "half"}'
try badtrans "key 'transB' must be \"N\" or \"T\"" \
    '{"name": "x", "file": "sgemm_nn_4x2.cl", "type": "S", "transB": "C"}'
try dj0 "key 'dj' must be a positive integer" "{$good, \"dj\": 0}"
try djfrac "key 'dj' must be a positive integer" "{$good, \"dj\": 1.5}"
try distr "key 'di' must be a positive integer" "{$good, \"di\": \"2\"}"
try unknown "key 'transC' is unknown; did you mean 'trans[AB]'" "{$good, \"transC\": \"N\"}"
try sig "key 'signature' names 'lda2', which is not one of A B C alpha beta n" \
    "{$good, \"signature\": [\"A\", \"B\", \"C\", \"alpha\", \"beta\", \"lda2\"]}"
try nosize "key 'signature' must name the order n" "{$good, \"signature\": [\"A\", \"B\", \"C\"]}"
try opts "key 'opts' holds an option other than -DNAME=INTEGER" \
    "{$good, \"opts\": \"-cl-fast-relaxed-math\"}"
try badname "key 'name' must be under 48 letters" \
    '{"name": "../x", "file": "sgemm_nn_4x2.cl", "type": "S"}'
try nosource "kernel source '.*missing.cl' cannot be read" \
    '{"name": "x", "file": "missing.cl", "type": "S"}'
try noentry "has no kernel 'gemm_tn'; name it with key \"entry\"" "{$good, \"entry\": \"gemm_tn\"}"
try listbad "entry 2 \('y'\): key 'dj' must be a positive integer" \
    "[{$good}, {\"name\": \"y\", \"file\": \"sgemm_nn_4x2.cl\", \"type\": \"S\", \"dj\": -4}]"
try twice "two kernels are named 'x'" "[{$good}, {$good}]"
expect2 "holds the paper's metadata, which --kernel-path would read as ours" kernels \
    --import-gemmbench "$fx/sgemm_nn_4x2.json" --out "$fx"
expect2 "needs --out DIR" kernels --import-gemmbench "$fx/sgemm_nn_4x2.json"
expect2 "cannot read '.*nothere.json'" kernels --import-gemmbench "$tmp/nothere.json" --out "$tmp/bad"
finish
