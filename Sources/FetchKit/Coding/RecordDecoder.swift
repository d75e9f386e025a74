/// Decodes rows of one entity into records, remembering the column of each key between rows.
///
/// Create one per fetch and call ``decode(from:)`` for each row. The first row teaches the decoder
/// which column each of the record's keys reads; later rows of the same layout read just those
/// columns, by position, as the record's `init(from:)` asks for them, without any lookup by name.
///
/// ```swift
/// let decoder = RecordDecoder(Todo.self)
/// let todos = try rows.map { try decoder.decode(from: $0) }
/// ```
///
/// A decoder is not thread-safe: use one per task or thread.
public final class RecordDecoder<R: Record> {
    @usableFromInline let state: RecordDecodingState
    /// `R`, when it reads itself from rows (``RowDecodable``).
    @usableFromInline let rowDecodable: (any RowDecodable.Type)?

    /// Creates a decoder for records of `type`.
    public init(_ type: R.Type = R.self) {
        self.state = RecordDecodingState(for: type)
        self.rowDecodable = type as? any RowDecodable.Type
    }

    deinit { state.release() }

    /// Decodes one record from `reader`, through `init(row:)` when `R` is ``RowDecodable``, else through
    /// `init(from:)`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` naming the property when a column
    ///   is missing for a non-optional property, a value does not convert, or a property is a nested type.
    /// - Complexity: O(*k*) in the number of the record's coding keys.
    @inlinable @inline(__always)
    public func decode<Reader: ColumnReader>(from reader: Reader) throws -> R {
        if let rowDecodable {
            return try state.decodeRow(rowDecodable, as: R.self, from: reader)
        }
        return try state.decode(R.self, from: reader)
    }
}

extension RecordDecodingState {
    /// Decodes a record from `reader`: by plan when the reader's layout has one, else learning.
    ///
    /// Inlined into the caller, where the reader's type is usually known even when the record's is not:
    /// only ``decodePlanned(_:)`` (one call per row) stays generic over the record.
    @inlinable @inline(__always)
    public func decode<R: Record, Reader: ColumnReader>(_ type: R.Type, from reader: Reader) throws -> R {
        use(reader)
        if begin(layout: reader.columnLayout) {
            do {
                return try decodePlanned(type)
            } catch is PlanMismatch {
                // The record asked for other keys than planned: learn this row's.
            }
        }
        return try decodeLearning(type)
    }

    /// Decodes a ``RowDecodable`` record from `reader` (`rowType` is `R`): by plan when the reader's
    /// layout has one, else learning it.
    @inlinable @inline(__always)
    public func decodeRow<R: Record, Reader: ColumnReader>(
        _ rowType: any RowDecodable.Type, as type: R.Type, from reader: Reader
    ) throws -> R {
        use(reader)
        return try decodeRow(rowType, as: type, planned: begin(layout: reader.columnLayout))
    }
}
