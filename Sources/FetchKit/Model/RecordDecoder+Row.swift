/// The `Decoder` a record's `init(from:)` reads one row through.
final class RowDecoder<Reader: ColumnReader>: Decoder {
    let reader: Reader
    let cache: ColumnCache

    init(reader: Reader, cache: ColumnCache) {
        self.reader = reader
        self.cache = cache
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedContainer<Reader, Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw FetchKitError.recordMapping(entity: cache.entity, detail: "a record decodes from keyed attributes, not a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw FetchKitError.recordMapping(
            entity: cache.entity, detail: "a record decodes from keyed attributes, not a single value")
    }

    /// The value stored for `key`, or nil when the row has no such column.
    @inline(__always)
    func value(for key: String) -> Value? {
        guard let column = cache.column(of: key, in: reader) else { return nil }
        return reader.value(at: column)
    }
}
