#!/usr/bin/env bash
# The cost of FetchKit's change capture on pgbench's TPC-B-like load, against the same load without it, in
# the same run: rounds alternate between the triggers disabled and enabled, while a live `fetchkit watch`
# follows pgbench_branches (so notifications are consumed as in production). Prints each round and the
# median transactions per second of both, with their ratio.
#
#   bash Benchmarks/scripts/pgbench-capture.sh [--scale 10] [--clients 8] [--seconds 15] [--rounds 3]
#
# Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created there), else starts a
# throwaway one with Integration/scripts/pg-start.sh. Builds the fetchkit tool in release mode.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCALE=10 CLIENTS=8 SECONDS_PER_RUN=15 ROUNDS=3
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE="$2"; shift 2 ;;
        --clients) CLIENTS="$2"; shift 2 ;;
        --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "${DATABASE_URL:-}" ]; then
    eval "$(bash Integration/scripts/pg-start.sh)"
    trap 'kill "${WATCH_PID:-0}" 2>/dev/null || true; bash Integration/scripts/pg-stop.sh' EXIT
else
    trap 'kill "${WATCH_PID:-0}" 2>/dev/null || true' EXIT
fi
PGBIN="${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)}"
BASE="${DATABASE_URL%%\?*}"
URL="${BASE%/*}/fetchkit_pgbench"
"$PGBIN/psql" -q "$DATABASE_URL" -c "DROP DATABASE IF EXISTS fetchkit_pgbench" -c "CREATE DATABASE fetchkit_pgbench"
"$PGBIN/pgbench" -i -q -s "$SCALE" "$URL" >/dev/null 2>&1
swift build -c release --product fetchkit >/dev/null
FETCHKIT="$(swift build -c release --show-bin-path)/fetchkit"
"$FETCHKIT" capture-sql --store "$URL" --entity pgbench_accounts --entity pgbench_branches --entity pgbench_tellers \
    | "$PGBIN/psql" -q "$URL" >/dev/null 2>&1
"$FETCHKIT" watch --store "$URL" --entity pgbench_branches --json >/dev/null &
WATCH_PID=$!
sleep 2
kill -0 "$WATCH_PID" || { echo "fetchkit watch did not start" >&2; exit 1; }

triggers() {
    "$PGBIN/psql" -q "$URL" -c "ALTER TABLE pgbench_accounts $1 TRIGGER USER" \
        -c "ALTER TABLE pgbench_branches $1 TRIGGER USER" -c "ALTER TABLE pgbench_tellers $1 TRIGGER USER"
}
run() { "$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER_RUN" "$URL" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'; }
median() { tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "pgbench TPC-B-like, scale $SCALE, $CLIENTS clients, ${SECONDS_PER_RUN} s per run, $ROUNDS rounds"
without=() with=()
for round in $(seq "$ROUNDS"); do
    triggers DISABLE; without+=("$(run)")
    triggers ENABLE; with+=("$(run)")
    echo "round $round: without capture ${without[-1]} tps, with capture ${with[-1]} tps"
done
base="$(echo "${without[*]}" | median)" captured="$(echo "${with[*]}" | median)"
awk -v b="$base" -v c="$captured" 'BEGIN { printf "median: without %.0f tps, with %.0f tps: %.1f %% (%.2fx)\n", b, c, (c / b - 1) * 100, c / b }'
