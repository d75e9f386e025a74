#!/usr/bin/env bash
# Stops the standby pg-standby.sh started (fast shutdown, then immediate) and deletes its files.
: "${STANDBY_ROOT:?}" "${STANDBY_PID:?}"
if kill -INT "$STANDBY_PID" 2>/dev/null; then
    for _ in $(seq 150); do [ -e "$STANDBY_ROOT/data/postmaster.pid" ] || break; sleep 0.1; done
    [ -e "$STANDBY_ROOT/data/postmaster.pid" ] && kill -QUIT "$STANDBY_PID" 2>/dev/null
fi
rm -rf "$STANDBY_ROOT"
