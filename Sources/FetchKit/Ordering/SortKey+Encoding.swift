import Foundation

/// The order-preserving byte encoding of sort values: comparing encodings as unsigned bytes
/// (shorter first on a common prefix) orders the values exactly as ``Value/databaseOrder(_:_:caseInsensitive:)``.
///
/// Each value is self-delimiting and starts with a tag:
/// - `05` NULL (and NaN, which SQLite stores as NULL);
/// - numbers, all compared exactly with one another: a number is split into its integer part
///   (rounded toward zero) and its fraction (same sign). The integer part is `19` for zero,
///   `19 + L` followed by the `L` big-endian bytes of a positive one, `19 − L` followed by the `L`
///   bytes of the ones' complement of a negative one's magnitude. A marker follows: `01` no fraction,
///   `02` + the 8-byte bit pattern of a positive fraction, `00` + the complement of a negative one's.
///   Doubles beyond the 64-bit integers (including the infinities) are `10` (below −2^63) or `22`
///   (from 2^63) + 8 order-preserving bytes of the double. Booleans are 0 and 1, dates microseconds.
///   So `1`, `1.0` and `true` encode alike, and `-0.0` like `0`;
/// - `30` text and `40` data: the bytes, each `00` escaped as `00 FF`, then the terminator `00 01`.
///
/// A descending value is encoded ascending, then every one of its bytes is inverted.
struct SortKeyEncoder {
    /// The bytes encoded so far.
    private(set) var bytes: [UInt8] = []
    /// The layout whose column positions ``cachedColumns`` holds (rows fetched together share one).
    var cachedLayout: RowLayout?
    /// The position in ``cachedLayout`` of each sort column and then the primary key (`nil`: absent, NULL).
    /// An encoder serves one ``SortKeyOrder``: the cache is keyed by layout only.
    var cachedColumns: [Int?] = []

    enum Tag {
        static let null: UInt8 = 0x05
        static let belowInt64: UInt8 = 0x10
        static let zero: UInt8 = 0x19
        static let fromInt64Limit: UInt8 = 0x22
        static let text: UInt8 = 0x30
        static let blob: UInt8 = 0x40
        static let negativeFraction: UInt8 = 0x00
        static let noFraction: UInt8 = 0x01
        static let positiveFraction: UInt8 = 0x02
    }

    init() {
        bytes.reserveCapacity(32)
    }

    /// Forgets the bytes, keeping the capacity.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// The key of the bytes appended since the last ``reset()``.
    func key() -> SortKey {
        bytes.withUnsafeBufferPointer { SortKey(encoded: $0) }
    }

    /// Appends one value; `caseInsensitive` compares text by its case-folded form (`fetchKitCaseFolded`).
    mutating func append(_ value: Value, ascending: Bool, caseInsensitive: Bool) {
        let start = bytes.count
        switch value {
        case .null:
            bytes.append(Tag.null)
        case .text(let text):
            bytes.append(Tag.text)
            appendEscaped(caseInsensitive ? text.fetchKitCaseFolded.utf8 : text.utf8)
        case .blob(let data):
            bytes.append(Tag.blob)
            appendEscaped(data)
        case .integer, .double, .bool, .date:
            if let number = value.orderNumber { appendNumber(number) } else { bytes.append(Tag.null) }
        }
        if !ascending {
            for index in start..<bytes.count { bytes[index] = ~bytes[index] }
        }
    }

    private mutating func appendEscaped<S: Sequence<UInt8>>(_ source: S) {
        for byte in source {
            bytes.append(byte)
            if byte == 0 { bytes.append(0xFF) }
        }
        bytes.append(0x00)
        bytes.append(0x01)
    }

