#!/usr/bin/env bash
# What each app instance's change feed costs one PostgreSQL server: pgbench's TPC-B-like load beside K
# instances of `fetchkit watch` (each stands for one app instance: one feed, following pgbench_branches, which
# every pgbench transaction updates), for K = 0, 1, 2, 4 and 8, with the trigger feed and with the logical feed.
# For each run: the transactions per second; the database's CPU per transaction (the postmaster and its
# children, from /proc), and the part of it spent in WAL senders (the logical feed's decoding, one sender per
# instance); and the instances' own CPU per transaction, apart. Rounds alternate the order of the feeds; the
# medians over the rounds, and each feed's cost per extra instance, come last.
#
#   bash Benchmarks/scripts/pgbench-instances.sh [--scale 10] [--clients 4] [--seconds 15] [--instances "0 1 2 4 8"]
#       [--rounds 3]
#
# Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created there), else starts a
# throwaway one with Integration/scripts/pg-start.sh. The server must run wal_level = logical with enough
# max_wal_senders and max_replication_slots for the largest K (pg-start.sh allows 150). The server and the
# instances share this machine's cores: read the CPU per transaction as the model, the tps as this machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCALE=10 CLIENTS=4 SECONDS_PER_RUN=15 INSTANCES="0 1 2 4 8" ROUNDS=3
PIDS=''
stop_instances() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; PIDS=''; }
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE="$2"; shift 2 ;;
        --clients) CLIENTS="$2"; shift 2 ;;
        --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
        --instances) INSTANCES="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
cleanup() { stop_instances; }
source Benchmarks/scripts/pgbench-setup.sh
TICKS="$(getconf CLK_TCK)"

# The server's postmaster, from its data directory's postmaster.pid: the processes counted as the server's are it
# and its children, never a process whose command line merely mentions postgres (an instance's `--store
# postgresql://…` does).
POSTMASTER="$(head -n1 "$("$PGBIN/psql" -Atq "$URL" -c 'SHOW data_directory')/postmaster.pid")"

# CPU ticks (user + system): "server" — the postmaster, its live children, and through its count of exited
# children the backends that ended (pgbench's, at the end of a run); "senders" — its WAL sender children (the
# logical feed's decoding, one per instance); "instances" — the `fetchkit watch` processes.
ticks() {
    case "$1" in
        instances)
            local total=0 pid
            for pid in $PIDS; do
                total=$((total + $(awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
            done
            echo "$total"
            ;;
        *)
            # Field 4 of /proc/PID/stat is the parent; the comm field (2) may hold spaces, so fields are counted
            # after its closing parenthesis (there, the parent is $2 and utime, stime, cutime, cstime $12–$15).
            local stat pid
            for stat in /proc/[0-9]*/stat; do
                pid="${stat#/proc/}"; pid="${pid%/stat}"
                awk -v pid="$pid" -v pm="$POSTMASTER" -v what="$1" -v cmd="$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" '
                    { sub(/^.*\) /, "") }
                    pid == pm && what == "server" { print $12 + $13 + $14 + $15 }
                    $2 == pm && (what == "server" || cmd ~ /walsender/) { print $12 + $13 }' "$stat" 2>/dev/null
            done | awk '{ total += $1 } END { print total + 0 }'
            ;;
    esac
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

echo "pgbench TPC-B-like, scale $SCALE, $CLIENTS clients, ${SECONDS_PER_RUN} s per run, $ROUNDS rounds (feed order rotated)"
RESULTS="$(mktemp)"
for round in $(seq "$ROUNDS"); do
    feeds="triggers logical"
    [ $((round % 2)) -eq 0 ] && feeds="logical triggers"
    for feed in $feeds; do
        if [ "$feed" = triggers ]; then triggers ENABLE; else triggers DISABLE; fi
        for count in $INSTANCES; do
            [ "$count" -gt 0 ] && start_instances "$feed" "$count"
            server_before="$(ticks server)" senders_before="$(ticks senders)" instances_before="$(ticks instances)"
            output="$("$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER_RUN" "$URL" 2>&1)"
            server_after="$(ticks server)" senders_after="$(ticks senders)" instances_after="$(ticks instances)"
            stop_instances
            tps="$(echo "$output" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
            transactions="$(echo "$output" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')"
            awk -v r="$round" -v f="$feed" -v k="$count" -v t="$tps" -v n="$transactions" \
                -v a="$((server_after - server_before))" -v s="$((senders_after - senders_before))" \
                -v i="$((instances_after - instances_before))" -v hz="$TICKS" 'BEGIN {
                printf "%d %s %d %.0f %.1f %.1f %.1f\n", r, f, k, t, a / hz / n * 1e6, s / hz / n * 1e6, i / hz / n * 1e6 }' \
                | tee -a "$RESULTS" | awk '{
                printf "round %d %-8s instances %d: %6.0f tps; database %6.1f us per transaction (WAL senders %5.1f); instances %6.1f us\n",
                    $1, $2, $3, $4, $5, $6, $7 }'
        done
    done
done
triggers ENABLE

# Medians over the rounds, and what one more instance costs: the slope from none to the most instances.
echo
echo "medians over $ROUNDS rounds (us of CPU per pgbench transaction):"
max="$(echo $INSTANCES | tr ' ' '\n' | sort -n | tail -n1)"
for feed in triggers logical; do
    for count in $INSTANCES; do
        for column in 4 5 6 7; do
            awk -v f="$feed" -v k="$count" -v c="$column" '$2 == f && $3 == k { print $c }' "$RESULTS" | sort -n \
                | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
        done | paste -sd' ' | awk -v f="$feed" -v k="$count" '{
            printf "%-8s instances %d: %6.0f tps; database %6.1f (WAL senders %5.1f); instances %6.1f\n", f, k, $1, $2, $3, $4 }'
    done | tee "$RESULTS.$feed"
    awk -v f="$feed" -v max="$max" '
        $3 == "0:" { tps0 = $4; db0 = $7 } $3 == max ":" { tps = $4; db = $7; inst = $NF }
        END { if (max > 0) printf "%-8s per extra instance: database %.1f us, instance %.1f us per transaction; tps at %d instances %.2fx of none\n",
            f, (db - db0) / max, inst / max, max, tps / tps0 }' "$RESULTS.$feed"
done
rm -f "$RESULTS" "$RESULTS".*
