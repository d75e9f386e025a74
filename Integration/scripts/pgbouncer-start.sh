#!/usr/bin/env bash
# Starts a PgBouncer in front of the PostgreSQL server at DATABASE_URL, in transaction pooling mode (or
# POOL_MODE=session), on a free
# loopback port, and prints shell exports: PGBOUNCER_URL PGBOUNCER_ROOT PGBOUNCER_PID. Stop it with
# pgbouncer-stop.sh. Installs pgbouncer from Debian's packages when it is missing. PgBouncer refuses to run
# as root, so as root it runs as the `postgres` user.
set -euo pipefail
: "${DATABASE_URL:?DATABASE_URL must name the server PgBouncer fronts}"
if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends pgbouncer >&2
fi
PGBOUNCER="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
# Debian's package starts a system-wide PgBouncer on port 6432; this one is separate and leaves it alone.
read -r USER HOST PORT DB < <(python3 -c '
import sys, urllib.parse as u
p = u.urlparse(sys.argv[1])
print(u.unquote(p.username or "postgres"), p.hostname or "127.0.0.1", p.port or 5432, p.path.lstrip("/") or "postgres")
' "$DATABASE_URL")
ROOT="$(mktemp -d /tmp/fetchkit-pgbouncer.XXXXXX)"
LISTEN_PORT="$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')"
cat > "$ROOT/pgbouncer.ini" <<INI
[databases]
$DB = host=$HOST port=$PORT dbname=$DB
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $LISTEN_PORT
unix_socket_dir =
auth_type = trust
auth_file = $ROOT/users.txt
pool_mode = ${POOL_MODE:-transaction}
default_pool_size = 4
max_client_conn = 100
ignore_startup_parameters = extra_float_digits
logfile = $ROOT/pgbouncer.log
pidfile = $ROOT/pgbouncer.pid
INI
printf '"%s" ""\n' "$USER" > "$ROOT/users.txt"
if [ "$(id -u)" = 0 ]; then
    id -u postgres >/dev/null 2>&1 || useradd --system --user-group --home-dir /var/lib/postgresql postgres
    chown -R postgres: "$ROOT"
    AS=(runuser -u postgres --)
else
    AS=()
fi
"${AS[@]}" "$PGBOUNCER" -d "$ROOT/pgbouncer.ini" >&2 || { cat "$ROOT/pgbouncer.log" >&2 2>/dev/null; exit 1; }
for _ in $(seq 100); do [ -s "$ROOT/pgbouncer.pid" ] && break; sleep 0.05; done
[ -s "$ROOT/pgbouncer.pid" ] || { echo "pgbouncer-start: PgBouncer did not start" >&2; cat "$ROOT/pgbouncer.log" >&2; exit 1; }
echo "export PGBOUNCER_ROOT='$ROOT' PGBOUNCER_PID='$(cat "$ROOT/pgbouncer.pid")'"
echo "export PGBOUNCER_URL='postgresql://$USER@127.0.0.1:$LISTEN_PORT/$DB'"
