import Foundation

/// Byte classes of the format language and helpers for quoting source text in error messages.
enum FormatBytes {
    static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    /// `[A-Za-z_]`
    static func isNameStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || byte == UInt8(ascii: "_")
    }

    /// `[A-Za-z0-9_]`
    static func isNameContinuation(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C: return true
        default: return false
        }
    }

    /// The value of a hexadecimal digit, or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Whether `text` is a name: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isName(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, isNameStart(first) else { return false }
        return text.utf8.allSatisfy(isNameContinuation)
    }

    /// The character at `offset` for an error message: `'x'` when printable ASCII, else `U+XXXX`.
    static func describeCharacter(in bytes: [UInt8], at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        var length = 1
        while offset + length < bytes.count, length < 4, bytes[offset + length] & 0xC0 == 0x80 { length += 1 }
        let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
        let scalar = text.unicodeScalars.first?.value ?? UInt32(byte)
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Source text for an error message, shortened to at most `limit` characters.
    static func excerpt(_ bytes: ArraySlice<UInt8>, limit: Int = 40) -> String {
        let text = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        guard text.count > limit || bytes.count > limit * 4 else { return text }
        return String(text.prefix(limit)) + "…"
    }

    /// Data from pairs of hexadecimal digits (`"00ff"`), or `nil` if the text is not that.
    static func data(hexadecimal text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return Data(bytes)
    }

    /// `data` as lowercase hexadecimal digits.
    static func hexadecimal(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(data.count * 2)
        for byte in data {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
