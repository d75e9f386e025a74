#!/usr/bin/env bash
# Stops the server pg-start.sh started (fast shutdown, then immediate) and deletes its files.
: "${PGROOT:?}" "${PG_PID:?}"
if kill -INT "$PG_PID" 2>/dev/null; then
    for _ in $(seq 150); do [ -e "$PGROOT/data/postmaster.pid" ] || break; sleep 0.1; done
    [ -e "$PGROOT/data/postmaster.pid" ] && kill -QUIT "$PG_PID" 2>/dev/null
fi
rm -rf "$PGROOT"
