#!/usr/bin/env bash
# The whole test suite: starts a throwaway PostgreSQL (DATABASE_URL), builds, runs `swift test`,
# and stops the server whatever happens. Extra arguments go to `swift test` (e.g. --filter Parser).
set -euo pipefail
cd "$(dirname "$0")/.."
eval "$(bash Integration/scripts/pg-start.sh)"
trap 'bash Integration/scripts/pg-stop.sh' EXIT
echo "test.sh: PostgreSQL running at $DATABASE_URL"
swift build --build-tests
swift test --skip-build "$@"
