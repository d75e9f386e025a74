import CLibPQ
@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// The writer connection as a ``SQLWriteConnection``, so the shared ``SQLWriteTransaction`` runs on it;
/// and the fetches readers run.
extension PostgresConnection: SQLWriteConnection {
    var isInTransaction: Bool { PQtransactionStatus(handle) != PQTRANS_IDLE }

    /// PostgreSQL returns assigned keys through `RETURNING`; there is no "last insert" to ask for.
    var lastAssignedKey: Value? { nil }

    func insert(_ statement: SQLStatement, keyType: AttributeType) throws -> Value? {
        let result = try execute(statement.sql, statement.bindings)
        guard result.rowCount > 0, result.columnCount > 0 else { return nil }
        let key = try result.value(row: 0, column: 0)
        return keyType.coerce(key) ?? key
    }

    func changedRows(_ statement: SQLStatement) throws -> Int {
        try execute(statement.sql, statement.bindings).changedRows
    }

    func count(_ statement: SQLStatement) throws -> Int {
        let result = try execute(statement.sql, statement.bindings)
        guard result.rowCount == 1, case .integer(let count) = try result.value(row: 0, column: 0) else {
            throw FetchKitError.database(code: 0, message: "a count returned no integer", sql: statement.sql)
        }
        return Int(count)
    }

    /// Runs a compiled fetch; rows are named as ``CompiledFetch/columns`` says and share one layout.
    func fetchRows(_ fetch: CompiledFetch) throws -> [Row] {
        let result = try execute(fetch)
        let layout = RowLayout.interned(names: fetch.columns.map(\.name))
        let types = fetch.columns.map(\.type)
        var rows = RowBuilder(layout: layout, expectedRows: result.rowCount)
        for row in 0..<result.rowCount {
            for (column, type) in types.enumerated() {
                let value = try result.value(row: row, column: column)
                rows.append(type.coerce(value) ?? value)
            }
            rows.endRow()
        }
        return rows.finish()
    }

    /// Runs a compiled fetch, checking that it returned the columns the fetch describes.
    private func execute(_ fetch: CompiledFetch) throws -> PostgresResult {
        let result = try execute(fetch.statement.sql, fetch.statement.bindings)
        guard result.columnCount == fetch.columns.count else {
            throw FetchKitError.database(
                code: 0, message: "the fetch returned \(result.columnCount) columns, expected \(fetch.columns.count)",
                sql: fetch.statement.sql)
        }
        return result
    }

    /// Moves the identity sequence of `entity`'s integer primary key past `key`, so the next insert that
    /// lets the database choose does not collide with a key a caller chose. Sequences are not
    /// transactional: a rolled-back write leaves a gap, never a collision.
    func didWrite(explicitKey key: Value, into entity: Entity, dialect: SQLDialect) throws {
        guard entity.primaryKey.type == .integer, case .integer(let value) = key else { return }
        // A role that may not read or move the sequence (a DBA granted it rights on the table only) leaves it
        // alone: keys it chooses are then the DBA's to keep apart from the sequence's.
        try execute(
            """
            SELECT CASE WHEN has_sequence_privilege(sequence, 'SELECT') AND has_sequence_privilege(sequence, 'UPDATE')
                THEN CASE WHEN COALESCE(pg_sequence_last_value(sequence), 0) < $3 THEN setval(sequence, $3) END
                END AS moved
            FROM (SELECT pg_get_serial_sequence($1, $2)::regclass AS sequence) AS found
            WHERE found.sequence IS NOT NULL
            """, [.text(dialect.quote(entity.table)), .text(entity.primaryKeyAttribute.column), .integer(value)])
    }

    /// Runs a compiled fetch and decodes each row into a record straight from the binary result.
    func fetchRecords<R: Record>(_ fetch: CompiledFetch, as type: R.Type) throws -> [R] {
        let result = try execute(fetch)
        let reader = PostgresResultReader(result, columns: fetch.columns)
        let decoder = RecordDecoder(R.self)
        let count = Int32(result.rowCount)
        var next: Int32 = 0
        return try decoder.decodeAll(from: reader) {
            guard next < count else { return false }
            reader.row = next
            next += 1
            return true
        }
    }
}
