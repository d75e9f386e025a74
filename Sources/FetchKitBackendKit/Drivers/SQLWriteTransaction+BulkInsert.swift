@_spi(Backend) import FetchKit

extension SQLWriteTransaction {
    /// Inserts `records` through the connection's bulk path; returns them with the keys the store assigned.
    ///
    /// Records that give their key come back as they were; the others are decoded again with their key.
    public func insert<R: Record>(contentsOf records: [R]) throws -> [R] {
        _ = try entity(named: R.entity.name)
        guard !records.isEmpty else { return [] }
        let batch = try compiler.insert(contentsOf: records)
        let keys = try insert(batch)
        guard batch.keylessRowCount > 0 else { return records }
        let layout = RowLayout(names: batch.entity.attributes.map(\.name))
        let decoder = RecordDecoder(R.self)
        var inserted = records
        for index in records.indices where batch.key(ofRow: index).isNull {
            var values = Array(batch.row(index))
            values[0] = keys[index]
            inserted[index] = try decoder.decode(from: Row(layout: layout, values: values))
        }
        return inserted
    }

    /// See `WriteTransaction`: the rows in as few statements as the dialect's bound-parameter limit allows.
    public func insert(contentsOf rows: [Row], into entityName: String) throws -> [Value] {
        let entity = try entity(named: entityName)
        guard !rows.isEmpty else { return [] }
        return try insert(compiler.insert(contentsOf: rows, into: entity))
    }

    /// Hands `batch` to the connection inside a savepoint, so that a failure leaves nothing of it and the
    /// transaction usable (a caller that catches the error may go on). Keys the rows choose are noted (and
    /// reported before the database picks any key for the entity), as single inserts do.
    private func insert(_ batch: SQLBulkInsert) throws -> [Value] {
        if let chosen = batch.largestGivenKey { noteChosenKey(.integer(chosen), of: batch.entity) }
        if batch.keylessRowCount > 0 { try reportChosenKey(of: batch.entity.name) }
        try savepoint("SAVEPOINT")
        do {
            let keys = try connection.insert(batch)
            try savepoint("RELEASE SAVEPOINT")
            return keys
        } catch {
            // A broken connection fails these too; the error to report is the insert's.
            try? savepoint("ROLLBACK TO SAVEPOINT")
            try? savepoint("RELEASE SAVEPOINT")
            throw error
        }
    }

    /// Runs `command` (`SAVEPOINT`, `RELEASE SAVEPOINT`, `ROLLBACK TO SAVEPOINT`) on the bulk insert's savepoint.
    private func savepoint(_ command: String) throws {
        _ = try connection.changedRows(SQLStatement(sql: command + " fetchkit_bulk_insert"))
    }
}
