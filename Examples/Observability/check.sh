#!/usr/bin/env bash
# Builds the observability example and runs it against SQLite and against PostgreSQL on each change feed: Prometheus
# scrapes of /metrics must hold every metric the Grafana dashboard (grafana-dashboard.json) queries, and the spans
# exported over OTLP/HTTP (to scripts/otlp-sink.py) must hold a write's whole path, write → route → apply → deliver.
# PostgreSQL: DATABASE_URL, or a throwaway server (Integration/scripts/pg-start.sh). Fails loudly.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
work="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -n "${started_postgres:-}" ] && bash "$root/Integration/scripts/pg-stop.sh"
    rm -rf "$work"
}
trap cleanup EXIT
if [ -z "${DATABASE_URL:-}" ]; then
    eval "$(bash "$root/Integration/scripts/pg-start.sh")"
    started_postgres=1
fi
swift build
binary="$(swift build --show-bin-path)/fetchkit-observability"
# An HTTP request with Python's standard library (a fresh machine has no curl): "$1" GET or POST, "$2" the URL; the
# body on standard output; fails on a connection error or an error status.
http() {
    python3 -c 'import sys, urllib.request
request = urllib.request.Request(sys.argv[2], method=sys.argv[1], data=b"" if sys.argv[1] == "POST" else None)
sys.stdout.buffer.write(urllib.request.urlopen(request, timeout=10).read())' "$1" "$2"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
sink_port="$(free_port)"
python3 scripts/otlp-sink.py "$sink_port" "$work/spans.bin" &
pids+=($!)

# Runs the example for a few seconds on one store ("$1": sqlite, triggers or logical), scraping /metrics at the end.
run() {
    local kind="$1" port url=""
    port="$(free_port)"
    [ "$kind" != sqlite ] && url="$DATABASE_URL"
    env ${url:+DATABASE_URL="$url"} CHANGE_FEED="$kind" PORT="$port" RUN_SECONDS=8 CONTROLLERS=60 \
        OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$sink_port" "$binary" 2>"$work/$kind.log" &
    local pid=$!
    pids+=("$pid")
    for _ in $(seq 1 100); do
        http GET "http://127.0.0.1:$port/health/ready" >/dev/null 2>&1 && break
        sleep 0.1
    done
    http POST "http://127.0.0.1:$port/tasks/7/done" >/dev/null
    sleep 3
    http GET "http://127.0.0.1:$port/metrics" >"$work/$kind.prom"
    wait "$pid" || { echo "check: the example failed on $kind:"; cat "$work/$kind.log"; exit 1; }
    # The workload's writes reached its controllers, and their latencies were recorded.
    for series in fetchkit_batches_delivered_total fetchkit_delivery_latency_seconds_count; do
        local total
        total="$(awk -v name="$series" 'index($0, name "{") == 1 { sum += $NF } END { print sum + 0 }' "$work/$kind.prom")"
        if [ "${total%.*}" -le 0 ]; then
            echo "check: $kind: $series is 0: the workload's batches were not delivered"
            exit 1
        fi
    done
    echo "check: $kind: $(grep -c '^fetchkit_' "$work/$kind.prom") fetchkit samples scraped, batches delivered"
}
run sqlite
run triggers
run logical

# Every metric a dashboard query names is in a scrape (histograms as their _bucket series).
missing=0
for metric in $(grep -o 'fetchkit_[a-z_]*' grafana-dashboard.json | sort -u); do
    if ! grep -q "^$metric[{ ]" "$work"/*.prom; then
        echo "check: the dashboard queries $metric, which no scrape holds"
        missing=1
    fi
done
[ "$missing" = 0 ] || exit 1
echo "check: every metric the dashboard queries was scraped"
# The exporter flushes at shutdown: every span of a write's path reached the collector.
for span in "move task" fetchkit.write fetchkit.route fetchkit.apply fetchkit.deliver; do
    if ! grep -aq "$span" "$work/spans.bin"; then
        echo "check: no $span span reached the collector"
        exit 1
    fi
done
echo "check: spans exported over OTLP: write, route, apply and deliver"
