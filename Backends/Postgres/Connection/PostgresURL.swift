import FetchKitBackendKit

/// A PostgreSQL connection URL taken apart into libpq's keyword/value parameters, which libpq receives as
/// they are (`PQconnectdbParams`): nothing is ever spliced into a connection string.
///
/// ```swift
/// let url = try PostgresURL("postgresql://app:s3cret@db.internal:5433/tasks?sslmode=require")
/// url.parameters   // [("user", "app"), ("password", "s3cret"), ("host", "db.internal"), ("port", "5433"),
///                  //  ("dbname", "tasks"), ("sslmode", "require")]
/// url.redacted     // "postgresql://app:***@db.internal:5433/tasks?sslmode=require"
/// ```
///
/// Both `postgres://` and `postgresql://` are accepted. Every part is percent-decoded. A host that starts
/// with `/` once decoded (`%2Fvar%2Frun%2Fpostgresql`) is a unix-socket directory; `[…]` is an IPv6
/// address; `?host=/path` names a socket directory too. Query items are passed to libpq as keywords
/// (`sslmode`, `connect_timeout`, `application_name`, …); libpq rejects one it does not know.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// The keyword/value pairs for libpq, in order.
    public let parameters: [(keyword: String, value: String)]
    /// The URL with every secret replaced by `***` (its user info's password, `sslpassword` and any other
    /// secret query item): safe to log and to put in errors.
    public let redacted: String

    /// Parses `string`.
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` naming what is wrong, never echoing a secret (nor a port that
    ///   may be a password whose `@host` was forgotten).
    public init(_ string: String) throws {
        guard let schemeEnd = string.range(of: "://") else {
            throw FetchKitError.invalidURL("expected postgres://… or postgresql://…")
        }
        let scheme = string[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "postgres" || scheme == "postgresql" else {
            // Shown only when it is a scheme: text before a later "://" may hold the user info.
            let isScheme = scheme.count <= 20 && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            throw FetchKitError.invalidURL(
                isScheme
                    ? "the scheme '\(scheme)' is not postgres or postgresql" : "expected postgres://… or postgresql://…"
            )
        }
        var rest = string[schemeEnd.upperBound...]
        // The user info ends at the last '@', as URL parsers take it: a password may hold an unencoded '@'.
        // One that holds an unencoded '/', '?' or '#' would otherwise cut the URL before its '@' and send the
        // password elsewhere as a host name: refused, naming the part and never its text.
        var userInfo: Substring?
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            guard !info.contains(where: { "/?#".contains($0) }) else {
                throw FetchKitError.invalidURL(
                    "the user name or password holds an unencoded '/', '?' or '#' (or an '@' follows the host): "
                        + "percent-encode them in the user info (%2F, %3F, %23) and an '@' elsewhere (%40)")
            }
            userInfo = info
            rest = rest[rest.index(after: at)...]
        }
        var query = Substring("")
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path = Substring("")
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }

        var parameters: [(keyword: String, value: String)] = []
        if let userInfo {
            let (user, password) = Self.split(userInfo, at: ":")
            let decodedUser = try Self.decode(user, part: "user name")
            if !decodedUser.isEmpty { parameters.append(("user", decodedUser)) }
            if let password {
                // Decoded for libpq, never shown: an error about it names the part, not the text.
                parameters.append(("password", try Self.decode(password, part: "password")))
            }
        }
        let (host, port) = try Self.hostAndPort(rest)
        if let host { parameters.append(("host", host)) }
        if let port { parameters.append(("port", port)) }
        let database = try Self.decode(path, part: "database name")
        if !database.isEmpty { parameters.append(("dbname", database)) }
        for item in query.split(separator: "&") where !item.isEmpty {
            let (key, value) = Self.split(item, at: "=")
            let keyword = try Self.decode(key, part: "query parameter name")
            guard !keyword.isEmpty else { throw FetchKitError.invalidURL("a query parameter has no name") }
            guard keyword.lowercased() != "password" else {
                throw FetchKitError.invalidURL("put the password in the user info (user:password@host), not the query")
            }
            parameters.append((keyword, try Self.decode(value ?? "", part: "value of '\(keyword)'")))
        }
        self.parameters = parameters
        self.redacted = SecretRedaction.redact(string)
    }

    /// The value of `keyword` (the last one when repeated).
    public subscript(keyword: String) -> String? { parameters.last { $0.keyword == keyword }?.value }

    public var description: String { redacted }

    /// `message` (libpq's, about a connection to this URL) with the value of every secret parameter replaced
    /// by `***`, should it ever appear there.
    func hidingSecrets(in message: String) -> String {
        var text = message
        for (keyword, value) in parameters where !value.isEmpty && SecretRedaction.isSecret(keyword: keyword) {
            text = text.replacing(value, with: SecretRedaction.mask)
        }
        return text
    }

    /// `text` cut at the first `separator`: the part before, and the part after (`nil` without one).
    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    /// The host (a name, an address, or a socket directory) and the port of `authority`.
    private static func hostAndPort(_ authority: Substring) throws -> (String?, String?) {
        var host = authority
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw FetchKitError.invalidURL("an IPv6 host is missing its ']'")
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                port = after.dropFirst()
            } else if !after.isEmpty {
                throw FetchKitError.invalidURL("unexpected text after the IPv6 host")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            port = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        if let port, port.isEmpty || !port.allSatisfy(\.isASCII) || UInt16(port) == nil || UInt16(port) == 0 {
            // Never echoed: without its '@host', a URL's password reads as a port (postgresql://app:s3cret/db).
            throw FetchKitError.invalidURL(
                "the port after the host's ':' is not a number from 1 to 65535 (if it is a password, the URL lacks "
                    + "its '@host')")
        }
        let decoded = try decode(host, part: "host")
        return (decoded.isEmpty ? nil : decoded, port.map(String.init))
    }

    /// `text` with its `%XX` escapes decoded as UTF-8.
    private static func decode(_ text: Substring, part: String) throws -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(PercentEncoding.hexValue),
                let low = utf8.next().flatMap(PercentEncoding.hexValue)
            else {
                throw FetchKitError.invalidURL("the \(part) has a '%' not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw FetchKitError.invalidURL("the \(part) is not valid UTF-8 once decoded")
        }
        return decoded
    }
}
