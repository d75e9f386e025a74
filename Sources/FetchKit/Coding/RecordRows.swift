/// The rows of one fetch, handed to a ``RowDecodable`` type so that it decodes them in a loop compiled for
/// it (``RowDecodable/decodeAll(_:)``): no per-row dynamic dispatch to reach the record's `init(row:)`.
public struct RecordRows: ~Copyable {
    /// The decoder's state, on the fetch's reader.
    @usableFromInline let state: RecordDecodingState
    /// Moves the reader to the next row; `false` after the last.
    @usableFromInline let advance: () throws -> Bool
    /// Whether the state's plan already holds for the reader's layout.
    @usableFromInline var planned: Bool

    @usableFromInline
    init(state: RecordDecodingState, planned: Bool, advance: @escaping () throws -> Bool) {
        self.state = state
        self.planned = planned
        self.advance = advance
    }

    /// Moves to the next row; `false` after the last.
    @inlinable
    public func next() throws -> Bool { try advance() }

    /// Reads the current row as `D`.
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` for a row that does not decode.
    @inlinable
    public mutating func decode<D: RowDecodable>(_ type: D.Type) throws -> D {
        state.beginRow(planned: planned)
        do {
            let record = try D(row: RecordRow(state: state))
            state.endRow(planned: planned)
            planned = true
            return record
        } catch {
            throw state.failedRow(error)
        }
    }
}

extension RowDecodable {
    /// Decodes every row of a fetch, in order.
    ///
    /// The default is the loop a fetch needs; it is compiled for each conforming type, where `init(row:)` is
    /// called directly.
    @inlinable
    public static func decodeAll(_ rows: inout RecordRows) throws -> [Self] {
        var records: [Self] = []
        while try rows.next() { records.append(try rows.decode(Self.self)) }
        return records
    }
}

extension RecordDecoder {
    /// Decodes every row `advance` moves `reader` to (a statement's rows: one reader, one layout).
    ///
    /// A ``RowDecodable`` record decodes them in its own ``RowDecodable/decodeAll(_:)``; any other record
    /// row by row through `Decodable`.
    @inlinable
    public func decodeAll<Reader: ColumnReader>(from reader: Reader, advance: @escaping () throws -> Bool) throws
        -> [R]
    {
        guard let rowDecodable else {
            var records: [R] = []
            while try advance() { records.append(try decode(from: reader)) }
            return records
        }
        state.use(reader)
        var rows = RecordRows(state: state, planned: state.begin(layout: reader.columnLayout), advance: advance)
        return try Self.decodeAll(rowDecodable, &rows)
    }

    /// `type.decodeAll(rows)`, typed `[R]` (`type` is `R`).
    @usableFromInline
    static func decodeAll<D: RowDecodable>(_ type: D.Type, _ rows: inout RecordRows) throws -> [R] {
        // `D` is `R` (the decoder's `rowDecodable` is `R.self` as a RowDecodable type): same array, same layout.
        unsafeBitCast(try D.decodeAll(&rows), to: [R].self)
    }
}

extension RecordDecodingState {
    /// Starts reading a row for ``RecordRows``.
    @usableFromInline
    func beginRow(planned: Bool) {
        cursor = 0
        isPlanned = false
        isLearning = !planned
        isReadingRow = true
    }

    /// Ends a row that decoded.
    @usableFromInline
    func endRow(planned: Bool) {
        if !planned { plan.removeSubrange(cursor...) }
        isPlanned = true
        isLearning = false
        isReadingRow = false
    }

    /// Ends a row that failed, returning the error to throw.
    @usableFromInline
    func failedRow(_ error: any Error) -> any Error {
        isLearning = false
        isReadingRow = false
        return mapped(error)
    }
}
