#!/usr/bin/env bash
# The whole test suite: starts a throwaway PostgreSQL (DATABASE_URL), builds, runs `swift test`, then the
# live web example's tests (Examples/LiveList, in headless Chromium), and stops the server whatever happens.
# Extra arguments go to FetchKit's `swift test` (e.g. --filter Parser); FETCHKIT_SKIP_EXAMPLE=1 skips the example.
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash Integration/scripts/pg-start.sh)"
trap 'bash Integration/scripts/pg-stop.sh' EXIT
echo "test.sh: PostgreSQL running at $DATABASE_URL"
swift build --build-tests
# Targets whose names differ only by case overwrite each other's build products on macOS.
bash .ci/check-paths.sh --build-products "$(swift build --show-bin-path)"
swift test --skip-build "$@"
if [ "${FETCHKIT_SKIP_EXAMPLE:-}" != "1" ]; then
    echo "test.sh: the live web example (Examples/LiveList) against SQLite and PostgreSQL in headless Chromium"
    swift build --build-tests --package-path Examples/LiveList
    swift test --skip-build --package-path Examples/LiveList
fi
