import Foundation

extension SQLDialect.LargeListExpansion {
    /// `values` (none `NULL`) encoded as the one text parameter of the expansion, or `nil` when a value
    /// has no encoding (binary data; infinities in JSON), and the list must stay inline.
    func encode(_ values: [Value]) -> String? {
        var parts: [String] = []
        parts.reserveCapacity(values.count)
        for value in values {
            guard let part = encode(value) else { return nil }
            parts.append(part)
        }
        switch self {
        case .jsonEach: return "[" + parts.joined(separator: ",") + "]"
        case .anyArray: return "{" + parts.joined(separator: ",") + "}"
        }
    }

    private func encode(_ value: Value) -> String? {
        switch (self, value) {
        case (_, .null), (_, .blob):
            return nil
        case (_, .integer(let number)):
            return String(number)
        case (.jsonEach, .double(let number)):
            return number.isFinite ? String(number) : nil
        case (.anyArray, .double(let number)):
            if number.isNaN { return nil }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return String(number)
        case (.jsonEach, .text(let text)):
            return Self.jsonString(text)
        case (.anyArray, .text(let text)):
            return Self.arrayElement(text)
        case (.jsonEach, .bool(let flag)):
            return flag ? "true" : "false"
        case (.anyArray, .bool(let flag)):
            return flag ? "t" : "f"
        case (.jsonEach, .date(let date)):
            return String(date.microsecondsSince1970)
        case (.anyArray, .date(let date)):
            return "\"" + Self.timestamp(date.microsecondsSince1970) + "\""
        }
    }

    /// A JSON string literal.
    private static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A quoted PostgreSQL array element: `"a\"b"`.
    private static func arrayElement(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.unicodeScalars.append("\\") }
            result.unicodeScalars.append(scalar)
        }
        return result + "\""
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00` for microseconds since 1970 (proleptic Gregorian, UTC).
    static func timestamp(_ microseconds: Int64) -> String {
        let (seconds, micros) = floorDivision(microseconds, 1_000_000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ number: Int64, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time =
            pad(secondOfDay / 3_600, 2) + ":" + pad(secondOfDay % 3_600 / 60, 2) + ":"
            + pad(secondOfDay % 60, 2) + "." + pad(micros, 6)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + time + "+00"
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let (q, r) = a.quotientAndRemainder(dividingBy: b)
        return r < 0 ? (q - 1, r + b) : (q, r)
    }
}
