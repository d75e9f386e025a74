#!/usr/bin/env bash
# Fails loudly when a relative link of a Markdown document points at no file: every `[text](path)` outside code
# (fenced blocks and inline spans) in the repository's *.md files, except under .build*, node_modules and dist,
# resolved from the document's folder. An anchor (`path#section`) is dropped before the check; web links
# (http:, https:, mailto:) and links within the document (`#section`) are not checked, nor DocC's `<doc:Name>`.
# Usage: bash .ci/check-links.sh
set -euo pipefail
cd "$(dirname "$0")/.."

failed=0
links=0
documents=0

# Prints "line<TAB>target" for every link of a Markdown file outside code.
links_of() {
    awk '
        /^[ \t]*(```|~~~)/ { fenced = !fenced; next }
        fenced { next }
        {
            text = $0
            gsub(/`[^`]*`/, "", text)
            while (match(text, /\]\([^) \t]+\)/)) {
                print NR "\t" substr(text, RSTART + 2, RLENGTH - 3)
                text = substr(text, RSTART + RLENGTH)
            }
        }
    ' "$1"
}

while IFS= read -r -d '' document; do
    documents=$((documents + 1))
    folder=$(dirname "$document")
    while IFS=$'\t' read -r line target; do
        case "$target" in
            http:* | https:* | mailto:* | \#*) continue ;;
        esac
        links=$((links + 1))
        path=${target%%#*}
        if [ ! -e "$folder/$path" ]; then
            echo "check-links: FAILED: ${document#./}:$line links to $target, which does not exist" >&2
            failed=1
        fi
    done < <(links_of "$document")
done < <(find . \( -name '.build*' -o -name node_modules -o -name dist -o -name .git \) -prune -o -name '*.md' -type f -print0)

if [ "$failed" = 0 ]; then
    echo "check-links: $links relative links in $documents Markdown documents, every one resolves"
fi
exit "$failed"
