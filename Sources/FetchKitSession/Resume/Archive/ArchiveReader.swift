/// Reads what ``ArchiveWriter`` wrote, checking every length against what is left: a truncated or corrupt
/// input throws ``ResumeArchiveError``, never reads out of bounds or allocates more than the input's size.
struct ArchiveReader {
    private let input: [UInt8]
    private var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        self.input = bytes
        self.offset = offset
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset == input.count }

    mutating func byte() throws(ResumeArchiveError) -> UInt8 {
        guard offset < input.count else { throw .truncated }
        defer { offset += 1 }
        return input[offset]
    }

    mutating func bool() throws(ResumeArchiveError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw .invalid("a boolean")
        }
    }

    mutating func fixed() throws(ResumeArchiveError) -> UInt64 { try fixedWidth(8) }

    mutating func fixed32() throws(ResumeArchiveError) -> UInt32 { UInt32(try fixedWidth(4)) }

    /// `width` bytes, least significant first.
    private mutating func fixedWidth(_ width: Int) throws(ResumeArchiveError) -> UInt64 {
        guard input.count - offset >= width else { throw .truncated }
        var value: UInt64 = 0
        for index in 0..<width { value |= UInt64(input[offset + index]) << UInt64(8 * index) }
        offset += width
        return value
    }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { input[offset...] }

    mutating func fixedInt64() throws(ResumeArchiveError) -> Int64 { Int64(bitPattern: try fixed()) }

    /// An unsigned LEB128 number of at most 64 bits.
    mutating func number() throws(ResumeArchiveError) -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 64, by: 7) {
            let byte = try byte()
            guard shift < 63 || byte <= 1 else { throw .invalid("a number past 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
        }
        throw .invalid("a number past 64 bits")
    }

    /// A number that fits an `Int`.
    mutating func integer() throws(ResumeArchiveError) -> Int {
        guard let value = Int(exactly: try number()) else { throw .invalid("number") }
        return value
    }

    /// A count of things each at least `minimumSize` bytes long: never more than the bytes left can hold.
    mutating func count(minimumSize: Int = 1) throws(ResumeArchiveError) -> Int {
        let value = try number()
        guard value <= UInt64((input.count - offset) / max(1, minimumSize)) else { throw .truncated }
        return Int(value)
    }

    mutating func bytes() throws(ResumeArchiveError) -> ArraySlice<UInt8> {
        let length = try count()
        defer { offset += length }
        return input[offset..<(offset + length)]
    }

    mutating func string() throws(ResumeArchiveError) -> String {
        guard let text = String(validating: try bytes(), as: UTF8.self) else { throw .invalid("text") }
        return text
    }

    mutating func strings() throws(ResumeArchiveError) -> [String] {
        var values: [String] = []
        for _ in 0..<(try count()) { values.append(try string()) }
        return values
    }

    /// What ``ArchiveWriter/optional(_:_:)`` wrote.
    mutating func optional<T>(_ read: (inout Self) throws(ResumeArchiveError) -> T) throws(ResumeArchiveError) -> T? {
        try bool() ? try read(&self) : nil
    }
}
