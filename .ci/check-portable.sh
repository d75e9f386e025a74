#!/usr/bin/env bash
# Fails when a Linux-only (glibc or kernel) symbol appears in a Swift or C source outside a Linux-only branch:
# `#if os(Linux)` or `#if canImport(Glibc)` in Swift (`#if defined(__linux__)`, `#ifdef __linux__` or
# `__GLIBC__` in C), its `#else` when the condition is negated (`#if !os(Linux)`). The package declares macOS:
# each such use needs a portable path beside it, or a documented no-op. Comments are not checked, nor string
# literals but for paths under /proc/.
# Usage: bash .ci/check-portable.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Whole identifiers (glibc's and the kernel's own), then prefixes and forms that are Linux-only as written.
words='ppoll|__sigset_t|eventfd|mallinfo2?|malloc_usable_size|malloc_trim|sched_getcpu|gettid|pipe2|accept4|'
words+='MSG_NOSIGNAL|signalfd|sysinfo|prctl'
forms='(epoll|inotify|timerfd)_[a-z]+|Glibc\.|(SOCK|RUSAGE)_[A-Z]+\.rawValue'

git ls-files -z --cached --others --exclude-standard '*.swift' '*.h' '*.c' |
    xargs -0 awk -v words="$words" -v forms="$forms" '
    FNR == 1 { depth = 0 }
    # A condition that holds only on Linux, and its negation (whose #else does).
    function linux(condition) {
        return condition ~ /os\(Linux\)|canImport\(Glibc\)|__linux__|__GLIBC__/ && condition !~ /!/
    }
    function notLinux(condition) {
        return condition ~ /^[ \t]*!(os\(Linux\)|canImport\(Glibc\))[ \t]*$|^[ \t]*!defined\(__linux__\)[ \t]*$/
    }
    {
        line = $0
        sub(/\/\/.*/, "", line)
        if (line ~ /^[ \t]*(\/\*|\*)/) next
        if (match(line, /^[ \t]*#[ \t]*(if|ifdef|ifndef)[ \t(!]/)) {
            directive = line
            sub(/^[ \t]*#[ \t]*/, "", directive)
            keyword = directive
            sub(/[ \t(!].*/, "", keyword)
            condition = substr(directive, length(keyword) + 1)
            gsub(/^[ \t]+|[ \t]+$/, "", condition)
            if (keyword == "ifndef") condition = "!defined(" condition ")"
            depth++
            inLinux[depth] = linux(condition)
            elseLinux[depth] = notLinux(condition)
            next
        }
        if (line ~ /^[ \t]*#[ \t]*(elseif|elif)[ \t(!]/) {
            condition = line
            sub(/^[ \t]*#[ \t]*(elseif|elif)/, "", condition)
            inLinux[depth] = linux(condition)
            elseLinux[depth] = 0
            next
        }
        if (line ~ /^[ \t]*#[ \t]*else([ \t]|$)/) { inLinux[depth] = elseLinux[depth]; next }
        if (line ~ /^[ \t]*#[ \t]*endif([ \t]|$)/) { if (depth > 0) depth--; next }
        for (level = 1; level <= depth; level++) if (inLinux[level]) next
        # Identifiers are looked for in the code, not in its string literals (a label may name a function); paths
        # such as /proc/ in both.
        code = line
        gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
        if (code ~ ("(^|[^A-Za-z0-9_])(" words ")([^A-Za-z0-9_]|$)") || code ~ ("(^|[^A-Za-z0-9_])(" forms ")") \
            || line ~ /\/proc\//) {
            printf "check-portable: %s:%d: Linux-only outside an #if os(Linux) branch: %s\n", FILENAME, FNR, $0
            found = 1
        }
    }
    END { exit found }
    ' >&2 || { echo "check-portable: FAILED: put each behind #if os(Linux) (C: #if defined(__linux__)) with a" \
               "portable path beside it, or a documented no-op" >&2; exit 1; }
echo "check-portable: no Linux-only symbol outside a Linux-only branch"
