import FetchKit

/// Rows in the binary format of `COPY … FROM STDIN (FORMAT binary)`: a signature and header, then per row
/// the field count and each field as a 32-bit length (-1 for NULL) and its bytes in the type's binary form
/// (``PostgresBinary``), then a trailer.
///
/// Values cross exactly (integers, doubles bit for bit, timestamps to the microsecond, bytes), with no text
/// to escape; each value's type must be its column's (FetchKit's store checks its tables' column types
/// when it opens).
struct PostgresCopyEncoder {
    /// The data encoded and not yet taken.
    private(set) var buffer: [UInt8]

    /// `PGCOPY\n\377\r\n\0`, then 32-bit flags (0) and header extension length (0).
    private static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    /// Starts the data with the header; `capacity` bytes are reserved.
    init(capacity: Int) {
        buffer = []
        buffer.reserveCapacity(capacity)
        buffer.append(contentsOf: Self.header)
    }

    /// Appends one row of `values`; `row` numbers it (from 1) in an error.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a value PostgreSQL cannot hold (a date out of range).
    mutating func appendRow(_ values: some Collection<Value>, row: Int) throws {
        appendInteger(UInt32(values.count), bytes: 2)
        for (column, value) in values.enumerated() {
            if value.isNull {
                appendInteger(UInt32.max, bytes: 4)
                continue
            }
            let lengthAt = buffer.count
            appendInteger(0, bytes: 4)
            try PostgresBinary.append(value, to: &buffer, at: "row \(row), column \(column + 1)")
            let length = buffer.count - lengthAt - 4
            guard length <= Int(Int32.max) else {
                throw FetchKitError.invalidValue(
                    "row \(row), column \(column + 1): \(length) bytes is too large a value")
            }
            for index in 0..<4 { buffer[lengthAt + index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * index)) }
        }
    }

    /// Appends the trailer that ends the data (a field count of -1).
    mutating func appendTrailer() {
        appendInteger(UInt32(UInt16.max), bytes: 2)
    }

    /// Returns the data encoded so far and empties the buffer (keeping its capacity).
    mutating func take<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        defer { buffer.removeAll(keepingCapacity: true) }
        return try buffer.withUnsafeBufferPointer(body)
    }

    /// Appends the low `bytes` bytes of `value`, most significant first.
    private mutating func appendInteger(_ value: UInt32, bytes: Int) {
        for index in (0..<bytes).reversed() { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }
}
