/// The position of one row in a sorted result, as one compact comparable value: the row's sort values
/// and its primary key, encoded so that comparing two keys orders them exactly as the database's
/// `ORDER BY` does.
///
/// A key is made by a ``SortKeyOrder``, which fixes each sort value's direction and case folding:
///
/// ```swift
/// let order = SortKeyOrder([.descending("priority"), .ascending("title", caseInsensitive: true)],
///                          primaryKey: "id")
/// let key = order.key(["priority": 2, "title": "Buy milk", "id": 7])
/// key < order.key(["priority": 1, "title": "Ask", "id": 3])     // true: priority 2 comes first
/// ```
///
/// The encoding is order-preserving bytes (NULL and type tags, variable-length exact numbers, escaped
/// text and data, every byte of a descending value inverted), compared as unsigned bytes. A key of up to
/// 23 bytes, which covers a few numbers or dates plus an integer primary key, is stored inline in 24
/// bytes; a longer key keeps its first 16 bytes inline and the rest in one shared heap buffer.
public struct SortKey: Sendable, Hashable, Comparable {
    /// Bytes 0..<8, big-endian, zero-padded.
    @usableFromInline let head: UInt64
    /// Bytes 8..<16, big-endian, zero-padded.
    @usableFromInline let body: UInt64
    /// Bytes 16 and on, and the length.
    @usableFromInline let rest: Rest

    /// Bytes from offset 16: up to 7 inline with the key's length, or a heap tail.
    ///
    /// `@unchecked Sendable`: a tail is written once, when made, and only read afterwards
    /// (`ManagedBuffer` is never `Sendable` by itself).
    @usableFromInline
    enum Rest: @unchecked Sendable {
        /// Bytes 16..<23 (zero-padded) and the total length (at most 23).
        case inline(UInt32, UInt16, UInt8, SortKeyInlineLength)
        /// Bytes 16..<n of a key of n > 23 bytes.
        case tail(SortKeyTail)

        /// Bytes 16..<24 as a big-endian word (an inline key's last byte is padding).
        @inlinable var firstWord: UInt64 {
            switch self {
            case .inline(let a, let b, let c, _): return UInt64(a) << 32 | UInt64(b) << 16 | UInt64(c) << 8
            case .tail(let tail): return tail.word(0)
            }
        }

        /// The key's length in bytes.
        @inlinable var byteCount: Int {
            switch self {
            case .inline(_, _, _, let length): return Int(length.rawValue)
            case .tail(let tail): return tail.byteCount
            }
        }
    }

    /// The key's length in bytes.
    public var byteCount: Int { rest.byteCount }

    /// Lexicographic byte order, the shorter key first when one is a prefix of the other.
    ///
    /// - Complexity: O(1) when the keys differ in their first 16 bytes or are both at most 23 bytes;
    ///   otherwise O(*m*) for the length *m* of the shorter key.
    @inlinable
    public static func < (lhs: SortKey, rhs: SortKey) -> Bool {
        if lhs.head != rhs.head { return lhs.head < rhs.head }
        if lhs.body != rhs.body { return lhs.body < rhs.body }
        return compareRest(lhs.rest, rhs.rest) < 0
    }

    /// Keys are equal when their bytes are.
    @inlinable
    public static func == (lhs: SortKey, rhs: SortKey) -> Bool {
        lhs.head == rhs.head && lhs.body == rhs.body && compareRest(lhs.rest, rhs.rest) == 0
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(head)
        hasher.combine(body)
        hasher.combine(rest.byteCount)
        switch rest {
        case .inline: hasher.combine(rest.firstWord)
        case .tail(let tail): for index in 0..<tail.wordCount { hasher.combine(tail.word(index)) }
        }
    }

    /// Compares the bytes from offset 16 on (the first 16 being equal): negative, zero or positive.
    @inlinable
    static func compareRest(_ lhs: Rest, _ rhs: Rest) -> Int {
        if case .inline(let a0, let a1, let a2, let aLength) = lhs,
            case .inline(let b0, let b1, let b2, let bLength) = rhs
        {
            let a = UInt64(a0) << 32 | UInt64(a1) << 16 | UInt64(a2) << 8
            let b = UInt64(b0) << 32 | UInt64(b1) << 16 | UInt64(b2) << 8
            if a != b { return a < b ? -1 : 1 }
            return Int(aLength.rawValue) - Int(bLength.rawValue)
        }
        return compareLongRest(lhs, rhs)
    }

