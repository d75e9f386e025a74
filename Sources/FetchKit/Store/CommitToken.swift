/// Where a committed write ends in its database's log: what another instance of the app waits for before it
/// reads, so that a user who wrote through one instance reads the write through any other (read-your-writes
/// across instances, and across a hot standby).
///
/// A store that keeps a log hands one out with each write that asks (`PostgresStore.writeReturningToken`); its
/// text form (PostgreSQL's `pg_lsn`, `0/16B3748`) travels in a header or a cookie, and comes back through
/// ``init(_:)``.
///
/// ```swift
/// let (_, token) = try await store.writeReturningToken { tx in try tx.insert(Todo(title: "Ship it")) }
/// response.headers["FetchKit-Commit"] = token.description
/// // Another instance, on the user's next request:
/// if let token = CommitToken(header) { try await controller.sync(after: token) }
/// ```
public struct CommitToken: Sendable, Hashable, Comparable, Codable, LosslessStringConvertible {
    /// The log position, as a 64-bit number.
    public let position: UInt64

    /// The token of log position `position`.
    public init(position: UInt64) { self.position = position }

    /// Reads a token's text form, two hexadecimal halves (`0/16B3748`); `nil` for any other text.
    public init?(_ description: String) {
        let halves = description.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, (1...8).contains(halves[0].count), (1...8).contains(halves[1].count),
            let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16)
        else { return nil }
        position = high << 32 | low
    }

    /// The text form: the position's two 32-bit halves in hexadecimal, as PostgreSQL writes a `pg_lsn`.
    public var description: String {
        String(position >> 32, radix: 16, uppercase: true) + "/"
            + String(position & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    /// Whether `lhs` is earlier in the log than `rhs`.
    public static func < (lhs: CommitToken, rhs: CommitToken) -> Bool { lhs.position < rhs.position }

    /// Decodes the text form.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let token = CommitToken(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a commit token: \(SafeText.quoted(text))"))
        }
        self = token
    }

    /// Encodes the text form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
