@_spi(Backend) import FetchKit
import Foundation

extension SQLDialect {
    /// `value` as a SQL literal for a column of `type` in this dialect (a column default in DDL, which takes no
    /// bound parameters), or `nil` when it has none: a non-finite double, text holding NUL, a date outside years
    /// 1–9999 where dates are timestamps, a value `type` does not accept.
    ///
    /// Integers and doubles are written as numbers, text between single quotes (each `'` doubled), booleans as
    /// `TRUE`/`FALSE` where the column type is `BOOLEAN` and `1`/`0` otherwise; dates as whole microseconds since
    /// 1970 where they are stored as integers, else as a UTC timestamp text (`'2024-01-31 12:00:00.000000+00'`);
    /// binary as `X'0aff'` where the column type is `BLOB`, else as bytea's hex text (`'\x0aff'`).
    ///
    /// ```swift
    /// SQLDialect.sqlite.literal(.text("it's"), for: .text)   // 'it''s'
    /// SQLDialect.postgres.literal(.bool(true), for: .bool)   // TRUE
    /// ```
    public func literal(_ value: Value, for type: AttributeType) -> String? {
        guard let value = type.coerce(value) else { return nil }
        let declared = columnType(for: type).uppercased()
        switch value {
        case .null: return "NULL"
        case .integer(let integer): return String(integer)
        case .double(let double): return double.isFinite ? "\(double)" : nil
        case .text(let text): return text.utf8.contains(0) ? nil : SQLDialect.enclose(text, in: UInt8(ascii: "'"))
        case .bool(let bool): return declared == "BOOLEAN" ? (bool ? "TRUE" : "FALSE") : (bool ? "1" : "0")
        case .date(let date):
            guard date.isStorable else { return nil }
            if declared.contains("INT") { return String(date.microsecondsSince1970) }
            return Self.timestampLiteral(microseconds: date.microsecondsSince1970)
        case .blob(let data):
            let hex = data.map {
                String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
            }
            .joined()
            return declared == "BLOB" ? "X'\(hex)'" : "'\\x\(hex)'"
        }
    }

    /// `'YYYY-MM-DD hh:mm:ss.ffffff+00'`, or `nil` outside years 1–9999.
    private static func timestampLiteral(microseconds: Int64) -> String? {
        let (seconds, fraction) = (
            microseconds.quotientAndRemainder(dividingBy: 1_000_000).quotient
                - (microseconds % 1_000_000 < 0 ? 1 : 0),
            (microseconds % 1_000_000 + 1_000_000) % 1_000_000
        )
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents(
            [.era, .year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(seconds)))
        guard parts.era == 1, let year = parts.year, (1...9999).contains(year), let month = parts.month,
            let day = parts.day, let hour = parts.hour, let minute = parts.minute, let second = parts.second
        else { return nil }
        func pad(_ number: Int, _ width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "'\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))."
            + "\(pad(Int(fraction), 6))+00'"
    }
}
