import Foundation

/// A Swift type that converts to and from a database ``Value``.
///
/// FetchKit ships conformances for the standard attribute types: `Int`, `Int64`,
/// `Int32`, `Double`, `Float`, `String`, `Bool`, `Date`, `Data`, `UUID` (as text)
/// and `Optional` of any of them.
public protocol ValueConvertible: Sendable {
    /// The database value for `self`.
    var databaseValue: Value { get }
    /// Reads `value`, or returns `nil` when it cannot represent `Self`.
    static func fromDatabaseValue(_ value: Value) -> Self?
}

extension Value: ValueConvertible {
    public var databaseValue: Value { self }
    public static func fromDatabaseValue(_ value: Value) -> Value? { value }
}

extension Int64: ValueConvertible {
    public var databaseValue: Value { .integer(self) }
    public static func fromDatabaseValue(_ value: Value) -> Int64? {
        switch value {
        case .integer(let v): return v
        case .bool(let v): return v ? 1 : 0
        case .double(let v): return Int64(exactly: v)
        default: return nil
        }
    }
}

extension Int: ValueConvertible {
    public var databaseValue: Value { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: Value) -> Int? {
        Int64.fromDatabaseValue(value).flatMap { Int(exactly: $0) }
    }
}

extension Int32: ValueConvertible {
    public var databaseValue: Value { .integer(Int64(self)) }
    public static func fromDatabaseValue(_ value: Value) -> Int32? {
        Int64.fromDatabaseValue(value).flatMap { Int32(exactly: $0) }
    }
}

extension Double: ValueConvertible {
    public var databaseValue: Value { .double(self) }
    public static func fromDatabaseValue(_ value: Value) -> Double? {
        switch value {
        case .double(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }
}

extension Float: ValueConvertible {
    public var databaseValue: Value { .double(Double(self)) }
    public static func fromDatabaseValue(_ value: Value) -> Float? {
        Double.fromDatabaseValue(value).map { Float($0) }
    }
}

extension String: ValueConvertible {
    public var databaseValue: Value { .text(self) }
    public static func fromDatabaseValue(_ value: Value) -> String? {
        if case .text(let v) = value { return v }
        return nil
    }
}

extension Bool: ValueConvertible {
    public var databaseValue: Value { .bool(self) }
    public static func fromDatabaseValue(_ value: Value) -> Bool? {
        switch value {
        case .bool(let v): return v
        case .integer(let v) where v == 0 || v == 1: return v == 1
        default: return nil
        }
    }
}

extension Date: ValueConvertible {
    public var databaseValue: Value { .date(self) }
    public static func fromDatabaseValue(_ value: Value) -> Date? {
        switch value {
        case .date(let v): return v
        case .integer(let v): return Date(microsecondsSince1970: v)
        default: return nil
        }
    }
}

extension Data: ValueConvertible {
    public var databaseValue: Value { .blob(self) }
    public static func fromDatabaseValue(_ value: Value) -> Data? {
        if case .blob(let v) = value { return v }
        return nil
    }
}

extension UUID: ValueConvertible {
    public var databaseValue: Value { .text(uuidString) }
    public static func fromDatabaseValue(_ value: Value) -> UUID? {
        if case .text(let v) = value { return UUID(uuidString: v) }
        return nil
    }
}

extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    public var databaseValue: Value { self?.databaseValue ?? .null }
    public static func fromDatabaseValue(_ value: Value) -> Wrapped?? {
        if value.isNull { return .some(nil) }
        return Wrapped.fromDatabaseValue(value).map { .some($0) }
    }
}
