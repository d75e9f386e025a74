import FetchKit

extension FormatGrammar {
    /// A constant of `type` (any kind when `nil`), spelled in one of the ways the lexer reads it.
    mutating func literal(type: AttributeType?) -> String {
        if chance(6) { return anyCase(pick(["NULL", "NIL"])) }
        switch type ?? pick([.integer, .double, .text, .bool, .date, .binary]) {
        case .integer: return chance(90) ? integerLiteral() : doubleLiteral()
        case .double: return chance(70) ? doubleLiteral() : integerLiteral()
        case .text: return chance(92) ? stringLiteral() : cast()
        case .bool: return anyCase(pick(["TRUE", "FALSE", "YES", "NO"]))
        case .date: return chance(90) ? "CAST(" + numberLiteral() + ", " + quoted("NSDate") + ")" : cast()
        case .binary: return "CAST(" + quoted(pick(["", "00", "00ff10", "0A", "abc", "zz"])) + ", 'NSData')"
        }
    }

    mutating func numberLiteral() -> String { chance(50) ? integerLiteral() : doubleLiteral() }

    /// Decimal, hexadecimal, octal and binary integers, signed, at and beyond the 64-bit limits.
    mutating func integerLiteral() -> String {
        switch random.int(0..<12) {
        case 0: return pick(["0x1F", "0XfF", "-0x10", "0x7FFFFFFFFFFFFFFF", "0x8000000000000000", "0x", "0xg"])
        case 1: return pick(["0o17", "0O7", "0b101", "-0b1", "0b2", "0o8"])
        case 2: return pick(["9223372036854775807", "-9223372036854775808", "9223372036854775808", "007"])
        case 3: return pick(["99999999999999999999999", "-0", "1_000", "12abc", "1.2.3"])
        default: return String(random.int(-100...1000))
        }
    }

    /// Fractions, exponents, `.5`, `-0.0`, subnormals and out-of-range values.
    mutating func doubleLiteral() -> String {
        switch random.int(0..<8) {
        case 0: return pick([".5", "-.5", "1e3", "1E-2", "2.5e+2", "-0.0", "5e-324", "1.7976931348623157e308"])
        case 1: return pick(["1e400", "-1e400", "1e", "1e+", "1.", "0.1e-400"])
        default: return String(Double(random.int(-10_000...10_000)) / Double(pick([1, 3, 7, 1000, 1 << 20])))
        }
    }

    /// A single- or double-quoted string of plain, non-ASCII, escaped and troublesome pieces.
    mutating func stringLiteral() -> String {
        var content = ""
        for _ in 0..<random.int(0...4) {
            content += pick([
                "abc", "x", " ", "Zürich", "😀", "e\u{301}", "日本", "*", "?", "%", "_", "%@", "$X", "#",
                "\\n", "\\t", "\\r", "\\\\", "\\'", "\\\"", "\\u00e9", "\\uD83D\\uDE00", "\\d", "\\*", "\\u0041",
                "'", "\""
            ])
        }
        if chance(3) { content += pick(["\\u0000", "\\0", "\\uD800", "\\uDC00x", "\\u12", "\\", "\u{0}"]) }
        return quoted(content)
    }

    /// `text` in single or double quotes (a quote of the same kind inside ends the string early).
    mutating func quoted(_ text: String) -> String {
        let quote = chance(60) ? "'" : "\""
        return quote + text + quote
    }

    /// `CAST(constant, 'type')` to `NSDate`, `NSNumber`, `NSString`, `NSData` or a type FetchKit does not know.
    mutating func cast() -> String {
        let value: String
        let type = pick(["NSDate", "NSNumber", "NSString", "NSData", "NSNumber", "NSDecimalNumber", "nsdate"])
        switch type {
        case "NSNumber":
            value = chance(60) ? quoted(pick(["42", "-1.5", "inf", "-inf", "nan", "1e999", "x"])) : numberLiteral()
        case "NSData": value = quoted(pick(["00ff", "", "F", "0g"]))
        case "NSString": value = chance(70) ? integerLiteral() : stringLiteral()
        default: value = chance(80) ? numberLiteral() : pick(["title", "$X", "'2024-01-01'", "NOW()"])
        }
        return anyCase("CAST") + "(" + value + "," + space() + quoted(type) + ")"
    }
}
