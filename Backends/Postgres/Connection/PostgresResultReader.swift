import CLibPQ
import FetchKitBackendKit
import Foundation

/// A ``ColumnReader`` over one row of a binary result: records decode straight from libpq's cells, without
/// an intermediate ``Row`` or ``Value`` for the common types.
///
/// A class, so a decoder holds it once for every row of a fetch; ``row`` moves it along.
final class PostgresResultReader: ColumnReader {
    /// How a column's cells read: straight from their binary form, or through ``value(at:)``.
    private enum Cell: UInt8 {
        case int8, float8, text, bool, timestamptz, other
    }

    private let result: PostgresResult
    private let handle: OpaquePointer
    private let columns: [ResultColumn]
    /// Each column's ``Cell``: its PostgreSQL type where that is what its attribute stores, else `other`.
    private let cells: ContiguousArray<Cell>
    private let indexByName: [String: Int]
    /// The row being read.
    var row: Int32 = 0

    /// A reader of `result`, whose columns are `columns` in order.
    init(_ result: PostgresResult, columns: [ResultColumn]) {
        self.result = result
        self.handle = result.handle
        self.columns = columns
        self.cells = ContiguousArray(
            columns.enumerated().map { position, column in
                switch (PQftype(result.handle, Int32(position)), column.type) {
                case (PostgresBinary.TypeID.int8, .integer): .int8
                case (PostgresBinary.TypeID.float8, .double): .float8
                case (PostgresBinary.TypeID.text, .text): .text
                case (PostgresBinary.TypeID.bool, .bool): .bool
                case (PostgresBinary.TypeID.timestamptz, .date): .timestamptz
                default: .other
                }
            })
        var index: [String: Int] = [:]
        for (position, column) in columns.enumerated() where index[column.name] == nil {
            index[column.name] = position
        }
        self.indexByName = index
    }

    func columnIndex(of attribute: String) -> Int? { indexByName[attribute] }

    /// The value at `index`, coerced to its attribute's type as a fetch of rows does.
    func value(at index: Int) -> Value {
        guard let value = try? result.value(row: Int(row), column: index) else { return .null }
        return columns[index].type.coerce(value) ?? value
    }

    /// The cell's bytes when it holds exactly `width` bytes (a NULL holds none), else `nil`: one call to libpq
    /// for the common case, where a NULL check, a length and a value would be three.
    @inline(__always)
    private func fixed(_ index: Int, width: Int32) -> UnsafeRawPointer? {
        let column = Int32(truncatingIfNeeded: index)
        guard PQgetlength(handle, row, column) == width else { return nil }
        return UnsafeRawPointer(PQgetvalue(handle, row, column))
    }

    /// The 8-byte big-endian cell at `index`, when it is one.
    @inline(__always)
    private func bigEndian64(_ index: Int) -> UInt64? {
        fixed(index, width: 8).map { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    // Typed reads for the column types FetchKit creates; anything else, and NULL, goes through value(at:).

    func integer(at index: Int) -> Int64? {
        guard cells[index] == .int8, let bits = bigEndian64(index) else { return value(at: index).integerPayload }
        return Int64(bitPattern: bits)
    }

    func double(at index: Int) -> Double? {
        guard cells[index] == .float8, let bits = bigEndian64(index) else { return value(at: index).doublePayload }
        return Double(bitPattern: bits)
    }

    func text(at index: Int) -> String? {
        let column = Int32(truncatingIfNeeded: index)
        let length = PQgetlength(handle, row, column)
        // An empty cell is an empty string or a NULL: only then is it worth asking which.
        guard cells[index] == .text, length > 0 || PQgetisnull(handle, row, column) == 0 else {
            if case .text(let text) = value(at: index) { return text }
            return nil
        }
        let bytes = UnsafeRawBufferPointer(start: PQgetvalue(handle, row, column), count: Int(length))
        return String(decoding: bytes, as: UTF8.self)
    }

    func bool(at index: Int) -> Bool? {
        guard cells[index] == .bool, let byte = fixed(index, width: 1) else {
            if case .bool(let bool) = value(at: index) { return bool }
            return nil
        }
        return byte.load(as: UInt8.self) != 0
    }

    func date(at index: Int) -> Date? {
        guard cells[index] == .timestamptz, let bits = bigEndian64(index) else {
            if case .date(let date) = value(at: index) { return date }
            return nil
        }
        return Date(microsecondsSince1970: Int64(bitPattern: bits) + PostgresBinary.epochOffset)
    }
}

extension Value {
    fileprivate var integerPayload: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }

    fileprivate var doublePayload: Double? {
        if case .double(let double) = self { return double }
        return nil
    }
}
