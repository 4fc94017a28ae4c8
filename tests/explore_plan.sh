#!/bin/sh
# explore_plan.sh GEMMBENCH: each malformed plan or sweep gets exit 2 and one line on stderr that
# names the file and key at fault; the built-in plans expand to the points they promise.
gb=$1
. "$(dirname "$0")/script_lib.sh"
db=$tmp/r.db

# expect_plan REGEX PLAN-TEXT [ARGS]: the plan in a file, explore --dry-run must exit 2 with one
# line on stderr matching REGEX.
expect_plan() {
    regex=$1
    printf '%s\n' "$2" >"$tmp/plan.json"
    shift 2
    expect2 "$regex" explore --plan "$tmp/plan.json" --dry-run --store "$db" "$@"
}
p="plan '$tmp/plan.json'"
expect_plan "$p is not valid JSON \(line 1, column" '{"kernels": ["naive"], "n": [8,}'
expect_plan "$p: unknown key 'sizes'" '{"kernels": ["naive"], "sizes": [8]}'
expect_plan "$p: key 'kernels' must be an array of kernel or preset names" '{"kernels": 3, "n": [8]}'
expect_plan "$p: key 'n': '64:8' must hold values of at least 1, ranges from low to high" \
    '{"kernels": ["naive"], "n": "64:8"}'
expect_plan "$p: key 'n' must be a size list" '{"kernels": ["naive"], "n": {"a": 1}}'
expect_plan "$p: key 'n': step 'x1' in '8:64:x1'" '{"kernels": ["naive"], "n": "8:64:x1"}'
expect_plan "$p: key 'lws' must be an array of \[J, I\] pairs" '{"kernels": ["naive"], "n": [8], "lws": [[16]]}'
expect_plan "$p: key 'lws.z' is unknown" '{"kernels": ["naive"], "n": [8], "lws": {"x": [4], "z": [4]}}'
expect_plan "$p: key 'params.DJ': '1,two' is not a list" \
    '{"kernels": ["SGEMM_NT_4x1"], "n": [8], "params": {"DJ": [1, "two"]}}'
expect_plan "$p: key 'iterations' must be an integer from 1 to 100000, got '0'" \
    '{"kernels": ["naive"], "n": [8], "iterations": 0}'
expect_plan "$p: key 'iterations' must be an integer" '{"kernels": ["naive"], "n": [8], "iterations": [1, 2]}'
expect_plan "$p: key 'repeat' must be an integer" '{"kernels": ["naive"], "n": [8], "repeat": "twice"}'
expect_plan "$p: key 'dist': unknown distribution 'zipf'" '{"kernels": ["naive"], "n": [8], "dist": "zipf"}'
expect_plan "$p: key 'precision': unknown precision 'q'" '{"kernels": ["naive"], "n": [8], "precision": "q"}'
expect_plan "$p: key 'timing': unknown timing 'fast'" '{"kernels": ["naive"], "n": [8], "timing": "fast"}'
expect_plan "$p: key 'kernels' appears twice" '{"kernels": ["naive"], "kernels": ["naive"], "n": [8]}'
expect_plan "$p must be a JSON object" '[1, 2]'
# One document per file: a second plan (or any text) after the first is refused with its offset.
expect_plan "$p: text after the JSON document at byte offset 33; a plan file holds one object" \
    '{"kernels": ["naive"], "n": [8]} {"kernels": ["naive"], "n": [16]}'
expect_plan "$p: text after the JSON document at byte offset 32" '{"kernels": ["naive"], "n": [8]},'
expect_plan "unknown kernel 'nope'" '{"kernels": ["nope"], "n": [8]}'
expect_plan "has no parameter NOPE" '{"kernels": ["naive"], "n": [8], "params": {"NOPE": [1]}}'
expect_plan "no sizes given" '{"kernels": ["naive"]}'
expect_plan "key 'shapes': '8x8' is not a shape; give MxNxK" '{"kernels": ["naive"], "shapes": ["8x8"]}'
expect_plan "key 'shapes': '0x8x8' is not a shape" '{"kernels": ["naive"], "shapes": "0x8x8"}'
printf '# M N K\n8 16 32\n\n64x8x8  # tall\n' >"$tmp/shapes.txt"
printf '8 16\n' >"$tmp/bad_shapes.txt"
expect2 "shapes.txt: line 1: '8 16' is not a shape" explore -k naive --shapes "$tmp/bad_shapes.txt" --store "$db"
expect2 "cannot read the shapes file" explore -k naive --shapes "$tmp/none.txt" --store "$db"
# Explicit shapes follow the orders: 2 orders + 2 shapes.
"$gb" explore -k naive -n 8,16 --shapes "$tmp/shapes.txt" --dry-run --store "$db" >"$tmp/out" 2>&1
if grep -q "4 points" "$tmp/out" && grep -q "8x16x32" "$tmp/out" && grep -q "64x8x8" "$tmp/out"; then
    ok; else bad "--shapes"; cat "$tmp/out"; fi
