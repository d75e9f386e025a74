/// A message of the replication stream, as one `CopyData` carries it (`PQgetCopyData`).
enum ReplicationStreamMessage: Equatable, Sendable {
    /// `'w'`: a piece of the log, decoded by the output plugin (one ``PgOutputMessage``).
    case logData(start: LogPosition, end: LogPosition, sentAt: Int64, payload: [UInt8])
    /// `'k'`: the server's keepalive; `replyRequested` asks for a status update now, before the sender's
    /// timeout ends the connection.
    case keepalive(end: LogPosition, sentAt: Int64, replyRequested: Bool)

    /// Decodes one `CopyData` of the stream.
    ///
    /// - Throws: ``ReplicationDecodingError`` for an unknown kind or a message cut short.
    init(decoding bytes: [UInt8]) throws(ReplicationDecodingError) {
        var reader = ReplicationByteReader(bytes)
        let kind = try reader.byte("the message kind")
        switch kind {
        case UInt8(ascii: "w"):
            let start = try reader.position("the data's start")
            let end = try reader.position("the log's end")
            let sentAt = try reader.int64("the send time")
            self = .logData(start: start, end: end, sentAt: sentAt, payload: reader.remainder())
        case UInt8(ascii: "k"):
            let end = try reader.position("the log's end")
            let sentAt = try reader.int64("the send time")
            let reply = try reader.byte("the reply flag")
            self = .keepalive(end: end, sentAt: sentAt, replyRequested: reply == 1)
        default:
            throw ReplicationDecodingError(offset: 0, reason: "unknown stream message kind \(Self.name(kind))")
        }
    }

    /// `byte` as a character when printable, else in hexadecimal.
    static func name(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
    }
}

/// The standby status update FetchKit sends (`'r'`): how far it has received and applied the log. The server
/// keeps the slot's WAL from the flushed position on.
struct StandbyStatusUpdate: Equatable, Sendable {
    /// The last position received, plus one.
    var written: LogPosition
    /// The last position whose changes every controller has been handed, plus one: the slot's confirmed
    /// position.
    var flushed: LogPosition
    var applied: LogPosition
    /// The client's clock, in microseconds since 2000-01-01 00:00 UTC.
    var sentAt: Int64
    /// Asks the server to answer at once with a keepalive (a ping).
    var replyRequested = false

    /// Microseconds from the Unix epoch to PostgreSQL's (2000-01-01 00:00 UTC).
    static let epochOffset: Int64 = 946_684_800_000_000

    /// The 34 bytes of the message, to send with `PQputCopyData`.
    var encoded: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "r")]
        bytes.reserveCapacity(34)
        for value in [written.value, flushed.value, applied.value, UInt64(bitPattern: sentAt)] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> shift))
            }
        }
        bytes.append(replyRequested ? 1 : 0)
        return bytes
    }
}
