@_spi(Backend) import FetchKit
import FetchKitBackendKit

extension SQLiteConnection {
    /// Runs a compiled fetch and returns its rows, which share one ``RowLayout``.
    ///
    /// - Complexity: O(*rows* × *columns*).
    func fetchRows(_ fetch: CompiledFetch) throws -> [Row] {
        try withStatement(fetch.statement.sql) { statement in
            try statement.bind(fetch.statement.bindings)
            try statement.requireColumns(fetch.columns.count)
            let layout = RowLayout.interned(names: fetch.columns.map(\.name))
            let types = fetch.columns.map(\.type)
            var rows = RowBuilder(layout: layout)
            while try statement.step() {
                for (index, type) in types.enumerated() {
                    rows.append(statement.value(at: Int32(index), as: type))
                }
                rows.endRow()
            }
            return rows.finish()
        }
    }

    /// Runs a compiled fetch and decodes each row into a record straight from the statement.
    ///
    /// This code is not specialised for `R` (callers are generic across the module boundary): a
    /// ``RowDecodable`` record decodes the rows in its own loop, compiled for it.
    func fetchRecords<R: Record>(_ fetch: CompiledFetch, as type: R.Type) throws -> [R] {
        try withStatement(fetch.statement.sql) { statement in
            try statement.bind(fetch.statement.bindings)
            try statement.requireColumns(fetch.columns.count)
            let reader = SQLiteStatementReader(statement, columns: fetch.columns)
            return try RecordDecoder(R.self).decodeAll(from: reader) { try statement.step() }
        }
    }

    /// Runs a compiled `SELECT count(*)` and returns the count.
    func count(_ sql: SQLStatement) throws -> Int {
        try withStatement(sql.sql) { statement in
            try statement.bind(sql.bindings)
            guard try statement.step() else {
                throw FetchKitError.database(code: 0, message: "a count returned no row", sql: sql.sql)
            }
            return Int(statement.integer(at: 0))
        }
    }
}

extension SQLiteStatement {
    /// Throws unless the statement yields at least `count` columns.
    func requireColumns(_ count: Int) throws {
        guard Int(columnCount) >= count else {
            throw FetchKitError.database(
                code: 0, message: "the statement yields \(columnCount) columns, the fetch expects \(count)", sql: sql)
        }
    }
}
