/// Writes a record's properties as attribute values; nil optionals are written as `.null`.
struct RecordKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    /// The record's encoder.
    let encoder: RecordEncoder
    /// Set for a container nested inside a property: every write throws it.
    var rejection: FetchKitError?

    init(encoder: RecordEncoder, rejection: FetchKitError? = nil) {
        self.encoder = encoder
        self.rejection = rejection
    }

    var codingPath: [any CodingKey] { [] }

    private func store(_ value: Value, _ key: Key) throws {
        if let rejection { throw rejection }
        try encoder.store(value, for: key.stringValue)
    }

    private func integer<T: BinaryInteger>(_ value: T, _ key: Key) throws -> Value {
        try ValueEncoding.integer(value, key: key.stringValue, entity: encoder.entity.name)
    }

    mutating func encodeNil(forKey key: Key) throws { try store(.null, key) }
    package mutating func encode(_ value: Bool, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: String, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: Double, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: Float, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: Int, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: Int8, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: Int16, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: Int32, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: Int64, forKey key: Key) throws { try store(value.databaseValue, key) }
    package mutating func encode(_ value: UInt, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: UInt8, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: UInt16, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: UInt32, forKey key: Key) throws { try store(integer(value, key), key) }
    package mutating func encode(_ value: UInt64, forKey key: Key) throws { try store(integer(value, key), key) }

    package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let rejection { throw rejection }
        try store(ValueEncoding.encode(value, root: encoder, key: key.stringValue), key)
    }

    // MARK: nil is NULL, not an absent attribute

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try store(value?.databaseValue ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try store(value.map { try integer($0, key) } ?? .null, key)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try store(.null, key) }
        try encode(value, forKey: key)
    }

    // MARK: Nested containers are not attributes

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let error = ValueDecoding.nested(key.stringValue, entity: encoder.entity.name)
        encoder.fail(error)
        return KeyedEncodingContainer(RecordKeyedEncodingContainer<NestedKey>(encoder: encoder, rejection: error))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let error = ValueDecoding.nested(key.stringValue, entity: encoder.entity.name)
        encoder.fail(error)
        return RejectingUnkeyedContainer(root: encoder, error: error)
    }

    mutating func superEncoder() -> any Encoder { encoder }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.fail(ValueDecoding.nested(key.stringValue, entity: encoder.entity.name))
        return SingleValueEncoder(root: encoder, key: key.stringValue)
    }
}
