import FetchKitBackendKit

extension PostgresConnection {
    /// Inserts every row of `batch` with one `COPY` (see ``copy(into:columns:values:)``); returns each
    /// row's primary key.
    ///
    /// A table with columns of other types than FetchKit's own (see ``NativeColumn``) is written one
    /// `INSERT` per row instead.
    ///
    /// `COPY` returns nothing, so keys the database is to assign are taken first from the key's sequence
    /// (`nextval`, one round trip for all of them) and written like given ones. A key without a sequence (one
    /// a trigger or another default makes), or one the role may not take values from, falls back to one
    /// `INSERT … RETURNING` per row.
    ///
    /// - Complexity: three round trips at most, whatever the number of rows.
    func insert(_ batch: SQLBulkInsert) throws -> [Value] {
        // A binary COPY sends FetchKit's standard types, which a column of another type (integer, uuid, …)
        // does not take: such a table's rows go one statement each, through their casts.
        if batch.rowStatements != nil { return try insertEachRow(of: batch) }
        var values = batch.values
        if batch.keylessRowCount > 0 {
            guard let assigned = try nextKeys(batch.keylessRowCount, of: batch) else {
                return try insertEachRow(of: batch)
            }
            var next = assigned.makeIterator()
            for start in stride(from: 0, to: values.count, by: batch.columnCount) where values[start].isNull {
                values[start] = next.next() ?? .null
            }
        }
        try copy(into: batch.quotedTable, columns: batch.quotedColumns, values: values)
        return stride(from: 0, to: values.count, by: batch.columnCount).map { values[$0] }
    }

    /// `count` keys from the sequence of `batch`'s integer primary key, or `nil` when it has none or the
    /// role may not call `nextval` on it (rights on the table alone let the column's default do it). The
    /// sequence is looked up once (a materialized CTE), not once per key.
    private func nextKeys(_ count: Int, of batch: SQLBulkInsert) throws -> [Value]? {
        let result = try execute(
            """
            WITH found AS MATERIALIZED (SELECT pg_get_serial_sequence($1, $2)::regclass AS sequence)
            SELECT nextval(found.sequence) AS key FROM found, generate_series(1, $3)
            WHERE found.sequence IS NOT NULL AND has_sequence_privilege(found.sequence, 'USAGE, UPDATE')
            """, [.text(batch.quotedTable), .text(batch.entity.primaryKeyAttribute.column), .integer(Int64(count))])
        guard result.rowCount == count else { return nil }
        return try (0..<count).map { try result.value(row: $0, column: 0) }
    }
}
