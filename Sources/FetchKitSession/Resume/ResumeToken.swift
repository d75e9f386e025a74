/// A resume token: the session it came from and the sequence number of the message it was sent with, as
/// `<32 hex digits>.<sequence>`. The session ID is random (128 bits), so a token cannot be guessed, and a
/// server checks that a token names the same list for the same user before it resumes from it.
struct ResumeToken: Sendable, Hashable, CustomStringConvertible {
    /// The session, as 32 lowercase hex digits.
    var session: String
    /// The message's sequence number in that session (1 for the first).
    var sequence: UInt64

    /// A new session's ID.
    static func newSession() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    init(session: String, sequence: UInt64) {
        self.session = session
        self.sequence = sequence
    }

    /// Parses a client's token; `nil` for anything that is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32,
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
            parts[1].utf8.count <= 20, let sequence = UInt64(parts[1])
        else { return nil }
        session = String(parts[0])
        self.sequence = sequence
    }

    var description: String { "\(session).\(sequence)" }
}
