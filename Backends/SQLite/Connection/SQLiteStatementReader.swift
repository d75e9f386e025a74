import CSQLite
import FetchKitBackendKit
import Foundation

/// A ``ColumnReader`` over the current row of a stepping statement: records decode straight
/// from SQLite's column accessors, without an intermediate ``Row`` or ``Value``.
///
/// Valid while the statement stays on the row; a ``RecordDecoder`` reads it once per `step()`.
/// A class, so a decoder holds it once for every row of a fetch.
final class SQLiteStatementReader: ColumnReader {
    /// The statement's handle (kept alive by `statement`).
    private let handle: OpaquePointer
    private let statement: SQLiteStatement
    private let types: ContiguousArray<AttributeType>
    private let indexByName: [String: Int]

    /// A reader of `statement`'s rows, whose columns are `columns` in order.
    init(_ statement: SQLiteStatement, columns: [ResultColumn]) {
        self.statement = statement
        self.handle = statement.handle
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
        statement.value(at: Int32(truncatingIfNeeded: index), as: type(at: index))
    }

    /// The attribute type of column `index`, or nil for a column the fetch does not describe.
    @inline(__always)
    private func type(at index: Int) -> AttributeType? {
        index >= 0 && index < types.count ? types[index] : nil
    }

    /// The current row's cell at `index`: the statement's own value object, read with the cheap
    /// `sqlite3_value_*` accessors (the `sqlite3_column_*` ones look the cell up again for every call).
    ///
    /// Valid until the next step, like every read of the row; unprotected by a mutex, which is sound
    /// because a connection is only ever used by its own thread (it is opened `NOMUTEX`).
    @inline(__always)
    private func cell(at index: Int) -> OpaquePointer? {
        sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
    }

    // The typed reads mirror `SQLiteStatement.value(at:as:)`: each returns a value exactly where that
    // method returns the matching case, reading only the storage class and the one accessor.

    /// An integer, except one its column reads as a double, date or Boolean; an exact float in an
    /// integer column.
    func integer(at index: Int) -> Int64? {
        let cell = cell(at: index)
        switch sqlite3_value_type(cell) {
        case SQLITE_INTEGER:
            switch type(at: index) {
            case .double, .date: return nil
            case .bool:
                let integer = sqlite3_value_int64(cell)
                return integer == 0 || integer == 1 ? nil : integer
            default: return sqlite3_value_int64(cell)
            }
        case SQLITE_FLOAT:
            guard type(at: index) == .integer else { return nil }
            return Int64(exactly: sqlite3_value_double(cell))
        default:
            return nil
        }
    }

    /// A float, except an exact one in an integer column; an integer in a double column.
    func double(at index: Int) -> Double? {
        let cell = cell(at: index)
        switch sqlite3_value_type(cell) {
        case SQLITE_FLOAT:
            let double = sqlite3_value_double(cell)
            return type(at: index) == .integer && Int64(exactly: double) != nil ? nil : double
        case SQLITE_INTEGER:
            guard type(at: index) == .double else { return nil }
            return Double(sqlite3_value_int64(cell))
        default:
            return nil
        }
    }

    /// Text stored as text (UTF-8, invalid sequences repaired).
    func text(at index: Int) -> String? {
        let cell = cell(at: index)
        guard sqlite3_value_type(cell) == SQLITE_TEXT else { return nil }
        guard let bytes = sqlite3_value_text(cell) else { return "" }
        let count = Int(sqlite3_value_bytes(cell))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// 0 or 1 in a Boolean column.
    func bool(at index: Int) -> Bool? {
        let cell = cell(at: index)
        guard sqlite3_value_type(cell) == SQLITE_INTEGER, type(at: index) == .bool else { return nil }
        switch sqlite3_value_int64(cell) {
        case 0: return false
        case 1: return true
        default: return nil
        }
    }

    /// Microseconds since 1970 in a date column.
    func date(at index: Int) -> Date? {
        let cell = cell(at: index)
        guard sqlite3_value_type(cell) == SQLITE_INTEGER, type(at: index) == .date else { return nil }
        return Date(microsecondsSince1970: sqlite3_value_int64(cell))
    }

    /// A blob (a zero-length blob as empty data).
    func blob(at index: Int) -> Data? {
        let cell = cell(at: index)
        guard sqlite3_value_type(cell) == SQLITE_BLOB else { return nil }
        guard let bytes = sqlite3_value_blob(cell) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_value_bytes(cell)))
    }
}
