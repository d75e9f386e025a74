# Sourced by the pgbench scripts (not run on its own): a pgbench database with FetchKit's capture installed.
# Expects SCALE and a function `cleanup` (what to stop on exit); sets PGBIN, URL and FETCHKIT and defines
# `triggers ENABLE|DISABLE`. Uses DATABASE_URL's server when set (a database `fetchkit_pgbench` is created
# there), else starts a throwaway one with Integration/scripts/pg-start.sh.
if [ -z "${DATABASE_URL:-}" ]; then
    eval "$(bash Integration/scripts/pg-start.sh)"
    trap 'cleanup; bash Integration/scripts/pg-stop.sh' EXIT
else
    trap 'cleanup' EXIT
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

triggers() {
    "$PGBIN/psql" -q "$URL" -c "ALTER TABLE pgbench_accounts $1 TRIGGER USER" \
        -c "ALTER TABLE pgbench_branches $1 TRIGGER USER" -c "ALTER TABLE pgbench_tellers $1 TRIGGER USER"
}
