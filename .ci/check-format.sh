#!/usr/bin/env bash
# Fails when a Swift file differs from what swift-format makes of it (configuration: .swift-format, lines of at
# most 120 columns). Fix with:  swift format format --in-place --recursive --parallel $(bash .ci/check-format.sh --paths)
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Backends Tests Integration Fuzz Benchmarks/Package.swift Benchmarks/Sources
       Examples/LiveList/Sources Examples/LiveList/Tests)
if [ "${1:-}" = "--paths" ]; then echo "${paths[*]}"; exit 0; fi
swift format lint --strict --recursive --parallel "${paths[@]}"
echo "check-format: every Swift file is formatted"
# swift-format leaves long string literals and comments alone: no line of a Swift file of the repository (tracked,
# or new and not ignored, so a check before a commit sees the files it adds) may be longer than 120 columns. Characters are counted, not bytes: GNU grep in a UTF-8 locale (this machine's awk is mawk, which
# counts bytes even under a UTF-8 locale, so `é` or `日本` would be over-counted).
long=$(git ls-files -z --cached --others --exclude-standard '*.swift' | LC_ALL=C.UTF-8 xargs -0 grep -n -H '.\{121,\}' -- | cut -d: -f1,2 || true)
if [ -n "$long" ]; then
  echo "check-format: lines longer than 120 columns:"
  echo "$long"
  exit 1
fi
echo "check-format: no Swift line is longer than 120 columns"