    private mutating func appendNumber(_ number: OrderNumber) {
        switch number {
        case .integer(let integer):
            appendInteger(integer)
            bytes.append(Tag.noFraction)
        case .double(let double):
            if double >= 9_223_372_036_854_775_808.0 {
                bytes.append(Tag.fromInt64Limit)
                appendWord(double.bitPattern)
            } else if double < -9_223_372_036_854_775_808.0 {
                bytes.append(Tag.belowInt64)
                appendWord(~double.bitPattern)
            } else {
                let whole = double.rounded(.towardZero)
                appendInteger(Int64(whole))  // exact: whole lies in [-2^63, 2^63)
                let fraction = double - whole  // exact, |fraction| < 1, the sign of `double`
                if fraction > 0 {
                    bytes.append(Tag.positiveFraction)
                    appendWord(fraction.bitPattern)
                } else if fraction < 0 {
                    bytes.append(Tag.negativeFraction)
                    appendWord(~(-fraction).bitPattern)
                } else {
                    bytes.append(Tag.noFraction)
                }
            }
        }
    }

    private mutating func appendInteger(_ integer: Int64) {
        let magnitude = integer.magnitude
        let length = (64 - magnitude.leadingZeroBitCount + 7) / 8
        if integer >= 0 {
            bytes.append(Tag.zero + UInt8(length))
            appendBytes(magnitude, count: length)
        } else {
            bytes.append(Tag.zero - UInt8(length))
            appendBytes(~magnitude, count: length)
        }
    }

    private mutating func appendWord(_ word: UInt64) {
        appendBytes(word, count: 8)
    }

    /// Appends the `count` low bytes of `word`, most significant first.
    private mutating func appendBytes(_ word: UInt64, count: Int) {
        var index = count
        while index > 0 {
            index -= 1
            bytes.append(UInt8(truncatingIfNeeded: word >> (8 * UInt64(index))))
        }
    }
}

/// Reads encoded values back, for the primary key at the end of a key.
struct SortKeyDecoder {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one value: numbers come back as `.integer` when whole and in range, else `.double`;
    /// text as stored in the key (lowercased when it was case-insensitive). `nil` when malformed.
    mutating func next(ascending: Bool) -> Value? {
        let flip: UInt8 = ascending ? 0 : 0xFF
        func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset] ^ flip
        }
        func word() -> UInt64? {
            var word: UInt64 = 0
            for _ in 0..<8 {
                guard let next = byte() else { return nil }
                word = word << 8 | UInt64(next)
            }
            return word
        }
        func escaped() -> [UInt8]? {
            var out: [UInt8] = []
            while let next = byte() {
                if next != 0 {
                    out.append(next)
                    continue
                }
                switch byte() {
                case 0xFF: out.append(0)
                case 0x01: return out
                default: return nil
                }
            }
            return nil
        }
        typealias Tag = SortKeyEncoder.Tag
        guard let tag = byte() else { return nil }
        switch tag {
        case Tag.null:
            return .null
        case Tag.text:
            return escaped().map { .text(String(decoding: $0, as: UTF8.self)) }
        case Tag.blob:
            return escaped().map { .blob(Data($0)) }
        case Tag.belowInt64:
            return word().map { .double(Double(bitPattern: ~$0)) }
        case Tag.fromInt64Limit:
            return word().map { .double(Double(bitPattern: $0)) }
        case (Tag.zero - 8)...(Tag.zero + 8):
            let negative = tag < Tag.zero
            let length = Int(negative ? Tag.zero - tag : tag - Tag.zero)
            var magnitude: UInt64 = 0
            for _ in 0..<length {
                guard let next = byte() else { return nil }
                magnitude = magnitude << 8 | UInt64(negative ? ~next : next)
            }
            let whole = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(truncatingIfNeeded: magnitude)
            switch byte() {
            case Tag.noFraction: return .integer(whole)
            case Tag.positiveFraction: return word().map { .double(Double(whole) + Double(bitPattern: $0)) }
            case Tag.negativeFraction: return word().map { .double(Double(whole) - Double(bitPattern: ~$0)) }
            default: return nil
            }
        default:
            return nil
        }
    }
}
