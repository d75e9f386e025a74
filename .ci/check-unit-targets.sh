#!/usr/bin/env bash
# Fails when a unit test target reaches swift-syntax (a macro target or a swift-syntax product, however
# indirectly): unit tests compile in seconds and need no macro. See check-unit-targets.swift for the exceptions.
# Usage: bash .ci/check-unit-targets.sh
set -euo pipefail
cd "$(dirname "$0")/.."
description=$(mktemp)
trap 'rm -f "$description"' EXIT
swift package describe --type json >"$description"
swift .ci/check-unit-targets.swift <"$description"
