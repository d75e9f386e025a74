#!/usr/bin/env bash
# Builds the `fetchkit` tool without the default traits (no swift-configuration, no swift-metrics, no Postgres)
# where libpq cannot be seen, then runs it: `fetchkit demo` works, and each PostgreSQL command fails with the
# error that says how to build PostgreSQL in, never a crash. What an app or a Mac without libpq builds.
#
# SwiftPM takes pkg-config's search path from `pkg-config --variable pc_path pkg-config`, which ignores
# PKG_CONFIG_LIBDIR: a pkg-config placed first on PATH answers with a folder holding sqlite3.pc alone. libpq's
# header is then out of reach (Debian keeps it in /usr/include/postgresql, which only libpq's cflags add).
# Usage: bash .ci/check-without-postgres.sh   (scratch path .build-without-traits)
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-without-traits
blind=$(mktemp -d)
trap 'rm -rf "$blind"' EXIT
mkdir "$blind/bin" "$blind/pc"
sqlite_pc="$(pkg-config --variable=pcfiledir sqlite3)/sqlite3.pc"
[ -f "$sqlite_pc" ] && cp "$sqlite_pc" "$blind/pc/"
real=$(command -v pkg-config)
cat >"$blind/bin/pkg-config" <<EOF
#!/bin/sh
if [ "\$*" = "--variable pc_path pkg-config" ]; then echo "$blind/pc"; exit 0; fi
PKG_CONFIG_PATH= PKG_CONFIG_LIBDIR="$blind/pc" exec "$real" "\$@"
EOF
chmod +x "$blind/bin/pkg-config"
if PATH="$blind/bin:$PATH" pkg-config --exists libpq; then
    echo "check-without-postgres: FAILED: libpq is still visible to pkg-config" >&2
    exit 1
fi

PATH="$blind/bin:$PATH" PKG_CONFIG_PATH= swift build --disable-default-traits --scratch-path "$scratch" \
    --product fetchkit
tool="$scratch/debug/fetchkit"
if command -v ldd >/dev/null && ldd "$tool" | grep -q libpq; then
    echo "check-without-postgres: FAILED: $tool links libpq" >&2
    exit 1
fi

"$tool" demo >"$blind/demo.txt"
echo "check-without-postgres: fetchkit demo ran ($(wc -l <"$blind/demo.txt" | tr -d ' ') lines)"

# A PostgreSQL command or URL: exit status 1 and the message, on a URL no server needs to answer.
url=postgres://nobody@127.0.0.1:1/none
for command in "slots --store $url" "capture-sql --store $url --entity todo" "watch --store $url --entity todo" \
    "capture install --store $url --entity todo" "capture uninstall --store $url --entity todo" \
    "schema plan --store $url"; do
    status=0
    # shellcheck disable=SC2086 # the command's words
    "$tool" $command >/dev/null 2>"$blind/error.txt" || status=$?
    if [ "$status" -ne 1 ] || ! grep -q "this fetchkit was built without it" "$blind/error.txt"; then
        echo "check-without-postgres: FAILED: fetchkit $command exited with $status:" >&2
        cat "$blind/error.txt" >&2
        exit 1
    fi
done
echo "check-without-postgres: slots, capture-sql, capture, schema plan and watch on a postgres:// URL say PostgreSQL is not built in"
