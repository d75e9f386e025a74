#!/usr/bin/env bash
# The whole test suite: starts a throwaway PostgreSQL (DATABASE_URL), builds, runs `swift test`, then the
# TypeScript client's tests (tsc and node), the live web example's tests (Examples/LiveList, in headless
# Chromium), and stops the server whatever happens.
# Extra arguments go to FetchKit's `swift test` (e.g. --filter Parser); FETCHKIT_SKIP_EXAMPLE=1 skips the example.
# A test run that hangs fails after FETCHKIT_TEST_TIMEOUT seconds (default 2400; the example's, 900), printing
# every thread's backtrace and the tests that never ended (Integration/scripts/time-limit.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash Integration/scripts/pg-start.sh)"
# A missing server fails the PostgreSQL suites instead of skipping them.
export FETCHKIT_REQUIRE_POSTGRES=1
trap 'bash Integration/scripts/pg-stop.sh' EXIT
echo "test.sh: PostgreSQL running at $DATABASE_URL"
# The default traits and both web frameworks' products (FetchKitHummingbird, FetchKitVapor), so their tests run
# too; the same traits on every command, or SwiftPM builds everything again.
traits="Configuration,Metrics,Hummingbird,Vapor"
swift build --build-tests --traits "$traits"
# Targets whose names differ only by case overwrite each other's build products on macOS.
bash .ci/check-paths.sh --build-products "$(swift build --show-bin-path --traits "$traits")"
limit="${FETCHKIT_TEST_TIMEOUT:-2400}"
bash Integration/scripts/time-limit.sh "$limit" swift test --skip-build --traits "$traits" --verbose "$@"
echo "test.sh: the TypeScript client (Clients/TypeScript)"
bash Clients/TypeScript/test.sh
if [ "${FETCHKIT_SKIP_EXAMPLE:-}" != "1" ]; then
    echo "test.sh: the live web example (Examples/LiveList) against SQLite and PostgreSQL in headless Chromium"
    swift build --build-tests --package-path Examples/LiveList
    bash Integration/scripts/time-limit.sh 900 swift test --skip-build --package-path Examples/LiveList
fi
