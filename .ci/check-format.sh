#!/usr/bin/env bash
# Fails when a Swift file differs from what swift-format makes of it (configuration: .swift-format, lines of at
# most 120 columns). Fix with:  swift format format --in-place --recursive --parallel $(bash .ci/check-format.sh --paths)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Backends Tests Integration Fuzz Benchmarks/Package.swift Benchmarks/Sources
       Examples/LiveList/Package.swift Examples/LiveList/Sources Examples/LiveList/Tests)
if [ "${1:-}" = "--paths" ]; then echo "${paths[*]}"; exit 0; fi
swift format lint --strict --recursive --parallel "${paths[@]}"
echo "check-format: every Swift file is formatted"
