/// The one way FetchKit hides the secrets of a store's location before it shows one — in an error, a
/// description, a log line at any level, the command-line tool's output — whatever form it takes.
///
/// ```swift
/// SecretRedaction.redact("postgresql://app:s3cret@db/tasks?sslpassword=k3y")
/// // "postgresql://app:***@db/tasks?sslpassword=***"
/// SecretRedaction.redact("host=db password = 's3 cret' sslmode=require")
/// // "host=db password = *** sslmode=require"
/// ```
///
/// It errs on the side of hiding:
///
/// - **URLs** (`scheme://…`): the password of the user info, which runs to the *last* `@` (a password may
///   hold `@`, `/`, `?` or `#` unencoded); an authority without `@` whose text after a `:` is not a port
///   (`postgresql://app:s3cret/db`, a forgotten `@host`) shows `***` there.
/// - **Keyword/value pairs**, in a URL's query or a libpq connection string (`host=db password=…`): the value
///   of every secret keyword (see ``isSecret(keyword:)``), in any case, percent-encoded or not, however often it
///   appears, with spaces around `=`, quoted (`'a b'`, escaped quotes included) or not; and any value that is
///   itself a connection string holding a secret (libpq expands a `dbname` that is one).
/// - **Anything else** with an `@` (a mistyped scheme: `postgres//app:pw@db`, `postgres:app:pw@db`): everything
///   before its last `@`.
package enum SecretRedaction {
    /// What a hidden secret is shown as.
    package static let mask = "***"

    /// Whether the connection keyword `keyword` (in any case) carries a secret: libpq's `password` and
    /// `sslpassword` (the client key's passphrase), the options libpq marks secret, and anything named like
    /// them (`…password…`, `…secret…`, `…passphrase…`). `passfile` names a file: it is no secret.
    package static func isSecret(keyword: some StringProtocol) -> Bool {
        let name = keyword.lowercased()
        return name.contains("password") || name.contains("secret") || name.contains("passphrase")
    }

    /// `text` — a store URL, a libpq keyword/value connection string, or a mistyped one — with every secret
    /// replaced by `***` (see the type's rules).
    package static func redact(_ text: String) -> String { redact(text, depth: 0) }

    private static func redact(_ text: String, depth: Int) -> String {
        let isConnectionString = looksLikeKeywordValuePairs(text)
        let pairsHidden = hidingSecretValues(text, connectionString: isConnectionString, depth: depth)
        if isConnectionString { return pairsHidden }
        if let separator = pairsHidden.range(of: "://"), isScheme(pairsHidden[..<separator.lowerBound]) {
            let rest = pairsHidden[separator.upperBound...]
            return String(pairsHidden[..<separator.upperBound]) + hidingAuthoritySecrets(rest)
        }
        guard let at = pairsHidden.lastIndex(of: "@") else { return pairsHidden }
        return mask + pairsHidden[at...]
    }

    /// A URL's part after `://` with the password of its user info, and a password mistaken for a port, hidden.
    private static func hidingAuthoritySecrets(_ rest: Substring) -> String {
        guard let at = rest.lastIndex(of: "@") else { return hidingMistakenPorts(rest) }
        var info = String(rest[..<at])
        if let colon = info.firstIndex(of: ":") { info = info[...colon] + mask }
        return info + "@" + hidingMistakenPorts(rest[rest.index(after: at)...])
    }

    /// `text` (an authority and what follows it) with the text after each host's `:` hidden when it is not a
    /// port: without an `@`, `app:s3cret` is a user and a password whose host was forgotten.
    private static func hidingMistakenPorts(_ text: Substring) -> String {
        let end = text.firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        let hosts = text[..<end].split(separator: ",", omittingEmptySubsequences: false).map { host -> String in
            var portStart = host.startIndex
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { return String(host) }
                portStart = close
            }
            guard let colon = host[portStart...].firstIndex(of: ":") else { return String(host) }
            let port = host[host.index(after: colon)...]
            let isPort = !port.isEmpty && port.count <= 5 && port.allSatisfy(\.isASCII) && UInt16(port) != nil
            return isPort ? String(host) : host[...colon] + mask
        }
        return hosts.joined(separator: ",") + text[end...]
    }

    /// Whether `text` starts like a libpq connection string: a keyword, then `=`.
    private static func looksLikeKeywordValuePairs(_ text: String) -> Bool {
        let start = text.drop(while: \.isWhitespace)
        let keyword = start.prefix(while: isKeywordCharacter)
        return !keyword.isEmpty && start.dropFirst(keyword.count).drop(while: \.isWhitespace).first == "="
    }

    private static func isScheme(_ text: Substring) -> Bool {
        text.first?.isLetter == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private static func isKeywordCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "%")
    }

    /// `text` with the value of every `keyword=value` pair whose keyword is secret (or whose value is a
    /// connection string holding one) replaced by ``mask``. In a connection string a value runs to a
    /// whitespace not escaped by a backslash, or is quoted (`'…'`, `"…"`, a backslash escaping a quote; an
    /// unclosed quote runs to the end); anywhere else (a URL's query) it runs to the next `&`.
    private static func hidingSecretValues(_ text: String, connectionString: Bool, depth: Int) -> String {
        guard text.contains("=") else { return text }
        var result = ""
        var index = text.startIndex
        var previous: Character?
        while index < text.endIndex {
            let character = text[index]
            guard isKeywordCharacter(character), previous.map({ !isKeywordCharacter($0) }) ?? true else {
                result.append(character)
                previous = character
                index = text.index(after: index)
                continue
            }
            let keywordEnd = text[index...].firstIndex(where: { !isKeywordCharacter($0) }) ?? text.endIndex
            let equals = text[keywordEnd...].firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
            guard equals < text.endIndex, text[equals] == "=" else {
                result += text[index..<keywordEnd]
                previous = text[text.index(before: keywordEnd)]
                index = keywordEnd
                continue
            }
            let afterEquals = text.index(after: equals)
            let valueStart = text[afterEquals...].firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
            let valueEnd =
                connectionString
                ? endOfValue(in: text, from: valueStart)
                : text[valueStart...].firstIndex(of: "&") ?? text.endIndex
            let value = text[valueStart..<valueEnd]
            result += text[index..<valueStart]
            if isSecret(keyword: PercentEncoding.decodedLeniently(text[index..<keywordEnd]).filter { !$0.isWhitespace })
                || holdsSecret(value, depth: depth)
            {
                result += mask
                previous = "="
                index = valueEnd
            } else {
                // The value's own text is read too: a keyword inside it is hidden (over-hiding is harmless).
                previous = "="
                index = valueStart
            }
        }
        return result
    }

    /// Where the connection string value that starts at `start` ends.
    private static func endOfValue(in text: String, from start: String.Index) -> String.Index {
        guard start < text.endIndex else { return start }
        let quote = text[start]
        var index = start
        if quote == "'" || quote == "\"" {
            index = text.index(after: index)
            while index < text.endIndex {
                if text[index] == "\\" {
                    index = text.index(after: index)
                    if index < text.endIndex { index = text.index(after: index) }
                    continue
                }
                if text[index] == quote { return text.index(after: index) }
                index = text.index(after: index)
            }
            return text.endIndex
        }
        while index < text.endIndex, !text[index].isWhitespace {
            index = text.index(after: index)
            if text[text.index(before: index)] == "\\", index < text.endIndex { index = text.index(after: index) }
        }
        return index
    }

    /// Whether `value` — unquoted and percent-decoded — is a connection string or URL that holds a secret.
    private static func holdsSecret(_ value: Substring, depth: Int) -> Bool {
        guard depth < 3, !value.isEmpty else { return false }
        var inner = value
        if let first = inner.first, first == "'" || first == "\"" {
            inner = inner.dropFirst()
            if inner.last == first { inner = inner.dropLast() }
        }
        let decoded = PercentEncoding.decodedLeniently(inner)
        guard decoded.contains("=") || decoded.contains("://") else { return false }
        return redact(decoded, depth: depth + 1) != decoded
    }
}
