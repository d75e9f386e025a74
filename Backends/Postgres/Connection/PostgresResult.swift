import CLibPQ
@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// The result of one statement: rows of binary values, or the number of rows a command changed. Cleared
/// (`PQclear`) when released. Used only on its connection's thread.
final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { PQclear(handle) }

    /// The number of rows returned.
    var rowCount: Int { Int(PQntuples(handle)) }

    /// The number of columns.
    var columnCount: Int { Int(PQnfields(handle)) }

    /// The number of rows an INSERT, UPDATE, DELETE or MERGE changed (0 for other statements: libpq also
    /// counts the rows a SELECT returned, which changed nothing).
    var changedRows: Int {
        let tag = String(cString: PQcmdStatus(handle))
        guard ["INSERT", "UPDATE", "DELETE", "MERGE"].contains(where: tag.hasPrefix) else { return 0 }
        return Int(String(cString: PQcmdTuples(handle))) ?? 0
    }

    /// The name of column `index`.
    func name(ofColumn index: Int) -> String { String(cString: PQfname(handle, Int32(index))) }

    /// The column names, in order.
    var columnNames: [String] { (0..<columnCount).map(name(ofColumn:)) }

    /// The value at `row`, `column`.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` for a column type FetchKit does not read, or for a
    ///   result in text format (of ``PostgresConnection/run(_:)``: values are read from binary results only).
    func value(row: Int, column: Int) throws -> Value {
        let (r, c) = (Int32(row), Int32(column))
        if PQgetisnull(handle, r, c) == 1 { return .null }
        guard PQfformat(handle, c) == 1 else {
            throw FetchKitError.unsupported(
                "column \(SafeText.quoted(name(ofColumn: column))) came back as text: read rows of statements "
                    + "run by execute, in "
                    + "binary"
            )
        }
        let bytes = UnsafeRawBufferPointer(start: PQgetvalue(handle, r, c), count: Int(PQgetlength(handle, r, c)))
        return try PostgresBinary.decode(bytes, type: PQftype(handle, c), column: name(ofColumn: column))
    }

    /// Every row, as ``Row``s sharing one layout.
    func rows() throws -> [Row] {
        let layout = RowLayout(names: columnNames)
        var rows = RowBuilder(layout: layout, expectedRows: rowCount)
        for row in 0..<rowCount {
            for column in 0..<columnCount { rows.append(try value(row: row, column: column)) }
            rows.endRow()
        }
        return rows.finish()
    }
}
