/// Reads the big-endian integers and NUL-terminated strings of PostgreSQL's replication messages, saying
/// where a message ends too soon.
struct ReplicationByteReader {
    private let bytes: [UInt8]
    /// The next byte to read.
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func byte(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> UInt8 {
        try need(1, field())
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func int16(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> Int16 {
        Int16(bitPattern: UInt16(truncatingIfNeeded: try unsigned(2, field())))
    }

    mutating func int32(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> Int32 {
        Int32(bitPattern: UInt32(truncatingIfNeeded: try unsigned(4, field())))
    }

    mutating func uint32(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(4, field()))
    }

    mutating func int64(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> Int64 {
        Int64(bitPattern: try unsigned(8, field()))
    }

    mutating func position(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> LogPosition {
        LogPosition(value: try unsigned(8, field()))
    }

    /// A NUL-terminated string, decoded as UTF-8 (the connection's `client_encoding`).
    mutating func string(_ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> String {
        guard let end = bytes[offset...].firstIndex(of: 0) else {
            throw ReplicationDecodingError(offset: offset, reason: "\(field()) has no terminating NUL")
        }
        defer { offset = end + 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int, _ field: @autoclosure () -> String) throws(ReplicationDecodingError) -> [UInt8] {
        guard count >= 0 else {
            throw ReplicationDecodingError(offset: offset, reason: "\(field()) has a negative length (\(count))")
        }
        try need(count, field())
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// The rest of the message.
    mutating func remainder() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    private mutating func unsigned(_ size: Int, _ field: String) throws(ReplicationDecodingError) -> UInt64 {
        try need(size, field)
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        offset += size
        return value
    }

    private func need(_ count: Int, _ field: String) throws(ReplicationDecodingError) {
        guard bytes.count - offset >= count else {
            throw ReplicationDecodingError(
                offset: offset,
                reason: "the message ends before \(field) (\(count) bytes needed, \(bytes.count - offset) left)")
        }
    }
}

/// A replication message FetchKit cannot read: where, and why. The feed resyncs its controllers rather than
/// guess.
struct ReplicationDecodingError: Error, Equatable, CustomStringConvertible {
    /// The byte of the message where reading stopped.
    var offset: Int
    var reason: String

    var description: String { "unreadable replication message at byte \(offset): \(reason)" }
}
