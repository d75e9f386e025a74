#!/usr/bin/env bash
# Stops the PgBouncer pgbouncer-start.sh started and deletes its files.
: "${PGBOUNCER_ROOT:?}" "${PGBOUNCER_PID:?}"
kill -INT "$PGBOUNCER_PID" 2>/dev/null || true
for _ in $(seq 50); do kill -0 "$PGBOUNCER_PID" 2>/dev/null || break; sleep 0.1; done
rm -rf "$PGBOUNCER_ROOT"
