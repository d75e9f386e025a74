import FetchKit

extension PostgresNotification.Payload {
    /// The payload read by a scanner made for the shape the trigger writes: an object of the known fields,
    /// integer and string keys. `nil` for anything else — an unknown field, a repeated one, a number with a
    /// fraction or an exponent, malformed JSON — which ``init(decoding:)`` then reads as any JSON.
    ///
    /// A store under load receives thousands of notifications a second on one thread; Foundation's decoder
    /// spent about 35 µs on each.
    ///
    /// - Complexity: O(n) for a payload of n bytes.
    init?(scanning payload: String) {
        var text = payload
        guard let parsed = text.withUTF8({ bytes in Self.scan(bytes) }) else { return nil }
        self = parsed
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Self? {
        var scanner = JSONScanner(bytes: bytes)
        var x: Int64?
        var fields = Self(x: 0)
        var seen: Set<String> = []
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        if !scanner.take(UInt8(ascii: "}")) {
            repeat {
                guard let name = scanner.string(), seen.insert(name).inserted, scanner.take(UInt8(ascii: ":")) else {
                    return nil
                }
                switch name {
                case "x":
                    guard let value = scanner.integer() else { return nil }
                    x = value
                case "s": guard scanner.optional({ $0.string() }, into: &fields.s) else { return nil }
                case "t": guard scanner.optional({ $0.string() }, into: &fields.t) else { return nil }
                case "o": guard scanner.optional({ $0.string() }, into: &fields.o) else { return nil }
                case "c": guard scanner.optional({ $0.string() }, into: &fields.c) else { return nil }
                case "all": guard scanner.optional({ $0.boolean() }, into: &fields.all) else { return nil }
                case "end": guard scanner.optional({ $0.boolean() }, into: &fields.end) else { return nil }
                case "k": guard scanner.optional({ $0.keys() }, into: &fields.k) else { return nil }
                default: return nil
                }
            } while scanner.take(UInt8(ascii: ","))
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
        }
        guard let x, scanner.isAtEnd else { return nil }
        fields.x = x
        return fields
    }
}

/// A cursor over JSON text that reads the few value kinds a notification holds, refusing everything else.
private struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool {
        mutating get {
            skipSpace()
            return index == bytes.count
        }
    }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// Takes `byte` (after blanks) when it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Takes the literal `word` when it is next.
    mutating func take(word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `null` (leaving `value` nil) or a value `read` reads into `value`; `false` when neither is next.
    mutating func optional<T>(_ read: (inout JSONScanner) -> T?, into value: inout T?) -> Bool {
        if take(word: "null") {
            value = nil
            return true
        }
        guard let read = read(&self) else { return false }
        value = read
        return true
    }

    mutating func boolean() -> Bool? {
        if take(word: "true") { return true }
        if take(word: "false") { return false }
        return nil
    }

    /// An integer in Int64, without fraction or exponent.
    mutating func integer() -> Int64? {
        skipSpace()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var magnitude: UInt64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (times, overflowTimes) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            return nil
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// A string, its escapes resolved; `nil` for a control character or a lone surrogate.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var plain = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let run = String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                if plain { return run }
                scalars.append(contentsOf: run.unicodeScalars)
                return String(scalars)
            }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            plain = false
            scalars.append(
                contentsOf: String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                    .unicodeScalars)
            index += 1
            guard let scalar = escape() else { return nil }
            scalars.append(scalar)
            runStart = index
        }
        return nil
    }

    /// The character an escape (after its backslash) stands for.
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                guard take(word: "\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit)
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// An array of integer and string keys.
    mutating func keys() -> [Value]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var keys: [Value] = []
        if take(UInt8(ascii: "]")) { return keys }
        repeat {
            skipSpace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                guard let text = string() else { return nil }
                keys.append(.text(text))
            } else {
                guard let integer = integer() else { return nil }
                keys.append(.integer(integer))
            }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? keys : nil
    }
}
