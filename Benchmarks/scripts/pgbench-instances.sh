#!/usr/bin/env bash
# What each app instance's change feed costs one PostgreSQL server: pgbench's TPC-B-like load beside K
# instances of `fetchkit watch` (each stands for one app instance: one feed, following pgbench_branches, which
# every pgbench transaction updates), for each K, with the trigger feed and with the logical feed, over several
# rounds whose order of feeds rotates (so no feed always runs last, on a warmer server).
#
# For each run: pgbench's transactions per second and, per transaction,
#   - the database's CPU: the postmaster and its children only (found through postmaster.pid in the server's
#     data directory, never by matching command lines, which would also match the instances' own), including
#     the children that exited during the run (pgbench's backends) through the postmaster's reaped time;
#   - the part of it spent in WAL senders (the logical feed's decoding, one sender per instance);
#   - the instances' own CPU (the `fetchkit watch` processes), apart;
#   - the statements the instances ran (pg_stat_statements, by the instances' own role), when the server
#     preloads pg_stat_statements (the throwaway server this script starts does); per transaction and per
#     second too, since a feed's timed checks (its lag check, its publication check) run whatever the write rate.
# Then the medians over rounds with their spread, and each feed's slope per extra instance (least squares over
# the medians): what one more app instance costs the database and its own host.
#
#   bash Benchmarks/scripts/pgbench-instances.sh [--scale 10] [--clients 4] [--seconds 15] [--rounds 3]
#       [--instances "0 1 2 4 8"] [--feeds "triggers logical"]
#
# Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created there), else starts a
# throwaway one with Integration/scripts/pg-start.sh. The server must run wal_level = logical with enough
# max_wal_senders and max_replication_slots for the largest K (pg-start.sh allows 150), and its data
# directory must be readable here (the script reads postmaster.pid). The server and the instances share this
# machine's cores: read the CPU per transaction as the model, the tps as this machine's.
set -euo pipefail
cd "$(dirname "$0")/../.."
SCALE=10 CLIENTS=4 SECONDS_PER_RUN=15 ROUNDS=3 INSTANCES="0 1 2 4 8" FEEDS="triggers logical"
PIDS=''
# Never `kill 0` (an unset PID): that would end the script's whole process group.
stop_instances() { for pid in $PIDS; do kill "$pid" 2>/dev/null || true; done; for pid in $PIDS; do wait "$pid" 2>/dev/null || true; done; PIDS=''; }
while [ $# -gt 0 ]; do
    case "$1" in
        --scale) SCALE="$2"; shift 2 ;;
        --clients) CLIENTS="$2"; shift 2 ;;
        --seconds) SECONDS_PER_RUN="$2"; shift 2 ;;
        --rounds) ROUNDS="$2"; shift 2 ;;
        --instances) INSTANCES="$2"; shift 2 ;;
        --feeds) FEEDS="$2"; shift 2 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
cleanup() { stop_instances; }
PG_SETTINGS="${PG_SETTINGS:-} -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all"
export PG_SETTINGS
source Benchmarks/scripts/pgbench-setup.sh
TICKS="$(getconf CLK_TCK)"
RESULTS="$(mktemp)"

# The instances connect as a role of their own, so pg_stat_statements tells their statements from pgbench's.
"$PGBIN/psql" -q "$URL" -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'fetchkit_instance')
    THEN CREATE ROLE fetchkit_instance LOGIN SUPERUSER REPLICATION; END IF; END \$\$"
INSTANCE_URL="$(echo "$URL" | sed -E 's#^(postgres(ql)?://)([^@/]*@)?#\1fetchkit_instance@#')"
STATEMENTS=no
if "$PGBIN/psql" -qtA "$URL" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" -c "SELECT pg_stat_statements_reset()" >/dev/null 2>&1; then
    STATEMENTS=yes
fi

DATA_DIRECTORY="$("$PGBIN/psql" -qtA "$URL" -c "SHOW data_directory")"
POSTMASTER="$(head -n1 "$DATA_DIRECTORY/postmaster.pid")"
[ -r "/proc/$POSTMASTER/stat" ] || { echo "the postmaster ($POSTMASTER) is not on this machine" >&2; exit 1; }

ticks_of() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# CPU ticks of the database: the postmaster, its live children, and its reaped children (cutime + cstime).
database_ticks() {
    local total pid
    total="$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$POSTMASTER/stat")"
    for pid in $(ps -o pid= --ppid "$POSTMASTER"); do total=$((total + $(ticks_of "$pid"))); done
    echo "$total"
}
# CPU ticks of the postmaster's WAL senders.
sender_ticks() {
    local total=0 pid
    for pid in $(ps -o pid= --ppid "$POSTMASTER"); do
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q walsender && total=$((total + $(ticks_of "$pid")))
    done
    echo "$total"
}
# Waits until pgbench's backends have ended and the postmaster has reaped them, so their CPU lands in this
# run's reaped time, not the next run's.
settle() {
    local tries=0
    while [ "$tries" -lt 100 ]; do
        if [ "$("$PGBIN/psql" -qtA "$URL" -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'")" = 0 ] &&
            ! ps -o stat= --ppid "$POSTMASTER" | grep -q Z; then
            return
        fi
        sleep 0.1; tries=$((tries + 1))
    done
}
instance_ticks() { local total=0 pid; for pid in $PIDS; do total=$((total + $(ticks_of "$pid"))); done; echo "$total"; }
instance_statements() {
    [ "$STATEMENTS" = yes ] || { echo -1; return; }
    "$PGBIN/psql" -qtA "$URL" -c "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s
        JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = 'fetchkit_instance'"
}
start_instances() {
    local feed="$1" count="$2" i
    for i in $(seq "$count"); do
        "$FETCHKIT" watch --store "$INSTANCE_URL" --entity pgbench_branches --json --feed "$feed" >/dev/null &
        PIDS="$PIDS $!"
    done
    sleep $((2 + count / 2))
    for pid in $PIDS; do kill -0 "$pid" || { echo "an instance did not start" >&2; exit 1; }; done
}

