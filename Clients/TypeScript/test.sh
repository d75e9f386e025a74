#!/usr/bin/env bash
# Type-checks and builds the TypeScript client (dist/), compiles its tests (build-test/) and runs them with
# Node's test runner. Needs `tsc` (Debian: node-typescript) and Node 18 or later (Debian: nodejs).
set -euo pipefail
cd "$(dirname "$0")"
for tool in tsc node; do
    if ! command -v "$tool" >/dev/null; then
        echo "test.sh: '$tool' is missing: apt-get install -y node-typescript nodejs" >&2
        exit 1
    fi
done
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 18 ]; then
    echo "test.sh: node $(node --version) is too old: the tests need Node 18 or later" >&2
    exit 1
fi
echo "test.sh: tsc $(tsc --version | sed 's/^Version //'), node $(node --version)"
rm -rf dist build-test
tsc -p tsconfig.json
tsc -p tsconfig.test.json
node --test build-test/test/*.test.js
