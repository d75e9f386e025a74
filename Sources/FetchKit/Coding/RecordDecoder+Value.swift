import Foundation

/// Converting one column's value to a property's type, and the errors that can go wrong.
enum ValueDecoding {
    /// `value` as `T`: attribute types by a direct switch, other `ValueConvertible` types through their
    /// conversion, and any other type through its own `init(from:)` reading a single value.
    static func decode<T: Decodable>(_ value: Value, as type: T.Type, key: String, entity: String) throws -> T {
        if T.self == Date.self {
            guard let date = Date.fromDatabaseValue(value) else { throw mismatch(key, type, value, entity: entity) }
            return unsafeBitCast(date, to: T.self)
        }
        if T.self == Data.self {
            guard let data = Data.fromDatabaseValue(value) else { throw mismatch(key, type, value, entity: entity) }
            return unsafeBitCast(data, to: T.self)
        }
        if T.self == Int64.self {
            guard let int = Int64.fromDatabaseValue(value) else { throw mismatch(key, type, value, entity: entity) }
            return unsafeBitCast(int, to: T.self)
        }
        if T.self == String.self {
            guard let text = String.fromDatabaseValue(value) else { throw mismatch(key, type, value, entity: entity) }
            return unsafeBitCast(text, to: T.self)
        }
        if T.self == Double.self {
            guard let double = Double.fromDatabaseValue(value) else {
                throw mismatch(key, type, value, entity: entity)
            }
            return unsafeBitCast(double, to: T.self)
        }
        if T.self == Bool.self {
            guard let bool = Bool.fromDatabaseValue(value) else { throw mismatch(key, type, value, entity: entity) }
            return unsafeBitCast(bool, to: T.self)
        }
        return try decodeOther(value, as: type, key: key, entity: entity)
    }

    /// The slow path of ``decode(_:as:key:entity:)``, kept apart so the fast path never needs the
    /// metadata of `Optional<T>` (a costly runtime lookup per call).
    @inline(never)
    private static func decodeOther<T: Decodable>(
        _ value: Value, as type: T.Type, key: String, entity: String
    ) throws -> T {
        if let convertible = T.self as? any ValueConvertible.Type {
            guard let result = convertible.fromDatabaseValue(value) as? T else {
                throw mismatch(key, type, value, entity: entity)
            }
            return result
        }
        return try T(from: SingleValueDecoder(value: value, key: key, entity: entity))
    }

    /// `value` as the integer type `T`, when it holds an integer that fits.
    static func integer<T: FixedWidthInteger>(
        _ value: Value, as type: T.Type, key: String, entity: String
    ) throws -> T {
        guard let int = Int64.fromDatabaseValue(value), let result = T(exactly: int) else {
            throw mismatch(key, type, value, entity: entity)
        }
        return result
    }

    /// "'priority' expected Int, found \"abc\""
    static func mismatch(_ key: String, _ type: Any.Type, _ value: Value, entity: String) -> FetchKitError {
        .recordMapping(entity: entity, detail: "\(SafeText.quoted(key)) expected \(type), found \(value)")
    }

    /// "'title' expected String, but the row has no column 'title'"
    static func missing(_ key: String, _ type: Any.Type, entity: String) -> FetchKitError {
        .recordMapping(
            entity: entity,
            detail: "\(SafeText.quoted(key)) expected \(type), but the row has no column \(SafeText.quoted(key))")
    }

    /// A property whose type is a keyed or unkeyed container.
    static func nested(_ key: String, entity: String) -> FetchKitError {
        .recordMapping(
            entity: entity,
            detail: "\(SafeText.quoted(key)) is a nested Codable type; a record's properties must be attribute values")
    }
}

/// Decodes a type that reads itself as one value (a `String`-backed enum, a wrapper) from one column.
struct SingleValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: Value
    let key: String
    let entity: String

    var codingPath: [any CodingKey] { [AttributeKey(key)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw ValueDecoding.nested(key, entity: entity)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ValueDecoding.nested(key, entity: entity)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value.isNull }

    private func convert<T: ValueConvertible>(_ type: T.Type) throws -> T {
        guard let result = T.fromDatabaseValue(value) else {
            throw ValueDecoding.mismatch(key, type, value, entity: entity)
        }
        return result
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try ValueDecoding.integer(value, as: type, key: key, entity: entity)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try convert(type) }
    func decode(_ type: String.Type) throws -> String { try convert(type) }
    func decode(_ type: Double.Type) throws -> Double { try convert(type) }
    func decode(_ type: Float.Type) throws -> Float { try convert(type) }
    func decode(_ type: Int.Type) throws -> Int { try convert(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoding.decode(value, as: type, key: key, entity: entity)
    }
}

/// A coding key naming an attribute, for the coding path of errors a property's own type throws.
struct AttributeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
