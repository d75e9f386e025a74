#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on a free loopback port and prints shell exports (800 connections: the
# test suites run in parallel, each store holding a writer, readers and a listener; wal_level=logical with 150
# replication slots and WAL senders, for the stores that read the log through logical replication):
#   eval "$(Integration/scripts/pg-start.sh)"   -> DATABASE_URL PGROOT PG_PID PGPORT PGBIN
# PG_SETTINGS adds server settings after these (`-c wal_level=replica -c max_replication_slots=1`).
# Installs postgresql from Debian's packages only when its binaries are missing. initdb refuses to run
# as root, so as root the server runs as the `postgres` user.
set -euo pipefail
PGROOT="${PGROOT:-$(mktemp -d /tmp/fetchkit-pg.XXXXXX)}"
PGDB="${PGDB:-fetchkit_test}"
find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1 || true; }
PGBIN="${PGBIN:-$(find_bin)}"
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
    PGBIN="$(find_bin)"
fi
[ -x "$PGBIN/initdb" ] || { echo "pg-start: no PostgreSQL binaries found" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then
    id -u postgres >/dev/null 2>&1 || useradd --system --user-group --home-dir /var/lib/postgresql postgres
    AS=(runuser -u postgres --); DBUSER=postgres
else
    AS=(); DBUSER="$(id -un)"
fi
mkdir -p "$PGROOT/data" "$PGROOT/sock"
if [ "$(id -u)" = 0 ]; then chown -R postgres: "$PGROOT"; fi
chmod 700 "$PGROOT/data"
PGPORT="${PGPORT:-$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')}"
"${AS[@]}" "$PGBIN/initdb" -D "$PGROOT/data" -U "$DBUSER" -A trust -E UTF8 --locale=C --no-sync \
    >"$PGROOT/initdb.log" 2>&1 || { cat "$PGROOT/initdb.log" >&2; exit 1; }
"${AS[@]}" "$PGBIN/pg_ctl" -D "$PGROOT/data" -l "$PGROOT/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PGPORT -k $PGROOT/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=800 -c wal_level=logical -c max_replication_slots=150 -c max_wal_senders=150 ${PG_SETTINGS:-}" \
    start >&2 || { cat "$PGROOT/server.log" >&2; exit 1; }
PG_PID="$(head -n1 "$PGROOT/data/postmaster.pid")"
"$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U "$DBUSER" "$PGDB"
echo "export PGROOT='$PGROOT' PGBIN='$PGBIN' PGPORT='$PGPORT' PG_PID='$PG_PID'"
echo "export DATABASE_URL='postgresql://$DBUSER@127.0.0.1:$PGPORT/$PGDB'"
