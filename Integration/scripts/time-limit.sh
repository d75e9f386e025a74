#!/usr/bin/env bash
# Runs a test command with a time limit, its output line by line:
#   Integration/scripts/time-limit.sh SECONDS swift test --skip-build ...
# A run over SECONDS fails loudly with where it hangs: the backtrace of every thread of the test process
# (when gdb is installed), then the tests that started and never ended (with `swift test --verbose`, the
# test cases too: a parameterized test's arguments name the case). It exits with the command's
# status, or 124 after the limit.
set -uo pipefail
limit="$1"
shift
# The watch below reads Linux's /proc and GNU tools; elsewhere the command runs as it is.
if [ "$(uname -s)" != Linux ]; then exec "$@"; fi
log="$(mktemp /tmp/fetchkit-test-log.XXXXXX)"
trap 'rm -f "$log"' EXIT

# Line-buffered: a test process stopped by the limit has written everything up to where it stands.
stdbuf -oL -eL "$@" >"$log" 2>&1 &
pid=$!
tail -n +1 -f --pid="$pid" "$log" &
tailer=$!

waited=0
while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$limit" ]; do
    sleep 5
    waited=$((waited + 5))
done
if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    status=$?
    wait "$tailer"
    exit "$status"
fi

echo
echo "time-limit: '$*' still running after $limit s: stopping it"
# The processes the command started (swift test runs the tests in a process of their own).
descendants() {
    local child
    for child in $(pgrep -P "$1"); do
        echo "$child"
        descendants "$child"
    done
}
processes="$(descendants "$pid")"
if command -v gdb >/dev/null; then
    for process in $processes; do
        command="$(tr '\0' ' ' <"/proc/$process/cmdline" 2>/dev/null | cut -c1-200)"
        case "$command" in
        *.xctest* | *swiftpm-testing-helper*)
            echo "time-limit: the threads of process $process ($command)"
            gdb -p "$process" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(Thread|#)' | cut -c1-240
            ;;
        esac
    done
else
    echo "time-limit: gdb is not installed: no thread backtraces"
fi
kill "$pid" $processes 2>/dev/null
sleep 2
kill -9 "$pid" $processes 2>/dev/null
wait "$tailer" 2>/dev/null
echo "time-limit: the tests (and, with swift test --verbose, the test cases) that started and never ended:"
sed -nE 's/^[^ ]+ Test (.*) started\.$/\1/p' "$log" | grep -vx 'run' | sort -u >"$log.started"
sed -nE 's/^[^ ]+ Test (.*) (passed|failed|skipped)( after [0-9.]+ seconds)?( with .*)?\.$/\1/p' "$log" |
    sed -E 's/ with [0-9]+ test cases$//' | sort -u >"$log.ended"
comm -23 "$log.started" "$log.ended" | sed 's/^/  /'
rm -f "$log.started" "$log.ended"
echo "time-limit: FAILED: over $limit s"
exit 124
