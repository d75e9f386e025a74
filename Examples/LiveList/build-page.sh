#!/usr/bin/env bash
# Builds the board's page: the TypeScript client (Clients/TypeScript/dist, copied to Public/client) and the page's
# script (Web/app.ts → Public/app.js). Needs `tsc` (Debian: node-typescript).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v tsc >/dev/null || { echo "build-page.sh: 'tsc' is missing: apt-get install -y node-typescript" >&2; exit 1; }
tsc -p "$here/../../Clients/TypeScript/tsconfig.json"
rm -rf "$here/Public/client"
mkdir -p "$here/Public/client"
cp "$here"/../../Clients/TypeScript/dist/*.js "$here/Public/client/"
tsc -p "$here/Web/tsconfig.json"
echo "build-page.sh: Public/app.js and Public/client/ are built"
