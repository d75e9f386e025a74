import FetchKit

/// A ``ColumnReader`` over the current row of a stepping statement: records decode straight
/// from SQLite's column accessors, without an intermediate ``Row``.
///
/// Valid while the statement stays on the row; a ``RecordDecoder`` reads it once per `step()`.
/// A class, so the decoder's copies of it cost one reference count, not one per stored property.
final class SQLiteStatementReader: ColumnReader {
    private let statement: SQLiteStatement
    private let types: ContiguousArray<AttributeType>
    private let indexByName: [String: Int]

    /// A reader of `statement`'s rows, whose columns are `columns` in order.
    init(_ statement: SQLiteStatement, columns: [ResultColumn]) {
        self.statement = statement
        self.types = ContiguousArray(columns.map(\.type))
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() where index[column.name] == nil {
            index[column.name] = position
        }
        self.indexByName = index
    }

    /// The position of the column holding `attribute`, or nil.
    ///
    /// - Complexity: O(1).
    func columnIndex(of attribute: String) -> Int? { indexByName[attribute] }

    /// The value at `index` of the current row, in its attribute's canonical case.
    @inline(__always)
    func value(at index: Int) -> Value {
        statement.value(at: Int32(truncatingIfNeeded: index), as: index < types.count ? types[index] : nil)
    }
}
