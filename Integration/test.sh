#!/usr/bin/env bash
# The whole test suite: starts a throwaway PostgreSQL (DATABASE_URL) and a hot standby of it (STANDBY_URL),
# builds, runs the TypeScript client's tests (tsc and node), builds the live board example's page, runs
# `swift test` — the example's servers and their
# headless-Chromium suite among the tests, on the same build — and stops the server whatever happens.
# Extra arguments go to `swift test` (e.g. --filter Parser, or --skip LiveListTests).
# A test run that hangs fails after FETCHKIT_TEST_TIMEOUT seconds (default 2400), printing every thread's
# backtrace and the tests that never ended (Integration/scripts/time-limit.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash Integration/scripts/pg-start.sh)"
trap 'bash Integration/scripts/pg-stop.sh' EXIT
# A hot standby of it, each commit held back 20 ms: the read-replica tests read there (STANDBY_URL).
eval "$(STANDBY_APPLY_DELAY=20ms bash Integration/scripts/pg-standby.sh)"
trap 'bash Integration/scripts/pg-standby-stop.sh; bash Integration/scripts/pg-stop.sh' EXIT
# A missing server fails the PostgreSQL suites instead of skipping them.
export FETCHKIT_REQUIRE_POSTGRES=1
echo "test.sh: PostgreSQL running at $DATABASE_URL, a standby at $STANDBY_URL"
# The default traits and both web frameworks' products (FetchKitHummingbird, FetchKitVapor) with the example's
# servers, so their tests run too; the same traits on every command, or SwiftPM builds everything again. A list
# replaces the defaults: it names them all (Postgres: the tool's PostgreSQL commands, which the tests run).
traits="Configuration,Metrics,Tracing,Postgres,Hummingbird,Vapor"
swift build --build-tests --traits "$traits"
# Targets whose names differ only by case overwrite each other's build products on macOS.
bash .ci/check-paths.sh --build-products "$(swift build --show-bin-path --traits "$traits")"
echo "test.sh: the TypeScript client (Clients/TypeScript)"
bash Clients/TypeScript/test.sh
echo "test.sh: the live board's page (Examples/LiveList/build-page.sh)"
bash Examples/LiveList/build-page.sh
limit="${FETCHKIT_TEST_TIMEOUT:-2400}"
bash Integration/scripts/time-limit.sh "$limit" swift test --skip-build --traits "$traits" --verbose "$@"
