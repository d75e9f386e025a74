/// Converts typed records to and from rows.
///
/// Attributes map to a record's coding keys by name. Properties must be attribute values:
/// `Int`, `Int64`, `Int32`, `Double`, `Float`, `String`, `Bool`, `Date`, `Data`, `UUID`, their
/// optionals, and types that code themselves as one such value (a `String`-backed enum, say).
///
/// ```swift
/// let row = try RecordCoding.encode(todo)            // ["id": 1, "title": "Buy milk", ...]
/// let copy = try RecordCoding.decode(Todo.self, from: row)
/// ```
@_spi(Backend) public enum RecordCoding {
    /// Decodes `type` from `reader`. Attributes map to the record's coding keys by name (for a
    /// ``RowDecodable`` type, to the names its `init(row:)` reads).
    ///
    /// To decode many rows, create one ``RecordDecoder`` and reuse it: it remembers each key's column.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the property when a column
    ///   is missing for a non-optional property, a value does not convert, or a property is a nested type.
    @inlinable
    public static func decode<R: Record, Reader: ColumnReader>(_ type: R.Type, from reader: Reader) throws -> R {
        let state = RecordDecodingState.checkOut(type)
        defer { RecordDecodingState.checkIn(state, for: type) }
        if reader.columnLayout == nil { state.forget() }
        if let rowType = type as? any RowDecodable.Type {
            return try state.decodeRow(rowType, as: type, from: reader)
        }
        return try state.decode(type, from: reader)
    }

    /// Encodes `record` into a Row of attribute name → value (every encoded key must be an attribute of R.entity;
    /// nil optionals become .null; an unknown key throws FetchKitError.unknownKey(key, entity:, offset: nil)).
    ///
    /// An ``EntityRecord`` (an `@Entity` record) is encoded from its `attributeValues()`, not through
    /// `Encodable`: every attribute, foreign keys included.
    ///
    /// The row lists the encoded attributes in the entity's order, each value in the attribute's canonical
    /// case (an `Int` written to a double attribute becomes `.double`).
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` for a key that is no attribute;
    ///   ``FetchKitError/Code/recordMapping`` for a value that does not fit its attribute or
    ///   a property that is a nested type.
    public static func encode<R: Record>(_ record: R) throws -> Row {
        let encoder = RecordEncoder(entity: R.entity)
        try encoder.encode(record)
        return try encoder.row()
    }

    /// A readable account of an error thrown by a record's own `Codable` code.
    static func describe(_ error: any Error) -> String {
        func path(_ context: [any CodingKey]) -> String {
            context.isEmpty ? "" : "'" + context.map(\.stringValue).joined(separator: ".") + "': "
        }
        switch error {
        case DecodingError.dataCorrupted(let context),
            DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context):
            return path(context.codingPath) + context.debugDescription
        case EncodingError.invalidValue(_, let context):
            return path(context.codingPath) + context.debugDescription
        default:
            return String(describing: error)
        }
    }
}