    /// The slow path of ``compareRest(_:_:)``: at least one key has a heap tail. Compares zero-padded
    /// words, then lengths: exactly the lexicographic order of the bytes.
    @usableFromInline
    static func compareLongRest(_ lhs: Rest, _ rhs: Rest) -> Int {
        switch (lhs, rhs) {
        case (.tail(let left), .tail(let right)):
            if left === right { return 0 }
            let leftCount = left.wordCount
            let rightCount = right.wordCount
            return left.withUnsafeMutablePointerToElements { a in
                right.withUnsafeMutablePointerToElements { b in
                    for index in 0..<Swift.min(leftCount, rightCount) where a[index] != b[index] {
                        return a[index] < b[index] ? -1 : 1
                    }
                    for index in rightCount..<Swift.max(leftCount, rightCount) where a[index] != 0 { return 1 }
                    for index in leftCount..<Swift.max(leftCount, rightCount) where b[index] != 0 { return -1 }
                    return left.byteCount - right.byteCount
                }
            }
        case (.inline, .tail(let right)):
            return -compareInline(lhs.firstWord, to: right)
        case (.tail(let left), .inline):
            return compareInline(rhs.firstWord, to: left)
        case (.inline, .inline):
            let order = lhs.firstWord == rhs.firstWord ? 0 : (lhs.firstWord < rhs.firstWord ? -1 : 1)
            return order != 0 ? order : lhs.byteCount - rhs.byteCount
        }
    }

    /// Compares a tail with an inline key's bytes 16..<24 (zero-padded, at most 23 bytes long).
    static func compareInline(_ word: UInt64, to tail: SortKeyTail) -> Int {
        let first = tail.word(0)
        if first != word { return first < word ? -1 : 1 }
        // Equal so far: the inline key is shorter, so it comes first whatever the tail holds next.
        return 1
    }
}

/// The length of an inline key: 0...23. An enum rather than a `UInt8` so that its spare bits let
/// ``SortKey/Rest`` fit in one word.
@usableFromInline
enum SortKeyInlineLength: UInt8, Sendable {
    case b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23
}

/// The bytes of a long key past its first 16, as big-endian words, in one allocation.
@usableFromInline
final class SortKeyTail: ManagedBuffer<Int, UInt64> {
    /// Makes a tail holding `bytes[16...]` of a key of `bytes.count` > 23 bytes.
    static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> SortKeyTail {
        let wordCount = (bytes.count - 16 + 7) / 8
        let buffer = SortKeyTail.create(minimumCapacity: wordCount) { _ in bytes.count }
        let tail = unsafeDowncast(buffer, to: SortKeyTail.self)
        tail.withUnsafeMutablePointerToElements { words in
            for index in 0..<wordCount {
                words[index] = SortKeyPacking.word(bytes, from: 16 + 8 * index)
            }
        }
        return tail
    }

    /// The key's total length in bytes.
    @usableFromInline var byteCount: Int { header }

    /// The number of words after the first 16 bytes.
    @usableFromInline var wordCount: Int { (header - 16 + 7) / 8 }

    /// Word `index` (bytes `16 + 8 index ..< 24 + 8 index`), zero-padded.
    @usableFromInline func word(_ index: Int) -> UInt64 {
        withUnsafeMutablePointerToElements { $0[index] }
    }
}

/// Packing bytes into big-endian words and back.
enum SortKeyPacking {
    /// Bytes `offset..<offset + 8` as a big-endian word, zero-padded past the end.
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in offset..<(offset + 8) {
            word = word << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
        }
        return word
    }

    /// Appends the `count` leading bytes of `word` (big-endian) to `bytes`.
    static func append(_ word: UInt64, count: Int, to bytes: inout [UInt8]) {
        for index in 0..<count { bytes.append(UInt8(truncatingIfNeeded: word >> (56 - 8 * index))) }
    }
}

extension SortKey {
    /// Makes a key from its encoded bytes.
    init(encoded bytes: UnsafeBufferPointer<UInt8>) {
        head = SortKeyPacking.word(bytes, from: 0)
        body = SortKeyPacking.word(bytes, from: 8)
        if bytes.count <= 23, let length = SortKeyInlineLength(rawValue: UInt8(bytes.count)) {
            let word = SortKeyPacking.word(bytes, from: 16)
            rest = .inline(
                UInt32(truncatingIfNeeded: word >> 32), UInt16(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), length)
        } else {
            rest = .tail(SortKeyTail.make(bytes))
        }
    }

    /// Makes a key from its encoded bytes.
    init(encoded bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { SortKey(encoded: $0) }
    }

    /// The encoded bytes.
    var encodedBytes: [UInt8] {
        let count = byteCount
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        SortKeyPacking.append(head, count: min(8, count), to: &bytes)
        SortKeyPacking.append(body, count: min(8, max(0, count - 8)), to: &bytes)
        switch rest {
        case .inline:
            SortKeyPacking.append(rest.firstWord, count: max(0, count - 16), to: &bytes)
        case .tail(let tail):
            for index in 0..<tail.wordCount {
                SortKeyPacking.append(tail.word(index), count: min(8, count - 16 - 8 * index), to: &bytes)
            }
        }
        return bytes
    }
}

extension SortKey: CustomStringConvertible {
    /// The encoded bytes in hexadecimal.
    public var description: String {
        "SortKey("
            + encodedBytes.map { byte in
                let digits = String(byte, radix: 16)
                return byte < 16 ? "0" + digits : digits
            }.joined() + ")"
    }
}
