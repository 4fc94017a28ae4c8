#!/bin/sh
# fault_writers.sh GEMMBENCH: several explores at once on one store that does not exist yet,
# with overlapping plans (2 writers, then 4 on another store): every one exits 0 with no
# "database is locked" (or any) error, no point is lost and none is stored twice (the store
# holds exactly the union of the plans), and `store check` is clean. Tiny sizes, naive kernel.
gb=$1
. "$(dirname "$0")/script_lib.sh"
export GEMMBENCH_ENERGY_MIN_S=0

# writers DB UNION SIZES...: one explore per size list, all started at once on DB; the store
# must end with UNION points (orders x 2 work-groups, each once).
writers() {
    db=$1
    union=$2
    shift 2
    pids=""
    i=0
    for sizes in "$@"; do
        i=$((i + 1))
        "$gb" explore -k naive -n "$sizes" --lws "4,4;8,2" -i 2 --warmup 0 --store "$db" \
            >"$tmp/out$i" 2>"$tmp/err$i" &
        pids="$pids $!"
    done
    i=0
    for pid in $pids; do
        i=$((i + 1))
        wait "$pid" && ok || bad "writer $i of $# exited $?: $(cat "$tmp/err$i")"
        [ ! -s "$tmp/err$i" ] && ok || bad "writer $i printed errors: $(cat "$tmp/err$i")"
        grep -qi "locked" "$tmp/out$i" "$tmp/err$i" && bad "writer $i: database is locked"
    done
    [ "$(points "$db")" = "$union" ] && ok || bad "$# writers: $(points "$db") points, want $union"
    "$gb" store check --store "$db" >"$tmp/check" 2>&1 && ok || bad "$# writers: $(cat "$tmp/check")"
    # Every point once: the union measured again plans nothing.
    "$gb" explore -k naive -n "8:40:8" --lws "4,4;8,2" -i 2 --warmup 0 --store "$db" --dry-run \
        >"$tmp/dry" 2>&1
    grep -q "$union already in the store" "$tmp/dry" && ok || bad "$# writers: $(head -n 1 "$tmp/dry")"
}

# 2 writers: orders {8,16,24,32} and {16,24,32,40}: union 5 orders x 2 work-groups.
writers "$tmp/two.db" 10 "8,16,24,32" "16,24,32,40"
# 4 writers: every pair of lists overlaps; union again 5 orders x 2 work-groups.
writers "$tmp/four.db" 10 "8,16,24" "16,24,32" "24,32,40" "8,40,16"

finish
