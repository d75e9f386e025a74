/// A position in PostgreSQL's write-ahead log (an LSN): where a record starts or ends, as the replication
/// protocol counts it.
///
/// Printed as PostgreSQL prints it, two hexadecimal halves: `16/B374D848`.
struct LogPosition: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The byte offset in the log.
    var value: UInt64

    /// The log's start: what `START_REPLICATION … LOGICAL 0/0` asks for ("from where the slot is").
    static let zero = LogPosition(value: 0)

    init(value: UInt64) {
        self.value = value
    }

    /// The position PostgreSQL prints as `text` (`16/B374D848`), or `nil` when it is not one.
    init?(_ text: some StringProtocol) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty, halves[0].count <= 8, halves[1].count <= 8,
            let high = UInt64(halves[0], radix: 16), let low = UInt64(halves[1], radix: 16)
        else { return nil }
        value = high << 32 | low
    }

    var description: String {
        String(value >> 32, radix: 16, uppercase: true) + "/" + String(value & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    static func < (lhs: LogPosition, rhs: LogPosition) -> Bool { lhs.value < rhs.value }
}
