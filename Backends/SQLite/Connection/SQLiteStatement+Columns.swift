import CSQLite
import FetchKit
import Foundation

extension SQLiteStatement {
    /// The value of column `index` of the current row, read as `type` (the attribute's type).
    ///
    /// The stored class decides first: `NULL` is `.null`; an integer becomes `.double` for a double
    /// attribute, `.bool` for a bool attribute holding 0 or 1, `.date` (microseconds since 1970) for
    /// a date attribute; a float becomes `.integer` for an integer attribute when exact; text and blobs
    /// read as themselves (a zero-length blob as empty data). With `type` `nil` each class reads as itself.
    @inline(__always)
    func value(at index: Int32, as type: AttributeType?) -> Value {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL:
            return .null
        case SQLITE_INTEGER:
            let integer = sqlite3_column_int64(handle, index)
            switch type {
            case .double: return .double(Double(integer))
            case .bool where integer == 0 || integer == 1: return .bool(integer == 1)
            case .date: return .date(Date(microsecondsSince1970: integer))
            default: return .integer(integer)
            }
        case SQLITE_FLOAT:
            let double = sqlite3_column_double(handle, index)
            if type == .integer, let integer = Int64(exactly: double) { return .integer(integer) }
            return .double(double)
        case SQLITE_TEXT:
            return .text(text(at: index))
        default:
            return .blob(blob(at: index))
        }
    }

    /// The integer of column `index` (`NULL` reads as 0, text and floats as SQLite converts them).
    @inline(__always)
    func integer(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The text of column `index` (UTF-8, invalid sequences repaired).
    @inline(__always)
    func text(at index: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The bytes of column `index`; a zero-length blob (a `NULL` pointer) is empty data.
    @inline(__always)
    func blob(at index: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, index)))
    }
}
