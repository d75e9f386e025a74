import CLibPQ
import FetchKitBackendKit
import Foundation

/// A ``ColumnReader`` over one row of a binary result: records decode straight from libpq's cells, without
/// an intermediate ``Row`` or ``Value`` for the common types.
///
/// A class, so a decoder holds it once for every row of a fetch; ``row`` moves it along.
final class PostgresResultReader: ColumnReader {
    private let result: PostgresResult
    private let handle: OpaquePointer
    private let columns: [ResultColumn]
    private let typeIDs: ContiguousArray<Oid>
    private let indexByName: [String: Int]
    /// The row being read.
    var row: Int32 = 0

    /// A reader of `result`, whose columns are `columns` in order.
    init(_ result: PostgresResult, columns: [ResultColumn]) {
        self.result = result
        self.handle = result.handle
        self.columns = columns
        self.typeIDs = ContiguousArray((0..<columns.count).map { PQftype(result.handle, Int32($0)) })
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

    /// The cell's bytes, or `nil` for NULL.
    @inline(__always)
    private func bytes(_ index: Int) -> UnsafeRawBufferPointer? {
        let column = Int32(truncatingIfNeeded: index)
        if PQgetisnull(handle, row, column) == 1 { return nil }
        return UnsafeRawBufferPointer(
            start: PQgetvalue(handle, row, column), count: Int(PQgetlength(handle, row, column)))
    }

    @inline(__always)
    private func bigEndian(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value
    }

    // Typed reads for the column types FetchKit creates; anything else goes through value(at:).

    func integer(at index: Int) -> Int64? {
        guard typeIDs[index] == PostgresBinary.TypeID.int8, columns[index].type == .integer,
            let bytes = bytes(index), bytes.count == 8
        else { return value(at: index).integerPayload }
        return Int64(bitPattern: bigEndian(bytes))
    }

    func double(at index: Int) -> Double? {
        guard typeIDs[index] == PostgresBinary.TypeID.float8, columns[index].type == .double,
            let bytes = bytes(index), bytes.count == 8
        else { return value(at: index).doublePayload }
        return Double(bitPattern: bigEndian(bytes))
    }

    func text(at index: Int) -> String? {
        guard typeIDs[index] == PostgresBinary.TypeID.text, columns[index].type == .text, let bytes = bytes(index)
        else {
            if case .text(let text) = value(at: index) { return text }
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func bool(at index: Int) -> Bool? {
        guard typeIDs[index] == PostgresBinary.TypeID.bool, columns[index].type == .bool, let bytes = bytes(index),
            bytes.count == 1
        else {
            if case .bool(let bool) = value(at: index) { return bool }
            return nil
        }
        return bytes[0] != 0
    }

    func date(at index: Int) -> Date? {
        guard typeIDs[index] == PostgresBinary.TypeID.timestamptz, columns[index].type == .date,
            let bytes = bytes(index), bytes.count == 8
        else {
            if case .date(let date) = value(at: index) { return date }
            return nil
        }
        return Date(microsecondsSince1970: Int64(bitPattern: bigEndian(bytes)) + PostgresBinary.epochOffset)
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
