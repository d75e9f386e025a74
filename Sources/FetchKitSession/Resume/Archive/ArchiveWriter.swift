/// Bytes written in the resume archive's encoding: fixed-width integers little-endian, counts and lengths as
/// unsigned LEB128, text as its UTF-8 bytes after their length. The same input always gives the same bytes (the
/// request identity relies on it).
struct ArchiveWriter: Sendable {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// Eight bytes, least significant first.
    mutating func fixed(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed(_ value: Int64) { fixed(UInt64(bitPattern: value)) }

    /// Four bytes, least significant first.
    mutating func fixed(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// Unsigned LEB128: seven bits a byte, the high bit set on every byte but the last.
    mutating func count(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func count(_ value: Int) {
        precondition(value >= 0, "a count is not negative")
        count(UInt64(value))
    }

    mutating func bytes(_ value: some Collection<UInt8>) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) { bytes(value.utf8) }

    mutating func strings(_ values: [String]) {
        count(values.count)
        for value in values { string(value) }
    }

    /// `nil` as 0; a value as 1 then the value.
    mutating func optional<T>(_ value: T?, _ write: (inout Self, T) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }
}