expect2 "cannot read plan '$tmp/missing.json'.*built-in plan" explore --plan "$tmp/missing.json" --store "$db"
expect2 "no kernels to explore" explore -n 8 --store "$db"
expect2 "^gemmbench: error: -n: 'abc' is not a list" explore -k naive -n abc --store "$db"
expect2 "^gemmbench: error: -n: 2000000000 is too large" explore -k naive -n 2000000000 --store "$db"
expect2 "^gemmbench: error: --lws: '16' is not a list of work-group sizes" explore -k naive -n 8 --lws 16 --store "$db"
expect2 "-N is not given while -M is" explore -k naive -M 8 --store "$db"
expect2 "--param: 'DJ' must be NAME=VALUES" explore -k SGEMM_NT_4x1 -n 8 --param DJ --store "$db"
expect2 "the plan has more than 1000000 points" explore -k naive -n 1:4096 -M 1:4096 --store "$db"
expect2 "the plan has more than 1000000 points; narrow it" explore -k naive -n 1:1000 --param LX=1:1000 \
    --param LY=1:2 --store "$db"
expect2 "unknown option '--bogus'" explore --bogus

# The built-in plans expand as documented; flags override their keys.
"$gb" explore --plan explore-f-n --dry-run --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "built-in plan 'explore-f-n': 33 points" "$tmp/out" &&
   [ "$(grep -c '^to run: SGEMM_NT_.* lws 8x8 ' "$tmp/out")" -eq 33 ] &&
   grep -q "^to run: SGEMM_NT_4x1_barrier s 96x96x96 lws 8x8 rep 0" "$tmp/out"; then ok; else
    bad "explore-f-n must have the paper's 11 orders at 8x8, 33 points"; cat "$tmp/out" "$tmp/err"; fi
"$gb" explore --plan explore-n-lws --dry-run --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "built-in plan 'explore-n-lws': 104 points" "$tmp/out" &&
   grep -q "to run: SGEMM_NT_4x1_barrier s 512x512x512 lws 128x1 rep 0" "$tmp/out"; then
    ok; else
    bad "explore-n-lws must have 26 work-groups x 4 sizes"; cat "$tmp/out" "$tmp/err"; fi
"$gb" explore --plan explore-f-n -n 64,128 -i 3 --dry-run --store "$db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q ": 6 points" "$tmp/out"; then ok; else
    bad "-n must override the plan's sizes"; cat "$tmp/out" "$tmp/err"; fi
# Points that cannot run are counted with their reason, not errors.
"$gb" explore -k SGEMM_NT_4x1 -n 8 --lws "1024,1024;16,4" --precision s,d --dry-run --store "$db" \
    >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q ": 1 to measure, 0 already in the store, 3 cannot run here" "$tmp/out" &&
   grep -q "^cannot run: 1 x GB_EWGSIZE" "$tmp/out" && grep -q "^cannot run: 2 x GB_EUNSUPPORTED" "$tmp/out" &&
   grep -q "^skip: SGEMM_NT_4x1 d 8x8x8 lws 16x4 rep 0: kernel 'SGEMM_NT_4x1' has no double" "$tmp/out"; then
    ok; else
    bad "points that cannot run"; cat "$tmp/out" "$tmp/err"; fi
# Complex scalars and the conjugate transposition in a plan: alpha and beta as [RE, IM] (or
# "RE,IM" as --alpha takes them), transA "C"; a complex alpha of one element, or of three, is
# refused in one line and nothing is stored; with a real precision too, as the flags are.
expect_plan "$p: key 'alpha': a complex alpha is \[RE, IM\], two numbers; got 1 element$" \
    '{"kernels": ["naive"], "n": [8], "precision": "c", "alpha": [1]}'
expect2 "$p: key 'alpha': a complex alpha is" explore --plan "$tmp/plan.json" --store "$tmp/none.db"
[ ! -e "$tmp/none.db" ] && ok || bad "a plan refused for its alpha made a store"
expect_plan "$p: key 'beta': a complex beta is \[RE, IM\], two numbers; got 3 elements$" \
    '{"kernels": ["naive"], "n": [8], "precision": "c", "beta": [1, 2, 3]}'
expect_plan "$p: key 'alpha': a complex alpha is \[RE, IM\], two numbers" \
    '{"kernels": ["naive"], "n": [8], "precision": "z", "alpha": [1, "2"]}'
expect_plan "alpha and beta have no imaginary part in precision s" \
    '{"kernels": ["naive"], "n": [8], "precision": "s,c", "alpha": [1, 2]}'
printf '%s\n' '{"kernels": ["naive"], "n": [8], "precision": "c,z", "alpha": [1, -2],
  "beta": "0.5,1", "transA": "C", "iterations": 1, "warmup": 0}' >"$tmp/cplx.json"
"$gb" explore --plan "$tmp/cplx.json" --store "$tmp/cplx.db" >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 0 ] && grep -q "2 measured and stored (0 failed validation)" "$tmp/out" &&
    [ "$("$gb" store list --store "$tmp/cplx.db" | grep -cE "naive +[cz] +row-CN .* pass")" -eq 2 ] &&
    "$gb" export --format csv --store "$tmp/cplx.db" | grep -q "alpha_im"; then
    ok; else
    bad "a complex plan: alpha [RE, IM], C on A"; cat "$tmp/out" "$tmp/err"; fi
finish
