/// Reads a record's properties from the columns of one row.
struct RecordKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: RecordDecodingState

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { state.presentAttributeNames().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { state.contains(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool {
        try state.value(for: key.stringValue)?.isNull ?? true
    }

    // MARK: Required values

    @inline(__always)
    private func required<T>(_ key: Key, _ type: T.Type) throws -> Value {
        guard let value = try state.value(for: key.stringValue) else {
            throw ValueDecoding.missing(key.stringValue, type, entity: state.entity)
        }
        return value
    }

    @inline(__always)
    private func convert<T: ValueConvertible>(_ key: Key, _ type: T.Type) throws -> T {
        let value = try required(key, type)
        guard let result = T.fromDatabaseValue(value) else {
            throw ValueDecoding.mismatch(key.stringValue, type, value, entity: state.entity)
        }
        return result
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T {
        let value = try required(key, type)
        return try ValueDecoding.integer(value, as: type, key: key.stringValue, entity: state.entity)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try convert(key, type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try convert(key, type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try convert(key, type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try convert(key, type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try convert(key, type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key, type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key, type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try convert(key, type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try convert(key, type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key, type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key, type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key, type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key, type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key, type) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try required(key, type)
        return try ValueDecoding.decode(value, as: type, key: key.stringValue, entity: state.entity)
    }

    // MARK: Optional values (one lookup each; a missing column or NULL is nil)

    @inline(__always)
    private func convertIfPresent<T: ValueConvertible>(_ key: Key, _ type: T.Type) throws -> T? {
        guard let value = try state.value(for: key.stringValue), !value.isNull else { return nil }
        guard let result = T.fromDatabaseValue(value) else {
            throw ValueDecoding.mismatch(key.stringValue, type, value, entity: state.entity)
        }
        return result
    }

    @inline(__always)
    private func integerIfPresent<T: FixedWidthInteger>(_ key: Key, _ type: T.Type) throws -> T? {
        guard let value = try state.value(for: key.stringValue), !value.isNull else { return nil }
        return try ValueDecoding.integer(value, as: type, key: key.stringValue, entity: state.entity)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try convertIfPresent(key, type) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key, type) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key, type) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = try state.value(for: key.stringValue), !value.isNull else { return nil }
        return try ValueDecoding.decode(value, as: type, key: key.stringValue, entity: state.entity)
    }

    // MARK: Nested containers are not attributes

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }

    func superDecoder() throws -> any Decoder { state }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }
}
