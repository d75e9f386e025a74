extension FormatLexer {
    // MARK: - Numbers

    /// Reads `-`? then a decimal integer, a decimal fraction with optional exponent, or `0x`/`0o`/`0b` digits.
    mutating func lexNumber() throws(FetchKitError) -> FormatToken.Kind {
        let start = position
        let negative = peek() == UInt8(ascii: "-")
        if negative { position += 1 }
        let kind: FormatToken.Kind
        if peek() == UInt8(ascii: "0"), let radix = Self.radix(of: peek(at: 1)) {
            position += 2
            kind = .integer(try scanInteger(radix: radix, negative: negative, start: start))
        } else {
            kind = try scanDecimal(negative: negative, start: start)
        }
        if let byte = peek(), FormatBytes.isNameContinuation(byte) || byte == UInt8(ascii: ".") {
            while let byte = peek(), FormatBytes.isNameContinuation(byte) || byte == UInt8(ascii: ".") {
                position += 1
            }
            throw FetchKitError.invalidPredicate("invalid number '\(text(from: start))'", offset: start)
        }
        return kind
    }

    private static func radix(of byte: UInt8?) -> UInt64? {
        switch byte {
        case UInt8(ascii: "x"), UInt8(ascii: "X"): return 16
        case UInt8(ascii: "o"), UInt8(ascii: "O"): return 8
        case UInt8(ascii: "b"), UInt8(ascii: "B"): return 2
        default: return nil
        }
    }

    private mutating func scanDecimal(negative: Bool, start: Int) throws(FetchKitError) -> FormatToken.Kind {
        let digitsStart = position
        skipDigits()
        var isInteger = true
        if peek() == UInt8(ascii: "."), FormatBytes.isDigit(peek(at: 1)) {
            isInteger = false
            position += 1
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            let sign = peek(at: 1) == UInt8(ascii: "+") || peek(at: 1) == UInt8(ascii: "-") ? 1 : 0
            if FormatBytes.isDigit(peek(at: 1 + sign)) {
                isInteger = false
                position += 1 + sign
                skipDigits()
            }
        }
        if isInteger {
            position = digitsStart
            return .integer(try scanInteger(radix: 10, negative: negative, start: start))
        }
        guard let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite else {
            throw FetchKitError.invalidPredicate("number '\(text(from: start))' is out of range", offset: start)
        }
        return .double(value)
    }

    private mutating func skipDigits() {
        while FormatBytes.isDigit(peek()) { position += 1 }
    }

    /// Reads digits in `radix` into an `Int64`, throwing when the value does not fit.
    private mutating func scanInteger(radix: UInt64, negative: Bool, start: Int) throws(FetchKitError) -> Int64 {
        var magnitude: UInt64 = 0
        var overflow = false
        let digitsStart = position
        while let byte = peek(), let digit = FormatBytes.hexValue(byte), UInt64(digit) < radix {
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            magnitude = sum
            position += 1
        }
        guard position > digitsStart else {
            throw FetchKitError.invalidPredicate("expected digits after '\(text(from: start))'", offset: start)
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !overflow, magnitude <= limit else {
            while let byte = peek(), FormatBytes.isNameContinuation(byte) { position += 1 }
            throw FetchKitError.invalidPredicate(
                "integer '\(text(from: start))' does not fit in 64 bits", offset: start)
        }
        if negative { return magnitude == limit ? Int64.min : -Int64(magnitude) }
        return Int64(magnitude)
    }

    /// The source text from `start` to the current position, shortened for messages.
    func text(from start: Int) -> String {
        FormatBytes.excerpt(bytes[start..<position])
    }

    // MARK: - Strings

    /// Reads a single- or double-quoted string with `\` escapes.
    ///
    /// - Complexity: O(n) in the length of the literal; runs without escapes are copied at once.
    mutating func lexString() throws(FetchKitError) -> FormatToken.Kind {
        let start = position
        let quote = bytes[position]
        position += 1
        var buffer: [UInt8] = []
        while true {
            let runStart = position
            while let byte = peek(), byte != quote, byte != UInt8(ascii: "\\"), byte != 0 { position += 1 }
            buffer.append(contentsOf: bytes[runStart..<position])
            guard let byte = peek() else {
                throw FetchKitError.invalidPredicate("unterminated string starting", offset: start)
            }
            switch byte {
            case quote:
                position += 1
                return .string(String(decoding: buffer, as: UTF8.self))
            case 0:
                throw FetchKitError.invalidPredicate("a string cannot contain a NUL character", offset: position)
            default:
                try lexEscape(into: &buffer, stringStart: start)
            }
        }
    }

    /// Reads one escape sequence (the position is at its `\`) and appends its UTF-8 bytes: `\'`, `\"`, `\\`,
    /// `\n`, `\t`, `\r` and `\uXXXX` decoded, any other kept as written.
    private mutating func lexEscape(into buffer: inout [UInt8], stringStart: Int) throws(FetchKitError) {
        let escapeStart = position
        guard let byte = peek(at: 1) else {
            throw FetchKitError.invalidPredicate("unterminated string starting", offset: stringStart)
        }
        position += 2
        switch byte {
        case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "0"):
            throw FetchKitError.invalidPredicate(
                "'\\0' is not allowed: a string cannot contain NUL", offset: escapeStart)
        case UInt8(ascii: "u"):
            let scalar = try lexUnicodeEscape(escapeStart: escapeStart)
            buffer.append(contentsOf: String(Character(scalar)).utf8)
        default:
            // Any other escape is kept as written, backslash included, as Foundation's lexer keeps it: an inline
            // regular expression (`MATCHES '\d+'`) or an escaped wildcard (`LIKE 'a\*'`) reaches its
            // operator intact. The character after the backslash is copied by the caller's loop.
            buffer.append(UInt8(ascii: "\\"))
            position -= 1
        }
    }

    /// Reads the `XXXX` of `\uXXXX` (and a following `\uXXXX` low surrogate when the first is a high one).
    private mutating func lexUnicodeEscape(escapeStart: Int) throws(FetchKitError) -> Unicode.Scalar {
        let first = try scanHex4(escapeStart: escapeStart)
        var value = first
        if (0xD800..<0xDC00).contains(first) {
            guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
                throw FetchKitError.invalidPredicate("unpaired surrogate in '\\u' escape", offset: escapeStart)
            }
            let lowStart = position
            position += 2
            let low = try scanHex4(escapeStart: lowStart)
            guard (0xDC00..<0xE000).contains(low) else {
                throw FetchKitError.invalidPredicate("unpaired surrogate in '\\u' escape", offset: escapeStart)
            }
            value = 0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
        }
        guard value != 0 else {
            throw FetchKitError.invalidPredicate(
                "'\\u0000' is not allowed: a string cannot contain NUL", offset: escapeStart)
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw FetchKitError.invalidPredicate("unpaired surrogate in '\\u' escape", offset: escapeStart)
        }
        return scalar
    }

    private mutating func scanHex4(escapeStart: Int) throws(FetchKitError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = FormatBytes.hexValue(byte) else {
                throw FetchKitError.invalidPredicate("'\\u' needs four hexadecimal digits", offset: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
