import Foundation

extension Value: Encodable {
    /// JSON as a web client reads it: `null`, numbers, strings and booleans as themselves; a date as an ISO
    /// 8601 string in UTC with microseconds (`"2026-11-24T09:30:00.123456Z"`); binary data as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .date(let value): try container.encode(Self.iso8601(value))
        case .blob(let value): try container.encode(value.base64EncodedString())
        }
    }

    /// `date` as ISO 8601 in UTC to the microsecond.
    static func iso8601(_ date: Date) -> String {
        let micros = date.microsecondsSince1970
        let seconds = micros >= 0 ? micros / 1_000_000 : -((-micros + 999_999) / 1_000_000)
        let fraction = micros - seconds * 1_000_000
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T\(pad(parts.hour, 2)):"
            + "\(pad(parts.minute, 2)):\(pad(parts.second, 2)).\(pad(Int(fraction), 6))Z"
    }
}

extension Row: Encodable {
    /// A JSON object of the row's columns (`{"id": 1, "title": "Write report", "category.name": "Work"}`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ColumnKey.self)
        for (name, value) in zip(names, values) { try container.encode(value, forKey: ColumnKey(name)) }
    }

    private struct ColumnKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
