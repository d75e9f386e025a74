/// Converting one property's value to a database value.
enum ValueEncoding {
    /// `value` as a database value: `ValueConvertible` types directly, any other type through its own
    /// `encode(to:)` writing a single value.
    package static func encode<T: Encodable>(_ value: T, root: RecordEncoder, key: String) throws -> Value {
        if let convertible = value as? any ValueConvertible { return convertible.databaseValue }
        let single = SingleValueEncoder(root: root, key: key)
        try value.encode(to: single)
        return try single.result()
    }

    /// An integer that fits in 64 signed bits.
    static func integer<T: BinaryInteger>(_ value: T, key: String, entity: String) throws -> Value {
        guard let int = Int64(exactly: value) else {
            throw FetchKitError.recordMapping(
                entity: entity, detail: "\(SafeText.quoted(key)) value \(value) does not fit a 64-bit integer")
        }
        return .integer(int)
    }
}

/// Encodes a type that writes itself as one value (a `String`-backed enum, a wrapper) into one column.
final class SingleValueEncoder: Encoder, SingleValueEncodingContainer {
    private let root: RecordEncoder
    private let key: String
    private var value: Value?
    private var failure: FetchKitError?

    init(root: RecordEncoder, key: String) {
        self.root = root
        self.key = key
    }

    var codingPath: [any CodingKey] { [AttributeKey(key)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The single value written, or the reason there is none.
    func result() throws -> Value {
        if let failure { throw failure }
        guard let value else {
            throw FetchKitError.recordMapping(
                entity: root.entity.name, detail: "\(SafeText.quoted(key)) encoded no value")
        }
        return value
    }

    private func rejection() -> FetchKitError {
        let error = ValueDecoding.nested(key, entity: root.entity.name)
        if failure == nil { failure = error }
        root.fail(error)
        return error
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordKeyedEncodingContainer<Key>(encoder: root, rejection: rejection()))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RejectingUnkeyedContainer(root: root, error: rejection())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private func set(_ newValue: Value) { value = newValue }

    private func integer<T: BinaryInteger>(_ value: T) throws -> Value {
        try ValueEncoding.integer(value, key: key, entity: root.entity.name)
    }

    func encodeNil() throws { set(.null) }
    package func encode(_ value: Bool) throws { set(value.databaseValue) }
    package func encode(_ value: String) throws { set(value.databaseValue) }
    package func encode(_ value: Double) throws { set(value.databaseValue) }
    package func encode(_ value: Float) throws { set(value.databaseValue) }
    package func encode(_ value: Int) throws { set(value.databaseValue) }
    package func encode(_ value: Int8) throws { set(try integer(value)) }
    package func encode(_ value: Int16) throws { set(try integer(value)) }
    package func encode(_ value: Int32) throws { set(value.databaseValue) }
    package func encode(_ value: Int64) throws { set(value.databaseValue) }
    package func encode(_ value: UInt) throws { set(try integer(value)) }
    package func encode(_ value: UInt8) throws { set(try integer(value)) }
    package func encode(_ value: UInt16) throws { set(try integer(value)) }
    package func encode(_ value: UInt32) throws { set(try integer(value)) }
    package func encode(_ value: UInt64) throws { set(try integer(value)) }

    package func encode<T: Encodable>(_ value: T) throws {
        set(try ValueEncoding.encode(value, root: root, key: key))
    }
}

/// The container handed out when a property asks for a list: every write throws.
///
/// Whoever hands it out has already recorded `error` on the record's encoder, so the record fails to
/// encode even when nothing is written.
struct RejectingUnkeyedContainer: UnkeyedEncodingContainer {
    let root: RecordEncoder
    let error: FetchKitError

    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    mutating func encodeNil() throws { throw error }
    package mutating func encode(_ value: Bool) throws { throw error }
    package mutating func encode(_ value: String) throws { throw error }
    package mutating func encode(_ value: Double) throws { throw error }
    package mutating func encode(_ value: Float) throws { throw error }
    package mutating func encode(_ value: Int) throws { throw error }
    package mutating func encode(_ value: Int8) throws { throw error }
    package mutating func encode(_ value: Int16) throws { throw error }
    package mutating func encode(_ value: Int32) throws { throw error }
    package mutating func encode(_ value: Int64) throws { throw error }
    package mutating func encode(_ value: UInt) throws { throw error }
    package mutating func encode(_ value: UInt8) throws { throw error }
    package mutating func encode(_ value: UInt16) throws { throw error }
    package mutating func encode(_ value: UInt32) throws { throw error }
    package mutating func encode(_ value: UInt64) throws { throw error }
    package mutating func encode<T: Encodable>(_ value: T) throws { throw error }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(RecordKeyedEncodingContainer<NestedKey>(encoder: root, rejection: error))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    mutating func superEncoder() -> any Encoder { SingleValueEncoder(root: root, key: "") }
}
