#!/usr/bin/env bash
# What each app instance's change feed costs one PostgreSQL server: pgbench's TPC-B-like load beside K
# instances of `fetchkit watch` (each stands for one app instance: one feed, following pgbench_branches, which
# every pgbench transaction updates), for K = 0, 1, 2, 4 and 8, with the trigger feed and with the logical feed.
# For each run: the transactions per second, the server's CPU per transaction (every postgres process, from
# /proc) and the part of it spent in WAL senders (the logical feed's decoding, one sender per instance).
#
#   bash Benchmarks/scripts/pgbench-instances.sh [--scale 10] [--clients 4] [--seconds 15] [--instances "0 1 2 4 8"]
#
# Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created there), else starts a
# throwaway one with Integration/scripts/pg-start.sh. The server must run wal_level = logical with enough
# max_wal_senders and max_replication_slots for the largest K (pg-start.sh allows 150). The server and the
# instances share this machine's cores: read the CPU per transaction as the model, the tps as this machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCALE=10 CLIENTS=4 SECONDS_PER_RUN=15 INSTANCES="0 1 2 4 8"
PIDS=''
stop_instances() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; PIDS=''; }
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE="$2"; shift 2 ;;
        --clients) CLIENTS="$2"; shift 2 ;;
        --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
        --instances) INSTANCES="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
cleanup() { stop_instances; }
source Benchmarks/scripts/pgbench-setup.sh
TICKS="$(getconf CLK_TCK)"

# CPU ticks (user + system) of the server's processes: the WAL senders, or every process — the live ones, and
# through the postmaster's count of its exited children, the backends that have ended (pgbench's, at the end
# of a run).
server_ticks() {
    local total=0 pid
    for pid in $(pgrep -f "$1" || true); do
        [ -r "/proc/$pid/stat" ] || continue
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    if [ "$1" = postgres ]; then
        local postmaster
        postmaster="$(pgrep -o -x postgres)"
        total=$((total + $(awk '{ print $16 + $17 }' "/proc/$postmaster/stat")))
    fi
    echo "$total"
}
start_instances() {
    local feed="$1" count="$2" i
    for i in $(seq "$count"); do
        if [ "$feed" = logical ]; then
            "$FETCHKIT" watch --store "$URL" --entity pgbench_branches --json --feed logical >/dev/null &
        else
            "$FETCHKIT" watch --store "$URL" --entity pgbench_branches --json >/dev/null &
        fi
        PIDS="$PIDS $!"
    done
    sleep $((2 + count / 2))
    for pid in $PIDS; do kill -0 "$pid" || { echo "an instance did not start" >&2; exit 1; }; done
}

echo "pgbench TPC-B-like, scale $SCALE, $CLIENTS clients, ${SECONDS_PER_RUN} s per run"
for feed in triggers logical; do
    if [ "$feed" = triggers ]; then triggers ENABLE; else triggers DISABLE; fi
    for count in $INSTANCES; do
        [ "$count" -gt 0 ] && start_instances "$feed" "$count"
        all_before="$(server_ticks postgres)" senders_before="$(server_ticks 'postgres: walsender')"
        output="$("$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER_RUN" "$URL" 2>&1)"
        all_after="$(server_ticks postgres)" senders_after="$(server_ticks 'postgres: walsender')"
        stop_instances
        tps="$(echo "$output" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
        transactions="$(echo "$output" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')"
        awk -v f="$feed" -v k="$count" -v t="$tps" -v n="$transactions" -v a="$((all_after - all_before))" \
            -v s="$((senders_after - senders_before))" -v hz="$TICKS" 'BEGIN {
            printf "%-8s instances %d: %7.0f tps; server CPU %6.1f us per transaction, of which WAL senders %6.1f us\n",
                f, k, t, a / hz / n * 1e6, s / hz / n * 1e6 }'
    done
done
triggers ENABLE
