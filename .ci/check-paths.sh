#!/usr/bin/env bash
# Fails loudly when two paths would be one on a case-insensitive volume (macOS's default):
#   - tracked paths, and every folder leading to them (Sources/FetchKit/a.swift and Sources/fetchkit/b.swift
#     are two files in git but one folder on macOS);
#   - with --build-products DIR, the names SwiftPM writes in DIR and DIR/Modules (a target named `fetchkit`
#     beside `FetchKit` writes fetchkit.build and fetchkit.swiftmodule over FetchKit's).
# Usage: bash .ci/check-paths.sh [--build-products DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0

# Prints the names in stdin that differ only by case, one group per block.
case_duplicates() {
    sort -u | sort -f | uniq -Di
}

# Every tracked path and every folder above it.
tracked=$(git ls-files | awk -F/ '{ path = $1; print path; for (i = 2; i <= NF; i++) { path = path "/" $i; print path } }')
duplicates=$(printf '%s\n' "$tracked" | case_duplicates)
if [ -n "$duplicates" ]; then
    echo "check-paths: FAILED: tracked paths that differ only by case (one path on a case-insensitive volume):" >&2
    printf '%s\n' "$duplicates" | sed 's/^/  /' >&2
    failed=1
else
    echo "check-paths: $(git ls-files | wc -l | tr -d ' ') tracked files, no two paths differ only by case"
fi

if [ "${1:-}" = "--build-products" ]; then
    products=${2:?"--build-products needs a folder"}
    for folder in "$products" "$products/Modules"; do
        [ -d "$folder" ] || continue
        duplicates=$(ls -1 "$folder" | case_duplicates)
        if [ -n "$duplicates" ]; then
            echo "check-paths: FAILED: build products in $folder that differ only by case (targets whose names" \
                 "differ only by case overwrite each other on macOS):" >&2
            printf '%s\n' "$duplicates" | sed 's/^/  /' >&2
            echo "  (one left over from a target since renamed? remove it, or the build folder)" >&2
            failed=1
        else
            echo "check-paths: no two build products in $folder differ only by case"
        fi
    done
fi

exit "$failed"
