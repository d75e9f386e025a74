import Foundation

/// A database value: the one currency every backend reads and writes.
///
/// `Value` round-trips every attribute type exactly: 64-bit integers, doubles
/// (including `-0.0` and the infinities), unicode text, booleans, dates to the
/// microsecond, binary data and `NULL`.
///
/// ```swift
/// let title: Value = "Write the README"
/// let due: Value = .date(Date())
/// ```
public enum Value: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A double-precision float. `NaN` is not storable and is rejected on write.
    case double(Double)
    /// Unicode text without NUL characters.
    case text(String)
    /// A boolean.
    case bool(Bool)
    /// A point in time, kept to the microsecond.
    case date(Date)
    /// Binary data.
    case blob(Data)

    /// `true` when the value is `NULL`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The attribute type this value naturally belongs to, or `nil` for `NULL`.
    public var attributeType: AttributeType? {
        switch self {
        case .null: return nil
        case .integer: return .integer
        case .double: return .double
        case .text: return .text
        case .bool: return .bool
        case .date: return .date
        case .blob: return .binary
        }
    }
}

// MARK: - Hashable (doubles compare by bit pattern so -0.0 and 0.0 stay distinct)

extension Value {
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.text(let a), .text(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.bool(let a), .bool(let b)): return a == b
        case (.date(let a), .date(let b)): return a.microsecondsSince1970 == b.microsecondsSince1970
        case (.blob(let a), .blob(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let v):
            hasher.combine(1)
            hasher.combine(v)
        case .double(let v):
            hasher.combine(2)
            hasher.combine(v.bitPattern)
        case .text(let v):
            hasher.combine(3)
            for b in v.utf8 { hasher.combine(b) }
        case .bool(let v):
            hasher.combine(4)
            hasher.combine(v)
        case .date(let v):
            hasher.combine(5)
            hasher.combine(v.microsecondsSince1970)
        case .blob(let v):
            hasher.combine(6)
            hasher.combine(v)
        }
    }
}

// MARK: - Dates to the microsecond

extension Date {
    /// Whole microseconds since 1970-01-01 00:00:00 UTC, rounded to the nearest.
    ///
    /// This is how every backend stores a date, so a date survives a round trip
    /// exactly when it is already a whole number of microseconds. A date too far from 1970 for 64 bits of
    /// microseconds (about 292,000 years either way, see ``isStorable``) saturates at `Int64.min` or
    /// `Int64.max`; such a date is refused before it reaches a database.
    public var microsecondsSince1970: Int64 {
        // Split to keep precision: Double has 53 bits, microseconds since 1970 need ~51.
        let seconds = timeIntervalSince1970
        guard seconds.isFinite else { return seconds < 0 ? .min : .max }
        let whole = seconds.rounded(.down)
        let fraction = ((seconds - whole) * 1_000_000).rounded()
        guard let wholeSeconds = Int64(exactly: whole) else { return whole < 0 ? .min : .max }
        let (micros, overflow) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return wholeSeconds < 0 ? .min : .max }
        let (total, overflowed) = micros.addingReportingOverflow(Int64(fraction))
        return overflowed ? (micros < 0 ? .min : .max) : total
    }

    /// Whether the date is a whole number of microseconds away from 1970 that fits 64 bits: about
    /// 292,000 years either way, the range FetchKit stores and compares.
    public var isStorable: Bool {
        let seconds = timeIntervalSince1970
        return seconds.isFinite && abs(seconds) < 9_223_372_036_854
    }

    /// The date that is `microseconds` after 1970-01-01 00:00:00 UTC.
    public init(microsecondsSince1970 microseconds: Int64) {
        let (q, r) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let (seconds, micros) = r < 0 ? (q - 1, r + 1_000_000) : (q, r)
        self.init(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }
}

// MARK: - Literals

extension Value: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension Value: CustomStringConvertible {
    /// A readable rendering: text quoted, `NULL` spelled out, dates in ISO 8601.
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let v): return String(v)
        case .double(let v): return String(v)
        case .text(let v): return "\"" + v.replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .bool(let v): return v ? "true" : "false"
        case .date(let v): return v.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true))
        case .blob(let v): return "<\(v.count) bytes>"
        }
    }
}