echo "pgbench TPC-B-like, scale $SCALE, $CLIENTS clients, ${SECONDS_PER_RUN} s per run, $ROUNDS rounds, instances: $INSTANCES"
read -r -a FEED_LIST <<<"$FEEDS"
for round in $(seq "$ROUNDS"); do
    for offset in $(seq 0 $((${#FEED_LIST[@]} - 1))); do
        feed="${FEED_LIST[$(((round - 1 + offset) % ${#FEED_LIST[@]}))]}"
        if [ "$feed" = triggers ]; then triggers ENABLE; else triggers DISABLE; fi
        for count in $INSTANCES; do
            [ "$count" -gt 0 ] && start_instances "$feed" "$count"
            [ "$STATEMENTS" = yes ] && "$PGBIN/psql" -qtA "$URL" -c "SELECT pg_stat_statements_reset()" >/dev/null
            database_before="$(database_ticks)" senders_before="$(sender_ticks)" instances_before="$(instance_ticks)"
            output="$("$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER_RUN" "$URL" 2>&1)"
            settle
            database_after="$(database_ticks)" senders_after="$(sender_ticks)" instances_after="$(instance_ticks)"
            statements="$(instance_statements)"
            stop_instances
            tps="$(echo "$output" | sed -n 's/^tps = \([0-9.]*\).*/\1/p')"
            transactions="$(echo "$output" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')"
            awk -v f="$feed" -v k="$count" -v r="$round" -v t="$tps" -v n="$transactions" -v hz="$TICKS" \
                -v d="$((database_after - database_before))" -v s="$((senders_after - senders_before))" \
                -v i="$((instances_after - instances_before))" -v q="$statements" 'BEGIN {
                us = 1e6 / hz / n
                printf "%s %d %d %.1f %.2f %.2f %.2f %.4f %.2f\n", f, k, r, t, d * us, s * us, i * us, (q < 0 ? -1 : q / n),
                    (q < 0 ? -1 : q / n * t) }' \
                | tee -a "$RESULTS" | awk '{
                printf "round %d %-8s instances %2d: %6.0f tps; database %6.1f us/tx (WAL senders %5.1f); instances %6.1f us/tx; instance statements %s per tx, %s per s\n",
                    $3, $1, $2, $4, $5, $6, $7, ($8 < 0 ? "n/a" : sprintf("%.3f", $8)), ($9 < 0 ? "n/a" : sprintf("%.1f", $9)) }'
        done
    done
done
triggers ENABLE

python3 - "$RESULTS" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    feed, k, _, tps, db, senders, instances, statements, per_second = line.split()
    runs.setdefault((feed, int(k)), []).append(
        (float(tps), float(db), float(senders), float(instances), float(statements), float(per_second)))
def spread(values, digits=1):
    m = statistics.median(values)
    return f"{m:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"
print("\nmedians over rounds (min-max): tps; database us/tx; WAL senders us/tx; instances us/tx; "
      "instance statements per tx and per s")
for feed in dict.fromkeys(f for f, _ in runs):
    ks = sorted(k for f, k in runs if f == feed)
    medians = {}
    for k in ks:
        rows = runs[(feed, k)]
        columns = list(zip(*rows))
        medians[k] = [statistics.median(c) for c in columns]
        statements = "n/a" if min(columns[4]) < 0 else f"{spread(columns[4], 3)}, {spread(columns[5])}/s"
        print(f"{feed:8} K={k:2}: {spread(columns[0], 0)} tps; {spread(columns[1])}; {spread(columns[2])}; "
              f"{spread(columns[3])}; {statements}")
    if len(ks) > 1:
        def slope(index):
            xs, ys = ks, [medians[k][index] for k in ks]
            mx, my = statistics.mean(xs), statistics.mean(ys)
            return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        base = medians[ks[0]][1]
        d, s, i = slope(1), slope(2), slope(3)
        crossover = f"{base / d:.1f}" if d > 0 else "never"
        print(f"{feed:8} per extra instance: database {d:.1f} us/tx (WAL senders {s:.1f}), instance's own {i:.1f} us/tx;"
              f" instances cost the database as much as the writes ({base:.0f} us/tx) at K = {crossover}")
EOF
rm -f "$RESULTS"
