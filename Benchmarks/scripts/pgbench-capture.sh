#!/usr/bin/env bash
# The cost of FetchKit's change capture on pgbench's TPC-B-like load, against the same load without it, in
# the same run: each round runs the load without capture, with the trigger feed (the triggers enabled, a live
# `fetchkit watch` following pgbench_branches consuming their notifications) and with the logical feed (the
# triggers disabled, a second `fetchkit watch --feed logical` streaming the write-ahead log, started for that
# run only). Prints each round and the median transactions per second of each, with their ratios to the load
# without capture. The server must run wal_level = logical (Integration/scripts/pg-start.sh starts it so).
#
#   bash Benchmarks/scripts/pgbench-capture.sh [--scale 10] [--clients 8] [--seconds 15] [--rounds 3]
#
# Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created there), else starts a
# throwaway one with Integration/scripts/pg-start.sh. Builds the fetchkit tool in release mode.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCALE=10 CLIENTS=8 SECONDS_PER_RUN=15 ROUNDS=3
WATCH_PID='' LOGICAL_PID=''
# Never `kill 0` (an unset PID): that would end the script's whole process group.
stop_watches() { for pid in $WATCH_PID $LOGICAL_PID; do kill "$pid" 2>/dev/null || true; done; }
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE="$2"; shift 2 ;;
        --clients) CLIENTS="$2"; shift 2 ;;
        --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
cleanup() { stop_watches; }
source Benchmarks/scripts/pgbench-setup.sh
"$FETCHKIT" watch --store "$URL" --entity pgbench_branches --json >/dev/null &
WATCH_PID=$!
sleep 2
kill -0 "$WATCH_PID" || { echo "fetchkit watch did not start" >&2; exit 1; }

run() { "$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER_RUN" "$URL" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'; }
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The logical feed's watch, for one run: started (its slot and publication made) before it, stopped after.
logical() {
    if [ "$1" = start ]; then
        "$FETCHKIT" watch --store "$URL" --entity pgbench_branches --json --feed logical >/dev/null &
        LOGICAL_PID=$!
        sleep 2
        kill -0 "$LOGICAL_PID" || { echo "fetchkit watch --feed logical did not start" >&2; exit 1; }
    else
        kill "$LOGICAL_PID"; wait "$LOGICAL_PID" 2>/dev/null || true; LOGICAL_PID=
    fi
}

echo "pgbench TPC-B-like, scale $SCALE, $CLIENTS clients, ${SECONDS_PER_RUN} s per run, $ROUNDS rounds"
without=() with=() logged=()
for round in $(seq "$ROUNDS"); do
    triggers DISABLE; without+=("$(run)")
    triggers ENABLE; with+=("$(run)")
    triggers DISABLE; logical start; logged+=("$(run)"); logical stop
    echo "round $round: without capture ${without[-1]} tps, trigger feed ${with[-1]} tps, logical feed ${logged[-1]} tps"
done
base="$(echo "${without[*]}" | median)" captured="$(echo "${with[*]}" | median)" streamed="$(echo "${logged[*]}" | median)"
awk -v b="$base" -v c="$captured" -v l="$streamed" 'BEGIN {
    printf "median: without %.0f tps; trigger feed %.0f tps: %.1f %% (%.2fx); logical feed %.0f tps: %.1f %% (%.2fx)\n",
        b, c, (c / b - 1) * 100, c / b, l, (l / b - 1) * 100, l / b }'
