#!/usr/bin/env bash
# Starts a hot standby of the server pg-start.sh started (its exports in the environment): a base backup taken
# with pg_basebackup, streaming from the primary on a free loopback port, and prints shell exports:
#   eval "$(Integration/scripts/pg-standby.sh)"   -> STANDBY_URL STANDBY_ROOT STANDBY_PID
# STANDBY_APPLY_DELAY (default 0) sets recovery_min_apply_delay, to hold each commit back on the standby: a lag
# the read-replica tests must never show. Its limits match pg-start.sh's (a standby refuses lower ones than its
# primary's). Stop it with pg-standby-stop.sh.
set -euo pipefail
: "${PGROOT:?run pg-start.sh first}" "${PGBIN:?}" "${PGPORT:?}" "${DATABASE_URL:?}"
STANDBY_ROOT="${STANDBY_ROOT:-$(mktemp -d /tmp/fetchkit-standby.XXXXXX)}"
if [ "$(id -u)" = 0 ]; then AS=(runuser -u postgres --); DBUSER=postgres; else AS=(); DBUSER="$(id -un)"; fi
mkdir -p "$STANDBY_ROOT/sock"
if [ "$(id -u)" = 0 ]; then chown -R postgres: "$STANDBY_ROOT"; fi
STANDBY_PORT="$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')"
"${AS[@]}" "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$PGPORT" -U "$DBUSER" -D "$STANDBY_ROOT/data" -R -X stream \
    --no-sync >"$STANDBY_ROOT/basebackup.log" 2>&1 || { cat "$STANDBY_ROOT/basebackup.log" >&2; exit 1; }
"${AS[@]}" "$PGBIN/pg_ctl" -D "$STANDBY_ROOT/data" -l "$STANDBY_ROOT/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $STANDBY_PORT -k $STANDBY_ROOT/sock -c hot_standby=on -c max_connections=800 -c max_wal_senders=150 -c max_replication_slots=150 -c recovery_min_apply_delay=${STANDBY_APPLY_DELAY:-0}" \
    start >&2 || { cat "$STANDBY_ROOT/server.log" >&2; exit 1; }
STANDBY_PID="$(head -n1 "$STANDBY_ROOT/data/postmaster.pid")"
# The standby streams: wait until it has replayed what the primary had when it started.
target="$("$PGBIN/psql" -qtA "$DATABASE_URL" -c "SELECT pg_current_wal_insert_lsn()")"
STANDBY_URL="${DATABASE_URL/:$PGPORT\//:$STANDBY_PORT/}"
for _ in $(seq 300); do
    if [ "$("$PGBIN/psql" -qtA "$STANDBY_URL" -c "SELECT pg_last_wal_replay_lsn() >= '$target'" 2>/dev/null)" = t ]; then
        break
    fi
    sleep 0.1
done
echo "export STANDBY_ROOT='$STANDBY_ROOT' STANDBY_PID='$STANDBY_PID' STANDBY_URL='$STANDBY_URL'"
